//! The relations of the `dyn.*` operators.
//!
//! Imperative: the result's rank comes from the static length of a shape tensor (or from
//! the data's rank), and its dimensions are `?`, which the clause notation cannot write.
//! What is checked beyond TVM (whose relations crash where these give errors): a shape
//! tensor is 1-D, of integers, of a static length; a scalar argument has rank 0; a rank
//! read from a length is bounded before it sizes a shape.

use crate::level2::util::{one_of, Layout};
use crate::level3::util::shown;
use crate::tensor::util::not_integer;
use relay_core::{relation, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult};

/// The most dimensions a shape tensor's length may give (as the clause notation's
/// `[d; n]`).
const MAX_RANK: i64 = 65536;

/// The static length of the 1-D integer tensor argument `arg` of `op` (`what` names it:
/// "the target shape"), which gives the rank of the result: `None` while the tensor or
/// its length has unknowns. Another rank, a non-integer dtype, or a length that is `?` or
/// a symbol (TVM's relations crash on these) is an error.
fn static_len(
    cx: &mut RelCx<'_>,
    arg: usize,
    op: &str,
    what: &str,
) -> Result<Option<usize>, RelError> {
    let Some((dims, dt)) = cx.tensor_dims(arg)? else {
        return Ok(None);
    };
    if dims.len() != 1 || not_integer(cx, dt) {
        return Err(cx.error_showing(arg, |t| {
            format!("`{op}` expects {what} as a 1-D tensor of integers, found `{t}`")
        }));
    }
    let len = cx.resolve_dim(dims[0]);
    let ds = &cx.tcx_ref().dims;
    match ds.as_const(len) {
        Some(n) if (0..=MAX_RANK).contains(&n) => Ok(Some(n as usize)),
        Some(n) => Err(RelError::at(
            arg,
            format!("{what} of `{op}` has {n} elements: a rank must be 0 to {MAX_RANK}"),
        )),
        None if ds.has_vars(len) => Ok(None),
        None => {
            let t = shown(cx, arg);
            Err(RelError::at(
                arg,
                format!(
                    "`{op}` needs {what} of a static length (the rank of its result), found `{t}`"
                ),
            ))
        }
    }
}

/// Checks that argument `arg` of `op` (`what` names it) is a scalar if its rank is known;
/// its dtype, if it is a tensor.
fn scalar(cx: &mut RelCx<'_>, arg: usize, op: &str, what: &str) -> Result<Option<DTy>, RelError> {
    match cx.tensor(arg)? {
        None => Ok(None),
        Some((s, dt)) => match cx.tcx_ref().shape_dims(s) {
            Some(d) if !d.is_empty() => {
                let t = shown(cx, arg);
                Err(RelError::at(
                    arg,
                    format!("`{op}` expects {what} as a scalar, found `{t}`"),
                ))
            }
            _ => Ok(Some(dt)),
        },
    }
}

/// Checks that argument `arg` of `op` is an integer scalar (when known).
fn int_scalar(cx: &mut RelCx<'_>, arg: usize, op: &str, what: &str) -> Result<(), RelError> {
    if let Some(dt) = scalar(cx, arg, op, what)? {
        if not_integer(cx, dt) {
            return Err(cx.error_showing(arg, |t| {
                format!("`{op}` expects {what} as an integer scalar, found `{t}`")
            }));
        }
    }
    Ok(())
}

/// Unifies the output (the last argument) with `rank` dimensions `?` of `dt`.
fn unknown_dims(cx: &mut RelCx<'_>, rank: usize, dt: DTy) -> RelResult {
    let t = cx.mk_tensor(&vec![Dims::ANY; rank], dt);
    let last = cx.len() - 1;
    cx.unify(last, t)?;
    Ok(Progress::Solved)
}

/// The dtype of attribute `dtype` when set.
fn dtype_attr(cx: &RelCx<'_>) -> Result<Option<DTy>, RelError> {
    Ok(cx.attrs().dtype("dtype")?.map(DTy::Known))
}

/// `dyn.reshape(data, newshape)`: as many `?` as `newshape` has elements, of the data's
/// dtype.
#[relation(DynamicReshape)]
pub fn dyn_reshape(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.reshape";
    let Some(rank) = static_len(cx, 1, op, "the new shape")? else {
        return Ok(Progress::NotYet);
    };
    let Some((_, dt)) = cx.tensor(0)? else {
        return Ok(Progress::NotYet);
    };
    unknown_dims(cx, rank, dt)
}

/// `dyn.tile(data, reps)`: the larger of the data's rank and the length of `reps`, all
/// `?`.
#[relation(DynamicTile)]
pub fn dyn_tile(cx: &mut RelCx<'_>) -> RelResult {
    let Some(reps) = static_len(cx, 1, "dyn.tile", "the repetitions")? else {
        return Ok(Progress::NotYet);
    };
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    unknown_dims(cx, dims.len().max(reps), dt)
}

/// `dyn.broadcast_to(data, shape)`: as many `?` as `shape` has elements, of the data's
/// dtype; a target of lower rank than the data is an error (nothing broadcasts to fewer
/// dimensions; TVM does not check).
#[relation(DynamicBroadCastTo)]
pub fn dyn_broadcast_to(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.broadcast_to";
    let Some(rank) = static_len(cx, 1, op, "the target shape")? else {
        return Ok(Progress::NotYet);
    };
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if dims.len() > rank {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`{op}` cannot broadcast `{t}` (rank {}) to a shape of {rank} dimensions",
                dims.len()
            )
        }));
    }
    unknown_dims(cx, rank, dt)
}

/// `dyn.zeros(shape)`, `dyn.ones(shape)`: as many `?` as `shape` has elements, of
/// `dtype`, which must be set (TVM would type the result with the void dtype).
fn dyn_init(cx: &mut RelCx<'_>, op: &str) -> RelResult {
    let Some(dt) = dtype_attr(cx)? else {
        return Err(RelError::new(format!(
            "`dtype` of `{op}` must be set: the unset dtype (TVM's default) is no tensor's dtype"
        )));
    };
    let Some(rank) = static_len(cx, 0, op, "the shape")? else {
        return Ok(Progress::NotYet);
    };
    unknown_dims(cx, rank, dt)
}

/// The relation of `dyn.zeros` (TVM's `DynamicInitOp`, shared with `dyn.ones`: two
/// here, so that messages name the operator).
#[relation(DynamicZeros)]
pub fn dyn_zeros(cx: &mut RelCx<'_>) -> RelResult {
    dyn_init(cx, "dyn.zeros")
}

/// The relation of `dyn.ones` (TVM's `DynamicInitOp`).
#[relation(DynamicOnes)]
pub fn dyn_ones(cx: &mut RelCx<'_>) -> RelResult {
    dyn_init(cx, "dyn.ones")
}

/// `dyn.full(fill_value, shape)`: as many `?` as `shape` has elements, of `dtype` (unset:
/// the fill value's); the fill value is a scalar.
#[relation(DynamicFull)]
pub fn dyn_full(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.full";
    let fill = scalar(cx, 0, op, "the fill value")?;
    let Some(rank) = static_len(cx, 1, op, "the shape")? else {
        return Ok(Progress::NotYet);
    };
    let Some(dt) = dtype_attr(cx)?.or(fill) else {
        return Ok(Progress::NotYet);
    };
    unknown_dims(cx, rank, dt)
}

/// `dyn.expand_dims(data, axis)`: the data's rank plus `num_newaxis` dimensions, all `?`
/// (where the new axes go is known only at run time); `axis` is an integer scalar.
#[relation(DynamicExpandDims)]
pub fn dyn_expand_dims(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.expand_dims";
    let n = cx.attrs().int("num_newaxis")?.unwrap_or(1);
    if !(0..=MAX_RANK).contains(&n) {
        return Err(RelError::new(format!(
            "`num_newaxis` of `{op}` must be 0 to {MAX_RANK}, found {n}"
        )));
    }
    int_scalar(cx, 1, op, "the axis")?;
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    unknown_dims(cx, dims.len() + n as usize, dt)
}

/// The axes of list attribute `attr`, if given, checked against the data (argument 0) of
/// rank `rank`: a dynamic operator takes its axes as an argument and does not read them
/// (TVM's accepts any), but an axis given is an axis.
fn given_axes(cx: &mut RelCx<'_>, attr: &str, rank: usize) -> Result<(), RelError> {
    for a in cx.attrs().ints(attr)?.unwrap_or_default() {
        cx.axis(0, attr, a, rank)?;
    }
    Ok(())
}

/// `dyn.squeeze(data, axes)`: the data's rank less the number of `axes`, all `?`; more
/// axes than the data has is an error (TVM's relation underflows).
#[relation(DynSqueeze)]
pub fn dyn_squeeze(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.squeeze";
    let Some(axes) = static_len(cx, 1, op, "the axes")? else {
        return Ok(Progress::NotYet);
    };
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    given_axes(cx, "axis", dims.len())?;
    if axes > dims.len() {
        let t = shown(cx, 0);
        return Err(RelError::at(
            1,
            format!(
                "`{op}` cannot squeeze {axes} axes of `{t}`: it has rank {}",
                dims.len()
            ),
        ));
    }
    unknown_dims(cx, dims.len() - axes, dt)
}

/// `dyn.one_hot(indices, on_value, off_value, depth)`: the indices' shape with `?` (the
/// depth, known at run time) inserted at `axis` (`-1`: appended), of `dtype`; the values
/// are scalars of `dtype` (an unset `dtype` is the values' dtype, as for `one_hot`), the
/// depth an integer scalar.
#[relation(DynOneHot)]
pub fn dyn_one_hot(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.one_hot";
    int_scalar(cx, 3, op, "the depth")?;
    let dt = match dtype_attr(cx)? {
        Some(dt) => dt,
        None => match (cx.tensor(1)?, cx.tensor(2)?) {
            (Some((_, dt)), _) | (None, Some((_, dt))) => dt,
            (None, None) => return Ok(Progress::NotYet),
        },
    };
    for (arg, what) in [(1, "the on value"), (2, "the off value")] {
        scalar(cx, arg, op, what)?;
        cx.unify_tensor(arg, &[], dt)?;
    }
    let Some((dims, idt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if not_integer(cx, idt) {
        return Err(cx.error_showing(0, |t| format!("`{op}` needs integer indices, found `{t}`")));
    }
    let axis = cx.attrs().int("axis")?.unwrap_or(-1);
    let pos = cx.insert_axis(0, "axis", axis, dims.len())?;
    let mut out = dims;
    out.insert(pos, Dims::ANY);
    cx.unify_tensor(4, &out, dt)?;
    Ok(Progress::Solved)
}

/// `dyn.sparse_to_dense(sparse_indices, sparse_values, default_value, output_shape)`: as
/// many `?` as `output_shape` has elements, of the values' dtype. The indices are
/// integers of rank 0 to 2, the values of rank 0 or 1, the default value a scalar of the
/// values' dtype (TVM accepts indices of rank 3 and values of rank 2, which its own
/// messages rule out, and any default dtype, which its compute rejects).
#[relation(DynSparseToDense)]
pub fn dyn_sparse_to_dense(cx: &mut RelCx<'_>) -> RelResult {
    sparse_to_dense(cx, "dyn.sparse_to_dense", |cx| {
        static_len(cx, 3, "dyn.sparse_to_dense", "the output shape")
            .map(|r| r.map(|r| vec![Dims::ANY; r]))
    })
}

/// The checks of `sparse_to_dense` and `dyn.sparse_to_dense`, with the output's
/// dimensions given by `out_dims` (`None`: not known yet).
pub(crate) fn sparse_to_dense(
    cx: &mut RelCx<'_>,
    op: &str,
    out_dims: impl FnOnce(&mut RelCx<'_>) -> Result<Option<Vec<Dim>>, RelError>,
) -> RelResult {
    if let Some((d, dt)) = cx.tensor_dims(0)? {
        if d.len() > 2 || not_integer(cx, dt) {
            return Err(cx.error_showing(0, |t| {
                format!(
                    "`{op}` expects the sparse indices as integers of rank 0, 1 or 2, found `{t}`"
                )
            }));
        }
    }
    let values = cx.tensor_dims(1)?;
    if let Some((d, _)) = &values {
        if d.len() > 1 {
            return Err(cx.error_showing(1, |t| {
                format!("`{op}` expects the sparse values of rank 0 or 1, found `{t}`")
            }));
        }
    }
    let default = scalar(cx, 2, op, "the default value")?;
    let Some(dims) = out_dims(cx)? else {
        return Ok(Progress::NotYet);
    };
    let Some((_, dt)) = values else {
        return Ok(Progress::NotYet);
    };
    if let Some(ddt) = default {
        if cx.unify_dtype(ddt, dt, 2).is_err() {
            let (d, v) = (shown(cx, 2), shown(cx, 1));
            return Err(RelError::at(
                2,
                format!("the default value `{d}` of `{op}` is not of the dtype of the sparse values `{v}`"),
            ));
        }
    }
    let t = cx.mk_tensor(&dims, dt);
    let last = cx.len() - 1;
    cx.unify(last, t)?;
    Ok(Progress::Solved)
}

/// `dyn.strided_slice(data, begin, end, strides)`: the first `k` dimensions `?` and the
/// rest the data's, `k` the length of `begin`; `end` and `strides` have that length too
/// (TVM checks this only when it compiles), and `k` is at most the data's rank.
#[relation(DynStridedSlice)]
pub fn dyn_strided_slice(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.strided_slice";
    let mode = cx.attrs().str("slice_mode")?.unwrap_or("end");
    if mode != "end" && mode != "size" {
        return Err(RelError::new(format!(
            "`slice_mode` of `{op}` must be \"end\" or \"size\", found {mode:?}"
        )));
    }
    let Some(k) = static_len(cx, 1, op, "`begin`")? else {
        return Ok(Progress::NotYet);
    };
    for (arg, what) in [(2, "`end`"), (3, "`strides`")] {
        if let Some(n) = static_len(cx, arg, op, what)? {
            if n != k {
                return Err(RelError::at(
                    arg,
                    format!("{what} of `{op}` has {n} elements, `begin` has {k}"),
                ));
            }
        }
    }
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    given_axes(cx, "axes", dims.len())?;
    if k > dims.len() {
        let t = shown(cx, 0);
        return Err(RelError::at(
            1,
            format!("`begin` of `{op}` has {k} elements, more than the rank of `{t}`"),
        ));
    }
    let mut out = dims;
    out[..k].fill(Dims::ANY);
    cx.unify_tensor(4, &out, dt)?;
    Ok(Progress::Solved)
}

/// `dyn.topk(data, k)`: as `topk`, with the `axis` dimension `?` (`k` is known at run
/// time); `k` is a scalar or a 1-element 1-D tensor.
#[relation(DynTopK)]
pub fn dyn_topk(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.topk";
    if let Some((kd, _)) = cx.tensor_dims(1)? {
        let one = cx.tcx().dims.konst(1);
        let ok = match kd.as_slice() {
            [] => true,
            [n] => cx.unify_dim(*n, one, 1).is_ok(),
            _ => false,
        };
        if !ok {
            return Err(cx.error_showing(1, |t| {
                format!("`{op}` expects `k` as a scalar or a tensor of shape (1), found `{t}`")
            }));
        }
    }
    let ret_type = cx.attrs().str("ret_type")?.unwrap_or("both").to_owned();
    if !["both", "values", "indices"].contains(&ret_type.as_str()) {
        return Err(RelError::new(format!(
            "`ret_type` of `{op}` must be \"both\", \"values\" or \"indices\", found {ret_type:?}"
        )));
    }
    let idt = cx.attrs().dtype("dtype")?.unwrap_or(DType::INT32);
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let axis = cx.attrs().int("axis")?.unwrap_or(-1);
    let k = cx.axis(0, "axis", axis, dims.len())?;
    let mut out = dims;
    out[k] = Dims::ANY;
    let values = cx.mk_tensor(&out, dt);
    let indices = cx.mk_tensor(&out, DTy::Known(idt));
    let t = match ret_type.as_str() {
        "both" => cx.tcx().tuple(&[values, indices]),
        "values" => values,
        _ => indices,
    };
    cx.unify(2, t)?;
    Ok(Progress::Solved)
}

/// The data (argument 0) of `op` with the spatial axes of its `layout` (canonically
/// `canonical`, e.g. `NCHW`, whose axes from 2 on are spatial) made `?`, of `dtype`
/// (default: the data's). Packed layouts (`NCHW16c`) are read as TVM's `BijectiveLayout`
/// reads them.
fn spatial_unknown(cx: &mut RelCx<'_>, op: &str, canonical: &str, dtype: Option<DTy>) -> RelResult {
    let name = cx.attrs().str("layout")?.unwrap_or(canonical).to_owned();
    let layout = Layout::new("layout", &name, canonical)?;
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let mut canon = layout.canonical_arg(cx, op, (0, "data"), &dims, canonical)?;
    canon[2..].fill(Dims::ANY);
    layout.unify_output(cx, &canon, canonical, dtype.unwrap_or(dt))?;
    Ok(Progress::Solved)
}

/// `dyn.image.resize2d(data, size, roi)`: the data with H and W `?` (in `layout`), of
/// `out_dtype` (unset: the data's); `size` is `(2)` (height and width), `roi` `(4)`
/// (TVM checks neither).
#[relation(DynResize2D)]
pub fn dyn_resize2d(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.image.resize2d";
    one_of(cx, op, "method", &["linear", "nearest_neighbor", "cubic"])?;
    for (arg, what, n) in [(1, "the size", 2), (2, "the region of interest", 4)] {
        if let Some(len) = cx.tensor_dims(arg)?.map(|(d, _)| d) {
            let want = cx.tcx().dims.konst(n);
            if len.len() != 1 || cx.unify_dim(len[0], want, arg).is_err() {
                return Err(cx.error_showing(arg, |t| {
                    format!("`{op}` expects {what} as a tensor of shape ({n}), found `{t}`")
                }));
            }
        }
    }
    if let Some((_, dt)) = cx.tensor(1)? {
        if not_integer(cx, dt) {
            return Err(cx.error_showing(1, |t| {
                format!("`{op}` expects the size as integers, found `{t}`")
            }));
        }
    }
    let out_dtype = cx.attrs().dtype("out_dtype")?.map(DTy::Known);
    spatial_unknown(cx, op, "NCHW", out_dtype)
}

/// `dyn.nn.upsampling(data, scale_h, scale_w)` and `dyn.nn.upsampling3d(data, scale_d,
/// scale_h, scale_w)`: the data with its spatial axes `?` (in `layout`); the scales are
/// scalars.
fn dyn_upsampling(cx: &mut RelCx<'_>, op: &str, canonical: &str, scales: &[&str]) -> RelResult {
    one_of(
        cx,
        op,
        "method",
        &["nearest_neighbor", "bilinear", "bicubic", "trilinear"],
    )?;
    for (i, s) in scales.iter().enumerate() {
        scalar(cx, i + 1, op, &format!("`{s}`"))?;
    }
    spatial_unknown(cx, op, canonical, None)
}

/// The relation of `dyn.nn.upsampling`.
#[relation(DynamicUpSampling)]
pub fn dyn_upsampling_rel(cx: &mut RelCx<'_>) -> RelResult {
    dyn_upsampling(cx, "dyn.nn.upsampling", "NCHW", &["scale_h", "scale_w"])
}

/// The relation of `dyn.nn.upsampling3d`.
#[relation(DynamicUpSampling3D)]
pub fn dyn_upsampling3d_rel(cx: &mut RelCx<'_>) -> RelResult {
    dyn_upsampling(
        cx,
        "dyn.nn.upsampling3d",
        "NCDHW",
        &["scale_d", "scale_h", "scale_w"],
    )
}

/// `dyn.nn.pad(data, pad_width, pad_value)`: the data's rank, all `?`; `pad_width` is a
/// `(rank, 2)` integer tensor (TVM checks only that it is 2-D), `pad_value` a scalar.
#[relation(DynamicPad)]
pub fn dyn_pad(cx: &mut RelCx<'_>) -> RelResult {
    let op = "dyn.nn.pad";
    let mode = cx.attrs().str("pad_mode")?.unwrap_or("constant");
    if !["constant", "edge", "reflect"].contains(&mode) {
        return Err(RelError::new(format!(
            "`pad_mode` of `{op}` must be \"constant\", \"edge\" or \"reflect\", found {mode:?}"
        )));
    }
    scalar(cx, 2, op, "the pad value")?;
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if let Some((pw, pdt)) = cx.tensor_dims(1)? {
        let (rank, two) = (
            cx.tcx().dims.konst(dims.len() as i64),
            cx.tcx().dims.konst(2),
        );
        let ok = pw.len() == 2
            && !not_integer(cx, pdt)
            && cx.unify_dim(pw[0], rank, 1).is_ok()
            && cx.unify_dim(pw[1], two, 1).is_ok();
        if !ok {
            let (p, t) = (shown(cx, 1), shown(cx, 0));
            return Err(RelError::at(
                1,
                format!(
                    "`{op}` expects the pad widths as integers of shape ({}, 2), one pair per axis of `{t}`, found `{p}`",
                    dims.len()
                ),
            ));
        }
    }
    unknown_dims(cx, dims.len(), dt)
}
