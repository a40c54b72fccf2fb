//! onnxruntime's contrib operators (domain `com.microsoft`): the fused activations
//! (`Gelu`, `FastGelu`, `BiasGelu`, `QuickGelu`, `BiasAdd`, `BiasSoftmax`,
//! `BiasSplitGelu`), the fused normalizations (`SkipLayerNormalization` and its simplified
//! form, `SimplifiedLayerNormalization`, `EmbedLayerNormalization`, `GroupNorm`,
//! `SkipGroupNorm`), the attentions (`Attention`, `QAttention`, `MultiHeadAttention`,
//! `GroupQueryAttention`, `RotaryEmbedding`), the fused products (`MatMulNBits`,
//! `FusedMatMul`, `FusedConv`, `FusedGemm`, `GemmFastGelu`) and the quantized operators
//! (`QLinearAdd`, `QLinearConcat`, `QLinearConv`, `DynamicQuantizeMatMul`, ..).
//!
//! Where onnxruntime's semantics are an ONNX operator's, the mapping names the `onnx.`
//! operator (`FusedGemm` is `onnx.gemm`, `QLinearAdd` is `onnx.binary` of its two
//! operands), or the `ort.` relation runs the ONNX one on some of its arguments
//! ([`RelCx::run_on`]), so a meaning is written once. The shapes are onnxruntime's at
//! run time (its CPU kernels), which its own static inference sometimes leaves unknown.

use super::nn::{as_const, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::elementwise::OnnxBinary;
use crate::ops::nn::attention::OnnxRotary;
use crate::ops::nn::conv::OnnxConv;
use crate::ops::nn::matmul::{OnnxMatMul, OnnxQLinearMatMul};
use crate::ops::nn::pool::OnnxPool;
use crate::ops::util::{arith, broadcast, out_tensor, shown, value_of, Val};
use crate::ops::AttrFnError;
use relay_core::op::AttrConst;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult,
    Relation,
};

relay_op! {
    /// onnxruntime's `FastGelu` and `BiasGelu`: an activation of `data` plus an
    /// optional `bias`, a vector of `data`'s last axis; the result is `data`'s type.
    ort.bias_activation : fn<x, b, y>(data: x, bias: b) -> y where OrtBiasActivation,
        level 10;

    /// onnxruntime's `BiasAdd`: `data` `(N, S, C)` plus a `bias` `(C)` plus a `skip`
    /// of `data`'s shape; the result is `data`'s type.
    ort.bias_add : fn<x, b, s, y>(data: x, bias: b, skip: s) -> y where OrtBiasAdd,
        level 10;

    /// onnxruntime's `BiasSoftmax`: the softmax of `data` plus a `bias` that
    /// broadcasts to it; the result is `data`'s type.
    ort.bias_softmax : fn<x, b, y>(data: x, bias: b) -> y where OrtBiasSoftmax,
        level 10;

    /// onnxruntime's `SkipLayerNormalization`: `input` `(B, S, H)` or `(T, H)` plus
    /// `skip` (its shape, or without the batch), normalized by `gamma`, `beta` and `bias`
    /// vectors of `H`. The outputs are the result (`input`'s type), the float32 mean and
    /// inverse standard deviation (`input`'s axes with 1 for the last), and the sum.
    ort.skip_layer_norm : fn<x, s, g, b, c, y>(input: x, skip: s, gamma: g, beta: b, bias: c) -> y where OrtSkipLayerNorm,
        level 10;

    /// onnxruntime's `SkipSimplifiedLayerNormalization`: `ort.skip_layer_norm` without
    /// `beta`.
    ort.skip_simplified_layer_norm : fn<x, s, g, c, y>(input: x, skip: s, gamma: g, bias: c) -> y where OrtSkipSimplifiedLayerNorm,
        level 10;

    /// onnxruntime's `EmbedLayerNormalization`: int32 `input_ids` `(B, S)` look up
    /// `word_embedding` `(V, H)`, plus `position_embedding` `(P, H)` and the optional
    /// `segment_embedding`, normalized by `gamma` and `beta` `(H)`. The outputs are the
    /// result `(B, S, H)`, the int32 `mask_index` `(B)` and the sum `(B, S, H)`.
    ort.embed_layer_norm : fn<i, s, w, p, e, g, b, m, q, y>(input_ids: i, segment_ids: s, word_embedding: w, position_embedding: p, segment_embedding: e, gamma: g, beta: b, mask: m, position_ids: q) -> y where OrtEmbedLayerNorm,
        level 10;

    /// onnxruntime's `Attention`: `input` `(B, S, I)` projected by `weights`
    /// `(I, Dq + Dk + Dv)` (the sizes from `qkv_hidden_sizes`, else three equal ones)
    /// and `bias` `(Dq + Dk + Dv)` into `num_heads` heads. The outputs are `(B, S, Dv)`
    /// and `present` `(2, B, num_heads, P + S, Dk / num_heads)` after a `past` of `P`
    /// (with `past_present_share_buffer`, `past`'s shape).
    ort.attention : fn<x, w, b, m, p, a, l, y>(input: x, weights: w, bias: b, mask_index: m, past: p, attention_bias: a, past_sequence_length: l) -> y where OrtAttention,
        attrs { num_heads: int, qkv_hidden_sizes: Option<[int]> = None, past_present_share_buffer: int = 0 },
        level 10;

    /// onnxruntime's `QAttention`: `ort.attention` of an integer `input` and `weight`
    /// (with their scales and zero points), of the float `bias`'s dtype.
    ort.qattention : fn<x, w, b, xs, ws, m, xz, wz, p, y>(input: x, weight: w, bias: b, input_scale: xs, weight_scale: ws, mask_index: m, input_zero_point: xz, weight_zero_point: wz, past: p) -> y where OrtQAttention,
        attrs { num_heads: int, qkv_hidden_sizes: Option<[int]> = None, past_present_share_buffer: int = 0 },
        level 10;

    /// onnxruntime's `BiasSplitGelu`: `data` `(N, S, D)` plus `bias` `(D)`, split in two
    /// halves on the last axis; the result is `(N, S, D / 2)`.
    ort.bias_split_gelu : fn<x, b, y>(data: x, bias: b) -> y where OrtBiasSplitGelu,
        level 10;

    /// onnxruntime's `GroupNorm` and `SkipGroupNorm`: `data` `(N, H, W, C)` (or
    /// `(N, C, H, W)` without `channels_last`) in `groups` groups of channels, with
    /// `gamma` and `beta` `(C)` and an optional `skip` and `bias`; the results (the
    /// normalized sum, and `SkipGroupNorm`'s sum) are `data`'s type.
    ort.group_norm : fn<x, g, b, s, c, y>(data: x, gamma: g, beta: b, skip: s, bias: c) -> y where OrtGroupNorm,
        attrs { groups: int, channels_last: int = 1 },
        level 10;

    /// onnxruntime's `MultiHeadAttention`: `query` `(B, S, D)` with `key` and `value`
    /// `(B, L, Dk)` and `(B, L, Dv)`, or already split into heads `(B, N, L, head)`, or
    /// packed (`query` `(B, S, N, 3, head)`, `key` `(B, L, N, 2, head)`). The outputs are
    /// `(B, S, Dv)` and the present key and value `(B, N, P + L, head)`.
    ort.multi_head_attention : fn<q, k, v, b, m, a, pk, pv, l, c, y>(query: q, key: k, value: v, bias: b, key_padding_mask: m, attention_bias: a, past_key: pk, past_value: pv, past_sequence_length: l, cache_indirection: c) -> y where OrtMultiHeadAttention,
        attrs { num_heads: int },
        level 10;

    /// onnxruntime's `GroupQueryAttention`: `query` `(B, S, N * head)` with `key` and
    /// `value` `(B, S, kv_num_heads * head)` (or all three packed in `query`). The
    /// outputs are `(B, S, N * head)` and the present key and value
    /// `(B, kv_num_heads, T, head)` where `T` is the larger of the past's length and the
    /// value of `total_sequence_length`, and the scores `(B, N, S, total_sequence_length)`.
    ort.group_query_attention : fn<q, k, v, pk, pv, sk, t, c, s, p, a, h, ks, vs, qn, kn, qs, y>(query: q, key: k, value: v, past_key: pk, past_value: pv, seqlens_k: sk, total_sequence_length: t, cos_cache: c, sin_cache: s, position_ids: p, attention_bias: a, head_sink: h, k_scale: ks, v_scale: vs, q_norm_weight: qn, k_norm_weight: kn, query_seqlens: qs) -> y where OrtGroupQueryAttention,
        attrs { num_heads: int, kv_num_heads: int },
        level 10;

    /// onnxruntime's `RotaryEmbedding`: `onnx.rotary` with the position ids second; a
    /// 3-D input without `num_heads` rotates heads of the caches' size.
    ort.rotary : fn<x, p, c, s, y>(input: x, position_ids: p, cos_cache: c, sin_cache: s) -> y where OrtRotary,
        attrs { num_heads: Option<int> = None, rotary_embedding_dim: int = 0 },
        level 10;

    /// onnxruntime's `MatMulNBits`: `A` `(.., K)` times a `(K, N)` matrix of `bits`-bit
    /// integers stored as `B` `(N, ceil(K / block_size), block_size * bits / 8)` bytes,
    /// with `scales` per block; the result is `(.., N)` of `A`'s dtype.
    ort.matmul_nbits : fn<a, b, s, z, g, c, y>(a: a, b: b, scales: s, zero_points: z, g_idx: g, bias: c) -> y where OrtMatMulNBits,
        attrs { k: int, n: int, bits: int = 4, block_size: int },
        level 10;

    /// onnxruntime's `FusedMatMul`: NumPy's `matmul` after moving each operand's first
    /// axis behind its batch axes (`transBatchA`, `transBatchB`) and swapping its last
    /// two (`transA`, `transB`).
    ort.fused_matmul : fn<a, b, y>(a: a, b: b) -> y where OrtFusedMatMul,
        attrs { trans_a: int = 0, trans_b: int = 0, trans_batch_a: int = 0, trans_batch_b: int = 0 },
        level 10;

    /// onnxruntime's `FusedConv`: `onnx.conv` (then an activation), plus an optional
    /// `Z` of the result's type.
    ort.fused_conv : fn<x, w, b, z, y>(data: x, weight: w, bias: b, sum: z) -> y where OrtFusedConv,
        attrs {
            auto_pad: str = "NOTSET",
            pads: Option<[int]> = None,
            strides: Option<[int]> = None,
            dilations: Option<[int]> = None,
            group: int = 1,
            kernel_shape: Option<[int]> = None
        },
        level 10;

    /// onnxruntime's `DynamicQuantizeMatMul`: `onnx.matmul`'s shapes of a float `a` and
    /// an integer `b`, of `a`'s dtype, plus an optional `bias` vector of the result's
    /// last axis.
    ort.dynamic_quantize_matmul : fn<a, b, s, z, c, y>(a: a, b: b, b_scale: s, b_zero_point: z, bias: c) -> y where OrtDynamicQuantizeMatMul,
        level 10;

    /// onnxruntime's `GemmFastGelu`: `onnx.matmul` of `x` and `w` (one dtype) plus an
    /// optional `bias` vector of the result's last axis.
    ort.gemm_fast_gelu : fn<x, w, b, y>(x: x, w: w, bias: b) -> y where OrtGemmFastGelu,
        level 10;

    /// onnxruntime's `MatMulIntegerToFloat`: `onnx.matmul`'s shapes of integers `a` and
    /// `b`, of the scales' dtype, plus an optional `bias` vector of the result's last
    /// axis.
    ort.matmul_integer_to_float : fn<a, b, as_, bs, az, bz, c, y>(a: a, b: b, a_scale: as_, b_scale: bs, a_zero_point: az, b_zero_point: bz, bias: c) -> y where OrtMatMulIntegerToFloat,
        level 10;

    /// onnxruntime's `QLinearAdd` and `QLinearMul`: `onnx.binary` of `a` and `b` (each
    /// with its scale and zero point), into the output scale and zero point.
    ort.qlinear_binary : fn<a, as_, az, b, bs, bz, cs, cz, y>(a: a, a_scale: as_, a_zero_point: az, b: b, b_scale: bs, b_zero_point: bz, c_scale: cs, c_zero_point: cz) -> y where OrtQLinearBinary,
        level 10;

    /// onnxruntime's quantized activations (`QLinearSigmoid`, `QLinearLeakyRelu`,
    /// `QLinearSoftmax`): the result is `x`'s type.
    ort.qlinear_unary : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearUnary,
        level 10;

    /// onnxruntime's `QLinearAveragePool`: `onnx.pool` of `x`.
    ort.qlinear_pool : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearPool,
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

    /// onnxruntime's `QLinearGlobalAveragePool`: `(N, C, D1, ..)` to `(N, C, 1, ..)`, or
    /// with `channels_last` `(N, D1, .., C)` to `(N, 1, .., C)`.
    ort.qlinear_global_pool : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearGlobalPool,
        attrs { channels_last: int = 0 },
        level 10;

    /// onnxruntime's `QLinearConcat`: the inputs (every third field of `rest`: a tensor,
    /// its scale and its zero point) concatenated on `axis`, of the dtype of
    /// `y_zero_point`.
    ort.qlinear_concat : fn<z, r, y>(y_zero_point: z, rest: r) -> y where OrtQLinearConcat,
        attrs { axis: int },
        level 10;
}

/// A vector argument `i` (named `name`, if given) of `n` elements, `n` being the size
/// of `what`.
fn vector_of(cx: &mut RelCx<'_>, i: usize, name: &str, n: Dim, what: &str) -> Result<(), RelError> {
    let Some((v, _)) = opt_tensor(cx, i)? else {
        return Ok(());
    };
    if v.len() != 1 {
        let t = shown(cx, i);
        let n = cx.show_dim(n);
        return Err(RelError::at(
            i,
            format!("`{name}` is `{t}`, and it must be a vector of {what} ({n})"),
        ));
    }
    same_dim(cx, v[0], n, i, |a, b| {
        format!("`{name}` has {a} elements, and {what} is {b}")
    })
}

/// Two shapes (arguments `i` and `j`) that must be one.
fn same_shape(
    cx: &mut RelCx<'_>,
    a: &[Dim],
    b: &[Dim],
    (i, ni): (usize, &str),
    (j, nj): (usize, &str),
) -> Result<(), RelError> {
    let bad = a.len() != b.len()
        || a.iter().zip(b).any(
            |(&x, &y)| matches!((as_const(cx, x), as_const(cx, y)), (Some(p), Some(q)) if p != q),
        );
    if bad {
        let (ti, tj) = (shown(cx, i), shown(cx, j));
        return Err(RelError::at(
            j,
            format!("`{nj}` is `{tj}`, and it must have the shape of `{ni}` (`{ti}`)"),
        ));
    }
    for (&x, &y) in a.iter().zip(b) {
        let _ = cx.unify_dim(x, y, j);
    }
    Ok(())
}

/// `OrtBiasActivation(data, bias, out)`.
#[relation(OrtBiasActivation)]
pub fn ort_bias_activation(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Some(&last) = x.last() else {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and a bias needs an axis to add to"),
        ));
    };
    if let Some((_, bdt)) = opt_tensor(cx, 1)? {
        cx.unify_dtype(dt, bdt, 1)?;
        vector_of(cx, 1, "bias", last, "the input's last axis")?;
    }
    out_tensor(cx, 2, &x, dt)
}

/// `OrtBiasAdd(data, bias, skip, out)`.
#[relation(OrtBiasAdd)]
pub fn ort_bias_add(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((s, sdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(2)?) else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, S, C)`"),
        ));
    }
    cx.unify_dtype(dt, sdt, 2)?;
    same_shape(cx, &x, &s, (0, "X"), (2, "skip"))?;
    vector_of(cx, 1, "bias", x[2], "the input's channels")?;
    out_tensor(cx, 3, &x, dt)
}

/// `OrtBiasSoftmax(data, bias, out)`.
#[relation(OrtBiasSoftmax)]
pub fn ort_bias_softmax(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(dt, bdt, 1)?;
    let bad = b.len() > x.len()
        || b.iter().rev().zip(x.iter().rev()).any(|(&p, &q)| {
            matches!((as_const(cx, p), as_const(cx, q)), (Some(p), Some(q)) if p != 1 && p != q)
        });
    if bad {
        let (tb, tx) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!("the bias `{tb}` does not broadcast to the input `{tx}`"),
        ));
    }
    out_tensor(cx, 2, &x, dt)
}

/// `OrtBiasSplitGelu(data, bias, out)`.
#[relation(OrtBiasSplitGelu)]
pub fn ort_bias_split_gelu(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, S, D)`"),
        ));
    }
    if let Some((_, bdt)) = opt_tensor(cx, 1)? {
        cx.unify_dtype(dt, bdt, 1)?;
    }
    vector_of(cx, 1, "bias", x[2], "the input's last axis")?;
    let half = match as_const(cx, x[2]) {
        Some(d) if d % 2 != 0 => {
            return Err(RelError::at(
                0,
                format!("the input's last axis ({d}) does not split in two halves"),
            ))
        }
        _ => cx.tcx().dims.exact_div(x[2], 2).unwrap_or(Dims::ANY),
    };
    out_tensor(cx, 2, &[x[0], x[1], half], dt)
}

/// `OrtGroupNorm(data, gamma, beta, skip, bias, out)`.
#[relation(OrtGroupNorm)]
pub fn ort_group_norm(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 4 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, H, W, C)` or `(N, C, H, W)`"),
        ));
    }
    let c = if cx.attrs().int("channels_last")?.unwrap_or(1) != 0 {
        x[3]
    } else {
        x[1]
    };
    let g = heads(cx, "groups")?;
    if let Some(n) = as_const(cx, c) {
        if n % g != 0 {
            return Err(RelError::at(
                0,
                format!("the input's {n} channels are not a multiple of `groups` ({g})"),
            ));
        }
    }
    for (i, name) in [(1, "gamma"), (2, "beta"), (4, "bias")] {
        vector_of(cx, i, name, c, "the channels")?;
    }
    if let Some((s, sdt)) = opt_tensor(cx, 3)? {
        cx.unify_dtype(dt, sdt, 3)?;
        same_shape(cx, &x, &s, (0, "X"), (3, "skip"))?;
    }
    let fields = out_fields(cx, 5, 2)?;
    set_field(cx, &fields, 5, 0, &x, dt)?;
    set_field(cx, &fields, 5, 1, &x, dt)?;
    Ok(Progress::Solved)
}

/// `OrtSkipLayerNorm(input, skip, gamma, beta, bias, out)`.
#[relation(OrtSkipLayerNorm)]
pub fn ort_skip_layer_norm(cx: &mut RelCx<'_>) -> RelResult {
    skip_norm(cx, &[(2, "gamma"), (3, "beta"), (4, "bias")], 5)
}

/// `OrtSkipSimplifiedLayerNorm(input, skip, gamma, bias, out)`.
#[relation(OrtSkipSimplifiedLayerNorm)]
pub fn ort_skip_simplified_layer_norm(cx: &mut RelCx<'_>) -> RelResult {
    skip_norm(cx, &[(2, "gamma"), (3, "bias")], 4)
}

/// A skip layer normalization: arguments 0 and 1 are `input` and `skip`, `vectors` the
/// vectors of the hidden size, `out` the result.
fn skip_norm(cx: &mut RelCx<'_>, vectors: &[(usize, &str)], out: usize) -> RelResult {
    let (Some((x, dt)), Some((s, sdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 2 && x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(B, S, H)` or `(T, H)`"),
        ));
    }
    cx.unify_dtype(dt, sdt, 1)?;
    // `skip` is the input's shape, or has a batch of 1, or none.
    let fits = s.len() <= x.len()
        && s.len() >= 2
        && s.iter()
            .rev()
            .zip(x.iter().rev())
            .enumerate()
            .all(|(j, (&p, &q))| match (as_const(cx, p), as_const(cx, q)) {
                (Some(1), _) if j == 2 => true,
                (Some(p), Some(q)) => p == q,
                _ => true,
            });
    if !fits {
        let (ts, tx) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!("`skip` is `{ts}`, and it must have the shape of the input (`{tx}`), maybe without its batch"),
        ));
    }
    let h = x[x.len() - 1];
    for &(i, name) in vectors {
        if let Some((_, vdt)) = opt_tensor(cx, i)? {
            cx.unify_dtype(dt, vdt, i)?;
        }
        vector_of(cx, i, name, h, "the hidden size")?;
    }
    let fields = out_fields(cx, out, 4)?;
    let mut stats = x.clone();
    let n = stats.len();
    stats[n - 1] = konst(cx, 1);
    let f32 = DTy::Known(DType::FLOAT32);
    set_field(cx, &fields, out, 0, &x, dt)?;
    set_field(cx, &fields, out, 1, &stats, f32)?;
    set_field(cx, &fields, out, 2, &stats, f32)?;
    set_field(cx, &fields, out, 3, &x, dt)?;
    Ok(Progress::Solved)
}

/// `OrtEmbedLayerNorm(input_ids, segment_ids, word_embedding, position_embedding,
/// segment_embedding, gamma, beta, mask, position_ids, out)`.
#[relation(OrtEmbedLayerNorm)]
pub fn ort_embed_layer_norm(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((ids, idt)), Some((w, dt))) = (cx.tensor_dims(0)?, cx.tensor_dims(2)?) else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(idt, DTy::Known(DType::INT32), 0)?;
    if ids.len() != 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`input_ids` is `{t}`, and it must be `(B, S)`"),
        ));
    }
    for (i, name) in [(1, "segment_ids"), (7, "mask")] {
        if let Some((d, _)) = opt_tensor(cx, i)? {
            same_shape(cx, &ids, &d, (0, "input_ids"), (i, name))?;
        }
    }
    // The tables: `(rows, H)` each.
    let mut hidden = None;
    for (i, name) in [
        (2, "word_embedding"),
        (3, "position_embedding"),
        (4, "segment_embedding"),
    ] {
        let Some((t, tdt)) = opt_tensor(cx, i)? else {
            continue;
        };
        if t.len() != 2 {
            let s = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("`{name}` is `{s}`, and it must be a table `(rows, hidden size)`"),
            ));
        }
        cx.unify_dtype(dt, tdt, i)?;
        match hidden {
            None => hidden = Some(t[1]),
            Some(h) => same_dim(cx, t[1], h, i, |a, b| {
                format!("`{name}` has rows of {a}, and `word_embedding` of {b}")
            })?,
        }
    }
    let h = hidden.unwrap_or(w[1]);
    for (i, name) in [(5, "gamma"), (6, "beta")] {
        vector_of(cx, i, name, h, "the hidden size")?;
    }
    let fields = out_fields(cx, 9, 3)?;
    let y = [ids[0], ids[1], h];
    set_field(cx, &fields, 9, 0, &y, dt)?;
    set_field(cx, &fields, 9, 1, &[ids[0]], DTy::Known(DType::INT32))?;
    set_field(cx, &fields, 9, 2, &y, dt)?;
    Ok(Progress::Solved)
}

/// The number of heads of attribute `name`, at least 1.
fn heads(cx: &RelCx<'_>, name: &str) -> Result<i64, RelError> {
    match cx.attrs().int(name)? {
        Some(n) if n >= 1 => Ok(n),
        Some(n) => Err(RelError::at(
            0,
            format!("`{name}` is {n}, and it is at least 1"),
        )),
        None => Err(RelError::at(0, format!("`{name}` is required"))),
    }
}

/// `d` divided into `n` heads: the head size, or an error (blaming `i`) when a constant
/// `d` is not a multiple of `n`.
fn per_head(cx: &mut RelCx<'_>, d: Dim, n: i64, i: usize, what: &str) -> Result<Dim, RelError> {
    if let Some(c) = as_const(cx, d) {
        if c % n != 0 {
            return Err(RelError::at(
                i,
                format!("{what} of {c} is not a multiple of the {n} heads"),
            ));
        }
    }
    Ok(cx.tcx().dims.exact_div(d, n).unwrap_or(Dims::ANY))
}

/// Argument `i` as a tensor of `rank` axes, else an error naming it (`name`) and the
/// shape it must have (`what`); `None` when it is absent.
fn ranked(
    cx: &mut RelCx<'_>,
    i: usize,
    name: &str,
    ranks: &[usize],
    what: &str,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let Some((d, dt)) = opt_tensor(cx, i)? else {
        return Ok(None);
    };
    if !ranks.contains(&d.len()) {
        let t = shown(cx, i);
        return Err(RelError::at(
            i,
            format!("`{name}` is `{t}`, and it must be {what}"),
        ));
    }
    Ok(Some((d, dt)))
}

/// Whether argument `i` is `()` (an absent optional input); `false` while not known.
fn is_absent(cx: &mut RelCx<'_>, i: usize) -> bool {
    let t = cx.resolve(cx.arg(i));
    matches!(cx.data(t), relay_core::TyData::Tuple(f) if f.is_empty())
}

/// `OrtAttention(input, weights, bias, mask_index, past, attention_bias,
/// past_sequence_length, out)`.
#[relation(OrtAttention)]
pub fn ort_attention(cx: &mut RelCx<'_>) -> RelResult {
    attention(cx, false, 4, 7)
}

/// `OrtQAttention(input, weight, bias, input_scale, weight_scale, mask_index,
/// input_zero_point, weight_zero_point, past, out)`.
#[relation(OrtQAttention)]
pub fn ort_qattention(cx: &mut RelCx<'_>) -> RelResult {
    attention(cx, true, 8, 9)
}

/// onnxruntime's attention over `input` (argument 0) projected by the weights (1) and
/// the bias (2), with a `past` (argument `past`) into `out`: of the input's dtype, or
/// of the bias's when `quantized` (integer input and weights).
fn attention(cx: &mut RelCx<'_>, quantized: bool, past: usize, out: usize) -> RelResult {
    let (Some((x, xdt)), Some((w, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let dt = if quantized {
        match cx.tensor_dims(2)? {
            Some((_, bdt)) => bdt,
            None => return Ok(Progress::NotYet),
        }
    } else {
        cx.unify_dtype(xdt, wdt, 1)?;
        xdt
    };
    if x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(B, S, input_hidden_size)`"),
        ));
    }
    if w.len() != 2 {
        let t = shown(cx, 1);
        return Err(RelError::at(
            1,
            format!("the weights are `{t}`, and they must be `(input_hidden_size, Dq + Dk + Dv)`"),
        ));
    }
    let n = heads(cx, "num_heads")?;
    same_dim(cx, w[0], x[2], 1, |a, b| {
        format!("the weights take inputs of {a}, and the input's are {b}")
    })?;
    // The hidden sizes of Q, K and V.
    let (dq, dk, dv) = match cx.attrs().ints("qkv_hidden_sizes")? {
        Some(s) if !s.is_empty() => {
            if s.len() != 3 || s.iter().any(|&d| d < 1) {
                return Err(RelError::at(
                    1,
                    format!("`qkv_hidden_sizes` is {s:?}, and it must be three positive sizes"),
                ));
            }
            if s[0] != s[1] {
                return Err(RelError::at(
                    1,
                    format!(
                        "`qkv_hidden_sizes` gives Q {} and K {}, and they must be one size",
                        s[0], s[1]
                    ),
                ));
            }
            let total = s[0].saturating_add(s[1]).saturating_add(s[2]);
            let t = konst(cx, total);
            same_dim(cx, w[1], t, 1, |a, b| {
                format!("the weights have {a} columns, and `qkv_hidden_sizes` adds up to {b}")
            })?;
            (konst(cx, s[0]), konst(cx, s[1]), konst(cx, s[2]))
        }
        _ => {
            let d = match as_const(cx, w[1]) {
                Some(c) if c % 3 != 0 => {
                    return Err(RelError::at(
                        1,
                        format!("the weights have {c} columns, which are not three equal sizes (give `qkv_hidden_sizes`)"),
                    ))
                }
                _ => cx.tcx().dims.exact_div(w[1], 3).unwrap_or(Dims::ANY),
            };
            (d, d, d)
        }
    };
    for (d, what) in [(dq, "the hidden size of Q"), (dv, "the hidden size of V")] {
        per_head(cx, d, n, 1, what)?;
    }
    let head = per_head(cx, dk, n, 1, "the hidden size of K")?;
    let qkv = {
        let dims = &mut cx.tcx().dims;
        let a = dims.add(dq, dk).map_err(arith(1))?;
        dims.add(a, dv).map_err(arith(1))?
    };
    if let Some((_, bdt)) = opt_tensor(cx, 2)? {
        cx.unify_dtype(dt, bdt, 2)?;
        vector_of(cx, 2, "bias", qkv, "the weights' columns")?;
    }
    for i in [3, 4].into_iter().filter(|_| quantized) {
        let name = if i == 3 {
            "input_scale"
        } else {
            "weight_scale"
        };
        if let Some((d, sdt)) = opt_tensor(cx, i)? {
            cx.unify_dtype(dt, sdt, i)?;
            let count: Option<i64> = d
                .iter()
                .try_fold(1i64, |p, &e| p.checked_mul(as_const(cx, e)?));
            if i == 3 && count.is_some_and(|c| c != 1) {
                let t = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!("`{name}` is `{t}`, and it must be one scale"),
                ));
            }
        }
    }
    let nk = konst(cx, n);
    let two = konst(cx, 2);
    let share = cx.attrs().int("past_present_share_buffer")?.unwrap_or(0) != 0;
    let what = "`(2, B, num_heads, past_sequence_length, head_size)`";
    let present = match ranked(cx, past, "past", &[5], what)? {
        Some((p, _)) => {
            let want = [two, x[0], nk, p[3], head];
            for (j, &d) in p.iter().enumerate() {
                same_dim(cx, d, want[j], past, |a, b| {
                    format!("`past` has {a} on axis {j}, and it must be {b}")
                })?;
            }
            let total = if share {
                p[3]
            } else {
                cx.tcx().dims.add(p[3], x[1]).map_err(arith(past))?
            };
            [two, x[0], nk, total, head]
        }
        None if is_absent(cx, past) => [two, x[0], nk, x[1], head],
        None => return Ok(Progress::NotYet),
    };
    let fields = out_fields(cx, out, 2)?;
    set_field(cx, &fields, out, 0, &[x[0], x[1], dv], dt)?;
    set_field(cx, &fields, out, 1, &present, dt)?;
    Ok(Progress::Solved)
}

/// `OrtMultiHeadAttention(query, key, value, bias, key_padding_mask, attention_bias,
/// past_key, past_value, past_sequence_length, cache_indirection, out)`.
#[relation(OrtMultiHeadAttention)]
pub fn ort_multi_head_attention(cx: &mut RelCx<'_>) -> RelResult {
    let n = heads(cx, "num_heads")?;
    let nk = konst(cx, n);
    let (q, dt) = match ranked(
        cx,
        0,
        "query",
        &[3, 5],
        "`(B, S, D)` or packed `(B, S, num_heads, 3, head_size)`",
    )? {
        Some(q) => q,
        None => return Ok(Progress::NotYet),
    };
    let (key, value) = (opt_tensor(cx, 1)?, opt_tensor(cx, 2)?);
    if key.is_none() && !is_absent(cx, 1) || value.is_none() && !is_absent(cx, 2) {
        return Ok(Progress::NotYet);
    }
    // The batch, query length, key length, K and V head sizes, and whether the
    // key and value are the present ones already (split into heads, no past).
    let (b, s) = (q[0], q[1]);
    let (kv_len, k_head, v_head, given) = if q.len() == 5 {
        if key.is_some() || value.is_some() {
            return Err(RelError::at(
                1,
                "a packed `query` `(B, S, num_heads, 3, head_size)` takes no `key` or `value`",
            ));
        }
        packed(cx, &q, 0, nk, 3)?;
        (s, q[4], q[4], false)
    } else {
        let Some((k, kdt)) = key else {
            return Err(RelError::at(
                1,
                "`key` is required unless `query` packs the query, key and value",
            ));
        };
        cx.unify_dtype(dt, kdt, 1)?;
        let what = "`(B, L, D)`, `(B, num_heads, L, head_size)` or packed `(B, L, num_heads, 2, head_size)`";
        if ![3, 4, 5].contains(&k.len()) {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("`key` is `{t}`, and it must be {what}"),
            ));
        }
        same_dim(cx, k[0], b, 1, |x, y| {
            format!("`key` has a batch of {x}, and `query` of {y}")
        })?;
        let q_head = per_head(cx, q[2], n, 0, "the hidden size of `query`")?;
        match (k.len(), value) {
            (5, None) => {
                packed(cx, &k, 1, nk, 2)?;
                let _ = cx.unify_dim(k[4], q_head, 1);
                (k[1], k[4], k[4], false)
            }
            (5, Some(_)) => {
                return Err(RelError::at(
                    2,
                    "a packed `key` `(B, L, num_heads, 2, head_size)` takes no `value`",
                ))
            }
            (_, None) => {
                return Err(RelError::at(
                    2,
                    "`value` is required unless `key` packs the key and value",
                ))
            }
            (r, Some((v, vdt))) => {
                cx.unify_dtype(dt, vdt, 2)?;
                if v.len() != r {
                    let (tv, tk) = (shown(cx, 2), shown(cx, 1));
                    return Err(RelError::at(
                        2,
                        format!("`value` is `{tv}`, and it must have the rank of `key` (`{tk}`)"),
                    ));
                }
                same_dim(cx, v[0], b, 2, |x, y| {
                    format!("`value` has a batch of {x}, and `query` of {y}")
                })?;
                if r == 4 {
                    for (i, d, name) in [(1, &k, "key"), (2, &v, "value")] {
                        same_dim(cx, d[1], nk, i, |x, y| {
                            format!("`{name}` has {x} heads, and `num_heads` is {y}")
                        })?;
                    }
                    same_dim(cx, v[2], k[2], 2, |x, y| {
                        format!("`value` has a length of {x}, and `key` of {y}")
                    })?;
                    same_dim(cx, k[3], q_head, 1, |x, y| {
                        format!("`key` has heads of {x}, and `query` of {y}")
                    })?;
                    (k[2], k[3], v[3], true)
                } else {
                    same_dim(cx, k[2], q[2], 1, |x, y| {
                        format!("`key` has a hidden size of {x}, and `query` of {y}")
                    })?;
                    same_dim(cx, v[1], k[1], 2, |x, y| {
                        format!("`value` has a length of {x}, and `key` of {y}")
                    })?;
                    let vh = per_head(cx, v[2], n, 2, "the hidden size of `value`")?;
                    (k[1], q_head, vh, false)
                }
            }
        }
    };
    // The past key and value `(B, N, P, head)`.
    let mut total = kv_len;
    for (i, name, head) in [(6, "past_key", k_head), (7, "past_value", v_head)] {
        let what = "`(B, num_heads, past_sequence_length, head_size)`";
        match ranked(cx, i, name, &[4], what)? {
            Some((p, pdt)) => {
                cx.unify_dtype(dt, pdt, i)?;
                let want = [b, nk, p[2], head];
                for (j, &d) in p.iter().enumerate() {
                    same_dim(cx, d, want[j], i, |x, y| {
                        format!("`{name}` has {x} on axis {j}, and it must be {y}")
                    })?;
                }
                if i == 6 && !given {
                    total = cx.tcx().dims.add(p[2], kv_len).map_err(arith(i))?;
                }
            }
            None if is_absent(cx, i) => {}
            None => return Ok(Progress::NotYet),
        }
    }
    let hv = cx.tcx().dims.scale(v_head, n).map_err(arith(2))?;
    // The fourth output, the scores `(B, N, S, P + L)`, has a dtype of its own, which
    // nothing here gives: it is left to the graph.
    let fields = out_fields(cx, 10, 4)?;
    set_field(cx, &fields, 10, 0, &[b, s, hv], dt)?;
    set_field(cx, &fields, 10, 1, &[b, nk, total, k_head], dt)?;
    set_field(cx, &fields, 10, 2, &[b, nk, total, v_head], dt)?;
    Ok(Progress::Solved)
}

/// A packed input (argument `i`) `(B, L, heads, k, head_size)`: an error when its axes 2
/// and 3 are not `heads` and `k`.
fn packed(cx: &mut RelCx<'_>, d: &[Dim], i: usize, heads: Dim, k: i64) -> Result<(), RelError> {
    let name = if i == 0 { "query" } else { "key" };
    same_dim(cx, d[2], heads, i, |x, y| {
        format!("the packed `{name}` has {x} heads, and `num_heads` is {y}")
    })?;
    let kk = konst(cx, k);
    same_dim(cx, d[3], kk, i, |x, y| {
        format!("the packed `{name}` has {x} on axis 3, and it packs {y}")
    })
}

/// `OrtGroupQueryAttention(query, key, value, past_key, past_value, seqlens_k,
/// total_sequence_length value, cos_cache, .., query_seqlens, out)`.
#[relation(OrtGroupQueryAttention)]
pub fn ort_group_query_attention(cx: &mut RelCx<'_>) -> RelResult {
    let Some((q, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if q.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`query` is `{t}`, and it must be `(B, S, D)`"),
        ));
    }
    let n = heads(cx, "num_heads")?;
    let kvn = heads(cx, "kv_num_heads")?;
    if n % kvn != 0 {
        return Err(RelError::at(
            0,
            format!("`num_heads` ({n}) is not a multiple of `kv_num_heads` ({kvn})"),
        ));
    }
    let (key, value) = (opt_tensor(cx, 1)?, opt_tensor(cx, 2)?);
    if key.is_none() && !is_absent(cx, 1) || value.is_none() && !is_absent(cx, 2) {
        return Ok(Progress::NotYet);
    }
    let head = match (key, value) {
        (None, None) => {
            let all = n.saturating_add(kvn.saturating_mul(2));
            per_head(cx, q[2], all, 0, "the packed query, key and value")?
        }
        (Some((k, kdt)), Some((v, vdt))) => {
            let head = per_head(cx, q[2], n, 0, "the hidden size of `query`")?;
            let kv = cx.tcx().dims.scale(head, kvn).map_err(arith(1))?;
            for (i, d, t, name) in [(1, &k, kdt, "key"), (2, &v, vdt, "value")] {
                cx.unify_dtype(dt, t, i)?;
                if d.len() != 3 {
                    let s = shown(cx, i);
                    return Err(RelError::at(
                        i,
                        format!(
                            "`{name}` is `{s}`, and it must be `(B, S, kv_num_heads * head_size)`"
                        ),
                    ));
                }
                same_dim(cx, d[0], q[0], i, |x, y| {
                    format!("`{name}` has a batch of {x}, and `query` of {y}")
                })?;
                same_dim(cx, d[1], q[1], i, |x, y| {
                    format!("`{name}` has a length of {x}, and `query` of {y}")
                })?;
                same_dim(cx, d[2], kv, i, |x, y| {
                    format!(
                        "`{name}` has a hidden size of {x}, and {kvn} heads of `query`'s make {y}"
                    )
                })?;
            }
            head
        }
        _ => {
            return Err(RelError::at(
                1,
                "`key` and `value` are both given, or both absent (packed in `query`)",
            ))
        }
    };
    let kk = konst(cx, kvn);
    // The present length: the larger of the past's and `total_sequence_length`.
    let total = match value_of(cx, 6)? {
        Val::Known(v) if v.len() == 1 => v[0],
        Val::Known(_) => return Err(RelError::at(6, "`total_sequence_length` is a scalar")),
        _ => Dims::ANY,
    };
    let mut present = total;
    let mut cache = dt;
    for (i, name) in [(3, "past_key"), (4, "past_value")] {
        let what = "`(B, kv_num_heads, past_sequence_length, head_size)`";
        match ranked(cx, i, name, &[4], what)? {
            Some((p, pdt)) => {
                cache = pdt;
                let want = [q[0], kk, p[2], head];
                for (j, &d) in p.iter().enumerate() {
                    same_dim(cx, d, want[j], i, |x, y| {
                        format!("`{name}` has {x} on axis {j}, and it must be {y}")
                    })?;
                }
                if i == 3 {
                    present = if total == Dims::ANY {
                        Dims::ANY
                    } else {
                        cx.tcx().dims.max(p[2], total).map_err(arith(i))?
                    };
                }
            }
            None if is_absent(cx, i) => {}
            None => return Ok(Progress::NotYet),
        }
    }
    let hq = cx.tcx().dims.scale(head, n).map_err(arith(0))?;
    let nq = konst(cx, n);
    let fields = out_fields(cx, 17, 4)?;
    set_field(cx, &fields, 17, 0, &[q[0], q[1], hq], dt)?;
    set_field(cx, &fields, 17, 1, &[q[0], kk, present, head], cache)?;
    set_field(cx, &fields, 17, 2, &[q[0], kk, present, head], cache)?;
    set_field(cx, &fields, 17, 3, &[q[0], nq, q[1], total], dt)?;
    Ok(Progress::Solved)
}

/// `OrtRotary(input, position_ids, cos_cache, sin_cache, out)`.
#[relation(OrtRotary)]
pub fn ort_rotary(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() == 3 && cx.attrs().int("num_heads")?.unwrap_or(0) == 0 {
        // The head size comes from the caches: their shapes agree, and the result is
        // the input's.
        let (Some((c, _)), Some((s, _))) = (cx.tensor_dims(2)?, cx.tensor_dims(3)?) else {
            return Ok(Progress::NotYet);
        };
        same_shape(cx, &c, &s, (2, "cos_cache"), (3, "sin_cache"))?;
        return out_tensor(cx, 4, &x, dt);
    }
    cx.run_on(OnnxRotary::REF, &[0, 2, 3, 1, 4])
}

/// `OrtMatMulNBits(a, b, scales, zero_points, g_idx, bias, out)`.
#[relation(OrtMatMulNBits)]
pub fn ort_matmul_nbits(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, dt)), Some((b, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let attr = |cx: &RelCx<'_>, name: &str, min: i64| -> Result<i64, RelError> {
        match cx.attrs().int(name)? {
            Some(v) if v >= min => Ok(v),
            Some(v) => Err(RelError::at(
                1,
                format!("`{name}` is {v}, and it is at least {min}"),
            )),
            None => Err(RelError::at(1, format!("`{name}` is required"))),
        }
    };
    let (k, n) = (attr(cx, "k", 1)?, attr(cx, "n", 1)?);
    let (bits, block) = (attr(cx, "bits", 1)?, attr(cx, "block_size", 1)?);
    let Some(&ka) = a.last() else {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("a matrix product does not take a scalar, and `A` is `{t}`"),
        ));
    };
    let kk = konst(cx, k);
    same_dim(cx, ka, kk, 0, |x, y| {
        format!("`A` has {x} columns, and `K` is {y}")
    })?;
    // `B` is `(N, blocks, blob)`: `ceil(K / block_size)` blocks of `block_size * bits / 8`
    // bytes each.
    let blocks = k / block + i64::from(k % block != 0);
    let blob = block.saturating_mul(bits) / 8;
    let want = [n, blocks, blob];
    let t = shown(cx, 1);
    if b.len() != 3 {
        return Err(RelError::at(
            1,
            format!(
                "`B` is `{t}`, and it must be `(N, k_blocks, blob_size)`: ({n}, {blocks}, {blob})"
            ),
        ));
    }
    for (j, (&d, &w)) in b.iter().zip(&want).enumerate() {
        let wk = konst(cx, w);
        let what = ["N", "the blocks of K", "the bytes of a block"][j];
        same_dim(cx, d, wk, 1, |x, y| {
            format!("`B` (`{t}`) has {x} on axis {j}, and {what} make {y}")
        })?;
    }
    // The scales (and zero points) per block: `N * blocks` or `(N, blocks)`.
    if let Some((s, sdt)) = opt_tensor(cx, 2)? {
        cx.unify_dtype(dt, sdt, 2)?;
        let count: Option<i64> = s
            .iter()
            .try_fold(1i64, |p, &d| p.checked_mul(as_const(cx, d)?));
        if let Some(c) = count {
            if Some(c) != n.checked_mul(blocks) {
                let t = shown(cx, 2);
                return Err(RelError::at(
                    2,
                    format!("`scales` is `{t}`, and it must have one scale for each of {n} by {blocks} blocks"),
                ));
            }
        }
    }
    let nk = konst(cx, n);
    if let Some((_, cdt)) = opt_tensor(cx, 5)? {
        cx.unify_dtype(dt, cdt, 5)?;
        vector_of(cx, 5, "bias", nk, "`N`")?;
    }
    let mut y = a.clone();
    let r = y.len();
    y[r - 1] = nk;
    out_tensor(cx, 6, &y, dt)
}

/// `OrtFusedMatMul(a, b, out)`.
#[relation(OrtFusedMatMul)]
pub fn ort_fused_matmul(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let flag = |cx: &RelCx<'_>, n: &str| -> Result<bool, RelError> {
        Ok(cx.attrs().int(n)?.unwrap_or(0) != 0)
    };
    let (ta, tb) = (flag(cx, "trans_a")?, flag(cx, "trans_b")?);
    let (tba, tbb) = (flag(cx, "trans_batch_a")?, flag(cx, "trans_batch_b")?);
    if !(ta || tb || tba || tbb) {
        return cx.run_on(OnnxMatMul::REF, &[0, 1, 2]);
    }
    cx.unify_dtype(adt, bdt, 1)?;
    // Each operand as the matrices it stands for.
    let mut ops = Vec::with_capacity(2);
    for (i, d, tbatch, t, name) in [(0, &a, tba, ta, "A"), (1, &b, tbb, tb, "B")] {
        if d.is_empty() {
            let s = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("a matrix product does not take a scalar, and `{name}` is `{s}`"),
            ));
        }
        let mut m = d.clone();
        if tbatch {
            if m.len() < 3 {
                let s = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!("`transBatch{name}` needs `{name}` of rank 3 or more, and it is `{s}`"),
                ));
            }
            let first = m.remove(0);
            let at = m.len() - 1;
            m.insert(at, first);
        }
        if t && m.len() >= 2 {
            let r = m.len();
            m.swap(r - 1, r - 2);
        }
        ops.push(m);
    }
    let one = konst(cx, 1);
    let (a2, row) = match ops[0].len() {
        1 => (vec![one, ops[0][0]], true),
        _ => (ops[0].clone(), false),
    };
    let (b2, col) = match ops[1].len() {
        1 => (vec![ops[1][0], one], true),
        _ => (ops[1].clone(), false),
    };
    let (ka, kb) = (a2[a2.len() - 1], b2[b2.len() - 2]);
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (sa, sb) = (shown(cx, 0), shown(cx, 1));
            return Err(RelError::at(
                1,
                format!("cannot multiply `{sa}` by `{sb}` (transA={}, transB={}, transBatchA={}, transBatchB={}): the inner dimensions {x} and {y} differ", ta as i32, tb as i32, tba as i32, tbb as i32),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, 1);
    }
    let mut y = broadcast(cx, &a2[..a2.len() - 2], &b2[..b2.len() - 2], 1)?;
    if !row {
        y.push(a2[a2.len() - 2]);
    }
    if !col {
        y.push(b2[b2.len() - 1]);
    }
    out_tensor(cx, 2, &y, adt)
}

/// `OrtFusedConv(data, weight, bias, sum, out)`.
#[relation(OrtFusedConv)]
pub fn ort_fused_conv(cx: &mut RelCx<'_>) -> RelResult {
    let p = cx.run_on(OnnxConv::REF, &[0, 1, 2, 4])?;
    if p != Progress::Solved {
        return Ok(p);
    }
    if let Some((z, zdt)) = opt_tensor(cx, 3)? {
        let Some((y, ydt)) = cx.tensor_dims(4)? else {
            return Ok(Progress::NotYet);
        };
        cx.unify_dtype(ydt, zdt, 3)?;
        same_shape(cx, &y, &z, (4, "Y"), (3, "Z"))?;
    }
    Ok(Progress::Solved)
}

/// `OrtDynamicQuantizeMatMul(a, b, b_scale, b_zero_point, bias, out)`.
#[relation(OrtDynamicQuantizeMatMul)]
pub fn ort_dynamic_quantize_matmul(cx: &mut RelCx<'_>) -> RelResult {
    quantized_matmul(cx, 0, 4, 5)
}

/// `OrtGemmFastGelu(x, w, bias, out)`.
#[relation(OrtGemmFastGelu)]
pub fn ort_gemm_fast_gelu(cx: &mut RelCx<'_>) -> RelResult {
    if let (Some((_, xdt)), Some((_, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) {
        cx.unify_dtype(xdt, wdt, 1)?;
    }
    quantized_matmul(cx, 0, 2, 3)
}

/// `OrtMatMulIntegerToFloat(a, b, a_scale, b_scale, a_zero_point, b_zero_point, bias,
/// out)`.
#[relation(OrtMatMulIntegerToFloat)]
pub fn ort_matmul_integer_to_float(cx: &mut RelCx<'_>) -> RelResult {
    quantized_matmul(cx, 2, 6, 7)
}

/// `a` (argument 0) times `b` (1) of the dtype of argument `like`, plus the optional
/// `bias`, into argument `out`.
fn quantized_matmul(cx: &mut RelCx<'_>, like: usize, bias: usize, out: usize) -> RelResult {
    // `onnx.qlinear_matmul` types `a` times `b` of the dtype of its output zero point.
    let p = cx.run_on(OnnxQLinearMatMul::REF, &[0, 0, 0, 1, 0, 0, 0, like, out])?;
    if p != Progress::Solved {
        return Ok(p);
    }
    if opt_tensor(cx, bias)?.is_some() {
        let Some((y, _)) = cx.tensor_dims(out)? else {
            return Ok(Progress::NotYet);
        };
        if let Some(&n) = y.last() {
            vector_of(cx, bias, "bias", n, "the result's columns")?;
        }
    }
    Ok(Progress::Solved)
}

/// `OrtQLinearBinary(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale,
/// c_zero_point, out)`.
#[relation(OrtQLinearBinary)]
pub fn ort_qlinear_binary(cx: &mut RelCx<'_>) -> RelResult {
    cx.run_on(OnnxBinary::REF, &[0, 3, 8])
}

/// `OrtQLinearUnary(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearUnary)]
pub fn ort_qlinear_unary(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.arg(0);
    cx.unify(5, t)?;
    Ok(Progress::Solved)
}

/// `OrtQLinearPool(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearPool)]
pub fn ort_qlinear_pool(cx: &mut RelCx<'_>) -> RelResult {
    cx.run_on(OnnxPool::REF, &[0, 5])
}

/// `OrtQLinearGlobalPool(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearGlobalPool)]
pub fn ort_qlinear_global_pool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() < 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and a pool takes at least one spatial axis"),
        ));
    }
    let last = cx.attrs().int("channels_last")?.unwrap_or(0) != 0;
    let one = konst(cx, 1);
    let r = x.len();
    let y: Vec<Dim> = (0..r)
        .map(|j| match (j, last) {
            (0, _) => x[0],
            (1, false) => x[1],
            (j, true) if j == r - 1 => x[j],
            _ => one,
        })
        .collect();
    out_tensor(cx, 5, &y, dt)
}

/// `OrtQLinearConcat(y_zero_point, (x0, s0, z0, x1, ..), out)`.
#[relation(OrtQLinearConcat)]
pub fn ort_qlinear_concat(cx: &mut RelCx<'_>) -> RelResult {
    let Some((_, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let t = cx.resolve(cx.arg(1));
    let fields = match cx.data(t) {
        relay_core::TyData::Tuple(f) => f.to_vec(),
        _ => return Ok(Progress::NotYet),
    };
    if fields.is_empty() || fields.len() % 3 != 0 {
        return Err(RelError::at(
            1,
            format!(
                "`QLinearConcat` takes triples of a tensor, its scale and its zero point after `Y_scale` and `Y_zero_point`, and it has {} inputs after them",
                fields.len()
            ),
        ));
    }
    let mut parts = Vec::new();
    for (j, &f) in fields.iter().step_by(3).enumerate() {
        let f = cx.resolve(f);
        let Some(s) = (match cx.data(f) {
            relay_core::TyData::Tensor(s, _) => Some(*s),
            _ => None,
        }) else {
            return Ok(Progress::NotYet);
        };
        let Some(d) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        parts.push((j, cx.show(f), d));
    }
    let r = parts[0].2.len();
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let k = crate::ops::util::axis_in(a, r, 1)?;
    let mut y = parts[0].2.clone();
    for (j, s, d) in &parts[1..] {
        if d.len() != r {
            return Err(RelError::at(
                1,
                format!(
                    "input {} `{s}` has rank {}, and input 2 `{}` has {r}",
                    2 + 3 * j,
                    d.len(),
                    parts[0].1
                ),
            ));
        }
        for (m, (&p, &q)) in d.iter().zip(&y.clone()).enumerate() {
            if m == k {
                y[k] = cx.tcx().dims.add(y[k], p).map_err(arith(1))?;
            } else {
                let first = parts[0].1.clone();
                let (jj, ss) = (2 + 3 * j, s.clone());
                same_dim(cx, p, q, 1, move |x, z| {
                    format!("input {jj} `{ss}` has {x} on axis {m}, and input 2 `{first}` has {z}")
                })?;
            }
        }
    }
    out_tensor(cx, 2, &y, dt)
}

// The attribute functions of the mappings.

/// `kernel_shape` of a node whose layout must be channels-first: onnxruntime's NHWC
/// forms (`channels_last`) are not supported.
fn kernel_shape_nchw(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    if a.int("channels_last").unwrap_or(0) != 0 {
        return Err(AttrFnError {
            message: "`channels_last` layouts are not supported".into(),
            unsupported: true,
        });
    }
    Ok(a.ints("kernel_shape")
        .map(|v| AttrValue::List(v.into_iter().map(AttrValue::Int).collect())))
}

onnx_ops! {
    // 1. The fused activations and normalizations.
    "com.microsoft" Gelu since 1 => "onnx.unary"(In(0));
    "com.microsoft" QuickGelu since 1 => "onnx.unary"(In(0));
    "com.microsoft" FastGelu since 1 => "ort.bias_activation"(In(0), Opt(1));
    "com.microsoft" BiasGelu since 1 => "ort.bias_activation"(In(0), In(1));
    "com.microsoft" BiasAdd since 1 => "ort.bias_add"(In(0), In(1), In(2));
    "com.microsoft" BiasSoftmax since 1 => "ort.bias_softmax"(In(0), In(1));
    "com.microsoft" SkipLayerNormalization since 1 => "ort.skip_layer_norm"(In(0), In(1), In(2), Opt(3), Opt(4)) -> Each;
    "com.microsoft" SkipSimplifiedLayerNormalization since 1 => "ort.skip_simplified_layer_norm"(In(0), In(1), In(2), Opt(3)) -> Each;
    /// onnxruntime registers `SimplifiedLayerNormalization` (RMS normalization) in the
    /// default domain: `LayerNormalization`'s shapes, its second output the inverse
    /// standard deviation.
    "" SimplifiedLayerNormalization since 1 => "onnx.layer_norm"(In(0), In(1), Opt(2)) {
        axis: Attr("axis"), stash_type: Attr("stash_type")
    } -> Each;
    "com.microsoft" BiasSplitGelu since 1 => "ort.bias_split_gelu"(In(0), In(1));
    "com.microsoft" GroupNorm since 1 => "ort.group_norm"(In(0), In(1), In(2), Opt(3), Opt(4)) {
        groups: Attr("groups"), channels_last: Attr("channels_last")
    };
    "com.microsoft" SkipGroupNorm since 1 => "ort.group_norm"(In(0), In(1), In(2), In(3), Opt(4)) {
        groups: Attr("groups"), channels_last: Attr("channels_last")
    } -> Each;
    "com.microsoft" EmbedLayerNormalization since 1 => "ort.embed_layer_norm"(In(0), Opt(1), In(2), In(3), Opt(4), In(5), In(6), Opt(7), Opt(8)) -> Each;

    // 2. The attentions.
    "com.microsoft" Attention since 1 => "ort.attention"(In(0), In(1), Opt(2), Opt(3), Opt(4), Opt(5), Opt(6)) {
        num_heads: Attr("num_heads"), qkv_hidden_sizes: Attr("qkv_hidden_sizes"),
        past_present_share_buffer: Attr("past_present_share_buffer")
    } -> Each;
    "com.microsoft" QAttention since 1 => "ort.qattention"(In(0), In(1), In(2), In(3), In(4), Opt(5), Opt(6), Opt(7), Opt(8)) {
        num_heads: Attr("num_heads"), past_present_share_buffer: Attr("past_present_share_buffer")
    } -> Each;
    "com.microsoft" MultiHeadAttention since 1 => "ort.multi_head_attention"(In(0), Opt(1), Opt(2), Opt(3), Opt(4), Opt(5), Opt(6), Opt(7), Opt(8), Opt(9)) {
        num_heads: Attr("num_heads")
    } -> Each;
    "com.microsoft" GroupQueryAttention since 1 => "ort.group_query_attention"(In(0), Opt(1), Opt(2), Opt(3), Opt(4), In(5), Value(6), Opt(7), Opt(8), Opt(9), Opt(10), Opt(11), Opt(12), Opt(13), Opt(14), Opt(15), Opt(16)) {
        num_heads: Attr("num_heads"), kv_num_heads: Attr("kv_num_heads")
    } -> Each;
    "com.microsoft" RotaryEmbedding since 1 => "ort.rotary"(In(0), In(1), In(2), In(3)) {
        num_heads: Attr("num_heads"), rotary_embedding_dim: Attr("rotary_embedding_dim")
    };

    // 3. The fused products.
    "com.microsoft" MatMulNBits since 1 => "ort.matmul_nbits"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        k: Attr("K"), n: Attr("N"), bits: Attr("bits"), block_size: Attr("block_size")
    };
    "com.microsoft" FusedMatMul since 1 => "ort.fused_matmul"(In(0), In(1)) {
        trans_a: Attr("transA"), trans_b: Attr("transB"),
        trans_batch_a: Attr("transBatchA"), trans_batch_b: Attr("transBatchB")
    };
    "com.microsoft" FusedConv since 1 => "ort.fused_conv"(In(0), In(1), Opt(2), Opt(3)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "com.microsoft" GemmFastGelu since 1 => "ort.gemm_fast_gelu"(In(0), In(1), Opt(2));
    "com.microsoft" FusedGemm since 1 => "onnx.gemm"(In(0), In(1), Opt(2)) { trans_a: Attr("transA"), trans_b: Attr("transB") };

    // 4. The quantized operators.
    "com.microsoft" QLinearAdd since 1 => "ort.qlinear_binary"(In(0), In(1), Opt(2), In(3), In(4), Opt(5), In(6), Opt(7));
    "com.microsoft" QLinearMul since 1 => "ort.qlinear_binary"(In(0), In(1), Opt(2), In(3), In(4), Opt(5), In(6), Opt(7));
    "com.microsoft" QLinearSigmoid since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), Opt(4));
    "com.microsoft" QLinearLeakyRelu since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), Opt(4));
    "com.microsoft" QLinearSoftmax since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), In(4));
    "com.microsoft" QLinearAveragePool since 1 => "ort.qlinear_pool"(In(0), In(1), Opt(2), In(3), Opt(4)) {
        kernel_shape: With(kernel_shape_nchw), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
        strides: Attr("strides"), ceil_mode: Attr("ceil_mode")
    };
    "com.microsoft" QLinearGlobalAveragePool since 1 => "ort.qlinear_global_pool"(In(0), In(1), In(2), In(3), In(4)) { channels_last: Attr("channels_last") };
    "com.microsoft" QLinearConcat since 1 => "ort.qlinear_concat"(In(1), Rest(2)) { axis: Attr("axis") };
    "com.microsoft" QLinearConv since 1 => "onnx.qlinear_conv"(In(0), In(1), In(2), In(3), In(4), In(5), In(6), In(7), Opt(8)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: With(kernel_shape_nchw)
    };
    "com.microsoft" DynamicQuantizeMatMul since 1 => "ort.dynamic_quantize_matmul"(In(0), In(1), In(2), Opt(3), Opt(4));
    "com.microsoft" MatMulIntegerToFloat since 1 => "ort.matmul_integer_to_float"(In(0), In(1), In(2), In(3), Opt(4), Opt(5), Opt(6));
    "com.microsoft" QuantizeLinear since 1 => "onnx.quantize"(In(0), In(1), Opt(2)) {
        axis: AttrOr("axis", AttrConst::Int(1))
    };
    "com.microsoft" DequantizeLinear since 1 => "onnx.dequantize"(In(0), In(1), Opt(2)) {
        axis: AttrOr("axis", AttrConst::Int(1))
    };
}
