//! Clauses (`#[relation]` with `if`, optional attributes, `X @ pattern`, `assert` with
//! formatted values, `assert(a = b, ..)`, `default`, comprehensions and loops) checked
//! against the operators' tables: the same types, the same messages, the same backward
//! inference of the weight.
//!
//! Many operators' own relations are clauses too (`Dense` and `Matmul` in `level1.rs`,
//! tested with the operators in `tests/level1.rs`; `concatenate`, `stack`, `squeeze` and
//! the reductions, checked against the code they replaced in `clauses_vs_imperative.rs`). `Matmul` differs from `ClauseMatmul` here by
//! taking each transposition as a branch, so that every position is a constant and the
//! clause runs on its fast path (`ClauseMatmul` computes its indices, which the fast path
//! evaluates in the general way, about 2x slower); a test checks the two forms against
//! each other on a grid.

mod common;

use common::{boolean, int, string};
use relay_core::{relation, AttrValue, Relation, RelationRef};

/// `nn.matmul`'s relation as a clause: A is `(.., m, k)` (`(.., k, m)` with `transpose_a`), B is
/// `(k, units)` (`(units, k)` with `transpose_b`), the result `(.., m, units)` of
/// `out_dtype` (A's dtype by default). With `units`, an unknown B is inferred (backward)
/// with A's dtype; the contraction dimensions must agree (TVM never checks them); it
/// waits while A, or B without `units`, is unknown.
#[relation(
    ClauseMatmul(A @ Tensor(sa, bt), B @ Tensor(sb, wt), O) :-
        if attrs.units != None {
            assert(attrs.units >= 0, "`units` must not be negative, found {}", attrs.units),
        },
        if attrs.transpose_a {
            assert(len(sa) >= 2, "the data of `nn.matmul` must be at least 2-D when `transpose_a` is set, found `{}`", A),
            ka = len(sa) - 2,
            m = [sa[-1]],
        } else {
            assert(len(sa) >= 1, "the data of `nn.matmul` must be at least 1-D, found `{}`", A),
            ka = len(sa) - 1,
            m = [],
        },
        assert(len(sb) == 2, "the weight of `nn.matmul` must be 2-D, found `{}`", B),
        if attrs.transpose_b { kb = 1 } else { kb = 0 },
        assert(
            sb[kb] = sa[ka],
            "the contraction dimensions of `nn.matmul` differ: dimension {} of the data is {} and dimension {} of the weight is {}",
            ka, sa[ka], kb, sb[kb]
        ),
        if attrs.units != None {
            assert(sb[1 - kb] = attrs.units, "`units` is {} but dimension {} of the weight of `nn.matmul` is {}", attrs.units, 1 - kb, sb[1 - kb]),
            if attrs.transpose_b { sb = [attrs.units, sa[ka]] } else { sb = [sa[ka], attrs.units] },
            default(wt, bt),
            u = attrs.units,
        } else {
            u = sb[1 - kb],
        },
        if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
        O = Tensor([..sa[..ka], ..m, u], odt),
        attrs(
            units: Option<int> = None,
            out_dtype: Option<dtype> = None,
            transpose_a: bool = false,
            transpose_b: bool = false
        )
)]
pub struct ClauseMatmul;

type Case<'a> = (
    &'a [&'a str],
    &'a [(&'a str, AttrValue)],
    Result<&'a str, &'a str>,
);

fn check(relation: RelationRef, op: &str, cases: &[Case<'_>]) {
    let mut wrong = Vec::new();
    for (args, attrs, want) in cases {
        let got = common::infer_with(relation, op, args, attrs).map(|(out, _)| out);
        let want = want.map(str::to_string).map_err(str::to_string);
        if got != want {
            wrong.push(format!(
                "{op}{args:?} {attrs:?}\n   got {got:?}\n  want {want:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[rustfmt::skip]
#[test]
fn matmul_as_a_clause() {
    let t = boolean(true);
    check(ClauseMatmul::REF, "nn.matmul", &[
        (&["Tensor[(4, 768), float32]", "Tensor[(768, 64), float32]"], &[], Ok("Tensor[(4, 64), float32]")),
        (&["Tensor[(768, 4), float32]", "Tensor[(64, 768), float32]"], &[("transpose_a", t.clone()), ("transpose_b", t.clone())], Ok("Tensor[(4, 64), float32]")),
        (&["Tensor[(2, 768, 4), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Ok("Tensor[(2, 4, 64), float32]")),
        (&["Tensor[(n, k), float32]", "Tensor[(k, m), float32]"], &[("out_dtype", string("float16"))], Ok("Tensor[(n, m), float16]")),
        (&["Tensor[(n, ?), float32]", "Tensor[(3, ?), float32]"], &[], Ok("Tensor[(n, ?), float32]")),
        (&["Tensor[(4, 768), float32]", "Tensor[(64, 768), float32]"], &[], Err("the contraction dimensions of `nn.matmul` differ: dimension 1 of the data is 768 and dimension 0 of the weight is 64")),
        (&["Tensor[(768, 4), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Ok("Tensor[(4, 64), float32]")),
        (&["Tensor[(768, n), float32]", "Tensor[(n, 64), float32]"], &[("transpose_a", t.clone())], Err("the contraction dimensions of `nn.matmul` differ: dimension 0 of the data is 768 and dimension 0 of the weight is n")),
        (&["Tensor[(768), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Err("the data of `nn.matmul` must be at least 2-D when `transpose_a` is set, found `Tensor[(768), float32]`")),
        (&["Tensor[(4, 8), float32]", "Tensor[(8, 3), float32]"], &[("units", int(4))], Err("`units` is 4 but dimension 1 of the weight of `nn.matmul` is 3")),
        (&["Tensor[(4, 8), float32]", "_"], &[], Err("waiting: ClauseMatmul")),
    ]);
}

/// `ClauseMatmul` (indices computed) and the operator's `Matmul` (a branch per
/// transposition) agree on every input and attribute combination of a grid.
#[test]
fn matmul_clause_is_the_operators() {
    let inputs: Vec<&[&str]> = vec![
        &["Tensor[(4, 768), float32]", "Tensor[(768, 64), float32]"],
        &["Tensor[(768, 4), float32]", "Tensor[(64, 768), float32]"],
        &["Tensor[(768, 4), float32]", "Tensor[(768, 64), float32]"],
        &["Tensor[(4, 768), float32]", "Tensor[(64, 768), float32]"],
        &["Tensor[(2, 768, 4), float32]", "Tensor[(768, 64), float32]"],
        &["Tensor[(n, k), float32]", "Tensor[(k, m), float32]"],
        &["Tensor[(n, ?), float32]", "Tensor[(3, ?), float32]"],
        &["Tensor[(768), float32]", "Tensor[(768, 64), float32]"],
        &["Tensor[(4, 8), float32]", "_"],
        &["_", "Tensor[(8, 3), float32]"],
    ];
    let mut attrs = Vec::new();
    for ta in [None, Some(true), Some(false)] {
        for tb in [None, Some(true)] {
            for units in [None, Some(64), Some(3)] {
                let mut a = Vec::new();
                if let Some(t) = ta {
                    a.push(("transpose_a", boolean(t)));
                }
                if let Some(t) = tb {
                    a.push(("transpose_b", boolean(t)));
                }
                if let Some(u) = units {
                    a.push(("units", int(u)));
                }
                attrs.push(a);
            }
        }
    }
    common::same_as_operator(ClauseMatmul::REF, "nn.matmul", &inputs, &attrs);
}

/// A relation, the operator whose signature it is put on, arguments, attributes, the
/// printed result, the printed solved arguments.
type BackwardCase<'a> = (
    RelationRef,
    &'a str,
    &'a [&'a str],
    &'a [(&'a str, AttrValue)],
    &'a str,
    &'a [&'a str],
);

#[test]
fn the_weight_is_inferred_from_units() {
    let cases: &[BackwardCase<'_>] = &[
        (
            relay_ops::level1::Dense::REF,
            "nn.dense",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"],
        ),
        (
            relay_ops::level1::Dense::REF,
            "nn.dense",
            &["Tensor[(?, k), float16]", "_"],
            &[("units", int(3))],
            "Tensor[(?, 3), float16]",
            &["Tensor[(?, k), float16]", "Tensor[(3, k), float16]"],
        ),
        (
            ClauseMatmul::REF,
            "nn.matmul",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(768, 64), float32]"],
        ),
        (
            ClauseMatmul::REF,
            "nn.matmul",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64)), ("transpose_b", boolean(true))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"],
        ),
        (
            ClauseMatmul::REF,
            "nn.matmul",
            &["Tensor[(768, n), float32]", "_"],
            &[("units", int(64)), ("transpose_a", boolean(true))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(768, n), float32]", "Tensor[(768, 64), float32]"],
        ),
    ];
    for (rel, op, args, attrs, out, solved) in cases {
        let got = common::infer_with(*rel, op, args, attrs);
        let want = Ok((
            out.to_string(),
            solved.iter().map(|s| s.to_string()).collect(),
        ));
        assert_eq!(got, want, "{op}{args:?} {attrs:?}");
    }
}

#[test]
fn the_clauses_need_their_data() {
    // The data cannot be rebuilt (its leading dimensions appear only under a slice);
    // the weight can (from `units`, and its dtype by `default`).
    assert_eq!(relay_ops::level1::Dense::DEF.needs, &[0]);
    assert_eq!(ClauseMatmul::DEF.needs, &[0]);
}

// ---------------------------------------------------------------------------------------
// nn.batch_matmul
// ---------------------------------------------------------------------------------------

/// `BatchMatmul` (relay-ops/src/level4/misc.rs) as a clause: each transposition a branch
/// (constant positions), the batch dimensions broadcast, the contraction asserted. Same
/// types and messages as the operator on the grid below; the operator keeps its
/// imperative relation, as the clause takes about 230 ns per call against 145 ns.
#[relation(
    ClauseBatchMatmul(Tensor(sx, xdt), Tensor(sy, ydt), O) :-
        assert(len(sx) == 3, "`nn.batch_matmul` needs 3-D tensors, `x` has rank {}", len(sx)),
        assert(len(sy) == 3, "`nn.batch_matmul` needs 3-D tensors, `y` has rank {}", len(sy)),
        ydt = xdt,
        if attrs.transpose_a { i = sx[2], kx = sx[1] } else { i = sx[1], kx = sx[2] },
        if attrs.transpose_b { j = sy[1], ky = sy[2] } else { j = sy[2], ky = sy[1] },
        assert(
            kx = ky,
            "the contraction dimensions of `nn.batch_matmul` differ: {} in `x` and {} in `y`", kx, ky
        ),
        assert(
            sx[0] == sy[0] || sx[0] == 1 || sy[0] == 1,
            "the batch dimensions of `nn.batch_matmul` differ: {} in `x` and {} in `y`", sx[0], sy[0]
        ),
        if attrs.out_dtype == None { odt = xdt } else { odt = attrs.out_dtype },
        O = Tensor([..broadcast([sx[0]], [sy[0]]), i, j], odt),
        attrs(transpose_a: bool = false, transpose_b: bool = false, out_dtype: Option<dtype> = None)
)]
pub struct ClauseBatchMatmul;

#[test]
fn batch_matmul_as_a_clause() {
    let xs = [
        "Tensor[(8, 4, 64), float32]",
        "Tensor[(1, 64, 4), float32]",
        "Tensor[(b, n, 2 * k), float32]",
        "Tensor[(?, 4, ?), float32]",
        "Tensor[(?, 4, 64), float32]",
        "Tensor[(4, 64), float32]",
        "Tensor[(8, 4, 64), int8]",
        "_",
    ];
    let ys = [
        "Tensor[(8, 32, 64), float32]",
        "Tensor[(1, 64, 32), float32]",
        "Tensor[(b, m, k + k), float32]",
        "Tensor[(3, 32, 64), float32]",
        "Tensor[(8, 32, 63), float32]",
        "Tensor[(1, 32, 64), float32]",
        "Tensor[(8, 32, 64), float16]",
        "Tensor[(8, 32), float32]",
        "_",
    ];
    let pairs: Vec<[&str; 2]> = xs
        .iter()
        .flat_map(|x| ys.iter().map(move |y| [*x, *y]))
        .collect();
    let inputs: Vec<&[&str]> = pairs.iter().map(|p| p.as_slice()).collect();
    let mut attrs = Vec::new();
    for ta in [None, Some(true)] {
        for tb in [None, Some(true)] {
            for out in [None, Some(string("int32"))] {
                let mut a = Vec::new();
                if let Some(t) = ta {
                    a.push(("transpose_a", boolean(t)));
                }
                if let Some(t) = tb {
                    a.push(("transpose_b", boolean(t)));
                }
                if let Some(o) = &out {
                    a.push(("out_dtype", o.clone()));
                }
                attrs.push(a);
            }
        }
    }
    common::same_as_operator(ClauseBatchMatmul::REF, "nn.batch_matmul", &inputs, &attrs);
}
