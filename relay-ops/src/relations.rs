//! The relations of the operator library.
//!
//! TO BE REPLACED: `Broadcast` is written by hand over the `Relation` trait, reusing the
//! hand-written solver of `relay_core::testing`, until the `#[relation]` macro lands; it
//! then becomes
//! `#[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]`.

use relay_core::{Relation, RelationDef};

/// `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)`.
pub struct Broadcast;

impl Relation for Broadcast {
    const DEF: &'static RelationDef = relay_core::testing::BROADCAST.0;
}

relay_core::__private::inventory::submit! {
    relay_core::__private::RelationEntry {
        def: <Broadcast as Relation>::DEF,
        file: file!(),
        line: line!(),
    }
}
