//! Shapes and shape values: `Shape`, `Size`, `Reshape`, `Expand`, `Squeeze`,
//! `Unsqueeze`, `Flatten`, `Concat`, `Slice`, `Gather`, `Tile`, `Pad`, `Split`, `Range`,
//! `ConstantOfShape`, `Constant`, `Transpose`, `Cast`, `Identity`.
//!
//! Where ONNX's semantics are TVM's, the mapping names TVM's operator (`Concat` is
//! `concatenate`, `Transpose` is `transpose`, `Gather` is `take`); where they differ (a
//! shape given as a value, `Reshape`'s `0`, `Unsqueeze`'s list of axes, `Flatten`'s axis)
//! the relation ONNX needs is written here, as an operator of the `onnx.` namespace.

use super::util::{arith, float_list, out_tensor, value_of, Val};
use crate::onnx_ops;
use crate::value;
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `Shape`: the dimensions of `data` from `start` to `end` (negative from the
    /// end, clamped), as an int64 vector.
    onnx.shape : fn<a, b>(data: a) -> b where OnnxShape,
        attrs { start: int = 0, end: Option<int> = None },
        level 10;

    /// ONNX `Reshape`: `data` reshaped to the value of `shape`, where `0` copies the
    /// input's dimension (unless `allowzero`) and one `-1` is inferred from the element
    /// count.
    onnx.reshape : fn<a, s, b>(data: a, shape: s) -> b where OnnxReshape,
        attrs { allowzero: int = 0 },
        level 10;

    /// ONNX `Expand`: `data` broadcast with the value of `shape` (NumPy's rules, both
    /// ways).
    onnx.expand : fn<a, s, b>(data: a, shape: s) -> b where OnnxExpand, level 10;

    /// ONNX `Unsqueeze`: a dimension of 1 inserted at each of `axes` (positions in the
    /// result).
    onnx.unsqueeze : fn<a, b>(data: a) -> b where OnnxUnsqueeze,
        attrs { axes: [int] },
        level 10;

    /// ONNX `Squeeze`: the dimensions of 1 at `axes` dropped, or without `axes` every
    /// dimension of 1 (the result's rank is not known while a dimension is not).
    onnx.squeeze : fn<a, b>(data: a) -> b where OnnxSqueeze,
        attrs { axes: Option<[int]> = None },
        level 10;

    /// ONNX `Flatten`: a matrix of the product of the dimensions before `axis` by the
    /// product of the rest.
    onnx.flatten : fn<a, b>(data: a) -> b where OnnxFlatten,
        attrs { axis: int = 1 },
        level 10;

    /// ONNX `Slice` (opset 10): `data` sliced by the values of `starts`, `ends`, `axes`
    /// and `steps` (each `()` when absent).
    onnx.slice : fn<a, s, e, x, p, b>(data: a, starts: s, ends: e, axes: x, steps: p) -> b where OnnxSlice,
        level 10;

    /// ONNX `Tile`: each dimension multiplied by the value of `repeats`.
    onnx.tile : fn<a, r, b>(data: a, repeats: r) -> b where OnnxTile, level 10;

    /// ONNX `Pad`: each dimension widened by the value of `pads` (begins, then ends), on
    /// `axes` when given.
    onnx.pad : fn<a, p, x, b>(data: a, pads: p, axes: x) -> b where OnnxPad, level 10;

    /// ONNX `Split`: `data` cut along `axis` into the value of `split`, or into as many
    /// equal parts as there are outputs (the last smaller when `num_outputs` does not
    /// divide it).
    onnx.split : fn<a, s, b>(data: a, split: s) -> b where OnnxSplit,
        attrs { axis: int = 0 },
        level 10;

    /// ONNX `Range`: `max(ceil((limit - start) / delta), 0)` elements of the inputs'
    /// type; the values of the three scalars give the length.
    /// Float bounds that are constants come as `start_value`, `limit_value` and
    /// `delta_value`.
    onnx.range : fn<a, b, c, va, vb, vc, o>(start: a, limit: b, delta: c, vstart: va, vlimit: vb, vdelta: vc) -> o where OnnxRange,
        attrs {
            start_value: Option<[float]> = None,
            limit_value: Option<[float]> = None,
            delta_value: Option<[float]> = None
        },
        level 10;

    /// ONNX `ConstantOfShape`: a tensor of the value of `shape`, of `dtype`.
    onnx.constant_of_shape : fn<s, o>(shape: s) -> o where OnnxConstantOfShape,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `Concat`: the fields joined along `axis` (negative from the end); their other
    /// dimensions agree, two different symbolic forms as they must when the model runs.
    onnx.concat : fn<a, b>(data: a) -> b where OnnxConcat,
        attrs { axis: int },
        level 10;

    /// ONNX `Constant`: a tensor of `shape` and `dtype`.
    onnx.constant : fn<o>() -> o where OnnxConstant,
        attrs { shape: [int], dtype: dtype },
        level 10;
}

/// `OnnxShape(data, out)`.
#[relation(OnnxShape)]
pub fn onnx_shape(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len() as i64;
    let clamp = |i: i64| (if i < 0 { i + r } else { i }).clamp(0, r);
    let start = clamp(cx.attrs().int("start")?.unwrap_or(0));
    let end = clamp(cx.attrs().int("end")?.unwrap_or(r));
    let n = cx.tcx().dims.konst((end - start).max(0));
    out_tensor(cx, 1, &[n], DTy::Known(DType::INT64))
}

/// `OnnxReshape(data, shape value, out)`.
#[relation(OnnxReshape)]
pub fn onnx_reshape(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Val::Known(target) = value_of(cx, 1)? else {
        return Ok(Progress::NotYet);
    };
    let allowzero = cx.attrs().int("allowzero")?.unwrap_or(0) != 0;
    let mut out: Vec<Option<Dim>> = Vec::with_capacity(target.len());
    let mut infer = None;
    for (i, &t) in target.iter().enumerate() {
        match cx.tcx_ref().dims.as_const(t) {
            Some(0) if !allowzero => match dims.get(i) {
                Some(&d) => out.push(Some(d)),
                None => {
                    return Err(RelError::at(
                        1,
                        format!("shape element {i} is 0 (copy the input's dimension), but the input has rank {}", dims.len()),
                    ))
                }
            },
            Some(-1) => {
                if infer.is_some() {
                    return Err(RelError::at(1, "shape has more than one -1"));
                }
                infer = Some(i);
                out.push(None);
            }
            Some(c) if c < -1 => {
                return Err(RelError::at(1, format!("shape element {i} is {c}: a dimension is at least -1")))
            }
            _ => out.push(Some(t)),
        }
    }
    let known: Vec<Dim> = out.iter().flatten().copied().collect();
    if let Some(i) = infer {
        let q = relay_ops::level3::util::exact_quotient(&mut cx.tcx().dims, &dims, &known);
        match q {
            Some(q) => out[i] = Some(q),
            None => {
                let dims_t = &mut cx.tcx().dims;
                let n = dims_t.product(&dims).map_err(arith(0))?;
                let k = dims_t.product(&known).map_err(arith(1))?;
                if let (Some(n), Some(k)) = (dims_t.as_const(n), dims_t.as_const(k)) {
                    let t = super::util::shown(cx, 0);
                    return Err(RelError::at(
                        1,
                        format!("cannot reshape `{t}` ({n} elements) into a shape whose other dimensions make {k}, which does not divide it"),
                    ));
                }
                // A symbolic element count that the others do not divide exactly.
                out[i] = Some(cx.tcx().dims.floordiv(n, k).map_err(arith(1))?);
            }
        }
    } else {
        let dims_t = &mut cx.tcx().dims;
        let n = dims_t.product(&dims).map_err(arith(0))?;
        let k = dims_t.product(&known).map_err(arith(1))?;
        if let (Some(a), Some(b)) = (dims_t.as_const(n), dims_t.as_const(k)) {
            if a != b {
                let t = super::util::shown(cx, 0);
                return Err(RelError::at(
                    1,
                    format!("cannot reshape `{t}` ({a} elements) into a shape of {b} elements"),
                ));
            }
        }
    }
    let out: Vec<Dim> = out.into_iter().map(|d| d.unwrap_or(Dims::ANY)).collect();
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxExpand(data, shape value, out)`.
#[relation(OnnxExpand)]
pub fn onnx_expand(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Val::Known(target) = value_of(cx, 1)? else {
        return Ok(Progress::NotYet);
    };
    let out = super::util::broadcast(cx, &dims, &target, 0)?;
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxUnsqueeze(data, out)`.
#[relation(OnnxUnsqueeze)]
pub fn onnx_unsqueeze(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let axes = cx.attrs().ints("axes")?.unwrap_or_default();
    let r = dims.len() + axes.len();
    let mut at = vec![false; r];
    for &a in &axes {
        let k = super::util::norm_axis(a, r).ok_or_else(|| {
            RelError::at(
                0,
                format!("axis {a} is out of range for a result of rank {r}"),
            )
        })?;
        if at[k] {
            return Err(RelError::at(0, format!("axis {a} is given twice")));
        }
        at[k] = true;
    }
    let one = cx.tcx().dims.konst(1);
    let mut it = dims.into_iter();
    let out: Vec<Dim> = at
        .iter()
        .map(|&new| if new { one } else { it.next().unwrap_or(one) })
        .collect();
    out_tensor(cx, 1, &out, dt)
}

/// `OnnxSqueeze(data, out)`.
#[relation(OnnxSqueeze)]
pub fn onnx_squeeze(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    let mut drop = vec![false; r];
    match cx.attrs().ints("axes")? {
        Some(axes) => {
            for a in axes {
                let k = crate::ops::util::axis_in(a, r, 0)?;
                if std::mem::replace(&mut drop[k], true) {
                    return Err(RelError::at(0, format!("axis {a} is given twice")));
                }
                match cx.tcx_ref().dims.as_const(dims[k]) {
                    Some(1) | None => {}
                    Some(c) => {
                        let t = super::util::shown(cx, 0);
                        return Err(RelError::at(
                            0,
                            format!(
                                "cannot squeeze axis {k} of `{t}`: its dimension is {c}, not 1"
                            ),
                        ));
                    }
                }
            }
        }
        None => {
            for (k, &d) in dims.iter().enumerate() {
                match cx.tcx_ref().dims.as_const(d) {
                    Some(c) => drop[k] = c == 1,
                    // It may be 1 at run time: the rank is not known.
                    None => return Ok(Progress::Solved),
                }
            }
        }
    }
    let out: Vec<Dim> = (0..r).filter(|&k| !drop[k]).map(|k| dims[k]).collect();
    out_tensor(cx, 1, &out, dt)
}

/// `OnnxFlatten(data, out)`.
#[relation(OnnxFlatten)]
pub fn onnx_flatten(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    let a = cx.attrs().int("axis")?.unwrap_or(1);
    let k = if a == r as i64 {
        r
    } else {
        crate::ops::util::axis_in(a, r, 0)?
    };
    let d = &mut cx.tcx().dims;
    let lo = d.product(&dims[..k]).map_err(arith(0))?;
    let hi = d.product(&dims[k..]).map_err(arith(0))?;
    out_tensor(cx, 1, &[lo, hi], dt)
}

/// `len` of an axis of length `n` sliced from `start` to `end` by `step`, symbolic when
/// `n` is: `ends` past the end (exporters write `INT64_MAX`) are `n`, negative ones
/// count from the end.
fn slice_len(cx: &mut RelCx<'_>, n: Dim, start: i64, end: i64, step: i64) -> Result<Dim, RelError> {
    let err = &arith(0);
    if let Some(c) = cx.tcx_ref().dims.as_const(n) {
        let (lo, hi) = slice_bounds(start, end, step, c)
            .ok_or_else(|| RelError::at(4, "a slice's step is 0"))?;
        // ceil(|hi - lo| / |step|), in 128 bits: a step of `i64::MIN` is a step.
        let (lo, hi, step) = (i128::from(lo), i128::from(hi), i128::from(step));
        let (span, by) = if step > 0 {
            (hi - lo, step)
        } else {
            (lo - hi, -step)
        };
        let len = (span + by - 1).div_euclid(by).clamp(0, i128::from(c));
        return Ok(cx.tcx().dims.konst(len as i64));
    }
    if n == Dims::ANY || step <= 0 {
        return Ok(Dims::ANY);
    }
    // A symbolic axis: positions relative to its start or its end. A bound of 10^9 or
    // more is past the end (exporters write `INT64_MAX`, `INT32_MAX` or `1e9`): no
    // model has an axis that long.
    const BIG: i64 = 1_000_000_000;
    let d = &mut cx.tcx().dims;
    let pos = |d: &mut Dims, i: i64| -> Result<Dim, relay_core::DimError> {
        if i >= BIG {
            Ok(n)
        } else if i <= -BIG || i == 0 {
            Ok(d.konst(0))
        } else if i > 0 {
            let c = d.konst(i);
            d.min(c, n)
        } else {
            let c = d.konst(i);
            d.add(n, c)
        }
    };
    let lo = pos(d, start).map_err(err)?;
    let hi = pos(d, end).map_err(err)?;
    let len = d.sub(hi, lo).map_err(err)?;
    if step == 1 {
        return Ok(len);
    }
    let s1 = d.konst(step - 1);
    let num = d.add(len, s1).map_err(err)?;
    let k = d.konst(step);
    d.floordiv(num, k).map_err(err)
}

/// `OnnxSlice(data, starts, ends, axes, steps, out)`.
#[relation(OnnxSlice)]
pub fn onnx_slice(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let mut lists = Vec::with_capacity(4);
    for i in 1..5 {
        match value_of(cx, i)? {
            // Not known (values are made before the nodes that read them, so never):
            // the rank is the input's, its lengths are not known.
            Val::Unknown => {
                return out_tensor(cx, 5, &vec![Dims::ANY; dims.len()], dt)
                    .map(|_| Progress::Solved)
            }
            Val::Absent => lists.push(None),
            Val::Known(v) => {
                let mut ints = Vec::with_capacity(v.len());
                for d in v {
                    match cx.tcx_ref().dims.as_const(d) {
                        Some(c) => ints.push(c),
                        // A symbolic bound: the slice's length is not known exactly.
                        None => {
                            return out_tensor(cx, 5, &vec![Dims::ANY; dims.len()], dt)
                                .map(|_| Progress::Solved)
                        }
                    }
                }
                lists.push(Some(ints));
            }
        }
    }
    let (starts, ends) = (
        lists[0].clone().unwrap_or_default(),
        lists[1].clone().unwrap_or_default(),
    );
    if starts.len() != ends.len() {
        return Err(RelError::at(
            2,
            format!(
                "`starts` has {} elements and `ends` {}",
                starts.len(),
                ends.len()
            ),
        ));
    }
    let r = dims.len();
    let axes: Vec<i64> = lists[2]
        .clone()
        .unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps: Vec<i64> = lists[3].clone().unwrap_or_else(|| vec![1; starts.len()]);
    if axes.len() != starts.len() || steps.len() != starts.len() {
        return Err(RelError::at(
            3,
            format!(
                "`starts` has {} elements, `axes` {} and `steps` {}",
                starts.len(),
                axes.len(),
                steps.len()
            ),
        ));
    }
    let mut out = dims.clone();
    let mut seen = vec![false; r];
    for j in 0..starts.len() {
        let k = crate::ops::util::axis_in(axes[j], r, 3)?;
        if std::mem::replace(&mut seen[k], true) {
            return Err(RelError::at(3, format!("axis {} is sliced twice", axes[j])));
        }
        if steps[j] == 0 {
            return Err(RelError::at(4, "a slice's step is 0"));
        }
        out[k] = slice_len(cx, dims[k], starts[j], ends[j], steps[j])?;
    }
    out_tensor(cx, 5, &out, dt)
}

/// The first and past-the-last index a `Slice` of one axis of length `n` visits, as ONNX
/// clamps them: for a positive step, `[0, n]`; for a negative one, `[-1, n - 1]`.
pub fn slice_bounds(start: i64, end: i64, step: i64, n: i64) -> Option<(i64, i64)> {
    if step == 0 {
        return None;
    }
    let norm = |i: i64| if i < 0 { i.saturating_add(n) } else { i };
    let (s, e) = (norm(start), norm(end));
    Some(if step > 0 {
        (s.clamp(0, n), e.clamp(0, n))
    } else {
        (s.clamp(-1, n - 1), e.clamp(-1, n - 1))
    })
}

/// `OnnxTile(data, repeats value, out)`.
#[relation(OnnxTile)]
pub fn onnx_tile(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Val::Known(reps) = value_of(cx, 1)? else {
        return Ok(Progress::NotYet);
    };
    if reps.len() != dims.len() {
        return Err(RelError::at(
            1,
            format!(
                "`repeats` has {} elements for an input of rank {}",
                reps.len(),
                dims.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(dims.len());
    for (&d, &r) in dims.iter().zip(&reps) {
        out.push(cx.tcx().dims.mul(d, r).map_err(arith(1))?);
    }
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxPad(data, pads value, axes value, out)`.
#[relation(OnnxPad)]
pub fn onnx_pad(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Val::Known(pads) = value_of(cx, 1)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    let axes: Vec<usize> = match value_of(cx, 2)? {
        Val::Unknown => return Ok(Progress::NotYet),
        Val::Absent => (0..r).collect(),
        Val::Known(v) => {
            let mut out = Vec::with_capacity(v.len());
            for d in v {
                // An axis not known: any axis may be padded, the rank stays.
                let Some(a) = cx.tcx_ref().dims.as_const(d) else {
                    return out_tensor(cx, 3, &vec![Dims::ANY; r], dt);
                };
                out.push(crate::ops::util::axis_in(a, r, 2)?);
            }
            out
        }
    };
    if pads.len() != 2 * axes.len() {
        let t = super::util::shown(cx, 0);
        return Err(RelError::at(
            1,
            format!(
                "`pads` has {} elements; padding {} axes of `{t}` takes {}",
                pads.len(),
                axes.len(),
                2 * axes.len()
            ),
        ));
    }
    let mut out = dims.clone();
    for (j, &k) in axes.iter().enumerate() {
        let d = &mut cx.tcx().dims;
        let s = d.add(pads[j], pads[j + axes.len()]).map_err(arith(1))?;
        out[k] = d.add(out[k], s).map_err(arith(1))?;
        if let Some(c) = d.as_const(out[k]) {
            if c < 0 {
                return Err(RelError::at(
                    1,
                    format!("padding makes axis {k} negative ({c})"),
                ));
            }
        }
    }
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxSplit(data, split value, out tuple)`: the number of outputs is the tuple's.
#[relation(OnnxSplit)]
pub fn onnx_split(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let out_ty = cx.resolve(cx.arg(2));
    let relay_core::TyData::Tuple(fields) = cx.data(out_ty).clone() else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let k = crate::ops::util::axis_in(a, r, 0)?;
    let n = fields.len();
    let parts: Vec<Dim> = match value_of(cx, 1)? {
        Val::Unknown => return Ok(Progress::NotYet),
        Val::Known(v) => {
            if v.len() != n {
                return Err(RelError::at(
                    1,
                    format!("`split` has {} parts for {n} outputs", v.len()),
                ));
            }
            let d = &mut cx.tcx().dims;
            let total = d.product(&[]).ok();
            let _ = total;
            let mut sum = d.konst(0);
            for &p in &v {
                sum = d.add(sum, p).map_err(arith(1))?;
            }
            if let (Some(s), Some(c)) = (d.as_const(sum), d.as_const(dims[k])) {
                if s != c {
                    return Err(RelError::at(
                        1,
                        format!("`split` sums to {s}, but axis {k} is {c}"),
                    ));
                }
            }
            v
        }
        Val::Absent => {
            let d = &mut cx.tcx().dims;
            match d.as_const(dims[k]) {
                Some(c) => {
                    let each = (c + n as i64 - 1) / n as i64;
                    (0..n as i64)
                        .map(|i| d.konst(each.min(c - i * each).max(0)))
                        .collect()
                }
                None => match d.exact_div(dims[k], n as i64) {
                    Some(q) => vec![q; n],
                    None => vec![Dims::ANY; n],
                },
            }
        }
    };
    for (j, &p) in parts.iter().enumerate() {
        let mut o = dims.clone();
        o[k] = p;
        let t = cx.mk_tensor(&o, dt);
        cx.unify_blaming(fields[j], t, 2)?;
    }
    Ok(Progress::Solved)
}

/// `OnnxRange(start, limit, delta, their values, out)`.
#[relation(OnnxRange)]
pub fn onnx_range(cx: &mut RelCx<'_>) -> RelResult {
    let mut dt = None;
    for i in 0..3 {
        if let Some((dims, d)) = cx.tensor_dims(i)? {
            // A scalar; a tensor of one element is read as one (ONNX's own function
            // bodies pass them, and its runtimes take them).
            let one = dims.len() == 1 && cx.tcx_ref().dims.as_const(dims[0]) == Some(1);
            if !dims.is_empty() && !one {
                return Err(RelError::at(i, "a `Range` bound is a scalar"));
            }
            match dt {
                None => dt = Some(d),
                Some(prev) => cx.unify_dtype(prev, d, i)?,
            }
        }
    }
    let Some(dt) = dt else {
        return Ok(Progress::NotYet);
    };
    let mut v = Vec::with_capacity(3);
    for i in 3..6 {
        match value_of(cx, i)? {
            Val::Known(x) if x.len() == 1 => v.push(x[0]),
            Val::Known(_) => return Err(RelError::at(i - 3, "a `Range` bound is a scalar")),
            _ => {
                // Not known as integers: float constants, or no length.
                let len = float_range_len(cx, dt)?;
                return out_tensor(cx, 6, &[len], dt);
            }
        }
    }
    // A float bound's value is an unknown element, but it may be a float constant.
    if v.contains(&Dims::ANY) {
        let len = float_range_len(cx, dt)?;
        return out_tensor(cx, 6, &[len], dt);
    }
    let d = &mut cx.tcx().dims;
    let err = &arith(1);
    let span = d.sub(v[1], v[0]).map_err(err)?;
    // ceil(span / step) for a positive step; a negative one counts down.
    let len = match d.as_const(v[2]) {
        Some(0) => return Err(RelError::at(2, "a `Range` step is 0")),
        Some(1) => span,
        // Constants in 128 bits (a step of `i64::MIN` is a step).
        Some(s) if d.as_const(span).is_some() => {
            let (span, s) = (i128::from(d.as_const(span).unwrap_or(0)), i128::from(s));
            let (span, s) = if s > 0 { (span, s) } else { (-span, -s) };
            d.konst((span + s - 1).div_euclid(s).clamp(0, i128::from(i64::MAX)) as i64)
        }
        Some(i64::MIN) => Dims::ANY,
        Some(s) => {
            let (span, s) = if s > 0 {
                (span, s)
            } else {
                (d.neg(span).map_err(err)?, -s)
            };
            let s1 = d.konst(s - 1);
            let n = d.add(span, s1).map_err(err)?;
            let k = d.konst(s);
            d.floordiv(n, k).map_err(err)?
        }
        None => Dims::ANY,
    };
    let len = match d.as_const(len) {
        Some(c) if c < 0 => d.konst(0),
        _ => len,
    };
    out_tensor(cx, 6, &[len], dt)
}

/// The length of a `Range` of float constants, `max(ceil((limit - start) / delta), 0)`;
/// unknown when a bound is not a constant. Below 64 bits, runtimes compute the quotient
/// in single or in double precision: where the two ceilings differ, the length is unknown.
fn float_range_len(cx: &mut RelCx<'_>, dt: DTy) -> Result<Dim, RelError> {
    let mut b = [0.0; 3];
    for (i, name) in ["start_value", "limit_value", "delta_value"]
        .iter()
        .enumerate()
    {
        match float_list(cx, name)?.as_deref() {
            Some(&[x]) if x.is_finite() => b[i] = x,
            _ => return Ok(Dims::ANY),
        }
    }
    let [start, limit, delta] = b;
    if delta == 0.0 {
        return Err(RelError::at(2, "a `Range` step is 0"));
    }
    let wide = ((limit - start) / delta).ceil();
    let narrow = f64::from(((limit as f32) - (start as f32)) / (delta as f32)).ceil();
    let double = matches!(dt, DTy::Known(t) if t.bits() == 64);
    if !wide.is_finite() || wide.abs() > i64::MAX as f64 / 2.0 || (!double && narrow != wide) {
        return Ok(Dims::ANY);
    }
    Ok(cx.tcx().dims.konst(wide.max(0.0) as i64))
}

/// `OnnxConstantOfShape(shape value, out)`.
#[relation(OnnxConstantOfShape)]
pub fn onnx_constant_of_shape(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let Val::Known(shape) = value_of(cx, 0)? else {
        return Ok(Progress::NotYet);
    };
    out_tensor(cx, 1, &shape, DTy::Known(dt))
}

/// `OnnxConcat(Tuple(..fields), out)`.
#[relation(OnnxConcat)]
pub fn onnx_concat(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.resolve(cx.arg(0));
    let relay_core::TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    if fields.is_empty() {
        return Err(RelError::at(0, "`Concat` needs at least one input"));
    }
    let mut all = Vec::with_capacity(fields.len());
    for &f in &fields {
        let f = cx.resolve(f);
        let relay_core::TyData::Tensor(s, dt) = *cx.data(f) else {
            return Ok(Progress::NotYet);
        };
        let Some(dims) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        all.push((dims, dt));
    }
    let (first, dt) = all[0].clone();
    let r = first.len();
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let k = crate::ops::util::axis_in(a, r, 0)?;
    let mut out = first.clone();
    let mut sum = first[k];
    for (j, (dims, d)) in all.iter().enumerate().skip(1) {
        if dims.len() != r {
            return Err(RelError::at(
                0,
                format!("input {j} has rank {}, and input 0 rank {r}", dims.len()),
            ));
        }
        cx.unify_dtype(dt, *d, 0)
            .map_err(|e| RelError::at(0, format!("input {j}: {}", e.message)))?;
        for i in 0..r {
            if i == k {
                sum = cx.tcx().dims.add(sum, dims[i]).map_err(arith(0))?;
                continue;
            }
            let (x, y) = (out[i], dims[i]);
            if x == y {
                continue;
            }
            let dd = &cx.tcx_ref().dims;
            out[i] = match (dd.as_const(x), dd.as_const(y)) {
                (Some(p), Some(q)) => {
                    return Err(RelError::at(
                        0,
                        format!("dimension {i} of input {j} is {q}, and of input 0 {p}: only axis {k} may differ"),
                    ))
                }
                // A constant against a symbol: the symbol is that constant.
                (Some(_), None) => x,
                (None, Some(_)) => y,
                // Two forms that agree when the model runs (or an unknown unified).
                (None, None) => match cx.unify_dim(x, y, 0) {
                    Ok(()) => cx.resolve_dim(x),
                    Err(_) => x,
                },
            };
        }
    }
    out[k] = sum;
    out_tensor(cx, 1, &out, dt)
}

/// `OnnxConstant(out)`.
#[relation(OnnxConstant)]
pub fn onnx_constant(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let shape = cx.attrs().ints("shape")?.unwrap_or_default();
    let dims: Vec<Dim> = shape.iter().map(|&c| cx.tcx().dims.konst(c)).collect();
    out_tensor(cx, 0, &dims, DTy::Known(dt))
}

onnx_ops! {
    "" Shape since 1 => "onnx.shape"(In(0)) { start: Attr("start"), end: Attr("end") } value(types) value::shape;
    "" Size since 1 => "ndarray_size"(In(0)) { dtype: Const(AttrConst::DType("int64")) } value(types) value::size;
    "" Identity since 1 => "copy"(In(0)) value value::same;
    "" Cast since 6 => "cast"(In(0)) { dtype: With(super::util::dtype_attr_to) } value value::cast;
    "" CastLike since 15 => "cast_like"(In(0), In(1)) value value::same;
    "" Reshape since 1 => "onnx.reshape"(In(0), AttrInts("shape")) value value::same;
    "" Reshape since 5 => "onnx.reshape"(In(0), Value(1)) { allowzero: Attr("allowzero") } value value::same;
    "" Expand since 8 => "onnx.expand"(In(0), Value(1)) value value::broadcast_to_output;
    "" Squeeze since 1 => "onnx.squeeze"(In(0)) { axes: Attr("axes") } value value::same;
    "" Squeeze since 13 => "onnx.squeeze"(In(0)) { axes: Input(1) } value value::same;
    "" Unsqueeze since 1 => "onnx.unsqueeze"(In(0)) { axes: Attr("axes") } value value::same;
    "" Unsqueeze since 13 => "onnx.unsqueeze"(In(0)) { axes: Input(1) } value value::same;
    "" Flatten since 1 => "onnx.flatten"(In(0)) { axis: Attr("axis") } value value::same;
    "" Concat since 4 => "onnx.concat"(Rest(0)) { axis: Attr("axis") } value value::concat;
    "" Slice since 1 => "onnx.slice"(In(0), AttrInts("starts"), AttrInts("ends"), AttrInts("axes"), AttrInts("steps")) value value::slice;
    "" Slice since 10 => "onnx.slice"(In(0), Value(1), Value(2), Value(3), Value(4)) value value::slice;
    "" Gather since 1 => "take"(In(0), In(1)) { axis: AttrOr("axis", AttrConst::Int(0)) } value value::gather;
    "" Tile since 6 => "onnx.tile"(In(0), Value(1)) value value::broadcast_to_output;
    "" Pad since 2 => "onnx.pad"(In(0), AttrInts("pads"), AttrInts("axes"));
    "" Pad since 11 => "onnx.pad"(In(0), Value(1), Value(3));
    "" Split since 2 => "onnx.split"(In(0), AttrInts("split")) { axis: Attr("axis") } -> Each value value::split;
    "" Split since 13 => "onnx.split"(In(0), Value(1)) { axis: Attr("axis") } -> Each value value::split;
    "" Range since 11 => "onnx.range"(In(0), In(1), In(2), Value(0), Value(1), Value(2)) {
        start_value: Floats(0), limit_value: Floats(1), delta_value: Floats(2)
    } value value::range;
    "" ConstantOfShape since 9 => "onnx.constant_of_shape"(Value(0)) { dtype: With(super::util::dtype_of_value) } value value::constant_of_shape;
    "" Constant since 1 => "onnx.constant"() { shape: With(super::util::constant_shape), dtype: With(super::util::constant_dtype) } value(types) super::util::constant_value;
    "" Transpose since 1 => "transpose"(In(0)) { axes: Attr("perm") } value value::transpose;
}
