//! The relations of the compiler-internal operators that are not the identity: calls of
//! lowered functions, allocations, and the VM's reshape. Imperative: they take function
//! types apart and return the `Storage` data type.

use crate::level3::util::shown;
use relay_core::{
    relation, DTy, DType, Dim, Dims, FuncTy, Progress, RelCx, RelError, RelResult, Ty, TyData,
};

/// The most dimensions a tensor allocated from a shape tensor's length may have.
const MAX_RANK: i64 = 65536;

/// The function type of argument `arg` of `op`: `None` while unknown. A function with type
/// parameters (or relations) is refused: a lowered function is monomorphic, and TVM's
/// relations use its parameters' types as they are, without instantiating them.
fn lowered_fn(cx: &mut RelCx<'_>, op: &str, arg: usize) -> Result<Option<FuncTy>, RelError> {
    let t = cx.arg(arg);
    let t = cx.resolve(t);
    match cx.data(t) {
        TyData::Var(_) => Ok(None),
        TyData::Func(f) if f.params.is_empty() && f.constraints.is_empty() => {
            Ok(Some((**f).clone()))
        }
        TyData::Func(_) => {
            let s = cx.show(t);
            Err(RelError::at(
                arg,
                format!(
                    "`{op}` calls a lowered function, which has no type parameters, found `{s}`"
                ),
            ))
        }
        _ => {
            let s = cx.show(t);
            Err(RelError::at(
                arg,
                format!("`{op}` calls a function, found `{s}`"),
            ))
        }
    }
}

/// Unifies tuple argument `arg` of `op` (`what` in messages) with the tuple `want` of
/// `f`'s parameters or results, field by field, naming the one that differs.
fn tuple_of(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
    what: &str,
    want: &[Ty],
) -> Result<(), RelError> {
    let t = cx.arg(arg);
    let t = cx.resolve(t);
    match cx.data(t) {
        TyData::Var(_) => {}
        TyData::Tuple(fields) if fields.len() == want.len() => {
            let fields = fields.to_vec();
            for (i, (&f, &w)) in fields.iter().zip(want).enumerate() {
                if cx.unify_blaming(f, w, arg).is_err() {
                    let (f, w) = (cx.resolve(f), cx.resolve(w));
                    let (f, w) = (cx.show(f), cx.show(w));
                    return Err(RelError::at(
                        arg,
                        format!("field {i} of the {what} of `{op}` is `{f}`, but the function's is `{w}`"),
                    ));
                }
            }
            return Ok(());
        }
        _ => {
            let s = cx.show(t);
            return Err(RelError::at(
                arg,
                format!(
                    "the {what} of `{op}` must be a tuple of {} fields, as the function's, found `{s}`",
                    want.len()
                ),
            ));
        }
    }
    let tuple = cx.tcx().tuple(want);
    cx.unify(arg, tuple)
}

/// `call_lowered(func, call_args)`: `call_args` is the tuple of `func`'s parameters, the
/// result `func`'s result.
#[relation(CallLowered)]
pub fn call_lowered_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "call_lowered";
    let Some(f) = lowered_fn(cx, op, 0)? else {
        return Ok(Progress::NotYet);
    };
    tuple_of(cx, op, 1, "arguments", &f.args)?;
    cx.unify(2, f.ret)?;
    Ok(Progress::Solved)
}

/// `vm.invoke_tvm_op(func, ins, outs)`: `ins` is the tuple of `func`'s parameters, `outs`
/// the tuple of its results (a tensor result is a tuple of one); the result is `()`.
#[relation(InvokeTVMOp)]
pub fn invoke_tvm_op_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "vm.invoke_tvm_op";
    let unit = cx.tcx().tuple(&[]);
    cx.unify(3, unit)?;
    let Some(f) = lowered_fn(cx, op, 0)? else {
        return Ok(Progress::NotYet);
    };
    tuple_of(cx, op, 1, "inputs", &f.args)?;
    let ret = cx.resolve(f.ret);
    let outs = match cx.data(ret) {
        TyData::Tensor(..) => vec![ret],
        TyData::Tuple(fields) => fields.to_vec(),
        TyData::Var(_) => return Ok(Progress::NotYet),
        _ => {
            let s = cx.show(ret);
            return Err(RelError::at(
                0,
                format!("the function of `{op}` must return a tensor or a tuple, found `{s}`"),
            ));
        }
    };
    tuple_of(cx, op, 2, "outputs", &outs)?;
    Ok(Progress::Solved)
}

/// The type `Storage` (TVM's `extern type Storage`, here the data type [`Storage`]
/// declares), or an error when no data type of that name is loaded.
///
/// [`Storage`]: super::Storage
fn storage(cx: &mut RelCx<'_>, op: &str) -> Result<Ty, RelError> {
    match cx.tcx_ref().adt_named("Storage") {
        Some(adt) => Ok(cx.tcx().adt_ty(adt)),
        None => Err(RelError::new(format!(
            "`{op}` needs the data type `Storage`, which is not loaded"
        ))),
    }
}

/// Unifies argument `arg` (`name`) of `op` with an `int64` scalar.
fn int64_scalar(cx: &mut RelCx<'_>, op: &str, arg: usize, name: &str) -> Result<(), RelError> {
    let t = cx.mk_tensor(&[], DTy::Known(DType::INT64));
    if cx.unify(arg, t).is_err() {
        return Err(cx.error_showing(arg, |s| {
            format!("`{name}` of `{op}` must be an int64 scalar, found `{s}`")
        }));
    }
    Ok(())
}

/// The dimensions of tensor argument `arg` (`name`) of `op`: `None` while unknown.
fn tensor_arg(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
    name: &str,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    cx.tensor_dims(arg).map_err(|_| {
        let s = shown(cx, arg);
        RelError::at(
            arg,
            format!("`{name}` of `{op}` must be a tensor, found `{s}`"),
        )
    })
}

/// `memory.alloc_storage(size, shape, alignment)`: a `Storage`; `size` and `alignment`
/// are `int64` scalars (inferred when unknown), `shape` a tensor.
#[relation(AllocStorage)]
pub fn alloc_storage_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "memory.alloc_storage";
    int64_scalar(cx, op, 0, "size")?;
    int64_scalar(cx, op, 2, "alignment")?;
    let s = storage(cx, op)?;
    cx.unify(3, s)?;
    Ok(match tensor_arg(cx, op, 1, "shape")? {
        Some(_) => Progress::Solved,
        None => Progress::NotYet,
    })
}

/// `memory.alloc_tensor(storage, offset, shape)`: a tensor of `dtype` allocated in a
/// `Storage`, whose shape is `assert_shape`, or has the length of the 1-D `shape` (the
/// values of `const_shape` live in the metadata section, which is not read: each
/// dimension is then `?`).
#[relation(AllocTensor)]
pub fn alloc_tensor_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "memory.alloc_tensor";
    let s = storage(cx, op)?;
    if cx.unify(0, s).is_err() {
        return Err(cx.error_showing(0, |t| {
            format!("the storage of `{op}` must be a `Storage`, found `{t}`")
        }));
    }
    let dtype = cx
        .attrs()
        .dtype("dtype")?
        .ok_or_else(|| RelError::new("attribute `dtype` is missing"))?;
    let asserted = cx.attrs().ints("assert_shape")?;
    let constant = cx.attrs().str("const_shape")?.is_some();
    if asserted.is_none() && !constant {
        return Err(RelError::new(format!(
            "`{op}` needs `const_shape` or `assert_shape`"
        )));
    }
    let offset = tensor_arg(cx, op, 1, "offset")?;
    let Some((shape, _)) = tensor_arg(cx, op, 2, "shape")? else {
        return Ok(Progress::NotYet);
    };
    let rank = match shape.as_slice() {
        [] => 0,
        [d] => match cx.tcx_ref().dims.as_const(*d) {
            Some(r) if (0..=MAX_RANK).contains(&r) => r as usize,
            Some(r) => {
                return Err(RelError::at(
                    2,
                    format!(
                    "the shape of `{op}` has {r} elements: a tensor has 0 to {MAX_RANK} dimensions"
                ),
                ))
            }
            None => {
                return Err(cx.error_showing(2, |t| {
                    format!("the shape of `{op}` must have a static length, found `{t}`")
                }));
            }
        },
        _ => {
            return Err(cx.error_showing(2, |t| {
                format!("the shape of `{op}` must be 1-D, found `{t}`")
            }));
        }
    };
    let dims: Vec<Dim> = match asserted {
        Some(a) => {
            if a.len() != rank {
                return Err(RelError::at(
                    2,
                    format!(
                        "`assert_shape` has {} dimensions but the shape of `{op}` has {rank} elements",
                        a.len()
                    ),
                ));
            }
            if let Some(bad) = a.iter().find(|&&d| d < 0) {
                return Err(RelError::new(format!(
                    "`assert_shape` of `{op}` must not have a negative dimension, found {bad}"
                )));
            }
            a.iter().map(|&d| cx.tcx().dims.konst(d)).collect()
        }
        None => vec![Dims::ANY; rank],
    };
    cx.unify_tensor(3, &dims, DTy::Known(dtype))?;
    Ok(match offset {
        Some(_) => Progress::Solved,
        None => Progress::NotYet,
    })
}

/// `memory.kill(to_free)`: `()`.
#[relation(Kill)]
pub fn kill_rel(cx: &mut RelCx<'_>) -> RelResult {
    let unit = cx.tcx().tuple(&[]);
    cx.unify(1, unit)?;
    Ok(Progress::Solved)
}

/// `vm.reshape_tensor(data, shape)`: the data's dtype in `newshape`, which must hold as
/// many elements as the data when both are static (TVM does not check).
#[relation(ReshapeTensor)]
pub fn reshape_tensor_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "vm.reshape_tensor";
    let newshape = cx
        .attrs()
        .ints("newshape")?
        .ok_or_else(|| RelError::new("attribute `newshape` is missing"))?;
    if let Some(bad) = newshape.iter().find(|&&d| d < 0) {
        return Err(RelError::new(format!(
            "`newshape` of `{op}` must not have a negative dimension, found {bad}"
        )));
    }
    let shape = tensor_arg(cx, op, 1, "shape")?;
    let Some((data, dt)) = tensor_arg(cx, op, 0, "data")? else {
        return Ok(Progress::NotYet);
    };
    let ds = &cx.tcx_ref().dims;
    let have = count(data.iter().map(|&d| ds.as_const(d)));
    let want = count(newshape.iter().map(|&d| Some(d)));
    if let (Some(h), Some(w)) = (have, want) {
        if h != w {
            return Err(cx.error_showing(0, |t| {
                format!("`{op}` cannot reshape `{t}` ({h} elements) to `newshape` of {w} elements")
            }));
        }
    }
    let dims: Vec<Dim> = newshape.iter().map(|&d| cx.tcx().dims.konst(d)).collect();
    cx.unify_tensor(2, &dims, dt)?;
    Ok(match shape {
        Some(_) => Progress::Solved,
        None => Progress::NotYet,
    })
}

/// The product of `dims` when every one is known and it fits in `i64`.
fn count(dims: impl Iterator<Item = Option<i64>>) -> Option<i64> {
    let mut acc = 1i64;
    for d in dims {
        acc = acc.checked_mul(d?)?;
    }
    Some(acc)
}
