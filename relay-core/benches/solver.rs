//! The solver on a chain of `Broadcast` relations over symbolic shapes
//! ([`relay_core::testing::broadcast_chain`]): added in program order (each relation finds
//! its input solved and runs once) or in reverse order (each first waits, then is woken by
//! its input's binding and runs again).
//!
//! `solve/…` times `Solver::solve` alone (the chain is built in the untimed setup);
//! `build_and_solve/…` also times creating the variables and adding the relations.
//! Throughput is in relations, so criterion's "time per element" is the time per relation;
//! the 100,000 and 1,000,000 rows show that the work is linear.
//!
//! Run with `cargo bench -p relay-core --bench solver`.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use relay_core::testing::{broadcast_chain, BroadcastChain};
use relay_core::Outcome;
use std::hint::black_box;

fn solve(mut chain: BroadcastChain) -> BroadcastChain {
    assert_eq!(chain.solver.solve(), Outcome::Solved);
    assert_eq!(chain.solver.resolve(chain.last), chain.expected);
    chain
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadcast_chain");
    group.sample_size(10);
    for &len in &[100_000usize, 1_000_000] {
        group.throughput(Throughput::Elements(len as u64));
        for (order, reverse) in [("program_order", false), ("reverse_order", true)] {
            group.bench_with_input(
                BenchmarkId::new(format!("solve/{order}"), len),
                &len,
                |b, &len| {
                    b.iter_batched(
                        || broadcast_chain(len, reverse),
                        solve,
                        BatchSize::PerIteration,
                    )
                },
            );
            group.bench_with_input(
                BenchmarkId::new(format!("build_and_solve/{order}"), len),
                &len,
                |b, &len| b.iter(|| black_box(solve(broadcast_chain(len, reverse)))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
