//! Name resolution while a module is read, behind one interface: the local variables in
//! their scopes ([`table::Locals`]: `get`, `bind`, `mark`, `unbind_to`), the globals the source defines ([`Parser::declare_global`]),
//! and the mentions of globals not defined yet, resolved at the source's end
//! ([`Parser::global_mention`], [`Parser::resolve_forward`]).
//!
//! The grammar asks only this interface. Behind it the locals are kept in a fast table
//! ([`table`]), made for a million-binding `let` chain; the grammar does not know how.

mod table;

use super::{ParseError, Parser};
use crate::diag::Label;
use crate::expr::{ExprId, GlobalId, Span};
use crate::lexer::Token;
use rustc_hash::FxHashMap;

/// The names in scope: locals, the source's globals, and the mentions of globals that
/// wait for the source's end.
#[derive(Default)]
pub(super) struct Names<'s> {
    /// The local variables in their scopes.
    pub(super) locals: table::Locals,
    /// The globals this source has defined so far, by name.
    globals: FxHashMap<&'s str, GlobalId>,
    /// The mentions of globals the source had not defined when they were read, with
    /// their names: resolved at the end of the source ([`Parser::resolve_forward`]).
    forward: Vec<(ExprId, Token)>,
}

impl<'s> Names<'s> {
    /// Forgets the globals of the source read before (a new source starts).
    pub(super) fn start_source(&mut self) {
        self.globals.clear();
        self.forward.clear();
    }

    // ----- globals -----

    /// The global `name` (without its `@`) this source defines, if it has read it.
    pub(super) fn global(&self, name: &str) -> Option<GlobalId> {
        self.globals.get(name).copied()
    }
}

impl<'s> Parser<'s, '_> {
    /// Resolves the mentions of globals the source had not defined when they were read.
    pub(super) fn resolve_forward(&mut self) {
        for (e, t) in std::mem::take(&mut self.names.forward) {
            let name = &self.text(t)[1..];
            let g = self.names.global(name).or_else(|| self.m.global(name));
            if g.is_none() {
                self.unknown_global(t);
            }
            self.m.retarget_global(e, g);
        }
    }

    /// A mention of the global named by token `t` (`@name`).
    pub(super) fn global_mention(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        match self.names.global(name) {
            Some(g) => self.m.at(t.span()).global_ref(g),
            None => {
                // Decided at the end of the source; a placeholder global until then.
                let e = self.m.at(t.span()).global_ref(GlobalId(u32::MAX));
                self.names.forward.push((e, t));
                e
            }
        }
    }

    /// Declares the global of the definition whose name is token `name`: a new one, or
    /// one that shadows an earlier source's; `None` (and an error naming both places)
    /// if the source defined it already.
    pub(super) fn declare_global(&mut self, name: Token) -> Option<GlobalId> {
        let n = &self.text(name)[1..];
        if let Some(first) = self.names.global(n) {
            let first = self.m.global_def(first).span;
            let message = format!(
                "`@{n}` is defined twice: first at {}, again at {}",
                self.place(first.lo),
                self.place(name.lo)
            );
            let mut e = ParseError::new(name.span(), message);
            e.labels
                .push(Label::new(first, format!("`@{n}` first defined here")));
            e.help = Some(format!("rename one of the two definitions of `@{n}`"));
            self.errors.push(e);
            return None;
        }
        Some(self.define_global(n, name.span()))
    }

    /// The global `name` this source defines, at `span`: a new one, or one that shadows
    /// an earlier source's.
    pub(super) fn define_global(&mut self, name: &'s str, span: Span) -> GlobalId {
        let g = match self.m.global(name) {
            Some(_) => self.m.at(span).shadow(name),
            None => self
                .m
                .at(span)
                .declare(name)
                .expect("a name not declared yet"),
        };
        self.names.globals.insert(name, g);
        g
    }
}
