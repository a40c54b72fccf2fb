//! TVM's quantized operators (`qnn.*`, support level 11; `src/relay/qnn/op/*.cc`), the
//! fixed-point multiplications (`fixed_point_multiply`, `fixed_point_multiply_per_axis`)
//! and the simulated quantization of TVM's automatic quantizer
//! (`relay.op.annotation.simulated_quantize`).
//!
//! A quantized tensor is an integer tensor with a *scale* (`float32`) and a *zero point*
//! (`int32`), which are arguments of the operators, not attributes:
//! `qnn.quantize(%x, 0.1f, 0, out_dtype="int8")`. A scale or zero point is a scalar, or
//! (where TVM allows one per channel) a vector of one value per channel, the channels
//! being the data's dimension at `axis` (the output's channels for a convolution's or a
//! dense product's kernel). The relations check every one: its dtype, its shape, a
//! vector's length against the channels; one that may only be a scalar is inferred when
//! unknown (TVM's relations ask for all of them, and crash on a wrong one). The operators
//! that quantize another one (`qnn.conv2d`, `qnn.dense`, `qnn.avg_pool2d`,
//! `qnn.concatenate`, ...) run that operator's relation over their tensors, as TVM's
//! do, and check the dtypes TVM allows for their quantized tensors and `out_dtype`.
//!
//! Attribute names, types and defaults are those of TVM's C++ attributes
//! (`include/tvm/relay/qnn/attrs.h`, and the `nn.*` attributes of the operators
//! quantized).

mod params;
mod rels;

pub use rels::*;

use crate::relations::Identity;
use relay_core::relay_op;

relay_op! {
    /// Quantizes `float32` data to `out_dtype` (`int8`, `uint8`, `int16`, `uint16` or
    /// `int32`), keeping its shape: `q = round(x / output_scale) + output_zero_point`.
    /// The scale and zero point are scalars or vectors of one value per channel along
    /// `axis` (which must then be an axis of the data).
    ///
    /// ```text
    /// %y = qnn.quantize(%x, 0.1f, 0, out_dtype="int8")  // (n, 3) f32 -> (n, 3) i8
    /// ```
    qnn.quantize : fn<t1, t2, t3, t4>(data: t1, output_scale: t2, output_zero_point: t3) -> t4
        where Quantize,
        attrs { out_dtype: dtype, axis: int = -1 },
        level 11;

    /// Dequantizes quantized data (`int8`, `uint8`, `int16`, `uint16` or `int32`) to
    /// `out_dtype` (`float16` or `float32`; unset: `float32`, as TVM before `out_dtype`
    /// existed and its Python API), keeping its shape. The scale and zero point are scalars,
    /// vectors of one value per channel along `axis`, or vectors of one value.
    ///
    /// ```text
    /// %y = qnn.dequantize(%x, %s, 64)  // (1, 16, 16, 3) i8, (3) f32 -> (1, 16, 16, 3) f32
    /// ```
    qnn.dequantize : fn<t1, t2, t3, t4>(data: t1, input_scale: t2, input_zero_point: t3) -> t4
        where Dequantize,
        attrs DequantizeAttrs,
        level 11;

    /// Requantizes quantized data (`int8`, `uint8`, `int16`, `int32` or `int64`) to new
    /// quantization parameters and `out_dtype` (`int8`, `uint8`, `int16` or `int32`; it
    /// must be set), keeping its shape. The input's scale and zero point are scalars or
    /// vectors of one value per channel along `axis`, which must be an axis of the data;
    /// the output's are scalars. `rounding` is `"None"` (the configured default),
    /// `"UPWARD"` or `"TONEAREST"`; `compute_dtype` `"None"`, `"int64"`, `"float32"` or
    /// `"float64"`.
    ///
    /// ```text
    /// %y = qnn.requantize(%x, 0.25f, 0, 0.5f, 0, axis=1, out_dtype="uint8")  // (1, 64, 35, 35) i32 -> (1, 64, 35, 35) u8
    /// ```
    qnn.requantize : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, input_scale: t2, input_zero_point: t3, output_scale: t4,
            output_zero_point: t5) -> t6
        where Requantize,
        attrs {
            axis: int = -1,
            rounding: str = "None",
            compute_dtype: str = "None",
            out_dtype: Option<dtype> = None,
        },
        level 11;

    /// 2-D convolution of quantized data (`int8`, `uint8`, `int16`) with a quantized
    /// weight (the same dtypes) into `out_dtype` (`int16`, `int32` or `int64`; it must be
    /// set): `nn.conv2d`'s shapes, layouts and checks. The input's zero point and scale are
    /// scalars; the kernel's are scalars or vectors of one value per output channel.
    /// The data and the weight must be known (the weight is not inferred, as in TVM).
    /// TVM's registry names the arguments in another order than its relation reads them
    /// (zero points before scales); these are the relation's.
    ///
    /// ```text
    /// %y = qnn.conv2d(%x, %w, 0, 0, 0.5f, %ks, padding=[1, 1], channels=16, kernel_size=[3, 3], out_dtype="int32")  // (1, 3, 8, 8) u8, (16, 3, 3, 3) i8, (16) f32 -> (1, 16, 8, 8) i32
    /// ```
    qnn.conv2d : fn<t1, t2, t3, t4, t5, t6, t7>(
            data: t1, weight: t2, input_zero_point: t3, kernel_zero_point: t4,
            input_scale: t5, kernel_scale: t6) -> t7
        where QnnConv2D,
        attrs Conv2DAttrs,
        level 11;

    /// 2-D transposed convolution of quantized data (`int8`, `uint8`, `int16`, `uint16`)
    /// with a quantized weight (`int8`, `uint8`) into `out_dtype` (`int16`, `int32` or
    /// `int64`; it must be set): `nn.conv2d_transpose`'s shapes and checks. The input's
    /// zero point and scale are scalars or vectors of one value; the kernel's scalars or
    /// vectors of one value per output channel (TVM counts the weight's `I` times `O`
    /// when `groups` > 1, which is the output's channels only for a depthwise one).
    ///
    /// ```text
    /// %y = qnn.conv2d_transpose(%x, %w, 0, 0, 0.5f, 0.5f, strides=[2, 2], channels=8, kernel_size=[3, 3], out_dtype="int32")  // (1, 16, 8, 8) u8, (16, 8, 3, 3) i8 -> (1, 8, 17, 17) i32
    /// ```
    qnn.conv2d_transpose : fn<t1, t2, t3, t4, t5, t6, t7>(
            data: t1, weight: t2, input_zero_point: t3, kernel_zero_point: t4,
            input_scale: t5, kernel_scale: t6) -> t7
        where QnnConv2DTranspose,
        attrs Conv2DTransposeAttrs,
        level 11;

    /// Dense product of quantized data (`int8`, `uint8`, `int16`, `uint16`) by a
    /// quantized weight (`int8`, `uint8`) into `out_dtype` (`int32` or `int64`; it must
    /// be set): `nn.dense`'s shapes and checks (the contraction dimensions must agree,
    /// which TVM does not check). The input's zero point and scale are scalars; the
    /// kernel's scalars or vectors of one value per unit.
    ///
    /// ```text
    /// %y = qnn.dense(%x, %w, 0, 0, 0.5f, 0.5f, units=10, out_dtype="int32")  // (n, 64) i8, (10, 64) i8 -> (n, 10) i32
    /// ```
    qnn.dense : fn<t1, t2, t3, t4, t5, t6, t7>(
            data: t1, weight: t2, input_zero_point: t3, kernel_zero_point: t4,
            input_scale: t5, kernel_scale: t6) -> t7
        where QDense,
        attrs DenseAttrs,
        level 11;

    /// Dense product of 2-D quantized data `(b, k)` by a packed 4-D weight
    /// `(n / bn, k / bk, bn, bk)` (`weight_layout` `"NC16n4c"`, say) into `out_dtype`
    /// (`int32` or `int64`; it must be set): `(b, n)`. The contraction dimensions must
    /// agree and `units`, if set, must be `n` (TVM checks neither); the parameters are
    /// `qnn.dense`'s.
    ///
    /// ```text
    /// %y = qnn.contrib_dense_pack(%x, %w, 0, 0, 0.5f, 0.5f, units=32, weight_layout="NC16n4c", out_dtype="int32")  // (4, 64) u8, (2, 16, 16, 4) i8 -> (4, 32) i32
    /// ```
    qnn.contrib_dense_pack : fn<t1, t2, t3, t4, t5, t6, t7>(
            data: t1, weight: t2, input_zero_point: t3, kernel_zero_point: t4,
            input_scale: t5, kernel_scale: t6) -> t7
        where QnnDensePack,
        attrs DensePackAttrs,
        level 11;

    /// Batched matrix product of quantized `x` and `y` (`int8` or `uint8`, not
    /// necessarily the same) into `out_dtype` (`int32`; it must be set):
    /// `nn.batch_matmul`'s shapes and checks. Every zero point and scale is a scalar.
    /// TVM's quantized lowering supports `transpose_b=True` only (the C++ default is
    /// `false`, so TVM prints it).
    ///
    /// ```text
    /// %y = qnn.batch_matmul(%x, %y2, 0, 0, 0.5f, 0.5f, out_dtype="int32", transpose_b=True)  // (2, 4, 8) i8, (2, 5, 8) u8 -> (2, 4, 5) i32
    /// ```
    qnn.batch_matmul : fn<t1, t2, t3, t4, t5, t6, t7>(
            x: t1, y: t2, x_zero_point: t3, y_zero_point: t4, x_scale: t5, y_scale: t6) -> t7
        where QBatchMatmul,
        attrs BatchMatmulAttrs,
        level 11;

    /// Concatenates a tuple of quantized tensors along `axis` (`concatenate`'s shapes and
    /// checks). The inputs' scales and zero points are tuples of scalars, one per tensor
    /// (inferred when unknown; TVM does not count them); the output's are scalars.
    ///
    /// ```text
    /// %y = qnn.concatenate((%a, %b), (0.5f, 0.25f), (0, 0), 0.5f, 0, axis=1)  // (1, 64, 35) u8, (1, 32, 35) u8 -> (1, 96, 35) u8
    /// ```
    qnn.concatenate : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, input_scales: t2, input_zero_points: t3, output_scale: t4,
            output_zero_point: t5) -> t6
        where QnnConcatenate,
        attrs { axis: int = 0 },
        level 11;

    /// Quantized addition: `lhs` and `rhs` broadcast (of one dtype), with their scales
    /// and zero points (scalars or vectors of one value per channel along `lhs_axis` and
    /// `rhs_axis`; a 1-D operand's channels are its one axis) and the output's (scalars).
    ///
    /// ```text
    /// %y = qnn.add(%a, %b, 0.5f, 0, 0.25f, 0, 0.5f, 0)  // (n, 3) i8, (3) i8 -> (n, 3) i8
    /// ```
    qnn.add,

    /// Quantized subtraction, as `qnn.add`.
    ///
    /// ```text
    /// %y = qnn.subtract(%a, %b, %ls, 0, 0.25f, 0, 0.5f, 0, lhs_axis=1)  // (2, 4) u8, (2, 4) u8, (4) f32 -> (2, 4) u8
    /// ```
    qnn.subtract,

    /// Quantized multiplication, as `qnn.add`.
    ///
    /// ```text
    /// %y = qnn.mul(%a, %b, 0.5f, 0, 0.25f, 0, 0.5f, 0)  // (2, 1) i8, (1, 5) i8 -> (2, 5) i8
    /// ```
    qnn.mul : fn<t1, t2, t3, t4, t5, t6, t7, t8, t9>(
            lhs: t1, rhs: t2, lhs_scale: t3, lhs_zero_point: t4, rhs_scale: t5,
            rhs_zero_point: t6, output_scale: t7, output_zero_point: t8) -> t9
        where QnnBroadcast,
        attrs BroadcastAttrs,
        level 11;

    /// 2-D average pooling of quantized data (`int8` or `uint8`): `nn.avg_pool2d`'s
    /// shapes and checks; every zero point and scale is a scalar.
    ///
    /// ```text
    /// %y = qnn.avg_pool2d(%x, 0.5f, 0, 0.5f, 0, pool_size=[2, 2], strides=[2, 2], layout="NHWC")  // (1, 8, 8, 4) u8 -> (1, 4, 4, 4) u8
    /// ```
    qnn.avg_pool2d : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, input_scale: t2, input_zero_point: t3, output_scale: t4,
            output_zero_point: t5) -> t6
        where QnnAvgPool2D,
        attrs AvgPool2DAttrs,
        level 11;

    /// Quantized leaky ReLU: `int8` or `uint8` data, the result of its type; every zero
    /// point and scale is a scalar.
    ///
    /// ```text
    /// %y = qnn.leaky_relu(%x, 0.5f, 0, 0.5f, 0, alpha=0.1f)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.leaky_relu : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, input_scale: t2, input_zero_point: t3, output_scale: t4,
            output_zero_point: t5) -> t6
        where QnnUnary,
        attrs { alpha: float = 0.25 },
        level 11;

    /// Quantized softmax along `axis` (an axis of the data): `int8` data, the result of
    /// its type; every zero point and scale is a scalar.
    ///
    /// ```text
    /// %y = qnn.softmax(%x, 0.02f, 64, 0.0039f, -128, axis=1)  // (n, 10) i8 -> (n, 10) i8
    /// ```
    qnn.softmax : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, scale: t2, zero_point: t3, output_scale: t4, output_zero_point: t5) -> t6
        where QSoftmax,
        attrs { axis: int = -1 },
        level 11;

    /// Quantized absolute value: `int8` or `uint8` data, the result of its type; every
    /// zero point and scale is a scalar.
    ///
    /// ```text
    /// %y = qnn.abs(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.abs,

    /// Quantized error function, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.erf(%x, 0.5f, 0, 0.5f, 0)  // (n) u8 -> (n) u8
    /// ```
    qnn.erf,

    /// Quantized exponential, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.exp(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.exp,

    /// Quantized hard swish, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.hardswish(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.hardswish,

    /// Quantized natural logarithm, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.log(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) u8 -> (2, 3) u8
    /// ```
    qnn.log,

    /// Quantized reciprocal square root, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.rsqrt(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) u8 -> (2, 3) u8
    /// ```
    qnn.rsqrt,

    /// Quantized sigmoid, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.sigmoid(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.sigmoid,

    /// Quantized square root, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.sqrt(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) u8 -> (2, 3) u8
    /// ```
    qnn.sqrt,

    /// Quantized hyperbolic tangent, as `qnn.abs`.
    ///
    /// ```text
    /// %y = qnn.tanh(%x, 0.5f, 0, 0.5f, 0)  // (2, 3) i8 -> (2, 3) i8
    /// ```
    qnn.tanh : fn<t1, t2, t3, t4, t5, t6>(
            data: t1, scale: t2, zero_point: t3, output_scale: t4, output_zero_point: t5) -> t6
        where QnnUnary,
        level 11;

    /// Simulates `qnn.quantize` in floating point: the data's type. `out_dtype` is a
    /// tensor holding the code of the dtype simulated (an `int32` scalar, inferred when
    /// unknown); the scale and zero point are scalars or vectors of one value per channel
    /// along `axis`.
    ///
    /// ```text
    /// %y = qnn.simulated_quantize(%x, 1, %s, %z, axis=0)  // (4, 3) f32, (4) f32, (4) i32 -> (4, 3) f32
    /// ```
    qnn.simulated_quantize : fn<t1, t2, t3, t4, t5>(
            data: t1, out_dtype: t2, output_scale: t3, output_zero_point: t4) -> t5
        where QnnSimulatedQuantize,
        attrs { axis: int = -1 },
        level 11;

    /// Simulates `qnn.dequantize` in floating point: the data's type. `in_dtype` is a
    /// tensor holding the code of the dtype simulated (an `int32` scalar, inferred when
    /// unknown); the scale and zero point are scalars or vectors of one value per channel
    /// along `axis`. Its attributes are `qnn.dequantize`'s (TVM's `DequantizeAttrs`);
    /// `out_dtype` is not read.
    ///
    /// ```text
    /// %y = qnn.simulated_dequantize(%x, 1, 0.5f, 0)  // (4, 3) f32 -> (4, 3) f32
    /// ```
    qnn.simulated_dequantize : fn<t1, t2, t3, t4, t5>(
            data: t1, in_dtype: t2, input_scale: t3, input_zero_point: t4) -> t5
        where QnnSimulatedDequantize,
        attrs DequantizeAttrs,
        level 11;

    /// The simulated quantization of TVM's automatic quantizer (`relay.quantize`): the
    /// data's type (at least 1-D); `dom_scale`, `clip_min` and `clip_max` are `float32`
    /// scalars (inferred when unknown). `kind` is the kind of field quantized (required),
    /// `rounding` `"round"`, `"floor"` or `"ceil"`.
    ///
    /// ```text
    /// %y = relay.op.annotation.simulated_quantize(%x, 0.5f, -127f, 127f, kind=1)  // (n, 8) f32 -> (n, 8) f32
    /// ```
    relay.op.annotation.simulated_quantize : fn<t1, t2, t3, t4, t5>(
            data: t1, dom_scale: t2, clip_min: t3, clip_max: t4) -> t5
        where SimulatedQuantize,
        attrs { kind: int, sign: bool = true, rounding: str = "round" },
        level 11;

    /// Multiplies by the fixed-point number `multiplier * 2^shift` (both required); the
    /// result has the argument's type.
    ///
    /// ```text
    /// %y = fixed_point_multiply(%x, multiplier=1073741824, shift=-1)  // (n, 4) i32 -> (n, 4) i32
    /// ```
    fixed_point_multiply : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { multiplier: int, shift: int },
        level 10;

    /// Multiplies `x` by fixed-point numbers, one per channel at `axes` (required, axes of
    /// `x`): `fixed_point_multiplier`, `left_shift` and `right_shift` are `int32` tensors
    /// of the dimensions of `x` at `axes`. The result has the type of `x`.
    ///
    /// ```text
    /// %y = fixed_point_multiply_per_axis(%x, %m, %l, %r, axes=[1])  // (n, 4) i32, (4) i32, (4) i32, (4) i32 -> (n, 4) i32
    /// ```
    fixed_point_multiply_per_axis : fn<t1, t2, t3, t4, t5>(
            x: t1, fixed_point_multiplier: t2, left_shift: t3, right_shift: t4) -> t5
        where FixedPointMultiplyPerAxis,
        attrs { is_lshift_required: bool = false, is_rshift_required: bool = false, axes: [int] },
        level 10;
}
