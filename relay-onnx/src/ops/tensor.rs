//! Tensor operators: the reductions (`ReduceSum`, `ReduceMean`, ...), `ArgMax`/`ArgMin`,
//! `TopK`, the data-dependent `NonZero`, `Unique`, `Compress` and `NonMaxSuppression`,
//! `OneHot`, `GatherElements`, `GatherND`, `EyeLike`, the random generators, the
//! quantization operators, `Det`, the losses, `CumSum`, `Einsum`, `BitCast`, the signal
//! operators (`DFT`, `STFT`, the windows, `MelWeightMatrix`) and `TfIdfVectorizer`.
//!
//! ONNX's semantics differ from TVM's in most of these (`keepdims` is on by default, axes
//! come as an input's value, indices are int64, empty axes may mean "no reduction"), so
//! each relation ONNX needs is written here as an `onnx.` operator.

use super::util::{out_tensor, shown, value_of, Val};
use crate::attr::NodeAttrs;
use crate::onnx_ops;
use crate::value;
use relay_core::op::AttrConst;
use relay_core::{
    relation, relay_op, AttrValue, DTy, DType, Dim, DimError, Dims, Progress, RelCx, RelError,
    RelResult, Ty, TyData,
};

relay_op! {
    /// An ONNX reduction (`ReduceSum`, `ReduceMean`, ...): the axes given by the value
    /// of `axes` (`()` when absent; `axes_ty` is its type, for its length when its value
    /// is not known) are reduced, kept as 1 when `keepdims`; no axes reduce every axis,
    /// or none when `noop_with_empty_axes`.
    /// Before the opset that made `axes` an input (`axes_input` 0), `axes_ty` is the
    /// node's input 1, which must be absent.
    onnx.reduce : fn<a, x, t, b>(data: a, axes: x, axes_ty: t) -> b where OnnxReduce,
        attrs { keepdims: int = 1, noop_with_empty_axes: int = 0, axes_input: int = 1 },
        level 10;

    /// ONNX `ArgMax` / `ArgMin`: int64 indices along `axis`, kept as 1 when `keepdims`.
    onnx.arg_reduce : fn<a, b>(data: a) -> b where OnnxArgReduce,
        attrs { axis: int = 0, keepdims: int = 1 },
        level 10;

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

    /// A tensor of the input's shape and `dtype`, or the input's dtype when none is given
    /// (`EyeLike`, `RandomNormalLike`, `Bernoulli`, `BitCast`'s shape).
    onnx.like_shape : fn<a, b>(data: a) -> b where OnnxLikeShape,
        attrs { dtype: Option<dtype> = None, rank: Option<int> = None },
        level 10;

    /// A tensor of the value of `shape` and `dtype` (`RandomNormal`, `RandomUniform`).
    onnx.of_shape : fn<s, b>(shape: s) -> b where OnnxOfShape,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `Multinomial`: `(batch, sample_size)` samples of `dtype`.
    onnx.multinomial : fn<a, b>(data: a) -> b where OnnxMultinomial,
        attrs { sample_size: int = 1, dtype: dtype = "int32" },
        level 10;

    /// ONNX `QuantizeLinear`: the input's shape, of `output_dtype`, the zero point's dtype,
    /// or uint8.
    onnx.quantize : fn<a, s, z, b>(x: a, scale: s, zero_point: z) -> b where OnnxQuantize,
        attrs { output_dtype: Option<dtype> = None, axis: int = 1, block_size: int = 0 },
        level 10;

    /// ONNX `DequantizeLinear`: the input's shape, of `output_dtype` or the scale's dtype.
    onnx.dequantize : fn<a, s, z, b>(x: a, scale: s, zero_point: z) -> b where OnnxDequantize,
        attrs { output_dtype: Option<dtype> = None, axis: int = 1, block_size: int = 0 },
        level 10;

    /// ONNX `DynamicQuantizeLinear`: the input's shape as uint8, a float32 scale and a
    /// uint8 zero point.
    onnx.dynamic_quantize : fn<a, b>(x: a) -> b where OnnxDynamicQuantize, level 10;

    /// ONNX `CumSum` / `CumProd`: the input's type; `axis` is a scalar.
    onnx.cumulative : fn<a, x, b>(data: a, axis: x) -> b where OnnxCumulative, level 10;

    /// ONNX `ReverseSequence`: the input's type; `sequence_lens` has one length per
    /// element of `batch_axis`.
    onnx.reverse_sequence : fn<a, l, b>(data: a, sequence_lens: l) -> b where OnnxReverseSequence,
        attrs { batch_axis: int = 1, time_axis: int = 0 },
        level 10;

    /// ONNX `Det`: the determinants of the trailing square matrices.
    onnx.det : fn<a, b>(x: a) -> b where OnnxDet, level 10;

    /// ONNX `SoftmaxCrossEntropyLoss` and `NegativeLogLikelihoodLoss`: the loss (the
    /// labels' shape when `reduction` is `none`, else a scalar) and, when asked for, the
    /// log probabilities (the scores' shape).
    onnx.loss : fn<s, l, w, b>(scores: s, labels: l, weights: w) -> b where OnnxLoss,
        attrs { reduction: str = "mean" },
        level 10;

    /// ONNX `Einsum`: the inputs (a tuple) contracted as `equation` says.
    onnx.einsum : fn<a, b>(inputs: a) -> b where OnnxEinsum,
        attrs { equation: str },
        level 10;

    /// ONNX `BitCast`: the input's shape as `dtype`, of the same bit width.
    onnx.bitcast : fn<a, b>(data: a) -> b where OnnxBitCast,
        attrs { dtype: dtype },
        level 10;

    /// The ONNX windows (`HannWindow`, ...): a vector of the value of `size`.
    onnx.window : fn<s, b>(size: s) -> b where OnnxWindow,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `DFT`: the axis becomes `dft_length` (or its one-sided half), the last
    /// dimension 2 (complex), or 1 for an inverse one-sided transform.
    onnx.dft : fn<a, n, x, b>(input: a, dft_length: n, axis_value: x) -> b where OnnxDft,
        attrs { axis: int = 1, inverse: int = 0, onesided: int = 0 },
        level 10;

    /// ONNX `STFT`: `(batch, frames, bins, 2)`.
    onnx.stft : fn<a, s, w, n, b>(signal: a, frame_step: s, window: w, frame_length: n) -> b where OnnxStft,
        attrs { onesided: int = 1 },
        level 10;

    /// ONNX `MelWeightMatrix`: `(floor(dft_length / 2) + 1, num_mel_bins)`; the sample
    /// rate and the edge frequencies (`rest`) do not change it.
    onnx.mel_weight_matrix : fn<m, d, r, b>(num_mel_bins: m, dft_length: d, rest: r) -> b where OnnxMelWeightMatrix,
        attrs { dtype: dtype = "float32" },
        level 10;

    /// ONNX `TfIdfVectorizer`: the last axis becomes `max(ngram_indexes) + 1`, float32.
    onnx.tfidf : fn<a, b>(data: a) -> b where OnnxTfIdf,
        attrs { ngram_indexes: [int] },
        level 10;
}

fn dim_err(arg: usize) -> impl Fn(DimError) -> RelError {
    move |e| RelError::at(arg, e.to_string())
}

/// The constants of a value, `None` if one is symbolic.
fn consts(cx: &RelCx<'_>, v: &[Dim]) -> Option<Vec<i64>> {
    v.iter().map(|&d| cx.tcx_ref().dims.as_const(d)).collect()
}

/// A scalar value (a one-element tensor) as a dimension: `Ok(None)` when absent or not
/// known, an error when it has several elements.
fn scalar_of(cx: &mut RelCx<'_>, i: usize, what: &str) -> Result<Option<Dim>, RelError> {
    match value_of(cx, i)? {
        Val::Known(v) if v.len() == 1 => Ok(Some(v[0])),
        Val::Known(v) => Err(RelError::at(
            i,
            format!("`{what}` is a scalar, and has {} elements", v.len()),
        )),
        _ => Ok(None),
    }
}

/// Axis `a` of a tensor of rank `r`, made positive; an error blaming `arg` when out of
/// range.
fn axis_in(a: i64, r: usize, arg: usize) -> Result<usize, RelError> {
    super::util::norm_axis(a, r)
        .ok_or_else(|| RelError::at(arg, format!("axis {a} is out of range for rank {r}")))
}

/// Unifies the fields of the result tuple (argument `arg`) with `tys`, as many as the
/// node has outputs (at most `tys.len()`).
fn out_fields(cx: &mut RelCx<'_>, arg: usize, tys: &[Ty]) -> RelResult {
    let t = cx.resolve(cx.arg(arg));
    let TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    if fields.len() > tys.len() {
        return Err(RelError::at(
            arg,
            format!(
                "it has {} outputs, and this operator gives {}",
                fields.len(),
                tys.len()
            ),
        ));
    }
    for (&f, &t) in fields.iter().zip(tys) {
        cx.unify_blaming(f, t, arg)?;
    }
    Ok(Progress::Solved)
}

/// The data-dependent size passed as argument `i` (`Arg::Fresh`): the rigid symbol named
/// after the node (`NonZero_3`), so a user can follow it; a declared constant in its
/// place is more precise, not a disagreement (`check.rs`, `compare_declared`).
fn fresh_of(cx: &mut RelCx<'_>, i: usize) -> Result<Dim, RelError> {
    Ok(match cx.tensor_dims(i)? {
        Some((d, _)) if d.len() == 1 => d[0],
        _ => Dims::ANY,
    })
}

/// Unifies two dimensions; a failure is `message` (with both dimensions) blaming `arg`.
fn same_dim(cx: &mut RelCx<'_>, a: Dim, b: Dim, arg: usize, message: &str) -> Result<(), RelError> {
    cx.unify_dim(a, b, arg).map_err(|_| {
        let (x, y) = (cx.show_dim(a), cx.show_dim(b));
        RelError::at(arg, format!("{message}: {x} and {y}"))
    })
}

/// The number of non-zero constants in a value, `None` if one is symbolic.
fn count_nonzero(cx: &RelCx<'_>, v: &[Dim]) -> Option<i64> {
    let c = consts(cx, v)?;
    Some(c.iter().filter(|&&x| x != 0).count() as i64)
}

/// `OnnxReduce(data, axes value, axes type, out)`.
#[relation(OnnxReduce)]
pub fn onnx_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let keep = cx.attrs().int("keepdims")?.unwrap_or(1) != 0;
    let noop = cx.attrs().int("noop_with_empty_axes")?.unwrap_or(0) != 0;
    if cx.attrs().int("axes_input")? == Some(0) && !matches!(dtype_of(cx, 2)?, Some(None)) {
        return Err(RelError::at(
            2,
            "input 1 is given, and at this opset `axes` is an attribute",
        ));
    }
    let r = dims.len();
    let one = cx.tcx().dims.konst(1);
    let axes: Vec<i64> = match value_of(cx, 1)? {
        Val::Absent => Vec::new(),
        Val::Known(v) => match consts(cx, &v) {
            Some(c) => c,
            None => return reduce_unknown_axes(cx, &dims, dt, Some(v.len()), keep, noop),
        },
        Val::Unknown => {
            let n = match cx.tensor_dims(2)? {
                Some((d, _)) if d.is_empty() => Some(1),
                Some((d, _)) if d.len() == 1 => cx
                    .tcx_ref()
                    .dims
                    .as_const(d[0])
                    .and_then(|c| usize::try_from(c).ok()),
                Some(_) => return Err(RelError::at(1, "`axes` is a vector")),
                None => None,
            };
            return reduce_unknown_axes(cx, &dims, dt, n, keep, noop);
        }
    };
    if axes.is_empty() {
        if noop {
            return out_tensor(cx, 3, &dims, dt);
        }
        let out = if keep { vec![one; r] } else { Vec::new() };
        return out_tensor(cx, 3, &out, dt);
    }
    let mut reduced = vec![false; r];
    for &a in &axes {
        let k = axis_in(a, r, 1)?;
        if std::mem::replace(&mut reduced[k], true) {
            return Err(RelError::at(1, format!("axis {a} is reduced twice")));
        }
    }
    let out: Vec<Dim> = dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &red)| match (red, keep) {
            (false, _) => Some(d),
            (true, true) => Some(one),
            (true, false) => None,
        })
        .collect();
    out_tensor(cx, 3, &out, dt)
}

/// A reduction over `n` axes (if known) whose values are not known: the rank is, and
/// with `keepdims` each dimension is its own or 1.
fn reduce_unknown_axes(
    cx: &mut RelCx<'_>,
    dims: &[Dim],
    dt: DTy,
    n: Option<usize>,
    keep: bool,
    noop: bool,
) -> RelResult {
    let r = dims.len();
    let one = cx.tcx().dims.konst(1);
    let either = |cx: &mut RelCx<'_>| -> Vec<Dim> {
        dims.iter()
            .map(|&d| {
                if cx.tcx_ref().dims.as_const(d) == Some(1) {
                    one
                } else {
                    Dims::ANY
                }
            })
            .collect()
    };
    match n {
        Some(0) if noop => out_tensor(cx, 3, dims, dt),
        // No axes, or as many as the rank (each once): every axis is reduced.
        Some(k) if k == 0 || k == r => {
            let out = if keep { vec![one; r] } else { Vec::new() };
            out_tensor(cx, 3, &out, dt)
        }
        Some(k) if k > r => Err(RelError::at(
            1,
            format!("{k} axes are reduced, and the input has rank {r}"),
        )),
        Some(k) if !keep => out_tensor(cx, 3, &vec![Dims::ANY; r - k], dt),
        _ if keep => {
            let out = either(cx);
            out_tensor(cx, 3, &out, dt)
        }
        _ => Ok(Progress::NotYet),
    }
}

/// `OnnxArgReduce(data, out)`.
#[relation(OnnxArgReduce)]
pub fn onnx_arg_reduce(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let keep = cx.attrs().int("keepdims")?.unwrap_or(1) != 0;
    let k = axis_in(a, dims.len(), 0)?;
    let mut out = dims;
    if keep {
        out[k] = cx.tcx().dims.konst(1);
    } else {
        out.remove(k);
    }
    out_tensor(cx, 1, &out, DTy::Known(DType::INT64))
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
            let total = cx.tcx().dims.product(&dims).map_err(dim_err(0))?;
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
            let total = cx.tcx().dims.product(&dims).map_err(dim_err(0))?;
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
        Some(d) => Some(d),
        None => match cx.attrs().get("depth_floats") {
            Some(AttrValue::List(v)) if v.len() == 1 => match v[0] {
                AttrValue::Float(f) if f.is_finite() && f.abs() < 1e15 => {
                    Some(cx.tcx().dims.konst(f.trunc() as i64))
                }
                _ => None,
            },
            _ => None,
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

/// `OnnxLikeShape(data, out)`.
#[relation(OnnxLikeShape)]
pub fn onnx_like_shape(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if let Some(r) = cx.attrs().int("rank")? {
        if dims.len() as i64 != r {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input has rank {r}, and is `{t}`"),
            ));
        }
    }
    let dt = match cx.attrs().dtype("dtype")? {
        Some(d) => DTy::Known(d),
        None => dt,
    };
    out_tensor(cx, 1, &dims, dt)
}

/// `OnnxOfShape(shape value, out)`.
#[relation(OnnxOfShape)]
pub fn onnx_of_shape(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    match value_of(cx, 0)? {
        Val::Known(dims) => {
            if let Some(c) = dims
                .iter()
                .filter_map(|&d| cx.tcx_ref().dims.as_const(d))
                .find(|&c| c < 0)
            {
                return Err(RelError::at(
                    0,
                    format!("`shape` has a negative dimension {c}"),
                ));
            }
            out_tensor(cx, 1, &dims, DTy::Known(dt))
        }
        Val::Absent => Err(RelError::at(0, "`shape` is required")),
        Val::Unknown => Ok(Progress::NotYet),
    }
}

/// `OnnxMultinomial(data, out)`.
#[relation(OnnxMultinomial)]
pub fn onnx_multinomial(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if dims.len() != 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `(batch_size, class_size)`, and is `{t}`"),
        ));
    }
    let n = cx.attrs().int("sample_size")?.unwrap_or(1);
    if n < 1 {
        return Err(RelError::at(
            0,
            format!("`sample_size` is {n}, and must be positive"),
        ));
    }
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::INT32);
    let n = cx.tcx().dims.konst(n);
    out_tensor(cx, 1, &[dims[0], n], DTy::Known(dt))
}

/// The dtype of argument `i` if it is a tensor (absent: `None`, not yet known: waits).
fn dtype_of(cx: &mut RelCx<'_>, i: usize) -> Result<Option<Option<DTy>>, RelError> {
    let t = cx.resolve(cx.arg(i));
    Ok(match *cx.data(t) {
        TyData::Tuple(ref f) if f.is_empty() => Some(None),
        TyData::Tensor(_, dt) => Some(Some(dt)),
        _ => None,
    })
}

/// The quantization granularity of `QuantizeLinear` / `DequantizeLinear`: a scalar (or
/// one-element) scale is per tensor; a vector has an element per entry of `axis`; a
/// scale of the input's rank (blocked, opset 21) has `ceil(d / block_size)` on `axis`
/// and the input's dimensions elsewhere. The zero point has the scale's elements. Only
/// constants are compared.
fn check_scales(cx: &mut RelCx<'_>, x: &[Dim]) -> Result<(), RelError> {
    let Some((s, _)) = cx.tensor_dims(1)? else {
        return Ok(());
    };
    let konst = |cx: &RelCx<'_>, d: Dim| cx.tcx_ref().dims.as_const(d);
    let count = |cx: &RelCx<'_>, v: &[Dim]| -> Option<i64> {
        v.iter()
            .try_fold(1i64, |p, &d| p.checked_mul(konst(cx, d)?))
    };
    let bad = |cx: &mut RelCx<'_>, why: String| {
        let (a, b) = (shown(cx, 0), shown(cx, 1));
        RelError::at(
            1,
            format!("the scale `{b}` does not fit the input `{a}`: {why}"),
        )
    };
    let r = x.len();
    let a = cx.attrs().int("axis")?.unwrap_or(1);
    if count(cx, &s) != Some(1) && r >= 2 && !s.is_empty() {
        let k = axis_in(a, r, 0)?;
        if s.len() == 1 {
            if let (Some(n), Some(d)) = (konst(cx, s[0]), konst(cx, x[k])) {
                if n != d {
                    return Err(bad(cx, format!("per axis {a}, it has {d} elements")));
                }
            }
        } else if s.len() == r {
            let b = cx.attrs().int("block_size")?.unwrap_or(0);
            for j in 0..r {
                let (Some(n), Some(d)) = (konst(cx, s[j]), konst(cx, x[j])) else {
                    continue;
                };
                let want = if j == k && b > 0 { (d + b - 1) / b } else { d };
                if n != want {
                    let why = if j == k {
                        format!("blocks of {b} on axis {a} make {want}")
                    } else {
                        format!("axis {j} is {d}")
                    };
                    return Err(bad(cx, why));
                }
            }
        } else {
            return Err(bad(
                cx,
                "it is a scalar, a vector or of the input's rank".into(),
            ));
        }
    }
    if let Some((z, _)) = match dtype_of(cx, 2)? {
        Some(Some(_)) => cx.tensor_dims(2)?,
        _ => None,
    } {
        if let (Some(m), Some(n)) = (count(cx, &z), count(cx, &s)) {
            if m != n {
                let (a, b) = (shown(cx, 2), shown(cx, 1));
                return Err(RelError::at(
                    2,
                    format!("the zero point `{a}` and the scale `{b}` have different shapes"),
                ));
            }
        }
    }
    Ok(())
}

/// `OnnxQuantize(x, scale, zero point, out)`.
#[relation(OnnxQuantize)]
pub fn onnx_quantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    check_scales(cx, &dims)?;
    let dt = match cx.attrs().dtype("output_dtype")? {
        Some(d) => {
            if let Some(Some(z)) = dtype_of(cx, 2)? {
                cx.unify_dtype(z, DTy::Known(d), 2)?;
            }
            DTy::Known(d)
        }
        None => match dtype_of(cx, 2)? {
            Some(Some(z)) => z,
            Some(None) => DTy::Known(DType::UINT8),
            None => return Ok(Progress::NotYet),
        },
    };
    out_tensor(cx, 3, &dims, dt)
}

/// `OnnxDequantize(x, scale, zero point, out)`.
#[relation(OnnxDequantize)]
pub fn onnx_dequantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    check_scales(cx, &dims)?;
    let dt = match cx.attrs().dtype("output_dtype")? {
        Some(d) => DTy::Known(d),
        None => match dtype_of(cx, 1)? {
            Some(Some(s)) => s,
            _ => return Ok(Progress::NotYet),
        },
    };
    out_tensor(cx, 3, &dims, dt)
}

/// `OnnxDynamicQuantize(x, out tuple)`.
#[relation(OnnxDynamicQuantize)]
pub fn onnx_dynamic_quantize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let u8t = DTy::Known(DType::UINT8);
    let y = cx.mk_tensor(&dims, u8t);
    let scale = cx.mk_tensor(&[], DTy::Known(DType::FLOAT32));
    let zp = cx.mk_tensor(&[], u8t);
    out_fields(cx, 1, &[y, scale, zp])
}

/// `OnnxCumulative(data, axis, out)`.
#[relation(OnnxCumulative)]
pub fn onnx_cumulative(cx: &mut RelCx<'_>) -> RelResult {
    if let Some((a, _)) = cx.tensor_dims(1)? {
        if a.len() > 1
            || a.first()
                .is_some_and(|&d| cx.tcx_ref().dims.as_const(d) != Some(1))
        {
            let t = shown(cx, 1);
            return Err(RelError::at(1, format!("`axis` is a scalar, and is `{t}`")));
        }
    }
    let t = cx.arg(0);
    cx.unify(2, t)?;
    Ok(Progress::Solved)
}

/// `OnnxReverseSequence(data, sequence_lens, out)`.
#[relation(OnnxReverseSequence)]
pub fn onnx_reverse_sequence(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let b = cx.attrs().int("batch_axis")?.unwrap_or(1);
    let t = cx.attrs().int("time_axis")?.unwrap_or(0);
    if dims.len() < 2 {
        let s = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input has rank at least 2, and is `{s}`"),
        ));
    }
    let (bk, tk) = (axis_in(b, dims.len(), 0)?, axis_in(t, dims.len(), 0)?);
    if bk == tk || bk > 1 || tk > 1 {
        return Err(RelError::at(
            0,
            format!("`batch_axis` ({b}) and `time_axis` ({t}) are 0 and 1, in some order"),
        ));
    }
    if let Some((l, _)) = cx.tensor_dims(1)? {
        if l.len() != 1 {
            let s = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("`sequence_lens` is a vector, and is `{s}`"),
            ));
        }
        same_dim(
            cx,
            l[0],
            dims[bk],
            1,
            "`sequence_lens` has one length a batch element",
        )?;
    }
    out_tensor(cx, 2, &dims, dt)
}

/// `OnnxDet(x, out)`.
#[relation(OnnxDet)]
pub fn onnx_det(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    if r < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`Det` takes square matrices, and the input is `{t}`"),
        ));
    }
    cx.unify_dim(dims[r - 2], dims[r - 1], 0).map_err(|_| {
        let t = shown(cx, 0);
        RelError::at(
            0,
            format!("`Det` takes square matrices, and the input is `{t}`"),
        )
    })?;
    out_tensor(cx, 1, &dims[..r - 2], dt)
}

/// `OnnxLoss(scores, labels, weights, out tuple)`.
#[relation(OnnxLoss)]
pub fn onnx_loss(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((s, dt)), Some((l, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    if s.len() < 2 || l.len() + 1 != s.len() {
        let (a, b) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("the labels `{b}` are the scores `{a}` without their class axis (1)"),
        ));
    }
    for (j, &lj) in l.iter().enumerate() {
        let k = if j == 0 { 0 } else { j + 1 };
        same_dim(
            cx,
            s[k],
            lj,
            1,
            &format!("axis {j} of the labels is not axis {k} of the scores"),
        )?;
    }
    if let Some((w, _)) = match dtype_of(cx, 2)? {
        Some(Some(_)) => cx.tensor_dims(2)?,
        _ => None,
    } {
        if w.len() != 1 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("the weights are a vector of the classes, and are `{t}`"),
            ));
        }
        same_dim(
            cx,
            w[0],
            s[1],
            2,
            "`weights` has one element a class (axis 1 of the scores)",
        )?;
    }
    let loss = match cx.attrs().str("reduction")?.unwrap_or("mean") {
        "none" => l.clone(),
        "mean" | "sum" => Vec::new(),
        other => {
            return Err(RelError::at(
                0,
                format!("`reduction` is \"{other}\", and must be \"none\", \"mean\" or \"sum\""),
            ))
        }
    };
    let loss = cx.mk_tensor(&loss, dt);
    let log_prob = cx.mk_tensor(&s, dt);
    out_fields(cx, 3, &[loss, log_prob])
}

/// One operand of an einsum equation: its letters and where its ellipsis is.
struct Term {
    letters: Vec<u8>,
    ellipsis: Option<usize>,
}

fn parse_term(s: &str, arg: usize) -> Result<Term, RelError> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut letters = Vec::new();
    let mut ellipsis = None;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' {
            if !s[i..].starts_with("...") || ellipsis.is_some() {
                return Err(RelError::at(
                    arg,
                    format!("`{s}`: an ellipsis is `...`, at most once a term"),
                ));
            }
            ellipsis = Some(letters.len());
            i += 3;
        } else if b[i].is_ascii_alphabetic() {
            letters.push(b[i]);
            i += 1;
        } else {
            return Err(RelError::at(
                arg,
                format!("`{s}`: an einsum term is letters and at most one `...`"),
            ));
        }
    }
    Ok(Term { letters, ellipsis })
}

/// `OnnxEinsum(inputs tuple, out)`.
#[relation(OnnxEinsum)]
pub fn onnx_einsum(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.resolve(cx.arg(0));
    let TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    let mut inputs = Vec::with_capacity(fields.len());
    let mut dt = None;
    for &f in &fields {
        let f = cx.resolve(f);
        let TyData::Tensor(s, d) = *cx.data(f) else {
            return Ok(Progress::NotYet);
        };
        let Some(dims) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        match dt {
            None => dt = Some(d),
            Some(p) => cx.unify_dtype(p, d, 0)?,
        }
        inputs.push(dims);
    }
    let Some(dt) = dt else {
        return Err(RelError::at(0, "`Einsum` takes at least one input"));
    };
    let eq = cx
        .attrs()
        .str("equation")?
        .ok_or_else(|| RelError::at(0, "`equation` is required"))?
        .to_string();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (eq.as_str(), None),
    };
    let terms: Vec<Term> = lhs
        .split(',')
        .map(|s| parse_term(s, 0))
        .collect::<Result<_, _>>()?;
    if terms.len() != inputs.len() {
        return Err(RelError::at(
            0,
            format!(
                "equation `{eq}` has {} operands, and {} inputs are given",
                terms.len(),
                inputs.len()
            ),
        ));
    }
    let mut letter: [Option<Dim>; 128] = [None; 128];
    let mut count = [0usize; 128];
    let mut ell: Vec<Dim> = Vec::new();
    let mut any_ellipsis = false;
    for (j, (term, dims)) in terms.iter().zip(&inputs).enumerate() {
        let n = term.letters.len();
        let e = match term.ellipsis {
            Some(_) if dims.len() >= n => dims.len() - n,
            None if dims.len() == n => 0,
            _ => {
                return Err(RelError::at(
                    0,
                    format!(
                        "operand {j} of `{eq}` names {n} axes, and input {j} has rank {}",
                        dims.len()
                    ),
                ))
            }
        };
        let at = term.ellipsis.unwrap_or(n);
        for (p, &c) in term.letters.iter().enumerate() {
            let d = dims[if p < at { p } else { p + e }];
            count[c as usize] += 1;
            match letter[c as usize] {
                None => letter[c as usize] = Some(d),
                Some(prev) => {
                    let known = &cx.tcx_ref().dims;
                    match (known.as_const(prev), known.as_const(d)) {
                        (Some(x), Some(y)) if x == y => {}
                        (Some(1), _) => letter[c as usize] = Some(d),
                        (_, Some(1)) => {}
                        (Some(x), Some(y)) => {
                            return Err(RelError::at(
                                0,
                                format!("axis `{}` of `{eq}` is {x} and {y}", c as char),
                            ))
                        }
                        _ => {
                            if cx.unify_dim(prev, d, 0).is_err() {
                                letter[c as usize] = Some(Dims::ANY);
                            }
                        }
                    }
                }
            }
        }
        if term.ellipsis.is_some() {
            any_ellipsis = true;
            let mine = dims[at..at + e].to_vec();
            ell = super::util::broadcast(cx, &ell, &mine, 0)?;
        }
    }
    let out_term = match rhs {
        Some(r) => {
            let t = parse_term(r, 0)?;
            let mut seen = [false; 128];
            for &c in &t.letters {
                if std::mem::replace(&mut seen[c as usize], true) {
                    return Err(RelError::at(
                        0,
                        format!("the output of `{eq}` names `{}` twice", c as char),
                    ));
                }
                if letter[c as usize].is_none() {
                    return Err(RelError::at(
                        0,
                        format!(
                            "the output of `{eq}` names `{}`, which no operand has",
                            c as char
                        ),
                    ));
                }
            }
            t
        }
        None => {
            let mut once: Vec<u8> = (0u8..128).filter(|&c| count[c as usize] == 1).collect();
            once.sort_unstable();
            Term {
                letters: once,
                ellipsis: any_ellipsis.then_some(0),
            }
        }
    };
    let mut out = Vec::new();
    for (p, &c) in out_term.letters.iter().enumerate() {
        if out_term.ellipsis == Some(p) {
            out.extend_from_slice(&ell);
        }
        out.push(letter[c as usize].unwrap_or(Dims::ANY));
    }
    if out_term.ellipsis == Some(out_term.letters.len()) {
        out.extend_from_slice(&ell);
    }
    out_tensor(cx, 1, &out, dt)
}

/// `OnnxBitCast(data, out)`.
#[relation(OnnxBitCast)]
pub fn onnx_bitcast(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let to = cx
        .attrs()
        .dtype("dtype")?
        .ok_or_else(|| RelError::at(0, "`to` is required"))?;
    // ONNX stores a bool in a byte.
    let width = |d: DType| if d == DType::BOOL { 8 } else { d.bits() };
    if let DTy::Known(from) = cx.resolve_dtype(dt) {
        if width(from) != width(to) {
            return Err(RelError::at(
                0,
                format!(
                    "`{from}` is {} bits wide and `{to}` {}: a bit cast keeps the width",
                    width(from),
                    width(to)
                ),
            ));
        }
    }
    out_tensor(cx, 1, &dims, DTy::Known(to))
}

/// `OnnxWindow(size value, out)`.
#[relation(OnnxWindow)]
pub fn onnx_window(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let n = match scalar_of(cx, 0, "size")? {
        Some(n) => n,
        None => Dims::ANY,
    };
    if let Some(c) = cx.tcx_ref().dims.as_const(n) {
        if c < 0 {
            return Err(RelError::at(
                0,
                format!("`size` is {c}, and must not be negative"),
            ));
        }
    }
    out_tensor(cx, 1, &[n], DTy::Known(dt))
}

/// `floor(n / 2) + 1`.
fn half_plus_one(cx: &mut RelCx<'_>, n: Dim, arg: usize) -> Result<Dim, RelError> {
    if n == Dims::ANY {
        return Ok(n);
    }
    let d = &mut cx.tcx().dims;
    let two = d.konst(2);
    let one = d.konst(1);
    let h = d.floordiv(n, two).map_err(dim_err(arg))?;
    d.add(h, one).map_err(dim_err(arg))
}

/// `OnnxDft(input, dft_length value, axis value, out)`.
#[relation(OnnxDft)]
pub fn onnx_dft(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    if r < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!(
                "the input is a signal with a last axis of 1 (real) or 2 (complex), and is `{t}`"
            ),
        ));
    }
    let inverse = cx.attrs().int("inverse")?.unwrap_or(0) != 0;
    let onesided = cx.attrs().int("onesided")?.unwrap_or(0) != 0;
    // The axis is input 2 from opset 20 on, an attribute before (blame the input).
    let (a, blame) = match value_of(cx, 2)? {
        Val::Known(v) if v.len() == 1 => match cx.tcx_ref().dims.as_const(v[0]) {
            Some(c) => (c, 2),
            None => return Ok(Progress::NotYet),
        },
        Val::Known(_) => return Err(RelError::at(2, "`axis` is a scalar")),
        Val::Unknown => return Ok(Progress::NotYet),
        Val::Absent => (cx.attrs().int("axis")?.unwrap_or(1), 0),
    };
    // The last axis holds the complex parts and is not a signal axis.
    let k = axis_in(a, r, blame)?;
    if k == r - 1 {
        return Err(RelError::at(
            blame,
            format!("axis {a} is the last, which holds the complex parts"),
        ));
    }
    let irfft = inverse && onesided;
    let len = match scalar_of(cx, 1, "dft_length")? {
        Some(n) => n,
        None if irfft => {
            let d = &mut cx.tcx().dims;
            let one = d.konst(1);
            let m = d.sub(dims[k], one).map_err(dim_err(0))?;
            d.scale(m, 2).map_err(dim_err(0))?
        }
        None if matches!(value_of(cx, 1)?, Val::Unknown) => Dims::ANY,
        None => dims[k],
    };
    if let Some(c) = cx.tcx_ref().dims.as_const(len).filter(|&c| c < 1) {
        return Err(RelError::at(
            1,
            format!("`dft_length` is {c}, and must be positive"),
        ));
    }
    let mut out = dims;
    out[k] = if onesided && !inverse {
        half_plus_one(cx, len, 1)?
    } else {
        len
    };
    out[r - 1] = cx.tcx().dims.konst(if irfft { 1 } else { 2 });
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxStft(signal, frame_step value, window, frame_length value, out)`.
#[relation(OnnxStft)]
pub fn onnx_stft(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if dims.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the signal is `(batch, length, 1 or 2)`, and is `{t}`"),
        ));
    }
    let onesided = cx.attrs().int("onesided")?.unwrap_or(1) != 0;
    let step = scalar_of(cx, 1, "frame_step")?;
    let window = match dtype_of(cx, 2)? {
        Some(Some(_)) => match cx.tensor_dims(2)? {
            Some((w, _)) if w.len() == 1 => Some(w[0]),
            Some(_) => return Err(RelError::at(2, "`window` is a vector")),
            None => None,
        },
        _ => None,
    };
    let length = match scalar_of(cx, 3, "frame_length")? {
        Some(n) => {
            if let Some(w) = window {
                same_dim(cx, w, n, 2, "the window's length is not `frame_length`")?;
            }
            Some(n)
        }
        None => window,
    };
    let d = &mut cx.tcx().dims;
    let frames = match (step, length) {
        (Some(s), Some(n)) => {
            if d.as_const(s).is_some_and(|c| c < 1) {
                return Err(RelError::at(1, "`frame_step` must be positive"));
            }
            let span = d.sub(dims[1], n).map_err(dim_err(0))?;
            if let Some(c) = d.as_const(span).filter(|&c| c < 0) {
                return Err(RelError::at(
                    0,
                    format!("a frame is {} longer than the signal", -c),
                ));
            }
            let q = d.floordiv(span, s).map_err(dim_err(1))?;
            let one = d.konst(1);
            d.add(q, one).map_err(dim_err(1))?
        }
        _ => Dims::ANY,
    };
    let bins = match length {
        Some(n) if onesided => half_plus_one(cx, n, 3)?,
        Some(n) => n,
        None => Dims::ANY,
    };
    let two = cx.tcx().dims.konst(2);
    out_tensor(cx, 4, &[dims[0], frames, bins, two], dt)
}

/// `OnnxMelWeightMatrix(num_mel_bins value, dft_length value, rest, out)`.
#[relation(OnnxMelWeightMatrix)]
pub fn onnx_mel_weight_matrix(cx: &mut RelCx<'_>) -> RelResult {
    let dt = cx.attrs().dtype("dtype")?.unwrap_or(DType::FLOAT32);
    let bins = scalar_of(cx, 0, "num_mel_bins")?.unwrap_or(Dims::ANY);
    let len = scalar_of(cx, 1, "dft_length")?.unwrap_or(Dims::ANY);
    for (i, what, d) in [(0, "num_mel_bins", bins), (1, "dft_length", len)] {
        if let Some(c) = cx.tcx_ref().dims.as_const(d).filter(|&c| c < 1) {
            return Err(RelError::at(
                i,
                format!("`{what}` is {c}, and must be positive"),
            ));
        }
    }
    let rows = half_plus_one(cx, len, 1)?;
    out_tensor(cx, 3, &[rows, bins], DTy::Known(dt))
}

/// `OnnxTfIdf(data, out)`.
#[relation(OnnxTfIdf)]
pub fn onnx_tfidf(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let idx = cx.attrs().ints("ngram_indexes")?.unwrap_or_default();
    let n = idx
        .iter()
        .copied()
        .max()
        .map_or(0, |m| m.saturating_add(1))
        .max(0);
    let n = cx.tcx().dims.konst(n);
    let out = match dims.len() {
        1 => vec![n],
        2 => vec![dims[0], n],
        _ => {
            let t = shown(cx, 0);
            return Err(RelError::at(
                0,
                format!("the input is `(N)` or `(B, N)`, and is `{t}`"),
            ));
        }
    };
    out_tensor(cx, 1, &out, DTy::Known(DType::FLOAT32))
}

// The attribute functions of the mappings.

/// An ONNX data type attribute where 0 means "not given".
fn dtype_unless_zero(
    a: &NodeAttrs<'_>,
    name: &str,
) -> Result<Option<AttrValue>, super::AttrFnError> {
    if a.int(name) == Some(0) {
        return Ok(None);
    }
    super::util::dtype_attr(a, name)
}

/// `dtype` as a dtype.
fn dtype_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, super::AttrFnError> {
    super::util::dtype_attr(a, "dtype")
}

/// `output_dtype` as a dtype (0: not given).
fn output_dtype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, super::AttrFnError> {
    dtype_unless_zero(a, "output_dtype")
}

/// `output_datatype` as a dtype (float32 when not given).
fn output_datatype(a: &NodeAttrs<'_>) -> Result<Option<AttrValue>, super::AttrFnError> {
    super::util::dtype_attr(a, "output_datatype")
}

onnx_ops! {
    "" ReduceSum since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_sum_value;
    "" ReduceSum since 13 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_sum_value;
    "" ReduceProd since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_prod_value;
    "" ReduceProd since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_prod_value;
    "" ReduceMax since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_max_value;
    "" ReduceMax since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_max_value;
    "" ReduceMin since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) } value value::reduce_min_value;
    "" ReduceMin since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") } value value::reduce_min_value;
    "" ReduceMean since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceMean since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceL1 since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceL1 since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceL2 since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceL2 since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceLogSum since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceLogSum since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceLogSumExp since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceLogSumExp since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };
    "" ReduceSumSquare since 1 => "onnx.reduce"(In(0), AttrInts("axes"), Opt(1)) { keepdims: Attr("keepdims"), axes_input: Const(AttrConst::Int(0)) };
    "" ReduceSumSquare since 18 => "onnx.reduce"(In(0), Value(1), Opt(1)) { keepdims: Attr("keepdims"), noop_with_empty_axes: Attr("noop_with_empty_axes") };

    "" ArgMax since 1 => "onnx.arg_reduce"(In(0)) { axis: Attr("axis"), keepdims: Attr("keepdims") };
    "" ArgMin since 1 => "onnx.arg_reduce"(In(0)) { axis: Attr("axis"), keepdims: Attr("keepdims") };
    "" TopK since 1 => "onnx.topk"(In(0), Value(1)) { k: Attr("k"), axis: Attr("axis") } -> Each;
    "" TopK since 10 => "onnx.topk"(In(0), Value(1)) { axis: Attr("axis") } -> Each;

    "" NonZero since 9 => "onnx.nonzero"(In(0), Value(0), Fresh) value value::nonzero;
    "" Unique since 11 => "onnx.unique"(In(0), Value(0), Fresh) { axis: Attr("axis") } -> Each;
    "" Compress since 9 => "onnx.compress"(In(0), In(1), Value(1), Fresh) { axis: Attr("axis") };
    "" NonMaxSuppression since 10 => "onnx.non_max_suppression"(In(0), In(1), Rest(2), Fresh);

    "" OneHot since 9 => "onnx.one_hot"(In(0), Value(1), In(2)) { axis: Attr("axis"), depth_floats: Floats(1) };
    "" GatherElements since 11 => "onnx.gather_elements"(In(0), In(1)) { axis: Attr("axis") };
    "" GatherND since 11 => "onnx.gather_nd"(In(0), In(1)) { batch_dims: Attr("batch_dims") };

    "" EyeLike since 9 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype), rank: Const(AttrConst::Int(2)) };
    "" RandomNormalLike since 1 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" RandomUniformLike since 1 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" Bernoulli since 15 => "onnx.like_shape"(In(0)) { dtype: With(dtype_dtype) };
    "" RandomNormal since 1 => "onnx.of_shape"(AttrInts("shape")) { dtype: With(dtype_dtype) };
    "" RandomUniform since 1 => "onnx.of_shape"(AttrInts("shape")) { dtype: With(dtype_dtype) };
    "" Multinomial since 7 => "onnx.multinomial"(In(0)) { sample_size: Attr("sample_size"), dtype: With(dtype_dtype) };

    "" QuantizeLinear since 10 => "onnx.quantize"(In(0), In(1), Opt(2)) { output_dtype: With(output_dtype), axis: Attr("axis"), block_size: Attr("block_size") };
    "" DequantizeLinear since 10 => "onnx.dequantize"(In(0), In(1), Opt(2)) { output_dtype: With(output_dtype), axis: Attr("axis"), block_size: Attr("block_size") };
    "" DynamicQuantizeLinear since 11 => "onnx.dynamic_quantize"(In(0)) -> Each;

    "" ReverseSequence since 10 => "onnx.reverse_sequence"(In(0), In(1)) { batch_axis: Attr("batch_axis"), time_axis: Attr("time_axis") };
    "" CumSum since 11 => "onnx.cumulative"(In(0), In(1)) value value::cumsum;
    "" CumProd since 26 => "onnx.cumulative"(In(0), In(1));
    "" Det since 11 => "onnx.det"(In(0));
    "" SoftmaxCrossEntropyLoss since 12 => "onnx.loss"(In(0), In(1), Opt(2)) { reduction: Attr("reduction") } -> Each;
    "" NegativeLogLikelihoodLoss since 12 => "onnx.loss"(In(0), In(1), Opt(2)) { reduction: Attr("reduction") } -> Each;
    "" Einsum since 12 => "onnx.einsum"(Rest(0)) { equation: Attr("equation") };
    "" BitCast since 26 => "onnx.bitcast"(In(0)) { dtype: With(super::util::dtype_attr_to) };

    "" HannWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    "" HammingWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    "" BlackmanWindow since 17 => "onnx.window"(Value(0)) { dtype: With(output_datatype) };
    // Before opset 20 the axis is an attribute: no input 2, so `()`.
    "" DFT since 17 => "onnx.dft"(In(0), Value(1), Opt(2)) { axis: Attr("axis"), inverse: Attr("inverse"), onesided: Attr("onesided") };
    "" DFT since 20 => "onnx.dft"(In(0), Value(1), Value(2)) { axis: Const(AttrConst::Int(-2)), inverse: Attr("inverse"), onesided: Attr("onesided") };
    "" STFT since 17 => "onnx.stft"(In(0), Value(1), Opt(2), Value(3)) { onesided: Attr("onesided") };
    "" MelWeightMatrix since 17 => "onnx.mel_weight_matrix"(Value(0), Value(1), Rest(2)) { dtype: With(output_datatype) };
    "" TfIdfVectorizer since 9 => "onnx.tfidf"(In(0)) { ngram_indexes: Attr("ngram_indexes") };
}
