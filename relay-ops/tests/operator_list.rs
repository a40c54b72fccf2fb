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
        "divide",
        "equal",
        "erf",
        "exp",
        "expand_dims",
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
        "max",
        "maximum",
        "mean",
        "memory.alloc_storage",
        "memory.alloc_tensor",
        "memory.kill",
        "min",
        "minimum",
        "mod",
        "multiply",
        "ndarray_size",
        "negative",
        "nn.avg_pool1d",
        "nn.avg_pool2d",
        "nn.avg_pool3d",
        "nn.batch_flatten",
        "nn.batch_matmul",
        "nn.batch_norm",
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
        "nn.deformable_conv2d",
        "nn.dense",
        "nn.dilate",
        "nn.dropout",
        "nn.global_avg_pool2d",
        "nn.global_max_pool2d",
        "nn.group_norm",
        "nn.instance_norm",
        "nn.l2_normalize",
        "nn.layer_norm",
        "nn.leaky_relu",
        "nn.log_softmax",
        "nn.lrn",
        "nn.matmul",
        "nn.max_pool1d",
        "nn.max_pool2d",
        "nn.max_pool3d",
        "nn.pad",
        "nn.prelu",
        "nn.relu",
        "nn.softmax",
        "nn.upsampling",
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
        "reinterpret",
        "relay.op.annotation.simulated_quantize",
        "repeat",
        "reshape",
        "reshape_like",
        "reverse",
        "reverse_reshape",
        "right_shift",
        "round",
        "rsqrt",
        "shape_of",
        "sigmoid",
        "sign",
        "sin",
        "sinh",
        "slice_like",
        "sort",
        "split",
        "sqrt",
        "squeeze",
        "stack",
        "std",
        "strided_slice",
        "subtract",
        "sum",
        "take",
        "tan",
        "tanh",
        "tile",
        "topk",
        "transpose",
        "trunc",
        "trunc_divide",
        "trunc_mod",
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
    assert_eq!(names.len(), 226);
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
