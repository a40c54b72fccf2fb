//! The attentions: `Attention`, `QAttention`, `MultiHeadAttention`,
//! `GroupQueryAttention` and `RotaryEmbedding`.
use super::{heads, is_absent, per_head, ranked, same_shape, vector_of};
use crate::onnx_ops;
use crate::ops::nn::attention::OnnxRotary;
use crate::ops::nn::{as_const, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::ops::util::{arith, out_tensor, shown, value_of, Val};
use relay_core::{relation, relay_op, Dim, Dims, Progress, RelCx, RelError, RelResult, Relation};

relay_op! {
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

onnx_ops! {
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
}
