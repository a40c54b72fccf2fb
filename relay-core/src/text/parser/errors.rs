//! The errors of names the parser cannot resolve (with "did you mean" help), kept out of
//! the paths that read well-formed text.

use super::{ParseError, Parser};
use crate::expr::{ExprId, Span};
use crate::lexer::Token;
use crate::registry::Unknown;

/// How many unknown names of a parse get help (more are not shown, so that a thousand
/// unknown names do not each go over every name in scope).
const MAX_SUGGESTED: usize = 50;

impl Parser<'_, '_> {
    /// Reports `message` about the unknown name `name` at `span`. Its help: for a name of
    /// the registry (`what`) whose crate the registry seems to lack, how to link it
    /// ([`crate::adt::AdtTable::link_hint`]); else the closest of `candidates`, written
    /// with `sigil` before it.
    #[cold]
    pub(super) fn unknown(
        &mut self,
        span: Span,
        message: String,
        (name, sigil): (&str, &str),
        what: Option<Unknown>,
        candidates: impl FnOnce(&mut Self) -> Vec<String>,
    ) {
        let mut e = ParseError::new(span, message);
        self.suggested += 1;
        if self.suggested <= MAX_SUGGESTED {
            e.help = match what.and_then(|w| self.adts.link_hint(w, name)) {
                Some(hint) => Some(hint),
                None => crate::diag::did_you_mean(name, candidates(self).iter().map(|c| &**c))
                    .map(|c| format!("did you mean `{sigil}{c}`?")),
            };
        }
        self.errors.push(e);
    }

    /// Reports the `%name` token `t` that no binding in scope names; a placeholder for it.
    #[cold]
    pub(super) fn unbound_local(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unbound local variable `%{name}`");
        self.unknown(t.span(), message, (name, "%"), None, |p| {
            p.names
                .locals
                .names(&p.m)
                .into_iter()
                .map(str::to_string)
                .collect()
        });
        self.placeholder(t.span())
    }

    /// Reports the `@name` token `t` that no global names; a placeholder for it.
    #[cold]
    pub(super) fn unknown_global(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unknown global `@{name}`");
        self.unknown(t.span(), message, (name, "@"), None, |p| {
            p.m.globals().iter().map(|g| g.name.to_string()).collect()
        });
        self.placeholder(t.span())
    }

    /// Reports the bare name `t` that is no constructor, operator or variable; a
    /// placeholder for it.
    #[cold]
    pub(super) fn unknown_word(&mut self, t: Token) -> ExprId {
        let name = self.text(t);
        let (what, unknown) = if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            ("constructor", Unknown::Constructor)
        } else {
            ("operator", Unknown::Operator)
        };
        let message = format!("unknown {what} `{name}`");
        self.unknown(t.span(), message, (name, ""), Some(unknown), |p| {
            let mut names: Vec<String> = p.adts.ctor_names().map(str::to_string).collect();
            let ops = p.adts.registry().map_or(&[][..], |r| r.ops());
            names.extend(ops.iter().map(|op| op.name.to_string()));
            names
        });
        self.placeholder(t.span())
    }
}
