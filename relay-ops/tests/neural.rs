//! The other `nn.*` operators (adaptive pools, upsampling3d, fast_softmax, mirror_pad,
//! depth/space/batch moves, losses, fifo_buffer, pool gradients, sparse operators):
//! static, symbolic and `?` inputs, backward inference, an error per operator, and a
//! program as TVM prints it.

mod common;
use common::printed::check_printed;
use common::{check, check_args, int, ints, string, Case};
use relay_core::AttrValue;

fn float(v: f64) -> AttrValue {
    AttrValue::Float(v)
}

/// A list of lists of integers (`pad_width`, `paddings`, `crops`).
fn lists(v: &[&[i64]]) -> AttrValue {
    AttrValue::List(v.iter().map(|l| ints(l)).collect())
}

#[test]
fn adaptive_pools_set_the_spatial_axes() {
    let cases: &[Case<'_>] = &[
        ("nn.adaptive_avg_pool1d", &["Tensor[(1, 8, 32), float32]"], &[("output_size", ints(&[4]))], Ok("Tensor[(1, 8, 4), float32]")),
        ("nn.adaptive_avg_pool1d", &["Tensor[(n, 8, m), float32]"], &[], Ok("Tensor[(n, 8, m), float32]")),
        ("nn.adaptive_max_pool1d", &["Tensor[(?, 32, 8), float32]"], &[("output_size", ints(&[1])), ("layout", string("NWC"))], Ok("Tensor[(?, 1, 8), float32]")),
        ("nn.adaptive_max_pool1d", &["Tensor[(1, 8, 32), float32]"], &[("output_size", ints(&[1, 1]))], Err("`output_size` of `nn.adaptive_max_pool1d` must have 1 values (or none), it has 2")),
        ("nn.adaptive_avg_pool2d", &["Tensor[(1, 512, 14, 14), float32]"], &[("output_size", ints(&[7, 7]))], Ok("Tensor[(1, 512, 7, 7), float32]")),
        ("nn.adaptive_avg_pool2d", &["Tensor[(n, 512, h, w), float32]"], &[("output_size", ints(&[1]))], Ok("Tensor[(n, 512, 1, 1), float32]")),
        ("nn.adaptive_avg_pool2d", &["Tensor[(1, 4, 7, 7, 16), float32]"], &[("output_size", ints(&[1])), ("layout", string("NCHW16c"))], Ok("Tensor[(1, 4, 1, 1, 16), float32]")),
        ("nn.adaptive_max_pool2d", &["Tensor[(?, 7, 7, 64), float32]"], &[("output_size", ints(&[3, 2])), ("layout", string("NHWC"))], Ok("Tensor[(?, 3, 2, 64), float32]")),
        ("nn.adaptive_max_pool2d", &["Tensor[(1, 4, 7, 7), float32]"], &[("output_size", ints(&[0]))], Err("`output_size` of `nn.adaptive_max_pool2d` must be at least 1, found 0")),
        ("nn.adaptive_max_pool2d", &["Tensor[(1, 4, 7), float32]"], &[], Err("`nn.adaptive_max_pool2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 4, 7), float32]`")),
        ("nn.adaptive_avg_pool3d", &["Tensor[(1, 4, 8, 8, 8), float32]"], &[("output_size", ints(&[1, 2, 2]))], Ok("Tensor[(1, 4, 1, 2, 2), float32]")),
        ("nn.adaptive_avg_pool3d", &["Tensor[(1, 4, 8, 8, 8), float32]"], &[("output_size", ints(&[1, 2]))], Err("`output_size` of `nn.adaptive_avg_pool3d` must have 1 or 3 values (or none), it has 2")),
        ("nn.adaptive_max_pool3d", &["Tensor[(n, 8, 8, 8, 4), float32]"], &[("output_size", ints(&[2])), ("layout", string("NDHWC"))], Ok("Tensor[(n, 2, 2, 2, 4), float32]")),
        ("nn.adaptive_max_pool3d", &["Tensor[(1, 4, 8, 8, 8), float32]"], &[("layout", string("NCHW"))], Err("`layout` \"NCHW\" of `nn.adaptive_max_pool3d` has no axis D")),
        ("nn.adaptive_max_pool3d", &["_"], &[], Err("waiting: AdaptiveMaxPool3D")),
    ];
    check(cases);
}

#[test]
fn upsampling3d_fast_softmax_and_mirror_pad() {
    let cases: &[Case<'_>] = &[
        ("nn.upsampling3d", &["Tensor[(1, 3, 4, 8, 8), float32]"], &[("scale_d", float(2.0)), ("scale_h", float(2.0)), ("scale_w", float(2.0))], Ok("Tensor[(1, 3, 8, 16, 16), float32]")),
        ("nn.upsampling3d", &["Tensor[(n, d, h, w, 3), float32]"], &[("scale_d", float(1.0)), ("scale_h", float(2.0)), ("scale_w", float(0.5)), ("layout", string("NDHWC"))], Ok("Tensor[(n, d, 2*h, floordiv(w + 1, 2), 3), float32]")),
        ("nn.upsampling3d", &["Tensor[(1, 3, ?, 8, 8), float32]"], &[("scale_d", float(2.0)), ("scale_h", float(1.5)), ("scale_w", float(1.0)), ("method", string("trilinear"))], Ok("Tensor[(1, 3, ?, 12, 8), float32]")),
        ("nn.upsampling3d", &["Tensor[(1, 3, 4, 8, 8), float32]"], &[("scale_d", float(2.0)), ("scale_h", float(2.0)), ("scale_w", float(2.0)), ("method", string("bilinear"))], Err("`method` of `nn.upsampling3d` must be one of \"nearest_neighbor\", \"trilinear\", found \"bilinear\"")),
        ("nn.upsampling3d", &["Tensor[(1, 3, 4, 8, 8), float32]"], &[("scale_d", float(2.0)), ("scale_h", float(2.0))], Err("`nn.upsampling3d` needs attribute `scale_w` of type `float`")),
        ("nn.fast_softmax", &["Tensor[(n, 10), float32]"], &[], Ok("Tensor[(n, 10), float32]")),
        ("nn.fast_softmax", &["Tensor[(?, 10), float16]"], &[("axis", int(0))], Ok("Tensor[(?, 10), float16]")),
        ("nn.fast_softmax", &["Tensor[(2, 10), float32]"], &[("axis", int(2))], Err("`axis` 2 is out of range for `Tensor[(2, 10), float32]` (rank 2)")),
        ("nn.mirror_pad", &["Tensor[(1, 3, 4, 4), float32]"], &[("pad_width", lists(&[&[0, 0], &[0, 0], &[1, 1], &[2, 2]]))], Ok("Tensor[(1, 3, 6, 8), float32]")),
        ("nn.mirror_pad", &["Tensor[(n, ?), float32]"], &[("pad_width", lists(&[&[0, 0], &[3, 3]])), ("mode", string("REFLECT"))], Ok("Tensor[(n, ?), float32]")),
        ("nn.mirror_pad", &["Tensor[(n, 4), float32]"], &[("pad_width", lists(&[&[1, 0], &[4, 4]]))], Ok("Tensor[(n + 1, 12), float32]")),
        ("nn.mirror_pad", &["Tensor[(2, 4), float32]"], &[("pad_width", lists(&[&[0, 0], &[4, 0]])), ("mode", string("REFLECT"))], Err("`pad_width[1]` [4, 0] of `nn.mirror_pad` reaches beyond axis 1 of size 4: \"REFLECT\" pads at most 3")),
        ("nn.mirror_pad", &["Tensor[(2, 4), float32]"], &[("pad_width", lists(&[&[0, 0]]))], Err("`pad_width` of `nn.mirror_pad` has 1 pairs, it needs 2 (the data is `Tensor[(2, 4), float32]`)")),
        ("nn.mirror_pad", &["Tensor[(2, 4), float32]"], &[("pad_width", lists(&[&[0, 0], &[-1, 0]]))], Err("`pad_width[1]` of `nn.mirror_pad` must not be negative, found [-1, 0] (the data is `Tensor[(2, 4), float32]`)")),
    ];
    check(cases);
}

#[test]
fn depth_space_and_batch_moves() {
    let cases: &[Case<'_>] = &[
        ("nn.depth_to_space", &["Tensor[(1, 16, 4, 4), float32]"], &[("block_size", int(2))], Ok("Tensor[(1, 4, 8, 8), float32]")),
        ("nn.depth_to_space", &["Tensor[(n, 4*c, h, w), float32]"], &[("block_size", int(2)), ("mode", string("CRD"))], Ok("Tensor[(n, c, 2*h, 2*w), float32]")),
        ("nn.depth_to_space", &["Tensor[(1, 4, 4, 36), float32]"], &[("block_size", int(3)), ("layout", string("NHWC"))], Ok("Tensor[(1, 12, 12, 4), float32]")),
        ("nn.depth_to_space", &["Tensor[(1, ?, 4, ?), float32]"], &[("block_size", int(2))], Ok("Tensor[(1, ?, 8, ?), float32]")),
        ("nn.depth_to_space", &["Tensor[(1, 10, 4, 4), float32]"], &[("block_size", int(2))], Err("the data's 10 channels are not divisible by `block_size`² = 4 (`nn.depth_to_space`)")),
        ("nn.depth_to_space", &["Tensor[(1, 16, 4, 4), float32]"], &[("block_size", int(0))], Err("`block_size` of `nn.depth_to_space` must be at least 1 and its square fit in 64 bits, found 0")),
        ("nn.space_to_depth", &["Tensor[(1, 8, 8, 3), float32]"], &[("block_size", int(2)), ("layout", string("NHWC"))], Ok("Tensor[(1, 4, 4, 12), float32]")),
        ("nn.space_to_depth", &["Tensor[(n, c, 2*h, ?), float32]"], &[("block_size", int(2))], Ok("Tensor[(n, 4*c, h, ?), float32]")),
        ("nn.space_to_depth", &["Tensor[(1, 3, 9, 8), float32]"], &[("block_size", int(2))], Err("the data's H (9) is not divisible by `block_size` = 2 (`nn.space_to_depth`)")),
        ("nn.space_to_batch_nd", &["Tensor[(1, 4, 6, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("paddings", lists(&[&[0, 0], &[1, 1]]))], Ok("Tensor[(4, 2, 4, 3), float32]")),
        ("nn.space_to_batch_nd", &["Tensor[(n, 2*h, ?, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("paddings", lists(&[&[0, 0], &[0, 0]]))], Ok("Tensor[(4*n, h, ?, 3), float32]")),
        ("nn.space_to_batch_nd", &["Tensor[(1, 5, 6, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("paddings", lists(&[&[0, 0], &[0, 0]]))], Err("axis 1 of the data padded to 5 is not divisible by `block_shape[0]` = 2 (`nn.space_to_batch_nd`)")),
        ("nn.space_to_batch_nd", &["Tensor[(1, 4, 6, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("paddings", lists(&[&[0, 0]]))], Err("`paddings` of `nn.space_to_batch_nd` has 1 pairs, it needs 2")),
        ("nn.space_to_batch_nd", &["Tensor[(4, 6), float32]"], &[("block_shape", ints(&[2, 2])), ("paddings", lists(&[&[0, 0], &[0, 0]]))], Err("`nn.space_to_batch_nd` with 2 block axes needs data of rank at least 3, found `Tensor[(4, 6), float32]`")),
        ("nn.batch_to_space_nd", &["Tensor[(4, 2, 4, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("crops", lists(&[&[0, 0], &[1, 1]]))], Ok("Tensor[(1, 4, 6, 3), float32]")),
        ("nn.batch_to_space_nd", &["Tensor[(4*n, h, ?, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("crops", lists(&[&[0, 1], &[0, 0]]))], Ok("Tensor[(n, 2*h - 1, ?, 3), float32]")),
        ("nn.batch_to_space_nd", &["Tensor[(6, 2, 4, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("crops", lists(&[&[0, 0], &[0, 0]]))], Err("the data's batch 6 is not divisible by the product of `block_shape`, 4 (`nn.batch_to_space_nd`)")),
        ("nn.batch_to_space_nd", &["Tensor[(4, 1, 4, 3), float32]"], &[("block_shape", ints(&[2, 2])), ("crops", lists(&[&[2, 1], &[0, 0]]))], Err("`crops[0]` of `nn.batch_to_space_nd` crops axis 1 to a negative size, -1")),
    ];
    check(cases);
}

#[test]
fn losses_and_fifo_buffer() {
    let cases: &[Case<'_>] = &[
        ("nn.nll_loss", &["Tensor[(8, 10), float32]", "Tensor[(8), int64]", "Tensor[(10), float32]"], &[("ignore_index", int(-100))], Ok("float32")),
        ("nn.nll_loss", &["Tensor[(n, c, h, w), float16]", "Tensor[(n, h, w), int32]", "_"], &[("ignore_index", int(-1)), ("reduction", string("none"))], Ok("Tensor[(n, h, w), float16]")),
        ("nn.nll_loss", &["Tensor[(?, 10), float32]", "Tensor[(4), int64]", "Tensor[(10), float32]"], &[("ignore_index", int(-100)), ("reduction", string("sum"))], Ok("float32")),
        ("nn.nll_loss", &["Tensor[(8, 10), float32]", "Tensor[(8, 10), int64]", "Tensor[(10), float32]"], &[("ignore_index", int(-100))], Err("`nn.nll_loss` expects integer targets of the predictions' shape `Tensor[(8, 10), float32]` without the class axis, found `Tensor[(8, 10), int64]`")),
        ("nn.nll_loss", &["Tensor[(8, 10), float32]", "Tensor[(8), int64]", "Tensor[(9), float32]"], &[("ignore_index", int(-100))], Err("`nn.nll_loss` expects weights with one value per class of the predictions `Tensor[(8, 10), float32]`, found `Tensor[(9), float32]`")),
        ("nn.nll_loss", &["Tensor[(8, 10), int32]", "Tensor[(8), int64]", "Tensor[(10), int32]"], &[("ignore_index", int(-100))], Err("`nn.nll_loss` expects predictions (N, C, ...) of a float dtype, found `Tensor[(8, 10), int32]`")),
        ("nn.nll_loss", &["Tensor[(8, 10), float32]", "Tensor[(8), int64]", "Tensor[(10), float32]"], &[], Err("`nn.nll_loss` needs attribute `ignore_index` of type `int`")),
        ("nn.cross_entropy", &["Tensor[(8, 10), float32]", "Tensor[(8, 10), float32]"], &[], Ok("float32")),
        ("nn.cross_entropy", &["Tensor[(n, ?), float32]", "Tensor[(n, 10), float32]"], &[], Ok("float32")),
        ("nn.cross_entropy", &["Tensor[(8, 10), float32]", "Tensor[(8, 9), float32]"], &[], Err("the targets `Tensor[(8, 9), float32]` and the predictions `Tensor[(8, 10), float32]` differ in shape")),
        ("nn.cross_entropy_with_logits", &["Tensor[(8), float32]", "Tensor[(8), float32]"], &[], Err("the predictions must be 2-D, found `Tensor[(8), float32]`")),
        ("nn.fifo_buffer", &["Tensor[(1, 2, 8), float32]", "Tensor[(1, 10, 8), float32]"], &[("axis", int(1))], Ok("Tensor[(1, 10, 8), float32]")),
        ("nn.fifo_buffer", &["Tensor[(n, 8), float32]", "Tensor[(m, 8), float32]"], &[], Ok("Tensor[(m, 8), float32]")),
        ("nn.fifo_buffer", &["Tensor[(2, ?), float32]", "Tensor[(9, 8), float32]"], &[("axis", int(-2))], Ok("Tensor[(9, 8), float32]")),
        ("nn.fifo_buffer", &["Tensor[(1, 12, 8), float32]", "Tensor[(1, 10, 8), float32]"], &[("axis", int(1))], Err("the data `Tensor[(1, 12, 8), float32]` must be shorter than the buffer `Tensor[(1, 10, 8), float32]` along axis 1")),
        ("nn.fifo_buffer", &["Tensor[(1, 2, 7), float32]", "Tensor[(1, 10, 8), float32]"], &[("axis", int(1))], Err("the data `Tensor[(1, 2, 7), float32]` and the buffer `Tensor[(1, 10, 8), float32]` differ at axis 2")),
        ("nn.fifo_buffer", &["Tensor[(1, 2), float32]", "Tensor[(1, 10), float32]"], &[("axis", int(2))], Err("`axis` 2 is out of range for the buffer `Tensor[(1, 10), float32]` (rank 2)")),
    ];
    check(cases);
}

#[test]
fn pool_gradients_check_the_output_gradient() {
    let cases: &[Case<'_>] = &[
        ("nn.max_pool2d_grad", &["Tensor[(1, 4, 4, 4), float32]", "Tensor[(1, 4, 8, 8), float32]"], &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2]))], Ok("Tensor[(1, 4, 8, 8), float32]")),
        ("nn.max_pool2d_grad", &["_", "Tensor[(n, 4, 8, 8), float32]"], &[("pool_size", ints(&[3, 3])), ("padding", ints(&[1, 1]))], Ok("Tensor[(n, 4, 8, 8), float32]")),
        ("nn.max_pool2d_grad", &["Tensor[(1, 4, 4, 4), float32]", "Tensor[(1, 4, 8, 8), float32]"], &[("pool_size", ints(&[2, 2]))], Err("the output gradient of `nn.max_pool2d_grad` is `Tensor[(1, 4, 4, 4), float32]`, but the pool's result on the data is `Tensor[(1, 4, 7, 7), float32]`")),
        ("nn.avg_pool2d_grad", &["Tensor[(1, ?, 4, 4), float32]", "Tensor[(1, 4, ?, 8), float32]"], &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2])), ("count_include_pad", common::boolean(true))], Ok("Tensor[(1, 4, ?, 8), float32]")),
        ("nn.avg_pool2d_grad", &["Tensor[(1, 4, 4, 4), float32]", "_"], &[("pool_size", ints(&[2, 2]))], Err("waiting: AvgPool2DGrad")),
    ];
    check(cases);
    // The output gradient is inferred from the data.
    check_args(&[(
        "nn.max_pool2d_grad",
        &["_", "Tensor[(n, 4, 8, 8), float32]"],
        &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2]))],
        "Tensor[(n, 4, 8, 8), float32]",
        &[
            "Tensor[(n, 4, 4, 4), float32]",
            "Tensor[(n, 4, 8, 8), float32]",
        ],
    )]);
}

#[test]
fn sparse_operators() {
    let csr = [
        "Tensor[(20), float32]",
        "Tensor[(20), int32]",
        "Tensor[(33), int32]",
    ];
    let cases: &[Case<'_>] = &[
        ("nn.sparse_dense", &["Tensor[(8, 16), float32]", csr[0], csr[1], csr[2]], &[], Ok("Tensor[(8, 32), float32]")),
        ("nn.sparse_dense", &["Tensor[(n, 64), float32]", "Tensor[(10, 4, 1), float32]", "Tensor[(10), int32]", "Tensor[(9), int32]"], &[], Ok("Tensor[(n, 32), float32]")),
        ("nn.sparse_dense", &["Tensor[(16, 8), float32]", csr[0], csr[1], "Tensor[(m), int64]"], &[("sparse_lhs", common::boolean(true))], Ok("Tensor[(m - 1, 16), float32]")),
        ("nn.sparse_dense", &["Tensor[(?, 16), float32]", "Tensor[(?), float32]", "Tensor[(?), int32]", "Tensor[(?), int32]"], &[], Ok("Tensor[(?, ?), float32]")),
        ("nn.sparse_dense", &["Tensor[(8, 16), float32]", "Tensor[(20, 2), float32]", csr[1], csr[2]], &[], Err("`nn.sparse_dense` expects the sparse data 1-D or 3-D, found `Tensor[(20, 2), float32]`")),
        ("nn.sparse_dense", &["Tensor[(8, 16), float32]", csr[0], "Tensor[(20), float32]", csr[2]], &[], Err("`nn.sparse_dense` expects the sparse indices 1-D of integers, found `Tensor[(20), float32]`")),
        ("nn.sparse_dense", &["Tensor[(8, 16), float16]", csr[0], csr[1], csr[2]], &[], Err("the sparse data `Tensor[(20), float32]` of `nn.sparse_dense` is not of the dtype of the dense matrix `Tensor[(8, 16), float16]`")),
        ("nn.sparse_dense", &["Tensor[(8, 16), float32]", "_", csr[1], csr[2]], &[], Err("waiting: SparseDense")),
        ("nn.internal.sparse_dense_padded", &["Tensor[(8, 16), float32]", csr[0], csr[1], csr[2]], &[], Ok("Tensor[(8, 32), float32]")),
        ("nn.internal.sparse_dense_padded", &["Tensor[(8, 16), float32]", csr[0], csr[1], "Tensor[(0), int32]"], &[], Err("`nn.internal.sparse_dense_padded` expects an index pointer of at least one element, found an empty one")),
        ("nn.sparse_transpose", &[csr[0], csr[1], "Tensor[(9), int32]"], &[], Ok("(Tensor[(20), float32], Tensor[(20), int32], Tensor[(9), int32])")),
        ("nn.sparse_transpose", &["Tensor[(nnz), float32]", "Tensor[(nnz), int64]", "Tensor[(?), int64]"], &[], Ok("(Tensor[(nnz), float32], Tensor[(nnz), int64], Tensor[(?), int64])")),
        ("nn.sparse_transpose", &["Tensor[(4, 5), float32]", csr[1], csr[2]], &[], Err("`nn.sparse_transpose` expects the sparse data 1-D, found `Tensor[(4, 5), float32]`")),
        ("nn.sparse_add", &["Tensor[(8, 16), float32]", csr[0], csr[1], "Tensor[(9), int32]"], &[], Ok("Tensor[(8, 16), float32]")),
        ("nn.sparse_add", &["Tensor[(n, 16), float32]", "_", "_", "Tensor[(n + 1), int32]"], &[], Ok("Tensor[(n, 16), float32]")),
        ("nn.sparse_add", &["Tensor[(8, 16), float32]", csr[0], csr[1], csr[2]], &[], Err("the index pointer `Tensor[(33), int32]` of `nn.sparse_add` does not have one more element than the rows of the dense matrix `Tensor[(8, 16), float32]`")),
        ("nn.sparse_add", &["Tensor[(8, 16), int32]", csr[0], csr[1], "Tensor[(9), int32]"], &[], Err("the sparse data `Tensor[(20), float32]` of `nn.sparse_add` is not of the dtype of the dense matrix `Tensor[(8, 16), int32]`")),
        ("nn.sparse_conv2d", &["Tensor[(1, 8, 8, 16), float32]", "Tensor[(10, 4, 1), float32]", "Tensor[(10), int32]", "Tensor[(9), int32]"], &[], Ok("Tensor[(1, 8, 8, 32), float32]")),
        ("nn.sparse_conv2d", &["Tensor[(n, 16, h, w), float32]", "Tensor[(10, 2), float32]", "Tensor[(10), int32]", "Tensor[(9), int32]"], &[("layout", string("NCHW")), ("kernel_size", ints(&[3, 3]))], Ok("Tensor[(n, 16, h, w), float32]")),
        ("nn.sparse_conv2d", &["Tensor[(1, 8, 8, 16), float32]", "Tensor[(10), float32]", "Tensor[(10), int32]", "Tensor[(9), int32]"], &[], Err("`nn.sparse_conv2d` expects the sparse data 2-D or 3-D, found `Tensor[(10), float32]`")),
        ("nn.sparse_conv2d", &["Tensor[(1, 8, 8, 16), float32]", "Tensor[(10, 4, 1), float32]", "Tensor[(10), int32]", "Tensor[(9), int32]"], &[("layout", string("NCW"))], Err("`layout` of `nn.sparse_conv2d` must be \"NHWC\" or \"NCHW\", found \"NCW\"")),
    ];
    check(cases);
}

#[test]
fn nll_loss_infers_the_weights() {
    check_args(&[(
        "nn.nll_loss",
        &["Tensor[(8, 10), float32]", "Tensor[(8), int64]", "_"],
        &[("ignore_index", int(-100))],
        "float32",
        &[
            "Tensor[(8, 10), float32]",
            "Tensor[(8), int64]",
            "Tensor[(10), float32]",
        ],
    )]);
}

/// A training-style block as TVM prints it (a PyTorch import: adaptive pooling, pixel
/// shuffles, a loss, the pool's gradient); every binding has the type TVM printed.
#[test]
fn an_nn_block_as_tvm_prints_it() {
    let src = r#"
#[version = "0.0.5"]
def @main(%x: Tensor[(2, 16, 14, 14), float32], %t: Tensor[(2), int64], %w: Tensor[(16), float32], %b: Tensor[(2, 10, 16), float32], %sd: Tensor[(20), float32], %si: Tensor[(20), int32], %sp: Tensor[(17), int32]) {
  %0 = nn.mirror_pad(%x, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]) /* ty=Tensor[(2, 16, 16, 16), float32] */;
  %1 = nn.space_to_depth(%0, block_size=2) /* ty=Tensor[(2, 64, 8, 8), float32] */;
  %2 = nn.depth_to_space(%1, block_size=2, mode="CRD") /* ty=Tensor[(2, 16, 16, 16), float32] */;
  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0]) /* ty=Tensor[(2, 16, 8, 8), float32] */;
  %4 = nn.max_pool2d_grad(%3, %2, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0]) /* ty=Tensor[(2, 16, 16, 16), float32] */;
  %5 = nn.adaptive_avg_pool2d(%4, output_size=[1, 1]) /* ty=Tensor[(2, 16, 1, 1), float32] */;
  %6 = nn.batch_flatten(%5) /* ty=Tensor[(2, 16), float32] */;
  %7 = nn.fast_softmax(%6) /* ty=Tensor[(2, 16), float32] */;
  %8 = nn.nll_loss(%7, %t, %w, reduction="none", ignore_index=-100) /* ty=Tensor[(2), float32] */;
  %9 = nn.cross_entropy_with_logits(%6, %7) /* ty=float32 */;
  %10 = nn.sparse_dense(%6, %sd, %si, %sp) /* ty=Tensor[(2, 16), float32] */;
  %11 = expand_dims(%10, axis=1) /* ty=Tensor[(2, 1, 16), float32] */;
  %12 = nn.fifo_buffer(%11, %b, axis=1) /* ty=Tensor[(2, 10, 16), float32] */;
  %13 = transpose(%x, axes=[0, 2, 3, 1]) /* ty=Tensor[(2, 14, 14, 16), float32] */;
  %14 = nn.space_to_batch_nd(%13, block_shape=[2, 2], paddings=[[0, 0], [0, 0]]) /* ty=Tensor[(8, 7, 7, 16), float32] */;
  %15 = nn.batch_to_space_nd(%14, block_shape=[2, 2], crops=[[0, 0], [0, 0]]) /* ty=Tensor[(2, 14, 14, 16), float32] */;
  (%8, %9, %12, %15)
}
"#;
    assert_eq!(check_printed(src), Ok(16));
}
