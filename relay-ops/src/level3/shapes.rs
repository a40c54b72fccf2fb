//! The level-3 relations that read lists of axes, build tuples, or produce `?`:
//! `transpose`, `squeeze` and `stack` are clauses, the others imperative.

use super::util::{arith, exact_quotient, shown};
use relay_core::clause::MAX_REPEAT;
use relay_core::dim::Dims;
use relay_core::{
    relation, AttrValue, DTy, DType, Dim, Progress, RelCx, RelError, RelResult, TyData,
};

/// TVM's `transpose`: the dimensions permuted by `axes` (negative from the end), which
/// must be a permutation of the axes; `None` reverses them. (`s[attrs.axes]` reports an
/// axis out of range; the permutation is checked on the axes normalized.)
#[relation(
    Transpose(X @ Tensor(s, bt), O) :-
        if attrs.axes == None {
            O = Tensor(reverse(s), bt)
        } else {
            assert(
                len(attrs.axes) == len(s),
                "`axes` has {} entries but `{}` has rank {}", len(attrs.axes), X, len(s)
            ),
            O = Tensor(s[attrs.axes], bt),
            // The axes normalized: the integers `0..len(s)` at the indices of `axes`.
            ax = [i for i in 0..len(s)][attrs.axes],
            assert(
                distinct(ax),
                "`axes` names axis {} twice, it must be a permutation",
                [ax[i] for i in 0..len(ax) if ax[i] in ax[..i]][0]
            ),
        },
        attrs(axes: Option<[int]> = None)
)]
pub struct Transpose;

/// TVM's `squeeze`, sound with unknown dimensions: without `axis`, the dimensions known
/// to be 1 are dropped, an unknown one waits, and `?` or a symbol (which might be 1 at
/// run time) is an error asking for `axis`; listed axes must be 1 (a constant other than
/// 1 is an error, `?` and symbols are checked at run time).
#[relation(
    Squeeze(X @ Tensor(s, bt), O) :-
        if attrs.axis == None {
            for i in 0..len(s) {
                assert(
                    is_int(s[i]),
                    "cannot squeeze `{}` without `axis`: dimension {} (`{}`) may be 1 at run time; give `axis`",
                    X, i, s[i]
                ),
            },
            O = Tensor([d for d in s if d != 1], bt),
        } else {
            for a in attrs.axis {
                is_axis(a, X),
                if is_int(s[a % len(s)]) {
                    assert(
                        s[a % len(s)] == 1,
                        "cannot squeeze axis {} of `{}`: its dimension is {}, not 1",
                        a % len(s), X, s[a % len(s)]
                    ),
                },
            },
            ax = [a % len(s) for a in attrs.axis],
            O = Tensor([s[i] for i in 0..len(s) if !(i in ax)], bt),
        },
        attrs(axis: Option<[int]> = None)
)]
pub struct Squeeze;

/// TVM's `split`: `indices_or_sections` an integer `N` (N equal parts, `floordiv(d, N)`
/// each; a constant `d` must be divisible) or a list of increasing indices; a tuple.
#[relation(Split)]
pub fn split(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let axis = cx.attrs().int("axis")?.unwrap_or(0);
    let k = cx.axis(0, "axis", axis, dims.len())?;
    let d = dims[k];
    let parts: Vec<Dim> = match cx.attrs().get("indices_or_sections").cloned() {
        Some(AttrValue::Int(n)) => {
            if n <= 0 {
                return Err(RelError::new(format!(
                    "`indices_or_sections` must be a positive number of sections, found {n}"
                )));
            }
            // The sections are the fields of the result: their number is bounded
            // before it sizes one.
            if n > MAX_REPEAT {
                return Err(RelError::new(format!(
                    "`indices_or_sections` is {n} sections, more than the {MAX_REPEAT} a split may make"
                )));
            }
            let nd = cx.tcx().dims.konst(n);
            let part = if d == Dims::ANY {
                Dims::ANY
            } else if let Some(c) = cx.tcx_ref().dims.as_const(d) {
                if c % n != 0 {
                    return Err(cx.error_showing(0, |t| {
                        format!("cannot split axis {k} of `{t}` ({c}) into {n} equal sections")
                    }));
                }
                cx.tcx().dims.konst(c / n)
            } else {
                match exact_quotient(&mut cx.tcx().dims, &[d], &[nd]) {
                    Some(q) => q,
                    None => cx.tcx().dims.floordiv(d, nd).map_err(arith(0))?,
                }
            };
            vec![part; n as usize]
        }
        Some(AttrValue::List(items)) => {
            let mut idx = Vec::with_capacity(items.len());
            for v in &items {
                match v {
                    AttrValue::Int(i) => idx.push(*i),
                    _ => {
                        return Err(RelError::new(format!(
                            "`indices_or_sections` must be an integer or a list of integers, found `{v}`"
                        )))
                    }
                }
            }
            let limit = cx.tcx_ref().dims.as_const(d);
            let mut prev = 0i64;
            let mut parts = Vec::with_capacity(idx.len() + 1);
            for &i in &idx {
                if i < prev || limit.is_some_and(|c| i > c) {
                    let t = shown(cx, 0);
                    let list = super::util::show_ints(&idx);
                    return Err(RelError::at(
                        0,
                        format!("split indices {list} must increase within axis {k} of `{t}`"),
                    ));
                }
                parts.push(cx.tcx().dims.konst(i - prev));
                prev = i;
            }
            let p = cx.tcx().dims.konst(prev);
            parts.push(cx.tcx().dims.sub(d, p).map_err(arith(0))?);
            parts
        }
        other => {
            return Err(RelError::new(format!(
                "`indices_or_sections` must be an integer or a list of integers, found `{}`",
                other.map_or("nothing".to_string(), |v| v.to_string())
            )))
        }
    };
    let mut fields = Vec::with_capacity(parts.len());
    for p in parts {
        let mut ds = dims.clone();
        ds[k] = p;
        fields.push(cx.mk_tensor(&ds, dt));
    }
    let t = cx.tcx().tuple(&fields);
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// Fails unless `dt` is an integer type (waits while unknown).
fn int_indices(cx: &mut RelCx<'_>, dt: DTy, arg: usize) -> Result<bool, RelError> {
    match cx.resolve_dtype(dt) {
        DTy::Known(d) if d.is_int() || d.code() == relay_core::DTypeCode::UInt => Ok(true),
        DTy::Known(_) => {
            let t = shown(cx, arg);
            Err(RelError::at(
                arg,
                format!("indices must be integers, found `{t}`"),
            ))
        }
        _ => Ok(false),
    }
}

/// TVM's `take`: `axis` None → the shape of `indices` (over the flattened data); else
/// `data[:axis] ++ indices[batch_dims:] ++ data[axis+1:]`, the first `batch_dims`
/// dimensions of data and indices agreeing.
#[relation(Take)]
pub fn take(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((data, dt)), Some((idx, it))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if let Some(AttrValue::Str(m)) = cx.attrs().get("mode") {
        if !matches!(&**m, "clip" | "wrap" | "fast") {
            return Err(RelError::new(format!(
                "`mode` must be \"clip\", \"wrap\" or \"fast\", found \"{m}\""
            )));
        }
    }
    if !int_indices(cx, it, 1)? {
        return Ok(Progress::NotYet);
    }
    let out = match cx.attrs().int("axis")? {
        None => idx.clone(),
        Some(axis) => {
            let axis = cx.axis(0, "axis", axis, data.len())?;
            let b = cx.attrs().int("batch_dims")?.unwrap_or(0);
            let nb = if b < 0 { b + idx.len() as i64 } else { b };
            if nb < 0 || nb as usize > idx.len() || nb as usize > axis {
                return Err(RelError::new(format!(
                    "`batch_dims` {b} must be at most `axis` ({axis}) and the rank of the indices ({})",
                    idx.len()
                )));
            }
            let nb = nb as usize;
            for i in 0..nb {
                let (x, y) = (data[i], idx[i]);
                if x != Dims::ANY && y != Dims::ANY && x != y {
                    cx.unify_dim(x, y, 1)?;
                }
            }
            let mut out = data[..axis].to_vec();
            out.extend_from_slice(&idx[nb..]);
            out.extend_from_slice(&data[axis + 1..]);
            out
        }
    };
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}

/// TVM's `stack`: a tuple of tensors of one shape and dtype, stacked along a new `axis`
/// (in `[-rank-1, rank]`), of size the number of fields. Dimensions other than `?` must
/// agree; each is the first that is not `?` (`?` only if every field has `?` there).
#[relation(
    Stack(X, O) :-
        assert(X = Tuple(..fs), "`stack` expects a tuple of tensors, found `{}`", X),
        assert(len(fs) >= 1, "`stack` needs at least one tensor"),
        for f in fs {
            assert(f = Tensor(_, _), "`stack` expects tensors, found `{}`", f),
        },
        fs[0] = Tensor(s0, bt),
        r = len(s0),
        for j in 1..len(fs) {
            assert(
                len(shape(fs[j])) == r,
                "cannot stack `{}`: field {} has rank {}, field 0 has rank {}",
                X, j, len(shape(fs[j])), r
            ),
            bt = dtype(fs[j]),
        },
        // Each axis is the first dimension there that is not `?` (`?` if every one
        // is): the others agree with it.
        out = [[..[shape(f)[i] for f in fs if !is_any(shape(f)[i])], s0[i]][0] for i in 0..r],
        for j in 0..len(fs) {
            for i in 0..r {
                // TVM's `StackRel` skips the fields' dimension `axis` when it compares
                // them, though `axis` numbers the new dimension: the fields' dimension
                // there is kept (TVM's result takes field 0's), so it must agree too.
                if !is_any(shape(fs[j])[i]) && -r - 1 <= attrs.axis && attrs.axis <= r && i == attrs.axis % (r + 1) {
                    assert(
                        shape(fs[j])[i] = out[i],
                        "cannot stack `{}`: dimension {} is {} in one field and {} in field {} (TVM accepts this: its `stack` relation skips dimension {} of the fields because `axis` is {}, but `axis` numbers the new dimension and the fields' dimension {} is kept in the result, where TVM takes field 0's)",
                        X, i, out[i], shape(fs[j])[i], j, i, attrs.axis, i
                    ),
                } else if !is_any(shape(fs[j])[i]) {
                    assert(
                        shape(fs[j])[i] = out[i],
                        "cannot stack `{}`: dimension {} is {} in one field and {} in field {}",
                        X, i, out[i], shape(fs[j])[i], j
                    ),
                },
            },
        },
        assert(
            -r - 1 <= attrs.axis && attrs.axis <= r,
            "`axis` {} is out of range for stacking `{}` (from {} to {})",
            attrs.axis, X, -r - 1, r
        ),
        a = attrs.axis % (r + 1),
        O = Tensor([..out[..a], len(fs), ..out[a..]], bt),
        attrs(axis: int = 0)
)]
pub struct Stack;

/// TVM's `tile`: the shorter of the data's shape and `reps` is padded with leading 1s,
/// and each dimension multiplied by its repetition (at least 1, as TVM's `TileRel` requires).
#[relation(Tile)]
pub fn tile(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let reps = cx.attrs().ints("reps")?.unwrap_or_default();
    // TVM's TileRel: "Tile reps value should always be larger than 0".
    if let Some(i) = reps.iter().position(|&r| r < 1) {
        return Err(RelError::new(format!(
            "every repetition in `reps` must be at least 1, found {} at index {i} of `reps` {reps:?}",
            reps[i]
        )));
    }
    let n = dims.len().max(reps.len());
    let one = cx.tcx().dims.konst(1);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let d = if i + dims.len() >= n {
            dims[i + dims.len() - n]
        } else {
            one
        };
        let r = if i + reps.len() >= n {
            reps[i + reps.len() - n]
        } else {
            1
        };
        out.push(cx.tcx().dims.scale(d, r).map_err(arith(0))?);
    }
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}

/// TVM's `gather_nd`: `indices` of shape `(M, Y...)` index the first `M` dimensions
/// after `batch_dims`; the result is `Y... ++ data[batch_dims + M:]`. `M` is
/// `index_rank` if given (it must agree with a constant first dimension), else the
/// constant first dimension of `indices`.
#[relation(GatherNd)]
pub fn gather_nd(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((data, dt)), Some((idx, it))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if !int_indices(cx, it, 1)? {
        return Ok(Progress::NotYet);
    }
    if idx.is_empty() {
        return Err(RelError::at(
            1,
            "the indices of `gather_nd` must have rank at least 1",
        ));
    }
    let b = cx.attrs().int("batch_dims")?.unwrap_or(0);
    let first = cx.tcx_ref().dims.as_const(idx[0]);
    let m = match (cx.attrs().int("index_rank")?, first) {
        (Some(r), Some(c)) if r != c => {
            return Err(cx.error_showing(1, |t| {
                format!("`index_rank` is {r} but the indices `{t}` index {c} dimensions")
            }));
        }
        (Some(r), _) => r,
        (None, Some(c)) => c,
        (None, None) if cx.tcx_ref().dims.has_vars(idx[0]) => return Ok(Progress::NotYet),
        (None, None) => {
            return Err(cx.error_showing(1, |t| format!("`gather_nd` needs `index_rank` when the first dimension of the indices `{t}` is not a constant")));
        }
    };
    if b < 0 || m < 0 || b.checked_add(m).is_none_or(|n| n as usize > data.len()) {
        return Err(cx.error_showing(0, |t| format!("`gather_nd` indexes {m} dimensions after {b} batch dimensions of `{t}`, which has rank {}", data.len())));
    }
    let mut out = idx[1..].to_vec();
    out.extend_from_slice(&data[(b + m) as usize..]);
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}

/// TVM's `arange`: `start`, `stop` and `step` are scalars of `dtype`; the length is
/// not known statically: `Tensor[(?), dtype]`.
#[relation(Arange)]
pub fn arange(cx: &mut RelCx<'_>) -> RelResult {
    let dtype = match cx.attrs().get("dtype") {
        Some(AttrValue::DType(d)) => *d,
        None | Some(AttrValue::None) => DType::FLOAT32,
        Some(v) => {
            return Err(RelError::new(format!(
                "`dtype` must be a dtype, found `{v}`"
            )))
        }
    };
    let dt = DTy::Known(dtype);
    let scalar = cx.mk_tensor(&[], dt);
    for (i, name) in ["start", "stop", "step"].into_iter().enumerate() {
        let t = cx.arg(i);
        let t = cx.resolve(t);
        if let TyData::Tensor(s, d) = cx.data(t).clone() {
            let rank0 = cx.tcx_ref().shape_dims(s).is_none_or(|d| d.is_empty());
            let dt_ok = !matches!(cx.resolve_dtype(d), DTy::Known(k) if k != dtype);
            if !rank0 || !dt_ok {
                let s = cx.show(t);
                return Err(RelError::at(
                    i,
                    format!("`{name}` of `arange` must be a scalar of {dtype}, found `{s}`"),
                ));
            }
        }
        cx.unify(i, scalar)?;
    }
    cx.unify_tensor(3, &[Dims::ANY], dt)?;
    Ok(Progress::Solved)
}

/// TVM's `full`: a scalar `fill_value`; the result has `shape` and `dtype` (`None`:
/// the fill value's dtype).
#[relation(Full)]
pub fn full(cx: &mut RelCx<'_>) -> RelResult {
    let shape = cx.attrs().ints("shape")?.unwrap_or_default();
    let dims: Vec<Dim> = shape.iter().map(|&c| cx.tcx().dims.konst(c)).collect();
    if let Some(&c) = shape.iter().find(|&&c| c < 0) {
        return Err(RelError::new(format!(
            "`shape` must not be negative, found {c}"
        )));
    }
    let fill_dt = match cx.tensor_dims(0)? {
        Some((d, dt)) if d.is_empty() => Some(dt),
        Some(_) => {
            return Err(cx.error_showing(0, |t| {
                format!("the fill value must be a scalar, found `{t}`")
            }));
        }
        None => None,
    };
    let dt = match cx.attrs().get("dtype") {
        Some(AttrValue::DType(d)) => DTy::Known(*d),
        _ => match fill_dt {
            Some(dt) => dt,
            None => return Ok(Progress::NotYet),
        },
    };
    cx.unify_tensor(1, &dims, dt)?;
    if fill_dt.is_none() {
        return Ok(Progress::NotYet);
    }
    Ok(Progress::Solved)
}

/// TVM's `cumsum`/`cumprod`: `axis` None flattens; `dtype` None keeps the data's.
#[relation(
    Scanop(X @ Tensor(s, bt), O) :-
        if attrs.dtype == None { odt = bt } else { odt = attrs.dtype },
        if attrs.axis == None {
            O = Tensor([prod(s)], odt)
        } else {
            is_axis(attrs.axis, X),
            O = Tensor(s, odt),
        },
        attrs(axis: Option<int> = None, dtype: Option<dtype> = None)
)]
pub struct Scanop;

/// TVM's `reinterpret`: the same shape with `dtype`, whose bits (times lanes) must
/// equal the data's.
#[relation(Reinterpret)]
pub fn reinterpret(cx: &mut RelCx<'_>) -> RelResult {
    let to = match cx.attrs().get("dtype") {
        Some(AttrValue::DType(d)) => *d,
        _ => return Err(RelError::new("the attribute `dtype` is missing")),
    };
    let Some((s, dt)) = cx.tensor(0)? else {
        return Ok(Progress::NotYet);
    };
    let DTy::Known(from) = cx.resolve_dtype(dt) else {
        return Ok(Progress::NotYet);
    };
    let bits = |d: DType| u32::from(d.bits()) * u32::from(d.lanes());
    if bits(from) != bits(to) {
        return Err(cx.error_showing(0, |t| {
            format!(
                "cannot reinterpret `{t}` as {to}: {} bits are not {}",
                bits(from),
                bits(to)
            )
        }));
    }
    let t = cx.tcx().tensor(s, DTy::Known(to));
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}
