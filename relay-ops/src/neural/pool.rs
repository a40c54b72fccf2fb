//! Adaptive pools, `nn.upsampling3d` and the gradients of the 2-D pools.
//!
//! Imperative, on the layout helpers of the level-2 pools: spatial axes found by the
//! letters of `layout` (not split), the others kept.

use crate::level2::pool::{data_dims, finish, layouts, pooled, scaled};
use crate::level2::util::{need, one_of};
use crate::level3::util::unify_or;
use relay_core::{relation, Attrs, Dim, Progress, RelCx, RelError, RelResult};

/// An adaptive pool `op` over `n` spatial axes: each becomes its `output_size` (one value
/// for all, or one per axis; none: the axis is kept). The result is in the data's layout,
/// as in TVM, whose relation does not read `out_layout`.
fn adaptive(cx: &mut RelCx<'_>, op: &str, n: usize) -> RelResult {
    let given = cx.attrs().int_or_ints("output_size")?.unwrap_or_default();
    let sizes = match given.len() {
        0 => None,
        1 => Some(vec![given[0]; n]),
        k if k == n => Some(given),
        k => {
            let counts = if n == 1 {
                "1".into()
            } else {
                format!("1 or {n}")
            };
            return Err(RelError::new(format!(
                "`output_size` of `{op}` must have {counts} values (or none), it has {k}"
            )));
        }
    };
    if let Some(bad) = sizes.iter().flatten().find(|&&s| s < 1) {
        return Err(RelError::new(format!(
            "`output_size` of `{op}` must be at least 1, found {bad}"
        )));
    }
    let l = layouts(cx, op, n)?;
    let Some((mut dims, dt)) = data_dims(cx, op, &l)? else {
        return Ok(Progress::NotYet);
    };
    if let Some(sizes) = sizes {
        for (i, &s) in sizes.iter().enumerate() {
            dims[l.spatial[i]] = cx.tcx().dims.konst(s);
        }
    }
    cx.unify_tensor(1, &dims, dt)?;
    Ok(Progress::Solved)
}

relations_running! {
    AdaptiveAvgPool1D = adaptive_avg_pool1d_rel(adaptive, "nn.adaptive_avg_pool1d", 1);
    AdaptiveMaxPool1D = adaptive_max_pool1d_rel(adaptive, "nn.adaptive_max_pool1d", 1);
    AdaptiveAvgPool2D = adaptive_avg_pool2d_rel(adaptive, "nn.adaptive_avg_pool2d", 2);
    AdaptiveMaxPool2D = adaptive_max_pool2d_rel(adaptive, "nn.adaptive_max_pool2d", 2);
    AdaptiveAvgPool3D = adaptive_avg_pool3d_rel(adaptive, "nn.adaptive_avg_pool3d", 3);
    AdaptiveMaxPool3D = adaptive_max_pool3d_rel(adaptive, "nn.adaptive_max_pool3d", 3);
}

/// The relation of `nn.upsampling3d`: D, H and W scaled by `scale_d`, `scale_h` and
/// `scale_w` (rounded, as `nn.upsampling` rounds).
#[relation(UpSampling3D)]
pub fn upsampling3d_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.upsampling3d";
    let names = ["scale_d", "scale_h", "scale_w"];
    let mut scales = [0.0; 3];
    for (s, name) in scales.iter_mut().zip(names) {
        *s = need(cx, name, Attrs::float)?;
    }
    one_of(cx, op, "method", &["nearest_neighbor", "trilinear"])?;
    one_of(
        cx,
        op,
        "coordinate_transformation_mode",
        &["half_pixel", "align_corners", "asymmetric"],
    )?;
    let l = layouts(cx, op, 3)?;
    let Some((mut dims, dt)) = data_dims(cx, op, &l)? else {
        return Ok(Progress::NotYet);
    };
    for i in 0..3 {
        let p = l.spatial[i];
        dims[p] = scaled(cx, dims[p], scales[i], names[i])?;
    }
    finish(cx, &l, &dims, dt)
}

/// The gradient of 2-D pool `op` (`pool` names the pool): `(out_grad, data)`, the output
/// gradient of the type of the pool's result on `data` (inferred when unknown; TVM does
/// not check it), the result of the data's type.
fn pool_grad(cx: &mut RelCx<'_>, op: &str) -> RelResult {
    let Some((dims, dt)) = pooled(cx, op, 2, 1)? else {
        return Ok(Progress::NotYet);
    };
    let expected = cx.mk_tensor(&dims, dt);
    unify_or(cx, 0, expected, |g, e| {
        format!(
            "the output gradient of `{op}` is `{g}`, but the pool's result on the data is `{e}`"
        )
    })?;
    let data = cx.arg(1);
    cx.unify(2, data)?;
    Ok(Progress::Solved)
}

/// The relation of `nn.max_pool2d_grad` (TVM's `MaxPool2DGrad`).
#[relation(MaxPool2DGrad)]
pub fn max_pool2d_grad_rel(cx: &mut RelCx<'_>) -> RelResult {
    pool_grad(cx, "nn.max_pool2d_grad")
}

/// The relation of `nn.avg_pool2d_grad` (TVM's `MaxPool2DGrad` too).
#[relation(AvgPool2DGrad)]
pub fn avg_pool2d_grad_rel(cx: &mut RelCx<'_>) -> RelResult {
    pool_grad(cx, "nn.avg_pool2d_grad")
}

/// `d` divided by `k` for an operator that needs the division exact: a constant must be
/// divisible (else the error `what` gives), `?` stays `?`, a symbolic `d` is divided in
/// normal form where it can be (`floordiv` otherwise).
pub(super) fn div_exact(
    cx: &mut RelCx<'_>,
    d: Dim,
    k: i64,
    what: impl FnOnce(i64) -> String,
) -> Result<Dim, RelError> {
    let ds = &mut cx.tcx().dims;
    if ds.is_any(d) {
        return Ok(d);
    }
    if let Some(c) = ds.as_const(d) {
        if c % k != 0 {
            return Err(RelError::at(0, what(c)));
        }
        return Ok(ds.konst(c / k));
    }
    let kd = ds.konst(k);
    match crate::level3::util::exact_quotient(ds, &[d], &[kd]) {
        Some(q) => Ok(q),
        None => ds
            .floordiv(d, kd)
            .map_err(|e| RelError::at(0, e.to_string())),
    }
}
