//! The convolutions whose weight was transformed ahead of time (winograd, GEMM) or is
//! bit-packed, and the weight transforms.
//!
//! A convolution here does not read its weight (TVM's relations do not: each backend
//! lays the transformed weight out its own way); its output follows from the data and
//! the attributes `channels` and `kernel_size`, which must be set. The weight
//! transforms are clauses.

use super::window::{out_size, Window};
use crate::level2::conv::at_least_one;
use crate::level2::util::{konst, need, padding, per_axis, Layout};
use relay_core::{relation, Attrs, DTy, Progress, RelCx, RelError, RelResult};

/// What distinguishes one convolution that does not read its weight.
struct Unweighted {
    op: &'static str,
    /// The canonical data layout (`NCHW`, `NCDHW`, `NHWC`): the axes `N` and `C` and the
    /// spatial axes.
    data: &'static str,
    /// The canonical kernel layout `kernel_layout` must order, when it is read.
    kernel: Option<&'static str>,
    /// Whether the operator has `dilation` and `out_layout` (the bit-serial convolution
    /// has neither: its output is laid out as its data).
    dilated: bool,
}

fn unweighted(cx: &mut RelCx<'_>, spec: &Unweighted) -> RelResult {
    let op = spec.op;
    let n = spec.data.len() - 2;
    let strides = per_axis("strides", need(cx, "strides", Attrs::int_or_ints)?, n, 1)?;
    let dilation = if spec.dilated {
        per_axis("dilation", need(cx, "dilation", Attrs::int_or_ints)?, n, 1)?
    } else {
        vec![1; n]
    };
    let pads = padding(&need(cx, "padding", Attrs::int_or_ints)?, n)?;
    let Some(channels) = cx.attrs().int("channels")? else {
        return Err(RelError::new(format!(
            "`{op}` needs `channels`: its weight is not read (TVM's relation requires it too)"
        )));
    };
    at_least_one("channels", channels)?;
    let Some(kernel_size) = cx.attrs().int_or_ints("kernel_size")? else {
        return Err(RelError::new(format!(
            "`{op}` needs `kernel_size`: its weight is not read (TVM's relation requires it too)"
        )));
    };
    let kernel_size = per_axis("kernel_size", kernel_size, n, 1)?;
    let data_layout = need(cx, "data_layout", Attrs::str)?.to_owned();
    let dl = Layout::new_repacked("data_layout", &data_layout, spec.data)?;
    if let Some(kcanon) = spec.kernel {
        let kernel_layout = need(cx, "kernel_layout", Attrs::str)?.to_owned();
        Layout::new_repacked("kernel_layout", &kernel_layout, kcanon)?;
    }
    let out_layout = match spec.dilated {
        true => need(cx, "out_layout", Attrs::str)?.to_owned(),
        false => String::new(),
    };
    let ol = match out_layout.as_str() {
        "" => dl.clone(),
        s => Layout::new_repacked("out_layout", s, spec.data)?,
    };
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    // The weight is not read, but must be a tensor.
    cx.tensor(1)?;
    let Some((data, ddt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let d = dl.canonical_arg(cx, op, (0, "data"), &data, spec.data)?;
    let mut out = Vec::with_capacity(d.len());
    let mut i = 0;
    for (&dim, letter) in d.iter().zip(spec.data.chars()) {
        match letter {
            'N' => out.push(dim),
            'C' => out.push(konst(cx, channels)),
            _ => {
                let k = konst(cx, kernel_size[i]);
                let w = Window {
                    pad: pads[i],
                    dilation: dilation[i],
                    stride: strides[i],
                };
                out.push(out_size(cx, op, letter, dim, k, w)?);
                i += 1;
            }
        }
    }
    ol.unify_output(
        cx,
        &out,
        spec.data,
        out_dtype.map(DTy::Known).unwrap_or(ddt),
    )?;
    Ok(Progress::Solved)
}

/// The relation of `nn.contrib_conv2d_winograd_without_weight_transform`.
#[relation(Conv2DWinograd)]
pub fn conv2d_winograd(cx: &mut RelCx<'_>) -> RelResult {
    unweighted(
        cx,
        &Unweighted {
            op: "nn.contrib_conv2d_winograd_without_weight_transform",
            data: "NCHW",
            kernel: Some("OIHW"),
            dilated: true,
        },
    )
}

/// The relation of `nn.contrib_conv3d_winograd_without_weight_transform`.
#[relation(Conv3DWinograd)]
pub fn conv3d_winograd(cx: &mut RelCx<'_>) -> RelResult {
    unweighted(
        cx,
        &Unweighted {
            op: "nn.contrib_conv3d_winograd_without_weight_transform",
            data: "NCDHW",
            kernel: Some("OIDHW"),
            dilated: true,
        },
    )
}

/// The relation of `nn.contrib_conv2d_gemm_without_weight_transform` (data `NHWC`).
#[relation(Conv2DGemm)]
pub fn conv2d_gemm(cx: &mut RelCx<'_>) -> RelResult {
    unweighted(
        cx,
        &Unweighted {
            op: "nn.contrib_conv2d_gemm_without_weight_transform",
            data: "NHWC",
            kernel: Some("HWIO"),
            dilated: true,
        },
    )
}

/// The relation of `nn.bitserial_conv2d`: no dilation, the output laid out as the data.
#[relation(BitserialConv2D)]
pub fn bitserial_conv2d(cx: &mut RelCx<'_>) -> RelResult {
    unweighted(
        cx,
        &Unweighted {
            op: "nn.bitserial_conv2d",
            data: "NCHW",
            kernel: None,
            dilated: false,
        },
    )
}

/// `nn.contrib_conv2d_winograd_weight_transform`: an `OIHW` weight `(O, I, kh, kw)`
/// becomes `(tile_size + kh - 1, tile_size + kw - 1, O, I)`.
#[relation(
    Conv2DWinogradWeightTransform(W @ Tensor(s, bt), O) :-
        assert(len(s) == 4, "the weight of `nn.contrib_conv2d_winograd_weight_transform` must be 4-D (OIHW), found `{}`", W),
        assert(attrs.tile_size >= 1, "`tile_size` must be at least 1, found {}", attrs.tile_size),
        t = attrs.tile_size - 1,
        O = Tensor([s[2] + t, s[3] + t, s[0], s[1]], bt),
        attrs(tile_size: int)
)]
pub struct Conv2DWinogradWeightTransform;

/// `nn.contrib_conv3d_winograd_weight_transform`: an `OIDHW` weight
/// `(O, I, kd, kh, kw)` becomes `(t + kd - 1, t + kh - 1, t + kw - 1, O, I)` when the
/// depth `kd` is transformed too (a constant from 3 to 7), else
/// `(t + kh - 1, t + kw - 1, kd, O, I)`, with `t` the tile size. The depth must be a
/// constant (TVM's relation crashes on another).
#[relation(
    Conv3DWinogradWeightTransform(W @ Tensor(s, bt), O) :-
        assert(len(s) == 5, "the weight of `nn.contrib_conv3d_winograd_weight_transform` must be 5-D (OIDHW), found `{}`", W),
        assert(attrs.tile_size >= 1, "`tile_size` must be at least 1, found {}", attrs.tile_size),
        assert(is_int(s[2]), "the kernel depth of `nn.contrib_conv3d_winograd_weight_transform` must be a constant, found {}", s[2]),
        t = attrs.tile_size - 1,
        if s[2] > 2 && s[2] < 8 {
            O = Tensor([s[2] + t, s[3] + t, s[4] + t, s[0], s[1]], bt)
        } else {
            O = Tensor([s[3] + t, s[4] + t, s[2], s[0], s[1]], bt)
        },
        attrs(tile_size: int)
)]
pub struct Conv3DWinogradWeightTransform;

/// `nn.contrib_conv2d_winograd_nnpack_weight_transform`: an `OIHW` weight `(O, I, kh,
/// kw)` becomes `(O, I, 8, 8)` of `out_dtype` (default: the weight's).
#[relation(
    Conv2DWinogradNnpackWeightTransform(W @ Tensor(s, bt), O) :-
        assert(len(s) == 4, "the weight of `nn.contrib_conv2d_winograd_nnpack_weight_transform` must be 4-D (OIHW), found `{}`", W),
        if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
        O = Tensor([s[0], s[1], 8, 8], odt),
        attrs(out_dtype: Option<dtype> = None)
)]
pub struct Conv2DWinogradNnpackWeightTransform;

/// `nn.contrib_conv2d_gemm_weight_transform`: an `HWIO` weight `(kh, kw, I, O)` is the
/// matrix of `K = kh * kw * I` rows and `N = O` columns, padded to a multiple of
/// `tile_N` columns and of `4 * tile_K` rows and cut into tiles:
/// `(ceil(N / tile_N), 4 * ceil(K / (4 * tile_K)), tile_N, tile_K)` for 8-bit integers,
/// `(.., .., tile_K, tile_N)` otherwise.
#[relation(
    Conv2DGemmWeightTransform(W @ Tensor(s, bt), O) :-
        assert(len(s) == 4, "the weight of `nn.contrib_conv2d_gemm_weight_transform` must be 4-D (HWIO), found `{}`", W),
        assert(attrs.tile_N >= 1, "`tile_N` must be at least 1, found {}", attrs.tile_N),
        assert(attrs.tile_K >= 1, "`tile_K` must be at least 1, found {}", attrs.tile_K),
        k = s[0] * s[1] * s[2],
        rows = 4 * attrs.tile_K,
        tn = (s[3] + attrs.tile_N - 1) / attrs.tile_N,
        tk = 4 * ((k + rows - 1) / rows),
        if bt == int8 || bt == uint8 {
            O = Tensor([tn, tk, attrs.tile_N, attrs.tile_K], bt)
        } else {
            O = Tensor([tn, tk, attrs.tile_K, attrs.tile_N], bt)
        },
        attrs(tile_N: int, tile_K: int)
)]
pub struct Conv2DGemmWeightTransform;
