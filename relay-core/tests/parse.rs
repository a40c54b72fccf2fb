//! The text-format parser: programs parsed and type-checked, exact parse errors, and deep
//! nesting on a small stack.

use relay_core::expr::{ExprKind, Span};
use relay_core::infer::{infer, Typed};
use relay_core::testing::on_small_stack;
use relay_core::text::{parse_module, ParseError};
use relay_core::AttrValue;

mod text_common;
use text_common::*;

/// The one dimension of each `Tensor[(d), ..]` in the result type of signature `sig` (what
/// follows its parameters' list), in order.
fn result_dims(sig: &str) -> Vec<u64> {
    let result = &sig[sig.find(") -> ").unwrap() + 5..];
    result
        .split("Tensor[(")
        .skip(1)
        .map(|t| t[..t.find(')').unwrap()].parse().unwrap())
        .collect()
}

/// Parses and infers `src`; returns every global's printed type, in source order.
fn check(src: &str) -> Vec<String> {
    let (m, tcx, adts) = parse(src);
    let typed: Typed = infer(tcx, &adts, &m);
    let errors: Vec<_> = typed.errors().iter().map(|e| e.message.clone()).collect();
    assert_eq!(errors, Vec::<String>::new(), "type errors in {src}");
    m.globals()
        .iter()
        .map(|g| {
            let id = m.global(&g.name).unwrap();
            format!("@{}: {}", g.name, typed.show(typed.global_ty(id)))
        })
        .collect()
}

/// Parses `src` expecting errors; returns them as `lo..hi: message`.
fn errors(src: &str) -> Vec<String> {
    let (mut tcx, mut adts) = setup();
    match parse_module(src, &mut tcx, &mut adts) {
        Ok(_) => panic!("parsed without an error: {src}"),
        Err(errs) => errs
            .iter()
            .map(|ParseError { span, message, .. }| format!("{}..{}: {message}", span.lo, span.hi))
            .collect(),
    }
}

#[test]
fn identity_with_header_and_comments() {
    let src = IDENTITY;
    assert_eq!(check(src), ["@id: fn [A](A) -> A"]);
}

#[test]
fn let_chains_graph_bindings_and_infix() {
    let src = LETS;
    assert_eq!(
        check(src),
        ["@f: fn (Tensor[(n, 3), float32], Tensor[(3), float32]) -> Tensor[(n, 3), float32]"]
    );
}

#[test]
fn the_spec_plus_with_an_explicit_shape_argument() {
    // The spec's `@plus<s : Shape>` and its call `plus<(10, 10)>(%a, %b)`, in both the
    // spec's angle brackets and TVM's square brackets.
    let src = PLUS;
    assert_eq!(
        check(src),
        [
            "@plus: fn [s: Shape](Tensor[s, float32], Tensor[s, float32]) -> Tensor[s, float32]",
            "@main: fn (Tensor[(10, 10), float32], Tensor[(10, 10), float32]) -> (Tensor[(10, 10), float32], Tensor[(10, 10), float32])",
        ]
    );
}

#[test]
fn the_spec_plus_exactly_as_written_without_a_result_type() {
    // Callees are typed and solved before their callers, so the call instantiates `s`
    // in a type whose result is already known.
    let src = PLUS_NO_RESULT;
    assert_eq!(
        check(src),
        [
            "@main: fn (Tensor[(10, 10), float32], Tensor[(10, 10), float32]) -> Tensor[(10, 10), float32]",
            "@plus: fn [s: Shape](Tensor[s, float32], Tensor[s, float32]) -> Tensor[s, float32]",
        ]
    );
}

#[test]
fn a_small_mlp_with_a_symbolic_batch() {
    let src = MLP;
    assert_eq!(
        check(src),
        ["@mlp: fn (Tensor[(n, 784), float32], Tensor[(128, 784), float32], Tensor[(128), float32], Tensor[(10, 128), float32]) -> Tensor[(n, 10), float32]"]
    );
}

#[test]
fn list_sum_in_the_spec_notation() {
    // The spec's `data` declaration of a registered type is accepted as written.
    let src = LIST_SUM;
    assert_eq!(check(src), ["@list_sum: fn (List[int32]) -> int32"]);
}

#[test]
fn map_in_tvm_notation() {
    let src = MAP;
    assert_eq!(
        check(src),
        [
            "@map: fn [A, B](fn (A) -> B, List[A]) -> List[B]",
            "@double: fn (List[int32]) -> List[int32]",
        ]
    );
}

#[test]
fn first_and_second_opt_with_nested_patterns() {
    let src = NESTED_PATTERNS;
    assert_eq!(
        check(src),
        [
            "@first: fn [a](List[a]) -> Optional[a]",
            "@second_opt: fn [a](Optional[List[a]]) -> Optional[a]",
        ]
    );
}

#[test]
fn numbers_and_numbers2_declared_in_the_source() {
    let src = NUMBERS;
    assert_eq!(
        check(src),
        [
            "@sum: fn (Numbers) -> int32",
            "@sum2: fn (Numbers2) -> int32",
            "@main: fn () -> (int32, int32)",
        ]
    );
    // The two are distinct types.
    let (m, tcx, adts) = parse(&format!("{src}\ndef @bad() {{ @sum(Empty2()) }}"));
    let typed = infer(tcx, &adts, &m);
    assert_eq!(typed.errors().len(), 1, "{:?}", typed.errors());
}

#[test]
fn mutual_recursion_in_any_order_and_shadowing() {
    let src = SHADOWING;
    assert_eq!(
        check(src),
        [
            "@even: fn (int32) -> bool",
            "@odd: fn (int32) -> bool",
            "@shadow: fn (float32) -> int64",
        ]
    );
}

#[test]
fn literals_tuples_closures_and_refs() {
    let src = LITERALS_AND_REFS;
    assert_eq!(
        check(src),
        [
            "@lits: fn () -> (int32, int64, int16, float32, float16, float32, bool, uint8, float32, float64, ())",
            "@refs: fn (Tensor[(4), float32]) -> (Tensor[(4), float32], (Tensor[(4), float32],))",
        ]
    );
}

#[test]
fn operator_attributes_are_read() {
    let src = r#"
def @c(%x, %w) {
  nn.conv2d(%x, %w, strides=[2, 2], channels=64, data_layout="NHWC", epsilon=1e-5f,
            keepdims=True, axis=None)
}
"#;
    let (m, _, _) = parse(src);
    let f = m
        .global_def(m.global("c").unwrap())
        .func
        .expect("`@c` is defined");
    let ExprKind::Func(func) = &m.expr(f).kind else {
        panic!("a function")
    };
    let ExprKind::Call { attrs, parts } = &m.expr(func.body).kind else {
        panic!("a call")
    };
    assert_eq!(m.args(*parts).len(), 2);
    let attrs = m.attrs(*attrs);
    let shown: Vec<String> = attrs
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    assert_eq!(
        shown,
        [
            "strides=[2, 2]",
            "channels=64",
            "data_layout=\"NHWC\"",
            "epsilon=1e-5",
            "keepdims=True",
            "axis=None",
        ]
    );
    assert_eq!(attrs.unwrap().get("axis"), Some(&AttrValue::None));
    let Span { lo, hi } = m.expr(func.body).span;
    let text = &src[lo as usize..hi as usize];
    assert!(
        text.starts_with("nn.conv2d(%x") && text.ends_with("axis=None)"),
        "{text}"
    );
}

/// A `let` spans its statement, read by the fast path (`let %x = op(..);` of an operator
/// met before) or the general one (an annotation, graph form, an expression statement, a
/// chain in a branch), and the value of a chain is its result (`Module::tail`).
#[test]
fn a_let_spans_its_statement_and_a_chain_ends_in_its_result() {
    let src = r#"
def @f(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) {
  let %x = add(%a, %b);
  let %v = add(%x, %b);
  let %y: Tensor[(2), float32] = multiply(%v, %a);
  %z = %a + %y;
  let %w = if (True) { let %t = %b; %t } else { %a };
  (%z, %w);
  { %w };
  %y
}
"#;
    let (m, _, _) = parse(src);
    let text = |e| {
        let Span { lo, hi } = m.span_of(e);
        &src[lo as usize..hi as usize]
    };
    let f = m.global_def(m.global("f").unwrap()).func.unwrap();
    let ExprKind::Func(func) = &m.expr(f).kind else {
        panic!("a function")
    };
    let mut statements = Vec::new();
    let mut e = func.body;
    while let ExprKind::Let { value, body, .. } = m.expr(e).kind {
        statements.push(text(e));
        if let ExprKind::If(_, then, _) = m.expr(value).kind {
            assert_eq!(text(then), "let %t = %b;");
            assert_eq!(text(m.tail(then)), "%t");
        }
        e = body;
    }
    assert_eq!(
        statements,
        [
            "let %x = add(%a, %b);",
            "let %v = add(%x, %b);",
            "let %y: Tensor[(2), float32] = multiply(%v, %a);",
            "%z = %a + %y;",
            "let %w = if (True) { let %t = %b; %t } else { %a };",
            "(%z, %w);",
            "{ %w };",
        ]
    );
    assert_eq!(m.tail(func.body), e);
    assert_eq!(text(e), "%y");
    assert_eq!(m.tail(e), e);
}

/// An `if` with `else if` is an operand like any other: here an infix operator's right one
/// (it used to be delivered past the operator's frame, a panic).
#[test]
fn else_if_as_an_infix_operand() {
    let src = "def @f(%c: bool, %a: int32) { %a + if (%c) { %a } else if (%c) { %a } else { %a } }";
    let (m, _, _) = parse(src);
    let f = m.global_def(m.global("f").unwrap()).func.unwrap();
    let ExprKind::Func(func) = &m.expr(f).kind else {
        panic!("a function")
    };
    let ExprKind::Call { parts, .. } = &m.expr(func.body).kind else {
        panic!("a call of `add`")
    };
    let [_, rhs] = m.args(*parts) else {
        panic!("two operands")
    };
    let ExprKind::If(_, _, otherwise) = m.expr(*rhs).kind else {
        panic!("an `if`")
    };
    assert!(matches!(m.expr(otherwise).kind, ExprKind::If(..)));
    let Span { lo, hi } = m.span_of(func.body);
    let body = &src[src.find("%a +").unwrap()..src.rfind(" }").unwrap()];
    assert_eq!(&src[lo as usize..hi as usize], body);
}

#[test]
fn infix_precedence_and_associativity() {
    // `a - b - c * d < e` is `((a - b) - (c * d)) < e`.
    let src = "def @p(%a, %b, %c, %d, %e) { %a - %b - %c * %d < %e }";
    let (mut tcx, mut adts) = setup();
    // `less` is not declared by this test: the error names the operator.
    let errs = parse_module(src, &mut tcx, &mut adts).unwrap_err();
    assert_eq!(
        errs.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(),
        ["unknown operator `less` (what an infix operator stands for)"]
    );
    assert_eq!(errs[0].span, Span { lo: 29, hi: 51 });
}

#[test]
fn name_errors_are_all_reported_with_their_spans() {
    let src = "def @f(%x) { nn.foo(%x, %y) }\ndef @g() { @h(Foo) }";
    assert_eq!(
        errors(src),
        [
            "13..19: unknown operator `nn.foo`",
            "24..26: unbound local variable `%y`",
            "41..43: unknown global `@h`",
            "44..47: unknown constructor `Foo`",
        ]
    );
}

#[test]
fn syntax_errors_say_what_was_expected() {
    assert_eq!(
        errors("def @f(%x) { copy(%x }"),
        ["21..22: expected `,` or `)`, found `}`"]
    );
    assert_eq!(
        errors("def @f() { 1q8 }"),
        ["11..14: bad literal suffix `q8` in `1q8`: expected `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`, `f`, `f16`, `f32` or `f64`"]
    );
    assert_eq!(
        errors("def @f() { 1.5i32 }"),
        ["11..17: `1.5i32` is a float literal with an integer suffix: expected a float suffix (`f`, `f16`, `f32` or `f64`)"]
    );
    assert_eq!(
        errors("def @f() { let %x = 1 %x }"),
        ["22..24: expected `;` after the bound value, found `%x`"]
    );
    assert_eq!(
        errors("def @f(%x: Tensor[(2), floot32]) { %x }"),
        ["23..30: `floot32` is not a data type (expected one of bool, int8-64, uint8-64, float16/32/64, bfloat16, optionally with lanes as in `float32x4`)"]
    );
    assert_eq!(
        errors("def @f() { \"abc }"),
        ["11..17: unterminated string: expected `\"`"]
    );
    assert_eq!(
        errors("def @f() { $ }"),
        ["11..12: expected a token, found the character `$`"]
    );
    assert_eq!(
        errors("fn @f() { 1 }"),
        ["0..2: expected `def`, `type` or `data`, found `fn`"]
    );
}

#[test]
fn independent_syntax_errors_in_several_definitions() {
    let src = "def @a() { (1, }\ndef @b() { 2 }\ndef @c() { if 1 }\ndef @d() { @b() }";
    assert_eq!(
        errors(src),
        [
            "15..16: expected an expression, found `}`",
            "46..47: expected `(`, found `1`",
        ]
    );
}

#[test]
fn a_duplicate_definition_names_both_places() {
    let src = "def @f() { 1 }\n\ndef @f() { 2 }";
    assert_eq!(
        errors(src),
        ["20..22: `@f` is defined twice: first at line 1, column 5, again at line 3, column 5"]
    );
}

#[test]
fn types_nested_too_deeply_are_a_clean_error() {
    let depth = 100_000;
    let src = format!(
        "def @f(%x: {}int32{}) {{ %x }}",
        "(".repeat(depth),
        ",)".repeat(depth)
    );
    on_small_stack(move || {
        let errs = errors(&src);
        assert_eq!(errs.len(), 1);
        assert!(
            errs[0].ends_with("type nested more than 512 levels deep"),
            "{errs:?}"
        );
    });
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_call_nested_a_hundred_thousand_deep_on_a_small_stack() {
    on_small_stack(|| {
        const DEPTH: usize = 100_000;
        let mut src = String::from("def @deep(%x: Tensor[(2, 2), int64]) {\n");
        src.push_str(&"copy(".repeat(DEPTH));
        src.push_str("%x");
        src.push_str(&")".repeat(DEPTH));
        src.push_str("\n}\n");
        assert_eq!(
            check(&src),
            ["@deep: fn (Tensor[(2, 2), int64]) -> Tensor[(2, 2), int64]"]
        );
        // Nested tuples, parentheses, blocks and infix operators too.
        let src = format!(
            "def @t(%x: int32) {{ {}%x{} }}",
            "({(%x + ".repeat(DEPTH),
            ",)})".repeat(DEPTH)
        );
        let (m, _, _) = parse(&src);
        assert_eq!(m.globals().len(), 1);
    });
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_million_chained_lets_on_a_small_stack() {
    on_small_stack(|| {
        const N: usize = 1_000_000;
        let mut src = String::from("def @chain(%v0: Tensor[(n, 768), float32]) {\n");
        for i in 1..N {
            let line = if i % 2 == 0 {
                format!("  let %v{i} = copy(%v{});\n", i - 1)
            } else {
                format!("  %v{i} = copy(%v{});\n", i - 1)
            };
            src.push_str(&line);
        }
        src.push_str(&format!("  %v{}\n}}\n", N - 1));
        let (m, _, _) = parse(&src);
        let (exprs, vars, _) = m.sizes();
        assert_eq!(vars, N);
        // A `let`, a call and the mention of the previous variable (compact) per line.
        let mentions = m.mention_count();
        assert_eq!(mentions, N - 1);
        assert!(exprs + mentions > 3 * (N - 1), "{exprs} + {mentions}");
    });
}

// ----- TVM 0.0.5 forms the parser reads besides its own (issue 6) -----

#[test]
fn else_if_chains() {
    let src = "def @pick(%a: bool, %b: bool, %c: bool) {\n  if (%a) { 1 } else if (%b) { 2 } else if (%c) { 3 } else { 4 }\n}";
    assert_eq!(check(src), ["@pick: fn (bool, bool, bool) -> int32"]);
    // The branches of every `if` in the chain must agree.
    let (m, tcx, adts) =
        parse("def @f(%a: bool, %b: bool) { if (%a) { 1 } else if (%b) { 2f } else { 3 } }");
    let typed = infer(tcx, &adts, &m);
    let errors: Vec<_> = typed.errors().iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        errors,
        [
            "the branches of `if` differ: dtype: float32 vs int32",
            "the branches of `if` differ: dtype: int32 vs float32",
        ]
    );
}

#[test]
fn spec_pattern_variables_without_a_sigil() {
    // The spec's `@sum` over `Numbers` exactly as 002 writes it: `case Single(x) { x }`.
    let src = "data Numbers {\n  Empty : () -> Numbers\n  Single : (Tensor[(), int32]) -> Numbers\n  Pair : (Tensor[(), int32], Tensor[(), int32]) -> Numbers\n}\ndef @sum(%n : Numbers[]) -> Tensor[(), int32] {\n  match(%n) {\n    case Empty() { 0 }\n    case Single(x) { x }\n    case Pair(x, y) { x + y }\n  }\n}";
    assert_eq!(check(src), ["@sum: fn (Numbers) -> int32"]);
    // The names are scoped to their arm.
    let bad = src.replace("case Empty() { 0 }", "case Empty() { y }");
    assert_eq!(errors(&bad)[0], "223..224: unknown operator `y`");
}

#[test]
fn spec_angle_brackets_in_function_types() {
    let src = "def @apply(%f: fn<a>(a) -> a, %x: int32) { %f(%x) }\ndef @k(%f: fn<t1 : Type, s: Shape>(Tensor[s, float32], t1) -> t1) { %f }";
    assert_eq!(
        check(src),
        [
            "@apply: fn (fn [a](a) -> a, int32) -> int32",
            "@k: fn (fn [t1, s: Shape](Tensor[s, float32], t1) -> t1) -> fn [t1, s: Shape](Tensor[s, float32], t1) -> t1",
        ]
    );
}

#[test]
fn match_on_a_bare_tuple_scrutinee() {
    let src = "def @both(%a: Optional[int32], %b: Optional[int32]) {\n  match (%a, %b) {\n    (Some(%x), Some(%y)) => %x + %y,\n    _ => 0,\n  }\n}";
    assert_eq!(
        check(src),
        ["@both: fn (Optional[int32], Optional[int32]) -> int32"]
    );
    // A parenthesized single scrutinee is still the value itself, not a tuple.
    let one = "def @one(%a: Optional[int32]) { match ((%a)) { Some(%x) => %x, None => 0 } }";
    assert_eq!(check(one), ["@one: fn (Optional[int32]) -> int32"]);
}

/// TVM's printed forms: a printed expression (`free_var` lines, bindings, a result) is
/// `@main` over its free variables; a constant is typed by the `/* ty=T */` after it; a
/// metadata section ends the module. What cannot be read says why.
#[test]
fn printed_expressions_constants_and_metadata() {
    let src = "free_var %x: Tensor[(1, 4), float32];\n%0 = nn.relu(%x) /* ty=Tensor[(1, 4), float32] */;\nfree_var %b: Tensor[(4), float32];\nadd(%0, %b)";
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(1, 4), float32], Tensor[(4), float32]) -> Tensor[(1, 4), float32]"]
    );
    // A function alone is `@main` itself.
    assert_eq!(
        check("fn (%x: int32) -> int32 { %x }"),
        ["@main: fn (int32) -> int32"]
    );
    assert_eq!(
        errors("free_var %x: Tensor[(2), float32];\ndef @f() { () }"),
        ["35..38: expected an expression, found `def`"]
    );
    // TVM prints a `free_var` in the scope of its first use, and mentions it after that
    // scope too: each is a parameter of `@main`, in order.
    assert_eq!(
        check(
            "free_var %x: int32;\n%0 = fn (%y: int32) { free_var %z: int32; add(%y, %z) };\n%0(%x)"
        ),
        ["@main: fn (int32, int32) -> int32"]
    );
    let src = "free_var %c: bool;\n%0 = if (%c) {\n  free_var %y: float32;\n  %y\n} else {\n  1f\n};\n(%0, %y)";
    assert_eq!(
        check(src),
        ["@main: fn (bool, float32) -> (float32, float32)"]
    );
    assert_eq!(
        errors("def @f() { free_var %y: int32; %y }"),
        ["11..19: free variables are not supported: `free_var` `%y` declares one"]
    );
    let src = "def @f(%x: Tensor[(2, 3), float32]) {\n  add(%x, meta[relay.Constant][0] /* ty=Tensor[(3), float32] */)\n}";
    assert_eq!(
        check(src),
        ["@f: fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]"]
    );
    // Without its type, the reference is an error and skipped: the rest of the definition
    // is read (here, its other error is found too).
    assert_eq!(
        errors("def @f(%x: float32) { add(%x, meta[relay.Constant][0]) + %z }"),
        [
            "30..53: the type of constant `meta[relay.Constant][0]` is not known",
            "57..59: unbound local variable `%z`",
        ]
    );
    assert_eq!(
        errors("def @f(%x: float32) { nn.conv2d(%x, %x, meta[relay.attrs.Conv2DAttrs][0]) }"),
        ["40..72: the attributes `meta[relay.attrs.Conv2DAttrs][0]` are in a metadata section, which this text does not have"]
    );
    // The metadata section TVM prints at the end of a module ends it.
    assert_eq!(
        errors("def @f() { %q }\n#[metadata]\n{\"root\": 1, \"nodes\": [{\"def\": 2}]}"),
        ["11..13: unbound local variable `%q`"]
    );
}

/// The first pass searches a window of the text at a time: items, braces and comments
/// are found wherever the windows end (a program of about 550 KB, whose pieces fall at
/// every offset of a window, and bodies longer than a window).
#[test]
fn items_are_found_across_the_first_pass_windows() {
    let mut src = String::new();
    let mut expected = Vec::new();
    for k in 0..2000 {
        // Padding of every length from 0 to 99, so the pieces move through the windows.
        let pad = "x".repeat(k % 100);
        src.push_str(&format!(
            "def @f{k}(%x: int32) -> int32 {{ /* }} def @no{k}() {{ {pad} */ %x }}\n\
             // }} type T{k} {{ {pad}\n"
        ));
        expected.push(format!("@f{k}: fn (int32) -> int32"));
        if k % 500 == 250 {
            // A body longer than a window with nothing the first pass looks for.
            let lets: String = (0..4000).map(|i| format!("let %v{i} = %x;\n")).collect();
            src.push_str(&format!("def @g{k}(%x: int32) -> int32 {{\n{lets}%x\n}}\n"));
            expected.push(format!("@g{k}: fn (int32) -> int32"));
        }
    }
    assert!(src.len() > 500_000);
    assert_eq!(check(&src), expected);
}

/// Definitions are read in one pass, in order: a global or data type may be used before
/// its definition, a later definition shadows an earlier source's global for every
/// mention of its own source, and errors come in the order of the text.
#[test]
fn definitions_are_read_in_one_pass() {
    // Later definitions and data types.
    let src = "def @main(%x: int32) -> int32 { let %y = add(%x, %x); %y }\n\
               type Box { Box(int32) }\n\
               def @unbox(%b: Box) -> int32 { match (%b) { Box(%v) => %v } }";
    assert_eq!(
        check(src),
        ["@main: fn (int32) -> int32", "@unbox: fn (Box) -> int32"]
    );
    // It calls a later definition, uses a later data type, or itself.
    assert_eq!(
        check("def @main() -> int32 { @two() }\ndef @two() -> int32 { 2 }"),
        ["@main: fn () -> int32", "@two: fn () -> int32"]
    );
    assert_eq!(
        check("def @main() -> Box { Box(1) }\ntype Box { Box(int32) }"),
        ["@main: fn () -> Box"]
    );
    assert_eq!(
        check("def @f(%n: int32) -> int32 { if (True) { %n } else { @f(%n) } }"),
        ["@f: fn (int32) -> int32"]
    );
    // Errors, and the recovery after them, in the order of the text.
    assert_eq!(
        errors("def @main() -> int32 { %nope }\ndef @g() -> int32 { %also }\ndef @main() -> int32 { 1 }"),
        [
            "23..28: unbound local variable `%nope`",
            "51..56: unbound local variable `%also`",
            "63..68: `@main` is defined twice: first at line 1, column 5, again at line 3, column 5",
        ]
    );
    // It calls an earlier source's global, which a later definition shadows: the call
    // is to the later definition.
    let lib = "def @map(%x: int32) -> int32 { %x }";
    let main = format!(
        "// {}\ndef @main() -> float32 {{ @map(1f) }}\ndef @map(%x: float32) -> float32 {{ %x }}",
        "-".repeat(200)
    );
    let (mut tcx, mut adts) = setup();
    let m = relay_core::text::parse_sources(&[("lib", lib), ("main", &main)], &mut tcx, &mut adts)
        .expect("parses");
    assert_eq!(m.global_callees(), vec![vec![], vec![2], vec![]]);
    let typed = infer(tcx, &adts, &m);
    assert!(typed.errors().is_empty(), "{:?}", typed.errors());
    // After a source whose last definition broke off with its type parameter bound: the
    // first definition of the next has only the data types in scope.
    let lib = "def @f[A](%x: A) -> A { %x %x }";
    let main = format!("// {}\ndef @main(%y: A) -> A {{ %y }}", "-".repeat(200));
    let (mut tcx, mut adts) = setup();
    let r = relay_core::text::parse_sources_recovering(
        &[("lib", lib), ("main", &main)],
        &mut tcx,
        &mut adts,
    );
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["expected `}`, found `%x`", "unknown type `A`"]);
    // Defined again.
    assert_eq!(
        errors("def @main() -> int32 { 1 }\ndef @main() -> int32 { 2 }"),
        ["31..36: `@main` is defined twice: first at line 1, column 5, again at line 2, column 5"]
    );
}

#[test]
fn item_words_inside_names_and_bodies_are_not_items() {
    // `def`, `type` and `data` as names, after `%`, `@` and `.`, inside longer words, in
    // strings and comments: only the real items start definitions.
    let src = "def @data(%def: int32, %type: int32, %xdata: int32) -> int32 { %def }\n\
               /* def @nope() { () } */ // type T { }\n\
               def @typed(%t: int32) -> int32 {\n  let %data = @data(%t, %t, %t);\n  %data\n}";
    assert_eq!(
        check(src),
        [
            "@data: fn (int32, int32, int32) -> int32",
            "@typed: fn (int32) -> int32"
        ]
    );
}

/// Each global's callees, in the order met, skipping the bodies that mention no global
/// (the pruning must not lose a mention nested deep or one in a shared subtree).
#[test]
fn global_callees_are_found_at_any_depth() {
    let src = r#"
def @a(%x: int32) -> int32 { %x }
def @b(%x: int32) -> int32 {
  let %y = %x;
  if (True) { @a(%y) } else { (fn (%z: int32) { @c(@a(%z)) })(%y) }
}
def @c(%x: int32) -> int32 { let %w = (%x, @b); %w.0 }
def @d(%x: int32) -> int32 { (%x, %x).1 }
"#;
    let (m, _, _) = parse(src);
    assert_eq!(
        m.global_callees(),
        vec![vec![], vec![0, 2, 0], vec![1], vec![]]
    );
    let (m, _, _) = parse("def @main(%x: int32) -> int32 { let %y = (%x, %x); %y.0 }");
    assert_eq!(m.global_callees(), vec![Vec::<usize>::new()]);
    // A chain's `let`s are built before their bodies: mentions in the bodies, in the
    // chain's result and in a chain inside a bound value are all found.
    let src = r#"
def @a(%x: int32) -> int32 { %x }
def @b(%x: int32) -> int32 {
  let %y = { let %p = %x; let %q = @a(%p); %q };
  let %z = %y;
  %z;
  @a(@c(%z))
}
def @c(%x: int32) -> int32 { let %w = %x; let %v = %w; @b(%v) }
"#;
    let (m, _, _) = parse(src);
    assert_eq!(m.global_callees(), vec![vec![], vec![2, 0, 0], vec![1]]);
}

/// A variable keeps the span current when it was made, whatever it is: its `%name`
/// (whose end the name gives), empty, or another (kept aside).
#[test]
fn variables_keep_their_spans() {
    let mut m = relay_core::expr::Module::new();
    let spans = [
        (Span { lo: 10, hi: 14 }, "abc"),
        (Span { lo: 7, hi: 7 }, "abc"),
        (Span { lo: 0, hi: 0 }, "_"),
        (Span { lo: 20, hi: 40 }, "x"),
        (Span { lo: 3, hi: 4 }, "long_name"),
        (
            Span {
                lo: u32::MAX - 2,
                hi: u32::MAX,
            },
            "y",
        ),
        (
            Span {
                lo: u32::MAX - 1,
                hi: u32::MAX,
            },
            "zz",
        ),
    ];
    let mut tcx = relay_core::TyCtx::new();
    let unit = tcx.tuple(&[]);
    // With and without an annotation (which shares a word with the empty span's mark).
    let vars: Vec<_> = spans
        .iter()
        .enumerate()
        .map(|(k, &(s, n))| m.at(s).var(n, (k % 2 == 0).then_some(unit)))
        .collect();
    for (k, (&v, &(s, n))) in vars.iter().zip(&spans).enumerate() {
        let ann = m.var_decl(v).ann();
        assert_eq!(
            (m.var_span(v), m.var_name(v), ann),
            (s, n, (k % 2 == 0).then_some(unit))
        );
    }
    // As the parser makes them.
    let src = "def @f(%a: int32, %bb) { let %c = %a; %c; (%bb, %c) }";
    let (m, _, _) = parse(src);
    let at =
        |v: relay_core::expr::VarId| &src[m.var_span(v).lo as usize..m.var_span(v).hi as usize];
    let f = m.globals()[0].func.unwrap();
    let ExprKind::Func(func) = &m.expr(f).kind else {
        panic!("a function")
    };
    assert_eq!(
        func.params.iter().map(|&p| at(p)).collect::<Vec<_>>(),
        ["%a", "%bb"]
    );
    let ExprKind::Let { var, body, .. } = m.expr(func.body).kind else {
        panic!("a let")
    };
    assert_eq!(at(var), "%c");
    // `%c;` binds `_` to the statement's expression.
    let ExprKind::Let { var, .. } = m.expr(body).kind else {
        panic!("a let")
    };
    assert_eq!((m.var_name(var), at(var)), ("_", "%c"));
}

/// A module built in Rust whose global mention is shared by two bodies.
#[test]
fn global_callees_see_a_shared_mention() {
    let mut m = relay_core::expr::Module::new();
    let f = m.declare("f").unwrap();
    let r = m.global_ref(f);
    let t = m.tuple(&[r]);
    let g1 = m.proj(t, 0);
    let g2 = m.tuple(&[t, t]);
    m.define("g", g1).unwrap();
    m.define("h", g2).unwrap();
    assert_eq!(m.global_callees(), vec![vec![], vec![0], vec![0, 0]]);
}

/// The fast paths for simple `let`s and parameters read what the grammar reads (the same
/// text with comments, which they leave to the grammar), and leave the same errors, on
/// the forms they read and on the near misses they must leave to the grammar.
#[test]
fn simple_lets_are_read_as_the_grammar_reads_them() {
    use relay_core::testing::{commented, reading};
    let kinds = [
        "Tensor[(768, 768), float32]",
        "Tensor[(768, 768), float16]",
        "Tensor[(768, 768, 2), float32]",
        "Tensor[(768), float32]",
        "Tensor[(3072, 768), float32]",
        "Tensor[(768, 3072), float32]",
        "Tensor[(768, 1536), float32]",
        "Tensor[(768, 768), int32]",
        "Tensor[(1, 2, 3, 4), float32]",
        "Tensor[(1, 2, 3), float32]",
    ];
    let params: Vec<String> = (0..40)
        .map(|i| format!("%p{i}: {}", kinds[i % kinds.len()]))
        .collect();
    let many = format!("def @many({}) {{ %p39 }}", params.join(",\n  "));
    let programs = [
        r#"def @f(%x: Tensor[(n, 4), float32], %w: Tensor[(8, 4), float32]) {
  let %a = nn.dense(%x, %w);
  let %b = nn.dense(%x, %w, units=8);
  let %c = nn.dense(%x,%w,units=8) ;
  let %a = add(%a, %b);
  let %d = add( %a ,
     %c );
  let %e = nn.relu(%d);
  let %f = nn.conv2d(%e, %e, strides=[2, 2], data_layout="NHWC");
  let %g = nn.conv2d(%e, %e, strides=[2, 2], data_layout="NHWC");
  let %h = nn.relu(%g) /* a comment */;
  let %i: Tensor[(n, 8), float32] = nn.relu(%h);
  let %j = add(%i, %i).0;
  let %k = add(%j, copy(%j));
  let %l = add(%k, (%k));
  let %m = add(%l, %l) + %l;
  let %n = nn.relu(%m)
  ;
  let %o = multiply(%n, %n);
  let %p = subtract(%o, %n);
  let %q = multiply(%p, %o);
  let %r = equal(%q, %q);
  let %s = subtract(%q, %p);
  %s
}"#,
        // Parameters of types met before, with blanks, a comment, a scope that changes.
        r#"def @p(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32] , %c:Tensor[(2, 3), float32],
  /* c */ %d: Tensor[(2, 3), float32], %e: Tensor[(2, 3), float32], %f: Tensor[(2, 3), float16],
  %h: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] { %a }
def @q[A](%x: A, %y: A, %z: Tensor[(2, 3), float32], %w: Tensor[(2, 3), float32]) -> A { %x }
def @r[A](%x: A, %y: A, %z: Tensor[(2, 3), float32]) -> A { %x }
def @s(%a: Tensor[(2, 3), float32], %a: Tensor[(2, 3), float32]) { %a }"#,
        "def @t(%a: float32, %b: float32, %c float32) { %a }",
        // More kinds of parameter types than are kept at hand, some alike in their first
        // sixteen bytes, in turn.
        many.as_str(),
        // A space that is Rust's but not the lexer's before the `)` of a list read before.
        "def @w(%x: Tensor[(n, 4), float32], %y: Tensor[(8, 4), float32]) {\n  let %a = nn.dense(%x, %y, units=8);\n  let %b = nn.dense(%x, %y, units=8\u{a0});\n  %b\n}",
        "def @w(%x: Tensor[(n, 4), float32], %y: Tensor[(8, 4), float32]) {\n  let %a = nn.dense(%x, %y, units=8);\n  let %b = nn.dense(%x, %y, units=8\u{b});\n  %b\n}",
        "def @w(%x: Tensor[(n, 4), float32], %y: Tensor[(8, 4), float32]) {\n  let %a = nn.dense(%x, %y, units=8);\n  let %b = nn.dense(%x, %y, units=8\u{2028});\n  %b\n}",
        "def @v(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]x) { %a }",
        "def @u(%a: float32, %b: float32,, %c: float32) { %a }",
        // Errors: the grammar reports them, whichever path met the statement.
        "def @g(%x: float32) {\n  let %a = copy(%x);\n  let %b = copy(%y);\n  let %c = add(%a, %a, units=3);\n  %c\n}",
        "def @h(%x: float32) {\n  let %a = copy(%x);\n  let %b = copy(%a)\n  %b\n}",
        "def @k(%x: float32) {\n  let %a = copy(%x);\n  let %b = copy(%a, %a,);\n  let = copy(%a);\n  %b\n}",
    ];
    for src in programs {
        let (mut tcx, mut adts) = setup();
        let fast = reading(src, &mut tcx, &mut adts);
        let (mut tcx, mut adts) = setup();
        // (Less the comments that an error quoting the text shows.)
        let grammar = reading(&commented(src), &mut tcx, &mut adts).replace("/**/", "");
        assert_eq!(fast, grammar, "in {src}");
    }
}

/// Names resolve to their latest binding in scope, however many names there are and
/// however they shadow each other: a generated program of thousands of `let`s over a
/// pool of names, with inner functions whose parameters shadow outer names. Each binder
/// has a type of its own length, so the types inferred show which binder each mention
/// reached; they must be the ones a plain scope model computes.
#[test]
fn mentions_resolve_to_the_latest_binding_in_scope() {
    use std::collections::HashMap;
    struct Gen {
        seed: u64,
        next_dim: u64,
        next_fn: u64,
        src: String,
    }
    impl Gen {
        fn rand(&mut self, n: u64) -> u64 {
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            self.seed % n
        }
        /// Statements then a final tuple of mentions; returns the dimensions the tuple's
        /// type shows, in order.
        fn body(
            &mut self,
            scope: &mut HashMap<String, Vec<Vec<u64>>>,
            depth: u32,
            lets: u32,
        ) -> Vec<u64> {
            let mut bound = Vec::new();
            let mut shown = Vec::new();
            for _ in 0..lets {
                let name = format!("v{}", self.rand(1500));
                if depth < 2 && self.rand(40) == 0 {
                    // An inner function whose parameter shadows `name`.
                    let d = self.next_dim;
                    self.next_dim += 1;
                    let f = format!("f{}", self.next_fn);
                    self.next_fn += 1;
                    self.src.push_str(&format!(
                        "let %{f} = fn (%{name}: Tensor[({d}), float32]) {{\n"
                    ));
                    scope.entry(name.clone()).or_default().push(vec![d]);
                    let inner = self.body(scope, depth + 1, 30);
                    scope.get_mut(&name).unwrap().pop();
                    self.src.push_str("};\n");
                    // `%f` mentioned later shows its parameter, then its result.
                    let mut dims = vec![d];
                    dims.extend(inner);
                    scope.entry(f.clone()).or_default().push(dims);
                    bound.push(f);
                    continue;
                }
                let target = format!("v{}", self.rand(1500));
                let dims = match scope.get(&target).and_then(|s| s.last()) {
                    Some(dims) => {
                        self.src.push_str(&format!("let %{name} = %{target};\n"));
                        dims.clone()
                    }
                    None => {
                        let p = self.rand(50);
                        self.src.push_str(&format!("let %{name} = %p{p};\n"));
                        vec![p]
                    }
                };
                scope.entry(name.clone()).or_default().push(dims);
                bound.push(name);
            }
            self.src.push('(');
            for k in 0..20 {
                let target = format!("v{}", self.rand(1500));
                if let Some(dims) = scope.get(&target).and_then(|s| s.last()) {
                    shown.extend(dims.iter().copied());
                    self.src.push_str(&format!("%{target}, "));
                } else if k == 0 {
                    shown.push(0);
                    self.src.push_str("%p0, ");
                }
            }
            self.src.push_str(")\n");
            for name in bound.iter().rev() {
                scope.get_mut(name).unwrap().pop();
            }
            shown
        }
    }
    let mut g = Gen {
        seed: 0x9e37_79b9_7f4a_7c15,
        next_dim: 50,
        next_fn: 0,
        src: String::new(),
    };
    let params: Vec<String> = (0..50)
        .map(|p| format!("%p{p}: Tensor[({p}), float32]"))
        .collect();
    g.src = format!("def @main({}) {{\n", params.join(", "));
    let expected = g.body(&mut HashMap::new(), 0, 4000);
    g.src.push('}');
    let dims = result_dims(&check(&g.src).pop().unwrap());
    assert_eq!(dims, expected);
}

/// Parameters mentioned in their order (the lookup guesses the next one) resolve to
/// their binding, and to a later binding that shadows one, inside inner functions too.
#[test]
fn parameters_mentioned_in_order_resolve_to_their_binding() {
    let inner_fn = |k: u64| k % 23 == 7 && k + 1 < 100;
    let params: Vec<String> = (0..100)
        .map(|p| format!("%p{p}: Tensor[({p}), float32]"))
        .collect();
    let mut body = String::new();
    let mut dims: Vec<u64> = (0..100).collect();
    let mut shown = Vec::new();
    for k in 0..100u64 {
        if k % 17 == 5 && k + 3 < 100 {
            // `%p(k+3)` shadowed by what `%p(k+1)` means now.
            body.push_str(&format!("let %p{} = %p{};\n", k + 3, k + 1));
            dims[(k + 3) as usize] = dims[(k + 1) as usize];
        }
        if inner_fn(k) {
            // An inner function whose parameters are mentioned in order, then not.
            body.push_str(&format!(
                "let %f{k} = fn (%p{k}: Tensor[(500), float32], %q: Tensor[(501), float32]) {{ (%p{k}, %q, %p{}) }};\n",
                k + 1
            ));
            shown.extend([500, 501, dims[(k + 1) as usize]]);
            body.push_str(&format!("let %g{k} = %f{k};\n"));
        }
        body.push_str(&format!("let %x{k} = %p{k};\n"));
        shown.push(dims[k as usize]);
    }
    let mentions: Vec<String> = (0..100)
        .map(|k| {
            if inner_fn(k) {
                format!("%x{k}, %g{k}")
            } else {
                format!("%x{k}")
            }
        })
        .collect();
    let src = format!(
        "def @main({}) {{\n{body}({})\n}}",
        params.join(", "),
        mentions.join(", ")
    );
    let got = result_dims(&check(&src).pop().unwrap());
    // Each `%g` shows its function type: parameters (500, 501), then the result.
    let mut want = Vec::new();
    let mut inner = shown.iter();
    for k in 0..100 {
        if inner_fn(k) {
            let (a, b, c) = (inner.next(), inner.next(), inner.next());
            let x = inner.next();
            want.push(*x.unwrap());
            want.extend([500, 501, *a.unwrap(), *b.unwrap(), *c.unwrap()]);
        } else {
            want.push(*inner.next().unwrap());
        }
    }
    assert_eq!(got, want);
}

/// The guess of the next parameter is taken only for a parameter still bound and not
/// shadowed: a parameter of an inner function that has ended, or one a `let` shadows,
/// is not the binding of its name (thousands of bindings in between push both out of
/// the cache of recent ones).
#[test]
fn a_guessed_parameter_must_be_bound_and_not_shadowed() {
    let fill = |prefix: &str, from: &str| {
        let mut s = format!("let %{prefix}0 = %{from};\n");
        for i in 1..5000 {
            s.push_str(&format!("let %{prefix}{i} = %{prefix}{};\n", i - 1));
        }
        s
    };
    let src = format!(
        "def @main(%a: Tensor[(10), float32], %b: Tensor[(11), float32], %c: Tensor[(12), float32]) {{
  let %f = fn (%a: Tensor[(20), float32], %b: Tensor[(21), float32]) {{
    {}
    let %w = %a;
    %w
  }};
  {}
  let %r = %b;
  let %b = %c;
  {}
  let %s = %a;
  let %t = %b;
  (%r, %t)
}}",
        fill("y", "b"),
        fill("z", "f"),
        fill("u", "b"),
    );
    let ty = check(&src).pop().unwrap();
    assert!(
        ty.ends_with("-> (Tensor[(11), float32], Tensor[(12), float32])"),
        "{ty}"
    );
}

/// A call whose relation failed after binding its result reports its error at every call
/// with those inputs: the failure is not remembered as a result.
#[test]
fn a_failed_relation_is_reported_at_every_call() {
    let src = "def @f(%x: Tensor[(2, 3), float32]) {
  let %a = bind_then_fail(%x);
  let %b = bind_then_fail(%x);
  let %c = bind_then_fail(%x);
  %c
}";
    let (m, tcx, adts) = parse(src);
    let typed = relay_core::infer::infer(tcx, &adts, &m);
    let errors: Vec<String> = typed.errors().iter().map(|e| e.message.clone()).collect();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(
        errors
            .iter()
            .all(|e| e.contains("no matrices, found rank 2")),
        "{errors:#?}"
    );
}

/// A call's argument written as a bare `%name` is a compact mention (no node of the
/// expression arena), read through `mention`, `span_of` and `Typed::ty_of`; any other
/// mention of a variable (a callee, an operand, in parentheses, projected, a `let`'s
/// value) is an `ExprKind::Var` node. Both paths of the parser build them alike.
#[test]
fn bare_names_as_arguments_are_compact_mentions() {
    let src = "def @f(%x: Tensor[(2), float32], %yy: Tensor[(2), float32]) {
  let %a = add(%x, %yy);
  let %b = add( %a , (%x));
  let %c = add(%b + %a, %c_not);
  %c
}";
    let (mut tcx, mut adts) = setup();
    assert!(
        parse_module(src, &mut tcx, &mut adts).is_err(),
        "`%c_not` is unbound"
    );
    let src = src.replace("%c_not", "%x");
    let src = src.as_str();
    let (m, tcx, adts) = parse(src);
    let typed: Typed = infer(tcx, &adts, &m);
    assert!(typed.errors().is_empty(), "{:?}", typed.errors());
    // Every call's arguments, each call's before those of the calls inside them, as
    // (compact, text, type).
    let f = m.global_def(m.global("f").unwrap()).func.unwrap();
    let mut args = Vec::new();
    let mut stack = vec![f];
    let mut kids = Vec::new();
    while let Some(e) = stack.pop() {
        if e.is_mention() {
            kids.clear();
            m.children(e, &mut kids);
            assert!(kids.is_empty());
            continue;
        }
        if let ExprKind::Call { parts, .. } = &m.expr(e).kind {
            for &a in m.args(*parts) {
                let Span { lo, hi } = m.span_of(a);
                let text = &src[lo as usize..hi as usize];
                if let Some(v) = m.mention(a) {
                    assert_eq!(text, format!("%{}", m.var_name(v)));
                }
                args.push((a.is_mention(), text, typed.show(typed.ty_of(&m, a))));
            }
        }
        kids.clear();
        m.children(e, &mut kids);
        stack.extend(kids.iter().rev());
    }
    let t = "Tensor[(2), float32]";
    let compact: Vec<(bool, &str)> = args.iter().map(|(c, s, _)| (*c, *s)).collect();
    assert_eq!(
        compact,
        [
            (true, "%x"),
            (true, "%yy"),
            (true, "%a"),
            (false, "%x"),
            (false, "%b + %a"),
            (true, "%x"),
            // The operands of `+`.
            (false, "%b"),
            (false, "%a"),
        ]
    );
    assert!(args.iter().all(|(_, _, ty)| ty == t), "{args:?}");
    assert_eq!(m.mention_count(), 4);
}

/// TVM's syntax as it prints it: `match %x {` without parentheses, a parenthesized `let`
/// as a value, a constructor without fields as a value (the call, as TVM's parser makes
/// it), `(p)` as a one-field tuple pattern, infinities and NaNs, `int`/`uint`/`float`,
/// function attributes (kept and printed back) and a parameter's attribute block.
#[test]
fn tvm_printed_syntax() {
    assert_eq!(
        check("def @f[A](%l: List[A]) -> List[A] { match %l { Nil => Nil, Cons(%h, %t) => %t } }"),
        ["@f: fn [A](List[A]) -> List[A]"]
    );
    assert_eq!(
        check("def @nil[A]() -> List[A] { Nil }"),
        ["@nil: fn [A]() -> List[A]"]
    );
    assert_eq!(
        check("def @g(%x: int32) {\n  %0 = (let %f = fn (%y: int32) { %y }; %f);\n  %0(%x)\n}"),
        ["@g: fn (int32) -> int32"]
    );
    assert_eq!(
        check("def @p(%t: (int32,)) -> int32 { match (%t) { (%v) => %v } }"),
        ["@p: fn ((int32,)) -> int32"]
    );
    assert_eq!(
        check("def @k() { (inff, -inff16, nanf, 1e-05f, 3i64, 1u8, 1f16) }"),
        ["@k: fn () -> (float32, float16, float32, float32, int64, uint8, float16)"]
    );
    assert_eq!(
        check("def @d(%a: Tensor[(2), int], %b: uint, %c: float, %v: Tensor[(2), float32x4]) { %a }"),
        ["@d: fn (Tensor[(2), int32], uint32, float32, Tensor[(2), float32x4]) -> Tensor[(2), int32]"]
    );
    let src = "def @main(%x {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32]) {\n  %0 = fn (%p0: Tensor[(2), float32], Primitive=1, Compiler=\"mrvl\") -> Tensor[(2), float32] {\n    add(%p0, %p0)\n  };\n  %0(%x)\n}";
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(2), float32]) -> Tensor[(2), float32]"]
    );
    let (m, tcx, adts) = parse(src);
    let printed = relay_core::text::print_module(&m, &tcx, &adts);
    assert!(
        printed.contains("fn (%p0: Tensor[(2), float32], Primitive=1, Compiler=\"mrvl\") -> Tensor[(2), float32] {"),
        "{printed}"
    );
}

/// A program's own data types shadow the registered ones of their names, constructors
/// included (TVM's prelude declares `type Option[A] { Some(A), None }`); TVM's name
/// `Option` is `Optional` where no data type has it; `extern type` declares a data type
/// without constructors.
#[test]
fn data_types_of_the_program_shadow_the_registered_ones() {
    let src = "type Optional[A] { Some(A), None }\n\
               def @f(%x: Optional[int32]) -> int32 { match %x { Some(%v) => %v, None => 0 } }";
    assert_eq!(check(src), ["@f: fn (Optional[int32]) -> int32"]);
    let (m, tcx, adts) = parse(src);
    let printed = relay_core::text::print_module(&m, &tcx, &adts);
    assert!(
        printed.starts_with("#[version = \"0.0.5\"]\ntype Optional[A] {"),
        "{printed}"
    );
    assert_eq!(
        check("def @g(%x: Option[int32]) -> Option[int32] { %x }"),
        ["@g: fn (Optional[int32]) -> Optional[int32]"]
    );
    assert_eq!(
        check("extern type Storage\ndef @s(%x: Storage) -> Storage { %x }"),
        ["@s: fn (Storage) -> Storage"]
    );
    assert_eq!(
        errors("type T { A }\ntype T { B }"),
        ["18..19: data type `T` is declared twice"]
    );
}

/// A `let` whose value starts with a function literal sees its own name, as TVM binds
/// it (the loops TVM prints are such closures); another `let` sees the binding before.
#[test]
fn a_let_of_a_function_may_call_itself() {
    let src = "def @main(%n: int32) -> int32 {\n  let %loop = fn (%i: int32) -> int32 { if (equal(%i, 10)) { %i } else { %loop(add(%i, 1)) } };\n  %loop(%n)\n}";
    assert_eq!(check(src), ["@main: fn (int32) -> int32"]);
    let src = "def @main(%x: int32) -> int32 { let %x = add(%x, 1); %x }";
    assert_eq!(check(src), ["@main: fn (int32) -> int32"]);
}

/// A constant of TVM's metadata section is typed by its tensor there (data type and
/// shape from the tensor's header), before any `/* ty=.. */`; a section that is not
/// TVM's JSON, or a constant it does not have, is an error that says so.
#[test]
fn metadata_constants() {
    let meta = r#"#[metadata]
{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]},
 {"type_key": "Array", "data": [3]},
 {"type_key": "relay.Constant", "attrs": {"_checked_type_": "0", "data": "0", "span": "0"}}],
 "b64ndarrays": ["P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA="],
 "attrs": {"tvm_version": "0.8.0"}}"#;
    let src = format!("def @main() {{\n  meta[relay.Constant][0]\n}}\n{meta}");
    assert_eq!(check(&src), ["@main: fn () -> Tensor[(2, 3), float32]"]);
    let src = format!("def @main() {{\n  meta[relay.Constant][1]\n}}\n{meta}");
    assert_eq!(
        errors(&src),
        ["16..39: the metadata section has no `relay.Constant` 1"]
    );
    let src = "def @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n{ nope";
    assert_eq!(
        errors(src),
        [
            "16..39: the type of constant `meta[relay.Constant][0]` is not known",
            "56..56: the metadata section is not JSON: key must be a string",
        ]
    );
}

/// `_` (an incomplete type) wherever an annotation may be, inside function and tuple
/// types too: each an unknown of its own, solved like an unannotated position.
#[test]
fn incomplete_types_are_solved() {
    let src = "def @f(%x: Tensor[(2), float32], %y: (int32, _)) -> _ {\n  let %z: fn (_) -> _ = fn (%a: _) { add(%a, %x) };\n  (%z(%x), %y.1)\n}\ndef @g(%v: Tensor[(2), float32]) { @f(%v, (1, 2f)) }";
    assert_eq!(
        check(src),
        [
            "@f: fn (Tensor[(2), float32], (int32, float32)) -> (Tensor[(2), float32], float32)",
            "@g: fn (Tensor[(2), float32]) -> (Tensor[(2), float32], float32)"
        ]
    );
}

/// Polymorphic function types of different arity unify as in TVM: the surplus type
/// parameters of the larger become unknowns, and the `if` has the smaller's type.
#[test]
fn polymorphic_functions_of_different_arity_unify() {
    let src = "def @h[A, B, C](%a: A, %b: B) -> C { @h(%a, %b) }\n\
               def @same[A](%x: A, %y: A) -> A { %x }\n\
               def @f(%c: bool) { if (%c) { @h } else { @same } }\n\
               def @g(%c: bool) { if (%c) { @same } else { @h } }";
    assert_eq!(
        check(src),
        [
            "@h: fn [A, B, C](A, B) -> C",
            "@same: fn [A](A, A) -> A",
            "@f: fn (bool) -> fn [A](A, A) -> A",
            "@g: fn (bool) -> fn [A](A, A) -> A"
        ]
    );
}

/// A parameter declared twice is an error at the second, naming the first; an error in
/// the version header does not hide the next item (or report the header's `]` again).
#[test]
fn duplicate_parameters_and_header_errors() {
    assert_eq!(
        errors("def @main(%x: float32, %x: int32) { %x }"),
        ["23..25: parameter `%x` is declared twice"]
    );
    assert_eq!(
        errors("def @f() { fn (%a: int32, %b: int32, %a: int32) { %a } }"),
        ["37..39: parameter `%a` is declared twice"]
    );
    assert_eq!(
        errors("#[version = \"0.0.5\"]\n$\ndef @f() { %q }"),
        [
            "21..22: expected a token, found the character `$`",
            "34..36: unbound local variable `%q`"
        ]
    );
}

/// Inputs that were quadratic in their size: 100,000 duplicate definitions (each error
/// names two places by line: a line index, not a count from the start), 100,000 type
/// parameters of one global, 2,000 unknown names in one body (each did go over every
/// name in scope for a "did you mean": the first 50 do, which is all that is shown).
#[test]
fn error_places_and_suggestions_are_linear() {
    let dups = "def @f() { () }\n".repeat(100_000);
    let errs = errors(&dups);
    assert_eq!(errs.len(), 99_999);
    assert_eq!(
        errs[99_998],
        "1599988..1599990: `@f` is defined twice: first at line 1, column 5, again at line 100000, column 5"
    );
    let params: Vec<String> = (0..100_000).map(|i| format!("T{i}")).collect();
    let src = format!("def @g[{}]() {{ () }}", params.join(", "));
    assert_eq!(check(&src).len(), 1);
    // (Each of them one edit from the parameter: every one would get a suggestion.)
    let names = vec!["%weights"; 2_000];
    let src = format!("def @h(%weight: int32) {{ ({}) }}", names.join(", "));
    let (mut tcx, mut adts) = setup();
    let errs = relay_core::text::parse_module(&src, &mut tcx, &mut adts).unwrap_err();
    assert_eq!(errs.len(), 2_000);
    let helped = errs.iter().filter(|e| e.help.is_some()).count();
    assert_eq!(helped, 50);
    assert_eq!(errs[49].help.as_deref(), Some("did you mean `%weight`?"));
}

/// Each definition starts from the data types' scope without copying it (20,000 data
/// types and 20,000 definitions: a copy each was 400 million entries copied).
#[test]
fn many_definitions_over_many_data_types_are_linear() {
    let mut src = String::new();
    for i in 0..20_000 {
        src.push_str(&format!("type T{i} {{ C{i} }}\n"));
    }
    for i in 0..20_000 {
        src.push_str(&format!("def @f{i}(%x: T{i}) -> T{i} {{ %x }}\n"));
    }
    let sigs = check(&src);
    assert_eq!(sigs.len(), 20_000);
    assert_eq!(sigs[19_999], "@f19999: fn (T19999) -> T19999");
}

/// A local's name may be dotted, as TVM prints a parameter imported from Paddle
/// (`%conv2d_0.w_0`); a dot before a digit is a projection (`%t.0`).
#[test]
fn dotted_local_names() {
    assert_eq!(
        check("def @f(%conv2d_0.w_0: Tensor[(2), float32], %t: (int32, int32)) { (%conv2d_0.w_0, %t.0) }"),
        ["@f: fn (Tensor[(2), float32], (int32, int32)) -> (Tensor[(2), float32], int32)"]
    );
}

#[test]
fn int64_dimensions_are_read_with_their_suffix() {
    // TVM prints a dimension of type int64 with `i64` (shapes from `broadcast_to`'s
    // attribute, ONNX imports): `Tensor[(11i64, 41i64), float32]`.
    let src = r#"#[version = "0.0.5"]
def @main(%x: Tensor[(2i64, 3i64), float32], %y: Tensor[(n, 3i32), float32]) -> Tensor[(2i64, 3), float32] {
  %x
}
"#;
    assert_eq!(
        check(src),
        ["@main: fn [n: ShapeVar](Tensor[(2, 3), float32], Tensor[(n, 3), float32]) -> Tensor[(2, 3), float32]"]
    );
    // Only the two suffixes TVM prints; another is an error at it.
    assert_eq!(
        errors("def @main(%x: Tensor[(2i8), float32]) { %x }"),
        ["23..25: expected `i64`, `i32` or nothing after the dimension `2`, found `i8`"]
    );
}

#[test]
fn names_with_dotted_digits_and_slashes_read_as_tvm_prints_them() {
    // PyTorch's ONNX export names a model's input `input.1`, TorchScript loops `%a.15`;
    // a use is the name when one is bound so, and a projection otherwise (`%t.0`).
    let src = r#"#[version = "0.0.5"]
def @main(%input.1: Tensor[(1, 3), float32], %t: (float32, int8)) {
  let %x.2.5: Tensor[(1, 3), float32] = nn.relu(%input.1);
  let %y = %t.1;
  match ((%x.2.5, %y)) {
    (%a.3, %b) => (%a.3, %b, %t.0),
  }
}
"#;
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(1, 3), float32], (float32, int8)) -> (Tensor[(1, 3), float32], int8, float32)"]
    );
    // A name imported from TensorFlow, with slashes.
    let src = r#"def @main(%bert/embeddings/Gather/resource: Tensor[(30522, 8), float32]) {
  nn.relu(%bert/embeddings/Gather/resource)
}"#;
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(30522, 8), float32]) -> Tensor[(30522, 8), float32]"]
    );
    // `::` from PyTorch's ONNX export, `:0` from TFLite; a `:` before anything else
    // starts the annotation, with or without a blank.
    let src = "def @main(%onnx::Conv_0: float32, %serving_default_input:0:int8, %x:int8) {\n  (%onnx::Conv_0, %serving_default_input:0, %x)\n}";
    assert_eq!(
        check(src),
        ["@main: fn (float32, int8, int8) -> (float32, int8, int8)"]
    );
    // An unbound `%input.1` is a projection of an unbound `%input`.
    assert_eq!(
        errors("def @main(%x: float32) { %input.1 }"),
        ["25..31: unbound local variable `%input`"]
    );
    // A name part after the digits: a PyTorch parameter, `%layer1.0.conv1.weight`.
    let src = "def @main(%layer1.0.conv1.weight: Tensor[(2, 2), float32], %t: (float32, int8)) {\n  (nn.relu(%layer1.0.conv1.weight), %t.0)\n}";
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(2, 2), float32], (float32, int8)) -> (Tensor[(2, 2), float32], float32)"]
    );
    // With `%layer1` bound, `.0` is a projection of it, and a name part cannot follow.
    assert_eq!(
        errors("def @main(%layer1: (float32,)) { %layer1.0.conv1 }"),
        ["43..48: expected a field index after `.`, found `conv1`"]
    );
}

#[test]
fn names_with_minus_and_plus_read_as_tvm_prints_them() {
    // TVM prints a partition for an external compiler named `unsanitary-name++` with
    // parameters named after it, which its own parser rejects; TVM never prints infix
    // arithmetic, so the `-` and `+` are the name's.
    let src = r#"#[version = "0.0.5"]
def @main(%unsanitary-name++_0_i0: Tensor[(2, 3), float32], %unsanitary-name++_0_i1: Tensor[(2, 3), float32]) {
  let %x-1: Tensor[(2, 3), float32] = add(%unsanitary-name++_0_i0, %unsanitary-name++_0_i1);
  (%x-1, %unsanitary-name++_0_i0 - %x-1)
}
"#;
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(2, 3), float32], Tensor[(2, 3), float32]) -> (Tensor[(2, 3), float32], Tensor[(2, 3), float32])"]
    );
    // Infix arithmetic against a bound name is still arithmetic: `%a-%b`, and `%a-1`
    // where `%a-1` is not bound.
    assert_eq!(
        check("def @main(%a: int32, %b: int32) { (%a-%b, %a-1, %a+%b) }"),
        ["@main: fn (int32, int32) -> (int32, int32, int32)"]
    );
    // Bound by neither reading, the name is the whole of it.
    assert_eq!(
        errors("def @main(%x: float32) { %unsanitary-name++_0_i0 }"),
        ["25..48: unbound local variable `%unsanitary-name++_0_i0`"]
    );
}

#[test]
fn the_version_line_of_tvm_0_6_is_read() {
    let src = "v0.0.4\ndef @main(%x: float32) -> float32 { %x }\n";
    assert_eq!(check(src), ["@main: fn (float32) -> float32"]);
}

#[test]
fn the_bindings_of_tvm_0_5_end_with_their_line() {
    // TVM 0.5 printed `v0.0.1` and ended a binding with its line, with no `;`.
    let src = "v0.0.1\nfn (%x: Tensor[(1024,), float32]) {\n  %0 = multiply(%x, %x) /* ty=Tensor[(1024,), float32] */\n  let %y = add(%0, 1f)\n  %y\n}\n";
    assert_eq!(
        check(src),
        ["@main: fn (Tensor[(1024), float32]) -> Tensor[(1024), float32]"]
    );
    // A tuple on the line after a binding is the body, not the arguments of a call.
    let src = "v0.0.1\nfn (%x: float32) {\n  %0 = add(%x, 1f)\n  (%0, %x)\n}\n";
    assert_eq!(check(src), ["@main: fn (float32) -> (float32, float32)"]);
    // A `;` is still read; on one line, a binding needs it.
    let src = "v0.0.1\nfn (%x: float32) {\n  %0 = add(%x, 1f);\n  %0\n}\n";
    assert_eq!(check(src), ["@main: fn (float32) -> float32"]);
    assert_eq!(
        errors("v0.0.1\nfn (%x: float32) { %0 = add(%x, 1f) %0 }"),
        ["43..45: expected `;` after the bound value, found `%0`"]
    );
    // Other versions need the `;`.
    assert_eq!(
        errors("v0.0.4\nfn (%x: float32) {\n  %0 = add(%x, 1f)\n  %0\n}"),
        ["47..49: expected `;` after the bound value, found `%0`"]
    );
}

#[test]
fn a_parameter_attribute_block_printed_for_people_is_skipped() {
    // After PlanDevices, with the metadata not shown, TVM prints a virtual device in full.
    let src = r#"def @main(%x {virtual_device=VirtualDevice(device_type=1, target=Target(kind='llvm', keys={'cpu'}, attrs={'mtriple': "x86_64"}))}: float32) { %x }"#;
    assert_eq!(check(src), ["@main: fn (float32) -> float32"]);
    assert_eq!(
        errors("def @main(%x {virtual_device=VirtualDevice(kind='llvm'}: float32) { %x }"),
        ["13..14: this bracket is not closed (before the end of the text, or by the bracket that ends it)"]
    );
}

#[test]
fn attribute_values_printed_for_people_are_read_as_text() {
    // With the metadata not shown, TVM prints an attributes object or a map between
    // braces, and a function's name between single quotes.
    let src = r#"def @f(%x: Tensor[(1, 4), float32], Composite="c", ConvAttrs={channels=48, data_layout="NCHW1n16c"}, prim_funcs={'f'=meta[tir.PrimFunc][0]}, prim_fn_var='f') -> Tensor[(1, 4), float32] {
  %x
}"#;
    assert_eq!(
        check(src),
        ["@f: fn (Tensor[(1, 4), float32]) -> Tensor[(1, 4), float32]"]
    );
    assert_eq!(
        errors("def @f(%x: float32, a='b) { %x }"),
        ["22..32: unterminated string: expected `'`"]
    );
}
