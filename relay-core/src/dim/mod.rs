//! Shape dimensions in a canonical normal form.
//!
//! A dimension is a constant, `Any` (`?`), a rigid symbol (a [`Param`] of kind
//! `ShapeVar`), a flexible variable ([`DimVar`]), or an expression over them. Expressions
//! are kept as a *sum of monomials with integer coefficients*: each monomial is a sorted
//! multiset of atoms (symbols, variables, and the non-linear operators `floordiv`,
//! `floormod`, `min`, `max` as opaque atoms). Because every dimension is interned in that
//! form, `(2*d)*3` and `6*d` are the same [`Dim`], and equality is `==` on ids.
//!
//! Division by a constant is normalized further (see [`Dims::floordiv`]): the dividend's
//! coefficients are reduced modulo the divisor, so `floordiv(n + 3, 2)` is
//! `floordiv(n + 1, 2) + 1`, and `floormod(x, c)` is stored as `x - c*floordiv(x, c)`, so
//! `c*floordiv(x, c) + floormod(x, c)` is `x`. The printer writes such terms back as
//! `floormod(x, c)` ([`Dims::shown_terms`]).
//!
//! The stored order of terms and atoms follows ids; it is part of the identity but not
//! meant for people: the printer orders terms by degree and by the names of their atoms.
//!
//! Arithmetic is checked: an overflow, a division by zero or an expression that grows past
//! [`MAX_TERMS`] terms is a [`DimError`], never a wrap or a panic.
//!
//! ```
//! use relay_core::{TyCtx, Kind};
//! let mut tcx = TyCtx::new();
//! let d = tcx.param("d", Kind::ShapeVar);
//! let d = tcx.dims.sym(d);
//! let two = tcx.dims.konst(2);
//! let three = tcx.dims.konst(3);
//! let six = tcx.dims.konst(6);
//! let lhs = tcx.dims.mul(d, two).and_then(|x| tcx.dims.mul(x, three)).unwrap();
//! let rhs = tcx.dims.mul(six, d).unwrap();
//! assert_eq!(lhs, rhs);
//! ```

use crate::intern::Interner;
use crate::kind::Param;
use crate::var::DimVar;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::fmt;

/// The largest number of monomials an expression may have. Products of large sums are
/// refused past it, so that no program can make dimension arithmetic explode.
pub const MAX_TERMS: usize = 256;

/// The largest number of atoms one monomial may multiply together (its degree). Without
/// it, `n*n*...*n` with `k` factors costs `O(k^2)` to build (every product copies and
/// sorts the atoms of the one before), so a long enough text would hang the parser. It
/// is twice [`MAX_TERMS`], so that the square of `1 + n + ... + n^255` is still refused
/// for its number of terms.
pub const MAX_FACTORS: usize = 2 * MAX_TERMS;

/// An interned dimension. Equal dimensions (after normalization) are equal ids.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dim(pub(crate) u32);

/// The non-linear operators, kept as opaque atoms of the normal form.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DimOp {
    /// Division rounding toward negative infinity.
    FloorDiv,
    /// The remainder of [`DimOp::FloorDiv`] (same sign as the divisor).
    FloorMod,
    /// The smaller of two dimensions.
    Min,
    /// The larger of two dimensions.
    Max,
}

impl DimOp {
    /// The operator's name as printed and parsed.
    pub fn name(self) -> &'static str {
        match self {
            DimOp::FloorDiv => "floordiv",
            DimOp::FloorMod => "floormod",
            DimOp::Min => "min",
            DimOp::Max => "max",
        }
    }
}

/// One monomial of a sum: `coeff * atoms[0] * atoms[1] * ...` with `atoms` sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// The atoms multiplied together (empty for the constant term), sorted by id.
    pub atoms: Box<[Dim]>,
    /// The integer coefficient, never zero.
    pub coeff: i64,
}

/// What an interned [`Dim`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DimData {
    /// An integer constant.
    Const(i64),
    /// The unknown dimension `?`: compatible with every dimension.
    Any,
    /// A rigid symbol: stands for every value and equals only itself.
    Sym(Param),
    /// A flexible variable of the solver.
    Var(DimVar),
    /// An opaque non-linear atom. The arguments of `min` and `max` are ordered by
    /// [`Dims::structural_cmp`]. A `floordiv` by a constant `c` has a non-constant
    /// dividend whose coefficients are floor remainders of `c`; a `floormod` by a constant
    /// only occurs for `c = i64::MIN` (see [`Dims::floormod`]).
    Op(DimOp, Dim, Dim),
    /// A sum of at least two terms, or one term that is not a bare atom or constant.
    /// Terms are sorted by atoms (the constant term first) and no coefficient is zero.
    Sum(Box<[Term]>),
}

/// A failure of dimension arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimError {
    /// An integer operation overflowed 64 bits.
    Overflow,
    /// A `floordiv` or `floormod` by the constant zero.
    DivisionByZero,
    /// The expression would have more than [`MAX_TERMS`] monomials.
    TooLarge,
    /// A monomial would multiply more than [`MAX_FACTORS`] atoms together.
    TooManyFactors,
}

impl fmt::Display for DimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimError::Overflow => f.write_str("dimension arithmetic overflows 64 bits"),
            DimError::DivisionByZero => f.write_str("dimension divided by zero"),
            DimError::TooLarge => {
                write!(f, "dimension expression has more than {MAX_TERMS} terms")
            }
            DimError::TooManyFactors => write!(
                f,
                "dimension expression has a term of more than {MAX_FACTORS} factors"
            ),
        }
    }
}

impl std::error::Error for DimError {}

const HAS_VAR: u8 = 1;
const HAS_SYM: u8 = 2;

/// A polynomial under construction: terms sorted by atoms, no zero coefficients.
type Poly = Vec<Term>;

/// The table of interned dimensions, with their arithmetic.
pub struct Dims {
    table: Interner<DimData>,
    flags: Vec<u8>,
    /// A hash of each dimension's structure that does not depend on the order in which
    /// dimensions were interned (see [`Dims::structural_cmp`]).
    keys: Vec<u64>,
    /// The dimensions of the constants `0..SMALL` once interned (`u32::MAX` before):
    /// indices and ranks are interned without hashing.
    small: [u32; SMALL],
}

/// How many small constants [`Dims::konst`] keeps at hand.
const SMALL: usize = 64;

impl Default for Dims {
    fn default() -> Self {
        Self::new()
    }
}

impl Dims {
    /// A table holding only `?`, `0` and `1`.
    pub fn new() -> Self {
        let mut dims = Dims {
            table: Interner::new(),
            flags: Vec::new(),
            keys: Vec::new(),
            small: [u32::MAX; SMALL],
        };
        let any = dims.intern(DimData::Any);
        debug_assert_eq!(any, Dims::ANY);
        dims.konst(0);
        dims.konst(1);
        dims
    }

    /// The dimension `?`.
    pub const ANY: Dim = Dim(0);

    fn intern(&mut self, data: DimData) -> Dim {
        let id = self.table.intern(data);
        if id as usize == self.flags.len() {
            let (flags, key) = summarize(&self.flags, &self.keys, self.table.get(id));
            self.flags.push(flags);
            self.keys.push(key);
        }
        Dim(id)
    }

    /// What `d` is.
    #[inline]
    pub fn data(&self, d: Dim) -> &DimData {
        self.table.get(d.0)
    }

    /// The number of distinct dimensions interned so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether only the three built-in dimensions exist.
    pub fn is_empty(&self) -> bool {
        self.len() <= 3
    }

    /// The constant `c`.
    pub fn konst(&mut self, c: i64) -> Dim {
        let Some(slot) = usize::try_from(c).ok().filter(|&i| i < SMALL) else {
            return self.intern(DimData::Const(c));
        };
        match self.small[slot] {
            u32::MAX => {
                let d = self.intern(DimData::Const(c));
                self.small[slot] = d.0;
                d
            }
            id => Dim(id),
        }
    }

    /// The rigid symbol `p` (a parameter of kind `ShapeVar`).
    pub fn sym(&mut self, p: Param) -> Dim {
        self.intern(DimData::Sym(p))
    }

    /// The flexible variable `v`.
    pub fn var(&mut self, v: DimVar) -> Dim {
        self.intern(DimData::Var(v))
    }

    /// `Some(c)` if `d` is the constant `c`.
    #[inline]
    pub fn as_const(&self, d: Dim) -> Option<i64> {
        match self.data(d) {
            DimData::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// Whether `d` is `?`.
    #[inline]
    pub fn is_any(&self, d: Dim) -> bool {
        d == Dims::ANY
    }

    /// Whether `d` mentions a flexible variable.
    #[inline]
    pub fn has_vars(&self, d: Dim) -> bool {
        self.flags[d.0 as usize] & HAS_VAR != 0
    }

    /// Whether `d` mentions a rigid symbol.
    #[inline]
    pub fn has_syms(&self, d: Dim) -> bool {
        self.flags[d.0 as usize] & HAS_SYM != 0
    }

    /// Whether `d` is an atom of the normal form (symbol, variable or operator).
    fn is_atom(&self, d: Dim) -> bool {
        matches!(
            self.data(d),
            DimData::Sym(_) | DimData::Var(_) | DimData::Op(..)
        )
    }

    fn to_poly(&self, d: Dim) -> Poly {
        match self.data(d) {
            DimData::Const(0) => Vec::new(),
            DimData::Const(c) => vec![Term {
                atoms: Box::new([]),
                coeff: *c,
            }],
            DimData::Sum(terms) => terms.to_vec(),
            DimData::Any => unreachable!("`?` has no polynomial form"),
            _ => vec![Term {
                atoms: Box::new([d]),
                coeff: 1,
            }],
        }
    }

    fn intern_poly(&mut self, poly: Poly) -> Dim {
        match poly.as_slice() {
            [] => self.konst(0),
            [t] if t.atoms.is_empty() => self.konst(t.coeff),
            [t] if t.coeff == 1 && t.atoms.len() == 1 => t.atoms[0],
            _ => self.intern(DimData::Sum(poly.into_boxed_slice())),
        }
    }

    /// Whether `d` is a single atom (used by printers to decide on parentheses).
    pub fn is_simple(&self, d: Dim) -> bool {
        self.is_atom(d) || matches!(self.data(d), DimData::Const(_) | DimData::Any)
    }

    /// A total order on dimensions that does not depend on the order in which they were
    /// interned: by kind (constants, symbols, variables, operators, sums), then by value
    /// for a constant and by index for a symbol or a variable, then by a hash of the
    /// structure. Only two different dimensions with equal hashes (vanishingly rare) fall
    /// back on their ids. It orders the arguments of `min` and `max`.
    pub fn structural_cmp(&self, a: Dim, b: Dim) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let rank = |d: Dim| match self.data(d) {
            DimData::Const(c) => (0, *c),
            DimData::Sym(p) => (1, i64::from(p.index())),
            DimData::Var(v) => (2, i64::from(v.index())),
            DimData::Op(..) => (3, 0),
            DimData::Sum(_) => (4, 0),
            DimData::Any => (5, 0),
        };
        rank(a)
            .cmp(&rank(b))
            .then_with(|| self.keys[a.0 as usize].cmp(&self.keys[b.0 as usize]))
            .then(a.cmp(&b))
    }

    /// [`Dims::structural_cmp`] extended to lists, lexicographically.
    fn structural_cmp_all(&self, a: &[Dim], b: &[Dim]) -> Ordering {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| self.structural_cmp(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len()))
    }
}

/// The flags and the structural key of a new dimension, from those of its parts.
fn summarize(flags: &[u8], keys: &[u64], data: &DimData) -> (u8, u64) {
    let key = |d: &Dim| keys[d.0 as usize];
    match data {
        DimData::Const(c) => (0, combine(1, *c as u64)),
        DimData::Any => (0, mix(2)),
        DimData::Sym(p) => (HAS_SYM, combine(3, u64::from(p.index()))),
        DimData::Var(v) => (HAS_VAR, combine(4, u64::from(v.index()))),
        DimData::Op(op, a, b) => (
            flags[a.0 as usize] | flags[b.0 as usize],
            combine(combine(combine(5, *op as u64), key(a)), key(b)),
        ),
        DimData::Sum(terms) => {
            // Sums of mixed hashes: the terms and the atoms of a term are stored in an
            // order that depends on ids, and the key must not.
            let mut f = 0;
            let mut acc = 0u64;
            for t in terms.iter() {
                let mut atoms = 0u64;
                for a in t.atoms.iter() {
                    f |= flags[a.0 as usize];
                    atoms = atoms.wrapping_add(mix(key(a)));
                }
                acc = acc.wrapping_add(mix(combine(combine(6, t.coeff as u64), atoms)));
            }
            (f, combine(7, acc))
        }
    }
}

/// The `splitmix64` finalizer: a fixed bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn combine(h: u64, x: u64) -> u64 {
    mix(h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ x)
}

/// `floor(a / b)`, `None` on division by zero or overflow.
pub fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// `a - b * floor(a / b)`, `None` on division by zero or overflow.
pub fn floor_mod(a: i64, b: i64) -> Option<i64> {
    if b == -1 {
        // `i64::MIN % -1` overflows in Rust, but every integer is a multiple of -1.
        return Some(0);
    }
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

mod arith;
mod shown;
mod walk;

pub use shown::{Shown, ShownTerm};
pub use walk::Equation;
