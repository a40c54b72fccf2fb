//! The relations of the resizes and of `image.crop_and_resize`: the data is read through
//! its layout (`NCHW`, `NHWC`, `NCHW16c`, ...) and its spatial axes replaced.

use crate::level2::util::{konst, need, Layout};
use relay_core::{relation, AttrValue, Attrs, DTy, Dim, Progress, RelCx, RelError, RelResult};

/// The canonical layout of `n` spatial axes.
fn canonical(n: usize) -> &'static str {
    ["NCW", "NCHW", "NCDHW"][n - 1]
}

/// A list of `n` sizes, each at least 1, of attribute `attr` (required by operator `op`).
fn sizes(cx: &RelCx<'_>, op: &str, attr: &str, n: usize) -> Result<Vec<i64>, RelError> {
    let Some(v) = cx.attrs().int_or_ints(attr)? else {
        return Err(RelError::new(format!(
            "`{op}` needs `{attr}` (TVM's relation crashes without it)"
        )));
    };
    if v.len() != n {
        return Err(RelError::new(format!(
            "`{attr}` of `{op}` must have {n} value{}, it has {}",
            if n == 1 { "" } else { "s" },
            v.len()
        )));
    }
    if let Some(bad) = v.iter().find(|&&s| s < 1) {
        return Err(RelError::new(format!(
            "`{attr}` must be at least 1, found {bad}"
        )));
    }
    Ok(v)
}

/// The data of argument 0 read through layout `l` (canonical `canon`), or `None` while
/// unknown.
fn data_canonical(
    cx: &mut RelCx<'_>,
    op: &str,
    l: &Layout,
    canon: &str,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let Some((data, dt)) = cx.tensor_dims(0)? else {
        return Ok(None);
    };
    Ok(Some((
        l.canonical_arg(cx, op, (0, "data"), &data, canon)?,
        dt,
    )))
}

fn resize(cx: &mut RelCx<'_>, op: &str, n: usize) -> RelResult {
    let canon = canonical(n);
    let size = sizes(cx, op, "size", n)?;
    match cx.attrs().get("roi") {
        Some(AttrValue::List(v)) if v.len() != 2 * n => {
            return Err(RelError::new(format!(
                "`roi` of `{op}` must have {} values, it has {}",
                2 * n,
                v.len()
            )))
        }
        _ => {}
    }
    let layout = need(cx, "layout", Attrs::str)?.to_owned();
    let l = Layout::new_repacked("layout", &layout, canon)?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    let Some((mut d, dt)) = data_canonical(cx, op, &l, canon)? else {
        return Ok(Progress::NotYet);
    };
    for (i, &s) in size.iter().enumerate() {
        d[2 + i] = konst(cx, s);
    }
    l.unify_output(cx, &d, canon, out_dtype.map(DTy::Known).unwrap_or(dt))?;
    Ok(Progress::Solved)
}

/// `Resize1D(data, out)`: the data (`NCW` through `layout`) with W = `size[0]`, of
/// `out_dtype` (default: the data's). `size` is required (TVM's relation crashes without
/// it); `roi`, when set, has 2 values.
#[relation(Resize1D)]
pub fn resize1d(cx: &mut RelCx<'_>) -> RelResult {
    resize(cx, "image.resize1d", 1)
}

/// `Resize2D(data, out)`: the data (`NCHW` through `layout`) with (H, W) = `size`, of
/// `out_dtype` (default: the data's). `size` is required; `roi`, when set, has 4 values.
#[relation(Resize2D)]
pub fn resize2d(cx: &mut RelCx<'_>) -> RelResult {
    resize(cx, "image.resize2d", 2)
}

/// `Resize3D(data, out)`: the data (`NCDHW` through `layout`) with (D, H, W) = `size`,
/// of `out_dtype` (default: the data's). `size` is required; `roi`, when set, has 6
/// values.
#[relation(Resize3D)]
pub fn resize3d(cx: &mut RelCx<'_>) -> RelResult {
    resize(cx, "image.resize3d", 3)
}

/// `CropAndResize(data, boxes, box_indices, out)`: one crop per box, `(num_boxes, C,
/// crop_size[0], crop_size[1])` in the data's layout (`NCHW` through `layout`), of
/// `out_dtype` (default: the data's). `boxes` is `(num_boxes, 4)` and `box_indices`
/// `(num_boxes)` (TVM checks neither); `crop_size` is required.
#[relation(CropAndResize)]
pub fn crop_and_resize(cx: &mut RelCx<'_>) -> RelResult {
    let op = "image.crop_and_resize";
    let size = sizes(cx, op, "crop_size", 2)?;
    let layout = need(cx, "layout", Attrs::str)?.to_owned();
    let l = Layout::new_repacked("layout", &layout, "NCHW")?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;
    let Some((boxes, _)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    let four = konst(cx, 4);
    if boxes.len() != 2 || cx.unify_dim(boxes[1], four, 1).is_err() {
        return Err(cx.error_showing(1, |t| {
            format!("the boxes of `{op}` must be (num_boxes, 4), found `{t}`")
        }));
    }
    let Some((mut d, dt)) = data_canonical(cx, op, &l, "NCHW")? else {
        return Ok(Progress::NotYet);
    };
    d[0] = boxes[0];
    d[2] = konst(cx, size[0]);
    d[3] = konst(cx, size[1]);
    l.unify_output(cx, &d, "NCHW", out_dtype.map(DTy::Known).unwrap_or(dt))?;
    // The box indices are checked once known (the output does not wait for them).
    let Some((indices, _)) = cx.tensor_dims(2)? else {
        return Ok(Progress::NotYet);
    };
    if indices.len() != 1 || cx.unify_dim(indices[0], boxes[0], 2).is_err() {
        let t = cx.resolve(cx.arg(2));
        let n = cx.show_dim(boxes[0]);
        return Err(RelError::at(
            2,
            format!(
                "the box indices of `{op}` must be ({n}), one per box, found `{}`",
                cx.show(t)
            ),
        ));
    }
    Ok(Progress::Solved)
}
