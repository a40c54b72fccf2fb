//! What the declaration macros expand into. Not public API: may change at any time.

pub use crate::adt::{CtorCall, CtorDef, DataDef};
pub use crate::agreement::{AttrSig, Disagreement};
pub use crate::attrs::AttrValue;
pub use crate::clause::{builtin, fast};
pub use crate::clause::{
    run_clause, Arith, AttrDecl, AttrType, Clause, Cmp, Goal, Item, Message, RustFn, Term, Value,
};
pub use crate::dtype::{DType, DTypeCode};
pub use crate::kind::Kind;
pub use crate::op::{
    AttrConst, AttrDef, AttrType as OpAttrType, CallBuilder, OneOrList, OpCall, OpDef, TypeParamDef,
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

/// A list attribute's value from the items given to a builder's setter, each converted
/// by `value`: what the setters of `[T]` attributes call.
pub fn attr_list<X>(
    items: impl IntoIterator<Item = X>,
    value: impl FnMut(X) -> AttrValue,
) -> AttrValue {
    AttrValue::List(items.into_iter().map(value).collect())
}
