//! Literals: numbers with their suffixes (`1f`, `2i64`), strings.

use super::{PResult, ParseError, Parser};
use crate::dtype::DType;
use crate::expr::{ExprId, Span};
use crate::lexer::{Tok, Token};

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

impl Parser<'_, '_> {
    /// `literal := '-'? number`, from the token `t` (a number or a `-`), or `-inff`.
    pub(super) fn number_literal(&mut self, t: Token) -> PResult<ExprId> {
        let negative = self.eat(Tok::Minus)?;
        if let Some(f) = negative
            .then(|| super::tvm::float_word(self.text(self.tok)))
            .flatten()
            .filter(|_| self.is(Tok::Ident))
        {
            self.bump()?;
            return Ok(self.scalar(f, t.lo));
        }
        if negative && !self.is(Tok::Num) {
            return Err(self.expected("a number after a unary `-`"));
        }
        let n = self.bump()?;
        let num = self.number(n, negative, t.lo)?;
        let mut dtype = num.dtype();
        // TVM 0.8 and earlier printed an int64 scalar without its suffix
        // (`2 /* ty=int64 */`): a bare integer takes the integer dtype printed on it.
        if self.text(n).bytes().all(|c| c.is_ascii_digit()) {
            let printed = crate::text::printed_type(self.src, n.hi as usize, self.tok.lo as usize)
                .and_then(|(_, ty)| ty.split_whitespace().next()?.parse::<crate::DType>().ok());
            if let Some(d) = printed.filter(|d| d.is_int() && d.lanes() == 1) {
                dtype = d;
            }
        }
        Ok(self.scalar(dtype, t.lo))
    }

    /// The number literal `t`, negated if `negative` (`-42i16`).
    pub(super) fn number(&self, t: Token, negative: bool, lo: u32) -> PResult<Number> {
        let text = self.text(t);
        let (end, float) = crate::lexer::numeric_end(text.as_bytes(), 0);
        let (digits, suffix) = text.split_at(end);
        let span = Span { lo, hi: t.hi };
        let err = |message: String| ParseError::new(span, message);
        let dtype = match suffix {
            "" => None,
            "f" => Some(DType::FLOAT32),
            "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f16" | "f32" | "f64" => {
                let (code, bits) = suffix.split_at(1);
                let family = [("i", "int"), ("u", "uint"), ("f", "float")].iter().find(|f| f.0 == code);
                family.and_then(|f| format!("{}{bits}", f.1).parse::<DType>().ok())
            }
            _ => {
                return Err(err(format!(
                    "bad literal suffix `{suffix}` in `{text}`: expected `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f`, `f16`, `f32` or `f64`"
                )))
            }
        };
        let dtype = match (dtype, float) {
            (None, true) => Some(DType::FLOAT32),
            (Some(d), true) if !d.is_float() => return Err(err(format!(
                "`{text}` is a float literal with an integer suffix: expected a float suffix (`f`, `f16`, `f32` or `f64`)"
            ))),
            (d, _) => d,
        };
        match dtype {
            Some(d) if d.is_float() => {
                let v: f64 = digits
                    .parse()
                    .map_err(|_| err(format!("bad number `{text}`")))?;
                Ok(Number::Float(if negative { -v } else { v }, d))
            }
            d => {
                let v = digits
                    .parse::<i128>()
                    .ok()
                    .map(|v| if negative { -v } else { v })
                    .and_then(|v| i64::try_from(v).ok())
                    .ok_or_else(|| {
                        err(format!("integer literal `{text}` does not fit in 64 bits"))
                    })?;
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
}

/// The contents of a string literal (quotes included in `text`), escapes resolved.
pub(super) fn unescape(text: &str) -> String {
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
