//! Shape values: ONNX computes shapes as integer tensors (`Shape`, `Gather`, `Concat`,
//! `Mul`, ...). The checker evaluates those tensors as lists of symbolic dimensions, so an
//! operator fed a computed shape (`Reshape`, `Expand`, `Range`, ...) gets it exactly:
//! `Concat(Shape(x)[0] * Shape(x)[1], 768)` over `x: (N, S, 768)` is `[N*S, 768]`.
//!
//! A value is the row-major list of a tensor's elements, each a [`Dim`] (a constant, a
//! symbol or an expression over symbols); only small integer (and boolean) tensors have
//! one ([`MAX_ELEMS`] elements at most). Each operator that computes values declares a
//! [`ValueFn`] in its mapping; it sees its inputs' values, their shapes and the node's
//! attributes through a [`ValueCx`], and gives the output's value or `None` (unknown).

use crate::attr::NodeAttrs;
use relay_core::{Dim, Dims, Solver, TyData};

/// The most elements a value is kept for.
pub const MAX_ELEMS: usize = 1024;

/// How an operator computes its first output's value from its inputs' values. It runs
/// when an input has a value, for a node without inputs, and for `Shape` and `Size`,
/// which make values from types.
pub type ValueFn = fn(&mut ValueCx<'_>) -> Option<Vec<Dim>>;

/// What a [`ValueFn`] sees: the node's inputs (their values and types), its attributes
/// and the dimension arithmetic.
pub struct ValueCx<'a> {
    pub(crate) solver: &'a mut Solver,
    pub(crate) inputs: &'a [Option<&'a [Dim]>],
    /// The inputs' elements that are float constants (a quotient of sizes that is no
    /// whole number, on its way to `Ceil`).
    pub(crate) input_floats: &'a [Option<&'a [f64]>],
    pub(crate) input_tys: &'a [Option<relay_core::Ty>],
    /// The node's output types, the first one's first.
    pub(crate) output_tys: &'a [relay_core::Ty],
    pub(crate) attrs: &'a NodeAttrs<'a>,
    /// The output's elements when they are small float constants ([`ValueCx::set_floats`]).
    pub(crate) floats: Option<Box<[f64]>>,
    /// The values of the outputs after the first ([`ValueCx::set_later_outputs`]).
    pub(crate) later: Vec<Option<Vec<Dim>>>,
}

impl ValueCx<'_> {
    /// Gives the output small float constants as its elements (a `Constant` of floats: a
    /// `Resize`'s `scales`), which attributes taken from inputs read.
    pub fn set_floats(&mut self, floats: Vec<f64>) {
        self.floats = Some(floats.into());
    }

    /// The value of input `i`, if it is given and known.
    pub fn value(&self, i: usize) -> Option<&[Dim]> {
        self.inputs.get(i).copied().flatten()
    }

    /// The elements of input `i` as float constants: its float value, or its value if
    /// every element is a constant.
    pub fn floats(&self, i: usize) -> Option<Vec<f64>> {
        if let Some(f) = self.input_floats.get(i).copied().flatten() {
            return Some(f.to_vec());
        }
        let v = self.value(i)?;
        v.iter()
            .map(|&d| self.solver.tcx.dims.as_const(d).map(|c| c as f64))
            .collect()
    }

    /// Float constants truncated toward zero as the output's value (a `Cast` to an
    /// integer type); `None` where one is not finite or too large.
    fn float_trunc(&mut self, f: &[f64]) -> Option<Vec<Dim>> {
        let t: Vec<f64> = f.iter().map(|v| v.trunc()).collect();
        let w = whole(&t)?;
        Some(w.into_iter().map(|c| self.konst(c)).collect())
    }

    /// Applies `f` to the float constants of inputs 0 and 1, broadcast, and keeps them as
    /// the output's elements when the output is a float tensor (the integer value, if
    /// any, was not known). Gives no integer value.
    fn float_binary(&mut self, f: fn(f64, f64) -> f64) -> Option<Vec<Dim>> {
        if !self.out_is_float() {
            return None;
        }
        let a = self.floats(0)?;
        let b = self.floats(1)?;
        let r = broadcast_pairs(&a, &b)?.map(|(x, y)| f(x, y)).collect();
        self.set_floats(r);
        None
    }

    /// Applies `f` to the float constants of each element of input 0 and keeps them as
    /// the output's; its value when every result is a whole number.
    fn float_unary(&mut self, f: fn(f64) -> f64) -> Option<Vec<Dim>> {
        let x: Vec<f64> = self.floats(0)?.into_iter().map(f).collect();
        let ints = whole(&x).map(|w| w.into_iter().map(|c| self.konst(c)).collect());
        self.set_floats(x);
        ints
    }

    /// The number of inputs given (absent trailing ones not counted).
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether the node has no inputs.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The dimensions of input `i`'s type, if it is a tensor of known rank.
    pub fn dims(&mut self, i: usize) -> Option<Vec<Dim>> {
        let ty = (*self.input_tys.get(i)?)?;
        self.tensor_dims(ty)
    }

    /// The dimensions of the output's type, if it is a tensor of known rank.
    pub fn out_dims(&mut self) -> Option<Vec<Dim>> {
        self.tensor_dims(*self.output_tys.first()?)
    }

    /// The dimensions of output `j`'s type, if it is a tensor of known rank.
    pub fn out_dims_at(&mut self, j: usize) -> Option<Vec<Dim>> {
        self.tensor_dims(*self.output_tys.get(j)?)
    }

    /// The number of the node's outputs.
    pub fn outputs(&self) -> usize {
        self.output_tys.len()
    }

    /// Gives the outputs after the first their values (the first one's is the value
    /// function's result), for operators of several outputs (`Split`).
    pub fn set_later_outputs(&mut self, values: Vec<Option<Vec<Dim>>>) {
        self.later = values;
    }

    fn tensor_dims(&mut self, ty: relay_core::Ty) -> Option<Vec<Dim>> {
        let ty = self.solver.resolve(ty);
        let TyData::Tensor(shape, _) = *self.solver.tcx.data(ty) else {
            return None;
        };
        self.solver.tcx.shape_dims(shape).map(|d| d.to_vec())
    }

    /// Whether the output is a tensor of a floating-point type.
    pub fn out_is_float(&mut self) -> bool {
        let Some(&t) = self.output_tys.first() else {
            return false;
        };
        let t = self.solver.resolve(t);
        matches!(*self.solver.tcx.data(t), TyData::Tensor(_, relay_core::DTy::Known(d)) if d.is_float())
    }

    /// The dimensions of input `i`'s type when they are all constants.
    pub fn const_dims(&mut self, i: usize) -> Option<Vec<usize>> {
        let dims = self.dims(i)?;
        dims.into_iter()
            .map(|d| usize::try_from(self.as_const(d)?).ok())
            .collect()
    }

    /// An integer attribute.
    pub fn attr_int(&self, name: &str) -> Option<i64> {
        self.attrs.int(name)
    }

    /// An integer-list attribute.
    pub fn attr_ints(&self, name: &str) -> Option<Vec<i64>> {
        self.attrs.ints(name)
    }

    /// The dimension table.
    pub fn dims_table(&mut self) -> &mut Dims {
        &mut self.solver.tcx.dims
    }

    /// The constant `c`.
    pub fn konst(&mut self, c: i64) -> Dim {
        self.solver.tcx.dims.konst(c)
    }

    /// `d` as a constant, if it is one.
    pub fn as_const(&mut self, d: Dim) -> Option<i64> {
        let d = self.solver.resolve_dim(d);
        self.solver.tcx.dims.as_const(d)
    }

    /// `d` with the solver's knowledge substituted.
    pub fn resolve(&mut self, d: Dim) -> Dim {
        self.solver.resolve_dim(d)
    }

    /// Applies `f` to pairs of elements of inputs 0 and 1, broadcast as numpy does (only
    /// for values of rank 0 or 1).
    pub fn binary(
        &mut self,
        mut f: impl FnMut(&mut Dims, Dim, Dim) -> Option<Dim>,
    ) -> Option<Vec<Dim>> {
        let a = self.value(0)?.to_vec();
        let b = self.value(1)?.to_vec();
        let mut out = Vec::new();
        for (x, y) in broadcast_pairs(&a, &b)? {
            let (x, y) = (self.resolve(x), self.resolve(y));
            out.push(f(&mut self.solver.tcx.dims, x, y)?);
        }
        Some(out)
    }

    /// Applies `f` to each element of input 0.
    pub fn unary(&mut self, f: fn(&mut Dims, Dim) -> Option<Dim>) -> Option<Vec<Dim>> {
        let a = self.value(0)?.to_vec();
        a.into_iter()
            .map(|x| {
                let x = self.resolve(x);
                f(&mut self.solver.tcx.dims, x)
            })
            .collect()
    }
}

/// The pairs of elements of two values broadcast as numpy does (values are of rank 0
/// or 1: equal lengths, or one of them a single element); `None` when they do not.
fn broadcast_pairs<'v, T: Copy>(
    a: &'v [T],
    b: &'v [T],
) -> Option<impl Iterator<Item = (T, T)> + 'v> {
    let n = match (a.len(), b.len()) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        _ => return None,
    };
    let at = |v: &'v [T], i: usize| v[if v.len() == 1 { 0 } else { i }];
    Some((0..n).map(move |i| (at(a, i), at(b, i))))
}

/// An index read from a value or attribute, made positive against `len`; `None` when
/// out of range.
pub fn norm_index(i: i64, len: usize) -> Option<usize> {
    let n = len as i64;
    let i = if i < 0 { i.checked_add(n)? } else { i };
    (0..n).contains(&i).then_some(i as usize)
}

/// `Shape`: the input's dimensions, from `start` to `end` (opset 15).
pub fn shape(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let dims = cx.dims(0)?;
    let r = dims.len() as i64;
    let clamp = |i: i64| (if i < 0 { i + r } else { i }).clamp(0, r) as usize;
    let start = clamp(cx.attr_int("start").unwrap_or(0));
    let end = clamp(cx.attr_int("end").unwrap_or(r));
    Some(dims.get(start..end.max(start)).unwrap_or(&[]).to_vec())
}

/// `Size`: the product of the input's dimensions.
pub fn size(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let dims = cx.dims(0)?;
    Some(vec![cx.dims_table().product(&dims).ok()?])
}

/// The value of the first input, unchanged (`Identity`, `Reshape`, `Flatten`, `Squeeze`,
/// `Unsqueeze` of a value, whose elements do not change).
pub fn same(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    Some(cx.value(0)?.to_vec())
}

/// `Cast`: integers and booleans keep their value; a value cast to a float keeps it too,
/// as exporters cast shapes to float and back (`to` is read by the relation); float
/// constants cast to a float stay, and to an integer are truncated.
pub fn cast(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let to = cx.attr_int("to")?;
    if cx.value(0).is_none() {
        let f = cx.floats(0)?;
        // FLOAT, FLOAT16, DOUBLE, BFLOAT16 keep them; the integers truncate.
        return if matches!(to, 1 | 10 | 11 | 16) {
            cx.set_floats(f);
            None
        } else if matches!(to, 2..=7 | 12 | 13) {
            cx.float_trunc(&f)
        } else {
            None
        };
    }
    // BOOL: each element becomes 0 or 1 when it is a constant.
    if to == 9 {
        let v = cx.value(0)?.to_vec();
        return v
            .into_iter()
            .map(|d| {
                let c = cx.as_const(d)?;
                Some(cx.konst(i64::from(c != 0)))
            })
            .collect();
    }
    same(cx)
}

/// `Gather` on a value: `axis` 0 of a rank-1 value, by constant indices.
pub fn gather(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let data = cx.value(0)?.to_vec();
    if cx.dims(0)?.len() != 1 {
        return None;
    }
    let idx = cx.value(1)?.to_vec();
    idx.into_iter()
        .map(|i| {
            let i = cx.as_const(i)?;
            Some(data[norm_index(i, data.len())?])
        })
        .collect()
}

/// `Concat` of values (rank 1, so along axis 0).
pub fn concat(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let mut out = Vec::new();
    for i in 0..cx.len() {
        out.extend_from_slice(cx.value(i)?);
    }
    (out.len() <= MAX_ELEMS).then_some(out)
}

/// `Slice` of a rank-1 value with constant starts, ends and steps.
pub fn slice(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let data = cx.value(0)?.to_vec();
    let ints = |cx: &mut ValueCx<'_>, i: usize| -> Option<Vec<i64>> {
        let v = cx.value(i)?.to_vec();
        v.into_iter().map(|d| cx.as_const(d)).collect()
    };
    let (starts, ends, axes, steps) = if cx.len() > 1 {
        let starts = ints(cx, 1)?;
        let ends = ints(cx, 2)?;
        let axes = if cx.len() > 3 && cx.inputs[3].is_some() {
            Some(ints(cx, 3)?)
        } else {
            None
        };
        let steps = if cx.len() > 4 && cx.inputs[4].is_some() {
            Some(ints(cx, 4)?)
        } else {
            None
        };
        (starts, ends, axes, steps)
    } else {
        (
            cx.attr_ints("starts")?,
            cx.attr_ints("ends")?,
            cx.attr_ints("axes"),
            None,
        )
    };
    // The value's shape: its type's, constant.
    let shape = cx.const_dims(0)?;
    let r = shape.len();
    if starts.len() != ends.len() {
        return None;
    }
    let axes = axes.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; starts.len()]);
    if axes.len() != starts.len() || steps.len() != starts.len() {
        return None;
    }
    // The indices kept on each axis.
    let mut kept: Vec<Vec<usize>> = shape.iter().map(|&n| (0..n).collect()).collect();
    for j in 0..starts.len() {
        let k = norm_index(axes[j], r)?;
        let n = shape[k] as i64;
        let (lo, hi) = crate::ops::shape::slice_bounds(starts[j], ends[j], steps[j], n)?;
        let mut idx = Vec::new();
        let mut i = lo;
        while (steps[j] > 0 && i < hi) || (steps[j] < 0 && i > hi) {
            idx.push(i as usize);
            match i.checked_add(steps[j]) {
                Some(next) => i = next,
                None => break,
            }
        }
        kept[k] = idx;
    }
    gather_indices(&data, &shape, &kept)
}

/// The elements of a row-major value of `shape` at every combination of the indices
/// `kept` on each axis, in row-major order.
fn gather_indices(data: &[Dim], shape: &[usize], kept: &[Vec<usize>]) -> Option<Vec<Dim>> {
    let total = kept
        .iter()
        .try_fold(1usize, |acc, k| acc.checked_mul(k.len()))?;
    if total > MAX_ELEMS || data.len() != shape.iter().product::<usize>() {
        return None;
    }
    let mut strides = vec![1usize; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * shape[k + 1];
    }
    let mut out = Vec::with_capacity(total);
    let mut pos = vec![0usize; shape.len()];
    for _ in 0..total {
        let at: usize = pos
            .iter()
            .enumerate()
            .map(|(k, &p)| kept[k][p] * strides[k])
            .sum();
        out.push(data[at]);
        // The next combination, last axis fastest.
        for k in (0..shape.len()).rev() {
            pos[k] += 1;
            if pos[k] < kept[k].len() {
                break;
            }
            pos[k] = 0;
        }
    }
    Some(out)
}

/// `Transpose` of a small value.
pub fn transpose(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let data = cx.value(0)?.to_vec();
    let shape = cx.const_dims(0)?;
    let r = shape.len();
    let perm: Vec<usize> = match cx.attr_ints("perm") {
        Some(p) => p.iter().map(|&a| norm_index(a, r)).collect::<Option<_>>()?,
        None => (0..r).rev().collect(),
    };
    if perm.len() != r {
        return None;
    }
    let mut strides = vec![1usize; r];
    for k in (0..r.saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * shape[k + 1];
    }
    let out_shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
    let total: usize = out_shape.iter().product();
    if total != data.len() {
        return None;
    }
    let mut out = Vec::with_capacity(total);
    let mut pos = vec![0usize; r];
    for _ in 0..total {
        let at: usize = (0..r).map(|k| pos[k] * strides[perm[k]]).sum();
        out.push(data[at]);
        for k in (0..r).rev() {
            pos[k] += 1;
            if pos[k] < out_shape[k] {
                break;
            }
            pos[k] = 0;
        }
    }
    Some(out)
}

/// `Add`.
pub fn add(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.binary(|d, a, b| d.add(a, b).ok())
        .or_else(|| cx.float_binary(|x, y| x + y))
}

/// `Sub`.
pub fn sub(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.binary(|d, a, b| d.sub(a, b).ok())
        .or_else(|| cx.float_binary(|x, y| x - y))
}

/// `Mul`.
pub fn mul(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.binary(|d, a, b| d.mul(a, b).ok())
        .or_else(|| cx.float_binary(|x, y| x * y))
}

/// `Div`: of integers, rounding toward zero (known exactly when the division is exact
/// or both are constants; a symbolic quotient is kept when the divisor divides it); of
/// floats (an integer value cast to a float, as exporters compute sizes), where the
/// quotient is a whole number, else as float constants when both are constants (for a
/// `Ceil` or `Floor` to make whole).
pub fn div(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    if cx.out_is_float() {
        let exact = cx.binary(|dims, a, b| match (dims.as_const(a), dims.as_const(b)) {
            (_, Some(0)) => None,
            (Some(x), Some(y)) => (x.checked_rem(y)? == 0).then(|| dims.konst(x / y)),
            (_, Some(y)) => dims.exact_div(a, y),
            _ => None,
        });
        if exact.is_none() {
            cx.float_binary(|x, y| x / y);
        }
        return exact;
    }
    cx.binary(|dims, a, b| {
        match (dims.as_const(a), dims.as_const(b)) {
            (_, Some(0)) => None,
            (Some(x), Some(y)) => Some(dims.konst(x.checked_div(y)?)),
            (_, Some(y)) => dims.exact_div(a, y),
            // A symbolic divisor: floor division equals truncation for the positive
            // sizes shapes are made of.
            _ => dims.floordiv(a, b).ok(),
        }
    })
}

/// `Ceil` of a value: integers unchanged, float constants rounded up.
pub fn ceil(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    round_with(cx, f64::ceil)
}

/// `Floor` of a value: integers unchanged, float constants rounded down.
pub fn floor(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    round_with(cx, f64::floor)
}

/// `Round` of a value: integers unchanged, float constants to the nearest, halves to even.
pub fn round(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    round_with(cx, f64::round_ties_even)
}

fn round_with(cx: &mut ValueCx<'_>, f: fn(f64) -> f64) -> Option<Vec<Dim>> {
    if cx.value(0).is_some() {
        return same(cx);
    }
    cx.float_unary(f)
}

/// The integers that these floats are, if each is a whole number of a size's range.
fn whole(x: &[f64]) -> Option<Vec<i64>> {
    x.iter()
        .map(|&v| (v.fract() == 0.0 && v.abs() < 1e15).then_some(v as i64))
        .collect()
}

/// `Relu` of a value: each constant below zero is zero (a symbolic size is not negative).
pub fn relu(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    if cx.value(0).is_none() {
        return cx.float_unary(|x| x.max(0.0));
    }
    cx.unary(|dims, a| match dims.as_const(a) {
        Some(c) => Some(dims.konst(c.max(0))),
        None => Some(a),
    })
}

/// `Mod` (`fmod` 0: the sign of the divisor, as floor modulo).
pub fn modulo(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    if cx.attr_int("fmod").unwrap_or(0) != 0 {
        return None;
    }
    cx.binary(|d, a, b| d.floormod(a, b).ok())
}

/// `Max` of two values.
pub fn max(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    if cx.len() != 2 {
        return if cx.len() == 1 { same(cx) } else { None };
    }
    cx.binary(|d, a, b| d.max(a, b).ok())
}

/// `Min` of two values.
pub fn min(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    if cx.len() != 2 {
        return if cx.len() == 1 { same(cx) } else { None };
    }
    cx.binary(|d, a, b| d.min(a, b).ok())
}

/// `Neg`.
pub fn neg(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.unary(|dims, a| dims.neg(a).ok())
}

/// `Abs` of constants and of symbolic sizes (which are not negative).
pub fn abs(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.unary(|dims, a| match dims.as_const(a) {
        Some(c) => Some(dims.konst(c.checked_abs()?)),
        None => Some(a),
    })
}

fn compare(cx: &mut ValueCx<'_>, f: fn(i64, i64) -> bool) -> Option<Vec<Dim>> {
    cx.binary(move |dims, a, b| {
        let eq = if a == b {
            Some(0)
        } else {
            // A symbol is a size: it is greater than a negative constant (PyTorch's
            // exporter compares shapes with -1 to find the axes `expand` keeps).
            let size = |d| matches!(dims.data(d), relay_core::DimData::Sym(_));
            match (dims.as_const(a), dims.as_const(b)) {
                (Some(x), Some(y)) => Some(x.cmp(&y) as i64),
                (None, Some(y)) if y < 0 && size(a) => Some(1),
                (Some(x), None) if x < 0 && size(b) => Some(-1),
                _ => None,
            }
        };
        eq.map(|o| dims.konst(i64::from(f(o, 0))))
    })
}

/// `Equal`: 1 where the elements are the same, 0 where they are different constants.
pub fn equal(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    compare(cx, |a, b| a == b)
}

/// `Less`.
pub fn less(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    compare(cx, |a, b| a < b)
}

/// `Greater`.
pub fn greater(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    compare(cx, |a, b| a > b)
}

/// `Not` of a boolean value.
pub fn not(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    cx.unary(|dims, a| {
        let c = dims.as_const(a)?;
        Some(dims.konst(i64::from(c == 0)))
    })
}

/// `Split` of a known vector: each output its run of the elements, by the lengths its
/// type gives.
pub fn split(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    let axis = cx.attr_int("axis").unwrap_or(0);
    if norm_index(axis, 1)? != 0 {
        return None;
    }
    let mut parts = Vec::with_capacity(cx.outputs());
    let mut at = 0usize;
    for j in 0..cx.outputs() {
        let part = match cx.out_dims_at(j)?.as_slice() {
            [d] => usize::try_from(cx.as_const(*d)?).ok()?,
            _ => return None,
        };
        let end = at.checked_add(part).filter(|&e| e <= v.len())?;
        parts.push(Some(v[at..end].to_vec()));
        at = end;
    }
    let first = parts.first().cloned().flatten();
    cx.set_later_outputs(parts.into_iter().skip(1).collect());
    first
}

/// `Where(cond, x, y)` with a known condition.
pub fn where_(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let c = cx.value(0)?.to_vec();
    let x = cx.value(1)?.to_vec();
    let y = cx.value(2)?.to_vec();
    let n = c.len().max(x.len()).max(y.len());
    let pick = |v: &[Dim], i: usize| -> Option<Dim> {
        match v.len() {
            1 => Some(v[0]),
            m if m == n => Some(v[i]),
            _ => None,
        }
    };
    (0..n)
        .map(|i| {
            let ci = pick(&c, i)?;
            let b = cx.as_const(ci)?;
            if b != 0 {
                pick(&x, i)
            } else {
                pick(&y, i)
            }
        })
        .collect()
}

/// `ReduceProd` / `ReduceSum` of a rank-1 value to one element.
pub fn reduce_prod(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    Some(vec![cx.dims_table().product(&v).ok()?])
}

/// `ReduceSum` of a rank-1 value.
pub fn reduce_sum(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    let mut acc = cx.konst(0);
    for d in v {
        acc = cx.dims_table().add(acc, d).ok()?;
    }
    Some(vec![acc])
}

/// `ConstantOfShape`: the fill value repeated, when the shape is constant and small.
pub fn constant_of_shape(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let dims = cx.out_dims()?;
    let mut n: usize = 1;
    for d in dims {
        n = n.checked_mul(usize::try_from(cx.as_const(d)?).ok()?)?;
    }
    if n > MAX_ELEMS {
        return None;
    }
    let fill = match cx.attrs.tensor_value("value") {
        Some(v) if v.len() == 1 => v[0],
        Some(_) => return None,
        None => 0,
    };
    let d = cx.konst(fill);
    Some(vec![d; n])
}

/// `Range` of constants, when small.
pub fn range(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let s = cx.value(0)?.first().copied()?;
    let l = cx.value(1)?.first().copied()?;
    let d = cx.value(2)?.first().copied()?;
    let (s, l, d) = (cx.as_const(s)?, cx.as_const(l)?, cx.as_const(d)?);
    if d == 0 {
        return None;
    }
    let mut out = Vec::new();
    let mut i = s;
    while (d > 0 && i < l) || (d < 0 && i > l) {
        if out.len() == MAX_ELEMS {
            return None;
        }
        out.push(cx.konst(i));
        i = i.checked_add(d)?;
    }
    Some(out)
}

/// `Expand` / `Tile` of a one-element value to the output's size.
pub fn broadcast_to_output(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    let dims = cx.out_dims()?;
    if dims.len() > 1 {
        return None;
    }
    let n = match dims.first() {
        Some(&d) => usize::try_from(cx.as_const(d)?).ok()?,
        None => 1,
    };
    match v.len() {
        m if m == n => Some(v),
        1 if n <= MAX_ELEMS => Some(vec![v[0]; n]),
        _ => None,
    }
}

/// A reduction of a value of rank 0 or 1 (`ReduceSum`, `ReduceProd`, `ReduceMax`,
/// `ReduceMin` of a shape) over all of it, its elements folded by `f` from `empty` (the
/// result for no elements, if any); the value unchanged when `noop_with_empty_axes`
/// keeps it. The axes are the `axes` attribute or the value of input 1.
fn reduce_value(
    cx: &mut ValueCx<'_>,
    empty: Option<i64>,
    f: fn(&mut Dims, Dim, Dim) -> Option<Dim>,
) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    if cx.dims(0)?.len() > 1 {
        return None;
    }
    let axes: Vec<i64> = match cx.attr_ints("axes") {
        Some(a) => a,
        None if cx.input_tys.get(1).copied().flatten().is_some() => {
            let a = cx.value(1)?.to_vec();
            a.into_iter()
                .map(|d| cx.as_const(d))
                .collect::<Option<_>>()?
        }
        None => Vec::new(),
    };
    if axes.is_empty() && cx.attr_int("noop_with_empty_axes").unwrap_or(0) != 0 {
        return Some(v);
    }
    if axes.iter().any(|&a| a != 0 && a != -1) {
        return None;
    }
    let mut it = v.into_iter();
    let mut acc = match it.next() {
        Some(d) => cx.resolve(d),
        None => return Some(vec![cx.konst(empty?)]),
    };
    for d in it {
        let d = cx.resolve(d);
        acc = f(&mut cx.solver.tcx.dims, acc, d)?;
    }
    Some(vec![acc])
}

/// `ReduceSum` of a value (opset 13's axes input or the attribute).
pub fn reduce_sum_value(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    reduce_value(cx, Some(0), |d, a, b| d.add(a, b).ok())
}

/// `ReduceProd` of a value: the element count of a shape.
pub fn reduce_prod_value(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    reduce_value(cx, Some(1), |d, a, b| d.mul(a, b).ok())
}

/// `ReduceMax` of a value.
pub fn reduce_max_value(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    reduce_value(cx, None, |d, a, b| d.max(a, b).ok())
}

/// `ReduceMin` of a value.
pub fn reduce_min_value(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    reduce_value(cx, None, |d, a, b| d.min(a, b).ok())
}

/// `CumSum` of a rank-1 value along axis 0 (`exclusive` and `reverse` as ONNX says).
pub fn cumsum(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    if cx.dims(0)?.len() != 1 {
        return None;
    }
    let axis = cx.value(1)?.first().copied()?;
    if !matches!(cx.as_const(axis)?, 0 | -1) {
        return None;
    }
    let exclusive = cx.attr_int("exclusive").unwrap_or(0) != 0;
    let reverse = cx.attr_int("reverse").unwrap_or(0) != 0;
    let n = v.len();
    let mut out = vec![Dims::ANY; n];
    let mut acc = cx.konst(0);
    for step in 0..n {
        let i = if reverse { n - 1 - step } else { step };
        let x = cx.resolve(v[i]);
        let next = cx.dims_table().add(acc, x).ok()?;
        out[i] = if exclusive { acc } else { next };
        acc = next;
    }
    Some(out)
}

/// `NonZero` of a known value of constant shape: the coordinates of its non-zero
/// elements, one row per axis (row-major, as the `(rank, count)` result is laid out).
pub fn nonzero(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    let v = cx.value(0)?.to_vec();
    let dims = cx.dims(0)?;
    let shape: Vec<i64> = dims
        .into_iter()
        .map(|d| cx.as_const(d))
        .collect::<Option<_>>()?;
    let mut hits = Vec::new();
    for (flat, d) in v.iter().enumerate() {
        if cx.as_const(*d)? != 0 {
            hits.push(flat as i64);
        }
    }
    if hits.len().checked_mul(shape.len())? > MAX_ELEMS {
        return None;
    }
    let mut out = Vec::with_capacity(hits.len() * shape.len());
    for a in 0..shape.len() {
        // The stride of axis `a`: the product of the later dimensions.
        let stride: i64 = shape[a + 1..]
            .iter()
            .try_fold(1i64, |p, &d| p.checked_mul(d))?;
        let len = shape[a].max(1);
        for &h in &hits {
            out.push(cx.konst((h / stride.max(1)) % len));
        }
    }
    Some(out)
}

/// A logical operator over 0/1 constants.
fn logical(cx: &mut ValueCx<'_>, f: fn(bool, bool) -> bool) -> Option<Vec<Dim>> {
    cx.binary(move |dims, a, b| {
        let (x, y) = (dims.as_const(a)?, dims.as_const(b)?);
        Some(dims.konst(i64::from(f(x != 0, y != 0))))
    })
}

/// `And` of boolean values.
pub fn and(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    logical(cx, |a, b| a && b)
}

/// `Or` of boolean values.
pub fn or(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    logical(cx, |a, b| a || b)
}

/// `Xor` of boolean values.
pub fn xor(cx: &mut ValueCx<'_>) -> Option<Vec<Dim>> {
    logical(cx, |a, b| a != b)
}
