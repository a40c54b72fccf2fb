//! Normalizing axes and arithmetic errors, for the imperative relations of this level.
//! (Attributes are read with the typed readers of [`relay_core::Attrs`].)

use relay_core::RelError;

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

/// The most dimensions a rank read from a type or an attribute may give (the bound of the
/// clause notation's `[d; n]`).
pub(super) const MAX_RANK: i64 = 65536;

/// A rank `r` read from the input, checked to be in `0..=MAX_RANK` before it sizes a shape.
pub(super) fn bounded_rank(what: &str, r: i64) -> Result<usize, RelError> {
    if !(0..=MAX_RANK).contains(&r) {
        return Err(RelError::new(format!(
            "{what} is {r}: it must be 0 to {MAX_RANK}"
        )));
    }
    Ok(r as usize)
}
