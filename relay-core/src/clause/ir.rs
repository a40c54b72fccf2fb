//! The static form of a clause: what `#[relation]` compiles a clause into, and what
//! [`run_clause`](super::run_clause) interprets.
//!
//! Everything is `'static` data built in a `static` initializer: nested terms are
//! references to promoted constants, Rust functions are function pointers.

use super::Value;
use crate::dtype::{DType, DTypeCode};
use crate::relation::{RelCx, RelError, RelationDef};

/// A Rust function called from a clause with `rust(path)(args...)`.
///
/// It receives the values of its arguments (every shape argument of known rank, every
/// type argument not a bare unknown: the call waits until they are) and returns the
/// value of the call, or an error. An error that blames no argument is blamed on the
/// argument the goal's left side comes from.
pub type RustFn = fn(&mut RelCx<'_>, &[Value]) -> Result<Value, RelError>;

/// A clause builtin's meaning over values ([`Term::Builtin`], in
/// [`builtin`](super::builtin)): the value of the call, `None` while it cannot be
/// decided (the goal waits), or an error. Its arguments are ready as a [`RustFn`]'s are.
pub type BuiltinFn = fn(&mut RelCx<'_>, &[Value]) -> Result<Option<Value>, RelError>;

/// A compiled clause `Name(head...) :- body`.
#[derive(Debug)]
pub struct Clause {
    /// The relation's name.
    pub name: &'static str,
    /// The names of the clause's variables; [`Term::Var`] indexes this table.
    pub vars: &'static [&'static str],
    /// One pattern per argument.
    pub head: &'static [Term],
    /// The goals of the body, in source order (empty for `true`).
    pub body: &'static [Goal],
    /// The attributes the body reads; [`Term::Attr`] indexes this table.
    pub attrs: &'static [AttrDecl],
    /// The clause's in-order run as Rust, written by `#[relation]` when it can compile
    /// every step of the clause ([`fast`](super::fast)); tried before the interpreter.
    pub fast: Option<super::fast::FastFn>,
}

/// One goal of a clause body.
#[derive(Debug)]
pub enum Goal {
    /// `lhs = rhs`: computed one way or destructured the other.
    Eq(Term, Term),
    /// A condition (`len(s) == 2`, `assert(axis < len(s), "message")`): it waits while
    /// it cannot be decided and fails with `message`, or with a message quoting `text`.
    Check {
        /// The condition, a term of kind bool.
        cond: Term,
        /// The condition as written, for the default message.
        text: &'static str,
        /// The message of an `assert`.
        message: Option<Message>,
    },
    /// `assert(lhs = rhs, "message", args...)`: an equation whose failure to unify is
    /// reported with `message` instead of the unifier's.
    Unify {
        /// The left side.
        lhs: Term,
        /// The right side.
        rhs: Term,
        /// The message.
        message: Message,
    },
    /// `if cond { then... } else { els... }`: waits until `cond` is decided, then is the
    /// goals of the branch taken.
    If {
        /// The condition, a term of kind bool.
        cond: Term,
        /// The goals when it holds.
        then: &'static [Goal],
        /// The goals when it does not (empty without `else`).
        els: &'static [Goal],
    },
    /// `default(x, term)`: once nothing else can be learnt, a variable still unknown is
    /// `term` (a default an operator documents, such as a weight's dtype being the
    /// data's when the weight is inferred).
    Default(u16, Term),
    /// `Name(args...)`: the relation `Name` holds of the arguments (types the clause
    /// computes), under the call's attributes: done when it is solved, waiting while it
    /// waits, failing with its error, blamed on the argument the failing one comes from.
    Call(&'static RelationDef, &'static [Term]),
    /// `for x in src { goals }`: the goals once for each dimension `x` (the variable
    /// `var`, local to the loop) of the shape `src` (or of the range `lo..hi`). Done
    /// when they are done for every dimension; waits while `src` is unknown.
    For {
        /// The loop variable (an index into [`Clause::vars`]).
        var: u16,
        /// What it goes over: a shape term or a [`Term::Range`].
        src: Term,
        /// The goals of each iteration (no `default`).
        body: &'static [Goal],
    },
}

/// The message of an `assert`: text with a `{}` for each argument, shown in the text
/// syntax (`{{` and `}}` for braces).
#[derive(Debug)]
pub struct Message {
    /// The text.
    pub text: &'static str,
    /// The values shown in place of the `{}`s, in order.
    pub args: &'static [Term],
}

/// An attribute the clause reads, declared with `attrs(name: type = default)`.
#[derive(Debug)]
pub struct AttrDecl {
    /// Its name.
    pub name: &'static str,
    /// What its value must be.
    pub ty: AttrType,
    /// The value used when the call does not give it (a literal term).
    pub default: Option<Term>,
    /// Declared `Option<..>`: `None` is a value (tested with `attrs.name == None`).
    pub optional: bool,
}

/// The type of a declared attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttrType {
    /// An integer, read as a dimension.
    Int,
    /// A boolean.
    Bool,
    /// A data type (`AttrValue::DType`, or a string naming one).
    DType,
    /// A list of integers, read as a shape (`shape`, or `[int]`, which also takes a
    /// single integer as a list of one).
    Shape,
    /// `[int]`: a list of integers (or a single integer), read as a shape.
    Ints,
    /// A string, compared with string literals.
    Str,
    /// A float, compared with float literals or multiplying a dimension.
    Float,
    /// `[float]`: a list of floats (or a single float), indexed (`attrs.scales[0]`).
    Floats,
}

impl AttrType {
    /// How the type is written in a declaration.
    pub fn name(self) -> &'static str {
        match self {
            AttrType::Int => "int",
            AttrType::Bool => "bool",
            AttrType::DType => "dtype",
            AttrType::Shape => "shape",
            AttrType::Ints => "[int]",
            AttrType::Str => "str",
            AttrType::Float => "float",
            AttrType::Floats => "[float]",
        }
    }
}

/// An item of a list term: a dimension, or a shape spliced in (`..rest`).
#[derive(Debug)]
pub enum Item {
    /// One dimension.
    Dim(Term),
    /// Every dimension of a shape.
    Splice(Term),
}

/// Arithmetic on dimensions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b` and `floordiv(a, b)`.
    FloorDiv,
    /// `a % b` and `floormod(a, b)`.
    FloorMod,
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
}

/// A comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Arith {
    /// `a op b` on constants, when it is exact in `i64` and not a division by zero (the
    /// general path reports overflows and divisions by zero). Divisions round toward
    /// negative infinity, as the dimensions' `floordiv` and `floormod` do.
    pub(crate) fn on_consts(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Arith::Add => a.checked_add(b),
            Arith::Sub => a.checked_sub(b),
            Arith::Mul => a.checked_mul(b),
            Arith::Min => Some(a.min(b)),
            Arith::Max => Some(a.max(b)),
            Arith::FloorDiv => {
                let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
                Some(if r != 0 && (r < 0) != (b < 0) {
                    q - 1
                } else {
                    q
                })
            }
            Arith::FloorMod => {
                let r = a.checked_rem(b)?;
                Some(if r != 0 && (r < 0) != (b < 0) {
                    r + b
                } else {
                    r
                })
            }
        }
    }

    /// `a op b` on dimensions, in normal form.
    pub(crate) fn on_dims(
        self,
        dims: &mut crate::dim::Dims,
        a: crate::Dim,
        b: crate::Dim,
    ) -> Result<crate::Dim, crate::DimError> {
        use crate::dim::DimOp;
        match self {
            Arith::Add => dims.add(a, b),
            Arith::Sub => dims.sub(a, b),
            Arith::Mul => dims.mul(a, b),
            Arith::FloorDiv => dims.apply(DimOp::FloorDiv, a, b),
            Arith::FloorMod => dims.apply(DimOp::FloorMod, a, b),
            Arith::Min => dims.apply(DimOp::Min, a, b),
            Arith::Max => dims.apply(DimOp::Max, a, b),
        }
    }
}

/// The most dimensions `[d; n]` makes: far above any tensor's rank, far below what would
/// exhaust memory.
pub const MAX_REPEAT: i64 = 1 << 16;

/// The most integers a range `lo..hi` gives: far above the number of fields of any tuple
/// a model concatenates, far below what would exhaust memory or time.
pub const MAX_RANGE: i64 = 1 << 20;

impl Cmp {
    /// Whether `a op b` (integers, or floats).
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// A term: a pattern in the head, an expression or a pattern in the body.
#[derive(Debug)]
pub enum Term {
    /// A clause variable (an index into [`Clause::vars`]).
    Var(u16),
    /// `_`: matches anything, computes nothing.
    Wild,
    /// An integer literal (a constant dimension).
    Int(i64),
    /// `?`: the dimension `Any`, of a size known only at run time (`nonzero`'s count).
    Any,
    /// `true` or `false`.
    Bool(bool),
    /// A dtype literal (`float32`), by code, bits and lanes.
    DType(DTypeCode, u8, u16),
    /// `Tensor(shape, dtype)`.
    Tensor(&'static Term, &'static Term),
    /// `Tuple(a, b)` or `(a, b)`; a field may be a [`Term::Rest`] (one at most).
    Tuple(&'static [Term]),
    /// `..rest` among the fields of a tuple: as many fields as the tuple has beyond the
    /// others, themselves a tuple (`Tuple(..fs)` is every field, `(x, ..rest)` all but
    /// the first).
    Rest(&'static Term),
    /// `shape(T)`: the shape of the tensor type `T`.
    ShapeOf(&'static Term),
    /// `dtype(T)`: the dtype of the tensor type `T`.
    DTypeOf(&'static Term),
    /// `[d0, d1, ..rest]`: a shape.
    List(&'static [Item]),
    /// `s[i]`: a dimension of a shape, or a field of a tuple (negative indices count
    /// from the end).
    Index(&'static Term, &'static Term),
    /// `s[a..b]`, `s[a..]`, `s[..b]`: a part of a shape.
    Slice(&'static Term, Option<&'static Term>, Option<&'static Term>),
    /// Dimension arithmetic.
    Arith(Arith, &'static Term, &'static Term),
    /// `-a`.
    Neg(&'static Term),
    /// A comparison (a bool).
    Cmp(Cmp, &'static Term, &'static Term),
    /// `prod(s)`: the product of the dimensions of a shape.
    Prod(&'static Term),
    /// `sum(s)`: the sum of the dimensions of a shape.
    Sum(&'static Term),
    /// `len(s)`: the rank of a shape, or the number of fields of a tuple.
    Len(&'static Term),
    /// `broadcast(s1, s2)`: NumPy broadcasting of two shapes.
    Broadcast(&'static Term, &'static Term),
    /// `attrs.name` (an index into [`Clause::attrs`]).
    Attr(u16),
    /// `rust(f)(args...)`.
    Rust(RustFn, &'static [Term]),
    /// `X @ pattern`: the whole value is the variable `X` (a [`Term::Var`]), and
    /// matches `pattern`.
    As(&'static Term, &'static Term),
    /// `attrs.name == None`: whether the call leaves the optional attribute `name` (an
    /// index into [`Clause::attrs`]) without a value.
    IsNone(u16),
    /// `reverse(s)`: the dimensions of a shape in reverse order.
    Reverse(&'static Term),
    /// `s[list]`: the dimensions of `s` at the indices of a list (negative from the end).
    Gather(&'static Term, &'static Term),
    /// `is_any(d)`: whether a dimension is `?` (an unknown dimension is not: the
    /// relation may still solve it).
    IsAny(&'static Term),
    /// `is_int(d)`: whether a dimension is a constant: `true` for an integer, `false`
    /// for `?` and for expressions over rigid symbols, undecided while it has unknowns.
    IsInt(&'static Term),
    /// `[d; n]`: `n` times the dimension `d`.
    Repeat(&'static Term, &'static Term),
    /// `a && b`: false as soon as one side is, true when both are.
    And(&'static Term, &'static Term),
    /// `a || b`: true as soon as one side is, false when both are not.
    Or(&'static Term, &'static Term),
    /// `!a`.
    Not(&'static Term),
    /// A string literal: the default of a `str` attribute.
    Str(&'static str),
    /// A float literal: the default of a `float` attribute.
    Float(f64),
    /// `attrs.name op "text"`: a `str` attribute (an index into [`Clause::attrs`])
    /// compared with a literal (`==` or `!=`), a bool.
    StrCmp(u16, Cmp, &'static str),
    /// `attrs.name op 0.5`: a `float` attribute compared with a literal, a bool.
    FloatCmp(u16, Cmp, f64),
    /// `[elem for var in src if cond]`: the shape of `elem` (a dimension) for each
    /// dimension `var` (a variable local to the comprehension) of `src` (a shape or a
    /// [`Term::Range`]) for which `cond` holds.
    Comp {
        /// The element, a dimension term over `var`.
        elem: &'static Term,
        /// The loop variable (an index into [`Clause::vars`]).
        var: u16,
        /// What it goes over.
        src: &'static Term,
        /// The filter, a bool term (`None`: every dimension).
        cond: Option<&'static Term>,
    },
    /// `lo..hi`: the shape of the integers from `lo` up to `hi` (excluded), only as what
    /// a comprehension or a `for` goes over.
    Range(&'static Term, &'static Term),
    /// `x in list`: whether the dimension `x` is one of the dimensions of a shape.
    In(&'static Term, &'static Term),
    /// `if cond { a } else { b }`: `a` when `cond` holds, `b` when it does not.
    IfElse(&'static Term, &'static Term, &'static Term),
    /// `d * x` with `x` a float (a [`Term::Float`], a `float` attribute, or an index
    /// `attrs.scales[i]` of a `[float]` one): `floor(d * x)`, as TVM's resize computes
    /// its output size. Exact for dimensions below 2^53; `?` for a symbolic `d` scaled
    /// by a non-integral factor.
    ScaleFloor(&'static Term, &'static Term),
    /// A builtin whose meaning is a function over values ([`BuiltinFn`]), called once
    /// its arguments are ready (as a Rust function's are): `distinct(s)`.
    Builtin(BuiltinFn, &'static [Term]),
}

/// The [`DType`] of a [`Term::DType`] literal (checked by the macro, so it exists).
pub(crate) fn dtype_of(code: DTypeCode, bits: u8, lanes: u16) -> DType {
    DType::new(code, bits, lanes).unwrap_or(DType::BOOL)
}
