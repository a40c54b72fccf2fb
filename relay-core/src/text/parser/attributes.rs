//! Attributes: `name=value, ..` at the end of a call's arguments or a function's
//! parameters, each value a number, a string, a list, a name, or a form TVM prints for
//! people ([`Parser::printed_value`]).

use super::expressions::blank;
use super::literals::MAX_NESTING;
use super::literals::{unescape, Number};
use super::{PResult, ParseError, Parser};
use crate::attrs::{AttrValue, Attrs};
use crate::lexer::Tok;
use std::sync::Arc;

impl<'s> Parser<'s, '_> {
    /// Whether an attribute `name=value` starts at the current token.
    pub(super) fn at_attr(&self) -> PResult<bool> {
        Ok(self.is(Tok::Ident) && self.peek2()?.kind == Tok::Eq)
    }

    /// The text of the attribute list at byte `lo` up to its `)`, blanks before it
    /// aside, if it has no string, comment or line break: a list written as an earlier
    /// one was is that list ([`Parser::attrs`], the fast path).
    pub(super) fn attrs_text(&self, lo: usize) -> Option<&'s str> {
        let b = &self.src.as_bytes()[lo..];
        let k = b
            .iter()
            .position(|&c| matches!(c, b')' | b'"' | b'/' | b'#' | b'\n'));
        let k = k.filter(|&k| b[k] == b')')?;
        let text = self.src[lo..lo + k].trim_end();
        // Only the lexer's blanks before the `)` (`trim_end` takes any space).
        (blank(self.src.as_bytes(), lo + text.len()) == lo + k).then_some(text)
    }

    /// `name=value, ...` up to the `)` of a call (not consumed).
    pub(super) fn attrs(&mut self) -> PResult<Option<Arc<Attrs>>> {
        let lo = self.tok.lo as usize;
        let known = self
            .attrs_text(lo)
            .and_then(|t| Some((t, self.attr_lists.get(t)?)));
        if let Some((text, attrs)) = known {
            let attrs = attrs.clone();
            self.jump(lo + text.len())?;
            return Ok(Some(attrs));
        }
        let mut entries = Vec::new();
        while !self.is(Tok::RParen) {
            if !self.at_attr()? {
                return Err(self.expected("an attribute `name=value` or `)`"));
            }
            let name = self.bump()?;
            self.bump()?;
            let n = self.text(name);
            if entries.iter().any(|(e, _): &(Box<str>, _)| &**e == n) {
                return Err(ParseError::new(
                    name.span(),
                    format!("attribute `{n}` is given twice"),
                ));
            }
            let v = self.attr_value(0)?;
            entries.push((n.into(), v));
            if !self.eat(Tok::Comma)? && !self.is(Tok::RParen) {
                return Err(self.expected("`,` or `)`"));
            }
        }
        let text = self.src[lo..self.tok.lo as usize].trim_end();
        let attrs = self
            .attr_lists
            .entry(text)
            .or_insert_with(|| Arc::new(Attrs::new(entries)));
        Ok(Some(attrs.clone()))
    }

    pub(super) fn attr_value(&mut self, depth: usize) -> PResult<AttrValue> {
        if depth > MAX_NESTING {
            return Err(self.expected(&format!(
                "an attribute value nested at most {MAX_NESTING} lists deep"
            )));
        }
        let lo = self.tok.lo;
        if let Some(v) = self.printed_value(lo)? {
            return Ok(v);
        }
        match self.tok.kind {
            Tok::Num | Tok::Minus => {
                let negative = self.eat(Tok::Minus)?;
                let t = self.expect(Tok::Num, "a number after `-`")?;
                Ok(match self.number(t, negative, lo)? {
                    Number::Int(v, _) => AttrValue::Int(v),
                    Number::Float(v, _) => AttrValue::Float(v),
                })
            }
            Tok::Str => {
                let t = self.bump()?;
                Ok(AttrValue::Str(unescape(self.text(t)).into()))
            }
            Tok::LBracket => {
                self.bump()?;
                let mut items = Vec::new();
                self.list(Tok::RBracket, |p| {
                    p.attr_value(depth + 1).map(|v| items.push(v))
                })?;
                Ok(AttrValue::List(items))
            }
            Tok::Ident => {
                let t = self.bump()?;
                Ok(match self.text(t) {
                    "True" => AttrValue::Bool(true),
                    "False" => AttrValue::Bool(false),
                    "None" => AttrValue::None,
                    other => AttrValue::Str(other.into()),
                })
            }
            _ => Err(self.expected("an attribute value")),
        }
    }
}
