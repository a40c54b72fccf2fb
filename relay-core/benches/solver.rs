//! The solver on a chain of `Broadcast` relations over symbolic shapes:
//! `x[i+1] = Broadcast(x[i], y)` with `y: Tensor[(n, 768), float32]`, `x[0]:
//! Tensor[(n, 1), float32]` and every other `x[i]` an unknown. Relations are added in
//! program order (each finds its input solved and runs once) or in reverse order (each
//! first waits, then is woken by its input's binding and runs again).
//!
//! `solve/…` times `Solver::solve` alone (the chain is built in the untimed setup);
//! `build_and_solve/…` also times creating the variables and adding the relations.
//! Throughput is in relations, so criterion's "time per element" is the time per relation;
//! the 100,000 and 1,000,000 rows show that the work is linear.
//!
//! Run with `cargo bench -p relay-core --bench solver`.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use relay_core::testing::BROADCAST;
use relay_core::{DType, Kind, Outcome, Solver, Ty, TyCtx};
use std::hint::black_box;

struct Chain {
    solver: Solver,
    last: Ty,
    expected: Ty,
}

fn build(len: usize, reverse: bool) -> Chain {
    let mut s = Solver::new(TyCtx::new());
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
    let order: Box<dyn Iterator<Item = usize>> = if reverse {
        Box::new((0..len).rev())
    } else {
        Box::new(0..len)
    };
    for i in order {
        s.add_relation(BROADCAST, &[xs[i], y, xs[i + 1]], None, i as u32);
    }
    Chain {
        solver: s,
        last: xs[len],
        expected: y,
    }
}

fn solve(mut chain: Chain) -> Chain {
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
                |b, &len| b.iter_batched(|| build(len, reverse), solve, BatchSize::PerIteration),
            );
            group.bench_with_input(
                BenchmarkId::new(format!("build_and_solve/{order}"), len),
                &len,
                |b, &len| b.iter(|| black_box(solve(build(len, reverse)))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
