//! Level-3 operators: exact result types and errors, table-driven (a static case, a
//! symbolic case, a case with `?` and an error case per relation), and reshape's element
//! count on generated special-value patterns.

mod common;
use common::oracles::dims_of;
use common::{boolean, check_op, infer, infer_all, int, ints, string};
use relay_core::AttrValue;

#[test]
fn reshape_special_values() {
    check_op(
        "reshape",
        &[
            // Static: every special value.
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[6, 4]))], Ok("Tensor[(6, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[0, -1]))], Ok("Tensor[(2, 12), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[-1]))], Ok("Tensor[(24), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[-2]))], Ok("Tensor[(2, 3, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[2, -2]))], Ok("Tensor[(2, 3, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[-3, 4]))], Ok("Tensor[(6, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[0, -3]))], Ok("Tensor[(2, 12), float32]")),
            (&["Tensor[(6, 4), float32]"], &[("newshape", ints(&[-4, 2, 3, 4]))], Ok("Tensor[(2, 3, 4), float32]")),
            (&["Tensor[(6, 4), float32]"], &[("newshape", ints(&[-4, -1, 3, -2]))], Ok("Tensor[(2, 3, 4), float32]")),
            (&["Tensor[(6, 4), float32]"], &[("newshape", ints(&[-4, 2, -1, 0]))], Ok("Tensor[(2, 3, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]"], &[("newshape", ints(&[-1, 0]))], Ok("Tensor[(8, 3), float32]")),
            (&["Tensor[(2, 0), float32]"], &[("newshape", ints(&[0, 0])), ("allowzero", boolean(true))], Ok("Tensor[(0, 0), float32]")),
            // Symbolic: -1 by exact division in normal form.
            (&["Tensor[(n, 6), float32]"], &[("newshape", ints(&[-1, 3]))], Ok("Tensor[(2*n, 3), float32]")),
            (&["Tensor[(n, m), float32]"], &[("newshape", ints(&[-1]))], Ok("Tensor[(m*n), float32]")),
            (&["Tensor[(n, m, 4), float32]"], &[("newshape", ints(&[0, -1, 2]))], Ok("Tensor[(n, 2*m, 2), float32]")),
            (&["Tensor[(n, m), float32]"], &[("newshape", ints(&[-3]))], Ok("Tensor[(m*n), float32]")),
            (&["Tensor[(2*n, 3), float32]"], &[("newshape", ints(&[-4, 2, -1, 0]))], Ok("Tensor[(2, n, 3), float32]")),
            // `?`: the -1 is `?`, other dims stay.
            (&["Tensor[(?, 6), float32]"], &[("newshape", ints(&[-1, 3]))], Ok("Tensor[(?, 3), float32]")),
            (&["Tensor[(?, 6), float32]"], &[("newshape", ints(&[0, 2, 3]))], Ok("Tensor[(?, 2, 3), float32]")),
            (&["Tensor[(?, 6), float32]"], &[("newshape", ints(&[-3]))], Ok("Tensor[(?), float32]")),
            (&["Tensor[(?, 6), float32]"], &[("newshape", ints(&[7]))], Ok("Tensor[(7), float32]")),
            // Errors.
            (&["Tensor[(2, 3), float32]"], &[("newshape", ints(&[7]))], Err("cannot reshape `Tensor[(2, 3), float32]` (6 elements) to `Tensor[(7), float32]` (7 elements)")),
            (&["Tensor[(n, 3), float32]"], &[("newshape", ints(&[3, 2]))], Err("cannot reshape `Tensor[(n, 3), float32]` (3*n elements) to `Tensor[(3, 2), float32]` (6 elements)")),
            (&["Tensor[(2, 3), float32]"], &[("newshape", ints(&[-1, -1]))], Err("cannot reshape `Tensor[(2, 3), float32]` with newshape [-1, -1]: only one `-1` can be inferred")),
            (&["Tensor[(2, 3), float32]"], &[("newshape", ints(&[4, -1]))], Err("cannot reshape `Tensor[(2, 3), float32]` with newshape [4, -1]: the `-1` cannot be inferred: 6 elements are not divisible by 4")),
            (&["Tensor[(n, 3), float32]"], &[("newshape", ints(&[2, -1]))], Err("cannot reshape `Tensor[(n, 3), float32]` with newshape [2, -1]: the `-1` cannot be inferred: 3*n elements are not divisible by 2")),
            (&["Tensor[(2, 3), float32]"], &[("newshape", ints(&[0, 0, 0]))], Err("cannot reshape `Tensor[(2, 3), float32]` with newshape [0, 0, 0]: `0` has no input dimension left to use (the input has rank 2)")),
            (&["Tensor[(2, 3), float32]"], &[("newshape", ints(&[-3, -3]))], Err("cannot reshape `Tensor[(2, 3), float32]` with newshape [-3, -3]: `-3` has no input dimension left to use (the input has rank 2)")),
            (&["Tensor[(6), float32]"], &[("newshape", ints(&[-4, 2]))], Err("cannot reshape `Tensor[(6), float32]` with newshape [-4, 2]: `-4` needs two values after it")),
            (&["Tensor[(6), float32]"], &[("newshape", ints(&[-4, -1, -1]))], Err("cannot reshape `Tensor[(6), float32]` with newshape [-4, -1, -1]: `-4` splits into at most one `-1`, found two")),
            (&["Tensor[(6), float32]"], &[("newshape", ints(&[-4, 4, -1]))], Err("cannot reshape `Tensor[(6), float32]` with newshape [-4, 4, -1]: `-4` cannot split dimension 6 into 4 and -1: it is not divisible by 4")),
            (&["Tensor[(6), float32]"], &[("newshape", ints(&[-4, 2, 2]))], Err("cannot reshape `Tensor[(6), float32]` with newshape [-4, 2, 2]: `-4` cannot split dimension 6 into 2 and 2")),
            (&["Tensor[(6), float32]"], &[("newshape", ints(&[-5]))], Err("cannot reshape `Tensor[(6), float32]` with newshape [-5]: -5 is not a valid value")),
        ],
    );
}

#[test]
fn reshape_with_unknown_data_waits() {
    assert_eq!(
        infer("reshape", &["_"], &[("newshape", ints(&[-1]))]),
        Err("waiting: Reshape".to_string())
    );
}

#[test]
fn reverse_reshape_applies_from_the_right() {
    check_op(
        "reverse_reshape",
        &[
            (&["Tensor[(10, 5, 4), float32]"], &[("newshape", ints(&[-1, 0]))], Ok("Tensor[(50, 4), float32]")),
            (&["Tensor[(10, 5, 4), float32]"], &[("newshape", ints(&[0, -1]))], Ok("Tensor[(5, 40), float32]")),
            (&["Tensor[(6, 4), float32]"], &[("newshape", ints(&[0, -4, 2, -1]))], Ok("Tensor[(6, 2, 2), float32]")),
            (&["Tensor[(n, 5, 4), float32]"], &[("newshape", ints(&[-1, 0]))], Ok("Tensor[(5*n, 4), float32]")),
            (&["Tensor[(?, 5, 4), float32]"], &[("newshape", ints(&[-1, 0]))], Ok("Tensor[(?, 4), float32]")),
            (&["Tensor[(10, 5, 4), float32]"], &[("newshape", ints(&[3, 0]))], Err("cannot reshape `Tensor[(10, 5, 4), float32]` (200 elements) to `Tensor[(3, 4), float32]` (12 elements)")),
        ],
    );
}

#[test]
fn reshape_like_takes_a_range_of_the_other_shape() {
    check_op(
        "reshape_like",
        &[
            (&["Tensor[(2, 3, 4), float32]", "Tensor[(6, 2), int8]"], &[("lhs_end", int(2)), ("rhs_end", int(1))], Ok("Tensor[(6, 4), float32]")),
            (&["Tensor[(2, 3, 4), float32]", "Tensor[(24), int8]"], &[], Ok("Tensor[(24), float32]")),
            (&["Tensor[(2, 3, 4), float32]", "Tensor[(4, 12), int8]"], &[("lhs_begin", int(-2)), ("rhs_begin", int(1))], Ok("Tensor[(2, 12), float32]")),
            (&["Tensor[(n, 6), float32]", "Tensor[(n, 2, 3), int8]"], &[], Ok("Tensor[(n, 2, 3), float32]")),
            (&["Tensor[(?, 6), float32]", "Tensor[(5, 2, 3), int8]"], &[], Ok("Tensor[(5, 2, 3), float32]")),
            (&["Tensor[(2, 3), float32]", "Tensor[(7), int8]"], &[], Err("cannot reshape `Tensor[(2, 3), float32]` (6 elements) to `Tensor[(7), float32]` (7 elements)")),
            (&["Tensor[(2, 3), float32]", "Tensor[(6), int8]"], &[("lhs_begin", int(3))], Err("`lhs_begin` 3 and `lhs_end` 2 are not a range of the dimensions of `Tensor[(2, 3), float32]`")),
        ],
    );
}

#[test]
fn transpose_permutes() {
    check_op(
        "transpose",
        &[
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[],
                Ok("Tensor[(4, 3, 2), float32]"),
            ),
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[("axes", ints(&[1, 0, 2]))],
                Ok("Tensor[(3, 2, 4), float32]"),
            ),
            (
                &["Tensor[(n, m, 4), float32]"],
                &[("axes", ints(&[-1, 0, 1]))],
                Ok("Tensor[(4, n, m), float32]"),
            ),
            (
                &["Tensor[(?, 3), float32]"],
                &[],
                Ok("Tensor[(3, ?), float32]"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("axes", ints(&[0]))],
                Err("`axes` has 1 entries but `Tensor[(2, 3), float32]` has rank 2"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("axes", ints(&[1, 1]))],
                Err("`axes` names axis 1 twice, it must be a permutation"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("axes", ints(&[0, 2]))],
                Err("`axes` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
            ),
        ],
    );
}

#[test]
fn transpose_checks_the_permutation_on_normalized_axes() {
    check_op(
        "transpose",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("axes", ints(&[-1, 1]))],
                Err("`axes` names axis 1 twice, it must be a permutation"),
            ),
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[("axes", ints(&[2, -3, 0]))],
                Err("`axes` names axis 0 twice, it must be a permutation"),
            ),
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[("axes", ints(&[-2, -3, -1]))],
                Ok("Tensor[(3, 2, 4), float32]"),
            ),
            (&["float32"], &[("axes", ints(&[]))], Ok("float32")),
            (
                &["_"],
                &[("axes", ints(&[1, 0]))],
                Err("waiting: Transpose"),
            ),
        ],
    );
}

#[test]
fn squeeze_drops_ones() {
    check_op(
        "squeeze",
        &[
            (&["Tensor[(1, 3, 1), float32]"], &[], Ok("Tensor[(3), float32]")),
            (&["Tensor[(1, 3, 1), float32]"], &[("axis", ints(&[-1]))], Ok("Tensor[(1, 3), float32]")),
            (&["Tensor[(n, 1), float32]"], &[("axis", ints(&[1]))], Ok("Tensor[(n), float32]")),
            (&["Tensor[(n, 1), float32]"], &[("axis", ints(&[0]))], Ok("Tensor[(1), float32]")),
            (&["Tensor[(?, 1), float32]"], &[("axis", ints(&[0, 1]))], Ok("float32")),
            (&["Tensor[(?, 1), float32]"], &[], Err("cannot squeeze `Tensor[(?, 1), float32]` without `axis`: dimension 0 (`?`) may be 1 at run time; give `axis`")),
            (&["Tensor[(n, 1), float32]"], &[], Err("cannot squeeze `Tensor[(n, 1), float32]` without `axis`: dimension 0 (`n`) may be 1 at run time; give `axis`")),
            (&["Tensor[(1, 3), float32]"], &[("axis", ints(&[1]))], Err("cannot squeeze axis 1 of `Tensor[(1, 3), float32]`: its dimension is 3, not 1")),
            (&["Tensor[(1, 3), float32]"], &[("axis", ints(&[2]))], Err("`axis` 2 is out of range for `Tensor[(1, 3), float32]` (rank 2)")),
        ],
    );
}

#[test]
fn split_into_sections() {
    check_op(
        "split",
        &[
            (
                &["Tensor[(6, 4), float32]"],
                &[("indices_or_sections", int(3))],
                Ok("(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])"),
            ),
            (
                &["Tensor[(6, 4), float32]"],
                &[("indices_or_sections", int(2)), ("axis", int(-1))],
                Ok("(Tensor[(6, 2), float32], Tensor[(6, 2), float32])"),
            ),
            (
                &["Tensor[(2*n, 4), float32]"],
                &[("indices_or_sections", int(2))],
                Ok("(Tensor[(n, 4), float32], Tensor[(n, 4), float32])"),
            ),
            (
                &["Tensor[(?, 4), float32]"],
                &[("indices_or_sections", int(2))],
                Ok("(Tensor[(?, 4), float32], Tensor[(?, 4), float32])"),
            ),
            (
                &["Tensor[(5, 4), float32]"],
                &[("indices_or_sections", int(2))],
                Err("cannot split axis 0 of `Tensor[(5, 4), float32]` (5) into 2 equal sections"),
            ),
            (
                &["Tensor[(6, 4), float32]"],
                &[("indices_or_sections", int(0))],
                Err("`indices_or_sections` must be a positive number of sections, found 0"),
            ),
            (
                &["Tensor[(6, 4), float32]"],
                &[("indices_or_sections", int(2)), ("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(6, 4), float32]` (rank 2)"),
            ),
        ],
    );
    // A symbolic dimension not provably divisible: TVM's `floordiv`.
    let got = infer(
        "split",
        &["Tensor[(n), float32]"],
        &[("indices_or_sections", int(2))],
    )
    .unwrap();
    assert!(
        got.starts_with("(Tensor[(floordiv(n, 2)), float32]"),
        "{got}"
    );
}

/// `indices_or_sections` as a list of indices. The operator's attribute schema has no
/// `int | [int]` type, so the relation is run directly with a list.
fn split_indices(data: &str, indices: &[i64], axis: i64) -> Result<String, String> {
    // Through the operator's attribute schema (`indices_or_sections: int | [int]`).
    infer(
        "split",
        &[data],
        &[("indices_or_sections", ints(indices)), ("axis", int(axis))],
    )
}

#[test]
fn split_at_indices() {
    assert_eq!(
        split_indices("Tensor[(7, 4), float32]", &[2, 5], 0)
            .as_deref()
            .map_err(|e| e.as_str()),
        Ok("(Tensor[(2, 4), float32], Tensor[(3, 4), float32], Tensor[(2, 4), float32])")
    );
    assert_eq!(
        split_indices("Tensor[(4, n), float32]", &[1], 1)
            .as_deref()
            .map_err(|e| e.as_str()),
        Ok("(Tensor[(4, 1), float32], Tensor[(4, n - 1), float32])")
    );
    assert_eq!(
        split_indices("Tensor[(?), float32]", &[1], 0)
            .as_deref()
            .map_err(|e| e.as_str()),
        Ok("(Tensor[(1), float32], Tensor[(?), float32])")
    );
    assert_eq!(
        split_indices("Tensor[(7), float32]", &[5, 2], 0)
            .as_deref()
            .map_err(|e| e.as_str()),
        Err("split indices [5, 2] must increase within axis 0 of `Tensor[(7), float32]`")
    );
    assert_eq!(
        split_indices("Tensor[(7), float32]", &[8], 0)
            .as_deref()
            .map_err(|e| e.as_str()),
        Err("split indices [8] must increase within axis 0 of `Tensor[(7), float32]`")
    );
}

#[test]
fn take_along_an_axis() {
    check_op(
        "take",
        &[
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2, 3), int32]"],
                &[("axis", int(0))],
                Ok("Tensor[(2, 3, 4), float32]"),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2, 3), int32]"],
                &[],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2), int64]"],
                &[("axis", int(-1)), ("mode", string("wrap"))],
                Ok("Tensor[(5, 2), float32]"),
            ),
            (
                &["Tensor[(n, 4, 7), float32]", "Tensor[(n, m), int32]"],
                &[("axis", int(1)), ("batch_dims", int(1))],
                Ok("Tensor[(n, m, 7), float32]"),
            ),
            (
                &["Tensor[(?, 4), float32]", "Tensor[(k), int32]"],
                &[("axis", int(1))],
                Ok("Tensor[(?, k), float32]"),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2), float32]"],
                &[("axis", int(0))],
                Err("indices must be integers, found `Tensor[(2), float32]`"),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2), int32]"],
                &[("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(5, 4), float32]` (rank 2)"),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(2), int32]"],
                &[("axis", int(0)), ("mode", string("nearest"))],
                Err("`mode` must be \"clip\", \"wrap\" or \"fast\", found \"nearest\""),
            ),
            (
                &["Tensor[(5, 4), float32]", "Tensor[(5, 2), int32]"],
                &[("axis", int(0)), ("batch_dims", int(1))],
                Err("`batch_dims` 1 must be at most `axis` (0) and the rank of the indices (2)"),
            ),
        ],
    );
}

#[test]
fn stack_tuples() {
    check_op(
        "stack",
        &[
            (&["(Tensor[(3), float32], Tensor[(3), float32])"], &[("axis", int(1))], Ok("Tensor[(3, 2), float32]")),
            (&["(Tensor[(2, 3), float32], Tensor[(2, 3), float32], Tensor[(2, 3), float32])"], &[], Ok("Tensor[(3, 2, 3), float32]")),
            (&["(Tensor[(n, 3), float32], Tensor[(n, 3), float32])"], &[("axis", int(-1))], Ok("Tensor[(n, 3, 2), float32]")),
            (&["(Tensor[(?, 3), float32], Tensor[(4, ?), float32])"], &[], Ok("Tensor[(2, 4, 3), float32]")),
            (&["(Tensor[(2), float32], Tensor[(3), float32])"], &[], Err("cannot stack `(Tensor[(2), float32], Tensor[(3), float32])`: dimension 0 is 2 in one field and 3 in field 1 (TVM accepts this: its `stack` relation skips dimension 0 of the fields because `axis` is 0, but `axis` numbers the new dimension and the fields' dimension 0 is kept in the result, where TVM takes field 0's)")),
            // TVM printed this one as `Tensor[(3, 3), float32]`.
            (&["(Tensor[(3), float32], Tensor[(2), float32], Tensor[(1), float32])"], &[], Err("cannot stack `(Tensor[(3), float32], Tensor[(2), float32], Tensor[(1), float32])`: dimension 0 is 3 in one field and 2 in field 1 (TVM accepts this: its `stack` relation skips dimension 0 of the fields because `axis` is 0, but `axis` numbers the new dimension and the fields' dimension 0 is kept in the result, where TVM takes field 0's)")),
            (&["(Tensor[(2, 3), float32], Tensor[(2, 4), float32])"], &[("axis", int(-2))], Err("cannot stack `(Tensor[(2, 3), float32], Tensor[(2, 4), float32])`: dimension 1 is 3 in one field and 4 in field 1 (TVM accepts this: its `stack` relation skips dimension 1 of the fields because `axis` is -2, but `axis` numbers the new dimension and the fields' dimension 1 is kept in the result, where TVM takes field 0's)")),
            (&["(Tensor[(2, 3), float32], Tensor[(2, 4), float32])"], &[], Err("cannot stack `(Tensor[(2, 3), float32], Tensor[(2, 4), float32])`: dimension 1 is 3 in one field and 4 in field 1")),
            (&["(Tensor[(2), float32], Tensor[(2, 1), float32])"], &[], Err("cannot stack `(Tensor[(2), float32], Tensor[(2, 1), float32])`: field 1 has rank 2, field 0 has rank 1")),
            (&["(Tensor[(2), float32],)"], &[("axis", int(2))], Err("`axis` 2 is out of range for stacking `(Tensor[(2), float32],)` (from -2 to 1)")),
            (&["Tensor[(2), float32]"], &[], Err("`stack` expects a tuple of tensors, found `Tensor[(2), float32]`")),
        ],
    );
}

#[test]
fn casts() {
    check_op(
        "cast",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("dtype", string("int8"))],
                Ok("Tensor[(2, 3), int8]"),
            ),
            (
                &["Tensor[(n), float32]"],
                &[("dtype", string("float16"))],
                Ok("Tensor[(n), float16]"),
            ),
            (
                &["Tensor[(?), float32]"],
                &[("dtype", string("bool"))],
                Ok("Tensor[(?), bool]"),
            ),
            (
                &["Tensor[(2), float32]"],
                &[("dtype", string("float13"))],
                Err("attribute `dtype` of `cast` expects `dtype`, found `\"float13\"`"),
            ),
            (
                &["(Tensor[(2), float32],)"],
                &[("dtype", string("int8"))],
                Err("expected a tensor, found `(Tensor[(2), float32],)`"),
            ),
        ],
    );
    check_op(
        "cast_like",
        &[
            (
                &["Tensor[(2, 3), float32]", "Tensor[(7), int8]"],
                &[],
                Ok("Tensor[(2, 3), int8]"),
            ),
            (
                &["Tensor[(n), float32]", "Tensor[(m), int8]"],
                &[],
                Ok("Tensor[(n), int8]"),
            ),
            (
                &["Tensor[(?), float32]", "Tensor[(?), int8]"],
                &[],
                Ok("Tensor[(?), int8]"),
            ),
            (
                &["Tensor[(2), float32]", "(int8,)"],
                &[],
                Err("expected a tensor, found `(int8,)`"),
            ),
        ],
    );
    check_op(
        "reinterpret",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("dtype", string("int32"))],
                Ok("Tensor[(2, 3), int32]"),
            ),
            (
                &["Tensor[(n), int16]"],
                &[("dtype", string("float16"))],
                Ok("Tensor[(n), float16]"),
            ),
            (
                &["Tensor[(?), uint8]"],
                &[("dtype", string("int8"))],
                Ok("Tensor[(?), int8]"),
            ),
            (
                &["Tensor[(2), float32]"],
                &[("dtype", string("int8"))],
                Err("cannot reinterpret `Tensor[(2), float32]` as int8: 32 bits are not 8"),
            ),
        ],
    );
}

#[test]
fn initializers() {
    for op in ["zeros", "ones"] {
        check_op(
            op,
            &[
                (
                    &[],
                    &[("shape", ints(&[2, 3])), ("dtype", string("float32"))],
                    Ok("Tensor[(2, 3), float32]"),
                ),
                (
                    &[],
                    &[("shape", ints(&[])), ("dtype", string("int8"))],
                    Ok("int8"),
                ),
            ],
        );
    }
    // `dtype` defaults to TVM's C++ default, unset (printed `""`): TVM would give the
    // result the void dtype; here it is an error.
    for dtype in [None, Some(string(""))] {
        let mut attrs = vec![("shape", ints(&[2]))];
        attrs.extend(dtype.map(|d| ("dtype", d)));
        for op in ["zeros", "ones"] {
            assert_eq!(
                infer(op, &[], &attrs),
                Err(
                    "`dtype` must be set: the unset dtype (TVM's default) is no tensor's dtype"
                        .to_string()
                )
            );
        }
    }
    check_op(
        "full",
        &[
            (
                &["float32"],
                &[("shape", ints(&[2, 3]))],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["float32"],
                &[("shape", ints(&[4])), ("dtype", string("int8"))],
                Ok("Tensor[(4), int8]"),
            ),
            (
                &["Tensor[(1), float32]"],
                &[("shape", ints(&[4]))],
                Err("the fill value must be a scalar, found `Tensor[(1), float32]`"),
            ),
            (
                &["Tensor[(n), float32]"],
                &[("shape", ints(&[4]))],
                Err("the fill value must be a scalar, found `Tensor[(n), float32]`"),
            ),
            (
                &["Tensor[(?), float32]"],
                &[("shape", ints(&[4]))],
                Err("the fill value must be a scalar, found `Tensor[(?), float32]`"),
            ),
            (&["_"], &[("shape", ints(&[4]))], Err("waiting: Full")),
        ],
    );
    // With `dtype`, the result is known before the fill value; the relation still waits.
    check_op(
        "full_like",
        &[
            (
                &["Tensor[(2, 3), float32]", "float32"],
                &[],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(n, ?), int8]", "int8"],
                &[],
                Ok("Tensor[(n, ?), int8]"),
            ),
            (
                &["Tensor[(2), float32]", "Tensor[(2), float32]"],
                &[],
                Err("the fill value must be a scalar"),
            ),
        ],
    );
    for op in ["zeros_like", "ones_like"] {
        check_op(
            op,
            &[
                (
                    &["Tensor[(2, 3), float32]"],
                    &[],
                    Ok("Tensor[(2, 3), float32]"),
                ),
                (&["Tensor[(n, ?), int8]"], &[], Ok("Tensor[(n, ?), int8]")),
            ],
        );
    }
}

#[test]
fn arange_has_an_unknown_length() {
    check_op(
        "arange",
        &[
            (
                &["int32", "int32", "int32"],
                &[("dtype", string("int32"))],
                Ok("Tensor[(?), int32]"),
            ),
            (
                &["_", "_", "_"],
                &[("dtype", string("float32"))],
                Ok("Tensor[(?), float32]"),
            ),
            (
                &["float32", "_", "float32"],
                &[("dtype", string("float32"))],
                Ok("Tensor[(?), float32]"),
            ),
            // `dtype` has no default (none in TVM's C++; the Python API passes float32).
            (
                &["float32", "float32", "float32"],
                &[],
                Err("`arange` needs attribute `dtype` of type `dtype`"),
            ),
            (
                &["Tensor[(n), float32]", "float32", "float32"],
                &[("dtype", string("float32"))],
                Err(
                    "`start` of `arange` must be a scalar of float32, found `Tensor[(n), float32]`",
                ),
            ),
            (
                &["float32", "int8", "float32"],
                &[("dtype", string("float32"))],
                Err("`stop` of `arange` must be a scalar of float32, found `int8`"),
            ),
        ],
    );
    let (_, args) = infer_all("arange", &["_", "_", "_"], &[("dtype", string("int64"))]).unwrap();
    assert_eq!(args, ["int64", "int64", "int64"]);
}

#[test]
fn repeat_tile_reverse() {
    check_op(
        "repeat",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("repeats", int(2)), ("axis", int(1))],
                Ok("Tensor[(2, 6), float32]"),
            ),
            (
                &["Tensor[(n, 3), float32]"],
                &[("repeats", int(3)), ("axis", int(-2))],
                Ok("Tensor[(3*n, 3), float32]"),
            ),
            (
                &["Tensor[(?, 3), float32]"],
                &[("repeats", int(2)), ("axis", int(0))],
                Ok("Tensor[(?, 3), float32]"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("repeats", int(2)), ("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("repeats", int(0)), ("axis", int(0))],
                Err("`repeats` must be at least 1"),
            ),
            // `axis` defaults to `None` (TVM's C++ default, which its relation crashes on).
            (
                &["Tensor[(2, 3), float32]"],
                &[("repeats", int(2))],
                Err("`axis` must be set: `repeat` repeats along one axis"),
            ),
        ],
    );
    check_op(
        "tile",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("reps", ints(&[2, 1, 2]))],
                Ok("Tensor[(2, 2, 6), float32]"),
            ),
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[("reps", ints(&[2]))],
                Ok("Tensor[(2, 3, 8), float32]"),
            ),
            (
                &["Tensor[(n, 3), float32]"],
                &[("reps", ints(&[2, 2]))],
                Ok("Tensor[(2*n, 6), float32]"),
            ),
            (
                &["Tensor[(?, 3), float32]"],
                &[("reps", ints(&[2, 2]))],
                Ok("Tensor[(?, 6), float32]"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("reps", ints(&[-1]))],
                Err("every repetition in `reps` must be at least 1, found -1 at index 0 of `reps` [-1]"),
            ),
            // TVM's TileRel rejects a repetition of 0 too.
            (
                &["Tensor[(2, 3, 4), float32]"],
                &[("reps", ints(&[3, 0, 1]))],
                Err("every repetition in `reps` must be at least 1, found 0 at index 1 of `reps` [3, 0, 1]"),
            ),
        ],
    );
    check_op(
        "reverse",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[("axis", int(1))],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(n, 3), float32]"],
                &[("axis", int(-2))],
                Ok("Tensor[(n, 3), float32]"),
            ),
            (
                &["Tensor[(?, 3), float32]"],
                &[("axis", int(0))],
                Ok("Tensor[(?, 3), float32]"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("axis", int(-3))],
                Err("`axis` -3 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
            ),
            (
                &["Tensor[(2, 3), float32]"],
                &[("axis", AttrValue::None)],
                Err("`axis` must be set: `reverse` reverses one axis"),
            ),
        ],
    );
}

#[test]
fn gathers() {
    check_op(
        "gather",
        &[
            (
                &["Tensor[(3, 4), float32]", "Tensor[(3, 2), int32]"],
                &[("axis", int(1))],
                Ok("Tensor[(3, 2), float32]"),
            ),
            (
                &["Tensor[(n, 4), float32]", "Tensor[(n, k), int32]"],
                &[("axis", int(-1))],
                Ok("Tensor[(n, k), float32]"),
            ),
            (
                &["Tensor[(?, 4), float32]", "Tensor[(?, 1), int64]"],
                &[("axis", int(0))],
                Ok("Tensor[(?, 1), float32]"),
            ),
            (
                &["Tensor[(3, 4), float32]", "Tensor[(3), int32]"],
                &[("axis", int(0))],
                Err("the data and the indices must have the same rank"),
            ),
            (
                &["Tensor[(3, 4), float32]", "Tensor[(3, 2), int32]"],
                &[],
                Err("`axis` must be set: `gather` gathers along one axis"),
            ),
            (
                &["Tensor[(3, 4), float32]", "Tensor[(3, 1), int32]"],
                &[("axis", int(2))],
                Err("`axis` 2 is out of range for `Tensor[(3, 4), float32]` (rank 2)"),
            ),
        ],
    );
    check_op(
        "gather_nd",
        &[
            (&["Tensor[(3, 4, 5), float32]", "Tensor[(2, 6), int32]"], &[], Ok("Tensor[(6, 5), float32]")),
            (&["Tensor[(3, 4, 5), float32]", "Tensor[(1, 2, 6), int32]"], &[("batch_dims", int(1))], Ok("Tensor[(2, 6, 5), float32]")),
            (&["Tensor[(n, m), float32]", "Tensor[(1, k), int32]"], &[], Ok("Tensor[(k, m), float32]")),
            (&["Tensor[(?, 4), float32]", "Tensor[(?, ?), int32]"], &[("index_rank", int(2))], Ok("Tensor[(?), float32]")),
            (&["Tensor[(3, 4), float32]", "Tensor[(?, 5), int32]"], &[], Err("`gather_nd` needs `index_rank` when the first dimension of the indices `Tensor[(?, 5), int32]` is not a constant")),
            (&["Tensor[(3, 4), float32]", "Tensor[(2, 5), int32]"], &[("index_rank", int(1))], Err("`index_rank` is 1 but the indices `Tensor[(2, 5), int32]` index 2 dimensions")),
            (&["Tensor[(3, 4), float32]", "Tensor[(3, 5), int32]"], &[], Err("`gather_nd` indexes 3 dimensions after 0 batch dimensions of `Tensor[(3, 4), float32]`, which has rank 2")),
            (&["Tensor[(3, 4), float32]", "Tensor[(1, 5), float32]"], &[], Err("indices must be integers, found `Tensor[(1, 5), float32]`")),
        ],
    );
}

#[test]
fn element_wise_identities() {
    let ops = [
        "abs",
        "ceil",
        "floor",
        "round",
        "trunc",
        "sign",
        "negative",
        "copy",
        "zeros_like",
        "ones_like",
    ];
    for op in ops {
        check_op(
            op,
            &[
                (
                    &["Tensor[(2, 3), float32]"],
                    &[],
                    Ok("Tensor[(2, 3), float32]"),
                ),
                (&["Tensor[(n, 3), int8]"], &[], Ok("Tensor[(n, 3), int8]")),
                (
                    &["Tensor[(?, 3), float16]"],
                    &[],
                    Ok("Tensor[(?, 3), float16]"),
                ),
                (
                    &["Tensor[(2), float32]"],
                    &[("axis", int(0))],
                    Err(&format!("`{op}` has no attribute `axis` (it takes none)")),
                ),
            ],
        );
    }
    check_op(
        "clip",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[
                    ("a_min", AttrValue::Float(0.0)),
                    ("a_max", AttrValue::Float(6.0)),
                ],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(n), float32]"],
                &[("a_min", int(-1)), ("a_max", int(1))],
                Ok("Tensor[(n), float32]"),
            ),
            (
                &["Tensor[(?), int32]"],
                &[("a_min", int(0)), ("a_max", int(1))],
                Ok("Tensor[(?), int32]"),
            ),
            (
                &["Tensor[(2), float32]"],
                &[("a_min", int(0))],
                Err("`clip` needs attribute `a_max` of type `float`"),
            ),
        ],
    );
    check_op(
        "nn.leaky_relu",
        &[
            (
                &["Tensor[(2, 3), float32]"],
                &[],
                Ok("Tensor[(2, 3), float32]"),
            ),
            (
                &["Tensor[(n), float32]"],
                &[("alpha", AttrValue::Float(0.1))],
                Ok("Tensor[(n), float32]"),
            ),
            (&["Tensor[(?), float32]"], &[], Ok("Tensor[(?), float32]")),
            (
                &["Tensor[(2), float32]"],
                &[("alpha", string("big"))],
                Err("attribute `alpha` of `nn.leaky_relu` expects `float`, found `\"big\"`"),
            ),
        ],
    );
}

#[test]
fn prelu_infers_alpha() {
    type PreluCase<'a> = (
        &'a [&'a str],
        Vec<(&'a str, AttrValue)>,
        Result<(&'a str, &'a str), &'a str>,
    );
    let cases: Vec<PreluCase<'_>> = vec![
        (
            &["Tensor[(1, 3, 8, 8), float32]", "_"],
            vec![],
            Ok(("Tensor[(1, 3, 8, 8), float32]", "Tensor[(3), float32]")),
        ),
        (
            &["Tensor[(n, c, 8), float32]", "_"],
            vec![("axis", int(-1))],
            Ok(("Tensor[(n, c, 8), float32]", "Tensor[(8), float32]")),
        ),
        (
            &["Tensor[(n, c), float32]", "_"],
            vec![],
            Ok(("Tensor[(n, c), float32]", "Tensor[(c), float32]")),
        ),
        (
            &["Tensor[(2, ?), float32]", "Tensor[(5), float32]"],
            vec![],
            Ok(("Tensor[(2, ?), float32]", "Tensor[(5), float32]")),
        ),
        (
            &["Tensor[(2, 3), float32]", "Tensor[(4), float32]"],
            vec![],
            Err("dimension 0: 4 vs 3"),
        ),
        (
            &["Tensor[(2, 3), float32]", "_"],
            vec![("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        ),
    ];
    for (args, attrs, want) in cases {
        let got = infer_all("nn.prelu", args, &attrs).map(|(o, a)| (o, a[1].clone()));
        let want = want
            .map(|(o, a)| (o.to_string(), a.to_string()))
            .map_err(String::from);
        assert_eq!(got, want, "nn.prelu on {args:?}");
    }
}

#[test]
fn nan_and_infinity_tests_are_bool() {
    for op in ["isnan", "isinf", "isfinite"] {
        check_op(
            op,
            &[
                (
                    &["Tensor[(2, 3), float32]"],
                    &[],
                    Ok("Tensor[(2, 3), bool]"),
                ),
                (&["Tensor[(n), float16]"], &[], Ok("Tensor[(n), bool]")),
                (
                    &["Tensor[(?, 2), float64]"],
                    &[],
                    Ok("Tensor[(?, 2), bool]"),
                ),
                (
                    &["(float32,)"],
                    &[],
                    Err("expected a tensor, found `(float32,)`"),
                ),
            ],
        );
    }
}

#[test]
fn scans() {
    for op in ["cumsum", "cumprod"] {
        check_op(
            op,
            &[
                (&["Tensor[(2, 3), int32]"], &[], Ok("Tensor[(6), int32]")),
                (
                    &["Tensor[(2, 3), int32]"],
                    &[("axis", int(1)), ("exclusive", boolean(true))],
                    Ok("Tensor[(2, 3), int32]"),
                ),
                (
                    &["Tensor[(2, 3), int8]"],
                    &[("axis", int(0)), ("dtype", string("int64"))],
                    Ok("Tensor[(2, 3), int64]"),
                ),
                (
                    &["Tensor[(n, 3), float32]"],
                    &[],
                    Ok("Tensor[(3*n), float32]"),
                ),
                (
                    &["Tensor[(?, 3), float32]"],
                    &[("axis", int(-1))],
                    Ok("Tensor[(?, 3), float32]"),
                ),
                (
                    &["Tensor[(?, 3), float32]"],
                    &[],
                    Ok("Tensor[(?), float32]"),
                ),
                (
                    &["Tensor[(2, 3), float32]"],
                    &[("axis", int(2))],
                    Err("`axis` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
                ),
            ],
        );
    }
}

/// Reshape's element count equals its input's on every valid special-value pattern:
/// every shape of rank 1 to 3 over {1, 2, 3, 4, 6}, with patterns built from the input
/// (known valid: they must succeed) and pseudo-random patterns (if accepted, the sizes
/// must agree; if refused, the message must be a reshape error).
#[test]
fn reshape_preserves_the_element_count() {
    let sizes = [1i64, 2, 3, 4, 6];
    let mut shapes: Vec<Vec<i64>> = Vec::new();
    for &a in &sizes {
        shapes.push(vec![a]);
        for &b in &sizes {
            shapes.push(vec![a, b]);
            for &c in &sizes {
                shapes.push(vec![a, b, c]);
            }
        }
    }
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (mut valid, mut accepted, mut refused) = (0, 0, 0);
    for shape in &shapes {
        let size: i64 = shape.iter().product();
        let rank = shape.len();
        let ty = format!(
            "Tensor[({}), float32]",
            shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        // Patterns known to be valid.
        let mut patterns: Vec<Vec<i64>> = vec![vec![-1], vec![-2], vec![size], vec![0, -2]];
        patterns.push(vec![-1, shape[rank - 1]]);
        patterns.push(vec![0; rank]);
        if rank >= 2 {
            patterns.push(vec![-3, -2]);
            patterns.push(vec![0, -1]);
            patterns.push(vec![-1, 0]);
            patterns.push([vec![0; rank - 2], vec![-3]].concat());
        }
        for d in 1..=shape[0] {
            if shape[0] % d == 0 {
                patterns.push(vec![-4, d, -1, -2]);
                patterns.push(vec![-4, -1, d, -2]);
                patterns.push(vec![-4, d, shape[0] / d, -1]);
            }
        }
        for k in [2, 3] {
            if size % k == 0 {
                patterns.push(vec![k, -1]);
                patterns.push(vec![-1, k, 1]);
            }
        }
        for p in &patterns {
            let out = infer("reshape", &[&ty], &[("newshape", ints(p))])
                .unwrap_or_else(|e| panic!("{ty} with {p:?}: {e}"));
            assert_eq!(
                dims_of(&out).iter().product::<i64>(),
                size,
                "{ty} with {p:?} gave {out}"
            );
            valid += 1;
        }
        // Pseudo-random patterns of special values and small constants.
        let alphabet = [0i64, -1, -2, -3, -4, 1, 2, 3, 4, 6];
        for _ in 0..20 {
            let len = 1 + next(4) as usize;
            let p: Vec<i64> = (0..len)
                .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                .collect();
            match infer("reshape", &[&ty], &[("newshape", ints(&p))]) {
                Ok(out) => {
                    assert_eq!(
                        dims_of(&out).iter().product::<i64>(),
                        size,
                        "{ty} with {p:?} gave {out}"
                    );
                    accepted += 1;
                }
                Err(e) => {
                    assert!(
                        e.starts_with(&format!("cannot reshape `{ty}`")),
                        "{ty} with {p:?}: {e}"
                    );
                    refused += 1;
                }
            }
        }
    }
    assert!(
        valid > 1000 && accepted > 300 && refused > 300,
        "{valid} {accepted} {refused}"
    );
}

#[test]
fn tvm_text_name_contrib_reverse_reshape_reads_as_reverse_reshape() {
    let checked = relay_ops::prelude::check_with_prelude(
        "def @f(%x: Tensor[(10, 5, 4), float32]) { contrib_reverse_reshape(%x, newshape=[-1, 0]) }",
        &[],
    );
    assert_eq!(
        checked.signatures(),
        ["@f: fn (Tensor[(10, 5, 4), float32]) -> Tensor[(50, 4), float32]"]
    );
}
