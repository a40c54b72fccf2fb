//! Neural-network operators, a module per family: [`matmul`] (`MatMul`, `Gemm` and their
//! integer and quantized forms), [`conv`] (the convolutions), [`pool`] (the pools,
//! `MaxRoiPool`, `RoiAlign`, `MaxUnpool`), [`norm`] (the normalizations, `LRN`),
//! [`softmax`] (the softmax family, `Dropout`), [`resize`] (`Resize`/`Upsample`),
//! [`image`] (`GridSample`, `AffineGrid`, `Col2Im`, `CenterCropPad`, `DepthToSpace`, ...),
//! [`attention`] (`Attention`, `RotaryEmbedding`, `LinearAttention`,
//! `CausalConvWithState`) and [`recurrent`] (`RNN`, `GRU`, `LSTM`). The helpers they share
//! are here.
//!
//! Where ONNX's semantics are TVM's (`Softmax` over one axis is `nn.softmax`, `LRN` is
//! `nn.lrn`, `DepthToSpace` is `nn.depth_to_space`), the mapping names TVM's operator.
//! ONNX's convolutions and pools are N-dimensional, pad by `auto_pad`, take an optional
//! bias, or give several outputs; their relations are written here as operators of the
//! `onnx.` namespace, with exact symbolic sizes: a `SAME` axis of `H` by stride 2 is
//! `floordiv(H + 1, 2)`. A size that cannot be known (a `ceil_mode` window that may start
//! in the padding of a symbolic axis, a `Resize` by scales that are not constants) is `?`,
//! never a guess.

pub mod attention;
pub mod conv;
pub mod image;
pub mod matmul;
pub mod norm;
pub mod pool;
pub mod recurrent;
pub mod resize;
pub mod softmax;

use crate::ops::util::shown;
use relay_core::{DTy, DType, Dim, Dims, RelCx, RelError, Ty, TyData};

pub(crate) use crate::ops::util::arith;

pub(crate) fn konst(cx: &mut RelCx<'_>, c: i64) -> Dim {
    cx.tcx().dims.konst(c)
}

pub(crate) fn as_const(cx: &RelCx<'_>, d: Dim) -> Option<i64> {
    cx.tcx_ref().dims.as_const(d)
}

/// The result's fields: a tuple's (the node asked for each output), or the result itself;
/// an error when the node asks for more than `max` outputs.
pub(crate) fn out_fields(cx: &mut RelCx<'_>, arg: usize, max: usize) -> Result<Vec<Ty>, RelError> {
    let t = cx.resolve(cx.arg(arg));
    let fields = match cx.data(t) {
        TyData::Tuple(f) => f.to_vec(),
        _ => vec![cx.arg(arg)],
    };
    if fields.len() > max {
        return Err(RelError::at(
            arg,
            format!(
                "the node has {} outputs, and the operator gives at most {max}",
                fields.len()
            ),
        ));
    }
    Ok(fields)
}

/// Unifies field `j` of the result (argument `arg`) with `Tensor[dims, dt]`, if the node
/// has that output.
pub(crate) fn set_field(
    cx: &mut RelCx<'_>,
    fields: &[Ty],
    arg: usize,
    j: usize,
    dims: &[Dim],
    dt: DTy,
) -> Result<(), RelError> {
    if let Some(&f) = fields.get(j) {
        let t = cx.mk_tensor(dims, dt);
        cx.unify_blaming(f, t, arg)?;
    }
    Ok(())
}

/// Argument `i` as a tensor's dims and dtype; `None` when it is `()` or not known.
pub(crate) fn opt_tensor(
    cx: &mut RelCx<'_>,
    i: usize,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let t = cx.resolve(cx.arg(i));
    if matches!(cx.data(t), TyData::Tuple(f) if f.is_empty()) {
        return Ok(None);
    }
    cx.tensor_dims(i)
}

/// Two dimensions that must be equal: an error when both are constants that differ,
/// else unified when they can be (a symbol may stand for the constant).
pub(crate) fn same_dim(
    cx: &mut RelCx<'_>,
    a: Dim,
    b: Dim,
    blame: usize,
    what: impl FnOnce(i64, i64) -> String,
) -> Result<(), RelError> {
    match (as_const(cx, a), as_const(cx, b)) {
        (Some(x), Some(y)) if x != y => Err(RelError::at(blame, what(x, y))),
        _ => {
            let _ = cx.unify_dim(a, b, blame);
            Ok(())
        }
    }
}

/// The dtype of the result of an operator whose operands `a` and `b` share a dtype,
/// unless it is `fixed` or argument `like`'s (a quantized operator's output zero point);
/// `None` while `like` is not known.
fn result_dtype(
    cx: &mut RelCx<'_>,
    adt: DTy,
    bdt: DTy,
    blame: usize,
    like: Option<usize>,
    fixed: Option<DType>,
) -> Result<Option<DTy>, RelError> {
    if let Some(d) = fixed {
        return Ok(Some(DTy::Known(d)));
    }
    if let Some(l) = like {
        return Ok(cx.tensor(l)?.map(|(_, ldt)| ldt));
    }
    cx.unify_dtype(adt, bdt, blame)?;
    Ok(Some(adt))
}

/// An `INTS` attribute of one value per spatial axis (`n`), or `default` for each.
fn per_axis(
    cx: &RelCx<'_>,
    name: &str,
    n: usize,
    default: i64,
    min: i64,
) -> Result<Vec<i64>, RelError> {
    match cx.attrs().ints(name)? {
        None => Ok(vec![default; n]),
        Some(v) if v.is_empty() => Ok(vec![default; n]),
        Some(v) => {
            if v.len() != n {
                return Err(RelError::at(
                    0,
                    format!("`{name}` has {} values for {n} spatial axes", v.len()),
                ));
            }
            if let Some(bad) = v.iter().find(|&&x| x < min) {
                return Err(RelError::at(
                    0,
                    format!("`{name}` has {bad}, and each must be at least {min}"),
                ));
            }
            Ok(v)
        }
    }
}

/// How the spatial axes of a convolution or pool are padded.
#[derive(Copy, Clone, PartialEq, Eq)]
enum AutoPad {
    NotSet,
    Same,
    Valid,
}

fn auto_pad(cx: &RelCx<'_>) -> Result<AutoPad, RelError> {
    match cx.attrs().str("auto_pad")?.unwrap_or("NOTSET") {
        "NOTSET" | "" => Ok(AutoPad::NotSet),
        "SAME_UPPER" | "SAME_LOWER" => Ok(AutoPad::Same),
        "VALID" => Ok(AutoPad::Valid),
        other => Err(RelError::at(
            0,
            format!(
                "`auto_pad` is \"{other}\"; it is one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"
            ),
        )),
    }
}

/// The sliding window of a convolution or pool over `n` spatial axes.
struct Window {
    kernel: Vec<Dim>,
    strides: Vec<i64>,
    dilations: Vec<i64>,
    /// Begins then ends; `None` when `auto_pad` decides.
    pads: Option<Vec<i64>>,
    auto_pad: AutoPad,
    ceil: bool,
}

impl Window {
    /// The window's attributes for `n` spatial axes and this kernel.
    fn read(cx: &RelCx<'_>, n: usize, kernel: Vec<Dim>) -> Result<Window, RelError> {
        let strides = per_axis(cx, "strides", n, 1, 1)?;
        let dilations = per_axis(cx, "dilations", n, 1, 1)?;
        let pads = match cx.attrs().ints("pads")? {
            Some(p) if !p.is_empty() => {
                if p.len() != 2 * n {
                    return Err(RelError::at(
                        0,
                        format!(
                            "`pads` has {} values for {n} spatial axes (it takes {})",
                            p.len(),
                            2 * n
                        ),
                    ));
                }
                if let Some(bad) = p.iter().find(|&&x| x < 0) {
                    return Err(RelError::at(
                        0,
                        format!("`pads` has {bad}, and a pad is at least 0"),
                    ));
                }
                Some(p)
            }
            _ => None,
        };
        let auto_pad = auto_pad(cx)?;
        let ceil = cx.attrs().int("ceil_mode")?.unwrap_or(0) != 0;
        Ok(Window {
            kernel,
            strides,
            dilations,
            pads,
            auto_pad,
            ceil,
        })
    }

    /// The output's spatial sizes for the input's (`inp`, axis `2 + i`).
    fn out(&self, cx: &mut RelCx<'_>, inp: &[Dim]) -> Result<Vec<Dim>, RelError> {
        let n = inp.len();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let d = inp[i];
            let s = self.strides[i];
            let sk = konst(cx, s);
            // The dilated kernel: (k - 1) * d + 1.
            let ek = {
                let dims = &mut cx.tcx().dims;
                let km1 = dims.konst(-1);
                let k1 = dims.add(self.kernel[i], km1).map_err(arith(1))?;
                let kd = dims.scale(k1, self.dilations[i]).map_err(arith(1))?;
                let one = dims.konst(1);
                dims.add(kd, one).map_err(arith(1))?
            };
            let o = match (self.pads.as_ref(), self.auto_pad) {
                (None, AutoPad::Same) => {
                    // ceil(D / s)
                    let dims = &mut cx.tcx().dims;
                    let sm1 = dims.konst(s - 1);
                    let num = dims.add(d, sm1).map_err(arith(0))?;
                    dims.floordiv(num, sk).map_err(arith(0))?
                }
                (pads, mode) => {
                    let (pb, pe) = match (pads, mode) {
                        (Some(p), _) => (p[i], p[i + n]),
                        _ => (0, 0),
                    };
                    let dims = &mut cx.tcx().dims;
                    let pad = dims.konst(
                        pb.checked_add(pe)
                            .ok_or_else(|| RelError::at(0, "`pads` overflow"))?,
                    );
                    let padded = dims.add(d, pad).map_err(arith(0))?;
                    let room = dims.sub(padded, ek).map_err(arith(0))?;
                    if let (Some(r), Some(p), Some(k)) = (
                        dims.as_const(room),
                        dims.as_const(padded),
                        dims.as_const(ek),
                    ) {
                        if r < 0 {
                            return Err(RelError::at(
                                0,
                                format!(
                                    "kernel of {k} on axis {} is larger than the padded input ({p})",
                                    i + 2
                                ),
                            ));
                        }
                    }
                    let num = if self.ceil {
                        let sm1 = dims.konst(s - 1);
                        dims.add(room, sm1).map_err(arith(0))?
                    } else {
                        room
                    };
                    let q = dims.floordiv(num, sk).map_err(arith(0))?;
                    let one = dims.konst(1);
                    let mut o = dims.add(q, one).map_err(arith(0))?;
                    if self.ceil {
                        // A last window that would start in the end padding is dropped.
                        if let (Some(oc), Some(dc)) = (dims.as_const(o), dims.as_const(d)) {
                            if (oc - 1).saturating_mul(s) >= dc.saturating_add(pb) {
                                o = dims.konst(oc - 1);
                            }
                        } else {
                            // For a symbolic axis, no window can start there when
                            // `pad_end + stride <= kernel`; else it depends on the size.
                            let safe = dims.as_const(ek).is_some_and(|k| pe.saturating_add(s) <= k);
                            if !safe {
                                o = Dims::ANY;
                            }
                        }
                    }
                    o
                }
            };
            out.push(o);
        }
        Ok(out)
    }
}

/// An error when a computed spatial size `d` (axis `axis` of the result) is a negative
/// constant (0 is an empty result, as ONNX's inference allows).
fn nonneg(cx: &RelCx<'_>, d: Dim, axis: usize) -> Result<(), RelError> {
    match as_const(cx, d) {
        Some(c) if c < 0 => Err(RelError::at(
            0,
            format!(
                "axis {axis} of the result would be {c}: the padding is larger than the output"
            ),
        )),
        _ => Ok(()),
    }
}

/// An error when a size given as a value (argument `arg`, named `what`) has a negative
/// constant.
fn sizes_nonneg(cx: &RelCx<'_>, dims: &[Dim], arg: usize, what: &str) -> Result<(), RelError> {
    for &d in dims {
        if let Some(c) = as_const(cx, d) {
            if c < 0 {
                return Err(RelError::at(
                    arg,
                    format!("`{what}` has {c}, and a size is at least 0"),
                ));
            }
        }
    }
    Ok(())
}

/// `(N, C, D1, ..)`: an error when the input has fewer than 3 axes.
pub(crate) fn spatial_input(cx: &mut RelCx<'_>, dims: &[Dim], what: &str) -> Result<(), RelError> {
    if dims.len() < 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("{what} takes `(N, C, D1, ..)` with at least one spatial axis, and the input is `{t}`"),
        ));
    }
    Ok(())
}
