//! Helpers shared by the imperative level-3 relations: axes, exact division. (Attributes
//! are read with the typed readers of [`relay_core::Attrs`].)

use relay_core::dim::{DimData, Dims};
use relay_core::{Dim, DimError, RelCx, RelError, Ty};

/// A dimension-arithmetic error as a relation error blaming argument `arg`.
pub fn arith(arg: usize) -> impl Fn(DimError) -> RelError {
    move |e| RelError::from(e).blaming(arg)
}

/// Argument `arg` shown in the text syntax, resolved as far as known.
pub fn shown(cx: &mut RelCx<'_>, arg: usize) -> String {
    let t: Ty = cx.arg(arg);
    let t = cx.resolve(t);
    cx.show(t)
}

/// Unifies argument `arg` with `expected`. Where they clash, the error blames `arg`
/// with `message(found, expected)`, both shown resolved.
pub fn unify_or(
    cx: &mut RelCx<'_>,
    arg: usize,
    expected: Ty,
    message: impl FnOnce(&str, &str) -> String,
) -> Result<(), RelError> {
    let a = cx.arg(arg);
    if cx.unify_blaming(a, expected, arg).is_ok() {
        return Ok(());
    }
    let found = shown(cx, arg);
    let expected = cx.resolve(expected);
    let expected = cx.show(expected);
    Err(RelError::at(arg, message(&found, &expected)))
}

/// Unifies dimension `actual` (of argument `arg`) with `expected`. Where they differ,
/// the error blames `arg` with `message(actual, expected)`, both shown resolved.
pub fn agree(
    cx: &mut RelCx<'_>,
    arg: usize,
    actual: Dim,
    expected: Dim,
    message: impl FnOnce(&str, &str) -> String,
) -> Result<(), RelError> {
    if cx.unify_dim(actual, expected, arg).is_err() {
        let (a, e) = (cx.resolve_dim(actual), cx.resolve_dim(expected));
        let (a, e) = (cx.show_dim(a), cx.show_dim(e));
        return Err(RelError::at(arg, message(&a, &e)));
    }
    Ok(())
}

/// A list of integers shown as an attribute: `[2, -1]`.
pub(crate) fn show_ints(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(|i| i.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// The terms of `d` in normal form: `(atoms, coefficient)`.
fn terms(dims: &Dims, d: Dim) -> Vec<(Vec<Dim>, i64)> {
    match dims.data(d) {
        DimData::Const(0) => Vec::new(),
        DimData::Const(c) => vec![(Vec::new(), *c)],
        DimData::Sum(ts) => ts.iter().map(|t| (t.atoms.to_vec(), t.coeff)).collect(),
        _ => vec![(vec![d], 1)],
    }
}

/// `num / den` when it is exact in normal form: common factors of the two products
/// cancel, and what remains of `den` must be one monomial dividing every term of the
/// remaining numerator. `None` when that cannot be shown (or `?` is involved).
pub fn exact_quotient(dims: &mut Dims, num: &[Dim], den: &[Dim]) -> Option<Dim> {
    let (num, rest) = cancel(num, den);
    if num.contains(&Dims::ANY) || rest.contains(&Dims::ANY) {
        return None;
    }
    // Constants alone (what is left of most shapes once the common symbols cancel).
    if let (Some(n), Some(d)) = (const_product(dims, &num), const_product(dims, &rest)) {
        return (d != 0 && n % d == 0).then(|| dims.konst(n / d));
    }
    let n = dims.product(&num).ok()?;
    let d = dims.product(&rest).ok()?;
    let dt = terms(dims, d);
    let [(datoms, dc)] = dt.as_slice() else {
        return None;
    };
    if *dc == 0 {
        return None;
    }
    let mut out = dims.konst(0);
    for (mut atoms, c) in terms(dims, n) {
        for a in datoms {
            let i = atoms.iter().position(|x| x == a)?;
            atoms.remove(i);
        }
        if c % dc != 0 {
            return None;
        }
        let p = dims.product(&atoms).ok()?;
        let t = dims.scale(p, c / dc).ok()?;
        out = dims.add(out, t).ok()?;
    }
    Some(out)
}

/// `num` and `den` with their common factors (equal dimensions, pairwise) removed.
pub(crate) fn cancel(num: &[Dim], den: &[Dim]) -> (Vec<Dim>, Vec<Dim>) {
    let mut num: Vec<Dim> = num.to_vec();
    let mut rest: Vec<Dim> = Vec::new();
    for &d in den {
        match num.iter().position(|&n| n == d) {
            Some(i) => {
                num.swap_remove(i);
            }
            None => rest.push(d),
        }
    }
    (num, rest)
}

/// The product of `ds` if every one is a constant and it fits in `i64`.
pub(crate) fn const_product(dims: &Dims, ds: &[Dim]) -> Option<i64> {
    ds.iter()
        .try_fold(1i64, |acc, &d| acc.checked_mul(dims.as_const(d)?))
}

/// Whether any of `ds` mentions a flexible variable (an unknown still to be solved).
pub(crate) fn any_vars(dims: &Dims, ds: &[Dim]) -> bool {
    ds.iter().any(|&d| dims.has_vars(d))
}
