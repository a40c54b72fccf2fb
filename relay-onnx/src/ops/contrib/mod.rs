//! onnxruntime's contrib operators (domain `com.microsoft`): the fused activations
//! (`Gelu`, `FastGelu`, `BiasGelu`, `QuickGelu`, `BiasAdd`, `BiasSoftmax`,
//! `BiasSplitGelu`), the fused normalizations (`SkipLayerNormalization` and its simplified
//! form, `SimplifiedLayerNormalization`, `EmbedLayerNormalization`, `GroupNorm`,
//! `SkipGroupNorm`), the attentions (`Attention`, `QAttention`, `MultiHeadAttention`,
//! `GroupQueryAttention`, `RotaryEmbedding`), the fused products (`MatMulNBits`,
//! `FusedMatMul`, `FusedConv`, `FusedGemm`, `GemmFastGelu`) and the quantized operators
//! (`QLinearAdd`, `QLinearConcat`, `QLinearConv`, `DynamicQuantizeMatMul`, ..).
//!
//! Where onnxruntime's semantics are an ONNX operator's, the mapping names the `onnx.`
//! operator (`FusedGemm` is `onnx.gemm`, `QLinearAdd` is `onnx.binary` of its two
//! operands), or the `ort.` relation runs the ONNX one on some of its arguments
//! ([`RelCx::run_on`]), so a meaning is written once. The shapes are onnxruntime's at
//! run time (its CPU kernels), which its own static inference sometimes leaves unknown.
//!
//! A module per family: [`fused`] (activations and normalizations), [`attention`],
//! [`matmul`] (the fused products) and [`quantized`]; the checks they share are here.

pub mod attention;
pub mod fused;
pub mod matmul;
pub mod nchwc;
pub mod quantized;

use crate::ops::nn::{as_const, opt_tensor, same_dim};
use crate::ops::util::shown;
use relay_core::{DTy, Dim, Dims, RelCx, RelError};

/// A vector argument `i` (named `name`, if given) of `n` elements, `n` being the size
/// of `what`.
fn vector_of(cx: &mut RelCx<'_>, i: usize, name: &str, n: Dim, what: &str) -> Result<(), RelError> {
    let Some((v, _)) = opt_tensor(cx, i)? else {
        return Ok(());
    };
    if v.len() != 1 {
        let t = shown(cx, i);
        let n = cx.show_dim(n);
        return Err(RelError::at(
            i,
            format!("`{name}` is `{t}`, and it must be a vector of {what} ({n})"),
        ));
    }
    same_dim(cx, v[0], n, i, |a, b| {
        format!("`{name}` has {a} elements, and {what} is {b}")
    })
}

/// Two shapes (arguments `i` and `j`) that must be one.
fn same_shape(
    cx: &mut RelCx<'_>,
    a: &[Dim],
    b: &[Dim],
    (i, ni): (usize, &str),
    (j, nj): (usize, &str),
) -> Result<(), RelError> {
    let bad = a.len() != b.len()
        || a.iter().zip(b).any(
            |(&x, &y)| matches!((as_const(cx, x), as_const(cx, y)), (Some(p), Some(q)) if p != q),
        );
    if bad {
        let (ti, tj) = (shown(cx, i), shown(cx, j));
        return Err(RelError::at(
            j,
            format!("`{nj}` is `{tj}`, and it must have the shape of `{ni}` (`{ti}`)"),
        ));
    }
    for (&x, &y) in a.iter().zip(b) {
        let _ = cx.unify_dim(x, y, j);
    }
    Ok(())
}

/// The number of heads of attribute `name`, at least 1.
fn heads(cx: &RelCx<'_>, name: &str) -> Result<i64, RelError> {
    match cx.attrs().int(name)? {
        Some(n) if n >= 1 => Ok(n),
        Some(n) => Err(RelError::at(
            0,
            format!("`{name}` is {n}, and it is at least 1"),
        )),
        None => Err(RelError::at(0, format!("`{name}` is required"))),
    }
}

/// `d` divided into `n` heads: the head size, or an error (blaming `i`) when a constant
/// `d` is not a multiple of `n`.
fn per_head(cx: &mut RelCx<'_>, d: Dim, n: i64, i: usize, what: &str) -> Result<Dim, RelError> {
    if let Some(c) = as_const(cx, d) {
        if c % n != 0 {
            return Err(RelError::at(
                i,
                format!("{what} of {c} is not a multiple of the {n} heads"),
            ));
        }
    }
    Ok(cx.tcx().dims.exact_div(d, n).unwrap_or(Dims::ANY))
}

/// Argument `i` as a tensor of `rank` axes, else an error naming it (`name`) and the
/// shape it must have (`what`); `None` when it is absent.
fn ranked(
    cx: &mut RelCx<'_>,
    i: usize,
    name: &str,
    ranks: &[usize],
    what: &str,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let Some((d, dt)) = opt_tensor(cx, i)? else {
        return Ok(None);
    };
    if !ranks.contains(&d.len()) {
        let t = shown(cx, i);
        return Err(RelError::at(
            i,
            format!("`{name}` is `{t}`, and it must be {what}"),
        ));
    }
    Ok(Some((d, dt)))
}

/// Whether argument `i` is `()` (an absent optional input); `false` while not known.
fn is_absent(cx: &mut RelCx<'_>, i: usize) -> bool {
    let t = cx.resolve(cx.arg(i));
    matches!(cx.data(t), relay_core::TyData::Tuple(f) if f.is_empty())
}
