//! The clause language's forms, run through the macro and the interpreter: exact types
//! and messages, forward and backward, waiting and defaults.

use crate::attrs::{AttrValue, Attrs};
use crate::relation::{Relation, RelationRef};
use crate::solve::Outcome;
use crate::testing::TestSolver;
use crate::{relation, Ty};
use std::sync::Arc;

/// Solves `rel` on the types written `args` (`_` an unknown, names of [`TestSolver::var`]s)
/// and an unknown output, with `attrs`: the output printed, or the first error, or
/// `waiting`.
fn run(rel: RelationRef, args: &[&str], attrs: &[(&str, AttrValue)]) -> Result<String, String> {
    let mut t = TestSolver::new();
    let mut tys: Vec<Ty> = args
        .iter()
        .map(|a| {
            if *a == "_" {
                t.solver.fresh_ty()
            } else {
                t.ty(a)
            }
        })
        .collect();
    let out = t.solver.fresh_ty();
    tys.push(out);
    let attrs = Attrs::new(
        attrs
            .iter()
            .map(|(n, v)| ((*n).into(), v.clone()))
            .collect(),
    );
    t.solver.add_relation(rel, &tys, Some(Arc::new(attrs)), 0);
    match t.solver.solve() {
        Outcome::Solved => Ok(t.show_resolved(out)),
        Outcome::Failed(e) => Err(e[0].message.clone()),
        Outcome::UnderConstrained(_) => Err("waiting".into()),
    }
}

fn ints(v: &[i64]) -> AttrValue {
    AttrValue::List(v.iter().map(|&i| AttrValue::Int(i)).collect())
}

#[relation(
    Permute(X @ Tensor(s, bt), O) :-
        if attrs.axes == None {
            O = Tensor(reverse(s), bt)
        } else {
            assert(len(attrs.axes) == len(s), "`axes` has {} entries but `{}` has rank {}", len(attrs.axes), X, len(s)),
            assert(distinct(attrs.axes), "`axes` {} repeats an axis", attrs.axes),
            O = Tensor(s[attrs.axes], bt),
        },
        attrs(axes: Option<[int]> = None)
)]
struct Permute;

#[test]
fn optional_list_attributes_conditions_and_gathers() {
    let p = Permute::REF;
    let x = "Tensor[(2, 3, 4), float32]";
    assert_eq!(run(p, &[x], &[]), Ok("Tensor[(4, 3, 2), float32]".into()));
    assert_eq!(
        run(p, &[x], &[("axes", AttrValue::None)]),
        Ok("Tensor[(4, 3, 2), float32]".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", ints(&[1, 0, 2]))]),
        Ok("Tensor[(3, 2, 4), float32]".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", ints(&[-1, 0, 1]))]),
        Ok("Tensor[(4, 2, 3), float32]".into())
    );
    // `[int]` also takes a single integer.
    assert_eq!(
        run(p, &["Tensor[(7), int8]"], &[("axes", AttrValue::Int(0))]),
        Ok("Tensor[(7), int8]".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", ints(&[0, 1]))]),
        Err("`axes` has 2 entries but `Tensor[(2, 3, 4), float32]` has rank 3".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", ints(&[0, 1, 1]))]),
        Err("`axes` (0, 1, 1) repeats an axis".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", ints(&[0, 1, 5]))]),
        Err("`axes` 5 is out of range for `Tensor[(2, 3, 4), float32]` (rank 3)".into())
    );
    assert_eq!(
        run(p, &[x], &[("axes", AttrValue::Bool(true))]),
        Err("the attribute `axes` must be a list of integers, found `True`".into())
    );
    // Waits for its input's rank.
    assert_eq!(run(p, &["_"], &[]), Err("waiting".into()));
}

#[relation(
    Lead(Tensor(s, bt), O) :- O = Tensor([..[1; attrs.n], ..s], bt), attrs(n: int)
)]
struct Lead;

#[relation(
    Pick(Tensor(s, bt), O) :- O = Tensor([s[attrs.k]], bt), attrs(k: Option<int> = None)
)]
struct Pick;

#[test]
fn repeats_and_optional_values() {
    assert_eq!(
        run(
            Lead::REF,
            &["Tensor[(3), float32]"],
            &[("n", AttrValue::Int(2))]
        ),
        Ok("Tensor[(1, 1, 3), float32]".into())
    );
    assert_eq!(
        run(
            Lead::REF,
            &["Tensor[(3), float32]"],
            &[("n", AttrValue::Int(0))]
        ),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(
            Lead::REF,
            &["Tensor[(3), float32]"],
            &[("n", AttrValue::Int(-1))]
        ),
        Err("`[d; n]` repeats a dimension -1 times: it must be 0 to 65536".into())
    );
    // A huge count from an attribute is an error, not an allocation that cannot succeed.
    assert_eq!(
        run(
            Lead::REF,
            &["Tensor[(3), float32]"],
            &[("n", AttrValue::Int(i64::MAX))]
        ),
        Err(format!(
            "`[d; n]` repeats a dimension {} times: it must be 0 to 65536",
            i64::MAX
        ))
    );
    assert_eq!(
        run(
            Pick::REF,
            &["Tensor[(3, 5), float32]"],
            &[("k", AttrValue::Int(-1))]
        ),
        Ok("Tensor[(5), float32]".into())
    );
    assert_eq!(
        run(Pick::REF, &["Tensor[(3, 5), float32]"], &[]),
        Err("the attribute `k` has no value (it is `None`)".into())
    );
}

#[relation(
    Square(X @ Tensor([a, b], bt), O) :-
        assert(a = b, "`{}` is not square: {} rows, {} columns {{sic}}", X, a, b),
        O = Tensor([a], bt)
)]
struct Square;

#[test]
fn equations_with_messages_still_solve_unknowns() {
    assert_eq!(
        run(Square::REF, &["Tensor[(3, 3), float32]"], &[]),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(Square::REF, &["Tensor[(3, 4), float32]"], &[]),
        Err("`Tensor[(3, 4), float32]` is not square: 3 rows, 4 columns {sic}".into())
    );
    // An unknown dimension is solved, as by `a = b`.
    let mut t = TestSolver::new();
    t.dim("d");
    let x = t.ty("Tensor[(5, d), int8]");
    let o = t.solver.fresh_ty();
    t.solver.add_relation(Square::REF, &[x, o], None, 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(x), "Tensor[(5, 5), int8]");
}

#[relation(
    Halve(Tensor([n], bt), O) :-
        if n % 2 == 0 { O = Tensor([n / 2], bt) } else { O = Tensor([n], bt) }
)]
struct Halve;

#[test]
fn a_condition_waits_until_it_is_decided() {
    assert_eq!(
        run(Halve::REF, &["Tensor[(6), float32]"], &[]),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(Halve::REF, &["Tensor[(7), float32]"], &[]),
        Ok("Tensor[(7), float32]".into())
    );
    let mut t = TestSolver::new();
    let n = t.dim("d");
    let x = t.ty("Tensor[(d), float32]");
    let o = t.solver.fresh_ty();
    t.solver.add_relation(Halve::REF, &[x, o], None, 0);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    let ten = t.solver.tcx.dims.konst(10);
    t.solver.unify_dims(n, ten).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(o), "Tensor[(5), float32]");
}

#[relation(
    Weight(Tensor([k], bt), W @ Tensor(sw, wt), O) :-
        sw = [attrs.units, k],
        default(wt, bt),
        O = Tensor([attrs.units], wt),
        attrs(units: int)
)]
struct Weight;

#[test]
fn a_default_applies_only_to_what_nothing_else_gives() {
    let units = [("units", AttrValue::Int(4))];
    // The weight unknown: its dtype is the data's.
    let mut t = TestSolver::new();
    let x = t.ty("Tensor[(8), float16]");
    let (w, o) = (t.solver.fresh_ty(), t.solver.fresh_ty());
    let attrs = Arc::new(Attrs::new(
        units
            .iter()
            .map(|(n, v)| ((*n).into(), v.clone()))
            .collect(),
    ));
    t.solver
        .add_relation(Weight::REF, &[x, w, o], Some(attrs.clone()), 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(w), "Tensor[(4, 8), float16]");
    assert_eq!(t.show_resolved(o), "Tensor[(4), float16]");
    // The weight known: its own dtype stays.
    assert_eq!(
        run(
            Weight::REF,
            &["Tensor[(8), float16]", "Tensor[(4, 8), int8]"],
            &units
        ),
        Ok("Tensor[(4), int8]".into())
    );
    assert_eq!(Weight::DEF.needs, &[0]);
}

#[relation(Same(X @ Tensor(s, bt), O) :- O = X)]
struct Same;

#[test]
fn as_patterns_work_both_ways() {
    assert_eq!(
        run(Same::REF, &["Tensor[(2), bool]"], &[]),
        Ok("Tensor[(2), bool]".into())
    );
    let mut t = TestSolver::new();
    let x = t.solver.fresh_ty();
    let o = t.ty("Tensor[(2, n), int32]");
    t.solver.add_relation(Same::REF, &[x, o], None, 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(x), "Tensor[(2, n), int32]");
    assert_eq!(
        run(Same::REF, &["(float32,)"], &[]),
        Err("expected a tensor, found `(float32,)`".into())
    );
}

#[relation(
    Layout(Tensor([a, b], bt), O) :-
        assert(attrs.rate <= 1.0, "`rate` must be at most 1"),
        assert(0 <= attrs.rate, "`rate` must not be negative"),
        if attrs.layout == "NC" {
            O = Tensor([a], bt)
        } else if "CN" == attrs.layout {
            O = Tensor([b], bt)
        } else {
            assert(false, "`layout` must be \"NC\" or \"CN\""),
        },
        attrs(layout: str = "NC", rate: float = 0.5)
)]
struct Layout;

#[test]
fn string_and_float_attributes_are_compared_with_literals() {
    let l = Layout::REF;
    let x = "Tensor[(2, 3), float32]";
    let s = |v: &str| AttrValue::Str(v.into());
    assert_eq!(run(l, &[x], &[]), Ok("Tensor[(2), float32]".into()));
    assert_eq!(
        run(l, &[x], &[("layout", s("CN"))]),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(l, &[x], &[("layout", s("HW"))]),
        Err("`layout` must be \"NC\" or \"CN\"".into())
    );
    assert_eq!(
        run(l, &[x], &[("layout", AttrValue::Int(1))]),
        Err("the attribute `layout` must be a string, found `1`".into())
    );
    assert_eq!(
        run(l, &[x], &[("rate", AttrValue::Float(1.0))]),
        Ok("Tensor[(2), float32]".into())
    );
    assert_eq!(
        run(l, &[x], &[("rate", AttrValue::Int(0))]),
        Ok("Tensor[(2), float32]".into())
    );
    assert_eq!(
        run(l, &[x], &[("rate", AttrValue::Float(1.5))]),
        Err("`rate` must be at most 1".into())
    );
    assert_eq!(
        run(l, &[x], &[("rate", AttrValue::Float(-0.5))]),
        Err("`rate` must not be negative".into())
    );
}

#[relation(
    Pair(Tensor(s, bt), O) :- s = [a, 3], O = Tensor([..s[..-1], a * 2], bt)
)]
struct Pair;

#[test]
fn the_fast_path_gives_up_and_the_interpreter_reports() {
    // The fast path checks `s = [a, 3]` dimension by dimension and builds the output
    // from registers; on a mismatch the general interpreter reports it.
    assert_eq!(
        run(Pair::REF, &["Tensor[(5, 3), int8]"], &[]),
        Ok("Tensor[(5, 10), int8]".into())
    );
    assert_eq!(
        run(Pair::REF, &["Tensor[(5, 4), int8]"], &[]),
        Err("dimension 1: 3 vs 4".into())
    );
    assert_eq!(
        run(Pair::REF, &["Tensor[(5, 3, 1), int8]"], &[]),
        Err("expected a shape of rank 2, found `(5, 3, 1)`".into())
    );
}

#[relation(
    Axis(X @ Tensor(s, bt), O) :-
        assert(
            -len(s) <= attrs.axis && attrs.axis < len(s),
            "`axis` {} is out of range for `{}`", attrs.axis, X
        ),
        if !(attrs.keep || len(s) == 1) { O = Tensor(s[1..], bt) } else { O = Tensor(s, bt) },
        attrs(axis: int = 0, keep: bool = false)
)]
struct Axis;

#[test]
fn conditions_combine_with_and_or_not() {
    let a = Axis::REF;
    let x = "Tensor[(2, 3), float32]";
    assert_eq!(run(a, &[x], &[]), Ok("Tensor[(3), float32]".into()));
    assert_eq!(
        run(a, &[x], &[("keep", AttrValue::Bool(true))]),
        Ok("Tensor[(2, 3), float32]".into())
    );
    assert_eq!(
        run(a, &["Tensor[(4), int8]"], &[]),
        Ok("Tensor[(4), int8]".into())
    );
    assert_eq!(
        run(a, &[x], &[("axis", AttrValue::Int(-2))]),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(a, &[x], &[("axis", AttrValue::Int(2))]),
        Err("`axis` 2 is out of range for `Tensor[(2, 3), float32]`".into())
    );
    assert_eq!(
        run(a, &[x], &[("axis", AttrValue::Int(-3))]),
        Err("`axis` -3 is out of range for `Tensor[(2, 3), float32]`".into())
    );
}

#[relation(
    Either(Tensor([n], bt), O) :- if n == 1 || attrs.flag { O = Tensor([], bt) } else { O = Tensor([n], bt) },
    attrs(flag: bool = false)
)]
struct Either;

#[test]
fn a_side_that_decides_alone_does_not_wait_for_the_other() {
    // `n` unknown, but `attrs.flag` is true: the `||` is decided.
    let mut t = TestSolver::new();
    t.dim("d");
    let x = t.ty("Tensor[(d), float32]");
    let o = t.solver.fresh_ty();
    let attrs = Attrs::new(vec![("flag".into(), AttrValue::Bool(true))]);
    t.solver
        .add_relation(Either::REF, &[x, o], Some(Arc::new(attrs)), 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(o), "float32");
    // Without it, the condition waits for `n`.
    assert_eq!(run(Either::REF, &["_"], &[]), Err("waiting".into()));
    assert_eq!(
        run(Either::REF, &["Tensor[(1), int8]"], &[]),
        Ok("int8".into())
    );
    assert_eq!(
        run(Either::REF, &["Tensor[(5), int8]"], &[]),
        Ok("Tensor[(5), int8]".into())
    );
}

/// [`run`] with the fast path and with the general interpreter alone: the two agree.
fn both(rel: RelationRef, args: &[&str], attrs: &[(&str, AttrValue)]) -> Result<String, String> {
    let general = super::run::GENERAL_RUNS.get();
    let fast = run(rel, args, attrs);
    if fast.is_ok() {
        assert_eq!(
            super::run::GENERAL_RUNS.get(),
            general,
            "{} on {args:?}: the fast path gave up",
            rel.name()
        );
    }
    super::fast::set_enabled(false);
    let slow = run(rel, args, attrs);
    super::fast::set_enabled(true);
    assert_eq!(fast, slow, "{} on {args:?}", rel.name());
    fast
}

#[relation(Big(Tensor(s, bt), O) :- O = Tensor([d * 2 for d in s if d > 2], bt))]
struct Big;

#[relation(Iota(Tensor([n], bt), O) :- O = Tensor([i + 1 for i in 0..n], bt))]
struct Iota;

#[relation(
    KeepDims(Tensor(s, bt), O) :-
        O = Tensor([if i in attrs.axes { 1 } else { s[i] } for i in 0..len(s)], bt),
        attrs(axes: [int])
)]
struct KeepDims;

#[test]
fn comprehensions_filter_and_map() {
    let o = Big::REF;
    assert_eq!(
        both(o, &["Tensor[(1, 2, 3, 4), float32]"], &[]),
        Ok("Tensor[(6, 8), float32]".into())
    );
    assert_eq!(both(o, &["Tensor[(2), int8]"], &[]), Ok("int8".into()));
    // A filter on a symbol that cannot be decided.
    assert_eq!(
        both(o, &["Tensor[(n), float32]"], &[]),
        Err("cannot decide `>`: `n` and `2` have no known order; to accept a symbolic dimension, test `is_int(d)` first (`if is_int(d) { .. }`)".into())
    );
    assert_eq!(both(o, &["_"], &[]), Err("waiting".into()));

    let i = Iota::REF;
    assert_eq!(
        both(i, &["Tensor[(3), float32]"], &[]),
        Ok("Tensor[(1, 2, 3), float32]".into())
    );
    assert_eq!(
        both(i, &["Tensor[(0), float32]"], &[]),
        Ok("float32".into())
    );
    assert_eq!(
        both(i, &["Tensor[(n), float32]"], &[]),
        Err("expected an integer, found `n`".into())
    );
    assert_eq!(
        both(i, &["Tensor[(2000000), float32]"], &[]),
        Err("the range `0..2000000` has more than 1048576 integers".into())
    );

    let k = KeepDims::REF;
    let x = "Tensor[(n, 5, 6), float32]";
    assert_eq!(
        both(k, &[x], &[("axes", ints(&[0, 2]))]),
        Ok("Tensor[(1, 5, 1), float32]".into())
    );
    assert_eq!(
        both(k, &[x], &[("axes", ints(&[]))]),
        Ok("Tensor[(n, 5, 6), float32]".into())
    );
}

#[relation(
    Positive(X @ Tensor(s, bt), O) :-
        for i in 0..len(s) {
            assert(s[i] > 0, "dimension {} of `{}` is {}", i, X, s[i]),
        },
        O = X
)]
struct Positive;

#[relation(Ones(Tensor(s, bt), O) :- for d in s { d = 1 }, O = Tensor(s, bt))]
struct Ones;

#[relation(
    Consts(X @ Tensor(s, bt), O) :-
        for i in 0..len(s) {
            assert(is_int(s[i]), "dimension {} of `{}` is not an integer", i, X),
        },
        O = Tensor([d for d in s if d != 1], bt)
)]
struct Consts;

#[test]
fn loops_check_and_solve_each_dimension() {
    let p = Positive::REF;
    assert_eq!(
        both(p, &["Tensor[(2, ?), float32]"], &[]),
        Ok("Tensor[(2, ?), float32]".into())
    );
    assert_eq!(
        both(p, &["Tensor[(2, 0, 3), float32]"], &[]),
        Err("dimension 1 of `Tensor[(2, 0, 3), float32]` is 0".into())
    );
    assert_eq!(both(p, &["_"], &[]), Err("waiting".into()));

    // An equation in a loop solves an unknown dimension, and fails on another constant.
    let o = Ones::REF;
    let mut t = TestSolver::new();
    t.dim("d");
    let x = t.ty("Tensor[(1, d), float32]");
    let out = t.solver.fresh_ty();
    t.solver.add_relation(o, &[x, out], None, 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(out), "Tensor[(1, 1), float32]");
    assert_eq!(
        both(o, &["Tensor[(1, 2), float32]"], &[]),
        Err("2 vs 1".into())
    );

    // `is_int` is false for `?` and symbols, and waits for an unknown.
    let c = Consts::REF;
    assert_eq!(
        both(c, &["Tensor[(1, 3, 1), float32]"], &[]),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        both(c, &["Tensor[(1, ?), float32]"], &[]),
        Err("dimension 1 of `Tensor[(1, ?), float32]` is not an integer".into())
    );
    assert_eq!(
        both(c, &["Tensor[(n, 1), float32]"], &[]),
        Err("dimension 0 of `Tensor[(n, 1), float32]` is not an integer".into())
    );
    let mut t = TestSolver::new();
    t.dim("d");
    let x = t.ty("Tensor[(1, d), float32]");
    let out = t.solver.fresh_ty();
    t.solver.add_relation(c, &[x, out], None, 0);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
}

/// The constant dimensions must be positive; the others are checked at run time.
#[relation(
    PositiveConsts(X @ Tensor(s, bt), O) :-
        for i in 0..len(s) {
            if is_int(s[i]) {
                assert(s[i] > 0, "dimension {} of `{}` is {}", i, X, s[i]),
            } else {
                assert(is_any(s[i]) || i > 0, "dimension 0 of `{}` is a symbol", X),
            },
        },
        O = X
)]
struct PositiveConsts;

#[test]
fn a_loop_of_ifs_runs_on_the_fast_path() {
    let p = PositiveConsts::REF;
    // `both` checks that the fast path did not give up where the clause holds.
    assert_eq!(
        both(p, &["Tensor[(?, 2, n), float32]"], &[]),
        Ok("Tensor[(?, 2, n), float32]".into())
    );
    assert_eq!(
        both(p, &["Tensor[(3, 0), float32]"], &[]),
        Err("dimension 1 of `Tensor[(3, 0), float32]` is 0".into())
    );
    assert_eq!(
        both(p, &["Tensor[(n, 2), float32]"], &[]),
        Err("dimension 0 of `Tensor[(n, 2), float32]` is a symbol".into())
    );
}

/// Constant arithmetic without the dimensions' normal form agrees with it.
#[test]
fn constant_divisions_round_as_dimensions_do() {
    use crate::clause::Arith;
    use crate::dim::DimOp;
    let mut t = TestSolver::new();
    let dims = &mut t.solver.tcx.dims;
    for a in -9..=9 {
        for b in (-4..=4).filter(|&b| b != 0) {
            for (op, dop) in [
                (Arith::FloorDiv, DimOp::FloorDiv),
                (Arith::FloorMod, DimOp::FloorMod),
            ] {
                let (x, y) = (dims.konst(a), dims.konst(b));
                let want = dims.apply(dop, x, y).ok().and_then(|d| dims.as_const(d));
                assert_eq!(op.on_consts(a, b), want, "{a} {op:?} {b}");
            }
        }
    }
    assert_eq!(Arith::FloorMod.on_consts(1, 0), None);
    assert_eq!(Arith::FloorDiv.on_consts(i64::MIN, -1), None);
}

mod notation;
