//! Remembered relation results: a relation over known inputs with an unknown result is
//! run once per distinct inputs; the answer is the same with and without remembering.

use relay_core::solve::Outcome;
use relay_core::testing::{TestSolver, BROADCAST};

fn two_same_broadcasts(remember: bool) -> (TestSolver, String, String) {
    let mut t = TestSolver::new();
    t.solver.remember_results(remember);
    let (a, b) = (t.var("a"), t.var("b"));
    t.rel(
        BROADCAST,
        &["Tensor[(n, 1), float32]", "Tensor[(3), float32]", "a"],
        1,
    );
    t.rel(
        BROADCAST,
        &["Tensor[(n, 1), float32]", "Tensor[(3), float32]", "b"],
        2,
    );
    assert!(matches!(t.solver.solve(), Outcome::Solved));
    let (sa, sb) = (t.show_resolved(a), t.show_resolved(b));
    (t, sa, sb)
}

#[test]
fn the_second_run_on_the_same_inputs_is_remembered() {
    let (t, a, b) = two_same_broadcasts(true);
    assert_eq!(a, "Tensor[(n, 3), float32]");
    assert_eq!(b, "Tensor[(n, 3), float32]");
    let stats = t.solver.stats();
    assert_eq!((stats.runs, stats.remembered), (2, 1));
}

#[test]
fn without_remembering_every_relation_runs_to_the_same_answer() {
    let (t, a, b) = two_same_broadcasts(false);
    assert_eq!(a, "Tensor[(n, 3), float32]");
    assert_eq!(b, "Tensor[(n, 3), float32]");
    let stats = t.solver.stats();
    assert_eq!((stats.runs, stats.remembered), (2, 0));
}

#[test]
fn a_result_already_known_is_checked_not_remembered() {
    let mut t = TestSolver::new();
    let a = t.var("a");
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(3), float32]", "a"],
        1,
    );
    t.rel(
        BROADCAST,
        &[
            "Tensor[(3), float32]",
            "Tensor[(3), float32]",
            "Tensor[(4), float32]",
        ],
        2,
    );
    let Outcome::Failed(errors) = t.solver.solve() else {
        panic!("the second relation must fail")
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].origin, 2);
    assert_eq!(t.show_resolved(a), "Tensor[(3), float32]");
    assert_eq!(t.solver.stats().remembered, 0);
}

#[test]
fn inputs_known_only_after_a_wake_up_are_remembered_then() {
    let mut t = TestSolver::new();
    t.var("x");
    let (a, b) = (t.var("a"), t.var("b"));
    t.rel(BROADCAST, &["x", "Tensor[(2, 1), int8]", "a"], 1);
    t.rel(BROADCAST, &["x", "Tensor[(2, 1), int8]", "b"], 2);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    t.unify("x", "Tensor[(5), int8]");
    assert!(matches!(t.solver.solve(), Outcome::Solved));
    assert_eq!(t.show_resolved(a), "Tensor[(2, 5), int8]");
    assert_eq!(t.show_resolved(b), "Tensor[(2, 5), int8]");
    assert_eq!(t.solver.stats().remembered, 1);
}

#[test]
fn failures_are_not_remembered_each_call_reports_its_own() {
    let mut t = TestSolver::new();
    t.var("a");
    t.var("b");
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(4), float32]", "a"],
        1,
    );
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(4), float32]", "b"],
        2,
    );
    let Outcome::Failed(errors) = t.solver.solve() else {
        panic!("both must fail")
    };
    let origins: Vec<u32> = errors.iter().map(|e| e.origin).collect();
    assert_eq!(origins, [1, 2]);
    assert_eq!(t.solver.stats().remembered, 0);
}
