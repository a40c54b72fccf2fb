//! Misuse and bad input are errors that say what is wrong, never panics.

use relay_core::{Outcome, Solver, TyCtx};

#[test]
fn a_relation_given_the_wrong_number_of_arguments_is_an_error() {
    let mut s = Solver::new(TyCtx::new());
    let a = s.fresh_ty();
    s.add_relation(relay_core::testing::BROADCAST, &[a], None, 7);
    let Outcome::Failed(errors) = s.solve() else {
        panic!("expected a failure")
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].relation, "Broadcast");
    assert_eq!(errors[0].origin, 7);
    assert_eq!(
        errors[0].message,
        "`Broadcast` takes 3 arguments but was given 1"
    );
}
