//! No algorithm's recursion depth follows the size of its input: types and dimensions
//! nested 100,000 deep are built, unified, resolved and printed on a 2 MiB stack.

use relay_core::testing::on_small_stack;
use relay_core::{DType, DimOp, Outcome, Solver, TyCtx};

const DEPTH: usize = 100_000;

#[test]
fn deep_tuple_types_unify_resolve_and_print() {
    on_small_stack(|| {
        let mut s = Solver::new(TyCtx::new());
        let leaf = s.tcx.scalar(DType::INT32);
        let hole = s.fresh_ty();
        let (mut known, mut open) = (leaf, hole);
        for _ in 0..DEPTH {
            known = s.tcx.tuple(&[known]);
            open = s.tcx.tuple(&[open]);
        }
        s.unify(open, known).expect("the deep tuples unify");
        assert_eq!(s.resolve(hole), leaf);
        assert_eq!(s.resolve(open), known);
        assert_eq!(s.solve(), Outcome::Solved);

        let expected = format!("{}int32{}", "(".repeat(DEPTH), ",)".repeat(DEPTH));
        assert_eq!(s.tcx.show_within(known, usize::MAX), expected);
    });
}

#[test]
fn deep_occurs_check_is_an_error() {
    on_small_stack(|| {
        let mut s = Solver::new(TyCtx::new());
        let hole = s.fresh_ty();
        let mut t = hole;
        for _ in 0..DEPTH {
            t = s.tcx.tuple(&[t]);
        }
        let err = s.unify(hole, t).expect_err("a type cannot contain itself");
        assert!(matches!(err.kind, relay_core::UnifyErrorKind::Occurs(..)));
    });
}

#[test]
fn deep_mismatch_reports_the_full_path() {
    on_small_stack(|| {
        let mut s = Solver::new(TyCtx::new());
        let (mut a, mut b) = (s.tcx.scalar(DType::INT32), s.tcx.scalar(DType::FLOAT32));
        for _ in 0..DEPTH {
            a = s.tcx.tuple(&[a]);
            b = s.tcx.tuple(&[b]);
        }
        let err = s.unify(a, b).expect_err("int32 is not float32");
        assert_eq!(err.path.len(), DEPTH + 1);
    });
}

#[test]
fn deep_dimension_expressions_resolve_and_print() {
    on_small_stack(|| {
        let mut s = Solver::new(TyCtx::new());
        let two = s.tcx.dims.konst(2);
        let x = s.fresh_dim();
        let mut d = x;
        for _ in 0..DEPTH {
            d = s
                .tcx
                .dims
                .apply(DimOp::Max, d, two)
                .expect("max never fails");
        }
        let printed = s.tcx.show_dim(d);
        let expected = format!("{}'d0{}", "max(2, ".repeat(DEPTH), ")".repeat(DEPTH));
        assert_eq!(printed, expected);
        let three = s.tcx.dims.konst(3);
        s.unify_dims(x, three).expect("x = 3");
        assert_eq!(s.resolve_dim(d), three);
    });
}

#[test]
fn long_binding_chains_resolve() {
    on_small_stack(|| {
        // v0 := (v1,), v1 := (v2,), ... bound from the far end first.
        let mut s = Solver::new(TyCtx::new());
        let vars: Vec<_> = (0..DEPTH).map(|_| s.fresh_ty()).collect();
        let leaf = s.tcx.scalar(DType::BOOL);
        for i in (0..DEPTH).rev() {
            let value = if i + 1 < DEPTH {
                s.tcx.tuple(&[vars[i + 1]])
            } else {
                leaf
            };
            s.unify(vars[i], value).expect("fresh variables bind");
        }
        let r = s.resolve(vars[0]);
        assert!(!s.tcx.has_vars(r));
        assert_eq!(
            s.tcx.show_within(r, usize::MAX).len(),
            "bool".len() + (DEPTH - 1) * "(,)".len()
        );
    });
}
