//! The worklist solver through its public API, in the manner of TVM's
//! `_test_type_solver`: relations over named solver variables, written in the text
//! syntax, and the exact resolved types, errors and outcomes.

use relay_core::testing::{BROADCAST, IDENTITY};
use relay_core::text::{parse_type, Binding, TypeScope};
use relay_core::{
    Constraint, Kind, Outcome, RelationRef, SolveError, Ty, TyCtx, UnifyErrorKind, VarRef, Waiting,
};

use relay_core::testing::TestSolver as T;

use relay_core::testing::failed;

fn waiting(outcome: Outcome) -> Vec<Waiting> {
    match outcome {
        Outcome::UnderConstrained(w) => w,
        other => panic!("expected an under-constrained outcome, got {other:?}"),
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ----- 1. forward chains -----

#[test]
fn forward_chain_broadcast_identity_broadcast() {
    let mut t = T::new();
    let t1 = t.var("t1");
    let t2 = t.var("t2");
    let t3 = t.var("t3");
    t.rel(
        BROADCAST,
        &["Tensor[(n, 1), float32]", "Tensor[(1, 3), float32]", "t1"],
        1,
    );
    t.rel(IDENTITY, &["t1", "t2"], 2);
    t.rel(BROADCAST, &["t2", "Tensor[(3), float32]", "t3"], 3);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(t1), "Tensor[(n, 3), float32]");
    assert_eq!(t.show_resolved(t2), "Tensor[(n, 3), float32]");
    assert_eq!(t.show_resolved(t3), "Tensor[(n, 3), float32]");
}

#[test]
fn forward_chain_added_last_to_first() {
    // The same chain with the relations added consumer first: each one waits on its
    // input and is woken when it is bound.
    let mut t = T::new();
    let t1 = t.var("t1");
    let t3 = t.var("t3");
    t.var("t2");
    t.rel(BROADCAST, &["t2", "Tensor[(3), float32]", "t3"], 3);
    t.rel(IDENTITY, &["t1", "t2"], 2);
    t.rel(
        BROADCAST,
        &["Tensor[(n, 1), float32]", "Tensor[(1, 3), float32]", "t1"],
        1,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(t1), "Tensor[(n, 3), float32]");
    assert_eq!(t.show_resolved(t3), "Tensor[(n, 3), float32]");
}

#[test]
fn identity_of_three_unifies_all() {
    let mut t = T::new();
    let a = t.var("a");
    let b = t.var("b");
    let c = t.var("c");
    t.rel(IDENTITY, &["a", "b", "c"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    t.unify("b", "(int32, Tensor[(2, n), bool])");
    for v in [a, b, c] {
        assert_eq!(t.show_resolved(v), "(int32, Tensor[(2, n), bool])");
    }
}

// ----- 2. backward inference -----

#[test]
fn backward_identity_output_known_after_solve() {
    let mut t = T::new();
    let x = t.var("x");
    t.var("y");
    t.rel(IDENTITY, &["x", "y"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    t.unify("y", "Tensor[(10, 20), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(x), "Tensor[(10, 20), float32]");
}

#[test]
fn backward_identity_output_known_before_solve() {
    let mut t = T::new();
    let x = t.var("x");
    t.var("y");
    t.rel(IDENTITY, &["x", "y"], 0);
    t.unify("y", "Tensor[(10, 20), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(x), "Tensor[(10, 20), float32]");
}

#[test]
fn backward_identity_output_known_before_relation() {
    let mut t = T::new();
    let x = t.var("x");
    t.var("y");
    t.unify("y", "Tensor[(10, 20), float32]");
    t.rel(IDENTITY, &["x", "y"], 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(x), "Tensor[(10, 20), float32]");
}

#[test]
fn backward_through_identity_chain_then_forward_through_broadcast() {
    // a = b = c, with c known last; Broadcast(a, ...) waits until then.
    let mut t = T::new();
    let a = t.var("a");
    let out = t.var("out");
    t.var("b");
    t.var("c");
    t.rel(BROADCAST, &["a", "Tensor[(4, 1, 5), float32]", "out"], 9);
    t.rel(IDENTITY, &["a", "b"], 1);
    t.rel(IDENTITY, &["b", "c"], 2);
    let w = waiting(t.solver.solve());
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].relation, "Broadcast");
    assert_eq!(w[0].origin, 9);
    t.unify("c", "Tensor[(3, 1), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(a), "Tensor[(3, 1), float32]");
    assert_eq!(t.show_resolved(out), "Tensor[(4, 3, 5), float32]");
}

// ----- 3. broadcast semantics -----

/// Broadcast(lhs, rhs) -> out: the resolved output or the errors.
fn broadcast(lhs: &str, rhs: &str) -> Result<String, Vec<SolveError>> {
    let mut t = T::new();
    let out = t.var("out");
    t.rel(BROADCAST, &[lhs, rhs, "out"], 42);
    match t.solver.solve() {
        Outcome::Solved => Ok(t.show_resolved(out)),
        Outcome::Failed(e) => Err(e),
        Outcome::UnderConstrained(w) => panic!("{lhs} + {rhs} is under-constrained: {w:?}"),
    }
}

fn broadcast_ok(lhs: &str, rhs: &str) -> String {
    broadcast(lhs, rhs).unwrap_or_else(|e| panic!("{lhs} + {rhs} failed: {e:?}"))
}

fn broadcast_err(lhs: &str, rhs: &str) -> SolveError {
    let mut errors = broadcast(lhs, rhs).expect_err("broadcast should fail");
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.pop().unwrap()
}

#[test]
fn broadcast_ones_and_equal_dims() {
    assert_eq!(
        broadcast_ok("Tensor[(n, 1), float32]", "Tensor[(1, 3), float32]"),
        "Tensor[(n, 3), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(n, 3), float32]", "Tensor[(n, 3), float32]"),
        "Tensor[(n, 3), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(1, 1), int8]", "Tensor[(1, 1), int8]"),
        "Tensor[(1, 1), int8]"
    );
    assert_eq!(
        broadcast_ok(
            "Tensor[(2*n + 1, 1), float32]",
            "Tensor[(1 + n*2, m), float32]"
        ),
        "Tensor[(2*n + 1, m), float32]"
    );
}

#[test]
fn broadcast_any() {
    assert_eq!(
        broadcast_ok("Tensor[(?), float32]", "Tensor[(3), float32]"),
        "Tensor[(3), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(3), float32]", "Tensor[(?), float32]"),
        "Tensor[(3), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(?), float32]", "Tensor[(1), float32]"),
        "Tensor[(?), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(1), float32]", "Tensor[(?), float32]"),
        "Tensor[(?), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(?, n), float32]", "Tensor[(?, ?), float32]"),
        "Tensor[(?, n), float32]"
    );
}

#[test]
fn broadcast_leading_dims_from_the_longer_shape() {
    assert_eq!(
        broadcast_ok("Tensor[(2, 3, 4), float32]", "Tensor[(4), float32]"),
        "Tensor[(2, 3, 4), float32]"
    );
    assert_eq!(
        broadcast_ok("Tensor[(5, 1), float32]", "Tensor[(7, 2, 1, 3), float32]"),
        "Tensor[(7, 2, 5, 3), float32]"
    );
    assert_eq!(
        broadcast_ok("float32", "Tensor[(2, 3), float32]"),
        "Tensor[(2, 3), float32]"
    );
    assert_eq!(broadcast_ok("int64", "int64"), "int64");
}

#[test]
fn broadcast_clash_names_both_dimensions() {
    let e = broadcast_err("Tensor[(2, 3), float32]", "Tensor[(4, 5), float32]");
    assert_eq!(
        e,
        SolveError {
            relation: "Broadcast",
            origin: 42,
            arg: Some(1),
            message: "`Tensor[(2, 3), float32]` and `Tensor[(4, 5), float32]` do not broadcast: \
                      dimension 0 of the first is 2 and dimension 0 of the second is 4"
                .to_string(),
            notes: vec![],
        }
    );
    // Different ranks: the indices are each shape's own.
    let e = broadcast_err("Tensor[(7, 2, 3), float32]", "Tensor[(5), float32]");
    assert_eq!(
        e.message,
        "`Tensor[(7, 2, 3), float32]` and `Tensor[(5), float32]` do not broadcast: \
         dimension 2 of the first is 3 and dimension 0 of the second is 5"
    );
}

#[test]
fn broadcast_rigid_symbols_must_be_equal() {
    let e = broadcast_err("Tensor[(n), float32]", "Tensor[(m), float32]");
    assert_eq!(
        e.message,
        "`Tensor[(n), float32]` and `Tensor[(m), float32]` do not broadcast: \
         dimension 0 of the first is n and dimension 0 of the second is m"
    );
    let e = broadcast_err("Tensor[(n, 4), float32]", "Tensor[(n + 1, 4), float32]");
    assert_eq!(
        e.message,
        "`Tensor[(n, 4), float32]` and `Tensor[(n + 1, 4), float32]` do not broadcast: \
         dimension 0 of the first is n and dimension 0 of the second is n + 1"
    );
    let e = broadcast_err("Tensor[(n), float32]", "Tensor[(5), float32]");
    assert_eq!(
        e.message,
        "`Tensor[(n), float32]` and `Tensor[(5), float32]` do not broadcast: \
         dimension 0 of the first is n and dimension 0 of the second is 5"
    );
}

#[test]
fn broadcast_dtype_mismatch() {
    let e = broadcast_err("Tensor[(2, 3), float32]", "Tensor[(2, 3), int32]");
    assert_eq!(
        e,
        SolveError {
            relation: "Broadcast",
            origin: 42,
            arg: Some(1),
            message: "dtype: float32 vs int32".to_string(),
            notes: vec![],
        }
    );
}

#[test]
fn broadcast_output_that_disagrees() {
    let mut t = T::new();
    t.rel(
        BROADCAST,
        &[
            "Tensor[(2, 1), float32]",
            "Tensor[(3), float32]",
            "Tensor[(2, 4), float32]",
        ],
        5,
    );
    let e = failed(t.solver.solve());
    assert_eq!(
        e,
        vec![SolveError {
            relation: "Broadcast",
            origin: 5,
            arg: Some(2),
            message: "dimension 1: 4 vs 3".to_string(),
            notes: vec![],
        }]
    );
    // Errors are reported once.
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn broadcast_infers_a_dtype_variable() {
    let mut t = T::new();
    let b = t.solver.fresh_dtype();
    t.scope.bind("b", Binding::DType(b));
    let x = t.ty("Tensor[(3), b]");
    let out = t.var("out");
    t.rel(
        BROADCAST,
        &["Tensor[(3), b]", "Tensor[(2, 1), float16]", "out"],
        0,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(out), "Tensor[(2, 3), float16]");
    assert_eq!(t.show_resolved(x), "Tensor[(3), float16]");
}

#[test]
fn broadcast_of_a_non_tensor_fails() {
    let e = broadcast_err("(float32,)", "float32");
    assert_eq!(e.arg, Some(0));
    assert_eq!(e.message, "expected a tensor, found `(float32,)`");
}

// ----- 4. unification of tuples and functions -----

#[test]
fn nested_tuples_bind_vars_at_every_depth() {
    let mut t = T::new();
    let a = t.var("a");
    let b = t.var("b");
    let c = t.var("c");
    let e = t.var("e");
    let whole = t.var("whole");
    t.unify(
        "((a, Tensor[(2), float32]), (int32, (b,)), whole)",
        "((Tensor[(n), int8], c), (int32, ((bool, e),)), ((a,), c))",
    );
    assert_eq!(t.show_resolved(a), "Tensor[(n), int8]");
    assert_eq!(t.show_resolved(b), "(bool, 't3)");
    assert_eq!(t.solver.tcx.show(e), "'t3");
    assert_eq!(t.show_resolved(c), "Tensor[(2), float32]");
    assert_eq!(
        t.show_resolved(whole),
        "((Tensor[(n), int8],), Tensor[(2), float32])"
    );
    t.unify("e", "(c,)");
    assert_eq!(t.show_resolved(b), "(bool, (Tensor[(2), float32],))");
}

#[test]
fn tuple_failures_name_the_path() {
    let mut t = T::new();
    assert_eq!(
        t.unify_err(
            "(int32, Tensor[(3), float32])",
            "(int32, Tensor[(5), float32])"
        ),
        "tuple field 1, dimension 0: 3 vs 5"
    );
    assert_eq!(
        t.unify_err(
            "(int32, (bool, Tensor[(2, 3), float32]))",
            "(int32, (bool, Tensor[(2, 4), float32]))"
        ),
        "tuple field 1, tuple field 1, dimension 1: 3 vs 4"
    );
    assert_eq!(
        t.unify_err("(Tensor[(2, 3), float32],)", "(Tensor[(3), float32],)"),
        "tuple field 0: rank 2 `(2, 3)` vs rank 1 `(3)`"
    );
    assert_eq!(
        t.unify_err("((float32,),)", "((int32,),)"),
        "tuple field 0, tuple field 0, dtype: float32 vs int32"
    );
    assert_eq!(
        t.unify_err("(int32, int32)", "(int32,)"),
        "`(int32, int32)` vs `(int32,)`"
    );
    assert_eq!(
        t.unify_err("(int32, (bool,))", "(int32, Tensor[(1), bool])"),
        "tuple field 1: `(bool,)` vs `Tensor[(1), bool]`"
    );
}

#[test]
fn polymorphic_functions_unify_up_to_renaming() {
    let mut t = T::new();
    t.unify("fn [A](A) -> A", "fn [B](B) -> B");
    t.unify("fn [A, B](A, B) -> (A, B)", "fn [C, D](C, D) -> (C, D)");
    t.unify(
        "fn [s: Shape, b: BaseType](Tensor[s, b]) -> Tensor[s, b]",
        "fn [r: Shape, c: BaseType](Tensor[r, c]) -> Tensor[r, c]",
    );
    t.unify(
        "fn [k: ShapeVar](Tensor[(k, 2*k), float32]) -> Tensor[(k + 1), float32]",
        "fn [j: ShapeVar](Tensor[(j, j*2), float32]) -> Tensor[(1 + j), float32]",
    );
}

#[test]
fn function_failures() {
    let mut t = T::new();
    // (Different numbers of type parameters unify, as in TVM: the surplus become
    // unknowns; a clash in the bodies is still one.)
    assert_eq!(
        t.unify_err("fn [A](A) -> A", "fn [A, B](A) -> (B, B)"),
        "function result: `A` vs `('t0, 't0)`"
    );
    assert_eq!(
        t.unify_err("fn (int32) -> int32", "fn (int32, int32) -> int32"),
        "function arguments of 1 vs 2"
    );
    assert_eq!(
        t.unify_err("fn [A](A) -> A", "fn [B](B) -> int32"),
        "function result: `A` vs `int32`"
    );
    assert_eq!(
        t.unify_err("fn [A, B](A, B) -> A", "fn [A, B](B, A) -> A"),
        "function argument 1: `A` vs `B`"
    );
    assert_eq!(
        t.unify_err(
            "fn [A](A) -> int32",
            "fn [s: Shape](Tensor[s, float32]) -> int32"
        ),
        "`fn [A](A) -> int32` vs `fn [s: Shape](Tensor[s, float32]) -> int32`"
    );
    assert_eq!(
        t.unify_err(
            "fn (Tensor[(2, 3), float32]) -> int32",
            "fn (Tensor[(2, 4), float32]) -> int32"
        ),
        "function argument 1, dimension 1: 3 vs 4"
    );
    assert_eq!(
        t.unify_err("(fn () -> (int32, bool),)", "(fn () -> (int32, int8),)"),
        "tuple field 0, function result, tuple field 1, dtype: bool vs int8"
    );
}

#[test]
fn function_with_variables_binds_them() {
    let mut t = T::new();
    let x = t.var("x");
    let y = t.var("y");
    t.unify(
        "fn (x) -> y",
        "fn (Tensor[(3, n), float32]) -> (int32, Tensor[(n), bool])",
    );
    assert_eq!(t.show_resolved(x), "Tensor[(3, n), float32]");
    assert_eq!(t.show_resolved(y), "(int32, Tensor[(n), bool])");
    let f = t.ty("fn (x) -> y");
    assert_eq!(
        t.show_resolved(f),
        "fn (Tensor[(3, n), float32]) -> (int32, Tensor[(n), bool])"
    );
}

#[test]
fn references_unify_their_contents() {
    let mut t = T::new();
    let a = t.var("a");
    t.unify("ref(a)", "ref(Tensor[(2), uint8])");
    assert_eq!(t.show_resolved(a), "Tensor[(2), uint8]");
    assert_eq!(
        t.unify_err("ref((int32,))", "ref((int64,))"),
        "reference contents, tuple field 0, dtype: int32 vs int64"
    );
}

// ----- 5. occurs check -----

#[test]
fn occurs_check_is_an_error() {
    let mut t = T::new();
    let a = t.var("a");
    let e = {
        let (x, y) = (t.ty("a"), t.ty("(a, int32)"));
        t.solver.unify(x, y).unwrap_err()
    };
    assert!(matches!(e.kind, UnifyErrorKind::Occurs(..)));
    assert_eq!(
        e.describe(&t.solver.tcx),
        "`'t0` would have to contain itself in `('t0, int32)` (an infinite type)"
    );
    assert_eq!(t.show_resolved(a), "'t0");
    // On the right, and nested in a function.
    assert_eq!(
        t.unify_err("(fn (a) -> int32, bool)", "(a, bool)"),
        "tuple field 0: `'t0` would have to contain itself in `fn ('t0) -> int32` (an infinite type)"
    );
}

#[test]
fn occurs_check_looks_through_bound_variables() {
    let mut t = T::new();
    t.var("a");
    t.var("b");
    t.unify("a", "(b,)");
    assert_eq!(
        t.unify_err("b", "(int32, a)"),
        "`'t1` would have to contain itself in `(int32, ('t1,))` (an infinite type)"
    );
}

#[test]
fn occurs_check_in_a_relation_is_a_failure() {
    let mut t = T::new();
    t.var("a");
    t.rel(IDENTITY, &["a", "ref(a)"], 3);
    let e = failed(t.solver.solve());
    assert_eq!(
        e,
        vec![SolveError {
            relation: "Identity",
            origin: 3,
            arg: Some(1),
            message: "`'t0` would have to contain itself in `ref('t0)` (an infinite type)"
                .to_string(),
            notes: vec![],
        }]
    );
}

// ----- 6. ADTs -----

fn with_lists() -> T {
    let mut t = T::new();
    let p = t.solver.tcx.param("a", Kind::Type);
    let q = t.solver.tcx.param("a", Kind::Type);
    let list = t.solver.tcx.adt("List", &[p]).unwrap();
    let list2 = t.solver.tcx.adt("List2", &[q]).unwrap();
    t.scope.bind("List", Binding::Adt(list));
    t.scope.bind("List2", Binding::Adt(list2));
    t
}

#[test]
fn adt_handles_are_distinct() {
    let mut t = with_lists();
    assert_eq!(
        t.unify_err("List[int32]", "List2[int32]"),
        "`List[int32]` vs `List2[int32]`"
    );
    assert_eq!(
        t.unify_err("List[int32]", "List[float32]"),
        "type argument 1, dtype: int32 vs float32"
    );
    assert_eq!(
        t.unify_err("List[(int32,)]", "List[Tensor[(2), int32]]"),
        "type argument 1: `(int32,)` vs `Tensor[(2), int32]`"
    );
    t.unify("List[int32]", "List[int32]");
}

#[test]
fn adt_arguments_bind_variables() {
    let mut t = with_lists();
    let x = t.var("x");
    let y = t.var("y");
    t.unify("List[x]", "List[int32]");
    assert_eq!(t.show_resolved(x), "int32");
    t.unify("List[List[(x, y)]]", "List[List[(int32, List2[bool])]]");
    assert_eq!(t.show_resolved(y), "List2[bool]");
}

#[test]
fn adt_arity_is_checked_by_the_parser() {
    let mut t = with_lists();
    let err = parse_type(&mut t.solver.tcx, &mut t.scope, "List").unwrap_err();
    assert_eq!(err.message, "`List` takes 1 type argument but 0 were given");
    let err = parse_type(&mut t.solver.tcx, &mut t.scope, "List[int32, int32]").unwrap_err();
    assert_eq!(err.message, "`List` takes 1 type argument but 2 were given");
}

// ----- 7. under-constrained outcomes -----

#[test]
fn broadcast_of_unknowns_waits() {
    let mut t = T::new();
    let x = t.var("x");
    let y = t.var("y");
    let z = t.var("z");
    t.rel(BROADCAST, &["x", "y", "z"], 17);
    let w = waiting(t.solver.solve());
    assert_eq!(
        w,
        vec![Waiting {
            relation: "Broadcast",
            origin: 17,
            args: strings(&["'t0", "'t1", "'t2"]),
            unknowns: vec![t.tyvar(x), t.tyvar(y), t.tyvar(z)],
        }]
    );
    // One side known is still not enough.
    t.unify("x", "Tensor[(2), float32]");
    let w = waiting(t.solver.solve());
    assert_eq!(
        w,
        vec![Waiting {
            relation: "Broadcast",
            origin: 17,
            args: strings(&["Tensor[(2), float32]", "'t1", "'t2"]),
            unknowns: vec![t.tyvar(y), t.tyvar(z)],
        }]
    );
    t.unify("y", "Tensor[(3, 1), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(3, 2), float32]");
}

#[test]
fn broadcast_waits_on_a_dim_that_could_be_one() {
    let mut t = T::new();
    let d = t.dim("d");
    let z = t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(d), float32]", "Tensor[(3), float32]", "z"],
        4,
    );
    let w = waiting(t.solver.solve());
    assert_eq!(
        w,
        vec![Waiting {
            relation: "Broadcast",
            origin: 4,
            args: strings(&["Tensor[('d0), float32]", "Tensor[(3), float32]", "'t0"]),
            unknowns: vec![t.dimvar(d), t.tyvar(z)],
        }]
    );
    let one = t.d("1");
    t.solver.unify_dims(d, one).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(3), float32]");
}

#[test]
fn broadcast_of_any_and_an_unknown_waits() {
    // `?` with `d` is `d` unless `d` is 1, when it is `?`: undecided until `d` is known.
    let mut t = T::new();
    let d = t.dim("d");
    let z = t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(?, 2), float32]", "Tensor[(d, 2), float32]", "z"],
        8,
    );
    let w = waiting(t.solver.solve());
    assert_eq!(
        w,
        vec![Waiting {
            relation: "Broadcast",
            origin: 8,
            args: strings(&[
                "Tensor[(?, 2), float32]",
                "Tensor[('d0, 2), float32]",
                "'t0"
            ]),
            unknowns: vec![t.dimvar(d), t.tyvar(z)],
        }]
    );
    let one = t.d("1");
    t.solver.unify_dims(d, one).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(?, 2), float32]");
}

#[test]
fn broadcast_woken_by_a_dim_that_clashes() {
    let mut t = T::new();
    let d = t.dim("d");
    t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(d), float32]", "Tensor[(3), float32]", "z"],
        4,
    );
    waiting(t.solver.solve());
    let five = t.d("5");
    t.solver.unify_dims(d, five).unwrap();
    let e = failed(t.solver.solve());
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "`Tensor[(5), float32]` and `Tensor[(3), float32]` do not broadcast: \
         dimension 0 of the first is 5 and dimension 0 of the second is 3"
    );
}

#[test]
fn broadcast_waits_on_a_shape_variable() {
    let mut t = T::new();
    let s = t.solver.fresh_shape();
    t.scope.bind("s", Binding::Shape(s));
    let z = t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[s, float32]", "Tensor[(4), float32]", "z"],
        0,
    );
    let w = waiting(t.solver.solve());
    assert_eq!(w.len(), 1);
    assert_eq!(
        w[0].args,
        strings(&["Tensor['s0, float32]", "Tensor[(4), float32]", "'t0"])
    );
    assert_eq!(w[0].unknowns.len(), 2);
    assert!(matches!(w[0].unknowns[0], VarRef::Shape(_)));
    assert_eq!(w[0].unknowns[1], t.tyvar(z));
    t.unify("Tensor[s, float32]", "Tensor[(2, 1), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 4), float32]");
}

#[test]
fn broadcast_woken_by_merging_dim_variables() {
    let mut t = T::new();
    let d = t.dim("d");
    let e = t.dim("e");
    let z = t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(d), int32]", "Tensor[(e), int32]", "z"],
        0,
    );
    waiting(t.solver.solve());
    // d = e: the relation is woken, and `d` vs `d` broadcasts to `d`.
    t.solver.unify_dims(d, e).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    let shown = t.show_resolved(z);
    let root = t.show_dim(d);
    assert_eq!(shown, format!("Tensor[({root}), int32]"));
    assert_eq!(t.show_dim(e), root);
}

// ----- 8. long chains and the wake-up rule -----

const N: usize = 1000;

fn chain(reverse: bool) -> (T, Ty) {
    let mut t = T::new();
    let y = t.ty("Tensor[(n, 768), float32]");
    let mut xs = vec![y];
    for _ in 0..N {
        xs.push(t.solver.fresh_ty());
    }
    let order: Vec<usize> = if reverse {
        (0..N).rev().collect()
    } else {
        (0..N).collect()
    };
    for i in order {
        t.solver
            .add_relation(BROADCAST, &[xs[i], y, xs[i + 1]], None, i as u32);
    }
    (t, xs[N])
}

#[test]
fn reverse_order_chain_runs_each_relation_at_most_twice() {
    let (mut t, last) = chain(true);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(last), "Tensor[(n, 768), float32]");
    let stats = t.solver.stats();
    assert!(stats.runs <= 2 * N as u64, "{stats:?}");
    assert_eq!(stats.runs, 2 * N as u64 - 1);
    assert_eq!(stats.wakeups, N as u64 - 1);
}

#[test]
fn program_order_chain_runs_each_relation_once() {
    let (mut t, last) = chain(false);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(last), "Tensor[(n, 768), float32]");
    assert_eq!(t.solver.stats().runs, N as u64);
    assert_eq!(t.solver.stats().wakeups, 0);
}

// ----- 9. dimension equations -----

#[test]
fn linear_dim_equation_is_solved_on_the_spot() {
    let mut t = T::new();
    let x = t.dim("x");
    let (a, b) = (t.d("2*x + 1"), t.d("9"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(x), "4");
    // x = 2*x has the single solution 0.
    let y = t.dim("y");
    let (a, b) = (t.d("y"), t.d("2*y"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(y), "0");
    // A negative coefficient.
    let z = t.dim("z");
    let (a, b) = (t.d("10 - 3*z"), t.d("1"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(z), "3");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn dim_equation_without_integer_solution() {
    let mut t = T::new();
    let x = t.dim("x");
    let (a, b) = (t.d("2*x"), t.d("7"));
    let e = t.solver.unify_dims(a, b).unwrap_err();
    assert_eq!(e.kind, UnifyErrorKind::NoIntegerSolution(a, b));
    assert_eq!(
        e.describe(&t.solver.tcx),
        "`2*'d0 = 7` has no integer solution"
    );
    assert_eq!(t.show_dim(x), "'d0");
}

#[test]
fn dim_variable_binds_to_a_rigid_symbol() {
    let mut t = T::new();
    let x = t.dim("x");
    let (a, b) = (t.d("x"), t.d("n"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(x), "n");
    let y = t.dim("y");
    let (a, b) = (t.d("y + 1"), t.d("2*n"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(y), "2*n - 1");
}

#[test]
fn rigid_symbols_do_not_unify_with_other_dims() {
    let mut t = T::new();
    let (n, five, m) = (t.d("n"), t.d("5"), t.d("m"));
    let e = t.solver.unify_dims(n, five).unwrap_err();
    assert_eq!(e.kind, UnifyErrorKind::Dims(n, five));
    assert_eq!(e.describe(&t.solver.tcx), "n vs 5");
    let e = t.solver.unify_dims(n, m).unwrap_err();
    assert_eq!(e.kind, UnifyErrorKind::Dims(n, m));
    assert_eq!(e.describe(&t.solver.tcx), "n vs m");
    t.solver.unify_dims(n, n).unwrap();
    let x = t.dim("x");
    let (a, b) = (t.d("2*x"), t.d("n"));
    assert_eq!(
        t.solver
            .unify_dims(a, b)
            .unwrap_err()
            .describe(&t.solver.tcx),
        "2*'d0 vs n"
    );
    assert_eq!(t.show_dim(x), "'d0");
}

#[test]
fn any_dim_unifies_with_everything() {
    let mut t = T::new();
    let x = t.dim("x");
    let (any, five, n) = (t.d("?"), t.d("5"), t.d("n"));
    t.solver.unify_dims(any, five).unwrap();
    t.solver.unify_dims(n, any).unwrap();
    t.solver.unify_dims(x, any).unwrap();
    assert_eq!(t.show_dim(x), "?");
}

#[test]
fn deferred_dim_equation_is_woken() {
    let mut t = T::new();
    let x = t.dim("x");
    let y = t.dim("y");
    let (a, b) = (t.d("x + y"), t.d("5"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.show_dim(x), "'d0");
    let (a, b) = (t.d("y"), t.d("2"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "3");
    assert_eq!(t.show_dim(y), "2");
}

#[test]
fn deferred_dim_equation_woken_by_a_relation() {
    // x + y = 5, and y is fixed by a broadcast that runs during solve().
    let mut t = T::new();
    let x = t.dim("x");
    t.dim("y");
    let (a, b) = (t.d("x + y"), t.d("5"));
    t.solver.unify_dims(a, b).unwrap();
    t.rel(
        BROADCAST,
        &[
            "Tensor[(1), float32]",
            "Tensor[(4), float32]",
            "Tensor[(y), float32]",
        ],
        0,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "1");
}

#[test]
fn nonlinear_dim_equation_waits_forever() {
    let mut t = T::new();
    let x = t.dim("x");
    let y = t.dim("y");
    let (a, b) = (t.d("x * y"), t.d("6"));
    t.solver.unify_dims(a, b).unwrap();
    let mut w = waiting(t.solver.solve());
    // `Dims::vars` lists the variables of a product last to first (against its doc,
    // "in order of first appearance"; dim.rs is not ours to fix here), so the unknowns
    // are compared in sorted order.
    w[0].unknowns.sort();
    assert_eq!(
        w,
        vec![Waiting {
            relation: "DimEq",
            origin: u32::MAX,
            args: strings(&["'d0*'d1", "6"]),
            unknowns: vec![t.dimvar(x), t.dimvar(y)],
        }]
    );
    // y = 2 makes it linear.
    let (a, b) = (t.d("y"), t.d("2"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "3");
}

#[test]
fn deferred_dim_equation_that_turns_false_fails() {
    let mut t = T::new();
    t.dim("x");
    t.dim("y");
    let (a, b) = (t.d("x * y"), t.d("6"));
    t.solver.unify_dims(a, b).unwrap();
    let (a, b) = (t.d("y"), t.d("0"));
    t.solver.unify_dims(a, b).unwrap();
    let e = failed(t.solver.solve());
    assert_eq!(
        e,
        vec![SolveError {
            relation: "DimEq",
            origin: u32::MAX,
            arg: None,
            message: "0 vs 6".to_string(),
            notes: vec![],
        }]
    );
}

#[test]
fn deferred_dim_equation_with_fractional_solution_fails() {
    let mut t = T::new();
    t.dim("x");
    t.dim("y");
    let (a, b) = (t.d("x * y"), t.d("7"));
    t.solver.unify_dims(a, b).unwrap();
    let (a, b) = (t.d("y"), t.d("2"));
    t.solver.unify_dims(a, b).unwrap();
    let e = failed(t.solver.solve());
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].relation, "DimEq");
    assert_eq!(e[0].message, "`2*'d0 = 7` has no integer solution");
}

#[test]
fn dims_inside_tensor_unification() {
    let mut t = T::new();
    let x = t.dim("x");
    t.unify("Tensor[(2*x + 1, n), float32]", "Tensor[(9, n), float32]");
    assert_eq!(t.show_dim(x), "4");
    assert_eq!(
        t.unify_err("Tensor[(x, 3), float32]", "Tensor[(5, 3), float32]"),
        "dimension 0: 4 vs 5"
    );
}

// ----- 10. snapshots -----

#[test]
fn failed_try_unify_leaves_variables_unbound() {
    let mut t = T::new();
    let a = t.var("a");
    let d = t.dim("d");
    let (x, y) = (
        t.ty("(a, Tensor[(d), float32], Tensor[(3), float32])"),
        t.ty("(int32, Tensor[(7), float32], Tensor[(5), float32])"),
    );
    let e = t.solver.try_unify(x, y).unwrap_err();
    assert_eq!(
        e.describe(&t.solver.tcx),
        "tuple field 2, dimension 0: 3 vs 5"
    );
    assert_eq!(t.show_resolved(a), "'t0");
    assert_eq!(t.show_dim(d), "'d0");
    // A successful try keeps its bindings.
    let (x, y) = (
        t.ty("(a, Tensor[(d), float32])"),
        t.ty("(int32, Tensor[(7), float32])"),
    );
    t.solver.try_unify(x, y).unwrap();
    assert_eq!(t.show_resolved(a), "int32");
    assert_eq!(t.show_dim(d), "7");
}

#[test]
fn rollback_undoes_and_commit_keeps() {
    let mut t = T::new();
    let a = t.var("a");
    let snap = t.solver.snapshot();
    t.unify("a", "Tensor[(2), float32]");
    assert_eq!(t.show_resolved(a), "Tensor[(2), float32]");
    t.solver.rollback_to(snap);
    assert_eq!(t.show_resolved(a), "'t0");

    let snap = t.solver.snapshot();
    t.unify("a", "(bool,)");
    t.solver.commit(snap);
    assert_eq!(t.show_resolved(a), "(bool,)");
}

#[test]
fn nested_snapshots() {
    let mut t = T::new();
    let a = t.var("a");
    let b = t.var("b");
    let outer = t.solver.snapshot();
    t.unify("a", "int8");
    let inner = t.solver.snapshot();
    t.unify("b", "int16");
    t.solver.commit(inner);
    assert_eq!(t.show_resolved(b), "int16");
    t.solver.rollback_to(outer);
    assert_eq!(t.show_resolved(a), "'t0");
    assert_eq!(t.show_resolved(b), "'t1");

    let outer = t.solver.snapshot();
    t.unify("a", "int8");
    let inner = t.solver.snapshot();
    t.unify("b", "int16");
    t.solver.rollback_to(inner);
    t.solver.commit(outer);
    assert_eq!(t.show_resolved(a), "int8");
    assert_eq!(t.show_resolved(b), "'t1");
}

#[test]
fn rollback_restores_waiting_relations() {
    let mut t = T::new();
    let x = t.var("x");
    let z = t.var("z");
    t.rel(BROADCAST, &["x", "Tensor[(3), float32]", "z"], 1);
    waiting(t.solver.solve());
    // Binding x inside a snapshot wakes the relation; the rollback puts it back to
    // waiting, still registered on x.
    let snap = t.solver.snapshot();
    t.unify("x", "Tensor[(7, 1), float32]");
    t.solver.rollback_to(snap);
    let w = waiting(t.solver.solve());
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].unknowns, vec![t.tyvar(x), t.tyvar(z)]);
    t.unify("x", "Tensor[(2, 1), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 3), float32]");
}

#[test]
fn rollback_removes_relations_added_in_the_snapshot() {
    let mut t = T::new();
    let z = t.var("z");
    let snap = t.solver.snapshot();
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(4), float32]", "z"],
        1,
    );
    let fresh = t.solver.fresh_ty();
    t.solver.rollback_to(snap);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "'t0");
    // The variable made in the snapshot is gone: the next fresh one reuses its index.
    assert_eq!(t.solver.fresh_ty(), fresh);
}

#[test]
fn solve_inside_a_snapshot_then_rollback() {
    let mut t = T::new();
    let z = t.var("z");
    let w = t.var("w");
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(2, 1), float32]", "z"],
        1,
    );
    let snap = t.solver.snapshot();
    t.rel(IDENTITY, &["z", "w"], 2);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(w), "Tensor[(2, 3), float32]");
    t.solver.rollback_to(snap);
    // Everything since the snapshot is undone, the Broadcast relation included: it is
    // on the queue again, and solving again gives its answer.
    assert_eq!(t.show_resolved(z), "'t0");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 3), float32]");
    assert_eq!(t.show_resolved(w), "'t1");
}

#[test]
fn failed_solve_inside_a_snapshot_then_rollback() {
    let mut t = T::new();
    let z = t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(2, 1), float32]", "z"],
        1,
    );
    let snap = t.solver.snapshot();
    t.unify("z", "Tensor[(9), float32]");
    let e = failed(t.solver.solve());
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].message, "rank 1 `(9)` vs rank 2 `(2, 3)`");
    t.solver.rollback_to(snap);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 3), float32]");
}

// ----- 11. instantiation -----

#[test]
fn instantiate_gives_fresh_variables_each_time() {
    let mut t = T::new();
    let f = t.ty("fn [A, s: Shape](Tensor[s, float32], A) -> A");
    let (args1, ret1, cs1) = t.solver.instantiate(f).unwrap();
    let (args2, ret2, cs2) = t.solver.instantiate(f).unwrap();
    assert!(cs1.is_empty() && cs2.is_empty());
    let show =
        |t: &T, tys: &[Ty]| -> Vec<String> { tys.iter().map(|&x| t.solver.tcx.show(x)).collect() };
    assert_eq!(show(&t, &args1), strings(&["Tensor['s0, float32]", "'t0"]));
    assert_eq!(t.solver.tcx.show(ret1), "'t0");
    assert_eq!(show(&t, &args2), strings(&["Tensor['s1, float32]", "'t1"]));
    assert_eq!(t.solver.tcx.show(ret2), "'t1");

    let concrete = t.ty("Tensor[(2, 3), float32]");
    t.solver.unify(args1[0], concrete).unwrap();
    let pair = t.ty("(int32, bool)");
    t.solver.unify(args1[1], pair).unwrap();
    assert_eq!(t.show_resolved(ret1), "(int32, bool)");
    assert_eq!(t.show_resolved(args1[0]), "Tensor[(2, 3), float32]");
    assert_eq!(t.show_resolved(ret2), "'t1");
    assert_eq!(t.show_resolved(args2[0]), "Tensor['s1, float32]");
    // The function type itself is untouched.
    assert_eq!(
        t.solver.tcx.show(f),
        "fn [A, s: Shape](Tensor[s, float32], A) -> A"
    );
}

#[test]
fn instantiate_dimension_parameters() {
    let mut t = T::new();
    let f = t.ty("fn [k: ShapeVar](Tensor[(k, 2*k), float32]) -> Tensor[(k + 1), float32]");
    let (args, ret, _) = t.solver.instantiate(f).unwrap();
    assert_eq!(t.solver.tcx.show(args[0]), "Tensor[('d0, 2*'d0), float32]");
    let x = t.ty("Tensor[(3, 6), float32]");
    t.solver.unify(args[0], x).unwrap();
    assert_eq!(t.show_resolved(ret), "Tensor[(4), float32]");

    let (args, _, _) = t.solver.instantiate(f).unwrap();
    let bad = t.ty("Tensor[(3, 7), float32]");
    let e = t.solver.unify(args[0], bad).unwrap_err();
    assert_eq!(e.describe(&t.solver.tcx), "dimension 1: 6 vs 7");
}

#[test]
fn instantiate_constraints_and_solve_them() {
    let mut t = T::new();
    let a = t.solver.tcx.param("A", Kind::Type);
    let b = t.solver.tcx.param("B", Kind::Type);
    let c = t.solver.tcx.param("C", Kind::Type);
    let (ta, tb, tc) = (
        t.solver.tcx.param_ty(a).unwrap(),
        t.solver.tcx.param_ty(b).unwrap(),
        t.solver.tcx.param_ty(c).unwrap(),
    );
    let f = t.solver.tcx.func(
        &[a, b, c],
        &[ta, tb],
        tc,
        vec![Constraint {
            relation: BROADCAST,
            args: vec![ta, tb, tc].into(),
        }],
    );
    let (args, ret, cs) = t.solver.instantiate(f).unwrap();
    assert_eq!(cs.len(), 1);
    t.solver.add_constraints(&cs, None, 77);
    let (x, y) = (t.ty("Tensor[(4, 1), int32]"), t.ty("Tensor[(5), int32]"));
    t.solver.unify(args[0], x).unwrap();
    t.solver.unify(args[1], y).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(ret), "Tensor[(4, 5), int32]");

    // A second call of the same function with clashing arguments.
    let (args, _, cs) = t.solver.instantiate(f).unwrap();
    t.solver.add_constraints(&cs, None, 78);
    let (x, y) = (t.ty("Tensor[(4), int32]"), t.ty("Tensor[(5), int32]"));
    t.solver.unify(args[0], x).unwrap();
    t.solver.unify(args[1], y).unwrap();
    let e = failed(t.solver.solve());
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].origin, 78);
    assert_eq!(
        e[0].message,
        "`Tensor[(4), int32]` and `Tensor[(5), int32]` do not broadcast: \
         dimension 0 of the first is 4 and dimension 0 of the second is 5"
    );
}

// ----- 12. kind errors -----

#[test]
fn kind_errors_in_type_text() {
    let mut tcx = TyCtx::new();
    let mut scope = TypeScope::new();
    let mut err = |src: &str| parse_type(&mut tcx, &mut scope, src).unwrap_err().message;
    assert_eq!(
        err("fn [t](Tensor[t, float32]) -> t"),
        "`t` has kind `Type` but is used where a `Shape` is expected"
    );
    assert_eq!(
        err("fn [s: Shape](s) -> s"),
        "`s` has kind `Shape` but is used where a `Type` is expected"
    );
    assert_eq!(
        err("fn [d: ShapeVar](Tensor[d, float32]) -> int32"),
        "`d` has kind `ShapeVar` but is used where a `Shape` is expected"
    );
    assert_eq!(
        err("fn [A](Tensor[(A), float32]) -> A"),
        "`A` has kind `Type` but is used where a `ShapeVar` is expected"
    );
    assert_eq!(
        err("fn [b: BaseType](b) -> b"),
        "`b` has kind `BaseType` but is used where a `Type` is expected"
    );
    assert_eq!(
        err("fn [A](Tensor[(2), A]) -> A"),
        "`A` has kind `Type` but is used where a `BaseType` is expected"
    );
}

#[test]
fn kinded_parameters_parse() {
    let mut tcx = TyCtx::new();
    let mut scope = TypeScope::new();
    let t = parse_type(
        &mut tcx,
        &mut scope,
        "fn [b: BaseType, s: Shape, k: ShapeVar](Tensor[s, b], Tensor[(k), b]) -> Tensor[(k, 2), b]",
    )
    .unwrap();
    assert_eq!(
        tcx.show(t),
        "fn [b: BaseType, s: Shape, k: ShapeVar](Tensor[s, b], Tensor[(k), b]) -> Tensor[(k, 2), b]"
    );
    // The parameters do not leak out of the function type.
    let err = parse_type(&mut tcx, &mut scope, "Tensor[s, float32]").unwrap_err();
    assert_eq!(err.message, "`s` is not a shape");
}

// ----- more: wake-ups, several failures, constraints, deep types -----

#[test]
fn one_unify_binding_two_watched_variables_queues_the_relation_once() {
    let mut t = T::new();
    let z = t.var("z");
    t.var("x");
    t.var("y");
    t.rel(BROADCAST, &["x", "y", "z"], 0);
    waiting(t.solver.solve());
    t.unify("(x, y)", "(Tensor[(2, 1), int8], Tensor[(5), int8])");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 5), int8]");
    let stats = t.solver.stats();
    assert_eq!((stats.runs, stats.wakeups), (2, 1));
}

#[test]
fn merging_two_watched_variables_wakes_both_relations() {
    let mut t = T::new();
    let z1 = t.var("z1");
    let z2 = t.var("z2");
    t.var("x");
    t.var("y");
    t.rel(BROADCAST, &["x", "Tensor[(3), float32]", "z1"], 1);
    t.rel(BROADCAST, &["Tensor[(4, 1), float32]", "y", "z2"], 2);
    assert_eq!(waiting(t.solver.solve()).len(), 2);
    t.unify("x", "y");
    // Both ran again and now wait on the merged variable.
    let w = waiting(t.solver.solve());
    assert_eq!(w.len(), 2);
    assert_eq!(t.solver.stats().runs, 4);
    t.unify("y", "Tensor[(1), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z1), "Tensor[(3), float32]");
    assert_eq!(t.show_resolved(z2), "Tensor[(4, 1), float32]");
    assert_eq!(t.solver.stats().runs, 6);
}

#[test]
fn every_failure_is_reported_and_the_rest_is_solved() {
    let mut t = T::new();
    let ok = t.var("ok");
    t.rel(
        BROADCAST,
        &["Tensor[(2), float32]", "Tensor[(3), float32]", "(int32,)"],
        1,
    );
    t.rel(
        BROADCAST,
        &["Tensor[(2), float32]", "Tensor[(2), float32]", "ok"],
        2,
    );
    t.rel(IDENTITY, &["int32", "bool"], 3);
    let e = failed(t.solver.solve());
    assert_eq!(
        e,
        vec![
            SolveError {
                relation: "Broadcast",
                origin: 1,
                arg: Some(1),
                message: "`Tensor[(2), float32]` and `Tensor[(3), float32]` do not broadcast: \
                          dimension 0 of the first is 2 and dimension 0 of the second is 3"
                    .to_string(),
                notes: vec![],
            },
            SolveError {
                relation: "Identity",
                origin: 3,
                arg: Some(1),
                message: "dtype: bool vs int32".to_string(),
                notes: vec![],
            },
        ]
    );
    assert_eq!(t.show_resolved(ok), "Tensor[(2), float32]");
}

fn broadcast_fn(t: &mut T, relation: RelationRef) -> Ty {
    let a = t.solver.tcx.param("A", Kind::Type);
    let b = t.solver.tcx.param("B", Kind::Type);
    let c = t.solver.tcx.param("C", Kind::Type);
    let (ta, tb, tc) = (
        t.solver.tcx.param_ty(a).unwrap(),
        t.solver.tcx.param_ty(b).unwrap(),
        t.solver.tcx.param_ty(c).unwrap(),
    );
    t.solver.tcx.func(
        &[a, b, c],
        &[ta, tb],
        tc,
        vec![Constraint {
            relation,
            args: vec![ta, tb, tc].into(),
        }],
    )
}

#[test]
fn functions_with_constraints_unify_by_relation() {
    let mut t = T::new();
    let f = broadcast_fn(&mut t, BROADCAST);
    let g = broadcast_fn(&mut t, BROADCAST);
    let h = broadcast_fn(&mut t, IDENTITY);
    assert_ne!(f, g);
    t.solver.unify(f, g).unwrap();
    let e = t.solver.unify(f, h).unwrap_err();
    assert_eq!(e.kind, UnifyErrorKind::Constraints);
    assert_eq!(
        e.describe(&t.solver.tcx),
        "function types with different relations"
    );
}

#[test]
fn parameters_of_other_kinds_are_rigid() {
    let mut t = T::new();
    assert_eq!(
        t.unify_err(
            "fn [s: Shape](Tensor[s, float32]) -> int32",
            "fn [r: Shape](Tensor[(2), float32]) -> int32"
        ),
        "function argument 1: shape `s` vs `(2)`"
    );
    assert_eq!(
        t.unify_err(
            "fn [b: BaseType](Tensor[(2), b]) -> int32",
            "fn [c: BaseType](Tensor[(2), float32]) -> int32"
        ),
        "function argument 1, dtype: b vs float32"
    );
    assert_eq!(
        t.unify_err(
            "fn [k: ShapeVar](Tensor[(k), float32]) -> int32",
            "fn [j: ShapeVar](Tensor[(3), float32]) -> int32"
        ),
        "function argument 1, dimension 0: k vs 3"
    );
    assert_eq!(
        t.unify_err(
            "fn [k: ShapeVar](Tensor[(k), float32]) -> int32",
            "fn [s: Shape](Tensor[s, float32]) -> int32"
        ),
        "`fn [k: ShapeVar](Tensor[(k), float32]) -> int32` vs `fn [s: Shape](Tensor[s, float32]) -> int32`"
    );
}

#[test]
fn shape_variable_binds_to_a_shape_parameter() {
    let mut t = T::new();
    let s = t.solver.fresh_shape();
    t.scope.bind("v", Binding::Shape(s));
    let x = t.ty("Tensor[v, float32]");
    t.unify(
        "fn [s: Shape](Tensor[v, float32]) -> int32",
        "fn [r: Shape](Tensor[r, float32]) -> int32",
    );
    assert_eq!(t.show_resolved(x), "Tensor[s, float32]");
}

#[test]
fn dim_occurs_and_merges() {
    let mut t = T::new();
    let x = t.dim("x");
    let y = t.dim("y");
    // x = x + 1 has no solution.
    let (a, b) = (t.d("x"), t.d("x + 1"));
    assert_eq!(
        t.solver
            .unify_dims(a, b)
            .unwrap_err()
            .describe(&t.solver.tcx),
        "'d0 vs 'd0 + 1"
    );
    // x + y = 6, then x = y: the deferred equation becomes 2*x = 6.
    let (a, b) = (t.d("x + y"), t.d("6"));
    t.solver.unify_dims(a, b).unwrap();
    t.solver.unify_dims(x, y).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "3");
    assert_eq!(t.show_dim(y), "3");
}

#[test]
fn equal_offsets_of_two_unknowns_wait_for_one_of_them() {
    let mut t = T::new();
    let x = t.dim("x");
    t.dim("y");
    t.unify("Tensor[(x + 1), float32]", "Tensor[(y + 1), float32]");
    let w = waiting(t.solver.solve());
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].relation, "DimEq");
    assert_eq!(w[0].args, strings(&["'d0 + 1", "'d1 + 1"]));
    let (a, b) = (t.d("y"), t.d("4"));
    t.solver.unify_dims(a, b).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "4");
}

#[test]
fn commit_after_solving_inside_a_snapshot() {
    let mut t = T::new();
    let z = t.var("z");
    let snap = t.solver.snapshot();
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[(2, 1), float32]", "z"],
        1,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    t.solver.commit(snap);
    assert_eq!(t.show_resolved(z), "Tensor[(2, 3), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.solver.stats().runs, 1);
}

#[test]
fn rollback_restores_errors_reported_inside_the_snapshot() {
    // An error found before the snapshot but not yet reported, then reported by a
    // solve() inside the snapshot: the rollback makes it pending again.
    let mut t = T::new();
    t.rel(IDENTITY, &["int32", "(int32,)"], 1);
    let snap = t.solver.snapshot();
    let e = failed(t.solver.solve());
    assert_eq!(e.len(), 1);
    t.solver.rollback_to(snap);
    let again = failed(t.solver.solve());
    assert_eq!(again, e);
    assert_eq!(again[0].message, "`(int32,)` vs `int32`");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn deep_types_unify_resolve_and_print_without_recursion() {
    const DEPTH: usize = 100_000;
    let mut t = T::new();
    let a = t.var("a");
    let int32 = t.ty("int32");
    let (mut lhs, mut rhs) = (a, int32);
    for _ in 0..DEPTH {
        lhs = t.solver.tcx.tuple(&[lhs]);
        rhs = t.solver.tcx.tuple(&[rhs]);
    }
    t.solver.unify(lhs, rhs).unwrap();
    assert_eq!(t.show_resolved(a), "int32");
    let shown = t.show_resolved(lhs);
    assert!(shown == format!("{}int32{}", "(".repeat(DEPTH), ",)".repeat(DEPTH)));
    // The occurs check on a deep type is an error too.
    let b = t.var("b");
    let mut deep = b;
    for _ in 0..DEPTH {
        deep = t.solver.tcx.tuple(&[deep]);
    }
    let e = t.solver.unify(b, deep).unwrap_err();
    assert!(matches!(e.kind, UnifyErrorKind::Occurs(..)));
}

#[test]
fn dims_with_subtraction_parse_next_to_arrows() {
    let mut t = T::new();
    let f = t.ty("fn (Tensor[(n-1), float32]) -> Tensor[(n - 1, 2*n-2), float32]");
    assert_eq!(
        t.solver.tcx.show(f),
        "fn (Tensor[(n - 1), float32]) -> Tensor[(n - 1, 2*n - 2), float32]"
    );
}

#[test]
fn broadcast_of_whole_shapes_of_unknown_rank() {
    let mut t = T::new();
    let v = t.solver.fresh_shape();
    t.scope.bind("v", Binding::Shape(v));
    let p = t.solver.tcx.param("s", Kind::Shape);
    t.scope.bind("s", Binding::Param(p));
    let (z1, z2, z3) = (t.var("z1"), t.var("z2"), t.var("z3"));
    // A shape with itself, or with a scalar, is itself: no need to know its rank.
    t.rel(
        BROADCAST,
        &["Tensor[s, float32]", "Tensor[s, float32]", "z1"],
        1,
    );
    t.rel(BROADCAST, &["float32", "Tensor[v, float32]", "z2"], 2);
    t.rel(
        BROADCAST,
        &["Tensor[v, float32]", "Tensor[v, float32]", "z3"],
        3,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(z1), "Tensor[s, float32]");
    assert_eq!(t.show_resolved(z2), "Tensor['s0, float32]");
    assert_eq!(t.show_resolved(z3), "Tensor['s0, float32]");
}

#[test]
fn broadcast_of_a_shape_parameter_with_another_shape_fails() {
    // Waiting would never help: the parameter's rank never becomes known.
    let mut t = T::new();
    let p = t.solver.tcx.param("s", Kind::Shape);
    t.scope.bind("s", Binding::Param(p));
    t.var("z");
    t.rel(
        BROADCAST,
        &["Tensor[(3), float32]", "Tensor[s, float32]", "z"],
        6,
    );
    assert_eq!(
        failed(t.solver.solve()),
        vec![SolveError {
            relation: "Broadcast",
            origin: 6,
            arg: Some(1),
            message: "cannot broadcast `Tensor[(3), float32]` with `Tensor[s, float32]`: \
                      the shape parameter `s` has no known rank"
                .to_string(),
            notes: vec![],
        }]
    );
}

// ----- arithmetic that overflows while resolving -----

#[test]
fn overflow_while_unifying_dims_is_an_error() {
    let mut t = T::new();
    let y = t.dim("y");
    let z = t.dim("z");
    let big = t.d("4000000000000000000");
    t.solver.unify_dims(y, big).unwrap();
    let three_y = t.d("3*y");
    let e = t.solver.unify_dims(three_y, z).unwrap_err();
    assert_eq!(
        e.kind,
        UnifyErrorKind::Arith(relay_core::DimError::Overflow)
    );
    assert_eq!(
        e.describe(&t.solver.tcx),
        "dimension arithmetic overflows 64 bits"
    );
    assert_eq!(t.show_dim(z), "'d1");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn overflow_while_resolving_a_type_is_reported_by_solve() {
    let mut t = T::new();
    let y = t.dim("y");
    let x = t.ty("Tensor[(3*y), float32]");
    let big = t.d("4000000000000000000");
    t.solver.unify_dims(y, big).unwrap();
    assert_eq!(t.show_resolved(x), "Tensor[(3*'d0), float32]");
    assert_eq!(
        failed(t.solver.solve()),
        vec![SolveError {
            relation: "resolve",
            origin: u32::MAX,
            arg: None,
            message: "dimension arithmetic overflows 64 bits".to_string(),
            notes: vec![],
        }]
    );
}

#[test]
fn overflow_while_resolving_inside_a_snapshot_is_rolled_back() {
    let mut t = T::new();
    let y = t.dim("y");
    let x = t.ty("Tensor[(3*y), float32]");
    let snap = t.solver.snapshot();
    let big = t.d("4000000000000000000");
    t.solver.unify_dims(y, big).unwrap();
    assert_eq!(t.show_resolved(x), "Tensor[(3*'d0), float32]");
    t.solver.rollback_to(snap);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    let two = t.d("2");
    t.solver.unify_dims(y, two).unwrap();
    assert_eq!(t.show_resolved(x), "Tensor[(6), float32]");
}
