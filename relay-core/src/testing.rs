//! Hand-written relations over the [`crate::RelCx`] interface, used by the solver's
//! tests and benchmarks (the operator library declares its own with `#[relation]`).
//!
//! - [`IDENTITY`]: `Identity(I, I, ...) :- true`: every argument is the same type, so
//!   information flows in every direction.
//! - [`BROADCAST`]: `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :-
//!   O = Tensor(broadcast(s1, s2), bt)`. A shape broadcast with itself or with a scalar
//!   is itself even when its rank is unknown; a shape parameter next to any other shape
//!   is an error (its rank never becomes known).

use crate::kind::Param;
use crate::relation::{Progress, RelCx, RelError, RelResult, RelationDef, RelationRef};
use crate::shape::broadcast;
use crate::ty::ShapeData;

fn identity(cx: &mut RelCx<'_>) -> RelResult {
    let first = cx.arg(0);
    for i in 1..cx.len() {
        cx.unify(i, first)?;
    }
    Ok(Progress::Solved)
}

static IDENTITY_DEF: RelationDef = RelationDef {
    name: "Identity",
    arity: None,
    solve: identity,
};

/// `Identity(I, I, ...) :- true`.
pub const IDENTITY: RelationRef = RelationRef(&IDENTITY_DEF);

fn broadcast_rel(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((s1, d1)), Some((s2, d2))) = (cx.tensor(0)?, cx.tensor(1)?) else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(d1, d2, 1)?;
    let dtype = cx.resolve_dtype(d1);
    // Whole shapes first: a shape broadcast with itself or with a scalar is itself, even
    // when it is a shape variable or a shape parameter (its dimensions unknown).
    let rank0 = |cx: &mut RelCx<'_>, s| cx.tcx().shape_dims(s).is_some_and(|d| d.is_empty());
    let whole = if s1 == s2 || rank0(cx, s2) {
        Some(s1)
    } else if rank0(cx, s1) {
        Some(s2)
    } else {
        None
    };
    if let Some(shape) = whole {
        let out = cx.tcx().tensor(shape, dtype);
        cx.unify(2, out)?;
        return Ok(Progress::Solved);
    }
    let tcx = cx.tcx_ref();
    let result = match (tcx.shape_data(s1), tcx.shape_data(s2)) {
        (ShapeData::Dims(a), ShapeData::Dims(b)) => broadcast(&tcx.dims, a, b),
        (ShapeData::Param(p), _) => {
            let p = *p;
            return Err(shape_param_error(cx, 0, p));
        }
        (_, ShapeData::Param(p)) => {
            let p = *p;
            return Err(shape_param_error(cx, 1, p));
        }
        _ => return Ok(Progress::NotYet),
    };
    match result {
        Ok(Some(dims)) => {
            let out = cx.mk_tensor(&dims, dtype);
            cx.unify(2, out)?;
            Ok(Progress::Solved)
        }
        Ok(None) => Ok(Progress::NotYet),
        Err(clash) => {
            let (a, b) = (cx.arg(0), cx.arg(1));
            Err(RelError::at(
                1,
                format!(
                    "`{}` and `{}` do not broadcast: dimension {} of the first is {} and dimension {} of the second is {}",
                    cx.show(a),
                    cx.show(b),
                    clash.lhs_index,
                    cx.show_dim(clash.lhs),
                    clash.rhs_index,
                    cx.show_dim(clash.rhs),
                ),
            ))
        }
    }
}

/// A rigid shape parameter next to a different shape: it has no rank to align, and
/// waiting would never give it one.
fn shape_param_error(cx: &mut RelCx<'_>, blame: usize, p: Param) -> RelError {
    let (a, b) = (cx.arg(0), cx.arg(1));
    let name = cx.tcx().param_name(p).to_string();
    RelError::at(
        blame,
        format!(
            "cannot broadcast `{}` with `{}`: the shape parameter `{name}` has no known rank",
            cx.show(a),
            cx.show(b),
        ),
    )
}

static BROADCAST_DEF: RelationDef = RelationDef {
    name: "Broadcast",
    arity: Some(3),
    solve: broadcast_rel,
};

/// `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)`.
pub const BROADCAST: RelationRef = RelationRef(&BROADCAST_DEF);
