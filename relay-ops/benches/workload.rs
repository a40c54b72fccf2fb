//! The reference workload (`relay_ops::workload`): parse alone, inference alone, and
//! parse + inference, at N = 1,000 to 1,000,000 operators. `cargo bench -p relay-ops
//! --bench workload`; one size: `cargo bench -p relay-ops --bench workload -- /100000`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use relay_core::adt::{self, AdtTable};
use relay_core::infer::infer;
use relay_core::text::parse_module;
use relay_core::TyCtx;
use std::time::Duration;

fn setup() -> (TyCtx, AdtTable) {
    let mut tcx = TyCtx::new();
    let adts = adt::load(&mut tcx).expect("the data types load");
    (tcx, adts)
}

fn bench(c: &mut Criterion) {
    for ops in [1_000usize, 10_000, 100_000, 1_000_000] {
        let src = relay_ops::workload::transformer(ops);
        let mut g = c.benchmark_group("workload");
        g.throughput(Throughput::Elements(ops as u64));
        if ops >= 100_000 {
            g.sample_size(10)
                .measurement_time(Duration::from_secs(if ops >= 1_000_000 { 20 } else { 5 }));
        }
        g.bench_function(format!("parse/{ops}"), |b| {
            b.iter_batched(
                setup,
                |(mut tcx, mut adts)| parse_module(&src, &mut tcx, &mut adts).expect("parses"),
                BatchSize::PerIteration,
            )
        });
        g.bench_function(format!("infer/{ops}"), |b| {
            b.iter_batched(
                || {
                    let (mut tcx, mut adts) = setup();
                    let m = parse_module(&src, &mut tcx, &mut adts).expect("parses");
                    (tcx, adts, m)
                },
                |(tcx, adts, m)| {
                    let typed = infer(tcx, &adts, &m);
                    assert!(typed.errors().is_empty());
                    (typed, m)
                },
                BatchSize::PerIteration,
            )
        });
        g.bench_function(format!("parse+infer/{ops}"), |b| {
            b.iter_batched(
                setup,
                |(mut tcx, mut adts)| {
                    let m = parse_module(&src, &mut tcx, &mut adts).expect("parses");
                    let typed = infer(tcx, &adts, &m);
                    assert!(typed.errors().is_empty());
                    (typed, m)
                },
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
