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
}

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
        self.intern(DimData::Const(c))
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

    /// Adds two sorted polynomials.
    fn poly_add(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
        Self::poly_add_sub(a, b, false)
    }

    /// Subtracts two sorted polynomials. Not `a + (-1)*b`: negating a coefficient
    /// `i64::MIN` overflows even where the difference fits (`-1 - i64::MIN`).
    fn poly_sub(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
        Self::poly_add_sub(a, b, true)
    }

    fn poly_add_sub(a: &[Term], b: &[Term], subtract: bool) -> Result<Poly, DimError> {
        let combine = |x: i64, y: i64| {
            if subtract {
                x.checked_sub(y)
            } else {
                x.checked_add(y)
            }
            .ok_or(DimError::Overflow)
        };
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].atoms.cmp(&b[j].atoms) {
                std::cmp::Ordering::Less => {
                    out.push(a[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(Term {
                        atoms: b[j].atoms.clone(),
                        coeff: combine(0, b[j].coeff)?,
                    });
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let coeff = combine(a[i].coeff, b[j].coeff)?;
                    if coeff != 0 {
                        out.push(Term {
                            atoms: a[i].atoms.clone(),
                            coeff,
                        });
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        for t in &b[j..] {
            out.push(Term {
                atoms: t.atoms.clone(),
                coeff: combine(0, t.coeff)?,
            });
        }
        if out.len() > MAX_TERMS {
            return Err(DimError::TooLarge);
        }
        Ok(out)
    }

    fn poly_scale(p: &[Term], k: i64) -> Result<Poly, DimError> {
        if k == 0 {
            return Ok(Vec::new());
        }
        p.iter()
            .map(|t| {
                let coeff = t.coeff.checked_mul(k).ok_or(DimError::Overflow)?;
                Ok(Term {
                    atoms: t.atoms.clone(),
                    coeff,
                })
            })
            .collect()
    }

    fn poly_mul(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
        if a.len().saturating_mul(b.len()) > MAX_TERMS * MAX_TERMS {
            return Err(DimError::TooLarge);
        }
        // The degree of a product is the sum of the degrees (the top-degree parts of two
        // non-zero polynomials never cancel), so this refuses exactly the products that
        // would have a term of more than `MAX_FACTORS` atoms, before building any.
        let degree = |p: &[Term]| p.iter().map(|t| t.atoms.len()).max().unwrap_or(0);
        if degree(a) + degree(b) > MAX_FACTORS {
            return Err(DimError::TooManyFactors);
        }
        // Each coefficient is summed exactly, as a 128-bit sum plus the number of times it
        // wrapped around, so that whether it fits in 64 bits does not depend on the order
        // of the products (the partial sums of `a*b` and `b*a` differ).
        let mut acc: FxHashMap<Box<[Dim]>, (i128, i64)> = FxHashMap::default();
        for x in a {
            for y in b {
                let product = i128::from(x.coeff) * i128::from(y.coeff);
                let mut atoms = Vec::with_capacity(x.atoms.len() + y.atoms.len());
                atoms.extend_from_slice(&x.atoms);
                atoms.extend_from_slice(&y.atoms);
                atoms.sort_unstable();
                let (sum, wraps) = acc.entry(atoms.into_boxed_slice()).or_insert((0, 0));
                let (s, wrapped) = sum.overflowing_add(product);
                *sum = s;
                if wrapped {
                    *wraps += if product < 0 { -1 } else { 1 };
                }
            }
        }
        let mut out = Vec::with_capacity(acc.len());
        for (atoms, (sum, wraps)) in acc {
            if wraps != 0 {
                return Err(DimError::Overflow);
            }
            let coeff = i64::try_from(sum).map_err(|_| DimError::Overflow)?;
            if coeff != 0 {
                out.push(Term { atoms, coeff });
            }
        }
        if out.len() > MAX_TERMS {
            return Err(DimError::TooLarge);
        }
        out.sort_unstable_by(|x, y| x.atoms.cmp(&y.atoms));
        Ok(out)
    }

    /// `a + b`.
    pub fn add(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return Ok(self.konst(x.checked_add(y).ok_or(DimError::Overflow)?));
        }
        let p = Self::poly_add(&self.to_poly(a), &self.to_poly(b))?;
        Ok(self.intern_poly(p))
    }

    /// `-a`.
    pub fn neg(&mut self, a: Dim) -> Result<Dim, DimError> {
        self.scale(a, -1)
    }

    /// `k * a` for a constant `k`.
    pub fn scale(&mut self, a: Dim, k: i64) -> Result<Dim, DimError> {
        if a == Dims::ANY {
            return Ok(Dims::ANY);
        }
        let p = Self::poly_scale(&self.to_poly(a), k)?;
        Ok(self.intern_poly(p))
    }

    /// `a - b`.
    pub fn sub(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        let p = Self::poly_sub(&self.to_poly(a), &self.to_poly(b))?;
        Ok(self.intern_poly(p))
    }

    /// `a / k` if every coefficient of `a` is divisible by the constant `k`.
    pub fn exact_div(&mut self, a: Dim, k: i64) -> Option<Dim> {
        if a == Dims::ANY || k == 0 {
            return None;
        }
        let mut out = self.to_poly(a);
        for t in out.iter_mut() {
            if t.coeff.checked_rem(k)? != 0 {
                return None;
            }
            t.coeff = t.coeff.checked_div(k)?;
        }
        Some(self.intern_poly(out))
    }

    /// `a * b`.
    pub fn mul(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return Ok(self.konst(x.checked_mul(y).ok_or(DimError::Overflow)?));
        }
        let p = Self::poly_mul(&self.to_poly(a), &self.to_poly(b))?;
        Ok(self.intern_poly(p))
    }

    /// The product of `dims` (`1` for none).
    pub fn product(&mut self, dims: &[Dim]) -> Result<Dim, DimError> {
        dims.iter()
            .try_fold(self.konst(1), |acc, &d| self.mul(acc, d))
    }

    /// Applies `floordiv` or `floormod`, normalizing so that equal values get equal ids.
    ///
    /// Constants fold. A dimension used as a divisor is assumed non-zero (as in TVM: the
    /// operation that divides by it asserts it), so `floordiv(0, x)` and `floormod(0, x)`
    /// are `0`, `floordiv(x, x)` is `1` and `floormod(x, x)` is `0`; only the constant
    /// divisor `0` is an error.
    ///
    /// For a constant divisor `c`, the dividend `e` is split as `c*Q + R` by dividing each
    /// coefficient with floor semantics, so that every coefficient of `R` is a floor
    /// remainder of `c` (in `0..c` for `c > 0`, in `c+1..=0` for `c < 0`). Then
    /// `floordiv(e, c)` is `Q + floordiv(R, c)`, with `floordiv(R, c)` an opaque atom
    /// unless `R` is a constant, and `floormod(e, c)` is `R - c*floordiv(R, c)`: a
    /// `floormod` by a constant is never an atom of its own, which makes
    /// `c*floordiv(e, c) + floormod(e, c)` equal to `e`. (The printer shows
    /// `R - c*floordiv(R, c)` as `floormod(R, c)` again; see [`Dims::shown_terms`].)
    /// A negative divisor is made positive inside the atom, as
    /// `floordiv(R, c) = floordiv(-R, -c)`, so `floordiv(n, -2)` is
    /// `floordiv(n, 2) - n`. Only the divisor `i64::MIN`, whose negation does not fit,
    /// stays negative (and `floormod` by it stays an atom); a quotient by `-1` whose
    /// negation overflows stays an opaque `floordiv(e, -1)`.
    fn div_mod(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if self.as_const(b) == Some(0) {
            // Whatever the dividend, `?` included.
            return Err(DimError::DivisionByZero);
        }
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        if self.as_const(a) == Some(0) {
            // 0 divided by a (non-zero) divisor.
            return Ok(self.konst(0));
        }
        let Some(c) = self.as_const(b) else {
            if a == b {
                // x / x is 1 and x mod x is 0 for every non-zero x, and a dimension used
                // as a divisor is asserted non-zero by the operation that divides by it.
                return Ok(self.konst(if op == DimOp::FloorDiv { 1 } else { 0 }));
            }
            return Ok(self.intern(DimData::Op(op, a, b)));
        };
        if let Some(x) = self.as_const(a) {
            let r = match op {
                DimOp::FloorDiv => floor_div(x, c),
                _ => floor_mod(x, c),
            };
            return Ok(self.konst(r.ok_or(DimError::Overflow)?));
        }
        if c == -1 {
            // Every integer is a multiple of -1.
            return match op {
                DimOp::FloorMod => Ok(self.konst(0)),
                // -a, unless a coefficient is i64::MIN: then 2^63 does not fit and the
                // quotient stays opaque.
                _ => match self.neg(a) {
                    Err(DimError::Overflow) => Ok(self.intern(DimData::Op(op, a, b))),
                    r => r,
                },
            };
        }
        // a = c*Q + R, term by term. Both lists keep the sorted order of a's terms.
        let mut quotient: Poly = Vec::new();
        let mut rest: Poly = Vec::new();
        for t in self.to_poly(a) {
            // Neither fails for a divisor other than 0 and -1.
            let q = floor_div(t.coeff, c).ok_or(DimError::Overflow)?;
            let r = floor_mod(t.coeff, c).ok_or(DimError::Overflow)?;
            if q != 0 {
                quotient.push(Term {
                    atoms: t.atoms.clone(),
                    coeff: q,
                });
            }
            if r != 0 {
                rest.push(Term {
                    atoms: t.atoms,
                    coeff: r,
                });
            }
        }
        let rest = self.intern_poly(rest);
        // floordiv(R, c), divided by a positive constant where one exists:
        // floordiv(R, c) = floordiv(-R, -c), and -R has coefficients in 0..-c.
        let (num, den) = if c > 0 || c == i64::MIN {
            (rest, c)
        } else {
            (self.neg(rest)?, -c)
        };
        let inner = match self.as_const(num) {
            // A constant remainder is in 0..c (or c+1..=0): its quotient is 0.
            Some(r) => self.konst(floor_div(r, den).ok_or(DimError::Overflow)?),
            None => {
                let den = self.konst(den);
                self.intern(DimData::Op(DimOp::FloorDiv, num, den))
            }
        };
        match op {
            DimOp::FloorDiv => {
                let q = self.intern_poly(quotient);
                self.add(q, inner)
            }
            _ => {
                // floormod(a, c) = a - c*floordiv(a, c) = R - c*floordiv(R, c)
                let c_inner = self.scale(inner, c)?;
                match self.sub(rest, c_inner) {
                    // `-c` does not fit (c = i64::MIN): the remainder stays opaque.
                    Err(DimError::Overflow) => Ok(self.intern(DimData::Op(op, rest, b))),
                    r => r,
                }
            }
        }
    }

    /// `floordiv(a, b)`: division rounding toward negative infinity. For a constant
    /// divisor `c`, `floordiv(c*Q + R, c)` is `Q + floordiv(R, c)` with every coefficient
    /// of `R` reduced to a floor remainder of `c`: `floordiv(3*n + 5, 2)` is
    /// `n + floordiv(n + 1, 2) + 2`.
    pub fn floordiv(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        self.div_mod(DimOp::FloorDiv, a, b)
    }

    /// `floormod(a, b)`: the remainder of [`Dims::floordiv`]. For a constant divisor `c`
    /// the result is stored as `x - c*floordiv(x, c)` (with `x` the dividend reduced as in
    /// [`Dims::floordiv`]), never as a `floormod` atom, unless `-c` overflows.
    pub fn floormod(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        self.div_mod(DimOp::FloorMod, a, b)
    }

    fn min_max(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        if a == b {
            return Ok(a);
        }
        let a_smaller = match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => Some(x < y),
            // A difference that overflows or grows too large is simply not a constant:
            // `min` itself cannot fail. `a - b` may overflow where `b - a` (i64::MIN)
            // does not: try both, so that the result does not depend on the order.
            _ => {
                let mut constant_diff =
                    |x: Dim, y: Dim| self.sub(x, y).ok().and_then(|diff| self.as_const(diff));
                match constant_diff(a, b) {
                    Some(d) => Some(d < 0),
                    None => constant_diff(b, a).map(|d| d > 0),
                }
            }
        };
        if let Some(a_smaller) = a_smaller {
            return Ok(if a_smaller == (op == DimOp::Min) {
                a
            } else {
                b
            });
        }
        let (x, y) = if self.structural_cmp(a, b) == Ordering::Less {
            (a, b)
        } else {
            (b, a)
        };
        Ok(self.intern(DimData::Op(op, x, y)))
    }

    /// `min(a, b)`.
    pub fn min(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        self.min_max(DimOp::Min, a, b)
    }

    /// `max(a, b)`.
    pub fn max(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        self.min_max(DimOp::Max, a, b)
    }

    /// Applies `op` to `a` and `b`.
    pub fn apply(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
        match op {
            DimOp::FloorDiv | DimOp::FloorMod => self.div_mod(op, a, b),
            DimOp::Min | DimOp::Max => self.min_max(op, a, b),
        }
    }

    /// The atoms `d` is built from, children before parents (post-order), each once,
    /// children left to right (terms in their stored order, operator arguments in order).
    fn post_order(&self, d: Dim) -> Vec<Dim> {
        let mut order = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![(d, false)];
        while let Some((x, expanded)) = stack.pop() {
            if expanded {
                order.push(x);
                continue;
            }
            if !seen.insert(x) {
                continue;
            }
            stack.push((x, true));
            match self.data(x) {
                DimData::Op(_, a, b) => {
                    stack.push((*b, false));
                    stack.push((*a, false));
                }
                DimData::Sum(terms) => {
                    // Reversed, so that the first atom of the first term is visited first.
                    for t in terms.iter().rev() {
                        for &a in t.atoms.iter().rev() {
                            stack.push((a, false));
                        }
                    }
                }
                _ => {}
            }
        }
        order
    }

    /// Rebuilds `d` with each symbol and variable `x` replaced by `f(x)` (or kept when
    /// `f` gives `None`), re-normalizing every expression on the way up. Iterative.
    pub fn map_leaves(
        &mut self,
        d: Dim,
        mut f: impl FnMut(&mut Self, Dim) -> Option<Dim>,
    ) -> Result<Dim, DimError> {
        if !self.has_vars(d) && !self.has_syms(d) {
            return Ok(d);
        }
        let mut memo: FxHashMap<Dim, Dim> = FxHashMap::default();
        for x in self.post_order(d) {
            let new = match self.data(x).clone() {
                DimData::Sym(_) | DimData::Var(_) => f(self, x).unwrap_or(x),
                DimData::Op(op, a, b) => {
                    let (a2, b2) = (memo[&a], memo[&b]);
                    if (a2, b2) == (a, b) {
                        x
                    } else {
                        self.apply(op, a2, b2)?
                    }
                }
                DimData::Sum(terms) => {
                    if terms.iter().all(|t| t.atoms.iter().all(|a| memo[a] == *a)) {
                        x
                    } else {
                        self.rebuild_sum(&terms, &memo)?
                    }
                }
                DimData::Const(_) | DimData::Any => x,
            };
            memo.insert(x, new);
        }
        Ok(memo[&d])
    }

    /// The sum `terms` with each atom `a` replaced by `memo[a]`, normalized.
    ///
    /// Each term's product is built first and the products are then added exactly (in
    /// 128 bits), so that the result does not fail on a partial sum that overflows when
    /// the whole sum fits: `x + y + z` at `x = i64::MAX, y = 1, z = -1` is `i64::MAX`
    /// whatever the stored order of the terms. A product with a factor `0` is `0` without
    /// multiplying the other factors (`2*x*y` at `x = i64::MAX, y = 0`). As with
    /// [`Dims::mul`] and [`Dims::add`], a factor `?` makes the whole sum `?`.
    fn rebuild_sum(&mut self, terms: &[Term], memo: &FxHashMap<Dim, Dim>) -> Result<Dim, DimError> {
        if terms
            .iter()
            .any(|t| t.atoms.iter().any(|a| memo[a] == Dims::ANY))
        {
            return Ok(Dims::ANY);
        }
        let mut acc: FxHashMap<Box<[Dim]>, i128> = FxHashMap::default();
        for t in terms {
            if t.atoms.iter().any(|a| self.as_const(memo[a]) == Some(0)) {
                continue;
            }
            // The coefficient is applied in 128 bits too, so that `2*x - 2*y` at
            // `x = y = 2^62` is `0` although `2*x` alone does not fit.
            let mut m = self.konst(1);
            for a in t.atoms.iter() {
                m = self.mul(m, memo[a])?;
            }
            for term in self.to_poly(m) {
                let product = i128::from(t.coeff) * i128::from(term.coeff);
                let sum = acc.entry(term.atoms).or_insert(0);
                *sum = sum.checked_add(product).ok_or(DimError::Overflow)?;
            }
        }
        let mut out = Vec::with_capacity(acc.len());
        for (atoms, sum) in acc {
            let coeff = i64::try_from(sum).map_err(|_| DimError::Overflow)?;
            if coeff != 0 {
                out.push(Term { atoms, coeff });
            }
        }
        if out.len() > MAX_TERMS {
            return Err(DimError::TooLarge);
        }
        out.sort_unstable_by(|x, y| x.atoms.cmp(&y.atoms));
        Ok(self.intern_poly(out))
    }

    /// The flexible variables in `d`, each once, in order of first appearance in the
    /// stored normal form read left to right (terms in their canonical order, operator
    /// arguments in order): `vars('d0 + 'd1)` is `['d0, 'd1]` when `'d0` was interned
    /// first.
    pub fn vars(&self, d: Dim) -> Vec<DimVar> {
        if !self.has_vars(d) {
            return Vec::new();
        }
        self.post_order(d)
            .into_iter()
            .filter_map(|x| match self.data(x) {
                DimData::Var(v) => Some(*v),
                _ => None,
            })
            .collect()
    }

    /// What the equation `a = b` says of its flexible variables, for two different
    /// dimensions other than `?`.
    ///
    /// The difference `a - b` is taken exactly (in 128 bits), so that an equation whose
    /// sides are far apart still gets its answer: `2*x + i64::MAX = -3` gives
    /// `x = -4611686018427387905`, `x + i64::MAX = y - 5` waits for a value, and
    /// `i64::MAX = -5` is false, where subtracting in 64 bits would overflow. Only a
    /// solution that does not fit in 64 bits is an overflow.
    pub fn equation(&mut self, a: Dim, b: Dim) -> Equation {
        debug_assert!(a != b && a != Dims::ANY && b != Dims::ANY);
        let mut diff: FxHashMap<Box<[Dim]>, i128> = FxHashMap::default();
        for t in self.to_poly(a) {
            *diff.entry(t.atoms).or_insert(0) += i128::from(t.coeff);
        }
        for t in self.to_poly(b) {
            *diff.entry(t.atoms).or_insert(0) -= i128::from(t.coeff);
        }
        diff.retain(|_, c| *c != 0);
        let mut vars: Vec<DimVar> = Vec::new();
        for atoms in diff.keys() {
            for &x in atoms.iter() {
                for v in self.vars(x) {
                    if !vars.contains(&v) {
                        vars.push(v);
                        if vars.len() > 1 {
                            return Equation::Undecided;
                        }
                    }
                }
            }
        }
        let Some(&x) = vars.first() else {
            return Equation::False;
        };
        let xd = self.var(x);
        // coeff*x + rest = 0, with x nowhere in rest (nor inside an operator atom).
        let Some(coeff) = diff.remove([xd].as_slice()) else {
            return Equation::Undecided;
        };
        if diff
            .keys()
            .any(|atoms| atoms.iter().any(|&atom| self.vars(atom).contains(&x)))
        {
            return Equation::Undecided;
        }
        let constant_rest = diff.keys().all(|atoms| atoms.is_empty());
        let mut value: Poly = Vec::with_capacity(diff.len());
        for (atoms, r) in diff {
            if r % coeff != 0 {
                return if constant_rest {
                    Equation::NoIntegerSolution
                } else {
                    Equation::False
                };
            }
            // |r| < 2^64 and |coeff| >= 1: the quotient fits in 128 bits.
            match i64::try_from(-(r / coeff)) {
                Ok(c) => value.push(Term { atoms, coeff: c }),
                Err(_) => return Equation::Arith(DimError::Overflow),
            }
        }
        if value.len() > MAX_TERMS {
            return Equation::Arith(DimError::TooLarge);
        }
        value.sort_unstable_by(|p, q| p.atoms.cmp(&q.atoms));
        Equation::Solved(x, self.intern_poly(value))
    }

    /// If `d` is `a*v + rest` where `v` occurs nowhere in `rest` (nor inside any
    /// operator atom), gives `(a, rest)`.
    pub fn linear_in(&mut self, d: Dim, v: Dim) -> Option<(i64, Dim)> {
        if !self.has_vars(d) && !self.has_syms(d) {
            return None;
        }
        let poly = match self.data(d) {
            DimData::Any => return None,
            _ => self.to_poly(d),
        };
        let mut coeff = None;
        let mut rest = Vec::with_capacity(poly.len());
        for t in poly {
            if t.atoms.len() == 1 && t.atoms[0] == v {
                coeff = Some(t.coeff);
                continue;
            }
            if t.atoms.iter().any(|&a| {
                a == v
                    || (matches!(self.data(a), DimData::Op(..)) && self.post_order(a).contains(&v))
            }) {
                return None;
            }
            rest.push(t);
        }
        let a = coeff?;
        Some((a, self.intern_poly(rest)))
    }

    /// Evaluates `d` with each symbol and variable given a value by `value`.
    /// `None` if `d` is or contains `?`, a leaf has no value, or the arithmetic fails.
    pub fn eval(&self, d: Dim, value: &dyn Fn(Dim) -> Option<i64>) -> Option<i64> {
        let mut memo: FxHashMap<Dim, i64> = FxHashMap::default();
        for x in self.post_order(d) {
            let v = match self.data(x) {
                DimData::Const(c) => *c,
                DimData::Any => return None,
                DimData::Sym(_) | DimData::Var(_) => value(x)?,
                DimData::Op(op, a, b) => {
                    let (a, b) = (memo[a], memo[b]);
                    match op {
                        DimOp::FloorDiv => floor_div(a, b)?,
                        DimOp::FloorMod => floor_mod(a, b)?,
                        DimOp::Min => a.min(b),
                        DimOp::Max => a.max(b),
                    }
                }
                DimData::Sum(terms) => {
                    // In 128 bits, so that a sum that fits does not fail on the order of
                    // its terms (`n + m + k` at `n = i64::MAX, m = 1, k = -1`).
                    let mut acc: i128 = 0;
                    for t in terms.iter() {
                        let mut m = i128::from(t.coeff);
                        for a in t.atoms.iter() {
                            m = m.checked_mul(i128::from(memo[a]))?;
                        }
                        acc = acc.checked_add(m)?;
                    }
                    i64::try_from(acc).ok()?
                }
            };
            memo.insert(x, v);
        }
        memo.get(&d).copied()
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

    /// The terms of `d` as a person would write them (unordered: the printer orders
    /// them by name). A `floormod` by a constant is stored as `x - c*floordiv(x, c)`
    /// (see [`Dims::floormod`]); wherever a term `-k*c*M*floordiv(x, c)` comes with the
    /// terms of `k*M*x` so that writing them as `k*M*floormod(x, c)` does not make the
    /// sum longer, this gives the `floormod` back (one at a time, the one that shortens
    /// the sum most first, ties broken by [`Dims::structural_cmp`]). The sum of the terms,
    /// printed in any order, reads back through the parser as exactly the dimension `d`.
    /// A constant or an atom is one term; `?` and `0` have none.
    pub fn shown_terms(&self, d: Dim) -> Vec<ShownTerm> {
        let mut poly = match self.data(d) {
            DimData::Any => return Vec::new(),
            _ => self.to_poly(d),
        };
        let mut mods: Vec<ShownTerm> = Vec::new();
        // Each round takes the candidate that shortens the sum most, ties broken by the
        // structural order of its `floordiv` and of its other factors, so that the result
        // does not depend on ids.
        struct Candidate {
            rest: Poly,
            fd: Dim,
            m: Vec<Dim>,
            x: Dim,
            cd: Dim,
            k: i64,
        }
        loop {
            let mut best: Option<Candidate> = None;
            for (i, t) in poly.iter().enumerate() {
                for (j, &a) in t.atoms.iter().enumerate() {
                    if j > 0 && t.atoms[j - 1] == a {
                        continue;
                    }
                    let DimData::Op(DimOp::FloorDiv, x, cd) = *self.data(a) else {
                        continue;
                    };
                    let Some(c) = self.as_const(cd) else {
                        continue;
                    };
                    // t = -k*c * M * floordiv(x, c)
                    let k = match t.coeff.checked_rem(c) {
                        Some(0) => t.coeff.checked_div(c).and_then(i64::checked_neg),
                        _ => None,
                    };
                    let Some(k) = k else {
                        continue;
                    };
                    let mut m = t.atoms.to_vec();
                    m.remove(j);
                    let k_m = [Term {
                        atoms: m.clone().into_boxed_slice(),
                        coeff: k,
                    }];
                    let Ok(k_m_x) = Self::poly_mul(&k_m, &self.to_poly(x)) else {
                        continue;
                    };
                    let mut without = poly.clone();
                    without.remove(i);
                    let Ok(rest) = Self::poly_sub(&without, &k_m_x) else {
                        continue;
                    };
                    if rest.len() >= poly.len() {
                        continue;
                    }
                    m.sort_by(|&p, &q| self.structural_cmp(p, q));
                    let candidate = Candidate {
                        rest,
                        fd: a,
                        m,
                        x,
                        cd,
                        k,
                    };
                    let better = match &best {
                        None => true,
                        Some(b) => {
                            candidate
                                .rest
                                .len()
                                .cmp(&b.rest.len())
                                .then_with(|| self.structural_cmp(candidate.fd, b.fd))
                                .then_with(|| self.structural_cmp_all(&candidate.m, &b.m))
                                == Ordering::Less
                        }
                    };
                    if better {
                        best = Some(candidate);
                    }
                }
            }
            let Some(b) = best else {
                break;
            };
            let mut factors: Vec<Shown> = b.m.into_iter().map(Shown::Atom).collect();
            factors.push(Shown::FloorMod(b.x, b.cd));
            mods.push(ShownTerm {
                coeff: b.k,
                factors,
            });
            poly = b.rest;
        }
        poly.into_iter()
            .map(|t| ShownTerm {
                coeff: t.coeff,
                factors: t.atoms.iter().map(|&a| Shown::Atom(a)).collect(),
            })
            .chain(mods)
            .collect()
    }
}

/// What an equation between two dimensions says of its flexible variables: see
/// [`Dims::equation`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equation {
    /// It holds for no value: no variable is left and the sides differ, or the only
    /// variable would have to be a fraction of a symbolic expression (`2*x = n`).
    False,
    /// The only variable would have to be a fraction (`2*x = 3`).
    NoIntegerSolution,
    /// It holds exactly when the variable has this value.
    Solved(DimVar, Dim),
    /// The only variable's value cannot be represented: it does not fit in 64 bits
    /// ([`DimError::Overflow`]) or has too many terms ([`DimError::TooLarge`]).
    Arith(DimError),
    /// Two or more variables, or one that occurs non-linearly: not decided yet.
    Undecided,
}

/// A factor of a term as printed: see [`Dims::shown_terms`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shown {
    /// An atom of the normal form (a symbol, a variable or an operator).
    Atom(Dim),
    /// `floormod(x, c)` for a constant `c`, recovered from `x - c*floordiv(x, c)`.
    FloorMod(Dim, Dim),
}

/// A term as printed: `coeff * factors[0] * factors[1] * ...` (a constant when there are
/// no factors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownTerm {
    /// The coefficient, never zero.
    pub coeff: i64,
    /// The factors, unordered.
    pub factors: Vec<Shown>,
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
