//! Misuse and bad input are errors that say what is wrong, never panics.

use proptest::prelude::*;
use relay_core::dim::{MAX_FACTORS, MAX_TERMS};
use relay_core::text::{parse_type, Binding, TypeParseError, TypeScope, MAX_NESTING};
use relay_core::{
    DType, Dim, DimError, Kind, Outcome, Progress, RelCx, RelResult, RelationDef, RelationRef,
    Solver, Ty, TyCtx, TyData, UnifyErrorKind,
};

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

// ----- helpers -----

/// Parses `src` in a fresh context and scope.
fn parse(src: &str) -> Result<String, TypeParseError> {
    let mut tcx = TyCtx::new();
    let mut scope = TypeScope::new();
    parse_type(&mut tcx, &mut scope, src).map(|t| tcx.show_within(t, usize::MAX))
}

/// The error of parsing `src`, as `(offset, message)`.
fn parse_err(src: &str) -> (usize, String) {
    match parse(src) {
        Ok(t) => panic!("`{src}` parsed as `{t}`"),
        Err(e) => (e.offset, e.message),
    }
}

use relay_core::testing::{on_small_stack, TestSolver as T};

use relay_core::testing::failed;

// ----- malformed text -----

#[test]
fn malformed_types_are_errors_at_the_cause() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "expected a type, found the end of the text"),
        ("  \t\n ", 5, "expected a type, found the end of the text"),
        ("(", 1, "expected a type, found the end of the text"),
        (")", 0, "expected a type, found `)`"),
        ("((int32)", 8, "expected `)`, found the end of the text"),
        ("(int32))", 7, "expected the end of the type, found `)`"),
        (
            "Tensor[(1, 2), float32",
            22,
            "expected `]`, found the end of the text",
        ),
        (
            "Tensor[(1,,2), float32]",
            10,
            "expected a dimension, found `,2),`",
        ),
        ("Tensor[(1, 2)], float32]", 13, "expected `,`, found `],`"),
        (
            "Tensor[(99999999999999999999), float32]",
            8,
            "dimension `99999999999999999999` does not fit in 64 bits",
        ),
        ("-", 0, "expected a type, found `-`"),
        (
            "Tensor[(-), float32]",
            9,
            "expected a dimension, found `),`",
        ),
        (
            "Tensor[(n -), float32]",
            11,
            "expected a dimension, found `),`",
        ),
        (
            "Tensor[(é), float32]",
            8,
            "expected a dimension, found `é),`",
        ),
        ("😀", 0, "expected a type, found `😀`"),
        ("(int32, 😀)", 8, "expected a type, found `😀)`"),
        (
            "Tensor[(2), floät32]",
            12,
            "`flo` is not a data type (expected one of bool, int8-64, uint8-64, \
             float16/32/64, bfloat16, optionally with lanes as in `float32x4`)",
        ),
        (
            "fn [A, A](A) -> A",
            7,
            "type parameter `A` is declared twice",
        ),
        (
            "fn [A: Foo](A) -> A",
            7,
            "unknown kind `Foo` (expected `Type`, `BaseType`, `Shape` or `ShapeVar`)",
        ),
        ("fn (,) -> int32", 4, "expected a type, found `,)`"),
        ("fn (int32) int32", 11, "expected `->`, found `int32`"),
        ("fn (int32) - int32", 11, "expected `->`, found `-`"),
        ("(,)", 1, "expected a type, found `,)`"),
        ("ref()", 4, "expected a type, found `)`"),
        ("Tensor[(n/0), float32]", 8, "dimension divided by zero"),
        (
            "Tensor[(floordiv(n)), float32]",
            18,
            "expected `,`, found `)),`",
        ),
        (
            "Tensor[(1), float32] -> int32",
            21,
            "expected the end of the type, found `->`",
        ),
        (
            "Tensor[(n), float32]x",
            20,
            "expected the end of the type, found `x`",
        ),
        (
            "_",
            0,
            "`_` (an incomplete type) needs a solver to stand for",
        ),
    ];
    for &(src, offset, message) in cases {
        assert_eq!(parse_err(src), (offset, message.to_string()), "{src:?}");
    }
}

#[test]
fn keywords_cannot_name_type_parameters() {
    // `Tensor` in the body would be read as the keyword, with a baffling error.
    assert_eq!(
        parse_err("fn [Tensor](Tensor) -> Tensor"),
        (
            4,
            "`Tensor` is a keyword and cannot name a type parameter".to_string()
        )
    );
    for kw in ["fn", "ref", "_"] {
        let (offset, message) = parse_err(&format!("fn [{kw}]({kw}) -> {kw}"));
        assert_eq!(offset, 4);
        assert_eq!(
            message,
            format!("`{kw}` is a keyword and cannot name a type parameter")
        );
    }
}

#[test]
fn a_huge_literal_is_named_by_its_start_and_length() {
    let digits = "9".repeat(100_000);
    let (offset, message) = parse_err(&format!("Tensor[({digits}), float32]"));
    assert_eq!(offset, 8);
    assert_eq!(
        message,
        "dimension `99999999999999999999... (100000 digits)` does not fit in 64 bits"
    );
    let (_, message) = parse_err(&format!("Tensor[(n - {digits}), float32]"));
    assert_eq!(
        message,
        "dimension `-99999999999999999999... (100000 digits)` does not fit in 64 bits"
    );
}

#[test]
fn data_type_edge_cases() {
    let not_a_dtype = |s: &str| {
        format!(
            "`{s}` is not a data type (expected one of bool, int8-64, uint8-64, \
             float16/32/64, bfloat16, optionally with lanes as in `float32x4`)"
        )
    };
    // As a type and as the dtype of a tensor, the same explanation.
    for bad in [
        "float32x0",
        "int64x65536",
        "uint1",
        "int008",
        "float32x04",
        "float13",
        "boolx",
        "int8x4x4",
    ] {
        assert_eq!(parse_err(bad), (0, not_a_dtype(bad)), "{bad}");
        assert_eq!(
            parse_err(&format!("Tensor[(2), {bad}]")),
            (12, not_a_dtype(bad)),
            "{bad}"
        );
    }
    // Names that do not look like a data type are unknown types.
    assert_eq!(
        parse_err("integer"),
        (0, "unknown type `integer`".to_string())
    );
    assert_eq!(
        parse_err("floaty"),
        (0, "unknown type `floaty`".to_string())
    );
    for good in ["boolx4", "int64x65535", "uint8", "bfloat16x2", "float64"] {
        assert_eq!(parse(good).as_deref(), Ok(good));
    }
}

// ----- size and depth -----

#[test]
fn deep_nesting_is_a_clean_error_on_a_small_stack() {
    on_small_stack(|| {
        const N: usize = 10_000;
        let limit = format!("type nested more than {MAX_NESTING} levels deep");
        let cases = [
            format!("{}int32{}", "(".repeat(N), ")".repeat(N)),
            format!("{}int32{}", "(".repeat(N), ",)".repeat(N)),
            format!("{}int32{}", "ref(".repeat(N), ")".repeat(N)),
            format!("{}int32", "fn () -> ".repeat(N)),
            format!("{}int32{}", "fn (".repeat(N), ") -> int32".repeat(N)),
            format!("Tensor[({}n{}), float32]", "(".repeat(N), ")".repeat(N)),
            format!(
                "Tensor[({}n{}), float32]",
                "floordiv(".repeat(N),
                ", 2)".repeat(N)
            ),
            format!(
                "Tensor[({}n{}), float32]",
                "max(m, ".repeat(N),
                ")".repeat(N)
            ),
            format!("Tensor[({}n{}), float32]", "-(".repeat(N), ")".repeat(N)),
            // Unclosed: the limit is met before the missing closers.
            "(".repeat(N),
            "Tensor[(".to_string() + &"(".repeat(N),
        ];
        for src in &cases {
            let (_, message) = parse_err(src);
            assert_eq!(message, limit, "{}", &src[..40]);
        }
    });
}

#[test]
fn nesting_up_to_the_limit_parses_on_a_small_stack() {
    on_small_stack(|| {
        // One level for the outermost type: MAX_NESTING - 1 parentheses around it.
        let n = MAX_NESTING - 1;
        let t = parse(&format!("{}int32{}", "(".repeat(n), ",)".repeat(n))).unwrap();
        assert_eq!(t, format!("{}int32{}", "(".repeat(n), ",)".repeat(n)));
        let t = parse(&format!(
            "{}int32{}",
            "fn (".repeat(n),
            ") -> int32".repeat(n)
        ));
        assert!(t.is_ok());
        // A level of dimension nesting (a parenthesis or an operator) counts two; the
        // tensor, the outermost dimension and the innermost atom one each.
        let d = (MAX_NESTING - 3) / 2;
        let t = parse(&format!(
            "Tensor[({}n{}), float32]",
            "(".repeat(d),
            ")".repeat(d)
        ));
        assert_eq!(t.as_deref(), Ok("Tensor[(n), float32]"));
        let t = parse(&format!(
            "Tensor[({}n{}), float32]",
            "(".repeat(d + 1),
            ")".repeat(d + 1)
        ));
        assert!(t.is_err());
        let t = parse(&format!(
            "Tensor[({}n{}), float32]",
            "max(m, ".repeat(d),
            ")".repeat(d)
        ))
        .unwrap();
        assert_eq!(
            t.len(),
            "Tensor[(), float32]".len() + d * "max(m, )".len() + 1
        );
    });
}

#[test]
fn long_runs_of_unary_minus_need_no_stack() {
    on_small_stack(|| {
        for (n, expected) in [(100_000, "n"), (100_001, "-n")] {
            let t = parse(&format!("Tensor[({}n), float32]", "-".repeat(n)));
            assert_eq!(t.unwrap(), format!("Tensor[({expected}), float32]"));
        }
        let t = parse(&format!("Tensor[(m - {}n), float32]", "- ".repeat(99_999)));
        assert_eq!(t.unwrap(), "Tensor[(m + n), float32]");
        // `- -9223372036854775808` is 2^63, which does not fit.
        assert_eq!(
            parse_err("Tensor[(- -9223372036854775808), float32]"),
            (8, "dimension arithmetic overflows 64 bits".to_string())
        );
        assert_eq!(
            parse("Tensor[(- - -9223372036854775808), float32]").unwrap(),
            "Tensor[(-9223372036854775808), float32]"
        );
    });
}

#[test]
fn a_long_flat_tuple_parses_and_prints() {
    on_small_stack(|| {
        let n = 100_000;
        let src = format!("({})", vec!["Tensor[(n, 3), float32]"; n].join(", "));
        let mut tcx = TyCtx::new();
        let mut scope = TypeScope::new();
        let t = parse_type(&mut tcx, &mut scope, &src).unwrap();
        let TyData::Tuple(fields) = tcx.data(t) else {
            panic!("a tuple")
        };
        assert_eq!(fields.len(), n);
        assert_eq!(tcx.show_within(t, usize::MAX), src);
        let dims = format!("Tensor[({}), float32]", vec!["n"; n].join(", "));
        assert_eq!(parse(&dims).unwrap(), dims);
    });
}

#[test]
fn a_product_of_too_many_factors_is_refused_early() {
    // Before the limit, `n*n*...*n` with k factors cost O(k^2): 50,000 factors took
    // most of a minute.
    let factors = |k: usize| format!("Tensor[({}), float32]", vec!["n"; k].join("*"));
    let message = format!("dimension expression has a term of more than {MAX_FACTORS} factors");
    assert_eq!(parse_err(&factors(100_000)), (8, message.clone()));
    assert_eq!(parse_err(&factors(MAX_FACTORS + 1)), (8, message.clone()));
    assert_eq!(parse(&factors(MAX_FACTORS)).unwrap(), factors(MAX_FACTORS));
    assert_eq!(
        DimError::TooManyFactors.to_string(),
        "dimension expression has a term of more than 512 factors"
    );
    // A power of a sum grows in terms first.
    let power = format!(
        "Tensor[({}), float32]",
        vec!["(a + b + c + d + e + f + g + h)"; 20].join("*")
    );
    assert_eq!(
        parse_err(&power),
        (
            8,
            format!("dimension expression has more than {MAX_TERMS} terms")
        )
    );
    // Binomial coefficients overflow before (a + b)^300 has too many terms.
    let power = format!("Tensor[({}), float32]", vec!["(a + b)"; 300].join("*"));
    assert_eq!(
        parse_err(&power),
        (8, "dimension arithmetic overflows 64 bits".to_string())
    );
    // A long sum of one symbol stays one term.
    let sum = format!("Tensor[({}), float32]", vec!["n"; 100_000].join(" + "));
    assert_eq!(parse(&sum).unwrap(), "Tensor[(100000*n), float32]");
    let distinct: Vec<String> = (0..100_000).map(|i| format!("a{i}")).collect();
    let sum = format!("Tensor[({}), float32]", distinct.join(" + "));
    assert_eq!(
        parse_err(&sum),
        (
            8,
            format!("dimension expression has more than {MAX_TERMS} terms")
        )
    );
}

// ----- the scope after an error -----

#[test]
fn a_failed_parse_leaves_the_scope_as_it_was() {
    let mut tcx = TyCtx::new();
    let mut scope = TypeScope::new();
    // The parameters of a function type whose text fails.
    let e = parse_type(&mut tcx, &mut scope, "fn [A, A](A) -> A").unwrap_err();
    assert_eq!(e.message, "type parameter `A` is declared twice");
    assert_eq!(scope.get("A"), None);
    let e = parse_type(&mut tcx, &mut scope, "fn [A, s: Shape](A) -> oops").unwrap_err();
    assert_eq!(e.message, "unknown type `oops`");
    assert_eq!((scope.get("A"), scope.get("s")), (None, None));
    let e = parse_type(&mut tcx, &mut scope, "A").unwrap_err();
    assert_eq!(e.message, "unknown type `A`");
    // Symbols introduced before the error.
    let e = parse_type(&mut tcx, &mut scope, "(Tensor[(n, m), float32], oops)").unwrap_err();
    assert_eq!(e.message, "unknown type `oops`");
    assert_eq!((scope.get("n"), scope.get("m")), (None, None));
    // A binding the text shadowed is back.
    let n = parse_type(&mut tcx, &mut scope, "Tensor[(n), float32]").unwrap();
    let bound_n = scope.get("n").expect("`n` is bound by a successful parse");
    let e = parse_type(
        &mut tcx,
        &mut scope,
        "(fn [n: ShapeVar](Tensor[(n, k), float32]) -> int32, oops)",
    )
    .unwrap_err();
    assert_eq!(e.message, "unknown type `oops`");
    assert_eq!(scope.get("n"), Some(bound_n));
    assert_eq!(scope.get("k"), None);
    assert_eq!(
        parse_type(&mut tcx, &mut scope, "Tensor[(n), float32]"),
        Ok(n)
    );
    // A successful parse keeps the symbols of a function body but not its parameters.
    let t = parse_type(
        &mut tcx,
        &mut scope,
        "(fn [A](Tensor[(j), float32], A) -> A, Tensor[(j), float32])",
    )
    .unwrap();
    assert_eq!(
        tcx.show(t),
        "(fn [A](Tensor[(j), float32], A) -> A, Tensor[(j), float32])"
    );
    assert!(scope.get("j").is_some());
    assert_eq!(scope.get("A"), None);
}

// ----- printing reads back -----

#[test]
fn a_scalar_of_a_dtype_parameter_prints_so_that_it_reads_back() {
    let mut tcx = TyCtx::new();
    let mut scope = TypeScope::new();
    let src = "fn [b: BaseType](Tensor[(), b], Tensor[(2), b]) -> Tensor[(), b]";
    let t = parse_type(&mut tcx, &mut scope, src).unwrap();
    // It printed as `fn [b: BaseType](b, Tensor[(2), b]) -> b`, which is a kind error.
    assert_eq!(tcx.show(t), src);
    // A known dtype still prints bare.
    let t = parse_type(&mut tcx, &mut scope, "Tensor[(), float32x4]").unwrap();
    assert_eq!(tcx.show(t), "float32x4");
}

/// A random type, built through the API; `syms` are `n`, `m`, `k`.
#[derive(Clone, Debug)]
enum TyTree {
    Scalar(usize),
    Tensor(Vec<DimTree>, usize),
    Tuple(Vec<TyTree>),
    Ref(Box<TyTree>),
    /// A function type binding one parameter of each kind, used in its body.
    Func(Vec<TyTree>, Box<TyTree>),
    /// The `Type` parameter of the nearest enclosing function, if any.
    Param,
}

#[derive(Clone, Debug)]
enum DimTree {
    Const(i64),
    Sym(usize),
    Add(Box<DimTree>, Box<DimTree>),
    Sub(Box<DimTree>, Box<DimTree>),
    Mul(Box<DimTree>, Box<DimTree>),
    Div(Box<DimTree>, i64),
    Mod(Box<DimTree>, i64),
    Min(Box<DimTree>, Box<DimTree>),
    Any,
}

const DTYPES: [DType; 5] = [
    DType::FLOAT32,
    DType::INT8,
    DType::BOOL,
    DType::BFLOAT16,
    DType::UINT8,
];

fn dim_tree() -> impl Strategy<Value = DimTree> {
    let leaf = prop_oneof![
        (-1000i64..1000).prop_map(DimTree::Const),
        Just(DimTree::Const(i64::MIN)),
        Just(DimTree::Const(i64::MAX)),
        (0usize..3).prop_map(DimTree::Sym),
        Just(DimTree::Any),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| DimTree::Add(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| DimTree::Sub(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| DimTree::Mul(a.into(), b.into())),
            (inner.clone(), -5i64..6).prop_map(|(a, c)| DimTree::Div(a.into(), c)),
            (inner.clone(), -5i64..6).prop_map(|(a, c)| DimTree::Mod(a.into(), c)),
            (inner.clone(), inner).prop_map(|(a, b)| DimTree::Min(a.into(), b.into())),
        ]
    })
}

fn ty_tree() -> impl Strategy<Value = TyTree> {
    let leaf = prop_oneof![
        (0usize..5).prop_map(TyTree::Scalar),
        (prop::collection::vec(dim_tree(), 0..4), 0usize..5)
            .prop_map(|(d, dt)| TyTree::Tensor(d, dt)),
        Just(TyTree::Param),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(TyTree::Tuple),
            inner.clone().prop_map(|t| TyTree::Ref(t.into())),
            (prop::collection::vec(inner.clone(), 0..3), inner)
                .prop_map(|(a, r)| TyTree::Func(a, r.into())),
        ]
    })
}

/// Builds a dimension; `None` where the arithmetic fails (an error, never a panic).
fn build_dim(tcx: &mut TyCtx, syms: &[Dim; 3], d: &DimTree) -> Option<Dim> {
    let mut go = |d: &DimTree| build_dim(tcx, syms, d);
    Some(match d {
        DimTree::Const(c) => {
            let _ = go;
            return Some(tcx.dims.konst(*c));
        }
        DimTree::Sym(i) => syms[*i],
        DimTree::Any => relay_core::Dims::ANY,
        DimTree::Add(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            tcx.dims.add(a, b).ok()?
        }
        DimTree::Sub(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            tcx.dims.sub(a, b).ok()?
        }
        DimTree::Mul(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            tcx.dims.mul(a, b).ok()?
        }
        DimTree::Div(a, c) => {
            let a = go(a)?;
            let c = tcx.dims.konst(*c);
            tcx.dims.floordiv(a, c).ok()?
        }
        DimTree::Mod(a, c) => {
            let a = go(a)?;
            let c = tcx.dims.konst(*c);
            tcx.dims.floormod(a, c).ok()?
        }
        DimTree::Min(a, b) => {
            let (a, b) = (go(a)?, go(b)?);
            tcx.dims.min(a, b).ok()?
        }
    })
}

/// Builds a type; function types bind fresh parameters `A`, `s`, `b` and `i` (one per
/// kind), used by `Param` and by the tensors inside them.
fn build_ty(
    tcx: &mut TyCtx,
    syms: &[Dim; 3],
    params: Option<[relay_core::Param; 4]>,
    t: &TyTree,
) -> Option<Ty> {
    Some(match t {
        TyTree::Scalar(i) => tcx.scalar(DTYPES[*i]),
        TyTree::Tensor(dims, dt) => {
            let mut ds = Vec::new();
            for d in dims {
                ds.push(build_dim(tcx, syms, d)?);
            }
            let dtype = match params {
                // Inside a function, every other tensor has the dtype parameter, so that
                // scalars of a dtype parameter come up.
                Some(p) if *dt % 2 == 0 => relay_core::DTy::Param(p[2]),
                _ => relay_core::DTy::Known(DTYPES[*dt]),
            };
            if let (Some(p), 3) = (params, *dt) {
                let s = tcx.shape_param(p[1]).unwrap();
                return Some(tcx.tensor(s, dtype));
            }
            if let (Some(p), 1) = (params, *dt) {
                ds.push(tcx.dim_param(p[3]).unwrap());
            }
            let s = tcx.shape(&ds);
            tcx.tensor(s, dtype)
        }
        TyTree::Tuple(fields) => {
            let mut fs = Vec::new();
            for f in fields {
                fs.push(build_ty(tcx, syms, params, f)?);
            }
            tcx.tuple(&fs)
        }
        TyTree::Ref(inner) => {
            let inner = build_ty(tcx, syms, params, inner)?;
            tcx.ref_ty(inner)
        }
        TyTree::Param => match params {
            Some(p) => tcx.param_ty(p[0]).unwrap(),
            None => tcx.scalar(DType::INT32),
        },
        TyTree::Func(args, ret) => {
            let p = [
                tcx.param("A", Kind::Type),
                tcx.param("s", Kind::Shape),
                tcx.param("b", Kind::BaseType),
                tcx.param("i", Kind::ShapeVar),
            ];
            let mut a = Vec::new();
            for x in args {
                a.push(build_ty(tcx, syms, Some(p), x)?);
            }
            let r = build_ty(tcx, syms, Some(p), ret)?;
            tcx.func(&p, &a, r, Vec::new())
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the type, its printed text parses, and prints the same again. A type
    /// without function types (whose parameters the parser makes afresh) reads back as
    /// the very same type.
    #[test]
    fn printed_types_read_back(tree in ty_tree()) {
        let mut tcx = TyCtx::new();
        let mut scope = TypeScope::new();
        let syms = ["n", "m", "k"].map(|name| {
            let p = tcx.param(name, Kind::ShapeVar);
            scope.bind(name, Binding::Param(p));
            tcx.dims.sym(p)
        });
        let Some(t) = build_ty(&mut tcx, &syms, None, &tree) else {
            return Ok(());
        };
        let printed = tcx.show(t);
        let parsed = parse_type(&mut tcx, &mut scope, &printed);
        prop_assert!(parsed.is_ok(), "{printed}: {:?}", parsed);
        let parsed = parsed.unwrap();
        prop_assert_eq!(tcx.show(parsed), printed.clone());
        if !printed.contains("fn ") {
            prop_assert_eq!(parsed, t, "{}", printed);
        }
    }
}

// ----- unification -----

#[test]
fn unifying_different_kinds_of_structure_names_both() {
    let mut t = T::new();
    t.var("a");
    let cases = [
        (
            "(a, int32)",
            "Tensor[(1), float32]",
            "`('t0, int32)` vs `Tensor[(1), float32]`",
        ),
        ("ref(a)", "fn () -> a", "`ref('t0)` vs `fn () -> 't0`"),
        ("(int32,)", "int32", "`(int32,)` vs `int32`"),
        ("()", "(int32,)", "`()` vs `(int32,)`"),
        (
            "fn (int32) -> int32",
            "(int32, int32)",
            "`fn (int32) -> int32` vs `(int32, int32)`",
        ),
        (
            "Tensor[(2, 3), float32]",
            "Tensor[(2), float32]",
            "rank 2 `(2, 3)` vs rank 1 `(2)`",
        ),
        (
            "(ref(Tensor[(2, n), float32]),)",
            "(ref(Tensor[(2, m), float32]),)",
            "tuple field 0, reference contents, dimension 1: n vs m",
        ),
    ];
    for (a, b, expected) in cases {
        assert_eq!(t.unify_err(a, b), expected, "{a} vs {b}");
    }
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn occurs_check_through_every_constructor() {
    let mut t = T::new();
    let p = t.solver.tcx.param("a", Kind::Type);
    let list = t.solver.tcx.adt("List", &[p]).unwrap();
    t.scope.bind("List", Binding::Adt(list));
    t.var("x");
    let cases = [
        (
            "x",
            "(int32, (x,))",
            "`'t0` would have to contain itself in `(int32, ('t0,))` (an infinite type)",
        ),
        (
            "x",
            "ref(ref(x))",
            "`'t0` would have to contain itself in `ref(ref('t0))` (an infinite type)",
        ),
        (
            "x",
            "fn (int32) -> x",
            "`'t0` would have to contain itself in `fn (int32) -> 't0` (an infinite type)",
        ),
        (
            "x",
            "List[List[x]]",
            "`'t0` would have to contain itself in `List[List['t0]]` (an infinite type)",
        ),
        ("(x, int32)", "(int32, x)", "tuple field 1: int32 vs int32"),
    ];
    // The last one is not an occurs failure: `x` is bound to `int32` by field 0.
    for (a, b, expected) in &cases[..4] {
        assert_eq!(t.unify_err(a, b), *expected, "{a} vs {b}");
    }
    let (a, b) = (t.ty(cases[4].0), t.ty(cases[4].1));
    t.solver.unify(a, b).unwrap();
    let x = t.ty("x");
    assert_eq!(t.show_resolved(x), "int32");
    // Through a variable bound since.
    let mut t = T::new();
    let y = t.var("y");
    t.var("z");
    let (zt, yt) = (t.ty("(z,)"), y);
    t.solver.unify(yt, zt).unwrap();
    assert_eq!(
        t.unify_err("z", "ref(y)"),
        "`'t1` would have to contain itself in `ref(('t1,))` (an infinite type)"
    );
}

#[test]
fn function_types_with_parameters_of_different_kinds_do_not_unify() {
    let mut t = T::new();
    assert_eq!(
        t.unify_err(
            "fn [A](A) -> A",
            "fn [b: BaseType](Tensor[(), b]) -> Tensor[(), b]"
        ),
        "`fn [A](A) -> A` vs `fn [b: BaseType](Tensor[(), b]) -> Tensor[(), b]`"
    );
    assert_eq!(
        t.unify_err(
            "fn [k: ShapeVar](Tensor[(k), float32]) -> int32",
            "fn [s: Shape](Tensor[s, float32]) -> int32"
        ),
        "`fn [k: ShapeVar](Tensor[(k), float32]) -> int32` vs `fn [s: Shape](Tensor[s, float32]) -> int32`"
    );
    // Different numbers of type parameters unify as in TVM (the surplus become unknowns:
    // `parse::polymorphic_functions_of_different_arity_unify`); different numbers of
    // arguments do not.
    assert_eq!(
        t.unify_err("fn [A, B](A, B) -> B", "fn [A](A) -> A"),
        "function arguments of 2 vs 1"
    );
}

// ----- dimension equations -----

#[test]
fn linear_equations_far_from_zero_are_solved_exactly() {
    // 2*x + i64::MIN = 0: x = 2^62, although negating i64::MIN overflows.
    let mut t = T::new();
    let x = t.dim("x");
    assert_eq!(t.unify_dims("2*x - 9223372036854775808", "0"), Ok(()));
    assert_eq!(t.show_dim(x), "4611686018427387904");
    // 2*x + i64::MAX = -3: the difference of the sides does not fit, the solution does.
    let mut t = T::new();
    let x = t.dim("x");
    assert_eq!(t.unify_dims("2*x + 9223372036854775807", "-3"), Ok(()));
    assert_eq!(t.show_dim(x), "-4611686018427387905");
    // With symbols: 2*x + i64::MAX*n = -3*n.
    let mut t = T::new();
    let x = t.dim("x");
    assert_eq!(t.unify_dims("2*x + 9223372036854775807*n", "-3*n"), Ok(()));
    assert_eq!(t.show_dim(x), "-4611686018427387905*n");
    // 2*x + i64::MAX = 0 has no integer solution.
    let mut t = T::new();
    let a = t.dim("x");
    let lhs = t.d("2*x + 9223372036854775807");
    let zero = t.d("0");
    assert_eq!(
        t.unify_dims("2*x + 9223372036854775807", "0"),
        Err(UnifyErrorKind::NoIntegerSolution(lhs, zero))
    );
    assert_eq!(t.show_dim(a), "'d0");
    // -x = i64::MIN: x = 2^63 does not fit.
    let mut t = T::new();
    let x = t.dim("x");
    assert_eq!(
        t.unify_dims("-x", "-9223372036854775808"),
        Err(UnifyErrorKind::Arith(DimError::Overflow))
    );
    assert_eq!(t.show_dim(x), "'d0");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn different_constants_far_apart_are_a_mismatch_not_an_overflow() {
    let mut t = T::new();
    let (max, m5) = (t.d("9223372036854775807"), t.d("-5"));
    assert_eq!(
        t.unify_dims("9223372036854775807", "-5"),
        Err(UnifyErrorKind::Dims(max, m5))
    );
    let (a, b) = (t.d("9223372036854775807*n"), t.d("-5*n"));
    assert_eq!(
        t.unify_dims("9223372036854775807*n", "-5*n"),
        Err(UnifyErrorKind::Dims(a, b))
    );
    let e = t.solver.unify_dims(max, m5).unwrap_err();
    assert_eq!(e.describe(&t.solver.tcx), "9223372036854775807 vs -5");
}

#[test]
fn two_unknowns_far_apart_wait_instead_of_overflowing() {
    let mut t = T::new();
    let (x, y) = (t.dim("x"), t.dim("y"));
    // It used to be an overflow error, though x = -5, y = i64::MAX is a solution.
    assert_eq!(t.unify_dims("x + 9223372036854775807", "y - 5"), Ok(()));
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    assert_eq!(t.unify_dims("y", "9223372036854775807"), Ok(()));
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_dim(x), "-5");
    assert_eq!(t.show_dim(y), "9223372036854775807");
}

#[test]
fn a_non_linear_equation_waits_and_never_guesses() {
    let mut t = T::new();
    let x = t.dim("x");
    assert_eq!(t.unify_dims("x*x", "4"), Ok(()));
    for _ in 0..3 {
        let Outcome::UnderConstrained(w) = t.solver.solve() else {
            panic!("x*x = 4 is not solved by guessing")
        };
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].relation, "DimEq");
        assert_eq!(w[0].args, vec!["'d0*'d0".to_string(), "4".to_string()]);
    }
    assert_eq!(t.show_dim(x), "'d0");
    assert_eq!(t.unify_dims("x", "-2"), Ok(()));
    assert_eq!(t.solver.solve(), Outcome::Solved);
    // And a false one fails once its unknown is known.
    let mut t = T::new();
    t.dim("x");
    assert_eq!(t.unify_dims("x*x", "5"), Ok(()));
    assert_eq!(t.unify_dims("x", "2"), Ok(()));
    let errors = failed(t.solver.solve());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "4 vs 5");
}

#[test]
fn many_deferred_equations_are_woken_once_each() {
    // x0 + x1 = 10, x1 + x2 = 10, ..., then the last is given a value: each equation
    // is run once, when its second unknown becomes known.
    let n = 20_000;
    let mut s = Solver::new(TyCtx::new());
    let xs: Vec<Dim> = (0..=n).map(|_| s.fresh_dim()).collect();
    let ten = s.tcx.dims.konst(10);
    for i in 0..n {
        let sum = s.tcx.dims.add(xs[i], xs[i + 1]).unwrap();
        s.unify_dims(sum, ten).unwrap();
    }
    let Outcome::UnderConstrained(w) = s.solve() else {
        panic!("nothing is known yet")
    };
    assert_eq!(w.len(), n);
    let three = s.tcx.dims.konst(3);
    s.unify_dims(xs[n], three).unwrap();
    assert_eq!(s.solve(), Outcome::Solved);
    assert_eq!(s.stats().runs, n as u64);
    assert_eq!(s.stats().wakeups, n as u64);
    let first = s.resolve_dim(xs[0]);
    assert_eq!(
        s.tcx.dims.as_const(first),
        Some(if n % 2 == 0 { 3 } else { 7 })
    );
}

// ----- resolving -----

#[test]
fn resolving_a_sum_does_not_fail_on_a_partial_sum() {
    // x + y + z at x = i64::MAX, y = 1, z = -1 is i64::MAX, whatever the order of terms.
    let mut t = T::new();
    for v in ["x", "y", "z"] {
        t.dim(v);
    }
    let e = t.d("x + y + z");
    let f = t.d("z + y + x");
    assert_eq!(t.unify_dims("x", "9223372036854775807"), Ok(()));
    assert_eq!(t.unify_dims("y", "1"), Ok(()));
    assert_eq!(t.unify_dims("z", "-1"), Ok(()));
    assert_eq!(t.show_dim(e), "9223372036854775807");
    assert_eq!(t.show_dim(f), "9223372036854775807");
    // A zero factor makes the product zero before the others overflow it.
    t.dim("w");
    let g = t.d("2*x*y*w");
    assert_eq!(t.unify_dims("w", "0"), Ok(()));
    assert_eq!(t.show_dim(g), "0");
    // A coefficient that only overflows before the terms cancel.
    let mut t = T::new();
    t.dim("x");
    t.dim("y");
    let h = t.d("2*x - 2*y + 1");
    assert_eq!(t.unify_dims("x", "4611686018427387904"), Ok(()));
    assert_eq!(t.unify_dims("y", "4611686018427387904"), Ok(()));
    assert_eq!(t.show_dim(h), "1");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn a_dimension_that_overflows_when_resolved_is_reported_by_solve() {
    let mut t = T::new();
    t.dim("y");
    let e = t.d("3*y");
    assert_eq!(t.unify_dims("y", "4000000000000000000"), Ok(()));
    // `resolve_dim` used to give the unresolved dimension back silently.
    assert_eq!(t.show_dim(e), "3*'d0");
    let errors = failed(t.solver.solve());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].relation, "resolve");
    assert_eq!(errors[0].message, "dimension arithmetic overflows 64 bits");
    // Likewise for a shape.
    let x = t.ty("Tensor[(3*y, 2), float32]");
    let TyData::Tensor(shape, _) = *t.solver.tcx.data(x) else {
        unreachable!()
    };
    let r = t.solver.resolve_shape(shape);
    assert_eq!(r, shape);
    assert_eq!(failed(t.solver.solve())[0].relation, "resolve");
    assert_eq!(t.solver.solve(), Outcome::Solved);
}

#[test]
fn variables_the_solver_has_not_seen_are_unknowns() {
    // Made inside a snapshot that was rolled back: indexing them used to panic inside
    // the union-find tables.
    let mut t = T::new();
    let snap = t.solver.snapshot();
    let v = t.solver.fresh_ty();
    let d = t.solver.fresh_dim();
    let sh = t.solver.fresh_shape();
    let b = t.solver.fresh_dtype();
    t.solver.rollback_to(snap);
    assert_eq!(t.solver.resolve(v), v);
    assert_eq!(t.solver.resolve_dim(d), d);
    let tensor = t.solver.tcx.tensor(sh, b);
    assert_eq!(t.solver.resolve(tensor), tensor);
    assert_eq!(t.solver.unknowns(tensor).len(), 2);
    let int32 = t.ty("int32");
    t.solver
        .add_relation(relay_core::testing::IDENTITY, &[v, int32], None, 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(v), "int32");
    let known = t.ty("Tensor[(4), float32]");
    t.solver.unify(tensor, known).unwrap();
    assert_eq!(t.show_resolved(tensor), "Tensor[(4), float32]");
    let four = t.d("4");
    t.solver.unify_dims(d, four).unwrap();
    assert_eq!(t.show_dim(d), "4");

    // Made by an earlier solver over the same context.
    let mut first = Solver::new(TyCtx::new());
    let vars: Vec<Ty> = (0..10).map(|_| first.fresh_ty()).collect();
    let mut second = Solver::new(first.into_tcx());
    let pair = second.tcx.tuple(&[vars[9], vars[3]]);
    assert_eq!(second.resolve(pair), pair);
    let int8 = second.tcx.scalar(DType::INT8);
    second.unify(vars[9], int8).unwrap();
    second.add_relation(relay_core::testing::IDENTITY, &[vars[3], vars[9]], None, 0);
    assert_eq!(second.solve(), Outcome::Solved);
    let r = second.resolve(pair);
    assert_eq!(second.tcx.show(r), "(int8, int8)");
}

// ----- relations that never finish -----

fn never(_: &mut RelCx<'_>) -> RelResult {
    Ok(Progress::NotYet)
}

/// A relation that waits forever, whatever its arguments are.
static NEVER: RelationDef = RelationDef {
    name: "Never",
    arity: None,
    needs: &[],
    solve: never,
};

#[test]
fn a_relation_that_always_waits_ends_under_constrained() {
    let mut t = T::new();
    let a = t.var("a");
    t.solver.add_relation(RelationRef(&NEVER), &[a], None, 3);
    t.solver.add_relation(RelationRef(&NEVER), &[], None, 4);
    for _ in 0..3 {
        let Outcome::UnderConstrained(w) = t.solver.solve() else {
            panic!("it never finishes")
        };
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].relation, w[0].origin), ("Never", 3));
        assert_eq!(w[0].args, vec!["'t0".to_string()]);
        assert_eq!(w[1].args, Vec::<String>::new());
        assert!(w[1].unknowns.is_empty());
    }
    // Each ran once: solving again runs nothing.
    assert_eq!(t.solver.stats().runs, 2);
    // Binding its unknown wakes it once; it still waits, with nothing left to wait on.
    let int32 = t.ty("int32");
    t.solver.unify(a, int32).unwrap();
    let Outcome::UnderConstrained(w) = t.solver.solve() else {
        panic!("it never finishes")
    };
    assert_eq!(w[0].args, vec!["int32".to_string()]);
    assert!(w[0].unknowns.is_empty());
    assert_eq!(t.solver.stats().runs, 3);
    assert_eq!(t.solver.solve(), t.solver.solve());
    assert_eq!(t.solver.stats().runs, 3);
}

#[test]
fn a_long_chain_added_in_reverse_runs_each_relation_at_most_twice() {
    // Broadcast(v[i], c, v[i+1]) for i from the far end down: the first pass waits on
    // every one, then each is woken once as the value flows down the chain.
    let n = 200_000;
    let mut s = Solver::new(TyCtx::new());
    let vars: Vec<Ty> = (0..=n).map(|_| s.fresh_ty()).collect();
    let c = s.tcx.tensor_const(&[3, 4], DType::FLOAT32);
    for i in (0..n).rev() {
        s.add_relation(
            relay_core::testing::BROADCAST,
            &[vars[i], c, vars[i + 1]],
            None,
            i as u32,
        );
    }
    s.unify(vars[0], c).unwrap();
    assert_eq!(s.solve(), Outcome::Solved);
    let stats = s.stats();
    assert!(stats.runs < 2 * n as u64, "{stats:?}");
    assert_eq!(stats.wakeups, n as u64 - 1);
    let last = s.resolve(vars[n]);
    assert_eq!(s.tcx.show(last), "Tensor[(3, 4), float32]");
    // Solving again does no work.
    assert_eq!(s.solve(), Outcome::Solved);
    assert_eq!(s.stats(), stats);
}

// ----- snapshots -----

#[test]
fn snapshots_nested_three_deep_roll_back_and_commit_in_any_order() {
    // For each of the eight choices of commit or rollback at each level (innermost
    // first), exactly the changes of the committed levels under no rolled-back level
    // survive.
    for choice in 0..8u32 {
        let mut t = T::new();
        let vars = [t.var("a"), t.var("b"), t.var("c")];
        let values = ["int8", "int16", "int32"].map(|s| t.ty(s));
        let mut snaps = Vec::new();
        for (level, (&v, &value)) in vars.iter().zip(values.iter()).enumerate() {
            snaps.push(t.solver.snapshot());
            t.solver.unify(v, value).unwrap();
            // A relation added at this level too, waiting on a fresh variable.
            let w = t.solver.fresh_ty();
            t.solver
                .add_relation(RelationRef(&NEVER), &[w], None, level as u32);
        }
        let mut kept = [true; 3];
        for level in (0..3).rev() {
            let snap = snaps.pop().unwrap();
            if choice & (1 << level) != 0 {
                t.solver.commit(snap);
            } else {
                t.solver.rollback_to(snap);
                for k in kept.iter_mut().skip(level) {
                    *k = false;
                }
            }
        }
        for level in 0..3 {
            let shown = t.show_resolved(vars[level]);
            let expected = if kept[level] {
                t.solver.tcx.show(values[level])
            } else {
                format!("'t{level}")
            };
            assert_eq!(shown, expected, "choice {choice:03b}, level {level}");
        }
        let waiting = match t.solver.solve() {
            Outcome::Solved => 0,
            Outcome::UnderConstrained(w) => w.len(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            waiting,
            kept.iter().filter(|&&k| k).count(),
            "choice {choice:03b}"
        );
    }
}

#[test]
fn instantiating_a_non_function_is_an_error() {
    let mut s = Solver::new(TyCtx::new());
    let t = s.tcx.scalar(relay_core::DType::INT32);
    let err = s.instantiate(t).expect_err("int32 has no parameters");
    assert_eq!(err, relay_core::InstantiateError::NotAFunction(t));
    assert_eq!(err.to_string(), "only a function type can be instantiated");
}

#[test]
fn a_data_type_without_parameters_is_one_type() {
    let mut s = Solver::new(TyCtx::new());
    let unit = s.tcx.adt("Unit", &[]).unwrap();
    let handle = s.tcx.adt_ty(unit);
    let call = s.tcx.type_call(unit, &[]).unwrap();
    assert_eq!(handle, call);
    assert_eq!(s.tcx.show(handle), "Unit");
    s.unify(handle, call).expect("`Unit` is `Unit`");
}

#[test]
fn a_global_declared_but_never_defined_is_an_error() {
    let tcx = TyCtx::new();
    let mut m = relay_core::expr::Module::new();
    let g = m.declare("later").unwrap();
    let callee = m.global_ref(g);
    let call = m.call(callee, &[]);
    let f = m.func(&[], &[], None, call);
    m.define("main", f).unwrap();
    let typed = relay_core::infer::infer(tcx, &relay_core::adt::AdtTable::default(), &m);
    let messages: Vec<&str> = typed.errors().iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["`@later` is declared but never defined"]);
}

/// `fn [A](A) -> (A, A)` applied thirty times: a type of thirty-one nodes whose text has
/// 2^31 - 1 types. It prints up to the limit and says how much is left (it took 4 GiB).
#[test]
fn a_type_that_shares_its_parts_prints_cut_at_the_limit() {
    let mut tcx = TyCtx::new();
    let mut t = tcx.scalar(DType::FLOAT32);
    for _ in 0..30 {
        t = tcx.tuple(&[t, t]);
    }
    assert_eq!(relay_core::print::tree_size(&tcx, t), (1 << 31) - 1);
    assert_eq!(
        tcx.show_within(t, 40),
        format!(
            "{}float32, float32), ... 2147483615 nodes more{}",
            "(".repeat(30),
            ")".repeat(29)
        )
    );
    let shown = tcx.show(t);
    assert!(
        shown.len() < relay_core::print::SHOW_LIMIT + 100,
        "{}",
        shown.len()
    );
    assert!(
        shown
            .trim_end_matches(')')
            .ends_with(" 2147482137 nodes more"),
        "{shown}"
    );
    // A shape is cut between its dimensions, a tensor type copied whole only within the
    // limit.
    let src = format!("(Tensor[({}), float32], int8)", vec!["7"; 20].join(", "));
    let mut scope = TypeScope::new();
    let t = parse_type(&mut tcx, &mut scope, &src).unwrap();
    assert_eq!(
        tcx.show_within(t, 30),
        "(Tensor[(7, 7, 7, 7, 7, 7, 7, ... 14 nodes more)])"
    );
    assert_eq!(tcx.show_within(t, usize::MAX), src);
}
