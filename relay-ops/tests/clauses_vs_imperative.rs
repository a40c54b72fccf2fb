//! `concatenate`, `stack`, `squeeze` and the reductions are clauses; their former
//! imperative relations (`benches/imperative.rs`, kept for the benchmark
//! `benches/clauses.rs`) give the same types and the same messages on every input of the
//! grids below.

mod common;
#[path = "../benches/imperative.rs"]
mod imperative;

use common::{boolean, int, same_as_operator};
use imperative::{
    ImperativeArgReduce, ImperativeConcatenate, ImperativeReduce, ImperativeSqueeze,
    ImperativeStack, ImperativeVariance,
};
use relay_core::{AttrValue, Relation};

/// Every combination of `axis` (absent, None, lists), `keepdims` and `exclude`.
fn reduction_attrs() -> Vec<Vec<(&'static str, AttrValue)>> {
    let ints = |v: &[i64]| AttrValue::List(v.iter().map(|&i| int(i)).collect());
    let axes = [
        None,
        Some(AttrValue::None),
        Some(ints(&[])),
        Some(ints(&[1])),
        Some(ints(&[-1, 0])),
        Some(ints(&[0, 1, 2])),
        Some(ints(&[2])),
        Some(ints(&[-3])),
        Some(ints(&[1, -1])),
        Some(ints(&[3])),
        Some(ints(&[0, 0, 5])),
        Some(int(-1)),
    ];
    let mut out = Vec::new();
    for axis in &axes {
        for keepdims in [None, Some(true), Some(false)] {
            for exclude in [None, Some(true)] {
                let mut attrs = Vec::new();
                if let Some(a) = axis {
                    attrs.push(("axis", a.clone()));
                }
                if let Some(k) = keepdims {
                    attrs.push(("keepdims", boolean(k)));
                }
                if let Some(e) = exclude {
                    attrs.push(("exclude", boolean(e)));
                }
                out.push(attrs);
            }
        }
    }
    out
}

const DATA: &[&str] = &[
    "Tensor[(4, 5, 6), float32]",
    "Tensor[(n, m, 3), float32]",
    "Tensor[(?, 3), bool]",
    "Tensor[(2), int8]",
    "float32",
    "_",
    "(Tensor[(4), float32],)",
];

#[test]
fn reductions() {
    let inputs: Vec<&[&str]> = DATA.iter().map(std::slice::from_ref).collect();
    let attrs = reduction_attrs();
    same_as_operator(ImperativeReduce::REF, "sum", &inputs, &attrs);
    same_as_operator(ImperativeArgReduce::REF, "argmax", &inputs, &attrs);
    let means = [
        "Tensor[(4, 1, 6), float32]",
        "Tensor[(1, 1, 1), float32]",
        "Tensor[(4, 5), float32]",
        "Tensor[(3, 1, 1), float32]",
        "Tensor[(4, 5, 6), float16]",
        "Tensor[(n, 1, 3), float32]",
        "_",
    ];
    let pairs: Vec<Vec<&str>> = DATA
        .iter()
        .flat_map(|d| means.iter().map(move |m| vec![*d, *m]))
        .collect();
    let inputs: Vec<&[&str]> = pairs.iter().map(|p| p.as_slice()).collect();
    same_as_operator(ImperativeVariance::REF, "variance", &inputs, &attrs);
}

#[test]
fn squeeze() {
    let ints = |v: &[i64]| AttrValue::List(v.iter().map(|&i| int(i)).collect());
    let data: &[&[&str]] = &[
        &["Tensor[(1, 3, 1), float32]"],
        &["Tensor[(n, 1), float32]"],
        &["Tensor[(?, 1), float32]"],
        &["Tensor[(1, 1), int8]"],
        &["Tensor[(3), float32]"],
        &["float32"],
        &["_"],
        &["(Tensor[(1), float32],)"],
    ];
    let attrs: Vec<Vec<(&str, AttrValue)>> = vec![
        vec![],
        vec![("axis", AttrValue::None)],
        vec![("axis", ints(&[]))],
        vec![("axis", ints(&[0]))],
        vec![("axis", ints(&[-1]))],
        vec![("axis", ints(&[0, 2]))],
        vec![("axis", ints(&[1, 1]))],
        vec![("axis", ints(&[3]))],
        vec![("axis", ints(&[-4]))],
    ];
    same_as_operator(ImperativeSqueeze::REF, "squeeze", data, &attrs);
}

/// Tuples of tensors that agree, clash in a dimension, a rank or a dtype, with `?` and
/// symbols, fields that are no tensors, an empty tuple and no tuple.
const TUPLES: &[&str] = &[
    "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])",
    "(Tensor[(2, 3), float32], Tensor[(4, 3), float32], Tensor[(1, 3), float32])",
    "(Tensor[(2, 3), float32], Tensor[(2, 4), float32])",
    "(Tensor[(?, 3), float32], Tensor[(n, ?), float32], Tensor[(?, 4), float32])",
    "(Tensor[(?, ?), float32], Tensor[(?, ?), float32])",
    "(Tensor[(n, 2), float32], Tensor[(m, 2), float32])",
    "(Tensor[(n, 2), float32], Tensor[(n, 2), float32])",
    "(Tensor[(2), float32], Tensor[(2, 1), float32])",
    "(Tensor[(2), float32], Tensor[(2), int8])",
    "(Tensor[(2), float32], (int8,))",
    "(Tensor[(2, 3), float32],)",
    "(Tensor[(), float32],)",
    "()",
    "Tensor[(2, 3), float32]",
    "(Tensor[(2, 3), float32], _)",
    "_",
];

/// `axis` absent, in range from either end, and out of range.
fn axes() -> Vec<Vec<(&'static str, AttrValue)>> {
    let mut out = vec![vec![]];
    for a in [0, 1, 2, -1, -2, -3, 3] {
        out.push(vec![("axis", int(a))]);
    }
    out
}

#[test]
fn concatenate() {
    let inputs: Vec<&[&str]> = TUPLES.iter().map(std::slice::from_ref).collect();
    same_as_operator(ImperativeConcatenate::REF, "concatenate", &inputs, &axes());
}

#[test]
fn stack() {
    let inputs: Vec<&[&str]> = TUPLES.iter().map(std::slice::from_ref).collect();
    same_as_operator(ImperativeStack::REF, "stack", &inputs, &axes());
}
