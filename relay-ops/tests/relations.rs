//! The spec's three relations, as relay-ops declares them with `#[relation]`, run through
//! the solver: forward and backward propagation, waiting, and failures.

use relay_core::text::{parse_type, Binding, TypeScope};
use relay_core::{Outcome, Relation, RelationRef, Solver, Ty, TyCtx};
use relay_ops::relations::{Broadcast, Flatten, Identity};

struct T {
    s: Solver,
    scope: TypeScope,
}

impl T {
    fn new() -> Self {
        T {
            s: Solver::new(TyCtx::new()),
            scope: TypeScope::new(),
        }
    }
    fn ty(&mut self, src: &str) -> Ty {
        parse_type(&mut self.s.tcx, &mut self.scope, src).expect("a valid type")
    }
    fn var(&mut self, name: &str) -> Ty {
        let v = self.s.fresh_ty();
        self.scope.bind(name, Binding::Ty(v));
        v
    }
    fn rel(&mut self, r: RelationRef, args: &[&str]) {
        let args: Vec<Ty> = args.iter().map(|a| self.ty(a)).collect();
        self.s.add_relation(r, &args, None, 0);
    }
    fn show(&mut self, t: Ty) -> String {
        let t = self.s.resolve(t);
        self.s.tcx.show(t)
    }
}

#[test]
fn identity_propagates_forward() {
    let mut t = T::new();
    let o = t.var("O");
    t.rel(Identity::REF, &["Tensor[(n, 3), float32]", "O"]);
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(o), "Tensor[(n, 3), float32]");
}

#[test]
fn identity_propagates_backward_from_a_known_output() {
    let mut t = T::new();
    let i = t.var("I");
    t.rel(Identity::REF, &["I", "Tensor[(2, ?), int8]"]);
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(i), "Tensor[(2, ?), int8]");
}

#[test]
fn flatten_multiplies_the_trailing_dimensions() {
    let mut t = T::new();
    let o = t.var("O");
    t.rel(Flatten::REF, &["Tensor[(n, 2, 3), float32]", "O"]);
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(o), "Tensor[(n, 6), float32]");
}

#[test]
fn flatten_waits_until_the_rank_is_known() {
    let mut t = T::new();
    let i = t.var("I");
    let o = t.var("O");
    t.rel(Flatten::REF, &["I", "O"]);
    let Outcome::UnderConstrained(waiting) = t.s.solve() else {
        panic!("Flatten must wait")
    };
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].relation, "Flatten");
    let known = t.ty("Tensor[(4, m, 5), float16]");
    t.s.unify(i, known).unwrap();
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(o), "Tensor[(4, 5*m), float16]");
}

#[test]
fn broadcast_with_ones_symbols_and_any() {
    let mut t = T::new();
    let (a, b, c) = (t.var("A"), t.var("B"), t.var("C"));
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 1), float32]", "Tensor[(1, 3), float32]", "A"],
    );
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 3), float32]", "Tensor[(3), float32]", "B"],
    );
    t.rel(
        Broadcast::REF,
        &["Tensor[(?, 4), float32]", "Tensor[(7, 1), float32]", "C"],
    );
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(a), "Tensor[(n, 3), float32]");
    assert_eq!(t.show(b), "Tensor[(n, 3), float32]");
    assert_eq!(t.show(c), "Tensor[(7, 4), float32]");
}

#[test]
fn broadcast_failure_names_both_dimensions() {
    let mut t = T::new();
    t.var("O");
    t.rel(
        Broadcast::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(4, 5), float32]", "O"],
    );
    let Outcome::Failed(errors) = t.s.solve() else {
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
    t.rel(Flatten::REF, &["B", "C"]);
    t.rel(Identity::REF, &["A", "B"]);
    t.rel(
        Broadcast::REF,
        &["Tensor[(n, 1, 4), float32]", "Tensor[(3, 1), float32]", "A"],
    );
    assert_eq!(t.s.solve(), Outcome::Solved);
    assert_eq!(t.show(a), "Tensor[(n, 3, 4), float32]");
    assert_eq!(t.show(b), "Tensor[(n, 3, 4), float32]");
    assert_eq!(t.show(c), "Tensor[(n, 12), float32]");
}
