//! Reading attributes and normalizing axes, for the imperative relations of this level.

use relay_core::{AttrValue, DType, RelCx, RelError};

/// Integer attribute `name`, or `default` when the call does not give it.
pub(super) fn int(cx: &RelCx<'_>, name: &str, default: i64) -> Result<i64, RelError> {
    match cx.attrs().get(name) {
        None => Ok(default),
        Some(AttrValue::Int(i)) => Ok(*i),
        Some(v) => Err(RelError::new(format!(
            "attribute `{name}` must be an integer, found `{v}`"
        ))),
    }
}

/// Boolean attribute `name`, or `default`.
pub(super) fn boolean(cx: &RelCx<'_>, name: &str, default: bool) -> Result<bool, RelError> {
    match cx.attrs().get(name) {
        None => Ok(default),
        Some(AttrValue::Bool(b)) => Ok(*b),
        Some(v) => Err(RelError::new(format!(
            "attribute `{name}` must be a boolean, found `{v}`"
        ))),
    }
}

/// String attribute `name`, or `default`.
pub(super) fn string(cx: &RelCx<'_>, name: &str, default: &str) -> Result<String, RelError> {
    match cx.attrs().get(name) {
        None => Ok(default.to_string()),
        Some(AttrValue::Str(s)) => Ok(s.to_string()),
        Some(v) => Err(RelError::new(format!(
            "attribute `{name}` must be a string, found `{v}`"
        ))),
    }
}

/// Data-type attribute `name`: `None` when absent or `None`.
pub(super) fn dtype(cx: &RelCx<'_>, name: &str) -> Result<Option<DType>, RelError> {
    match cx.attrs().get(name) {
        None | Some(AttrValue::None) => Ok(None),
        Some(AttrValue::DType(d)) => Ok(Some(*d)),
        Some(AttrValue::Str(s)) if s.is_empty() => Ok(None),
        Some(AttrValue::Str(s)) => s
            .parse()
            .map(Some)
            .map_err(|_| RelError::new(format!("attribute `{name}`: unknown data type `{s}`"))),
        Some(v) => Err(RelError::new(format!(
            "attribute `{name}` must be a data type, found `{v}`"
        ))),
    }
}

/// List-of-integers attribute `name`: `None` when absent or `None`.
pub(super) fn ints(cx: &RelCx<'_>, name: &str) -> Result<Option<Vec<i64>>, RelError> {
    match cx.attrs().get(name) {
        None | Some(AttrValue::None) => Ok(None),
        Some(AttrValue::List(items)) => items
            .iter()
            .map(|v| match v {
                AttrValue::Int(i) => Ok(*i),
                _ => Err(RelError::new(format!(
                    "attribute `{name}` must be a list of integers, found `{v}`"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(AttrValue::Int(i)) => Ok(Some(vec![*i])),
        Some(v) => Err(RelError::new(format!(
            "attribute `{name}` must be a list of integers, found `{v}`"
        ))),
    }
}

/// `axis` (of attribute `attr`) normalized into `0..rank`, negatives counted from the end.
pub(super) fn axis(attr: &str, axis: i64, rank: usize) -> Result<usize, RelError> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(RelError::at(
            0,
            format!("`{attr}` {axis} is out of range for a tensor of rank {rank}"),
        ));
    }
    Ok(if axis < 0 { axis + r } else { axis } as usize)
}

/// Maps a dimension-arithmetic failure to a relation error.
pub(super) fn arith(e: relay_core::DimError) -> RelError {
    RelError::new(e.to_string())
}
