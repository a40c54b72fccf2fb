//! The meaning of the clause builtins, written once: the interpreter ([`run_clause`](super::run_clause))
//! and the compiled runs ([`fast`](super::fast)) both call these functions, so that a
//! rule (an index counted from the end, a slice's clamped bounds, when two dimensions
//! are decided equal) cannot differ between the two. Each function decides on plain
//! values; what is done with an undecided answer (wait, give up, report) is the caller's.

use super::ir::{Cmp, MAX_RANGE, MAX_REPEAT};
use super::Value;
use crate::dim::{Dim, DimError, Dims};
use crate::relation::{RelCx, RelError, RelResult, RelationDef};
use crate::ty::Ty;
use std::ops::Range;

/// The position of index `i` among `n` items, negative counting from the end (`-1` is
/// the last); `None` out of range.
#[inline(always)]
pub fn index(i: i64, n: usize) -> Option<usize> {
    let n = n as i64;
    let k = if i < 0 { i.checked_add(n)? } else { i };
    (0..n).contains(&k).then_some(k as usize)
}

/// The items `lo..hi` of `n` items, with Python's bounds: negative from the end, clamped
/// to `0..=n`; an empty range when `lo` is not before `hi`.
#[inline(always)]
pub fn slice(lo: Option<i64>, hi: Option<i64>, n: usize) -> Range<usize> {
    let n = n as i64;
    let at = |b: Option<i64>, dflt: i64| match b {
        None => dflt,
        Some(i) => (if i < 0 { i.saturating_add(n) } else { i }).clamp(0, n),
    };
    let (lo, hi) = (at(lo, 0), at(hi, n));
    lo as usize..hi.max(lo) as usize
}

/// The count of `[d; n]`: `n` when it is `0` to [`MAX_REPEAT`] (else
/// [`repeat_error`]).
#[inline(always)]
pub fn repeat_count(n: i64) -> Option<usize> {
    (0..=MAX_REPEAT).contains(&n).then_some(n as usize)
}

/// Why `[d; n]` has no value when [`repeat_count`] has none.
pub fn repeat_error(n: i64) -> String {
    format!("`[d; n]` repeats a dimension {n} times: it must be 0 to {MAX_REPEAT}")
}

/// The integers of the range `lo..hi` (none when `hi <= lo`); `None` when it has more
/// than [`MAX_RANGE`] ([`range_error`]).
#[inline(always)]
pub fn range(lo: i64, hi: i64) -> Option<Range<i64>> {
    (hi.saturating_sub(lo) <= MAX_RANGE).then_some(lo..hi.max(lo))
}

/// Why `lo..hi` has no integers when [`range`] has none.
pub fn range_error(lo: i64, hi: i64) -> String {
    format!("the range `{lo}..{hi}` has more than {MAX_RANGE} integers")
}

/// What a comparison of two dimensions comes to ([`compare`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Decided.
    Is(bool),
    /// Depends on an unknown: wait.
    Waits,
    /// An order (`<`, `<=`, `>`, `>=`) between different dimensions over rigid symbols:
    /// never decided.
    Unordered,
}

/// `x op y` on resolved dimensions: constants compare; a dimension equals itself; `?`
/// (checked at run time) satisfies every comparison; a constant difference decides;
/// different normal forms over rigid symbols are different dimensions of no order.
#[inline]
pub fn compare(dims: &mut Dims, op: Cmp, x: Dim, y: Dim) -> Result<Order, DimError> {
    if let (Some(a), Some(b)) = (dims.as_const(x), dims.as_const(y)) {
        return Ok(Order::Is(op.holds(a, b)));
    }
    if x == y {
        return Ok(Order::Is(matches!(op, Cmp::Eq | Cmp::Le | Cmp::Ge)));
    }
    if dims.is_any(x) || dims.is_any(y) {
        return Ok(Order::Is(true));
    }
    let diff = dims.sub(x, y)?;
    if let Some(c) = dims.as_const(diff) {
        return Ok(Order::Is(op.holds(c, 0)));
    }
    if dims.has_vars(diff) {
        return Ok(Order::Waits);
    }
    Ok(match op {
        Cmp::Eq => Order::Is(false),
        Cmp::Ne => Order::Is(true),
        _ => Order::Unordered,
    })
}

/// Whether two of `n` items are equal (with `x`: whether `x` is one of them), by
/// `eq(a, b)` on the positions of two items (`a` is `None` for `x`): `Some(true)` as soon
/// as a pair is, `Some(false)` when every pair is decided unequal, `None` while one is
/// undecided (`eq` answers `None`). The meaning of `distinct(s)` (its negation) and of
/// `x in s`; positions rather than items, so that the interpreter compares on its stack.
pub fn some_equal<E>(
    n: usize,
    x: bool,
    mut eq: impl FnMut(Option<usize>, usize) -> Result<Option<bool>, E>,
) -> Result<Option<bool>, E> {
    let mut undecided = false;
    for b in 0..n {
        // `x` against each, or each against those before it (no list of pairs: a rank
        // of thousands is millions of them).
        let before = if x { 0..1 } else { 0..b };
        for a in before {
            match eq((!x).then_some(a), b)? {
                Some(true) => return Ok(Some(true)),
                Some(false) => {}
                None => undecided = true,
            }
        }
    }
    Ok((!undecided).then_some(false))
}

/// `sum(s)`: the sum of the dimensions, `0` for none.
#[inline]
pub fn sum(dims: &mut Dims, xs: &[Dim]) -> Result<Dim, DimError> {
    // Constants natively while they fit, as most shapes are.
    let mut c = 0i64;
    let mut k = 0;
    while let Some(x) = xs.get(k).and_then(|&d| dims.as_const(d)) {
        match c.checked_add(x) {
            Some(s) => c = s,
            None => break,
        }
        k += 1;
    }
    let mut acc = dims.konst(c);
    for &d in &xs[k..] {
        acc = dims.add(acc, d)?;
    }
    Ok(acc)
}

/// `is_any(d)` of a resolved dimension: whether it is `?` (an unknown dimension is not:
/// the relation may still solve it).
#[inline]
pub fn is_any(dims: &Dims, d: Dim) -> bool {
    dims.is_any(d)
}

/// `is_int(d)` of a resolved dimension: `true` for a constant, `false` for `?` and for
/// expressions over rigid symbols, `None` while it has unknowns.
#[inline]
pub fn is_int(dims: &Dims, d: Dim) -> Option<bool> {
    if dims.as_const(d).is_some() {
        Some(true)
    } else if dims.has_vars(d) {
        None
    } else {
        Some(false)
    }
}

/// A goal `Name(args...)`: the relation `def` run on the types `args`, under the call's
/// attributes, in the solver of `cx`. Its error blames an index into `args`.
pub fn relation(cx: &mut RelCx<'_>, def: &'static RelationDef, args: &[Ty]) -> RelResult {
    on_args(cx, args, def.solve)
}

/// `run` on the types `args`, under the call's attributes, in the solver of `cx`: how a
/// goal runs the relation it calls (its solver, or its compiled run).
#[inline]
pub fn on_args<R>(cx: &mut RelCx<'_>, args: &[Ty], run: fn(&mut RelCx<'_>) -> R) -> R {
    let binds_at_start = cx.solver.binds;
    let mut sub = RelCx {
        solver: &mut *cx.solver,
        args,
        attrs: cx.attrs,
        op: cx.op,
        binds_at_start,
    };
    run(&mut sub)
}

/// `is_axis(a, X)` over values: `true` when `a` is an axis of the tensor `X` (in
/// `-rank..rank`, as [`RelCx::axis`] reads an `axis` attribute), `None` while `X`'s rank is
/// unknown, and otherwise the error [`RelCx::axis`] gives, which names the attribute
/// `axis`: "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)". A
/// condition that is its own message, so that a clause checks its axis in one goal; a
/// [`BuiltinFn`](super::BuiltinFn).
pub fn is_axis(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Option<Value>, RelError> {
    let (Some(a), Some(t)) = (
        args.first().and_then(|v| v.dim()),
        args.get(1).and_then(|v| v.ty()),
    ) else {
        return Err(RelError::new("expected an axis and a tensor type"));
    };
    let a = cx.resolve_dim(a);
    let Some(a) = cx.tcx_ref().dims.as_const(a) else {
        return Err(RelError::new("expected an integer axis"));
    };
    let t = cx.resolve(t);
    let rank = match cx.data(t) {
        crate::ty::TyData::Tensor(s, _) => match cx.tcx_ref().shape_dims(*s) {
            Some(dims) => dims.len(),
            None => return Ok(None),
        },
        crate::ty::TyData::Var(_) => return Ok(None),
        _ => {
            return Err(RelError::new(format!(
                "expected a tensor, found `{}`",
                cx.show(t)
            )))
        }
    };
    match index(a, rank) {
        Some(_) => Ok(Some(Value::Bool(true))),
        None => Err(RelError::new(crate::relation::axis_error(
            "axis",
            a,
            &cx.show(t),
            rank,
        ))),
    }
}

/// `distinct(s)` over values: whether no two dimensions of the shape are equal (by
/// [`compare`]), `None` while undecided; a [`BuiltinFn`](super::BuiltinFn).
pub fn distinct_of(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Option<Value>, RelError> {
    let s = args.first().and_then(|v| v.shape());
    let Some(dims) = s.and_then(|s| cx.tcx_ref().shape_dims(s)) else {
        return Err(RelError::new("expected a shape of known rank"));
    };
    let dims = dims.to_vec();
    let dims: Vec<Dim> = dims.into_iter().map(|d| cx.resolve_dim(d)).collect();
    let tcx = cx.tcx();
    let equal = some_equal(dims.len(), false, |a, b| {
        let a = a.map_or(dims[b], |a| dims[a]);
        Ok(match compare(&mut tcx.dims, Cmp::Eq, a, dims[b])? {
            Order::Is(r) => Some(r),
            Order::Waits | Order::Unordered => None,
        })
    })
    .map_err(|e: DimError| RelError::new(e.to_string()))?;
    Ok(equal.map(|e| Value::Bool(!e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_count_from_the_end_when_negative() {
        assert_eq!(
            [index(0, 4), index(3, 4), index(-1, 4), index(-4, 4)],
            [Some(0), Some(3), Some(3), Some(0)]
        );
        assert_eq!([index(4, 4), index(-5, 4), index(i64::MIN, 4)], [None; 3]);
        assert_eq!(index(0, 0), None);
    }

    #[test]
    fn slices_have_python_bounds() {
        assert_eq!(slice(Some(1), None, 4), 1..4);
        assert_eq!(slice(None, Some(-1), 4), 0..3);
        assert_eq!(slice(Some(-9), Some(9), 4), 0..4);
        assert_eq!(slice(Some(3), Some(1), 4), 3..3);
        assert_eq!(slice(Some(i64::MIN), Some(i64::MAX), 4), 0..4);
    }

    #[test]
    fn repeats_and_ranges_are_bounded() {
        assert_eq!([repeat_count(3), repeat_count(-1)], [Some(3), None]);
        assert_eq!(repeat_count(MAX_REPEAT + 1), None);
        assert_eq!(
            repeat_error(-1),
            "`[d; n]` repeats a dimension -1 times: it must be 0 to 65536"
        );
        assert_eq!(range(2, 5), Some(2..5));
        assert_eq!(range(5, 2), Some(5..5));
        assert_eq!(range(0, MAX_RANGE), Some(0..MAX_RANGE));
        assert_eq!(range(i64::MIN, i64::MAX), None);
        assert_eq!(
            range_error(0, i64::MAX),
            format!("the range `0..{}` has more than 1048576 integers", i64::MAX)
        );
    }

    #[test]
    fn comparisons_of_dimensions() {
        let mut dims = Dims::new();
        let (two, three) = (dims.konst(2), dims.konst(3));
        let n = dims.sym(crate::kind::Param(0));
        let n1 = dims.add(n, two).unwrap();
        let m = dims.sym(crate::kind::Param(1));
        let v = dims.var(crate::var::DimVar(0));
        assert_eq!(compare(&mut dims, Cmp::Lt, two, three), Ok(Order::Is(true)));
        assert_eq!(compare(&mut dims, Cmp::Le, n, n), Ok(Order::Is(true)));
        assert_eq!(compare(&mut dims, Cmp::Lt, n, n1), Ok(Order::Is(true)));
        assert_eq!(
            compare(&mut dims, Cmp::Gt, Dims::ANY, two),
            Ok(Order::Is(true))
        );
        assert_eq!(compare(&mut dims, Cmp::Eq, n, m), Ok(Order::Is(false)));
        assert_eq!(compare(&mut dims, Cmp::Lt, n, m), Ok(Order::Unordered));
        assert_eq!(compare(&mut dims, Cmp::Eq, n, v), Ok(Order::Waits));
        let equal = |xs: &[i64], x: Option<i64>| {
            some_equal(xs.len(), x.is_some(), |a, b| {
                let a = a.map_or(x, |a| Some(xs[a]));
                Ok::<_, ()>(a.map(|a| a == xs[b]))
            })
        };
        assert_eq!(equal(&[2, 3, 2], None), Ok(Some(true)));
        assert_eq!(equal(&[2, 3], None), Ok(Some(false)));
        assert_eq!(equal(&[2, 3], Some(3)), Ok(Some(true)));
        assert_eq!(equal(&[2, 3], Some(4)), Ok(Some(false)));
        assert_eq!(equal(&[], Some(4)), Ok(Some(false)));
        assert_eq!(
            sum(&mut dims, &[two, three]).map(|d| dims.as_const(d)),
            Ok(Some(5))
        );
        assert_eq!(
            [is_int(&dims, two), is_int(&dims, n), is_int(&dims, v)],
            [Some(true), Some(false), None]
        );
    }
}
