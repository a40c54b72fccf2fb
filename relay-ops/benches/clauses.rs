//! `concatenate`, `stack`, `squeeze` and the reductions: each operator's relation (a
//! clause) against the imperative relation it replaced (`imperative.rs`), per call.
//! Each sample solves 10,000 independent calls of the operator on the same argument
//! types, every call run (the memo of relation results is off).
//!
//! `cargo bench -p relay-ops --bench clauses`; one operator: `-- squeeze`.

mod imperative;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use imperative::{
    ImperativeArgReduce, ImperativeConcatenate, ImperativeReduce, ImperativeSqueeze,
    ImperativeStack, ImperativeVariance,
};
use relay_core::{registry, AttrValue, Outcome, Relation, RelationRef};
use relay_ops::workload::relation_calls;

const CALLS: usize = 10_000;

/// An operator, the imperative relation its clause replaced, its argument types and its
/// attributes.
type Case<'a> = (
    &'a str,
    RelationRef,
    &'a [&'a str],
    Vec<(&'a str, AttrValue)>,
);

fn bench(c: &mut Criterion) {
    let ints = |v: &[i64]| AttrValue::List(v.iter().map(|&i| AttrValue::Int(i)).collect());
    let keep = AttrValue::Bool(true);
    let cases: Vec<Case<'_>> = vec![
        (
            "concatenate",
            ImperativeConcatenate::REF,
            &["(Tensor[(n, 128, 64), float32], Tensor[(n, 128, 64), float32], Tensor[(n, 128, 32), float32])"],
            vec![("axis", AttrValue::Int(-1))],
        ),
        (
            "stack",
            ImperativeStack::REF,
            &["(Tensor[(n, 768), float32], Tensor[(n, 768), float32], Tensor[(n, 768), float32])"],
            vec![("axis", AttrValue::Int(0))],
        ),
        (
            "squeeze",
            ImperativeSqueeze::REF,
            &["Tensor[(n, 1, 768), float32]"],
            vec![("axis", ints(&[1]))],
        ),
        (
            "sum",
            ImperativeReduce::REF,
            &["Tensor[(n, 128, 768), float32]"],
            vec![("axis", ints(&[-1])), ("keepdims", keep.clone())],
        ),
        (
            "argmax",
            ImperativeArgReduce::REF,
            &["Tensor[(n, 1000), float32]"],
            vec![("axis", ints(&[1]))],
        ),
        (
            "variance",
            ImperativeVariance::REF,
            &["Tensor[(n, 128, 768), float32]", "Tensor[(n, 128, 1), float32]"],
            vec![("axis", ints(&[-1])), ("keepdims", keep)],
        ),
    ];
    for (op, old, args, attrs) in &cases {
        let clause = registry::global()
            .expect("registry")
            .op(op)
            .expect("operator");
        let clause = clause.relation.expect("a relation");
        let mut g = c.benchmark_group(format!("clauses/{op}"));
        g.throughput(Throughput::Elements(CALLS as u64));
        for (name, relation) in [("clause", clause), ("imperative", *old)] {
            g.bench_function(name, |b| {
                b.iter_batched(
                    || relation_calls(relation, op, args, attrs, CALLS),
                    |mut s| {
                        assert_eq!(s.solve(), Outcome::Solved);
                        s
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
