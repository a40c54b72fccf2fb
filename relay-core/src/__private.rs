//! What the declaration macros expand into. Not public API: may change at any time.

pub use crate::adt::{CtorCall, CtorDef, DataDef};
pub use crate::agreement::{AttrSig, Disagreement};
pub use crate::clause::{
    run_clause, Arith, AttrDecl, AttrType, Clause, Cmp, Goal, Item, Message, PlanCell, RustFn, Term,
};
pub use crate::dtype::DTypeCode;
pub use crate::kind::Kind;
pub use crate::op::{
    marker, AttrArg, AttrConst, AttrDef, AttrType as OpAttrType, CallBuilder, OpCall, OpDef,
    TypeParamDef,
};
pub use crate::registry::{DataEntry, OpEntry, PreludeEntry, RelationEntry};
pub use crate::relation::{Relation, RelationRef};
pub use core::option::Option::{None, Some};
pub use inventory;
pub use std::vec::Vec;

/// The definition a relation with compile errors implements `Relation` with (so that the
/// operators naming it get no second error); never registered, never run.
pub static UNCOMPILED_RELATION: crate::relation::RelationDef = crate::relation::RelationDef {
    name: "<a relation that did not compile>",
    arity: None,
    needs: &[],
    solve: |_| {
        Err(crate::relation::RelError::new(
            "the relation did not compile",
        ))
    },
};
