//! TVM's level-4 operators (comparisons, reductions, slicing), and those of levels 6 and 10.
//!
//! The relations these operators use live in submodules: the clause ones in [`rels`]
//! (`BroadcastComp`, `Where`, `BroadcastTo`, ...), the imperative ones in [`reduce`]
//! (`Reduce`, `ArgReduce`, `Variance`), [`slice`](mod@slice) (`StridedSlice`, `SliceLike`) and
//! [`misc`] (`BatchMatmul`, `TopK`, `OneHot`, `CollapseSumTo`). Broadcasting ops reuse
//! [`Broadcast`], unary ones [`Identity`].

use crate::relations::{Broadcast, Identity};
use relay_core::relay_op;

pub mod misc;
pub mod reduce;
pub mod rels;
pub mod slice;
mod util;

use misc::{BatchMatmul, CollapseSumTo, OneHot, TopK};
use reduce::{ArgReduce, Reduce, Variance};
use rels::{
    Argsort, BroadcastComp, BroadcastTo, BroadcastToLike, CollapseSumLike, NdarraySize, ShapeOf,
    Sort, Where,
};
use slice::{SliceLike, StridedSlice};

relay_op! {
    /// Element-wise `lhs == rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = equal(%a, %b)  // (2, 3) f32, (3) f32 -> (2, 3) bool
    /// ```
    equal,

    /// Element-wise `lhs != rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = not_equal(%a, %b)  // (n, 1) i32, (4) i32 -> (n, 4) bool
    /// ```
    not_equal,

    /// Element-wise `lhs < rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = less(%a, %b)  // (2, 3) f32, () f32 -> (2, 3) bool
    /// ```
    less,

    /// Element-wise `lhs <= rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = less_equal(%a, %b)  // (2, 3) f32, (2, 1) f32 -> (2, 3) bool
    /// ```
    less_equal,

    /// Element-wise `lhs > rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = greater(%a, %b)  // (5) i8, (5) i8 -> (5) bool
    /// ```
    greater,

    /// Element-wise `lhs >= rhs` with NumPy broadcasting; a `bool` result.
    ///
    /// ```text
    /// %y = greater_equal(%a, %b)  // (?, 3) f32, (3) f32 -> (?, 3) bool
    /// ```
    greater_equal : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where BroadcastComp, level 4;

    /// Element-wise maximum with NumPy broadcasting.
    ///
    /// ```text
    /// %y = maximum(%a, %b)  // (2, 3) f32, (3) f32 -> (2, 3) f32
    /// ```
    maximum,

    /// Element-wise minimum with NumPy broadcasting.
    ///
    /// ```text
    /// %y = minimum(%a, %b)  // (2, 3) f32, (3) f32 -> (2, 3) f32
    /// ```
    minimum,

    /// Element-wise `lhs ** rhs` with NumPy broadcasting.
    ///
    /// ```text
    /// %y = power(%a, %b)  // (2, 3) f32, () f32 -> (2, 3) f32
    /// ```
    power,

    /// Element-wise `lhs << rhs` with NumPy broadcasting.
    ///
    /// ```text
    /// %y = left_shift(%a, %b)  // (4) i32, () i32 -> (4) i32
    /// ```
    left_shift,

    /// Element-wise `lhs >> rhs` with NumPy broadcasting.
    ///
    /// ```text
    /// %y = right_shift(%a, %b)  // (4) i32, () i32 -> (4) i32
    /// ```
    right_shift,

    /// Element-wise bitwise and, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = bitwise_and(%a, %b)  // (4) u8, (4) u8 -> (4) u8
    /// ```
    bitwise_and,

    /// Element-wise bitwise or, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = bitwise_or(%a, %b)  // (4) u8, (4) u8 -> (4) u8
    /// ```
    bitwise_or,

    /// Element-wise bitwise exclusive or, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = bitwise_xor(%a, %b)  // (4) u8, (4) u8 -> (4) u8
    /// ```
    bitwise_xor,

    /// Element-wise logical and, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = logical_and(%a, %b)  // (2, 3) bool, (3) bool -> (2, 3) bool
    /// ```
    logical_and,

    /// Element-wise logical or, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = logical_or(%a, %b)  // (2, 3) bool, (3) bool -> (2, 3) bool
    /// ```
    logical_or,

    /// Element-wise logical exclusive or, with NumPy broadcasting.
    ///
    /// ```text
    /// %y = logical_xor(%a, %b)  // (2, 3) bool, (3) bool -> (2, 3) bool
    /// ```
    logical_xor : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where Broadcast, level 4;

    /// Element-wise logical not; the type is unchanged.
    ///
    /// ```text
    /// %y = logical_not(%a)  // (2, 3) bool -> (2, 3) bool
    /// ```
    logical_not,

    /// Element-wise bitwise not; the type is unchanged.
    ///
    /// ```text
    /// %y = bitwise_not(%a)  // (4) i32 -> (4) i32
    /// ```
    bitwise_not : fn<t1, t2>(data: t1) -> t2 where Identity, level 4;
}

relay_op! {
    /// Sum over `axis`.
    ///
    /// `axis`: every axis; negatives count from the end. `keepdims`: reduced axes are
    /// dropped, or kept as `1`. `exclude`: reduce the axes *not* listed.
    ///
    /// ```text
    /// %y = sum(%x, axis=[1])  // (4, n, 5) f32 -> (4, 5) f32
    /// %y = sum(%x, axis=[1], keepdims=True)  // (4, n, 5) f32 -> (4, 1, 5) f32
    /// ```
    sum,

    /// Mean over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = mean(%x, axis=[0], exclude=True)  // (4, 5) f32 -> (4) f32
    /// ```
    mean,

    /// Maximum over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = max(%x)  // (4, 5) f32 -> () f32
    /// ```
    max,

    /// Minimum over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = min(%x, axis=[-1])  // (4, 5) f32 -> (4) f32
    /// ```
    min,

    /// Product over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = prod(%x, axis=[1], keepdims=True)  // (4, 5) f32 -> (4, 1) f32
    /// ```
    prod,

    /// Logical and over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = all(%x, axis=[0])  // (4, 5) bool -> (5) bool
    /// ```
    all,

    /// Logical or over `axis`; attributes as for [`sum`].
    ///
    /// ```text
    /// %y = any(%x, axis=[0])  // (4, 5) bool -> (5) bool
    /// ```
    any : fn<t1, t2>(data: t1) -> t2 where Reduce,
        attrs ReduceAttrs,
        level 4;

    /// Variance over `axis`, given the mean (computed over the same axes with
    /// `keepdims`: same rank, each dimension the data's or `1`, same dtype).
    ///
    /// `axis`, `keepdims` and `exclude` as for [`sum`]; `unbiased`: divide by `N - 1`
    /// rather than `N`.
    ///
    /// ```text
    /// %y = variance(%x, %m, axis=[1])  // (4, 5) f32, (4, 1) f32 -> (4) f32
    /// ```
    variance,

    /// Standard deviation over `axis`, given the mean; the type and attributes of
    /// [`variance`].
    ///
    /// ```text
    /// %y = std(%x, %m, axis=[0])  // (4, 5) f32, (1, 5) f32 -> (5) f32
    /// ```
    std : fn<t1, t2, t3>(data: t1, mean: t2) -> t3 where Variance,
        attrs VarianceAttrs,
        level 4;

    /// Indices of the maxima over `axis`, as `int32`.
    ///
    /// `axis`, `keepdims` and `exclude` as for [`sum`]; `select_last_index`: the last
    /// maximum rather than the first.
    ///
    /// ```text
    /// %y = argmax(%x, axis=[1])  // (4, 5) f32 -> (4) i32
    /// ```
    argmax,

    /// Indices of the minima over `axis`, as `int32`; attributes as for [`argmax`].
    ///
    /// ```text
    /// %y = argmin(%x, axis=[0], keepdims=True)  // (4, 5) f32 -> (1, 5) i32
    /// ```
    argmin : fn<t1, t2>(data: t1) -> t2 where ArgReduce,
        attrs ArgReduceAttrs,
        level 4;
}

relay_op! {
    /// A strided slice, `data[begin:end:strides]` per axis.
    ///
    /// `begin` and `end`: negatives count from the end. `strides`: all 1. `slice_mode`: `"size"`: `end`
    /// gives sizes, `-1` to the end, strides ignored. `axes`: the lists cover the leading
    /// axes, the others are kept whole. TVM's C++ gives `begin`, `end`, `strides` and
    /// `axes` no default (and always prints them); an unset `strides` or `axes` means what
    /// TVM's Python API means by its `None` default. Constant extents are clamped as in
    /// TVM; a symbolic extent `n` gives a size in `n` with indices relative to the axis'
    /// ends taken in bounds (`[1:-1]` is `n - 2`), and `?` when the far end is an absolute
    /// position (`[:10000]`); `?` gives `?`.
    ///
    /// ```text
    /// %y = strided_slice(%x, begin=[2, 0], end=[8, -1], strides=[3])  // (10, n) f32 -> (2, n - 1) f32
    /// ```
    strided_slice : fn<t1, t2>(data: t1) -> t2 where StridedSlice,
        attrs {
            begin: [int],
            end: [int],
            strides: Option<[int]> = None,
            slice_mode: str = "end",
            axes: Option<[int]> = None,
        },
        level 4;

    /// The data broadcast to `shape` (`[int]`, required), which it must broadcast to. Its
    /// attributes are TVM's `InitOpAttrs`: `dtype` (`Option<dtype>`, default `None`, as TVM
    /// prints it: `dtype=""`) is not read, the result has the data's dtype.
    ///
    /// ```text
    /// %y = broadcast_to(%x, shape=[2, 3, 4])  // (3, 1) f32 -> (2, 3, 4) f32
    /// %y = broadcast_to(%x, shape=[2, 3, 4], dtype="")  // (3, 1) i8 -> (2, 3, 4) i8
    /// ```
    broadcast_to : fn<t1, t2>(data: t1) -> t2 where BroadcastTo,
        attrs InitOpAttrs,
        level 4;

    /// The data summed down to a target shape, which must broadcast to the data's shape.
    /// As in TVM, the target is the second argument, a 1-D integer tensor, and also the
    /// attribute `shape` (`Option<[int]>`, default `None`; TVM's `InitOpAttrs`, which TVM
    /// sets when the argument is a constant): the result is `shape`, or, when `shape` is
    /// unset, as many `?` as the argument's length. `dtype` (`Option<dtype>`, default
    /// `None`) is not read: the result has the data's dtype.
    ///
    /// ```text
    /// %y = collapse_sum_to(%x, %s, shape=[3, 1])  // (2, 3, 4) f32, (2) i64 -> (3, 1) f32
    /// %y = collapse_sum_to(%x, %s)  // (2, 3, 4) f32, (2) i64 -> (?, ?) f32
    /// ```
    collapse_sum_to : fn<t1, t2, t3>(data: t1, shape: t2) -> t3 where CollapseSumTo,
        attrs { shape: Option<[int]> = None, dtype: Option<dtype> = None },
        level 4;

    /// Chooses from `x` where `condition` holds and from `y` elsewhere; the three shapes
    /// broadcast together, `x` and `y` have one dtype.
    ///
    /// ```text
    /// %z = where(%c, %x, %y)  // (2, 1) bool, (3) f32, () f32 -> (2, 3) f32
    /// ```
    where : fn<t1, t2, t3, t4>(condition: t1, x: t2, y: t3) -> t4 where Where, level 4;
}

relay_op! {
    /// The `k` largest (smallest with `is_ascend`) elements along `axis` and their indices.
    ///
    /// `k`: TVM's C++ has no default; below 1: the whole axis. `ret_type`: the pair
    /// `(values, indices)`; `"values"`, `"indices"`: one of them. `dtype`: the indices are
    /// `int32`, the Python API's default; TVM's relation would give them the void dtype.
    ///
    /// ```text
    /// %y = topk(%x, k=3)  // (4, 10) f32 -> ((4, 3) f32, (4, 3) i32)
    /// ```
    topk : fn<t1, t2>(data: t1) -> t2 where TopK,
        attrs {
            k: int,
            axis: int = -1,
            ret_type: str = "both",
            is_ascend: bool = false,
            dtype: Option<dtype> = None,
        },
        level 6;

    /// The indices that sort the data along `axis`.
    ///
    /// `dtype`: the result is `int32`, the Python API's default; TVM's relation would give
    /// it the void dtype.
    ///
    /// ```text
    /// %y = argsort(%x)  // (4, n) f32 -> (4, n) i32
    /// %y = argsort(%x, dtype="int64")  // (4, n) f32 -> (4, n) i64
    /// ```
    argsort : fn<t1, t2>(data: t1) -> t2 where Argsort,
        attrs ArgsortAttrs,
        level 6;

    /// The data sorted along `axis`; the type is unchanged.
    ///
    /// `dtype`: `sort` shares `argsort`'s `ArgsortAttrs` in TVM and does not read it.
    ///
    /// ```text
    /// %y = sort(%x, axis=0)  // (4, n) f32 -> (4, n) f32
    /// ```
    sort : fn<t1, t2>(data: t1) -> t2 where Sort,
        attrs ArgsortAttrs,
        level 6;
}

relay_op! {
    /// Batched matrix product of 3-D tensors: `x` is `(b, i, k)`, `y` is `(b, k, j)`;
    /// batch dimensions equal or one of them 1; the contraction dimensions must agree.
    ///
    /// Attributes (TVM's C++ `BatchMatmulAttrs`, whose defaults the text printer omits):
    /// `out_dtype` (`Option<dtype>`, default `None`: the dtype of `x`), `transpose_a`
    /// (`bool`, default `false`; `true`: `x` is `(b, k, i)`), `transpose_b` (`bool`,
    /// default `false`; `true`: `y` is `(b, j, k)`). TVM's Python `nn.batch_matmul`
    /// defaults `transpose_b` to `true` and so prints `transpose_b=True`; a call that
    /// omits it means `false`.
    ///
    /// ```text
    /// %z = nn.batch_matmul(%x, %y, out_dtype="float16")  // (12, 128, 64) f16, (12, 64, 128) f16 -> (12, 128, 128) f16
    /// %z = nn.batch_matmul(%x, %y, transpose_b=True)  // (8, n, 64) f32, (1, 32, 64) f32 -> (8, n, 32) f32
    /// ```
    nn.batch_matmul : fn<t1, t2, t3>(x: t1, y: t2) -> t3 where BatchMatmul,
        attrs BatchMatmulAttrs,
        level 10;
}

relay_op! {
    /// The data broadcast to the shape of `broadcast_type`.
    ///
    /// ```text
    /// %y = broadcast_to_like(%x, %l)  // (3, 1) f32, (2, 3, 4) i8 -> (2, 3, 4) f32
    /// ```
    broadcast_to_like : fn<t1, t2, t3>(data: t1, broadcast_type: t2) -> t3 where BroadcastToLike,
        level 10;

    /// The data summed down to the shape of `collapse_type`.
    ///
    /// ```text
    /// %y = collapse_sum_like(%x, %l)  // (2, 3, 4) f32, (3, 1) i8 -> (3, 1) f32
    /// ```
    collapse_sum_like : fn<t1, t2, t3>(data: t1, collapse_type: t2) -> t3 where CollapseSumLike,
        level 10;

    /// The data sliced to the shape of `shape_like` on `axes` (`Option<[int]>`, default
    /// `None`: every axis `shape_like` has).
    ///
    /// ```text
    /// %y = slice_like(%x, %l)  // (8, 8, 3) f32, (4, 5) f32 -> (4, 5, 3) f32
    /// ```
    slice_like : fn<t1, t2, t3>(data: t1, shape_like: t2) -> t3 where SliceLike,
        attrs { axes: Option<[int]> = None },
        level 10;

    /// The shape of the data as a 1-D tensor of `dtype` (`Option<dtype>`, default `None`:
    /// `int32`, the Python API's default; TVM's relation would use the void dtype).
    ///
    /// ```text
    /// %y = shape_of(%x)  // (n, 3) f32 -> (2) i32
    /// ```
    shape_of : fn<t1, t2>(data: t1) -> t2 where ShapeOf,
        attrs { dtype: Option<dtype> = None },
        level 10;

    /// The number of elements of the data as a scalar of `dtype` (`Option<dtype>`,
    /// default `None`: `int32`, the Python API's default; TVM's relation would use the
    /// void dtype).
    ///
    /// ```text
    /// %y = ndarray_size(%x)  // (n, 3) f32 -> () i32
    /// ```
    ndarray_size : fn<t1, t2>(data: t1) -> t2 where NdarraySize,
        attrs { dtype: Option<dtype> = None },
        level 10;

    /// A one-hot encoding: `on_value` where the index matches, `off_value` elsewhere.
    ///
    /// `depth`: the size of the new axis. `axis`: appended. `dtype`: of the result and of
    /// the two scalar values; unset, the values' dtype, where TVM's relation would give the
    /// result the void dtype. The indices must be integers.
    ///
    /// ```text
    /// %y = one_hot(%i, %on, %off, depth=10, dtype="float32")  // (n) i32, () f32, () f32 -> (n, 10) f32
    /// ```
    one_hot : fn<t1, t2, t3, t4>(indices: t1, on_value: t2, off_value: t3) -> t4 where OneHot,
        attrs OneHotAttrs,
        level 10;
}
