//! Arithmetic in the normal form: sums, products, and the division, modulo, minimum and
//! maximum operators with their exact simplifications.

use super::*;

impl Dims {
    /// Adds two sorted polynomials.
    pub(super) fn poly_add(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
        Self::poly_add_sub(a, b, false)
    }

    /// Subtracts two sorted polynomials. Not `a + (-1)*b`: negating a coefficient
    /// `i64::MIN` overflows even where the difference fits (`-1 - i64::MIN`).
    pub(super) fn poly_sub(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
        Self::poly_add_sub(a, b, true)
    }

    pub(super) fn poly_add_sub(a: &[Term], b: &[Term], subtract: bool) -> Result<Poly, DimError> {
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

    pub(super) fn poly_scale(p: &[Term], k: i64) -> Result<Poly, DimError> {
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

    pub(super) fn poly_mul(a: &[Term], b: &[Term]) -> Result<Poly, DimError> {
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
        let sums = acc.into_iter();
        Self::summed_terms(sums.map(|(atoms, (sum, wraps))| (atoms, (wraps == 0).then_some(sum))))
    }

    /// A polynomial from its monomials' summed coefficients (`None`: one that wrapped
    /// around): each must fit in 64 bits; zeros are dropped, and the rest sorted.
    pub(super) fn summed_terms(
        sums: impl ExactSizeIterator<Item = (Box<[Dim]>, Option<i128>)>,
    ) -> Result<Poly, DimError> {
        let mut out = Vec::with_capacity(sums.len());
        for (atoms, sum) in sums {
            let coeff = sum
                .and_then(|s| i64::try_from(s).ok())
                .ok_or(DimError::Overflow)?;
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
        self.sum_or_product(a, b, i64::checked_add, Self::poly_add)
    }

    /// `a + b` or `a * b`: `?` if either is; the constant `konst(x, y)` of two
    /// constants; else the polynomial `poly` of theirs.
    #[inline]
    fn sum_or_product(
        &mut self,
        a: Dim,
        b: Dim,
        konst: fn(i64, i64) -> Option<i64>,
        poly: fn(&[Term], &[Term]) -> Result<Poly, DimError>,
    ) -> Result<Dim, DimError> {
        if a == Dims::ANY || b == Dims::ANY {
            return Ok(Dims::ANY);
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return Ok(self.konst(konst(x, y).ok_or(DimError::Overflow)?));
        }
        let p = poly(&self.to_poly(a), &self.to_poly(b))?;
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
        self.sum_or_product(a, b, i64::checked_mul, Self::poly_mul)
    }

    /// The product of `dims` (`1` for none).
    pub fn product(&mut self, dims: &[Dim]) -> Result<Dim, DimError> {
        if dims.contains(&Dims::ANY) {
            return Ok(Dims::ANY);
        }
        // The constants multiply in `i64`; only the other factors go through polynomials.
        let mut c: i64 = 1;
        let mut rest: Option<Dim> = None;
        for &d in dims {
            match self.as_const(d) {
                Some(k) => c = c.checked_mul(k).ok_or(DimError::Overflow)?,
                None => {
                    rest = Some(match rest {
                        None => d,
                        Some(r) => self.mul(r, d)?,
                    })
                }
            }
        }
        match rest {
            None => Ok(self.konst(c)),
            Some(r) if c == 1 => Ok(r),
            Some(r) => {
                let k = self.konst(c);
                self.mul(k, r)
            }
        }
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
    pub(super) fn div_mod(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
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

    pub(super) fn min_max(&mut self, op: DimOp, a: Dim, b: Dim) -> Result<Dim, DimError> {
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
}
