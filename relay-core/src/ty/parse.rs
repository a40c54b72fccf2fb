//! The grammar of types, read from the tokens of the text format's lexer
//! ([`crate::text::Lexer`]), so that comments are read inside types as anywhere else.
//! One function per production, each dispatching on the current token:
//!
//! ```text
//! ty       := '(' ty,* ')' | 'Tensor' tensor | 'fn' func | 'ref' '(' ty ')'
//!           | '_' | name ('[' ty,* ']')?                        Parser::ty, ty_word, tuple, named
//! tensor   := '[' shape ',' dtype ']'                           Parser::tensor
//! shape    := '(' dim,* ')' | name                              Parser::shape
//! dtype    := name                                              Parser::dtype
//! func     := ('[' param,* ']' | '<' param,* '>')? '(' ty,* ')' '->' ty
//!                                                               Parser::func, func_params, func_rest
//! param    := name (':' kind)?                                  Parser::func_params
//! dim      := term (('+' | '-') term)*                          Parser::dim, dim_sum
//! term     := factor (('*' | '/' | '%') factor)*                Parser::dim_term
//! factor   := '-'* atom                                         Parser::dim_factor
//! atom     := '?' | int | '(' dim ')' | op '(' dim ',' dim ')' | name
//!                                                               Parser::dim_atom, dim_literal, dim_word, dim_op, dim_name
//! ```
//!
//! Nesting is bounded by a counter ([`MAX_NESTING`]).

use crate::dim::{Dim, DimOp};
use crate::dtype::DType;
use crate::kind::{Kind, Param};
use crate::lexer::{Lexer, Tok, Token};
use crate::ty::{Adt, DTy, Shape, Ty, TyCtx};
use rustc_hash::{FxHashMap, FxHashSet};
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

impl TypeScope {
    /// An empty scope.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `name`, shadowing any earlier binding; returns the earlier one.
    pub fn bind(&mut self, name: &str, b: Binding) -> Option<Binding> {
        self.set(name, Some(b))
    }

    /// Undoes a [`TypeScope::bind`]: gives `name` back the binding `previous` it returned.
    pub fn unbind(&mut self, name: &str, previous: Option<Binding>) {
        self.set(name, previous);
    }

    /// Gives `name` the binding `b` (none for `None`), journaled: the one it had.
    fn set(&mut self, name: &str, b: Option<Binding>) -> Option<Binding> {
        self.version = VERSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let previous = self.put(name, b);
        self.journal.push((name.into(), previous));
        previous
    }

    /// Gives `name` the binding `b` (none for `None`): the one it had.
    fn put(&mut self, name: &str, b: Option<Binding>) -> Option<Binding> {
        match b {
            Some(b) => self.names.insert(name.into(), b),
            None => self.names.remove(name),
        }
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
            self.put(&name, previous);
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
/// read by the module parser, refuses one. Comments are read as between any tokens of the
/// text format: `Tensor[(2, /* batch */ 3), float32]` is a type.
///
/// On an error the scope is left as it was: neither the symbols the text introduced
/// before the error nor the parameters of a function type it was reading stay bound.
pub fn parse_type(tcx: &mut TyCtx, scope: &mut TypeScope, src: &str) -> Result<Ty, TypeParseError> {
    run(tcx, scope, src, 0, false, |p| {
        let t = p.ty()?;
        if !p.at(Tok::Eof) {
            return Err(p.expected_found("the end of the type"));
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

/// The type parameters (`[A, s: Shape]`, the spec's `<a>`) that start at byte `pos`, bound
/// in `scope`, with the bindings they shadow; as [`parse_type_at`] a type.
#[allow(clippy::type_complexity)]
pub(crate) fn parse_type_params_at(
    tcx: &mut TyCtx,
    scope: &mut TypeScope,
    src: &str,
    pos: usize,
) -> Result<((Vec<Param>, Vec<(Box<str>, Option<Binding>)>), usize), TypeParseError> {
    run(tcx, scope, src, pos, true, |p| {
        let (params, bound) = p.func_params()?;
        Ok((
            params,
            bound.into_iter().map(|(n, b)| (n.into(), b)).collect(),
        ))
    })
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
    let mut lex = Lexer::new(src);
    lex.seek(pos);
    let tok = lex.advance();
    let mark = scope.mark();
    let mut p = Parser {
        src,
        lex,
        tok,
        prev_hi: pos,
        tcx,
        scope,
        depth: 0,
        in_program,
    };
    let result = f(&mut p);
    match result {
        Ok(t) => Ok((t, p.prev_hi)),
        Err(e) => {
            p.scope.reset(mark);
            Err(e)
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    lex: Lexer<'a>,
    /// The current token, not consumed yet.
    tok: Token,
    /// The end of the last consumed token.
    prev_hi: usize,
    tcx: &'a mut TyCtx,
    scope: &'a mut TypeScope,
    depth: usize,
    /// Whether the text is a program's, where a negative constant dimension is an error
    /// (`-1` is no dimension; the unknown one is `?`).
    in_program: bool,
}

type PResult<T> = Result<T, TypeParseError>;

impl<'a> Parser<'a> {
    // ----- tokens -----

    fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    /// Consumes the current token.
    fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_hi = t.hi as usize;
        self.tok = self.lex.advance();
        t
    }

    /// Moves to byte `pos` (past a token read by its bytes) and reads the token there.
    fn seek(&mut self, pos: usize) {
        self.prev_hi = pos;
        self.lex.seek(pos);
        self.tok = self.lex.advance();
    }

    fn eat(&mut self, k: Tok) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes token `k`, written `text`, or fails naming it.
    fn expect(&mut self, k: Tok, text: &str) -> PResult<()> {
        match self.eat(k) {
            true => Ok(()),
            false => Err(self.expected_found(&format!("`{text}`"))),
        }
    }

    /// `item,* close` after the opening bracket, a trailing comma allowed: whether the
    /// list ends with a comma.
    fn list(
        &mut self,
        close: Tok,
        closer: &str,
        mut item: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<bool> {
        let mut comma = false;
        while !self.eat(close) {
            item(self)?;
            comma = self.eat(Tok::Comma);
            if !comma {
                self.expect(close, closer)?;
                break;
            }
        }
        Ok(comma)
    }

    /// The `%` of `floormod` at the current token, consumed if it is there. The lexer reads
    /// `%m` as a local's name (and `% m` as a `%` without a name): the `%` is taken alone.
    fn eat_percent(&mut self) -> bool {
        let lo = self.tok.lo as usize;
        let percent = matches!(self.tok.kind, Tok::Local | Tok::Error)
            && self.src.as_bytes().get(lo) == Some(&b'%');
        if percent {
            self.seek(lo + 1);
        }
        percent
    }

    /// The name at the current token, consumed, with its offset; `None` if it is no name.
    fn ident(&mut self) -> Option<(usize, &'a str)> {
        if !self.at(Tok::Ident) {
            return None;
        }
        let t = self.bump();
        let src: &'a str = self.src;
        Some((t.lo as usize, &src[t.lo as usize..t.hi as usize]))
    }

    // ----- errors -----

    fn error(&self, message: impl Into<String>) -> TypeParseError {
        self.error_at(self.tok.lo as usize, message)
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> TypeParseError {
        TypeParseError {
            offset,
            message: message.into(),
            help: None,
        }
    }

    /// The current token as an error names it: its first characters up to a blank, or the
    /// end of the text.
    fn found(&self) -> String {
        if self.at(Tok::Eof) {
            return "the end of the text".to_string();
        }
        let rest = &self.src[self.tok.lo as usize..];
        let token: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(12)
            .collect();
        format!("`{token}`")
    }

    /// `expected {what}, found ...` at the current token.
    #[inline(never)]
    #[cold]
    fn expected_found(&self, what: &str) -> TypeParseError {
        self.error(format!("expected {what}, found {}", self.found()))
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

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(format!("type nested more than {MAX_NESTING} levels deep")));
        }
        Ok(())
    }

    // ----- types -----

    // The functions on the recursive paths (`ty`, `ty_inner`, `tuple`, `ref_inner`,
    // `func`, `func_rest`, and the `dim_*` ones) keep their frames small: the nesting limit
    // times the frames of one level must fit in a 2 MiB stack in a debug build, where
    // every temporary has its own slot. Error messages are built in functions of their
    // own, and the parameter list of a function type is read by a function that returns
    // before the body is read.

    /// `ty`: any type.
    fn ty(&mut self) -> PResult<Ty> {
        self.enter()?;
        let t = self.ty_inner();
        self.depth -= 1;
        t
    }

    fn ty_inner(&mut self) -> PResult<Ty> {
        match self.tok.kind {
            Tok::LParen => {
                self.bump();
                self.tuple()
            }
            Tok::Ident => self.ty_word(),
            _ => Err(self.expected_found("a type")),
        }
    }

    /// A type that starts with a word: a keyword or a name.
    fn ty_word(&mut self) -> PResult<Ty> {
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a type"));
        };
        match name {
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
            _ => self.named(start, name),
        }
    }

    /// `(T)` after `ref`.
    fn ref_inner(&mut self) -> PResult<Ty> {
        self.expect(Tok::LParen, "(")?;
        let inner = self.ty()?;
        self.expect(Tok::RParen, ")")?;
        Ok(self.tcx.ref_ty(inner))
    }

    /// A tuple or a parenthesized type, after its `(`.
    fn tuple(&mut self) -> PResult<Ty> {
        let mut fields = Vec::new();
        let comma = self.list(Tok::RParen, ")", |p| p.ty().map(|v| fields.push(v)))?;
        if fields.len() == 1 && !comma {
            // `(T)` is a parenthesized type, `(T,)` a one-field tuple.
            return Ok(fields[0]);
        }
        Ok(self.tcx.tuple(&fields))
    }

    /// A named type: a parameter, a data type with its arguments (`List[A]`), a data type.
    fn named(&mut self, start: usize, name: &str) -> PResult<Ty> {
        match self.scope.get(name) {
            Some(Binding::Ty(t)) => Ok(t),
            Some(Binding::Param(p)) => located(start, self.tcx.param_ty(p)),
            Some(Binding::Adt(adt)) => {
                let mut args = Vec::new();
                if self.eat(Tok::LBracket) {
                    self.list(Tok::RBracket, "]", |p| p.ty().map(|v| args.push(v)))?;
                }
                located(start, self.tcx.type_call(adt, &args))
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

    /// `[shape, dtype]` after `Tensor`.
    fn tensor(&mut self) -> PResult<Ty> {
        self.expect(Tok::LBracket, "[")?;
        let shape = self.shape()?;
        self.expect(Tok::Comma, ",")?;
        let dtype = self.dtype()?;
        self.expect(Tok::RBracket, "]")?;
        Ok(self.tcx.tensor(shape, dtype))
    }

    /// `(d, ...)` or the name of a shape.
    fn shape(&mut self) -> PResult<Shape> {
        if self.eat(Tok::LParen) {
            let mut dims = Vec::new();
            self.list(Tok::RParen, ")", |p| {
                let start = p.tok.lo as usize;
                let d = p.dim()?;
                let negative = p.tcx.dims.as_const(d).filter(|&c| c < 0);
                if let Some(c) = negative.filter(|_| p.in_program) {
                    return Err(p.error_at(
                        start,
                        format!("a dimension must not be negative, found {c} (an unknown dimension is `?`)"),
                    ));
                }
                dims.push(d);
                Ok(())
            })?;
            return Ok(self.tcx.shape(&dims));
        }
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a shape"));
        };
        match self.scope.get(name) {
            Some(Binding::Shape(s)) => Ok(s),
            Some(Binding::Param(p)) => located(start, self.tcx.shape_param(p)),
            _ => Err(self.error_at(start, format!("`{name}` is not a shape"))),
        }
    }

    /// A data type: its name (`float32`) or a parameter's.
    fn dtype(&mut self) -> PResult<DTy> {
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a data type"));
        };
        match self.scope.get(name) {
            Some(Binding::DType(d)) => Ok(d),
            Some(Binding::Param(p)) => located(start, self.tcx.dtype_param(p)),
            _ => located(start, name.parse::<DType>().map(DTy::Known)),
        }
    }

    /// `[params](args) -> ret` after `fn`.
    fn func(&mut self) -> PResult<Ty> {
        let (params, bound) = self.func_params()?;
        let t = self.func_rest(&params)?;
        // The symbols the body introduced stay bound; the parameters go.
        for (name, previous) in bound.into_iter().rev() {
            self.scope.unbind(name, previous);
        }
        Ok(t)
    }

    /// The optional `[params]` of a function type, bound in the scope, and the bindings
    /// they shadow (undone with the rest on an error: [`run`]).
    #[allow(clippy::type_complexity)]
    #[inline(never)]
    fn func_params(&mut self) -> PResult<(Vec<Param>, Vec<(&'a str, Option<Binding>)>)> {
        let mut bound: Vec<(&'a str, Option<Binding>)> = Vec::new();
        let (mut params, mut seen) = (Vec::new(), FxHashSet::default());
        // `fn [A](A) -> A`, or the spec's `fn<A>(A) -> A`.
        let (close, closer) = if self.eat(Tok::LBracket) {
            (Tok::RBracket, "]")
        } else if self.eat(Tok::Lt) {
            (Tok::Gt, ">")
        } else {
            return Ok((params, bound));
        };
        self.list(close, closer, |p| {
            let Some((start, name)) = p.ident() else {
                return Err(p.expected_found("a type parameter"));
            };
            let kind = if p.eat(Tok::Colon) {
                let Some((kstart, kname)) = p.ident() else {
                    return Err(p.error("expected a kind (`Type`, `BaseType`, `Shape`, `ShapeVar`)"));
                };
                Kind::from_name(kname).ok_or_else(|| {
                    p.error_at(kstart, format!("unknown kind `{kname}` (expected `Type`, `BaseType`, `Shape` or `ShapeVar`)"))
                })?
            } else {
                Kind::Type
            };
            if !seen.insert(name) {
                return Err(p.error_at(start, format!("type parameter `{name}` is declared twice")));
            }
            if KEYWORDS.contains(&name) {
                // `fn [Tensor](Tensor) -> Tensor` would read `Tensor` as the keyword.
                return Err(p.error_at(
                    start,
                    format!("`{name}` is a keyword and cannot name a type parameter"),
                ));
            }
            let param = p.tcx.param(name, kind);
            params.push(param);
            bound.push((name, p.scope.bind(name, Binding::Param(param))));
            Ok(())
        })?;
        Ok((params, bound))
    }

    /// `(args) -> ret` of a function type.
    fn func_rest(&mut self, params: &[Param]) -> PResult<Ty> {
        self.expect(Tok::LParen, "(")?;
        let mut args = Vec::new();
        self.list(Tok::RParen, ")", |p| p.ty().map(|v| args.push(v)))?;
        self.expect(Tok::Arrow, "->")?;
        let ret = self.ty()?;
        Ok(self.tcx.func(params, &args, ret, Vec::new()))
    }

    // ----- dimensions -----

    /// `dim`: a sum of terms.
    fn dim(&mut self) -> PResult<Dim> {
        self.enter()?;
        let d = self.dim_sum();
        self.depth -= 1;
        d
    }

    fn dim_sum(&mut self) -> PResult<Dim> {
        let start = self.tok.lo as usize;
        let (mut acc, _) = self.dim_term(false)?;
        loop {
            let minus = match self.tok.kind {
                Tok::Plus => false,
                Tok::Minus => true,
                _ => return Ok(acc),
            };
            self.bump();
            let (rhs, negated) = self.dim_term(minus)?;
            let r = match minus && !negated {
                true => self.tcx.dims.sub(acc, rhs),
                false => self.tcx.dims.add(acc, rhs),
            };
            acc = located(start, r)?;
        }
    }

    /// A product of factors (with `/` and `%` as `floordiv` and `floormod`). After a
    /// binary minus (`negate`), a leading integer literal is read negated, so that
    /// `n - 9223372036854775808*m` (how `n + i64::MIN*m` prints) reads back although
    /// 2^63 does not fit in 64 bits: then the product comes back negated, which the
    /// flag says.
    fn dim_term(&mut self, negate: bool) -> PResult<(Dim, bool)> {
        let start = self.tok.lo as usize;
        let (mut acc, mut negated) = match self.tok.kind {
            Tok::Num if negate => (self.dim_literal(true)?, true),
            _ => (self.dim_factor()?, false),
        };
        loop {
            let op = if self.eat(Tok::Star) {
                None
            } else if self.eat(Tok::Slash) {
                Some(DimOp::FloorDiv)
            } else if self.eat_percent() {
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
                        acc = located(start, self.tcx.dims.neg(acc))?;
                        negated = false;
                    }
                    self.tcx.dims.apply(op, acc, rhs)
                }
            };
            acc = located(start, r)?;
        }
    }

    /// The integer literal at the current (number) token, negated if `negative`: the range
    /// is that of `i64`, `-9223372036854775808` included. Read by its bytes: digits and a
    /// suffix (`i64`), whatever the lexer made of the rest.
    fn dim_literal(&mut self, negative: bool) -> PResult<Dim> {
        let b = self.src.as_bytes();
        let begin = self.tok.lo as usize;
        let mut end = begin;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        let text = &self.src[begin..end];
        // TVM prints a dimension of type int64 with its suffix: `(11i64, 41i64)`.
        let suffix = b[end..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if suffix > 0 {
            let word = &self.src[end..end + suffix];
            if word != "i64" && word != "i32" {
                return Err(self.error_at(
                    end,
                    format!("expected `i64`, `i32` or nothing after the dimension `{text}`, found `{word}`"),
                ));
            }
        }
        self.seek(end + suffix);
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
        let start = self.tok.lo as usize;
        let mut negations = 0usize;
        let d = loop {
            if !self.eat(Tok::Minus) {
                break self.dim_atom()?;
            }
            if self.at(Tok::Num) {
                // A negative literal, so that `-9223372036854775808` reads.
                break self.dim_literal(true)?;
            }
            negations += 1;
        };
        if negations % 2 == 1 {
            located(start, self.tcx.dims.neg(d))
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
        match self.tok.kind {
            Tok::Question => {
                self.bump();
                Ok(crate::Dims::ANY)
            }
            Tok::LParen => {
                self.bump();
                self.dim_paren()
            }
            Tok::Num => self.dim_literal(false),
            Tok::Ident => self.dim_word(),
            _ => Err(self.expected_found("a dimension")),
        }
    }

    /// `d)` after a `(`.
    fn dim_paren(&mut self) -> PResult<Dim> {
        let d = self.dim()?;
        self.expect(Tok::RParen, ")")?;
        Ok(d)
    }

    /// A dimension that starts with a word: an operator applied to arguments, or a name.
    fn dim_word(&mut self) -> PResult<Dim> {
        let Some((start, name)) = self.ident() else {
            return Err(self.expected_found("a dimension"));
        };
        let op = match name {
            "floordiv" => Some(DimOp::FloorDiv),
            "floormod" => Some(DimOp::FloorMod),
            "min" => Some(DimOp::Min),
            "max" => Some(DimOp::Max),
            _ => None,
        };
        match op {
            Some(op) if self.eat(Tok::LParen) => self.dim_op(start, op),
            _ => self.dim_name(start, name),
        }
    }

    /// `a, b)` after `op(`.
    fn dim_op(&mut self, start: usize, op: DimOp) -> PResult<Dim> {
        let a = self.dim()?;
        self.expect(Tok::Comma, ",")?;
        let b = self.dim()?;
        self.expect(Tok::RParen, ")")?;
        located(start, self.tcx.dims.apply(op, a, b))
    }

    /// The dimension a name stands for; an unknown name is a new rigid symbol.
    #[inline(never)]
    fn dim_name(&mut self, start: usize, name: &str) -> PResult<Dim> {
        match self.scope.get(name) {
            Some(Binding::Dim(d)) => Ok(d),
            Some(Binding::Param(p)) => located(start, self.tcx.dim_param(p)),
            Some(_) => Err(self.error_at(start, format!("`{name}` is not a dimension"))),
            None => {
                let p = self.tcx.param(name, Kind::ShapeVar);
                self.scope.bind(name, Binding::Param(p));
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

/// `r`, its error at byte `offset`.
fn located<T, E: fmt::Display>(offset: usize, r: Result<T, E>) -> PResult<T> {
    r.map_err(|e| TypeParseError {
        offset,
        message: e.to_string(),
        help: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::AdtTable;
    use crate::text::parse_module;

    /// `src` read as a type and shown, or the error as `offset: message`.
    fn show(src: &str) -> Result<String, String> {
        let mut tcx = TyCtx::new();
        let mut scope = TypeScope::new();
        parse_type(&mut tcx, &mut scope, src)
            .map(|t| tcx.show(t))
            .map_err(|e| format!("{}: {}", e.offset, e.message))
    }

    #[test]
    fn comments_are_read_inside_types() {
        let tensor = "Tensor[(2, 3), float32]";
        assert_eq!(show("Tensor[(2, /* batch */ 3), float32]").unwrap(), tensor);
        assert_eq!(
            show("Tensor[(2, 3), // the rows\n float32]").unwrap(),
            tensor
        );
        assert_eq!(
            show("/* a */ Tensor /* b */ [(2, 3) /* c */, float32] /* d */").unwrap(),
            tensor
        );
        assert_eq!(
            show("fn [A /* any */](A, /* count */ int32) -> /* same */ A").unwrap(),
            "fn [A](A, int32) -> A"
        );
        assert_eq!(show("(int32, /* x */)").unwrap(), "(int32,)");
        // An unterminated comment is named where it starts.
        assert_eq!(
            show("(int32, /* x").unwrap_err(),
            "8: expected a type, found `/*`"
        );
    }

    #[test]
    fn floormod_reads_with_and_without_blanks() {
        for src in [
            "Tensor[(n % m), float32]",
            "Tensor[(n%m), float32]",
            "Tensor[(floormod(n, m)), float32]",
        ] {
            assert_eq!(
                show(src).unwrap(),
                "Tensor[(floormod(n, m)), float32]",
                "{src}"
            );
        }
        assert_eq!(
            show("Tensor[(n % 2), float32]").unwrap(),
            show("Tensor[(floormod(n, 2)), float32]").unwrap()
        );
    }

    #[test]
    fn a_program_reads_comments_inside_its_types() {
        let mut tcx = TyCtx::new();
        let mut adts = AdtTable::default();
        let src = "def @f(%x: Tensor[(2, /* batch */ 3), float32]) -> Tensor[(2, 3), /* out */ float32] { %x }";
        let m = parse_module(src, &mut tcx, &mut adts).unwrap();
        assert_eq!(m.globals().len(), 1);
        let f = m.globals()[0].func.unwrap();
        let crate::expr::ExprKind::Func(f) = &m.expr(f).kind else {
            panic!("a function");
        };
        let ann = m.var_decl(f.params[0]).ann().unwrap();
        assert_eq!(tcx.show(ann), "Tensor[(2, 3), float32]");
        assert_eq!(tcx.show(f.ret.unwrap()), "Tensor[(2, 3), float32]");
    }
}
