//! The optimizers of `ai.onnx.preview.training` (`Adagrad`, `Momentum`, `Adam`): each
//! updated tensor and optimizer state has the type of the one it replaces.

use relay_core::{relation, relay_op, Progress, RelCx, RelError, RelResult, TyData};

relay_op! {
    /// An optimizer step over `(R, T, X1..Xn, G1..Gn, S1..Sn [, S'1..S'n])`: the results
    /// are `X1..Xn` and each state updated, each of its input's type. Each of the three
    /// ONNX optimizers is this operator over all its inputs, with one output per result.
    onnx.optimizer_update : fn<a, b>(inputs: a) -> b where OnnxOptimizerUpdate, level 10,
        onnx "ai.onnx.preview.training" Adagrad since 1 { inputs(..Xs) => (inputs: Xs), outputs(..Ys) },
        onnx "ai.onnx.preview.training" Momentum since 1 { inputs(..Xs) => (inputs: Xs), outputs(..Ys) },
        onnx "ai.onnx.preview.training" Adam since 1 { inputs(..Xs) => (inputs: Xs), outputs(..Ys) };
}

/// `OnnxOptimizerUpdate(Tuple(R, T, X.., G.., states..), Tuple(X'.., states'..))`.
#[relation(OnnxOptimizerUpdate)]
pub fn onnx_optimizer_update(cx: &mut RelCx<'_>) -> RelResult {
    let (ins, outs) = (cx.resolve(cx.arg(0)), cx.resolve(cx.arg(1)));
    let (TyData::Tuple(ins), TyData::Tuple(outs)) = (cx.data(ins).clone(), cx.data(outs).clone())
    else {
        return Ok(Progress::NotYet);
    };
    // n tensors are optimized: 2 + n * (groups) inputs, n * (groups - 1) outputs.
    let n = (ins.len().saturating_sub(2))
        .checked_sub(outs.len())
        .filter(|&n| n > 0);
    let Some(n) = n.filter(|&n| (ins.len() - 2) % n == 0 && outs.len() % n == 0) else {
        return Err(RelError::at(
            0,
            format!(
                "{} inputs and {} outputs do not make `R`, `T`, the tensors, their gradients and the optimizer's states",
                ins.len(),
                outs.len()
            ),
        ));
    };
    for (j, &o) in outs.iter().enumerate() {
        // The gradients (inputs 2 + n .. 2 + 2n) have no output.
        let i = if j < n { 2 + j } else { 2 + n + j };
        cx.unify_blaming(o, ins[i], 1)?;
    }
    Ok(Progress::Solved)
}
