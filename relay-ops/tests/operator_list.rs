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
        "floor",
        "floor_divide",
        "floor_mod",
        "full",
        "full_like",
        "gather",
        "gather_nd",
        "greater",
        "greater_equal",
        "invert_permutation",
        "isfinite",
        "isinf",
        "isnan",
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
        "nn.conv1d",
        "nn.conv1d_transpose",
        "nn.conv2d",
        "nn.conv2d_transpose",
        "nn.conv3d",
        "nn.conv3d_transpose",
        "nn.cross_entropy",
        "nn.cross_entropy_with_logits",
        "nn.dense",
        "nn.depth_to_space",
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
        "one_hot",
        "ones",
        "ones_like",
        "power",
        "prod",
        "random.multinomial",
        "random.normal",
        "random.threefry_generate",
        "random.threefry_split",
        "random.uniform",
        "reinterpret",
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
        "where",
        "zeros",
        "zeros_like",
    ];
    assert_eq!(names, expected);
    assert_eq!(names.len(), 213);
}

#[test]
fn every_operator_has_a_support_level_and_documentation() {
    for op in registry::global().unwrap().ops() {
        assert!(
            (1..=10).contains(&op.level),
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
