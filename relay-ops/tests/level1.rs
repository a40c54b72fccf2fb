//! Level-1 operators: exact result types and errors, table-driven, for every relation:
//! a static case, a symbolic case (`n`), a case with `?`, and error cases with their
//! messages. Broadcast is also checked exhaustively against NumPy's rule on small shapes.

mod common;
use common::oracles::{numpy_broadcast, tensor, D};
use common::{boolean, check, check_args, infer, int, string};
use relay_core::AttrValue;

const BROADCAST_OPS: [&str; 9] = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "floor_mod",
    "mod",
    "trunc_divide",
    "trunc_mod",
];

const IDENTITY_OPS: [&str; 21] = [
    "exp", "log", "log2", "log10", "sqrt", "rsqrt", "sigmoid", "tanh", "sin", "cos", "tan", "sinh",
    "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "nn.relu",
];

// ---------------------------------------------------------------------------------------
// Broadcast
// ---------------------------------------------------------------------------------------

#[test]
fn add_broadcasts() {
    assert_eq!(
        infer(
            "add",
            &["Tensor[(n, 1), float32]", "Tensor[(3), float32]"],
            &[]
        ),
        Ok("Tensor[(n, 3), float32]".to_string())
    );
}

#[test]
fn broadcast_family_table() {
    for op in BROADCAST_OPS {
        check(&[
            // static
            (op, &["Tensor[(2, 1, 4), float32]", "Tensor[(3, 1), float32]"], &[], Ok("Tensor[(2, 3, 4), float32]")),
            (op, &["Tensor[(4), int32]", "int32"], &[], Ok("Tensor[(4), int32]")),
            (op, &["int32", "int32"], &[], Ok("int32")),
            // symbolic: equal normal forms agree, 1 broadcasts against a symbol
            (op, &["Tensor[(n, 1), float32]", "Tensor[(3), float32]"], &[], Ok("Tensor[(n, 3), float32]")),
            (op, &["Tensor[(2 * n, 3), float32]", "Tensor[(n * 2, 1), float32]"], &[], Ok("Tensor[(2*n, 3), float32]")),
            // ?: a static dimension wins over ?, ? against 1 stays ?
            (op, &["Tensor[(?, 1), float32]", "Tensor[(3, ?), float32]"], &[], Ok("Tensor[(3, ?), float32]")),
            (op, &["Tensor[(?), float32]", "Tensor[(n), float32]"], &[], Ok("Tensor[(n), float32]")),
            // errors
            (op, &["Tensor[(n, 2), float32]", "Tensor[(3), float32]"], &[], Err("`Tensor[(n, 2), float32]` and `Tensor[(3), float32]` do not broadcast: dimension 1 of the first is 2 and dimension 0 of the second is 3")),
            (op, &["Tensor[(n), float32]", "Tensor[(m), float32]"], &[], Err("`Tensor[(n), float32]` and `Tensor[(m), float32]` do not broadcast: dimension 0 of the first is n and dimension 0 of the second is m")),
            (op, &["Tensor[(2), float32]", "Tensor[(2), int8]"], &[], Err("dtype: float32 vs int8")),
        ]);
    }
}

#[test]
fn broadcast_waits_for_an_unknown_argument() {
    for op in BROADCAST_OPS {
        check(&[
            (
                op,
                &["Tensor[(2), float32]", "_"],
                &[],
                Err("waiting: Broadcast"),
            ),
            (op, &["_", "_"], &[], Err("waiting: Broadcast")),
        ]);
    }
}

fn shapes(dims: &[D], max_rank: usize) -> Vec<Vec<D>> {
    let mut all = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..max_rank {
        let mut next = Vec::new();
        for s in &last {
            for &d in dims {
                let mut s = s.clone();
                s.push(d);
                next.push(s);
            }
        }
        all.extend(next.iter().cloned());
        last = next;
    }
    all
}

/// Every pair of shapes of rank ≤ 3 over {1, 2, 3, n, ?}, for `add`, and of rank ≤ 2 for
/// the rest of the family: the result (or the error) is NumPy's.
#[test]
fn broadcast_matches_numpy_exhaustively() {
    let dims = [D::C(1), D::C(2), D::C(3), D::N, D::Any];
    let mut checked = 0;
    for op in BROADCAST_OPS {
        let max_rank = if op == "add" { 3 } else { 2 };
        let all = shapes(&dims, max_rank);
        for a in &all {
            for b in &all {
                let got = infer(op, &[&tensor(a), &tensor(b)], &[]);
                assert_eq!(
                    got,
                    numpy_broadcast(a, b),
                    "{op}({}, {})",
                    tensor(a),
                    tensor(b)
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 156 * 156 + 8 * 31 * 31);
}

// ---------------------------------------------------------------------------------------
// Identity
// ---------------------------------------------------------------------------------------

#[test]
fn identity_family_table() {
    for op in IDENTITY_OPS {
        check(&[
            (
                op,
                &["Tensor[(2, 3), float32]"],
                &[],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                op,
                &["Tensor[(n, 2 * n), float16]"],
                &[],
                Ok("Tensor[(n, 2*n), float16]"),
            ),
            (
                op,
                &["Tensor[(?, 3), float32]"],
                &[],
                Ok("Tensor[(?, 3), float32]"),
            ),
            (op, &["_"], &[], Ok("'t2")),
        ]);
    }
}

#[test]
fn identity_holds_for_every_type_and_softmax_needs_a_tensor() {
    // Identity holds for every type (TVM's IdentityRel too); softmax needs a tensor.
    check(&[
        ("exp", &["(float32, int8)"], &[], Ok("(float32, int8)")),
        ("nn.relu", &["float32"], &[], Ok("float32")),
    ]);
    assert!(infer("nn.softmax", &["(float32, int8)"], &[]).is_err());
}

// ---------------------------------------------------------------------------------------
// Softmax
// ---------------------------------------------------------------------------------------

#[test]
fn softmax_table() {
    for op in ["nn.softmax", "nn.log_softmax"] {
        check(&[
            (
                op,
                &["Tensor[(2, 10), float32]"],
                &[],
                Ok("Tensor[(2, 10), float32]"),
            ),
            (
                op,
                &["Tensor[(2, 10), float32]"],
                &[("axis", int(0))],
                Ok("Tensor[(2, 10), float32]"),
            ),
            (
                op,
                &["Tensor[(n, 10), float32]"],
                &[("axis", int(-2))],
                Ok("Tensor[(n, 10), float32]"),
            ),
            (
                op,
                &["Tensor[(?, ?), float32]"],
                &[("axis", int(1))],
                Ok("Tensor[(?, ?), float32]"),
            ),
            (
                op,
                &["Tensor[(n, 10), float32]"],
                &[("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(n, 10), float32]` (rank 2)"),
            ),
            (
                op,
                &["Tensor[(n, 10), float32]"],
                &[("axis", int(-3))],
                Err("`axis` -3 is out of range for `Tensor[(n, 10), float32]` (rank 2)"),
            ),
            (
                op,
                &["float32"],
                &[],
                Err("`axis` -1 is out of range for `float32` (rank 0)"),
            ),
            (op, &["_"], &[], Err("waiting: Softmax")),
        ]);
    }
}

// ---------------------------------------------------------------------------------------
// Concatenate
// ---------------------------------------------------------------------------------------

#[test]
fn concatenate_table() {
    let c = "concatenate";
    check(&[
        (c, &["(Tensor[(2, 3), float32], Tensor[(4, 3), float32])"], &[], Ok("Tensor[(6, 3), float32]")),
        (c, &["(Tensor[(2, 3), float32], Tensor[(2, 5), float32])"], &[("axis", int(1))], Ok("Tensor[(2, 8), float32]")),
        (c, &["(Tensor[(2, 3), float32],)"], &[("axis", int(-1))], Ok("Tensor[(2, 3), float32]")),
        // symbolic: the sum is simplified; other dimensions agree by normal form
        (c, &["(Tensor[(n, 3), float32], Tensor[(n, 3), float32])"], &[], Ok("Tensor[(2*n, 3), float32]")),
        (c, &["(Tensor[(n, 2 * m), float32], Tensor[(1, m * 2), float32])"], &[], Ok("Tensor[(n + 1, 2*m), float32]")),
        // ?: an Any joined dimension makes the sum Any; elsewhere ? agrees and the known wins
        (c, &["(Tensor[(?, 3), float32], Tensor[(2, ?), float32])"], &[], Ok("Tensor[(?, 3), float32]")),
        (c, &["(Tensor[(?, 2), float32], Tensor[(n, ?), float32])"], &[("axis", int(1))], Ok("Tensor[(n, ?), float32]")),
        (c, &["(Tensor[(?, 2), float32], Tensor[(?, 3), float32])"], &[("axis", int(1))], Ok("Tensor[(?, 5), float32]")),
        // errors
        (c, &["(Tensor[(2, 3), float32], Tensor[(2, 4), float32])"], &[], Err("`concatenate` along axis 0 needs the other dimensions to agree: dimension 1 of field 0 `Tensor[(2, 3), float32]` is 3 and of field 1 `Tensor[(2, 4), float32]` is 4")),
        (c, &["(Tensor[(n, 2), float32], Tensor[(m, 3), float32])"], &[("axis", int(1))], Err("`concatenate` along axis 1 needs the other dimensions to agree: dimension 0 of field 0 `Tensor[(n, 2), float32]` is n and of field 1 `Tensor[(m, 3), float32]` is m")),
        (c, &["(Tensor[(n, 2), float32], Tensor[(n), float32])"], &[], Err("`concatenate` needs tensors of one rank: field 0 `Tensor[(n, 2), float32]` has rank 2 and field 1 `Tensor[(n), float32]` has rank 1")),
        (c, &["(Tensor[(2), float32], Tensor[(2), int8])"], &[], Err("`concatenate` needs tensors of one dtype: field 0 is `Tensor[(2), float32]` and field 1 is `Tensor[(2), int8]`")),
        (c, &["(Tensor[(2, 3), float32],)"], &[("axis", int(2))], Err("`axis` 2 is out of range for tensors of rank 2: it must be in [-2, 2)")),
        (c, &["(Tensor[(2, 3), float32],)"], &[("axis", int(-3))], Err("`axis` -3 is out of range for tensors of rank 2: it must be in [-2, 2)")),
        (c, &["()"], &[], Err("`concatenate` needs at least one tensor")),
        (c, &["Tensor[(2, 3), float32]"], &[], Err("`concatenate` takes a tuple of tensors, found `Tensor[(2, 3), float32]`")),
        (c, &["(Tensor[(2), float32], (int8,))"], &[], Err("`concatenate` takes a tuple of tensors, found the field `(int8,)`")),
        (c, &["_"], &[], Err("waiting: Concatenate")),
    ]);
}

/// A tuple of more fields than a tensor has dimensions (the clause loops over them).
#[test]
fn concatenate_and_stack_take_seventy_thousand_fields() {
    let fields = vec!["Tensor[(n, 4), float32]"; 70_000].join(", ");
    let tuple = format!("({fields})");
    assert_eq!(
        infer("concatenate", &[&tuple], &[("axis", int(1))]),
        Ok("Tensor[(n, 280000), float32]".into())
    );
    assert_eq!(
        infer("stack", &[&tuple], &[("axis", int(-1))]),
        Ok("Tensor[(n, 4, 70000), float32]".into())
    );
}

/// Every order of the same fields gives the same outcome (TVM's depends on the order).
#[test]
fn concatenate_does_not_depend_on_field_order() {
    let perms = |f: [&'static str; 3]| {
        [
            [f[0], f[1], f[2]],
            [f[0], f[2], f[1]],
            [f[1], f[0], f[2]],
            [f[1], f[2], f[0]],
            [f[2], f[0], f[1]],
            [f[2], f[1], f[0]],
        ]
    };
    let ok = [
        "Tensor[(?, 3), float32]",
        "Tensor[(n, 2), float32]",
        "Tensor[(?, 4), float32]",
    ];
    for p in perms(ok) {
        let tuple = format!("({}, {}, {})", p[0], p[1], p[2]);
        assert_eq!(
            infer("concatenate", &[&tuple], &[("axis", int(1))]),
            Ok("Tensor[(n, 9), float32]".to_string()),
            "{tuple}"
        );
    }
    let clash = [
        "Tensor[(?, 3), float32]",
        "Tensor[(n, 2), float32]",
        "Tensor[(2, 4), float32]",
    ];
    for p in perms(clash) {
        let tuple = format!("({}, {}, {})", p[0], p[1], p[2]);
        let got = infer("concatenate", &[&tuple], &[("axis", int(1))]);
        assert!(
            got.as_ref()
                .is_err_and(|e| e.contains("needs the other dimensions to agree: dimension 0")),
            "{tuple}: {got:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// expand_dims
// ---------------------------------------------------------------------------------------

#[test]
fn expand_dims_table() {
    let e = "expand_dims";
    check(&[
        (
            e,
            &["Tensor[(2, 3), float32]"],
            &[("axis", int(0))],
            Ok("Tensor[(1, 2, 3), float32]"),
        ),
        (
            e,
            &["Tensor[(2, 3), float32]"],
            &[("axis", int(2))],
            Ok("Tensor[(2, 3, 1), float32]"),
        ),
        (
            e,
            &["float32"],
            &[("axis", int(0)), ("num_newaxis", int(2))],
            Ok("Tensor[(1, 1), float32]"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(1)), ("num_newaxis", int(2))],
            Ok("Tensor[(n, 1, 1, 3), float32]"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(-1))],
            Ok("Tensor[(n, 3, 1), float32]"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(-3))],
            Ok("Tensor[(1, n, 3), float32]"),
        ),
        (
            e,
            &["Tensor[(?, 3), float32]"],
            &[("axis", int(-2))],
            Ok("Tensor[(?, 1, 3), float32]"),
        ),
        (
            e,
            &["Tensor[(?, 3), float32]"],
            &[("axis", int(1)), ("num_newaxis", int(0))],
            Ok("Tensor[(?, 3), float32]"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(3))],
            Err("`axis` 3 is out of range for inserting into `Tensor[(n, 3), float32]` (from -3 to 2)"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(-4))],
            Err("`axis` -4 is out of range for inserting into `Tensor[(n, 3), float32]` (from -3 to 2)"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[("axis", int(0)), ("num_newaxis", int(-1))],
            Err("`num_newaxis` must not be negative"),
        ),
        (
            e,
            &["Tensor[(n, 3), float32]"],
            &[],
            Err("`expand_dims` needs attribute `axis` of type `int`"),
        ),
        (e, &["_"], &[("axis", int(0))], Err("waiting: ExpandDims")),
    ]);
}

// ---------------------------------------------------------------------------------------
// nn.dense, nn.matmul
// ---------------------------------------------------------------------------------------

#[test]
fn dense_table() {
    let d = "nn.dense";
    check(&[
        (d, &["Tensor[(4, 768), float32]", "Tensor[(64, 768), float32]"], &[], Ok("Tensor[(4, 64), float32]")),
        (d, &["Tensor[(2, 4, 8), float32]", "Tensor[(3, 8), float32]"], &[("units", int(3))], Ok("Tensor[(2, 4, 3), float32]")),
        (d, &["Tensor[(8), float32]", "Tensor[(3, 8), float32]"], &[], Ok("Tensor[(3), float32]")),
        (d, &["Tensor[(4, 8), int8]", "Tensor[(3, 8), int8]"], &[("out_dtype", string("int32"))], Ok("Tensor[(4, 3), int32]")),
        (d, &["Tensor[(n, k), float32]", "Tensor[(m, k), float32]"], &[], Ok("Tensor[(n, m), float32]")),
        (d, &["Tensor[(n, 2 * k), float32]", "Tensor[(m, k * 2), float32]"], &[], Ok("Tensor[(n, m), float32]")),
        (d, &["Tensor[(?, ?), float32]", "Tensor[(64, 768), float32]"], &[], Ok("Tensor[(?, 64), float32]")),
        (d, &["Tensor[(n, 768), float32]", "Tensor[(?, ?), float32]"], &[], Ok("Tensor[(n, ?), float32]")),
        (d, &["Tensor[(n, 768), float32]", "Tensor[(?, ?), float32]"], &[("units", int(8))], Ok("Tensor[(n, 8), float32]")),
        (d, &["Tensor[(n, 768), float32]", "Tensor[(64, 700), float32]"], &[], Err("the contraction dimensions of `nn.dense` differ: dimension 1 of the data is 768 and dimension 1 of the weight is 700")),
        (d, &["Tensor[(n, k), float32]", "Tensor[(64, m), float32]"], &[], Err("the contraction dimensions of `nn.dense` differ: dimension 1 of the data is k and dimension 1 of the weight is m")),
        (d, &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"], &[("units", int(32))], Err("`units` is 32 but dimension 0 of the weight of `nn.dense` is 64")),
        (d, &["Tensor[(n, 768), float32]", "_"], &[("units", int(-1))], Err("`units` must not be negative, found -1")),
        ("expand_dims", &["Tensor[(n, 768), float32]"], &[("axis", int(0)), ("num_newaxis", int(1 << 40))], Err("`num_newaxis` is too large: 1099511627776")),
        (d, &["Tensor[(n, 768), float32]", "Tensor[(64), float32]"], &[], Err("the weight of `nn.dense` must be 2-D, found `Tensor[(64), float32]`")),
        (d, &["float32", "Tensor[(64, 1), float32]"], &[], Err("the data of `nn.dense` must be at least 1-D, found `float32`")),
        (d, &["_", "Tensor[(64, 768), float32]"], &[], Err("waiting: Dense")),
        (d, &["Tensor[(n, 768), float32]", "_"], &[], Err("waiting: Dense")),
    ]);
}

#[test]
fn dense_and_matmul_infer_the_weight_from_units() {
    check_args(&[
        (
            "nn.dense",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"],
        ),
        (
            "nn.dense",
            &["Tensor[(?, k), float16]", "_"],
            &[("units", int(3))],
            "Tensor[(?, 3), float16]",
            &["Tensor[(?, k), float16]", "Tensor[(3, k), float16]"],
        ),
        (
            "nn.matmul",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(768, 64), float32]"],
        ),
        (
            "nn.matmul",
            &["Tensor[(n, 768), float32]", "_"],
            &[("units", int(64)), ("transpose_b", boolean(true))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(n, 768), float32]", "Tensor[(64, 768), float32]"],
        ),
        (
            "nn.matmul",
            &["Tensor[(768, n), float32]", "_"],
            &[("units", int(64)), ("transpose_a", boolean(true))],
            "Tensor[(n, 64), float32]",
            &["Tensor[(768, n), float32]", "Tensor[(768, 64), float32]"],
        ),
    ]);
}

#[test]
fn matmul_table() {
    let m = "nn.matmul";
    let t = boolean(true);
    check(&[
        (m, &["Tensor[(4, 768), float32]", "Tensor[(768, 64), float32]"], &[], Ok("Tensor[(4, 64), float32]")),
        (m, &["Tensor[(768, 4), float32]", "Tensor[(64, 768), float32]"], &[("transpose_a", t.clone()), ("transpose_b", t.clone())], Ok("Tensor[(4, 64), float32]")),
        (m, &["Tensor[(2, 768, 4), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Ok("Tensor[(2, 4, 64), float32]")),
        (m, &["Tensor[(n, k), float32]", "Tensor[(k, m), float32]"], &[("out_dtype", string("float16"))], Ok("Tensor[(n, m), float16]")),
        (m, &["Tensor[(n, ?), float32]", "Tensor[(3, ?), float32]"], &[], Ok("Tensor[(n, ?), float32]")),
        (m, &["Tensor[(4, 768), float32]", "Tensor[(64, 768), float32]"], &[], Err("the contraction dimensions of `nn.matmul` differ: dimension 1 of the data is 768 and dimension 0 of the weight is 64")),
        (m, &["Tensor[(768, 4), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Ok("Tensor[(4, 64), float32]")),
        (m, &["Tensor[(768, n), float32]", "Tensor[(n, 64), float32]"], &[("transpose_a", t.clone())], Err("the contraction dimensions of `nn.matmul` differ: dimension 0 of the data is 768 and dimension 0 of the weight is n")),
        (m, &["Tensor[(768), float32]", "Tensor[(768, 64), float32]"], &[("transpose_a", t.clone())], Err("the data of `nn.matmul` must be at least 2-D when `transpose_a` is set, found `Tensor[(768), float32]`")),
        (m, &["Tensor[(4, 8), float32]", "Tensor[(8, 3), float32]"], &[("units", int(4))], Err("`units` is 4 but dimension 1 of the weight of `nn.matmul` is 3")),
        (m, &["Tensor[(4, 8), float32]", "_"], &[], Err("waiting: Matmul")),
    ]);
}

// ---------------------------------------------------------------------------------------
// nn.bias_add
// ---------------------------------------------------------------------------------------

#[test]
fn bias_add_table() {
    let b = "nn.bias_add";
    check(&[
        (
            b,
            &["Tensor[(1, 16, 8, 8), float32]", "Tensor[(16), float32]"],
            &[],
            Ok("Tensor[(1, 16, 8, 8), float32]"),
        ),
        (
            b,
            &["Tensor[(1, 8, 8, 16), float32]", "Tensor[(16), float32]"],
            &[("axis", int(-1))],
            Ok("Tensor[(1, 8, 8, 16), float32]"),
        ),
        (
            b,
            &["Tensor[(n, c), float32]", "Tensor[(c), float32]"],
            &[],
            Ok("Tensor[(n, c), float32]"),
        ),
        (
            b,
            &["Tensor[(n, ?), float32]", "Tensor[(16), float32]"],
            &[],
            Ok("Tensor[(n, ?), float32]"),
        ),
        (
            b,
            &["Tensor[(n, 16), float32]", "Tensor[(?), float32]"],
            &[],
            Ok("Tensor[(n, 16), float32]"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "Tensor[(4), float32]"],
            &[],
            Err("dimension 0: 4 vs 3"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "Tensor[(3), int8]"],
            &[],
            Err("dtype: int8 vs float32"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "Tensor[(3, 1), float32]"],
            &[],
            Err("rank 2 `(3, 1)` vs rank 1 `(3)`"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "_"],
            &[("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(n, 3), float32]` (rank 2)"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "_"],
            &[("axis", int(-3))],
            Err("`axis` -3 is out of range for `Tensor[(n, 3), float32]` (rank 2)"),
        ),
        (
            b,
            &["_", "Tensor[(3), float32]"],
            &[],
            Err("waiting: BiasAdd"),
        ),
    ]);
    check_args(&[
        (
            b,
            &["Tensor[(n, 3, ?), float32]", "_"],
            &[],
            "Tensor[(n, 3, ?), float32]",
            &["Tensor[(n, 3, ?), float32]", "Tensor[(3), float32]"],
        ),
        (
            b,
            &["Tensor[(n, 3, ?), float32]", "_"],
            &[("axis", int(-1))],
            "Tensor[(n, 3, ?), float32]",
            &["Tensor[(n, 3, ?), float32]", "Tensor[(?), float32]"],
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "_"],
            &[("axis", int(0))],
            "Tensor[(n, 3), float32]",
            &["Tensor[(n, 3), float32]", "Tensor[(n), float32]"],
        ),
    ]);
}

// ---------------------------------------------------------------------------------------
// nn.dropout
// ---------------------------------------------------------------------------------------

#[test]
fn dropout_table() {
    let d = "nn.dropout";
    check(&[
        (
            d,
            &["Tensor[(2, 3), float32]"],
            &[],
            Ok("(Tensor[(2, 3), float32], Tensor[(2, 3), float32])"),
        ),
        (
            d,
            &["Tensor[(n, 3), float16]"],
            &[("rate", AttrValue::Float(0.2))],
            Ok("(Tensor[(n, 3), float16], Tensor[(n, 3), float16])"),
        ),
        (
            d,
            &["Tensor[(?, 3), float32]"],
            &[],
            Ok("(Tensor[(?, 3), float32], Tensor[(?, 3), float32])"),
        ),
        (
            d,
            &["Tensor[(2, 3), float32]"],
            &[("rate", string("high"))],
            Err("attribute `rate` of `nn.dropout` expects `float`, found `\"high\"`"),
        ),
        (d, &["_"], &[], Ok("('t2, 't2)")),
    ]);
}

// ---------------------------------------------------------------------------------------
// nn.batch_norm
// ---------------------------------------------------------------------------------------

#[test]
fn batch_norm_table() {
    let b = "nn.batch_norm";
    let c = "Tensor[(16), float32]";
    check(&[
        (
            b,
            &["Tensor[(1, 16, 8, 8), float32]", c, c, c, c],
            &[],
            Ok("(Tensor[(1, 16, 8, 8), float32], Tensor[(16), float32], Tensor[(16), float32])"),
        ),
        (
            b,
            &["Tensor[(1, 8, 8, 16), float32]", c, c, c, c],
            &[("axis", int(3)), ("epsilon", AttrValue::Float(1e-3))],
            Ok("(Tensor[(1, 8, 8, 16), float32], Tensor[(16), float32], Tensor[(16), float32])"),
        ),
        (
            b,
            &["Tensor[(n, c, h, w), float32]", "_", "_", "_", "_"],
            &[],
            Ok("(Tensor[(n, c, h, w), float32], Tensor[(c), float32], Tensor[(c), float32])"),
        ),
        (
            b,
            &["Tensor[(n, ?), float32]", c, "_", "_", "_"],
            &[],
            Ok("(Tensor[(n, ?), float32], Tensor[(?), float32], Tensor[(?), float32])"),
        ),
        (
            b,
            &[
                "Tensor[(n, 3, 4), float32]",
                "_",
                "Tensor[(5), float32]",
                "_",
                "_",
            ],
            &[],
            Err("`beta` must be `Tensor[(3), float32]` (the dimension of the data `Tensor[(n, 3, 4), float32]` along `axis` 1), found `Tensor[(5), float32]`"),
        ),
        (
            b,
            &[
                "Tensor[(n, 3, 4), float32]",
                "_",
                "_",
                "_",
                "Tensor[(3), float16]",
            ],
            &[],
            Err("`moving_var` must be `Tensor[(3), float32]` (the dimension of the data `Tensor[(n, 3, 4), float32]` along `axis` 1), found `Tensor[(3), float16]`"),
        ),
        (
            b,
            &["Tensor[(n, 3), float32]", "_", "_", "_", "_"],
            &[("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(n, 3), float32]` (rank 2)"),
        ),
        (b, &["_", c, c, c, c], &[], Err("waiting: BatchNorm")),
    ]);
    check_args(&[(
        b,
        &["Tensor[(n, 3, 4), float32]", "_", "_", "_", "_"],
        &[("axis", int(-1))],
        "(Tensor[(n, 3, 4), float32], Tensor[(4), float32], Tensor[(4), float32])",
        &[
            "Tensor[(n, 3, 4), float32]",
            "Tensor[(4), float32]",
            "Tensor[(4), float32]",
            "Tensor[(4), float32]",
            "Tensor[(4), float32]",
        ],
    )]);
}

// ---------------------------------------------------------------------------------------
// nn.layer_norm, nn.instance_norm, nn.group_norm
// ---------------------------------------------------------------------------------------

#[test]
fn norm_table() {
    for (op, num_groups, c) in [
        ("nn.layer_norm", None, "768"),
        ("nn.instance_norm", None, "16"),
        ("nn.group_norm", Some(("num_groups", int(4))), "16"),
    ] {
        let attrs = |more: Option<(&'static str, AttrValue)>| -> Vec<(&'static str, AttrValue)> {
            num_groups.iter().cloned().chain(more).collect()
        };
        let data = "Tensor[(2, 16, 768), float32]";
        let gamma = format!("Tensor[({c}), float32]");
        let none = attrs(None);
        let axis = if op == "nn.layer_norm" { -1 } else { 1 };
        let bad_gamma = format!("`gamma` must be `Tensor[({c}), float32]` (the dimension of the data `{data}` along `axis` {axis}), found `Tensor[(7), float32]`");
        let bad_beta = format!("`beta` must be `Tensor[({c}), float32]` (the dimension of the data `{data}` along `axis` {axis}), found `Tensor[({c}), int8]`");
        let waiting = if op == "nn.instance_norm" {
            "waiting: InstanceNorm"
        } else {
            "waiting: Norm"
        };
        check(&[
            (op, &[data, &gamma, &gamma], &none, Ok(data)),
            (
                op,
                &[data, "_", "Tensor[(2), float32]"],
                &attrs(Some(("axis", int(0)))),
                Ok(data),
            ),
            (
                op,
                &["Tensor[(n, c, d), float32]", "Tensor[(d), float32]", "_"],
                &attrs(Some(("axis", int(-1)))),
                Ok("Tensor[(n, c, d), float32]"),
            ),
            (
                op,
                &["Tensor[(n, ?, ?), float32]", "Tensor[(5), float32]", "_"],
                &none,
                Ok("Tensor[(n, ?, ?), float32]"),
            ),
            (
                op,
                &[data, "Tensor[(7), float32]", "_"],
                &none,
                Err(&bad_gamma),
            ),
            (
                op,
                &[data, "_", &format!("Tensor[({c}), int8]")],
                &none,
                Err(&bad_beta),
            ),
            (
                op,
                &[data, "_", "_"],
                &attrs(Some(("axis", int(3)))),
                Err("`axis` 3 is out of range for `Tensor[(2, 16, 768), float32]` (rank 3)"),
            ),
            (
                op,
                &[data, "_", "_"],
                &attrs(Some(("axis", int(-4)))),
                Err("`axis` -4 is out of range for `Tensor[(2, 16, 768), float32]` (rank 3)"),
            ),
            (op, &["_", &gamma, &gamma], &none, Err(waiting)),
        ]);
        // Backward: gamma and beta from the data's channel axis.
        let dim = if op == "nn.layer_norm" { "d" } else { "c" };
        let v = format!("Tensor[({dim}), float16]");
        check_args(&[(
            op,
            &["Tensor[(n, c, d), float16]", "_", "_"],
            &none,
            "Tensor[(n, c, d), float16]",
            &["Tensor[(n, c, d), float16]", &v, &v],
        )]);
    }
    // Instance normalization needs a spatial axis (TVM's InstanceNormRel: GenCoG's
    // instance_norm_rank); layer normalization does not.
    check(&[
        (
            "nn.instance_norm",
            &["Tensor[(1, 4), float32]", "_", "_"],
            &[],
            Err("`nn.instance_norm` expects data of rank at least 3 (batch, channels, spatial axes), found `Tensor[(1, 4), float32]`"),
        ),
        (
            "nn.layer_norm",
            &["Tensor[(1, 4), float32]", "_", "_"],
            &[],
            Ok("Tensor[(1, 4), float32]"),
        ),
    ]);
    // `num_groups` defaults to 0 (TVM's C++ default); the type does not depend on it.
    assert_eq!(
        infer(
            "nn.group_norm",
            &["Tensor[(2, 16), float32]", "_", "_"],
            &[]
        ),
        Ok("Tensor[(2, 16), float32]".into())
    );
}

// ---------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------

#[test]
fn every_level1_operator_is_registered_at_level_1_with_tvm_defaults() {
    let reg = relay_core::registry::global().unwrap();
    let mut names: Vec<&str> = reg
        .ops()
        .iter()
        .filter(|o| o.file.ends_with("level1.rs"))
        .map(|o| o.name)
        .collect();
    names.sort_unstable();
    let mut want: Vec<&str> = BROADCAST_OPS.into_iter().chain(IDENTITY_OPS).collect();
    want.extend([
        "nn.softmax",
        "concatenate",
        "expand_dims",
        "nn.dense",
        "nn.matmul",
        "nn.log_softmax",
        "nn.bias_add",
        "nn.dropout",
        "nn.batch_norm",
        "nn.layer_norm",
        "nn.instance_norm",
        "nn.group_norm",
    ]);
    want.sort_unstable();
    assert_eq!(names, want);
    for name in &names {
        assert_eq!(reg.op(name).unwrap().level, 1, "{name}");
    }
    let defaults = |op: &str| -> Vec<String> {
        let def = reg.op(op).unwrap();
        def.attrs_for_call(&relay_core::Attrs::EMPTY)
            .map(|a| a.iter().map(|(k, v)| format!("{k}={v}")).collect())
            .unwrap_or_else(|e| vec![e.to_string()])
    };
    assert_eq!(defaults("concatenate"), ["axis=0"]);
    assert_eq!(defaults("nn.softmax"), ["axis=-1"]);
    assert_eq!(defaults("nn.log_softmax"), ["axis=-1"]);
    assert_eq!(defaults("nn.bias_add"), ["axis=1"]);
    assert_eq!(defaults("nn.dropout"), ["rate=0.5"]);
    assert_eq!(defaults("nn.dense"), ["units=None", "out_dtype=None"]);
    assert_eq!(
        defaults("nn.matmul"),
        [
            "units=None",
            "out_dtype=None",
            "transpose_a=False",
            "transpose_b=False"
        ]
    );
    assert_eq!(
        defaults("nn.batch_norm"),
        ["axis=1", "epsilon=1e-5", "center=True", "scale=True"]
    );
    assert_eq!(
        defaults("nn.layer_norm"),
        ["axis=-1", "epsilon=1e-5", "center=True", "scale=True"]
    );
    assert_eq!(
        defaults("nn.instance_norm"),
        ["axis=1", "epsilon=1e-5", "center=True", "scale=True"]
    );
    assert_eq!(
        defaults("nn.group_norm"),
        [
            "num_groups=0",
            "axis=1",
            "epsilon=1e-5",
            "center=True",
            "scale=True"
        ]
    );
    assert_eq!(
        defaults("expand_dims"),
        ["`expand_dims` needs attribute `axis` of type `int`"]
    );
}

// ---------------------------------------------------------------------------------------
// Waiting for a later input (through the solver: the helper has no unknown tuple fields)
// ---------------------------------------------------------------------------------------

/// Solves `rel` over `args` (text types; names bound with `vars` are fresh unknowns),
/// then refines the vars in turn, and returns the outcome after each step (with the
/// output when solved).
fn solve_in_steps(
    rel: relay_core::RelationRef,
    attrs: &[(&str, AttrValue)],
    vars: &[&str],
    args: &[&str],
    refine: &[(&str, &str)],
) -> Vec<String> {
    use relay_core::text::{parse_type, Binding, TypeScope};
    use relay_core::{Attrs, Outcome, Solver, TyCtx};
    let mut s = Solver::new(TyCtx::new());
    let mut scope = TypeScope::new();
    for v in vars {
        let t = s.fresh_ty();
        scope.bind(v, Binding::Ty(t));
    }
    let tys: Vec<_> = args
        .iter()
        .map(|a| parse_type(&mut s.tcx, &mut scope, a).unwrap())
        .collect();
    let attrs = Attrs::new(
        attrs
            .iter()
            .map(|(k, v)| ((*k).into(), v.clone()))
            .collect(),
    );
    s.add_relation(rel, &tys, Some(std::sync::Arc::new(attrs)), 0);
    let mut steps = Vec::new();
    let out = *tys.last().unwrap();
    let step = |s: &mut Solver| match s.solve() {
        Outcome::Solved => {
            let out = s.resolve(out);
            format!("solved {}", s.tcx.show(out))
        }
        Outcome::UnderConstrained(_) => "waiting".to_string(),
        Outcome::Failed(e) => format!("error: {}", e[0].message),
    };
    steps.push(step(&mut s));
    for (v, t) in refine {
        let var = parse_type(&mut s.tcx, &mut scope, v).unwrap();
        let t = parse_type(&mut s.tcx, &mut scope, t).unwrap();
        s.unify(var, t).unwrap();
        steps.push(step(&mut s));
    }
    steps
}

#[test]
fn relations_wait_for_inputs_not_known_yet() {
    use relay_core::Relation;
    use relay_ops::level1::{Concatenate, Dense, ExpandDims, Matmul, Softmax};
    // concatenate: an unknown field, then a field of unknown rank
    assert_eq!(
        solve_in_steps(
            Concatenate::REF,
            &[("axis", int(0))],
            &["X", "O"],
            &["(Tensor[(2, 3), float32], X)", "O"],
            &[("X", "Tensor[(4, 3), float32]")],
        ),
        ["waiting", "solved Tensor[(6, 3), float32]"]
    );
    // ... and the same fields the other way round give the same answer
    assert_eq!(
        solve_in_steps(
            Concatenate::REF,
            &[("axis", int(0))],
            &["X", "O"],
            &["(X, Tensor[(2, 3), float32])", "O"],
            &[("X", "Tensor[(4, 3), float32]")],
        ),
        ["waiting", "solved Tensor[(6, 3), float32]"]
    );
    // dense without units: waits for the weight, then checks the contraction
    assert_eq!(
        solve_in_steps(
            Dense::REF,
            &[],
            &["W", "O"],
            &["Tensor[(n, 8), float32]", "W", "O"],
            &[("W", "Tensor[(4, 9), float32]")],
        ),
        [
            "waiting".to_string(),
            "error: the contraction dimensions of `nn.dense` differ: dimension 1 of the data is 8 and dimension 1 of the weight is 9".to_string()
        ]
    );
    // matmul: the data comes later; the weight was known first
    assert_eq!(
        solve_in_steps(
            Matmul::REF,
            &[],
            &["A", "O"],
            &["A", "Tensor[(8, 4), float32]", "O"],
            &[("A", "Tensor[(n, 8), float32]")],
        ),
        ["waiting", "solved Tensor[(n, 4), float32]"]
    );
    // expand_dims and softmax: the data comes later
    assert_eq!(
        solve_in_steps(
            ExpandDims::REF,
            &[("axis", int(-1)), ("num_newaxis", int(1))],
            &["X", "O"],
            &["X", "O"],
            &[("X", "Tensor[(n), float32]")],
        ),
        ["waiting", "solved Tensor[(n, 1), float32]"]
    );
    assert_eq!(
        solve_in_steps(
            Softmax::REF,
            &[("axis", int(-1))],
            &["X"],
            &["X", "Tensor[(n, 10), float32]"],
            &[],
        ),
        ["solved Tensor[(n, 10), float32]"]
    );
}

#[test]
fn an_error_at_a_later_call_of_an_operator_points_at_that_call() {
    // The parser shares one node per operator named in a source; each call still has its
    // own span, from its own mention.
    let src = "def @f(%a: Tensor[(2), float32]) {\n  let %x = add(%a, %a);\n  add(%x)\n}";
    let checked = relay_ops::prelude::check_with_prelude(src, &[]);
    let spans: Vec<(&str, &str)> = checked
        .errors
        .iter()
        .map(|e| {
            (
                &src[e.span.lo as usize..e.span.hi as usize],
                e.message.as_str(),
            )
        })
        .collect();
    assert_eq!(
        spans,
        [("add(%x)", "`add` takes 2 arguments but 1 was given")]
    );
}

/// TVM 0.8 and earlier printed an int64 scalar without its `i64` suffix: a bare integer
/// takes the integer dtype printed on it (and stays `int32` without one).
#[test]
fn a_bare_integer_takes_the_dtype_tvm_printed_on_it() {
    let src = "def @main(%x: Tensor[(4), int64], %y: Tensor[(4), int32]) {\n  let %a = add(%x, 2 /* ty=int64 */);\n  let %b = multiply(%y, 3);\n  let %c = less(%a, -1 /* ty=int64 span=less:0:0 */);\n  (%a, %b, %c)\n}";
    let (lets, _) = common::bindings(src);
    assert_eq!(
        lets,
        [
            ("a".to_string(), "Tensor[(4), int64]".to_string()),
            ("b".to_string(), "Tensor[(4), int32]".to_string()),
            ("c".to_string(), "Tensor[(4), bool]".to_string()),
        ]
    );
}
