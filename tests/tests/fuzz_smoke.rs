//! A bounded fuzz run on stable Rust, inside `cargo test`: a seeded generator of inputs
//! (the programs of `examples/` mutated, and calls of every registered operator with
//! random arguments and attributes), each parsed, inferred and its signatures printed
//! through the library. Whatever the input, the outcome is a module or errors: a panic
//! fails the test with the input that caused it. (The faults of issue 17 were found so,
//! with `cargo fuzz`; this keeps the search running in every test run, a few thousand
//! inputs at a time, each of them small.)

use relay_core::op::{AttrType, OpDef};
use relay_core::{adt, infer::infer, registry, text::parse_module, TyCtx};
use relay_ops as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A small random number generator (xorshift64*), seeded: the same inputs every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Parses, infers and prints `src`; a panic anywhere fails the test, showing `src`.
fn check(src: &str) {
    if catch_unwind(AssertUnwindSafe(|| outcome(src))).is_err() {
        panic!("checking this input panicked:\n----\n{src}\n----");
    }
}

/// Numbers at the edges of what the checker computes with.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "65536",
    "65537",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
];

/// Pieces of the text format to splice into programs.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    "=",
    "->",
    "%x",
    "%y",
    "@main",
    "@f",
    "fn",
    "let",
    "if",
    "else",
    "match",
    "match?",
    "_",
    "Nil",
    "Cons",
    "Tensor",
    "float32",
    "int32",
    "?",
    "n",
    "ref",
    "1f",
    "0i64",
    "True",
    "(?, ?)",
    "(n, 3)",
    "Tensor[(-1), float32]",
    "%x.0",
    "\u{0}",
    "\u{feff}",
    "é",
    "/*",
    "*/",
    "//",
    "\n",
];

/// The examples' programs.
fn examples() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("spec")] {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("the examples")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "relay"))
            .collect();
        paths.sort();
        for p in paths {
            out.push(std::fs::read_to_string(&p).expect("a readable example"));
        }
    }
    assert!(out.len() > 10, "the examples are found");
    out
}

/// A char boundary of `s` at or before `i`.
fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `src` with one to four random edits.
fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut s = src.to_string();
    for _ in 0..1 + rng.below(4) {
        let at = boundary(&s, rng.below(s.len() + 1));
        let len = 1 + rng.below(12);
        let end = boundary(&s, at + len);
        match rng.below(7) {
            // Delete a range.
            0 => {
                s.replace_range(at..end, "");
            }
            // Duplicate a range.
            1 => {
                let piece = s[at..end].to_string();
                s.insert_str(end, &piece);
            }
            // Insert a token.
            2 => {
                let token: &&str = rng.pick(TOKENS);
                s.insert_str(at, token);
            }
            // Replace a number with one at the edges.
            3 => {
                if let Some(d) = s[at..].find(|c: char| c.is_ascii_digit()) {
                    let d = at + d;
                    let e = s[d..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(s.len(), |e| d + e);
                    let n = rng.pick(NUMBERS);
                    s.replace_range(d..e, n);
                }
            }
            // Swap two ranges' contents (a range moved).
            4 => {
                let piece = s[at..end].to_string();
                s.replace_range(at..end, "");
                let to = boundary(&s, rng.below(s.len() + 1));
                s.insert_str(to, &piece);
            }
            // Nest an expression: wrap a range in a tuple or a call.
            5 => {
                let wrap = rng.pick(&["(", "(", "@id(", "fn () { "]);
                let close = match *wrap {
                    "fn () { " => " }",
                    _ => ",)",
                };
                s.insert_str(end, close);
                s.insert_str(at, wrap);
            }
            // Repeat a range many times (wide inputs).
            _ => {
                let piece = s[at..end].to_string();
                s.insert_str(end, &piece.repeat(1 + rng.below(64)));
            }
        }
    }
    s
}

/// A random attribute value of type `ty`.
fn value(rng: &mut Rng, ty: &AttrType) -> String {
    match ty {
        AttrType::Int => rng.pick(NUMBERS).to_string(),
        AttrType::Float => rng
            .pick(&["0f", "0.5f", "1f", "2f", "-1f", "1e300f", "1.5", "3"])
            .to_string(),
        AttrType::Bool => rng.pick(&["True", "False"]).to_string(),
        AttrType::Str => rng
            .pick(&[
                "\"NCHW\"", "\"NHWC\"", "\"end\"", "\"size\"", "\"\"", "\"clip\"",
            ])
            .to_string(),
        AttrType::DType => rng
            .pick(&[
                "\"float32\"",
                "\"int32\"",
                "\"int64\"",
                "\"bool\"",
                "\"\"",
                "\"x\"",
            ])
            .to_string(),
        AttrType::List(item) => {
            let n = rng.below(5);
            let items: Vec<String> = (0..n).map(|_| value(rng, item)).collect();
            format!("[{}]", items.join(", "))
        }
        AttrType::Option(inner) => {
            if rng.chance(4) {
                "None".to_string()
            } else {
                value(rng, inner)
            }
        }
        AttrType::Either(a, b) => {
            if rng.chance(2) {
                value(rng, a)
            } else {
                value(rng, b)
            }
        }
    }
}

/// A random tensor type of rank 0 to 4.
fn tensor(rng: &mut Rng) -> String {
    let rank = rng.below(5);
    let dims: Vec<&str> = (0..rank)
        .map(|_| {
            *rng.pick(&[
                "1",
                "2",
                "3",
                "4",
                "8",
                "?",
                "n",
                "m",
                "0",
                "9223372036854775807",
            ])
        })
        .collect();
    let dtype = rng.pick(&["float32", "float16", "int32", "int64", "bool", "uint8"]);
    format!("Tensor[({}), {dtype}]", dims.join(", "))
}

/// A call of `op` with random arguments and attributes, as a program.
fn op_call(rng: &mut Rng, op: &OpDef) -> String {
    let n = match rng.below(8) {
        0 => op.args.len().saturating_sub(1),
        1 => op.args.len() + 1,
        _ => op.args.len(),
    };
    let params: Vec<String> = (0..n)
        .map(|i| {
            let ty = if rng.chance(3) {
                format!("({}, {})", tensor(rng), tensor(rng))
            } else {
                tensor(rng)
            };
            format!("%a{i}: {ty}")
        })
        .collect();
    let mut args: Vec<String> = (0..n).map(|i| format!("%a{i}")).collect();
    if op.args.len() == 1 && rng.chance(3) {
        // A tuple of the parameters, as `concatenate` takes.
        args = vec![format!("({},)", args.join(", "))];
    }
    for a in op.attrs {
        if rng.chance(3) {
            continue;
        }
        args.push(format!("{}={}", a.name, value(rng, &a.ty)));
    }
    if rng.chance(10) {
        args.push(format!("no_such_attr={}", rng.pick(NUMBERS)));
    }
    format!(
        "def @main({}) {{ {}({}) }}\n",
        params.join(", "),
        op.name,
        args.join(", ")
    )
}

#[test]
fn mutated_examples_never_panic() {
    let examples = examples();
    let mut rng = Rng(0x5EED_1234_ABCD_0017);
    for _ in 0..5000 {
        let src = rng.pick(&examples).clone();
        check(&mutate(&mut rng, &src));
    }
}

#[test]
fn random_operator_calls_never_panic() {
    let reg = registry::global().expect("the registry");
    let ops = reg.ops();
    assert!(ops.len() > 50, "the operators are registered");
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for _ in 0..5000 {
        let op = *rng.pick(ops);
        check(&op_call(&mut rng, op));
    }
}

/// The signatures and errors of `src` (parsed, inferred and printed), unknowns
/// unnumbered (`'t12` is `'t`: their numbers come from a counter that differs between
/// two checks).
fn outcome(src: &str) -> String {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
    let Ok(module) = parse_module(src, &mut tcx, &mut adts) else {
        return "no parse".into();
    };
    let typed = infer(tcx, &adts, &module);
    let mut text = String::new();
    for g in module.globals() {
        if let Some(id) = module.global(&g.name) {
            text += &typed.show(typed.global_ty(id));
            text.push('\n');
        }
    }
    for e in typed.errors() {
        assert!(!e.message.is_empty(), "an error without a message");
        text += &e.message;
        text.push('\n');
    }
    let mut out = String::new();
    let mut digits_of_unknown = false;
    for c in text.chars() {
        if digits_of_unknown && c.is_ascii_digit() {
            continue;
        }
        digits_of_unknown = c == 't' && out.ends_with('\'');
        out.push(c);
    }
    out
}

#[test]
fn random_operator_calls_agree_compiled_and_interpreted() {
    // Each call checked with the clauses' compiled runs, then with every clause
    // interpreted: the same signatures and the same errors.
    let reg = registry::global().expect("the registry");
    let ops = reg.ops();
    let mut rng = Rng(0x00C0_FFEE_1234_5678);
    for _ in 0..3000 {
        let op = *rng.pick(ops);
        let src = op_call(&mut rng, op);
        let compiled = outcome(&src);
        relay_core::__private::fast::set_enabled(false);
        let interpreted = outcome(&src);
        relay_core::__private::fast::set_enabled(true);
        assert_eq!(compiled, interpreted, "on\n{src}");
    }
}
