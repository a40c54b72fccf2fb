//! The dynamic operators, `dyn.*`: the result's rank from the static length of a shape
//! tensor (or the data's rank), its run-time dimensions `?`; static, symbolic and `?`
//! inputs, waiting on unknowns, an error per operator; and a dynamic-shape program as
//! TVM prints it, each binding of the type TVM gives it.

mod common;
use common::printed::check_printed;
use common::{check, check_op, int, ints, string, Case};

#[test]
fn dyn_reshape_has_the_rank_of_the_new_shape() {
    check_op(
        "dyn.reshape",
        &[
            (&["Tensor[(2, 3, 4), float32]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?), float32]")),
            (&["Tensor[(n, 3), float16]", "Tensor[(3), int32]"], &[], Ok("Tensor[(?, ?, ?), float16]")),
            (&["Tensor[(?, ?), int8]", "Tensor[(1), int64]"], &[("newshape", ints(&[])), ("allowzero", common::boolean(true))], Ok("Tensor[(?), int8]")),
            (&["Tensor[(2, 3), float32]", "Tensor[(0), int64]"], &[], Ok("float32")),
            (&["_", "Tensor[(2), int64]"], &[], Err("waiting: DynamicReshape")),
            (&["Tensor[(2, 3), float32]", "_"], &[], Err("waiting: DynamicReshape")),
            (&["Tensor[(2, 3), float32]", "Tensor[(?), int64]"], &[], Err("`dyn.reshape` needs the new shape of a static length (the rank of its result), found `Tensor[(?), int64]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(n), int64]"], &[], Err("`dyn.reshape` needs the new shape of a static length (the rank of its result), found `Tensor[(n), int64]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(2, 1), int64]"], &[], Err("`dyn.reshape` expects the new shape as a 1-D tensor of integers, found `Tensor[(2, 1), int64]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(2), float32]"], &[], Err("`dyn.reshape` expects the new shape as a 1-D tensor of integers, found `Tensor[(2), float32]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(100000), int64]"], &[], Err("the new shape of `dyn.reshape` has 100000 elements: a rank must be 0 to 65536")),
        ],
    );
}

#[test]
fn dyn_tile_broadcast_to_and_squeeze() {
    let cases: &[Case<'_>] = &[
        ("dyn.tile", &["Tensor[(2, 3), float32]", "Tensor[(3), int32]"], &[], Ok("Tensor[(?, ?, ?), float32]")),
        ("dyn.tile", &["Tensor[(n, 3, 4), float32]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?, ?), float32]")),
        ("dyn.tile", &["Tensor[(?), float32]", "Tensor[(1), int64]"], &[], Ok("Tensor[(?), float32]")),
        ("dyn.tile", &["_", "Tensor[(1), int64]"], &[], Err("waiting: DynamicTile")),
        ("dyn.tile", &["Tensor[(2), float32]", "Tensor[(?), int64]"], &[], Err("`dyn.tile` needs the repetitions of a static length (the rank of its result), found `Tensor[(?), int64]`")),
        ("dyn.broadcast_to", &["Tensor[(3, 1), float32]", "Tensor[(3), int64]"], &[], Ok("Tensor[(?, ?, ?), float32]")),
        ("dyn.broadcast_to", &["Tensor[(n), float32]", "Tensor[(2), int64]"], &[("shape", relay_core::AttrValue::None)], Ok("Tensor[(?, ?), float32]")),
        ("dyn.broadcast_to", &["Tensor[(?, ?), float32]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?), float32]")),
        ("dyn.broadcast_to", &["Tensor[(2, 3, 4), float32]", "Tensor[(2), int64]"], &[], Err("`dyn.broadcast_to` cannot broadcast `Tensor[(2, 3, 4), float32]` (rank 3) to a shape of 2 dimensions")),
        ("dyn.broadcast_to", &["_", "Tensor[(2), int64]"], &[], Err("waiting: DynamicBroadCastTo")),
        ("dyn.squeeze", &["Tensor[(1, 3, 1), float32]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?), float32]")),
        ("dyn.squeeze", &["Tensor[(n, 1), float32]", "Tensor[(1), int32]"], &[], Ok("Tensor[(?), float32]")),
        ("dyn.squeeze", &["Tensor[(?, ?), float32]", "Tensor[(0), int64]"], &[], Ok("Tensor[(?, ?), float32]")),
        ("dyn.squeeze", &["Tensor[(1, 1), float32]", "Tensor[(3), int64]"], &[], Err("`dyn.squeeze` cannot squeeze 3 axes of `Tensor[(1, 1), float32]`: it has rank 2")),
    ];
    check(cases);
}

#[test]
fn dyn_zeros_ones_and_full() {
    let cases: &[Case<'_>] = &[
        ("dyn.zeros", &["Tensor[(2), int64]"], &[("dtype", string("float32"))], Ok("Tensor[(?, ?), float32]")),
        ("dyn.zeros", &["Tensor[(0), int64]"], &[("dtype", string("int8"))], Ok("int8")),
        ("dyn.zeros", &["Tensor[(2), int64]"], &[], Err("`dtype` of `dyn.zeros` must be set: the unset dtype (TVM's default) is no tensor's dtype")),
        ("dyn.zeros", &["_"], &[("dtype", string("float32"))], Err("waiting: DynamicZeros")),
        ("dyn.ones", &["Tensor[(3), int32]"], &[("dtype", string("int8"))], Ok("Tensor[(?, ?, ?), int8]")),
        ("dyn.ones", &["Tensor[(n), int32]"], &[("dtype", string("int8"))], Err("`dyn.ones` needs the shape of a static length (the rank of its result), found `Tensor[(n), int32]`")),
        ("dyn.full", &["float32", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?), float32]")),
        ("dyn.full", &["float32", "Tensor[(1), int64]"], &[("dtype", string("float16"))], Ok("Tensor[(?), float16]")),
        ("dyn.full", &["_", "Tensor[(1), int64]"], &[("dtype", string("int32"))], Ok("Tensor[(?), int32]")),
        ("dyn.full", &["_", "Tensor[(1), int64]"], &[], Err("waiting: DynamicFull")),
        ("dyn.full", &["Tensor[(1), float32]", "Tensor[(2), int64]"], &[], Err("`dyn.full` expects the fill value as a scalar, found `Tensor[(1), float32]`")),
    ];
    check(cases);
}

#[test]
fn dyn_expand_dims_and_one_hot() {
    let cases: &[Case<'_>] = &[
        (
            "dyn.expand_dims",
            &["Tensor[(2, 3), float32]", "int32"],
            &[],
            Ok("Tensor[(?, ?, ?), float32]"),
        ),
        (
            "dyn.expand_dims",
            &["Tensor[(n), float32]", "int64"],
            &[("num_newaxis", int(2))],
            Ok("Tensor[(?, ?, ?), float32]"),
        ),
        (
            "dyn.expand_dims",
            &["Tensor[(?), float32]", "_"],
            &[("num_newaxis", int(0))],
            Ok("Tensor[(?), float32]"),
        ),
        (
            "dyn.expand_dims",
            &["Tensor[(2), float32]", "Tensor[(1), int32]"],
            &[],
            Err("`dyn.expand_dims` expects the axis as a scalar, found `Tensor[(1), int32]`"),
        ),
        (
            "dyn.expand_dims",
            &["Tensor[(2), float32]", "float32"],
            &[],
            Err("`dyn.expand_dims` expects the axis as an integer scalar, found `float32`"),
        ),
        (
            "dyn.expand_dims",
            &["Tensor[(2), float32]", "int32"],
            &[("num_newaxis", int(-1))],
            Err("`num_newaxis` of `dyn.expand_dims` must be 0 to 65536, found -1"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(5), int32]", "float32", "float32", "int32"],
            &[],
            Ok("Tensor[(5, ?), float32]"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(n, 3), int64]", "_", "_", "int32"],
            &[("axis", int(0)), ("dtype", string("int8"))],
            Ok("Tensor[(?, n, 3), int8]"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(?), int32]", "float16", "_", "int32"],
            &[("axis", int(-2))],
            Ok("Tensor[(?, ?), float16]"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(5), float32]", "float32", "float32", "int32"],
            &[],
            Err("`dyn.one_hot` needs integer indices, found `Tensor[(5), float32]`"),
        ),
        (
            "dyn.one_hot",
            &[
                "Tensor[(5), int32]",
                "float32",
                "float32",
                "Tensor[(2), int32]",
            ],
            &[],
            Err("`dyn.one_hot` expects the depth as a scalar, found `Tensor[(2), int32]`"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(5), int32]", "float32", "float32", "int32"],
            &[("axis", int(3))],
            Err("`axis` 3 is out of range for inserting into `Tensor[(5), int32]` (from -2 to 1)"),
        ),
        (
            "dyn.one_hot",
            &["Tensor[(5), int32]", "_", "_", "int32"],
            &[],
            Err("waiting: DynOneHot"),
        ),
    ];
    check(cases);
}

#[test]
fn dyn_one_hot_gives_its_values_the_dtype() {
    let (out, args) = common::infer_all(
        "dyn.one_hot",
        &["Tensor[(5), int32]", "_", "_", "int32"],
        &[("dtype", string("float32"))],
    )
    .unwrap();
    assert_eq!(out, "Tensor[(5, ?), float32]");
    assert_eq!(args[1..3], ["float32", "float32"]);
}

#[test]
fn dyn_sparse_to_dense() {
    check_op(
        "dyn.sparse_to_dense",
        &[
            (&["Tensor[(4, 2), int32]", "Tensor[(4), float32]", "float32", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?), float32]")),
            (&["Tensor[(n), int64]", "Tensor[(n), int8]", "int8", "Tensor[(1), int64]"], &[], Ok("Tensor[(?), int8]")),
            (&["int32", "float32", "_", "Tensor[(3), int32]"], &[], Ok("Tensor[(?, ?, ?), float32]")),
            (&["Tensor[(4, 2), float32]", "Tensor[(4), float32]", "float32", "Tensor[(2), int64]"], &[], Err("`dyn.sparse_to_dense` expects the sparse indices as integers of rank 0, 1 or 2, found `Tensor[(4, 2), float32]`")),
            (&["Tensor[(4, 2), int32]", "Tensor[(4, 1), float32]", "float32", "Tensor[(2), int64]"], &[], Err("`dyn.sparse_to_dense` expects the sparse values of rank 0 or 1, found `Tensor[(4, 1), float32]`")),
            (&["Tensor[(4, 2), int32]", "Tensor[(4), float32]", "Tensor[(1), float32]", "Tensor[(2), int64]"], &[], Err("`dyn.sparse_to_dense` expects the default value as a scalar, found `Tensor[(1), float32]`")),
            (&["Tensor[(4, 2), int32]", "Tensor[(4), float32]", "int32", "Tensor[(2), int64]"], &[], Err("the default value `int32` of `dyn.sparse_to_dense` is not of the dtype of the sparse values `Tensor[(4), float32]`")),
            (&["Tensor[(4, 2), int32]", "_", "float32", "Tensor[(2), int64]"], &[], Err("waiting: DynSparseToDense")),
        ],
    );
}

#[test]
fn dyn_strided_slice_keeps_the_axes_it_does_not_slice() {
    check_op(
        "dyn.strided_slice",
        &[
            (&["Tensor[(8, 6, 4), float32]", "Tensor[(2), int64]", "Tensor[(2), int64]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?, 4), float32]")),
            (&["Tensor[(n, m), float32]", "Tensor[(1), int32]", "Tensor[(1), int32]", "Tensor[(1), int32]"], &[("slice_mode", string("size"))], Ok("Tensor[(?, m), float32]")),
            (&["Tensor[(?, 3), float32]", "Tensor[(2), int64]", "_", "_"], &[], Ok("Tensor[(?, ?), float32]")),
            (&["Tensor[(8, 6), float32]", "Tensor[(3), int64]", "Tensor[(3), int64]", "Tensor[(3), int64]"], &[], Err("`begin` of `dyn.strided_slice` has 3 elements, more than the rank of `Tensor[(8, 6), float32]`")),
            (&["Tensor[(8, 6), float32]", "Tensor[(2), int64]", "Tensor[(1), int64]", "Tensor[(2), int64]"], &[], Err("`end` of `dyn.strided_slice` has 1 elements, `begin` has 2")),
            (&["Tensor[(8, 6), float32]", "Tensor[(2), int64]", "Tensor[(2), int64]", "Tensor[(2), int64]"], &[("slice_mode", string("step"))], Err("`slice_mode` of `dyn.strided_slice` must be \"end\" or \"size\", found \"step\"")),
            (&["Tensor[(8, 6), float32]", "_", "Tensor[(2), int64]", "Tensor[(2), int64]"], &[], Err("waiting: DynStridedSlice")),
        ],
    );
}

#[test]
fn dyn_topk_leaves_the_axis_to_run_time() {
    check_op(
        "dyn.topk",
        &[
            (&["Tensor[(4, 10), float32]", "int32"], &[], Ok("(Tensor[(4, ?), float32], Tensor[(4, ?), int32])")),
            (&["Tensor[(n, 10), float32]", "Tensor[(1), int64]"], &[("axis", int(0)), ("ret_type", string("values"))], Ok("Tensor[(?, 10), float32]")),
            (&["Tensor[(?, 10), float32]", "_"], &[("ret_type", string("indices")), ("dtype", string("int64"))], Ok("Tensor[(?, ?), int64]")),
            (&["Tensor[(4, 10), float32]", "Tensor[(2), int32]"], &[], Err("`dyn.topk` expects `k` as a scalar or a tensor of shape (1), found `Tensor[(2), int32]`")),
            (&["Tensor[(4, 10), float32]", "int32"], &[("axis", int(2))], Err("`axis` 2 is out of range for `Tensor[(4, 10), float32]` (rank 2)")),
            (&["Tensor[(4, 10), float32]", "int32"], &[("ret_type", string("all"))], Err("`ret_type` of `dyn.topk` must be \"both\", \"values\" or \"indices\", found \"all\"")),
        ],
    );
}

#[test]
fn dyn_resize2d_and_upsampling_leave_the_spatial_axes_to_run_time() {
    let cases: &[Case<'_>] = &[
        ("dyn.image.resize2d", &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(2), int64]", "Tensor[(4), float32]"], &[], Ok("Tensor[(1, 3, ?, ?), float32]")),
        ("dyn.image.resize2d", &["Tensor[(n, 8, 8, 3), float32]", "Tensor[(2), int32]", "_"], &[("layout", string("NHWC")), ("out_dtype", string("float16"))], Ok("Tensor[(n, ?, ?, 3), float16]")),
        ("dyn.image.resize2d", &["Tensor[(?, 2, 8, 8, 16), float32]", "_", "_"], &[("layout", string("NCHW16c")), ("method", string("cubic"))], Ok("Tensor[(?, 2, ?, ?, 16), float32]")),
        ("dyn.image.resize2d", &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(3), int64]", "Tensor[(4), float32]"], &[], Err("`dyn.image.resize2d` expects the size as a tensor of shape (2), found `Tensor[(3), int64]`")),
        ("dyn.image.resize2d", &["Tensor[(1, 3, 8), float32]", "Tensor[(2), int64]", "Tensor[(4), float32]"], &[], Err("`dyn.image.resize2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 3, 8), float32]`")),
        ("dyn.image.resize2d", &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(2), int64]", "Tensor[(4), float32]"], &[("method", string("area"))], Err("`method` of `dyn.image.resize2d` must be one of \"linear\", \"nearest_neighbor\", \"cubic\", found \"area\"")),
        ("dyn.nn.upsampling", &["Tensor[(1, 3, 16, 16), float32]", "float32", "float32"], &[], Ok("Tensor[(1, 3, ?, ?), float32]")),
        ("dyn.nn.upsampling", &["Tensor[(n, 16, 16, 3), float32]", "_", "_"], &[("layout", string("NHWC"))], Ok("Tensor[(n, ?, ?, 3), float32]")),
        ("dyn.nn.upsampling", &["Tensor[(1, 3, 16, 16), float32]", "Tensor[(2), float32]", "float32"], &[], Err("`dyn.nn.upsampling` expects `scale_h` as a scalar, found `Tensor[(2), float32]`")),
        ("dyn.nn.upsampling", &["Tensor[(1, 3, 16, 16), float32]", "float32", "float32"], &[("layout", string("NCW"))], Err("`layout` \"NCW\" is not supported: it must order the axes of NCHW, each possibly packed by a factor")),
        ("dyn.nn.upsampling3d", &["Tensor[(1, 3, 4, 8, 8), float32]", "float32", "float32", "float32"], &[], Ok("Tensor[(1, 3, ?, ?, ?), float32]")),
        ("dyn.nn.upsampling3d", &["Tensor[(?, 4, 8, 8, 3), float32]", "_", "_", "_"], &[("layout", string("NDHWC")), ("method", string("trilinear"))], Ok("Tensor[(?, ?, ?, ?, 3), float32]")),
        ("dyn.nn.upsampling3d", &["Tensor[(1, 3, 8, 8), float32]", "float32", "float32", "float32"], &[], Err("`dyn.nn.upsampling3d` expects data of rank 5 (layout NCDHW), found `Tensor[(1, 3, 8, 8), float32]`")),
    ];
    check(cases);
}

#[test]
fn dyn_pad_keeps_the_rank() {
    check_op(
        "dyn.nn.pad",
        &[
            (&["Tensor[(1, 3, 4, 4), float32]", "Tensor[(4, 2), int64]", "float32"], &[], Ok("Tensor[(?, ?, ?, ?), float32]")),
            (&["Tensor[(n, 3), float32]", "Tensor[(?, 2), int32]", "_"], &[("pad_mode", string("edge"))], Ok("Tensor[(?, ?), float32]")),
            (&["Tensor[(2, 3), float32]", "Tensor[(3, 2), int64]", "float32"], &[], Err("`dyn.nn.pad` expects the pad widths as integers of shape (2, 2), one pair per axis of `Tensor[(2, 3), float32]`, found `Tensor[(3, 2), int64]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(2, 2), int64]", "Tensor[(2), float32]"], &[], Err("`dyn.nn.pad` expects the pad value as a scalar, found `Tensor[(2), float32]`")),
            (&["Tensor[(2, 3), float32]", "Tensor[(2, 2), int64]", "float32"], &[("pad_mode", string("wrap"))], Err("`pad_mode` of `dyn.nn.pad` must be \"constant\", \"edge\" or \"reflect\", found \"wrap\"")),
        ],
    );
}

/// A dynamic-shape block as TVM prints it (an ONNX import: the shapes come from
/// `shape_of` and arithmetic on shape tensors); every binding has the type TVM printed.
#[test]
fn a_dynamic_shape_block_as_tvm_prints_it() {
    let src = r#"
#[version = "0.0.5"]
def @main(%x: Tensor[(?, 3, 4), float32], %y: Tensor[(2, 12), float32], %begin: Tensor[(2), int64], %end: Tensor[(2), int64], %strides: Tensor[(2), int64], %k: int32, %pads: Tensor[(3, 2), int64], %img: Tensor[(1, 3, 8, 8), float32], %size: Tensor[(2), int64], %roi: Tensor[(4), float32], %idx: Tensor[(5), int32], %depth: int32) {
  %0 = shape_of(%y, dtype="int64") /* ty=Tensor[(2), int64] */;
  %1 = dyn.reshape(%x, %0, newshape=[]) /* ty=Tensor[(?, ?), float32] */;
  %2 = shape_of(%1, dtype="int64") /* ty=Tensor[(2), int64] */;
  %3 = (%2, %0) /* ty=(Tensor[(2), int64], Tensor[(2), int64]) */;
  %4 = concatenate(%3) /* ty=Tensor[(4), int64] */;
  %5 = strided_slice(%4, begin=[1], end=[4], strides=[1], axes=None) /* ty=Tensor[(3), int64] */;
  %6 = dyn.broadcast_to(%1, %5, shape=None) /* ty=Tensor[(?, ?, ?), float32] */;
  %7 = dyn.strided_slice(%6, %begin, %end, %strides, begin=None, end=None, strides=None, axes=None) /* ty=Tensor[(?, ?, ?), float32] */;
  %8 = dyn.zeros(%5, shape=None, dtype="float32") /* ty=Tensor[(?, ?, ?), float32] */;
  %9 = add(%7, %8) /* ty=Tensor[(?, ?, ?), float32] */;
  %10 = dyn.nn.pad(%9, %pads, 0f, pad_width=[]) /* ty=Tensor[(?, ?, ?), float32] */;
  %11 = dyn.full(1f, %0, shape=None, dtype="float32") /* ty=Tensor[(?, ?), float32] */;
  %12 = dyn.tile(%11, %0, reps=[]) /* ty=Tensor[(?, ?), float32] */;
  %13 = dyn.topk(%12, %k, k=None, dtype="int32") /* ty=(Tensor[(?, ?), float32], Tensor[(?, ?), int32]) */;
  %14 = %13.0 /* ty=Tensor[(?, ?), float32] */;
  %15 = dyn.expand_dims(%14, %k, num_newaxis=1) /* ty=Tensor[(?, ?, ?), float32] */;
  %16 = dyn.squeeze(%15, %0) /* ty=Tensor[(?), float32] */;
  %17 = dyn.image.resize2d(%img, %size, %roi, rounding_method="", out_dtype="") /* ty=Tensor[(1, 3, ?, ?), float32] */;
  %18 = dyn.one_hot(%idx, 1f, 0f, %depth, depth=1, axis=-1, dtype="float32") /* ty=Tensor[(5, ?), float32] */;
  %19 = dyn.nn.upsampling(%17, 2f, 2f, scale_h=0f, scale_w=0f) /* ty=Tensor[(1, 3, ?, ?), float32] */;
  (%10, %16, %18, %19)
}
"#;
    assert_eq!(check_printed(src), Ok(20));
}

/// The operator builders live under `relay_ops::r#dyn`.
#[test]
fn the_dyn_builders_build_calls() {
    let call = relay_ops::r#dyn::reshape("x", "s").build();
    assert_eq!(call.op.name, "dyn.reshape");
    assert_eq!(call.args, ["x", "s"]);
    let pad = relay_ops::r#dyn::nn::pad("x", "w", "v").build();
    assert_eq!(pad.op.name, "dyn.nn.pad");
}
