//! The other tensor operators: `CumSum`, `CumProd`, `ReverseSequence`, `BitCast` and
//! `TfIdfVectorizer`, and the `ai.onnx.ml` operators `LinearClassifier`, `Normalizer`,
//! `ArrayFeatureExtractor`, `TreeEnsemble` and `TreeEnsembleRegressor`.

use super::{axis_in, same_dim};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use crate::value;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, DType, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `CumSum` / `CumProd`: the input's type; `axis` is a scalar.
    onnx.cumulative : fn<a, x, b>(data: a, axis: x) -> b where OnnxCumulative, level 10;

    /// ONNX `ReverseSequence`: the input's type; `sequence_lens` has one length per
    /// element of `batch_axis`.
    onnx.reverse_sequence : fn<a, l, b>(data: a, sequence_lens: l) -> b where OnnxReverseSequence,
        attrs { batch_axis: int = 1, time_axis: int = 0 },
        level 10;

    /// ONNX `BitCast`: the input's shape as `dtype`, of the same bit width.
    onnx.bitcast : fn<a, b>(data: a) -> b where OnnxBitCast,
        attrs { dtype: dtype },
        level 10;

    /// ONNX `TfIdfVectorizer`: the last axis becomes `max(ngram_indexes) + 1`, float32.
    onnx.tfidf : fn<a, b>(data: a) -> b where OnnxTfIdf,
        attrs { ngram_indexes: [int] },
        level 10;

    /// ONNX-ML `LinearClassifier`: `X` `(N, C)` (or `(C)`, one example) gives the labels
    /// `(N)` (int64, or strings with `string_labels`) and the scores `(N, classes)`,
    /// float32.
    onnx.linear_classifier : fn<a, b>(data: a) -> b where OnnxLinearClassifier,
        attrs { classes: int, string_labels: bool = false },
        level 10;

    /// ONNX-ML `ArrayFeatureExtractor`: the last axis of `data` indexed by `indices`
    /// (int64, all their elements): `(.., N)` gives `(.., K)`, and a vector `(1, K)`, as
    /// onnxruntime does.
    onnx.array_feature_extractor : fn<a, i, b>(data: a, indices: i) -> b where OnnxArrayFeatureExtractor,
        level 10;

    /// ONNX-ML `TreeEnsemble` and `TreeEnsembleRegressor`: `X` `(N, F)` gives
    /// `(N, n_targets)`, of `X`'s dtype, or float32 with `float32_out`.
    onnx.tree_ensemble : fn<a, b>(data: a) -> b where OnnxTreeEnsemble,
        attrs { n_targets: int, float32_out: bool = false },
        level 10;
}

/// `LinearClassifier`'s number of classes: its integer labels' (two scores for one set
/// of coefficients of a binary classifier, as onnxruntime gives), or its intercepts'.
fn linear_classes(
    attrs: &crate::attr::NodeAttrs<'_>,
) -> Result<Option<relay_core::AttrValue>, crate::ops::AttrFnError> {
    let labels = match attrs.get("classlabels_strings") {
        Some(s) => s.strings.len(),
        None => attrs.ints("classlabels_ints").map_or(0, |l| l.len()),
    };
    let intercepts = attrs.get("intercepts").map_or(0, |a| a.floats.len());
    let classes = if labels == 2 && intercepts == 1 {
        2
    } else {
        intercepts.max(labels)
    };
    if classes == 0 {
        return Err("`LinearClassifier` needs its `intercepts`".into());
    }
    Ok(Some(relay_core::AttrValue::Int(classes as i64)))
}

/// Whether a classifier's labels are strings (`classlabels_strings`).
fn string_labels(
    attrs: &crate::attr::NodeAttrs<'_>,
) -> Result<Option<relay_core::AttrValue>, crate::ops::AttrFnError> {
    let strings = attrs.get("classlabels_strings").is_some();
    Ok(Some(relay_core::AttrValue::Bool(strings)))
}

/// `OnnxLinearClassifier(data, out)`.
#[relation(OnnxLinearClassifier)]
pub fn onnx_linear_classifier(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let n = match x.len() {
        1 => cx.tcx().dims.konst(1),
        2 => x[0],
        _ => {
            let t = shown(cx, 0);
            return Err(RelError::at(0, format!("`{t}` must be `(N, C)` or `(C)`")));
        }
    };
    let classes = cx.attrs().int("classes")?.unwrap_or(1);
    let e = cx.tcx().dims.konst(classes);
    // The labels `(N)` int64 and the scores `(N, classes)` float32, as the node asks.
    let fields = crate::ops::nn::out_fields(cx, 1, 2)?;
    let labels = if cx.attrs().bool("string_labels")?.unwrap_or(false) {
        DType::STRING
    } else {
        DType::INT64
    };
    crate::ops::nn::set_field(cx, &fields, 1, 0, &[n], DTy::Known(labels))?;
    crate::ops::nn::set_field(cx, &fields, 1, 1, &[n, e], DTy::Known(DType::FLOAT32))?;
    Ok(Progress::Solved)
}

/// `OnnxCumulative(data, axis, out)`.
#[relation(OnnxCumulative)]
pub fn onnx_cumulative(cx: &mut RelCx<'_>) -> RelResult {
    if let Some((a, _)) = cx.tensor_dims(1)? {
        if a.len() > 1
            || a.first()
                .is_some_and(|&d| cx.tcx_ref().dims.as_const(d) != Some(1))
        {
            let t = shown(cx, 1);
            return Err(RelError::at(1, format!("`axis` is a scalar, and is `{t}`")));
        }
    }
    let t = cx.arg(0);
    cx.unify(2, t)?;
    Ok(Progress::Solved)
}

/// `OnnxReverseSequence(data, sequence_lens, out)`.
#[relation(OnnxReverseSequence)]
pub fn onnx_reverse_sequence(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let b = cx.attrs().int("batch_axis")?.unwrap_or(1);
    let t = cx.attrs().int("time_axis")?.unwrap_or(0);
    if dims.len() < 2 {
        let s = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input has rank at least 2, and is `{s}`"),
        ));
    }
    let (bk, tk) = (axis_in(b, dims.len(), 0)?, axis_in(t, dims.len(), 0)?);
    if bk == tk || bk > 1 || tk > 1 {
        return Err(RelError::at(
            0,
            format!("`batch_axis` ({b}) and `time_axis` ({t}) are 0 and 1, in some order"),
        ));
    }
    if let Some((l, _)) = cx.tensor_dims(1)? {
        if l.len() != 1 {
            let s = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("`sequence_lens` is a vector, and is `{s}`"),
            ));
        }
        same_dim(
            cx,
            l[0],
            dims[bk],
            1,
            "`sequence_lens` has one length a batch element",
        )?;
    }
    out_tensor(cx, 2, &dims, dt)
}

/// `OnnxBitCast(data, out)`.
#[relation(OnnxBitCast)]
pub fn onnx_bitcast(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let to = cx
        .attrs()
        .dtype("dtype")?
        .ok_or_else(|| RelError::at(0, "`to` is required"))?;
    // ONNX stores a bool in a byte.
    let width = |d: DType| if d == DType::BOOL { 8 } else { d.bits() };
    if let DTy::Known(from) = cx.resolve_dtype(dt) {
        if width(from) != width(to) {
            return Err(RelError::at(
                0,
                format!(
                    "`{from}` is {} bits wide and `{to}` {}: a bit cast keeps the width",
                    width(from),
                    width(to)
                ),
            ));
        }
    }
    out_tensor(cx, 1, &dims, DTy::Known(to))
}

/// `OnnxTfIdf(data, out)`.
#[relation(OnnxTfIdf)]
pub fn onnx_tfidf(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let idx = cx.attrs().ints("ngram_indexes")?.unwrap_or_default();
    let n = idx
        .iter()
        .copied()
        .max()
        .map_or(0, |m| m.saturating_add(1))
        .max(0);
    let n = cx.tcx().dims.konst(n);
    let out = match dims.len() {
        1 => vec![n],
        2 => vec![dims[0], n],
        _ => {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input is `(N)` or `(B, N)`, and is `{t}`"),
            ));
        }
    };
    out_tensor(cx, 1, &out, DTy::Known(DType::FLOAT32))
}

/// `OnnxArrayFeatureExtractor(data, indices, out)`.
#[relation(OnnxArrayFeatureExtractor)]
pub fn onnx_array_feature_extractor(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((i, it))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if it != DTy::Known(DType::INT64) {
        let t = shown(cx, 1);
        return Err(RelError::at(
            1,
            format!("the indices are `{t}`, and must be int64"),
        ));
    }
    let k = cx
        .tcx()
        .dims
        .product(&i)
        .map_err(crate::ops::util::arith(1))?;
    let out = match x.split_last() {
        None => {
            let t = shown(cx, 0);
            return Err(RelError::at(0, format!("`{t}` has no axis to index")));
        }
        Some((_, [])) => vec![cx.tcx().dims.konst(1), k],
        Some((_, lead)) => lead.iter().copied().chain([k]).collect(),
    };
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxTreeEnsemble(data, out)`.
#[relation(OnnxTreeEnsemble)]
pub fn onnx_tree_ensemble(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`{t}` must be `(N, F)`: a batch of feature vectors"),
        ));
    }
    let n = cx.attrs().int("n_targets")?.unwrap_or(1);
    if n < 1 {
        return Err(RelError::at(
            0,
            format!("`n_targets` is {n}, and must be at least 1"),
        ));
    }
    let dt = if cx.attrs().bool("float32_out")?.unwrap_or(false) {
        DTy::Known(DType::FLOAT32)
    } else {
        dt
    };
    let n = cx.tcx().dims.konst(n);
    out_tensor(cx, 1, &[x[0], n], dt)
}

onnx_ops! {
    "" ReverseSequence since 10 => "onnx.reverse_sequence"(In(0), In(1)) { batch_axis: Attr("batch_axis"), time_axis: Attr("time_axis") };
    "" CumSum since 11 => "onnx.cumulative"(In(0), In(1)) value value::cumsum;
    "" CumProd since 26 => "onnx.cumulative"(In(0), In(1));
    "" BitCast since 26 => "onnx.bitcast"(In(0)) { dtype: With(crate::ops::util::dtype_attr_to) };

    "" TfIdfVectorizer since 9 => "onnx.tfidf"(In(0)) { ngram_indexes: Attr("ngram_indexes") };
    "ai.onnx.ml" LinearClassifier since 1 => "onnx.linear_classifier"(In(0)) {
        classes: With(linear_classes), string_labels: With(string_labels)
    } -> Each;
    "ai.onnx.ml" Normalizer since 1 => "onnx.unary"(In(0));
    "ai.onnx.ml" ArrayFeatureExtractor since 1 => "onnx.array_feature_extractor"(In(0), In(1));
    "ai.onnx.ml" TreeEnsemble since 5 => "onnx.tree_ensemble"(In(0)) { n_targets: Attr("n_targets") };
    "ai.onnx.ml" TreeEnsembleRegressor since 1 => "onnx.tree_ensemble"(In(0)) {
        n_targets: Attr("n_targets"), float32_out: Const(AttrConst::Bool(true))
    };
}
