//! The softmax family (`Softmax`, `LogSoftmax`, `Hardmax`: TVM's `nn.softmax` and
//! `nn.log_softmax`) and `Dropout`.

use super::{out_fields, set_field};
use crate::onnx_ops;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, Progress, RelCx, RelResult};

relay_op! {
    /// ONNX `Dropout`: the result is `data`'s type; the mask, when asked for, is a
    /// tensor of the same shape of `mask_dtype` (bool since opset 10).
    onnx.dropout : fn<x, r, t, y>(data: x, ratio: r, training_mode: t) -> y where OnnxDropout,
        attrs { mask_dtype: Option<dtype> = None },
        level 10;
}

/// `OnnxDropout(data, rest, out)`.
#[relation(OnnxDropout)]
pub fn onnx_dropout(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let fields = out_fields(cx, 3, 2)?;
    set_field(cx, &fields, 3, 0, &x, dt)?;
    let mdt = match cx.attrs().dtype("mask_dtype")? {
        Some(d) => DTy::Known(d),
        None => dt,
    };
    set_field(cx, &fields, 3, 1, &x, mdt)?;
    Ok(Progress::Solved)
}

onnx_ops! {
    "" Softmax since 1 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" Softmax since 13 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };
    "" LogSoftmax since 1 => "nn.log_softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" LogSoftmax since 13 => "nn.log_softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };
    "" Hardmax since 1 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" Hardmax since 13 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };

    "" Dropout since 7 => "onnx.dropout"(In(0), Opt(1), Opt(2)) -> Each;
    "" Dropout since 10 => "onnx.dropout"(In(0), Opt(1), Opt(2)) { mask_dtype: Const(AttrConst::DType("bool")) } -> Each;
}
