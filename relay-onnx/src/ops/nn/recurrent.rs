//! The recurrent layers: `RNN`, `GRU` and `LSTM`.

use super::{arith, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::onnx_ops;
use crate::ops::util::shown;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, Progress, RelCx, RelError, RelResult};

relay_op! {
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

    /// onnxruntime's `DynamicQuantizeLSTM` (`com.microsoft`): `onnx.lstm` whose `W`
    /// `(D, input_size, 4 * H)` and `R` `(D, H, 4 * H)` are quantized integers stored
    /// transposed, each with a scale and a zero point per direction (or per direction
    /// and column).
    ort.dynamic_quantize_lstm : fn<x, w, r, b, l, h, c, p, ws, wz, rs, rz, y>(x: x, w: w, r: r, b: b, sequence_lens: l, initial_h: h, initial_c: c, p: p, w_scale: ws, w_zero_point: wz, r_scale: rs, r_zero_point: rz) -> y where OrtDynamicQuantizeLstm,
        attrs { hidden_size: Option<int> = None, direction: str = "forward", input_forget: int = 0 },
        level 10;
}

/// `OnnxRnn(x, w, r, b, sequence_lens, initial_h, out)`.
#[relation(OnnxRnn)]
pub fn onnx_rnn(cx: &mut RelCx<'_>) -> RelResult {
    let gates = cx.attrs().int("gates")?.unwrap_or(1);
    recurrent(cx, gates, &[5], None, 6, Weights::Onnx)
}

/// `OnnxLstm(x, w, r, b, sequence_lens, initial_h, initial_c, p, out)`.
#[relation(OnnxLstm)]
pub fn onnx_lstm(cx: &mut RelCx<'_>) -> RelResult {
    recurrent(cx, 4, &[5, 6], Some(7), 8, Weights::Onnx)
}

/// `OrtDynamicQuantizeLstm(x, w, r, b, sequence_lens, initial_h, initial_c, p, w_scale,
/// w_zero_point, r_scale, r_zero_point, out)`.
#[relation(OrtDynamicQuantizeLstm)]
pub fn ort_dynamic_quantize_lstm(cx: &mut RelCx<'_>) -> RelResult {
    let progress = recurrent(cx, 4, &[5, 6], Some(7), 12, Weights::QuantizedTransposed)?;
    if progress != Progress::Solved {
        return Ok(progress);
    }
    // The scales and zero points: one per direction, or per direction and column.
    let (Some((w, _)), Some((r, _))) = (cx.tensor_dims(1)?, cx.tensor_dims(2)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, of) in [(8, &w), (9, &w), (10, &r), (11, &r)] {
        if let Some((q, _)) = opt_tensor(cx, i)? {
            let ok = match q.len() {
                1 => q[0] == of[0] || cx.tcx_ref().dims.as_const(q[0]) == Some(1),
                2 => q[0] == of[0] && q[1] == of[2],
                _ => false,
            };
            if !ok {
                let (t, wt) = (shown(cx, i), shown(cx, if i < 10 { 1 } else { 2 }));
                return Err(RelError::at(
                    i,
                    format!(
                        "`{t}` must be one per direction or per direction and column of `{wt}`"
                    ),
                ));
            }
        }
    }
    Ok(Progress::Solved)
}

/// How a recurrent layer's `W` and `R` are stored.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Weights {
    /// ONNX's: `(D, gates * H, I)` and `(D, gates * H, H)`, of `X`'s dtype.
    Onnx,
    /// onnxruntime's quantized ones: integers, transposed, `(D, I, gates * H)` and
    /// `(D, H, gates * H)`.
    QuantizedTransposed,
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
    weights: Weights,
) -> RelResult {
    let (Some((x, dt)), Some((w, wdt)), Some((r, rdt))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    let quantized = weights == Weights::QuantizedTransposed;
    let (w_what, r_what) = if quantized {
        (
            "`W` `(num_directions, input_size, gates * hidden_size)`",
            "`R` `(num_directions, hidden_size, gates * hidden_size)`",
        )
    } else {
        (
            "`W` `(num_directions, gates * hidden_size, input_size)`",
            "`R` `(num_directions, gates * hidden_size, hidden_size)`",
        )
    };
    for (i, d, what) in [
        (0, &x, "`X` `(seq_length, batch_size, input_size)`"),
        (1, &w, w_what),
        (2, &r, r_what),
    ] {
        if d.len() != 3 {
            let t = shown(cx, i);
            return Err(RelError::at(i, format!("`{t}` must be {what}")));
        }
    }
    // Rows and columns as ONNX stores them.
    let (w, r) = if quantized {
        (vec![w[0], w[2], w[1]], vec![r[0], r[2], r[1]])
    } else {
        cx.unify_dtype(dt, wdt, 1)?;
        cx.unify_dtype(dt, rdt, 2)?;
        (w, r)
    };
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
    let gh = cx.tcx().dims.scale(hidden, gates).map_err(arith(1))?;
    for (i, dims) in [(1, &w), (2, &r)] {
        let name = if i == 1 { "W" } else { "R" };
        same_dim(cx, dims[0], d, i, |a, b| {
            format!("`{name}` has {a} directions, and `direction` makes {b}")
        })?;
        same_dim(cx, dims[1], gh, i, |a, b| {
            let rows = if quantized { "columns" } else { "rows" };
            format!("`{name}` has {a} {rows}, and {gates} gates of the hidden size make {b}")
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
            let want = cx.tcx().dims.scale(hidden, k).map_err(arith(i))?;
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

onnx_ops! {
    "" RNN since 7 => "onnx.rnn"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "" GRU since 7 => "onnx.rnn"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        gates: Const(AttrConst::Int(3)), hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "" LSTM since 7 => "onnx.lstm"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6), Opt(7)) {
        hidden_size: Attr("hidden_size"), direction: Attr("direction"), layout: Attr("layout")
    } -> Each;
    "com.microsoft" DynamicQuantizeLSTM since 1 => "ort.dynamic_quantize_lstm"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5), Opt(6), Opt(7), In(8), In(9), In(10), In(11)) {
        hidden_size: Attr("hidden_size"), direction: Attr("direction"), input_forget: Attr("input_forget")
    } -> Each;
}
