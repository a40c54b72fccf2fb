//! The interpreter on hand-built clauses (the macro's tests build them from source).

use super::run_clause;
use crate::clause::{Arith, Clause, Goal, Item, Term};
use crate::dtype::DType;
use crate::relation::{RelationDef, RelationRef};
use crate::solve::{Outcome, Solver};
use crate::ty::TyCtx;

/// `Head(Tensor([a, ..r], d), O) :- O = Tensor([..r, a], d), a > 1`.
static ROTATE: Clause = Clause {
    name: "Rotate",
    vars: &["a", "r", "d", "O"],
    head: &[
        Term::Tensor(
            &Term::List(&[Item::Dim(Term::Var(0)), Item::Splice(Term::Var(1))]),
            &Term::Var(2),
        ),
        Term::Var(3),
    ],
    body: &[
        Goal::Eq(
            Term::Var(3),
            Term::Tensor(
                &Term::List(&[Item::Splice(Term::Var(1)), Item::Dim(Term::Var(0))]),
                &Term::Var(2),
            ),
        ),
        Goal::Check {
            cond: Term::Cmp(crate::clause::Cmp::Gt, &Term::Var(0), &Term::Int(1)),
            text: "a > 1",
            message: None,
        },
    ],
    attrs: &[],
    fast: None,
};

static ROTATE_DEF: RelationDef = RelationDef {
    name: "Rotate",
    arity: Some(2),
    needs: &[],
    solve: |cx| run_clause(&ROTATE, cx),
};

#[test]
fn forward_backward_waiting_and_failure() {
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[2, 3, 4], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    assert_eq!(s.solve(), Outcome::Solved);
    let o = s.resolve(o);
    assert_eq!(s.tcx.show(o), "Tensor[(3, 4, 2), float32]");

    // Backward: the output's shape gives `r` and `a`, which rebuild the input.
    let mut s = Solver::new(TyCtx::new());
    let x = s.fresh_ty();
    let o = s.tcx.tensor_const(&[3, 4, 2], DType::INT8);
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    assert_eq!(s.solve(), Outcome::Solved);
    let x = s.resolve(x);
    assert_eq!(s.tcx.show(x), "Tensor[(2, 3, 4), int8]");

    // Nothing known: it waits.
    let mut s = Solver::new(TyCtx::new());
    let (x, o) = (s.fresh_ty(), s.fresh_ty());
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    assert!(matches!(s.solve(), Outcome::UnderConstrained(_)));

    // A false condition quotes itself.
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[1, 3], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    let Outcome::Failed(e) = s.solve() else {
        panic!("expected a failure")
    };
    assert_eq!(e[0].message, "`a > 1` does not hold: it is `1 > 1`");
    assert_eq!(e[0].arg, Some(0));
}

/// `Late(Tensor([a], bt), O) :- k = m * 2, m = a + 1, O = Tensor([k], bt)`: the
/// first goal cannot run before the second, so there is no single in-order pass.
static LATE: Clause = Clause {
    name: "Late",
    vars: &["a", "bt", "O", "k", "m"],
    head: &[
        Term::Tensor(&Term::List(&[Item::Dim(Term::Var(0))]), &Term::Var(1)),
        Term::Var(2),
    ],
    body: &[
        Goal::Eq(
            Term::Var(3),
            Term::Arith(Arith::Mul, &Term::Var(4), &Term::Int(2)),
        ),
        Goal::Eq(
            Term::Var(4),
            Term::Arith(Arith::Add, &Term::Var(0), &Term::Int(1)),
        ),
        Goal::Eq(
            Term::Var(2),
            Term::Tensor(&Term::List(&[Item::Dim(Term::Var(3))]), &Term::Var(1)),
        ),
    ],
    attrs: &[],
    fast: None,
};

static LATE_DEF: RelationDef = RelationDef {
    name: "Late",
    arity: Some(2),
    needs: &[],
    solve: |cx| run_clause(&LATE, cx),
};

#[test]
fn the_interpreter_computes_reports_and_runs_goals_out_of_order() {
    // Forward.
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[2, 3, 4], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    assert_eq!(s.solve(), Outcome::Solved);

    // A shape pattern against a tensor of the wrong rank: the error blames the data.
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&ROTATE_DEF), &[x, o], None, 0);
    let Outcome::Failed(e) = s.solve() else {
        panic!("expected a failure")
    };
    assert_eq!(
        e[0].message,
        "expected a shape of rank at least 1, found `()`"
    );
    assert_eq!(e[0].arg, Some(0));

    // Goals out of order: the second pass runs the one that waited.
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[5], DType::INT8);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&LATE_DEF), &[x, o], None, 0);
    assert_eq!(s.solve(), Outcome::Solved);
    let o = s.resolve(o);
    assert_eq!(s.tcx.show(o), "Tensor[(12), int8]");
}

/// `Positive(Tensor(s, d), O) :- for i in 0..len(s) { s[i] > 0 }, O = Tensor(s, d)`.
static POSITIVE: Clause = Clause {
    name: "Positive",
    vars: &["s", "d", "O", "i"],
    head: &[Term::Tensor(&Term::Var(0), &Term::Var(1)), Term::Var(2)],
    body: &[
        Goal::For {
            var: 3,
            src: Term::Range(&Term::Int(0), &Term::Len(&Term::Var(0))),
            body: &[Goal::Check {
                cond: Term::Cmp(
                    crate::clause::Cmp::Gt,
                    &Term::Index(&Term::Var(0), &Term::Var(3)),
                    &Term::Int(0),
                ),
                text: "s[i] > 0",
                message: None,
            }],
        },
        Goal::Eq(Term::Var(2), Term::Tensor(&Term::Var(0), &Term::Var(1))),
    ],
    attrs: &[],
    fast: None,
};

static POSITIVE_DEF: RelationDef = RelationDef {
    name: "Positive",
    arity: Some(2),
    needs: &[0],
    solve: |cx| run_clause(&POSITIVE, cx),
};

#[test]
fn a_loop_of_conditions_is_checked_for_every_item() {
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[2, 3], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&POSITIVE_DEF), &[x, o], None, 0);
    assert_eq!(s.solve(), Outcome::Solved);
    let o = s.resolve(o);
    assert_eq!(s.tcx.show(o), "Tensor[(2, 3), float32]");

    // A dimension that fails the condition: the interpreter reports it, blaming the data.
    let mut s = Solver::new(TyCtx::new());
    let x = s.tcx.tensor_const(&[2, 0], DType::FLOAT32);
    let o = s.fresh_ty();
    s.add_relation(RelationRef(&POSITIVE_DEF), &[x, o], None, 0);
    let Outcome::Failed(e) = s.solve() else {
        panic!("expected a failure")
    };
    assert_eq!(e[0].message, "`s[i] > 0` does not hold: it is `0 > 0`");
    assert_eq!(e[0].arg, Some(0));
}
