//! The signal operators: `DFT`, `STFT`, the windows (`HannWindow`, `HammingWindow`,
//! `BlackmanWindow`) and `MelWeightMatrix`.

use super::{arith, axis_in, dtype_of, same_dim, scalar_of};
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown, value_of, Val};
use relay_core::op::AttrConst;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult,
};

relay_op! {
    /// The ONNX windows (`HannWindow`, ...): a vector of the value of `size`.
    onnx.window : fn<s, b>(size: s) -> b where OnnxWindow,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `DFT`: the axis becomes `dft_length` (or its one-sided half), the last
    /// dimension 2 (complex), or 1 for an inverse one-sided transform.
    onnx.dft : fn<a, n, x, b>(input: a, dft_length: n, axis_value: x) -> b where OnnxDft,
        attrs { axis: int = 1, inverse: int = 0, onesided: int = 0 },
        level 10;

    /// ONNX `STFT`: `(batch, frames, bins, 2)`.
    onnx.stft : fn<a, s, w, n, b>(signal: a, frame_step: s, window: w, frame_length: n) -> b where OnnxStft,
        attrs { onesided: int = 1 },
        level 10;

    /// ONNX `MelWeightMatrix`: `(floor(dft_length / 2) + 1, num_mel_bins)`; the sample
    /// rate and the edge frequencies (`rest`) do not change it.
    onnx.mel_weight_matrix : fn<m, d, r, b>(num_mel_bins: m, dft_length: d, rest: r) -> b where OnnxMelWeightMatrix,
        attrs { dtype: dtype = "float32" },
        level 10;
}

/// `OnnxWindow(size value, out)`.
#[relation(OnnxWindow)]
pub fn onnx_window(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let n = match scalar_of(cx, 0, "size")? {
        Some(n) => n,
        None => Dims::ANY,
    };
    if let Some(c) = cx.tcx_ref().dims.as_const(n) {
        if c < 0 {
            return Err(RelError::at(
                0,
                format!("`size` is {c}, and must not be negative"),
            ));
        }
    }
    out_tensor(cx, 1, &[n], DTy::Known(dt))
}

/// `floor(n / 2) + 1`.
fn half_plus_one(cx: &mut RelCx<'_>, n: Dim, arg: usize) -> Result<Dim, RelError> {
    if n == Dims::ANY {
        return Ok(n);
    }
    let d = &mut cx.tcx().dims;
    let two = d.konst(2);
    let one = d.konst(1);
    let h = d.floordiv(n, two).map_err(arith(arg))?;
    d.add(h, one).map_err(arith(arg))
}

/// `OnnxDft(input, dft_length value, axis value, out)`.
#[relation(OnnxDft)]
pub fn onnx_dft(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    if r < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!(
                "the input is a signal with a last axis of 1 (real) or 2 (complex), and is `{t}`"
            ),
        ));
    }
    let inverse = cx.attrs().int("inverse")?.unwrap_or(0) != 0;
    let onesided = cx.attrs().int("onesided")?.unwrap_or(0) != 0;
    // The axis is input 2 from opset 20 on, an attribute before (blame the input).
    let (a, blame) = match value_of(cx, 2)? {
        Val::Known(v) if v.len() == 1 => match cx.tcx_ref().dims.as_const(v[0]) {
            Some(c) => (c, 2),
            None => return Ok(Progress::NotYet),
        },
        Val::Known(_) => return Err(RelError::at(2, "`axis` is a scalar")),
        Val::Unknown => return Ok(Progress::NotYet),
        Val::Absent => (cx.attrs().int("axis")?.unwrap_or(1), 0),
    };
    // The last axis holds the complex parts and is not a signal axis.
    let k = axis_in(a, r, blame)?;
    if k == r - 1 {
        return Err(RelError::at(
            blame,
            format!("axis {a} is the last, which holds the complex parts"),
        ));
    }
    let irfft = inverse && onesided;
    let len = match scalar_of(cx, 1, "dft_length")? {
        Some(n) => n,
        None if irfft => {
            let d = &mut cx.tcx().dims;
            let one = d.konst(1);
            let m = d.sub(dims[k], one).map_err(arith(0))?;
            d.scale(m, 2).map_err(arith(0))?
        }
        None if matches!(value_of(cx, 1)?, Val::Unknown) => Dims::ANY,
        None => dims[k],
    };
    if let Some(c) = cx.tcx_ref().dims.as_const(len).filter(|&c| c < 1) {
        return Err(RelError::at(
            1,
            format!("`dft_length` is {c}, and must be positive"),
        ));
    }
    let mut out = dims;
    out[k] = if onesided && !inverse {
        half_plus_one(cx, len, 1)?
    } else {
        len
    };
    out[r - 1] = cx.tcx().dims.konst(if irfft { 1 } else { 2 });
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxStft(signal, frame_step value, window, frame_length value, out)`.
#[relation(OnnxStft)]
pub fn onnx_stft(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if dims.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the signal is `(batch, length, 1 or 2)`, and is `{t}`"),
        ));
    }
    let onesided = cx.attrs().int("onesided")?.unwrap_or(1) != 0;
    let step = scalar_of(cx, 1, "frame_step")?;
    let window = match dtype_of(cx, 2)? {
        Some(Some(_)) => match cx.tensor_dims(2)? {
            Some((w, _)) if w.len() == 1 => Some(w[0]),
            Some(_) => return Err(RelError::at(2, "`window` is a vector")),
            None => None,
        },
        _ => None,
    };
    let length = match scalar_of(cx, 3, "frame_length")? {
        Some(n) => {
            if let Some(w) = window {
                same_dim(cx, w, n, 2, "the window's length is not `frame_length`")?;
            }
            Some(n)
        }
        None => window,
    };
    let d = &mut cx.tcx().dims;
    let frames = match (step, length) {
        (Some(s), Some(n)) => {
            if d.as_const(s).is_some_and(|c| c < 1) {
                return Err(RelError::at(1, "`frame_step` must be positive"));
            }
            let span = d.sub(dims[1], n).map_err(arith(0))?;
            if let Some(c) = d.as_const(span).filter(|&c| c < 0) {
                return Err(RelError::at(
                    0,
                    format!("a frame is {} longer than the signal", -c),
                ));
            }
            let q = d.floordiv(span, s).map_err(arith(1))?;
            let one = d.konst(1);
            d.add(q, one).map_err(arith(1))?
        }
        _ => Dims::ANY,
    };
    let bins = match length {
        Some(n) if onesided => half_plus_one(cx, n, 3)?,
        Some(n) => n,
        None => Dims::ANY,
    };
    let two = cx.tcx().dims.konst(2);
    out_tensor(cx, 4, &[dims[0], frames, bins, two], dt)
}

/// `OnnxMelWeightMatrix(num_mel_bins value, dft_length value, rest, out)`.
#[relation(OnnxMelWeightMatrix)]
pub fn onnx_mel_weight_matrix(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let bins = scalar_of(cx, 0, "num_mel_bins")?.unwrap_or(Dims::ANY);
    let len = scalar_of(cx, 1, "dft_length")?.unwrap_or(Dims::ANY);
    for (i, what, d) in [(0, "num_mel_bins", bins), (1, "dft_length", len)] {
        if let Some(c) = cx.tcx_ref().dims.as_const(d).filter(|&c| c < 1) {
            return Err(RelError::at(
                i,
                format!("`{what}` is {c}, and must be positive"),
            ));
        }
    }
    let rows = half_plus_one(cx, len, 1)?;
    out_tensor(cx, 3, &[rows, bins], DTy::Known(dt))
}

// The attribute functions of the mappings.

/// `output_datatype` as a dtype (float32 when not given).
fn output_datatype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, crate::ops::AttrFnError> {
    crate::ops::util::dtype_attr(a, "output_datatype")
}

onnx_ops! {
    "" HannWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    "" HammingWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    "" BlackmanWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    // Before opset 20 the axis is an attribute: no input 2, so `()`.
    "" DFT since 17 => "onnx.dft"(In(0), Value(1), Opt(2)) { axis: Attr("axis"), inverse: Attr("inverse"), onesided: Attr("onesided") };
    "" DFT since 20 => "onnx.dft"(In(0), Value(1), Value(2)) { axis: Const(AttrConst::Int(-2)), inverse: Attr("inverse"), onesided: Attr("onesided") };
    "" STFT since 17 => "onnx.stft"(In(0), Value(1), Opt(2), Value(3)) { onesided: Attr("onesided") };
    "" MelWeightMatrix since 17 => "onnx.mel_weight_matrix"(Value(0), Value(1), Rest(2)) { dtype: With(output_datatype) };
}
