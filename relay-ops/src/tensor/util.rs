//! What the tensor relations share: showing arguments, reading integer tensors, axes.

use relay_core::{DTy, Dim, RelCx, RelError, TyData};

pub(crate) use crate::level3::util::{arith, shown, unify_or};

/// Whether `dt` is known not to be an integer type.
pub(crate) fn not_integer(cx: &mut RelCx<'_>, dt: DTy) -> bool {
    matches!(cx.resolve_dtype(dt), DTy::Known(d) if !d.is_int())
}

/// Argument `arg` of `op` (`what` names it) if it is a tensor of known rank: of one of
/// `ranks` (any, when empty), of integers if `int`.
pub(crate) fn part(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
    what: &str,
    ranks: &[usize],
    int: bool,
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let Some((dims, dt)) = cx.tensor_dims(arg)? else {
        return Ok(None);
    };
    if (!ranks.is_empty() && !ranks.contains(&dims.len())) || (int && not_integer(cx, dt)) {
        let t = shown(cx, arg);
        let ranks: Vec<String> = ranks
            .iter()
            .map(|r| {
                if *r == 0 {
                    "a scalar".into()
                } else {
                    format!("{r}-D")
                }
            })
            .collect();
        let kind = if int { " of integers" } else { "" };
        let sep = if ranks.is_empty() { "" } else { " " };
        return Err(RelError::at(
            arg,
            format!(
                "`{op}` expects {what}{sep}{}{kind}, found `{t}`",
                ranks.join(" or ")
            ),
        ));
    }
    Ok(Some((dims, dt)))
}

/// A tensor's dimensions and dtype.
pub(super) type TensorDims = (Vec<Dim>, DTy);

/// The fields of a tuple argument `arg` of `op`, each a tensor of known rank; `None`
/// while any is unknown.
pub(super) fn tuple_of_tensors(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
) -> Result<Option<Vec<TensorDims>>, RelError> {
    let t = cx.resolve(cx.arg(arg));
    let not_tensors = |cx: &RelCx<'_>| {
        let s = cx.show(t);
        RelError::at(
            arg,
            format!("`{op}` expects a tuple of tensors, found `{s}`"),
        )
    };
    let fields: Vec<_> = match cx.data(t) {
        TyData::Tuple(f) => f.to_vec(),
        TyData::Var(_) => return Ok(None),
        _ => return Err(not_tensors(cx)),
    };
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let f = cx.resolve(f);
        match cx.data(f).clone() {
            TyData::Tensor(s, dt) => match cx.tcx_ref().shape_dims(s) {
                Some(d) => out.push((d.to_vec(), dt)),
                None => return Ok(None),
            },
            TyData::Var(_) => return Ok(None),
            _ => return Err(not_tensors(cx)),
        }
    }
    Ok(Some(out))
}

/// Unifies `got` (argument `arg`'s dimensions) with `want` position by position, or fails
/// with `message`.
pub(crate) fn same_dims(
    cx: &mut RelCx<'_>,
    arg: usize,
    got: &[Dim],
    want: &[Dim],
    message: impl FnOnce(&mut RelCx<'_>) -> String,
) -> Result<(), RelError> {
    let ok = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(&a, &b)| cx.unify_dim(a, b, arg).is_ok());
    if !ok {
        let m = message(cx);
        return Err(RelError::at(arg, m));
    }
    Ok(())
}
