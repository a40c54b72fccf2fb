//! The quantized operators (`qnn.*`), the fixed-point multiplications and
//! `relay.op.annotation.simulated_quantize`: exact result types and errors, table-driven,
//! for every operator: static, symbolic (`n`) and `?` inputs, the backward inference of
//! scalar scales and zero points, and errors with their messages; and a quantized
//! convolution block as TVM prints it, with each binding's type as TVM gives it.

mod common;
use common::{boolean, check_args, check_op, check_with_bindings, int, ints, string};
use relay_core::AttrValue;
use relay_ops::prelude::Prelude;

const F32: &str = "float32";
const I32: &str = "int32";

/// `out_dtype="int32"`.
fn out32() -> (&'static str, AttrValue) {
    ("out_dtype", string("int32"))
}

fn f(v: f64) -> AttrValue {
    AttrValue::Float(v)
}

#[test]
fn quantize() {
    check_op(
        "qnn.quantize",
        &[
            (
                &["Tensor[(2, 3), float32]", F32, I32],
                &[("out_dtype", string("int8"))],
                Ok("Tensor[(2, 3), int8]"),
            ),
            // Per channel along the last axis (the default `axis`).
            (
                &["Tensor[(n, 3), float32]", "Tensor[(3), float32]", "Tensor[(3), int32]"],
                &[("out_dtype", string("uint8"))],
                Ok("Tensor[(n, 3), uint8]"),
            ),
            (
                &["Tensor[(?, 3), float32]", F32, I32],
                &[("out_dtype", string("int16"))],
                Ok("Tensor[(?, 3), int16]"),
            ),
            // A `?` channel count accepts any vector (`?` is checked at run time).
            (
                &["Tensor[(2, ?), float32]", "Tensor[(5), float32]", I32],
                &[("out_dtype", string("int8"))],
                Ok("Tensor[(2, ?), int8]"),
            ),
            // Scalars: `axis` is still checked (TVM reads it only for per-channel
            // parameters).
            (
                &["Tensor[(2, 3), float32]", F32, I32],
                &[("out_dtype", string("int8")), ("axis", int(7))],
                Err("`axis` 7 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
            ),
            // A scale that could be a scalar or a vector is waited for.
            (
                &["Tensor[(2, 3), float32]", "_", I32],
                &[("out_dtype", string("int8"))],
                Err("waiting: Quantize"),
            ),
            (
                &["Tensor[(2, 3), float32]", "Tensor[(3), float32]", I32],
                &[("out_dtype", string("int8")), ("axis", int(0))],
                Err("`output_scale` of `qnn.quantize` has 3 values, one per channel, but the data has 2 channels along `axis` 0"),
            ),
            (
                &["Tensor[(2, 3), float32]", "Tensor[(3), float32]", I32],
                &[("out_dtype", string("int8")), ("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
            ),
            (
                &["Tensor[(2, 3), int8]", F32, I32],
                &[("out_dtype", string("int8"))],
                Err("the data of `qnn.quantize` must be float32, found `Tensor[(2, 3), int8]`"),
            ),
            (
                &["Tensor[(2, 3), float32]", F32, I32],
                &[("out_dtype", string("float16"))],
                Err("`out_dtype` of `qnn.quantize` must be int8, uint8, int16, uint16 or int32, found float16"),
            ),
            (
                &["Tensor[(2, 3), float32]", I32, I32],
                &[("out_dtype", string("int8"))],
                Err("`output_scale` of `qnn.quantize` must be a float32 scalar or a vector of one value per channel, found `int32`"),
            ),
            (
                &["Tensor[(2, 3), float32]", F32, "Tensor[(2, 3), int32]"],
                &[("out_dtype", string("int8"))],
                Err("`output_zero_point` of `qnn.quantize` must be an int32 scalar or a vector of one value per channel, found `Tensor[(2, 3), int32]`"),
            ),
            (
                &["Tensor[(2, 3), float32]", F32, I32],
                &[],
                Err("`qnn.quantize` needs attribute `out_dtype` of type `dtype`"),
            ),
        ],
    );
}

#[test]
fn dequantize() {
    check_op(
        "qnn.dequantize",
        &[
            // `out_dtype` unset is `float32`.
            (
                &["Tensor[(1, 16, 16, 3), int8]", F32, I32],
                &[],
                Ok("Tensor[(1, 16, 16, 3), float32]"),
            ),
            (
                &["Tensor[(n, 4), uint8]", "Tensor[(4), float32]", "Tensor[(4), int32]"],
                &[("out_dtype", string("float16"))],
                Ok("Tensor[(n, 4), float16]"),
            ),
            (
                &["Tensor[(?, 4), int32]", F32, I32],
                &[],
                Ok("Tensor[(?, 4), float32]"),
            ),
            // A vector of one value stands for every channel.
            (
                &["Tensor[(2, 3), int8]", "Tensor[(1), float32]", "Tensor[(1), int32]"],
                &[("axis", int(0))],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(2, 3), int8]", "Tensor[(2), float32]", I32],
                &[("axis", int(0))],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(2, 3), int8]", "Tensor[(2), float32]", I32],
                &[],
                Err("`input_scale` of `qnn.dequantize` has 2 values, one per channel, but the data has 3 channels along `axis` -1"),
            ),
            (
                &["Tensor[(2, 3), float32]", F32, I32],
                &[],
                Err("the data of `qnn.dequantize` must be int8, uint8, int16, uint16 or int32, found `Tensor[(2, 3), float32]`"),
            ),
            (
                &["Tensor[(2, 3), int8]", F32, I32],
                &[("out_dtype", string("int32"))],
                Err("`out_dtype` of `qnn.dequantize` must be float16 or float32, found int32"),
            ),
        ],
    );
}

#[test]
fn requantize() {
    check_op(
        "qnn.requantize",
        &[
            (
                &["Tensor[(1, 64, 35, 35), int32]", F32, I32, F32, I32],
                &[("axis", int(1)), ("out_dtype", string("uint8"))],
                Ok("Tensor[(1, 64, 35, 35), uint8]"),
            ),
            (
                &["Tensor[(n, 16), int32]", "Tensor[(16), float32]", "Tensor[(16), int32]", F32, I32],
                &[("out_dtype", string("int8")), ("rounding", string("TONEAREST"))],
                Ok("Tensor[(n, 16), int8]"),
            ),
            (
                &["Tensor[(?, 16), int64]", F32, I32, F32, I32],
                &[("out_dtype", string("int16")), ("compute_dtype", string("float64"))],
                Ok("Tensor[(?, 16), int16]"),
            ),
            (
                &["Tensor[(2, 3), int32]", F32, I32, F32, I32],
                &[],
                Err("`out_dtype` of `qnn.requantize` must be set to int8, uint8, int16 or int32"),
            ),
            // `axis` is checked even for scalars, as TVM does.
            (
                &["Tensor[(2, 3), int32]", F32, I32, F32, I32],
                &[("axis", int(2)), ("out_dtype", string("int8"))],
                Err("`axis` 2 is out of range for `Tensor[(2, 3), int32]` (rank 2)"),
            ),
            (
                &["Tensor[(2, 3), int32]", F32, I32, "Tensor[(3), float32]", I32],
                &[("out_dtype", string("int8"))],
                Err("`output_scale` of `qnn.requantize` must be a float32 scalar, found `Tensor[(3), float32]`"),
            ),
            (
                &["Tensor[(2, 3), int32]", F32, I32, F32, I32],
                &[("out_dtype", string("int8")), ("rounding", string("DOWN"))],
                Err("`rounding` of `qnn.requantize` must be \"None\", \"UPWARD\" or \"TONEAREST\", found \"DOWN\""),
            ),
            (
                &["Tensor[(2, 3), float32]", F32, I32, F32, I32],
                &[("out_dtype", string("int8"))],
                Err("the data of `qnn.requantize` must be int8, uint8, int16, int32 or int64, found `Tensor[(2, 3), float32]`"),
            ),
        ],
    );
}

#[test]
fn scalar_parameters_are_inferred_backward() {
    check_args(&[
        (
            "qnn.requantize",
            &["Tensor[(2, 3), int32]", F32, I32, "_", "_"],
            &[("out_dtype", string("int8"))],
            "Tensor[(2, 3), int8]",
            &["Tensor[(2, 3), int32]", F32, I32, F32, I32],
        ),
        (
            "qnn.conv2d",
            &[
                "Tensor[(1, 3, 8, 8), int8]",
                "Tensor[(4, 3, 3, 3), int8]",
                "_",
                I32,
                "_",
                F32,
            ],
            &[("out_dtype", string("int32"))],
            "Tensor[(1, 4, 6, 6), int32]",
            &[
                "Tensor[(1, 3, 8, 8), int8]",
                "Tensor[(4, 3, 3, 3), int8]",
                I32,
                I32,
                F32,
                F32,
            ],
        ),
        (
            "qnn.tanh",
            &["Tensor[(n, 2), int8]", "_", "_", "_", "_"],
            &[],
            "Tensor[(n, 2), int8]",
            &["Tensor[(n, 2), int8]", F32, I32, F32, I32],
        ),
        (
            "qnn.concatenate",
            &[
                "(Tensor[(2, 3), uint8], Tensor[(4, 3), uint8])",
                "_",
                "_",
                "_",
                "_",
            ],
            &[],
            "Tensor[(6, 3), uint8]",
            &[
                "(Tensor[(2, 3), uint8], Tensor[(4, 3), uint8])",
                "(float32, float32)",
                "(int32, int32)",
                F32,
                I32,
            ],
        ),
        (
            "qnn.simulated_quantize",
            &["Tensor[(4, 3), float32]", "_", F32, I32],
            &[],
            "Tensor[(4, 3), float32]",
            &["Tensor[(4, 3), float32]", I32, F32, I32],
        ),
        (
            "relay.op.annotation.simulated_quantize",
            &["Tensor[(n, 8), float32]", "_", "_", "_"],
            &[("kind", int(1))],
            "Tensor[(n, 8), float32]",
            &["Tensor[(n, 8), float32]", F32, F32, F32],
        ),
        (
            "fixed_point_multiply_per_axis",
            &["Tensor[(n, 4, 2), int32]", "_", "_", "_"],
            &[("axes", ints(&[1, 2]))],
            "Tensor[(n, 4, 2), int32]",
            &[
                "Tensor[(n, 4, 2), int32]",
                "Tensor[(4, 2), int32]",
                "Tensor[(4, 2), int32]",
                "Tensor[(4, 2), int32]",
            ],
        ),
    ]);
}

#[test]
fn conv2d() {
    check_op(
        "qnn.conv2d",
        &[
            (
                &["Tensor[(1, 3, 32, 32), uint8]", "Tensor[(16, 3, 3, 3), int8]", I32, I32, F32, "Tensor[(16), float32]"],
                &[("padding", ints(&[1, 1])), ("channels", int(16)), ("kernel_size", ints(&[3, 3])), out32()],
                Ok("Tensor[(1, 16, 32, 32), int32]"),
            ),
            (
                &["Tensor[(n, 3, h, w), int8]", "Tensor[(16, 3, 3, 3), int8]", I32, "Tensor[(16), int32]", F32, F32],
                &[("padding", ints(&[1, 1])), out32()],
                Ok("Tensor[(n, 16, h, w), int32]"),
            ),
            (
                &["Tensor[(?, 3, ?, 32), int16]", "Tensor[(16, 3, 3, 3), int16]", I32, I32, F32, F32],
                &[("out_dtype", string("int64"))],
                Ok("Tensor[(?, 16, ?, 30), int64]"),
            ),
            // NHWC data and HWIO kernel: the kernel's channels are the output's C.
            (
                &["Tensor[(1, 8, 8, 3), int8]", "Tensor[(3, 3, 3, 8), int8]", I32, I32, F32, "Tensor[(8), float32]"],
                &[("data_layout", string("NHWC")), ("kernel_layout", string("HWIO")), out32()],
                Ok("Tensor[(1, 6, 6, 8), int32]"),
            ),
            // Depthwise: one kernel scale per output channel.
            (
                &["Tensor[(1, 4, 8, 8), uint8]", "Tensor[(4, 2, 3, 3), uint8]", I32, I32, F32, "Tensor[(8), float32]"],
                &[("groups", int(4)), ("channels", int(8)), ("kernel_size", ints(&[3, 3])), out32()],
                Ok("Tensor[(1, 8, 6, 6), int32]"),
            ),
            // The weight is not inferred (its dtype is its own).
            (
                &["Tensor[(1, 3, 8, 8), int8]", "_", I32, I32, F32, F32],
                &[("channels", int(4)), ("kernel_size", ints(&[3, 3])), out32()],
                Err("waiting: QnnConv2D"),
            ),
            (
                &["Tensor[(1, 3, 8, 8), int8]", "Tensor[(16, 3, 3, 3), int8]", I32, I32, F32, "Tensor[(8), float32]"],
                &[out32()],
                Err("`kernel_scale` of `qnn.conv2d` has 8 values, one per channel, but the output has 16 channels"),
            ),
            (
                &["Tensor[(1, 3, 8, 8), int8]", "Tensor[(16, 3, 3, 3), int8]", "Tensor[(3), int32]", I32, F32, F32],
                &[out32()],
                Err("`input_zero_point` of `qnn.conv2d` must be an int32 scalar, found `Tensor[(3), int32]`"),
            ),
            (
                &["Tensor[(1, 3, 8, 8), int8]", "Tensor[(16, 3, 3, 3), int8]", I32, I32, F32, F32],
                &[],
                Err("`out_dtype` of `qnn.conv2d` must be set to int16, int32 or int64"),
            ),
            (
                &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("the data of `qnn.conv2d` must be int8, uint8 or int16, found `Tensor[(1, 3, 8, 8), float32]`"),
            ),
            // The wrapped relation's messages name `qnn.conv2d`.
            (
                &["Tensor[(1, 3, 8), int8]", "Tensor[(16, 3, 3, 3), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("`qnn.conv2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 3, 8), int8]`"),
            ),
            (
                &["Tensor[(1, 3, 8, 8), int8]", "Tensor[(16, 4, 3, 3), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("the weight has 4 input channels per group (axis 1, `I` of OIHW), but the data's 3 input channels over `groups` = 1 give 3"),
            ),
        ],
    );
}

#[test]
fn conv2d_transpose() {
    check_op(
        "qnn.conv2d_transpose",
        &[
            (
                &["Tensor[(1, 16, 8, 8), uint8]", "Tensor[(16, 8, 3, 3), int8]", I32, I32, F32, "Tensor[(8), float32]"],
                &[("strides", ints(&[2, 2])), ("channels", int(8)), ("kernel_size", ints(&[3, 3])), out32()],
                Ok("Tensor[(1, 8, 17, 17), int32]"),
            ),
            // The input's parameters may be vectors of one value.
            (
                &["Tensor[(n, 16, h, 4), int8]", "Tensor[(16, 8, 1, 1), int8]", "Tensor[(1), int32]", I32, "Tensor[(1), float32]", F32],
                &[out32()],
                Ok("Tensor[(n, 8, h, 4), int32]"),
            ),
            (
                &["Tensor[(1, 16, ?, 4), int8]", "Tensor[(16, 8, 1, 1), int8]", I32, I32, F32, F32],
                &[("out_dtype", string("int16"))],
                Ok("Tensor[(1, 8, ?, 4), int16]"),
            ),
            (
                &["Tensor[(1, 16, 4, 4), int8]", "Tensor[(16, 8, 1, 1), int8]", I32, I32, "Tensor[(3), float32]", F32],
                &[out32()],
                Err("`input_scale` of `qnn.conv2d_transpose` must be a float32 scalar or a vector of one value, found `Tensor[(3), float32]`"),
            ),
            (
                &["Tensor[(1, 16, 4, 4), int8]", "Tensor[(16, 8, 1, 1), int16]", I32, I32, F32, F32],
                &[out32()],
                Err("the weight of `qnn.conv2d_transpose` must be int8 or uint8, found `Tensor[(16, 8, 1, 1), int16]`"),
            ),
        ],
    );
}

#[test]
fn dense() {
    check_op(
        "qnn.dense",
        &[
            (
                &["Tensor[(4, 64), uint8]", "Tensor[(10, 64), int8]", I32, "Tensor[(10), int32]", F32, "Tensor[(10), float32]"],
                &[("units", int(10)), out32()],
                Ok("Tensor[(4, 10), int32]"),
            ),
            (
                &["Tensor[(n, 64), int8]", "Tensor[(10, 64), int8]", I32, I32, F32, F32],
                &[("out_dtype", string("int64"))],
                Ok("Tensor[(n, 10), int64]"),
            ),
            (
                &["Tensor[(?, ?), int16]", "Tensor[(10, 64), uint8]", I32, I32, F32, F32],
                &[out32()],
                Ok("Tensor[(?, 10), int32]"),
            ),
            (
                &["Tensor[(4, 64), int8]", "Tensor[(10, 64), int8]", I32, I32, F32, "Tensor[(64), float32]"],
                &[out32()],
                Err("`kernel_scale` of `qnn.dense` has 64 values, one per channel, but the output has 10 units"),
            ),
            (
                &["Tensor[(4, 64), int8]", "Tensor[(10, 32), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("the contraction dimensions of `qnn.dense` differ: dimension 1 of the data is 64 and dimension 1 of the weight is 32"),
            ),
            (
                &["Tensor[(4, 64), int8]", "Tensor[(10, 64), int8]", I32, I32, F32, F32],
                &[("out_dtype", string("int16"))],
                Err("`out_dtype` of `qnn.dense` must be int32 or int64, found int16"),
            ),
        ],
    );
}

#[test]
fn contrib_dense_pack() {
    check_op(
        "qnn.contrib_dense_pack",
        &[
            (
                &["Tensor[(4, 64), uint8]", "Tensor[(2, 16, 16, 4), int8]", I32, I32, F32, "Tensor[(32), float32]"],
                &[("units", int(32)), ("weight_layout", string("NC16n4c")), out32()],
                Ok("Tensor[(4, 32), int32]"),
            ),
            (
                &["Tensor[(n, 64), int8]", "Tensor[(2, 16, 16, 4), int8]", I32, I32, F32, F32],
                &[out32()],
                Ok("Tensor[(n, 32), int32]"),
            ),
            (
                &["Tensor[(?, 64), int8]", "Tensor[(2, 16, 16, 4), int8]", I32, I32, F32, F32],
                &[out32()],
                Ok("Tensor[(?, 32), int32]"),
            ),
            (
                &["Tensor[(4, 60), int8]", "Tensor[(2, 16, 16, 4), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("the contraction dimensions of `qnn.contrib_dense_pack` differ: 60 in the data and 64 in the weight (dimensions 1 and 3)"),
            ),
            (
                &["Tensor[(4, 64), int8]", "Tensor[(2, 16, 16, 4), int8]", I32, I32, F32, F32],
                &[("units", int(16)), out32()],
                Err("`units` is 16 but the weight of `qnn.contrib_dense_pack` packs 32 (dimensions 0 and 2)"),
            ),
            (
                &["Tensor[(4, 64), int8]", "Tensor[(32, 64), int8]", I32, I32, F32, F32],
                &[out32()],
                Err("the weight of `qnn.contrib_dense_pack` must be 4-D (packed), found `Tensor[(32, 64), int8]`"),
            ),
        ],
    );
}

#[test]
fn batch_matmul() {
    check_op(
        "qnn.batch_matmul",
        &[
            // `int8` by `uint8`: the operands' dtypes may differ.
            (
                &["Tensor[(2, 4, 8), int8]", "Tensor[(2, 5, 8), uint8]", I32, I32, F32, F32],
                &[("transpose_b", boolean(true)), out32()],
                Ok("Tensor[(2, 4, 5), int32]"),
            ),
            (
                &["Tensor[(n, 4, 8), int8]", "Tensor[(1, 8, 5), int8]", I32, I32, F32, F32],
                &[out32()],
                Ok("Tensor[(n, 4, 5), int32]"),
            ),
            (
                &["Tensor[(?, 4, 8), uint8]", "Tensor[(?, 8, 5), uint8]", I32, I32, F32, F32],
                &[out32()],
                Ok("Tensor[(?, 4, 5), int32]"),
            ),
            (
                &["Tensor[(2, 4, 8), int8]", "Tensor[(2, 5, 8), int8]", I32, I32, "Tensor[(2), float32]", F32],
                &[("transpose_b", boolean(true)), out32()],
                Err("`x_scale` of `qnn.batch_matmul` must be a float32 scalar, found `Tensor[(2), float32]`"),
            ),
            (
                &["Tensor[(2, 4, 8), int8]", "Tensor[(2, 5, 7), int8]", I32, I32, F32, F32],
                &[("transpose_b", boolean(true)), out32()],
                Err("the contraction dimensions of `qnn.batch_matmul` differ: 8 in `x` and 7 in `y`"),
            ),
            (
                &["Tensor[(2, 4, 8), int8]", "Tensor[(2, 8, 5), int8]", I32, I32, F32, F32],
                &[("out_dtype", string("int64"))],
                Err("`out_dtype` of `qnn.batch_matmul` must be int32, found int64"),
            ),
        ],
    );
}

#[test]
fn concatenate() {
    let data = "(Tensor[(1, 64, 35, 35), uint8], Tensor[(1, 32, 35, 35), uint8])";
    let scales = "(float32, float32)";
    let zps = "(int32, int32)";
    check_op(
        "qnn.concatenate",
        &[
            (
                &[data, scales, zps, F32, I32],
                &[("axis", int(1))],
                Ok("Tensor[(1, 96, 35, 35), uint8]"),
            ),
            (
                &["(Tensor[(n, 2), int8], Tensor[(m, 2), int8])", scales, zps, F32, I32],
                &[],
                Ok("Tensor[(m + n, 2), int8]"),
            ),
            (
                &["(Tensor[(?, 2), int8], Tensor[(3, 2), int8])", scales, zps, F32, I32],
                &[],
                Ok("Tensor[(?, 2), int8]"),
            ),
            (
                &[data, "(float32,)", zps, F32, I32],
                &[("axis", int(1))],
                Err("`input_scales` of `qnn.concatenate` must be a tuple of 2 float32 scalars, one per tensor, found `(float32,)`"),
            ),
            (
                &[data, scales, "(int32, float32)", F32, I32],
                &[("axis", int(1))],
                Err("`input_zero_points` of `qnn.concatenate` must be a tuple of 2 int32 scalars, one per tensor, found `(int32, float32)`"),
            ),
            (
                &["Tensor[(2, 3), int8]", scales, zps, F32, I32],
                &[],
                Err("`qnn.concatenate` takes a tuple of tensors, found `Tensor[(2, 3), int8]`"),
            ),
            (
                &[data, scales, zps, F32, I32],
                &[("axis", int(4))],
                Err("`axis` 4 is out of range for tensors of rank 4: it must be in [-4, 4)"),
            ),
        ],
    );
}

#[test]
fn binary() {
    let params = [F32, I32, F32, I32, F32, I32];
    let args = |a: &'static str, b: &'static str| -> Vec<&'static str> {
        let mut v = vec![a, b];
        v.extend(params);
        v
    };
    let add_static = args("Tensor[(n, 3), int8]", "Tensor[(3), int8]");
    let mul_bcast = args("Tensor[(2, 1), uint8]", "Tensor[(1, 5), uint8]");
    let sub_any = args("Tensor[(?, 4), int8]", "Tensor[(2, 4), int8]");
    let bad = args("Tensor[(2, 3), int8]", "Tensor[(4), int8]");
    check_op("qnn.add", &[(&add_static, &[], Ok("Tensor[(n, 3), int8]"))]);
    check_op("qnn.mul", &[(&mul_bcast, &[], Ok("Tensor[(2, 5), uint8]"))]);
    check_op(
        "qnn.subtract",
        &[(&sub_any, &[], Ok("Tensor[(2, 4), int8]"))],
    );
    check_op(
        "qnn.add",
        &[(
            &bad,
            &[],
            Err("`Tensor[(2, 3), int8]` and `Tensor[(4), int8]` do not broadcast: dimension 1 of the first is 3 and dimension 0 of the second is 4"),
        )],
    );
    // Per-channel parameters along `lhs_axis` and `rhs_axis`; a 1-D operand's channels
    // are its one axis (`-1` or `0`); an axis out of range is an error even where the
    // parameters are scalars (TVM reads it only for per-channel ones).
    check_op(
        "qnn.subtract",
        &[
            (
                &["Tensor[(2, 4), uint8]", "Tensor[(4), uint8]", "Tensor[(2), float32]", "Tensor[(2), int32]", "Tensor[(4), float32]", I32, F32, I32],
                &[("lhs_axis", int(0)), ("rhs_axis", int(0))],
                Ok("Tensor[(2, 4), uint8]"),
            ),
            (
                &["Tensor[(2, 4), uint8]", "Tensor[(4), uint8]", "Tensor[(2), float32]", "Tensor[(2), int32]", "Tensor[(4), float32]", I32, F32, I32],
                &[("lhs_axis", int(0)), ("rhs_axis", int(5))],
                Err("`rhs_axis` 5 is out of range for `Tensor[(4), uint8]` (rank 1)"),
            ),
            (
                &["Tensor[(2, 4), uint8]", "Tensor[(2, 4), uint8]", F32, I32, "Tensor[(2), float32]", I32, F32, I32],
                &[],
                Err("`rhs_scale` of `qnn.subtract` has 2 values, one per channel, but `rhs` has 4 channels along `rhs_axis` -1"),
            ),
            (
                &["Tensor[(2, 4), uint8]", "Tensor[(2, 4), uint8]", "Tensor[(2), float32]", I32, F32, I32, F32, I32],
                &[("lhs_axis", int(2))],
                Err("`lhs_axis` 2 is out of range for `Tensor[(2, 4), uint8]` (rank 2)"),
            ),
        ],
    );
    check_op(
        "qnn.mul",
        &[(
            &["Tensor[(2, 4), int8]", "Tensor[(2, 4), int8]", F32, I32, F32, I32, "Tensor[(4), float32]", I32],
            &[],
            Err("`output_scale` of `qnn.mul` must be a float32 scalar, found `Tensor[(4), float32]`"),
        )],
    );
}

#[test]
fn avg_pool2d() {
    let p = [F32, I32, F32, I32];
    let with = |d: &'static str| -> Vec<&'static str> {
        let mut v = vec![d];
        v.extend(p);
        v
    };
    check_op(
        "qnn.avg_pool2d",
        &[
            (
                &with("Tensor[(1, 8, 8, 4), uint8]"),
                &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2])), ("layout", string("NHWC"))],
                Ok("Tensor[(1, 4, 4, 4), uint8]"),
            ),
            (
                &with("Tensor[(n, 4, 8, 8), int8]"),
                &[("pool_size", ints(&[3, 3])), ("padding", ints(&[1, 1]))],
                Ok("Tensor[(n, 4, 8, 8), int8]"),
            ),
            (
                &with("Tensor[(1, 4, ?, 8), int8]"),
                &[("pool_size", ints(&[2, 2]))],
                Ok("Tensor[(1, 4, ?, 7), int8]"),
            ),
            (
                &with("Tensor[(1, 4, 8, 8), int32]"),
                &[("pool_size", ints(&[2, 2]))],
                Err("the data of `qnn.avg_pool2d` must be int8 or uint8, found `Tensor[(1, 4, 8, 8), int32]`"),
            ),
        ],
    );
}

#[test]
fn unary() {
    let p = [F32, I32, F32, I32];
    let with = |d: &'static str| -> Vec<&'static str> {
        let mut v = vec![d];
        v.extend(p);
        v
    };
    let ops = [
        "qnn.abs",
        "qnn.erf",
        "qnn.exp",
        "qnn.hardswish",
        "qnn.log",
        "qnn.rsqrt",
        "qnn.sigmoid",
        "qnn.sqrt",
        "qnn.tanh",
        "qnn.leaky_relu",
    ];
    for op in ops {
        let bad = format!("the data of `{op}` must be int8 or uint8, found `Tensor[(2), int16]`");
        check_op(
            op,
            &[
                (
                    &with("Tensor[(2, 3), int8]"),
                    &[],
                    Ok("Tensor[(2, 3), int8]"),
                ),
                (&with("Tensor[(n), uint8]"), &[], Ok("Tensor[(n), uint8]")),
                (
                    &with("Tensor[(?, 3), int8]"),
                    &[],
                    Ok("Tensor[(?, 3), int8]"),
                ),
                (&with("Tensor[(2), int16]"), &[], Err(&bad)),
            ],
        );
    }
    check_op(
        "qnn.abs",
        &[(
            &["Tensor[(2), int8]", F32, "Tensor[(2), int32]", F32, I32],
            &[],
            Err("`input_zero_point` of `qnn.abs` must be an int32 scalar, found `Tensor[(2), int32]`"),
        )],
    );
    check_op(
        "qnn.leaky_relu",
        &[(
            &with("Tensor[(2, 3), uint8]"),
            &[("alpha", f(0.1))],
            Ok("Tensor[(2, 3), uint8]"),
        )],
    );
}

#[test]
fn softmax() {
    let p = [F32, I32, F32, I32];
    let with = |d: &'static str| -> Vec<&'static str> {
        let mut v = vec![d];
        v.extend(p);
        v
    };
    check_op(
        "qnn.softmax",
        &[
            (
                &with("Tensor[(1, 10), int8]"),
                &[],
                Ok("Tensor[(1, 10), int8]"),
            ),
            (
                &with("Tensor[(n, 10), int8]"),
                &[("axis", int(0))],
                Ok("Tensor[(n, 10), int8]"),
            ),
            (
                &with("Tensor[(?, 10), int8]"),
                &[],
                Ok("Tensor[(?, 10), int8]"),
            ),
            (
                &with("Tensor[(1, 10), uint8]"),
                &[],
                Err("the data of `qnn.softmax` must be int8, found `Tensor[(1, 10), uint8]`"),
            ),
            (
                &with("Tensor[(1, 10), int8]"),
                &[("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(1, 10), int8]` (rank 2)"),
            ),
        ],
    );
}

#[test]
fn simulated() {
    check_op(
        "qnn.simulated_quantize",
        &[
            (&["Tensor[(4, 3), float32]", I32, F32, I32], &[], Ok("Tensor[(4, 3), float32]")),
            (
                &["Tensor[(n, 3), float32]", I32, "Tensor[(3), float32]", "Tensor[(3), int32]"],
                &[],
                Ok("Tensor[(n, 3), float32]"),
            ),
            // TVM's test: a per-channel scale of `?` values.
            (
                &["Tensor[(4, 3), float32]", I32, "Tensor[(?), float32]", "Tensor[(?), int32]"],
                &[("axis", int(0))],
                Ok("Tensor[(4, 3), float32]"),
            ),
            (
                &["Tensor[(4, 3), float32]", F32, F32, I32],
                &[],
                Err("`out_dtype` of `qnn.simulated_quantize` must be an int32 scalar, found `float32`"),
            ),
        ],
    );
    check_op(
        "qnn.simulated_dequantize",
        &[
            (&["Tensor[(4, 3), float32]", I32, F32, I32], &[], Ok("Tensor[(4, 3), float32]")),
            (&["Tensor[(?, 3), float32]", I32, F32, I32], &[], Ok("Tensor[(?, 3), float32]")),
            (
                &["Tensor[(4, 3), float32]", I32, "Tensor[(4), float32]", I32],
                &[],
                Err("`input_scale` of `qnn.simulated_dequantize` has 4 values, one per channel, but the data has 3 channels along `axis` -1"),
            ),
        ],
    );
    check_op(
        "relay.op.annotation.simulated_quantize",
        &[
            (&["Tensor[(2, 8), float32]", F32, F32, F32], &[("kind", int(2))], Ok("Tensor[(2, 8), float32]")),
            (&["Tensor[(?), float16]", F32, F32, F32], &[("kind", int(2))], Ok("Tensor[(?), float16]")),
            (
                &[F32, F32, F32, F32],
                &[("kind", int(2))],
                Err("the data of `relay.op.annotation.simulated_quantize` must be at least 1-D, found `float32`"),
            ),
            (
                &["Tensor[(2, 8), float32]", F32, "Tensor[(8), float32]", F32],
                &[("kind", int(2))],
                Err("`clip_min` of `relay.op.annotation.simulated_quantize` must be a float32 scalar, found `Tensor[(8), float32]`"),
            ),
        ],
    );
}

#[test]
fn fixed_point_multiply() {
    let attrs = [("multiplier", int(1 << 30)), ("shift", int(-1))];
    check_op(
        "fixed_point_multiply",
        &[
            (
                &["Tensor[(2, 3), int32]"],
                &attrs,
                Ok("Tensor[(2, 3), int32]"),
            ),
            (
                &["Tensor[(n, ?), int32]"],
                &attrs,
                Ok("Tensor[(n, ?), int32]"),
            ),
            (
                &["Tensor[(2, 3), int32]"],
                &[],
                Err("`fixed_point_multiply` needs attribute `multiplier` of type `int`"),
            ),
        ],
    );
    let v4 = "Tensor[(4), int32]";
    check_op(
        "fixed_point_multiply_per_axis",
        &[
            (&["Tensor[(1, 4, 8), int32]", v4, v4, v4], &[("axes", ints(&[1]))], Ok("Tensor[(1, 4, 8), int32]")),
            (&["Tensor[(n, 4), int32]", v4, v4, v4], &[("axes", ints(&[1])), ("is_rshift_required", boolean(true))], Ok("Tensor[(n, 4), int32]")),
            (&["Tensor[(?, 4), int32]", v4, v4, v4], &[("axes", ints(&[1]))], Ok("Tensor[(?, 4), int32]")),
            (
                &["Tensor[(1, 4, 8), int32]", v4, v4, v4],
                &[("axes", ints(&[3]))],
                Err("`axes` of `fixed_point_multiply_per_axis` must be axes of `x` (0 to 2), found 3 for `Tensor[(1, 4, 8), int32]`"),
            ),
            (
                &["Tensor[(1, 4, 8), int32]", v4, "Tensor[(8), int32]", v4],
                &[("axes", ints(&[1]))],
                Err("`left_shift` of `fixed_point_multiply_per_axis` must be `Tensor[(4), int32]`, one int32 per channel at `axes`, found `Tensor[(8), int32]`"),
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// A quantized convolution block as TVM prints it
// ---------------------------------------------------------------------------------------

/// A per-channel quantized convolution block (TFLite's, as TVM imports and prints it):
/// `qnn.quantize`, `qnn.conv2d` with a kernel scale per output channel (a constant of the
/// metadata section, typed by its `ty` comment), `qnn.requantize` with the matching
/// input scales, `qnn.dequantize`; each binding has the type TVM printed for it.
#[test]
fn a_quantized_conv_block_checks_with_the_types_tvm_prints() {
    let src = r#"#[version = "0.0.5"]
def @main(%data: Tensor[(1, 3, 32, 32), float32], %weight: Tensor[(16, 3, 3, 3), int8]) -> Tensor[(1, 16, 32, 32), float32] {
  %0 = qnn.quantize(%data, 0.0078125f /* ty=float32 */, 0 /* ty=int32 */, out_dtype="int8", axis=1) /* ty=Tensor[(1, 3, 32, 32), int8] */;
  %1 = qnn.conv2d(%0, %weight, 0 /* ty=int32 */, 0 /* ty=int32 */, 0.0078125f /* ty=float32 */, meta[relay.Constant][0] /* ty=Tensor[(16), float32] */, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], out_dtype="int32") /* ty=Tensor[(1, 16, 32, 32), int32] */;
  %2 = qnn.requantize(%1, meta[relay.Constant][1] /* ty=Tensor[(16), float32] */, 0 /* ty=int32 */, 0.0625f /* ty=float32 */, -128 /* ty=int32 */, axis=1, out_dtype="int8") /* ty=Tensor[(1, 16, 32, 32), int8] */;
  qnn.dequantize(%2, 0.0625f /* ty=float32 */, -128 /* ty=int32 */, out_dtype="float32") /* ty=Tensor[(1, 16, 32, 32), float32] */
}
"#;
    assert_eq!(
        check_with_bindings(src),
        [
            "@main: fn (Tensor[(1, 3, 32, 32), float32], Tensor[(16, 3, 3, 3), int8]) -> Tensor[(1, 16, 32, 32), float32]",
            "%0: Tensor[(1, 3, 32, 32), int8]",
            "%1: Tensor[(1, 16, 32, 32), int32]",
            "%2: Tensor[(1, 16, 32, 32), int8]",
        ]
    );
    // A kernel scale of the wrong length is reported at the convolution.
    let bad = src.replace(
        "ty=Tensor[(16), float32] */, padding",
        "ty=Tensor[(8), float32] */, padding",
    );
    let checked = Prelude::standard().unwrap().check(&bad);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        ["`kernel_scale` of `qnn.conv2d` has 8 values, one per channel, but the output has 16 channels"]
    );
}
