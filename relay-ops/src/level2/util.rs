//! What the level-2 relations share: reading attributes, layouts, dimension arithmetic
//! and error messages that name dimensions.

use relay_core::attrs::AttrTypeError;
use relay_core::{Attrs, Dim, DimError, RelCx, RelError};

/// An arithmetic failure of the dimension algebra, as a relation error.
pub(super) fn arith(e: DimError) -> RelError {
    RelError::new(e.to_string())
}

/// Attribute `name` as `read` (one of the typed readers of [`Attrs`], such as
/// [`Attrs::int`]) gives it. The level-2 relations need every attribute they read (their
/// operators' schemas give each a default), so an absent one, or `None`, is an error.
pub(super) fn need<'a, T>(
    cx: &'a RelCx<'_>,
    name: &str,
    read: impl FnOnce(&'a Attrs, &str) -> Result<Option<T>, AttrTypeError>,
) -> Result<T, RelError> {
    read(cx.attrs(), name)?.ok_or_else(|| RelError::new(format!("attribute `{name}` is missing")))
}

/// A per-spatial-axis attribute (`strides`, `dilation`, `kernel_size`, ...): `n` values
/// (one value is repeated), each at least `min`.
pub(super) fn per_axis(
    name: &str,
    values: Vec<i64>,
    n: usize,
    min: i64,
) -> Result<Vec<i64>, RelError> {
    let values = match values.len() {
        1 => vec![values[0]; n],
        k if k == n => values,
        k => {
            return Err(RelError::new(format!(
                "`{name}` must have {n} value{}, it has {k}",
                if n == 1 { "" } else { "s" }
            )))
        }
    };
    if let Some(bad) = values.iter().find(|&&v| v < min) {
        return Err(RelError::new(format!(
            "`{name}` must be at least {min}, found {bad}"
        )));
    }
    Ok(values)
}

/// The total padding of each of the `n` spatial axes, as TVM reads `padding`: one value
/// pads every side by it; `n` values pad both sides of each axis; `2n` values give the
/// befores then the afters (`(top, left, bottom, right)` in 2-D).
pub(super) fn padding(values: &[i64], n: usize) -> Result<Vec<i64>, RelError> {
    if let Some(bad) = values.iter().find(|&&v| v < 0) {
        return Err(RelError::new(format!(
            "`padding` must not be negative, found {bad}"
        )));
    }
    let too_large = || RelError::new("`padding` is too large");
    match values.len() {
        1 => Ok(vec![values[0].checked_mul(2).ok_or_else(too_large)?; n]),
        k if k == n => values
            .iter()
            .map(|v| v.checked_mul(2).ok_or_else(too_large))
            .collect(),
        k if k == 2 * n => (0..n)
            .map(|i| values[i].checked_add(values[i + n]).ok_or_else(too_large))
            .collect(),
        k => {
            let mut counts = vec![1, n, 2 * n];
            counts.dedup();
            let counts: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            Err(RelError::new(format!(
                "`padding` must have {} values, it has {k}",
                counts.join(" or ")
            )))
        }
    }
}

/// One axis of a layout: a primal axis (`N`, `C`, `H`) or a subordinate one (`16c`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    Primal(char),
    Sub(i64, char),
}

/// A layout string (`NCHW`, `NHWC`, `NCHW16c`) as its axes.
pub(super) fn parse_layout(attr: &str, s: &str) -> Result<Vec<Axis>, RelError> {
    let bad = |why: &str| RelError::new(format!("`{attr}` \"{s}\" is not a layout: {why}"));
    let mut axes = Vec::new();
    let mut factor: Option<i64> = None;
    for ch in s.chars() {
        if let Some(d) = ch.to_digit(10) {
            let f = factor.unwrap_or(0);
            factor = Some(
                f.checked_mul(10)
                    .and_then(|f| f.checked_add(d.into()))
                    .ok_or_else(|| bad("a factor is too large"))?,
            );
        } else if ch.is_ascii_uppercase() {
            if factor.is_some() {
                return Err(bad("a factor before a primal axis"));
            }
            axes.push(Axis::Primal(ch));
        } else if ch.is_ascii_lowercase() {
            match factor.take() {
                Some(f) if f > 0 => axes.push(Axis::Sub(f, ch)),
                _ => return Err(bad("a subordinate axis needs a positive factor")),
            }
        } else {
            return Err(bad("axes are letters"));
        }
    }
    if factor.is_some() {
        return Err(bad("a factor without its axis"));
    }
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].contains(a) {
            return Err(bad("an axis occurs twice"));
        }
    }
    if axes.is_empty() {
        return Err(bad("it is empty"));
    }
    Ok(axes)
}

/// For each letter of `canonical`, its position in layout `layout` (attribute `attr`),
/// which must be a permutation of `canonical`.
pub(super) fn permutation(
    attr: &str,
    layout: &str,
    canonical: &str,
) -> Result<Vec<usize>, RelError> {
    let axes = parse_layout(attr, layout)?;
    let ok = axes.len() == canonical.len()
        && axes
            .iter()
            .all(|a| matches!(a, Axis::Primal(c) if canonical.contains(*c)));
    if !ok {
        return Err(RelError::new(format!(
            "`{attr}` \"{layout}\" is not supported: it must order the axes of {canonical}"
        )));
    }
    Ok(canonical
        .chars()
        .map(|c| {
            axes.iter()
                .position(|a| *a == Axis::Primal(c))
                .expect("checked: a permutation")
        })
        .collect())
}

/// `dims` (in the order of `canonical`) laid out in the layout whose permutation is `perm`.
pub(super) fn lay_out(dims: &[Dim], perm: &[usize]) -> Vec<Dim> {
    let mut out = dims.to_vec();
    for (i, &p) in perm.iter().enumerate() {
        out[p] = dims[i];
    }
    out
}

/// `dims` (laid out by `perm`) in canonical order.
pub(super) fn canonical(dims: &[Dim], perm: &[usize]) -> Vec<Dim> {
    perm.iter().map(|&p| dims[p]).collect()
}

/// A constant dimension.
pub(super) fn konst(cx: &mut RelCx<'_>, c: i64) -> Dim {
    cx.tcx().dims.konst(c)
}

/// `a + c` for a constant `c`.
pub(super) fn plus(cx: &mut RelCx<'_>, a: Dim, c: i64) -> Result<Dim, RelError> {
    let c = konst(cx, c);
    cx.tcx().dims.add(a, c).map_err(arith)
}

/// Whether `d` is a constant below 1, for an error on an empty output.
pub(super) fn empty(cx: &RelCx<'_>, d: Dim) -> Option<i64> {
    cx.tcx_ref().dims.as_const(d).filter(|&c| c < 1)
}

/// The letter of a spatial axis `i` of `n` (`D`, `H`, `W`).
pub(super) fn spatial_letter(n: usize, i: usize) -> char {
    ['D', 'H', 'W'][3 - n + i]
}
