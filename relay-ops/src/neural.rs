//! TVM's `nn.*` operators beyond the levels' common ones: adaptive pools, `nn.upsampling3d`,
//! `nn.fast_softmax`, `nn.mirror_pad`, the moves between depth, batch and space, the
//! losses, `nn.fifo_buffer`, the gradients of the 2-D pools, and the sparse operators.
//!
//! The relations that read well as clauses (`CrossEntropy`, `FifoBuffer`) are below; the
//! others are imperative, in [`pool`](mod@pool) (adaptive pools, upsampling, pool
//! gradients), [`space`] (blocks and mirror padding) and [`sparse`] (sparse matrices and
//! `nn.nll_loss`). Attribute names, types and defaults are TVM's C++ ones
//! (`include/tvm/relay/attrs/nn.h`).

pub mod pool;
pub mod space;
pub mod sparse;

use crate::level1::Softmax;
use pool::{
    AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AdaptiveMaxPool1D, AdaptiveMaxPool2D,
    AdaptiveMaxPool3D, AvgPool2DGrad, MaxPool2DGrad, UpSampling3D,
};
use relay_core::{relation, relay_op};
use space::{BatchToSpaceND, DepthToSpace, MirrorPad, SpaceToBatchND, SpaceToDepth};
use sparse::{NLLLoss, SparseAdd, SparseConv2d, SparseDense, SparseDensePadded, SparseTranspose};

/// TVM's `CrossEntropy`: 2-D predictions and targets of one shape and dtype; a scalar.
#[relation(
    CrossEntropy(X @ Tensor(sx, bt), Y @ Tensor(sy, bt), O) :-
        assert(len(sx) == 2, "the predictions must be 2-D, found `{}`", X),
        assert(len(sy) == 2, "the targets must be 2-D, found `{}`", Y),
        assert(sy = sx, "the targets `{}` and the predictions `{}` differ in shape", Y, X),
        O = Tensor([], bt)
)]
pub struct CrossEntropy;

/// TVM's `FIFOBuffer`: the data and the buffer agree but along `axis`, where the data
/// is shorter (when both are integers); the result is the buffer's type.
#[relation(
    FifoBuffer(X @ Tensor(sd, bt), B @ Tensor(sb, bt), O) :-
        assert(len(sd) == len(sb), "the data `{}` and the buffer `{}` differ in rank", X, B),
        assert(
            -len(sb) <= attrs.axis && attrs.axis < len(sb),
            "`axis` {} is out of range for the buffer `{}` (rank {})", attrs.axis, B, len(sb)
        ),
        k = attrs.axis % len(sb),
        for i in 0..len(sb) {
            if i != k {
                assert(sd[i] = sb[i], "the data `{}` and the buffer `{}` differ at axis {}", X, B, i),
            },
        },
        if is_int(sd[k]) && is_int(sb[k]) {
            assert(
                sd[k] < sb[k],
                "the data `{}` must be shorter than the buffer `{}` along axis {}", X, B, k
            ),
        },
        O = B,
        attrs(axis: int = 0)
)]
pub struct FifoBuffer;

relay_op! {
    /// 1-D adaptive average pooling: the W axis of `layout` becomes `output_size[0]`
    /// (none given: kept); the result is in the data's layout (TVM's relation does not
    /// read `out_layout`).
    ///
    /// ```text
    /// %y = nn.adaptive_avg_pool1d(%x, output_size=[4])  // (1, 8, 32) f32 -> (1, 8, 4) f32
    /// ```
    nn.adaptive_avg_pool1d : fn<t1, t2>(data: t1) -> t2 where AdaptiveAvgPool1D,
        attrs AdaptivePool1DAttrs,
        level 10;

    /// 1-D adaptive max pooling (sizes as `nn.adaptive_avg_pool1d`).
    ///
    /// ```text
    /// %y = nn.adaptive_max_pool1d(%x, output_size=[1], layout="NWC")  // (n, 32, 8) f32 -> (n, 1, 8) f32
    /// ```
    nn.adaptive_max_pool1d : fn<t1, t2>(data: t1) -> t2 where AdaptiveMaxPool1D,
        attrs AdaptivePool1DAttrs,
        level 10;

    /// 2-D adaptive average pooling: H and W of `layout` become `output_size` (one value
    /// for both, or two; none: kept), in the data's layout.
    ///
    /// ```text
    /// %y = nn.adaptive_avg_pool2d(%x, output_size=[7, 7])  // (1, 512, 14, 14) f32 -> (1, 512, 7, 7) f32
    /// ```
    nn.adaptive_avg_pool2d : fn<t1, t2>(data: t1) -> t2 where AdaptiveAvgPool2D,
        attrs AdaptivePool2DAttrs,
        level 10;

    /// 2-D adaptive max pooling (sizes as `nn.adaptive_avg_pool2d`).
    ///
    /// ```text
    /// %y = nn.adaptive_max_pool2d(%x, output_size=[1], layout="NHWC")  // (?, 7, 7, 64) f32 -> (?, 1, 1, 64) f32
    /// ```
    nn.adaptive_max_pool2d : fn<t1, t2>(data: t1) -> t2 where AdaptiveMaxPool2D,
        attrs AdaptivePool2DAttrs,
        level 10;

    /// 3-D adaptive average pooling: D, H and W of `layout` become `output_size` (one
    /// value for all, or three; none: kept; two is an error, where TVM crashes), in the
    /// data's layout.
    ///
    /// ```text
    /// %y = nn.adaptive_avg_pool3d(%x, output_size=[1, 2, 2])  // (1, 4, 8, 8, 8) f32 -> (1, 4, 1, 2, 2) f32
    /// ```
    nn.adaptive_avg_pool3d : fn<t1, t2>(data: t1) -> t2 where AdaptiveAvgPool3D,
        attrs AdaptivePool3DAttrs,
        level 10;

    /// 3-D adaptive max pooling (sizes as `nn.adaptive_avg_pool3d`).
    ///
    /// ```text
    /// %y = nn.adaptive_max_pool3d(%x, output_size=[2])  // (1, 4, 8, 8, 8) f32 -> (1, 4, 2, 2, 2) f32
    /// ```
    nn.adaptive_max_pool3d : fn<t1, t2>(data: t1) -> t2 where AdaptiveMaxPool3D,
        attrs AdaptivePool3DAttrs,
        level 10;

    /// Upsamples D, H and W of `layout` by `scale_d`, `scale_h` and `scale_w`:
    /// `D' = round(D * scale_d)`, as `nn.upsampling`.
    ///
    /// Attributes: the scales are required (no C++ default); `method` is
    /// `"nearest_neighbor"` or `"trilinear"`, `coordinate_transformation_mode`
    /// `"half_pixel"`, `"align_corners"` or `"asymmetric"`.
    ///
    /// ```text
    /// %y = nn.upsampling3d(%x, scale_d=2f, scale_h=2f, scale_w=2f)  // (1, 3, 4, 8, 8) f32 -> (1, 3, 8, 16, 16) f32
    /// ```
    nn.upsampling3d : fn<t1, t2>(data: t1) -> t2 where UpSampling3D,
        attrs {
            scale_d: float,
            scale_h: float,
            scale_w: float,
            layout: str = "NCDHW",
            method: str = "nearest_neighbor",
            coordinate_transformation_mode: str = "half_pixel",
        },
        level 2;

    /// Softmax along `axis` with an approximate exponential; the result has the
    /// argument's type.
    ///
    /// ```text
    /// %y = nn.fast_softmax(%x)  // (n, 10) f32 -> (n, 10) f32
    /// ```
    nn.fast_softmax : fn<t1, t2>(data: t1) -> t2 where Softmax,
        attrs { axis: int = -1 },
        level 1;

    /// Pads every axis by its `(before, after)` pair of `pad_width` with a mirror of the
    /// data (`"SYMMETRIC"` repeats the edge, `"REFLECT"` does not). A width beyond what
    /// the mirror can reach on a constant axis is an error.
    ///
    /// ```text
    /// %y = nn.mirror_pad(%x, pad_width=[[0, 0], [0, 0], [1, 1], [2, 2]])  // (1, 3, 4, 4) f32 -> (1, 3, 6, 8) f32
    /// ```
    nn.mirror_pad : fn<t1, t2>(data: t1) -> t2 where MirrorPad,
        attrs { mode: str = "SYMMETRIC", pad_width: [[int]] },
        level 2;

    /// Moves blocks of `block_size`² channels into space: `C / block_size²` channels
    /// (exact), H and W times `block_size`, in `layout`.
    ///
    /// `mode`: `"DCR"` or `"CRD"`.
    ///
    /// ```text
    /// %y = nn.depth_to_space(%x, block_size=2)  // (1, 16, 4, 4) f32 -> (1, 4, 8, 8) f32
    /// ```
    nn.depth_to_space : fn<t1, t2>(data: t1) -> t2 where DepthToSpace,
        attrs SubPixelAttrs,
        level 5;

    /// Moves `block_size` x `block_size` blocks of space into channels: `C * block_size²`
    /// channels, H and W divided (exactly) by `block_size`, in `layout`.
    ///
    /// ```text
    /// %y = nn.space_to_depth(%x, block_size=2, layout="NHWC")  // (1, 8, 8, 3) f32 -> (1, 4, 4, 12) f32
    /// ```
    nn.space_to_depth : fn<t1, t2>(data: t1) -> t2 where SpaceToDepth,
        attrs SubPixelAttrs,
        level 5;

    /// Divides the spatial axes (those after the batch, one per `block_shape` entry),
    /// padded by `paddings`, into blocks that join the batch: axis `1 + i` is
    /// `(d + before + after) / block_shape[i]` (exact), the batch times the product of
    /// `block_shape`.
    ///
    /// ```text
    /// %y = nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [1, 1]])  // (1, 4, 6, 3) f32 -> (4, 2, 4, 3) f32
    /// ```
    nn.space_to_batch_nd : fn<t1, t2>(data: t1) -> t2 where SpaceToBatchND,
        attrs { block_shape: [int] = [1, 1], paddings: [[int]], pad_value: float = 0.0 },
        level 5;

    /// The inverse of `nn.space_to_batch_nd`: the batch divided (exactly) by the product
    /// of `block_shape`, axis `1 + i` times `block_shape[i]` less its `crops`.
    ///
    /// ```text
    /// %y = nn.batch_to_space_nd(%x, block_shape=[2, 2], crops=[[0, 0], [1, 1]])  // (4, 2, 4, 3) f32 -> (1, 4, 6, 3) f32
    /// ```
    nn.batch_to_space_nd : fn<t1, t2>(data: t1) -> t2 where BatchToSpaceND,
        attrs { block_shape: [int] = [1, 1], crops: [[int]] },
        level 5;

    /// Negative log likelihood of `predictions` `(N, C, d...)` at the integer `targets`
    /// `(N, d...)`, each class weighted by `weights` `(C)`: a scalar, or with
    /// `reduction = "none"` the targets' shape, of the predictions' float dtype.
    ///
    /// `reduction`: `"mean"` or `"sum"`, `"none"`.
    ///
    /// ```text
    /// %y = nn.nll_loss(%p, %t, %w, ignore_index=-100)  // (8, 10) f32, (8) i64, (10) f32 -> () f32
    /// ```
    nn.nll_loss : fn<t1, t2, t3, t4>(predictions: t1, targets: t2, weights: t3) -> t4 where NLLLoss,
        attrs { reduction: str = "mean", ignore_index: int },
        level 10;

    /// Cross entropy of 2-D `predictions` (probabilities) and `targets` of one shape: a
    /// scalar.
    ///
    /// ```text
    /// %z = nn.cross_entropy(%x, %y)  // (8, 10) f32, (8, 10) f32 -> () f32
    /// ```
    nn.cross_entropy,

    /// Cross entropy of 2-D `predictions` (logits) and `targets` of one shape: a scalar.
    ///
    /// ```text
    /// %z = nn.cross_entropy_with_logits(%x, %y)  // (n, 10) f32, (n, 10) f32 -> () f32
    /// ```
    nn.cross_entropy_with_logits : fn<t1, t2, t3>(x: t1, y: t2) -> t3 where CrossEntropy,
        level 10;

    /// A FIFO buffer: `data` appended to `buffer` along `axis` and the oldest entries
    /// dropped; the buffer's type. The data agrees with the buffer on the other axes and
    /// is shorter along `axis`.
    ///
    /// ```text
    /// %y = nn.fifo_buffer(%x, %b, axis=1)  // (1, 2, 8) f32, (1, 10, 8) f32 -> (1, 10, 8) f32
    /// ```
    nn.fifo_buffer : fn<t1, t2, t3>(data: t1, buffer: t2) -> t3 where FifoBuffer,
        attrs { axis: int = 0 },
        level 3;

    /// The gradient of `nn.max_pool2d`: `out_grad` has the type of the pool's result on
    /// `data` (inferred when unknown; TVM does not check it), the result the data's type.
    ///
    /// ```text
    /// %y = nn.max_pool2d_grad(%g, %x, pool_size=[2, 2], strides=[2, 2])  // (1, 4, 4, 4) f32, (1, 4, 8, 8) f32 -> (1, 4, 8, 8) f32
    /// ```
    nn.max_pool2d_grad : fn<t1, t2, t3>(out_grad: t1, data: t2) -> t3 where MaxPool2DGrad,
        attrs MaxPool2DAttrs,
        level 2;

    /// The gradient of `nn.avg_pool2d` (as `nn.max_pool2d_grad`).
    ///
    /// Its attributes are `nn.avg_pool2d`'s (TVM's builder makes them, though its registry
    /// names `MaxPool2DAttrs`).
    ///
    /// ```text
    /// %y = nn.avg_pool2d_grad(%g, %x, pool_size=[3, 3], padding=[1, 1])  // (n, 4, 8, 8) f32, (n, 4, 8, 8) f32 -> (n, 4, 8, 8) f32
    /// ```
    nn.avg_pool2d_grad : fn<t1, t2, t3>(out_grad: t1, data: t2) -> t3 where AvgPool2DGrad,
        attrs AvgPool2DAttrs,
        level 2;

    /// The product of `dense_data` `(M, K)` and the transpose of a CSR or BSR sparse
    /// matrix `(N, K)`: `(M, N)`, `N` the index pointer's length less 1 (times the block
    /// rows for BSR); with `sparse_lhs`, the sparse `(M, K)` times the dense transposed:
    /// `(M, N)`. The sparse data has the dense dtype.
    ///
    /// ```text
    /// %y = nn.sparse_dense(%x, %d, %i, %p)  // (8, 16) f32, (20) f32, (20) i32, (33) i32 -> (8, 32) f32
    /// %y = nn.sparse_dense(%x, %d, %i, %p)  // (n, 64) f32, (10, 4, 1) f32, (10) i32, (9) i32 -> (n, 32) f32
    /// ```
    nn.sparse_dense : fn<t1, t2, t3, t4, t5>(dense_data: t1, sparse_data: t2, sparse_indices: t3, sparse_indptr: t4) -> t5
        where SparseDense,
        attrs { sparse_lhs: bool = false },
        level 1;

    /// `nn.sparse_dense` on a padded sparse weight (an internal form of TVM's CUDA
    /// schedule); the same types.
    ///
    /// ```text
    /// %y = nn.internal.sparse_dense_padded(%x, %d, %i, %p)  // (8, 16) f32, (20) f32, (20) i32, (33) i32 -> (8, 32) f32
    /// ```
    nn.internal.sparse_dense_padded : fn<t1, t2, t3, t4, t5>(data: t1, weight_data: t2, weight_indices: t3, weight_indptr: t4) -> t5
        where SparseDensePadded,
        attrs { sparse_lhs: bool = false },
        level 1;

    /// The transpose of a square CSR matrix: its `(data, indices, indptr)` triple, of the
    /// argument types.
    ///
    /// ```text
    /// %y = nn.sparse_transpose(%d, %i, %p)  // (20) f32, (20) i32, (9) i32 -> ((20) f32, (20) i32, (9) i32)
    /// ```
    nn.sparse_transpose : fn<t1, t2, t3, t4>(sparse_data: t1, sparse_indices: t2, sparse_indptr: t3) -> t4
        where SparseTranspose,
        level 1;

    /// A dense matrix plus a CSR one of its shape: the dense type; the index pointer has
    /// one more element than the dense matrix has rows.
    ///
    /// ```text
    /// %y = nn.sparse_add(%x, %d, %i, %p)  // (8, 16) f32, (20) f32, (20) i32, (9) i32 -> (8, 16) f32
    /// ```
    nn.sparse_add : fn<t1, t2, t3, t4, t5>(dense_data: t1, sparse_data: t2, sparse_indices: t3, sparse_indptr: t4) -> t5
        where SparseAdd,
        level 1;

    /// A 1x1 or 3x3 convolution of `dense_data` (`layout` `"NHWC"` or `"NCHW"`) by a BSR
    /// weight: the channels become the index pointer's length less 1 times the block
    /// rows, the other axes kept.
    ///
    /// ```text
    /// %y = nn.sparse_conv2d(%x, %d, %i, %p)  // (1, 8, 8, 16) f32, (10, 4, 1) f32, (10) i32, (9) i32 -> (1, 8, 8, 32) f32
    /// ```
    nn.sparse_conv2d : fn<t1, t2, t3, t4, t5>(dense_data: t1, sparse_data: t2, sparse_indices: t3, sparse_indptr: t4) -> t5
        where SparseConv2d,
        attrs { layout: str = "NHWC", kernel_size: [int] = [1, 1] },
        level 1;
}
