//! The string operators: `StringNormalizer`, `StringConcat`, `StringSplit`,
//! `RegexFullMatch`, and `ai.onnx.ml`'s `LabelEncoder`. Strings are the `string` dtype,
//! which only ONNX models have.

use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::ops::elementwise::broadcast_pair;
use crate::ops::nn::{out_fields, set_field};
use crate::ops::util::{fresh_of, out_tensor, shown};
use crate::ops::AttrFnError;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Progress, RelCx, RelError, RelResult,
};

relay_op! {
    /// ONNX `StringNormalizer`: `(C)` or `(1, C)` strings, of `C` again without
    /// `stopwords`, else of as many as are left (a new symbol, `fresh`).
    onnx.string_normalizer : fn<a, f, b>(data: a, fresh: f) -> b where OnnxStringNormalizer,
        attrs { stopwords: bool = false },
        level 10;

    /// ONNX `StringConcat`: the two string tensors broadcast.
    onnx.string_concat : fn<a, b, c>(lhs: a, rhs: b) -> c where OnnxStringConcat, level 10;

    /// ONNX `StringSplit`: strings `(..)` give their substrings `(.., fresh)` (as many as
    /// the longest split has, a new symbol) and their counts `(..)` in int64.
    onnx.string_split : fn<a, f, b>(data: a, fresh: f) -> b where OnnxStringSplit, level 10;

    /// ONNX `RegexFullMatch`: strings give booleans of their shape.
    onnx.regex_full_match : fn<a, b>(data: a) -> b where OnnxRegexFullMatch, level 10;

    /// ONNX-ML `LabelEncoder`: a tensor of keys gives the tensor of their values, of the
    /// values' dtype (`to`), from the keys' dtype (`from`).
    onnx.label_encoder : fn<a, b>(data: a) -> b where OnnxLabelEncoder,
        attrs { from: dtype, to: dtype },
        level 10;
}

/// Argument `i`'s dimensions if it is a tensor of strings, an error if it is another.
fn strings(cx: &mut RelCx<'_>, i: usize) -> Result<Option<Vec<Dim>>, RelError> {
    let Some((d, dt)) = cx.tensor_dims(i)? else {
        return Ok(None);
    };
    match dt {
        DTy::Known(DType::STRING) => Ok(Some(d)),
        DTy::Known(_) => {
            let t = shown(cx, i);
            Err(RelError::at(
                i,
                format!("`{t}` must be a tensor of strings"),
            ))
        }
        _ => Ok(None),
    }
}

/// `OnnxStringNormalizer(data, fresh, out)`.
#[relation(OnnxStringNormalizer)]
pub fn onnx_string_normalizer(cx: &mut RelCx<'_>) -> RelResult {
    let (Some(x), Some(n)) = (strings(cx, 0)?, Some(fresh_of(cx, 1)?)) else {
        return Ok(Progress::NotYet);
    };
    let one = |cx: &RelCx<'_>, d: Dim| cx.tcx_ref().dims.as_const(d) == Some(1);
    let ok = match x.len() {
        1 => true,
        2 => one(cx, x[0]),
        _ => false,
    };
    if !ok {
        let t = shown(cx, 0);
        return Err(RelError::at(0, format!("`{t}` must be `(C)` or `(1, C)`")));
    }
    let mut y = x;
    if cx.attrs().bool("stopwords")?.unwrap_or(false) {
        *y.last_mut().expect("rank 1 or 2") = n;
    }
    out_tensor(cx, 2, &y, DTy::Known(DType::STRING))
}

/// `OnnxStringConcat(lhs, rhs, out)`.
#[relation(OnnxStringConcat)]
pub fn onnx_string_concat(cx: &mut RelCx<'_>) -> RelResult {
    if strings(cx, 0)?.is_none() || strings(cx, 1)?.is_none() {
        return Ok(Progress::NotYet);
    }
    match broadcast_pair(cx)? {
        Some((out, dt)) => out_tensor(cx, 2, &out, dt),
        None => Ok(Progress::NotYet),
    }
}

/// `OnnxStringSplit(data, fresh, out)`.
#[relation(OnnxStringSplit)]
pub fn onnx_string_split(cx: &mut RelCx<'_>) -> RelResult {
    let (Some(x), Some(n)) = (strings(cx, 0)?, Some(fresh_of(cx, 1)?)) else {
        return Ok(Progress::NotYet);
    };
    let mut y = x.clone();
    y.push(n);
    let fields = out_fields(cx, 2, 2)?;
    set_field(cx, &fields, 2, 0, &y, DTy::Known(DType::STRING))?;
    set_field(cx, &fields, 2, 1, &x, DTy::Known(DType::INT64))?;
    Ok(Progress::Solved)
}

/// `OnnxRegexFullMatch(data, out)`.
#[relation(OnnxRegexFullMatch)]
pub fn onnx_regex_full_match(cx: &mut RelCx<'_>) -> RelResult {
    let Some(x) = strings(cx, 0)? else {
        return Ok(Progress::NotYet);
    };
    out_tensor(cx, 1, &x, DTy::Known(DType::BOOL))
}

/// `OnnxLabelEncoder(data, out)`.
#[relation(OnnxLabelEncoder)]
pub fn onnx_label_encoder(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let (Some(from), Some(to)) = (cx.attrs().dtype("from")?, cx.attrs().dtype("to")?) else {
        return Ok(Progress::NotYet);
    };
    if let DTy::Known(d) = dt {
        if d != from {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("`{t}` is encoded by keys of {from}"),
            ));
        }
    }
    out_tensor(cx, 1, &x, DTy::Known(to))
}

/// `StringNormalizer`'s stopwords: whether it has any.
fn has_stopwords(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    let n = a.get("stopwords").map_or(0, |s| s.strings.len());
    Ok(Some(AttrValue::Bool(n > 0)))
}

/// The dtype of `LabelEncoder`'s keys (`from`) or values (`to`): by the attribute that
/// holds them, a list (`keys_strings`, `values_int64s`, ...) or a tensor
/// (`keys_tensor`).
fn label_dtype(a: &NodeAttrs<'_>, side: &str) -> Result<Option<AttrValue>, AttrFnError> {
    for (suffix, dt) in [
        ("strings", DType::STRING),
        ("int64s", DType::INT64),
        ("floats", DType::FLOAT32),
    ] {
        if a.get(&format!("{side}_{suffix}")).is_some() {
            return Ok(Some(AttrValue::DType(dt)));
        }
    }
    if let Some(t) = a.get(&format!("{side}_tensor")).and_then(|t| t.t.as_ref()) {
        return match crate::check::onnx_dtype(t.data_type) {
            Ok(d) => Ok(Some(AttrValue::DType(d))),
            Err(_) => Err(format!("`{side}_tensor` has ONNX data type {}", t.data_type).into()),
        };
    }
    Err(format!("`LabelEncoder` needs its {side} (`{side}_strings`, `{side}_int64s`, `{side}_floats` or `{side}_tensor`)").into())
}

fn keys_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    label_dtype(a, "keys")
}

fn values_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    label_dtype(a, "values")
}

onnx_ops! {
    "" StringNormalizer since 10 => "onnx.string_normalizer"(In(0), Fresh) { stopwords: With(has_stopwords) };
    "" StringConcat since 20 => "onnx.string_concat"(In(0), In(1));
    "" StringSplit since 20 => "onnx.string_split"(In(0), Fresh) -> Each;
    "" RegexFullMatch since 20 => "onnx.regex_full_match"(In(0));
    "ai.onnx.ml" LabelEncoder since 1 => "onnx.label_encoder"(In(0)) { from: With(keys_dtype), to: With(values_dtype) };
}
