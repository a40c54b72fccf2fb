//! The fused products: `MatMulNBits`, `FusedMatMul`, `FusedConv`, `FusedGemm`,
//! `GemmFastGelu`, `DynamicQuantizeMatMul` and `MatMulIntegerToFloat`.
use super::{same_shape, vector_of};
use crate::onnx_ops;
use crate::ops::nn::conv::OnnxConv;
use crate::ops::nn::matmul::{OnnxMatMul, OnnxQLinearMatMul};
use crate::ops::nn::{as_const, konst, opt_tensor, same_dim};
use crate::ops::util::{broadcast, out_tensor, shown};
use relay_core::{relation, relay_op, Progress, RelCx, RelError, RelResult, Relation};

relay_op! {
    /// onnxruntime's `MatMulNBits`: `A` `(.., K)` times a `(K, N)` matrix of `bits`-bit
    /// integers stored as `B` `(N, ceil(K / block_size), block_size * bits / 8)` bytes,
    /// with `scales` per block; the result is `(.., N)` of `A`'s dtype.
    ort.matmul_nbits : fn<a, b, s, z, g, c, y>(a: a, b: b, scales: s, zero_points: z, g_idx: g, bias: c) -> y where OrtMatMulNBits,
        attrs { k: int, n: int, bits: int = 4, block_size: int },
        level 10;

    /// onnxruntime's `FusedMatMul`: NumPy's `matmul` after moving each operand's first
    /// axis behind its batch axes (`transBatchA`, `transBatchB`) and swapping its last
    /// two (`transA`, `transB`).
    ort.fused_matmul : fn<a, b, y>(a: a, b: b) -> y where OrtFusedMatMul,
        attrs { trans_a: int = 0, trans_b: int = 0, trans_batch_a: int = 0, trans_batch_b: int = 0 },
        level 10;

    /// onnxruntime's `FusedConv`: `onnx.conv` (then an activation), plus an optional
    /// `Z` of the result's type.
    ort.fused_conv : fn<x, w, b, z, y>(data: x, weight: w, bias: b, sum: z) -> y where OrtFusedConv,
        attrs OnnxConvAttrs,
        level 10;

    /// onnxruntime's `DynamicQuantizeMatMul`: `onnx.matmul`'s shapes of a float `a` and
    /// an integer `b`, of `a`'s dtype, plus an optional `bias` vector of the result's
    /// last axis.
    ort.dynamic_quantize_matmul : fn<a, b, s, z, c, y>(a: a, b: b, b_scale: s, b_zero_point: z, bias: c) -> y where OrtDynamicQuantizeMatMul,
        level 10;

    /// onnxruntime's `GemmFastGelu`: `onnx.matmul` of `x` and `w` (one dtype) plus an
    /// optional `bias` vector of the result's last axis.
    ort.gemm_fast_gelu : fn<x, w, b, y>(x: x, w: w, bias: b) -> y where OrtGemmFastGelu,
        level 10;

    /// onnxruntime's `MatMulIntegerToFloat`: `onnx.matmul`'s shapes of integers `a` and
    /// `b`, of the scales' dtype, plus an optional `bias` vector of the result's last
    /// axis.
    ort.matmul_integer_to_float : fn<a, b, as_, bs, az, bz, c, y>(a: a, b: b, a_scale: as_, b_scale: bs, a_zero_point: az, b_zero_point: bz, bias: c) -> y where OrtMatMulIntegerToFloat,
        level 10;
}

/// `OrtMatMulNBits(a, b, scales, zero_points, g_idx, bias, out)`.
#[relation(OrtMatMulNBits)]
pub fn ort_matmul_nbits(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, dt)), Some((b, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let attr = |cx: &RelCx<'_>, name: &str, min: i64| -> Result<i64, RelError> {
        match cx.attrs().int(name)? {
            Some(v) if v >= min => Ok(v),
            Some(v) => Err(RelError::at(
                1,
                format!("`{name}` is {v}, and it is at least {min}"),
            )),
            None => Err(RelError::at(1, format!("`{name}` is required"))),
        }
    };
    let (k, n) = (attr(cx, "k", 1)?, attr(cx, "n", 1)?);
    let (bits, block) = (attr(cx, "bits", 1)?, attr(cx, "block_size", 1)?);
    let Some(&ka) = a.last() else {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("a matrix product does not take a scalar, and `A` is `{t}`"),
        ));
    };
    let kk = konst(cx, k);
    same_dim(cx, ka, kk, 0, |x, y| {
        format!("`A` has {x} columns, and `K` is {y}")
    })?;
    // `B` is `(N, blocks, blob)`: `ceil(K / block_size)` blocks of `block_size * bits / 8`
    // bytes each.
    let blocks = k / block + i64::from(k % block != 0);
    let blob = block.saturating_mul(bits) / 8;
    let want = [n, blocks, blob];
    let t = shown(cx, 1);
    if b.len() != 3 {
        return Err(RelError::at(
            1,
            format!(
                "`B` is `{t}`, and it must be `(N, k_blocks, blob_size)`: ({n}, {blocks}, {blob})"
            ),
        ));
    }
    for (j, (&d, &w)) in b.iter().zip(&want).enumerate() {
        let wk = konst(cx, w);
        let what = ["N", "the blocks of K", "the bytes of a block"][j];
        same_dim(cx, d, wk, 1, |x, y| {
            format!("`B` (`{t}`) has {x} on axis {j}, and {what} make {y}")
        })?;
    }
    // The scales (and zero points) per block: `N * blocks` or `(N, blocks)`.
    if let Some((s, sdt)) = opt_tensor(cx, 2)? {
        cx.unify_dtype(dt, sdt, 2)?;
        let count: Option<i64> = s
            .iter()
            .try_fold(1i64, |p, &d| p.checked_mul(as_const(cx, d)?));
        if let Some(c) = count {
            if Some(c) != n.checked_mul(blocks) {
                let t = shown(cx, 2);
                return Err(RelError::at(
                    2,
                    format!("`scales` is `{t}`, and it must have one scale for each of {n} by {blocks} blocks"),
                ));
            }
        }
    }
    let nk = konst(cx, n);
    if let Some((_, cdt)) = opt_tensor(cx, 5)? {
        cx.unify_dtype(dt, cdt, 5)?;
        vector_of(cx, 5, "bias", nk, "`N`")?;
    }
    let mut y = a.clone();
    let r = y.len();
    y[r - 1] = nk;
    out_tensor(cx, 6, &y, dt)
}

/// `OrtFusedMatMul(a, b, out)`.
#[relation(OrtFusedMatMul)]
pub fn ort_fused_matmul(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    let flag = |cx: &RelCx<'_>, n: &str| -> Result<bool, RelError> {
        Ok(cx.attrs().int(n)?.unwrap_or(0) != 0)
    };
    let (ta, tb) = (flag(cx, "trans_a")?, flag(cx, "trans_b")?);
    let (tba, tbb) = (flag(cx, "trans_batch_a")?, flag(cx, "trans_batch_b")?);
    if !(ta || tb || tba || tbb) {
        return cx.run_on(OnnxMatMul::REF, &[0, 1, 2]);
    }
    cx.unify_dtype(adt, bdt, 1)?;
    // Each operand as the matrices it stands for.
    let mut ops = Vec::with_capacity(2);
    for (i, d, tbatch, t, name) in [(0, &a, tba, ta, "A"), (1, &b, tbb, tb, "B")] {
        if d.is_empty() {
            let s = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("a matrix product does not take a scalar, and `{name}` is `{s}`"),
            ));
        }
        let mut m = d.clone();
        if tbatch {
            if m.len() < 3 {
                let s = shown(cx, i);
                return Err(RelError::at(
                    i,
                    format!("`transBatch{name}` needs `{name}` of rank 3 or more, and it is `{s}`"),
                ));
            }
            let first = m.remove(0);
            let at = m.len() - 1;
            m.insert(at, first);
        }
        if t && m.len() >= 2 {
            let r = m.len();
            m.swap(r - 1, r - 2);
        }
        ops.push(m);
    }
    let one = konst(cx, 1);
    let (a2, row) = match ops[0].len() {
        1 => (vec![one, ops[0][0]], true),
        _ => (ops[0].clone(), false),
    };
    let (b2, col) = match ops[1].len() {
        1 => (vec![ops[1][0], one], true),
        _ => (ops[1].clone(), false),
    };
    let (ka, kb) = (a2[a2.len() - 1], b2[b2.len() - 2]);
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (sa, sb) = (shown(cx, 0), shown(cx, 1));
            return Err(RelError::at(
                1,
                format!("cannot multiply `{sa}` by `{sb}` (transA={}, transB={}, transBatchA={}, transBatchB={}): the inner dimensions {x} and {y} differ", ta as i32, tb as i32, tba as i32, tbb as i32),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, 1);
    }
    let mut y = broadcast(cx, &a2[..a2.len() - 2], &b2[..b2.len() - 2], 1)?;
    if !row {
        y.push(a2[a2.len() - 2]);
    }
    if !col {
        y.push(b2[b2.len() - 1]);
    }
    out_tensor(cx, 2, &y, adt)
}

/// `OrtFusedConv(data, weight, bias, sum, out)`.
#[relation(OrtFusedConv)]
pub fn ort_fused_conv(cx: &mut RelCx<'_>) -> RelResult {
    let p = cx.run_on(OnnxConv::REF, &[0, 1, 2, 4])?;
    if p != Progress::Solved {
        return Ok(p);
    }
    if let Some((z, zdt)) = opt_tensor(cx, 3)? {
        let Some((y, ydt)) = cx.tensor_dims(4)? else {
            return Ok(Progress::NotYet);
        };
        cx.unify_dtype(ydt, zdt, 3)?;
        same_shape(cx, &y, &z, (4, "Y"), (3, "Z"))?;
    }
    Ok(Progress::Solved)
}

/// `OrtDynamicQuantizeMatMul(a, b, b_scale, b_zero_point, bias, out)`.
#[relation(OrtDynamicQuantizeMatMul)]
pub fn ort_dynamic_quantize_matmul(cx: &mut RelCx<'_>) -> RelResult {
    quantized_matmul(cx, 0, 4, 5)
}

/// `OrtGemmFastGelu(x, w, bias, out)`.
#[relation(OrtGemmFastGelu)]
pub fn ort_gemm_fast_gelu(cx: &mut RelCx<'_>) -> RelResult {
    if let (Some((_, xdt)), Some((_, wdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) {
        cx.unify_dtype(xdt, wdt, 1)?;
    }
    quantized_matmul(cx, 0, 2, 3)
}

/// `OrtMatMulIntegerToFloat(a, b, a_scale, b_scale, a_zero_point, b_zero_point, bias,
/// out)`.
#[relation(OrtMatMulIntegerToFloat)]
pub fn ort_matmul_integer_to_float(cx: &mut RelCx<'_>) -> RelResult {
    quantized_matmul(cx, 2, 6, 7)
}

/// `a` (argument 0) times `b` (1) of the dtype of argument `like`, plus the optional
/// `bias`, into argument `out`.
fn quantized_matmul(cx: &mut RelCx<'_>, like: usize, bias: usize, out: usize) -> RelResult {
    // `onnx.qlinear_matmul` types `a` times `b` of the dtype of its output zero point.
    let p = cx.run_on(OnnxQLinearMatMul::REF, &[0, 0, 0, 1, 0, 0, 0, like, out])?;
    if p != Progress::Solved {
        return Ok(p);
    }
    if opt_tensor(cx, bias)?.is_some() {
        let Some((y, _)) = cx.tensor_dims(out)? else {
            return Ok(Progress::NotYet);
        };
        if let Some(&n) = y.last() {
            vector_of(cx, bias, "bias", n, "the result's columns")?;
        }
    }
    Ok(Progress::Solved)
}

onnx_ops! {
    "com.microsoft" MatMulNBits since 1 => "ort.matmul_nbits"(In(0), In(1), In(2), Opt(3), Opt(4), Opt(5)) {
        k: Attr("K"), n: Attr("N"), bits: Attr("bits"), block_size: Attr("block_size")
    };
    "com.microsoft" FusedMatMul since 1 => "ort.fused_matmul"(In(0), In(1)) {
        trans_a: Attr("transA"), trans_b: Attr("transB"),
        trans_batch_a: Attr("transBatchA"), trans_batch_b: Attr("transBatchB")
    };
    "com.microsoft" FusedConv since 1 => "ort.fused_conv"(In(0), In(1), Opt(2), Opt(3)) {
        auto_pad: Attr("auto_pad"), pads: Attr("pads"), strides: Attr("strides"),
        dilations: Attr("dilations"), group: Attr("group"), kernel_shape: Attr("kernel_shape")
    };
    "com.microsoft" GemmFastGelu since 1 => "ort.gemm_fast_gelu"(In(0), In(1), Opt(2));
    "com.microsoft" FusedGemm since 1 => "onnx.gemm"(In(0), In(1), Opt(2)) { trans_a: Attr("transA"), trans_b: Attr("transB") };
    "com.microsoft" DynamicQuantizeMatMul since 1 => "ort.dynamic_quantize_matmul"(In(0), In(1), In(2), Opt(3), Opt(4));
    "com.microsoft" MatMulIntegerToFloat since 1 => "ort.matmul_integer_to_float"(In(0), In(1), In(2), In(3), Opt(4), Opt(5), Opt(6));
}
