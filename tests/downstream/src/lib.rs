//! A downstream crate: its own relation, operator and data type, found at run time next
//! to those of relay-ops.
//!
//! The relation is written by hand over the `Relation` trait (to be replaced by
//! `#[relation(Same(I, I) :- true)]` once that macro lands).

use relay_core::{relay_data, relay_op, Progress, RelCx, RelResult, Relation, RelationDef};

// Link relay-ops so that its declarations are registered next to ours.
use relay_ops as _;

/// `Same(A, B) :- A = B`.
pub struct Same;

fn same(cx: &mut RelCx<'_>) -> RelResult {
    let a = cx.arg(0);
    cx.unify(1, a)?;
    Ok(Progress::Solved)
}

static SAME: RelationDef = RelationDef {
    name: "Same",
    arity: Some(2),
    solve: same,
};

impl Relation for Same {
    const DEF: &'static RelationDef = &SAME;
}

relay_core::__private::inventory::submit! {
    relay_core::__private::RelationEntry { def: &SAME, file: file!(), line: line!() }
}

relay_op! {
    /// Returns its argument unchanged (a downstream operator).
    my.identity : fn<a: Type, b: Type>(data: a) -> b where Same,
        attrs { note: str = "" },
        level 9;
}

relay_data! {
    /// A pair of lists (a downstream data type over the prelude's `List`).
    data Zipper<a> {
        MkZipper : (before: List[a], after: List[a]) -> Zipper,
    }
}
