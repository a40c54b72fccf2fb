//! The quantized operators: `QLinearAdd`, `QLinearMul`, the quantized activations and
//! pools, `QLinearConcat`, `QLinearConv`, `QuantizeLinear` and `DequantizeLinear`.
use crate::onnx_ops;
use crate::ops::elementwise::OnnxBinary;
use crate::ops::nn::conv::{channels_first, channels_last};
use crate::ops::nn::pool::pooled;
use crate::ops::nn::{konst, same_dim, spatial_input};
use crate::ops::util::{arith, out_tensor, shown};
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, Dim, Progress, RelCx, RelError, RelResult, Relation};

relay_op! {
    /// onnxruntime's `QLinearAdd` and `QLinearMul`: `onnx.binary` of `a` and `b` (each
    /// with its scale and zero point), into the output scale and zero point.
    ort.qlinear_binary : fn<a, as_, az, b, bs, bz, cs, cz, y>(a: a, a_scale: as_, a_zero_point: az, b: b, b_scale: bs, b_zero_point: bz, c_scale: cs, c_zero_point: cz) -> y where OrtQLinearBinary,
        level 10;

    /// onnxruntime's quantized activations (`QLinearSigmoid`, `QLinearLeakyRelu`,
    /// `QLinearSoftmax`): the result is `x`'s type.
    ort.qlinear_unary : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearUnary,
        level 10;

    /// onnxruntime's `QLinearAveragePool`: `onnx.pool` of `x`, or with `channels_last`
    /// of `x` `(N, D1, .., C)` into `(N, E1, .., C)`.
    ort.qlinear_pool : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearPool,
        attrs OrtPoolAttrs,
        level 10;

    /// onnxruntime's `QLinearGlobalAveragePool`: `(N, C, D1, ..)` to `(N, C, 1, ..)`, or
    /// with `channels_last` `(N, D1, .., C)` to `(N, 1, .., C)`.
    ort.qlinear_global_pool : fn<x, xs, xz, ys, yz, y>(x: x, x_scale: xs, x_zero_point: xz, y_scale: ys, y_zero_point: yz) -> y where OrtQLinearGlobalPool,
        attrs { channels_last: int = 0 },
        level 10;

    /// onnxruntime's `QLinearConcat`: the inputs (every third field of `rest`: a tensor,
    /// its scale and its zero point) concatenated on `axis`, of the dtype of
    /// `y_zero_point`.
    ort.qlinear_concat : fn<z, r, y>(y_zero_point: z, rest: r) -> y where OrtQLinearConcat,
        attrs { axis: int },
        level 10;
}

/// `OrtQLinearBinary(a, a_scale, a_zero_point, b, b_scale, b_zero_point, c_scale,
/// c_zero_point, out)`.
#[relation(OrtQLinearBinary)]
pub fn ort_qlinear_binary(cx: &mut RelCx<'_>) -> RelResult {
    cx.run_on(OnnxBinary::REF, &[0, 3, 8])
}

/// `OrtQLinearUnary(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearUnary)]
pub fn ort_qlinear_unary(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.arg(0);
    cx.unify(5, t)?;
    Ok(Progress::Solved)
}

/// `OrtQLinearPool(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearPool)]
pub fn ort_qlinear_pool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let y = if cx.attrs().int("channels_last")?.unwrap_or(0) == 0 {
        pooled(cx, &x)?
    } else {
        // `pooled` checks the rank too, but after the axes are moved.
        spatial_input(cx, &x, "a pool")?;
        channels_last(&pooled(cx, &channels_first(&x))?)
    };
    out_tensor(cx, 5, &y, dt)
}

/// `OrtQLinearGlobalPool(x, x_scale, x_zero_point, y_scale, y_zero_point, out)`.
#[relation(OrtQLinearGlobalPool)]
pub fn ort_qlinear_global_pool(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() < 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and a pool takes at least one spatial axis"),
        ));
    }
    let last = cx.attrs().int("channels_last")?.unwrap_or(0) != 0;
    let one = konst(cx, 1);
    let r = x.len();
    let y: Vec<Dim> = (0..r)
        .map(|j| match (j, last) {
            (0, _) => x[0],
            (1, false) => x[1],
            (j, true) if j == r - 1 => x[j],
            _ => one,
        })
        .collect();
    out_tensor(cx, 5, &y, dt)
}

/// `OrtQLinearConcat(y_zero_point, (x0, s0, z0, x1, ..), out)`.
#[relation(OrtQLinearConcat)]
pub fn ort_qlinear_concat(cx: &mut RelCx<'_>) -> RelResult {
    let Some((_, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let t = cx.resolve(cx.arg(1));
    let fields = match cx.data(t) {
        relay_core::TyData::Tuple(f) => f.to_vec(),
        _ => return Ok(Progress::NotYet),
    };
    if fields.is_empty() || fields.len() % 3 != 0 {
        return Err(RelError::at(
            1,
            format!(
                "`QLinearConcat` takes triples of a tensor, its scale and its zero point after `Y_scale` and `Y_zero_point`, and it has {} inputs after them",
                fields.len()
            ),
        ));
    }
    let mut parts = Vec::new();
    for (j, &f) in fields.iter().step_by(3).enumerate() {
        let f = cx.resolve(f);
        let Some(s) = (match cx.data(f) {
            relay_core::TyData::Tensor(s, _) => Some(*s),
            _ => None,
        }) else {
            return Ok(Progress::NotYet);
        };
        let Some(d) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        parts.push((j, cx.show(f), d));
    }
    let r = parts[0].2.len();
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let k = crate::ops::util::axis_in(a, r, 1)?;
    let mut y = parts[0].2.clone();
    for (j, s, d) in &parts[1..] {
        if d.len() != r {
            return Err(RelError::at(
                1,
                format!(
                    "input {} `{s}` has rank {}, and input 2 `{}` has {r}",
                    2 + 3 * j,
                    d.len(),
                    parts[0].1
                ),
            ));
        }
        for (m, (&p, &q)) in d.iter().zip(&y.clone()).enumerate() {
            if m == k {
                y[k] = cx.tcx().dims.add(y[k], p).map_err(arith(1))?;
            } else {
                let first = parts[0].1.clone();
                let (jj, ss) = (2 + 3 * j, s.clone());
                same_dim(cx, p, q, 1, move |x, z| {
                    format!("input {jj} `{ss}` has {x} on axis {m}, and input 2 `{first}` has {z}")
                })?;
            }
        }
    }
    out_tensor(cx, 2, &y, dt)
}

// The attribute functions of the mappings.

onnx_ops! {
    "com.microsoft" QLinearAdd since 1 => "ort.qlinear_binary"(In(0), In(1), Opt(2), In(3), In(4), Opt(5), In(6), Opt(7));
    "com.microsoft" QLinearMul since 1 => "ort.qlinear_binary"(In(0), In(1), Opt(2), In(3), In(4), Opt(5), In(6), Opt(7));
    "com.microsoft" QLinearSigmoid since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), Opt(4));
    "com.microsoft" QLinearLeakyRelu since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), Opt(4));
    "com.microsoft" QLinearSoftmax since 1 => "ort.qlinear_unary"(In(0), In(1), Opt(2), In(3), In(4));
    "com.microsoft" QLinearAveragePool since 1 => "ort.qlinear_pool"(In(0), In(1), Opt(2), In(3), Opt(4)) {
        kernel_shape: Attr("kernel_shape"), auto_pad: Attr("auto_pad"), pads: Attr("pads"),
        strides: Attr("strides"), ceil_mode: Attr("ceil_mode"), channels_last: Attr("channels_last")
    };
    "com.microsoft" QLinearGlobalAveragePool since 1 => "ort.qlinear_global_pool"(In(0), In(1), In(2), In(3), In(4)) { channels_last: Attr("channels_last") };
    "com.microsoft" QLinearConcat since 1 => "ort.qlinear_concat"(In(1), Rest(2)) { axis: Attr("axis") };
    "com.microsoft" QLinearConv since 1 => "ort.qlinear_conv"(In(0), In(1), In(2), In(3), In(4), In(5), In(6), In(7), Opt(8)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape"),
        channels_last: Attr("channels_last")
    };
    "com.microsoft" QuantizeLinear since 1 => "onnx.quantize"(In(0), In(1), Opt(2)) {
        axis: AttrOr("axis", AttrConst::Int(1))
    };
    "com.microsoft" DequantizeLinear since 1 => "onnx.dequantize"(In(0), In(1), Opt(2)) {
        axis: AttrOr("axis", AttrConst::Int(1))
    };
}
