//! Reading the list attributes of the vision operators.

use relay_core::{AttrValue, RelCx, RelError};

/// The number of values of list attribute `attr` of operator `op` (a list of numbers,
/// such as `sizes=[1f, 0.5f]`), which must be at least `min` and, when `exact`, `min`.
pub(super) fn list_len(
    cx: &RelCx<'_>,
    op: &str,
    attr: &str,
    min: usize,
    exact: bool,
) -> Result<usize, RelError> {
    let n = match cx.attrs().get(attr) {
        Some(AttrValue::List(v)) => v.len(),
        Some(AttrValue::None) | None => {
            return Err(RelError::new(format!("`{op}` needs `{attr}`")));
        }
        Some(other) => {
            return Err(RelError::new(format!(
                "attribute `{attr}` must be a list of numbers, found `{other}`"
            )))
        }
    };
    if n < min || (exact && n != min) {
        let want = if exact {
            format!("{min}")
        } else {
            format!("at least {min}")
        };
        return Err(RelError::new(format!(
            "`{attr}` of `{op}` must have {want} value{}, it has {n}",
            if min == 1 && exact { "" } else { "s" }
        )));
    }
    Ok(n)
}
