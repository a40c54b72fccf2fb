//! The operators that select or index: `TopK`, the data-dependent `NonZero`, `Unique`,
//! `Compress` and `NonMaxSuppression`, `OneHot`, `GatherElements` and `GatherND`.

use super::{arith, axis_in, consts, out_fields, same_dim, scalar_of};
use crate::onnx_ops;
use crate::ops::util::{fresh_of, out_tensor, shown, value_of, Val};
use crate::value;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult,
};

relay_op! {
    /// ONNX `TopK`: the `k` largest (or smallest) along `axis`, and their int64 indices;
    /// `k` is the value of the second argument, or the attribute (opset 1).
    onnx.topk : fn<a, k, b>(data: a, k: k) -> b where OnnxTopK,
        attrs { k: Option<int> = None, axis: int = -1 },
        level 10;

    /// ONNX `NonZero`: the int64 indices of the non-zero elements, one row per axis; their
    /// number is the value's count when the value is known, else `size`.
    onnx.nonzero : fn<a, v, n, b>(data: a, value: v, size: n) -> b where OnnxNonZero,
        level 10;

    /// ONNX `Unique`: the unique elements (or slices along `axis`), their first indices,
    /// the inverse indices and the counts; `size` is their number.
    onnx.unique : fn<a, v, n, b>(data: a, value: v, size: n) -> b where OnnxUnique,
        attrs { axis: Option<int> = None },
        level 10;

    /// ONNX `Compress`: the slices along `axis` (of the flattened input when none) where
    /// `condition` holds; their number is the condition's count when its value is known,
    /// else `size`.
    onnx.compress : fn<a, c, v, n, b>(data: a, condition: c, value: v, size: n) -> b where OnnxCompress,
        attrs { axis: Option<int> = None },
        level 10;

    /// ONNX `NonMaxSuppression`: `(size, 3)` int64 selected indices.
    onnx.non_max_suppression : fn<x, s, r, n, b>(boxes: x, scores: s, rest: r, size: n) -> b where OnnxNonMaxSuppression,
        level 10;

    /// ONNX `OneHot`: `indices` with a new axis of `depth` (the value of the second
    /// argument, or the float constant `depth_floats`) at `axis`, of the dtype of
    /// `values`.
    onnx.one_hot : fn<i, d, v, b>(indices: i, depth: d, values: v) -> b where OnnxOneHot,
        attrs { axis: int = -1, depth_floats: Option<[float]> = None },
        level 10;

    /// ONNX `GatherElements`: the shape of `indices`, the dtype of `data`.
    onnx.gather_elements : fn<a, i, b>(data: a, indices: i) -> b where OnnxGatherElements,
        attrs { axis: int = 0 },
        level 10;

    /// ONNX `GatherND`: `indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:]`.
    onnx.gather_nd : fn<a, i, b>(data: a, indices: i) -> b where OnnxGatherNd,
        attrs { batch_dims: int = 0 },
        level 10;
}

/// The number of non-zero constants in a value, `None` if one is symbolic.
fn count_nonzero(cx: &RelCx<'_>, v: &[Dim]) -> Option<i64> {
    let c = consts(cx, v)?;
    Some(c.iter().filter(|&&x| x != 0).count() as i64)
}

/// `OnnxTopK(data, k value, out tuple)`.
#[relation(OnnxTopK)]
pub fn onnx_topk(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let a = cx.attrs().int("axis")?.unwrap_or(-1);
    let ax = axis_in(a, dims.len(), 0)?;
    let k = match cx.attrs().int("k")? {
        Some(k) => Some(cx.tcx().dims.konst(k)),
        None if matches!(value_of(cx, 1)?, Val::Absent) => {
            return Err(RelError::at(
                1,
                "`K` is required: input 1 from opset 10 on, an attribute before",
            ))
        }
        None => scalar_of(cx, 1, "K")?,
    };
    let k = match k {
        Some(k) => {
            if let Some(c) = cx.tcx_ref().dims.as_const(k) {
                if c < 0 {
                    return Err(RelError::at(
                        1,
                        format!("`K` is {c}, and must not be negative"),
                    ));
                }
                if let Some(n) = cx.tcx_ref().dims.as_const(dims[ax]) {
                    if c > n {
                        let t = shown(cx, 0);
                        return Err(RelError::at(
                            1,
                            format!("`K` is {c}, more than the {n} elements of axis {a} of `{t}`"),
                        ));
                    }
                }
            }
            k
        }
        None => Dims::ANY,
    };
    let mut out = dims;
    out[ax] = k;
    let values = cx.mk_tensor(&out, dt);
    let indices = cx.mk_tensor(&out, DTy::Known(DType::INT64));
    out_fields(cx, 2, &[values, indices])
}

/// `OnnxNonZero(data, its value, fresh size, out)`.
#[relation(OnnxNonZero)]
pub fn onnx_nonzero(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let n = match value_of(cx, 1)? {
        Val::Known(v) => count_nonzero(cx, &v).map(|c| cx.tcx().dims.konst(c)),
        _ => None,
    };
    let n = match n {
        Some(n) => n,
        None => fresh_of(cx, 2)?,
    };
    let r = cx.tcx().dims.konst(dims.len() as i64);
    out_tensor(cx, 3, &[r, n], DTy::Known(DType::INT64))
}

/// `OnnxUnique(data, its value, fresh size, out tuple)`.
#[relation(OnnxUnique)]
pub fn onnx_unique(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let axis = cx.attrs().int("axis")?;
    let i64t = DTy::Known(DType::INT64);
    let (y, n_inverse, u) = match axis {
        None => {
            let total = cx.tcx().dims.product(&dims).map_err(arith(0))?;
            let known = match value_of(cx, 1)? {
                Val::Known(v) => consts(cx, &v).map(|mut c| {
                    c.sort_unstable();
                    c.dedup();
                    c.len() as i64
                }),
                _ => None,
            };
            let u = match known {
                Some(c) => cx.tcx().dims.konst(c),
                None => fresh_of(cx, 2)?,
            };
            (vec![u], total, u)
        }
        Some(a) => {
            let k = axis_in(a, dims.len(), 0)?;
            let u = fresh_of(cx, 2)?;
            let mut y = dims.clone();
            y[k] = u;
            (y, dims[k], u)
        }
    };
    let y = cx.mk_tensor(&y, dt);
    let idx = cx.mk_tensor(&[u], i64t);
    let inv = cx.mk_tensor(&[n_inverse], i64t);
    let counts = cx.mk_tensor(&[u], i64t);
    out_fields(cx, 3, &[y, idx, inv, counts])
}

/// `OnnxCompress(data, condition, its value, fresh size, out)`.
#[relation(OnnxCompress)]
pub fn onnx_compress(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if let Some((c, _)) = cx.tensor_dims(1)? {
        if c.len() != 1 {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("`condition` is a vector, and is `{t}`"),
            ));
        }
    }
    let axis = cx.attrs().int("axis")?;
    let (mut out, k) = match axis {
        None => {
            let total = cx.tcx().dims.product(&dims).map_err(arith(0))?;
            (vec![total], 0)
        }
        Some(a) => (dims.clone(), axis_in(a, dims.len(), 0)?),
    };
    // A known condition counts its true elements among the first `len` (it may be
    // shorter than the axis, never longer).
    let count = match value_of(cx, 2)? {
        Val::Known(v) => match cx.tcx_ref().dims.as_const(out[k]) {
            Some(len) => {
                if v.len() as i64 > len {
                    return Err(RelError::at(
                        1,
                        format!(
                            "`condition` has {} elements, more than the {len} it selects from",
                            v.len()
                        ),
                    ));
                }
                count_nonzero(cx, &v)
            }
            None => None,
        },
        _ => None,
    };
    out[k] = match count {
        Some(c) => cx.tcx().dims.konst(c),
        None => fresh_of(cx, 3)?,
    };
    out_tensor(cx, 4, &out, dt)
}

/// `OnnxNonMaxSuppression(boxes, scores, rest, fresh size, out)`.
#[relation(OnnxNonMaxSuppression)]
pub fn onnx_non_max_suppression(cx: &mut RelCx<'_>) -> RelResult {
    if let (Some((b, _)), Some((s, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) {
        if b.len() != 3 {
            return Err(RelError::at(0, "`boxes` has rank 3: (batch, boxes, 4)"));
        }
        if s.len() != 3 {
            return Err(RelError::at(
                1,
                "`scores` has rank 3: (batch, classes, boxes)",
            ));
        }
        if cx.tcx_ref().dims.as_const(b[2]).is_some_and(|c| c != 4) {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("`boxes` is `(batch, boxes, 4)`, and is `{t}`"),
            ));
        }
        same_dim(
            cx,
            s[0],
            b[0],
            1,
            "`scores` and `boxes` have different batches",
        )?;
        same_dim(
            cx,
            s[2],
            b[1],
            1,
            "`scores` and `boxes` have different numbers of boxes",
        )?;
    }
    let n = fresh_of(cx, 3)?;
    let three = cx.tcx().dims.konst(3);
    out_tensor(cx, 4, &[n, three], DTy::Known(DType::INT64))
}

/// `OnnxOneHot(indices, depth value, values, out)`.
#[relation(OnnxOneHot)]
pub fn onnx_one_hot(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((dims, _)), Some((values, dt))) = (cx.tensor_dims(0)?, cx.tensor_dims(2)?) else {
        return Ok(Progress::NotYet);
    };
    if values.len() != 1
        || cx
            .tcx_ref()
            .dims
            .as_const(values[0])
            .is_some_and(|c| c != 2)
    {
        let t = shown(cx, 2);
        return Err(RelError::at(
            2,
            format!("`values` is `[off, on]`, and is `{t}`"),
        ));
    }
    let depth = match scalar_of(cx, 1, "depth")? {
        Some(d) if !cx.tcx_ref().dims.is_any(d) => Some(d),
        // A float depth is known as a float only.
        other => match cx.attrs().get("depth_floats") {
            Some(AttrValue::List(v)) if v.len() == 1 => match v[0] {
                AttrValue::Float(f) if f.is_finite() && f.abs() < 1e15 => {
                    Some(cx.tcx().dims.konst(f.trunc() as i64))
                }
                _ => other,
            },
            _ => other,
        },
    };
    if let Some(c) = depth.and_then(|d| cx.tcx_ref().dims.as_const(d)) {
        if c < 1 {
            return Err(RelError::at(
                1,
                format!("`depth` is {c}, and must be positive"),
            ));
        }
    }
    let r = dims.len() + 1;
    let a = cx.attrs().int("axis")?.unwrap_or(-1);
    let k = axis_in(a, r, 0)?;
    let mut out = dims;
    out.insert(k, depth.unwrap_or(Dims::ANY));
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxGatherElements(data, indices, out)`.
#[relation(OnnxGatherElements)]
pub fn onnx_gather_elements(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((d, dt)), Some((i, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if d.len() != i.len() {
        let (a, b) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!(
                "`indices` has rank {}, and `data` `{a}` rank {} (`indices` is `{b}`)",
                i.len(),
                d.len()
            ),
        ));
    }
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    axis_in(a, d.len(), 0)?;
    out_tensor(cx, 2, &i, dt)
}

/// `OnnxGatherNd(data, indices, out)`.
#[relation(OnnxGatherNd)]
pub fn onnx_gather_nd(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((d, dt)), Some((i, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let b = cx.attrs().int("batch_dims")?.unwrap_or(0);
    let (r, q) = (d.len(), i.len());
    if q == 0 {
        return Err(RelError::at(1, "`indices` has rank at least 1"));
    }
    let b = usize::try_from(b)
        .ok()
        .filter(|&b| b < q.min(r))
        .ok_or_else(|| {
            RelError::at(
                1,
                format!("`batch_dims` is {b}, and must be less than the ranks of `data` ({r}) and `indices` ({q})"),
            )
        })?;
    for j in 0..b {
        same_dim(
            cx,
            d[j],
            i[j],
            1,
            &format!("batch axis {j} of `data` and `indices` differ"),
        )?;
    }
    let Some(m) = cx.tcx_ref().dims.as_const(i[q - 1]) else {
        // The last dimension of `indices` decides the rank.
        return Ok(Progress::NotYet);
    };
    let Some(m) = usize::try_from(m)
        .ok()
        .filter(|&m| m >= 1 && b.saturating_add(m) <= r)
    else {
        return Err(RelError::at(
            1,
            format!(
                "the last dimension of `indices` is {m}, and must be between 1 and {} (the rank of `data` less `batch_dims`)",
                r - b
            ),
        ));
    };
    let mut out: Vec<Dim> = i[..q - 1].to_vec();
    out.extend_from_slice(&d[b + m..]);
    out_tensor(cx, 2, &out, dt)
}

onnx_ops! {
    "" TopK since 1 => "onnx.topk"(In(0), Value(1)) { k: Attr("k"), axis: Attr("axis") } -> Each;
    "" TopK since 10 => "onnx.topk"(In(0), Value(1)) { axis: Attr("axis") } -> Each;

    "" NonZero since 9 => "onnx.nonzero"(In(0), Value(0), Fresh) value value::nonzero;
    "" Unique since 11 => "onnx.unique"(In(0), Value(0), Fresh) { axis: Attr("axis") } -> Each;
    "" Compress since 9 => "onnx.compress"(In(0), In(1), Value(1), Fresh) { axis: Attr("axis") };
    "" NonMaxSuppression since 10 => "onnx.non_max_suppression"(In(0), In(1), Rest(2), Fresh);

    "" OneHot since 9 => "onnx.one_hot"(In(0), Value(1), In(2)) { axis: Attr("axis"), depth_floats: Floats(1) };
    "" GatherElements since 11 => "onnx.gather_elements"(In(0), In(1)) { axis: Attr("axis") };
    "" GatherND since 11 => "onnx.gather_nd"(In(0), In(1)) { batch_dims: Attr("batch_dims") };
}
