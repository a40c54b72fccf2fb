//! TVM's dynamic operators, `dyn.*`: the forms of `reshape`, `broadcast_to`, `zeros`,
//! `strided_slice`, `nn.pad`, `image.resize2d`, ... whose shape, sizes or counts are
//! tensors computed at run time rather than attributes.
//!
//! The result's rank is known (from the static length of the shape tensor, or from the
//! data's rank) and the dimensions the run-time values decide are `?`, as in TVM. The
//! relations are in [`rels`]. Attributes are TVM's C++ structs, which the dynamic
//! builders mostly leave unset (TVM's printer shows them unset: `shape=None`,
//! `newshape=[]`): those are accepted and not read.

pub mod rels;

use relay_core::relay_op;
use rels::{
    DynOneHot, DynResize2D, DynSparseToDense, DynSqueeze, DynStridedSlice, DynTopK,
    DynamicBroadCastTo, DynamicExpandDims, DynamicFull, DynamicOnes, DynamicPad, DynamicReshape,
    DynamicTile, DynamicUpSampling, DynamicUpSampling3D, DynamicZeros,
};

relay_op! {
    /// Reshapes `data` to the shape held by the 1-D tensor `newshape`: as many
    /// dimensions as `newshape` has elements (a static length), each `?`.
    ///
    /// Attributes: `newshape` and `allowzero` of TVM's `ReshapeAttrs`, unread (the shape
    /// is the argument).
    ///
    /// ```text
    /// %y = dyn.reshape(%x, %s)  // (2, 3, 4) f32, (2) i64 -> (?, ?) f32
    /// ```
    dyn.reshape : fn<t1, t2, t3>(data: t1, newshape: t2) -> t3 where DynamicReshape,
        attrs { newshape: [int] = [], allowzero: bool = false },
        level 3;

    /// Tiles `data` by the repetitions held by the 1-D tensor `reps`: the larger of the
    /// data's rank and the length of `reps`, each dimension `?`.
    ///
    /// ```text
    /// %y = dyn.tile(%x, %r)  // (2, 3) f32, (3) i32 -> (?, ?, ?) f32
    /// ```
    dyn.tile : fn<t1, t2, t3>(data: t1, reps: t2) -> t3 where DynamicTile,
        attrs { reps: [int] = [] },
        level 3;

    /// Broadcasts `data` to the shape held by the 1-D tensor `shape`: as many dimensions
    /// as `shape` has elements, each `?`; fewer than the data's rank is an error.
    ///
    /// ```text
    /// %y = dyn.broadcast_to(%x, %s)  // (3, 1) f32, (3) i64 -> (?, ?, ?) f32
    /// ```
    dyn.broadcast_to : fn<t1, t2, t3>(data: t1, shape: t2) -> t3 where DynamicBroadCastTo,
        attrs { shape: Option<[int]> = None, dtype: Option<dtype> = None },
        level 4;

    /// Zeros of `dtype` in the shape held by the 1-D tensor `shape`: each dimension `?`.
    ///
    /// Attributes: `dtype` must be set (TVM's C++ default, unset, leaves the result
    /// without a dtype: an error here); `shape` is unread.
    ///
    /// ```text
    /// %y = dyn.zeros(%s, dtype="float32")  // (2) i64 -> (?, ?) f32
    /// ```
    dyn.zeros : fn<t1, t2>(shape: t1) -> t2 where DynamicZeros,
        attrs { shape: Option<[int]> = None, dtype: Option<dtype> = None },
        level 3;

    /// Ones of `dtype` in the shape held by the 1-D tensor `shape`: each dimension `?`.
    ///
    /// Attributes: `dtype` must be set (an error otherwise, as for `dyn.zeros`).
    ///
    /// ```text
    /// %y = dyn.ones(%s, dtype="int8")  // (3) i32 -> (?, ?, ?) i8
    /// ```
    dyn.ones : fn<t1, t2>(shape: t1) -> t2 where DynamicOnes,
        attrs { shape: Option<[int]> = None, dtype: Option<dtype> = None },
        level 3;

    /// The scalar `fill_value` in the shape held by the 1-D tensor `shape`: each
    /// dimension `?`, of `dtype` (unset: the fill value's).
    ///
    /// ```text
    /// %y = dyn.full(%v, %s)  // () f32, (2) i64 -> (?, ?) f32
    /// ```
    dyn.full : fn<t1, t2, t3>(fill_value: t1, shape: t2) -> t3 where DynamicFull,
        attrs { shape: Option<[int]> = None, dtype: Option<dtype> = None },
        level 3;

    /// Inserts `num_newaxis` axes of size 1 at the position held by the integer scalar
    /// `axis`: the data's rank plus `num_newaxis`, each dimension `?` (where the axes go is
    /// known at run time).
    ///
    /// ```text
    /// %y = dyn.expand_dims(%x, %a, num_newaxis=2)  // (2, 3) f32, () i32 -> (?, ?, ?, ?) f32
    /// ```
    dyn.expand_dims : fn<t1, t2, t3>(data: t1, axis: t2) -> t3 where DynamicExpandDims,
        attrs { num_newaxis: int = 1 },
        level 3;

    /// Removes the axes held by the 1-D tensor `axes`: the data's rank less their number,
    /// each dimension `?`.
    ///
    /// ```text
    /// %y = dyn.squeeze(%x, %a)  // (1, 3, 1) f32, (2) i64 -> (?) f32
    /// ```
    dyn.squeeze : fn<t1, t2, t3>(data: t1, axes: t2) -> t3 where DynSqueeze,
        attrs { axis: Option<[int]> = None },
        level 3;

    /// One-hot encoding of `indices` with a depth held by the integer scalar `depth`: the
    /// indices' shape with `?` inserted at `axis` (`-1`: appended), of `dtype` (unset: the
    /// dtype of `on_value` and `off_value`, scalars).
    ///
    /// ```text
    /// %y = dyn.one_hot(%i, %on, %off, %d, dtype="float32")  // (5) i32, () f32, () f32, () i32 -> (5, ?) f32
    /// ```
    dyn.one_hot : fn<t1, t2, t3, t4, t5>(indices: t1, on_value: t2, off_value: t3, depth: t4) -> t5
        where DynOneHot,
        attrs OneHotAttrs,
        level 10;

    /// A dense tensor of the shape held by the 1-D tensor `output_shape` (each dimension
    /// `?`), `sparse_values` (rank 0 or 1) at `sparse_indices` (integers of rank 0 to 2),
    /// `default_value` (a scalar of the values' dtype) elsewhere.
    ///
    /// ```text
    /// %y = dyn.sparse_to_dense(%i, %v, %d, %s)  // (4, 2) i32, (4) f32, () f32, (2) i64 -> (?, ?) f32
    /// ```
    dyn.sparse_to_dense : fn<t1, t2, t3, t4, t5>(sparse_indices: t1, sparse_values: t2, default_value: t3, output_shape: t4) -> t5
        where DynSparseToDense,
        level 3;

    /// Strided slice with `begin`, `end` and `strides` held by 1-D tensors of one static
    /// length `k` (at most the data's rank): the first `k` dimensions `?`, the others the
    /// data's.
    ///
    /// Attributes: `slice_mode = "end"` (or `"size"`); `begin`, `end`, `strides`, `axes`
    /// of TVM's `StridedSliceAttrs` are unread (the arguments give them).
    ///
    /// ```text
    /// %y = dyn.strided_slice(%x, %b, %e, %s)  // (8, 6, 4) f32, (2) i64, (2) i64, (2) i64 -> (?, ?, 4) f32
    /// ```
    dyn.strided_slice : fn<t1, t2, t3, t4, t5>(data: t1, begin: t2, end: t3, strides: t4) -> t5
        where DynStridedSlice,
        attrs {
            begin: Option<[int]> = None,
            end: Option<[int]> = None,
            strides: Option<[int]> = None,
            slice_mode: str = "end",
            axes: Option<[int]> = None,
        },
        level 4;

    /// The `k` largest (smallest with `is_ascend`) elements along `axis`, `k` held by a
    /// scalar or a `(1)` tensor: as `topk`, with the `axis` dimension `?`.
    ///
    /// Attributes: `k` is unread (the argument gives it); `dtype = None` gives `int32`
    /// indices, as `topk`.
    ///
    /// ```text
    /// %y = dyn.topk(%x, %k)  // (4, 10) f32, () i32 -> ((4, ?) f32, (4, ?) i32)
    /// ```
    dyn.topk : fn<t1, t2, t3>(data: t1, k: t2) -> t3 where DynTopK,
        attrs {
            k: Option<int> = None,
            axis: int = -1,
            ret_type: str = "both",
            is_ascend: bool = false,
            dtype: Option<dtype> = None,
        },
        level 6;

    /// Resizes the H and W axes of `layout` to the `(2)` integer tensor `size`: both `?`,
    /// of `out_dtype` (unset: the data's); `roi` is the `(4)` region of interest.
    ///
    /// Attributes: TVM's `Resize2DAttrs`; `size` and `roi` are unread (the arguments give
    /// them), `method` is `"linear"`, `"nearest_neighbor"` or `"cubic"`.
    ///
    /// ```text
    /// %y = dyn.image.resize2d(%x, %s, %r)  // (1, 3, 8, 8) f32, (2) i64, (4) f32 -> (1, 3, ?, ?) f32
    /// ```
    dyn.image.resize2d : fn<t1, t2, t3, t4>(data: t1, size: t2, roi: t3) -> t4 where DynResize2D,
        attrs Resize2DAttrs,
        level 5;

    /// Pads `data` by the widths held by the `(rank, 2)` integer tensor `pad_width` with
    /// the scalar `pad_value`: the data's rank, each dimension `?`.
    ///
    /// Attributes: `pad_width` is unread (the argument gives it); `pad_mode = "constant"`
    /// (or `"edge"`, `"reflect"`).
    ///
    /// ```text
    /// %y = dyn.nn.pad(%x, %p, 0f)  // (1, 3, 4, 4) f32, (4, 2) i64 -> (?, ?, ?, ?) f32
    /// ```
    dyn.nn.pad : fn<t1, t2, t3, t4>(data: t1, pad_width: t2, pad_value: t3) -> t4 where DynamicPad,
        attrs { pad_width: [[int]] = [], pad_mode: str = "constant" },
        level 2;

    /// Upsamples the H and W axes of `layout` by the scalars `scale_h` and `scale_w`:
    /// both `?`.
    ///
    /// Attributes: `scale_h` and `scale_w` are unread (the arguments give them; TVM's
    /// dynamic builder leaves them 0).
    ///
    /// ```text
    /// %y = dyn.nn.upsampling(%x, %h, %w)  // (1, 3, 16, 16) f32, () f32, () f32 -> (1, 3, ?, ?) f32
    /// ```
    dyn.nn.upsampling : fn<t1, t2, t3, t4>(data: t1, scale_h: t2, scale_w: t3) -> t4
        where DynamicUpSampling,
        attrs {
            scale_h: float = 0.0,
            scale_w: float = 0.0,
            layout: str = "NCHW",
            method: str = "nearest_neighbor",
            align_corners: bool = false,
        },
        level 2;

    /// Upsamples the D, H and W axes of `layout` by the scalars `scale_d`, `scale_h` and
    /// `scale_w`: each `?`.
    ///
    /// Attributes: the scales are unread (the arguments give them; TVM's dynamic builder
    /// leaves them 0).
    ///
    /// ```text
    /// %y = dyn.nn.upsampling3d(%x, %d, %h, %w)  // (1, 3, 4, 8, 8) f32, () f32, () f32, () f32 -> (1, 3, ?, ?, ?) f32
    /// ```
    dyn.nn.upsampling3d : fn<t1, t2, t3, t4, t5>(data: t1, scale_d: t2, scale_h: t3, scale_w: t4) -> t5
        where DynamicUpSampling3D,
        attrs {
            scale_d: float = 0.0,
            scale_h: float = 0.0,
            scale_w: float = 0.0,
            layout: str = "NCDHW",
            method: str = "nearest_neighbor",
            coordinate_transformation_mode: str = "half_pixel",
        },
        level 2;
}
