//! The matrix products: `MatMul` (NumPy's `matmul`), its integer and quantized forms
//! (`MatMulInteger`, `QLinearMatMul`), and `Gemm`.

use super::{as_const, konst, opt_tensor, result_dtype};
use crate::onnx_ops;
use crate::ops::util::{broadcast, out_tensor, shown};
use relay_core::{relation, relay_op, DType, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `MatMul` (NumPy's `matmul`): a 1-D operand is a row (left) or a column
    /// (right) vector whose axis is dropped from the result; the batch axes broadcast;
    /// the operands and the result share a dtype.
    onnx.matmul : fn<a, b, c>(a: a, b: b) -> c where OnnxMatMul, level 10;

    /// ONNX `MatMulInteger`: `onnx.matmul`'s shapes, an int32 result.
    onnx.matmul_integer : fn<a, b, az, bz, c>(a: a, b: b, a_zero_point: az, b_zero_point: bz) -> c where OnnxMatMulInteger,
        level 10;

    /// ONNX `QLinearMatMul`: `onnx.matmul`'s shapes, of the output zero point's dtype.
    onnx.qlinear_matmul : fn<a, as_, az, b, bs, bz, ys, yz, c>(a: a, a_scale: as_, a_zero_point: az, b: b, b_scale: bs, b_zero_point: bz, y_scale: ys, y_zero_point: yz) -> c where OnnxQLinearMatMul,
        level 10;

    /// ONNX `Gemm`: `op(A) * op(B) + C` for matrices `A` and `B` (transposed by `transA`,
    /// `transB`); `C`, if given, broadcasts to the result `(M, N)`.
    onnx.gemm : fn<a, b, c, y>(a: a, b: b, c: c) -> y where OnnxGemm,
        attrs { trans_a: int = 0, trans_b: int = 0 },
        level 10;
}

/// `OnnxMatMul(a, b, out)`.
#[relation(OnnxMatMul)]
pub fn onnx_matmul(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 1, None, None, 2)
}

/// `OnnxMatMulInteger(a, b, a_zero_point, b_zero_point, out)`.
#[relation(OnnxMatMulInteger)]
pub fn onnx_matmul_integer(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 1, None, Some(DType::INT32), 4)
}

/// `OnnxQLinearMatMul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
/// y_zero_point, out)`.
#[relation(OnnxQLinearMatMul)]
pub fn onnx_qlinear_matmul(cx: &mut RelCx<'_>) -> RelResult {
    matmul(cx, 3, Some(7), None, 8)
}

/// NumPy's `matmul` of arguments 0 and `bi` into argument `out`, of the dtype `fixed`, or
/// argument `like`'s, or the operands'.
fn matmul(
    cx: &mut RelCx<'_>,
    bi: usize,
    like: Option<usize>,
    fixed: Option<DType>,
    out: usize,
) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(bi)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, d, name) in [(0, &a, "A"), (bi, &b, "B")] {
        if d.is_empty() {
            let t = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("a matrix product does not take a scalar, and `{name}` is `{t}`"),
            ));
        }
    }
    let Some(dt) = result_dtype(cx, adt, bdt, bi, like, fixed)? else {
        return Ok(Progress::NotYet);
    };
    let one = konst(cx, 1);
    let (a2, row) = if a.len() == 1 {
        (vec![one, a[0]], true)
    } else {
        (a.clone(), false)
    };
    let (b2, col) = if b.len() == 1 {
        (vec![b[0], one], true)
    } else {
        (b.clone(), false)
    };
    let (ka, kb) = (a2[a2.len() - 1], b2[b2.len() - 2]);
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (ta, tb) = (shown(cx, 0), shown(cx, bi));
            return Err(RelError::at(
                bi,
                format!(
                    "cannot multiply `{ta}` by `{tb}`: the inner dimensions {x} and {y} differ"
                ),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, bi);
    }
    let mut dims = broadcast(cx, &a2[..a2.len() - 2], &b2[..b2.len() - 2], bi)?;
    if !row {
        dims.push(a2[a2.len() - 2]);
    }
    if !col {
        dims.push(b2[b2.len() - 1]);
    }
    out_tensor(cx, out, &dims, dt)
}

/// `OnnxGemm(a, b, c, out)`.
#[relation(OnnxGemm)]
pub fn onnx_gemm(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((a, adt)), Some((b, bdt))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    for (i, d) in [(0, &a), (1, &b)] {
        if d.len() != 2 {
            let t = shown(cx, i);
            return Err(RelError::at(
                i,
                format!("`Gemm` takes matrices, and operand {i} is `{t}`"),
            ));
        }
    }
    cx.unify_dtype(adt, bdt, 1)?;
    let ta = cx.attrs().int("trans_a")?.unwrap_or(0) != 0;
    let tb = cx.attrs().int("trans_b")?.unwrap_or(0) != 0;
    let (m, ka) = if ta { (a[1], a[0]) } else { (a[0], a[1]) };
    let (kb, n) = if tb { (b[1], b[0]) } else { (b[0], b[1]) };
    if let (Some(x), Some(y)) = (as_const(cx, ka), as_const(cx, kb)) {
        if x != y {
            let (sa, sb) = (shown(cx, 0), shown(cx, 1));
            return Err(RelError::at(
                1,
                format!("cannot multiply `{sa}` by `{sb}` (transA={}, transB={}): the inner dimensions {x} and {y} differ", ta as i32, tb as i32),
            ));
        }
    } else {
        let _ = cx.unify_dim(ka, kb, 1);
    }
    if let Some((c, cdt)) = opt_tensor(cx, 2)? {
        cx.unify_dtype(adt, cdt, 2)?;
        // `C` broadcasts to `(M, N)` one way.
        if c.len() > 2 {
            let t = shown(cx, 2);
            return Err(RelError::at(
                2,
                format!("`C` is `{t}`, which does not broadcast to a matrix"),
            ));
        }
        let target = [m, n];
        for (j, &cd) in c.iter().enumerate() {
            let t = target[j + 2 - c.len()];
            if let (Some(x), Some(y)) = (as_const(cx, cd), as_const(cx, t)) {
                if x != 1 && x != y {
                    let s = shown(cx, 2);
                    return Err(RelError::at(
                        2,
                        format!(
                            "`C` is `{s}`, which does not broadcast to the result's {} of {y}",
                            if j + 2 - c.len() == 0 {
                                "rows"
                            } else {
                                "columns"
                            }
                        ),
                    ));
                }
            }
        }
    }
    out_tensor(cx, 3, &[m, n], adt)
}

onnx_ops! {
    "" MatMul since 1 => "onnx.matmul"(In(0), In(1));
    "" MatMulInteger since 10 => "onnx.matmul_integer"(In(0), In(1), Opt(2), Opt(3));
    "" QLinearMatMul since 10 => "onnx.qlinear_matmul"(In(0), In(1), In(2), In(3), In(4), In(5), In(6), In(7));
    "" Gemm since 7 => "onnx.gemm"(In(0), In(1), Opt(2)) { trans_a: Attr("transA"), trans_b: Attr("transB") };
}
