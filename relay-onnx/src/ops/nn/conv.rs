//! The convolutions: `Conv`, its integer and quantized forms (`ConvInteger`,
//! `QLinearConv`), `DeformConv` and `ConvTranspose`.

use super::{
    arith, as_const, konst, nonneg, opt_tensor, per_axis, result_dtype, same_dim, spatial_input,
    AutoPad, Window,
};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use relay_core::{relation, relay_op, DType, Dim, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `Conv` over 1, 2 or 3 (or more) spatial axes: `data` is `(N, C, D1, ..)`,
    /// `weight` `(M, C / group, k1, ..)`, `bias` `(M)` or `()`; the result is
    /// `(N, M, O1, ..)` with each `Oi` given by the window, its padding (`pads` or
    /// `auto_pad`), stride and dilation.
    onnx.conv : fn<x, w, b, y>(data: x, weight: w, bias: b) -> y where OnnxConv,
        attrs OnnxConvAttrs,
        level 10;

    /// ONNX `ConvInteger`: `onnx.conv`'s shapes without a bias, an int32 result.
    onnx.conv_integer : fn<x, w, xz, wz, y>(data: x, weight: w, x_zero_point: xz, w_zero_point: wz) -> y where OnnxConvInteger,
        attrs OnnxConvAttrs,
        level 10;

    /// ONNX `QLinearConv`: `onnx.conv`'s shapes, of the output zero point's dtype.
    onnx.qlinear_conv : fn<x, xs, xz, w, ws, wz, ys, yz, b, y>(data: x, x_scale: xs, x_zero_point: xz, weight: w, w_scale: ws, w_zero_point: wz, y_scale: ys, y_zero_point: yz, bias: b) -> y where OnnxQLinearConv,
        attrs OnnxConvAttrs,
        level 10;

    /// onnxruntime's `QLinearConv`: `onnx.qlinear_conv`, or with `channels_last` its input
    /// and result `(N, D1, .., C)` (the weight keeps its layout).
    ort.qlinear_conv : fn<x, xs, xz, w, ws, wz, ys, yz, b, y>(data: x, x_scale: xs, x_zero_point: xz, weight: w, w_scale: ws, w_zero_point: wz, y_scale: ys, y_zero_point: yz, bias: b) -> y where OnnxQLinearConv,
        attrs OrtConvAttrs,
        level 10;

    /// ONNX `DeformConv`: `onnx.conv`'s shapes (the offsets and mask do not change them).
    onnx.deform_conv : fn<x, w, o, b, m, y>(data: x, weight: w, offset: o, bias: b, mask: m) -> y where OnnxDeformConv,
        attrs OnnxConvAttrs,
        level 10;

    /// ONNX `ConvTranspose`: `data` `(N, C, D1, ..)`, `weight` `(C, M / group, k1, ..)`;
    /// each spatial axis is `output_shape`'s, or `stride * (D - 1) + output_padding +
    /// (k - 1) * dilation + 1 - pads`, or `D * stride` for a `SAME` `auto_pad`.
    onnx.conv_transpose : fn<x, w, b, y>(data: x, weight: w, bias: b) -> y where OnnxConvTranspose,
        attrs OnnxConvTransposeAttrs,
        level 10;
}

/// The kernel's spatial sizes: `kernel_shape`, or the weight's axes from 2 on.
fn kernel_of(cx: &mut RelCx<'_>, w: &[Dim], n: usize, wi: usize) -> Result<Vec<Dim>, RelError> {
    match cx.attrs().ints("kernel_shape")? {
        Some(k) if !k.is_empty() => {
            if k.len() != n {
                return Err(RelError::at(
                    wi,
                    format!("`kernel_shape` has {} values for {n} spatial axes", k.len()),
                ));
            }
            if let Some(bad) = k.iter().find(|&&x| x < 1) {
                return Err(RelError::at(
                    wi,
                    format!("`kernel_shape` has {bad}, and a kernel is at least 1"),
                ));
            }
            let ks: Vec<Dim> = k.iter().map(|&c| konst(cx, c)).collect();
            for (i, (&kd, &wd)) in ks.iter().zip(&w[2..]).enumerate() {
                same_dim(cx, kd, wd, wi, |x, y| {
                    format!(
                        "`kernel_shape` is {x} on axis {}, and the weight's is {y}",
                        i + 2
                    )
                })?;
            }
            Ok(ks)
        }
        _ => Ok(w[2..].to_vec()),
    }
}

/// `OnnxConv(data, weight, bias, out)`.
#[relation(OnnxConv)]
pub fn onnx_conv(cx: &mut RelCx<'_>) -> RelResult {
    conv(cx, 1, Some(2), None, None, 3)
}

/// `OnnxConvInteger(data, weight, x_zero_point, w_zero_point, out)`.
#[relation(OnnxConvInteger)]
pub fn onnx_conv_integer(cx: &mut RelCx<'_>) -> RelResult {
    conv(cx, 1, None, None, Some(DType::INT32), 4)
}

/// `OnnxQLinearConv(data, x_scale, x_zero_point, weight, w_scale, w_zero_point, y_scale,
/// y_zero_point, bias, out)`.
#[relation(OnnxQLinearConv)]
pub fn onnx_qlinear_conv(cx: &mut RelCx<'_>) -> RelResult {
    conv(cx, 3, Some(8), Some(7), None, 9)
}

/// `OnnxDeformConv(data, weight, offset, bias, mask, out)`.
#[relation(OnnxDeformConv)]
pub fn onnx_deform_conv(cx: &mut RelCx<'_>) -> RelResult {
    conv(cx, 1, Some(3), None, None, 5)
}

/// A convolution of argument 0 by argument `wi`, with the bias argument `bias` (if one),
/// into argument `out`, of the dtype `fixed`, or argument `like`'s, or the operands'.
fn conv(
    cx: &mut RelCx<'_>,
    wi: usize,
    bias: Option<usize>,
    like: Option<usize>,
    fixed: Option<DType>,
    out: usize,
) -> RelResult {
    let (Some((x, xdt)), Some((w, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(wi)?) else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "a convolution")?;
    // onnxruntime's NHWC form: the input and result have their channels last (the
    // weight keeps its layout).
    let last = cx.attrs().int("channels_last")?.unwrap_or(0) != 0;
    let x = if last { channels_first(&x) } else { x };
    if w.len() != x.len() {
        let (sx, sw) = (shown(cx, 0), shown(cx, wi));
        return Err(RelError::at(
            wi,
            format!(
                "the weight `{sw}` has rank {}, and the input `{sx}` rank {}: they must be equal",
                w.len(),
                x.len()
            ),
        ));
    }
    let group = cx.attrs().int("group")?.unwrap_or(1);
    if group < 1 {
        return Err(RelError::at(
            0,
            format!("`group` is {group}, and it is at least 1"),
        ));
    }
    let n = x.len() - 2;
    // C = weight's channels * group.
    let wc = cx.tcx().dims.scale(w[1], group).map_err(arith(wi))?;
    same_dim(cx, x[1], wc, wi, |c, k| {
        if group == 1 {
            format!("the input has {c} channels, and the weight takes {k}")
        } else {
            format!(
                "the input has {c} channels, and the weight takes {} per group × {group} groups = {k}",
                k / group
            )
        }
    })?;
    if let Some(m) = as_const(cx, w[0]) {
        if m % group != 0 {
            return Err(RelError::at(
                wi,
                format!("the weight's {m} output channels are not a multiple of `group` ({group})"),
            ));
        }
    }
    let Some(dt) = result_dtype(cx, xdt, wdt, wi, like, fixed)? else {
        return Ok(Progress::NotYet);
    };
    if let Some(bi) = bias {
        if let Some((b, _)) = opt_tensor(cx, bi)? {
            if b.len() != 1 {
                let t = shown(cx, bi);
                return Err(RelError::at(
                    bi,
                    format!("the bias is `{t}`, and it must be a vector"),
                ));
            }
            same_dim(cx, b[0], w[0], bi, |b, m| {
                format!("the bias has {b} elements for {m} output channels")
            })?;
        }
    }
    let kernel = kernel_of(cx, &w, n, wi)?;
    let win = Window::read(cx, n, kernel)?;
    let sp = win.out(cx, &x[2..])?;
    let mut dims = vec![x[0], w[0]];
    dims.extend(sp);
    if last {
        dims = channels_last(&dims);
    }
    out_tensor(cx, out, &dims, dt)
}

/// `(N, D1, .., C)` as `(N, C, D1, ..)`.
pub(crate) fn channels_first(x: &[Dim]) -> Vec<Dim> {
    let mut y = x.to_vec();
    y[1..].rotate_right(1);
    y
}

/// `(N, C, D1, ..)` as `(N, D1, .., C)`.
pub(crate) fn channels_last(x: &[Dim]) -> Vec<Dim> {
    let mut y = x.to_vec();
    y[1..].rotate_left(1);
    y
}

/// `OnnxConvTranspose(data, weight, bias, out)`.
#[relation(OnnxConvTranspose)]
pub fn onnx_conv_transpose(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, xdt)), Some((w, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "a transposed convolution")?;
    if w.len() != x.len() {
        let (sx, sw) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!(
                "the weight `{sw}` has rank {}, and the input `{sx}` rank {}: they must be equal",
                w.len(),
                x.len()
            ),
        ));
    }
    cx.unify_dtype(xdt, wdt, 1)?;
    let group = cx.attrs().int("group")?.unwrap_or(1);
    if group < 1 {
        return Err(RelError::at(
            0,
            format!("`group` is {group}, and it is at least 1"),
        ));
    }
    same_dim(cx, x[1], w[0], 1, |c, k| {
        format!("the input has {c} channels, and the weight takes {k}")
    })?;
    let n = x.len() - 2;
    let m = cx.tcx().dims.scale(w[1], group).map_err(arith(1))?;
    if let Some((bias, _)) = opt_tensor(cx, 2)? {
        if bias.len() != 1 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("the bias is `{t}`, and it must be a vector"),
            ));
        }
        same_dim(cx, bias[0], m, 2, |b, m| {
            format!("the bias has {b} elements for {m} output channels")
        })?;
    }
    let kernel = kernel_of(cx, &w, n, 1)?;
    let win = Window::read(cx, n, kernel)?;
    let output_padding = per_axis(cx, "output_padding", n, 0, 0)?;
    let sp: Vec<Dim> = match cx.attrs().ints("output_shape")? {
        Some(s) if !s.is_empty() => {
            let s = if s.len() == n + 2 { s[2..].to_vec() } else { s };
            if s.len() != n {
                return Err(RelError::at(
                    0,
                    format!("`output_shape` has {} values for {n} spatial axes", s.len()),
                ));
            }
            if let Some(bad) = s.iter().find(|&&c| c < 0) {
                return Err(RelError::at(
                    0,
                    format!("`output_shape` has {bad}, and a size is at least 0"),
                ));
            }
            s.iter().map(|&c| konst(cx, c)).collect()
        }
        _ => {
            let mut sp = Vec::with_capacity(n);
            for i in 0..n {
                let s = win.strides[i];
                let d = x[2 + i];
                let dims = &mut cx.tcx().dims;
                let o = if win.pads.is_none() && win.auto_pad == AutoPad::Same {
                    dims.scale(d, s).map_err(arith(0))?
                } else {
                    let (pb, pe) = win.pads.as_ref().map_or((0, 0), |p| (p[i], p[i + n]));
                    // s * (D - 1) + output_padding + (k - 1) * dilation + 1 - pads
                    let m1 = dims.konst(-1);
                    let dm1 = dims.add(d, m1).map_err(arith(0))?;
                    let sd = dims.scale(dm1, s).map_err(arith(0))?;
                    let k1 = dims.add(win.kernel[i], m1).map_err(arith(1))?;
                    let kd = dims.scale(k1, win.dilations[i]).map_err(arith(1))?;
                    let c = 1i64
                        .checked_add(output_padding[i])
                        .and_then(|c| c.checked_sub(pb))
                        .and_then(|c| c.checked_sub(pe))
                        .ok_or_else(|| RelError::at(0, "`pads` overflow"))?;
                    let c = dims.konst(c);
                    let t = dims.add(sd, kd).map_err(arith(0))?;
                    dims.add(t, c).map_err(arith(0))?
                };
                nonneg(cx, o, i + 2)?;
                sp.push(o);
            }
            sp
        }
    };
    let mut out = vec![x[0], m];
    out.extend(sp);
    out_tensor(cx, 3, &out, xdt)
}

onnx_ops! {
    "" Conv since 1 => "onnx.conv"(In(0), In(1), Opt(2)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "" ConvInteger since 10 => "onnx.conv_integer"(In(0), In(1), Opt(2), Opt(3)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "" QLinearConv since 10 => "onnx.qlinear_conv"(In(0), In(1), In(2), In(3), In(4), In(5), In(6), In(7), Opt(8)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "" DeformConv since 19 => "onnx.deform_conv"(In(0), In(1), In(2), Opt(3), Opt(4)) {
        pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "" ConvTranspose since 1 => "onnx.conv_transpose"(In(0), In(1), Opt(2)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape"),
        output_padding: Attr("output_padding"), output_shape: Attr("output_shape")
    };
}
