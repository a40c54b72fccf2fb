//! Times the clause forms of `Broadcast` and `Identity` (`relay_ops::relations`) on the
//! solver benchmark's chain, next to the hand-written ones of `relay_core::testing`.
//!
//! `cargo run --release -p relay-ops --example clause_chain -- 1000000 [reverse] [identity]
//! [clause|hand]`: `identity` times a chain of `Identity` (`x[i+1] = x[i]`) instead of
//! `Broadcast`; the last argument times only one of the two forms, for a profiler.

use relay_core::testing::{broadcast_chain_of, BroadcastChain, BROADCAST, IDENTITY};
use relay_core::{DType, Outcome, Relation, RelationRef, Solver, TyCtx};
use std::time::Instant;

/// `x[i+1] = Identity(x[i])` with `x[0]: Tensor[(n, 768), float32]`.
fn identity_chain(relation: RelationRef, len: usize, reverse: bool) -> BroadcastChain {
    let mut s = Solver::new(TyCtx::new());
    let n = s.tcx.param("n", relay_core::Kind::ShapeVar);
    let n = s.tcx.dim_param(n).expect("n is a ShapeVar");
    let c = s.tcx.dims.konst(768);
    let x0 = s.tcx.tensor_of(&[n, c], DType::FLOAT32);
    let mut xs = vec![x0];
    xs.extend((0..len).map(|_| s.fresh_ty()));
    let order: Box<dyn Iterator<Item = usize>> = if reverse {
        Box::new((0..len).rev())
    } else {
        Box::new(0..len)
    };
    for i in order {
        s.add_relation(relation, &[xs[i], xs[i + 1]], None, i as u32);
    }
    BroadcastChain {
        solver: s,
        last: xs[len],
        expected: x0,
    }
}

fn time(name: &str, mut chain: BroadcastChain, len: usize) {
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
    let rest: Vec<String> = args.collect();
    let has = |w: &str| rest.iter().any(|a| a == w);
    let reverse = has("reverse");
    let only = |which: &str| !(has("clause") || has("hand")) || has(which);
    let identity = has("identity");
    let chain = |hand: bool| match (identity, hand) {
        (false, true) => broadcast_chain_of(BROADCAST, len, reverse),
        (false, false) => broadcast_chain_of(relay_ops::relations::Broadcast::REF, len, reverse),
        (true, true) => identity_chain(IDENTITY, len, reverse),
        (true, false) => identity_chain(relay_ops::relations::Identity::REF, len, reverse),
    };
    if only("hand") {
        time("hand-written", chain(true), len);
    }
    if only("clause") {
        time("clause", chain(false), len);
    }
}
