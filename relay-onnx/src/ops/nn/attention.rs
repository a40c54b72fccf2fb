//! The attentions: `Attention` (and the preview `FlexAttention`), `RotaryEmbedding`,
//! `LinearAttention` and `CausalConvWithState`.

use super::{arith, as_const, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use relay_core::{relation, relay_op, Dims, Progress, RelCx, RelError, RelResult, TyData};

relay_op! {
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
}

/// Whether argument `i` is `()` (an absent optional input).
fn is_absent(cx: &mut RelCx<'_>, i: usize) -> bool {
    let t = cx.resolve(cx.arg(i));
    matches!(cx.data(t), TyData::Tuple(f) if f.is_empty())
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
            cx.tcx().dims.add(pk[2], kv_seq).map_err(arith(4))?
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
        let h = cx.tcx().dims.mul(q_heads, v_head).map_err(arith(2))?;
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
        let k1 = dims.add(w[2], m1).map_err(arith(1))?;
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
        dims.scale(dv, qh).map_err(arith(2))?
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

onnx_ops! {
    "" Attention since 23 => "onnx.attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6)) {
        q_num_heads: Attr("q_num_heads"), kv_num_heads: Attr("kv_num_heads")
    } -> Each;
    /// `FlexAttention` (a preview): `Attention`'s 4-D shapes (its score and probability
    /// modifiers keep them).
    "ai.onnx.preview" FlexAttention since 1 => "onnx.attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6)) -> Each;
    "" RotaryEmbedding since 23 => "onnx.rotary"(In(0), In(1), In(2), Opt(3)) {
        num_heads: Attr("num_heads"), rotary_embedding_dim: Attr("rotary_embedding_dim")
    };
    "" CausalConvWithState since 27 => "onnx.causal_conv"(In(0), In(1), Opt(2), Opt(3)) -> Each;
    "" LinearAttention since 27 => "onnx.linear_attention"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        q_num_heads: Attr("q_num_heads"), kv_num_heads: Attr("kv_num_heads")
    } -> Each;
}
