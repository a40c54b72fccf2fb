//! The operator library registers exactly TVM's operators of the library's issue, by
//! their TVM names, sorted.

use relay_core::registry;
use relay_ops as _;

#[test]
fn the_registry_holds_exactly_the_operator_library() {
    let names: Vec<&str> = registry::global()
        .unwrap()
        .ops()
        .iter()
        .map(|o| o.name)
        .collect();
    let expected = [
        "abs",
        "acos",
        "acosh",
        "add",
        "adv_index",
        "all",
        "annotation.bitpack_end",
        "annotation.bitpack_start",
        "annotation.cast_hint",
        "annotation.checkpoint",
        "annotation.compiler_begin",
        "annotation.compiler_end",
        "annotation.stop_fusion",
        "annotation.with_funcid",
        "any",
        "arange",
        "argmax",
        "argmin",
        "argsort",
        "argwhere",
        "asin",
        "asinh",
        "atan",
        "atanh",
        "bitwise_and",
        "bitwise_not",
        "bitwise_or",
        "bitwise_xor",
        "broadcast_to",
        "broadcast_to_like",
        "call_lowered",
        "cast",
        "cast_like",
        "ceil",
        "clip",
        "collapse_sum_like",
        "collapse_sum_to",
        "concatenate",
        "copy",
        "cos",
        "cosh",
        "cumprod",
        "cumsum",
        "debug",
        "device_copy",
        "dft",
        "divide",
        "dyn.broadcast_to",
        "dyn.expand_dims",
        "dyn.full",
        "dyn.image.resize2d",
        "dyn.nn.pad",
        "dyn.nn.upsampling",
        "dyn.nn.upsampling3d",
        "dyn.one_hot",
        "dyn.ones",
        "dyn.reshape",
        "dyn.sparse_to_dense",
        "dyn.squeeze",
        "dyn.strided_slice",
        "dyn.tile",
        "dyn.topk",
        "dyn.zeros",
        "einsum",
        "equal",
        "erf",
        "exp",
        "expand_dims",
        "fast_erf",
        "fast_exp",
        "fast_tanh",
        "fixed_point_multiply",
        "fixed_point_multiply_per_axis",
        "floor",
        "floor_divide",
        "floor_mod",
        "full",
        "full_like",
        "gather",
        "gather_nd",
        "greater",
        "greater_equal",
        "image.affine_grid",
        "image.crop_and_resize",
        "image.dilation2d",
        "image.grid_sample",
        "image.resize1d",
        "image.resize2d",
        "image.resize3d",
        "invert_permutation",
        "isfinite",
        "isinf",
        "isnan",
        "layout_transform",
        "left_shift",
        "less",
        "less_equal",
        "log",
        "log10",
        "log2",
        "logical_and",
        "logical_not",
        "logical_or",
        "logical_xor",
        "matrix_set_diag",
        "max",
        "maximum",
        "mean",
        "memory.alloc_storage",
        "memory.alloc_tensor",
        "memory.kill",
        "meshgrid",
        "min",
        "minimum",
        "mod",
        "multiply",
        "ndarray_size",
        "negative",
        "nn.adaptive_avg_pool1d",
        "nn.adaptive_avg_pool2d",
        "nn.adaptive_avg_pool3d",
        "nn.adaptive_max_pool1d",
        "nn.adaptive_max_pool2d",
        "nn.adaptive_max_pool3d",
        "nn.avg_pool1d",
        "nn.avg_pool2d",
        "nn.avg_pool2d_grad",
        "nn.avg_pool3d",
        "nn.batch_flatten",
        "nn.batch_matmul",
        "nn.batch_norm",
        "nn.batch_to_space_nd",
        "nn.bias_add",
        "nn.bitpack",
        "nn.bitserial_conv2d",
        "nn.bitserial_dense",
        "nn.contrib_conv2d_NCHWc",
        "nn.contrib_conv2d_gemm_weight_transform",
        "nn.contrib_conv2d_gemm_without_weight_transform",
        "nn.contrib_conv2d_winograd_nnpack_weight_transform",
        "nn.contrib_conv2d_winograd_weight_transform",
        "nn.contrib_conv2d_winograd_without_weight_transform",
        "nn.contrib_conv3d_winograd_weight_transform",
        "nn.contrib_conv3d_winograd_without_weight_transform",
        "nn.contrib_dense_pack",
        "nn.contrib_depthwise_conv2d_NCHWc",
        "nn.conv1d",
        "nn.conv1d_transpose",
        "nn.conv2d",
        "nn.conv2d_backward_weight",
        "nn.conv2d_transpose",
        "nn.conv3d",
        "nn.conv3d_transpose",
        "nn.correlation",
        "nn.cross_entropy",
        "nn.cross_entropy_with_logits",
        "nn.deformable_conv2d",
        "nn.dense",
        "nn.depth_to_space",
        "nn.dilate",
        "nn.dropout",
        "nn.fast_softmax",
        "nn.fifo_buffer",
        "nn.global_avg_pool2d",
        "nn.global_max_pool2d",
        "nn.group_norm",
        "nn.instance_norm",
        "nn.internal.sparse_dense_padded",
        "nn.l2_normalize",
        "nn.layer_norm",
        "nn.leaky_relu",
        "nn.log_softmax",
        "nn.lrn",
        "nn.matmul",
        "nn.max_pool1d",
        "nn.max_pool2d",
        "nn.max_pool2d_grad",
        "nn.max_pool3d",
        "nn.mirror_pad",
        "nn.nll_loss",
        "nn.pad",
        "nn.prelu",
        "nn.relu",
        "nn.softmax",
        "nn.space_to_batch_nd",
        "nn.space_to_depth",
        "nn.sparse_add",
        "nn.sparse_conv2d",
        "nn.sparse_dense",
        "nn.sparse_transpose",
        "nn.upsampling",
        "nn.upsampling3d",
        "not_equal",
        "on_device",
        "one_hot",
        "ones",
        "ones_like",
        "power",
        "prod",
        "qnn.abs",
        "qnn.add",
        "qnn.avg_pool2d",
        "qnn.batch_matmul",
        "qnn.concatenate",
        "qnn.contrib_dense_pack",
        "qnn.conv2d",
        "qnn.conv2d_transpose",
        "qnn.dense",
        "qnn.dequantize",
        "qnn.erf",
        "qnn.exp",
        "qnn.hardswish",
        "qnn.leaky_relu",
        "qnn.log",
        "qnn.mul",
        "qnn.quantize",
        "qnn.requantize",
        "qnn.rsqrt",
        "qnn.sigmoid",
        "qnn.simulated_dequantize",
        "qnn.simulated_quantize",
        "qnn.softmax",
        "qnn.sqrt",
        "qnn.subtract",
        "qnn.tanh",
        "random.multinomial",
        "random.normal",
        "random.threefry_generate",
        "random.threefry_split",
        "random.uniform",
        "reinterpret",
        "relay.op.annotation.simulated_quantize",
        "repeat",
        "reshape",
        "reshape_like",
        "reverse",
        "reverse_reshape",
        "reverse_sequence",
        "right_shift",
        "round",
        "rsqrt",
        "scatter_elements",
        "scatter_nd",
        "searchsorted",
        "sequence_mask",
        "shape_of",
        "sigmoid",
        "sign",
        "sin",
        "sinh",
        "slice_like",
        "sliding_window",
        "sort",
        "sparse_fill_empty_rows",
        "sparse_reshape",
        "sparse_to_dense",
        "split",
        "sqrt",
        "squeeze",
        "stack",
        "std",
        "stft",
        "strided_set",
        "strided_slice",
        "subtract",
        "sum",
        "take",
        "tan",
        "tanh",
        "tile",
        "topk",
        "transpose",
        "trilu",
        "trunc",
        "trunc_divide",
        "trunc_mod",
        "unique",
        "unravel_index",
        "variance",
        "vision.all_class_non_max_suppression",
        "vision.get_valid_counts",
        "vision.multibox_prior",
        "vision.multibox_transform_loc",
        "vision.non_max_suppression",
        "vision.proposal",
        "vision.regular_non_max_suppression",
        "vision.roi_align",
        "vision.roi_pool",
        "vision.yolo_reorg",
        "vm.invoke_tvm_op",
        "vm.reshape_tensor",
        "vm.shape_of",
        "where",
        "zeros",
        "zeros_like",
    ];
    assert_eq!(names, expected);
    assert_eq!(names.len(), 295);
}

#[test]
fn every_operator_has_a_support_level_and_documentation() {
    for op in registry::global().unwrap().ops() {
        assert!(
            (1..=11).contains(&op.level),
            "`{}` has level {}",
            op.name,
            op.level
        );
        assert!(
            !op.doc.trim().is_empty(),
            "`{}` has no documentation",
            op.name
        );
        assert!(op.relation.is_some(), "`{}` has no relation", op.name);
    }
}

#[test]
fn builders_are_found_at_the_crate_root() {
    let conv = relay_ops::nn::conv2d("x", "w")
        .strides([2, 2])
        .channels(8)
        .build();
    assert_eq!(conv.op.name, "nn.conv2d");
    assert_eq!(conv.args, ["x", "w"]);
    assert_eq!(conv.attrs.get("strides").unwrap().to_string(), "[2, 2]");
    let add = relay_ops::add("x", "y").build();
    assert!(std::ptr::eq(add.op, &relay_ops::ADD));
}

#[test]
fn an_either_attribute_takes_both_forms() {
    let sections = relay_ops::split("x", 3).build();
    assert_eq!(
        sections
            .attrs
            .get("indices_or_sections")
            .unwrap()
            .to_string(),
        "3"
    );
    let indices = relay_ops::split("x", [2, 5]).build();
    assert_eq!(
        indices
            .attrs
            .get("indices_or_sections")
            .unwrap()
            .to_string(),
        "[2, 5]"
    );
    let def = relay_core::registry::global().unwrap().op("split").unwrap();
    let bad = relay_core::Attrs::new(vec![(
        "indices_or_sections".into(),
        relay_core::AttrValue::Str("all".into()),
    )]);
    assert_eq!(
        def.attrs_for_call(&bad).unwrap_err().to_string(),
        "attribute `indices_or_sections` of `split` expects `int | [int]`, found `\"all\"`"
    );
}

/// The builders take each attribute as its Rust type, which rustdoc shows: `i64` for `int`,
/// `f64` for `float`, `bool`, `&str` for `str`, `DType` for `dtype`, the value for
/// `Option<T>`, an iterable for `[T]`, `OneOrList` for `int | [int]`. The function pointers
/// pin the signatures.
#[test]
fn builder_parameters_are_the_attributes_types() {
    use relay_core::{op::OneOrList, DType};
    use relay_ops::nn::{BatchNormBuilder, Conv2dBuilder};
    use relay_ops::{CastBuilder, ConcatenateBuilder, SplitBuilder};

    let _: fn(ConcatenateBuilder<u8>, i64) -> ConcatenateBuilder<u8> = ConcatenateBuilder::axis;
    let _: fn(BatchNormBuilder<u8>, f64) -> BatchNormBuilder<u8> = BatchNormBuilder::epsilon;
    let _: fn(BatchNormBuilder<u8>, bool) -> BatchNormBuilder<u8> = BatchNormBuilder::center;
    let _: fn(Conv2dBuilder<u8>, &str) -> Conv2dBuilder<u8> = Conv2dBuilder::data_layout;
    let _: fn(Conv2dBuilder<u8>, i64) -> Conv2dBuilder<u8> = Conv2dBuilder::channels;
    let _: fn(Conv2dBuilder<u8>, DType) -> Conv2dBuilder<u8> = Conv2dBuilder::out_dtype;
    let _: fn(u8, DType) -> CastBuilder<u8> = relay_ops::cast;
    let _: fn(u8, OneOrList<i64>) -> SplitBuilder<u8> = relay_ops::split;

    let (axis, center, layout): (i64, bool, String) = (1, false, "NHWC".into());
    let strides: Vec<i64> = vec![2, 2];
    let conv = relay_ops::nn::conv2d("x", "w")
        .strides(strides)
        .kernel_size(1..=3)
        .data_layout(&layout)
        .build();
    let norm = relay_ops::nn::batch_norm(1, 2, 3, 4, 5)
        .axis(axis)
        .center(center)
        .build();
    let shown = |attrs: &relay_core::Attrs, name: &str| attrs.get(name).unwrap().to_string();
    assert_eq!(shown(&conv.attrs, "strides"), "[2, 2]");
    assert_eq!(shown(&conv.attrs, "kernel_size"), "[1, 2, 3]");
    assert_eq!(shown(&conv.attrs, "data_layout"), "\"NHWC\"");
    assert_eq!(shown(&norm.attrs, "axis"), "1");
    assert_eq!(shown(&norm.attrs, "center"), "False");
}
