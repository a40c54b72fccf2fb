//! The losses: `SoftmaxCrossEntropyLoss` and `NegativeLogLikelihoodLoss`.

use super::{dtype_of, out_fields, same_dim};
use crate::onnx_ops;
use crate::ops::util::shown;
use relay_core::{relation, relay_op, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `SoftmaxCrossEntropyLoss` and `NegativeLogLikelihoodLoss`: the loss (the
    /// labels' shape when `reduction` is `none`, else a scalar) and, when asked for, the
    /// log probabilities (the scores' shape).
    onnx.loss : fn<s, l, w, b>(scores: s, labels: l, weights: w) -> b where OnnxLoss,
        attrs { reduction: str = "mean" },
        level 10;
}

/// `OnnxLoss(scores, labels, weights, out tuple)`.
#[relation(OnnxLoss)]
pub fn onnx_loss(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((s, dt)), Some((l, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if s.len() < 2 || l.len() + 1 != s.len() {
        let (a, b) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("the labels `{b}` are the scores `{a}` without their class axis (1)"),
        ));
    }
    for (j, &lj) in l.iter().enumerate() {
        let k = if j == 0 { 0 } else { j + 1 };
        same_dim(
            cx,
            s[k],
            lj,
            1,
            &format!("axis {j} of the labels is not axis {k} of the scores"),
        )?;
    }
    if let Some((w, _)) = match dtype_of(cx, 2)? {
        Some(Some(_)) => cx.tensor_dims(2)?,
        _ => None,
    } {
        if w.len() != 1 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("the weights are a vector of the classes, and are `{t}`"),
            ));
        }
        same_dim(
            cx,
            w[0],
            s[1],
            2,
            "`weights` has one element a class (axis 1 of the scores)",
        )?;
    }
    let loss = match cx.attrs().str("reduction")?.unwrap_or("mean") {
        "none" => l.clone(),
        "mean" | "sum" => Vec::new(),
        other => {
            return Err(RelError::at(
                0,
                format!("`reduction` is \"{other}\", and must be \"none\", \"mean\" or \"sum\""),
            ))
        }
    };
    let loss = cx.mk_tensor(&loss, dt);
    let log_prob = cx.mk_tensor(&s, dt);
    out_fields(cx, 3, &[loss, log_prob])
}

onnx_ops! {
    "" SoftmaxCrossEntropyLoss since 12 => "onnx.loss"(In(0), In(1), Opt(2)) { reduction: Attr("reduction") } -> Each;
    "" NegativeLogLikelihoodLoss since 12 => "onnx.loss"(In(0), In(1), Opt(2)) { reduction: Attr("reduction") } -> Each;
}
