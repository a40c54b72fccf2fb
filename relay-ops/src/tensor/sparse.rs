//! Sparse tensors in coordinate form: `sparse_to_dense`, `sparse_reshape`,
//! `sparse_fill_empty_rows`.

use super::util::{part, same_dims, shown};
use relay_core::{relation, DTy, DType, Dims, Progress, RelCx, RelError, RelResult};

/// The relation of `sparse_to_dense(sparse_indices, sparse_values, default_value)`: a
/// tensor of `output_shape`, of the values' dtype; the checks of `dyn.sparse_to_dense`.
#[relation(SparseToDense)]
pub fn sparse_to_dense_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "sparse_to_dense";
    let shape = cx.attrs().ints("output_shape")?.unwrap_or_default();
    if let Some(bad) = shape.iter().find(|&&d| d < 0) {
        return Err(RelError::new(format!(
            "`output_shape` of `{op}` must not have a negative dimension, found {bad}"
        )));
    }
    crate::dynamic::rels::sparse_to_dense(cx, op, |cx| {
        Ok(Some(
            shape.iter().map(|&d| cx.tcx().dims.konst(d)).collect(),
        ))
    })
}

/// The relation of `sparse_reshape(sparse_indices, prev_shape, new_shape)`: the pair (the
/// indices `(N, len(new_shape))` of their dtype, `new_shape`'s type). The indices are
/// `(N, len(prev_shape))`; all three are integers.
#[relation(SparseReshape)]
pub fn sparse_reshape_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "sparse_reshape";
    let (Some((idx, idt)), Some((prev, _)), Some((new, _))) = (
        part(cx, op, 0, "the sparse indices", &[2], true)?,
        part(cx, op, 1, "the previous shape", &[1], true)?,
        part(cx, op, 2, "the new shape", &[1], true)?,
    ) else {
        return Ok(Progress::NotYet);
    };
    same_dims(cx, 1, &[prev[0]], &[idx[1]], |cx| {
        let (p, i) = (shown(cx, 1), shown(cx, 0));
        format!("`{op}` expects the previous shape `{p}` to have one entry per column of the sparse indices `{i}`")
    })?;
    let indices = cx.mk_tensor(&[idx[0], new[0]], idt);
    let new_shape = cx.arg(2);
    let t = cx.tcx().tuple(&[indices, new_shape]);
    cx.unify(3, t)?;
    Ok(Progress::Solved)
}

/// The relation of `sparse_fill_empty_rows(sparse_indices, sparse_values, dense_shape,
/// default_value)`: the triple (new indices `(?, ndims)`, new values `(?)`, the empty-row
/// indicator `(?)`), all `int64` as TVM's kernel writes them. The indices are
/// `(N, ndims)` integers, the values `(N)`, `dense_shape` `(ndims)` integers, the default
/// value a scalar or `(1)`.
#[relation(SparseFillEmptyRows)]
pub fn sparse_fill_empty_rows_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "sparse_fill_empty_rows";
    let (Some((idx, _)), Some((values, _)), Some((shape, _))) = (
        part(cx, op, 0, "the sparse indices", &[2], true)?,
        part(cx, op, 1, "the sparse values", &[1], false)?,
        part(cx, op, 2, "the dense shape", &[1], true)?,
    ) else {
        return Ok(Progress::NotYet);
    };
    if let Some((d, _)) = part(cx, op, 3, "the default value", &[], false)? {
        let one = cx.tcx().dims.konst(1);
        let ok = d.is_empty() || (d.len() == 1 && cx.unify_dim(d[0], one, 3).is_ok());
        if !ok {
            return Err(cx.error_showing(3, |t| {
                format!("`{op}` expects the default value as a scalar or a (1) tensor, found `{t}`")
            }));
        }
    }
    same_dims(cx, 1, &[values[0]], &[idx[0]], |cx| {
        let (v, i) = (shown(cx, 1), shown(cx, 0));
        format!("`{op}` expects one sparse value `{v}` per row of the sparse indices `{i}`")
    })?;
    same_dims(cx, 2, &[shape[0]], &[idx[1]], |cx| {
        let (s, i) = (shown(cx, 2), shown(cx, 0));
        format!("`{op}` expects the dense shape `{s}` to have one entry per column of the sparse indices `{i}`")
    })?;
    let i64t = DTy::Known(DType::INT64);
    let new_indices = cx.mk_tensor(&[Dims::ANY, idx[1]], i64t);
    let column = cx.mk_tensor(&[Dims::ANY], i64t);
    let t = cx.tcx().tuple(&[new_indices, column, column]);
    cx.unify(4, t)?;
    Ok(Progress::Solved)
}
