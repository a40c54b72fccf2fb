//! Times the clause form of `Broadcast` (`relay_ops::relations::Broadcast`) on the solver
//! benchmark's chain, next to the hand-written one of `relay_core::testing`.
//!
//! `cargo run --release -p relay-ops --example clause_chain -- 1000000 [reverse]`

use relay_core::testing::{broadcast_chain_of, BROADCAST};
use relay_core::{Outcome, Relation, RelationRef};
use std::time::Instant;

fn time(name: &str, relation: RelationRef, len: usize, reverse: bool) {
    let mut chain = broadcast_chain_of(relation, len, reverse);
    let start = Instant::now();
    assert_eq!(chain.solver.solve(), Outcome::Solved);
    let t = start.elapsed();
    assert_eq!(chain.solver.resolve(chain.last), chain.expected);
    println!(
        "{name}: {len} relations solved in {t:?} ({:.1} ns/relation); {:?}",
        t.as_nanos() as f64 / len as f64,
        chain.solver.stats()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let len: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let reverse = args.next().as_deref() == Some("reverse");
    time("hand-written", BROADCAST, len, reverse);
    time("clause", relay_ops::relations::Broadcast::REF, len, reverse);
}
