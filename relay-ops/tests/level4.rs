//! Levels 4, 6 and 10: exact result types and errors, table-driven per relation.
//!
//! Each table gives, per case, the operator, the argument types (`_` unknown), the
//! attributes, and the printed result type or the first error's message.

mod common;
use common::{boolean, check, int, ints, string};
use relay_core::AttrValue;

fn none() -> AttrValue {
    AttrValue::None
}

#[test]
fn comparisons_broadcast_to_bool() {
    for op in [
        "equal",
        "not_equal",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
    ] {
        check(&[
            (
                op,
                &["Tensor[(2, 1), float32]", "Tensor[(3), float32]"][..],
                &[],
                Ok("Tensor[(2, 3), bool]"),
            ),
            (
                op,
                &["Tensor[(n, 1), int32]", "Tensor[(4), int32]"][..],
                &[],
                Ok("Tensor[(n, 4), bool]"),
            ),
            (
                op,
                &["Tensor[(?, 3), float32]", "Tensor[(1, 3), float32]"][..],
                &[],
                Ok("Tensor[(?, 3), bool]"),
            ),
            (
                op,
                &["Tensor[(2, 3), float32]", "Tensor[(4), float32]"][..],
                &[],
                Err("`Tensor[(2, 3), float32]` and `Tensor[(4), float32]` do not broadcast: dimension 1 of the first is 3 and dimension 0 of the second is 4"),
            ),
        ]);
    }
}

#[test]
fn comparisons_need_one_dtype() {
    check(&[(
        "equal",
        &["Tensor[(2), float32]", "Tensor[(2), int32]"],
        &[],
        Err("dtype: float32 vs int32"),
    )]);
}

#[test]
fn binary_ops_broadcast() {
    for op in [
        "maximum",
        "minimum",
        "power",
        "left_shift",
        "right_shift",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "logical_and",
        "logical_or",
        "logical_xor",
    ] {
        check(&[
            (
                op,
                &["Tensor[(2, 1), int32]", "Tensor[(3), int32]"][..],
                &[],
                Ok("Tensor[(2, 3), int32]"),
            ),
            (
                op,
                &["Tensor[(n, 1), int32]", "Tensor[(4), int32]"][..],
                &[],
                Ok("Tensor[(n, 4), int32]"),
            ),
            (
                op,
                &["Tensor[(?), int32]", "Tensor[(5), int32]"][..],
                &[],
                Ok("Tensor[(5), int32]"),
            ),
            (
                op,
                &["Tensor[(n), int32]", "Tensor[(m), int32]"][..],
                &[],
                Err("`Tensor[(n), int32]` and `Tensor[(m), int32]` do not broadcast: dimension 0 of the first is n and dimension 0 of the second is m"),
            ),
        ]);
    }
}

#[test]
fn unary_ops_are_identity() {
    for op in ["logical_not", "bitwise_not"] {
        check(&[
            (
                op,
                &["Tensor[(2, 3), bool]"][..],
                &[],
                Ok("Tensor[(2, 3), bool]"),
            ),
            (
                op,
                &["Tensor[(n, 3), int32]"][..],
                &[],
                Ok("Tensor[(n, 3), int32]"),
            ),
            (op, &["Tensor[(?), int8]"][..], &[], Ok("Tensor[(?), int8]")),
            (
                op,
                &["(Tensor[(2), bool],)"][..],
                &[],
                Ok("(Tensor[(2), bool],)"),
            ),
        ]);
    }
}

#[test]
fn reductions() {
    for op in ["sum", "mean", "max", "min", "prod", "all", "any"] {
        check(&[
            // Static: one axis, all axes, keepdims, exclude, negative axes.
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(4, 6), float32]"),
            ),
            (op, &["Tensor[(4, 5, 6), float32]"][..], &[], Ok("float32")),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", none())],
                Ok("float32"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[]))],
                Ok("float32"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("keepdims", boolean(true))],
                Ok("Tensor[(1, 1, 1), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[-1, 0])), ("keepdims", boolean(true))],
                Ok("Tensor[(1, 5, 1), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[1])), ("exclude", boolean(true))],
                Ok("Tensor[(5), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[0, 1, 2])), ("exclude", boolean(true))],
                Ok("Tensor[(4, 5, 6), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("exclude", boolean(true))],
                Ok("float32"),
            ),
            // Symbolic and `?`.
            (
                op,
                &["Tensor[(n, m, 3), float32]"][..],
                &[("axis", ints(&[2]))],
                Ok("Tensor[(n, m), float32]"),
            ),
            (
                op,
                &["Tensor[(n, m, 3), float32]"][..],
                &[("axis", ints(&[0])), ("keepdims", boolean(true))],
                Ok("Tensor[(1, m, 3), float32]"),
            ),
            (
                op,
                &["Tensor[(?, 3), bool]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(?), bool]"),
            ),
            // Errors.
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[("axis", ints(&[2]))],
                Err("`axis` 2 is out of range for a tensor of rank 2"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[("axis", ints(&[-3]))],
                Err("`axis` -3 is out of range for a tensor of rank 2"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[("axis", ints(&[1, -1]))],
                Err("`axis` lists axis 1 twice"),
            ),
            (
                op,
                &["(Tensor[(4), float32],)"][..],
                &[],
                Err("expected a tensor, found `(Tensor[(4), float32],)`"),
            ),
        ]);
    }
}

#[test]
fn reductions_wait_for_the_rank() {
    check(&[("sum", &["_"], &[], Err("waiting: Reduce"))]);
}

#[test]
fn variance_and_std() {
    for op in ["variance", "std"] {
        check(&[
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(4, 1), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(4), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(1, 1), float32]"][..],
                &[("unbiased", boolean(true))],
                Ok("float32"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(1, 5), float32]"][..],
                &[("axis", ints(&[0])), ("keepdims", boolean(true))],
                Ok("Tensor[(1, 5), float32]"),
            ),
            (
                op,
                &["Tensor[(n, 5), float32]", "Tensor[(n, 1), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(n), float32]"),
            ),
            (
                op,
                &["Tensor[(?, 5), float32]", "Tensor[(?, 1), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(?), float32]"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(4), float32]"][..],
                &[("axis", ints(&[1]))],
                Err("`mean` has rank 1, the data has rank 2"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(3, 1), float32]"][..],
                &[("axis", ints(&[1]))],
                Err("axis 0 of `mean` is 3, expected 1 or the data's 4"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(4, 1), float16]"][..],
                &[("axis", ints(&[1]))],
                Err("dtype: float16 vs float32"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]", "Tensor[(4, 1), float32]"][..],
                &[("axis", ints(&[5]))],
                Err("`axis` 5 is out of range for a tensor of rank 2"),
            ),
        ]);
    }
}

#[test]
fn variance_gives_its_output_before_the_mean_is_known() {
    // The mean's check waits; the output is already known (no failure on an unknown input).
    check(&[(
        "variance",
        &["Tensor[(4, 5), float32]", "_"],
        &[],
        Err("waiting: Variance"),
    )]);
}

#[test]
fn arg_reductions() {
    for op in ["argmax", "argmin"] {
        check(&[
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(4), int32]"),
            ),
            (op, &["Tensor[(4, 5), float32]"][..], &[], Ok("int32")),
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[
                    ("axis", ints(&[0])),
                    ("keepdims", boolean(true)),
                    ("select_last_index", boolean(true)),
                ],
                Ok("Tensor[(1, 5), int32]"),
            ),
            (
                op,
                &["Tensor[(4, 5, 6), float32]"][..],
                &[("axis", ints(&[0])), ("exclude", boolean(true))],
                Ok("Tensor[(4), int32]"),
            ),
            (
                op,
                &["Tensor[(n, m), float16]"][..],
                &[("axis", ints(&[-1]))],
                Ok("Tensor[(n), int32]"),
            ),
            (
                op,
                &["Tensor[(?, 7), float32]"][..],
                &[("axis", ints(&[1]))],
                Ok("Tensor[(?), int32]"),
            ),
            (
                op,
                &["Tensor[(4, 5), float32]"][..],
                &[("axis", ints(&[2]))],
                Err("`axis` 2 is out of range for a tensor of rank 2"),
            ),
        ]);
    }
}

fn ss<'a>(begin: &[i64], end: &[i64], strides: Option<&[i64]>) -> Vec<(&'a str, AttrValue)> {
    let mut v = vec![("begin", ints(begin)), ("end", ints(end))];
    if let Some(s) = strides {
        v.push(("strides", ints(s)));
    }
    v
}

#[test]
fn strided_slice_constant_extents() {
    const OP: &str = "strided_slice";
    const X: &[&str] = &["Tensor[(10, 6), float32]"];
    let with = |mut v: Vec<(&'static str, AttrValue)>, k: &'static str, a: AttrValue| {
        v.push((k, a));
        v
    };
    check(&[
        (
            OP,
            X,
            &ss(&[2, 0], &[8, 6], None),
            Ok("Tensor[(6, 6), float32]"),
        ),
        (
            OP,
            X,
            &ss(&[2, 0], &[8, 6], Some(&[3, 2])),
            Ok("Tensor[(2, 3), float32]"),
        ),
        // Padding: the missing axes are whole.
        (OP, X, &ss(&[1], &[4], None), Ok("Tensor[(3, 6), float32]")),
        // Negatives count from the end; ends beyond are clamped.
        (
            OP,
            X,
            &ss(&[-3, 1], &[100, -1], None),
            Ok("Tensor[(3, 4), float32]"),
        ),
        (
            OP,
            X,
            &ss(&[-100], &[3], None),
            Ok("Tensor[(3, 6), float32]"),
        ),
        // Negative strides: begin/end clamp to [-1, extent - 1].
        (
            OP,
            X,
            &ss(&[9], &[-11], Some(&[-1])),
            Ok("Tensor[(10, 6), float32]"),
        ),
        (
            OP,
            X,
            &ss(&[8, 5], &[2, 0], Some(&[-2, -2])),
            Ok("Tensor[(3, 3), float32]"),
        ),
        // Empty slices.
        (OP, X, &ss(&[4], &[4], None), Ok("Tensor[(0, 6), float32]")),
        (
            OP,
            X,
            &ss(&[20], &[30], None),
            Ok("Tensor[(0, 6), float32]"),
        ),
        // `axes`.
        (
            OP,
            X,
            &with(ss(&[1], &[3], None), "axes", ints(&[1])),
            Ok("Tensor[(10, 2), float32]"),
        ),
        (
            OP,
            X,
            &with(ss(&[1, 0], &[3, 9], Some(&[2])), "axes", ints(&[-1, 0])),
            Ok("Tensor[(5, 1), float32]"),
        ),
        // `slice_mode="size"`: sizes, `-1` to the end, strides ignored.
        (
            OP,
            X,
            &with(
                ss(&[2, 1], &[3, -1], Some(&[5, 5])),
                "slice_mode",
                string("size"),
            ),
            Ok("Tensor[(3, 5), float32]"),
        ),
        (
            OP,
            X,
            &with(ss(&[8], &[5], None), "slice_mode", string("size")),
            Ok("Tensor[(2, 6), float32]"),
        ),
        (
            OP,
            X,
            &with(ss(&[-2], &[2], None), "slice_mode", string("size")),
            Ok("Tensor[(2, 6), float32]"),
        ),
        // Errors.
        (
            OP,
            X,
            &ss(&[5], &[2], None),
            Err("`strided_slice` at axis 0: begin 5 and end 2 are in the wrong order for stride 1"),
        ),
        (
            OP,
            X,
            &ss(&[2], &[5], Some(&[-1])),
            Err(
                "`strided_slice` at axis 0: begin 2 and end 5 are in the wrong order for stride -1",
            ),
        ),
        (
            OP,
            X,
            &ss(&[0], &[5], Some(&[0])),
            Err("`strides` is 0 at axis 0"),
        ),
        (
            OP,
            X,
            &ss(&[0, 0, 0], &[1, 1, 1], None),
            Err("`begin` has 3 entries, the data has rank 2"),
        ),
        (
            OP,
            X,
            &with(ss(&[0], &[1], None), "axes", ints(&[2])),
            Err("`axes` 2 is out of range for `Tensor[(10, 6), float32]` (rank 2)"),
        ),
        (
            OP,
            X,
            &with(ss(&[0], &[1, 2], None), "axes", ints(&[0])),
            Err("`end` has 2 entries, `axes` has 1"),
        ),
        (
            OP,
            X,
            &with(ss(&[0], &[1], None), "slice_mode", string("stop")),
            Err("`slice_mode` must be \"end\" or \"size\", found \"stop\""),
        ),
    ]);
}

#[test]
fn strided_slice_symbolic_and_any_extents() {
    const OP: &str = "strided_slice";
    check(&[
        // The brief's case: begin 0, end -1 on `n` is `n - 1`.
        (OP, &["Tensor[(n), float32]"], &ss(&[0], &[-1], None), Ok("Tensor[(n - 1), float32]")),
        (OP, &["Tensor[(n, 4), float32]"], &ss(&[2, 1], &[2147483647, 3], None), Ok("Tensor[(n - 2, 2), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[-3], &[-1], None), Ok("Tensor[(2), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[0], &[2147483647], Some(&[2])), Ok("Tensor[(floordiv(n + 1, 2)), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[-1], &[-2147483648], Some(&[-1])), Ok("Tensor[(n), float32]")),
        (OP, &["Tensor[(2 * n), float32]"], &ss(&[0], &[2147483647], Some(&[2])), Ok("Tensor[(n), float32]")),
        // An untouched symbolic axis is kept as it is.
        (OP, &["Tensor[(n, m), float32]"], &ss(&[0, 1], &[-1], None), Ok("Tensor[(n - 1, m - 1), float32]")),
        // A far end given as an absolute position may lie beyond `n`: `?`, not a guess.
        (OP, &["Tensor[(n, m), float32]"], &ss(&[1], &[3], None), Ok("Tensor[(?, m), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[0], &[10000], None), Ok("Tensor[(?), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[5], &[0], Some(&[-1])), Ok("Tensor[(?), float32]")),
        (OP, &["Tensor[(n), float32]"], &ss(&[-1], &[0], Some(&[-1])), Ok("Tensor[(n - 1), float32]")),
        (OP, &["Tensor[(n), float32]"], &[("begin", ints(&[1])), ("end", ints(&[4])), ("slice_mode", string("size"))], Ok("Tensor[(4), float32]")),
        // `?` gives `?`; its neighbours stay exact.
        (OP, &["Tensor[(?, 10), float32]"], &ss(&[1, 1], &[3, 3], None), Ok("Tensor[(?, 2), float32]")),
        // Errors: a constant negative size.
        (OP, &["Tensor[(n), float32]"], &ss(&[-1], &[-3], None), Err("`strided_slice` at axis 0: begin -1 and end -3 are in the wrong order for stride 1")),
        (OP, &["Tensor[(n), float32]"], &ss(&[], &[], Some(&[0])), Err("`strides` is 0 at axis 0")),
        // Waits for the data.
        (OP, &["_"], &ss(&[0], &[1], None), Err("waiting: StridedSlice")),
    ]);
}

#[test]
fn broadcast_to_and_collapse_sum_to() {
    check(&[
        ("broadcast_to", &["Tensor[(3, 1), float32]"], &[("shape", ints(&[2, 3, 4]))], Ok("Tensor[(2, 3, 4), float32]")),
        ("broadcast_to", &["Tensor[(?, 1), float32]"], &[("shape", ints(&[3, 4]))], Ok("Tensor[(3, 4), float32]")),
        ("broadcast_to", &["Tensor[(1), int8]"], &[("shape", ints(&[]))], Err("the data does not broadcast to `shape`")),
        ("broadcast_to", &["Tensor[(3), float32]"], &[("shape", ints(&[1]))], Err("the data does not broadcast to `shape`")),
        ("broadcast_to", &["Tensor[(n), float32]"], &[("shape", ints(&[4]))], Err("`Tensor[(n), float32]` and `(4)` do not broadcast: dimension 0 of the first is n and dimension 0 of the second is 4")),
        // `broadcast_to`'s `dtype` (TVM's `InitOpAttrs`, printed `dtype=""`) is not read.
        ("broadcast_to", &["Tensor[(3, 1), int8]"], &[("shape", ints(&[2, 3, 4])), ("dtype", string(""))], Ok("Tensor[(2, 3, 4), int8]")),
        ("broadcast_to", &["Tensor[(3, 1), int8]"], &[("shape", ints(&[3, 4])), ("dtype", string("float32"))], Ok("Tensor[(3, 4), int8]")),
        // collapse_sum_to(data, shape): the target as a 1-D tensor and as the `shape`
        // attribute (as TVM makes it from a constant), or only the tensor (`?`s).
        ("collapse_sum_to", &["Tensor[(2, 3, 4), float32]", "Tensor[(2), int64]"], &[("shape", ints(&[3, 1]))], Ok("Tensor[(3, 1), float32]")),
        ("collapse_sum_to", &["Tensor[(n, 3), float32]", "Tensor[(1), int32]"], &[("shape", ints(&[3]))], Ok("Tensor[(3), float32]")),
        ("collapse_sum_to", &["Tensor[(?, 3), float32]", "_"], &[("shape", ints(&[1, 3]))], Ok("Tensor[(1, 3), float32]")),
        ("collapse_sum_to", &["Tensor[(2, 3, 4), float16]", "Tensor[(2), int64]"], &[("dtype", string(""))], Ok("Tensor[(?, ?), float16]")),
        ("collapse_sum_to", &["Tensor[(2, 3, 4), float16]", "Tensor[(2), int64]"], &[], Ok("Tensor[(?, ?), float16]")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "_"], &[], Err("waiting: CollapseSumTo")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(?), int64]"], &[], Err("the target shape of `collapse_sum_to` must have a static length, found ? (and `shape` is unset)")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(3), int64]"], &[("shape", ints(&[2, 2, 3]))], Err("the target shape of `collapse_sum_to` does not broadcast to the data's: `Tensor[(2, 2, 3), float32]` from `Tensor[(2, 3), float32]`")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(1), int64]"], &[("shape", ints(&[4]))], Err("the target shape of `collapse_sum_to` does not broadcast to the data's: `Tensor[(4), float32]` from `Tensor[(2, 3), float32]`")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(2), int64]"], &[("shape", ints(&[3]))], Err("the target shape of `collapse_sum_to` has 2 elements but `shape` has 1")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(1, 1), int64]"], &[("shape", ints(&[3]))], Err("the target shape of `collapse_sum_to` must be a 1-D integer tensor, found `Tensor[(1, 1), int64]`")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(1), float32]"], &[("shape", ints(&[3]))], Err("the target shape of `collapse_sum_to` must be a 1-D integer tensor, found `Tensor[(1), float32]`")),
        ("collapse_sum_to", &["Tensor[(2, 3), float32]", "Tensor[(1), int64]"], &[("shape", ints(&[-3]))], Err("`shape` of `collapse_sum_to` must not have a negative dimension, found -3")),
    ]);
}

#[test]
fn where_broadcasts_three_ways() {
    check(&[
        ("where", &["Tensor[(2, 1), bool]", "Tensor[(3), float32]", "float32"], &[], Ok("Tensor[(2, 3), float32]")),
        ("where", &["Tensor[(n, 1), bool]", "Tensor[(n, 4), float32]", "Tensor[(4), float32]"], &[], Ok("Tensor[(n, 4), float32]")),
        ("where", &["Tensor[(?), int32]", "Tensor[(1), float32]", "Tensor[(1), float32]"], &[], Ok("Tensor[(?), float32]")),
        ("where", &["Tensor[(2), bool]", "Tensor[(2), float32]", "Tensor[(2), int32]"], &[], Err("dtype: float32 vs int32")),
        ("where", &["Tensor[(3), bool]", "Tensor[(2), float32]", "Tensor[(2), float32]"], &[], Err("`Tensor[(3), bool]` and `(2)` do not broadcast: dimension 0 of the first is 3 and dimension 0 of the second is 2")),
    ]);
}

#[test]
fn topk() {
    const X: &[&str] = &["Tensor[(4, 10), float32]"];
    check(&[
        (
            "topk",
            X,
            &[("k", int(1))],
            Ok("(Tensor[(4, 1), float32], Tensor[(4, 1), int32])"),
        ),
        // `k` has no default (none in TVM's C++; the Python API's 1 is not one).
        (
            "topk",
            X,
            &[],
            Err("`topk` needs attribute `k` of type `int`"),
        ),
        // An unset `dtype` (TVM's C++ default, printed `""`) gives int32 indices.
        (
            "topk",
            X,
            &[("k", int(2)), ("dtype", string(""))],
            Ok("(Tensor[(4, 2), float32], Tensor[(4, 2), int32])"),
        ),
        (
            "topk",
            X,
            &[
                ("k", int(3)),
                ("axis", int(0)),
                ("is_ascend", boolean(true)),
            ],
            Ok("(Tensor[(3, 10), float32], Tensor[(3, 10), int32])"),
        ),
        (
            "topk",
            X,
            &[("k", int(3)), ("ret_type", string("values"))],
            Ok("Tensor[(4, 3), float32]"),
        ),
        (
            "topk",
            X,
            &[
                ("k", int(3)),
                ("ret_type", string("indices")),
                ("dtype", string("int64")),
            ],
            Ok("Tensor[(4, 3), int64]"),
        ),
        (
            "topk",
            X,
            &[("k", int(0)), ("ret_type", string("values"))],
            Ok("Tensor[(4, 10), float32]"),
        ),
        (
            "topk",
            &["Tensor[(n, m), float32]"],
            &[("k", int(5)), ("ret_type", string("values"))],
            Ok("Tensor[(n, 5), float32]"),
        ),
        (
            "topk",
            &["Tensor[(n, m), float32]"],
            &[("k", int(-1)), ("ret_type", string("indices"))],
            Ok("Tensor[(n, m), int32]"),
        ),
        (
            "topk",
            &["Tensor[(?, ?), float32]"],
            &[("k", int(2))],
            Ok("(Tensor[(?, 2), float32], Tensor[(?, 2), int32])"),
        ),
        (
            "topk",
            X,
            &[("k", int(11))],
            Err("`k` is 11, but axis 1 has only 10 elements"),
        ),
        (
            "topk",
            X,
            &[("k", int(1)), ("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(4, 10), float32]` (rank 2)"),
        ),
        (
            "topk",
            X,
            &[("k", int(1)), ("ret_type", string("all"))],
            Err("`ret_type` must be \"both\", \"values\" or \"indices\", found \"all\""),
        ),
    ]);
}

#[test]
fn argsort_and_sort() {
    check(&[
        (
            "argsort",
            &["Tensor[(4, 10), float32]"],
            &[],
            Ok("Tensor[(4, 10), int32]"),
        ),
        (
            "argsort",
            &["Tensor[(4, 10), float32]"],
            &[
                ("axis", int(0)),
                ("is_ascend", boolean(false)),
                ("dtype", string("int64")),
            ],
            Ok("Tensor[(4, 10), int64]"),
        ),
        (
            "argsort",
            &["Tensor[(n), float32]"],
            &[],
            Ok("Tensor[(n), int32]"),
        ),
        (
            "argsort",
            &["Tensor[(?, 3), float32]"],
            &[("axis", int(-2))],
            Ok("Tensor[(?, 3), int32]"),
        ),
        (
            "argsort",
            &["Tensor[(4, 10), float32]"],
            &[("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(4, 10), float32]` (rank 2)"),
        ),
        (
            "argsort",
            &["Tensor[(4, 10), float32]"],
            &[("axis", int(-3))],
            Err("`axis` -3 is out of range for `Tensor[(4, 10), float32]` (rank 2)"),
        ),
        (
            "sort",
            &["Tensor[(4, 10), float32]"],
            &[],
            Ok("Tensor[(4, 10), float32]"),
        ),
        (
            "sort",
            &["Tensor[(n, m), int8]"],
            &[("axis", int(0)), ("is_ascend", boolean(false))],
            Ok("Tensor[(n, m), int8]"),
        ),
        (
            "sort",
            &["Tensor[(?), float32]"],
            &[],
            Ok("Tensor[(?), float32]"),
        ),
        (
            "sort",
            &["float32"],
            &[],
            Err("`axis` -1 is out of range for `float32` (rank 0)"),
        ),
    ]);
}

#[test]
fn batch_matmul() {
    const OP: &str = "nn.batch_matmul";
    check(&[
        // transpose_a and transpose_b default to false, as TVM's C++ attributes (whose
        // defaults its printer omits): minGPT's attention scores as TVM prints them.
        (
            OP,
            &[
                "Tensor[(12, 128, 64), float16]",
                "Tensor[(12, 64, 128), float16]",
            ],
            &[("out_dtype", string("float16"))],
            Ok("Tensor[(12, 128, 128), float16]"),
        ),
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(1, 64, 32), float32]",
            ],
            &[],
            Ok("Tensor[(8, 4, 32), float32]"),
        ),
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(8, 32, 64), float32]",
            ],
            &[("transpose_b", boolean(true))],
            Ok("Tensor[(8, 4, 32), float32]"),
        ),
        (
            OP,
            &[
                "Tensor[(1, 64, 4), float32]",
                "Tensor[(8, 64, 32), float32]",
            ],
            &[("transpose_a", boolean(true))],
            Ok("Tensor[(8, 4, 32), float32]"),
        ),
        (
            OP,
            &[
                "Tensor[(1, 64, 4), float32]",
                "Tensor[(8, 32, 64), float32]",
            ],
            &[
                ("transpose_a", boolean(true)),
                ("transpose_b", boolean(true)),
            ],
            Ok("Tensor[(8, 4, 32), float32]"),
        ),
        (
            OP,
            &["Tensor[(8, 4, 64), int8]", "Tensor[(8, 64, 32), int8]"],
            &[("out_dtype", string("int32"))],
            Ok("Tensor[(8, 4, 32), int32]"),
        ),
        // `out_dtype=""` (how TVM prints an unset dtype) is x's dtype.
        (
            OP,
            &["Tensor[(8, 4, 64), int8]", "Tensor[(8, 64, 32), int8]"],
            &[("out_dtype", string(""))],
            Ok("Tensor[(8, 4, 32), int8]"),
        ),
        // Symbolic: equal by normal form.
        (
            OP,
            &[
                "Tensor[(b, n, 2 * k), float32]",
                "Tensor[(b, k + k, m), float32]",
            ],
            &[],
            Ok("Tensor[(b, n, m), float32]"),
        ),
        (
            OP,
            &["Tensor[(b, n, k), float32]", "Tensor[(1, m, k), float32]"],
            &[("transpose_b", boolean(true))],
            Ok("Tensor[(b, n, m), float32]"),
        ),
        // `?`: a batch `?` against a constant takes the constant, against 1 stays `?`.
        (
            OP,
            &["Tensor[(?, 4, ?), float32]", "Tensor[(8, 64, 32), float32]"],
            &[],
            Ok("Tensor[(8, 4, 32), float32]"),
        ),
        (
            OP,
            &[
                "Tensor[(?, 4, 64), float32]",
                "Tensor[(1, 64, 32), float32]",
            ],
            &[],
            Ok("Tensor[(?, 4, 32), float32]"),
        ),
        // Errors.
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(8, 63, 32), float32]",
            ],
            &[],
            Err("the contraction dimensions of `nn.batch_matmul` differ: 64 in `x` and 63 in `y`"),
        ),
        // The Python API's default form `(b, j, k)` without `transpose_b=True`.
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(8, 32, 64), float32]",
            ],
            &[],
            Err("the contraction dimensions of `nn.batch_matmul` differ: 64 in `x` and 32 in `y`"),
        ),
        (
            OP,
            &["Tensor[(b, n, k), float32]", "Tensor[(b, j, m), float32]"],
            &[],
            Err("the contraction dimensions of `nn.batch_matmul` differ: k in `x` and j in `y`"),
        ),
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(3, 64, 32), float32]",
            ],
            &[],
            Err("the batch dimensions of `nn.batch_matmul` differ: 8 in `x` and 3 in `y`"),
        ),
        (
            OP,
            &["Tensor[(4, 64), float32]", "Tensor[(8, 64, 32), float32]"],
            &[],
            Err("`nn.batch_matmul` needs 3-D tensors, `x` has rank 2"),
        ),
        (
            OP,
            &[
                "Tensor[(8, 4, 64), float32]",
                "Tensor[(8, 64, 32), float16]",
            ],
            &[],
            Err("dtype: float16 vs float32"),
        ),
        // Waits for `y` instead of failing.
        (
            OP,
            &["Tensor[(8, 4, 64), float32]", "_"],
            &[],
            Err("waiting: BatchMatmul"),
        ),
    ]);
}

#[test]
fn like_ops() {
    check(&[
        (
            "broadcast_to_like",
            &["Tensor[(3, 1), float32]", "Tensor[(2, 3, 4), int8]"],
            &[],
            Ok("Tensor[(2, 3, 4), float32]"),
        ),
        (
            "broadcast_to_like",
            &["Tensor[(n, 1), float32]", "Tensor[(n, 4), int8]"],
            &[],
            Ok("Tensor[(n, 4), float32]"),
        ),
        (
            "broadcast_to_like",
            &["Tensor[(?, 1), float32]", "Tensor[(3, ?), int8]"],
            &[],
            Ok("Tensor[(3, ?), float32]"),
        ),
        (
            "broadcast_to_like",
            &["Tensor[(3, 4), float32]", "Tensor[(1, 4), int8]"],
            &[],
            Err("the data does not broadcast to the shape of `broadcast_type`"),
        ),
        (
            "collapse_sum_like",
            &["Tensor[(2, 3, 4), float32]", "Tensor[(3, 1), int8]"],
            &[],
            Ok("Tensor[(3, 1), float32]"),
        ),
        (
            "collapse_sum_like",
            &["Tensor[(n, 4), float32]", "Tensor[(4), int8]"],
            &[],
            Ok("Tensor[(4), float32]"),
        ),
        (
            "collapse_sum_like",
            &["Tensor[(?, 4), float32]", "Tensor[(1, 4), int8]"],
            &[],
            Ok("Tensor[(1, 4), float32]"),
        ),
        (
            "collapse_sum_like",
            &["Tensor[(3), float32]", "Tensor[(2, 3), int8]"],
            &[],
            Err("the shape of `collapse_type` does not broadcast to the data's shape"),
        ),
    ]);
}

#[test]
fn slice_like() {
    check(&[
        (
            "slice_like",
            &["Tensor[(8, 8, 3), float32]", "Tensor[(4, 5), float32]"],
            &[],
            Ok("Tensor[(4, 5, 3), float32]"),
        ),
        (
            "slice_like",
            &["Tensor[(8, 8, 3), float32]", "Tensor[(4, 5, 2), float32]"],
            &[("axes", ints(&[1, -1]))],
            Ok("Tensor[(8, 5, 2), float32]"),
        ),
        (
            "slice_like",
            &["Tensor[(n, 8), float32]", "Tensor[(m, 4), float32]"],
            &[],
            Ok("Tensor[(m, 4), float32]"),
        ),
        (
            "slice_like",
            &["Tensor[(?, 8), float32]", "Tensor[(3, ?), float32]"],
            &[],
            Ok("Tensor[(3, ?), float32]"),
        ),
        (
            "slice_like",
            &["Tensor[(8, 8), float32]", "Tensor[(9, 4), float32]"],
            &[],
            Err("axis 0 of `shape_like` is 9, larger than the data's 8"),
        ),
        (
            "slice_like",
            &["Tensor[(8, 8, 3), float32]", "Tensor[(4, 5), float32]"],
            &[("axes", ints(&[2]))],
            Err("`axes` names axis 2, `shape_like` has rank 2"),
        ),
        (
            "slice_like",
            &["Tensor[(8, 8), float32]", "Tensor[(4, 5), float32]"],
            &[("axes", ints(&[3]))],
            Err("`axes` 3 is out of range for `Tensor[(8, 8), float32]` (rank 2)"),
        ),
    ]);
}

#[test]
fn shape_of_and_ndarray_size() {
    check(&[
        (
            "shape_of",
            &["Tensor[(2, 3, 4), float32]"],
            &[],
            Ok("Tensor[(3), int32]"),
        ),
        (
            "shape_of",
            &["Tensor[(n, 3), float32]"],
            &[("dtype", string("int64"))],
            Ok("Tensor[(2), int64]"),
        ),
        (
            "shape_of",
            &["Tensor[(?, ?), float32]"],
            &[],
            Ok("Tensor[(2), int32]"),
        ),
        ("shape_of", &["float32"], &[], Ok("Tensor[(0), int32]")),
        (
            "shape_of",
            &["(float32, float32)"],
            &[],
            Err("expected a tensor, found `(float32, float32)`"),
        ),
        ("shape_of", &["_"], &[], Err("waiting: ShapeOf")),
        (
            "ndarray_size",
            &["Tensor[(2, 3, 4), float32]"],
            &[],
            Ok("int32"),
        ),
        (
            "ndarray_size",
            &["Tensor[(n, 3), float32]"],
            &[("dtype", string("int64"))],
            Ok("int64"),
        ),
        ("ndarray_size", &["Tensor[(?), float32]"], &[], Ok("int32")),
        (
            "ndarray_size",
            &["(float32,)"],
            &[],
            Err("expected a tensor, found `(float32,)`"),
        ),
    ]);
}

#[test]
fn one_hot() {
    let attrs = |depth: i64, axis: Option<i64>| {
        let mut v = vec![("depth", int(depth)), ("dtype", string("float32"))];
        if let Some(a) = axis {
            v.push(("axis", int(a)));
        }
        v
    };
    const F: &str = "float32";
    check(&[
        (
            "one_hot",
            &["Tensor[(2, 3), int32]", F, F],
            &attrs(10, None),
            Ok("Tensor[(2, 3, 10), float32]"),
        ),
        (
            "one_hot",
            &["Tensor[(2, 3), int32]", F, F],
            &attrs(10, Some(0)),
            Ok("Tensor[(10, 2, 3), float32]"),
        ),
        (
            "one_hot",
            &["Tensor[(2, 3), int64]", F, F],
            &attrs(10, Some(-2)),
            Ok("Tensor[(2, 10, 3), float32]"),
        ),
        (
            "one_hot",
            &["Tensor[(n), int32]", F, F],
            &attrs(4, None),
            Ok("Tensor[(n, 4), float32]"),
        ),
        (
            "one_hot",
            &["Tensor[(?), uint8]", F, F],
            &attrs(4, Some(1)),
            Ok("Tensor[(?, 4), float32]"),
        ),
        // The scalar values are inferred from `dtype`.
        (
            "one_hot",
            &["Tensor[(3), int32]", "_", "_"],
            &attrs(4, None),
            Ok("Tensor[(3, 4), float32]"),
        ),
        (
            "one_hot",
            &["Tensor[(3), float32]", F, F],
            &attrs(4, None),
            Err("`one_hot` needs integer indices, found float32"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", F, F],
            &attrs(4, Some(2)),
            Err("`axis` 2 is out of range for inserting into `Tensor[(3), int32]` (from -2 to 1)"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", "Tensor[(1), float32]", F],
            &attrs(4, None),
            Err("rank 1 `(1)` vs rank 0 `()`"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", F, "int32"],
            &attrs(4, None),
            Err("dtype: int32 vs float32"),
        ),
        // `depth` defaults to 1 (TVM's C++ default).
        (
            "one_hot",
            &["Tensor[(3), int32]", F, F],
            &[("dtype", string("float32"))],
            Ok("Tensor[(3, 1), float32]"),
        ),
        // An unset `dtype` (TVM's C++ default, printed `""`) is the values' dtype.
        (
            "one_hot",
            &["Tensor[(3), int32]", "int8", "_"],
            &[("depth", int(5))],
            Ok("Tensor[(3, 5), int8]"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", "_", "float16"],
            &[("depth", int(5)), ("dtype", string(""))],
            Ok("Tensor[(3, 5), float16]"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", "int8", "float16"],
            &[("depth", int(5))],
            Err("dtype: float16 vs int8"),
        ),
        (
            "one_hot",
            &["Tensor[(3), int32]", "_", "_"],
            &[("depth", int(5))],
            Err("waiting: OneHot"),
        ),
    ]);
}

/// Every operator of this file: registered at its TVM level, documented with an example
/// in Relay text that calls it.
#[test]
fn operators_are_registered_with_level_and_example() {
    let reg = relay_core::registry::global().unwrap();
    let ops: &[(&str, u8)] = &[
        ("equal", 4),
        ("not_equal", 4),
        ("less", 4),
        ("less_equal", 4),
        ("greater", 4),
        ("greater_equal", 4),
        ("maximum", 4),
        ("minimum", 4),
        ("power", 4),
        ("left_shift", 4),
        ("right_shift", 4),
        ("bitwise_and", 4),
        ("bitwise_or", 4),
        ("bitwise_xor", 4),
        ("logical_and", 4),
        ("logical_or", 4),
        ("logical_xor", 4),
        ("logical_not", 4),
        ("bitwise_not", 4),
        ("sum", 4),
        ("mean", 4),
        ("max", 4),
        ("min", 4),
        ("prod", 4),
        ("all", 4),
        ("any", 4),
        ("variance", 4),
        ("std", 4),
        ("argmax", 4),
        ("argmin", 4),
        ("strided_slice", 4),
        ("broadcast_to", 4),
        ("collapse_sum_to", 4),
        ("where", 4),
        ("topk", 6),
        ("argsort", 6),
        ("sort", 6),
        ("nn.batch_matmul", 10),
        ("broadcast_to_like", 10),
        ("collapse_sum_like", 10),
        ("slice_like", 10),
        ("shape_of", 10),
        ("ndarray_size", 10),
        ("one_hot", 10),
    ];
    for &(name, level) in ops {
        let op = reg
            .op(name)
            .unwrap_or_else(|| panic!("`{name}` is not registered"));
        assert_eq!(op.level, level, "{name}");
        assert!(op.file.ends_with("level4.rs"), "{name}: {}", op.file);
        let example = op.doc.split("```text").nth(1).unwrap_or_default();
        assert!(example.contains(&format!("{name}(")), "{name}: {}", op.doc);
    }
}

/// Identity (logical_not, bitwise_not) cannot fail through `infer` (the output is
/// fresh): solve it against a known, different output, and backward from the output.
#[test]
fn identity_ops_relate_both_ways() {
    use relay_core::text::{parse_type, TypeScope};
    use relay_core::{Outcome, Solver, TyCtx};
    let run = |op: &str, arg: &str, out: &str| -> Result<String, String> {
        let def = relay_core::registry::global().unwrap().op(op).unwrap();
        let mut tcx = TyCtx::new();
        let f = def.ty(&mut tcx);
        let mut s = Solver::new(tcx);
        let (params, ret, cs) = s.instantiate(f).unwrap();
        let mut scope = TypeScope::new();
        for (t, src) in [(params[0], arg), (ret, out)] {
            if src != "_" {
                let ty = parse_type(&mut s.tcx, &mut scope, src).unwrap();
                s.unify(t, ty).unwrap();
            }
        }
        s.add_constraints(&cs, None, 0);
        match s.solve() {
            Outcome::Solved => {
                let a = s.resolve(params[0]);
                Ok(s.tcx.show(a))
            }
            Outcome::Failed(e) => Err(e[0].message.clone()),
            other => Err(format!("{other:?}")),
        }
    };
    for op in ["logical_not", "bitwise_not"] {
        assert_eq!(
            run(op, "_", "Tensor[(n, 3), int32]"),
            Ok("Tensor[(n, 3), int32]".into())
        );
        assert_eq!(
            run(op, "Tensor[(2), bool]", "Tensor[(3), bool]"),
            Err("dimension 0: 2 vs 3".into())
        );
    }
}
