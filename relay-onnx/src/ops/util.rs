//! What the ONNX relations share: reading a value argument, writing the result,
//! broadcasting, axes; and the attribute functions of the mappings.

use super::AttrFnError;
use crate::attr::NodeAttrs;
use crate::check::onnx_dtype;
use crate::value::ValueCx;
use relay_core::{AttrValue, DTy, Dim, Dims, Progress, RelCx, RelError, RelResult, TyData};
/// A dimension-arithmetic error blaming an argument, and an argument shown: relay-ops' own.
pub use relay_ops::level3::util::{arith, shown};

/// What a value argument ([`Arg::Value`](super::Arg::Value)) holds.
pub enum Val {
    /// Its elements.
    Known(Vec<Dim>),
    /// The input is absent (`()`).
    Absent,
    /// Not known (yet).
    Unknown,
}

/// The value passed as argument `i`.
pub fn value_of(cx: &mut RelCx<'_>, i: usize) -> Result<Val, RelError> {
    let t = cx.resolve(cx.arg(i));
    Ok(match cx.data(t).clone() {
        TyData::Tuple(f) if f.is_empty() => Val::Absent,
        TyData::Tensor(..) => match cx.tensor_dims(i)? {
            Some((d, _)) => Val::Known(d),
            None => Val::Unknown,
        },
        _ => Val::Unknown,
    })
}

/// Unifies argument `arg` (the result) with `Tensor[dims, dt]`: solved.
pub fn out_tensor(cx: &mut RelCx<'_>, arg: usize, dims: &[Dim], dt: DTy) -> RelResult {
    let t = cx.mk_tensor(dims, dt);
    cx.unify(arg, t)?;
    Ok(Progress::Solved)
}

/// `axis` made positive against `rank`; `None` when out of range.
pub fn norm_axis(axis: i64, rank: usize) -> Option<usize> {
    crate::value::norm_index(axis, rank)
}

/// `axis` made positive against `rank`, or an error blaming argument `arg` that names
/// the axis and the rank.
pub fn axis_in(axis: i64, rank: usize, arg: usize) -> Result<usize, RelError> {
    norm_axis(axis, rank)
        .ok_or_else(|| RelError::at(arg, format!("axis {axis} is out of range for rank {rank}")))
}

/// NumPy broadcasting of two shapes; an error blaming `blame` when a pair of constants
/// differ and neither is 1. A symbol against 1 is the symbol; two different symbols are
/// the one that is not known to be 1 (`?` when neither can be chosen).
pub fn broadcast(
    cx: &mut RelCx<'_>,
    a: &[Dim],
    b: &[Dim],
    blame: usize,
) -> Result<Vec<Dim>, RelError> {
    let n = a.len().max(b.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let x = (i + a.len()).checked_sub(n).map(|j| a[j]);
        let y = (i + b.len()).checked_sub(n).map(|j| b[j]);
        let d = match (x, y) {
            (Some(x), None) => x,
            (None, Some(y)) => y,
            (Some(x), Some(y)) => {
                let dims = &cx.tcx_ref().dims;
                match (dims.as_const(x), dims.as_const(y)) {
                    _ if x == y => x,
                    (Some(1), _) => y,
                    (_, Some(1)) => x,
                    // A constant other than 1 against a symbol: the symbol is 1 or the
                    // constant, and the result is the constant either way.
                    (Some(_), None) => x,
                    (None, Some(_)) => y,
                    (Some(p), Some(q)) => {
                        let (ia, ib) = (i + a.len() - n, i + b.len() - n);
                        return Err(RelError::at(
                            blame,
                            format!(
                                "cannot broadcast dimension {ia} of the first input ({p}) with dimension {ib} of the second ({q})"
                            ),
                        ));
                    }
                    (None, None) => {
                        // An unknown is unified with the other. Two different forms over
                        // symbols (`floordiv(H + 1, 2)` against `2*floordiv(..)`, which
                        // agree only at the sizes the model runs at) are equal or one is
                        // 1 whenever the model runs: the result is their `max`, exact
                        // for every run (a zero-sized axis aside).
                        match cx.unify_dim(x, y, blame) {
                            Ok(()) => cx.resolve_dim(x),
                            Err(_) => cx.tcx().dims.max(x, y).map_err(arith(blame))?,
                        }
                    }
                }
            }
            (None, None) => unreachable!("i < n"),
        };
        out.push(d);
    }
    Ok(out)
}

/// `Cast`'s `to`: an ONNX data type number as a dtype.
pub fn dtype_attr_to(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    dtype_attr(a, "to")
}

/// The ONNX data type number of attribute `name` as a dtype attribute.
pub fn dtype_attr(a: &NodeAttrs<'_>, name: &str) -> Result<Option<AttrValue>, AttrFnError> {
    let Some(n) = a.int(name) else {
        return Ok(None);
    };
    match onnx_dtype(n as i32) {
        Ok(d) => Ok(Some(AttrValue::DType(d))),
        Err(Some(t)) => Err(AttrFnError {
            message: format!("`{name}` is {t}, which Relay has no data type for"),
            unsupported: true,
        }),
        Err(None) => Err(format!("`{name}` is {n}, which is no ONNX data type").into()),
    }
}

/// `ConstantOfShape`'s dtype: its `value` tensor's.
pub fn dtype_of_value(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    match a.get("value").and_then(|v| v.t.as_ref()) {
        None => Ok(None),
        Some(t) => match onnx_dtype(t.data_type) {
            Ok(d) => Ok(Some(AttrValue::DType(d))),
            Err(_) => Err(AttrFnError {
                message: format!(
                    "`value` has data type {}, which Relay has no data type for",
                    t.data_type
                ),
                unsupported: true,
            }),
        },
    }
}

/// `Constant`'s shape: its tensor's dims, or those of `value_int(s)` / `value_float(s)`.
pub fn constant_shape(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    let ints = |v: &[i64]| AttrValue::List(v.iter().map(|&i| AttrValue::Int(i)).collect());
    if let Some(t) = a.get("value").and_then(|v| v.t.as_ref()) {
        if let Some(d) = t.dims.iter().find(|&&d| d < 0) {
            return Err(format!("`value` has a negative dimension {d}").into());
        }
        return Ok(Some(ints(&t.dims)));
    }
    for (name, scalar) in [
        ("value_int", true),
        ("value_float", true),
        ("value_ints", false),
        ("value_floats", false),
    ] {
        if let Some(v) = a.get(name) {
            let n = if scalar {
                None
            } else {
                Some(v.ints.len().max(v.floats.len()) as i64)
            };
            return Ok(Some(ints(&n.into_iter().collect::<Vec<_>>())));
        }
    }
    Err(AttrFnError {
        message: "`Constant` needs one of `value`, `value_int(s)`, `value_float(s)` (a sparse or string value is not supported)".into(),
        unsupported: true,
    })
}

/// `Constant`'s dtype.
pub fn constant_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, AttrFnError> {
    if a.get("value").is_some() {
        return dtype_of_value(a);
    }
    let d = if a.get("value_int").is_some() || a.get("value_ints").is_some() {
        relay_core::DType::INT64
    } else {
        relay_core::DType::FLOAT32
    };
    Ok(Some(AttrValue::DType(d)))
}

/// `x` as an integer, if it is a whole number within `i64`'s range.
pub fn whole_number(x: f64) -> Option<i64> {
    const LIMIT: f64 = 9.0e18;
    (x.fract() == 0.0 && x.abs() < LIMIT).then_some(x as i64)
}

/// `Constant`'s value, when it is a small integer tensor, or a small float tensor of
/// whole numbers (whose elements are also kept as floats).
pub fn constant_value(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let tensor = cx.attrs.get("value").and_then(|a| a.t.as_ref());
    if let Some(f) = tensor.and_then(|t| crate::attr::float_data(&crate::proto::TensorView::of(t)))
    {
        // Whole numbers are also a value, as sizes computed in floats are (a window's
        // length, `Range(0.0, n, 1.0)`); value functions of float outputs keep them whole.
        let whole: Option<Vec<i64>> = f.iter().map(|&x| whole_number(x)).collect();
        cx.set_floats(f);
        return whole.map(|w| w.into_iter().map(|c| cx.konst(c)).collect());
    }
    let ints = if let Some(v) = cx.attrs.tensor_value("value") {
        v
    } else if let Some(i) = cx.attr_int("value_int") {
        vec![i]
    } else {
        cx.attr_ints("value_ints")?
    };
    Some(ints.into_iter().map(|c| cx.konst(c)).collect())
}

/// The float values of attribute `name` (a list of numbers).
pub fn float_list(cx: &RelCx<'_>, name: &str) -> Result<Option<Vec<f64>>, RelError> {
    match cx.attrs().get(name) {
        None | Some(AttrValue::None) => Ok(None),
        Some(AttrValue::List(v)) => {
            let mut out = Vec::with_capacity(v.len());
            for x in v {
                match x {
                    AttrValue::Float(f) => out.push(*f),
                    AttrValue::Int(i) => out.push(*i as f64),
                    _ => {
                        return Err(RelError::new(format!(
                            "attribute `{name}` must be a list of numbers"
                        )))
                    }
                }
            }
            Ok(Some(out))
        }
        Some(_) => Err(RelError::new(format!(
            "attribute `{name}` must be a list of numbers"
        ))),
    }
}

/// The data-dependent size passed as argument `i` (`Arg::Fresh`): the rigid symbol named
/// after the node (`NonZero_3`), so a user can follow it; a declared constant in its
/// place is more precise, not a disagreement (`check/mod.rs`, `compare_declared`).
pub fn fresh_of(cx: &mut RelCx<'_>, i: usize) -> Result<Dim, RelError> {
    Ok(match cx.tensor_dims(i)? {
        Some((d, _)) if d.len() == 1 => d[0],
        _ => Dims::ANY,
    })
}
