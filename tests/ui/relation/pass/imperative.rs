//! The imperative form: a function, with any visibility, named after the relation.

use relay_core::{relation, Progress, RelCx, RelResult, Relation};

mod inner {
    use super::*;

    /// `Swap(A, B, O) :- O = (B, A)`.
    #[relation(Swap)]
    pub(crate) fn swap(cx: &mut RelCx<'_>) -> RelResult {
        let (a, b) = (cx.arg(0), cx.arg(1));
        let out = cx.tcx().tuple(&[b, a]);
        cx.unify(2, out)?;
        Ok(Progress::Solved)
    }
}

#[relation(Always)]
fn always(_: &mut relay_core::RelCx) -> Result<Progress, relay_core::RelError> {
    Ok(Progress::Solved)
}

fn main() {
    assert_eq!(inner::Swap::DEF.name, "Swap");
    assert_eq!(Always::DEF.name, "Always");
}
