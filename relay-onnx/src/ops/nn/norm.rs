//! The normalizations: `BatchNormalization`, `InstanceNormalization`,
//! `LayerNormalization`, `GroupNormalization`, `RMSNormalization`, and `LRN` (TVM's
//! `nn.lrn`).

use super::{as_const, konst, opt_tensor, out_fields, same_dim, set_field};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, Dim, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `BatchNormalization`: the result is `data`'s type; further outputs (the
    /// running or saved means and variances) are `(C)` of the mean's dtype.
    onnx.batch_norm : fn<x, s, b, m, v, y>(data: x, scale: s, bias: b, mean: m, var: v) -> y where OnnxBatchNorm,
        level 10;

    /// ONNX `LayerNormalization`: the result is `data`'s type; `Mean` and `InvStdDev`
    /// are `data`'s axes before `axis` followed by 1s, of the `stash_type` dtype.
    onnx.layer_norm : fn<x, s, b, y>(data: x, scale: s, bias: b) -> y where OnnxLayerNorm,
        attrs { axis: int = -1, stash_type: int = 1 },
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
    let k = crate::ops::util::norm_axis(a, r)
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
        let k = crate::ops::util::norm_axis(a, r)
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
    "" BatchNormalization since 7 => "onnx.batch_norm"(In(0), In(1), In(2), In(3), In(4)) -> Each;
    "" InstanceNormalization since 6 => "onnx.norm"(In(0), In(1), In(2)) { channels: Const(AttrConst::Int(1)) };
    /// ONNX has it from opset 17; onnxruntime registers it in the default domain from
    /// version 1, and its `LayerNormFusion` writes it into models of any opset.
    "" LayerNormalization since 1 => "onnx.layer_norm"(In(0), In(1), Opt(2)) {
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
}
