//! The packed convolutions and the packed dense layer: their weights are laid out in
//! packed layouts (`OIHW8i8o`, `NC16n`).

use crate::level2::conv::{conv, Spec};
use crate::level2::util::{need, Layout};
use crate::level3::util::agree;
use relay_core::{relation, Attrs, DTy, Progress, RelCx, RelError, RelResult};

/// The relation of `nn.contrib_conv2d_NCHWc`: `nn.conv2d`'s over packed layouts (its data,
/// weight and output laid out in `data_layout`, `kernel_layout`, `out_layout`, whose axes
/// may be packed more than once, `OIHW2i8o4i`). TVM's relation reads only `channels` and
/// `kernel_size` and ignores the weight; here the weight is checked against them (or
/// inferred from them), and without them the output follows from the weight, where TVM's
/// relation crashes.
#[relation(Conv2DNCHWc)]
pub fn conv2d_nchwc(cx: &mut RelCx<'_>) -> RelResult {
    conv(
        cx,
        &Spec {
            op: "nn.contrib_conv2d_NCHWc",
            n: 2,
            transpose: false,
            repacked: true,
        },
    )
}

/// The relation of `nn.contrib_depthwise_conv2d_NCHWc`: TVM's `Conv2DRel`, that of
/// `nn.conv2d`, over packed layouts (`NCHW8c` data, `OIHW1i8o` weight, `groups` the
/// channel count).
#[relation(DepthwiseConv2DNCHWc)]
pub fn depthwise_conv2d_nchwc(cx: &mut RelCx<'_>) -> RelResult {
    conv(
        cx,
        &Spec {
            op: "nn.contrib_depthwise_conv2d_NCHWc",
            n: 2,
            transpose: false,
            repacked: true,
        },
    )
}

/// `DensePack(data, weight, out)`: `data` is `(b, k)`, `weight` is `(N, k)` laid out in
/// `weight_layout` (`NC16n`: `(N / 16, k, 16)`; `NC16n4c`: `(N / 16, k / 4, 16, 4)`); the
/// result is `(b, N)` of `out_dtype` (default: the data's). TVM's relation takes `N` as
/// the weight's dimensions 0 and 2 multiplied, whatever the layout, and does not check
/// `k`; here the layout is read, `k` must agree and `units`, when set, must be `N`.
#[relation(DensePack)]
pub fn dense_pack(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.contrib_dense_pack";
    let layout = need(cx, "weight_layout", Attrs::str)?.to_owned();
    let wl = Layout::new_repacked("weight_layout", &layout, "NC")?;
    let units = cx.attrs().int("units")?;
    if let Some(u) = units.filter(|&u| u < 0) {
        return Err(RelError::new(format!(
            "`units` must not be negative, found {u}"
        )));
    }
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    let (Some((data, ddt)), Some((weight, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if data.len() != 2 {
        return Err(cx.error_showing(0, |t| {
            format!("the data of `{op}` must be 2-D, found `{t}`")
        }));
    }
    let w = wl.canonical_arg(cx, op, (1, "weight"), &weight, "NC")?;
    let place = wl.describe(1, 'C');
    agree(cx, 1, w[1], data[1], |wk, k| {
        format!("the contraction dimensions of `{op}` differ: the data has {k} and the weight {wk} ({place})")
    })?;
    if let Some(u) = units {
        let (u, place) = (cx.tcx().dims.konst(u), wl.describe(0, 'N'));
        agree(cx, 1, w[0], u, |n, u| {
            format!("`units` is {u} but the weight of `{op}` has {n} ({place})")
        })?;
    }
    let dtype = out_dtype.map(DTy::Known).unwrap_or(ddt);
    cx.unify_tensor(2, &[data[0], w[0]], dtype)?;
    Ok(Progress::Solved)
}
