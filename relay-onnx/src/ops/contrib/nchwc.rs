//! onnxruntime's blocked-layout operators (domain `com.microsoft.nchwc`), which its
//! `NchwcTransformer` writes into a model saved at `ORT_ENABLE_ALL`.
//!
//! A blocked tensor is `(N, C', D1, ..)` with the channels rounded up to the machine's
//! block size (a power of two, at most 16), so `ReorderInput`'s channels are known only
//! when 16 divides them; the filters the transformer rewrote carry the rounded counts,
//! and `ReorderOutput` says the real one. `Conv` is `FusedConv` (an activation and a
//! `Sum` to add), the pools (in `nn::pool`) and `Upsample` (whole-number `scales`) are
//! ONNX's.
use crate::onnx_ops;
use crate::ops::nn::konst;
use crate::ops::util::{out_tensor, shown};
use relay_core::{relation, relay_op, DTy, Dim, Dims, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// onnxruntime's `ReorderInput`: `x` `(N, C, D1, ..)`, or `(N, D1, .., C)` with
    /// `channels_last`, into the blocked `(N, C', D1, ..)`, `C` rounded up to the block
    /// size (`C` when 16 divides it, else not known).
    ort.nchwc_reorder_input : fn<x, y>(x: x) -> y where OrtNchwcReorderInput,
        attrs { channels_last: int = 0 },
        level 10;

    /// onnxruntime's `ReorderOutput`: the blocked `x` `(N, C', D1, ..)` into
    /// `(N, channels, D1, ..)`, or `(N, D1, .., channels)` with `channels_last`.
    ort.nchwc_reorder_output : fn<x, y>(x: x) -> y where OrtNchwcReorderOutput,
        attrs { channels: int, channels_last: int = 0 },
        level 10;
}

/// The largest block size of onnxruntime's blocked layout.
const MAX_BLOCK: i64 = 16;

/// `(N, C, D1, ..)` or `(N, D1, .., C)`: the input's dims, at least two, and dtype.
fn blocked_input(cx: &mut RelCx<'_>) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(None);
    };
    if x.len() < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and a reorder takes a batch and channels"),
        ));
    }
    Ok(Some((x, dt)))
}

/// `OrtNchwcReorderInput(x, out)`.
#[relation(OrtNchwcReorderInput)]
pub fn ort_nchwc_reorder_input(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = blocked_input(cx)? else {
        return Ok(Progress::NotYet);
    };
    let last = cx.attrs().int("channels_last")?.unwrap_or(0) != 0;
    let c = if last { x[x.len() - 1] } else { x[1] };
    let blocked = match cx.tcx_ref().dims.as_const(c) {
        Some(n) if n % MAX_BLOCK == 0 => c,
        _ => Dims::ANY,
    };
    let spatial = if last { &x[1..x.len() - 1] } else { &x[2..] };
    let mut y = vec![x[0], blocked];
    y.extend_from_slice(spatial);
    out_tensor(cx, 1, &y, dt)
}

/// `OrtNchwcReorderOutput(x, out)`.
#[relation(OrtNchwcReorderOutput)]
pub fn ort_nchwc_reorder_output(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = blocked_input(cx)? else {
        return Ok(Progress::NotYet);
    };
    let channels = cx.attrs().int("channels")?.unwrap_or(0);
    if channels <= 0 {
        return Err(RelError::new(format!(
            "`channels` is {channels}, and it must be positive"
        )));
    }
    if let Some(blocked) = cx.tcx_ref().dims.as_const(x[1]) {
        if channels > blocked {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!(
                    "`channels` is {channels}, more than the {blocked} of the blocked input `{t}`"
                ),
            ));
        }
    }
    let c = konst(cx, channels);
    let last = cx.attrs().int("channels_last")?.unwrap_or(0) != 0;
    let mut y = vec![x[0]];
    if !last {
        y.push(c);
    }
    y.extend_from_slice(&x[2..]);
    if last {
        y.push(c);
    }
    out_tensor(cx, 1, &y, dt)
}

onnx_ops! {
    "com.microsoft.nchwc" ReorderInput since 1 => "ort.nchwc_reorder_input"(In(0)) {
        channels_last: Attr("channels_last")
    };
    "com.microsoft.nchwc" ReorderOutput since 1 => "ort.nchwc_reorder_output"(In(0)) {
        channels: Attr("channels"), channels_last: Attr("channels_last")
    };
    "com.microsoft.nchwc" Conv since 1 => "ort.fused_conv"(In(0), In(1), Opt(2), Opt(3)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "com.microsoft.nchwc" Upsample since 1 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Attr("scales") };
}
