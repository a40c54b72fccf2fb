//! Literals, operator attributes and patterns.

use super::{PResult, ParseError, Parser};
use crate::attrs::{AttrValue, Attrs};
use crate::dtype::DType;
use crate::expr::{PatId, Pattern, Span};
use crate::lexer::{Tok, Token};
use std::sync::Arc;

/// How deeply attribute lists and patterns may nest.
pub(super) const MAX_NESTING: usize = 256;

/// A number literal read: its value and its data type.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum Number {
    Int(i64, DType),
    Float(f64, DType),
}

impl Number {
    pub(super) fn dtype(self) -> DType {
        match self {
            Number::Int(_, d) | Number::Float(_, d) => d,
        }
    }
}

/// Splits a number token into its numeric part, whether that is a float, and its suffix.
fn split_number(text: &str) -> (&str, bool, &str) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut float = false;
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        float = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            float = true;
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    (&text[..i], float, &text[i..])
}

impl Parser<'_, '_> {
    /// The number literal `t`, negated if `negative` (`-42i16`).
    pub(super) fn number(&self, t: Token, negative: bool, lo: u32) -> PResult<Number> {
        let text = self.text(t);
        let (digits, float, suffix) = split_number(text);
        let span = Span { lo, hi: t.hi };
        let err = |message: String| ParseError {
            span,
            message,
            labels: Vec::new(),
            help: None,
        };
        let dtype = match suffix {
            "" => None,
            "f" => Some(DType::FLOAT32),
            _ => {
                let name = match suffix.as_bytes()[0] {
                    b'i' => format!("int{}", &suffix[1..]),
                    b'u' => format!("uint{}", &suffix[1..]),
                    b'f' => format!("float{}", &suffix[1..]),
                    _ => String::new(),
                };
                let ok = matches!(
                    suffix,
                    "i8" | "i16"
                        | "i32"
                        | "i64"
                        | "u8"
                        | "u16"
                        | "u32"
                        | "u64"
                        | "f16"
                        | "f32"
                        | "f64"
                );
                match name.parse::<DType>() {
                    Ok(d) if ok => Some(d),
                    _ => {
                        return Err(err(format!(
                            "bad literal suffix `{suffix}` in `{text}`: expected `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f`, `f16`, `f32` or `f64`"
                        )))
                    }
                }
            }
        };
        let sign = if negative { -1.0 } else { 1.0 };
        match dtype {
            Some(d) if d.is_float() => {
                let v: f64 = digits.parse().map_err(|_| err(format!("bad number `{text}`")))?;
                Ok(Number::Float(sign * v, d))
            }
            None if float => {
                let v: f64 = digits.parse().map_err(|_| err(format!("bad number `{text}`")))?;
                Ok(Number::Float(sign * v, DType::FLOAT32))
            }
            Some(_) if float => Err(err(format!(
                "`{text}` is a float literal with an integer suffix: expected a float suffix (`f`, `f16`, `f32` or `f64`)"
            ))),
            d => {
                let v = digits
                    .parse::<i128>()
                    .ok()
                    .map(|v| if negative { -v } else { v })
                    .and_then(|v| i64::try_from(v).ok())
                    .ok_or_else(|| err(format!("integer literal `{text}` does not fit in 64 bits")))?;
                let d = d.unwrap_or(if i32::try_from(v).is_ok() {
                    DType::INT32
                } else {
                    DType::INT64
                });
                if d.code() == crate::dtype::DTypeCode::UInt && v < 0 {
                    return Err(err(format!("unsigned literal `-{text}` is negative")));
                }
                Ok(Number::Int(v, d))
            }
        }
    }

    /// Whether an attribute `name=value` starts at the current token.
    pub(super) fn at_attr(&self) -> PResult<bool> {
        Ok(self.is(Tok::Ident) && self.peek2()?.kind == Tok::Eq)
    }

    /// `name=value, ...` up to the `)` of a call (not consumed).
    pub(super) fn attrs(&mut self) -> PResult<Option<Arc<Attrs>>> {
        let lo = self.tok.lo as usize;
        // A list written as an earlier one was (up to the `)`, outside strings) is that
        // list: no need to read it again.
        let end = self.src.as_bytes()[lo..]
            .iter()
            .position(|&c| c == b')' || c == b'"' || c == b'/' || c == b'#' || c == b'\n');
        if let Some(k) = end.filter(|&k| self.src.as_bytes()[lo + k] == b')') {
            let text = self.src[lo..lo + k].trim_end();
            if let Some(attrs) = self.attr_lists.get(text) {
                let attrs = attrs.clone();
                self.seek(lo + text.len())?;
                self.prev_hi = (lo + text.len()) as u32;
                return Ok(Some(attrs));
            }
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
                return Err(ParseError {
                    span: name.span(),
                    message: format!("attribute `{n}` is given twice"),
                    labels: Vec::new(),
                    help: None,
                });
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

    fn attr_value(&mut self, depth: usize) -> PResult<AttrValue> {
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
                let num = self.number(t, negative, lo)?;
                let float_suffix = num.dtype().is_float();
                Ok(match num {
                    Number::Int(v, _) if !float_suffix => AttrValue::Int(v),
                    Number::Int(v, _) => AttrValue::Float(v as f64),
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
                while !self.eat(Tok::RBracket)? {
                    items.push(self.attr_value(depth + 1)?);
                    if !self.eat(Tok::Comma)? && !self.is(Tok::RBracket) {
                        return Err(self.expected("`,` or `]`"));
                    }
                }
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
                let ann = if self.eat(Tok::Colon)? {
                    Some(self.ty()?)
                } else {
                    None
                };
                let v = self.new_local(t, ann);
                self.bind_local(v);
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
                    self.bind_local(v);
                    return Ok(self.m.pat(Pattern::Var(v)));
                }
                let mut fields = Vec::new();
                if self.eat(Tok::LParen)? {
                    while !self.eat(Tok::RParen)? {
                        fields.push(self.pattern(depth + 1)?);
                        if !self.eat(Tok::Comma)? && !self.is(Tok::RParen) {
                            return Err(self.expected("`,` or `)`"));
                        }
                    }
                }
                let span = self.span_from(t.lo);
                self.m.at(span);
                match c {
                    Some(c) => Ok(self.m.pat(Pattern::Ctor(c, fields.into()))),
                    None => {
                        let message = format!("unknown constructor `{name}`");
                        let ctors: Vec<String> =
                            self.adts.ctor_names().map(str::to_string).collect();
                        let ctors = ctors.iter().map(String::as_str);
                        self.unknown_registered(
                            t.span(),
                            message,
                            name,
                            crate::registry::Unknown::Constructor,
                            ctors,
                        );
                        Ok(self.m.pat(Pattern::Wildcard))
                    }
                }
            }
            Tok::LParen => {
                let lo = self.bump()?.lo;
                let mut fields = Vec::new();
                while !self.eat(Tok::RParen)? {
                    fields.push(self.pattern(depth + 1)?);
                    if !self.eat(Tok::Comma)? && !self.is(Tok::RParen) {
                        return Err(self.expected("`,` or `)`"));
                    }
                }
                // `(p)` is a tuple pattern of one field, as TVM reads it.
                let span = self.span_from(lo);
                Ok(self.m.at(span).pat(Pattern::Tuple(fields.into())))
            }
            _ => Err(self.expected("a pattern")),
        }
    }
}

/// The contents of a string literal (quotes included in `text`), escapes resolved.
fn unescape(text: &str) -> String {
    let inner = &text[1..text.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}
