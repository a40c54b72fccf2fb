//! The terms of a dimension as printed (with `floormod` recovered).

use super::*;

impl Dims {
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
