//! The relations of the quantized operators. Imperative: each checks the dtypes of its
//! quantized tensors, its `out_dtype` and its quantization parameters (see
//! [`check_params`]), and most then run the relation of the operator they quantize over
//! their tensors, as TVM's do (`qnn.conv2d` runs `nn.conv2d`'s over its data, weight and
//! result).

use super::params::{
    both, check_params, choice, data_channels, int_attr, out_dtype, output_channels,
    quantized_tensor, scale, shown, wrapped, zero_point, Channels, Form, QParam, Q8,
};
use crate::level1::{Concatenate, Softmax};
use crate::level2::{AvgPool2D, Conv2D, Conv2DTranspose};
use crate::level3::util::agree;
use crate::level4::misc::batch_matmul_of;
use crate::relations::{Broadcast, Identity};
use relay_core::{
    relation, DTy, DType, Dim, Progress, RelCx, RelError, RelResult, Relation, RelationDef,
    RelationRef, TyData,
};

use Form::{PerChannel, PerChannelOrOne, Scalar, ScalarOrOne};

/// The answer while a needed input is unknown.
const WAIT: RelResult = Ok(Progress::NotYet);

/// Unifies the result (the last argument) with `Tensor[dims, dtype]`.
fn result(cx: &mut RelCx<'_>, dims: &[Dim], dtype: DType) -> Result<(), RelError> {
    let t = cx.mk_tensor(dims, DTy::Known(dtype));
    let last = cx.len() - 1;
    cx.unify(last, t)
}

/// `qnn.quantize(data, output_scale, output_zero_point)`: `float32` data to `out_dtype`,
/// of the data's shape; the scale and zero point are scalars or vectors along `axis`.
#[relation(Quantize)]
pub fn quantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.quantize";
    let odt = out_dtype(cx, op, &["int8", "uint8", "int16", "uint16", "int32"])?;
    let params = [
        scale(1, "output_scale", PerChannel),
        zero_point(2, "output_zero_point", PerChannel),
    ];
    convert(cx, op, &["float32"], odt, &params)
}

/// `qnn.dequantize(data, input_scale, input_zero_point)`: quantized data to `out_dtype`
/// (`float32` when unset), of the data's shape; the scale and zero point are scalars,
/// vectors along `axis`, or vectors of one value.
#[relation(Dequantize)]
pub fn dequantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.dequantize";
    let odt = match cx.attrs().dtype("out_dtype")? {
        None => DType::FLOAT32,
        Some(_) => out_dtype(cx, op, &["float16", "float32"])?,
    };
    let params = [
        scale(1, "input_scale", PerChannelOrOne),
        zero_point(2, "input_zero_point", PerChannelOrOne),
    ];
    let dtypes = ["int8", "uint8", "int16", "uint16", "int32"];
    convert(cx, op, &dtypes, odt, &params)
}

/// What `qnn.quantize` and `qnn.dequantize` share: data of one of `dtypes` to `odt`, of
/// the data's shape, with `params` along `axis`. `axis` is checked whether or not a
/// parameter is per channel (TVM checks it only for per-channel parameters).
fn convert(
    cx: &mut RelCx<'_>,
    op: &str,
    dtypes: &[&str],
    odt: DType,
    params: &[QParam],
) -> RelResult {
    let Some((dims, _)) = quantized_tensor(cx, op, 0, "the data", dtypes)? else {
        return WAIT;
    };
    let channels = data_channels(cx, 0, "the data", &dims, "axis")?;
    result(cx, &dims, odt)?;
    check_params(cx, op, params, |_| Ok(channels.clone()))
}

/// `qnn.requantize(data, input_scale, input_zero_point, output_scale,
/// output_zero_point)`: the data's shape in `out_dtype`; the input's scale and zero point
/// are scalars or vectors along `axis` (which must be an axis of the data), the output's
/// scalars.
#[relation(Requantize)]
pub fn requantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.requantize";
    let odt = out_dtype(cx, op, &["int8", "uint8", "int16", "int32"])?;
    choice(cx, op, "rounding", &["None", "UPWARD", "TONEAREST"])?;
    choice(
        cx,
        op,
        "compute_dtype",
        &["None", "int64", "float32", "float64"],
    )?;
    let dtypes = ["int8", "uint8", "int16", "int32", "int64"];
    let Some((dims, _)) = quantized_tensor(cx, op, 0, "the data", &dtypes)? else {
        return WAIT;
    };
    let channels = data_channels(cx, 0, "the data", &dims, "axis")?;
    result(cx, &dims, odt)?;
    check_params(
        cx,
        op,
        &[
            scale(1, "input_scale", PerChannel),
            zero_point(2, "input_zero_point", PerChannel),
            scale(3, "output_scale", Scalar),
            zero_point(4, "output_zero_point", Scalar),
        ],
        |_| Ok(channels.clone()),
    )
}

/// The quantization parameters of the convolutions and dense products: `(data, weight,
/// input_zero_point, kernel_zero_point, input_scale, kernel_scale)`.
const fn conv_params(input: Form) -> [QParam; 4] {
    [
        zero_point(2, "input_zero_point", input),
        zero_point(3, "kernel_zero_point", PerChannel),
        scale(4, "input_scale", input),
        scale(5, "kernel_scale", PerChannel),
    ]
}

/// A quantized convolution: its data and weight dtypes, the relation it wraps, and the
/// form of its input scale and zero point.
struct QConv {
    op: &'static str,
    inner: &'static str,
    rel: RelationRef,
    data: &'static [&'static str],
    weight: &'static [&'static str],
    input: Form,
}

fn qconv(cx: &mut RelCx<'_>, c: &QConv) -> RelResult {
    out_dtype(cx, c.op, &["int16", "int32", "int64"])?;
    // Both tensors must be known (TVM's relation asks for them): the wrapped relation
    // would infer an unknown weight with the data's dtype, which a quantized weight need
    // not have.
    if quantized_tensor(cx, c.op, 0, "the data", c.data)?.is_none()
        | quantized_tensor(cx, c.op, 1, "the weight", c.weight)?.is_none()
    {
        return WAIT;
    }
    let conv = wrapped(cx, c.rel, &[0, 1, 6], c.inner, c.op)?;
    let layout = match cx.attrs().str("out_layout")? {
        Some(l) if !l.is_empty() => l.to_owned(),
        _ => cx.attrs().str("data_layout")?.unwrap_or("NCHW").to_owned(),
    };
    let Some(channels) = output_channels(cx, 6, &layout)? else {
        return WAIT;
    };
    let params = check_params(cx, c.op, &conv_params(c.input), |_| Ok(channels.clone()))?;
    Ok(both(conv, params))
}

/// `qnn.conv2d(data, weight, input_zero_point, kernel_zero_point, input_scale,
/// kernel_scale)`: `nn.conv2d` of quantized tensors into `out_dtype`.
#[relation(QnnConv2D)]
pub fn qnn_conv2d_rel(cx: &mut RelCx<'_>) -> RelResult {
    qconv(
        cx,
        &QConv {
            op: "qnn.conv2d",
            inner: "nn.conv2d",
            rel: Conv2D::REF,
            data: &["int8", "uint8", "int16"],
            weight: &["int8", "uint8", "int16"],
            input: Scalar,
        },
    )
}

/// `qnn.conv2d_transpose(data, weight, input_zero_point, kernel_zero_point, input_scale,
/// kernel_scale)`: `nn.conv2d_transpose` of quantized tensors into `out_dtype`.
#[relation(QnnConv2DTranspose)]
pub fn qnn_conv2d_transpose_rel(cx: &mut RelCx<'_>) -> RelResult {
    qconv(
        cx,
        &QConv {
            op: "qnn.conv2d_transpose",
            inner: "nn.conv2d_transpose",
            rel: Conv2DTranspose::REF,
            data: &["int8", "uint8", "int16", "uint16"],
            weight: Q8,
            input: ScalarOrOne,
        },
    )
}

/// The units of a dense product's result (its last dimension), for its kernel's
/// parameters; `None` while unknown.
fn units(cx: &mut RelCx<'_>, out: usize) -> Option<Channels> {
    let t = cx.arg(out);
    let t = cx.resolve(t);
    let TyData::Tensor(s, _) = cx.data(t) else {
        return None;
    };
    let u = *cx.tcx_ref().shape_dims(*s)?.last()?;
    let shown_u = cx.show_dim(u);
    Some((u, format!("the output has {shown_u} units")))
}

/// The data dtypes of the quantized dense products.
const DENSE_DATA: &[&str] = &["int8", "uint8", "int16", "uint16"];

/// `qnn.dense(data, weight, input_zero_point, kernel_zero_point, input_scale,
/// kernel_scale)`: `nn.dense` of quantized tensors into `out_dtype`.
#[relation(QDense)]
pub fn qnn_dense_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.dense";
    out_dtype(cx, op, &["int32", "int64"])?;
    if quantized_tensor(cx, op, 0, "the data", DENSE_DATA)?.is_none()
        | quantized_tensor(cx, op, 1, "the weight", Q8)?.is_none()
    {
        return WAIT;
    }
    let dense = wrapped(cx, crate::level1::Dense::REF, &[0, 1, 6], "nn.dense", op)?;
    let Some(channels) = units(cx, 6) else {
        return WAIT;
    };
    let params = check_params(cx, op, &conv_params(Scalar), |_| Ok(channels.clone()))?;
    Ok(both(dense, params))
}

/// `qnn.contrib_dense_pack(data, weight, ...)`: a 2-D data `(b, k)` by a packed 4-D
/// weight `(n / bn, k / bk, bn, bk)` gives `(b, n)` of `out_dtype`.
#[relation(QnnDensePack)]
pub fn qnn_dense_pack_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.contrib_dense_pack";
    let odt = out_dtype(cx, op, &["int32", "int64"])?;
    let data = quantized_tensor(cx, op, 0, "the data", DENSE_DATA)?;
    let weight = quantized_tensor(cx, op, 1, "the weight", Q8)?;
    let (Some((d, _)), Some((w, _))) = (data, weight) else {
        return WAIT;
    };
    if d.len() != 2 {
        return Err(cx.error_showing(0, |t| {
            format!("the data of `{op}` must be 2-D, found `{t}`")
        }));
    }
    if w.len() != 4 {
        return Err(cx.error_showing(1, |t| {
            format!("the weight of `{op}` must be 4-D (packed), found `{t}`")
        }));
    }
    let k = cx.tcx().dims.mul(w[1], w[3])?;
    agree(cx, 1, d[1], k, |a, b| {
        format!("the contraction dimensions of `{op}` differ: {a} in the data and {b} in the weight (dimensions 1 and 3)")
    })?;
    let n = cx.tcx().dims.mul(w[0], w[2])?;
    if let Some(u) = cx.attrs().int("units")? {
        let u_dim = cx.tcx().dims.konst(u);
        agree(cx, 1, n, u_dim, |n, _| {
            format!("`units` is {u} but the weight of `{op}` packs {n} (dimensions 0 and 2)")
        })?;
    }
    result(cx, &[d[0], n], odt)?;
    let shown_n = cx.show_dim(n);
    let channels = (n, format!("the output has {shown_n} units"));
    check_params(cx, op, &conv_params(Scalar), |_| Ok(channels.clone()))
}

/// `qnn.batch_matmul(x, y, x_zero_point, y_zero_point, x_scale, y_scale)`:
/// `nn.batch_matmul` of `int8` or `uint8` tensors into `int32`; every parameter is a
/// scalar.
#[relation(QBatchMatmul)]
pub fn qnn_batch_matmul_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.batch_matmul";
    out_dtype(cx, op, &["int32"])?;
    if quantized_tensor(cx, op, 0, "`x`", Q8)?.is_none()
        | quantized_tensor(cx, op, 1, "`y`", Q8)?.is_none()
    {
        return WAIT;
    }
    let mm = cx.run_on(RelationRef(&BATCH_MATMUL), &[0, 1, 6])?;
    let params = check_params(
        cx,
        op,
        &[
            zero_point(2, "x_zero_point", Scalar),
            zero_point(3, "y_zero_point", Scalar),
            scale(4, "x_scale", Scalar),
            scale(5, "y_scale", Scalar),
        ],
        |_| unreachable!("every parameter is a scalar"),
    )?;
    Ok(both(mm, params))
}

/// `nn.batch_matmul`'s relation for `qnn.batch_matmul`, whose `x` and `y` may differ in
/// dtype; run by [`qnn_batch_matmul_rel`] only (not registered).
static BATCH_MATMUL: RelationDef = RelationDef {
    name: "BatchMatmul",
    arity: Some(3),
    needs: &[],
    solve: |cx| batch_matmul_of(cx, "qnn.batch_matmul", false),
};

/// Argument `arg` (`name`) of `qnn.concatenate` as a tuple of `n` scalars of `dtype`,
/// one per tensor: an unknown one is inferred.
fn scalar_tuple(
    cx: &mut RelCx<'_>,
    arg: usize,
    name: &str,
    dtype: DType,
    n: usize,
) -> Result<(), RelError> {
    let op = "qnn.concatenate";
    let s = cx.mk_tensor(&[], DTy::Known(dtype));
    let want = cx.tcx().tuple(&vec![s; n]);
    if cx.unify(arg, want).is_err() {
        return Err(cx.error_showing(arg, |t| format!("`{name}` of `{op}` must be a tuple of {n} {dtype} scalars, one per tensor, found `{t}`")));
    }
    Ok(())
}

/// `qnn.concatenate(data, input_scales, input_zero_points, output_scale,
/// output_zero_point)`: `concatenate` of the tuple `data` along `axis`; the scales and
/// zero points of the inputs are tuples of scalars, one per tensor.
#[relation(QnnConcatenate)]
pub fn qnn_concatenate_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.concatenate";
    let params = check_params(
        cx,
        op,
        &[
            scale(3, "output_scale", Scalar),
            zero_point(4, "output_zero_point", Scalar),
        ],
        |_| unreachable!("every parameter is a scalar"),
    )?;
    let t = cx.arg(0);
    let t = cx.resolve(t);
    let n = match cx.data(t) {
        TyData::Tuple(fields) => fields.len(),
        TyData::Var(_) => return WAIT,
        _ => {
            let t = cx.show(t);
            return Err(RelError::at(
                0,
                format!("`{op}` takes a tuple of tensors, found `{t}`"),
            ));
        }
    };
    scalar_tuple(cx, 1, "input_scales", DType::FLOAT32, n)?;
    scalar_tuple(cx, 2, "input_zero_points", DType::INT32, n)?;
    let joined = wrapped(cx, Concatenate::REF, &[0, 5], "concatenate", op)?;
    Ok(both(joined, params))
}

/// The channels of operand `arg` (`what`) of a quantized binary operator along attribute
/// `attr`, as TVM reads it: a rank-1 operand's channels are its one dimension (the
/// attribute must still be an axis of it, `0` or `-1`).
fn operand_channels(
    cx: &mut RelCx<'_>,
    arg: usize,
    what: &str,
    dims: &[Dim],
    attr: &str,
) -> Result<Channels, RelError> {
    if let [d] = dims {
        let axis = int_attr(cx, attr)?;
        cx.axis(arg, attr, axis, 1)?;
        let shown_d = cx.show_dim(*d);
        return Ok((*d, format!("{what} has {shown_d} channels")));
    }
    data_channels(cx, arg, what, dims, attr)
}

/// A quantized binary operator `op`: `(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale,
/// rhs_zero_point, output_scale, output_zero_point)`; the operands broadcast; each
/// operand's scale and zero point are scalars or vectors along its axis (`lhs_axis`,
/// `rhs_axis`), the output's scalars.
fn binary(cx: &mut RelCx<'_>, op: &str) -> RelResult {
    let out = check_params(
        cx,
        op,
        &[
            scale(6, "output_scale", Scalar),
            zero_point(7, "output_zero_point", Scalar),
        ],
        |_| unreachable!("every parameter is a scalar"),
    )?;
    let (Some((l, _)), Some((r, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return WAIT;
    };
    // The axes are checked whether or not a parameter is per channel (TVM checks them
    // only for per-channel parameters).
    let lc = operand_channels(cx, 0, "`lhs`", &l, "lhs_axis")?;
    let rc = operand_channels(cx, 1, "`rhs`", &r, "rhs_axis")?;
    let lhs = check_params(
        cx,
        op,
        &[
            scale(2, "lhs_scale", PerChannel),
            zero_point(3, "lhs_zero_point", PerChannel),
        ],
        |_| Ok(lc.clone()),
    )?;
    let rhs = check_params(
        cx,
        op,
        &[
            scale(4, "rhs_scale", PerChannel),
            zero_point(5, "rhs_zero_point", PerChannel),
        ],
        |_| Ok(rc.clone()),
    )?;
    let b = cx.run_on(Broadcast::REF, &[0, 1, 8])?;
    Ok(both(both(out, b), both(lhs, rhs)))
}

/// The relation of `qnn.add`, `qnn.subtract` and `qnn.mul` (TVM's `QnnBroadcastRel`);
/// its messages name the operator called.
#[relation(QnnBroadcast)]
pub fn qnn_broadcast_rel(cx: &mut RelCx<'_>) -> RelResult {
    binary(cx, cx.op_name())
}

/// The scalar parameters `(input_scale, input_zero_point, output_scale,
/// output_zero_point)` of the quantized unary operators.
const UNARY_PARAMS: [QParam; 4] = [
    scale(1, "input_scale", Scalar),
    zero_point(2, "input_zero_point", Scalar),
    scale(3, "output_scale", Scalar),
    zero_point(4, "output_zero_point", Scalar),
];

/// A quantized unary operator `op` on data of `dtypes`: the scalar parameters, then
/// the data and the result of one type (with `inner`, `nn.softmax`, its relation over
/// them).
fn unary(cx: &mut RelCx<'_>, op: &str, dtypes: &[&str], inner: Option<&str>) -> RelResult {
    let params = check_params(cx, op, &UNARY_PARAMS, |_| {
        unreachable!("every parameter is a scalar")
    })?;
    // The data's dtype, once known (the data may also be inferred from the result).
    quantized_tensor(cx, op, 0, "the data", dtypes)?;
    let same = match inner {
        Some(inner) => wrapped(cx, Softmax::REF, &[0, 5], inner, op)?,
        None => cx.run_on(Identity::REF, &[0, 5])?,
    };
    quantized_tensor(cx, op, 0, "the data", dtypes)?;
    Ok(both(params, same))
}

/// The relation of the quantized element-wise unary operators (`qnn.abs`, `qnn.erf`,
/// `qnn.exp`, `qnn.hardswish`, `qnn.log`, `qnn.rsqrt`, `qnn.sigmoid`, `qnn.sqrt`,
/// `qnn.tanh`: TVM's `QnnElementwiseUnaryFuncRel`; `qnn.leaky_relu`: TVM's `QLeakyRelu`,
/// the same rule): `int8` or `uint8` data and result of one type; every parameter is a
/// scalar. Its messages name the operator called.
#[relation(QnnUnary)]
pub fn qnn_unary_rel(cx: &mut RelCx<'_>) -> RelResult {
    unary(cx, cx.op_name(), Q8, None)
}

/// `qnn.softmax(data, scale, zero_point, output_scale, output_zero_point)`: `int8` data
/// and result of one type; `axis` must be an axis of the data (TVM does not check it).
#[relation(QSoftmax)]
pub fn qnn_softmax_rel(cx: &mut RelCx<'_>) -> RelResult {
    unary(cx, "qnn.softmax", &["int8"], Some("nn.softmax"))
}

/// `qnn.avg_pool2d(data, input_scale, input_zero_point, output_scale,
/// output_zero_point)`: `nn.avg_pool2d` of `int8` or `uint8` data.
#[relation(QnnAvgPool2D)]
pub fn qnn_avg_pool2d_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "qnn.avg_pool2d";
    let params = check_params(cx, op, &UNARY_PARAMS, |_| {
        unreachable!("every parameter is a scalar")
    })?;
    if quantized_tensor(cx, op, 0, "the data", Q8)?.is_none() {
        return WAIT;
    }
    let pool = wrapped(cx, AvgPool2D::REF, &[0, 5], "nn.avg_pool2d", op)?;
    Ok(both(params, pool))
}

/// `qnn.simulated_quantize(data, out_dtype, output_scale, output_zero_point)` and
/// `qnn.simulated_dequantize(data, in_dtype, input_scale, input_zero_point)`: the data's
/// type; the dtype code is an `int32` scalar, the scale and zero point scalars or vectors
/// along `axis`.
fn simulated(cx: &mut RelCx<'_>, op: &str, code: &'static str, prefix: &str) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return WAIT;
    };
    let channels = data_channels(cx, 0, "the data", &dims, "axis")?;
    cx.unify_tensor(4, &dims, dt)?;
    let (s, z) = match prefix {
        "output" => ("output_scale", "output_zero_point"),
        _ => ("input_scale", "input_zero_point"),
    };
    check_params(
        cx,
        op,
        &[
            zero_point(1, code, Scalar),
            scale(2, s, PerChannel),
            zero_point(3, z, PerChannel),
        ],
        |_| Ok(channels.clone()),
    )
}

/// The relation of `qnn.simulated_quantize`.
#[relation(QnnSimulatedQuantize)]
pub fn qnn_simulated_quantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    simulated(cx, "qnn.simulated_quantize", "out_dtype", "output")
}

/// The relation of `qnn.simulated_dequantize`.
#[relation(QnnSimulatedDequantize)]
pub fn qnn_simulated_dequantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    simulated(cx, "qnn.simulated_dequantize", "in_dtype", "input")
}

/// `relay.op.annotation.simulated_quantize(data, dom_scale, clip_min, clip_max)`: the
/// data's type (at least 1-D); the three others are `float32` scalars.
#[relation(SimulatedQuantize)]
pub fn simulated_quantize_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "relay.op.annotation.simulated_quantize";
    let params = check_params(
        cx,
        op,
        &[
            scale(1, "dom_scale", Scalar),
            scale(2, "clip_min", Scalar),
            scale(3, "clip_max", Scalar),
        ],
        |_| unreachable!("every parameter is a scalar"),
    )?;
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return WAIT;
    };
    if dims.is_empty() {
        return Err(cx.error_showing(0, |t| {
            format!("the data of `{op}` must be at least 1-D, found `{t}`")
        }));
    }
    cx.unify_tensor(4, &dims, dt)?;
    Ok(params)
}

/// `fixed_point_multiply_per_axis(x, fixed_point_multiplier, left_shift, right_shift)`:
/// the type of `x`; the three others are `int32` tensors of the dimensions of `x` at
/// `axes` (one value per channel).
#[relation(FixedPointMultiplyPerAxis)]
pub fn fixed_point_multiply_per_axis_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "fixed_point_multiply_per_axis";
    let id = cx.run_on(Identity::REF, &[0, 4])?;
    let Some((dims, _)) = cx.tensor_dims(0)? else {
        return WAIT;
    };
    let axes = cx
        .attrs()
        .int_or_ints("axes")?
        .ok_or_else(|| RelError::new("attribute `axes` is missing"))?;
    let mut per = Vec::with_capacity(axes.len().min(dims.len()));
    for &a in &axes {
        let Some(&d) = usize::try_from(a).ok().and_then(|a| dims.get(a)) else {
            return Err(cx.error_showing(0, |t| {
                format!(
                    "`axes` of `{op}` must be axes of `x` (0 to {}), found {a} for `{t}`",
                    dims.len() as i64 - 1
                )
            }));
        };
        per.push(d);
    }
    for (arg, name) in [
        (1, "fixed_point_multiplier"),
        (2, "left_shift"),
        (3, "right_shift"),
    ] {
        let want = cx.mk_tensor(&per, DTy::Known(DType::INT32));
        if cx.unify(arg, want).is_err() {
            let (t, w) = (shown(cx, arg), cx.show(want));
            return Err(RelError::at(
                arg,
                format!("`{name}` of `{op}` must be `{w}`, one int32 per channel at `axes`, found `{t}`"),
            ));
        }
    }
    Ok(id)
}
