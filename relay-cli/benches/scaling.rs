//! The scaling check of issue 17: each input family that was superlinear (rows 10 to 14)
//! at three sizes, four times apart, checked end to end by the `relay` binary (parse,
//! inference, signatures, diagnostics rendered to stderr), with the growth from one size
//! to the next. Linear is a ratio of about 4 (less where the start-up, some 10 ms, still
//! counts); quadratic would be 16.
//!
//! `cargo bench -p relay-cli --bench scaling` (a filter argument keeps the families whose
//! name contains it). No time is asserted: this reports, it does not fail on a slow
//! machine. It fails only on a panic or an exit code other than 0 or 1.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// An input family: its name, its base size, and the program of a size.
type Family = (&'static str, usize, fn(usize) -> String);

/// How far apart the sizes are.
const STEP: usize = 4;

/// A tuple nested `n` deep around an unannotated parameter that a later binding solves.
fn deep_tuple(n: usize) -> String {
    format!(
        "def @main(%y) {{ let %t = {}%y{}; let %z: float32 = %y; %t }}\n",
        "(".repeat(n),
        ",)".repeat(n)
    )
}

/// `n` nested unannotated functions, applied one argument at a time.
fn nested_lambdas(n: usize) -> String {
    let mut body = String::new();
    for i in 0..n {
        let _ = write!(body, "fn (%a{i}) {{ ");
    }
    body.push_str("%a0");
    body.push_str(&" }".repeat(n));
    format!(
        "def @main(%x: float32) {{ let %f = {body}; %f{} }}\n",
        "(%x)".repeat(n)
    )
}

/// A curried call `n` deep on an unannotated parameter (an error: its type is not
/// determined, and is shown cut).
fn curried_calls(n: usize) -> String {
    format!("def @main(%f, %x: float32) {{ %f{} }}\n", "(%x)".repeat(n))
}

/// `type T { C0, ..., Cn-1 }`.
fn adt(n: usize) -> String {
    let mut s = String::from("type T {\n");
    for i in 0..n {
        let _ = writeln!(s, "  C{i},");
    }
    s.push_str("}\n");
    s
}

/// One ADT with `n` constructors and one global.
fn many_constructors(n: usize) -> String {
    adt(n) + "def @main() -> T { C0 }\n"
}

/// A match of `n` arms, one per constructor.
fn many_arms(n: usize) -> String {
    let mut s = adt(n);
    s.push_str("def @main(%x: T) -> int32 {\n  match (%x) {\n");
    for i in 0..n {
        let _ = writeln!(s, "    C{i} => {i},");
    }
    s.push_str("  }\n}\n");
    s
}

/// `n` separate ADTs of one constructor each.
fn many_adts(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let _ = writeln!(s, "type T{i} {{ C{i} }}");
    }
    s.push_str("def @main() -> T0 { C0 }\n");
    s
}

/// One global with `n` type parameters.
fn many_type_params(n: usize) -> String {
    let params: Vec<String> = (0..n).map(|i| format!("A{i}")).collect();
    format!("def @main[{}](%x: A0) -> A0 {{ %x }}\n", params.join(", "))
}

/// `n` identical arms, all but the first unreachable.
fn unreachable_arms(n: usize) -> String {
    let mut s = String::from("def @main(%x: List[int32]) -> int32 {\n  match (%x) {\n");
    for _ in 0..n {
        s.push_str("    _ => 0,\n");
    }
    s.push_str("  }\n}\n");
    s
}

/// `n` definitions of one global (`n - 1` errors).
fn duplicate_defs(n: usize) -> String {
    "def @f() { 0 }\n".repeat(n)
}

/// `n` bindings of names of one length, then `n` mentions of unbound names of that
/// length: each error looks for a name to suggest among them.
fn did_you_mean(n: usize) -> String {
    let mut s = String::from("def @main() {\n");
    for i in 0..n {
        let _ = writeln!(s, "  let %v{i:06} = {i};");
    }
    let wrong: Vec<String> = (0..n).map(|i| format!("%w{i:06}")).collect();
    let _ = writeln!(s, "  ({})\n}}", wrong.join(",\n   "));
    s
}

/// One line: a tuple of `n` unbound names.
fn long_line(n: usize) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("%u{i}")).collect();
    format!("def @main() {{ ({}) }}\n", names.join(", "))
}

/// The families: name (issue 17's row first), base size, program of a size.
const FAMILIES: &[Family] = &[
    ("10 deep tuple nesting", 20_000, deep_tuple),
    ("10 unannotated nested lambdas", 20_000, nested_lambdas),
    ("10 curried calls", 20_000, curried_calls),
    ("11 ADT constructors", 40_000, many_constructors),
    ("11 match arms", 20_000, many_arms),
    ("11 separate ADTs", 40_000, many_adts),
    ("11 type parameters", 40_000, many_type_params),
    ("11 unreachable arms", 40_000, unreachable_arms),
    ("12 duplicate definitions", 40_000, duplicate_defs),
    ("13 did you mean", 20_000, did_you_mean),
    ("14 long-line diagnostics", 32_000, long_line),
];

/// How many times each input is checked (the best time is kept).
const RUNS: usize = 3;

/// The best time of `relay check` on `path`, its exit code and the bytes it printed.
fn time(path: &PathBuf) -> (Duration, i32, usize) {
    let mut best = Duration::MAX;
    let mut last = (0, 0);
    for _ in 0..RUNS {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_relay"))
            .arg("check")
            .arg(path)
            .output()
            .expect("relay runs");
        best = best.min(start.elapsed());
        let code = out.status.code().unwrap_or(-1);
        assert!(
            code == 0 || code == 1,
            "`relay check` exited with {:?} on {}:\n{}",
            out.status,
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        last = (code, out.stdout.len() + out.stderr.len());
    }
    (best, last.0, last.1)
}

fn main() {
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("relay-scaling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let empty = dir.join("empty.relay");
    std::fs::write(&empty, "def @main() { 0 }\n").expect("writes");
    println!(
        "start-up (an empty program): {:.1} ms",
        time(&empty).0.as_secs_f64() * 1e3
    );
    println!(
        "{:<31} {:>8} {:>9} {:>10} {:>5} {:>10} {:>6}",
        "family", "size", "bytes", "time (ms)", "exit", "out bytes", "ratio"
    );
    let start = Instant::now();
    for &(name, base, program) in FAMILIES.iter().filter(|f| f.0.contains(&filter)) {
        let mut previous: Option<f64> = None;
        for k in 0..3 {
            let n = base * STEP.pow(k);
            let src = program(n);
            let path = dir.join("input.relay");
            std::fs::write(&path, &src).expect("writes");
            let (t, code, printed) = time(&path);
            let ms = t.as_secs_f64() * 1e3;
            let ratio = previous.map_or(String::new(), |p| format!("{:.1}", ms / p));
            println!(
                "{:<31} {n:>8} {:>9} {ms:>10.1} {code:>5} {printed:>10} {ratio:>6}",
                name,
                src.len()
            );
            previous = Some(ms);
        }
    }
    println!("total {:.1} s", start.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
}
