//! Times the solver on a chain of `Broadcast` relations (see `benches/solver.rs`).
//! `cargo run --release -p relay-core --example broadcast_chain -- 1000000 reverse`

use relay_core::testing::BROADCAST;
use relay_core::{DType, Kind, Outcome, Solver, TyCtx};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let len: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let reverse = args.next().as_deref() == Some("reverse");
    let start = Instant::now();
    let mut s = Solver::new(TyCtx::new());
    if std::env::var_os("NO_RESERVE").is_none() {
        s.reserve(len, len, 3);
    }
    let n = s.tcx.param("n", Kind::ShapeVar);
    let n = s.tcx.dim_param(n).expect("n is a ShapeVar");
    let c = s.tcx.dims.konst(768);
    let one = s.tcx.dims.konst(1);
    let y = s.tcx.tensor_of(&[n, c], DType::FLOAT32);
    let x0 = s.tcx.tensor_of(&[n, one], DType::FLOAT32);
    let mut xs = Vec::with_capacity(len + 1);
    xs.push(x0);
    for _ in 0..len {
        xs.push(s.fresh_ty());
    }
    let vars_done = start.elapsed();
    let order: Box<dyn Iterator<Item = usize>> = if reverse {
        Box::new((0..len).rev())
    } else {
        Box::new(0..len)
    };
    for i in order {
        s.add_relation(BROADCAST, &[xs[i], y, xs[i + 1]], None, i as u32);
    }
    let built = start.elapsed();
    assert_eq!(s.solve(), Outcome::Solved);
    let total = start.elapsed();
    assert_eq!(s.resolve(xs[len]), y);
    println!(
        "{len} relations ({}): fresh variables {:?}, build {:?}, solve {:?}, total {:?} = {:.1} ns/relation; {:?}",
        if reverse { "reverse order" } else { "program order" },
        vars_done,
        built,
        total - built,
        total,
        total.as_nanos() as f64 / len as f64,
        s.stats()
    );
}
