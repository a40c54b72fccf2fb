//! The relations of the sampling grids (`image.affine_grid`, `image.grid_sample`) and of
//! morphological dilation (`image.dilation2d`).

use crate::conv_variants::window::out_hw;
use crate::level2::util::{konst, need, padding, per_axis, Layout};
use crate::level3::util::agree;
use relay_core::{relation, Attrs, DTy, Progress, RelCx, RelError, RelResult};

/// `image.affine_grid`'s relation: affine matrices `(batch, 2, 3)` give the sampling grid
/// `(batch, 2, target_shape[0], target_shape[1])`.
#[relation(
    AffineGrid(X @ Tensor(s, bt), O) :-
        assert(len(s) == 3, "the data of `image.affine_grid` must be affine matrices (batch, 2, 3), found `{}`", X),
        assert(s[1] = 2, "the data of `image.affine_grid` must be affine matrices (batch, 2, 3), found `{}`", X),
        assert(s[2] = 3, "the data of `image.affine_grid` must be affine matrices (batch, 2, 3), found `{}`", X),
        assert(len(attrs.target_shape) == 2, "`target_shape` of `image.affine_grid` must have 2 values, it has {}", len(attrs.target_shape)),
        for d in attrs.target_shape {
            assert(d >= 1, "`target_shape` must be at least 1, found {}", d),
        },
        O = Tensor([s[0], 2, ..attrs.target_shape], bt),
        attrs(target_shape: [int])
)]
pub struct AffineGrid;

/// `GridSample(data, grid, out)`: 4-D data (`NCHW` through `layout`) sampled at a grid
/// `(N, 2, H', W')` gives `(N, C, H', W')`; 5-D data (`NCDHW`) at `(N, 3, D', H', W')`
/// gives `(N, C, D', H', W')`, in the data's layout and dtype. TVM checks neither the
/// grid's batch nor its coordinate count; here they must agree.
#[relation(GridSample)]
pub fn grid_sample(cx: &mut RelCx<'_>) -> RelResult {
    let op = "image.grid_sample";
    let layout = need(cx, "layout", Attrs::str)?.to_owned();
    let (Some((data, dt)), Some((grid, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let (n, canon) = match data.len() {
        4 => (2, "NCHW"),
        5 => (3, "NCDHW"),
        _ => {
            return Err(cx.error_showing(0, |t| {
                format!("the data of `{op}` must be 4-D or 5-D, found `{t}`")
            }));
        }
    };
    let l = Layout::new_repacked("layout", &layout, canon)?;
    if l.rank() != data.len() {
        return Err(RelError::new(format!(
            "`layout` {layout} of `{op}` does not fit {}-D data",
            data.len()
        )));
    }
    let mut d = l.canonical(cx, &data, 0, "the data", canon)?;
    let coords = konst(cx, n as i64);
    if grid.len() != n + 2
        || cx.unify_dim(grid[1], coords, 1).is_err()
        || cx.unify_dim(grid[0], d[0], 1).is_err()
    {
        let t = cx.resolve(cx.arg(1));
        let b = cx.show_dim(d[0]);
        let spatial = ["H', W'", "D', H', W'"][n - 2];
        return Err(RelError::at(
            1,
            format!(
                "the grid of `{op}` must be ({b}, {n}, {spatial}) for {}-D data, found `{}`",
                data.len(),
                cx.show(t)
            ),
        ));
    }
    d[2..].copy_from_slice(&grid[2..]);
    l.unify_output(cx, &d, canon, dt)?;
    Ok(Progress::Solved)
}

/// `Dilation2D(data, weight, out)`: the data (`NCHW` through `data_layout`) dilated by a
/// structuring element `(C, kh, kw)` (`IHW` through `kernel_layout`) gives
/// `(N, C, H', W')` in the data's layout, with `nn.conv2d`'s `H'` (`dilations` for its
/// dilation), of `out_dtype` (default: the data's). The weight's channels must be the
/// data's (TVM does not check).
#[relation(Dilation2D)]
pub fn dilation2d(cx: &mut RelCx<'_>) -> RelResult {
    let op = "image.dilation2d";
    let strides = per_axis("strides", need(cx, "strides", Attrs::int_or_ints)?, 2, 1)?;
    let dilations = per_axis(
        "dilations",
        need(cx, "dilations", Attrs::int_or_ints)?,
        2,
        1,
    )?;
    let pads = padding(&need(cx, "padding", Attrs::int_or_ints)?, 2)?;
    let data_layout = need(cx, "data_layout", Attrs::str)?.to_owned();
    let kernel_layout = need(cx, "kernel_layout", Attrs::str)?.to_owned();
    let dl = Layout::new_repacked("data_layout", &data_layout, "NCHW")?;
    let kl = Layout::new_repacked("kernel_layout", &kernel_layout, "IHW")?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    let (Some((data, dt)), Some((weight, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let d = dl.canonical_arg(cx, op, (0, "data"), &data, "NCHW")?;
    let w = kl.canonical_arg(cx, op, (1, "weight"), &weight, "IHW")?;
    let place = kl.describe(0, 'I');
    agree(cx, 1, w[0], d[1], |wc, dc| {
        format!("the weight of `{op}` has {wc} channels ({place}), but the data has {dc}")
    })?;
    let [oh, ow] = out_hw(cx, op, (&d[2..], &w[1..]), (&pads, &dilations, &strides))?;
    let out = [d[0], w[0], oh, ow];
    dl.unify_output(cx, &out, "NCHW", out_dtype.map(DTy::Known).unwrap_or(dt))?;
    Ok(Progress::Solved)
}
