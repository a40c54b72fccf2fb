//! Times the solver on a chain of `Broadcast` relations (the workload of
//! `benches/solver.rs`, see `relay_core::testing::broadcast_chain`).
//!
//! `cargo run --release -p relay-core --example broadcast_chain -- 1000000 [reverse]`

use relay_core::testing::broadcast_chain;
use relay_core::Outcome;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let len: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let reverse = args.next().as_deref() == Some("reverse");
    let start = Instant::now();
    let mut chain = broadcast_chain(len, reverse);
    let built = start.elapsed();
    assert_eq!(chain.solver.solve(), Outcome::Solved);
    let total = start.elapsed();
    assert_eq!(chain.solver.resolve(chain.last), chain.expected);
    let per = |d: std::time::Duration| d.as_nanos() as f64 / len as f64;
    println!(
        "{len} relations ({}): build {:?} ({:.1} ns/relation), solve {:?} ({:.1} ns/relation); {:?}",
        if reverse { "reverse order" } else { "program order" },
        built,
        per(built),
        total - built,
        per(total - built),
        chain.solver.stats()
    );
}
