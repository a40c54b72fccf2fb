//! The deformable convolution and the gradient of a convolution with respect to its
//! weight: convolutions whose relations assign more than their output.

use super::window::out_hw;
use crate::level2::conv::{at_least_one, weight_from, ConvAttrs, Expected};
use crate::level2::util::{konst, need, per_axis, Layout};
use crate::level3::util::agree;
use relay_core::{relation, Attrs, DTy, Progress, RelCx, RelError, RelResult};

/// What axis `i` of an `OIHW` weight holds, for messages.
fn weight_axis(i: usize) -> &'static str {
    [
        "output channels",
        "input channels per group",
        "as kernel height",
        "as kernel width",
    ][i]
}

/// `DeformableConv2D(data, offset, weight, out)`: `nn.conv2d`'s shapes (data `NCHW`,
/// weight `OIHW`, through their layouts), and the offset is
/// `(N, 2 * kh * kw * deformable_groups, H', W')` in the data's layout, assigned as TVM
/// does. With `channels` and `kernel_size` the weight is `(channels, C / groups, kh,
/// kw)`: assigned when unknown, checked when known (TVM assigns it regardless, so a
/// mismatch surfaces as a unification failure). Without them the weight must be known;
/// `kernel_size`, `channels` and `C / groups` are checked against it.
#[relation(DeformableConv2D)]
pub fn deformable_conv2d(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.deformable_conv2d";
    let conv = ConvAttrs::read(cx, 2)?;
    let (groups, channels, kernel_size) = (conv.groups, conv.channels, &conv.kernel_size);
    let dgroups = at_least_one(
        "deformable_groups",
        need(cx, "deformable_groups", Attrs::int)?,
    )?;
    let data_layout = need(cx, "data_layout", Attrs::str)?.to_owned();
    let kernel_layout = need(cx, "kernel_layout", Attrs::str)?.to_owned();
    let out_layout = match need(cx, "out_layout", Attrs::str)? {
        "" => data_layout.clone(),
        s => s.to_owned(),
    };
    let dl = Layout::new_repacked("data_layout", &data_layout, "NCHW")?;
    let kl = Layout::new_repacked("kernel_layout", &kernel_layout, "OIHW")?;
    let ol = Layout::new_repacked("out_layout", &out_layout, "NCHW")?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;

    let Some((data, ddt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let d = dl.canonical_arg(cx, op, (0, "data"), &data, "NCHW")?;
    if let Some(c) = cx.tcx_ref().dims.as_const(d[1]).filter(|c| c % groups != 0) {
        return Err(RelError::at(
            0,
            format!("the data's {c} input channels are not divisible by `groups` = {groups}"),
        ));
    }
    let g = konst(cx, groups);
    let per_group = cx.tcx().dims.floordiv(d[1], g)?;
    let weight = match cx.tensor_dims(2)? {
        Some((w, _)) => Some(kl.canonical_arg(cx, op, (2, "weight"), &w, "OIHW")?),
        None => None,
    };
    // The weight as the attributes and the data give it, with each expectation's source.
    let mut expected: Expected = vec![None; 4];
    if let Some(c) = channels {
        expected[0] = Some((konst(cx, c), "`channels` is".into()));
    }
    let shown_c = cx.show_dim(d[1]);
    expected[1] = Some((
        per_group,
        format!("the data's {shown_c} input channels over `groups` = {groups} give"),
    ));
    let Some(w) = weight_from(
        cx,
        (2, &kl, "OIHW"),
        weight,
        (expected, kernel_size.as_deref()),
        ddt,
        |i| weight_axis(i).to_owned(),
    )?
    else {
        return Ok(Progress::NotYet);
    };
    let [oh, ow] = out_hw(
        cx,
        op,
        (&d[2..], &w[2..]),
        (&conv.pads, &conv.dilation, &conv.strides),
    )?;
    let out = [d[0], w[0], oh, ow];
    // The offset: two coordinates per kernel element and deformable group.
    let kk = cx.tcx().dims.mul(w[2], w[3])?;
    let offsets = cx.tcx().dims.scale(kk, 2)?;
    let offsets = cx.tcx().dims.scale(offsets, dgroups)?;
    let offset = [d[0], offsets, out[2], out[3]];
    let laid = dl.lay_out(cx, &offset, "the offset", "NCHW")?;
    let t = cx.mk_tensor(&laid, ddt);
    if cx.unify(1, t).is_err() {
        let (want, found) = (cx.resolve(t), cx.resolve(cx.arg(1)));
        let (want, found) = (cx.show(want), cx.show(found));
        return Err(RelError::at(
            1,
            format!("the offset of `{op}` must be `{want}` (two coordinates per kernel element and deformable group), found `{found}`"),
        ));
    }
    ol.unify_output(cx, &out, "NCHW", out_dtype.map(DTy::Known).unwrap_or(ddt))?;
    Ok(Progress::Solved)
}

/// `Conv2DBackwardWeight(grad, data, out)`: the gradient of `nn.conv2d` with respect to
/// its weight. TVM reuses the convolution's attributes with other meanings:
/// `data_layout` is the gradient's layout, `kernel_layout` the data's and `out_layout`
/// the weight's (`""`: `OIHW`, where TVM's relation crashes). The weight is
/// `(O, C / groups, kh, kw)` with `O` the gradient's channels, `C` the data's and
/// `kernel_size` (required) `(kh, kw)`; a depthwise gradient (`groups` > 1 equal to both
/// channel counts) is `(O, channels / groups, kh, kw)`. The result has `out_dtype`
/// (default: the gradient's). The gradient's and the data's batches must agree, and
/// `channels`, when set, must be `O` (TVM checks neither), and is `O` where the
/// gradient's is `?`.
#[relation(Conv2DBackwardWeight)]
pub fn conv2d_backward_weight(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.conv2d_backward_weight";
    let Some(kernel_size) = cx.attrs().int_or_ints("kernel_size")? else {
        return Err(RelError::new(format!("`{op}` needs `kernel_size`")));
    };
    let kernel_size = per_axis("kernel_size", kernel_size, 2, 1)?;
    let groups = at_least_one("groups", need(cx, "groups", Attrs::int)?)?;
    let channels = cx.attrs().int("channels")?;
    let grad_layout = need(cx, "data_layout", Attrs::str)?.to_owned();
    let data_layout = need(cx, "kernel_layout", Attrs::str)?.to_owned();
    let weight_layout = match need(cx, "out_layout", Attrs::str)? {
        "" => "OIHW".to_owned(),
        s => s.to_owned(),
    };
    let gl = Layout::new_repacked("data_layout", &grad_layout, "NCHW")?;
    let dl = Layout::new_repacked("kernel_layout", &data_layout, "NCHW")?;
    let wl = Layout::new_repacked("out_layout", &weight_layout, "OIHW")?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    let (Some((grad, gdt)), Some((data, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let g = gl.canonical_arg(cx, op, (0, "gradient"), &grad, "NCHW")?;
    let d = dl.canonical_arg(cx, op, (1, "data"), &data, "NCHW")?;
    agree(cx, 1, d[0], g[0], |d, g| {
        format!("the batch of the data of `{op}` is {d}, but the gradient's is {g}")
    })?;
    let (cin, mut cout) = (d[1], g[1]);
    if let Some(c) = channels {
        let c = konst(cx, c);
        agree(cx, 0, cout, c, |o, c| {
            format!("the gradient of `{op}` has {o} channels, but `channels` is {c}")
        })?;
        // `channels` is the gradient's channel count, known where the gradient has `?`.
        cout = c;
    }
    let dims = &cx.tcx_ref().dims;
    if groups > 1 && (dims.has_vars(cin) || dims.has_vars(cout)) {
        // Whether it is depthwise is not known yet.
        return Ok(Progress::NotYet);
    }
    let depthwise =
        groups > 1 && dims.as_const(cin) == Some(groups) && dims.as_const(cout) == Some(groups);
    let per_group = if depthwise {
        let Some(c) = channels else {
            return Err(RelError::new(format!(
                "`{op}` needs `channels` for a depthwise convolution"
            )));
        };
        konst(cx, c / groups)
    } else {
        if let Some(c) = dims.as_const(cin).filter(|c| c % groups != 0) {
            return Err(RelError::at(
                1,
                format!("the data's {c} input channels are not divisible by `groups` = {groups}"),
            ));
        }
        let g = konst(cx, groups);
        cx.tcx().dims.floordiv(cin, g)?
    };
    let kh = konst(cx, kernel_size[0]);
    let kw = konst(cx, kernel_size[1]);
    let laid = wl.lay_out(cx, &[cout, per_group, kh, kw], "the weight", "OIHW")?;
    let dtype = out_dtype.map(DTy::Known).unwrap_or(gdt);
    cx.unify_tensor(2, &laid, dtype)?;
    Ok(Progress::Solved)
}
