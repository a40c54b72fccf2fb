//! Times the relations of single operators: `n` independent calls of one operator on the
//! same argument types (each with its own unknown output) solved at once, in ns per call
//! (`relay_ops::workload::relation_calls`): `cargo run --release -p relay-ops --example
//! op_relations -- 200000`, or `-- 200000 sum` for one operator. `benches/clauses.rs`
//! compares clauses with the hand-written relations they replaced.

use relay_core::{registry, AttrValue, Outcome};
use relay_ops::workload::relation_calls;
use std::time::Instant;

type Case<'a> = (&'a str, &'a [&'a str], Vec<(&'a str, AttrValue)>);

fn time(n: usize, (op, args, attrs): &Case<'_>) -> f64 {
    let def = registry::global()
        .expect("registry")
        .op(op)
        .expect("operator");
    let relation = def.relation.expect("a relation");
    let mut s = relation_calls(relation, op, args, attrs, n);
    let start = Instant::now();
    assert_eq!(s.solve(), Outcome::Solved);
    start.elapsed().as_nanos() as f64 / n as f64
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let ints = |v: &[i64]| AttrValue::List(v.iter().map(|&i| AttrValue::Int(i)).collect());
    let cases: Vec<Case<'_>> = vec![
        (
            "nn.dense",
            &["Tensor[(n, 768), float32]", "Tensor[(3072, 768), float32]"],
            vec![],
        ),
        (
            "nn.dense",
            &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"],
            vec![("units", AttrValue::Int(64))],
        ),
        (
            "nn.matmul",
            &["Tensor[(n, 768), float32]", "Tensor[(768, 64), float32]"],
            vec![],
        ),
        (
            "nn.matmul",
            &["Tensor[(768, n), float32]", "Tensor[(64, 768), float32]"],
            vec![
                ("transpose_a", AttrValue::Bool(true)),
                ("transpose_b", AttrValue::Bool(true)),
            ],
        ),
        (
            "nn.batch_matmul",
            &["Tensor[(b, n, 64), float32]", "Tensor[(b, n, 64), float32]"],
            vec![("transpose_b", AttrValue::Bool(true))],
        ),
        (
            "transpose",
            &["Tensor[(n, 128, 12, 64), float32]"],
            vec![("axes", ints(&[0, 2, 1, 3]))],
        ),
        ("transpose", &["Tensor[(n, 768), float32]"], vec![]),
        (
            "sum",
            &["Tensor[(n, 128, 768), float32]"],
            vec![("axis", ints(&[-1])), ("keepdims", AttrValue::Bool(true))],
        ),
        (
            "squeeze",
            &["Tensor[(n, 1, 768), float32]"],
            vec![("axis", ints(&[1]))],
        ),
    ];
    let only = std::env::args().nth(2);
    for case in cases
        .iter()
        .filter(|c| only.as_deref().is_none_or(|o| o == c.0))
    {
        let best = (0..5).map(|_| time(n, case)).fold(f64::MAX, f64::min);
        println!(
            "{:>10} {:?} {:?}: {best:.0} ns/call",
            case.0, case.1, case.2
        );
    }
}
