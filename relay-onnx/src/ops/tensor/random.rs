//! The generators: `EyeLike`, the random ones (`RandomNormal`, `RandomUniform`, their
//! `Like` forms, `Bernoulli`) and `Multinomial`.

use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown, value_of, Val};
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, AttrValue, DTy, DType, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// A tensor of the input's shape and `dtype`, or the input's dtype when none is given
    /// (`EyeLike`, `RandomNormalLike`, `Bernoulli`, `BitCast`'s shape).
    onnx.like_shape : fn<a, b>(data: a) -> b where OnnxLikeShape,
        attrs { dtype: Option<dtype> = None, rank: Option<int> = None },
        level 10;

    /// A tensor of the value of `shape` and `dtype` (`RandomNormal`, `RandomUniform`).
    onnx.of_shape : fn<s, b>(shape: s) -> b where OnnxOfShape,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `Multinomial`: `(batch, sample_size)` samples of `dtype`.
    onnx.multinomial : fn<a, b>(data: a) -> b where OnnxMultinomial,
        attrs { sample_size: int = 1, dtype: dtype = "int32" },
        level 10;
}

/// `OnnxLikeShape(data, out)`.
#[relation(OnnxLikeShape)]
pub fn onnx_like_shape(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if let Some(r) = cx.attrs().int("rank")? {
        if dims.len() as i64 != r {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input has rank {r}, and is `{t}`"),
            ));
        }
    }
    let dt = match cx.attrs().dtype("dtype")? {
        Some(d) => DTy::Known(d),
        None => dt,
    };
    out_tensor(cx, 1, &dims, dt)
}

/// `OnnxOfShape(shape value, out)`.
#[relation(OnnxOfShape)]
pub fn onnx_of_shape(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    match value_of(cx, 0)? {
        Val::Known(dims) => {
            if let Some(c) = dims
                .iter()
                .filter_map(|&d| cx.tcx_ref().dims.as_const(d))
                .find(|&c| c < 0)
            {
                return Err(RelError::at(
                    0,
                    format!("`shape` has a negative dimension {c}"),
                ));
            }
            out_tensor(cx, 1, &dims, DTy::Known(dt))
        }
        Val::Absent => Err(RelError::at(0, "`shape` is required")),
        Val::Unknown => Ok(Progress::NotYet),
    }
}

/// `OnnxMultinomial(data, out)`.
#[relation(OnnxMultinomial)]
pub fn onnx_multinomial(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if dims.len() != 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `(batch_size, class_size)`, and is `{t}`"),
        ));
    }
    let n = cx.attrs().int("sample_size")?.unwrap_or(1);
    if n < 1 {
        return Err(RelError::at(
            0,
            format!("`sample_size` is {n}, and must be positive"),
        ));
    }
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::INT32);
    let n = cx.tcx().dims.konst(n);
    out_tensor(cx, 1, &[dims[0], n], DTy::Known(dt))
}

// The attribute functions of the mappings.

/// `dtype` as a dtype.
fn dtype_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, crate::ops::AttrFnError> {
    crate::ops::util::dtype_attr(a, "dtype")
}

onnx_ops! {
    "" EyeLike since 9 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype), rank: Const(AttrConst::Int(2)) };
    "" RandomNormalLike since 1 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" RandomUniformLike since 1 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" Bernoulli since 15 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" RandomNormal since 1 => "onnx.of_shape"(AttrInts("shape")) { dtype: With(dtype_dtype) };
    "" RandomUniform since 1 => "onnx.of_shape"(AttrInts("shape")) { dtype: With(dtype_dtype) };
    "" Multinomial since 7 => "onnx.multinomial"(In(0)) { sample_size: Attr("sample_size"), dtype: With(dtype_dtype) };
}
