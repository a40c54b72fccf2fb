//! `onnx.value`: an integer tensor's *value* as a type, the form in which the ONNX
//! relations take a shape computed in the graph (`Reshape`'s `shape`, `Slice`'s `starts`):
//! the elements as the dimensions of an int64 tensor type, `[N*S, 768]` as
//! `Tensor[(N*S, 768), int64]`. Relay's text has no arithmetic on a tensor's contents, so
//! an imported module states such a value with an annotation, which this relation checks
//! against the tensor as far as a type can: its number of elements.

use crate::ops::util::{arith, out_tensor, shown};
use relay_core::{
    relation, relay_op, DTy, DType, Dim, Progress, RelCx, RelError, RelResult, TyData,
};

relay_op! {
    /// The value of the integer tensor `data` as a type: `Tensor[(v0, v1, ..), int64]`.
    ///
    /// - Without `values`: the result is what the `let` binding the call is annotated
    ///   with, and `data` has one element per dimension of it (a scalar, one) or, with
    ///   `at`, more than each of `at`: the result is `data`'s elements at those positions.
    ///   `()` for `data` stands for no tensor (a size that depends on data, named by the
    ///   annotation).
    /// - With `values` (constants, which a type cannot hold when negative: `Reshape`'s
    ///   `-1`): the result is `values`, and `data` has as many elements (or is `()`).
    /// - With `values` and `at`: `data` is a value (an `onnx.value`'s result) whose
    ///   elements are the result's at positions `at`, `values` the others in order.
    onnx.value : fn<a, b>(data: a) -> b where OnnxValue,
        attrs { values: Option<[int]> = None, at: Option<[int]> = None },
        level 10;
}

/// `OnnxValue(data, out)`.
#[relation(OnnxValue)]
pub fn onnx_value(cx: &mut RelCx<'_>) -> RelResult {
    let values = cx.attrs().ints("values")?;
    let at = cx.attrs().ints("at")?;
    let data = cx.resolve(cx.arg(0));
    let absent = matches!(cx.data(data), TyData::Tuple(f) if f.is_empty());
    match (values, at) {
        (None, at) => {
            // The annotation is the value: an int64 tensor of known rank.
            let Some((out, dt)) = cx.tensor_dims(1)? else {
                return Ok(Progress::NotYet);
            };
            if dt != DTy::Known(DType::INT64) {
                let t = shown(cx, 1);
                return Err(RelError::at(
                    1,
                    format!("a value is an int64 tensor, and this is `{t}`"),
                ));
            }
            if absent {
                return match at {
                    None => Ok(Progress::Solved),
                    Some(_) => Err(RelError::at(
                        0,
                        "`at` selects elements of a tensor, and `data` is `()`",
                    )),
                };
            }
            let Some(n) = elements(cx)? else {
                return Ok(Progress::NotYet);
            };
            match at {
                None if n == out.len() => Ok(Progress::Solved),
                None => {
                    let t = shown(cx, 0);
                    let v = shown(cx, 1);
                    Err(RelError::at(
                        1,
                        format!(
                            "`{t}` has {n} element{}, and the value `{v}` {}",
                            plural(n),
                            of_len(out.len())
                        ),
                    ))
                }
                Some(at) => {
                    if at.len() != out.len() {
                        let v = shown(cx, 1);
                        return Err(RelError::at(
                            1,
                            format!(
                                "`at` selects {} element{}, and the value `{v}` {}",
                                at.len(),
                                plural(at.len()),
                                of_len(out.len())
                            ),
                        ));
                    }
                    match at
                        .iter()
                        .find(|&&a| usize::try_from(a).map_or(true, |a| a >= n))
                    {
                        Some(a) => {
                            let t = shown(cx, 0);
                            Err(RelError::at(
                                0,
                                format!("`at` selects element {a} of `{t}`, which has {n}"),
                            ))
                        }
                        None => Ok(Progress::Solved),
                    }
                }
            }
        }
        (Some(values), None) => {
            if !absent {
                let Some(n) = elements(cx)? else {
                    return Ok(Progress::NotYet);
                };
                if n != values.len() {
                    let t = shown(cx, 0);
                    return Err(RelError::at(
                        0,
                        format!(
                            "`{t}` has {n} element{}, and `values` {}",
                            plural(n),
                            values.len()
                        ),
                    ));
                }
            }
            let dims: Vec<Dim> = values.iter().map(|&v| cx.tcx().dims.konst(v)).collect();
            out_tensor(cx, 1, &dims, DTy::Known(DType::INT64))
        }
        (Some(values), Some(at)) => {
            let Some((given, dt)) = cx.tensor_dims(0)? else {
                return Ok(Progress::NotYet);
            };
            if dt != DTy::Known(DType::INT64) || given.len() != at.len() {
                let t = shown(cx, 0);
                return Err(RelError::at(
                    0,
                    format!(
                        "`data` gives the elements at `at` ({} of them) as a value, and is `{t}`",
                        at.len()
                    ),
                ));
            }
            let len = values.len() + at.len();
            let mut out: Vec<Option<Dim>> = vec![None; len];
            for (&a, &d) in at.iter().zip(&given) {
                match usize::try_from(a).ok().filter(|&a| a < len) {
                    Some(a) if out[a].is_none() => out[a] = Some(d),
                    _ => {
                        return Err(RelError::at(
                            0,
                            format!("`at` has {a}, which is not a position of a value of {len} elements, or is there twice"),
                        ))
                    }
                }
            }
            let mut rest = values.iter();
            let mut dims = Vec::with_capacity(len);
            for slot in out {
                let d = match slot {
                    Some(d) => d,
                    None => {
                        let v = *rest
                            .next()
                            .expect("`values` fills the positions `at` leaves");
                        cx.tcx().dims.konst(v)
                    }
                };
                dims.push(d);
            }
            out_tensor(cx, 1, &dims, DTy::Known(DType::INT64))
        }
    }
}

/// The number of elements of `data` (argument 0), an integer tensor of constant shape;
/// `None` while its type is not known.
fn elements(cx: &mut RelCx<'_>) -> Result<Option<usize>, RelError> {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(None);
    };
    let integer = match dt {
        DTy::Known(d) => d.is_int(),
        _ => return Ok(None),
    };
    let product = cx.tcx().dims.product(&dims).map_err(arith(0))?;
    let count = cx
        .tcx_ref()
        .dims
        .as_const(product)
        .and_then(|c| usize::try_from(c).ok());
    match count {
        Some(n) if integer => Ok(Some(n)),
        _ => {
            let t = shown(cx, 0);
            Err(RelError::at(
                0,
                format!(
                    "a value is that of an integer tensor of constant shape, and `data` is `{t}`"
                ),
            ))
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn of_len(rank: usize) -> String {
    format!("has {rank} element{}", plural(rank))
}
