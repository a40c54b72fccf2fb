//! Reductions: `Reduce` (sum, mean, ...), `ArgReduce` (argmax, argmin) and `Variance`.
//!
//! Imperative: the reduced axes are a set computed from `axis` and `exclude`, which the
//! clause notation has no way to express (no sets, no conditionals on attributes).

use super::util;
use relay_core::{relation, DTy, DType, Dim, Progress, RelCx, RelError, RelResult};

/// Which axes of a tensor of rank `rank` are reduced, per TVM: `axis` None or empty →
/// every axis (even with `exclude`); negatives normalized; `exclude` takes the complement.
fn reduced_axes(cx: &RelCx<'_>, rank: usize) -> Result<Vec<bool>, RelError> {
    let exclude = cx.attrs().bool("exclude")?.unwrap_or(false);
    let axes = cx.attrs().int_or_ints("axis")?.unwrap_or_default();
    if axes.is_empty() {
        return Ok(vec![true; rank]);
    }
    let mut listed = vec![false; rank];
    for &a in &axes {
        let i = util::axis("axis", a, rank)?;
        if listed[i] {
            return Err(RelError::at(0, format!("`axis` lists axis {i} twice")));
        }
        listed[i] = true;
    }
    if exclude {
        listed.iter_mut().for_each(|b| *b = !*b);
    }
    Ok(listed)
}

/// The dimensions left by reducing `dims`: reduced axes become `1` with `keepdims`, and
/// are dropped otherwise.
fn reduced_dims(cx: &mut RelCx<'_>, dims: &[Dim]) -> Result<Vec<Dim>, RelError> {
    let reduced = reduced_axes(cx, dims.len())?;
    let keepdims = cx.attrs().bool("keepdims")?.unwrap_or(false);
    let one = cx.tcx().dims.konst(1);
    Ok(dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &r)| match (r, keepdims) {
            (false, _) => Some(d),
            (true, true) => Some(one),
            (true, false) => None,
        })
        .collect())
}

/// `Reduce(data, out)`: `out` is `data` reduced over the axes of `axis`/`exclude`, with
/// `keepdims`; same dtype. Waits for the rank of `data`.
#[relation(Reduce)]
pub fn reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, dt);
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// `ArgReduce(data, out)`: like `Reduce`, with an `int32` result (the index dtype).
#[relation(ArgReduce)]
pub fn arg_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, DTy::Known(DType::INT32));
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// `Variance(data, mean, out)`: `out` as for `Reduce`; `mean` has the dtype of `data`
/// and its rank, each dimension equal to the data's or `1` (the mean over the same axes
/// with `keepdims`). The output is given as soon as `data` is known; the check of `mean`
/// waits for `mean`.
#[relation(Variance)]
pub fn variance(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, dt);
    cx.unify(2, t)?;
    let Some((mdims, mdt)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(mdt, dt, 1)?;
    if mdims.len() != dims.len() {
        return Err(RelError::at(
            1,
            format!(
                "`mean` has rank {}, the data has rank {}",
                mdims.len(),
                dims.len()
            ),
        ));
    }
    let mut waiting = false;
    for (i, (&m, &d)) in mdims.iter().zip(&dims).enumerate() {
        let (m, d) = (cx.resolve_dim(m), cx.resolve_dim(d));
        let ds = &cx.tcx_ref().dims;
        if m == d || ds.as_const(m) == Some(1) || ds.is_any(m) || ds.is_any(d) {
            continue;
        }
        if ds.has_vars(m) || ds.has_vars(d) {
            waiting = true;
            continue;
        }
        return Err(RelError::at(
            1,
            format!(
                "axis {i} of `mean` is {}, expected 1 or the data's {}",
                cx.show_dim(m),
                cx.show_dim(d)
            ),
        ));
    }
    Ok(if waiting {
        Progress::NotYet
    } else {
        Progress::Solved
    })
}
