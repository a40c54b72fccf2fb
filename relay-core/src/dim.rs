//! Shape dimensions in a canonical normal form.
//!
//! A dimension is a constant, `Any` (`?`), a rigid symbol (a [`Param`] of kind
//! `ShapeVar`), a flexible variable ([`DimVar`]), or an expression over them. Expressions
//! are kept as a *sum of monomials with integer coefficients*: each monomial is a sorted
//! multiset of atoms (symbols, variables, and the non-linear operators `floordiv`,
//! `floormod`, `min`, `max` as opaque atoms). Because every dimension is interned in that
//! form, `(2*d)*3` and `6*d` are the same [`Dim`], and equality is `==` on ids.
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
use std::fmt;

/// The largest number of monomials an expression may have. Products of large sums are
/// refused past it, so that no program can make dimension arithmetic explode.
pub const MAX_TERMS: usize = 256;

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
    /// An opaque non-linear atom.
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
}

impl fmt::Display for DimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimError::Overflow => f.write_str("dimension arithmetic overflows 64 bits"),
            DimError::DivisionByZero => f.write_str("dimension divided by zero"),
            DimError::TooLarge => {
                write!(f, "dimension expression has more than {MAX_TERMS} terms")
            }
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
        let flags = match &data {
            DimData::Const(_) | DimData::Any => 0,
            DimData::Sym(_) => HAS_SYM,
            DimData::Var(_) => HAS_VAR,
            DimData::Op(_, a, b) => self.flags[a.0 as usize] | self.flags[b.0 as usize],
            DimData::Sum(terms) => terms
                .iter()
                .flat_map(|t| t.atoms.iter())
                .fold(0, |acc, a| acc | self.flags[a.0 as usize]),
        };
        let id = self.table.intern(data);
        if id as usize == self.flags.len() {
            self.flags.push(flags);
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

    /// Applies `floordiv` or `floormod`, simplifying where the result is exact:
    /// constants fold, and for a constant divisor `c`, `floordiv(c*P + R, c)` is
    /// `P + floordiv(R, c)` and `floormod(c*P + R, c)` is `floormod(R, c)`.
    fn div_mod(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
        if self.as_const(b) == Some(0) {
            // Whatever the dividend, `?` included.
            return Err(DimError::DivisionByZero);
        }
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        let Some(c) = self.as_const(b) else {
            if a == b && op == DimOp::FloorMod {
                // x mod x is 0 for every non-zero x, and a dimension used as a divisor
                // is asserted non-zero by the operation that divides by it.
                return Ok(self.konst(0));
            }
            return Ok(self.intern(DimData::Op(op, a, b)));
        };
        if c == 0 {
            return Err(DimError::DivisionByZero);
        }
        if let Some(x) = self.as_const(a) {
            let r = match op {
                DimOp::FloorDiv => floor_div(x, c),
                _ => floor_mod(x, c),
            };
            return Ok(self.konst(r.ok_or(DimError::Overflow)?));
        }
        let (divisible, rest): (Poly, Poly) = self
            .to_poly(a)
            .into_iter()
            .partition(|t| t.coeff.checked_rem(c) == Some(0));
        let rest_dim = self.intern_poly(rest);
        let rest_result = match self.as_const(rest_dim) {
            Some(r) => {
                let v = match op {
                    DimOp::FloorDiv => floor_div(r, c),
                    _ => floor_mod(r, c),
                };
                self.konst(v.ok_or(DimError::Overflow)?)
            }
            None if op == DimOp::FloorMod && (c == 1 || c == -1) => self.konst(0),
            None if op == DimOp::FloorDiv && c == 1 => rest_dim,
            None => self.intern(DimData::Op(op, rest_dim, b)),
        };
        if op == DimOp::FloorMod {
            return Ok(rest_result);
        }
        let quotient: Poly = divisible
            .into_iter()
            .map(|t| {
                Ok(Term {
                    atoms: t.atoms,
                    coeff: t.coeff.checked_div(c).ok_or(DimError::Overflow)?,
                })
            })
            .collect::<Result<_, DimError>>()?;
        let q = self.intern_poly(quotient);
        self.add(q, rest_result)
    }

    /// `floordiv(a, b)`: division rounding toward negative infinity.
    pub fn floordiv(&mut self, a: Dim, b: Dim) -> Result<Dim, DimError> {
        self.div_mod(DimOp::FloorDiv, a, b)
    }

    /// `floormod(a, b)`: the remainder of [`Dims::floordiv`].
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
            // `min` itself cannot fail.
            _ => self
                .sub(a, b)
                .ok()
                .and_then(|diff| self.as_const(diff))
                .map(|d| d < 0),
        };
        if let Some(a_smaller) = a_smaller {
            return Ok(if a_smaller == (op == DimOp::Min) {
                a
            } else {
                b
            });
        }
        let (x, y) = if a < b { (a, b) } else { (b, a) };
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

    /// The atoms `d` is built from, children before parents (post-order), each once.
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
                    for t in terms.iter() {
                        for &a in t.atoms.iter() {
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
                        let mut acc = self.konst(0);
                        for t in terms.iter() {
                            let mut m = self.konst(t.coeff);
                            for a in t.atoms.iter() {
                                m = self.mul(m, memo[a])?;
                            }
                            acc = self.add(acc, m)?;
                        }
                        acc
                    }
                }
                DimData::Const(_) | DimData::Any => x,
            };
            memo.insert(x, new);
        }
        Ok(memo[&d])
    }

    /// The flexible variables in `d`, each once, in order of first appearance.
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
