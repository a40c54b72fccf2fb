//! Hand-written relations over the [`crate::RelCx`] interface, used by the solver's
//! tests and benchmarks (the operator library declares its own with `#[relation]`).
//!
//! - [`IDENTITY`]: `Identity(I, I, ...) :- true`: every argument is the same type, so
//!   information flows in every direction.
//! - [`BROADCAST`]: `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :-
//!   O = Tensor(broadcast(s1, s2), bt)`.

use crate::relation::{Progress, RelCx, RelError, RelResult, RelationDef, RelationRef};
use crate::shape::broadcast;

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
    let lhs = cx.tensor_dims(0)?;
    let rhs = cx.tensor_dims(1)?;
    let (Some((s1, d1)), Some((s2, d2))) = (lhs, rhs) else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(d1, d2, 1)?;
    let dtype = cx.resolve_dtype(d1);
    match broadcast(&cx.tcx().dims, &s1, &s2) {
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

static BROADCAST_DEF: RelationDef = RelationDef {
    name: "Broadcast",
    arity: Some(3),
    solve: broadcast_rel,
};

/// `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)`.
pub const BROADCAST: RelationRef = RelationRef(&BROADCAST_DEF);
