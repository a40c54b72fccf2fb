//! A recursive-descent parser of types with a nesting limit.

use crate::dim::{Dim, DimOp};
use crate::dtype::DType;
use crate::kind::{Kind, Param};
use crate::ty::{Adt, DTy, Shape, Ty, TyCtx};
use rustc_hash::FxHashMap;
use std::fmt;

/// How deeply types and dimension expressions may nest in the text.
pub const MAX_NESTING: usize = 512;

/// The words that start a type and so cannot name a type parameter.
const KEYWORDS: [&str; 4] = ["Tensor", "fn", "ref", "_"];

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
    /// Changes whenever the bindings do, to a value no other state of any scope has had:
    /// what a type's text means is a function of the text and the version.
    version: u64,
    /// Every change since the scope was made, with the binding it replaced: what
    /// [`TypeScope::reset`] undoes.
    journal: Vec<(Box<str>, Option<Binding>)>,
}

/// A state of a [`TypeScope`] to come back to ([`TypeScope::mark`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct ScopeMark {
    changes: usize,
    version: u64,
}

/// The source of [`TypeScope`] versions.
static VERSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_version() -> u64 {
    VERSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl TypeScope {
    /// An empty scope.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `name`, shadowing any earlier binding; returns the earlier one.
    pub fn bind(&mut self, name: &str, b: Binding) -> Option<Binding> {
        self.version = next_version();
        let previous = self.names.insert(name.into(), b);
        self.journal.push((name.into(), previous));
        previous
    }

    /// The state of the bindings now, to come back to.
    pub(crate) fn mark(&self) -> ScopeMark {
        ScopeMark {
            changes: self.journal.len(),
            version: self.version,
        }
    }

    /// Undoes every change since `mark` (of this scope), latest first: the bindings are
    /// those of the mark again, and so is the version.
    pub(crate) fn reset(&mut self, mark: ScopeMark) {
        while self.journal.len() > mark.changes {
            let (name, previous) = self.journal.pop().expect("above the mark");
            match previous {
                Some(b) => {
                    self.names.insert(name, b);
                }
                None => {
                    self.names.remove(&name);
                }
            }
        }
        self.version = mark.version;
    }

    /// The version of the bindings: equal versions mean equal bindings.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// What `name` means, if bound.
    pub fn get(&self, name: &str) -> Option<Binding> {
        self.names.get(name).copied()
    }

    /// Undoes a [`TypeScope::bind`]: gives `name` back the binding `previous` it returned.
    pub fn unbind(&mut self, name: &str, previous: Option<Binding>) {
        self.version = next_version();
        let replaced = match previous {
            Some(b) => self.names.insert(name.into(), b),
            None => self.names.remove(name),
        };
        self.journal.push((name.into(), replaced));
    }
}

/// A syntax, kind or arity error in a type, at a byte offset of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeParseError {
    /// Where in the text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it, where that is known (the type name it was probably meant to be).
    pub help: Option<String>,
}

impl fmt::Display for TypeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for TypeParseError {}

impl TypeParseError {
    /// The name the error says is not a type, if it says so.
    pub(crate) fn unknown_type(&self) -> Option<&str> {
        self.message
            .strip_prefix("unknown type `")?
            .strip_suffix('`')
    }
}

/// Parses the type in `src`, resolving names in `scope` (new rigid symbols are added).
///
/// It reads every type [`TyCtx::show`] prints, a negative constant dimension among them
/// (which arithmetic on symbols can make: `n - 5` at `n = 3`); a program's annotation,
/// read by the module parser, refuses one.
///
/// On an error the scope is left as it was: neither the symbols the text introduced
/// before the error nor the parameters of a function type it was reading stay bound.
pub fn parse_type(tcx: &mut TyCtx, scope: &mut TypeScope, src: &str) -> Result<Ty, TypeParseError> {
    run(tcx, scope, src, 0, false, |p| {
        let t = p.ty()?;
        p.skip_ws();
        if p.pos != p.src.len() {
            let found = p.describe_next();
            return Err(p.error(format!("expected the end of the type, found {found}")));
        }
        Ok(t)
    })
    .map(|(t, _)| t)
}

/// Parses the type that starts at byte `pos` of `src` and returns it with the offset
/// just past it (for the expression parser, which reads types inside a larger text).
/// A negative constant dimension is an error: it is written in a program.
pub(crate) fn parse_type_at(
    tcx: &mut TyCtx,
    scope: &mut TypeScope,
    src: &str,
    pos: usize,
) -> Result<(Ty, usize), TypeParseError> {
    run(tcx, scope, src, pos, true, |p| p.ty())
}

/// Parses the shape (`(10, n)` or a shape parameter's name) that starts at byte `pos`,
/// as [`parse_type_at`] a type.
pub(crate) fn parse_shape_at(
    tcx: &mut TyCtx,
    scope: &mut TypeScope,
    src: &str,
    pos: usize,
) -> Result<(Shape, usize), TypeParseError> {
    run(tcx, scope, src, pos, true, |p| p.shape())
}

/// Runs `f` on a parser at `pos`, which refuses negative constant dimensions if
/// `in_program`; on an error, undoes every change to the scope.
fn run<T>(
    tcx: &mut TyCtx,
    scope: &mut TypeScope,
    src: &str,
    pos: usize,
    in_program: bool,
    f: impl FnOnce(&mut Parser<'_>) -> PResult<T>,
) -> PResult<(T, usize)> {
    let mut p = Parser {
        src: src.as_bytes(),
        pos,
        tcx,
        scope,
        depth: 0,
        journal: Vec::new(),
        in_program,
    };
    let result = f(&mut p);
    match result {
        Ok(t) => Ok((t, p.pos)),
        Err(e) => {
            // Undo every change to the scope, latest first.
            while let Some((name, previous)) = p.journal.pop() {
                p.scope.unbind(&name, previous);
            }
            Err(e)
        }
    }
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    tcx: &'a mut TyCtx,
    scope: &'a mut TypeScope,
    depth: usize,
    /// Each change made to the scope, with the binding it replaced, to undo them all if
    /// the text turns out not to be a type.
    journal: Vec<(Box<str>, Option<Binding>)>,
    /// Whether the text is a program's, where a negative constant dimension is an error
    /// (`-1` is no dimension; the unknown one is `?`).
    in_program: bool,
}

type PResult<T> = Result<T, TypeParseError>;

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> TypeParseError {
        TypeParseError {
            offset: self.pos,
            message: message.into(),
            help: None,
        }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> TypeParseError {
        TypeParseError {
            offset,
            message: message.into(),
            help: None,
        }
    }

    /// The error for the unknown type name `name` at `offset`, with the closest type name
    /// in scope as help.
    #[cold]
    fn unknown_type(&self, offset: usize, name: &str) -> TypeParseError {
        let types = self
            .scope
            .names
            .iter()
            .filter(|(_, b)| matches!(b, Binding::Adt(_) | Binding::Param(_) | Binding::Ty(_)))
            .map(|(n, _)| &**n);
        let mut e = self.error_at(offset, format!("unknown type `{name}`"));
        e.help = crate::diag::did_you_mean(name, types.chain(["Tensor"]))
            .map(|c| format!("did you mean `{c}`?"));
        e
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

    /// Binds `name` in the scope, remembering in the journal what it meant before
    /// (which it also returns).
    fn bind(&mut self, name: &str, b: Binding) -> Option<Binding> {
        let previous = self.scope.bind(name, b);
        self.journal.push((name.into(), previous));
        previous
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

    // The functions on the recursive paths (`ty`, `ty_inner`, `tuple`, `ref_inner`,
    // `func`, `func_rest`, and the `dim_*` ones) keep their frames small: the nesting limit
    // times the frames of one level must fit in a 2 MiB stack in a debug build, where
    // every temporary has its own slot. Error messages are built in separate functions
    // (`expected_found`), and the parameter list of a function type is read by a function
    // that returns before the body is read.

    fn ty_inner(&mut self) -> PResult<Ty> {
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.tuple()
            }
            Some(_) => self.ty_word(),
            None => Err(self.expected_found("a type")),
        }
    }

    /// `found ...` after a failure to read `what` at the next token.
    #[inline(never)]
    #[cold]
    fn expected_found(&mut self, what: &str) -> TypeParseError {
        let found = self.describe_next();
        self.error(format!("expected {what}, found {found}"))
    }

    /// A type that starts with a word: a keyword or a name.
    fn ty_word(&mut self) -> PResult<Ty> {
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a type"));
        };
        match name.as_str() {
            "Tensor" => self.tensor(),
            "fn" => self.func(),
            "ref" => self.ref_inner(),
            // In a program, an incomplete type: a parameter of its own named `_`, which
            // inference solves like an unannotated position (`crate::TyCtx::is_hole`).
            "_" if self.in_program => {
                let p = self.tcx.param("_", Kind::Type);
                Ok(self.tcx.param_ty(p).expect("a parameter of kind `Type`"))
            }
            "_" => Err(self.error_at(
                start,
                "`_` (an incomplete type) needs a solver to stand for",
            )),
            _ => self.named(start, &name),
        }
    }

    /// `(T)` after `ref`.
    fn ref_inner(&mut self) -> PResult<Ty> {
        self.expect("(")?;
        let inner = self.ty()?;
        self.expect(")")?;
        Ok(self.tcx.ref_ty(inner))
    }

    /// A tuple or a parenthesized type, after its `(`.
    fn tuple(&mut self) -> PResult<Ty> {
        {
            {
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
                // `float32x0`, `uint1`: say what is wrong with the data type.
                Err(e) if looks_like_dtype(name) => Err(self.error_at(start, e.to_string())),
                Err(_) => Err(self.unknown_type(start, name)),
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
                self.skip_ws();
                let start = self.pos;
                let d = self.dim()?;
                let negative = self.tcx.dims.as_const(d).filter(|&c| c < 0);
                if let Some(c) = negative.filter(|_| self.in_program) {
                    return Err(self.error_at(
                        start,
                        format!("a dimension must not be negative, found {c} (an unknown dimension is `?`)"),
                    ));
                }
                dims.push(d);
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
        let (params, bound) = self.func_params()?;
        let t = self.func_rest(&params)?;
        // The symbols the body introduced stay bound; the parameters go. Their journal
        // entries stay: undone after everything bound since, they restore the same
        // bindings as this does.
        for (name, previous) in bound.into_iter().rev() {
            self.scope.unbind(&name, previous);
        }
        Ok(t)
    }

    /// The optional `[params]` of a function type, bound in the scope, and the bindings
    /// they shadow. The parameters are bound for the rest of the function type only; on
    /// an error `parse_type` unbinds them with everything else in the journal.
    #[allow(clippy::type_complexity)]
    #[inline(never)]
    fn func_params(&mut self) -> PResult<(Vec<Param>, Vec<(String, Option<Binding>)>)> {
        let mut bound: Vec<(String, Option<Binding>)> = Vec::new();
        let mut params = Vec::new();
        // `fn [A](A) -> A`, or the spec's `fn<A>(A) -> A`.
        let close = if self.eat("[") {
            "]"
        } else if self.eat("<") {
            ">"
        } else {
            return Ok((params, bound));
        };
        {
            while !self.eat(close) {
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
                if KEYWORDS.contains(&name.as_str()) {
                    // `fn [Tensor](Tensor) -> Tensor` would read `Tensor` as the keyword.
                    return Err(self.error_at(
                        start,
                        format!("`{name}` is a keyword and cannot name a type parameter"),
                    ));
                }
                let p = self.tcx.param(&name, kind);
                params.push(p);
                let previous = self.bind(&name, Binding::Param(p));
                bound.push((name, previous));
                if !self.eat(",") {
                    self.expect(close)?;
                    break;
                }
            }
        }
        Ok((params, bound))
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
        // TVM prints a dimension of type int64 with its suffix: `(11i64, 41i64)`.
        let suffix = self.src[self.pos..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if suffix > 0 {
            let at = self.pos;
            let word = &self.src[at..at + suffix];
            if word != b"i64" && word != b"i32" {
                let word = String::from_utf8_lossy(word);
                return Err(self.error_at(
                    at,
                    format!("expected `i64`, `i32` or nothing after the dimension `{text}`, found `{word}`"),
                ));
            }
            self.pos += suffix;
        }
        let value = text
            .parse::<i128>()
            .ok()
            .map(|v| if negative { -v } else { v })
            .and_then(|v| i64::try_from(v).ok());
        match value {
            Some(v) => Ok(self.tcx.dims.konst(v)),
            None => {
                let sign = if negative { "-" } else { "" };
                // A literal of a million digits is named by its start and its length.
                let shown = if text.len() > 40 {
                    format!("{}... ({} digits)", &text[..20], text.len())
                } else {
                    text.to_string()
                };
                Err(self.error_at(
                    begin,
                    format!("dimension `{sign}{shown}` does not fit in 64 bits"),
                ))
            }
        }
    }

    /// A factor, after any number of unary minuses. The minuses are read in a loop, not
    /// one call per sign, so that a long run of them needs no stack.
    fn dim_factor(&mut self) -> PResult<Dim> {
        self.skip_ws();
        let start = self.pos;
        let mut negations = 0usize;
        let d = loop {
            if self.peek() != Some(b'-') {
                break self.dim_atom()?;
            }
            self.pos += 1;
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                // A negative literal, so that `-9223372036854775808` reads.
                break self.dim_literal(true)?;
            }
            negations += 1;
        };
        if negations % 2 == 1 {
            arith(start, self.tcx.dims.neg(d))
        } else {
            Ok(d)
        }
    }

    /// A factor without its signs. It counts one more level of nesting (on top of that
    /// of [`Parser::dim`]): a level of dimension nesting takes several stack frames.
    fn dim_atom(&mut self) -> PResult<Dim> {
        self.enter()?;
        let d = self.dim_atom_inner();
        self.depth -= 1;
        d
    }

    fn dim_atom_inner(&mut self) -> PResult<Dim> {
        match self.peek() {
            Some(b'?') => {
                self.pos += 1;
                Ok(crate::Dims::ANY)
            }
            Some(b'(') => {
                self.pos += 1;
                self.dim_paren()
            }
            Some(c) if c.is_ascii_digit() => self.dim_literal(false),
            Some(_) => self.dim_word(),
            None => Err(self.expected_found("a dimension")),
        }
    }

    /// `d)` after a `(`.
    fn dim_paren(&mut self) -> PResult<Dim> {
        let d = self.dim()?;
        self.expect(")")?;
        Ok(d)
    }

    /// A dimension that starts with a word: an operator applied to arguments, or a name.
    fn dim_word(&mut self) -> PResult<Dim> {
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a dimension"));
        };
        let op = match name.as_str() {
            "floordiv" => Some(DimOp::FloorDiv),
            "floormod" => Some(DimOp::FloorMod),
            "min" => Some(DimOp::Min),
            "max" => Some(DimOp::Max),
            _ => None,
        };
        match op {
            Some(op) if self.peek() == Some(b'(') => {
                self.pos += 1;
                self.dim_op(start, op)
            }
            _ => self.dim_name(start, &name),
        }
    }

    /// `a, b)` after `op(`.
    fn dim_op(&mut self, start: usize, op: DimOp) -> PResult<Dim> {
        let a = self.dim()?;
        self.expect(",")?;
        let b = self.dim()?;
        self.expect(")")?;
        arith(start, self.tcx.dims.apply(op, a, b))
    }

    /// The dimension a name stands for; an unknown name is a new rigid symbol.
    #[inline(never)]
    fn dim_name(&mut self, start: usize, name: &str) -> PResult<Dim> {
        match self.scope.get(name) {
            Some(Binding::Dim(d)) => Ok(d),
            Some(Binding::Param(p)) => self
                .tcx
                .dim_param(p)
                .map_err(|e| self.error_at(start, e.to_string())),
            Some(_) => Err(self.error_at(start, format!("`{name}` is not a dimension"))),
            None => {
                let p = self.tcx.param(name, Kind::ShapeVar);
                self.bind(name, Binding::Param(p));
                Ok(self.tcx.dims.sym(p))
            }
        }
    }
}

/// Whether `name` is a data type family followed by a width or lanes (`float32x0`,
/// `uint1`), so that a failure to read it as a data type is worth explaining.
fn looks_like_dtype(name: &str) -> bool {
    ["bfloat", "float", "uint", "int", "bool"]
        .iter()
        .any(|family| {
            name.strip_prefix(family)
                .and_then(|rest| rest.bytes().next())
                .is_some_and(|c| c.is_ascii_digit() || c == b'x')
        })
}

fn arith(offset: usize, r: Result<Dim, crate::DimError>) -> PResult<Dim> {
    r.map_err(|e| TypeParseError {
        offset,
        message: e.to_string(),
        help: None,
    })
}
