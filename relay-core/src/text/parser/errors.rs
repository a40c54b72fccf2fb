//! The errors of names the parser cannot resolve (with "did you mean" help), kept out of
//! the paths that read well-formed text.

use super::{ParseError, Parser};
use crate::expr::{ExprId, Span};
use crate::lexer::Token;
use crate::registry::Unknown;

/// How many unknown names of a parse get a "did you mean" (more are not shown).
const MAX_SUGGESTED: usize = 50;

impl Parser<'_, '_> {
    /// Reports `message` about the unknown name `name` at `span`, with the closest of
    /// `candidates` (written with `sigil` before it) as help.
    #[cold]
    pub(super) fn unknown_name<'c>(
        &mut self,
        span: Span,
        message: String,
        name: &str,
        sigil: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) {
        let mut e = ParseError::new(span, message);
        e.help = crate::diag::did_you_mean(name, candidates)
            .map(|c| format!("did you mean `{sigil}{c}`?"));
        self.errors.push(e);
    }

    /// Whether an unknown name still gets a "did you mean": the first
    /// [`MAX_SUGGESTED`] of a parse do (no more are shown), so that a thousand unknown
    /// names do not each go over every name in scope.
    fn suggests(&mut self) -> bool {
        self.suggested += 1;
        self.suggested <= MAX_SUGGESTED
    }

    /// An unknown name without a suggestion ([`Parser::suggests`]).
    fn unknown_plain(&mut self, span: Span, message: String) -> ExprId {
        self.errors.push(ParseError::new(span, message));
        self.placeholder(span)
    }

    /// [`Parser::unknown_name`] for a name of the registry (an operator, a data type or
    /// a constructor, as `what` says): when the registry seems to lack the crate that
    /// declares it, the help says how to link the crate instead
    /// ([`crate::adt::AdtTable::link_hint`]).
    #[cold]
    pub(super) fn unknown_registered<'c>(
        &mut self,
        span: Span,
        message: String,
        name: &str,
        what: Unknown,
        candidates: impl IntoIterator<Item = &'c str>,
    ) {
        match self.adts.link_hint(what, name) {
            Some(hint) => {
                let mut e = ParseError::new(span, message);
                e.help = Some(hint);
                self.errors.push(e);
            }
            None => self.unknown_name(span, message, name, "", candidates),
        }
    }

    /// Reports the `%name` token `t` that no binding in scope names; a placeholder for it.
    #[cold]
    pub(super) fn unbound_local(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unbound local variable `%{name}`");
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let names: Vec<String> = self
            .names
            .local_names(&self.m)
            .into_iter()
            .map(str::to_string)
            .collect();
        self.unknown_name(
            t.span(),
            message,
            name,
            "%",
            names.iter().map(String::as_str),
        );
        self.placeholder(t.span())
    }

    /// Reports the `@name` token `t` that no global names; a placeholder for it.
    #[cold]
    pub(super) fn unknown_global(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unknown global `@{name}`");
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let globals: Vec<String> = self
            .m
            .globals()
            .iter()
            .map(|g| g.name.to_string())
            .collect();
        self.unknown_name(
            t.span(),
            message,
            name,
            "@",
            globals.iter().map(String::as_str),
        );
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
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let mut names: Vec<String> = self.adts.ctor_names().map(str::to_string).collect();
        let ops = self.adts.registry().map_or(&[][..], |r| r.ops());
        names.extend(ops.iter().map(|op| op.name.to_string()));
        self.unknown_registered(
            t.span(),
            message,
            name,
            unknown,
            names.iter().map(String::as_str),
        );
        self.placeholder(t.span())
    }
}
