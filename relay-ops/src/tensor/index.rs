//! Indexing: `scatter_elements`, `scatter_nd`, `adv_index`, `strided_set`,
//! `searchsorted`, `unravel_index`, `argwhere`.
//!
//! Imperative: shapes that combine several arguments' dimensions by position. Beyond
//! TVM, which checks little more than integer indices here, the shapes the kernels need
//! to agree are checked (and solved where one side is unknown).

use super::util::{part, same_dims, shown, tuple_of_tensors, unify_or};
use crate::level2::util::one_of;
use relay_core::shape::broadcast;
use relay_core::{relation, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult};

/// Unifies the dtype of argument `arg` (`dt`) with the data's (`want`), or fails naming
/// both.
fn same_dtype(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
    dt: DTy,
    want: DTy,
) -> Result<(), RelError> {
    if cx.unify_dtype(dt, want, arg).is_err() {
        let (a, d) = (shown(cx, arg), shown(cx, 0));
        return Err(RelError::at(
            arg,
            format!("`{op}` expects `{a}` of the dtype of the data `{d}`"),
        ));
    }
    Ok(())
}

/// The relation of `scatter_elements(data, indices, updates)`: the data's type; the
/// indices (integers) of the data's rank, the updates of the indices' shape and the data's
/// dtype (inferred when unknown), `axis` in range (TVM checks only the indices' dtype).
#[relation(ScatterElements)]
pub fn scatter_elements_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "scatter_elements";
    one_of(
        cx,
        op,
        "reduction",
        &["update", "add", "mul", "mean", "min", "max"],
    )?;
    let Some((data, dt)) = part(cx, op, 0, "the data", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    let axis = cx.attrs().int("axis")?.unwrap_or(0);
    cx.axis(0, "axis", axis, data.len())?;
    let d = cx.arg(0);
    cx.unify(3, d)?;
    let Some((idx, _)) = part(cx, op, 1, "the indices", &[], true)? else {
        return Ok(Progress::NotYet);
    };
    if cx.tensor(2)?.is_none() {
        // Backward: the updates have the indices' shape and the data's dtype.
        cx.unify_tensor(2, &idx, dt)?;
    }
    let Some((upd, udt)) = part(cx, op, 2, "the updates", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    if idx.len() != data.len() {
        let (i, d) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!("`{op}` expects indices of the data's rank: `{i}` for the data `{d}`"),
        ));
    }
    same_dims(cx, 2, &upd, &idx, |cx| {
        let (u, i) = (shown(cx, 2), shown(cx, 1));
        format!("`{op}` expects updates of the indices' shape: `{u}` for the indices `{i}`")
    })?;
    same_dtype(cx, op, 2, udt, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `scatter_nd(data, indices, updates)`: the data's type; the indices
/// `(M, Y...)` with a static `M` of at most the data's rank, the updates
/// `Y... ++ data[M:]` of the data's dtype (inferred when unknown).
#[relation(ScatterND)]
pub fn scatter_nd_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "scatter_nd";
    one_of(cx, op, "mode", &["update", "add", "mul", "min", "max"])?;
    let Some((data, dt)) = part(cx, op, 0, "the data", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    let d = cx.arg(0);
    cx.unify(3, d)?;
    let Some((idx, _)) = part(cx, op, 1, "the indices", &[], true)? else {
        return Ok(Progress::NotYet);
    };
    let Some(&m) = idx.first() else {
        return Err(cx.error_showing(1, |i| {
            format!("`{op}` expects indices (M, Y...), found `{i}`")
        }));
    };
    let m = cx.resolve_dim(m);
    let m = match cx.tcx_ref().dims.as_const(m) {
        Some(m) if (0..=data.len() as i64).contains(&m) => m as usize,
        None if cx.tcx_ref().dims.has_vars(m) => return Ok(Progress::NotYet),
        _ => {
            let (i, d) = (shown(cx, 1), shown(cx, 0));
            return Err(RelError::at(
                1,
                format!("`{op}` expects indices (M, Y...) with M a constant of at most the data's rank, found `{i}` for the data `{d}`"),
            ));
        }
    };
    let mut want = idx[1..].to_vec();
    want.extend_from_slice(&data[m..]);
    let expected = cx.mk_tensor(&want, dt);
    unify_or(cx, 2, expected, |u, e| {
        format!("`{op}` expects updates `{e}` (the indices' Y... then the data's dimensions from M), found `{u}`")
    })?;
    Ok(Progress::Solved)
}

/// The relation of `adv_index((data, index...))`: the indices (integers) broadcast
/// together, then the data's dimensions they do not index; at most as many indices as
/// the data has dimensions.
#[relation(AdvIndex)]
pub fn adv_index_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "adv_index";
    let Some(fields) = tuple_of_tensors(cx, op, 0)? else {
        return Ok(Progress::NotYet);
    };
    let Some(((data, dt), indices)) = fields.split_first() else {
        return Err(RelError::at(
            0,
            format!("`{op}` needs the data in its tuple"),
        ));
    };
    if indices.len() > data.len() {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`{op}` has {} indices for data of rank {}: `{t}`",
                indices.len(),
                data.len()
            )
        }));
    }
    let mut shape: Vec<Dim> = Vec::new();
    for (k, (dims, idt)) in indices.iter().enumerate() {
        if super::util::not_integer(cx, *idt) {
            return Err(cx.error_showing(0, |t| {
                format!("index {k} of `{op}` is not of integers: `{t}`")
            }));
        }
        shape = match broadcast(&cx.tcx_ref().dims, &shape, dims) {
            Ok(Some(b)) => b,
            Ok(None) => return Ok(Progress::NotYet),
            Err(_) => {
                return Err(cx.error_showing(0, |t| {
                    format!("the indices of `{op}` do not broadcast together: `{t}`")
                }));
            }
        };
    }
    shape.extend_from_slice(&data[indices.len()..]);
    cx.unify_tensor(1, &shape, *dt)?;
    Ok(Progress::Solved)
}

/// The relation of `strided_set(data, v, begin, end, strides)`: the data's type; `v` of
/// the data's rank and dtype, `begin`, `end` and `strides` 1-D integer tensors of one
/// length, at most the data's rank (TVM checks none of it).
#[relation(StridedSet)]
pub fn strided_set_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "strided_set";
    let Some((data, dt)) = part(cx, op, 0, "the data", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    let d = cx.arg(0);
    cx.unify(5, d)?;
    if let Some((_, vdt)) = part(cx, op, 1, "the value", &[data.len()], false)? {
        same_dtype(cx, op, 1, vdt, dt)?;
    }
    let mut len: Option<Dim> = None;
    for (arg, what) in [(2, "`begin`"), (3, "`end`"), (4, "`strides`")] {
        let Some((l, _)) = part(cx, op, arg, what, &[1], true)? else {
            continue;
        };
        if let Some(c) = cx
            .tcx_ref()
            .dims
            .as_const(l[0])
            .filter(|&c| c > data.len() as i64)
        {
            let t = shown(cx, 0);
            return Err(RelError::at(
                arg,
                format!("{what} of `{op}` has {c} elements, more than the rank of `{t}`"),
            ));
        }
        match len {
            None => len = Some(l[0]),
            Some(first) => {
                same_dims(cx, arg, &[l[0]], &[first], |cx| {
                    let t = shown(cx, arg);
                    format!("{what} of `{op}` is `{t}`, of another length than `begin`'s")
                })?;
            }
        }
    }
    Ok(Progress::Solved)
}

/// The relation of `searchsorted(sorted_sequence, values)`: the values' shape, of
/// `dtype`. A 1-D sequence serves every value; a sequence of more dimensions has the
/// values' rank and their outer dimensions. Both have one dtype.
#[relation(SearchSorted)]
pub fn searchsorted_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "searchsorted";
    let (Some((seq, sdt)), Some((values, vdt))) = (
        part(cx, op, 0, "the sorted sequence", &[], false)?,
        part(cx, op, 1, "the values", &[], false)?,
    ) else {
        return Ok(Progress::NotYet);
    };
    if values.is_empty() || seq.is_empty() {
        let (s, v) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("`{op}` expects a sorted sequence and values of rank at least 1, found `{s}` and `{v}`"),
        ));
    }
    if seq.len() > 1 {
        let n = values.len() - 1;
        let ok =
            seq.len() == values.len() && (0..n).all(|i| cx.unify_dim(seq[i], values[i], 1).is_ok());
        if !ok {
            let (s, v) = (shown(cx, 0), shown(cx, 1));
            return Err(RelError::at(
                1,
                format!("`{op}` expects a sorted sequence `{s}` of the rank and outer dimensions of the values `{v}`"),
            ));
        }
    }
    if cx.unify_dtype(vdt, sdt, 1).is_err() {
        let (s, v) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("`{op}` expects values `{v}` of the dtype of the sorted sequence `{s}`"),
        ));
    }
    let odt = cx.attrs().dtype("dtype")?.unwrap_or(DType::INT32);
    cx.unify_tensor(2, &values, DTy::Known(odt))?;
    Ok(Progress::Solved)
}

/// The relation of `unravel_index(indices, shape)`: one row per dimension of `shape` (a
/// 1-D integer tensor) and the indices' shape after it (`(len)` for a scalar index, as
/// TVM; TVM keeps only the first dimension of indices of rank 2 or more), of the indices'
/// dtype.
#[relation(UnRavelIndex)]
pub fn unravel_index_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "unravel_index";
    let (Some((idx, dt)), Some((shape, _))) = (
        part(cx, op, 0, "the indices", &[], true)?,
        part(cx, op, 1, "the shape", &[1], true)?,
    ) else {
        return Ok(Progress::NotYet);
    };
    let mut out = vec![shape[0]];
    out.extend_from_slice(&idx);
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `argwhere(condition)`: `(?, rank)` of `int32`, one row per true
/// element.
#[relation(ArgWhere)]
pub fn argwhere_rel(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let rank = cx.tcx().dims.konst(dims.len() as i64);
    cx.unify_tensor(1, &[Dims::ANY, rank], DTy::Known(DType::INT32))?;
    Ok(Progress::Solved)
}
