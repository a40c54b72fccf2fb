//! Bounding ranks read from the input, for the imperative relations of this level.
//! (Attributes are read with the typed readers of [`relay_core::Attrs`]; axes with
//! [`relay_core::RelCx::axis`].)

use relay_core::RelError;

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
