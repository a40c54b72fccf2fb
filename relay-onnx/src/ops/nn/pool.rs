//! The pools: `MaxPool`, `AveragePool`, `LpPool` and their global forms, `MaxRoiPool`,
//! `RoiAlign` and `MaxUnpool`.

use super::{
    arith, konst, nonneg, out_fields, same_dim, set_field, sizes_nonneg, spatial_input, Window,
};
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown, value_of, Val};
use crate::ops::AttrFnError;
use relay_core::op::AttrConst;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult,
};

relay_op! {
    /// ONNX's pools (`MaxPool`, `AveragePool`, `LpPool`, and the global ones with
    /// `global`): `(N, C, D1, ..)` to `(N, C, O1, ..)`; when the result is a tuple (the
    /// node asks for `MaxPool`'s `Indices`), its second field is the int64 indices.
    onnx.pool : fn<x, y>(data: x) -> y where OnnxPool,
        attrs OnnxPoolAttrs,
        level 10;

    /// ONNX `MaxRoiPool` and `RoiAlign`: `(R, C, pooled_shape..)` for `R` regions of
    /// interest (`rois` is `(R, 4)` or `(R, 5)`) over a `(N, C, H, W)` input.
    onnx.roi_pool : fn<x, r, y>(data: x, rois: r) -> y where OnnxRoiPool,
        attrs { pooled_shape: [int] },
        level 10;

    /// ONNX `RoiAlign`: `onnx.roi_pool`'s result; `batch_indices` is `(R)`.
    onnx.roi_align : fn<x, r, i, y>(data: x, rois: r, batch_indices: i) -> y where OnnxRoiAlign,
        attrs { pooled_shape: [int] },
        level 10;

    /// ONNX `MaxUnpool`: the value of `output_shape` if given, else each spatial axis
    /// `(D - 1) * stride + kernel - pads`.
    onnx.max_unpool : fn<x, i, s, y>(data: x, indices: i, output_shape: s) -> y where OnnxMaxUnpool,
        attrs {
            kernel_shape: [int],
            pads: Option<[int]> = None,
            strides: Option<[int]> = None
        },
        level 10;
}

/// `OnnxPool(data, out)`.
#[relation(OnnxPool)]
pub fn onnx_pool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = pooled(cx, &x)?;
    let fields = out_fields(cx, 1, 2)?;
    set_field(cx, &fields, 1, 0, &out, dt)?;
    set_field(cx, &fields, 1, 1, &out, DTy::Known(DType::INT64))?;
    Ok(Progress::Solved)
}

/// The dimensions of argument 0, `x` `(N, C, D1, ..)`, pooled as the attributes say.
pub(crate) fn pooled(cx: &mut RelCx<'_>, x: &[Dim]) -> Result<Vec<Dim>, RelError> {
    spatial_input(cx, x, "a pool")?;
    let n = x.len() - 2;
    let sp = if cx.attrs().int("global")?.unwrap_or(0) != 0 {
        vec![konst(cx, 1); n]
    } else {
        let k = cx
            .attrs()
            .ints("kernel_shape")?
            .ok_or_else(|| RelError::at(0, "attribute `kernel_shape` is missing"))?;
        if k.len() != n {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!(
                    "`kernel_shape` has {} values, and `{t}` has {n} spatial axes",
                    k.len()
                ),
            ));
        }
        if let Some(bad) = k.iter().find(|&&v| v < 1) {
            return Err(RelError::at(
                0,
                format!("`kernel_shape` has {bad}, and a kernel is at least 1"),
            ));
        }
        let kernel: Vec<Dim> = k.iter().map(|&c| konst(cx, c)).collect();
        let win = Window::read(cx, n, kernel)?;
        win.out(cx, &x[2..])?
    };
    let mut out = vec![x[0], x[1]];
    out.extend(sp);
    Ok(out)
}

/// `OnnxRoiPool(data, rois, out)`.
#[relation(OnnxRoiPool)]
pub fn onnx_roi_pool(cx: &mut RelCx<'_>) -> RelResult {
    roi_pool(cx, 2)
}

/// `OnnxRoiAlign(data, rois, batch_indices, out)`.
#[relation(OnnxRoiAlign)]
pub fn onnx_roi_align(cx: &mut RelCx<'_>) -> RelResult {
    if let (Some((r, _)), Some((i, _))) = (cx.tensor_dims(1)?, cx.tensor_dims(2)?) {
        if i.len() != 1 || r.is_empty() {
            let (tr, ti) = (shown(cx, 1), shown(cx, 2));
            return Err(RelError::at(
                2,
                format!("`batch_indices` is `{ti}`; it has one index per row of `rois` (`{tr}`)"),
            ));
        }
        same_dim(cx, i[0], r[0], 2, |a, b| {
            format!("`batch_indices` has {a} elements for {b} regions")
        })?;
    }
    roi_pool(cx, 3)
}

/// The pooled regions of `rois` (argument 1) over the data (argument 0), into argument
/// `out`.
fn roi_pool(cx: &mut RelCx<'_>, out: usize) -> RelResult {
    let (Some((x, dt)), Some((r, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 4 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, C, H, W)`"),
        ));
    }
    if r.len() != 2 {
        let t = shown(cx, 1);
        return Err(RelError::at(
            1,
            format!("`rois` is `{t}`, and it must be a matrix"),
        ));
    }
    let p = cx
        .attrs()
        .ints("pooled_shape")?
        .ok_or_else(|| RelError::at(0, "attribute `pooled_shape` is missing"))?;
    if p.len() != 2 || p.iter().any(|&v| v < 1) {
        return Err(RelError::at(
            0,
            format!("`pooled_shape` is {p:?}; it is two positive sizes"),
        ));
    }
    let (ph, pw) = (konst(cx, p[0]), konst(cx, p[1]));
    out_tensor(cx, out, &[r[0], x[1], ph, pw], dt)
}

/// `RoiAlign`'s `output_height` and `output_width` as `pooled_shape`.
pub fn roi_align_shape(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    let h = a.int("output_height").unwrap_or(1);
    let w = a.int("output_width").unwrap_or(1);
    Ok(Some(AttrValue::List(vec![
        AttrValue::Int(h),
        AttrValue::Int(w),
    ])))
}

/// `OnnxMaxUnpool(data, indices, output_shape value, out)`.
#[relation(OnnxMaxUnpool)]
pub fn onnx_max_unpool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "`MaxUnpool`")?;
    let n = x.len() - 2;
    match value_of(cx, 2)? {
        Val::Unknown => {
            let mut out = vec![x[0], x[1]];
            out.extend(vec![Dims::ANY; n]);
            out_tensor(cx, 3, &out, dt)
        }
        Val::Known(s) => {
            if s.len() != x.len() {
                let t = shown(cx, 0);
                return Err(RelError::at(
                    2,
                    format!("`output_shape` has {} values for an input `{t}`", s.len()),
                ));
            }
            sizes_nonneg(cx, &s, 2, "output_shape")?;
            // The batch and channels are the input's where the value does not say them.
            let mut out = s;
            for i in 0..2 {
                if cx.tcx_ref().dims.is_any(out[i]) {
                    out[i] = x[i];
                }
            }
            out_tensor(cx, 3, &out, dt)
        }
        Val::Absent => {
            let k = cx
                .attrs()
                .ints("kernel_shape")?
                .ok_or_else(|| RelError::at(0, "attribute `kernel_shape` is missing"))?;
            if k.len() != n {
                return Err(RelError::at(
                    0,
                    format!("`kernel_shape` has {} values for {n} spatial axes", k.len()),
                ));
            }
            if let Some(bad) = k.iter().find(|&&v| v < 1) {
                return Err(RelError::at(
                    0,
                    format!("`kernel_shape` has {bad}, and a kernel is at least 1"),
                ));
            }
            let kernel: Vec<Dim> = k.iter().map(|&c| konst(cx, c)).collect();
            let win = Window::read(cx, n, kernel)?;
            let mut out = vec![x[0], x[1]];
            for i in 0..n {
                let (pb, pe) = win.pads.as_ref().map_or((0, 0), |p| (p[i], p[i + n]));
                let dims = &mut cx.tcx().dims;
                let m1 = dims.konst(-1);
                let d1 = dims.add(x[2 + i], m1).map_err(arith(0))?;
                let sd = dims.scale(d1, win.strides[i]).map_err(arith(0))?;
                let c = k[i]
                    .checked_sub(pb)
                    .and_then(|c| c.checked_sub(pe))
                    .ok_or_else(|| RelError::at(0, "`pads` overflow"))?;
                let c = dims.konst(c);
                let o = dims.add(sd, c).map_err(arith(0))?;
                nonneg(cx, o, i + 2)?;
                out.push(o);
            }
            out_tensor(cx, 3, &out, dt)
        }
    }
}

/// The pools of `domain`, each `onnx.pool` of its ONNX attributes (`-> Each`: a second
/// output, `MaxPool`'s indices), and the global pools.
macro_rules! pools {
    ($($domain:literal $op:ident $(-> $each:ident)?;)* global $($gdomain:literal $gop:ident;)*) => {
        onnx_ops! {
            $(
                $domain $op since 1 => "onnx.pool"(In(0)) {
                    kernel_shape: Attr("kernel_shape"), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
                    strides: Attr("strides"), dilations: Attr("dilations"), ceil_mode: Attr("ceil_mode")
                } $(-> $each)?;
            )*
            $(
                $gdomain $gop since 1 => "onnx.pool"(In(0)) { global: Const(AttrConst::Int(1)) };
            )*
        }
    };
}

// onnxruntime's blocked layout (`com.microsoft.nchwc`, see `contrib::nchwc`) has its own
// pools, of the same attributes.
pools! {
    "" MaxPool -> Each;
    "" AveragePool;
    "" LpPool;
    "com.microsoft.nchwc" MaxPool;
    "com.microsoft.nchwc" AveragePool;
    global
    "" GlobalAveragePool;
    "" GlobalMaxPool;
    "" GlobalLpPool;
    "com.microsoft.nchwc" GlobalAveragePool;
    "com.microsoft.nchwc" GlobalMaxPool;
}

onnx_ops! {
    "" MaxRoiPool since 1 => "onnx.roi_pool"(In(0), In(1)) { pooled_shape: Attr("pooled_shape") };
    "" RoiAlign since 10 => "onnx.roi_align"(In(0), In(1), In(2)) { pooled_shape: With(roi_align_shape) };
    "" MaxUnpool since 9 => "onnx.max_unpool"(In(0), In(1), Value(2)) {
        kernel_shape: Attr("kernel_shape"), pads: Attr("pads"), strides: Attr("strides")
    };
}
