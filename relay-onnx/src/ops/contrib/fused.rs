//! The fused activations (`FastGelu`, `BiasGelu`, `BiasAdd`, `BiasSoftmax`,
//! `BiasSplitGelu`, and `Gelu` and `QuickGelu` as `onnx.unary`) and normalizations
//! (`SkipLayerNormalization`, `SkipSimplifiedLayerNormalization`,
//! `SimplifiedLayerNormalization`, `EmbedLayerNormalization`, `GroupNorm`,
//! `SkipGroupNorm`).
use super::{heads, same_shape, vector_of};
use crate::onnx_ops;
use crate::ops::nn::{as_const, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::ops::util::{out_tensor, shown};
use relay_core::{relation, relay_op, DTy, DType, Dims, Progress, RelCx, RelError, RelResult};

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

onnx_ops! {
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
}
