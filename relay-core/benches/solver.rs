//! The solver on a chain of `Broadcast` relations over symbolic shapes:
//! `x[i+1] = Broadcast(x[i], y)` with `y: Tensor[(n, 768), float32]`, every `x[i]` for
//! `i > 0` an unknown. Added in program order (each relation finds its input solved) and
//! in reverse order (each relation first waits, then is woken by its input's binding).
//!
//! Run with `cargo bench -p relay-core --bench solver`. The time per relation is the
//! reported time divided by the chain length; the two lengths show the work is linear.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use relay_core::testing::BROADCAST;
use relay_core::{DType, Kind, Outcome, Solver, TyCtx};
use std::hint::black_box;

fn chain(len: usize, reverse: bool) -> Solver {
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
    let add = |s: &mut Solver, i: usize| {
        s.add_relation(BROADCAST, &[xs[i], y, xs[i + 1]], None, i as u32);
    };
    if reverse {
        for i in (0..len).rev() {
            add(&mut s, i);
        }
    } else {
        for i in 0..len {
            add(&mut s, i);
        }
    }
    assert_eq!(s.solve(), Outcome::Solved);
    let last = s.resolve(xs[len]);
    assert_eq!(last, y);
    s
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadcast_chain");
    group.sample_size(10);
    for &len in &[100_000usize, 1_000_000] {
        group.throughput(Throughput::Elements(len as u64));
        for (name, reverse) in [("program_order", false), ("reverse_order", true)] {
            group.bench_with_input(BenchmarkId::new(name, len), &len, |b, &len| {
                b.iter(|| black_box(chain(len, reverse)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
