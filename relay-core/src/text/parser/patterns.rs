//! Patterns of a `match`'s arms: `_`, a variable, a constructor with its fields, a tuple.

use super::literals::MAX_NESTING;
use super::{PResult, Parser};
use crate::expr::{PatId, Pattern};
use crate::lexer::Tok;

impl Parser<'_, '_> {
    /// A pattern; the variables it binds are bound as locals.
    pub(super) fn pattern(&mut self, depth: usize) -> PResult<PatId> {
        if depth > MAX_NESTING {
            return Err(self.expected(&format!("a pattern nested at most {MAX_NESTING} deep")));
        }
        match self.tok.kind {
            Tok::Ident if self.is_word("_") => {
                let t = self.bump()?;
                Ok(self.m.at(t.span()).pat(Pattern::Wildcard))
            }
            Tok::Local => {
                let t = self.bump()?;
                let t = self.binder(t)?;
                let ann = self.annotation()?;
                let v = self.new_local(t, ann);
                self.names.locals.bind(&self.m, v);
                let span = self.span_from(t.lo);
                Ok(self.m.at(span).pat(Pattern::Var(v)))
            }
            Tok::Ident => {
                let t = self.bump()?;
                let name = self.text(t);
                let c = self.adts.ctor(name);
                let lower = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
                if c.is_none() && lower && !self.is(Tok::LParen) {
                    // The spec's `case Single(x)`: a variable without `%`.
                    let v = self.m.at(t.span()).var(name, None);
                    self.names.locals.bind(&self.m, v);
                    return Ok(self.m.pat(Pattern::Var(v)));
                }
                let mut fields = Vec::new();
                if self.eat(Tok::LParen)? {
                    self.list(Tok::RParen, |p| {
                        p.pattern(depth + 1).map(|v| fields.push(v))
                    })?;
                }
                let span = self.span_from(t.lo);
                self.m.at(span);
                match c {
                    Some(c) => Ok(self.m.pat(Pattern::Ctor(c, fields.into()))),
                    None => {
                        let message = format!("unknown constructor `{name}`");
                        let ctor = Some(crate::registry::Unknown::Constructor);
                        self.unknown(t.span(), message, (name, ""), ctor, |p| {
                            p.adts.ctor_names().map(str::to_string).collect()
                        });
                        Ok(self.m.pat(Pattern::Wildcard))
                    }
                }
            }
            Tok::LParen => {
                let lo = self.bump()?.lo;
                let mut fields = Vec::new();
                self.list(Tok::RParen, |p| {
                    p.pattern(depth + 1).map(|v| fields.push(v))
                })?;
                // `(p)` is a tuple pattern of one field, as TVM reads it.
                let span = self.span_from(lo);
                Ok(self.m.at(span).pat(Pattern::Tuple(fields.into())))
            }
            _ => Err(self.expected("a pattern")),
        }
    }
}
