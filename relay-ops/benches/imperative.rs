//! The imperative relations that `concatenate`, `stack`, `squeeze` and the reductions
//! had before they were written as clauses, kept to measure the clauses against them
//! (`benches/clauses.rs`) and to check that both give the same types and messages
//! (`tests/clauses_vs_imperative.rs`, which includes this file).

#![allow(dead_code)]

use relay_core::dim::Dims;
use relay_core::relation::axis_index;
use relay_core::{
    relation, AttrValue, DTy, DType, Dim, Progress, RelCx, RelError, RelResult, TyData,
};
use relay_ops::level3::util::{agree, shown};

/// `axis` (of attribute `attr`) normalized into `0..rank`, with the reductions' message.
fn axis(attr: &str, axis: i64, rank: usize) -> Result<usize, RelError> {
    axis_index(axis, rank).ok_or_else(|| {
        RelError::at(
            0,
            format!("`{attr}` {axis} is out of range for a tensor of rank {rank}"),
        )
    })
}

/// `concatenate`'s relation: a tuple of tensors of one rank and dtype, joined along
/// `axis` ∈ `[-ndim, ndim)`. It waits for every field, then decides from all of them at
/// once: the joined dimension is the sum (`?` if any is `?`); every other dimension must
/// agree across the fields (`?` agrees with anything) and is the agreed value (`?` only
/// if every field has `?` there).
#[relation(ImperativeConcatenate)]
pub fn concatenate(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.resolve(cx.arg(0));
    let fields = match cx.data(t) {
        TyData::Tuple(fields) => fields.to_vec(),
        TyData::Var(_) => return Ok(Progress::NotYet),
        _ => {
            let shown = cx.show(t);
            return Err(RelError::at(
                0,
                format!("`concatenate` takes a tuple of tensors, found `{shown}`"),
            ));
        }
    };
    if fields.is_empty() {
        return Err(RelError::at(0, "`concatenate` needs at least one tensor"));
    }
    let mut tensors = Vec::with_capacity(fields.len());
    for &f in &fields {
        let f = cx.resolve(f);
        match cx.data(f) {
            TyData::Tensor(s, dt) => {
                let (s, dt) = (*s, *dt);
                match cx.tcx_ref().shape_dims(s) {
                    Some(dims) => tensors.push((f, dims.to_vec(), dt)),
                    None => return Ok(Progress::NotYet),
                }
            }
            TyData::Var(_) => return Ok(Progress::NotYet),
            _ => {
                let shown = cx.show(f);
                return Err(RelError::at(
                    0,
                    format!("`concatenate` takes a tuple of tensors, found the field `{shown}`"),
                ));
            }
        }
    }
    let (first, first_dims, dt) = tensors[0].clone();
    let rank = first_dims.len();
    for (i, (f, dims, fdt)) in tensors.iter().enumerate().skip(1) {
        if dims.len() != rank {
            let (a, b) = (cx.show(first), cx.show(*f));
            return Err(RelError::at(
                0,
                format!(
                    "`concatenate` needs tensors of one rank: field 0 `{a}` has rank {rank} and field {i} `{b}` has rank {}",
                    dims.len()
                ),
            ));
        }
        if cx.unify_dtype(dt, *fdt, 0).is_err() {
            let (a, b) = (cx.show(first), cx.show(*f));
            return Err(RelError::at(
                0,
                format!("`concatenate` needs tensors of one dtype: field 0 is `{a}` and field {i} is `{b}`"),
            ));
        }
    }
    let axis = match cx.attrs().get("axis") {
        Some(AttrValue::Int(a)) => *a,
        _ => 0,
    };
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(RelError::at(
            0,
            format!(
                "`axis` {axis} is out of range for tensors of rank {rank}: it must be in [{}, {r})",
                -r
            ),
        ));
    }
    let axis = if axis < 0 { axis + r } else { axis } as usize;
    let mut out = Vec::with_capacity(rank);
    for d in 0..rank {
        let dims: Vec<Dim> = tensors.iter().map(|(_, ds, _)| ds[d]).collect();
        if d == axis {
            let mut total = cx.tcx().dims.konst(0);
            for &x in &dims {
                if cx.tcx_ref().dims.is_any(x) {
                    total = Dims::ANY;
                    break;
                }
                total = cx
                    .tcx()
                    .dims
                    .add(total, x)
                    .map_err(|e| RelError::at(0, e.to_string()))?;
            }
            out.push(total);
            continue;
        }
        let known: Vec<(usize, Dim)> = dims
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, x)| !cx.tcx_ref().dims.is_any(x))
            .collect();
        let Some(&(i0, d0)) = known.first() else {
            out.push(Dims::ANY);
            continue;
        };
        for &(i, x) in &known[1..] {
            if cx.resolve_dim(x) == cx.resolve_dim(d0) {
                continue;
            }
            let (a, b) = (cx.show(tensors[i0].0), cx.show(tensors[i].0));
            agree(cx, 0, d0, x, |x0, x1| {
                format!(
                    "`concatenate` along axis {axis} needs the other dimensions to agree: dimension {d} of field {i0} `{a}` is {x0} and of field {i} `{b}` is {x1}"
                )
            })?;
        }
        out.push(cx.resolve_dim(d0));
    }
    let out = cx.mk_tensor(&out, dt);
    cx.unify(1, out)?;
    Ok(Progress::Solved)
}

/// TVM's `squeeze`, sound with unknown dimensions: without `axis`, the dimensions known
/// to be 1 are dropped, an unknown one waits, and `?` or a symbol (which might be 1 at
/// run time) is an error asking for `axis`; listed axes must be 1 (a constant other than
/// 1 is an error, an unknown is solved to 1, `?` and symbols are checked at run time).
#[relation(ImperativeSqueeze)]
pub fn squeeze(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let rank = dims.len();
    let mut keep = vec![true; rank];
    match cx.attrs().ints("axis")? {
        None => {
            for (i, &d) in dims.iter().enumerate() {
                let dd = &cx.tcx_ref().dims;
                match dd.as_const(d) {
                    Some(1) => keep[i] = false,
                    Some(_) => {}
                    None if dd.has_vars(d) => return Ok(Progress::NotYet),
                    None => {
                        let t = shown(cx, 0);
                        let s = cx.show_dim(d);
                        return Err(RelError::at(
                            0,
                            format!(
                                "cannot squeeze `{t}` without `axis`: dimension {i} (`{s}`) may be 1 at run time; give `axis`"
                            ),
                        ));
                    }
                }
            }
        }
        Some(axes) => {
            for a in axes {
                let k = cx.axis(0, "axis", a, rank)?;
                let d = dims[k];
                match cx.tcx_ref().dims.as_const(d) {
                    Some(1) => {}
                    Some(c) => {
                        let t = shown(cx, 0);
                        return Err(RelError::at(
                            0,
                            format!(
                                "cannot squeeze axis {k} of `{t}`: its dimension is {c}, not 1"
                            ),
                        ));
                    }
                    None if cx.tcx_ref().dims.has_vars(d) => {
                        let one = cx.tcx().dims.konst(1);
                        cx.unify_dim(d, one, 0)?;
                    }
                    None => {}
                }
                keep[k] = false;
            }
        }
    }
    let out: Vec<Dim> = dims
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&d, _)| d)
        .collect();
    let t = cx.mk_tensor(&out, dt);
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// TVM's `stack`: a tuple of tensors of one shape and dtype, stacked along a new `axis`
/// (in `[-rank-1, rank]`). Dimensions other than `?` must agree; the first known one is
/// kept.
#[relation(ImperativeStack)]
pub fn stack(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.arg(0);
    let t = cx.resolve(t);
    let fields: Vec<_> = match cx.data(t) {
        TyData::Tuple(f) => f.to_vec(),
        TyData::Var(_) => return Ok(Progress::NotYet),
        _ => {
            let s = cx.show(t);
            return Err(RelError::at(
                0,
                format!("`stack` expects a tuple of tensors, found `{s}`"),
            ));
        }
    };
    if fields.is_empty() {
        return Err(RelError::at(0, "`stack` needs at least one tensor"));
    }
    let mut known = Vec::with_capacity(fields.len());
    for &f in &fields {
        let f = cx.resolve(f);
        match cx.data(f).clone() {
            TyData::Tensor(s, dt) => match cx.tcx_ref().shape_dims(s) {
                Some(d) => known.push((d.to_vec(), dt)),
                None => return Ok(Progress::NotYet),
            },
            TyData::Var(_) => return Ok(Progress::NotYet),
            _ => {
                let s = cx.show(f);
                return Err(RelError::at(
                    0,
                    format!("`stack` expects tensors, found `{s}`"),
                ));
            }
        }
    }
    let (first, dt) = known[0].clone();
    let rank = first.len();
    let mut out = first.clone();
    let axis = cx.attrs().int("axis")?.unwrap_or(0);
    let r = rank as i64;
    // The fields' dimension that TVM's `StackRel` skips (`axis`, in range, normalized).
    let skipped = (-r - 1..=r)
        .contains(&axis)
        .then(|| axis.rem_euclid(r + 1) as usize);
    for (j, (dims, fdt)) in known.iter().enumerate().skip(1) {
        if dims.len() != rank {
            let t = cx.show(t);
            return Err(RelError::at(
                0,
                format!(
                    "cannot stack `{t}`: field {j} has rank {}, field 0 has rank {rank}",
                    dims.len()
                ),
            ));
        }
        cx.unify_dtype(dt, *fdt, 0)?;
        for (i, &d) in dims.iter().enumerate() {
            if d == Dims::ANY {
                continue;
            }
            if out[i] == Dims::ANY {
                out[i] = d;
            } else if out[i] != d {
                let dd = &cx.tcx_ref().dims;
                if dd.has_vars(out[i]) || dd.has_vars(d) {
                    cx.unify_dim(out[i], d, 0)?;
                } else {
                    let t = cx.show(t);
                    let (a, b) = (cx.show_dim(out[i]), cx.show_dim(d));
                    let mut msg = format!(
                        "cannot stack `{t}`: dimension {i} is {a} in one field and {b} in field {j}"
                    );
                    if skipped == Some(i) {
                        msg.push_str(&format!(
                            " (TVM accepts this: its `stack` relation skips dimension {i} of the fields because `axis` is {axis}, but `axis` numbers the new dimension and the fields' dimension {i} is kept in the result, where TVM takes field 0's)"
                        ));
                    }
                    return Err(RelError::at(0, msg));
                }
            }
        }
    }
    if axis < -r - 1 || axis > r {
        let t = cx.show(t);
        return Err(RelError::at(
            0,
            format!(
                "`axis` {axis} is out of range for stacking `{t}` (from {} to {r})",
                -r - 1
            ),
        ));
    }
    let at = if axis < 0 { axis + r + 1 } else { axis } as usize;
    let n = cx.tcx().dims.konst(fields.len() as i64);
    out.insert(at, n);
    let o = cx.mk_tensor(&out, dt);
    cx.unify(1, o)?;
    Ok(Progress::Solved)
}

/// Which axes of a tensor of rank `rank` are reduced, per TVM: `axis` None or empty →
/// every axis (even with `exclude`); negatives normalized; `exclude` takes the complement.
fn reduced_axes(cx: &RelCx<'_>, rank: usize) -> Result<Vec<bool>, RelError> {
    let exclude = cx.attrs().bool("exclude")?.unwrap_or(false);
    let axes = cx.attrs().int_or_ints("axis")?.unwrap_or_default();
    if axes.is_empty() {
        return Ok(vec![true; rank]);
    }
    let mut listed = vec![false; rank];
    for &a in &axes {
        let i = axis("axis", a, rank)?;
        if listed[i] {
            return Err(RelError::at(0, format!("`axis` lists axis {i} twice")));
        }
        listed[i] = true;
    }
    if exclude {
        listed.iter_mut().for_each(|b| *b = !*b);
    }
    Ok(listed)
}

/// The dimensions left by reducing `dims`: reduced axes become `1` with `keepdims`, and
/// are dropped otherwise.
fn reduced_dims(cx: &mut RelCx<'_>, dims: &[Dim]) -> Result<Vec<Dim>, RelError> {
    let reduced = reduced_axes(cx, dims.len())?;
    let keepdims = cx.attrs().bool("keepdims")?.unwrap_or(false);
    let one = cx.tcx().dims.konst(1);
    Ok(dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &r)| match (r, keepdims) {
            (false, _) => Some(d),
            (true, true) => Some(one),
            (true, false) => None,
        })
        .collect())
}

/// `Reduce(data, out)`: `out` is `data` reduced over the axes of `axis`/`exclude`, with
/// `keepdims`; same dtype. Waits for the rank of `data`.
#[relation(ImperativeReduce)]
pub fn reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, dt);
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// `ArgReduce(data, out)`: like `Reduce`, with an `int32` result (the index dtype).
#[relation(ImperativeArgReduce)]
pub fn arg_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, DTy::Known(DType::INT32));
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// `Variance(data, mean, out)`: `out` as for `Reduce`; `mean` has the dtype of `data`
/// and its rank, each dimension equal to the data's or `1` (the mean over the same axes
/// with `keepdims`). The output is given as soon as `data` is known; the check of `mean`
/// waits for `mean`.
#[relation(ImperativeVariance)]
pub fn variance(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out = reduced_dims(cx, &dims)?;
    let t = cx.mk_tensor(&out, dt);
    cx.unify(2, t)?;
    let Some((mdims, mdt)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(mdt, dt, 1)?;
    if mdims.len() != dims.len() {
        return Err(RelError::at(
            1,
            format!(
                "`mean` has rank {}, the data has rank {}",
                mdims.len(),
                dims.len()
            ),
        ));
    }
    let mut waiting = false;
    for (i, (&m, &d)) in mdims.iter().zip(&dims).enumerate() {
        let (m, d) = (cx.resolve_dim(m), cx.resolve_dim(d));
        let ds = &cx.tcx_ref().dims;
        if m == d || ds.as_const(m) == Some(1) || ds.is_any(m) || ds.is_any(d) {
            continue;
        }
        if ds.has_vars(m) || ds.has_vars(d) {
            waiting = true;
            continue;
        }
        return Err(RelError::at(
            1,
            format!(
                "axis {i} of `mean` is {}, expected 1 or the data's {}",
                cx.show_dim(m),
                cx.show_dim(d)
            ),
        ));
    }
    Ok(if waiting {
        Progress::NotYet
    } else {
        Progress::Solved
    })
}
