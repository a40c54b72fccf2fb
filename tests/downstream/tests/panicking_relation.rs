//! An imperative relation that panics (it reads a third dimension of a rank-2 input
//! without checking the rank; this test binary declares it): the check goes on, and the
//! panic is an internal error of that relation, naming it.

use relay_core::{relation, relay_op, Progress, RelCx, RelResult};
use relay_ops::prelude::Prelude;

#[relation(ThirdDim)]
fn third_dim(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dtype)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let shape = cx.tcx().shape(&[dims[2]]);
    let out = cx.tcx().tensor(shape, dtype);
    cx.unify(1, out)?;
    Ok(Progress::Solved)
}

relay_op! {
    careless.third_dim : fn<a, b>(data: a) -> b where ThirdDim;
}

#[test]
fn a_panic_is_an_internal_error_of_the_relation() {
    let prelude = Prelude::standard().unwrap();
    let checked = prelude.check(
        "def @f(%x: Tensor[(2, 3), float32]) { careless.third_dim(%x) }\n\
         def @g(%x: Tensor[(2, 3, 4), float32]) { careless.third_dim(%x) }\n\
         def @h(%x: float32) { %x + 1f }",
    );
    let errors: Vec<String> = checked.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["internal error: relation `ThirdDim` panicked: index out of bounds: the len is 2 but the index is 2\n  \
          = this is a bug of the relation, not of the program: report it to the crate that declares it\n  \
          = from the relation `ThirdDim` of `careless.third_dim`"]
    );
    // The other definitions are typed.
    let (m, typed) = checked.typed.as_ref().unwrap();
    let g = m.global("g").unwrap();
    assert_eq!(
        typed.show(typed.global_ty(g)),
        "fn (Tensor[(2, 3, 4), float32]) -> Tensor[(4), float32]"
    );
}
