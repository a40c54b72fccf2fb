//! `#[relation]` clauses run by the solver: the spec's relations declared with the macro,
//! propagation both ways, waiting, failures with their exact messages, attributes, Rust
//! functions and the imperative form.

use relay_core::text::Binding;
use relay_core::{
    clause::Value, relation, AttrValue, Attrs, Outcome, Progress, RelCx, RelError, RelResult,
    Relation, SolveError,
};

#[relation(Identity(I, I) :- true)]
pub struct Identity;

#[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt))]
pub struct Flatten;

#[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
pub struct Broadcast;

use relay_core::testing::TestSolver as T;

use relay_core::testing::failed;

fn one_error(outcome: Outcome) -> SolveError {
    let mut errors = failed(outcome);
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.remove(0)
}

fn attrs(entries: &[(&str, AttrValue)]) -> Attrs {
    Attrs::new(
        entries
            .iter()
            .map(|(n, v)| (Box::from(*n), v.clone()))
            .collect(),
    )
}

// ----- Identity -----

#[test]
fn identity_forward() {
    let mut t = T::new();
    t.var("o");
    t.rel(Identity::REF, &["Tensor[(3, 4), float32]", "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(3, 4), float32]");
}

#[test]
fn identity_backward() {
    let mut t = T::new();
    t.var("i");
    t.rel(Identity::REF, &["i", "(int8, Tensor[(n), bool])"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("i"), "(int8, Tensor[(n), bool])");
}

#[test]
fn identity_mismatch_blames_the_second_argument() {
    let mut t = T::new();
    t.rel(
        Identity::REF,
        &["Tensor[(3), float32]", "Tensor[(4), float32]"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.relation, "Identity");
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.message, "dimension 0: 3 vs 4");
}

#[test]
fn relation_def_is_named_after_the_struct() {
    assert_eq!(Identity::DEF.name, "Identity");
    assert_eq!(Identity::DEF.arity, Some(2));
    assert_eq!(Broadcast::DEF.arity, Some(3));
}

// ----- Flatten -----

#[test]
fn flatten_keeps_the_first_dimension() {
    let mut t = T::new();
    t.var("o");
    t.rel(Flatten::REF, &["Tensor[(n, 2, 3), float32]", "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(n, 6), float32]");
}

#[test]
fn flatten_waits_until_the_rank_is_known() {
    let mut t = T::new();
    t.var("x");
    t.var("o");
    t.rel(Flatten::REF, &["x", "o"], 7);
    let Outcome::UnderConstrained(w) = t.solver.solve() else {
        panic!("expected to wait")
    };
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].relation, "Flatten");
    t.unify("x", "Tensor[(4, 5, 6, 7), int32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(4, 210), int32]");
}

#[test]
fn flatten_waits_on_a_shape_of_unknown_rank() {
    let mut t = T::new();
    let sh = t.solver.fresh_shape();
    let x = t
        .solver
        .tcx
        .tensor(sh, relay_core::DTy::Known(relay_core::DType::FLOAT32));
    t.scope.bind("x", Binding::Ty(x));
    t.var("o");
    t.rel(Flatten::REF, &["x", "o"], 7);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    assert_eq!(t.show("o"), "'t0");
}

#[test]
fn flatten_of_a_scalar_is_an_error() {
    let mut t = T::new();
    t.var("o");
    t.rel(Flatten::REF, &["float32", "o"], 7);
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(0));
    assert_eq!(e.message, "index 0 is out of range for a shape of rank 0");
}

#[test]
fn flatten_output_mismatch_blames_the_output() {
    let mut t = T::new();
    t.rel(
        Flatten::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(2, 4), float32]"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.message, "dimension 1: 4 vs 3");
}

#[test]
fn flatten_rejects_a_tuple() {
    let mut t = T::new();
    t.var("o");
    t.rel(Flatten::REF, &["(float32, float32)", "o"], 7);
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(0));
    assert_eq!(e.message, "expected a tensor, found `(float32, float32)`");
}

// ----- Broadcast -----

fn broadcast(a: &str, b: &str) -> String {
    let mut t = T::new();
    t.var("o");
    t.rel(Broadcast::REF, &[a, b, "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved, "{a} with {b}");
    t.show("o")
}

#[test]
fn broadcast_with_ones() {
    assert_eq!(
        broadcast("Tensor[(5, 1), float32]", "Tensor[(7, 2, 1, 3), float32]"),
        "Tensor[(7, 2, 5, 3), float32]"
    );
    assert_eq!(
        broadcast("Tensor[(1, 4), float32]", "Tensor[(3, 1), float32]"),
        "Tensor[(3, 4), float32]"
    );
    assert_eq!(
        broadcast("float32", "Tensor[(2, 3), float32]"),
        "Tensor[(2, 3), float32]"
    );
}

#[test]
fn broadcast_with_equal_symbols() {
    assert_eq!(
        broadcast("Tensor[(n, m), float32]", "Tensor[(n, 1), float32]"),
        "Tensor[(n, m), float32]"
    );
}

#[test]
fn broadcast_with_any() {
    assert_eq!(
        broadcast("Tensor[(?, 3), float32]", "Tensor[(1, 3), float32]"),
        "Tensor[(?, 3), float32]"
    );
    assert_eq!(
        broadcast("Tensor[(1), float32]", "Tensor[(?), float32]"),
        "Tensor[(?), float32]"
    );
}

#[test]
fn broadcast_clash_names_both_dimensions() {
    let mut t = T::new();
    t.var("o");
    t.rel(
        Broadcast::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(4, 5), float32]", "o"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(
        e,
        SolveError {
            relation: "Broadcast",
            origin: 7,
            arg: Some(1),
            message: "`Tensor[(2, 3), float32]` and `Tensor[(4, 5), float32]` do not broadcast: \
                      dimension 0 of the first is 2 and dimension 0 of the second is 4"
                .to_string(),
            notes: vec![],
        }
    );
}

#[test]
fn broadcast_dtype_mismatch() {
    let mut t = T::new();
    t.var("o");
    t.rel(
        Broadcast::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(2, 3), int32]", "o"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.message, "dtype: float32 vs int32");
}

#[test]
fn broadcast_waits_for_both_inputs() {
    let mut t = T::new();
    t.var("b");
    t.var("o");
    t.rel(Broadcast::REF, &["Tensor[(2, 3), float32]", "b", "o"], 7);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    t.unify("b", "Tensor[(3), float32]");
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(2, 3), float32]");
}

// ----- attributes -----

/// `Softmax`-like: the axis must be in range, the type is unchanged.
#[relation(
    AxisOp(Tensor(s, bt), O) :-
        assert(attrs.axis >= -len(s), "`axis` is out of range"),
        assert(attrs.axis < len(s), "`axis` is out of range"),
        O = Tensor(s, bt),
        attrs(axis: int = -1)
)]
pub struct AxisOp;

/// Sum over one axis, `keepdims` read as a bool.
#[relation(
    SumAxis(Tensor(s, bt), O) :-
        k = attrs.axis,
        O = Tensor([..s[..k], ..s[k + 1..]], bt),
        attrs(axis: int)
)]
pub struct SumAxis;

/// `Cast`: the output dtype is an attribute.
#[relation(Cast(Tensor(s, _), O) :- O = Tensor(s, attrs.dtype), attrs(dtype: dtype))]
pub struct Cast;

#[test]
fn attribute_in_range_and_default() {
    let mut t = T::new();
    t.var("o");
    t.rel_with(
        AxisOp::REF,
        &["Tensor[(2, 3), float32]", "o"],
        Some(attrs(&[("axis", AttrValue::Int(1))])),
        7,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(2, 3), float32]");
    // The default, -1, is in range.
    let mut t = T::new();
    t.var("o");
    t.rel(AxisOp::REF, &["Tensor[(2, 3), float32]", "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn attribute_out_of_range_gives_the_assert_message() {
    let mut t = T::new();
    t.var("o");
    t.rel_with(
        AxisOp::REF,
        &["Tensor[(2, 3), float32]", "o"],
        Some(attrs(&[("axis", AttrValue::Int(2))])),
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.message, "`axis` is out of range");
    assert_eq!(e.arg, Some(0));
}

#[test]
fn attribute_as_an_index_in_slices() {
    let mut t = T::new();
    t.var("o");
    t.rel_with(
        SumAxis::REF,
        &["Tensor[(2, 3, 4), float32]", "o"],
        Some(attrs(&[("axis", AttrValue::Int(1))])),
        7,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(2, 4), float32]");
}

#[test]
fn missing_attribute_is_an_error() {
    let mut t = T::new();
    t.var("o");
    t.rel(SumAxis::REF, &["Tensor[(2, 3, 4), float32]", "o"], 7);
    let e = one_error(t.solver.solve());
    assert_eq!(e.message, "the attribute `axis` is missing");
}

#[test]
fn attribute_of_the_wrong_type_is_an_error() {
    let mut t = T::new();
    t.var("o");
    t.rel_with(
        SumAxis::REF,
        &["Tensor[(2, 3, 4), float32]", "o"],
        Some(attrs(&[("axis", AttrValue::Str("x".into()))])),
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(
        e.message,
        "the attribute `axis` must be an integer, found `\"x\"`"
    );
}

#[test]
fn dtype_attribute() {
    let mut t = T::new();
    t.var("o");
    t.rel_with(
        Cast::REF,
        &["Tensor[(n, 3), float32]", "o"],
        Some(attrs(&[("dtype", AttrValue::Str("int8".into()))])),
        7,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(n, 3), int8]");
}

// ----- backward destructuring -----

/// The input is rebuilt from the output when only the output is known.
#[relation(Same(Tensor(s, bt), O) :- O = Tensor(s, bt))]
pub struct Same;

#[test]
fn backward_through_a_constructor() {
    let mut t = T::new();
    t.var("x");
    t.rel(Same::REF, &["x", "Tensor[(5, n), int64]"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("x"), "Tensor[(5, n), int64]");
}

/// Head list patterns with a rest, and literal dimensions.
#[relation(Matmul(Tensor([..b, n, k], bt), Tensor([k, m], bt), O) :- O = Tensor([..b, n, m], bt))]
pub struct Matmul;

#[test]
fn list_patterns_with_a_rest() {
    let mut t = T::new();
    t.var("o");
    t.rel(
        Matmul::REF,
        &["Tensor[(7, 2, 3), float32]", "Tensor[(3, 5), float32]", "o"],
        7,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(7, 2, 5), float32]");
    let mut t = T::new();
    t.var("o");
    t.rel(
        Matmul::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(4, 5), float32]", "o"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.message, "dimension 0: 3 vs 4");
    let mut t = T::new();
    t.var("o");
    t.rel(
        Matmul::REF,
        &["Tensor[(2, 3), float32]", "Tensor[(3), float32]", "o"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.arg, Some(1));
    assert_eq!(e.message, "expected a shape of rank 2, found `(3)`");
}

/// Tuples in the head, comparisons as goals.
#[relation(Pair((Tensor(s, bt), Tensor(s, bt)), O) :- len(s) == 2, O = Tensor([s[0] * s[1]], bt))]
pub struct Pair;

#[test]
fn tuple_patterns_and_comparisons() {
    let mut t = T::new();
    t.var("o");
    t.rel(
        Pair::REF,
        &["(Tensor[(2, 3), int32], Tensor[(2, 3), int32])", "o"],
        7,
    );
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(6), int32]");
    let mut t = T::new();
    t.var("o");
    t.rel(
        Pair::REF,
        &["(Tensor[(2), int32], Tensor[(2), int32])", "o"],
        7,
    );
    let e = one_error(t.solver.solve());
    assert_eq!(e.message, "`len(s) == 2` does not hold: it is `1 == 2`");
}

// ----- Rust functions -----

/// Doubles a dimension.
fn double(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let d = args[0].dim().expect("a dimension");
    let two = cx.tcx().dims.konst(2);
    let r = cx
        .tcx()
        .dims
        .mul(d, two)
        .map_err(|e| RelError::new(e.to_string()))?;
    Ok(Value::Dim(r))
}

/// Refuses odd dimensions.
fn even(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let d = args[0].dim().expect("a dimension");
    match cx.tcx_ref().dims.as_const(d) {
        Some(c) => Ok(Value::Bool(c % 2 == 0)),
        None => Err(RelError::new("expected a constant dimension")),
    }
}

#[relation(
    Doubled(Tensor([n], bt), O) :-
        assert(rust(even)(n), "the length must be even"),
        O = Tensor([rust(double)(n)], bt)
)]
pub struct Doubled;

#[test]
fn rust_functions() {
    let mut t = T::new();
    t.var("o");
    t.rel(Doubled::REF, &["Tensor[(4), float32]", "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "Tensor[(8), float32]");
    let mut t = T::new();
    t.var("o");
    t.rel(Doubled::REF, &["Tensor[(3), float32]", "o"], 7);
    let e = one_error(t.solver.solve());
    assert_eq!(e.message, "the length must be even");
    let mut t = T::new();
    t.var("o");
    t.rel(Doubled::REF, &["Tensor[(n), float32]", "o"], 7);
    let e = one_error(t.solver.solve());
    assert_eq!(e.message, "expected a constant dimension");
    assert_eq!(e.arg, Some(0));
}

// ----- the imperative form -----

/// `Swap(A, B, O) :- O = (B, A)`, written by hand.
#[relation(Swap)]
pub fn swap(cx: &mut RelCx<'_>) -> RelResult {
    let (a, b) = (cx.arg(0), cx.arg(1));
    let out = cx.tcx().tuple(&[b, a]);
    cx.unify(2, out)?;
    Ok(Progress::Solved)
}

#[test]
fn imperative_relation() {
    assert_eq!(Swap::DEF.name, "Swap");
    assert_eq!(Swap::DEF.arity, None);
    let mut t = T::new();
    t.var("o");
    t.rel(Swap::REF, &["int8", "bool", "o"], 7);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show("o"), "(bool, int8)");
}

#[test]
fn relations_are_registered() {
    let names: Vec<&str> =
        relay_core::__private::inventory::iter::<relay_core::__private::RelationEntry>
            .into_iter()
            .map(|e| e.def.name)
            .collect();
    for n in ["Identity", "Flatten", "Broadcast", "Swap", "Doubled"] {
        assert!(names.contains(&n), "{n} not in {names:?}");
    }
}
