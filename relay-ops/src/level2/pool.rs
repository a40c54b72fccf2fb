//! The relations of pooling, global pooling, upsampling and padding.
//!
//! Imperative: they locate spatial axes by the letters of a layout string (which may
//! hold subordinate axes such as `NCHW16c`) and read list attributes of lists.

use super::util::{
    empty, konst, layout_rank_error, need, packed_factor, padding, parse_layout, per_axis, plus,
    spatial_letter, Axis,
};
use relay_core::{relation, Attrs, Dim, Progress, RelCx, RelError, RelResult};

/// A layout's axes and the positions of its spatial axes, and the positions of the
/// layout's axes in the output layout (`out_layout`, the same layout when empty).
pub(crate) struct Layouts {
    pub(crate) axes: Vec<Axis>,
    pub(crate) spatial: Vec<usize>,
    /// For each axis of the output layout, its position in the input layout.
    pub(crate) out: Vec<usize>,
    pub(crate) name: String,
}

/// The `layout` (and `out_layout`, if the operator has one) of a pool-like operator `op`
/// with `n` spatial axes, which may not be split.
pub(crate) fn layouts(cx: &RelCx<'_>, op: &str, n: usize) -> Result<Layouts, RelError> {
    let name = need(cx, "layout", Attrs::str)?.to_owned();
    let axes = parse_layout("layout", &name)?;
    let mut spatial = Vec::with_capacity(n);
    for i in 0..n {
        let l = spatial_letter(n, i);
        let Some(p) = axes.iter().position(|a| *a == Axis::Primal(l)) else {
            return Err(RelError::new(format!(
                "`layout` \"{name}\" of `{op}` has no axis {l}"
            )));
        };
        if axes
            .iter()
            .any(|a| matches!(a, Axis::Sub(_, c) if *c == l.to_ascii_lowercase()))
        {
            return Err(RelError::new(format!(
                "`{op}` does not support a split {l} axis (`layout` \"{name}\")"
            )));
        }
        spatial.push(p);
    }
    let out = match cx.attrs().get("out_layout") {
        Some(_) => {
            let out_name = need(cx, "out_layout", Attrs::str)?.to_owned();
            if out_name.is_empty() || out_name == name {
                (0..axes.len()).collect()
            } else {
                let out_axes = parse_layout("out_layout", &out_name)?;
                let pos: Option<Vec<usize>> = out_axes
                    .iter()
                    .map(|a| axes.iter().position(|b| a == b))
                    .collect();
                match pos {
                    Some(p) if out_axes.len() == axes.len() => p,
                    _ => {
                        return Err(RelError::new(format!(
                            "`out_layout` \"{out_name}\" is not supported: it must order the axes of `layout` \"{name}\""
                        )))
                    }
                }
            }
        }
        None => (0..axes.len()).collect(),
    };
    Ok(Layouts {
        axes,
        spatial,
        out,
        name,
    })
}

/// The data's dimensions (argument 0), checked against the layout's rank and its packed
/// axes (the `16` of `NCHW16c`, which TVM does not check); `None` while unknown.
pub(crate) fn data_dims(
    cx: &mut RelCx<'_>,
    op: &str,
    l: &Layouts,
) -> Result<Option<(Vec<Dim>, relay_core::DTy)>, RelError> {
    data_dims_of(cx, op, l, 0)
}

/// [`data_dims`] of argument `arg`.
fn data_dims_of(
    cx: &mut RelCx<'_>,
    op: &str,
    l: &Layouts,
    arg: usize,
) -> Result<Option<(Vec<Dim>, relay_core::DTy)>, RelError> {
    let Some((dims, dt)) = cx.tensor_dims(arg)? else {
        return Ok(None);
    };
    if dims.len() != l.axes.len() {
        return Err(layout_rank_error(
            cx,
            op,
            (arg, "data"),
            l.axes.len(),
            &l.name,
        ));
    }
    for (q, axis) in l.axes.iter().enumerate() {
        if let Axis::Sub(f, letter) = *axis {
            let sub = (q, dims[q], f, letter);
            packed_factor(cx, (arg, "the data"), sub, ("layout", &l.name))?;
        }
    }
    Ok(Some((dims, dt)))
}

/// Unifies the output with `dims` (in the input layout) laid out in the output layout.
pub(crate) fn finish(
    cx: &mut RelCx<'_>,
    l: &Layouts,
    dims: &[Dim],
    dt: relay_core::DTy,
) -> RelResult {
    let laid: Vec<Dim> = l.out.iter().map(|&p| dims[p]).collect();
    let t = cx.mk_tensor(&laid, dt);
    let last = cx.len() - 1;
    cx.unify(last, t)?;
    Ok(Progress::Solved)
}

fn pool(cx: &mut RelCx<'_>, op: &str, n: usize) -> RelResult {
    let Some((dims, dt)) = pooled(cx, op, n, 0)? else {
        return Ok(Progress::NotYet);
    };
    let t = cx.mk_tensor(&dims, dt);
    let last = cx.len() - 1;
    cx.unify(last, t)?;
    Ok(Progress::Solved)
}

/// The result of pool `op` (`n` spatial axes) of the data in argument `arg`, laid out in
/// `out_layout`; `None` while the data is unknown.
pub(crate) fn pooled(
    cx: &mut RelCx<'_>,
    op: &str,
    n: usize,
    arg: usize,
) -> Result<Option<(Vec<Dim>, relay_core::DTy)>, RelError> {
    let pool_size = per_axis(
        "pool_size",
        need(cx, "pool_size", Attrs::int_or_ints)?,
        n,
        1,
    )?;
    let strides = per_axis("strides", need(cx, "strides", Attrs::int_or_ints)?, n, 1)?;
    let dilation = per_axis("dilation", need(cx, "dilation", Attrs::int_or_ints)?, n, 1)?;
    let pads = padding(&need(cx, "padding", Attrs::int_or_ints)?, n)?;
    let ceil_mode = need(cx, "ceil_mode", Attrs::bool)?;
    let l = layouts(cx, op, n)?;
    let Some((mut dims, dt)) = data_dims_of(cx, op, &l, arg)? else {
        return Ok(None);
    };
    for i in 0..n {
        let h = dims[l.spatial[i]];
        let too_large = || RelError::new(format!("the attributes of `{op}` are too large"));
        let window = (pool_size[i] - 1)
            .checked_mul(dilation[i])
            .and_then(|w| w.checked_add(1))
            .ok_or_else(too_large)?;
        let extra = if ceil_mode { strides[i] - 1 } else { 0 };
        let shift = pads[i]
            .checked_sub(window)
            .and_then(|x| x.checked_add(extra))
            .ok_or_else(too_large)?;
        let x = plus(cx, h, shift)?;
        let s = konst(cx, strides[i]);
        let x = cx.tcx().dims.floordiv(x, s)?;
        let size = plus(cx, x, 1)?;
        if let Some(c) = empty(cx, size) {
            return Err(RelError::at(
                arg,
                format!(
                    "the output of `{op}` would be empty along {}: its size is {c} (data {}, padding {}, dilated window {window}, stride {})",
                    spatial_letter(n, i),
                    cx.show_dim(h),
                    pads[i],
                    strides[i]
                ),
            ));
        }
        dims[l.spatial[i]] = size;
    }
    Ok(Some((l.out.iter().map(|&p| dims[p]).collect(), dt)))
}

relations_running! {
    MaxPool1D = max_pool1d_rel(pool, "nn.max_pool1d", 1);
    MaxPool2D = max_pool2d_rel(pool, "nn.max_pool2d", 2);
    MaxPool3D = max_pool3d_rel(pool, "nn.max_pool3d", 3);
    AvgPool1D = avg_pool1d_rel(pool, "nn.avg_pool1d", 1);
    AvgPool2D = avg_pool2d_rel(pool, "nn.avg_pool2d", 2);
    AvgPool3D = avg_pool3d_rel(pool, "nn.avg_pool3d", 3);
}

fn global_pool2d(cx: &mut RelCx<'_>, op: &str) -> RelResult {
    let l = layouts(cx, op, 2)?;
    let Some((mut dims, dt)) = data_dims(cx, op, &l)? else {
        return Ok(Progress::NotYet);
    };
    for &p in &l.spatial {
        dims[p] = konst(cx, 1);
    }
    finish(cx, &l, &dims, dt)
}

/// The relation of `nn.global_avg_pool2d`: H and W become 1.
#[relation(GlobalAvgPool2D)]
pub fn global_avg_pool2d_rel(cx: &mut RelCx<'_>) -> RelResult {
    global_pool2d(cx, "nn.global_avg_pool2d")
}

/// The relation of `nn.global_max_pool2d`: H and W become 1.
#[relation(GlobalMaxPool2D)]
pub fn global_max_pool2d_rel(cx: &mut RelCx<'_>) -> RelResult {
    global_pool2d(cx, "nn.global_max_pool2d")
}

/// `scale` as an exact fraction `p / q` with `q` a power of two, if it is one.
fn dyadic(scale: f64) -> Option<(i64, i64)> {
    let mut q: i64 = 1;
    for _ in 0..=30 {
        let p = scale * q as f64;
        if p.fract() == 0.0 && p.abs() < (1i64 << 52) as f64 {
            return Some((p as i64, q));
        }
        q *= 2;
    }
    None
}

/// `round(h * scale)` (half away from zero, as TVM rounds): exact for a scale that is a
/// dyadic fraction `p / q` (`floordiv(p*h + q/2, q)`), `?` for another scale unless `h`
/// is a constant. A constant `h` is scaled in `f64`, as TVM does, while `f64` holds it
/// (up to 2^53), and exactly above (where `f64` would lose it); a result beyond 64 bits
/// is an error.
pub(crate) fn scaled(cx: &mut RelCx<'_>, h: Dim, scale: f64, attr: &str) -> Result<Dim, RelError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RelError::new(format!(
            "`{attr}` must be positive, found {scale:?}"
        )));
    }
    if let Some(c) = cx.tcx_ref().dims.as_const(h) {
        if c.unsigned_abs() <= 1 << 53 {
            // 2^63 is exact in `f64`; below it, the cast is exact too.
            let r = (c as f64 * scale).round();
            if r.abs() >= 9_223_372_036_854_775_808.0 {
                return Err(RelError::from(relay_core::DimError::Overflow));
            }
            return Ok(konst(cx, r as i64));
        }
        // `scale` is exactly `m * 2^e`: `c * m` fits in 117 bits, then the shift rounds.
        let bits = scale.to_bits();
        let (biased, fraction) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
        let (m, e) = match biased {
            0 => (fraction, -1074),
            _ => (fraction | 1 << 52, biased as i32 - 1075),
        };
        let x = i128::from(c) * i128::from(m);
        let (sign, x) = (x.signum(), x.unsigned_abs());
        let rounded = if e >= 0 {
            u32::try_from(e)
                .ok()
                .filter(|&e| e < 128 && x.leading_zeros() > e)
                .map(|e| x << e)
        } else {
            let k = e.unsigned_abs();
            Some(match k {
                // Below one half, whatever `x` (under 2^117).
                k if k > 118 => 0,
                k => (x + (1 << (k - 1))) >> k,
            })
        };
        let value = rounded
            .and_then(|r| i128::try_from(r).ok())
            .and_then(|r| i64::try_from(sign * r).ok())
            .ok_or_else(|| RelError::from(relay_core::DimError::Overflow))?;
        return Ok(konst(cx, value));
    }
    let Some((p, q)) = dyadic(scale) else {
        return Ok(relay_core::Dims::ANY);
    };
    let x = cx.tcx().dims.scale(h, p)?;
    if q == 1 {
        return Ok(x);
    }
    // `q` is an even power of two: `floor(h * p / q + 1/2)` is `floordiv(p*h + q/2, q)`.
    let x = plus(cx, x, q / 2)?;
    let d = konst(cx, q);
    cx.tcx().dims.floordiv(x, d).map_err(RelError::from)
}

/// The relation of `nn.upsampling`: H and W scaled by `scale_h` and `scale_w`.
#[relation(UpSampling)]
pub fn upsampling_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.upsampling";
    let scales = [
        need(cx, "scale_h", Attrs::float)?,
        need(cx, "scale_w", Attrs::float)?,
    ];
    let method = need(cx, "method", Attrs::str)?.to_owned();
    if !["nearest_neighbor", "bilinear", "bicubic"].contains(&method.as_str()) {
        return Err(RelError::new(format!(
            "`method` of `{op}` must be \"nearest_neighbor\", \"bilinear\" or \"bicubic\", found \"{method}\""
        )));
    }
    let l = layouts(cx, op, 2)?;
    let Some((mut dims, dt)) = data_dims(cx, op, &l)? else {
        return Ok(Progress::NotYet);
    };
    for (i, attr) in ["scale_h", "scale_w"].iter().enumerate() {
        let p = l.spatial[i];
        dims[p] = scaled(cx, dims[p], scales[i], attr)?;
    }
    finish(cx, &l, &dims, dt)
}

/// The relation of `nn.pad`: each dimension grows by its `(before, after)` pair of
/// `pad_width`; the pad value must be a scalar. Negative widths crop (as in TVM): a
/// constant dimension must not end up negative (0 is allowed), a symbolic one is taken
/// as given, `?` stays `?`. The sums are checked: one beyond 64 bits is an error (TVM
/// wraps around).
#[relation(Pad)]
pub fn pad_rel(cx: &mut RelCx<'_>) -> RelResult {
    let widths = need(cx, "pad_width", Attrs::int_lists)?;
    let mode = need(cx, "pad_mode", Attrs::str)?.to_owned();
    if !["constant", "edge", "reflect"].contains(&mode.as_str()) {
        return Err(RelError::new(format!(
            "`pad_mode` must be \"constant\", \"edge\" or \"reflect\", found \"{mode}\""
        )));
    }
    for (i, w) in widths.iter().enumerate() {
        if w.len() != 2 {
            return Err(RelError::new(format!(
                "`pad_width[{i}]` must be a (before, after) pair, it has {} values",
                w.len()
            )));
        }
    }
    if let Some((pv, _)) = cx.tensor_dims(1)? {
        if !pv.is_empty() {
            return Err(cx.error_showing(1, |t| {
                format!("the pad value must be a scalar, found `{t}`")
            }));
        }
    }
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if widths.len() != dims.len() {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`pad_width` has {} pairs but the data `{}` has rank {}",
                widths.len(),
                t,
                dims.len()
            )
        }));
    }
    let mut out = Vec::with_capacity(dims.len());
    for (i, (&d, w)) in dims.iter().zip(&widths).enumerate() {
        let padded = w[0]
            .checked_add(w[1])
            .ok_or(())
            .and_then(|total| plus(cx, d, total).map_err(|_| ()));
        let Ok(size) = padded else {
            return Err(RelError::at(
                0,
                format!(
                    "padding axis {i} overflows: {} + {} + {} is beyond 64 bits",
                    cx.show_dim(d),
                    w[0],
                    w[1]
                ),
            ));
        };
        if let Some(c) = cx.tcx_ref().dims.as_const(size).filter(|&c| c < 0) {
            return Err(RelError::at(
                0,
                format!(
                    "padding axis {i} gives it a negative size: {} + {} + {} is {c}",
                    cx.show_dim(d),
                    w[0],
                    w[1]
                ),
            ));
        }
        out.push(size);
    }
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}
