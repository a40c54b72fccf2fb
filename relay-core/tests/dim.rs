//! Symbolic dimensions: the normal form, its errors, and algebraic laws checked with
//! `proptest` against a direct evaluation of expression trees.

use proptest::prelude::*;
use relay_core::dim::{floor_div, floor_mod, Term, MAX_TERMS};
use relay_core::text::{parse_type, Binding, TypeParseError, TypeScope};
use relay_core::{Dim, DimData, DimError, DimOp, Dims, Kind, Param, Solver, TyCtx, TyData};

// ----- helpers -----

/// A context with three rigid symbols `n`, `m`, `k` (interned in that order) that the
/// type parser also knows by name.
struct Cx {
    tcx: TyCtx,
    scope: TypeScope,
    params: [Param; 3],
    syms: [Dim; 3],
}

impl Cx {
    fn new() -> Self {
        let mut tcx = TyCtx::new();
        let mut scope = TypeScope::new();
        let params = ["n", "m", "k"].map(|name| {
            let p = tcx.param(name, Kind::ShapeVar);
            scope.bind(name, Binding::Param(p));
            p
        });
        let syms = params.map(|p| tcx.dims.sym(p));
        Cx {
            tcx,
            scope,
            params,
            syms,
        }
    }

    /// Like [`Cx::new`] (the same parameters, created in the same order), but with the
    /// symbols' dimensions interned in the reverse order `k`, `m`, `n`, after some other
    /// dimensions: every id differs, and so does the stored order of terms.
    fn reversed() -> Self {
        let mut tcx = TyCtx::new();
        let mut scope = TypeScope::new();
        let params = ["n", "m", "k"].map(|name| {
            let p = tcx.param(name, Kind::ShapeVar);
            scope.bind(name, Binding::Param(p));
            p
        });
        for c in [2, 3, 4, 7, 10] {
            tcx.dims.konst(c);
        }
        for &p in params.iter().rev() {
            tcx.dims.sym(p);
        }
        let syms = params.map(|p| tcx.dims.sym(p));
        Cx {
            tcx,
            scope,
            params,
            syms,
        }
    }

    fn n(&self) -> Dim {
        self.syms[0]
    }

    fn m(&self) -> Dim {
        self.syms[1]
    }

    fn k(&self) -> Dim {
        self.syms[2]
    }

    fn dims(&mut self) -> &mut Dims {
        &mut self.tcx.dims
    }

    fn c(&mut self, v: i64) -> Dim {
        self.tcx.dims.konst(v)
    }

    fn show(&self, d: Dim) -> String {
        self.tcx.show_dim(d)
    }

    /// Parses one dimension written in the text syntax.
    fn parse(&mut self, src: &str) -> Dim {
        self.try_parse(src)
            .unwrap_or_else(|e| panic!("`{src}` does not parse: {e}"))
    }

    /// The printed normal form of `src`.
    fn norm(&mut self, src: &str) -> String {
        let d = self.parse(src);
        self.show(d)
    }

    fn try_parse(&mut self, src: &str) -> Result<Dim, TypeParseError> {
        let ty = parse_type(
            &mut self.tcx,
            &mut self.scope,
            &format!("Tensor[({src}), float32]"),
        )?;
        let TyData::Tensor(shape, _) = self.tcx.data(ty) else {
            panic!("`{src}` did not parse as a tensor type");
        };
        let dims = self.tcx.shape_dims(*shape).expect("a shape of known rank");
        assert_eq!(dims.len(), 1);
        Ok(dims[0])
    }

    /// Evaluates `d` with `n`, `m`, `k` given the values `vals`.
    fn eval(&self, d: Dim, vals: [i64; 3]) -> Option<i64> {
        let syms = self.syms;
        self.tcx.dims.eval(d, &|leaf| {
            syms.iter().position(|&s| s == leaf).map(|i| vals[i])
        })
    }
}

fn n_terms(dims: &Dims, d: Dim) -> usize {
    match dims.data(d) {
        DimData::Sum(terms) => terms.len(),
        DimData::Const(0) => 0,
        _ => 1,
    }
}

// ----- the normal form -----

#[test]
fn fresh_table_holds_any_zero_and_one() {
    let mut dims = Dims::new();
    assert!(dims.is_empty());
    assert_eq!(dims.len(), 3);
    assert_eq!(dims.data(Dims::ANY), &DimData::Any);
    let zero = dims.konst(0);
    let one = dims.konst(1);
    assert_eq!(dims.len(), 3, "0 and 1 are interned up front");
    assert_eq!(dims.as_const(zero), Some(0));
    assert_eq!(dims.as_const(one), Some(1));
    assert_eq!(dims.as_const(Dims::ANY), None);
    assert!(dims.is_any(Dims::ANY));
    assert!(!dims.is_any(zero));
    let seven = dims.konst(7);
    assert_eq!(dims.len(), 4);
    assert_eq!(dims.konst(7), seven);
    assert_eq!(dims.len(), 4, "interning is idempotent");
    assert!(!dims.is_empty());
}

#[test]
fn scaling_twice_is_one_scale() {
    let mut cx = Cx::new();
    let n = cx.n();
    let (two, three, six) = (cx.c(2), cx.c(3), cx.c(6));
    let lhs = cx.dims().mul(n, two).unwrap();
    let lhs = cx.dims().mul(lhs, three).unwrap();
    let rhs = cx.dims().mul(six, n).unwrap();
    assert_eq!(lhs, rhs);
    assert_eq!(cx.dims().scale(n, 6).unwrap(), rhs);
    assert_eq!(cx.show(lhs), "6*n");
    assert_eq!(
        cx.dims().data(lhs),
        &DimData::Sum(Box::new([Term {
            atoms: Box::new([n]),
            coeff: 6,
        }]))
    );
}

#[test]
fn a_sum_of_equal_terms_is_a_multiple() {
    let mut cx = Cx::new();
    let n = cx.n();
    let two = cx.c(2);
    let sum = cx.dims().add(n, n).unwrap();
    assert_eq!(sum, cx.dims().mul(two, n).unwrap());
    assert_eq!(sum, cx.dims().scale(n, 2).unwrap());
    assert_eq!(cx.show(sum), "2*n");
    let three_n = cx.dims().add(sum, n).unwrap();
    assert_eq!(cx.show(three_n), "3*n");
}

#[test]
fn a_difference_with_itself_is_zero() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let zero = cx.c(0);
    assert_eq!(cx.dims().sub(n, n).unwrap(), zero);
    let e = cx.parse("2*n*m + floordiv(n, 3) - 7");
    assert_eq!(cx.dims().sub(e, e).unwrap(), zero);
    let sum = cx.dims().add(n, m).unwrap();
    let back = cx.dims().sub(sum, m).unwrap();
    assert_eq!(back, n, "(n + m) - m is the bare symbol again");
    assert_eq!(cx.tcx.dims.data(back), &DimData::Sym(cx.params[0]));
    let one_term = cx.dims().scale(n, 1).unwrap();
    assert_eq!(one_term, n, "1*n is the bare symbol, not a one-term sum");
}

#[test]
fn floordiv_undoes_a_multiplication() {
    let mut cx = Cx::new();
    let n = cx.n();
    let three = cx.c(3);
    let n3 = cx.dims().mul(n, three).unwrap();
    assert_eq!(cx.dims().floordiv(n3, three).unwrap(), n);
    assert_eq!(cx.dims().floormod(n3, three).unwrap(), cx.c(0));
    let minus3 = cx.c(-3);
    let neg_n = cx.dims().neg(n).unwrap();
    assert_eq!(cx.dims().floordiv(n3, minus3).unwrap(), neg_n);
}

#[test]
fn floordiv_and_floormod_split_off_the_divisible_part() {
    let mut cx = Cx::new();
    let n = cx.n();
    let two = cx.c(2);
    let e = cx.parse("2*n + 1");
    assert_eq!(cx.dims().floordiv(e, two).unwrap(), n);
    assert_eq!(cx.dims().floormod(e, two).unwrap(), cx.c(1));
    let six_n = cx.parse("6*n");
    let three = cx.c(3);
    assert_eq!(cx.dims().floormod(six_n, three).unwrap(), cx.c(0));
    assert_eq!(cx.norm("floordiv(6*n, 3)"), "2*n");

    // 4*n + 2*m + 5 = 2*(2*n + m + 2) + 1
    let e = cx.parse("4*n + 2*m + 5");
    let q = cx.dims().floordiv(e, two).unwrap();
    assert_eq!(cx.show(q), "m + 2*n + 2");
    assert_eq!(cx.dims().floormod(e, two).unwrap(), cx.c(1));
    // A negative constant remainder rounds toward negative infinity.
    let e = cx.parse("2*n - 1");
    let q = cx.dims().floordiv(e, two).unwrap();
    assert_eq!(cx.show(q), "n - 1");
    assert_eq!(cx.dims().floormod(e, two).unwrap(), cx.c(1));
    // Only the divisible part leaves the operator.
    let e = cx.parse("4*n + m");
    let q = cx.dims().floordiv(e, two).unwrap();
    assert_eq!(cx.show(q), "2*n + floordiv(m, 2)");
    let r = cx.dims().floormod(e, two).unwrap();
    assert_eq!(cx.show(r), "floormod(m, 2)");
    // Dividing by 1 or -1 never leaves an operator behind.
    let (one, minus_one) = (cx.c(1), cx.c(-1));
    let e = cx.parse("n*m + floordiv(k, 2) - 3");
    assert_eq!(cx.dims().floordiv(e, one).unwrap(), e);
    assert_eq!(cx.dims().floormod(e, one).unwrap(), cx.c(0));
    assert_eq!(cx.dims().floormod(e, minus_one).unwrap(), cx.c(0));
    let neg_e = cx.dims().neg(e).unwrap();
    assert_eq!(cx.dims().floordiv(e, minus_one).unwrap(), neg_e);
}

#[test]
fn floordiv_and_floormod_by_a_symbol() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let q = cx.dims().floordiv(n, m).unwrap();
    assert_eq!(cx.dims().data(q), &DimData::Op(DimOp::FloorDiv, n, m));
    assert_eq!(cx.show(q), "floordiv(n, m)");
    let r = cx.dims().floormod(n, m).unwrap();
    assert_eq!(cx.show(r), "floormod(n, m)");
    assert_eq!(cx.dims().floormod(n, n).unwrap(), cx.c(0));
    let e = cx.parse("n + 1");
    assert_eq!(cx.dims().floormod(e, e).unwrap(), cx.c(0));
    // The operator is an opaque atom: it multiplies and adds like a symbol.
    let two_q = cx.dims().add(q, q).unwrap();
    assert_eq!(cx.show(two_q), "2*floordiv(n, m)");
    assert_eq!(cx.eval(two_q, [7, 2, 0]), Some(6));
    assert_eq!(cx.eval(r, [-7, 2, 0]), Some(1));
    assert_eq!(cx.eval(q, [7, 0, 0]), None, "division by a zero value");
}

#[test]
fn products_commute() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let nm = cx.dims().mul(n, m).unwrap();
    let mn = cx.dims().mul(m, n).unwrap();
    assert_eq!(nm, mn);
    // Atoms print by name, whatever their ids.
    assert_eq!(cx.show(nm), "m*n");
    assert_eq!(cx.norm("n*m"), "m*n");
    let e1 = cx.parse("(n + 2)*(m - 1)");
    let e2 = cx.parse("(m - 1)*(n + 2)");
    assert_eq!(e1, e2);
    assert_eq!(cx.show(e1), "m*n + 2*m - n - 2");
}

#[test]
fn products_distribute_over_sums() {
    let mut cx = Cx::new();
    let n = cx.n();
    let one = cx.c(1);
    let n1 = cx.dims().add(n, one).unwrap();
    let square = cx.dims().mul(n1, n1).unwrap();
    let nn = cx.dims().mul(n, n).unwrap();
    let two_n = cx.dims().scale(n, 2).unwrap();
    let expanded = cx.dims().add(nn, two_n).unwrap();
    let expanded = cx.dims().add(expanded, one).unwrap();
    assert_eq!(square, expanded);
    assert_eq!(cx.show(square), "n*n + 2*n + 1");
    let diff = cx.parse("(n + 1)*(n - 1) - n*n");
    assert_eq!(diff, cx.c(-1));
    let cube = cx.parse("(n + m)*(n + m)*(n + m)");
    assert_eq!(cx.show(cube), "m*m*m + 3*m*m*n + 3*m*n*n + n*n*n");
}

#[test]
fn constants_fold_with_floor_semantics() {
    let mut cx = Cx::new();
    for (a, b, q, r) in [
        (-7, 2, -4, 1),
        (7, 2, 3, 1),
        (7, -2, -4, -1),
        (-7, -2, 3, -1),
        (6, 3, 2, 0),
        (-6, 3, -2, 0),
        (0, 5, 0, 0),
        (1, 5, 0, 1),
        (-1, 5, -1, 4),
        (i64::MIN, 1, i64::MIN, 0),
        (i64::MIN, 2, i64::MIN / 2, 0),
        (i64::MAX, -1, -i64::MAX, 0),
        (i64::MIN, i64::MAX, -2, i64::MAX - 1),
        (i64::MAX, i64::MIN, -1, -1),
    ] {
        let (ad, bd) = (cx.c(a), cx.c(b));
        let qd = cx.dims().floordiv(ad, bd).unwrap();
        let rd = cx.dims().floormod(ad, bd).unwrap();
        assert_eq!(cx.dims().as_const(qd), Some(q), "floordiv({a}, {b})");
        assert_eq!(cx.dims().as_const(rd), Some(r), "floormod({a}, {b})");
        assert_eq!(floor_div(a, b), Some(q), "floor_div({a}, {b})");
        assert_eq!(floor_mod(a, b), Some(r), "floor_mod({a}, {b})");
    }
    assert_eq!(cx.norm("floordiv(-7, 2)"), "-4");
    assert_eq!(cx.norm("floormod(-7, 2)"), "1");
    assert_eq!(cx.norm("-7 / 2"), "-4");
    assert_eq!(cx.norm("-7 % 2"), "1");
    assert_eq!(floor_div(1, 0), None);
    assert_eq!(floor_mod(1, 0), None);
    assert_eq!(floor_div(i64::MIN, -1), None);
}

#[test]
fn floormod_of_the_smallest_integer_by_minus_one_is_zero() {
    // i64::MIN % -1 overflows in Rust, but the floor remainder is 0 and fits.
    assert_eq!(floor_mod(i64::MIN, -1), Some(0));
    let mut cx = Cx::new();
    let (a, b) = (cx.c(i64::MIN), cx.c(-1));
    assert_eq!(cx.dims().floormod(a, b), Ok(cx.c(0)));
    let e = cx.parse("n + 1");
    let big = cx.dims().scale(e, i64::MIN).unwrap();
    assert_eq!(cx.dims().floormod(big, b), Ok(cx.c(0)));
}

#[test]
fn min_and_max_fold_when_the_difference_is_constant() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let n1 = cx.parse("n + 1");
    assert_eq!(cx.dims().min(n, n1).unwrap(), n);
    assert_eq!(cx.dims().min(n1, n).unwrap(), n);
    assert_eq!(cx.dims().max(n, n1).unwrap(), n1);
    assert_eq!(cx.dims().max(n1, n).unwrap(), n1);
    assert_eq!(cx.dims().min(n, n).unwrap(), n);
    assert_eq!(cx.dims().max(m, m).unwrap(), m);
    let (three, five) = (cx.c(3), cx.c(5));
    assert_eq!(cx.dims().max(three, five).unwrap(), five);
    assert_eq!(cx.dims().max(five, three).unwrap(), five);
    assert_eq!(cx.dims().min(three, five).unwrap(), three);
    assert_eq!(cx.dims().min(five, three).unwrap(), three);
    let nm_a = cx.dims().min(n, m).unwrap();
    let nm_b = cx.dims().min(m, n).unwrap();
    assert_eq!(nm_a, nm_b);
    assert_eq!(cx.show(nm_a), "min(n, m)");
    let xm_a = cx.dims().max(n, m).unwrap();
    let xm_b = cx.dims().max(m, n).unwrap();
    assert_eq!(xm_a, xm_b);
    assert_ne!(xm_a, nm_a);
    assert_eq!(cx.show(xm_a), "max(n, m)");
    assert_eq!(cx.norm("max(2*n - 3, 2*n + 4)"), "2*n + 4");
    assert_eq!(cx.norm("min(2*n - 3, 2*n + 4)"), "2*n - 3");
    // Arguments in the structural order of `Dims::structural_cmp`.
    assert_eq!(cx.norm("min(n*n, 2*n)"), "min(n*n, 2*n)");
    assert_eq!(cx.norm("min(2*n, n*n)"), "min(n*n, 2*n)");
    assert_eq!(cx.eval(nm_a, [4, -2, 0]), Some(-2));
    assert_eq!(cx.eval(xm_a, [4, -2, 0]), Some(4));
}

#[test]
fn min_and_max_of_extreme_constants() {
    let mut cx = Cx::new();
    let (lo, hi) = (cx.c(i64::MIN), cx.c(i64::MAX));
    assert_eq!(cx.dims().min(lo, hi), Ok(lo));
    assert_eq!(cx.dims().min(hi, lo), Ok(lo));
    assert_eq!(cx.dims().max(lo, hi), Ok(hi));
    assert_eq!(cx.dims().max(hi, lo), Ok(hi));
    let one = cx.c(1);
    assert_eq!(cx.dims().min(lo, one), Ok(lo));
    assert_eq!(cx.dims().max(hi, one), Ok(hi));
    // Symbolic expressions whose difference overflows are still comparable opaquely.
    let a = cx.parse("n + 9223372036854775807");
    let b = cx.parse("n - 2");
    let mn = cx.dims().min(a, b).unwrap();
    let mn2 = cx.dims().min(b, a).unwrap();
    assert_eq!(mn, mn2);
    assert_eq!(cx.eval(mn, [-10, 0, 0]), Some(-12));
    // m - (m + i64::MIN) overflows, but (m + i64::MIN) - m is i64::MIN: either order
    // folds.
    let m = cx.m();
    let low = cx.parse("m - 9223372036854775808");
    assert_eq!(cx.dims().min(m, low), Ok(low));
    assert_eq!(cx.dims().min(low, m), Ok(low));
    assert_eq!(cx.dims().max(m, low), Ok(m));
    assert_eq!(cx.dims().max(low, m), Ok(m));
}

#[test]
fn any_absorbs_every_operation() {
    let mut cx = Cx::new();
    let (n, any) = (cx.n(), Dims::ANY);
    let zero = cx.c(0);
    let two = cx.c(2);
    let e = cx.parse("2*n + m");
    let results = [
        cx.dims().add(any, n),
        cx.dims().add(n, any),
        cx.dims().sub(any, n),
        cx.dims().sub(e, any),
        cx.dims().mul(any, e),
        cx.dims().mul(zero, any),
        cx.dims().scale(any, 3),
        cx.dims().neg(any),
        cx.dims().floordiv(any, two),
        cx.dims().floordiv(e, any),
        cx.dims().floormod(any, n),
        cx.dims().min(any, n),
        cx.dims().max(e, any),
        cx.dims().apply(DimOp::Min, any, any),
        cx.dims().product(&[n, any, e]),
    ];
    for (i, r) in results.into_iter().enumerate() {
        assert_eq!(r, Ok(Dims::ANY), "case {i}");
    }
    assert_eq!(cx.show(any), "?");
    assert_eq!(cx.parse("? + n"), Dims::ANY);
    assert_eq!(cx.parse("floordiv(n, ?) * 3"), Dims::ANY);
    assert_eq!(cx.eval(any, [0, 0, 0]), None);
    assert_eq!(cx.dims().exact_div(any, 2), None);
    assert_eq!(cx.dims().linear_in(any, n), None);
    assert!(!cx.dims().has_syms(any) && !cx.dims().has_vars(any));
}

#[test]
fn canonical_forms_print_readably() {
    let mut cx = Cx::new();
    let cases: Vec<(Dim, &str)> = vec![
        (cx.parse("1 + n*2"), "2*n + 1"),
        (cx.parse("n - m"), "n - m"),
        (cx.parse("m - n"), "m - n"),
        (cx.parse("-n"), "-n"),
        (cx.parse("-n - m"), "-m - n"),
        (cx.parse("0 - n*m"), "-m*n"),
        (cx.parse("n*n"), "n*n"),
        (cx.parse("floordiv(n + 1, 2)"), "floordiv(n + 1, 2)"),
        (cx.parse("(n + 1) / 2"), "floordiv(n + 1, 2)"),
        (cx.parse("(n - 1) % 4"), "floormod(n + 3, 4)"),
        (cx.parse("3 - n"), "3 - n"),
        (cx.parse("n - 3"), "n - 3"),
        (cx.parse("-3"), "-3"),
        (cx.parse("-n - 3"), "-n - 3"),
        (cx.parse("1 - n*n"), "1 - n*n"),
        (cx.parse("m - n*n"), "m - n*n"),
        (cx.parse("k*m*n*2 - 3*k"), "2*k*m*n - 3*k"),
        (cx.parse("floordiv(n, 2) * m * 2"), "2*m*floordiv(n, 2)"),
        (cx.parse("min(n + 1, m) - 1"), "min(m, n + 1) - 1"),
        (cx.parse("max(floordiv(n, 2), m)"), "max(m, floordiv(n, 2))"),
        (cx.parse("floordiv(n, -2)"), "floordiv(n, 2) - n"),
        (cx.parse("floordiv(n*m + 1, k)"), "floordiv(m*n + 1, k)"),
        (cx.parse("(n + 1)*(n + 1)"), "n*n + 2*n + 1"),
        (cx.parse("(n + 2)*(m - 1)"), "m*n + 2*m - n - 2"),
        // The first positive term leads; the others keep their order.
        (cx.parse("k - n*m*k + n*n - 7"), "n*n - k*m*n + k - 7"),
        (
            cx.parse("floordiv(n, 2) + k*m - floordiv(k, 3)"),
            "k*m - floordiv(k, 3) + floordiv(n, 2)",
        ),
    ];
    for (d, expected) in cases {
        assert_eq!(cx.show(d), expected);
        // The printed form reads back as the same dimension.
        assert_eq!(cx.parse(expected), d, "{expected}");
    }
    let n = cx.n();
    let big = cx.dims().scale(n, i64::MIN).unwrap();
    assert_eq!(cx.show(big), "-9223372036854775808*n");
    let lo = cx.c(i64::MIN);
    assert_eq!(cx.show(lo), "-9223372036854775808");
}

#[test]
fn dimensions_print_inside_types() {
    let mut cx = Cx::new();
    let src = "Tensor[(1 + 2*n, floordiv(n, 2), n*(m - m) + 3, ?), float32]";
    let ty = parse_type(&mut cx.tcx, &mut cx.scope, src).unwrap();
    assert_eq!(
        cx.tcx.show(ty),
        "Tensor[(2*n + 1, floordiv(n, 2), 3, ?), float32]"
    );
    let dims = [cx.n(), cx.m()];
    let one = cx.dims().product(&[]).unwrap();
    assert_eq!(one, cx.c(1));
    let nm = cx.dims().product(&dims).unwrap();
    let t = cx
        .tcx
        .tensor_of(&[nm, Dims::ANY], relay_core::DType::FLOAT32);
    assert_eq!(cx.tcx.show(t), "Tensor[(m*n, ?), float32]");
}

#[test]
fn sums_print_by_degree_then_name_whatever_the_interning_order() {
    // Terms by descending degree, then by the names of their factors (symbols and
    // variables before operators), the constant last, and a positive term first when
    // there is one. Factors of a term by name too.
    let cases = [
        ("m - n", "m - n"),
        ("n - m", "n - m"),
        ("-n - m", "-m - n"),
        ("n*m + k", "m*n + k"),
        ("(n + 2)*(m - 1)", "m*n + 2*m - n - 2"),
        ("(n + 1)*(n + 1)", "n*n + 2*n + 1"),
        (
            "(n + m)*(n + m)*(n + m)",
            "m*m*m + 3*m*m*n + 3*m*n*n + n*n*n",
        ),
        ("3 - n", "3 - n"),
        ("-n*n + m*k - 2", "k*m - n*n - 2"),
        ("2 - n*n - m", "2 - n*n - m"),
        ("k + n*k*m", "k*m*n + k"),
        (
            "floordiv(n, 2) + floordiv(m, 2)",
            "floordiv(m, 2) + floordiv(n, 2)",
        ),
        ("floordiv(n, 2) + m", "m + floordiv(n, 2)"),
        ("floordiv(k*n + m, 4) * m", "m*floordiv(k*n + m, 4)"),
        ("n % 2 + m % 3", "floormod(m, 3) + floormod(n, 2)"),
        // Runs of digits compare as numbers.
        (
            "floordiv(n, 10) + floordiv(n, 9)",
            "floordiv(n, 9) + floordiv(n, 10)",
        ),
        (
            "floordiv(n + m + k, 2) - floordiv(k + m, 3)",
            "floordiv(k + m + n, 2) - floordiv(k + m, 3)",
        ),
        // min and max print their arguments in their stored (structural) order.
        ("max(n, m) + min(k, m)", "max(n, m) + min(m, k)"),
        (
            "max(n*n, 2*n) + min(m + 1, k*2)",
            "max(n*n, 2*n) + min(m + 1, 2*k)",
        ),
        (
            "floordiv(n, m)*m + n % m",
            "m*floordiv(n, m) + floormod(n, m)",
        ),
    ];
    let mut a = Cx::new();
    let mut b = Cx::reversed();
    // Intern the expressions in opposite orders in the two contexts, too.
    let da: Vec<Dim> = cases.iter().map(|(src, _)| a.parse(src)).collect();
    let db: Vec<Dim> = cases.iter().rev().map(|(src, _)| b.parse(src)).collect();
    for (i, (src, expected)) in cases.iter().enumerate() {
        let (x, y) = (da[i], db[cases.len() - 1 - i]);
        assert_eq!(a.show(x), *expected, "{src}");
        assert_eq!(b.show(y), *expected, "{src} with other ids");
        assert_eq!(a.parse(expected), x, "{expected} reads back");
        assert_eq!(b.parse(expected), y, "{expected} reads back with other ids");
    }
    // The stored order of terms did differ.
    let (ea, eb) = (a.parse("n - m"), b.parse("n - m"));
    let first_coeff = |cx: &Cx, d: Dim| match cx.tcx.dims.data(d) {
        DimData::Sum(terms) => terms[0].coeff,
        _ => unreachable!(),
    };
    assert_ne!(first_coeff(&a, ea), first_coeff(&b, eb));
}

#[test]
fn variables_print_by_number() {
    let mut s = Solver::new(TyCtx::new());
    let vars: Vec<Dim> = (0..12).map(|_| s.fresh_dim()).collect();
    let p = s.tcx.param("n", Kind::ShapeVar);
    let n = s.tcx.dims.sym(p);
    let d = &mut s.tcx.dims;
    let e = d.add(vars[10], vars[2]).unwrap();
    let e = d.add(e, n).unwrap();
    let minus_one = d.neg(vars[1]).unwrap();
    let e = d.add(e, minus_one).unwrap();
    // Variables (`'`) sort before symbols, and 'd2 before 'd10.
    assert_eq!(s.tcx.show_dim(e), "'d2 - 'd1 + 'd10 + n");
    let d = &mut s.tcx.dims;
    let sq = d.mul(vars[11], vars[3]).unwrap();
    let e = d.sub(sq, vars[9]).unwrap();
    assert_eq!(s.tcx.show_dim(e), "'d3*'d11 - 'd9");
}

#[test]
fn the_smallest_integer_prints_and_reads_back() {
    let mut cx = Cx::new();
    let n = cx.n();
    let lo = cx.c(i64::MIN);
    let big = cx.dims().scale(n, i64::MIN).unwrap();
    let one = cx.c(1);
    let big_plus_one = cx.dims().add(big, one).unwrap();
    let n_plus_lo = cx.dims().add(n, lo).unwrap();
    let m = cx.m();
    let big_m = cx.dims().scale(m, i64::MIN).unwrap();
    let n_plus_big_m = cx.dims().add(n, big_m).unwrap();
    let q = cx.dims().floordiv(n, lo).unwrap();
    for (d, printed) in [
        (lo, "-9223372036854775808"),
        (big, "-9223372036854775808*n"),
        (big_plus_one, "1 - 9223372036854775808*n"),
        (n_plus_lo, "n - 9223372036854775808"),
        (n_plus_big_m, "n - 9223372036854775808*m"),
        (
            q,
            "floordiv(-9223372036854775807*n, -9223372036854775808) - n",
        ),
    ] {
        assert_eq!(cx.show(d), printed);
        assert_eq!(cx.parse(printed), d, "{printed}");
    }
    // A minus before digits makes a negative literal, in the range of i64.
    assert_eq!(cx.parse("- 9223372036854775808"), lo);
    assert_eq!(cx.parse("-9223372036854775808*n"), big);
    assert_eq!(cx.parse("0 - 9223372036854775808"), lo);
    assert_eq!(cx.parse("-9223372036854775807 - 1"), lo);
    assert_eq!(cx.parse("n - -5"), cx.parse("n + 5"));
    assert_eq!(cx.parse("n - 7 / 2"), cx.parse("n - 3"));
    assert_eq!(cx.parse("n - 7 % 4 * 2"), cx.parse("n - 6"));
    assert_eq!(cx.parse("n - 2*m"), cx.parse("n + -2*m"));
    assert_eq!(cx.parse("-7 / 2"), cx.c(-4));
    for (src, message, offset) in [
        (
            "9223372036854775808",
            "dimension `9223372036854775808` does not fit in 64 bits",
            1,
        ),
        (
            "-9223372036854775809",
            "dimension `-9223372036854775809` does not fit in 64 bits",
            2,
        ),
        (
            "n - 9223372036854775809",
            "dimension `-9223372036854775809` does not fit in 64 bits",
            5,
        ),
        // 2^63 itself only fits negated.
        (
            "n - 9223372036854775808 / 2",
            "dimension arithmetic overflows 64 bits",
            5,
        ),
    ] {
        let err = cx.try_parse(src).unwrap_err();
        assert_eq!(err.message, message, "{src}");
        // Offsets count from the `Tensor[(` that `try_parse` wraps around the text.
        assert_eq!(err.offset, "Tensor[(".len() + offset - 1, "{src}");
    }
}

#[test]
fn division_by_a_constant_reduces_the_dividend() {
    let mut cx = Cx::new();
    let n = cx.n();
    let two = cx.c(2);
    let same = |cx: &mut Cx, a: &str, b: &str| {
        let (x, y) = (cx.parse(a), cx.parse(b));
        assert_eq!(x, y, "{a} == {b}: {} vs {}", cx.show(x), cx.show(y));
    };
    same(&mut cx, "floordiv(n + 3, 2)", "floordiv(n + 1, 2) + 1");
    same(&mut cx, "floordiv(3*n, 2)", "n + floordiv(n, 2)");
    same(&mut cx, "floormod(n + 3, 2)", "floormod(n + 1, 2)");
    same(&mut cx, "floormod(3*n, 2)", "floormod(n, 2)");
    same(&mut cx, "floordiv(n - 1, 2)", "floordiv(n + 1, 2) - 1");
    same(&mut cx, "floordiv(-n, 2)", "floordiv(n, 2) - n");
    same(
        &mut cx,
        "floordiv(5*n + 7*m - 9, 4)",
        "n + m - 3 + floordiv(n + 3*m + 3, 4)",
    );
    same(&mut cx, "floordiv(2*n, 2)", "n");
    same(&mut cx, "floordiv(n, 1)", "n");
    same(&mut cx, "floormod(n*m + 7, 1)", "0");
    // A negative divisor: floor(e / c) = floor(-e / -c), and the atom divides by -c.
    same(&mut cx, "floordiv(n, -2)", "floordiv(-n, 2)");
    same(&mut cx, "floordiv(n, -2)", "floordiv(n, 2) - n");
    same(&mut cx, "floormod(n, -2)", "-floormod(n, 2)");
    same(&mut cx, "floordiv(n + m, -1)", "-n - m");
    same(&mut cx, "floormod(n + m, -1)", "0");
    same(
        &mut cx,
        "floordiv(3*n + 1, -2)",
        "-2*n + floordiv(n + 1, 2) - 1",
    );
    // The floor of each coefficient, the smallest integer included.
    let e = cx.parse("-9223372036854775808*n + 5");
    let three = cx.c(3);
    let q = cx.dims().floordiv(e, three).unwrap();
    assert_eq!(
        cx.show(q),
        "floordiv(n + 2, 3) - 3074457345618258603*n + 1",
        "i64::MIN = 3*(-3074457345618258603) + 1"
    );
    // The stored forms: a floordiv atom with a reduced dividend; no floormod atom.
    let q = cx.parse("floordiv(3*n + 1, 2)");
    let inner = cx.parse("n + 1");
    let atom = cx.dims().floordiv(inner, two).unwrap();
    assert_eq!(
        cx.dims().data(atom),
        &DimData::Op(DimOp::FloorDiv, inner, two)
    );
    let expected = cx.dims().add(n, atom).unwrap();
    assert_eq!(q, expected);
    let r = cx.parse("floormod(n, 2)");
    let fd = cx.parse("floordiv(n, 2)");
    let mut terms = vec![
        Term {
            atoms: Box::new([n]),
            coeff: 1,
        },
        Term {
            atoms: Box::new([fd]),
            coeff: -2,
        },
    ];
    terms.sort_by(|a, b| a.atoms.cmp(&b.atoms));
    assert_eq!(cx.dims().data(r), &DimData::Sum(terms.into_boxed_slice()));
    // And the values agree: floordiv/floormod(a*n + b, c) at n in -9..=9.
    for (a, b, c) in [(3, 1, -2), (-5, 3, 4), (7, -2, 3), (-1, 0, -3), (2, 5, -7)] {
        for (name, reference) in [
            ("floordiv", ref_floor_div as fn(i64, i64) -> Option<i64>),
            ("floormod", ref_floor_mod),
        ] {
            let src = format!("{name}({a}*n + {b}, {c})");
            let d = cx.parse(&src);
            for x in -9..=9 {
                let want = reference(a * x + b, c);
                assert_eq!(cx.eval(d, [x, 0, 0]), want, "{src} at n = {x}");
            }
        }
    }
}

#[test]
fn division_by_itself_and_of_zero() {
    // A dimension used as a divisor is assumed non-zero (as in TVM).
    let mut cx = Cx::new();
    let (zero, one) = (cx.c(0), cx.c(1));
    for src in ["n", "n + 1", "n*m", "floordiv(n, 2)", "max(n, m)"] {
        let x = cx.parse(src);
        assert_eq!(cx.dims().floordiv(x, x), Ok(one), "{src} / {src}");
        assert_eq!(cx.dims().floormod(x, x), Ok(zero), "{src} % {src}");
        assert_eq!(cx.dims().floordiv(zero, x), Ok(zero), "0 / {src}");
        assert_eq!(cx.dims().floormod(zero, x), Ok(zero), "0 % {src}");
    }
    assert_eq!(cx.norm("n / n + (n + 1) / (n + 1)"), "2");
    assert_eq!(cx.norm("0 / (n - 3) + 0 % m"), "0");
    // The constant divisor 0 is still an error, and `?` still absorbs.
    assert_eq!(
        cx.dims().floordiv(zero, zero),
        Err(DimError::DivisionByZero)
    );
    assert_eq!(cx.dims().floordiv(zero, Dims::ANY), Ok(Dims::ANY));
    assert_eq!(cx.dims().floordiv(Dims::ANY, Dims::ANY), Ok(Dims::ANY));
    // Not simplified: x / -x, and x / y for different x and y.
    let q = cx.parse("floordiv(n, -n)");
    assert!(matches!(
        cx.dims().data(q),
        DimData::Op(DimOp::FloorDiv, ..)
    ));
}

#[test]
fn floormod_by_a_constant_prints_as_floormod() {
    let mut cx = Cx::new();
    for (src, printed) in [
        ("n % 2", "floormod(n, 2)"),
        ("n % 2 + n", "n + floormod(n, 2)"),
        ("n % 2 + m", "m + floormod(n, 2)"),
        ("(n % 2) * m", "m*floormod(n, 2)"),
        ("3 * (n % 4)", "3*floormod(n, 4)"),
        ("-(n % 2)", "-floormod(n, 2)"),
        ("(n - 1) % 4", "floormod(n + 3, 4)"),
        ("(n*m + 5) % 3", "floormod(m*n + 2, 3)"),
        ("n % 2 + m % 2", "floormod(m, 2) + floormod(n, 2)"),
        // floormod(n, 2) is n - 2*floordiv(n, 2), whose coefficient -2 reduces modulo 3.
        ("(n % 2) % 3", "floormod(n + floordiv(n, 2), 3)"),
        ("max(n % 2, m)", "max(m, floormod(n, 2))"),
        // A floordiv alone, or with a coefficient that is not a multiple of the divisor,
        // stays a floordiv.
        ("2 * (n / 2)", "2*floordiv(n, 2)"),
        ("n - n / 2", "n - floordiv(n, 2)"),
        ("-2 * (n / 2)", "-2*floordiv(n, 2)"),
        ("m - 2 * (n / 2)", "m - 2*floordiv(n, 2)"),
        // c*floordiv(x, c) + floormod(x, c) is x.
        ("2 * (n / 2) + n % 2", "n"),
        ("3 * ((n + m) / 3) + (n + m) % 3", "m + n"),
    ] {
        let d = cx.parse(src);
        assert_eq!(cx.show(d), printed, "{src}");
        assert_eq!(cx.parse(printed), d, "{printed} reads back");
    }
}

#[test]
fn min_and_max_order_their_arguments_whatever_the_interning_order() {
    let sources = [
        "min(n, m)",
        "max(m, n)",
        "min(n*n, 2*n)",
        "max(floordiv(n, 2), m + k)",
        "min(n + 1, m) + max(k*m, n*n)",
        "min(max(n, k), min(m, k*k))",
    ];
    let mut a = Cx::new();
    let mut b = Cx::reversed();
    let da: Vec<Dim> = sources.iter().map(|s| a.parse(s)).collect();
    let db: Vec<Dim> = sources.iter().rev().map(|s| b.parse(s)).collect();
    for (i, src) in sources.iter().enumerate() {
        let (x, y) = (da[i], db[sources.len() - 1 - i]);
        assert_eq!(a.show(x), b.show(y), "{src}");
    }
    assert_eq!(a.show(da[0]), "min(n, m)", "symbols by parameter index");
    assert_eq!(a.show(da[1]), "max(n, m)");
    let (n, two) = (a.n(), a.c(2));
    assert_eq!(
        a.dims().structural_cmp(two, n),
        std::cmp::Ordering::Less,
        "constants first"
    );
    assert_eq!(a.dims().structural_cmp(n, n), std::cmp::Ordering::Equal);
}

// ----- errors -----

#[test]
fn overflow_is_an_error() {
    let mut cx = Cx::new();
    let (max, min) = (cx.c(i64::MAX), cx.c(i64::MIN));
    let (one, minus_one) = (cx.c(1), cx.c(-1));
    assert_eq!(cx.dims().add(max, one), Err(DimError::Overflow));
    assert_eq!(cx.dims().add(one, max), Err(DimError::Overflow));
    assert_eq!(cx.dims().sub(min, one), Err(DimError::Overflow));
    assert_eq!(cx.dims().sub(one, min), Err(DimError::Overflow));
    assert_eq!(cx.dims().mul(min, minus_one), Err(DimError::Overflow));
    assert_eq!(cx.dims().mul(max, max), Err(DimError::Overflow));
    assert_eq!(cx.dims().scale(min, -1), Err(DimError::Overflow));
    assert_eq!(cx.dims().neg(min), Err(DimError::Overflow));
    assert_eq!(cx.dims().floordiv(min, minus_one), Err(DimError::Overflow));
    assert_eq!(cx.dims().product(&[max, one, max]), Err(DimError::Overflow));
    // The limits themselves are fine.
    assert_eq!(cx.dims().add(max, minus_one), Ok(cx.c(i64::MAX - 1)));
    assert_eq!(cx.dims().neg(max), Ok(cx.c(-i64::MAX)));
    assert_eq!(cx.dims().sub(min, minus_one), Ok(cx.c(i64::MIN + 1)));
    // -1 - i64::MIN is i64::MAX: a difference is not a sum with a negated operand.
    assert_eq!(cx.dims().sub(minus_one, min), Ok(max));
    let n = cx.n();
    let neg_n = cx.dims().neg(n).unwrap();
    let huge = cx.dims().scale(n, i64::MIN).unwrap();
    let r = cx.dims().sub(neg_n, huge).unwrap();
    assert_eq!(cx.show(r), "9223372036854775807*n");
    let r = cx.dims().sub(max, huge).unwrap_err();
    assert_eq!(
        r,
        DimError::Overflow,
        "i64::MAX - i64::MIN*n has a coefficient 2^63"
    );

    // Symbolic expressions overflow in their coefficients.
    let e = cx.dims().add(n, max).unwrap();
    assert_eq!(cx.dims().add(e, one), Err(DimError::Overflow));
    let big = cx.dims().scale(n, i64::MAX).unwrap();
    assert_eq!(cx.dims().add(big, n), Err(DimError::Overflow));
    assert_eq!(cx.dims().scale(big, 2), Err(DimError::Overflow));
    let huge = cx.dims().scale(n, i64::MIN).unwrap();
    assert_eq!(cx.dims().neg(huge), Err(DimError::Overflow));
    assert_eq!(cx.dims().scale(huge, -1), Err(DimError::Overflow));
    let m = cx.m();
    let a = cx.dims().scale(n, 1 << 32).unwrap();
    let b = cx.dims().scale(m, 1 << 31).unwrap();
    assert_eq!(cx.dims().mul(a, b), Err(DimError::Overflow));
    let b = cx.dims().scale(m, 1 << 30).unwrap();
    let ab = cx.dims().mul(a, b).unwrap();
    assert_eq!(cx.show(ab), "4611686018427387904*m*n");

    // The parser reports the same errors.
    let err = cx.try_parse("9223372036854775807 + 1").unwrap_err();
    assert_eq!(err.message, "dimension arithmetic overflows 64 bits");
    let err = cx.try_parse("n*4611686018427387904*2").unwrap_err();
    assert_eq!(err.message, "dimension arithmetic overflows 64 bits");
}

#[test]
fn products_accumulate_exactly_whatever_the_order() {
    // a = 2^31*n*n + n + 1, b = n*n - n - 2^32. The n*n coefficient of a*b is
    // 1 - 1 - 2^63 = i64::MIN, which fits, but summing its three products in the order
    // b*a visits them passes through i64::MIN - 1.
    let mut cx = Cx::new();
    let a = cx.parse("2147483648*n*n + n + 1");
    let b = cx.parse("n*n - n - 4294967296");
    let ab = cx.dims().mul(a, b);
    let ba = cx.dims().mul(b, a);
    assert_eq!(ab, ba);
    let ab = ab.unwrap();
    assert_eq!(
        cx.show(ab),
        "2147483648*n*n*n*n - 2147483647*n*n*n - 9223372036854775808*n*n \
         - 4294967297*n - 4294967296"
    );
    // A product whose partial products overflow but cancel in the sum:
    // (2^32*n + 2^32*m) * (2^31*n - 2^31*m) has n*m coefficient 2^63 - 2^63 = 0 but
    // n*n coefficient 2^63, which does not fit either way.
    let c = cx.parse("4294967296*n + 4294967296*m");
    let d = cx.parse("2147483648*n - 2147483648*m");
    assert_eq!(cx.dims().mul(c, d), Err(DimError::Overflow));
    assert_eq!(cx.dims().mul(d, c), Err(DimError::Overflow));
}

#[test]
fn division_by_zero_is_an_error() {
    let mut cx = Cx::new();
    let n = cx.n();
    let (zero, five) = (cx.c(0), cx.c(5));
    let e = cx.parse("2*n + m");
    assert_eq!(cx.dims().floordiv(n, zero), Err(DimError::DivisionByZero));
    assert_eq!(cx.dims().floormod(n, zero), Err(DimError::DivisionByZero));
    assert_eq!(
        cx.dims().floordiv(five, zero),
        Err(DimError::DivisionByZero)
    );
    assert_eq!(
        cx.dims().floormod(five, zero),
        Err(DimError::DivisionByZero)
    );
    assert_eq!(cx.dims().floordiv(e, zero), Err(DimError::DivisionByZero));
    assert_eq!(
        cx.dims().floordiv(zero, zero),
        Err(DimError::DivisionByZero)
    );
    assert_eq!(
        cx.dims().apply(DimOp::FloorMod, e, zero),
        Err(DimError::DivisionByZero)
    );
    let m_minus_m = cx.parse("m - m");
    assert_eq!(
        cx.dims().floordiv(n, m_minus_m),
        Err(DimError::DivisionByZero)
    );
    // A zero divisor is an error whatever the dividend, `?` included.
    assert_eq!(
        cx.dims().floordiv(Dims::ANY, zero),
        Err(DimError::DivisionByZero)
    );
    assert_eq!(
        cx.dims().floormod(Dims::ANY, zero),
        Err(DimError::DivisionByZero)
    );
    let err = cx.try_parse("floordiv(n, 0)").unwrap_err();
    assert_eq!(err.message, "dimension divided by zero");
    let err = cx.try_parse("n % (3 - 3)").unwrap_err();
    assert_eq!(err.message, "dimension divided by zero");
}

#[test]
fn huge_products_are_too_large() {
    let mut cx = Cx::new();
    let j = {
        let p = cx.tcx.param("j", Kind::ShapeVar);
        cx.tcx.dims.sym(p)
    };
    let s = cx.parse("n + m + k");
    let s = cx.dims().add(s, j).unwrap();
    // (n + m + k + j)^d has C(d + 3, 3) monomials: 220 for d = 9, 286 for d = 10.
    let mut acc = s;
    for _ in 1..9 {
        acc = cx.dims().mul(acc, s).unwrap();
    }
    assert_eq!(n_terms(&cx.tcx.dims, acc), 220);
    assert_eq!(cx.dims().mul(acc, s), Err(DimError::TooLarge));
    assert_eq!(cx.dims().product(&[s; 10]), Err(DimError::TooLarge));
    assert_eq!(cx.dims().product(&[s; 9]), Ok(acc));
    // A product of two sums that are each at the limit.
    let mut wide = cx.c(0);
    let n = cx.n();
    let mut power = cx.c(1);
    for _ in 0..MAX_TERMS {
        wide = cx.dims().add(wide, power).unwrap();
        power = cx.dims().mul(power, n).unwrap();
    }
    assert_eq!(n_terms(&cx.tcx.dims, wide), MAX_TERMS);
    // One more distinct monomial is too many.
    assert_eq!(cx.dims().add(wide, power), Err(DimError::TooLarge));
    assert_eq!(cx.dims().sub(wide, power), Err(DimError::TooLarge));
    // But a sum that cancels back below the limit is fine.
    let shifted = cx.dims().mul(wide, n).unwrap();
    let telescoped = cx.dims().sub(shifted, wide).unwrap();
    assert_eq!(n_terms(&cx.tcx.dims, telescoped), 2);
    assert_eq!(
        cx.show(telescoped),
        format!("{} - 1", "n*".repeat(255) + "n")
    );
    let m = cx.m();
    let wide_m = cx.dims().add(wide, m).unwrap_err();
    assert_eq!(wide_m, DimError::TooLarge);
    assert_eq!(cx.dims().mul(wide, wide), Err(DimError::TooLarge));
    let err = cx.dims().mul(wide, wide).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("dimension expression has more than {MAX_TERMS} terms")
    );
}

#[test]
fn errors_display() {
    assert_eq!(
        DimError::Overflow.to_string(),
        "dimension arithmetic overflows 64 bits"
    );
    assert_eq!(
        DimError::DivisionByZero.to_string(),
        "dimension divided by zero"
    );
    assert_eq!(
        DimError::TooLarge.to_string(),
        "dimension expression has more than 256 terms"
    );
}

#[test]
fn eval_fails_without_panicking() {
    let mut cx = Cx::new();
    let e = cx.parse("n*m + floordiv(k, m)");
    assert_eq!(cx.eval(e, [3, 4, 9]), Some(14));
    assert_eq!(cx.eval(e, [3, 0, 9]), None, "floordiv by a zero value");
    assert_eq!(cx.eval(e, [i64::MAX, 2, 0]), None, "overflow");
    let nn = cx.parse("n*n");
    assert_eq!(cx.eval(nn, [1 << 32, 0, 0]), None, "overflow");
    assert_eq!(
        cx.eval(nn, [(1 << 31) + 1, 0, 0]),
        Some(((1 << 31) + 1) * ((1 << 31) + 1))
    );
    let n = cx.n();
    assert_eq!(
        cx.tcx.dims.eval(n, &|_| None),
        None,
        "a leaf without a value"
    );
    let c = cx.c(-5);
    assert_eq!(cx.tcx.dims.eval(c, &|_| None), Some(-5));
    let q = cx.parse("floordiv(n, -1)");
    assert_eq!(cx.eval(q, [i64::MIN, 0, 0]), None);
    // A sum that fits evaluates whatever the order of its terms.
    let s = cx.parse("n + m + k");
    assert_eq!(cx.eval(s, [i64::MAX, 1, -1]), Some(i64::MAX));
    assert_eq!(cx.eval(s, [i64::MIN, -1, 1]), Some(i64::MIN));
    assert_eq!(cx.eval(s, [i64::MAX, 1, 0]), None);
}

// ----- linear_in, exact_div, vars, map_leaves -----

#[test]
fn linear_in_splits_off_a_linear_occurrence() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let e = cx.parse("2*n + m + 3");
    let rest = cx.parse("m + 3");
    assert_eq!(cx.dims().linear_in(e, n), Some((2, rest)));
    assert_eq!(cx.dims().linear_in(e, m), Some((1, cx.parse("2*n + 3"))));
    assert_eq!(cx.dims().linear_in(n, n), Some((1, cx.c(0))));
    let e = cx.parse("5 - n");
    assert_eq!(cx.dims().linear_in(e, n), Some((-1, cx.c(5))));
    let e = cx.parse("-4*n");
    assert_eq!(cx.dims().linear_in(e, n), Some((-4, cx.c(0))));
    let e = cx.parse("n + floordiv(m, 2)");
    let rest = cx.parse("floordiv(m, 2)");
    assert_eq!(cx.dims().linear_in(e, n), Some((1, rest)));
    // Not linear: a product with itself or another atom.
    let e = cx.parse("n*n + n");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let e = cx.parse("n*m + n");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let e = cx.parse("n*m");
    assert_eq!(cx.dims().linear_in(e, n), None);
    // Absent.
    let e = cx.parse("m + 1");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let e = cx.parse("n + m - n");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let three = cx.c(3);
    assert_eq!(cx.dims().linear_in(three, n), None);
    // Inside an operator atom, the symbol is not linear.
    let e = cx.parse("n + floordiv(n, 2)");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let e = cx.parse("n + min(n, m)");
    assert_eq!(cx.dims().linear_in(e, n), None);
    let e = cx.parse("n + max(floordiv(m*n, 3), 1) + 2");
    assert_eq!(cx.dims().linear_in(e, n), None);
}

#[test]
fn linear_in_a_flexible_variable() {
    let mut s = Solver::new(TyCtx::new());
    let x = s.fresh_dim();
    let y = s.fresh_dim();
    let p = s.tcx.param("n", Kind::ShapeVar);
    let n = s.tcx.dims.sym(p);
    let d = &mut s.tcx.dims;
    let three_x = d.scale(x, 3).unwrap();
    let e = d.add(three_x, n).unwrap();
    assert_eq!(d.linear_in(e, x), Some((3, n)));
    assert_eq!(d.linear_in(e, n), Some((1, three_x)));
    assert!(d.has_vars(e) && d.has_syms(e));
    assert!(!d.has_vars(n) && d.has_syms(n));
    assert!(d.has_vars(x) && !d.has_syms(x));
    let min = d.min(x, n).unwrap();
    let e2 = d.add(x, min).unwrap();
    assert_eq!(d.linear_in(e2, x), None);
    let two = d.konst(2);
    let q = d.floordiv(y, two).unwrap();
    let e3 = d.add(x, q).unwrap();
    assert_eq!(d.linear_in(e3, x), Some((1, q)));
    assert_eq!(d.linear_in(e3, y), None);
    let xy = d.mul(x, y).unwrap();
    let e4 = d.add(xy, x).unwrap();
    assert_eq!(d.linear_in(e4, x), None);
    // vars: each once, in order of first appearance.
    let e5 = d.add(e4, q).unwrap();
    let mut vars = d.vars(e5);
    vars.sort();
    let [vx, vy] = [x, y].map(|v| match d.data(v) {
        DimData::Var(v) => *v,
        _ => unreachable!(),
    });
    assert_eq!(vars, vec![vx, vy]);
    assert_eq!(d.vars(n), vec![]);
    let xy_sum = d.add(x, y).unwrap();
    assert_eq!(d.vars(xy_sum), vec![vx, vy]);
    let yx_sum = d.add(y, x).unwrap();
    assert_eq!(d.vars(yx_sum), vec![vx, vy]);
    let e6 = d.add(xy_sum, q).unwrap();
    assert_eq!(d.vars(e6), vec![vx, vy]);
    let qx = d.add(q, x).unwrap();
    let qx = d.add(qx, n).unwrap();
    // The stored order puts x (interned before floordiv(y, 2)) first.
    assert_eq!(d.vars(qx), vec![vx, vy]);
    let m = d.max(y, x).unwrap();
    assert_eq!(d.vars(m), vec![vx, vy], "max(x, y): variables by index");
    let fy = d.floordiv(x, y).unwrap();
    let yf = d.floordiv(y, x).unwrap();
    assert_eq!(d.vars(fy), vec![vx, vy]);
    assert_eq!(d.vars(yf), vec![vy, vx]);
    assert_eq!(s.tcx.show_dim(e), "3*'d0 + n");
}

#[test]
fn exact_div_divides_every_coefficient() {
    let mut cx = Cx::new();
    let n = cx.n();
    let e = cx.parse("6*n + 4");
    assert_eq!(cx.dims().exact_div(e, 2), Some(cx.parse("3*n + 2")));
    assert_eq!(cx.dims().exact_div(e, -2), Some(cx.parse("-3*n - 2")));
    assert_eq!(cx.dims().exact_div(e, 1), Some(e));
    assert_eq!(cx.dims().exact_div(e, 4), None);
    let e = cx.parse("6*n + 3");
    assert_eq!(cx.dims().exact_div(e, 3), Some(cx.parse("2*n + 1")));
    assert_eq!(cx.dims().exact_div(e, 2), None);
    let e = cx.parse("-4*n");
    assert_eq!(cx.dims().exact_div(e, -4), Some(n));
    let twelve = cx.c(12);
    assert_eq!(cx.dims().exact_div(twelve, -4), Some(cx.c(-3)));
    assert_eq!(cx.dims().exact_div(twelve, 5), None);
    let zero = cx.c(0);
    assert_eq!(cx.dims().exact_div(zero, 5), Some(zero));
    assert_eq!(cx.dims().exact_div(n, 0), None);
    assert_eq!(cx.dims().exact_div(zero, 0), None);
    assert_eq!(cx.dims().exact_div(n, 2), None);
    let e = cx.parse("4*floordiv(n, 2)*m");
    assert_eq!(
        cx.dims().exact_div(e, 4),
        Some(cx.parse("floordiv(n, 2)*m"))
    );
    // i64::MIN / -1 does not fit.
    let huge = cx.dims().scale(n, i64::MIN).unwrap();
    assert_eq!(cx.dims().exact_div(huge, -1), None);
    let lo = cx.c(i64::MIN);
    assert_eq!(cx.dims().exact_div(lo, -1), None);
    assert_eq!(cx.dims().exact_div(lo, 1), Some(lo));
    assert_eq!(
        cx.dims().exact_div(huge, 2),
        Some(cx.dims().scale(n, i64::MIN / 2).unwrap())
    );
}

#[test]
fn map_leaves_substitutes_and_renormalizes() {
    let mut cx = Cx::new();
    let (n, m) = (cx.n(), cx.m());
    let e = cx.parse("2*n + m");
    let three = cx.c(3);
    let r = cx
        .dims()
        .map_leaves(e, |_, x| (x == n).then_some(three))
        .unwrap();
    assert_eq!(cx.show(r), "m + 6");
    let e = cx.parse("n - m");
    let r = cx
        .dims()
        .map_leaves(e, |_, x| (x == n).then_some(m))
        .unwrap();
    assert_eq!(r, cx.c(0));
    let r = cx
        .dims()
        .map_leaves(e, |_, x| (x == n).then_some(Dims::ANY))
        .unwrap();
    assert_eq!(r, Dims::ANY);
    let e = cx.parse("floordiv(m, n) + 1");
    let zero = cx.c(0);
    assert_eq!(
        cx.dims().map_leaves(e, |_, x| (x == n).then_some(zero)),
        Err(DimError::DivisionByZero)
    );
    let e = cx.parse("min(n, m + 1)");
    let r = cx
        .dims()
        .map_leaves(e, |_, x| (x == n).then_some(m))
        .unwrap();
    assert_eq!(r, m);
    let e = cx.parse("floordiv(n, 2)*k");
    let r = cx.dims().map_leaves(e, |_, _| None).unwrap();
    assert_eq!(r, e, "an identity substitution keeps the dimension");
    let seven = cx.c(7);
    assert_eq!(cx.dims().map_leaves(seven, |_, _| None), Ok(seven));
}

// ----- properties -----

/// An expression tree over the symbols `n`, `m`, `k` (indices 0..3).
#[derive(Clone, Debug)]
enum E {
    C(i64),
    S(usize),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    Div(Box<E>, i64),
    Mod(Box<E>, i64),
    Min(Box<E>, Box<E>),
    Max(Box<E>, Box<E>),
}

fn leaf() -> impl Strategy<Value = E> {
    prop_oneof![(-5i64..=5).prop_map(E::C), (0usize..3).prop_map(E::S)]
}

/// Polynomials: `+`, `-`, `*` and small constants.
fn poly() -> BoxedStrategy<E> {
    leaf()
        .prop_recursive(4, 16, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(a.into(), b.into())),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Sub(a.into(), b.into())),
                (inner.clone(), inner).prop_map(|(a, b)| E::Mul(a.into(), b.into())),
            ]
        })
        .boxed()
}

fn divisor() -> impl Strategy<Value = i64> {
    prop_oneof![1i64..=6, -6i64..=-1]
}

/// Polynomials with `floordiv` and `floormod` by constants, `min` and `max`.
fn rich() -> BoxedStrategy<E> {
    leaf()
        .prop_recursive(4, 16, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(a.into(), b.into())),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Sub(a.into(), b.into())),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Mul(a.into(), b.into())),
                (inner.clone(), divisor()).prop_map(|(a, c)| E::Div(a.into(), c)),
                (inner.clone(), divisor()).prop_map(|(a, c)| E::Mod(a.into(), c)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Min(a.into(), b.into())),
                (inner.clone(), inner).prop_map(|(a, b)| E::Max(a.into(), b.into())),
            ]
        })
        .boxed()
}

fn values() -> impl Strategy<Value = [i64; 3]> {
    [-10i64..=10, -10i64..=10, -10i64..=10]
}

fn build(dims: &mut Dims, syms: &[Dim; 3], e: &E) -> Result<Dim, DimError> {
    Ok(match e {
        E::C(c) => dims.konst(*c),
        E::S(i) => syms[*i],
        E::Add(a, b) => {
            let (a, b) = (build(dims, syms, a)?, build(dims, syms, b)?);
            dims.add(a, b)?
        }
        E::Sub(a, b) => {
            let (a, b) = (build(dims, syms, a)?, build(dims, syms, b)?);
            dims.sub(a, b)?
        }
        E::Mul(a, b) => {
            let (a, b) = (build(dims, syms, a)?, build(dims, syms, b)?);
            dims.mul(a, b)?
        }
        E::Div(a, c) => {
            let a = build(dims, syms, a)?;
            let c = dims.konst(*c);
            dims.floordiv(a, c)?
        }
        E::Mod(a, c) => {
            let a = build(dims, syms, a)?;
            let c = dims.konst(*c);
            dims.floormod(a, c)?
        }
        E::Min(a, b) => {
            let (a, b) = (build(dims, syms, a)?, build(dims, syms, b)?);
            dims.min(a, b)?
        }
        E::Max(a, b) => {
            let (a, b) = (build(dims, syms, a)?, build(dims, syms, b)?);
            dims.max(a, b)?
        }
    })
}

/// `floor(x / c)` computed independently of the library, in 128 bits.
fn ref_floor_div(x: i64, c: i64) -> Option<i64> {
    if c == 0 {
        return None;
    }
    let (x, c) = (i128::from(x), i128::from(c));
    let q = if c > 0 {
        x.div_euclid(c)
    } else {
        (-x).div_euclid(-c)
    };
    i64::try_from(q).ok()
}

fn ref_floor_mod(x: i64, c: i64) -> Option<i64> {
    if c == 0 {
        return None;
    }
    let (xw, cw) = (i128::from(x), i128::from(c));
    let q = if cw > 0 {
        xw.div_euclid(cw)
    } else {
        (-xw).div_euclid(-cw)
    };
    i64::try_from(xw - cw * q).ok()
}

/// Direct evaluation of the tree in checked `i64` arithmetic.
fn oracle(e: &E, vals: &[i64; 3]) -> Option<i64> {
    match e {
        E::C(c) => Some(*c),
        E::S(i) => Some(vals[*i]),
        E::Add(a, b) => oracle(a, vals)?.checked_add(oracle(b, vals)?),
        E::Sub(a, b) => oracle(a, vals)?.checked_sub(oracle(b, vals)?),
        E::Mul(a, b) => oracle(a, vals)?.checked_mul(oracle(b, vals)?),
        E::Div(a, c) => ref_floor_div(oracle(a, vals)?, *c),
        E::Mod(a, c) => ref_floor_mod(oracle(a, vals)?, *c),
        E::Min(a, b) => Some(oracle(a, vals)?.min(oracle(b, vals)?)),
        E::Max(a, b) => Some(oracle(a, vals)?.max(oracle(b, vals)?)),
    }
}

/// Replaces symbol `i` by `with[i]`.
fn subst(e: &E, with: &[E; 3]) -> E {
    let b = |x: &E| Box::new(subst(x, with));
    match e {
        E::C(c) => E::C(*c),
        E::S(i) => with[*i].clone(),
        E::Add(x, y) => E::Add(b(x), b(y)),
        E::Sub(x, y) => E::Sub(b(x), b(y)),
        E::Mul(x, y) => E::Mul(b(x), b(y)),
        E::Div(x, c) => E::Div(b(x), *c),
        E::Mod(x, c) => E::Mod(b(x), *c),
        E::Min(x, y) => E::Min(b(x), b(y)),
        E::Max(x, y) => E::Max(b(x), b(y)),
    }
}

/// Checks the invariants of the normal form on `d` and every dimension inside it.
fn check_canonical(dims: &Dims, d: Dim) -> Result<(), TestCaseError> {
    let is_atom = |x: Dim| {
        matches!(
            dims.data(x),
            DimData::Sym(_) | DimData::Var(_) | DimData::Op(..)
        )
    };
    let mut stack = vec![d];
    while let Some(x) = stack.pop() {
        match dims.data(x) {
            DimData::Const(_) | DimData::Any | DimData::Sym(_) | DimData::Var(_) => {}
            DimData::Op(op, a, b) => {
                prop_assert!(
                    !dims.is_any(*a) && !dims.is_any(*b),
                    "`?` inside an operator"
                );
                match op {
                    DimOp::Min | DimOp::Max => {
                        prop_assert!(
                            dims.structural_cmp(*a, *b) == std::cmp::Ordering::Less,
                            "unordered min/max arguments"
                        );
                        prop_assert!(dims.as_const(*a).is_none() || dims.as_const(*b).is_none());
                    }
                    DimOp::FloorDiv | DimOp::FloorMod => {
                        prop_assert!(a != b, "x / x left as an atom");
                        prop_assert!(dims.as_const(*a) != Some(0), "0 / x left as an atom");
                        if let Some(c) = dims.as_const(*b) {
                            prop_assert!(dims.as_const(*a).is_none(), "unfolded constant division");
                            prop_assert!(
                                *op == DimOp::FloorDiv || c == i64::MIN,
                                "floormod by {} left as an atom",
                                c
                            );
                            if c > 1 {
                                let coeffs: Vec<i64> = match dims.data(*a) {
                                    DimData::Sum(terms) => terms.iter().map(|t| t.coeff).collect(),
                                    _ => vec![1],
                                };
                                prop_assert!(
                                    coeffs.iter().all(|x| (0..c).contains(x)),
                                    "a dividend {:?} not reduced modulo {}",
                                    coeffs,
                                    c
                                );
                            } else {
                                prop_assert!(c == -1 || c == i64::MIN, "division by {}", c);
                            }
                        }
                    }
                }
                stack.push(*a);
                stack.push(*b);
            }
            DimData::Sum(terms) => {
                prop_assert!(!terms.is_empty());
                if let [t] = &terms[..] {
                    prop_assert!(!t.atoms.is_empty(), "a lone constant as a sum");
                    prop_assert!(
                        !(t.coeff == 1 && t.atoms.len() == 1),
                        "a lone atom as a sum"
                    );
                }
                for w in terms.windows(2) {
                    prop_assert!(w[0].atoms < w[1].atoms, "terms out of order");
                }
                for t in terms.iter() {
                    prop_assert!(t.coeff != 0, "a zero coefficient");
                    prop_assert!(t.atoms.windows(2).all(|w| w[0] <= w[1]), "unsorted atoms");
                    for &a in t.atoms.iter() {
                        prop_assert!(is_atom(a), "a non-atom in a monomial");
                        stack.push(a);
                    }
                }
            }
        }
    }
    Ok(())
}

/// Builds `e`, rejecting the (rare) case of an expression with too many terms.
macro_rules! build {
    ($cx:expr, $e:expr) => {{
        let syms = $cx.syms;
        match build(&mut $cx.tcx.dims, &syms, $e) {
            Ok(d) => d,
            Err(DimError::TooLarge) => {
                prop_assume!(false, "too many terms");
                unreachable!()
            }
            Err(err) => return Err(TestCaseError::fail(format!("{err} building {:?}", $e))),
        }
    }};
}

/// Applies a `Dims` operation, rejecting too-large results and failing on other errors.
macro_rules! op {
    ($r:expr) => {{
        match $r {
            Ok(d) => d,
            Err(DimError::TooLarge) => {
                prop_assume!(false, "too many terms");
                unreachable!()
            }
            Err(err) => return Err(TestCaseError::fail(format!("{err}"))),
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn addition_and_multiplication_commute(a in rich(), b in rich()) {
        let mut cx = Cx::new();
        let (a, b) = (build!(cx, &a), build!(cx, &b));
        let d = cx.dims();
        prop_assert_eq!(op!(d.add(a, b)), op!(d.add(b, a)));
        prop_assert_eq!(op!(d.mul(a, b)), op!(d.mul(b, a)));
        prop_assert_eq!(op!(d.min(a, b)), op!(d.min(b, a)));
        prop_assert_eq!(op!(d.max(a, b)), op!(d.max(b, a)));
    }

    #[test]
    fn addition_and_multiplication_associate(a in rich(), b in rich(), c in rich()) {
        let mut cx = Cx::new();
        let (a, b, c) = (build!(cx, &a), build!(cx, &b), build!(cx, &c));
        let d = cx.dims();
        let ab = op!(d.add(a, b));
        let bc = op!(d.add(b, c));
        prop_assert_eq!(op!(d.add(ab, c)), op!(d.add(a, bc)));
        let ab = op!(d.mul(a, b));
        let bc = op!(d.mul(b, c));
        prop_assert_eq!(op!(d.mul(ab, c)), op!(d.mul(a, bc)));
    }

    #[test]
    fn multiplication_distributes(a in rich(), b in rich(), c in rich()) {
        let mut cx = Cx::new();
        let (a, b, c) = (build!(cx, &a), build!(cx, &b), build!(cx, &c));
        let d = cx.dims();
        let bc = op!(d.add(b, c));
        let lhs = op!(d.mul(a, bc));
        let ab = op!(d.mul(a, b));
        let ac = op!(d.mul(a, c));
        prop_assert_eq!(lhs, op!(d.add(ab, ac)));
        let bc = op!(d.sub(b, c));
        let lhs = op!(d.mul(bc, a));
        let ba = op!(d.mul(b, a));
        let ca = op!(d.mul(c, a));
        prop_assert_eq!(lhs, op!(d.sub(ba, ca)));
    }

    #[test]
    fn identities_and_inverses(a in rich(), b in rich(), k in -5i64..=5) {
        let mut cx = Cx::new();
        let (a, b) = (build!(cx, &a), build!(cx, &b));
        let (zero, one) = (cx.c(0), cx.c(1));
        let kd = cx.c(k);
        let d = cx.dims();
        prop_assert_eq!(op!(d.sub(a, a)), zero);
        prop_assert_eq!(op!(d.add(a, zero)), a);
        prop_assert_eq!(op!(d.add(zero, a)), a);
        prop_assert_eq!(op!(d.mul(a, one)), a);
        prop_assert_eq!(op!(d.mul(one, a)), a);
        prop_assert_eq!(op!(d.mul(a, zero)), zero);
        prop_assert_eq!(op!(d.scale(a, 1)), a);
        let na = op!(d.neg(a));
        prop_assert_eq!(op!(d.neg(na)), a);
        prop_assert_eq!(op!(d.add(a, na)), zero);
        let nb = op!(d.neg(b));
        prop_assert_eq!(op!(d.sub(a, b)), op!(d.add(a, nb)));
        prop_assert_eq!(op!(d.scale(a, k)), op!(d.mul(kd, a)));
        let ab = op!(d.sub(a, b));
        prop_assert_eq!(op!(d.add(ab, b)), a);
        prop_assert_eq!(op!(d.min(a, a)), a);
        prop_assert_eq!(op!(d.max(a, a)), a);
        prop_assert_eq!(op!(d.product(&[a, b])), op!(d.mul(a, b)));
    }

    #[test]
    fn every_result_is_in_normal_form(a in rich(), b in rich(), c in divisor()) {
        let mut cx = Cx::new();
        let (a, b) = (build!(cx, &a), build!(cx, &b));
        let cd = cx.c(c);
        let d = cx.dims();
        let results = [
            a,
            op!(d.add(a, b)),
            op!(d.sub(a, b)),
            op!(d.mul(a, b)),
            op!(d.floordiv(a, cd)),
            op!(d.floormod(a, cd)),
            op!(d.min(a, b)),
            op!(d.max(a, b)),
        ];
        for r in results {
            check_canonical(&cx.tcx.dims, r)?;
        }
        if cx.tcx.dims.as_const(b) != Some(0) {
            let q = op!(cx.dims().floordiv(a, b));
            check_canonical(&cx.tcx.dims, q)?;
            let r = op!(cx.dims().floormod(a, b));
            check_canonical(&cx.tcx.dims, r)?;
        }
    }

    #[test]
    fn rebuilding_from_the_terms_in_any_order_gives_the_same_dimension(a in rich()) {
        let mut cx = Cx::new();
        let a = build!(cx, &a);
        let terms = match cx.tcx.dims.data(a) {
            DimData::Sum(terms) => terms.to_vec(),
            _ => return Ok(()),
        };
        let d = cx.dims();
        let mut acc = d.konst(0);
        for t in terms.iter().rev() {
            let mut m = d.konst(1);
            for &x in t.atoms.iter().rev() {
                m = op!(d.mul(x, m));
            }
            let m = op!(d.scale(m, t.coeff));
            acc = op!(d.add(m, acc));
        }
        prop_assert_eq!(acc, a);
    }

    #[test]
    fn evaluation_agrees_with_the_tree(e in rich(), vals in values()) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let expected = oracle(&e, &vals);
        prop_assume!(expected.is_some());
        prop_assert_eq!(cx.eval(d, vals), expected, "{}", cx.show(d));
    }

    #[test]
    fn polynomial_evaluation_agrees_with_the_tree(e in poly(), vals in values()) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let expected = oracle(&e, &vals);
        prop_assume!(expected.is_some());
        prop_assert_eq!(cx.eval(d, vals), expected, "{}", cx.show(d));
        // The constant term is the value at zero.
        let at_zero = oracle(&e, &[0, 0, 0]).unwrap();
        let constant = match cx.tcx.dims.data(d) {
            DimData::Const(c) => *c,
            DimData::Sum(terms) if terms[0].atoms.is_empty() => terms[0].coeff,
            _ => 0,
        };
        prop_assert_eq!(constant, at_zero);
    }

    #[test]
    fn floordiv_and_floormod_by_a_constant_evaluate_with_floor_semantics(
        e in rich(),
        c in divisor(),
        vals in values(),
    ) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let cd = cx.c(c);
        let q = op!(cx.dims().floordiv(d, cd));
        let r = op!(cx.dims().floormod(d, cd));
        let x = oracle(&e, &vals);
        prop_assume!(x.is_some());
        let x = x.unwrap();
        prop_assert_eq!(cx.eval(q, vals), ref_floor_div(x, c), "{}", cx.show(q));
        prop_assert_eq!(cx.eval(r, vals), ref_floor_mod(x, c), "{}", cx.show(r));
        // c * floordiv(e, c) + floormod(e, c) == e
        let cq = op!(cx.dims().mul(cd, q));
        let back = op!(cx.dims().add(cq, r));
        prop_assert_eq!(cx.eval(back, vals), Some(x));
        // The remainder has the sign of the divisor and is smaller than it.
        let rv = cx.eval(r, vals).unwrap();
        let in_range = if c > 0 { (0..c).contains(&rv) } else { (c + 1..=0).contains(&rv) };
        prop_assert!(in_range, "remainder {} of {} by {}", rv, x, c);
    }

    #[test]
    fn floordiv_and_floormod_by_an_expression_evaluate_with_floor_semantics(
        a in rich(),
        b in rich(),
        vals in values(),
    ) {
        let mut cx = Cx::new();
        let (ad, bd) = (build!(cx, &a), build!(cx, &b));
        let (x, y) = (oracle(&a, &vals), oracle(&b, &vals));
        prop_assume!(x.is_some() && y.is_some() && y != Some(0));
        let (x, y) = (x.unwrap(), y.unwrap());
        let q = op!(cx.dims().floordiv(ad, bd));
        let r = op!(cx.dims().floormod(ad, bd));
        prop_assert_eq!(cx.eval(q, vals), ref_floor_div(x, y), "{}", cx.show(q));
        prop_assert_eq!(cx.eval(r, vals), ref_floor_mod(x, y), "{}", cx.show(r));
    }

    #[test]
    fn min_and_max_evaluate_to_the_smaller_and_larger(
        a in rich(),
        b in rich(),
        vals in values(),
    ) {
        let mut cx = Cx::new();
        let (ad, bd) = (build!(cx, &a), build!(cx, &b));
        let (x, y) = (oracle(&a, &vals), oracle(&b, &vals));
        prop_assume!(x.is_some() && y.is_some());
        let (x, y) = (x.unwrap(), y.unwrap());
        let lo = op!(cx.dims().min(ad, bd));
        let hi = op!(cx.dims().max(ad, bd));
        prop_assert_eq!(cx.eval(lo, vals), Some(x.min(y)), "{}", cx.show(lo));
        prop_assert_eq!(cx.eval(hi, vals), Some(x.max(y)), "{}", cx.show(hi));
    }

    #[test]
    fn printing_then_parsing_gives_the_same_dimension(e in rich()) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let printed = cx.show(d);
        let parsed = cx.try_parse(&printed);
        prop_assert_eq!(parsed, Ok(d), "{}", printed);
    }

    #[test]
    fn substitution_commutes_with_normalization(
        e in rich(),
        with in [poly(), poly(), poly()],
    ) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let images = [build!(cx, &with[0]), build!(cx, &with[1]), build!(cx, &with[2])];
        let syms = cx.syms;
        let mapped = op!(cx.dims().map_leaves(d, |_, x| {
            syms.iter().position(|&s| s == x).map(|i| images[i])
        }));
        let direct = build!(cx, &subst(&e, &with));
        prop_assert_eq!(mapped, direct, "{} vs {}", cx.show(mapped), cx.show(direct));
    }

    #[test]
    fn floordiv_times_the_divisor_plus_floormod_is_the_dividend(
        e in rich(),
        c in prop_oneof![1i64..=12, -12i64..=-1],
    ) {
        // As normal forms: floormod by a constant is stored as x - c*floordiv(x, c).
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let cd = cx.c(c);
        let q = op!(cx.dims().floordiv(d, cd));
        let r = op!(cx.dims().floormod(d, cd));
        let qc = op!(cx.dims().mul(q, cd));
        prop_assert_eq!(
            op!(cx.dims().add(qc, r)),
            d,
            "floordiv = {}, floormod = {}, e = {}",
            cx.show(q),
            cx.show(r),
            cx.show(d)
        );
        prop_assert_eq!(op!(cx.dims().add(r, qc)), d);
        let eq = op!(cx.dims().sub(d, qc));
        prop_assert_eq!(eq, r, "e - c*floordiv(e, c) is floormod(e, c)");
    }

    #[test]
    fn a_multiple_of_the_divisor_moves_out_of_the_division(
        e in rich(),
        f in rich(),
        c in divisor(),
    ) {
        // floordiv(e + c*f, c) = floordiv(e, c) + f and floormod(e + c*f, c) =
        // floormod(e, c), as normal forms: the dividend is reduced modulo c.
        let mut cx = Cx::new();
        let (d, g) = (build!(cx, &e), build!(cx, &f));
        let cd = cx.c(c);
        let cg = op!(cx.dims().scale(g, c));
        let shifted = op!(cx.dims().add(d, cg));
        let q = op!(cx.dims().floordiv(d, cd));
        let q_plus_g = op!(cx.dims().add(q, g));
        prop_assert_eq!(op!(cx.dims().floordiv(shifted, cd)), q_plus_g);
        let r = op!(cx.dims().floormod(d, cd));
        prop_assert_eq!(op!(cx.dims().floormod(shifted, cd)), r);
    }

    #[test]
    fn printing_does_not_depend_on_the_interning_order(e in rich(), f in rich()) {
        let mut a = Cx::new();
        let mut b = Cx::reversed();
        let da = build!(a, &e);
        let _ = build!(a, &f);
        let _ = build!(b, &f);
        let db = build!(b, &e);
        prop_assert_eq!(a.show(da), b.show(db));
    }

    #[test]
    fn printing_then_parsing_gives_the_same_dimension_with_large_constants(e in big()) {
        let mut cx = Cx::new();
        let syms = cx.syms;
        let Ok(d) = build(&mut cx.tcx.dims, &syms, &e) else {
            return Ok(());
        };
        let printed = cx.show(d);
        prop_assert_eq!(cx.try_parse(&printed), Ok(d), "{}", printed);
    }

    #[test]
    fn substituting_constants_evaluates(e in rich(), vals in values()) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let expected = oracle(&e, &vals);
        prop_assume!(expected.is_some());
        let syms = cx.syms;
        let consts = vals.map(|v| cx.c(v));
        let r = cx.dims().map_leaves(d, |_, x| {
            syms.iter().position(|&s| s == x).map(|i| consts[i])
        });
        prop_assert_eq!(r.map(|r| cx.tcx.dims.as_const(r)), Ok(expected));
    }

    #[test]
    fn exact_div_inverts_scaling(e in rich(), k in divisor()) {
        let mut cx = Cx::new();
        let d = build!(cx, &e);
        let scaled = op!(cx.dims().scale(d, k));
        prop_assert_eq!(cx.dims().exact_div(scaled, k), Some(d));
        if let Some(q) = cx.dims().exact_div(d, k) {
            prop_assert_eq!(op!(cx.dims().scale(q, k)), d);
        }
    }

    #[test]
    fn linear_in_recovers_a_linear_symbol(
        rest in rich(),
        a in prop_oneof![-5i64..=-1, 1i64..=5],
        vals in values(),
    ) {
        // rest is over n and m only, so a*k + rest is linear in k.
        let mut cx = Cx::new();
        let rest_d = {
            let syms = [cx.syms[0], cx.syms[1], cx.syms[0]];
            op!(build(&mut cx.tcx.dims, &syms, &rest))
        };
        let k = cx.k();
        let ak = op!(cx.dims().scale(k, a));
        let e = op!(cx.dims().add(ak, rest_d));
        prop_assert_eq!(cx.dims().linear_in(e, k), Some((a, rest_d)));
        // And the value of the split agrees.
        if let Some(v) = cx.eval(e, vals) {
            prop_assert_eq!(cx.eval(rest_d, vals).map(|r| r + a * vals[2]), Some(v));
        }
    }

    #[test]
    fn large_constants_never_panic_and_errors_do_not_depend_on_order(
        a in big(),
        b in big(),
    ) {
        let mut cx = Cx::new();
        let syms = cx.syms;
        let (Ok(a), Ok(b)) = (
            build(&mut cx.tcx.dims, &syms, &a),
            build(&mut cx.tcx.dims, &syms, &b),
        ) else {
            return Ok(());
        };
        let d = cx.dims();
        prop_assert_eq!(d.add(a, b), d.add(b, a));
        prop_assert_eq!(d.mul(a, b), d.mul(b, a));
        prop_assert_eq!(d.min(a, b), d.min(b, a));
        prop_assert_eq!(d.max(a, b), d.max(b, a));
        // Whatever else happens, nothing panics.
        let _ = d.sub(a, b);
        let _ = d.neg(a);
        let _ = d.floordiv(a, b);
        let _ = d.floormod(a, b);
        let _ = d.exact_div(a, -1);
        let _ = d.scale(a, i64::MIN);
        let _ = d.linear_in(a, syms[0]);
        let _ = cx.eval(a, [i64::MAX, i64::MIN, -1]);
    }
}

/// Trees with constants anywhere in the `i64` range.
fn big() -> BoxedStrategy<E> {
    let leaf = prop_oneof![
        (-5i64..=5).prop_map(E::C),
        any::<i64>().prop_map(E::C),
        prop_oneof![
            Just(i64::MIN),
            Just(i64::MAX),
            Just(1 << 31),
            Just(1 << 32),
            Just(-(1 << 32))
        ]
        .prop_map(E::C),
        (0usize..3).prop_map(E::S),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Sub(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Mul(a.into(), b.into())),
            (inner.clone(), any::<i64>()).prop_map(|(a, c)| E::Div(a.into(), c)),
            (inner.clone(), any::<i64>()).prop_map(|(a, c)| E::Mod(a.into(), c)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Min(a.into(), b.into())),
            (inner.clone(), inner).prop_map(|(a, b)| E::Max(a.into(), b.into())),
        ]
    })
    .boxed()
}
