//! Tensor operators, a module per family: [`reduce`] (the reductions, `ArgMax`/`ArgMin`),
//! [`index`] (`TopK`, the data-dependent `NonZero`, `Unique`, `Compress` and
//! `NonMaxSuppression`, `OneHot`, `GatherElements`, `GatherND`), [`random`] (`EyeLike`,
//! the random generators), [`quantize`] (the quantization operators), [`linalg`] (`Det`,
//! `Einsum`), [`loss`] (the losses), [`signal`] (`DFT`, `STFT`, the windows,
//! `MelWeightMatrix`) and [`misc`] (`CumSum`, `CumProd`, `ReverseSequence`, `BitCast`,
//! `TfIdfVectorizer`). The helpers they share are here.
//!
//! ONNX's semantics differ from TVM's in most of these (`keepdims` is on by default, axes
//! come as an input's value, indices are int64, empty axes may mean "no reduction"), so
//! each relation ONNX needs is written here as an `onnx.` operator.

pub mod index;
pub mod linalg;
pub mod loss;
pub mod misc;
pub mod quantize;
pub mod random;
pub mod reduce;
pub mod signal;
pub mod strings;

use crate::ops::util::{value_of, Val};
use relay_core::{DTy, Dim, Progress, RelCx, RelError, RelResult, Ty, TyData};

pub(crate) use crate::ops::util::arith;

/// The constants of a value, `None` if one is symbolic.
fn consts(cx: &RelCx<'_>, v: &[Dim]) -> Option<Vec<i64>> {
    v.iter().map(|&d| cx.tcx_ref().dims.as_const(d)).collect()
}

/// A scalar value (a one-element tensor) as a dimension: `Ok(None)` when absent or not
/// known, an error when it has several elements.
fn scalar_of(cx: &mut RelCx<'_>, i: usize, what: &str) -> Result<Option<Dim>, RelError> {
    match value_of(cx, i)? {
        Val::Known(v) if v.len() == 1 => Ok(Some(v[0])),
        Val::Known(v) => Err(RelError::at(
            i,
            format!("`{what}` is a scalar, and has {} elements", v.len()),
        )),
        _ => Ok(None),
    }
}

pub(crate) use crate::ops::util::axis_in;

/// Unifies the fields of the result tuple (argument `arg`) with `tys`, as many as the
/// node has outputs (at most `tys.len()`).
fn out_fields(cx: &mut RelCx<'_>, arg: usize, tys: &[Ty]) -> RelResult {
    let t = cx.resolve(cx.arg(arg));
    let TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    if fields.len() > tys.len() {
        return Err(RelError::at(
            arg,
            format!(
                "it has {} outputs, and this operator gives {}",
                fields.len(),
                tys.len()
            ),
        ));
    }
    for (&f, &t) in fields.iter().zip(tys) {
        cx.unify_blaming(f, t, arg)?;
    }
    Ok(Progress::Solved)
}

/// Unifies two dimensions; a failure is `message` (with both dimensions) blaming `arg`.
fn same_dim(cx: &mut RelCx<'_>, a: Dim, b: Dim, arg: usize, message: &str) -> Result<(), RelError> {
    cx.unify_dim(a, b, arg).map_err(|_| {
        let (x, y) = (cx.show_dim(a), cx.show_dim(b));
        RelError::at(arg, format!("{message}: {x} and {y}"))
    })
}

/// The dtype of argument `i` if it is a tensor (absent: `None`, not yet known: waits).
fn dtype_of(cx: &mut RelCx<'_>, i: usize) -> Result<Option<Option<DTy>>, RelError> {
    let t = cx.resolve(cx.arg(i));
    Ok(match *cx.data(t) {
        TyData::Tuple(ref f) if f.is_empty() => Some(None),
        TyData::Tensor(_, dt) => Some(Some(dt)),
        _ => None,
    })
}
