//! Times the phases of checking the reference workload: `cargo run --release -p relay-ops
//! --example workload_phases -- 100000` (best of several runs; `REPS=k` runs k times,
//! `REMEMBER=0` turns remembered relation results off).

use relay_core::adt::{self, AdtTable};
use relay_core::infer::{infer_with, Options};
use relay_core::text::parse_module;
use relay_core::TyCtx;
use std::time::Instant;

fn main() {
    let ops: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    // `REMEMBER=0`: every relation runs (no remembered results).
    let remember_results = std::env::var("REMEMBER").map_or(true, |v| v != "0");
    let src = relay_ops::workload::transformer(ops);
    let reps = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or((1_000_000 / ops).clamp(1, 50));
    let mut best = [f64::MAX; 4];
    for _ in 0..reps {
        let t0 = Instant::now();
        let mut tcx = TyCtx::new();
        let mut adts: AdtTable = adt::load(&mut tcx).expect("data types");
        let t1 = Instant::now();
        let m = parse_module(&src, &mut tcx, &mut adts).expect("parses");
        let t2 = Instant::now();
        let typed = infer_with(tcx, &adts, &m, Options { remember_results });
        let t3 = Instant::now();
        assert!(typed.errors().is_empty(), "{:?}", typed.errors());
        if std::env::var("EACH").is_ok() {
            eprintln!("{:.2} ms", (t3 - t0).as_secs_f64() * 1e3);
        }
        for (i, d) in [t1 - t0, t2 - t1, t3 - t2, t3 - t0].iter().enumerate() {
            best[i] = best[i].min(d.as_secs_f64());
        }
    }
    let per = |s: f64| s * 1e9 / ops as f64;
    println!(
        "N = {ops}: setup {:.2} ms, parse {:.2} ms ({:.0} ns/op), infer {:.2} ms ({:.0} ns/op), total {:.2} ms ({:.0} ns/op)",
        best[0] * 1e3,
        best[1] * 1e3,
        per(best[1]),
        best[2] * 1e3,
        per(best[2]),
        best[3] * 1e3,
        per(best[3])
    );
}
