//! Element-wise operators: unary maps, NumPy-broadcasting binary operators, comparisons,
//! logic, the variadic `Sum`/`Mean`/`Max`/`Min`, `Where`, `Pow` and the activations.

use super::util::{broadcast, out_tensor};
use crate::onnx_ops;
use crate::value;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, Progress, RelCx, RelError, RelResult, TyData};

relay_op! {
    /// An element-wise ONNX operator with no Relay counterpart (`Elu`, `Selu`,
    /// `HardSigmoid`, `Softplus`, ...): the result is the input's type.
    onnx.unary : fn<a, b>(data: a) -> b where relay_ops::relations::Identity, level 10;

    /// ONNX's variadic broadcasting operators (`Sum`, `Mean`, `Max`, `Min`): the fields
    /// of the tuple broadcast together; one dtype.
    onnx.variadic : fn<a, b>(data: a) -> b where OnnxVariadic, level 10;

    /// ONNX `Pow`: the base and the exponent broadcast; the result has the base's dtype
    /// (the exponent's may differ).
    onnx.pow : fn<a, e, b>(base: a, exponent: e) -> b where OnnxPow, level 10;

    /// ONNX's broadcasting binary operators (`Add`, `Mul`, `And`, ...): NumPy's rules,
    /// where two different symbolic dimensions meet as they must when the model runs
    /// (equal, or one of them 1); one dtype.
    onnx.binary : fn<a, b, c>(lhs: a, rhs: b) -> c where OnnxBinary, level 10;

    /// ONNX's comparisons (`Equal`, `Less`, ...): broadcast as `onnx.binary`, a `bool`
    /// result.
    onnx.compare : fn<a, b, c>(lhs: a, rhs: b) -> c where OnnxCompare, level 10;

    /// ONNX `Where`: a `bool` condition and two values of one dtype, the three broadcast.
    onnx.where : fn<c, a, b, o>(condition: c, x: a, y: b) -> o where OnnxWhere, level 10;

    /// ONNX `Clip`: the result is the input's type; `min` and `max`, when given, are
    /// scalars of its dtype.
    onnx.clip : fn<a, l, h, b>(data: a, min: l, max: h) -> b where OnnxClip, level 10;

    /// An ONNX operator whose first input's type is its result's, whatever its other
    /// inputs (`Clip`'s bounds, `Trilu`'s `k`, a scatter's indices and updates).
    onnx.like_first : fn<a, r, b>(data: a, rest: r) -> b where OnnxLikeFirst, level 10;
}

/// `OnnxVariadic(Tuple(..fs), out)`.
#[relation(OnnxVariadic)]
pub fn onnx_variadic(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.resolve(cx.arg(0));
    let TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    if fields.is_empty() {
        return Err(RelError::at(0, "it needs at least one input"));
    }
    let mut acc: Option<(Vec<relay_core::Dim>, DTy)> = None;
    for (i, &f) in fields.iter().enumerate() {
        let f = cx.resolve(f);
        let TyData::Tensor(s, dt) = *cx.data(f) else {
            return Ok(Progress::NotYet);
        };
        let Some(dims) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        acc = Some(match acc {
            None => (dims, dt),
            Some((prev, pdt)) => {
                cx.unify_dtype(pdt, dt, 0)
                    .map_err(|e| RelError::at(0, format!("input {i}: {}", e.message)))?;
                (broadcast(cx, &prev, &dims, 0)?, pdt)
            }
        });
    }
    let (dims, dt) = acc.expect("at least one field");
    out_tensor(cx, 1, &dims, dt)
}

/// Arguments 0 and 1 broadcast, and their one dtype; `None` while either is unknown.
pub(crate) fn broadcast_pair(
    cx: &mut RelCx<'_>,
) -> Result<Option<(Vec<relay_core::Dim>, DTy)>, RelError> {
    let (Some((a, da)), Some((b, db))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(None);
    };
    cx.unify_dtype(da, db, 1)?;
    Ok(Some((broadcast(cx, &a, &b, 1)?, da)))
}

/// `OnnxBinary(lhs, rhs, out)`.
#[relation(OnnxBinary)]
pub fn onnx_binary(cx: &mut RelCx<'_>) -> RelResult {
    match broadcast_pair(cx)? {
        // Arithmetic and logic are not defined on strings (`StringConcat` joins them).
        Some((_, DTy::Known(relay_core::DType::STRING))) => {
            let t = crate::ops::util::shown(cx, 0);
            Err(RelError::at(
                0,
                format!("`{t}`: this operator does not take strings"),
            ))
        }
        Some((out, dt)) => out_tensor(cx, 2, &out, dt),
        None => Ok(Progress::NotYet),
    }
}

/// `OnnxCompare(lhs, rhs, out)`.
#[relation(OnnxCompare)]
pub fn onnx_compare(cx: &mut RelCx<'_>) -> RelResult {
    match broadcast_pair(cx)? {
        Some((out, _)) => out_tensor(cx, 2, &out, DTy::Known(relay_core::DType::BOOL)),
        None => Ok(Progress::NotYet),
    }
}

/// `OnnxWhere(condition, x, y, out)`.
#[relation(OnnxWhere)]
pub fn onnx_where(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((c, dc)), Some((a, da)), Some((b, db))) =
        (cx.tensor_dims(0)?, cx.tensor_dims(1)?, cx.tensor_dims(2)?)
    else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(dc, DTy::Known(relay_core::DType::BOOL), 0)?;
    cx.unify_dtype(da, db, 2)?;
    let ab = broadcast(cx, &a, &b, 2)?;
    let out = broadcast(cx, &c, &ab, 0)?;
    out_tensor(cx, 3, &out, da)
}

/// `OnnxPow(base, exponent, out)`.
#[relation(OnnxPow)]
pub fn onnx_pow(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, dt)), Some((b, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let out = broadcast(cx, &a, &b, 1)?;
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxClip(data, min, max, out)`.
#[relation(OnnxClip)]
pub fn onnx_clip(cx: &mut RelCx<'_>) -> RelResult {
    let Some((_, dt)) = cx.tensor(0)? else {
        return Ok(Progress::NotYet);
    };
    for (i, what) in [(1, "min"), (2, "max")] {
        let t = cx.resolve(cx.arg(i));
        if matches!(cx.data(t), TyData::Tuple(f) if f.is_empty()) {
            continue;
        }
        let Some((dims, d)) = cx.tensor_dims(i)? else {
            return Ok(Progress::NotYet);
        };
        let scalar =
            dims.is_empty() || (dims.len() == 1 && cx.tcx_ref().dims.as_const(dims[0]) == Some(1));
        if !scalar {
            let shown = cx.show(t);
            return Err(RelError::at(
                i,
                format!("`{what}` is `{shown}`, and must be a scalar"),
            ));
        }
        cx.unify_dtype(dt, d, i)?;
    }
    let t = cx.arg(0);
    cx.unify(3, t)?;
    Ok(Progress::Solved)
}

/// `OnnxLikeFirst(data, rest, out)`.
#[relation(OnnxLikeFirst)]
pub fn onnx_like_first(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.arg(0);
    cx.unify(2, t)?;
    Ok(Progress::Solved)
}

onnx_ops! {
    "" Abs since 6 => "abs"(In(0)) value value::abs;
    "" Neg since 6 => "negative"(In(0)) value value::neg;
    "" Acos since 7 => "acos"(In(0));
    "" Acosh since 9 => "acosh"(In(0));
    "" Asin since 7 => "asin"(In(0));
    "" Asinh since 9 => "asinh"(In(0));
    "" Atan since 7 => "atan"(In(0));
    "" Atanh since 9 => "atanh"(In(0));
    "" Cos since 7 => "cos"(In(0));
    "" Cosh since 9 => "cosh"(In(0));
    "" Sin since 7 => "sin"(In(0));
    "" Sinh since 9 => "sinh"(In(0));
    "" Tan since 7 => "tan"(In(0));
    "" Tanh since 6 => "tanh"(In(0));
    "" Ceil since 6 => "ceil"(In(0)) value value::ceil;
    "" Floor since 6 => "floor"(In(0)) value value::floor;
    "" Round since 11 => "round"(In(0)) value value::round;
    "" Sign since 9 => "sign"(In(0));
    "" Erf since 9 => "erf"(In(0));
    "" Exp since 6 => "exp"(In(0));
    "" Log since 6 => "log"(In(0));
    "" Sqrt since 6 => "sqrt"(In(0));
    "" Reciprocal since 6 => "onnx.unary"(In(0));
    "" Relu since 6 => "nn.relu"(In(0)) value value::relu;
    "" Sigmoid since 6 => "sigmoid"(In(0));
    "" LeakyRelu since 6 => "nn.leaky_relu"(In(0)) { alpha: AttrOr("alpha", AttrConst::Float(0.01)) };
    "" Elu since 6 => "onnx.unary"(In(0));
    "" Selu since 6 => "onnx.unary"(In(0));
    "" Celu since 12 => "onnx.unary"(In(0));
    "" ThresholdedRelu since 10 => "onnx.unary"(In(0));
    "" HardSigmoid since 6 => "onnx.unary"(In(0));
    "" HardSwish since 14 => "onnx.unary"(In(0));
    "" Softplus since 1 => "onnx.unary"(In(0));
    "" Softsign since 1 => "onnx.unary"(In(0));
    "" Mish since 18 => "onnx.unary"(In(0));
    "" Gelu since 20 => "onnx.unary"(In(0));
    "" Swish since 24 => "onnx.unary"(In(0));
    "" Shrink since 9 => "onnx.unary"(In(0));
    "" IsNaN since 9 => "isnan"(In(0));
    "" IsInf since 10 => "isinf"(In(0));
    "" Not since 1 => "logical_not"(In(0)) value value::not;
    "" BitwiseNot since 18 => "bitwise_not"(In(0));
    "" Add since 7 => "onnx.binary"(In(0), In(1)) value value::add;
    "" Sub since 7 => "onnx.binary"(In(0), In(1)) value value::sub;
    "" Mul since 7 => "onnx.binary"(In(0), In(1)) value value::mul;
    "" Div since 7 => "onnx.binary"(In(0), In(1)) value value::div;
    "" Mod since 10 => "onnx.binary"(In(0), In(1)) value value::modulo;
    "" Pow since 7 => "onnx.pow"(In(0), In(1));
    "" PRelu since 7 => "onnx.binary"(In(0), In(1));
    "" BitShift since 11 => "onnx.binary"(In(0), In(1));
    "" BitwiseAnd since 18 => "onnx.binary"(In(0), In(1));
    "" BitwiseOr since 18 => "onnx.binary"(In(0), In(1));
    "" BitwiseXor since 18 => "onnx.binary"(In(0), In(1));
    "" And since 7 => "onnx.binary"(In(0), In(1)) value value::and;
    "" Or since 7 => "onnx.binary"(In(0), In(1)) value value::or;
    "" Xor since 7 => "onnx.binary"(In(0), In(1)) value value::xor;
    "" Equal since 7 => "onnx.compare"(In(0), In(1)) value value::equal;
    "" Less since 7 => "onnx.compare"(In(0), In(1)) value value::less;
    "" Greater since 7 => "onnx.compare"(In(0), In(1)) value value::greater;
    "" LessOrEqual since 12 => "onnx.compare"(In(0), In(1));
    "" GreaterOrEqual since 12 => "onnx.compare"(In(0), In(1));
    "" Where since 9 => "onnx.where"(In(0), In(1), In(2)) value value::where_;
    "" Sum since 8 => "onnx.variadic"(Rest(0)) value value::same;
    "" Mean since 8 => "onnx.variadic"(Rest(0));
    "" Max since 8 => "onnx.variadic"(Rest(0)) value value::max;
    "" Min since 8 => "onnx.variadic"(Rest(0)) value value::min;
    "" Clip since 6 => "onnx.clip"(In(0), Opt(1), Opt(2));
    "" Trilu since 14 => "onnx.like_first"(In(0), Rest(1));
    "" ScatterElements since 11 => "onnx.like_first"(In(0), Rest(1));
    "" Scatter since 9 => "onnx.like_first"(In(0), Rest(1));
    "" ScatterND since 11 => "onnx.like_first"(In(0), Rest(1));
    "" TensorScatter since 24 => "onnx.like_first"(In(0), Rest(1));
    "ai.onnx.ml" Binarizer since 1 => "onnx.unary"(In(0));
    "" MeanVarianceNormalization since 9 => "onnx.unary"(In(0));
    "" LpNormalization since 1 => "onnx.unary"(In(0));
}
