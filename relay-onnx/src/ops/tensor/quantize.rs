//! The quantization operators: `QuantizeLinear`, `DequantizeLinear` and
//! `DynamicQuantizeLinear`.

use super::{axis_in, dtype_of, out_fields};
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Progress, RelCx, RelError, RelResult,
};

relay_op! {
    /// ONNX `QuantizeLinear`: the input's shape, of `output_dtype`, the zero point's dtype,
    /// or uint8.
    onnx.quantize : fn<a, s, z, b>(x: a, scale: s, zero_point: z) -> b where OnnxQuantize,
        attrs { output_dtype: Option<dtype> = None, axis: int = 1, block_size: int = 0 },
        level 10;

    /// ONNX `DequantizeLinear`: the input's shape, of `output_dtype` or the scale's dtype.
    onnx.dequantize : fn<a, s, z, b>(x: a, scale: s, zero_point: z) -> b where OnnxDequantize,
        attrs { output_dtype: Option<dtype> = None, axis: int = 1, block_size: int = 0 },
        level 10;

    /// ONNX `DynamicQuantizeLinear`: the input's shape as uint8, a float32 scale and a
    /// uint8 zero point.
    onnx.dynamic_quantize : fn<a, b>(x: a) -> b where OnnxDynamicQuantize, level 10;
}

/// The quantization granularity of `QuantizeLinear` / `DequantizeLinear`: a scalar (or
/// one-element) scale is per tensor; a vector has an element per entry of `axis`; a
/// scale of the input's rank (blocked, opset 21) has `ceil(d / block_size)` on `axis`
/// and the input's dimensions elsewhere. The zero point has the scale's elements. Only
/// constants are compared.
fn check_scales(cx: &mut RelCx<'_>, x: &[Dim]) -> Result<(), RelError> {
    let Some((s, _)) = cx.tensor_dims(1)? else {
        return Ok(());
    };
    let konst = |cx: &RelCx<'_>, d: Dim| cx.tcx_ref().dims.as_const(d);
    let count = |cx: &RelCx<'_>, v: &[Dim]| -> Option<i64> {
        v.iter()
            .try_fold(1i64, |p, &d| p.checked_mul(konst(cx, d)?))
    };
    let bad = |cx: &mut RelCx<'_>, why: String| {
        let (a, b) = (shown(cx, 0), shown(cx, 1));
        RelError::at(
            1,
            format!("the scale `{b}` does not fit the input `{a}`: {why}"),
        )
    };
    let r = x.len();
    let a = cx.attrs().int("axis")?.unwrap_or(1);
    if count(cx, &s) != Some(1) && r >= 2 && !s.is_empty() {
        let k = axis_in(a, r, 0)?;
        if s.len() == 1 {
            if let (Some(n), Some(d)) = (konst(cx, s[0]), konst(cx, x[k])) {
                if n != d {
                    return Err(bad(cx, format!("per axis {a}, it has {d} elements")));
                }
            }
        } else if s.len() == r {
            let b = cx.attrs().int("block_size")?.unwrap_or(0);
            for j in 0..r {
                let (Some(n), Some(d)) = (konst(cx, s[j]), konst(cx, x[j])) else {
                    continue;
                };
                let want = if j == k && b > 0 { (d + b - 1) / b } else { d };
                if n != want {
                    let why = if j == k {
                        format!("blocks of {b} on axis {a} make {want}")
                    } else {
                        format!("axis {j} is {d}")
                    };
                    return Err(bad(cx, why));
                }
            }
        } else {
            return Err(bad(
                cx,
                "it is a scalar, a vector or of the input's rank".into(),
            ));
        }
    }
    if let Some((z, _)) = match dtype_of(cx, 2)? {
        Some(Some(_)) => cx.tensor_dims(2)?,
        _ => None,
    } {
        if let (Some(m), Some(n)) = (count(cx, &z), count(cx, &s)) {
            if m != n {
                let (a, b) = (shown(cx, 2), shown(cx, 1));
                return Err(RelError::at(
                    2,
                    format!("the zero point `{a}` and the scale `{b}` have different shapes"),
                ));
            }
        }
    }
    Ok(())
}

/// `OnnxQuantize(x, scale, zero point, out)`.
#[relation(OnnxQuantize)]
pub fn onnx_quantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    check_scales(cx, &dims)?;
    let dt = match cx.attrs().dtype("output_dtype")? {
        Some(d) => {
            if let Some(Some(z)) = dtype_of(cx, 2)? {
                cx.unify_dtype(z, DTy::Known(d), 2)?;
            }
            DTy::Known(d)
        }
        None => match dtype_of(cx, 2)? {
            Some(Some(z)) => z,
            Some(None) => DTy::Known(DType::UINT8),
            None => return Ok(Progress::NotYet),
        },
    };
    out_tensor(cx, 3, &dims, dt)
}

/// `OnnxDequantize(x, scale, zero point, out)`.
#[relation(OnnxDequantize)]
pub fn onnx_dequantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    check_scales(cx, &dims)?;
    let dt = match cx.attrs().dtype("output_dtype")? {
        Some(d) => DTy::Known(d),
        None => match dtype_of(cx, 1)? {
            Some(Some(s)) => s,
            _ => return Ok(Progress::NotYet),
        },
    };
    out_tensor(cx, 3, &dims, dt)
}

/// `OnnxDynamicQuantize(x, out tuple)`.
#[relation(OnnxDynamicQuantize)]
pub fn onnx_dynamic_quantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let u8t = DTy::Known(DType::UINT8);
    let y = cx.mk_tensor(&dims, u8t);
    let scale = cx.mk_tensor(&[], DTy::Known(DType::FLOAT32));
    let zp = cx.mk_tensor(&[], u8t);
    out_fields(cx, 1, &[y, scale, zp])
}

// The attribute functions of the mappings.

/// An ONNX data type attribute where 0 means "not given".
fn dtype_unless_zero(
    a: &NodeAttrs<'_>,
    name: &str,
) -> Result<Option<AttrValue>, crate::ops::AttrFnError> {
    if a.int(name) == Some(0) {
        return Ok(None);
    }
    crate::ops::util::dtype_attr(a, name)
}

/// `output_dtype` as a dtype (0: not given).
fn output_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, crate::ops::AttrFnError> {
    dtype_unless_zero(a, "output_dtype")
}

onnx_ops! {
    "" QuantizeLinear since 10 => "onnx.quantize"(In(0), In(1), Opt(2)) { output_dtype: With(output_dtype), axis: Attr("axis"), block_size: Attr("block_size") };
    "" DequantizeLinear since 10 => "onnx.dequantize"(In(0), In(1), Opt(2)) { output_dtype: With(output_dtype), axis: Attr("axis"), block_size: Attr("block_size") };
    "" DynamicQuantizeLinear since 11 => "onnx.dynamic_quantize"(In(0)) -> Each;
}
