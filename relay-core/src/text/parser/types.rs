//! Types in a program: annotations, type arguments at a call, type parameters. A type's
//! own grammar is the type parser's ([`crate::ty::parse_type`]); this reads one where the
//! program has it, and keeps the types read by their text.

use super::{PResult, ParseError, Parser};
use crate::expr::Span;
use crate::fold::ParamValue;
use crate::kind::Param;
use crate::lexer::Tok;
use crate::ty::{parse_shape_at, parse_type_at, parse_type_params_at, Binding, Ty, TypeParseError};

impl Parser<'_, '_> {
    pub(super) fn type_error(&self, e: TypeParseError) -> ParseError {
        let hi = word_end(self.src, e.offset);
        let help = self.adts.unknown_type_hint(&e).or(e.help);
        let span = Span {
            lo: e.offset as u32,
            hi: hi as u32,
        };
        ParseError {
            help,
            ..ParseError::new(span, e.message)
        }
    }

    /// The type that starts at the current token.
    pub(super) fn ty(&mut self) -> PResult<Ty> {
        if self.is(Tok::Eof) {
            return Err(self.expected("a type"));
        }
        let lo = self.tok.lo as usize;
        // The same text in the same scope is the same type: parameters of one type (a
        // model's weights) are read once.
        let text = type_text(self.src, lo);
        if self.type_cache_version != self.scope.version() {
            self.type_cache.clear();
            self.type_cache_version = self.scope.version();
        }
        if let Some(&t) = self.type_cache.get(text) {
            self.jump(lo + text.len())?;
            return Ok(t);
        }
        let (t, end) = parse_type_at(self.tcx, &mut self.scope, self.src, lo)
            .map_err(|e| self.type_error(e))?;
        // (Each `_` is an unknown of its own: a type with one is read anew.)
        if end == lo + text.len()
            && self.scope.version() == self.type_cache_version
            && !self.tcx.has_holes(t)
        {
            self.type_cache.insert(text, t);
        }
        self.jump(end)?;
        Ok(t)
    }

    /// `(':' ty)?`, a binder's annotation.
    pub(super) fn annotation(&mut self) -> PResult<Option<Ty>> {
        match self.eat(Tok::Colon)? {
            true => self.ty().map(Some),
            false => Ok(None),
        }
    }

    /// A type argument at a call: a shape (`(10, n)`, a shape parameter) or a type.
    pub(super) fn type_arg(&mut self) -> PResult<ParamValue> {
        let at = self.tok.lo as usize;
        if let Ok((s, end)) = parse_shape_at(self.tcx, &mut self.scope, self.src, at) {
            self.jump(end)?;
            return Ok(ParamValue::Shape(s));
        }
        Ok(ParamValue::Ty(self.ty()?))
    }

    /// Optional type parameters `[A, s: Shape]` (or the spec's `<a>`), bound in the type
    /// scope; returns them and what their names shadowed.
    #[allow(clippy::type_complexity)]
    pub(super) fn type_params(
        &mut self,
    ) -> PResult<(Vec<Param>, Vec<(Box<str>, Option<Binding>)>)> {
        if !self.is(Tok::LBracket) && !self.is(Tok::Lt) {
            return Ok(Default::default());
        }
        let (params, end) =
            parse_type_params_at(self.tcx, &mut self.scope, self.src, self.tok.lo as usize)
                .map_err(|e| self.type_error(e))?;
        self.jump(end)?;
        Ok(params)
    }

    pub(super) fn restore_types(&mut self, restore: Vec<(Box<str>, Option<Binding>)>) {
        for (name, prev) in restore.into_iter().rev() {
            self.scope.unbind(&name, prev);
        }
    }
}

/// The text of the type starting at `lo`, as far as a quick scan can tell: up to a `,`,
/// `)`, `]`, `{`, `;` or `=` outside brackets, trailing blanks excluded (and short of any
/// comment). Only a key: the type parser decides where the type really ends.
pub(super) fn type_text(src: &str, lo: usize) -> &str {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = lo;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' if depth > 0 => depth -= 1,
            b')' | b']' | b',' | b'{' | b';' | b'=' | b'/' | b'#' if depth == 0 => break,
            b'/' | b'#' | b'"' => break,
            _ => {}
        }
        i += 1;
    }
    while i > lo && b[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    &src[lo..i]
}

/// The offset just past the name or the single byte at `offset`, for an error's span.
pub(super) fn word_end(src: &str, offset: usize) -> usize {
    let b = src.as_bytes();
    let mut end = offset;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b'.') {
        end += 1;
    }
    if end == offset {
        // One character (all its bytes).
        end = src
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .map_or((offset + 1).min(b.len()), |c| offset + c.len_utf8());
    }
    end
}
