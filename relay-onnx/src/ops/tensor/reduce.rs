//! The reductions (`ReduceSum`, `ReduceMean`, `ReduceMax`, ...) and `ArgMax`/`ArgMin`.

use super::{axis_in, consts, dtype_of};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, value_of, Val};
use crate::value;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// An ONNX reduction (`ReduceSum`, `ReduceMean`, ...): the axes given by the value
    /// of `axes` (`()` when absent; `axes_ty` is its type, for its length when its value
    /// is not known) are reduced, kept as 1 when `keepdims`; no axes reduce every axis,
    /// or none when `noop_with_empty_axes`.
    /// Before the opset that made `axes` an input (`axes_input` 0), `axes_ty` is the
    /// node's input 1, which must be absent.
    onnx.reduce : fn<a, x, t, b>(data: a, axes: x, axes_ty: t) -> b where OnnxReduce,
        attrs { keepdims: int = 1, noop_with_empty_axes: int = 0, axes_input: int = 1 },
        level 10;

    /// ONNX `ArgMax` / `ArgMin`: int64 indices along `axis`, kept as 1 when `keepdims`.
    onnx.arg_reduce : fn<a, b>(data: a) -> b where OnnxArgReduce,
        attrs { axis: int = 0, keepdims: int = 1 },
        level 10;
}

/// `OnnxReduce(data, axes value, axes type, out)`.
#[relation(OnnxReduce)]
pub fn onnx_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let keep = cx.attrs().int("keepdims")?.unwrap_or(1) != 0;
    let noop = cx.attrs().int("noop_with_empty_axes")?.unwrap_or(0) != 0;
    if cx.attrs().int("axes_input")? == Some(0) && !matches!(dtype_of(cx, 2)?, Some(None)) {
        return Err(RelError::at(
            2,
            "input 1 is given, and at this opset `axes` is an attribute",
        ));
    }
    let r = dims.len();
    let one = cx.tcx().dims.konst(1);
    let axes: Vec<i64> = match value_of(cx, 1)? {
        Val::Absent => Vec::new(),
        Val::Known(v) => match consts(cx, &v) {
            Some(c) => c,
            None => return reduce_unknown_axes(cx, &dims, dt, Some(v.len()), keep, noop),
        },
        Val::Unknown => {
            let n = match cx.tensor_dims(2)? {
                Some((d, _)) if d.is_empty() => Some(1),
                Some((d, _)) if d.len() == 1 => cx
                    .tcx_ref()
                    .dims
                    .as_const(d[0])
                    .and_then(|c| usize::try_from(c).ok()),
                Some(_) => return Err(RelError::at(1, "`axes` is a vector")),
                None => None,
            };
            return reduce_unknown_axes(cx, &dims, dt, n, keep, noop);
        }
    };
    if axes.is_empty() {
        if noop {
            return out_tensor(cx, 3, &dims, dt);
        }
        let out = if keep { vec![one; r] } else { Vec::new() };
        return out_tensor(cx, 3, &out, dt);
    }
    let mut reduced = vec![false; r];
    for &a in &axes {
        let k = axis_in(a, r, 1)?;
        if std::mem::replace(&mut reduced[k], true) {
            return Err(RelError::at(1, format!("axis {a} is reduced twice")));
        }
    }
    let out: Vec<Dim> = dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &red)| match (red, keep) {
            (false, _) => Some(d),
            (true, true) => Some(one),
            (true, false) => None,
        })
        .collect();
    out_tensor(cx, 3, &out, dt)
}

/// A reduction over `n` axes (if known) whose values are not known: the rank is, and
/// with `keepdims` each dimension is its own or 1.
fn reduce_unknown_axes(
    cx: &mut RelCx<'_>,
    dims: &[Dim],
    dt: DTy,
    n: Option<usize>,
    keep: bool,
    noop: bool,
) -> RelResult {
    let r = dims.len();
    let one = cx.tcx().dims.konst(1);
    let either = |cx: &mut RelCx<'_>| -> Vec<Dim> {
        dims.iter()
            .map(|&d| {
                if cx.tcx_ref().dims.as_const(d) == Some(1) {
                    one
                } else {
                    Dims::ANY
                }
            })
            .collect()
    };
    match n {
        Some(0) if noop => out_tensor(cx, 3, dims, dt),
        // No axes, or as many as the rank (each once): every axis is reduced.
        Some(k) if k == 0 || k == r => {
            let out = if keep { vec![one; r] } else { Vec::new() };
            out_tensor(cx, 3, &out, dt)
        }
        Some(k) if k > r => Err(RelError::at(
            1,
            format!("{k} axes are reduced, and the input has rank {r}"),
        )),
        Some(k) if !keep => out_tensor(cx, 3, &vec![Dims::ANY; r - k], dt),
        _ if keep => {
            let out = either(cx);
            out_tensor(cx, 3, &out, dt)
        }
        _ => Ok(Progress::NotYet),
    }
}

/// `OnnxArgReduce(data, out)`.
#[relation(OnnxArgReduce)]
pub fn onnx_arg_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let keep = cx.attrs().int("keepdims")?.unwrap_or(1) != 0;
    let k = axis_in(a, dims.len(), 0)?;
    let mut out = dims;
    if keep {
        out[k] = cx.tcx().dims.konst(1);
    } else {
        out.remove(k);
    }
    out_tensor(cx, 1, &out, DTy::Known(DType::INT64))
}

onnx_ops! {
    "" ReduceSum since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_sum_value;
    "" ReduceSum since 13 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_sum_value;
    "" ReduceProd since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_prod_value;
    "" ReduceProd since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_prod_value;
    "" ReduceMax since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_max_value;
    "" ReduceMax since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_max_value;
    "" ReduceMin since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_min_value;
    "" ReduceMin since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_min_value;
    "" ReduceMean since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceMean since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceL1 since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceL1 since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceL2 since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceL2 since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceLogSum since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceLogSum since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceLogSumExp since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceLogSumExp since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceSumSquare since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceSumSquare since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };

    "" ArgMax since 1 => "onnx.arg_reduce"(In(0)) { axis: Attr("axis"), keepdims: Attr("keepdims") };
    "" ArgMin since 1 => "onnx.arg_reduce"(In(0)) { axis: Attr("axis"), keepdims: Attr("keepdims") };
}
