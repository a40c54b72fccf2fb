//! A recursive-descent parser of types with a nesting limit.

use crate::dim::{Dim, DimOp};
use crate::dtype::DType;
use crate::kind::{Kind, Param};
use crate::ty::{Adt, DTy, Shape, Ty, TyCtx};
use rustc_hash::FxHashMap;
use std::fmt;

/// How deeply types and dimension expressions may nest in the text.
pub const MAX_NESTING: usize = 512;

/// What a name means in a type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A parameter (of any kind).
    Param(Param),
    /// An ADT handle.
    Adt(Adt),
    /// A whole type (for example a solver variable given a name by a test).
    Ty(Ty),
    /// A shape.
    Shape(Shape),
    /// A dimension.
    Dim(Dim),
    /// An element type.
    DType(DTy),
}

/// The names a type may mention.
#[derive(Clone, Debug, Default)]
pub struct TypeScope {
    names: FxHashMap<Box<str>, Binding>,
}

impl TypeScope {
    /// An empty scope.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `name`, shadowing any earlier binding; returns the earlier one.
    pub fn bind(&mut self, name: &str, b: Binding) -> Option<Binding> {
        self.names.insert(name.into(), b)
    }

    /// What `name` means, if bound.
    pub fn get(&self, name: &str) -> Option<Binding> {
        self.names.get(name).copied()
    }

    fn unbind(&mut self, name: &str, previous: Option<Binding>) {
        match previous {
            Some(b) => {
                self.names.insert(name.into(), b);
            }
            None => {
                self.names.remove(name);
            }
        }
    }
}

/// A syntax, kind or arity error in a type, at a byte offset of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeParseError {
    /// Where in the text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TypeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for TypeParseError {}

/// Parses the type in `src`, resolving names in `scope` (new rigid symbols are added).
pub fn parse_type(tcx: &mut TyCtx, scope: &mut TypeScope, src: &str) -> Result<Ty, TypeParseError> {
    let mut p = Parser {
        src: src.as_bytes(),
        pos: 0,
        tcx,
        scope,
        depth: 0,
    };
    let t = p.ty()?;
    p.skip_ws();
    if p.pos != p.src.len() {
        return Err(p.error("expected the end of the type"));
    }
    Ok(t)
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    tcx: &'a mut TyCtx,
    scope: &'a mut TypeScope,
    depth: usize,
}

type PResult<T> = Result<T, TypeParseError>;

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> TypeParseError {
        TypeParseError {
            offset: self.pos,
            message: message.into(),
        }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> TypeParseError {
        TypeParseError {
            offset,
            message: message.into(),
        }
    }

    fn skip_ws(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.src.get(self.pos).copied()
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(s.as_bytes()) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> PResult<()> {
        if self.eat(s) {
            Ok(())
        } else {
            let found = self.describe_next();
            Err(self.error(format!("expected `{s}`, found {found}")))
        }
    }

    fn describe_next(&mut self) -> String {
        match self.peek() {
            None => "the end of the text".to_string(),
            Some(_) => {
                let rest = String::from_utf8_lossy(&self.src[self.pos..]);
                let token: String = rest
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(12)
                    .collect();
                format!("`{token}`")
            }
        }
    }

    fn ident(&mut self) -> Option<(usize, String)> {
        self.skip_ws();
        let start = self.pos;
        let first = *self.src.get(self.pos)?;
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return None;
        }
        while self.pos < self.src.len()
            && (self.src[self.pos].is_ascii_alphanumeric()
                || self.src[self.pos] == b'_'
                || self.src[self.pos] == b'.')
        {
            self.pos += 1;
        }
        Some((
            start,
            String::from_utf8_lossy(&self.src[start..self.pos]).into_owned(),
        ))
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(format!("type nested more than {MAX_NESTING} levels deep")));
        }
        Ok(())
    }

    fn ty(&mut self) -> PResult<Ty> {
        self.enter()?;
        let t = self.ty_inner();
        self.depth -= 1;
        t
    }

    fn ty_inner(&mut self) -> PResult<Ty> {
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                let mut fields = Vec::new();
                let mut trailing_comma = false;
                while !self.eat(")") {
                    fields.push(self.ty()?);
                    trailing_comma = self.eat(",");
                    if !trailing_comma {
                        self.expect(")")?;
                        break;
                    }
                }
                if fields.len() == 1 && !trailing_comma {
                    // `(T)` is a parenthesized type, `(T,)` a one-field tuple.
                    return Ok(fields[0]);
                }
                Ok(self.tcx.tuple(&fields))
            }
            Some(_) => {
                let Some((start, name)) = self.ident() else {
                    let found = self.describe_next();
                    return Err(self.error(format!("expected a type, found {found}")));
                };
                match name.as_str() {
                    "Tensor" => self.tensor(),
                    "fn" => self.func(),
                    "ref" => {
                        self.expect("(")?;
                        let inner = self.ty()?;
                        self.expect(")")?;
                        Ok(self.tcx.ref_ty(inner))
                    }
                    "_" => Err(self.error_at(
                        start,
                        "`_` (an incomplete type) needs a solver to stand for",
                    )),
                    _ => self.named(start, &name),
                }
            }
            None => Err(self.error("expected a type, found the end of the text")),
        }
    }

    fn named(&mut self, start: usize, name: &str) -> PResult<Ty> {
        match self.scope.get(name) {
            Some(Binding::Ty(t)) => Ok(t),
            Some(Binding::Param(p)) => self
                .tcx
                .param_ty(p)
                .map_err(|e| self.error_at(start, e.to_string())),
            Some(Binding::Adt(adt)) => {
                let mut args = Vec::new();
                if self.eat("[") {
                    while !self.eat("]") {
                        args.push(self.ty()?);
                        if !self.eat(",") {
                            self.expect("]")?;
                            break;
                        }
                    }
                }
                self.tcx
                    .type_call(adt, &args)
                    .map_err(|e| self.error_at(start, e.to_string()))
            }
            Some(Binding::Shape(_)) | Some(Binding::Dim(_)) | Some(Binding::DType(_)) => {
                Err(self.error_at(start, format!("`{name}` is not a type")))
            }
            None => match name.parse::<DType>() {
                Ok(dt) => Ok(self.tcx.scalar(dt)),
                Err(_) => Err(self.error_at(start, format!("unknown type `{name}`"))),
            },
        }
    }

    fn tensor(&mut self) -> PResult<Ty> {
        self.expect("[")?;
        let shape = self.shape()?;
        self.expect(",")?;
        let dtype = self.dtype()?;
        self.expect("]")?;
        Ok(self.tcx.tensor(shape, dtype))
    }

    fn shape(&mut self) -> PResult<Shape> {
        if self.eat("(") {
            let mut dims = Vec::new();
            while !self.eat(")") {
                dims.push(self.dim()?);
                if !self.eat(",") {
                    self.expect(")")?;
                    break;
                }
            }
            return Ok(self.tcx.shape(&dims));
        }
        let Some((start, name)) = self.ident() else {
            let found = self.describe_next();
            return Err(self.error(format!("expected a shape, found {found}")));
        };
        match self.scope.get(&name) {
            Some(Binding::Shape(s)) => Ok(s),
            Some(Binding::Param(p)) => self
                .tcx
                .shape_param(p)
                .map_err(|e| self.error_at(start, e.to_string())),
            _ => Err(self.error_at(start, format!("`{name}` is not a shape"))),
        }
    }

    fn dtype(&mut self) -> PResult<DTy> {
        let Some((start, name)) = self.ident() else {
            let found = self.describe_next();
            return Err(self.error(format!("expected a data type, found {found}")));
        };
        match self.scope.get(&name) {
            Some(Binding::DType(d)) => Ok(d),
            Some(Binding::Param(p)) => self
                .tcx
                .dtype_param(p)
                .map_err(|e| self.error_at(start, e.to_string())),
            _ => name
                .parse::<DType>()
                .map(DTy::Known)
                .map_err(|e| self.error_at(start, e.to_string())),
        }
    }

    fn func(&mut self) -> PResult<Ty> {
        let mut bound: Vec<(String, Option<Binding>)> = Vec::new();
        let mut params = Vec::new();
        if self.eat("[") {
            while !self.eat("]") {
                let Some((start, name)) = self.ident() else {
                    let found = self.describe_next();
                    return Err(self.error(format!("expected a type parameter, found {found}")));
                };
                let kind = if self.eat(":") {
                    let Some((kstart, kname)) = self.ident() else {
                        return Err(
                            self.error("expected a kind (`Type`, `BaseType`, `Shape`, `ShapeVar`)")
                        );
                    };
                    Kind::from_name(&kname).ok_or_else(|| {
                        self.error_at(kstart, format!("unknown kind `{kname}` (expected `Type`, `BaseType`, `Shape` or `ShapeVar`)"))
                    })?
                } else {
                    Kind::Type
                };
                if bound.iter().any(|(n, _)| *n == name) {
                    return Err(
                        self.error_at(start, format!("type parameter `{name}` is declared twice"))
                    );
                }
                let p = self.tcx.param(&name, kind);
                params.push(p);
                let previous = self.scope.bind(&name, Binding::Param(p));
                bound.push((name, previous));
                if !self.eat(",") {
                    self.expect("]")?;
                    break;
                }
            }
        }
        let result = self.func_rest(&params);
        for (name, previous) in bound.into_iter().rev() {
            self.scope.unbind(&name, previous);
        }
        result
    }

    fn func_rest(&mut self, params: &[Param]) -> PResult<Ty> {
        self.expect("(")?;
        let mut args = Vec::new();
        while !self.eat(")") {
            args.push(self.ty()?);
            if !self.eat(",") {
                self.expect(")")?;
                break;
            }
        }
        self.expect("->")?;
        let ret = self.ty()?;
        Ok(self.tcx.func(params, &args, ret, Vec::new()))
    }

    // ----- dimensions -----

    fn dim(&mut self) -> PResult<Dim> {
        self.enter()?;
        let d = self.dim_sum();
        self.depth -= 1;
        d
    }

    fn dim_sum(&mut self) -> PResult<Dim> {
        let start = self.pos;
        let (mut acc, _) = self.dim_term(false)?;
        loop {
            if self.eat("+") {
                let (rhs, _) = self.dim_term(false)?;
                acc = arith(start, self.tcx.dims.add(acc, rhs))?;
            } else if self.peek() == Some(b'-') && self.src.get(self.pos + 1) != Some(&b'>') {
                self.pos += 1;
                let (rhs, negated) = self.dim_term(true)?;
                acc = if negated {
                    arith(start, self.tcx.dims.add(acc, rhs))?
                } else {
                    arith(start, self.tcx.dims.sub(acc, rhs))?
                };
            } else {
                return Ok(acc);
            }
        }
    }

    /// A product of factors (with `/` and `%` as `floordiv` and `floormod`). After a
    /// binary minus (`negate`), a leading integer literal is read negated, so that
    /// `n - 9223372036854775808*m` (how `n + i64::MIN*m` prints) reads back although
    /// 2^63 does not fit in 64 bits: then the product comes back negated, which the
    /// flag says.
    fn dim_term(&mut self, negate: bool) -> PResult<(Dim, bool)> {
        self.skip_ws();
        let start = self.pos;
        let (mut acc, mut negated) = match self.peek() {
            Some(c) if negate && c.is_ascii_digit() => (self.dim_literal(true)?, true),
            _ => (self.dim_factor()?, false),
        };
        loop {
            let op = if self.eat("*") {
                None
            } else if self.eat("/") {
                Some(DimOp::FloorDiv)
            } else if self.eat("%") {
                Some(DimOp::FloorMod)
            } else {
                return Ok((acc, negated));
            };
            let rhs = self.dim_factor()?;
            let r = match op {
                None => self.tcx.dims.mul(acc, rhs),
                Some(op) => {
                    if negated {
                        // Negation commutes with `*` but not with `/` or `%`.
                        acc = arith(start, self.tcx.dims.neg(acc))?;
                        negated = false;
                    }
                    self.tcx.dims.apply(op, acc, rhs)
                }
            };
            acc = arith(start, r)?;
        }
    }

    /// An integer literal at the next (digit) byte, negated if `negative`: the range is
    /// that of `i64`, `-9223372036854775808` included.
    fn dim_literal(&mut self, negative: bool) -> PResult<Dim> {
        self.skip_ws();
        let begin = self.pos;
        while self.pos < self.src.len() && self.src[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.src[begin..self.pos]).expect("digits are ASCII");
        let value = text
            .parse::<i128>()
            .ok()
            .map(|v| if negative { -v } else { v })
            .and_then(|v| i64::try_from(v).ok());
        match value {
            Some(v) => Ok(self.tcx.dims.konst(v)),
            None => {
                let sign = if negative { "-" } else { "" };
                Err(self.error_at(
                    begin,
                    format!("dimension `{sign}{text}` does not fit in 64 bits"),
                ))
            }
        }
    }

    fn dim_factor(&mut self) -> PResult<Dim> {
        self.enter()?;
        let d = self.dim_factor_inner();
        self.depth -= 1;
        d
    }

    fn dim_factor_inner(&mut self) -> PResult<Dim> {
        let start = self.pos;
        match self.peek() {
            Some(b'?') => {
                self.pos += 1;
                Ok(crate::Dims::ANY)
            }
            Some(b'-') => {
                self.pos += 1;
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    // A negative literal, so that `-9223372036854775808` reads.
                    return self.dim_literal(true);
                }
                let d = self.dim_factor()?;
                arith(start, self.tcx.dims.neg(d))
            }
            Some(b'(') => {
                self.pos += 1;
                let d = self.dim()?;
                self.expect(")")?;
                Ok(d)
            }
            Some(c) if c.is_ascii_digit() => self.dim_literal(false),
            Some(_) => {
                let Some((start, name)) = self.ident() else {
                    let found = self.describe_next();
                    return Err(self.error(format!("expected a dimension, found {found}")));
                };
                let op = match name.as_str() {
                    "floordiv" => Some(DimOp::FloorDiv),
                    "floormod" => Some(DimOp::FloorMod),
                    "min" => Some(DimOp::Min),
                    "max" => Some(DimOp::Max),
                    _ => None,
                };
                if let Some(op) = op {
                    if self.peek() == Some(b'(') {
                        self.pos += 1;
                        let a = self.dim()?;
                        self.expect(",")?;
                        let b = self.dim()?;
                        self.expect(")")?;
                        return arith(start, self.tcx.dims.apply(op, a, b));
                    }
                }
                match self.scope.get(&name) {
                    Some(Binding::Dim(d)) => Ok(d),
                    Some(Binding::Param(p)) => self
                        .tcx
                        .dim_param(p)
                        .map_err(|e| self.error_at(start, e.to_string())),
                    Some(_) => Err(self.error_at(start, format!("`{name}` is not a dimension"))),
                    None => {
                        let p = self.tcx.param(&name, Kind::ShapeVar);
                        self.scope.bind(&name, Binding::Param(p));
                        Ok(self.tcx.dims.sym(p))
                    }
                }
            }
            None => Err(self.error("expected a dimension, found the end of the text")),
        }
    }
}

fn arith(offset: usize, r: Result<Dim, crate::DimError>) -> PResult<Dim> {
    r.map_err(|e| TypeParseError {
        offset,
        message: e.to_string(),
    })
}
