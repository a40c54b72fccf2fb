//! Sparse matrices in CSR (`data`, `indices`, `indptr`, the data 1-D) or BSR (the data
//! `(blocks, bs_r, bs_c)`) form: `nn.sparse_dense`, `nn.internal.sparse_dense_padded`,
//! `nn.sparse_transpose`, `nn.sparse_add`, `nn.sparse_conv2d`; and `nn.nll_loss`.
//!
//! Imperative. Where TVM's relations read argument types without checking they are
//! known (a crash on an unknown `sparse_data`), these wait; the ranks of the sparse
//! arrays, the integer indices and the dtypes that the kernels combine are checked.

use relay_core::{relation, DTy, Dim, Progress, RelCx, RelError, RelResult};

use crate::tensor::util::{not_integer, part as sparse_part, same_dims, shown, unify_or};

/// The rows of the sparse matrix whose `indptr` has length `len` (`len - 1`), times the
/// block rows `bs_r` for BSR.
fn sparse_rows(cx: &mut RelCx<'_>, op: &str, len: Dim, bs_r: Option<Dim>) -> Result<Dim, RelError> {
    let ds = &mut cx.tcx().dims;
    if ds.as_const(len) == Some(0) {
        return Err(RelError::at(
            3,
            format!("`{op}` expects an index pointer of at least one element, found an empty one"),
        ));
    }
    let one = ds.konst(1);
    let rows = ds.sub(len, one).map_err(|e| RelError::new(e.to_string()))?;
    match bs_r {
        Some(b) => ds.mul(rows, b).map_err(|e| RelError::new(e.to_string())),
        None => Ok(rows),
    }
}

/// `nn.sparse_dense(dense, sparse_data, sparse_indices, sparse_indptr)`: `dense` `(M, K)`
/// times the transpose of the sparse `(N, K)` is `(M, N)`, `N` = the index pointer's
/// length less 1 (times `bs_r` for BSR), of the dense dtype; with `sparse_lhs`, the
/// sparse `(M, K)` times the transpose of `dense` `(N, K)` is `(M, N)`, `M` from the index
/// pointer. The sparse data has the dense dtype.
fn sparse_dense(cx: &mut RelCx<'_>, op: &str) -> RelResult {
    let lhs = cx.attrs().bool("sparse_lhs")?.unwrap_or(false);
    let data = sparse_part(cx, op, 1, "the sparse data", &[1, 3], false)?;
    sparse_part(cx, op, 2, "the sparse indices", &[1], true)?;
    let indptr = sparse_part(cx, op, 3, "the sparse index pointer", &[1], true)?;
    let dense = sparse_part(cx, op, 0, "the dense matrix", &[2], false)?;
    let (Some((data, sdt)), Some((indptr, _)), Some((dense, dt))) = (data, indptr, dense) else {
        return Ok(Progress::NotYet);
    };
    if cx.unify_dtype(sdt, dt, 1).is_err() {
        let (s, d) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!(
                "the sparse data `{s}` of `{op}` is not of the dtype of the dense matrix `{d}`"
            ),
        ));
    }
    let bs_r = (data.len() == 3).then(|| data[1]);
    let n = sparse_rows(cx, op, indptr[0], bs_r)?;
    let out = if lhs { [n, dense[0]] } else { [dense[0], n] };
    cx.unify_tensor(4, &out, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `nn.sparse_dense` (TVM's `SparseDense`).
#[relation(SparseDense)]
pub fn sparse_dense_rel(cx: &mut RelCx<'_>) -> RelResult {
    sparse_dense(cx, "nn.sparse_dense")
}

/// The relation of `nn.internal.sparse_dense_padded` (TVM's `SparseDense` too).
#[relation(SparseDensePadded)]
pub fn sparse_dense_padded_rel(cx: &mut RelCx<'_>) -> RelResult {
    sparse_dense(cx, "nn.internal.sparse_dense_padded")
}

/// `nn.sparse_transpose(sparse_data, sparse_indices, sparse_indptr)`: the triple of the
/// transposed CSR matrix, of the types of the input's (TVM's kernel transposes square
/// matrices, whose index pointers have one length); the data and indices 1-D, the
/// indices and index pointer integers.
#[relation(SparseTranspose)]
pub fn sparse_transpose_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.sparse_transpose";
    let parts = [
        sparse_part(cx, op, 0, "the sparse data", &[1], false)?,
        sparse_part(cx, op, 1, "the sparse indices", &[1], true)?,
        sparse_part(cx, op, 2, "the sparse index pointer", &[1], true)?,
    ];
    if parts.iter().any(Option::is_none) {
        return Ok(Progress::NotYet);
    }
    let fields = [cx.arg(0), cx.arg(1), cx.arg(2)];
    let t = cx.tcx().tuple(&fields);
    cx.unify(3, t)?;
    Ok(Progress::Solved)
}

/// `nn.sparse_add(dense, sparse_data, sparse_indices, sparse_indptr)`: the dense matrix's
/// type; the sparse data 1-D of its dtype, the index pointer one longer than its rows.
#[relation(SparseAdd)]
pub fn sparse_add_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.sparse_add";
    let data = sparse_part(cx, op, 1, "the sparse data", &[1], false)?;
    sparse_part(cx, op, 2, "the sparse indices", &[1], true)?;
    let indptr = sparse_part(cx, op, 3, "the sparse index pointer", &[1], true)?;
    let Some((dense, dt)) = sparse_part(cx, op, 0, "the dense matrix", &[2], false)? else {
        return Ok(Progress::NotYet);
    };
    if let Some((_, sdt)) = data {
        if cx.unify_dtype(sdt, dt, 1).is_err() {
            let (s, d) = (shown(cx, 1), shown(cx, 0));
            return Err(RelError::at(
                1,
                format!(
                    "the sparse data `{s}` of `{op}` is not of the dtype of the dense matrix `{d}`"
                ),
            ));
        }
    }
    if let Some((p, _)) = indptr {
        let one = cx.tcx().dims.konst(1);
        let rows = cx
            .tcx()
            .dims
            .add(dense[0], one)
            .map_err(|e| RelError::new(e.to_string()))?;
        same_dims(cx, 3, &[p[0]], &[rows], |cx| {
            let (s, d) = (shown(cx, 3), shown(cx, 0));
            format!("the index pointer `{s}` of `{op}` does not have one more element than the rows of the dense matrix `{d}`")
        })?;
    }
    cx.unify_tensor(4, &dense, dt)?;
    Ok(Progress::Solved)
}

/// `nn.sparse_conv2d(dense, sparse_data, sparse_indices, sparse_indptr)`: a 1x1 or 3x3
/// convolution by a BSR weight (the data 2-D or 3-D, `bs_r` its second dimension): the
/// dense `NHWC` (or `NCHW`) data with `C` := (the index pointer's length less 1) times
/// `bs_r`, the spatial axes kept (as in TVM).
#[relation(SparseConv2d)]
pub fn sparse_conv2d_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.sparse_conv2d";
    let layout = cx.attrs().str("layout")?.unwrap_or("NHWC").to_owned();
    let c = match layout.as_str() {
        "NHWC" => 3,
        "NCHW" => 1,
        _ => {
            return Err(RelError::new(format!(
                "`layout` of `{op}` must be \"NHWC\" or \"NCHW\", found {layout:?}"
            )))
        }
    };
    let ks = cx.attrs().int_or_ints("kernel_size")?.unwrap_or(vec![1, 1]);
    if ks != [1, 1] && ks != [3, 3] {
        return Err(RelError::new(format!(
            "`kernel_size` of `{op}` must be [1, 1] or [3, 3], found {ks:?}"
        )));
    }
    let data = sparse_part(cx, op, 1, "the sparse data", &[2, 3], false)?;
    sparse_part(cx, op, 2, "the sparse indices", &[1], true)?;
    let indptr = sparse_part(cx, op, 3, "the sparse index pointer", &[1], true)?;
    let dense = sparse_part(cx, op, 0, "the dense data", &[4], false)?;
    let (Some((data, sdt)), Some((indptr, _)), Some((mut dense, dt))) = (data, indptr, dense)
    else {
        return Ok(Progress::NotYet);
    };
    if cx.unify_dtype(sdt, dt, 1).is_err() {
        let (s, d) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!("the sparse data `{s}` of `{op}` is not of the dtype of the dense data `{d}`"),
        ));
    }
    dense[c] = sparse_rows(cx, op, indptr[0], Some(data[1]))?;
    cx.unify_tensor(4, &dense, dt)?;
    Ok(Progress::Solved)
}

/// `nn.nll_loss(predictions, targets, weights)`: predictions `(N, C, d...)` of a float
/// dtype, targets `(N, d...)` of integers, weights `(C)` of the predictions' dtype
/// (inferred when unknown); a scalar (`reduction` `"mean"` or `"sum"`) or the targets'
/// shape (`"none"`), of the predictions' dtype. TVM checks the targets' rank but not
/// their dimensions.
#[relation(NLLLoss)]
pub fn nll_loss_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.nll_loss";
    let reduction = cx.attrs().str("reduction")?.unwrap_or("mean").to_owned();
    if !["mean", "sum", "none"].contains(&reduction.as_str()) {
        return Err(RelError::new(format!(
            "`reduction` of `{op}` must be \"mean\", \"sum\" or \"none\", found {reduction:?}"
        )));
    }
    let Some((pred, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let float = match cx.resolve_dtype(dt) {
        DTy::Known(d) => d.is_float(),
        _ => true,
    };
    if pred.len() < 2 || !float {
        return Err(cx.error_showing(0, |t| {
            format!("`{op}` expects predictions (N, C, ...) of a float dtype, found `{t}`")
        }));
    }
    let weights = cx.mk_tensor(&[pred[1]], dt);
    let p = shown(cx, 0);
    unify_or(cx, 2, weights, |w, _| {
        format!(
            "`{op}` expects weights with one value per class of the predictions `{p}`, found `{w}`"
        )
    })?;
    let Some((targets, tdt)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    let mut want: Vec<Dim> = vec![pred[0]];
    want.extend_from_slice(&pred[2..]);
    let same = targets.len() == want.len()
        && targets
            .iter()
            .zip(&want)
            .all(|(&a, &b)| cx.unify_dim(a, b, 1).is_ok());
    if !same || not_integer(cx, tdt) {
        let (t, p) = (shown(cx, 1), shown(cx, 0));
        return Err(RelError::at(
            1,
            format!("`{op}` expects integer targets of the predictions' shape `{p}` without the class axis, found `{t}`"),
        ));
    }
    let out = if reduction == "none" {
        cx.mk_tensor(&targets, dt)
    } else {
        cx.mk_tensor(&[], dt)
    };
    cx.unify(3, out)?;
    Ok(Progress::Solved)
}
