//! The spec's three relations, as relay-ops declares them with `#[relation]`, run through
//! the solver: forward and backward propagation, waiting, and failures.

use relay_core::{Outcome, Relation};
use relay_ops::relations::{Broadcast, Flatten, Identity};

use relay_core::testing::TestSolver as T;

#[test]
fn identity_propagates_forward() {
    let mut t = T::new();
    let o = t.var("O");
    t.rel(Identity::REF, &["Tensor[(n, 3), float32]", "O"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(o), "Tensor[(n, 3), float32]");
}

#[test]
fn identity_propagates_backward_from_a_known_output() {
    let mut t = T::new();
    let i = t.var("I");
    t.rel(Identity::REF, &["I", "Tensor[(2, ?), int8]"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(i), "Tensor[(2, ?), int8]");
}

#[test]
fn flatten_multiplies_the_trailing_dimensions() {
    let mut t = T::new();
    let o = t.var("O");
    t.rel(Flatten::REF, &["Tensor[(n, 2, 3), float32]", "O"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(o), "Tensor[(n, 6), float32]");
}

#[test]
fn flatten_waits_until_the_rank_is_known() {
    let mut t = T::new();
    let i = t.var("I");
    let o = t.var("O");
    t.rel(Flatten::REF, &["I", "O"], 0);
    let Outcome::UnderConstrained(waiting) = t.solver.solve() else {
        panic!("Flatten must wait")
    };
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].relation, "Flatten");
    let known = t.ty("Tensor[(4, m, 5), float16]");
    t.solver.unify(i, known).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(o), "Tensor[(4, 5*m), float16]");
}

#[test]
fn broadcast_with_ones_symbols_and_any() {
    let mut t = T::new();
    let (a, b, c) = (t.var("A"), t.var("B"), t.var("C"));
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 1), float32]", "Tensor[(1, 3), float32]", "A"],
        0,
    );
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 3), float32]", "Tensor[(3), float32]", "B"],
        0,
    );
    t.rel(
        Broadcast::REF,
        &["Tensor[(?, 4), float32]", "Tensor[(7, 1), float32]", "C"],
        0,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(a), "Tensor[(n, 3), float32]");
    assert_eq!(t.show_resolved(b), "Tensor[(n, 3), float32]");
    assert_eq!(t.show_resolved(c), "Tensor[(7, 4), float32]");
}

#[test]
fn broadcast_failure_names_both_dimensions() {
    let mut t = T::new();
    t.var("O");
    t.rel(
        Broadcast::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(4, 5), float32]", "O"],
        0,
    );
    let Outcome::Failed(errors) = t.solver.solve() else {
        panic!("(2, 3) and (4, 5) do not broadcast")
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].relation, "Broadcast");
    assert_eq!(
        errors[0].message,
        "`Tensor[(2, 3), float32]` and `Tensor[(4, 5), float32]` do not broadcast: dimension 0 of the first is 2 and dimension 0 of the second is 4"
    );
}

#[test]
fn a_chain_flows_forward_through_all_three() {
    let mut t = T::new();
    let (a, b, c) = (t.var("A"), t.var("B"), t.var("C"));
    // Added last-first: the wake-up rule finishes it.
    t.rel(Flatten::REF, &["B", "C"], 0);
    t.rel(Identity::REF, &["A", "B"], 0);
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 1, 4), float32]", "Tensor[(3, 1), float32]", "A"],
        0,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(a), "Tensor[(n, 3, 4), float32]");
    assert_eq!(t.show_resolved(b), "Tensor[(n, 3, 4), float32]");
    assert_eq!(t.show_resolved(c), "Tensor[(n, 12), float32]");
}
