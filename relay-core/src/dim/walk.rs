//! Walks over a dimension's atoms: substitution, variables, equations, evaluation.

use super::*;

impl Dims {
    /// The atoms `d` is built from, children before parents (post-order), each once,
    /// children left to right (terms in their stored order, operator arguments in order).
    pub(super) fn post_order(&self, d: Dim) -> Vec<Dim> {
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
    pub(super) fn rebuild_sum(
        &mut self,
        terms: &[Term],
        memo: &FxHashMap<Dim, Dim>,
    ) -> Result<Dim, DimError> {
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
        let out = Self::summed_terms(acc.into_iter().map(|(atoms, sum)| (atoms, Some(sum))))?;
        Ok(self.intern_poly(out))
    }

    /// The flexible variables in `d`, each once, in order of first appearance in the
    /// stored normal form read left to right (terms in their canonical order, operator
    /// arguments in order): `vars('d0 + 'd1)` is `['d0, 'd1]` when `'d0` was interned
    /// first.
    pub fn vars(&self, d: Dim) -> Vec<DimVar> {
        self.leaves(d, self.has_vars(d), |x| match x {
            DimData::Var(v) => Some(*v),
            _ => None,
        })
    }

    /// The leaves of `d` that `pick` keeps, in post order, if `any` (there are some).
    fn leaves<T>(&self, d: Dim, any: bool, pick: impl Fn(&DimData) -> Option<T>) -> Vec<T> {
        if !any {
            return Vec::new();
        }
        self.post_order(d)
            .into_iter()
            .filter_map(|x| pick(self.data(x)))
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

    /// The rigid symbols in `d`, each once, in order of first appearance.
    pub fn syms(&self, d: Dim) -> Vec<Param> {
        self.leaves(d, self.has_syms(d), |x| match x {
            DimData::Sym(p) => Some(*p),
            _ => None,
        })
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
