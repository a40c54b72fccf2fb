//! Neural-network operators: `MatMul`, `Gemm` and their integer and quantized forms, the
//! convolutions and pools, the normalizations, the softmax family, `Dropout`,
//! `Resize`/`Upsample`, the attentions (`Attention`, `RotaryEmbedding`,
//! `LinearAttention`, `CausalConvWithState`), and the image operators (`GridSample`,
//! `AffineGrid`, `Col2Im`, `CenterCropPad`, `DepthToSpace`, ...).
//!
//! Where ONNX's semantics are TVM's (`Softmax` over one axis is `nn.softmax`, `LRN` is
//! `nn.lrn`, `DepthToSpace` is `nn.depth_to_space`), the mapping names TVM's operator.
//! ONNX's convolutions and pools are N-dimensional, pad by `auto_pad`, take an optional
//! bias, or give several outputs; their relations are written here as operators of the
//! `onnx.` namespace, with exact symbolic sizes: a `SAME` axis of `H` by stride 2 is
//! `floordiv(H + 1, 2)`. A size that cannot be known (a `ceil_mode` window that may start
//! in the padding of a symbolic axis, a `Resize` by scales that are not constants) is `?`,
//! never a guess.

use super::util::{broadcast, out_tensor, shown, value_of, Val};
use super::AttrFnError;
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use relay_core::op::AttrConst;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, DimError, Dims, Progress, RelCx, RelError,
    RelResult, Ty, TyData,
};

relay_op! {
    /// ONNX `MatMul` (NumPy's `matmul`): a 1-D operand is a row (left) or a column
    /// (right) vector whose axis is dropped from the result; the batch axes broadcast;
    /// the operands and the result share a dtype.
    onnx.matmul : fn<a, b, c>(a: a, b: b) -> c where OnnxMatMul, level 10;

    /// ONNX `MatMulInteger`: `onnx.matmul`'s shapes, an int32 result.
    onnx.matmul_integer : fn<a, b, az, bz, c>(a: a, b: b, a_zero_point: az, b_zero_point: bz) -> c where OnnxMatMulInteger,
        level 10;

    /// ONNX `QLinearMatMul`: `onnx.matmul`'s shapes, of the output zero point's dtype.
    onnx.qlinear_matmul : fn<a, as_, az, b, bs, bz, ys, yz, c>(a: a, a_scale: as_, a_zero_point: az, b: b, b_scale: bs, b_zero_point: bz, y_scale: ys, y_zero_point: yz) -> c where OnnxQLinearMatMul,
        level 10;

    /// ONNX `Gemm`: `op(A) * op(B) + C` for matrices `A` and `B` (transposed by `transA`,
    /// `transB`); `C`, if given, broadcasts to the result `(M, N)`.
    onnx.gemm : fn<a, b, c, y>(a: a, b: b, c: c) -> y where OnnxGemm,
        attrs { trans_a: int = 0, trans_b: int = 0 },
        level 10;

    /// ONNX `Conv` over 1, 2 or 3 (or more) spatial axes: `data` is `(N, C, D1, ..)`,
    /// `weight` `(M, C / group, k1, ..)`, `bias` `(M)` or `()`; the result is
    /// `(N, M, O1, ..)` with each `Oi` given by the window, its padding (`pads` or
    /// `auto_pad`), stride and dilation.
    onnx.conv : fn<x, w, b, y>(data: x, weight: w, bias: b) -> y where OnnxConv,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None
        },
        level 10;

    /// ONNX `ConvInteger`: `onnx.conv`'s shapes without a bias, an int32 result.
    onnx.conv_integer : fn<x, w, xz, wz, y>(data: x, weight: w, x_zero_point: xz, w_zero_point: wz) -> y where OnnxConvInteger,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None
        },
        level 10;

    /// ONNX `QLinearConv`: `onnx.conv`'s shapes, of the output zero point's dtype.
    onnx.qlinear_conv : fn<x, xs, xz, w, ws, wz, ys, yz, b, y>(data: x, x_scale: xs, x_zero_point: xz, weight: w, w_scale: ws, w_zero_point: wz, y_scale: ys, y_zero_point: yz, bias: b) -> y where OnnxQLinearConv,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None
        },
        level 10;

    /// ONNX `DeformConv`: `onnx.conv`'s shapes (the offsets and mask do not change them).
    onnx.deform_conv : fn<x, w, o, b, m, y>(data: x, weight: w, offset: o, bias: b, mask: m) -> y where OnnxDeformConv,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None
        },
        level 10;

    /// ONNX `ConvTranspose`: `data` `(N, C, D1, ..)`, `weight` `(C, M / group, k1, ..)`;
    /// each spatial axis is `output_shape`'s, or `stride * (D - 1) + output_padding +
    /// (k - 1) * dilation + 1 - pads`, or `D * stride` for a `SAME` `auto_pad`.
    onnx.conv_transpose : fn<x, w, b, y>(data: x, weight: w, bias: b) -> y where OnnxConvTranspose,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None,
            output_padding: Option<[int]> = None,
            output_shape: Option<[int]> = None
        },
        level 10;

    /// ONNX's pools (`MaxPool`, `AveragePool`, `LpPool`, and the global ones with
    /// `global`): `(N, C, D1, ..)` to `(N, C, O1, ..)`; when the result is a tuple (the
    /// node asks for `MaxPool`'s `Indices`), its second field is the int64 indices.
    onnx.pool : fn<x, y>(data: x) -> y where OnnxPool,
        attrs {
            kernel_shape: Option<[int]> = None,
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            ceil_mode: int = 0,
            global: int = 0
        },
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

    /// ONNX `BatchNormalization`: the result is `data`'s type; further outputs (the
    /// running or saved means and variances) are `(C)` of the mean's dtype.
    onnx.batch_norm : fn<x, s, b, m, v, y>(data: x, scale: s, bias: b, mean: m, var: v) -> y where OnnxBatchNorm,
        level 10;

    /// ONNX `LayerNormalization`: the result is `data`'s type; `Mean` and `InvStdDev`
    /// are `data`'s axes before `axis` followed by 1s, of the `stash_type` dtype.
    onnx.layer_norm : fn<x, s, b, y>(data: x, scale: s, bias: b) -> y where OnnxLayerNorm,
        attrs { axis: int = -1, stash_type: int = 1 },
        level 10;

    /// ONNX `Dropout`: the result is `data`'s type; the mask, when asked for, is a
    /// tensor of the same shape of `mask_dtype` (bool since opset 10).
    onnx.dropout : fn<x, r, t, y>(data: x, ratio: r, training_mode: t) -> y where OnnxDropout,
        attrs { mask_dtype: Option<dtype> = None },
        level 10;

    /// ONNX `Resize` and `Upsample`: each axis `floor(D * scale)` for the constant
    /// `scales`, or the value of `sizes` (on `axes`, adjusted to keep the aspect ratio by
    /// `keep_aspect_ratio_policy`).
    onnx.resize : fn<x, s, y>(data: x, sizes: s) -> y where OnnxResize,
        attrs {
            scales: Option<[float]> = None,
            axes: Option<[int]> = None,
            keep_aspect_ratio_policy: str = "stretch"
        },
        level 10;

    /// ONNX `GridSample`: `data` `(N, C, D1, ..)` sampled at `grid` `(N, O1, .., r)`
    /// gives `(N, C, O1, ..)`.
    onnx.grid_sample : fn<x, g, y>(data: x, grid: g) -> y where OnnxGridSample,
        level 10;

    /// ONNX `AffineGrid`: `theta` `(N, 2, 3)` or `(N, 3, 4)` and the value of `size`
    /// `(N, C, H, W)` or `(N, C, D, H, W)` give `(N, H, W, 2)` or `(N, D, H, W, 3)`.
    onnx.affine_grid : fn<t, s, y>(theta: t, size: s) -> y where OnnxAffineGrid,
        level 10;

    /// ONNX `Col2Im`: `(N, C * prod(block_shape), L)` and the values of `image_shape`
    /// and `block_shape` give `(N, C, image_shape..)`.
    onnx.col2im : fn<x, i, b, y>(data: x, image_shape: i, block_shape: b) -> y where OnnxCol2Im,
        level 10;

    /// ONNX `CenterCropPad`: the axes `axes` (all by default) take the value of `shape`.
    onnx.center_crop_pad : fn<x, s, y>(data: x, shape: s) -> y where OnnxCenterCropPad,
        attrs { axes: Option<[int]> = None },
        level 10;

    /// ONNX `Attention` (opset 23): `Q`, `K`, `V` of rank 4 `(B, heads, S, head)` or of
    /// rank 3 `(B, S, heads * head)`; the outputs are `Y`, the present key and value
    /// (past and new along the sequence) and the `Q K^T` scores.
    onnx.attention : fn<q, k, v, m, pk, pv, n, y>(q: q, k: k, v: v, mask: m, past_key: pk, past_value: pv, nonpad_kv_seqlen: n) -> y where OnnxAttention,
        attrs { q_num_heads: Option<int> = None, kv_num_heads: Option<int> = None },
        level 10;

    /// ONNX `CausalConvWithState` (opset 27): a depthwise causal convolution of `data`
    /// `(B, C, L)` by `weight` `(C, 1, k)`; the result is `data`'s type, the present
    /// state `(B, C, k - 1)`.
    onnx.causal_conv : fn<x, w, b, s, y>(data: x, weight: w, bias: b, past_state: s) -> y where OnnxCausalConv,
        level 10;

    /// ONNX `LinearAttention` (opset 27): `query` `(B, T, Hq * dk)`, `key`
    /// `(B, T, Hkv * dk)`, `value` `(B, T, Hkv * dv)` give `(B, T, Hq * dv)` and the
    /// state `(B, Hkv, dk, dv)`.
    onnx.linear_attention : fn<q, k, v, s, d, b, y>(query: q, key: k, value: v, past_state: s, decay: d, beta: b) -> y where OnnxLinearAttention,
        attrs { q_num_heads: int, kv_num_heads: int },
        level 10;

    /// ONNX `RotaryEmbedding` (opset 23): the result is `data`'s type; `data` is
    /// `(B, heads, S, head)` or `(B, S, heads * head)` (with `num_heads`), the caches
    /// have one shape, whose last axis is half the rotated size.
    onnx.rotary : fn<x, c, s, p, y>(data: x, cos_cache: c, sin_cache: s, position_ids: p) -> y where OnnxRotary,
        attrs { num_heads: Option<int> = None, rotary_embedding_dim: int = 0 },
        level 10;

    /// ONNX `RNN` and `GRU` (`gates` 1 or 3): `X` `(S, B, I)` (`(B, S, I)` with
    /// `layout` 1), `W` `(D, gates * H, I)`, `R` `(D, gates * H, H)` for `D` directions;
    /// the outputs are `Y` `(S, D, B, H)` (`(B, S, D, H)`) and `Y_h` `(D, B, H)`
    /// (`(B, D, H)`).
    onnx.rnn : fn<x, w, r, b, l, h, y>(x: x, w: w, r: r, b: b, sequence_lens: l, initial_h: h) -> y where OnnxRnn,
        attrs { gates: int = 1, hidden_size: Option<int> = None, direction: str = "forward", layout: int = 0 },
        level 10;

    /// ONNX `LSTM`: `onnx.rnn`'s shapes with 4 gates, an initial and a last cell state
    /// like the hidden one's, and the peepholes `(D, 3 * H)`.
    onnx.lstm : fn<x, w, r, b, l, h, c, p, y>(x: x, w: w, r: r, b: b, sequence_lens: l, initial_h: h, initial_c: c, p: p) -> y where OnnxLstm,
        attrs { hidden_size: Option<int> = None, direction: str = "forward", layout: int = 0 },
        level 10;

    /// ONNX's normalizations over a `(N, C, ..)` input (`InstanceNormalization`:
    /// `scale` and `bias` are `(C)`) or over the axes from `axis` on
    /// (`RMSNormalization`: `scale` broadcasts to them); `GroupNormalization`'s
    /// `num_groups` divide the channels, and its `scale` and `bias` are per channel, or
    /// per group with `per_group` (opset 18). The result is `data`'s type.
    onnx.norm : fn<x, s, b, y>(data: x, scale: s, bias: b) -> y where OnnxNorm,
        attrs { axis: int = -1, channels: int = 0, num_groups: int = 0, per_group: int = 0 },
        level 10;
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A dimension error as a relation error blaming `arg`.
fn de(arg: usize) -> impl Fn(DimError) -> RelError {
    move |e| RelError::at(arg, e.to_string())
}

fn konst(cx: &mut RelCx<'_>, c: i64) -> Dim {
    cx.tcx().dims.konst(c)
}

fn as_const(cx: &RelCx<'_>, d: Dim) -> Option<i64> {
    cx.tcx_ref().dims.as_const(d)
}

/// The result's fields: a tuple's (the node asked for each output), or the result itself;
/// an error when the node asks for more than `max` outputs.
fn out_fields(cx: &mut RelCx<'_>, arg: usize, max: usize) -> Result<Vec<Ty>, RelError> {
    let t = cx.resolve(cx.arg(arg));
    let fields = match cx.data(t) {
        TyData::Tuple(f) => f.to_vec(),
        _ => vec![cx.arg(arg)],
    };
    if fields.len() > max {
        return Err(RelError::at(
            arg,
            format!(
                "the node has {} outputs, and the operator gives at most {max}",
                fields.len()
            ),
        ));
    }
    Ok(fields)
}

/// Unifies field `j` of the result (argument `arg`) with `Tensor[dims, dt]`, if the node
/// has that output.
fn set_field(
    cx: &mut RelCx<'_>,
    fields: &[Ty],
    arg: usize,
    j: usize,
    dims: &[Dim],
    dt: DTy,
) -> Result<(), RelError> {
    if let Some(&f) = fields.get(j) {
        let t = cx.mk_tensor(dims, dt);
        cx.unify_blaming(f, t, arg)?;
    }
    Ok(())
}

/// Argument `i` as a tensor's dims and dtype; `None` when it is `()` or not known.
fn opt_tensor(cx: &mut RelCx<'_>, i: usize) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let t = cx.resolve(cx.arg(i));
    if matches!(cx.data(t), TyData::Tuple(f) if f.is_empty()) {
        return Ok(None);
    }
    cx.tensor_dims(i)
}

/// Whether argument `i` is `()` (an absent optional input).
fn is_absent(cx: &mut RelCx<'_>, i: usize) -> bool {
    let t = cx.resolve(cx.arg(i));
    matches!(cx.data(t), TyData::Tuple(f) if f.is_empty())
}

/// Two dimensions that must be equal: an error when both are constants that differ,
/// else unified when they can be (a symbol may stand for the constant).
fn same_dim(
    cx: &mut RelCx<'_>,
    a: Dim,
    b: Dim,
    blame: usize,
    what: impl FnOnce(i64, i64) -> String,
) -> Result<(), RelError> {
    match (as_const(cx, a), as_const(cx, b)) {
        (Some(x), Some(y)) if x != y => Err(RelError::at(blame, what(x, y))),
        _ => {
            let _ = cx.unify_dim(a, b, blame);
            Ok(())
        }
    }
}

/// The dtype of the result of an operator whose operands `a` and `b` share a dtype,
/// unless it is `fixed` or argument `like`'s (a quantized operator's output zero point);
/// `None` while `like` is not known.
fn result_dtype(
    cx: &mut RelCx<'_>,
    adt: DTy,
    bdt: DTy,
    blame: usize,
    like: Option<usize>,
    fixed: Option<DType>,
) -> Result<Option<DTy>, RelError> {
    if let Some(d) = fixed {
        return Ok(Some(DTy::Known(d)));
    }
    if let Some(l) = like {
        return Ok(cx.tensor(l)?.map(|(_, ldt)| ldt));
    }
    cx.unify_dtype(adt, bdt, blame)?;
    Ok(Some(adt))
}

/// An `INTS` attribute of one value per spatial axis (`n`), or `default` for each.
fn per_axis(
    cx: &RelCx<'_>,
    name: &str,
    n: usize,
    default: i64,
    min: i64,
) -> Result<Vec<i64>, RelError> {
    match cx.attrs().ints(name)? {
        None => Ok(vec![default; n]),
        Some(v) if v.is_empty() => Ok(vec![default; n]),
        Some(v) => {
            if v.len() != n {
                return Err(RelError::at(
                    0,
                    format!("`{name}` has {} values for {n} spatial axes", v.len()),
                ));
            }
            if let Some(bad) = v.iter().find(|&&x| x < min) {
                return Err(RelError::at(
                    0,
                    format!("`{name}` has {bad}, and each must be at least {min}"),
                ));
            }
            Ok(v)
        }
    }
}

/// How the spatial axes of a convolution or pool are padded.
#[derive(Copy, Clone, PartialEq, Eq)]
enum AutoPad {
    NotSet,
    Same,
    Valid,
}

fn auto_pad(cx: &RelCx<'_>) -> Result<AutoPad, RelError> {
    match cx.attrs().str("auto_pad")?.unwrap_or("NOTSET") {
        "NOTSET" | "" => Ok(AutoPad::NotSet),
        "SAME_UPPER" | "SAME_LOWER" => Ok(AutoPad::Same),
        "VALID" => Ok(AutoPad::Valid),
        other => Err(RelError::at(
            0,
            format!(
                "`auto_pad` is \"{other}\"; it is one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"
            ),
        )),
    }
}

/// The sliding window of a convolution or pool over `n` spatial axes.
struct Window {
    kernel: Vec<Dim>,
    strides: Vec<i64>,
    dilations: Vec<i64>,
    /// Begins then ends; `None` when `auto_pad` decides.
    pads: Option<Vec<i64>>,
    auto_pad: AutoPad,
    ceil: bool,
}

impl Window {
    /// The window's attributes for `n` spatial axes and this kernel.
    fn read(cx: &RelCx<'_>, n: usize, kernel: Vec<Dim>) -> Result<Window, RelError> {
        let strides = per_axis(cx, "strides", n, 1, 1)?;
        let dilations = per_axis(cx, "dilations", n, 1, 1)?;
        let pads = match cx.attrs().ints("pads")? {
            Some(p) if !p.is_empty() => {
                if p.len() != 2 * n {
                    return Err(RelError::at(
                        0,
                        format!(
                            "`pads` has {} values for {n} spatial axes (it takes {})",
                            p.len(),
                            2 * n
                        ),
                    ));
                }
                if let Some(bad) = p.iter().find(|&&x| x < 0) {
                    return Err(RelError::at(
                        0,
                        format!("`pads` has {bad}, and a pad is at least 0"),
                    ));
                }
                Some(p)
            }
            _ => None,
        };
        let auto_pad = auto_pad(cx)?;
        let ceil = cx.attrs().int("ceil_mode")?.unwrap_or(0) != 0;
        Ok(Window {
            kernel,
            strides,
            dilations,
            pads,
            auto_pad,
            ceil,
        })
    }

    /// The output's spatial sizes for the input's (`inp`, axis `2 + i`).
    fn out(&self, cx: &mut RelCx<'_>, inp: &[Dim]) -> Result<Vec<Dim>, RelError> {
        let n = inp.len();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let d = inp[i];
            let s = self.strides[i];
            let sk = konst(cx, s);
            // The dilated kernel: (k - 1) * d + 1.
            let ek = {
                let dims = &mut cx.tcx().dims;
                let km1 = dims.konst(-1);
                let k1 = dims.add(self.kernel[i], km1).map_err(de(1))?;
                let kd = dims.scale(k1, self.dilations[i]).map_err(de(1))?;
                let one = dims.konst(1);
                dims.add(kd, one).map_err(de(1))?
            };
            let o = match (self.pads.as_ref(), self.auto_pad) {
                (None, AutoPad::Same) => {
                    // ceil(D / s)
                    let dims = &mut cx.tcx().dims;
                    let sm1 = dims.konst(s - 1);
                    let num = dims.add(d, sm1).map_err(de(0))?;
                    dims.floordiv(num, sk).map_err(de(0))?
                }
                (pads, mode) => {
                    let (pb, pe) = match (pads, mode) {
                        (Some(p), _) => (p[i], p[i + n]),
                        _ => (0, 0),
                    };
                    let dims = &mut cx.tcx().dims;
                    let pad = dims.konst(
                        pb.checked_add(pe)
                            .ok_or_else(|| RelError::at(0, "`pads` overflow"))?,
                    );
                    let padded = dims.add(d, pad).map_err(de(0))?;
                    let room = dims.sub(padded, ek).map_err(de(0))?;
                    if let (Some(r), Some(p), Some(k)) = (
                        dims.as_const(room),
                        dims.as_const(padded),
                        dims.as_const(ek),
                    ) {
                        if r < 0 {
                            return Err(RelError::at(
                                0,
                                format!(
                                    "kernel of {k} on axis {} is larger than the padded input ({p})",
                                    i + 2
                                ),
                            ));
                        }
                    }
                    let num = if self.ceil {
                        let sm1 = dims.konst(s - 1);
                        dims.add(room, sm1).map_err(de(0))?
                    } else {
                        room
                    };
                    let q = dims.floordiv(num, sk).map_err(de(0))?;
                    let one = dims.konst(1);
                    let mut o = dims.add(q, one).map_err(de(0))?;
                    if self.ceil {
                        // A last window that would start in the end padding is dropped.
                        if let (Some(oc), Some(dc)) = (dims.as_const(o), dims.as_const(d)) {
                            if (oc - 1).saturating_mul(s) >= dc.saturating_add(pb) {
                                o = dims.konst(oc - 1);
                            }
                        } else {
                            // For a symbolic axis, no window can start there when
                            // `pad_end + stride <= kernel`; else it depends on the size.
                            let safe = dims.as_const(ek).is_some_and(|k| pe.saturating_add(s) <= k);
                            if !safe {
                                o = Dims::ANY;
                            }
                        }
                    }
                    o
                }
            };
            out.push(o);
        }
        Ok(out)
    }
}

/// An error when a computed spatial size `d` (axis `axis` of the result) is a negative
/// constant (0 is an empty result, as ONNX's inference allows).
fn nonneg(cx: &RelCx<'_>, d: Dim, axis: usize) -> Result<(), RelError> {
    match as_const(cx, d) {
        Some(c) if c < 0 => Err(RelError::at(
            0,
            format!(
                "axis {axis} of the result would be {c}: the padding is larger than the output"
            ),
        )),
        _ => Ok(()),
    }
}

/// An error when a size given as a value (argument `arg`, named `what`) has a negative
/// constant.
fn sizes_nonneg(cx: &RelCx<'_>, dims: &[Dim], arg: usize, what: &str) -> Result<(), RelError> {
    for &d in dims {
        if let Some(c) = as_const(cx, d) {
            if c < 0 {
                return Err(RelError::at(
                    arg,
                    format!("`{what}` has {c}, and a size is at least 0"),
                ));
            }
        }
    }
    Ok(())
}

/// `(N, C, D1, ..)`: an error when the input has fewer than 3 axes.
fn spatial_input(cx: &mut RelCx<'_>, dims: &[Dim], what: &str) -> Result<(), RelError> {
    if dims.len() < 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("{what} takes `(N, C, D1, ..)` with at least one spatial axis, and the input is `{t}`"),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Relations
// ---------------------------------------------------------------------------------------

/// `OnnxMatMul(a, b, out)`.
#[relation(OnnxMatMul)]
pub fn onnx_matmul(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 1, None, None, 2)
}

/// `OnnxMatMulInteger(a, b, a_zero_point, b_zero_point, out)`.
#[relation(OnnxMatMulInteger)]
pub fn onnx_matmul_integer(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 1, None, Some(DType::INT32), 4)
}

/// `OnnxQLinearMatMul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
/// y_zero_point, out)`.
#[relation(OnnxQLinearMatMul)]
pub fn onnx_qlinear_matmul(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 3, Some(7), None, 8)
}

/// NumPy's `matmul` of arguments 0 and `bi` into argument `out`, of the dtype `fixed`, or
/// argument `like`'s, or the operands'.
fn matmul(
    cx: &mut RelCx<'_>,
    bi: usize,
    like: Option<usize>,
    fixed: Option<DType>,
    out: usize,
) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(bi)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, d, name) in [(0, &a, "A"), (bi, &b, "B")] {
        if d.is_empty() {
            let t = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("a matrix product does not take a scalar, and `{name}` is `{t}`"),
            ));
        }
    }
    let Some(dt) = result_dtype(cx, adt, bdt, bi, like, fixed)? else {
        return Ok(Progress::NotYet);
    };
    let one = konst(cx, 1);
    let (a2, row) = if a.len() == 1 {
        (vec![one, a[0]], true)
    } else {
        (a.clone(), false)
    };
    let (b2, col) = if b.len() == 1 {
        (vec![b[0], one], true)
    } else {
        (b.clone(), false)
    };
    let (ka, kb) = (a2[a2.len() - 1], b2[b2.len() - 2]);
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (ta, tb) = (shown(cx, 0), shown(cx, bi));
            return Err(RelError::at(
                bi,
                format!(
                    "cannot multiply `{ta}` by `{tb}`: the inner dimensions {x} and {y} differ"
                ),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, bi);
    }
    let mut dims = broadcast(cx, &a2[..a2.len() - 2], &b2[..b2.len() - 2], bi)?;
    if !row {
        dims.push(a2[a2.len() - 2]);
    }
    if !col {
        dims.push(b2[b2.len() - 1]);
    }
    out_tensor(cx, out, &dims, dt)
}

/// `OnnxGemm(a, b, c, out)`.
#[relation(OnnxGemm)]
pub fn onnx_gemm(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, d) in [(0, &a), (1, &b)] {
        if d.len() != 2 {
            let t = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("`Gemm` takes matrices, and operand {i} is `{t}`"),
            ));
        }
    }
    cx.unify_dtype(adt, bdt, 1)?;
    let ta = cx.attrs().int("trans_a")?.unwrap_or(0) != 0;
    let tb = cx.attrs().int("trans_b")?.unwrap_or(0) != 0;
    let (m, ka) = if ta { (a[1], a[0]) } else { (a[0], a[1]) };
    let (kb, n) = if tb { (b[1], b[0]) } else { (b[0], b[1]) };
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (sa, sb) = (shown(cx, 0), shown(cx, 1));
            return Err(RelError::at(
                1,
                format!("cannot multiply `{sa}` by `{sb}` (transA={}, transB={}): the inner dimensions {x} and {y} differ", ta as i32, tb as i32),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, 1);
    }
    if let Some((c, cdt)) = opt_tensor(cx, 2)? {
        cx.unify_dtype(adt, cdt, 2)?;
        // `C` broadcasts to `(M, N)` one way.
        if c.len() > 2 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("`C` is `{t}`, which does not broadcast to a matrix"),
            ));
        }
        let target = [m, n];
        for (j, &cd) in c.iter().enumerate() {
            let t = target[j + 2 - c.len()];
            if let (Some(x), Some(y)) = (as_const(cx, cd), as_const(cx, t)) {
                if x != 1 && x != y {
                    let s = shown(cx, 2);
                    return Err(RelError::at(
                        2,
                        format!(
                            "`C` is `{s}`, which does not broadcast to the result's {} of {y}",
                            if j + 2 - c.len() == 0 {
                                "rows"
                            } else {
                                "columns"
                            }
                        ),
                    ));
                }
            }
        }
    }
    out_tensor(cx, 3, &[m, n], adt)
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
    let wc = cx.tcx().dims.scale(w[1], group).map_err(de(wi))?;
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
    out_tensor(cx, out, &dims, dt)
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
    let m = cx.tcx().dims.scale(w[1], group).map_err(de(1))?;
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
                    dims.scale(d, s).map_err(de(0))?
                } else {
                    let (pb, pe) = win.pads.as_ref().map_or((0, 0), |p| (p[i], p[i + n]));
                    // s * (D - 1) + output_padding + (k - 1) * dilation + 1 - pads
                    let m1 = dims.konst(-1);
                    let dm1 = dims.add(d, m1).map_err(de(0))?;
                    let sd = dims.scale(dm1, s).map_err(de(0))?;
                    let k1 = dims.add(win.kernel[i], m1).map_err(de(1))?;
                    let kd = dims.scale(k1, win.dilations[i]).map_err(de(1))?;
                    let c = 1i64
                        .checked_add(output_padding[i])
                        .and_then(|c| c.checked_sub(pb))
                        .and_then(|c| c.checked_sub(pe))
                        .ok_or_else(|| RelError::at(0, "`pads` overflow"))?;
                    let c = dims.konst(c);
                    let t = dims.add(sd, kd).map_err(de(0))?;
                    dims.add(t, c).map_err(de(0))?
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

/// `OnnxPool(data, out)`.
#[relation(OnnxPool)]
pub fn onnx_pool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "a pool")?;
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
    let fields = out_fields(cx, 1, 2)?;
    set_field(cx, &fields, 1, 0, &out, dt)?;
    set_field(cx, &fields, 1, 1, &out, DTy::Known(DType::INT64))?;
    Ok(Progress::Solved)
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
            out_tensor(cx, 3, &s, dt)
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
                let d1 = dims.add(x[2 + i], m1).map_err(de(0))?;
                let sd = dims.scale(d1, win.strides[i]).map_err(de(0))?;
                let c = k[i]
                    .checked_sub(pb)
                    .and_then(|c| c.checked_sub(pe))
                    .ok_or_else(|| RelError::at(0, "`pads` overflow"))?;
                let c = dims.konst(c);
                let o = dims.add(sd, c).map_err(de(0))?;
                nonneg(cx, o, i + 2)?;
                out.push(o);
            }
            out_tensor(cx, 3, &out, dt)
        }
    }
}

/// `OnnxBatchNorm(data, scale, bias, mean, var, out)`.
#[relation(OnnxBatchNorm)]
pub fn onnx_batch_norm(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, C, ..)`"),
        ));
    }
    for (i, name) in [(1, "scale"), (2, "B"), (3, "input_mean"), (4, "input_var")] {
        if let Some((v, _)) = cx.tensor_dims(i)? {
            if v.len() != 1 {
                let t = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!(
                        "`{name}` is `{t}`, and it must be a vector of the {} channels",
                        cx.show_dim(x[1])
                    ),
                ));
            }
            same_dim(cx, v[0], x[1], i, |a, c| {
                format!("`{name}` has {a} elements for {c} channels")
            })?;
        }
    }
    let fields = out_fields(cx, 5, 5)?;
    set_field(cx, &fields, 5, 0, &x, dt)?;
    if fields.len() > 1 {
        let Some((_, mdt)) = cx.tensor_dims(3)? else {
            return Ok(Progress::NotYet);
        };
        for j in 1..fields.len() {
            set_field(cx, &fields, 5, j, &[x[1]], mdt)?;
        }
    }
    Ok(Progress::Solved)
}

/// `OnnxLayerNorm(data, rest, out)`.
#[relation(OnnxLayerNorm)]
pub fn onnx_layer_norm(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let a = cx.attrs().int("axis")?.unwrap_or(-1);
    let r = x.len();
    let k = super::util::norm_axis(a, r)
        .ok_or_else(|| RelError::at(0, format!("`axis` {a} is out of range for rank {r}")))?;
    scale_fits(cx, 1, &x[k..])?;
    scale_fits(cx, 2, &x[k..])?;
    let fields = out_fields(cx, 3, 3)?;
    set_field(cx, &fields, 3, 0, &x, dt)?;
    if fields.len() > 1 {
        let st = cx.attrs().int("stash_type")?.unwrap_or(1);
        let sdt = match crate::check::onnx_dtype(st as i32) {
            Ok(d) => DTy::Known(d),
            Err(_) => {
                return Err(RelError::at(
                    0,
                    format!("`stash_type` is {st}, which is no float type"),
                ))
            }
        };
        let mut m = x[..k].to_vec();
        let one = konst(cx, 1);
        m.extend(std::iter::repeat_n(one, r - k));
        for j in 1..fields.len() {
            set_field(cx, &fields, 3, j, &m, sdt)?;
        }
    }
    Ok(Progress::Solved)
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

/// The float values of attribute `name` (a list of numbers).
fn float_list(cx: &RelCx<'_>, name: &str) -> Result<Option<Vec<f64>>, RelError> {
    match cx.attrs().get(name) {
        None | Some(AttrValue::None) => Ok(None),
        Some(AttrValue::List(v)) => {
            let mut out = Vec::with_capacity(v.len());
            for x in v {
                match x {
                    AttrValue::Float(f) => out.push(*f),
                    AttrValue::Int(i) => out.push(*i as f64),
                    _ => {
                        return Err(RelError::new(format!(
                            "attribute `{name}` must be a list of numbers"
                        )))
                    }
                }
            }
            Ok(Some(out))
        }
        Some(_) => Err(RelError::new(format!(
            "attribute `{name}` must be a list of numbers"
        ))),
    }
}

/// `D * scale` rounded down, symbolic when `D` is and the scale an integer or the
/// inverse of one; `?` else.
fn scaled(cx: &mut RelCx<'_>, d: Dim, scale: f64) -> Result<Dim, RelError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RelError::at(
            0,
            format!("a scale of {scale}: it must be positive"),
        ));
    }
    if let Some(c) = as_const(cx, d) {
        let v = (c as f64 * scale).floor();
        if v > i64::MAX as f64 / 2.0 {
            return Err(RelError::at(0, format!("scaling {c} by {scale} overflows")));
        }
        return Ok(konst(cx, v as i64));
    }
    if d == Dims::ANY {
        return Ok(Dims::ANY);
    }
    if scale.fract() == 0.0 && scale < (1u64 << 31) as f64 {
        return cx.tcx().dims.scale(d, scale as i64).map_err(de(0));
    }
    let inv = 1.0 / scale;
    if (inv - inv.round()).abs() < 1e-9 && inv < (1u64 << 31) as f64 {
        let k = konst(cx, inv.round() as i64);
        return cx.tcx().dims.floordiv(d, k).map_err(de(0));
    }
    Ok(Dims::ANY)
}

/// `OnnxResize(data, sizes value, out)`.
#[relation(OnnxResize)]
pub fn onnx_resize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = x.len();
    let axes: Vec<usize> = match cx.attrs().ints("axes")? {
        Some(a) if !a.is_empty() => {
            let mut out = Vec::with_capacity(a.len());
            for &v in &a {
                let k = super::util::norm_axis(v, r).ok_or_else(|| {
                    RelError::at(0, format!("axis {v} is out of range for rank {r}"))
                })?;
                if out.contains(&k) {
                    return Err(RelError::at(0, format!("axis {v} is given twice")));
                }
                out.push(k);
            }
            out
        }
        _ => (0..r).collect(),
    };
    let sizes = match value_of(cx, 1)? {
        Val::Known(s) if !s.is_empty() => Some(s),
        // Not known (computed from data): the resized axes are not either.
        Val::Unknown => Some(vec![Dims::ANY; axes.len()]),
        _ => None,
    };
    let mut out = x.clone();
    if let Some(sizes) = sizes {
        if sizes.len() != axes.len() {
            return Err(RelError::at(
                1,
                format!("`sizes` has {} values for {} axes", sizes.len(), axes.len()),
            ));
        }
        sizes_nonneg(cx, &sizes, 1, "sizes")?;
        let policy = cx
            .attrs()
            .str("keep_aspect_ratio_policy")?
            .unwrap_or("stretch")
            .to_string();
        match policy.as_str() {
            "stretch" => {
                for (j, &k) in axes.iter().enumerate() {
                    out[k] = sizes[j];
                }
            }
            "not_larger" | "not_smaller" => {
                let mut scale: Option<f64> = None;
                for (j, &k) in axes.iter().enumerate() {
                    let (Some(s), Some(d)) = (as_const(cx, sizes[j]), as_const(cx, x[k])) else {
                        for &k in &axes {
                            out[k] = Dims::ANY;
                        }
                        return out_tensor(cx, 2, &out, dt);
                    };
                    let f = s as f64 / d as f64;
                    scale = Some(match scale {
                        None => f,
                        Some(p) if policy == "not_larger" => p.min(f),
                        Some(p) => p.max(f),
                    });
                }
                let scale = scale.unwrap_or(1.0);
                for &k in &axes {
                    let d = as_const(cx, x[k]).unwrap_or(0);
                    out[k] = konst(cx, (scale * d as f64).round() as i64);
                }
            }
            other => {
                return Err(RelError::at(
                    0,
                    format!("`keep_aspect_ratio_policy` is \"{other}\"; it is one of stretch, not_larger, not_smaller"),
                ))
            }
        }
        return out_tensor(cx, 2, &out, dt);
    }
    match float_list(cx, "scales")? {
        Some(s) if !s.is_empty() => {
            if s.len() != axes.len() {
                return Err(RelError::at(
                    0,
                    format!("`scales` has {} values for {} axes", s.len(), axes.len()),
                ));
            }
            for (j, &k) in axes.iter().enumerate() {
                // ONNX computes with the float32 scale.
                out[k] = scaled(cx, x[k], s[j] as f32 as f64)?;
            }
        }
        _ => {
            // Neither is known: the rank is.
            for &k in &axes {
                out[k] = Dims::ANY;
            }
        }
    }
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxGridSample(data, grid, out)`.
#[relation(OnnxGridSample)]
pub fn onnx_grid_sample(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((g, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "`GridSample`")?;
    let n = x.len() - 2;
    if g.len() != x.len() {
        let (sx, sg) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("the grid `{sg}` must have the rank of the input `{sx}`"),
        ));
    }
    same_dim(cx, g[0], x[0], 1, |a, b| {
        format!("the grid has a batch of {a}, and the input {b}")
    })?;
    if let Some(c) = as_const(cx, g[n + 1]) {
        if c != n as i64 {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("the grid `{t}` ends with {c}, and it must be {n} for {n} spatial axes"),
            ));
        }
    }
    let mut out = vec![x[0], x[1]];
    out.extend_from_slice(&g[1..=n]);
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxAffineGrid(theta, size value, out)`.
#[relation(OnnxAffineGrid)]
pub fn onnx_affine_grid(cx: &mut RelCx<'_>) -> RelResult {
    let Some((theta, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let size = match value_of(cx, 1)? {
        Val::Known(size) => size,
        // Not known: `theta` `(N, 2, 3)` or `(N, 3, 4)` still gives the rank.
        _ => match theta.get(1).and_then(|&d| as_const(cx, d)) {
            Some(k @ (2 | 3)) if theta.len() == 3 => {
                let mut out = vec![theta[0]];
                out.extend(vec![Dims::ANY; k as usize]);
                out.push(konst(cx, k));
                return out_tensor(cx, 2, &out, dt);
            }
            _ => return Ok(Progress::NotYet),
        },
    };
    if size.len() != 4 && size.len() != 5 {
        return Err(RelError::at(
            1,
            format!(
                "`size` has {} values; it is (N, C, H, W) or (N, C, D, H, W)",
                size.len()
            ),
        ));
    }
    sizes_nonneg(cx, &size, 1, "size")?;
    let mut out = vec![size[0]];
    out.extend_from_slice(&size[2..]);
    let k = konst(cx, size.len() as i64 - 2);
    out.push(k);
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxCol2Im(data, image_shape value, block_shape value, out)`.
#[relation(OnnxCol2Im)]
pub fn onnx_col2im(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let (Val::Known(img), Val::Known(block)) = (value_of(cx, 1)?, value_of(cx, 2)?) else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, C * block, L)`"),
        ));
    }
    if img.len() != block.len() {
        return Err(RelError::at(
            2,
            format!(
                "`block_shape` has {} values, and `image_shape` {}",
                block.len(),
                img.len()
            ),
        ));
    }
    for &b in &block {
        if let Some(c) = as_const(cx, b) {
            if c < 1 {
                return Err(RelError::at(
                    2,
                    format!("`block_shape` has {c}, and a block is at least 1"),
                ));
            }
        }
    }
    let dims = &mut cx.tcx().dims;
    let prod = dims.product(&block).map_err(de(2))?;
    let c = match (dims.as_const(x[1]), dims.as_const(prod)) {
        (Some(a), Some(b)) if b > 0 => {
            if a % b != 0 {
                return Err(RelError::at(
                    2,
                    format!(
                        "the input's {a} channels are not a multiple of the block's {b} elements"
                    ),
                ));
            }
            dims.konst(a / b)
        }
        (_, Some(b)) => dims.exact_div(x[1], b).unwrap_or(Dims::ANY),
        _ => Dims::ANY,
    };
    let mut out = vec![x[0], c];
    sizes_nonneg(cx, &img, 1, "image_shape")?;
    out.extend(img);
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxCenterCropPad(data, shape value, out)`.
#[relation(OnnxCenterCropPad)]
pub fn onnx_center_crop_pad(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let shape = match value_of(cx, 1)? {
        Val::Known(shape) => Some(shape),
        Val::Absent => return Err(RelError::at(1, "`shape` is required")),
        Val::Unknown => None,
    };
    let r = x.len();
    let axes: Vec<usize> = match cx.attrs().ints("axes")? {
        Some(a) => {
            let mut out = Vec::with_capacity(a.len());
            for &v in &a {
                out.push(super::util::norm_axis(v, r).ok_or_else(|| {
                    RelError::at(0, format!("axis {v} is out of range for rank {r}"))
                })?);
            }
            out
        }
        None => (0..r).collect(),
    };
    // Not known: the cropped or padded axes are not either.
    let shape = shape.unwrap_or_else(|| vec![Dims::ANY; axes.len()]);
    if shape.len() != axes.len() {
        return Err(RelError::at(
            1,
            format!("`shape` has {} values for {} axes", shape.len(), axes.len()),
        ));
    }
    sizes_nonneg(cx, &shape, 1, "shape")?;
    let mut out = x;
    for (j, &k) in axes.iter().enumerate() {
        out[k] = shape[j];
    }
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxAttention(q, k, v, mask, past_key, past_value, out)`.
#[relation(OnnxAttention)]
pub fn onnx_attention(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((q, dt)), Some((k, _)), Some((v, vdt))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    let r = q.len();
    if r != 3 && r != 4 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`Q` is `{t}`, and it must be of rank 3 or 4"),
        ));
    }
    for (i, d) in [(1, &k), (2, &v)] {
        if d.len() != r {
            let (sq, s) = (shown(cx, 0), shown(cx, i));
            return Err(RelError::at(
                i,
                format!("`{s}` must have the rank of `Q` (`{sq}`)"),
            ));
        }
    }
    let fields = out_fields(cx, 7, 4)?;
    // (B, heads, S, head) views of K and V, and the number of query heads.
    let (kv_heads, kv_seq, k_head, v_head, q_heads, q_seq) = if r == 4 {
        (k[1], k[2], k[3], v[3], q[1], q[2])
    } else {
        let qh = cx.attrs().int("q_num_heads")?;
        let kh = cx.attrs().int("kv_num_heads")?;
        let (Some(qh), Some(kh)) = (qh, kh) else {
            return Err(RelError::at(
                0,
                "3-D inputs need `q_num_heads` and `kv_num_heads`",
            ));
        };
        if qh < 1 || kh < 1 {
            return Err(RelError::at(
                0,
                format!("`q_num_heads` is {qh} and `kv_num_heads` {kh}; each is at least 1"),
            ));
        }
        let dims = &mut cx.tcx().dims;
        let kh_ = dims.konst(kh);
        let qh_ = dims.konst(qh);
        let kd = dims.exact_div(k[2], kh).unwrap_or(Dims::ANY);
        let vd = dims.exact_div(v[2], kh).unwrap_or(Dims::ANY);
        (kh_, k[1], kd, vd, qh_, q[1])
    };
    // The batch, the sequence of K and V, the heads and the Q/K head size agree.
    for (i, d, name) in [(1, &k, "K"), (2, &v, "V")] {
        same_dim(cx, d[0], q[0], i, |a, b| {
            format!("`{name}` has a batch of {a}, and `Q` of {b}")
        })?;
    }
    let v_seq = if r == 4 { v[2] } else { v[1] };
    same_dim(cx, v_seq, kv_seq, 2, |a, b| {
        format!("`V` has a sequence of {a}, and `K` of {b}")
    })?;
    if let (Some(qh), Some(kh)) = (as_const(cx, q_heads), as_const(cx, kv_heads)) {
        if kh < 1 || qh % kh != 0 {
            return Err(RelError::at(
                1,
                format!("{qh} query heads are not a multiple of {kh} key and value heads"),
            ));
        }
    }
    let q_head = if r == 4 {
        q[3]
    } else {
        let qh = as_const(cx, q_heads).unwrap_or(1);
        cx.tcx().dims.exact_div(q[2], qh).unwrap_or(Dims::ANY)
    };
    if q_head != Dims::ANY && k_head != Dims::ANY {
        same_dim(cx, k_head, q_head, 1, |a, b| {
            format!("`K`'s head size is {a}, and `Q`'s is {b}")
        })?;
    }
    // The past and present caches.
    let total = match opt_tensor(cx, 4)? {
        Some((pk, _)) => {
            if pk.len() != 4 {
                let t = shown(cx, 4);
                return Err(RelError::at(
                    4,
                    format!("`past_key` is `{t}`, and it must be of rank 4"),
                ));
            }
            cx.tcx().dims.add(pk[2], kv_seq).map_err(de(4))?
        }
        None => {
            if !is_absent(cx, 4) {
                return Ok(Progress::NotYet);
            }
            kv_seq
        }
    };
    // The mask broadcasts to the scores `(B, q_heads, S, total)`; its last axis may be
    // shorter than `total` (padded).
    if let Some((m, _)) = opt_tensor(cx, 3)? {
        let scores = [q[0], q_heads, q_seq, total];
        let bad = m.len() > 4
            || m.iter()
                .rev()
                .zip(scores.iter().rev())
                .enumerate()
                .any(|(j, (&a, &b))| match (as_const(cx, a), as_const(cx, b)) {
                    (Some(x), Some(y)) if j == 0 => x > y,
                    (Some(x), Some(y)) => x != 1 && x != y,
                    _ => false,
                });
        if bad {
            let t = shown(cx, 3);
            let want: Vec<String> = scores.iter().map(|&d| cx.show_dim(d)).collect();
            return Err(RelError::at(
                3,
                format!(
                    "the mask `{t}` does not broadcast to the scores ({})",
                    want.join(", ")
                ),
            ));
        }
    }
    let y = if r == 4 {
        vec![q[0], q_heads, q_seq, v_head]
    } else {
        let h = cx.tcx().dims.mul(q_heads, v_head).map_err(de(2))?;
        vec![q[0], q_seq, h]
    };
    set_field(cx, &fields, 7, 0, &y, dt)?;
    let kd = if r == 4 { k[3] } else { k_head };
    set_field(cx, &fields, 7, 1, &[q[0], kv_heads, total, kd], dt)?;
    set_field(cx, &fields, 7, 2, &[q[0], kv_heads, total, v_head], vdt)?;
    set_field(cx, &fields, 7, 3, &[q[0], q_heads, q_seq, total], dt)?;
    Ok(Progress::Solved)
}

/// `OnnxCausalConv(data, weight, bias, past_state, out)`.
#[relation(OnnxCausalConv)]
pub fn onnx_causal_conv(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((w, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, d, what) in [(0, &x, "`(B, C, L)`"), (1, &w, "`(C, 1, k)`")] {
        if d.len() != 3 {
            let t = shown(cx, i);
            return Err(RelError::at(i, format!("`{t}` must be {what}")));
        }
    }
    cx.unify_dtype(dt, wdt, 1)?;
    same_dim(cx, w[0], x[1], 1, |a, c| {
        format!("the weight has {a} channels, and the input {c}")
    })?;
    if let Some(c) = as_const(cx, w[1]) {
        if c != 1 {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("the weight `{t}` of a depthwise convolution has 1 on axis 1"),
            ));
        }
    }
    if let Some((b, _)) = opt_tensor(cx, 2)? {
        if b.len() != 1 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("the bias is `{t}`, and it must be a vector"),
            ));
        }
        same_dim(cx, b[0], x[1], 2, |a, c| {
            format!("the bias has {a} elements for {c} channels")
        })?;
    }
    let state = {
        let dims = &mut cx.tcx().dims;
        let m1 = dims.konst(-1);
        let k1 = dims.add(w[2], m1).map_err(de(1))?;
        vec![x[0], x[1], k1]
    };
    if let Some((s, _)) = opt_tensor(cx, 3)? {
        if s.len() != 3 {
            let t = shown(cx, 3);
            return Err(RelError::at(
                3,
                format!("`past_state` is `{t}`, and it must be `(B, C, k - 1)`"),
            ));
        }
        for j in 0..3 {
            same_dim(cx, s[j], state[j], 3, |a, b| {
                format!("`past_state` has {a} on axis {j}, and it must be {b}")
            })?;
        }
    }
    let fields = out_fields(cx, 4, 2)?;
    set_field(cx, &fields, 4, 0, &x, dt)?;
    set_field(cx, &fields, 4, 1, &state, dt)?;
    Ok(Progress::Solved)
}

/// `OnnxLinearAttention(query, key, value, past_state, out)`.
#[relation(OnnxLinearAttention)]
pub fn onnx_linear_attention(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((q, dt)), Some((k, _)), Some((v, _))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    for (i, d) in [(0, &q), (1, &k), (2, &v)] {
        if d.len() != 3 {
            let t = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("`{t}` must be of rank 3 `(B, T, heads * size)`"),
            ));
        }
    }
    let qh = cx.attrs().int("q_num_heads")?.unwrap_or(0);
    let kh = cx.attrs().int("kv_num_heads")?.unwrap_or(0);
    if qh < 1 || kh < 1 || qh % kh != 0 {
        return Err(RelError::at(
            0,
            format!("`q_num_heads` is {qh} and `kv_num_heads` {kh}: each is at least 1, and the first a multiple of the second"),
        ));
    }
    let dims = &mut cx.tcx().dims;
    let dk = dims.exact_div(k[2], kh).unwrap_or(Dims::ANY);
    let dv = dims.exact_div(v[2], kh).unwrap_or(Dims::ANY);
    let y = if dv == Dims::ANY {
        Dims::ANY
    } else {
        dims.scale(dv, qh).map_err(de(2))?
    };
    let hk = dims.konst(kh);
    let sdt = match opt_tensor(cx, 3)? {
        Some((_, s)) => s,
        None => dt,
    };
    let fields = out_fields(cx, 6, 2)?;
    set_field(cx, &fields, 6, 0, &[q[0], q[1], y], dt)?;
    set_field(cx, &fields, 6, 1, &[q[0], hk, dk, dv], sdt)?;
    Ok(Progress::Solved)
}

/// `OnnxRotary(data, cos_cache, sin_cache, position_ids, out)`.
#[relation(OnnxRotary)]
pub fn onnx_rotary(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((c, _)), Some((s, _))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    // The head size.
    let head = match x.len() {
        4 => x[3],
        3 => {
            let Some(h) = cx.attrs().int("num_heads")? else {
                return Err(RelError::at(0, "a 3-D input needs `num_heads`"));
            };
            if h < 1 {
                return Err(RelError::at(
                    0,
                    format!("`num_heads` is {h}, and it is at least 1"),
                ));
            }
            cx.tcx().dims.exact_div(x[2], h).unwrap_or(Dims::ANY)
        }
        _ => {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input is `{t}`, and it must be of rank 3 or 4"),
            ));
        }
    };
    if c.len() != s.len() {
        let (tc, ts) = (shown(cx, 1), shown(cx, 2));
        return Err(RelError::at(
            2,
            format!("`sin_cache` is `{ts}`, and `cos_cache` `{tc}`: they have one shape"),
        ));
    }
    for (&a, &b) in c.iter().zip(&s) {
        same_dim(cx, b, a, 2, |p, q| {
            format!("`sin_cache` has {p} where `cos_cache` has {q}")
        })?;
    }
    // The caches' last axis is half the rotated size.
    let rot = cx.attrs().int("rotary_embedding_dim")?.unwrap_or(0);
    let rotated = if rot > 0 { konst(cx, rot) } else { head };
    if let (Some(half), Some(r)) = (
        c.last().and_then(|&d| as_const(cx, d)),
        as_const(cx, rotated),
    ) {
        if half.checked_mul(2) != Some(r) {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("`cos_cache` is `{t}`; its last axis is half the {r} rotated elements"),
            ));
        }
    }
    out_tensor(cx, 4, &x, dt)
}

/// `OnnxRnn(x, w, r, b, sequence_lens, initial_h, out)`.
#[relation(OnnxRnn)]
pub fn onnx_rnn(cx: &mut RelCx<'_>) -> RelResult {
    let gates = cx.attrs().int("gates")?.unwrap_or(1);
    recurrent(cx, gates, &[5], None, 6)
}

/// `OnnxLstm(x, w, r, b, sequence_lens, initial_h, initial_c, p, out)`.
#[relation(OnnxLstm)]
pub fn onnx_lstm(cx: &mut RelCx<'_>) -> RelResult {
    recurrent(cx, 4, &[5, 6], Some(7), 8)
}

/// A recurrent layer of `gates` gates: arguments 0 to 4 are `X`, `W`, `R`, `B` and
/// `sequence_lens`, `states` the initial states, `peepholes` LSTM's `P`; the outputs are
/// `Y` and one last state per initial one.
fn recurrent(
    cx: &mut RelCx<'_>,
    gates: i64,
    states: &[usize],
    peepholes: Option<usize>,
    out: usize,
) -> RelResult {
    let (Some((x, dt)), Some((w, wdt)), Some((r, rdt))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    for (i, d, what) in [
        (0, &x, "`X` `(seq_length, batch_size, input_size)`"),
        (
            1,
            &w,
            "`W` `(num_directions, gates * hidden_size, input_size)`",
        ),
        (
            2,
            &r,
            "`R` `(num_directions, gates * hidden_size, hidden_size)`",
        ),
    ] {
        if d.len() != 3 {
            let t = shown(cx, i);
            return Err(RelError::at(i, format!("`{t}` must be {what}")));
        }
    }
    cx.unify_dtype(dt, wdt, 1)?;
    cx.unify_dtype(dt, rdt, 2)?;
    let layout = cx.attrs().int("layout")?.unwrap_or(0);
    let (seq, batch, input) = match layout {
        0 => (x[0], x[1], x[2]),
        1 => (x[1], x[0], x[2]),
        l => return Err(RelError::at(0, format!("`layout` is {l}; it is 0 or 1"))),
    };
    let dirs = match cx.attrs().str("direction")?.unwrap_or("forward") {
        "forward" | "reverse" => 1,
        "bidirectional" => 2,
        other => {
            return Err(RelError::at(
                0,
                format!("`direction` is \"{other}\"; it is forward, reverse or bidirectional"),
            ))
        }
    };
    let d = konst(cx, dirs);
    // The hidden size: the attribute, or `R`'s last axis.
    let hidden = match cx.attrs().int("hidden_size")? {
        Some(h) if h < 1 => {
            return Err(RelError::at(
                0,
                format!("`hidden_size` is {h}, and it is at least 1"),
            ))
        }
        Some(h) => konst(cx, h),
        None => r[2],
    };
    let gh = cx.tcx().dims.scale(hidden, gates).map_err(de(1))?;
    for (i, dims) in [(1, &w), (2, &r)] {
        let name = if i == 1 { "W" } else { "R" };
        same_dim(cx, dims[0], d, i, |a, b| {
            format!("`{name}` has {a} directions, and `direction` makes {b}")
        })?;
        same_dim(cx, dims[1], gh, i, |a, b| {
            format!("`{name}` has {a} rows, and {gates} gates of the hidden size make {b}")
        })?;
    }
    same_dim(cx, w[2], input, 1, |a, b| {
        format!("`W` takes inputs of {a}, and `X`'s are {b}")
    })?;
    same_dim(cx, r[2], hidden, 2, |a, b| {
        format!("`R` takes a hidden state of {a}, and the hidden size is {b}")
    })?;
    let state = if layout == 0 {
        vec![d, batch, hidden]
    } else {
        vec![batch, d, hidden]
    };
    for &i in states {
        if let Some((h, _)) = opt_tensor(cx, i)? {
            if h.len() != 3 {
                let t = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!("an initial state `{t}` must be of rank 3"),
                ));
            }
            for j in 0..3 {
                same_dim(cx, h[j], state[j], i, |a, b| {
                    format!("an initial state has {a} on axis {j}, and it must be {b}")
                })?;
            }
        }
    }
    let mut vectors = vec![(3, 2 * gates)];
    vectors.extend(peepholes.map(|p| (p, 3)));
    for (i, k) in vectors {
        if let Some((b, _)) = opt_tensor(cx, i)? {
            let want = cx.tcx().dims.scale(hidden, k).map_err(de(i))?;
            if b.len() != 2 {
                let t = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!("`{t}` must be `(num_directions, {k} * hidden_size)`"),
                ));
            }
            same_dim(cx, b[0], d, i, |a, c| {
                format!(
                    "`{}` has {a} directions, and `direction` makes {c}",
                    shown_name(i)
                )
            })?;
            same_dim(cx, b[1], want, i, |a, c| {
                format!("`{}` has {a} columns, and it must be {c}", shown_name(i))
            })?;
        }
    }
    let y = if layout == 0 {
        vec![seq, d, batch, hidden]
    } else {
        vec![batch, seq, d, hidden]
    };
    let fields = out_fields(cx, out, 1 + states.len())?;
    set_field(cx, &fields, out, 0, &y, dt)?;
    for j in 0..states.len() {
        set_field(cx, &fields, out, 1 + j, &state, dt)?;
    }
    Ok(Progress::Solved)
}

/// The name of a recurrent layer's vector input by its argument.
fn shown_name(i: usize) -> &'static str {
    if i == 3 {
        "B"
    } else {
        "P"
    }
}

/// `OnnxNorm(data, scale, bias, out)`.
#[relation(OnnxNorm)]
pub fn onnx_norm(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = x.len();
    // The axes `scale` and `bias` describe.
    let tail: Vec<Dim> = if cx.attrs().int("channels")?.unwrap_or(0) != 0 {
        if r < 2 {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input is `{t}`, and it must be `(N, C, ..)`"),
            ));
        }
        let g = cx.attrs().int("num_groups")?.unwrap_or(0);
        if g != 0 {
            if g < 1 {
                return Err(RelError::at(
                    0,
                    format!("`num_groups` is {g}, and it is at least 1"),
                ));
            }
            if let Some(c) = as_const(cx, x[1]) {
                if c % g != 0 {
                    return Err(RelError::at(
                        0,
                        format!(
                            "the input's {c} channels are not a multiple of `num_groups` ({g})"
                        ),
                    ));
                }
            }
        }
        if g > 0 && cx.attrs().int("per_group")?.unwrap_or(0) != 0 {
            vec![konst(cx, g)]
        } else {
            vec![x[1]]
        }
    } else {
        let a = cx.attrs().int("axis")?.unwrap_or(-1);
        let k = super::util::norm_axis(a, r)
            .ok_or_else(|| RelError::at(0, format!("`axis` {a} is out of range for rank {r}")))?;
        x[k..].to_vec()
    };
    for i in 1..3 {
        scale_fits(cx, i, &tail)?;
    }
    out_tensor(cx, 3, &x, dt)
}

/// An error when argument `i` (a scale or bias, if given) does not broadcast to the
/// normalized axes `tail`.
fn scale_fits(cx: &mut RelCx<'_>, i: usize, tail: &[Dim]) -> Result<(), RelError> {
    let Some((s, _)) = opt_tensor(cx, i)? else {
        return Ok(());
    };
    let bad = s.len() > tail.len()
        || s.iter().zip(&tail[tail.len() - s.len()..]).any(|(&a, &b)| {
            matches!((as_const(cx, a), as_const(cx, b)), (Some(p), Some(q)) if p != 1 && p != q)
        });
    if bad {
        let t = shown(cx, i);
        let want = tail
            .iter()
            .map(|&d| cx.show_dim(d))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(RelError::at(
            i,
            format!("`{t}` does not broadcast to the normalized axes ({want})"),
        ));
    }
    Ok(())
}

onnx_ops! {
    "" MatMul since 1 => "onnx.matmul"(In(0), In(1));
    "" MatMulInteger since 10 => "onnx.matmul_integer"(In(0), In(1), Opt(2), Opt(3));
    "" QLinearMatMul since 10 => "onnx.qlinear_matmul"(In(0), In(1), In(2), In(3), In(4), In(5), In(6), In(7));
    "" Gemm since 7 => "onnx.gemm"(In(0), In(1), Opt(2)) { trans_a: Attr("transA"), trans_b: Attr("transB") };

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

    "" MaxPool since 1 => "onnx.pool"(In(0)) {
        kernel_shape: Attr("kernel_shape"), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
        strides: Attr("strides"), dilations: Attr("dilations"), ceil_mode: Attr("ceil_mode")
    } -> Each;
    "" AveragePool since 1 => "onnx.pool"(In(0)) {
        kernel_shape: Attr("kernel_shape"), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
        strides: Attr("strides"), dilations: Attr("dilations"), ceil_mode: Attr("ceil_mode")
    };
    "" LpPool since 1 => "onnx.pool"(In(0)) {
        kernel_shape: Attr("kernel_shape"), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
        strides: Attr("strides"), dilations: Attr("dilations"), ceil_mode: Attr("ceil_mode")
    };
    "" GlobalAveragePool since 1 => "onnx.pool"(In(0)) { global: Const(AttrConst::Int(1)) };
    "" GlobalMaxPool since 1 => "onnx.pool"(In(0)) { global: Const(AttrConst::Int(1)) };
    "" GlobalLpPool since 1 => "onnx.pool"(In(0)) { global: Const(AttrConst::Int(1)) };
    "" MaxRoiPool since 1 => "onnx.roi_pool"(In(0), In(1)) { pooled_shape: Attr("pooled_shape") };
    "" RoiAlign since 10 => "onnx.roi_align"(In(0), In(1), In(2)) { pooled_shape: With(roi_align_shape) };
    "" MaxUnpool since 9 => "onnx.max_unpool"(In(0), In(1), Value(2)) {
        kernel_shape: Attr("kernel_shape"), pads: Attr("pads"), strides: Attr("strides")
    };

    "" BatchNormalization since 7 => "onnx.batch_norm"(In(0), In(1), In(2), In(3), In(4)) -> Each;
    "" InstanceNormalization since 6 => "onnx.norm"(In(0), In(1), In(2)) { channels: Const(AttrConst::Int(1)) };
    "" LayerNormalization since 17 => "onnx.layer_norm"(In(0), In(1), Opt(2)) {
        axis: Attr("axis"), stash_type: Attr("stash_type")
    } -> Each;
    "" GroupNormalization since 18 => "onnx.norm"(In(0), In(1), In(2)) {
        channels: Const(AttrConst::Int(1)), num_groups: Attr("num_groups"), per_group: Const(AttrConst::Int(1))
    };
    "" GroupNormalization since 21 => "onnx.norm"(In(0), In(1), In(2)) {
        channels: Const(AttrConst::Int(1)), num_groups: Attr("num_groups")
    };
    "" RMSNormalization since 23 => "onnx.norm"(In(0), In(1), In(1)) { axis: Attr("axis") };
    "" LRN since 1 => "nn.lrn"(In(0)) { size: Attr("size"), alpha: AttrOr("alpha", AttrConst::Float(0.0001)), beta: AttrOr("beta", AttrConst::Float(0.75)), bias: AttrOr("bias", AttrConst::Float(1.0)) };

    "" Softmax since 1 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" Softmax since 13 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };
    "" LogSoftmax since 1 => "nn.log_softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" LogSoftmax since 13 => "nn.log_softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };
    "" Hardmax since 1 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(1)) };
    "" Hardmax since 13 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };

    "" Dropout since 7 => "onnx.dropout"(In(0), Opt(1), Opt(2)) -> Each;
    "" Dropout since 10 => "onnx.dropout"(In(0), Opt(1), Opt(2)) { mask_dtype: Const(AttrConst::DType("bool")) } -> Each;

    "" Upsample since 7 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Attr("scales") };
    "" Upsample since 9 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Floats(1) };
    "" Resize since 10 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Floats(1) };
    "" Resize since 11 => "onnx.resize"(In(0), Value(3)) { scales: Floats(2) };
    "" Resize since 18 => "onnx.resize"(In(0), Value(3)) {
        scales: Floats(2), axes: Attr("axes"), keep_aspect_ratio_policy: Attr("keep_aspect_ratio_policy")
    };

    "" DepthToSpace since 1 => "nn.depth_to_space"(In(0)) { block_size: Attr("blocksize"), mode: AttrOr("mode", AttrConst::Str("DCR")) };
    "" SpaceToDepth since 1 => "nn.space_to_depth"(In(0)) { block_size: Attr("blocksize") };
    "" GridSample since 16 => "onnx.grid_sample"(In(0), In(1));
    "" AffineGrid since 20 => "onnx.affine_grid"(In(0), Value(1));
    "" Col2Im since 18 => "onnx.col2im"(In(0), Value(1), Value(2));
    "" CenterCropPad since 18 => "onnx.center_crop_pad"(In(0), Value(1)) { axes: Attr("axes") };
    "" Attention since 23 => "onnx.attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6)) {
        q_num_heads: Attr("q_num_heads"), kv_num_heads: Attr("kv_num_heads")
    } -> Each;
    /// `FlexAttention` (a preview): `Attention`'s 4-D shapes (its score and probability
    /// modifiers keep them).
    "ai.onnx.preview" FlexAttention since 1 => "onnx.attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6)) -> Each;
    "" RotaryEmbedding since 23 => "onnx.rotary"(In(0), In(1), In(2), Opt(3)) {
        num_heads: Attr("num_heads"), rotary_embedding_dim: Attr("rotary_embedding_dim")
    };
    "" RNN since 7 => "onnx.rnn"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "" GRU since 7 => "onnx.rnn"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        gates: Const(AttrConst::Int(3)), hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "" LSTM since 7 => "onnx.lstm"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6), Opt(7)) {
        hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "" CausalConvWithState since 27 => "onnx.causal_conv"(In(0), In(1), Opt(2), Opt(3)) -> Each;
    "" LinearAttention since 27 => "onnx.linear_attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        q_num_heads: Attr("q_num_heads"), kv_num_heads: Attr("kv_num_heads")
    } -> Each;
}
