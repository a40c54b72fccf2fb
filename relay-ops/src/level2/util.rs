//! What the level-2 relations share: reading attributes, layouts, dimension arithmetic
//! and error messages that name dimensions.

use crate::level3::util::agree;
use relay_core::attrs::AttrTypeError;
use relay_core::{Attrs, DTy, Dim, Dims, RelCx, RelError};

/// Attribute `name` as `read` (one of the typed readers of [`Attrs`], such as
/// [`Attrs::int`]) gives it. The level-2 relations need every attribute they read (their
/// operators' schemas give each a default), so an absent one, or `None`, is an error.
pub(crate) fn need<'a, T>(
    cx: &'a RelCx<'_>,
    name: &str,
    read: impl FnOnce(&'a Attrs, &str) -> Result<Option<T>, AttrTypeError>,
) -> Result<T, RelError> {
    read(cx.attrs(), name)?.ok_or_else(|| RelError::new(format!("attribute `{name}` is missing")))
}

/// Checks that string attribute `attr` of `op` (unset: `allowed[0]`) is one of `allowed`.
pub(crate) fn one_of(
    cx: &RelCx<'_>,
    op: &str,
    attr: &str,
    allowed: &[&str],
) -> Result<(), RelError> {
    let v = cx.attrs().str(attr)?.unwrap_or(allowed[0]);
    if !allowed.contains(&v) {
        let list: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
        return Err(RelError::new(format!(
            "`{attr}` of `{op}` must be one of {}, found {v:?}",
            list.join(", ")
        )));
    }
    Ok(())
}

/// A per-spatial-axis attribute (`strides`, `dilation`, `kernel_size`, ...): `n` values
/// (one value is repeated), each at least `min`.
pub(crate) fn per_axis(
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
pub(crate) fn padding(values: &[i64], n: usize) -> Result<Vec<i64>, RelError> {
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
pub(crate) enum Axis {
    Primal(char),
    Sub(i64, char),
}

/// A layout string (`NCHW`, `NHWC`, `NCHW16c`) as its axes.
pub(crate) fn parse_layout(attr: &str, s: &str) -> Result<Vec<Axis>, RelError> {
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

/// The error that argument `arg` of `op` (`noun` in messages: "data", "weight") does not
/// have `rank`, the rank of its layout `layout`: "`nn.conv2d` expects a weight of rank 4
/// (layout OIHW), found ...". Data takes no article.
pub(crate) fn layout_rank_error(
    cx: &mut RelCx<'_>,
    op: &str,
    (arg, noun): (usize, &str),
    rank: usize,
    layout: &str,
) -> RelError {
    let article = if noun == "data" { "" } else { "a " };
    cx.error_showing(arg, |t| {
        format!("`{op}` expects {article}{noun} of rank {rank} (layout {layout}), found `{t}`")
    })
}

/// Checks that dimension `q` of argument `arg` (`what` in messages: "the data"), `d`, is
/// `f`, the factor of the packed axis `letter` (the `16c` of `NCHW16c`) of layout `name`
/// (attribute `attr`).
pub(crate) fn packed_factor(
    cx: &mut RelCx<'_>,
    (arg, what): (usize, &str),
    (q, d, f, letter): (usize, Dim, i64, char),
    (attr, name): (&str, &str),
) -> Result<(), RelError> {
    let factor = konst(cx, f);
    agree(cx, arg, d, factor, |d, _| {
        format!("dimension {q} of {what} is {d}, but `{f}{letter}` of `{attr}` {name} needs {f}")
    })
}

/// A layout attribute read against an operator's canonical layout (`NCHW`, `OIHW`, ...),
/// as TVM's `BijectiveLayout` converts between them: the canonical axes in any order, each
/// possibly packed by subordinate axes (`NCHW16c`: C is split into an outer `C` and an
/// inner `16c` of 16; `OIHW16i16o`; `OIHW2i8o4i`, whose I is packed twice, by 2 and by 4,
/// 8 in all). A canonical dimension is its outer dimension times the product of its
/// factors; back from canonical, the outer dimension is the quotient. Where TVM rounds a
/// quotient up (a `C` of 20 packed by 16 gives 2 blocks, hiding 12 padding channels)
/// and does not check the inner dimensions, this is an error.
///
/// ```text
/// NHWC        (1, 32, 32, 3)        <-> NCHW (1, 3, 32, 32)
/// NCHW16c     (1, 4, 56, 56, 16)    <-> NCHW (1, 64, 56, 56)
/// OIHW16i16o  (4, 4, 3, 3, 16, 16)  <-> OIHW (64, 64, 3, 3)
/// ```
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    attr: &'static str,
    name: String,
    /// For each canonical axis, its position, and the positions and factors of its
    /// subordinate axes (none when it is not packed), in the layout's order.
    axes: Vec<(usize, Vec<(usize, i64)>)>,
    rank: usize,
}

impl Layout {
    /// Layout `name` of attribute `attr`, which must hold every axis of `canonical` once,
    /// packed once or not, and nothing else.
    pub(crate) fn new(attr: &'static str, name: &str, canonical: &str) -> Result<Layout, RelError> {
        Self::read(attr, name, canonical, false)
    }

    /// As [`Layout::new`], but an axis may be packed more than once, its factor being
    /// the product (`OIHW2i8o4i`, as TVM lays out the weights of its x86 int8 packed
    /// convolutions; `NCHW4c8c` packs C by 32).
    pub(crate) fn new_repacked(
        attr: &'static str,
        name: &str,
        canonical: &str,
    ) -> Result<Layout, RelError> {
        Self::read(attr, name, canonical, true)
    }

    fn read(
        attr: &'static str,
        name: &str,
        canonical: &str,
        repacked: bool,
    ) -> Result<Layout, RelError> {
        let parsed = parse_layout(attr, name)?;
        let unsupported = || {
            RelError::new(format!(
                "`{attr}` \"{name}\" is not supported: it must order the axes of {canonical}, each possibly packed by a factor"
            ))
        };
        let mut axes = Vec::with_capacity(canonical.len());
        let mut held = 0;
        for c in canonical.chars() {
            let primal = parsed.iter().position(|a| *a == Axis::Primal(c));
            let subs: Vec<(usize, i64)> = parsed
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Axis::Sub(f, l) if l.to_ascii_uppercase() == c => Some((i, *f)),
                    _ => None,
                })
                .collect();
            held += 1 + subs.len();
            axes.push((primal.ok_or_else(unsupported)?, subs));
        }
        if held != parsed.len() || (!repacked && axes.iter().any(|(_, s)| s.len() > 1)) {
            // An axis of another layout, or (unless allowed) an axis packed twice.
            return Err(unsupported());
        }
        for (_, subs) in &axes {
            subs.iter()
                .try_fold(1i64, |p, &(_, f)| p.checked_mul(f))
                .ok_or_else(|| {
                    RelError::new(format!(
                        "`{attr}` \"{name}\" is not a layout: a factor is too large"
                    ))
                })?;
        }
        Ok(Layout {
            attr,
            name: name.to_owned(),
            axes,
            rank: parsed.len(),
        })
    }

    /// The number of dimensions of a tensor in this layout.
    pub(crate) fn rank(&self) -> usize {
        self.rank
    }

    /// The product of canonical axis `i`'s factors (1 when it is not packed); it fits in
    /// `i64` ([`Layout::new`] checks).
    pub(crate) fn factor(&self, i: usize) -> i64 {
        self.axes[i].1.iter().map(|&(_, f)| f).product()
    }

    /// Where canonical axis `i` (of letter `letter`) is, for messages: `axis 1, `C` of
    /// NCHW`, `axes 1 and 4, `C` and `16c` of NCHW16c` or `axes 1, 4 and 6, `I`, `2i`
    /// and `4i` of OIHW2i8o4i`.
    pub(crate) fn describe(&self, i: usize, letter: char) -> String {
        let (p, subs) = &self.axes[i];
        if subs.is_empty() {
            return format!("axis {p}, `{letter}` of {}", self.name);
        }
        let lower = letter.to_ascii_lowercase();
        let mut positions = vec![p.to_string()];
        let mut names = vec![format!("`{letter}`")];
        for (q, f) in subs {
            positions.push(q.to_string());
            names.push(format!("`{f}{lower}`"));
        }
        format!(
            "axes {}, {} of {}",
            join_and(&positions),
            join_and(&names),
            self.name
        )
    }

    /// `dims`, argument `arg` of `op` (`noun` in messages: "data", "weight"), in canonical
    /// order ([`Layout::canonical`]), after checking that its rank is this layout's.
    pub(crate) fn canonical_arg(
        &self,
        cx: &mut RelCx<'_>,
        op: &str,
        (arg, noun): (usize, &str),
        dims: &[Dim],
        canonical: &str,
    ) -> Result<Vec<Dim>, RelError> {
        if dims.len() != self.rank {
            return Err(layout_rank_error(
                cx,
                op,
                (arg, noun),
                self.rank,
                &self.name,
            ));
        }
        self.canonical(cx, dims, arg, &format!("the {noun}"), canonical)
    }

    /// `dims` (argument `arg`, `what` in messages: "the data") in canonical order: a packed
    /// axis is its outer dimension times its factors, and each inner dimension must be its
    /// factor.
    pub(crate) fn canonical(
        &self,
        cx: &mut RelCx<'_>,
        dims: &[Dim],
        arg: usize,
        what: &str,
        canonical: &str,
    ) -> Result<Vec<Dim>, RelError> {
        let mut out = Vec::with_capacity(self.axes.len());
        for (i, ((p, subs), letter)) in self.axes.iter().zip(canonical.chars()).enumerate() {
            for &(q, f) in subs {
                let sub = (q, dims[q], f, letter.to_ascii_lowercase());
                packed_factor(cx, (arg, what), sub, (self.attr, &self.name))?;
            }
            out.push(cx.tcx().dims.scale(dims[*p], self.factor(i))?);
        }
        Ok(out)
    }

    /// The output, `dims` in canonical order, laid out in this layout
    /// ([`Layout::lay_out`]) as a tensor of `dtype` and unified with the last argument.
    pub(crate) fn unify_output(
        &self,
        cx: &mut RelCx<'_>,
        dims: &[Dim],
        canonical: &str,
        dtype: DTy,
    ) -> Result<(), RelError> {
        let laid = self.lay_out(cx, dims, "the output", canonical)?;
        let last = cx.len() - 1;
        cx.unify_tensor(last, &laid, dtype)
    }

    /// `dims` (in canonical order; `what` in messages: "the output") laid out in this
    /// layout: a packed axis is split into its quotient by its factors' product and the
    /// factors, and must be a multiple of the product (`?` stays `?`).
    pub(crate) fn lay_out(
        &self,
        cx: &mut RelCx<'_>,
        dims: &[Dim],
        what: &str,
        canonical: &str,
    ) -> Result<Vec<Dim>, RelError> {
        self.split(cx, dims, |cx, d, f, letter| {
            if cx.tcx_ref().dims.is_any(d) {
                return Ok(Dims::ANY);
            }
            let factor = konst(cx, f);
            let rem = cx.tcx().dims.floormod(d, factor)?;
            if cx.tcx_ref().dims.as_const(rem) != Some(0) {
                let known = if cx.tcx_ref().dims.as_const(d).is_some() {
                    ""
                } else {
                    "known to be "
                };
                return Err(RelError::new(format!(
                    "`{}` {} packs {letter} by {f}, but {what}'s {letter} is {}, not {known}a multiple of {f}",
                    self.attr,
                    self.name,
                    cx.show_dim(d)
                )));
            }
            cx.tcx().dims.floordiv(d, factor).map_err(RelError::from)
        }, canonical)
    }

    /// `dims` (in canonical order) laid out in this layout as TVM's `layout_transform`
    /// does: a packed axis that is not a multiple of its factors' product is rounded up
    /// (the tensor is padded with zeros), `ceil(d / f)`, which is `floordiv(d + f - 1, f)`
    /// for a symbolic `d` not known to be a multiple (`?` stays `?`).
    pub(crate) fn lay_out_padded(
        &self,
        cx: &mut RelCx<'_>,
        dims: &[Dim],
        canonical: &str,
    ) -> Result<Vec<Dim>, RelError> {
        self.split(
            cx,
            dims,
            |cx, d, f, _| {
                if cx.tcx_ref().dims.is_any(d) {
                    return Ok(Dims::ANY);
                }
                let factor = konst(cx, f);
                let rem = cx.tcx().dims.floormod(d, factor)?;
                let d = if cx.tcx_ref().dims.as_const(rem) == Some(0) {
                    d
                } else {
                    plus(cx, d, f - 1)?
                };
                cx.tcx().dims.floordiv(d, factor).map_err(RelError::from)
            },
            canonical,
        )
    }

    /// `dims` laid out, each packed canonical dimension `d` (of factor product `f`) split
    /// into `outer(cx, d, f, letter)` and its factors.
    fn split(
        &self,
        cx: &mut RelCx<'_>,
        dims: &[Dim],
        mut outer: impl FnMut(&mut RelCx<'_>, Dim, i64, char) -> Result<Dim, RelError>,
        canonical: &str,
    ) -> Result<Vec<Dim>, RelError> {
        let mut out = vec![Dims::ANY; self.rank];
        for (i, (((p, subs), &d), letter)) in self
            .axes
            .iter()
            .zip(dims)
            .zip(canonical.chars())
            .enumerate()
        {
            if subs.is_empty() {
                out[*p] = d;
                continue;
            }
            for &(q, f) in subs {
                out[q] = konst(cx, f);
            }
            out[*p] = outer(cx, d, self.factor(i), letter)?;
        }
        Ok(out)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A constant dimension.
pub(crate) fn konst(cx: &mut RelCx<'_>, c: i64) -> Dim {
    cx.tcx().dims.konst(c)
}

/// `a + c` for a constant `c`.
pub(crate) fn plus(cx: &mut RelCx<'_>, a: Dim, c: i64) -> Result<Dim, RelError> {
    let c = konst(cx, c);
    cx.tcx().dims.add(a, c).map_err(RelError::from)
}

/// Whether `d` is a constant below 1, for an error on an empty output.
pub(crate) fn empty(cx: &RelCx<'_>, d: Dim) -> Option<i64> {
    cx.tcx_ref().dims.as_const(d).filter(|&c| c < 1)
}

/// The letter of a spatial axis `i` of `n` (`D`, `H`, `W`).
pub(crate) fn spatial_letter(n: usize, i: usize) -> char {
    ['D', 'H', 'W'][3 - n + i]
}
