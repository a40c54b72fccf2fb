//! The module printer: parse → print → parse → print gives the same text and the same
//! inferred global types, for the programs of the parser's tests, deep inputs on a small
//! stack, and a few hundred random small modules.

use relay_core::adt::AdtTable;
use relay_core::expr::Module;
use relay_core::infer::infer;
use relay_core::testing::on_small_stack;
use relay_core::text::print_module;
use relay_core::TyCtx;

mod text_common;
use text_common::*;

/// Every global's inferred type, then every type error, as text.
fn types(m: &Module, tcx: TyCtx, adts: &AdtTable) -> Vec<String> {
    let typed = infer(tcx, adts, m);
    let mut out: Vec<String> = m
        .globals()
        .iter()
        .map(|g| {
            let id = m.global(&g.name).unwrap();
            format!("@{}: {}", g.name, typed.show(typed.global_ty(id)))
        })
        .collect();
    out.extend(
        typed
            .errors()
            .iter()
            .map(|e| format!("error: {}", e.message)),
    );
    out
}

/// Parses, prints, parses the print and prints again: the two prints are equal and the
/// two modules have the same inferred types. Returns the print and the types.
fn round_trip(src: &str) -> (String, Vec<String>) {
    let (m1, tcx1, adts1) = parse(src);
    let p1 = print_module(&m1, &tcx1, &adts1);
    let (m2, tcx2, adts2) = parse(&p1);
    let p2 = print_module(&m2, &tcx2, &adts2);
    assert_eq!(
        p1, p2,
        "printing the printed module changed it; source:\n{src}"
    );
    assert_eq!(m1.globals().len(), m2.globals().len());
    let t1 = types(&m1, tcx1, &adts1);
    let t2 = types(&m2, tcx2, &adts2);
    assert_eq!(t1, t2, "types changed; source:\n{src}\nprinted:\n{p1}");
    (p1, t1)
}

/// `round_trip` for a program that type-checks.
fn round_trip_ok(src: &str) -> String {
    let (p, t) = round_trip(src);
    assert!(
        t.iter().all(|l| !l.starts_with("error")),
        "type errors: {t:?}\nin:\n{src}"
    );
    p
}

#[test]
fn the_parser_tests_programs_round_trip() {
    for src in [
        IDENTITY,
        LETS,
        PLUS,
        PLUS_NO_RESULT,
        MLP,
        LIST_SUM,
        MAP,
        NESTED_PATTERNS,
        NUMBERS,
        SHADOWING,
        LITERALS_AND_REFS,
    ] {
        round_trip_ok(src);
    }
    // Not type-checked (the conv's operands are unconstrained): only the text is compared.
    round_trip(ATTRS);
}

#[test]
fn printed_forms() {
    let p = round_trip_ok(IDENTITY);
    assert_eq!(
        p,
        "#[version = \"0.0.5\"]\ndef @id[A](%x: A) -> A {\n  %x\n}\n"
    );
    let p = round_trip_ok(PLUS);
    assert!(
        p.contains("def @plus[s: Shape](%t1: Tensor[s, float32]"),
        "{p}"
    );
    assert!(p.contains("@plus[(10, 10)](%a, %b)"), "{p}");
    let p = round_trip_ok(LETS);
    assert!(
        p.contains("let %a: Tensor[(n, 3), float32] = add(%x, %y);"),
        "{p}"
    );
    assert!(
        p.contains("let %0 = subtract(multiply(%a, %a), %x);"),
        "{p}"
    );
    let p = round_trip_ok(MLP);
    assert!(p.contains("nn.dense(%2, %w2, units=10)"), "{p}");
    let (p, _) = round_trip(ATTRS);
    assert!(
        p.contains(
            r#"nn.conv2d(%x, %w, strides=[2, 2], channels=64, data_layout="NH\"WC", epsilon=1e-5f, keepdims=True, axis=None)"#
        ),
        "{p}"
    );
    let p = round_trip_ok(NUMBERS);
    assert!(
        p.contains("type Numbers {\n  Empty,\n  Single(int32),"),
        "{p}"
    );
    assert!(p.contains("type Numbers2 {"), "{p}");
    assert!(
        !p.contains("type List"),
        "registered data types are not printed: {p}"
    );
    assert!(p.contains("match? (%n) {"), "{p}");
    assert!(p.contains("Pair2(%x, %y) => add(%x, %y),"), "{p}");
    let p = round_trip_ok(SHADOWING);
    assert!(p.contains("let %x_1 = (%x, 0i64);"), "{p}");
    assert!(p.contains("let %y = %x_1.1;"), "{p}");
    assert!(
        p.contains("{\n    let %x_2 = %x_1.0;\n    %x_2\n  };"),
        "{p}"
    );
    let p = round_trip_ok(LITERALS_AND_REFS);
    assert!(
        p.contains("(0, 0i64, 0i16, 0f, 0f16, 0f, True, 0u8, 0f, 0f64, ())"),
        "{p}"
    );
    assert!(p.contains("let %r = ref(%v);\n  ref_write(%r, %v);"), "{p}");
    assert!(
        p.contains("fn (%i: int32) -> Tensor[(4), float32] {"),
        "{p}"
    );
    assert!(p.contains("(%k(0), (%v,))"), "{p}");
    let p = round_trip_ok(NESTED_PATTERNS);
    assert!(p.contains("Some(Cons(_, Cons(%s, _))) => Some(%s),"), "{p}");
}

#[test]
fn renaming_keeps_meaning() {
    // A renamed binder never takes a name a later mention needs.
    let src = r#"
def @f(%x: int32, %x_1: int32) {
  let %x = add(%x, %x_1);
  let %g = fn (%x_1: int32) { add(%x, %x_1) };
  let %x_1 = %g(%x);
  match ((%x, %x_1)) { (%x, %y) => add(%x, %y), }
}
"#;
    let (p, t) = round_trip(src);
    assert_eq!(t, ["@f: fn (int32, int32) -> int32"]);
    assert!(p.contains("let %x_2 = add(%x, %x_1);"), "{p}");
    assert!(
        p.contains("fn (%x_1_1: int32) {\n    add(%x_2, %x_1_1)"),
        "{p}"
    );
    assert!(p.contains("let %x_1_2 = %g(%x_2);"), "{p}");
    assert!(p.contains("(%x_3, %y) => add(%x_3, %y),"), "{p}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_call_nested_a_hundred_thousand_deep_prints_on_a_small_stack() {
    on_small_stack(|| {
        const DEPTH: usize = 100_000;
        let mut src = String::from("def @deep(%x: Tensor[(2, 2), int64]) {\n");
        src.push_str(&"copy(".repeat(DEPTH));
        src.push_str("%x");
        src.push_str(&")".repeat(DEPTH));
        src.push_str("\n}\n");
        let (_, t) = round_trip(&src);
        assert_eq!(
            t,
            ["@deep: fn (Tensor[(2, 2), int64]) -> Tensor[(2, 2), int64]"]
        );
        // Nested tuples, blocks, projections and functions too (printed only).
        let src = format!(
            "def @t(%x: int32) {{ {}%x{} }}",
            "({(fn (%y) { %y }(%x), ".repeat(DEPTH),
            ",)}).0".repeat(DEPTH)
        );
        let (m, tcx, adts) = parse(&src);
        let p1 = print_module(&m, &tcx, &adts);
        let (m2, tcx2, adts2) = parse(&p1);
        assert_eq!(p1, print_module(&m2, &tcx2, &adts2));
    });
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_million_chained_lets_print_on_a_small_stack() {
    on_small_stack(|| {
        const N: usize = 1_000_000;
        let mut src = String::from("def @chain(%v0: Tensor[(n, 768), float32]) {\n");
        for i in 1..N {
            let line = if i % 2 == 0 {
                format!("  let %v{i} = copy(%v{});\n", i - 1)
            } else {
                format!("  %v = copy(%v{});\n  %v{i} = %v;\n", i - 1)
            };
            src.push_str(&line);
        }
        src.push_str(&format!("  %v{}\n}}\n", N - 1));
        let (m, tcx, adts) = parse(&src);
        let p1 = print_module(&m, &tcx, &adts);
        assert!(
            p1.contains("let %v_1 = copy(%v2);"),
            "shadowed names are renamed"
        );
        let (m2, tcx2, adts2) = parse(&p1);
        assert_eq!(m.sizes(), m2.sizes());
        assert_eq!(p1, print_module(&m2, &tcx2, &adts2));
    });
}

/// A xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const TENSOR: &str = "Tensor[(n, 3), float32]";

/// Random small well-typed programs: locals of tensor and pair types, with shadowing.
struct Gen {
    rng: Rng,
    /// The tensors in scope (names may repeat: the last one is visible).
    tensors: Vec<String>,
    pairs: Vec<String>,
    out: String,
}

impl Gen {
    fn pick(&mut self, names: &[&str]) -> String {
        names[self.rng.below(names.len() as u64) as usize].to_string()
    }

    /// A tensor-valued expression.
    fn tensor(&mut self, depth: u32) {
        let choice = if depth == 0 { 0 } else { self.rng.below(9) };
        match choice {
            0 | 1 => {
                let i = self.rng.below(self.tensors.len() as u64) as usize;
                let n = self.tensors[i].clone();
                self.out.push_str(&format!("%{n}"));
            }
            2 => {
                self.out.push_str("add(");
                self.tensor(depth - 1);
                self.out.push_str(", ");
                self.tensor(depth - 1);
                self.out.push(')');
            }
            3 => {
                self.out.push_str("nn.relu(");
                self.tensor(depth - 1);
                self.out.push(')');
            }
            4 => {
                if self.pairs.is_empty() || self.rng.below(2) == 0 {
                    self.pair(depth - 1);
                } else {
                    let i = self.rng.below(self.pairs.len() as u64) as usize;
                    let n = self.pairs[i].clone();
                    self.out.push_str(&format!("%{n}"));
                }
                let i = self.rng.below(2);
                self.out.push_str(&format!(".{i}"));
            }
            5 => {
                self.out.push_str("if (%c) { ");
                self.tensor(depth - 1);
                self.out.push_str(" } else { ");
                self.tensor(depth - 1);
                self.out.push_str(" }");
            }
            6 => {
                self.out.push('{');
                self.block(depth - 1);
                self.out.push('}');
            }
            7 => {
                let p = self.pick(&["x", "y", "p"]);
                self.out.push_str(&format!("fn (%{p}: {TENSOR}) {{ "));
                self.tensors.push(p);
                self.tensor(depth - 1);
                self.tensors.pop();
                self.out.push_str(" }(");
                self.tensor(depth - 1);
                self.out.push(')');
            }
            _ => {
                self.out.push('(');
                self.tensor(depth - 1);
                self.out.push(')');
            }
        }
    }

    fn pair(&mut self, depth: u32) {
        self.out.push('(');
        self.tensor(depth);
        self.out.push_str(", ");
        self.tensor(depth);
        self.out.push(')');
    }

    /// `let`s and statements, then a tensor.
    fn block(&mut self, depth: u32) {
        let (nt, np) = (self.tensors.len(), self.pairs.len());
        for _ in 0..self.rng.below(4) {
            // Tensors and pairs have names of their own, so that shadowing keeps types.
            let name = self.pick(&["x", "y", "a", "b", "x_1"]);
            match self.rng.below(4) {
                0 => {
                    let name = self.pick(&["t", "u", "t_1"]);
                    self.out.push_str(&format!(" let %{name} = "));
                    self.pair(depth);
                    self.out.push(';');
                    self.pairs.push(name);
                }
                1 => {
                    self.tensor(depth);
                    self.out.push(';');
                }
                2 => {
                    self.out.push_str(&format!(" let %{name}: {TENSOR} = "));
                    self.tensor(depth);
                    self.out.push(';');
                    self.tensors.push(name);
                }
                _ => {
                    self.out.push_str(&format!(" %{name} = "));
                    self.tensor(depth);
                    self.out.push(';');
                    self.tensors.push(name);
                }
            }
        }
        self.out.push(' ');
        self.tensor(depth);
        self.out.push(' ');
        // Scopes end: what the block bound is no longer visible.
        self.tensors.truncate(nt);
        self.pairs.truncate(np);
    }
}

#[test]
fn random_small_modules_round_trip() {
    let mut g = Gen {
        rng: Rng(0x9E37_79B9_7F4A_7C15),
        tensors: Vec::new(),
        pairs: Vec::new(),
        out: String::new(),
    };
    let mut renamed = 0;
    for case in 0..300 {
        g.out.clear();
        let defs = 1 + g.rng.below(3);
        for d in 0..defs {
            g.tensors = vec!["x".into(), "y".into()];
            g.pairs.clear();
            g.out.push_str(&format!(
                "def @f{d}(%x: {TENSOR}, %y: {TENSOR}, %c: bool) {{"
            ));
            let depth = 1 + g.rng.below(4) as u32;
            g.block(depth);
            g.out.push_str("}\n");
        }
        let src = g.out.clone();
        let (p, t) = round_trip(&src);
        let renames = ["%y_1", "%a_1", "%b_1", "%x_2", "%u_1", "%t_2", "%p_1"];
        renamed += usize::from(renames.iter().any(|r| p.contains(r)));
        assert_eq!(t.len() as u64, defs, "case {case}: {t:?}\n{src}");
        for line in &t {
            assert!(
                line.ends_with(&format!("-> {TENSOR}")),
                "case {case}: {line}\n{src}"
            );
        }
    }
    assert!(renamed > 30, "shadowing is exercised: {renamed} cases");
}
