//! The reference workload of the benchmarks type-checks, and every binding has the type
//! the block says.

use relay_core::expr::{ExprKind, Module};
use relay_core::infer::Typed;
use relay_ops::prelude::check_with_prelude;
use relay_ops::workload::{expected_bindings, transformer, BLOCK, WEIGHTS};

/// The name and type of every binding of the let chain of `@main`, in order.
fn bindings(m: &Module, typed: &Typed) -> Vec<(String, String)> {
    let main = m.global("main").expect("@main");
    let func = m.global_def(main).func.expect("defined");
    let ExprKind::Func(f) = &m.expr(func).kind else {
        panic!("@main is a function")
    };
    let mut found = Vec::new();
    let mut e = f.body;
    while let ExprKind::Let { var, body, .. } = m.expr(e).kind {
        found.push((m.var_name(var).to_string(), typed.show(typed.var_ty(var))));
        e = body;
    }
    found
}

#[test]
fn without_remembered_results_the_types_are_the_same() {
    use relay_core::adt::{self, AdtTable};
    use relay_core::infer::{infer_with, Options};
    use relay_core::text::parse_module;
    use relay_core::TyCtx;
    let src = transformer(100);
    let mut shown = Vec::new();
    for remember_results in [true, false] {
        let mut tcx = TyCtx::new();
        let mut adts: AdtTable = adt::load(&mut tcx).expect("data types");
        let m = parse_module(&src, &mut tcx, &mut adts).expect("parses");
        let typed = infer_with(tcx, &adts, &m, Options { remember_results });
        assert!(typed.errors().is_empty(), "{:?}", typed.errors());
        let mut tys = bindings(&m, &typed);
        let main = m.global("main").expect("@main");
        tys.push((
            "@main".into(),
            typed.show_within(typed.global_ty(main), usize::MAX),
        ));
        let stats = typed.solver.stats();
        shown.push((tys, stats.remembered > 0));
    }
    assert_eq!(shown[0].0, shown[1].0);
    assert_eq!((shown[0].1, shown[1].1), (true, false));
}

#[test]
fn every_binding_of_the_workload_at_1000_operators_has_its_type() {
    let ops = 1000;
    let checked = check_with_prelude(&transformer(ops), &[]);
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    let (module, typed) = checked.typed.as_ref().expect("typed");
    let main = module.global("main").expect("@main");
    let func = module.global_def(main).func.expect("defined");
    let found = bindings(module, typed);
    let expected: Vec<(String, String)> = expected_bindings(ops)
        .map(|(name, ty)| (name, ty.to_string()))
        .collect();
    assert_eq!(found.len(), ops);
    assert_eq!(found, expected);
    // The result is the last binding; the parameters are the input and every block's
    // weights.
    let blocks = ops.div_ceil(BLOCK.len());
    let sig = typed.show_within(typed.global_ty(main), usize::MAX);
    let last = &expected.last().expect("bindings").1;
    assert!(sig.ends_with(&format!(") -> {last}")), "{sig}");
    let ExprKind::Func(f) = &module.expr(func).kind else {
        unreachable!()
    };
    assert_eq!(f.params.len(), 1 + blocks * WEIGHTS.len());
}

#[test]
fn a_workload_with_a_wrong_weight_points_at_it() {
    let text = transformer(18).replace(
        "%W1_0: Tensor[(3072, 768), float32]",
        "%W1_0: Tensor[(3072, 767), float32]",
    );
    let checked = check_with_prelude(&text, &[]);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    // One error: the operators after it, left without a type, are not reported again.
    assert_eq!(
        messages,
        ["the contraction dimensions of `nn.dense` differ: dimension 1 of the data is 768 and dimension 1 of the weight is 767"]
    );
    let at = checked.errors[0].span;
    assert_eq!(&text[at.lo as usize..at.hi as usize], "%W1_0");
}

/// The parser's fast path for simple `let`s, which reads almost every statement of the
/// workload, reads the module the grammar reads (the same text with comments, which the
/// fast path leaves to the grammar).
#[test]
fn the_fast_path_reads_what_the_grammar_reads() {
    let src = transformer(200);
    let (fast, grammar) = read_both(&src);
    assert!(
        fast.contains("def @main(%x: Tensor[(n, 768), float32]"),
        "{fast}"
    );
    assert_eq!(fast, grammar);
}

/// What the reader reads from `src`, and from `src` with comments that leave every
/// statement to the grammar ([`relay_core::testing::reading`]); in error messages, the
/// text quoted as found is left out (a comment changes how much of it is quoted).
fn read_both(src: &str) -> (String, String) {
    use relay_core::adt::{self, AdtTable};
    use relay_core::testing::{commented, reading};
    use relay_core::TyCtx;
    let read = |src: &str| {
        let mut tcx = TyCtx::new();
        let mut adts: AdtTable = adt::load(&mut tcx).expect("data types");
        let text = reading(src, &mut tcx, &mut adts);
        let mut parts = text.split("found `");
        let mut out = parts.next().unwrap_or_default().to_string();
        for part in parts {
            out.push_str("found `..`");
            out.push_str(part.split_once('`').map_or("", |(_, rest)| rest));
        }
        out
    };
    (read(src), read(&commented(src)))
}

/// A tuple of locals as the only argument (`concatenate((%a, %b), axis=1)`) is read by
/// the fast path as the grammar reads it, and its near misses are left to the grammar
/// (a one-field tuple, a trailing comma, more arguments, a projection, an unbound name,
/// a missing comma).
#[test]
fn the_fast_path_reads_a_tuple_argument_as_the_grammar_does() {
    let head = "def @c(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {
  let %a = concatenate((%x, %y), axis=1);
  let %a0 = concatenate((%x, %y), axis=1);\n";
    let statements = [
        "let %b = concatenate(( %a ,%y ) , axis=1);",
        "let %c = concatenate((%a, %y, %a), axis=1) ;",
        "let %d = concatenate((%a, %a));",
        "let %e = concatenate((%a), axis=1);",
        "let %f = concatenate((%a,), axis=1);",
        "let %g = concatenate((%a, %a,), axis=1);",
        "let %h = concatenate((%a, %a), %a);",
        "let %i = concatenate(%a, (%a, %a));",
        "let %j = concatenate((%a, %a).0, axis=1);",
        "let %k = concatenate((%a, (%a)), axis=1);",
        "let %l = concatenate((%a, %a), axis=1).0;",
        "let %m = concatenate((%a, %q), axis=1);",
        "let %n = concatenate((%a %a), axis=1);",
        "let %o = concatenate((%a, %y), axis=0);",
    ];
    for s in statements {
        let src = format!("{head}  {s}\n  %a\n}}");
        let (fast, grammar) = read_both(&src);
        assert_eq!(fast, grammar, "in {s}");
    }
}

mod fast_path_on_mangled_text {
    use proptest::prelude::*;

    /// What an edit inserts: the bytes the fast paths look at, a few others, and
    /// characters that are spaces to Rust but not to the lexer.
    const ALPHABET: &[&str] = &[
        "%", "(", ")", ",", ";", "=", ":", ".", " ", "\n", "/", "*", "#", "\"", "[", "]", "-", "1",
        "let", "_", "x", "W", "\u{b}", "\u{a0}", "\u{2028}", "é",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The workload with random edits (bytes deleted, inserted or replaced, anywhere):
        /// the fast paths read what the grammar reads, or leave the same errors.
        #[test]
        fn the_fast_paths_agree_with_the_grammar(
            edits in proptest::collection::vec((0usize..100_000, 0u8..3, 0usize..ALPHABET.len(), 0usize..3), 1..4)
        ) {
            let text = relay_ops::workload::transformer(36);
            // At or next to a byte the fast paths decide on, anywhere in the text.
            let marks: Vec<usize> = text
                .bytes()
                .enumerate()
                .filter(|&(_, c)| b"%(),;=:".contains(&c))
                .map(|(i, _)| i)
                .collect();
            let mut bytes = text.into_bytes();
            for (pick, kind, c, shift) in edits {
                let at = (marks[pick % marks.len()] + shift).saturating_sub(1);
                let at = at.min(bytes.len());
                match kind {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => {
                        bytes.splice(at..at, ALPHABET[c].bytes());
                    }
                    _ if at < bytes.len() => {
                        bytes.splice(at..at + 1, ALPHABET[c].bytes());
                    }
                    _ => {}
                }
            }
            // Keep it text: an edit that split a character is dropped.
            let src = String::from_utf8_lossy(&bytes).into_owned();
            let (fast, grammar) = super::read_both(&src);
            prop_assert_eq!(fast, grammar);
        }
    }
}
