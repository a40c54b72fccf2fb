//! `BatchMatmul`, `TopK`, `OneHot` and `CollapseSumTo`: imperative. `TopK`, `OneHot` and
//! `CollapseSumTo` because their shapes depend on attributes in ways the clause notation
//! does not say well (the result kind of `ret_type`, an axis that may be `-1` for
//! "append", a result of `?`s when an attribute is unset); `BatchMatmul` for speed
//! (relay-ops/tests/clause_forms.rs has it as a clause, with each transposition a
//! branch: the same results, about 1.6x slower per call).

use super::util;
use crate::level3::util::agree;
use relay_core::shape::broadcast;
use relay_core::{relation, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult};

/// `BatchMatmul(x, y, out)`: `x` is `(b, i, k)` (`(b, k, i)` with `transpose_a`), `y` is
/// `(b', k, j)` (`(b', j, k)` with `transpose_b`; both default to `false`, as in TVM's C++
/// attributes: only its Python wrapper defaults `transpose_b` to `true`); the result is
/// `(broadcast(b, b'), i, j)` of `out_dtype` (default: the dtype of `x`). The contraction
/// dimensions must agree (a mismatch names both), the batch dimensions must be equal or
/// one of them `1`, and the dtypes of `x` and `y` must agree.
#[relation(BatchMatmul)]
pub fn batch_matmul(cx: &mut RelCx<'_>) -> RelResult {
    batch_matmul_of(cx, "nn.batch_matmul", true)
}

/// `BatchMatmul` for operator `op` (named in messages); `same_dtypes`: `x` and `y` must
/// have one dtype (`qnn.batch_matmul` multiplies `int8` by `uint8`).
pub(crate) fn batch_matmul_of(cx: &mut RelCx<'_>, op: &str, same_dtypes: bool) -> RelResult {
    let Some((x, xdt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Some((y, ydt)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    for (arg, name, d) in [(0, "x", &x), (1, "y", &y)] {
        if d.len() != 3 {
            return Err(RelError::at(
                arg,
                format!("`{op}` needs 3-D tensors, `{name}` has rank {}", d.len()),
            ));
        }
    }
    if same_dtypes {
        cx.unify_dtype(ydt, xdt, 1)?;
    }
    let ta = cx.attrs().bool("transpose_a")?.unwrap_or(false);
    let tb = cx.attrs().bool("transpose_b")?.unwrap_or(false);
    let (i, kx) = if ta { (x[2], x[1]) } else { (x[1], x[2]) };
    let (j, ky) = if tb { (y[1], y[2]) } else { (y[2], y[1]) };
    let (kx, ky) = (cx.resolve_dim(kx), cx.resolve_dim(ky));
    let ds = &cx.tcx_ref().dims;
    if kx != ky && !ds.is_any(kx) && !ds.is_any(ky) {
        let msg = format!(
            "the contraction dimensions of `{op}` differ: {} in `x` and {} in `y`",
            cx.show_dim(kx),
            cx.show_dim(ky)
        );
        if !ds.has_vars(kx) && !ds.has_vars(ky) {
            return Err(RelError::at(1, msg));
        }
        cx.unify_dim(kx, ky, 1).map_err(|_| RelError::at(1, msg))?;
    }
    let (bx, by) = (cx.resolve_dim(x[0]), cx.resolve_dim(y[0]));
    let b = match broadcast(&cx.tcx_ref().dims, &[bx], &[by]) {
        Ok(Some(b)) => b[0],
        Ok(None) => return Ok(Progress::NotYet),
        Err(_) => {
            return Err(RelError::at(
                1,
                format!(
                    "the batch dimensions of `{op}` differ: {} in `x` and {} in `y`",
                    cx.show_dim(bx),
                    cx.show_dim(by)
                ),
            ))
        }
    };
    let dt = match cx.attrs().dtype("out_dtype")? {
        Some(d) => DTy::Known(d),
        None => xdt,
    };
    cx.unify_tensor(2, &[b, i, j], dt)?;
    Ok(Progress::Solved)
}

/// `TopK(data, out)`: the `k` largest (or smallest) along `axis`: values of the data's
/// dtype and indices of `dtype`, each of the data's shape with `k` at `axis` (the whole
/// axis when `k < 1`). `ret_type` `"both"` gives the pair `(values, indices)`, `"values"`
/// and `"indices"` one of them. A constant `k` beyond a constant axis is an error.
#[relation(TopK)]
pub fn topk(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let k = cx.attrs().int("k")?.unwrap_or(1);
    let axis = cx.attrs().int("axis")?.unwrap_or(-1);
    let axis = cx.axis(0, "axis", axis, dims.len())?;
    let ret_type = cx.attrs().str("ret_type")?.unwrap_or("both").to_owned();
    let idt = cx.attrs().dtype("dtype")?.unwrap_or(DType::INT32);
    let mut out = dims.clone();
    if k >= 1 {
        let ds = &mut cx.tcx().dims;
        if let Some(n) = ds.as_const(dims[axis]) {
            if k > n {
                return Err(RelError::at(
                    0,
                    format!("`k` is {k}, but axis {axis} has only {n} elements"),
                ));
            }
        }
        out[axis] = ds.konst(k);
    }
    let values = cx.mk_tensor(&out, dt);
    let indices = cx.mk_tensor(&out, DTy::Known(idt));
    let t = match ret_type.as_str() {
        "both" => cx.tcx().tuple(&[values, indices]),
        "values" => values,
        "indices" => indices,
        _ => {
            return Err(RelError::new(format!(
                "`ret_type` must be \"both\", \"values\" or \"indices\", found {ret_type:?}"
            )))
        }
    };
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// `OneHot(indices, on_value, off_value, out)`: the indices' shape with `depth` inserted
/// at `axis` (`-1`: appended), of `dtype`; `on_value` and `off_value` are scalars of
/// `dtype` (assigned when unknown); the indices must be integers. An unset `dtype` (TVM's
/// C++ default, with which TVM's relation gives the result the void dtype) is the dtype of
/// the two values.
#[relation(OneHot)]
pub fn one_hot(cx: &mut RelCx<'_>) -> RelResult {
    let dt = match cx.attrs().dtype("dtype")? {
        Some(dt) => DTy::Known(dt),
        None => match (cx.tensor(1)?, cx.tensor(2)?) {
            (Some((_, dt)), _) | (None, Some((_, dt))) => dt,
            (None, None) => return Ok(Progress::NotYet),
        },
    };
    let scalar = cx.mk_tensor(&[], dt);
    cx.unify(1, scalar)?;
    cx.unify(2, scalar)?;
    let Some((dims, idt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if let DTy::Known(d) = cx.resolve_dtype(idt) {
        if !d.is_int() {
            return Err(RelError::at(
                0,
                format!("`one_hot` needs integer indices, found {d}"),
            ));
        }
    }
    let depth = cx.attrs().int("depth")?.unwrap_or(1);
    if depth < 0 {
        return Err(RelError::new(format!("`depth` is negative: {depth}")));
    }
    let axis = cx.attrs().int("axis")?.unwrap_or(-1);
    let pos = cx.insert_axis(0, "axis", axis, dims.len())?;
    let mut out = dims.clone();
    let depth = cx.tcx().dims.konst(depth);
    out.insert(pos, depth);
    cx.unify_tensor(3, &out, dt)?;
    Ok(Progress::Solved)
}

/// `CollapseSumTo(data, shape, out)`: the data summed down to a target shape, as TVM has
/// it: the second argument is the target as a 1-D integer tensor, and the attribute
/// `shape` the target's dimensions (TVM sets it when the argument is a constant). The
/// result is `shape` of the data's dtype, or, when `shape` is unset, as many `?` as the
/// argument's (static) length; the target must broadcast to the data's shape.
#[relation(CollapseSumTo)]
pub fn collapse_sum_to(cx: &mut RelCx<'_>) -> RelResult {
    let op = "collapse_sum_to";
    let shape = cx.attrs().ints("shape")?;
    if let Some(bad) = shape.iter().flatten().find(|&&d| d < 0) {
        return Err(RelError::new(format!(
            "`shape` of `{op}` must not have a negative dimension, found {bad}"
        )));
    }
    let target = cx.tensor_dims(1)?;
    if let Some((t, tdt)) = &target {
        let int = match cx.resolve_dtype(*tdt) {
            DTy::Known(d) => d.is_int(),
            _ => true,
        };
        if t.len() != 1 || !int {
            return Err(cx.error_showing(1, |shown| {
                format!(
                    "the target shape of `{op}` must be a 1-D integer tensor, found `{}`",
                    shown
                )
            }));
        }
    }
    let out: Vec<Dim> = match (shape, &target) {
        (Some(shape), _) => {
            let out: Vec<Dim> = shape.iter().map(|&d| cx.tcx().dims.konst(d)).collect();
            if let Some((t, _)) = &target {
                let rank = cx.tcx().dims.konst(shape.len() as i64);
                agree(cx, 1, t[0], rank, |len, _| {
                    format!(
                        "the target shape of `{op}` has {len} elements but `shape` has {}",
                        shape.len()
                    )
                })?;
            }
            out
        }
        (None, Some((t, _))) => {
            let t0 = cx.resolve_dim(t[0]);
            match cx.tcx_ref().dims.as_const(t0) {
                Some(r) => {
                    vec![Dims::ANY; util::bounded_rank("the length of the target shape", r)?]
                }
                None if cx.tcx_ref().dims.has_vars(t0) => return Ok(Progress::NotYet),
                None => {
                    let len = cx.show_dim(t0);
                    return Err(RelError::at(
                        1,
                        format!("the target shape of `{op}` must have a static length, found {len} (and `shape` is unset)"),
                    ));
                }
            }
        }
        (None, None) => return Ok(Progress::NotYet),
    };
    let Some((data, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let (data, out): (Vec<Dim>, Vec<Dim>) = (
        data.iter().map(|&d| cx.resolve_dim(d)).collect(),
        out.iter().map(|&d| cx.resolve_dim(d)).collect(),
    );
    match broadcast(&cx.tcx_ref().dims, &out, &data) {
        Ok(Some(b)) if b == data => {}
        Ok(None) => return Ok(Progress::NotYet),
        _ => {
            let (o, d) = (cx.mk_tensor(&out, dt), cx.resolve(cx.arg(0)));
            let (o, d) = (cx.show(o), cx.show(d));
            return Err(RelError::at(
                0,
                format!(
                    "the target shape of `{op}` does not broadcast to the data's: `{o}` from `{d}`"
                ),
            ));
        }
    }
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}
