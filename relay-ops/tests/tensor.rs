//! The other tensor operators (einsum, scatters and indexing, shape makers, sparse
//! coordinates, fast approximations, random): static, symbolic and `?` inputs, backward
//! inference, an error per operator, and a program as TVM prints it.

mod common;
use common::printed::check_printed;
use common::{boolean, check, check_args, int, ints, string, Case};
use relay_core::AttrValue;

fn eq(e: &str) -> (&'static str, AttrValue) {
    ("equation", string(e))
}

#[test]
fn einsum_shapes() {
    let cases: &[Case<'_>] = &[
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ij,jk->ik")], Ok("Tensor[(2, 4), float32]")),
        ("einsum", &["(Tensor[(n, 2, 3), float32], Tensor[(1, 3, 4), float32])"], &[eq("...ij,...jk")], Ok("Tensor[(n, 2, 4), float32]")),
        ("einsum", &["(Tensor[(5, 5), float32],)"], &[eq("ii->i")], Ok("Tensor[(5), float32]")),
        ("einsum", &["(Tensor[(5, 5), float32],)"], &[eq("ii")], Ok("float32")),
        ("einsum", &["(Tensor[(?, 3), float32], Tensor[(8, 3), float32])"], &[eq("bi, bi -> b")], Ok("Tensor[(8), float32]")),
        ("einsum", &["(Tensor[(2, 3, 4), float32],)"], &[eq("abc->cba")], Ok("Tensor[(4, 3, 2), float32]")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3), float32])"], &[eq("ij,j")], Ok("Tensor[(2), float32]")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(4, 5), float32])"], &[eq("ij,jk->ik")], Err("`einsum` label `j` is 3 in one operand and 4 in operand 1")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ij,jk->il")], Err("`einsum` equation \"ij,jk->il\" is wrong: the output's `l` is in no operand")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ij;jk")], Err("`einsum` equation \"ij;jk\" is wrong: `;` at byte 2 is not a letter, `,`, `->` or `...`")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ij->i->j")], Err("`einsum` equation \"ij->i->j\" is wrong: it has more than one `->`")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ij,jk,kl->il")], Err("`einsum` equation \"ij,jk,kl->il\" has 3 operands, the tuple 2")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"], &[eq("ijk,jk->i")], Err("operand 0 of `einsum` has rank 2, but its subscript in \"ijk,jk->i\" has 3 labels (the operands are `(Tensor[(2, 3), float32], Tensor[(3, 4), float32])`)")),
        ("einsum", &["(Tensor[(2, 3), float32], Tensor[(3, 4), float16])"], &[eq("ij,jk->ik")], Err("`einsum` needs operands of one dtype, found `(Tensor[(2, 3), float32], Tensor[(3, 4), float16])`")),
        ("einsum", &["_"], &[eq("ij,jk->ik")], Err("waiting: Einsum")),
    ];
    check(cases);
}

#[test]
fn scatters_and_indexing() {
    let cases: &[Case<'_>] = &[
        ("scatter_elements", &["Tensor[(3, 5), float32]", "Tensor[(3, 2), int64]", "Tensor[(3, 2), float32]"], &[("axis", int(1))], Ok("Tensor[(3, 5), float32]")),
        ("scatter_elements", &["Tensor[(n, 5), float32]", "Tensor[(n, k), int32]", "_"], &[("reduction", string("add"))], Ok("Tensor[(n, 5), float32]")),
        ("scatter_elements", &["Tensor[(3, 5), float32]", "Tensor[(3), int64]", "Tensor[(3), float32]"], &[], Err("`scatter_elements` expects indices of the data's rank: `Tensor[(3), int64]` for the data `Tensor[(3, 5), float32]`")),
        ("scatter_elements", &["Tensor[(3, 5), float32]", "Tensor[(3, 2), int64]", "Tensor[(3, 3), float32]"], &[], Err("`scatter_elements` expects updates of the indices' shape: `Tensor[(3, 3), float32]` for the indices `Tensor[(3, 2), int64]`")),
        ("scatter_elements", &["Tensor[(3, 5), float32]", "Tensor[(3, 2), float32]", "Tensor[(3, 2), float32]"], &[], Err("`scatter_elements` expects the indices of integers, found `Tensor[(3, 2), float32]`")),
        ("scatter_elements", &["Tensor[(3, 5), float32]", "Tensor[(3, 2), int64]", "Tensor[(3, 2), float32]"], &[("axis", int(2))], Err("`axis` 2 is out of range for `Tensor[(3, 5), float32]` (rank 2)")),
        ("scatter_nd", &["Tensor[(4, 5, 6), float32]", "Tensor[(2, 3), int64]", "Tensor[(3, 6), float32]"], &[], Ok("Tensor[(4, 5, 6), float32]")),
        ("scatter_nd", &["Tensor[(n, 6), float32]", "Tensor[(1, k), int32]", "Tensor[(k, ?), float32]"], &[("mode", string("add"))], Ok("Tensor[(n, 6), float32]")),
        ("scatter_nd", &["Tensor[(4, 5, 6), float32]", "Tensor[(2, 3), int64]", "Tensor[(3, 5), float32]"], &[], Err("`scatter_nd` expects updates `Tensor[(3, 6), float32]` (the indices' Y... then the data's dimensions from M), found `Tensor[(3, 5), float32]`")),
        ("scatter_nd", &["Tensor[(4, 5), float32]", "Tensor[(?, 3), int64]", "_"], &[], Err("`scatter_nd` expects indices (M, Y...) with M a constant of at most the data's rank, found `Tensor[(?, 3), int64]` for the data `Tensor[(4, 5), float32]`")),
        ("adv_index", &["(Tensor[(5, 6, 7), float32], Tensor[(2, 1), int64], Tensor[(3), int64])"], &[], Ok("Tensor[(2, 3, 7), float32]")),
        ("adv_index", &["(Tensor[(n, m), float32], Tensor[(k), int32])"], &[], Ok("Tensor[(k, m), float32]")),
        ("adv_index", &["(Tensor[(5), float32], Tensor[(2), int64], Tensor[(2), int64])"], &[], Err("`adv_index` has 2 indices for data of rank 1: `(Tensor[(5), float32], Tensor[(2), int64], Tensor[(2), int64])`")),
        ("adv_index", &["(Tensor[(5, 6), float32], Tensor[(2), int64], Tensor[(3), int64])"], &[], Err("the indices of `adv_index` do not broadcast together: `(Tensor[(5, 6), float32], Tensor[(2), int64], Tensor[(3), int64])`")),
        ("strided_set", &["Tensor[(4, 6), float32]", "Tensor[(2, 3), float32]", "Tensor[(2), int64]", "Tensor[(2), int64]", "Tensor[(2), int64]"], &[], Ok("Tensor[(4, 6), float32]")),
        ("strided_set", &["Tensor[(n, 6), float32]", "_", "Tensor[(1), int64]", "_", "_"], &[], Ok("Tensor[(n, 6), float32]")),
        ("strided_set", &["Tensor[(4, 6), float32]", "Tensor[(2, 3), float32]", "Tensor[(2), int64]", "Tensor[(1), int64]", "Tensor[(2), int64]"], &[], Err("`end` of `strided_set` is `Tensor[(1), int64]`, of another length than `begin`'s")),
        ("strided_set", &["Tensor[(4, 6), float32]", "Tensor[(2, 3), int8]", "Tensor[(2), int64]", "Tensor[(2), int64]", "Tensor[(2), int64]"], &[], Err("`strided_set` expects `Tensor[(2, 3), int8]` of the dtype of the data `Tensor[(4, 6), float32]`")),
        ("searchsorted", &["Tensor[(8), float32]", "Tensor[(2, 3), float32]"], &[], Ok("Tensor[(2, 3), int32]")),
        ("searchsorted", &["Tensor[(n, 8), float32]", "Tensor[(n, 3), float32]"], &[("right", boolean(true)), ("dtype", string("int64"))], Ok("Tensor[(n, 3), int64]")),
        ("searchsorted", &["Tensor[(2, 8), float32]", "Tensor[(3, 3), float32]"], &[], Err("`searchsorted` expects a sorted sequence `Tensor[(2, 8), float32]` of the rank and outer dimensions of the values `Tensor[(3, 3), float32]`")),
        ("searchsorted", &["Tensor[(8), float32]", "float32"], &[], Err("`searchsorted` expects a sorted sequence and values of rank at least 1, found `Tensor[(8), float32]` and `float32`")),
        ("unravel_index", &["Tensor[(5), int64]", "Tensor[(3), int64]"], &[], Ok("Tensor[(3, 5), int64]")),
        ("unravel_index", &["int32", "Tensor[(?), int32]"], &[], Ok("Tensor[(?), int32]")),
        ("unravel_index", &["Tensor[(5), float32]", "Tensor[(3), int64]"], &[], Err("`unravel_index` expects the indices of integers, found `Tensor[(5), float32]`")),
        ("argwhere", &["Tensor[(3, 4), bool]"], &[], Ok("Tensor[(?, 2), int32]")),
        ("argwhere", &["Tensor[(n), float32]"], &[], Ok("Tensor[(?, 1), int32]")),
    ];
    check(cases);
}

#[test]
fn shape_makers_and_keepers() {
    let cases: &[Case<'_>] = &[
        ("meshgrid", &["(Tensor[(3), float32], Tensor[(4), float32])"], &[], Ok("(Tensor[(3, 4), float32], Tensor[(3, 4), float32])")),
        ("meshgrid", &["(Tensor[(3), float32], Tensor[(n), float32], float32)"], &[("indexing", string("xy"))], Ok("(Tensor[(n, 3, 1), float32], Tensor[(n, 3, 1), float32], Tensor[(n, 3, 1), float32])")),
        ("meshgrid", &["(Tensor[(3), float32], Tensor[(2, 2), float32])"], &[], Err("`meshgrid` expects scalars or 1-D tensors, field 1 of `(Tensor[(3), float32], Tensor[(2, 2), float32])` is not")),
        ("meshgrid", &["(Tensor[(3), float32], Tensor[(4), int32])"], &[], Err("`meshgrid` expects tensors of one dtype, found `(Tensor[(3), float32], Tensor[(4), int32])`")),
        ("sliding_window", &["Tensor[(2, 6, 8), float32]"], &[("axis", int(1)), ("window_shape", ints(&[3, 4])), ("strides", ints(&[1, 2]))], Ok("Tensor[(2, 4, 3, 3, 4), float32]")),
        ("sliding_window", &["Tensor[(n, 10), float32]"], &[("axis", int(1)), ("window_shape", ints(&[3])), ("strides", ints(&[3]))], Ok("Tensor[(n, 3, 3), float32]")),
        ("sliding_window", &["Tensor[(m), float32]"], &[("axis", int(0)), ("window_shape", ints(&[2])), ("strides", ints(&[1]))], Ok("Tensor[(m - 1, 2), float32]")),
        ("sliding_window", &["Tensor[(2, 6), float32]"], &[("axis", int(1)), ("window_shape", ints(&[7])), ("strides", ints(&[1]))], Err("the window of `sliding_window` is 7 along axis 1, longer than the axis, 6")),
        ("sliding_window", &["Tensor[(2, 6), float32]"], &[("axis", int(1)), ("window_shape", ints(&[2, 2])), ("strides", ints(&[1, 1]))], Err("`sliding_window` slides a window of 2 axes from axis 1 over `Tensor[(2, 6), float32]`, which has rank 2")),
        ("stft", &["Tensor[(2, 64), float32]", "Tensor[(16), float32]"], &[("n_fft", int(16)), ("hop_length", int(4)), ("win_length", int(16))], Ok("Tensor[(2, 9, 13, 2), float32]")),
        ("stft", &["Tensor[(n), float32]", "_"], &[("n_fft", int(8)), ("hop_length", int(8)), ("onesided", boolean(false))], Ok("Tensor[(8, floordiv(n, 8), 2), float32]")),
        ("stft", &["Tensor[(?), float32]", "_"], &[("n_fft", int(8)), ("hop_length", int(2))], Ok("Tensor[(5, ?, 2), float32]")),
        ("stft", &["Tensor[(64), float32]", "_"], &[], Err("`n_fft` of `stft` must be at least 1, found -1")),
        ("stft", &["Tensor[(64), float32]", "Tensor[(8), float32]"], &[("n_fft", int(16)), ("hop_length", int(4)), ("win_length", int(16))], Err("`stft` expects a window of `win_length` = 16, found `Tensor[(8), float32]`")),
        ("dft", &["Tensor[(4, 8), float32]", "Tensor[(4, 8), float32]"], &[], Ok("(Tensor[(4, 8), float32], Tensor[(4, 8), float32])")),
        ("dft", &["Tensor[(n, ?), float32]", "_"], &[("inverse", boolean(true))], Ok("(Tensor[(n, ?), float32], Tensor[(n, ?), float32])")),
        ("dft", &["Tensor[(4, 8), float32]", "Tensor[(4, 7), float32]"], &[], Err("`dft` expects real and imaginary parts of one type, found `Tensor[(4, 8), float32]` and `Tensor[(4, 7), float32]`")),
        ("sequence_mask", &["Tensor[(10, 4, 8), float32]", "Tensor[(4), int32]"], &[], Ok("Tensor[(10, 4, 8), float32]")),
        ("sequence_mask", &["Tensor[(b, t), float32]", "Tensor[(?), int64]"], &[("axis", int(1)), ("mask_value", AttrValue::Float(-1.0))], Ok("Tensor[(b, t), float32]")),
        ("sequence_mask", &["Tensor[(10, 4, 8), float32]", "Tensor[(10), int32]"], &[], Err("`sequence_mask` expects one valid length per batch entry of `Tensor[(10, 4, 8), float32]` (axis 1), found `Tensor[(10), int32]`")),
        ("sequence_mask", &["Tensor[(10, 4, 8), float32]", "Tensor[(4), int32]"], &[("axis", int(2))], Err("`axis` of `sequence_mask` must be 0 or 1, found 2")),
        ("matrix_set_diag", &["Tensor[(2, 3, 4), float32]", "Tensor[(2, 4, 3), float32]"], &[("k1", int(-1)), ("k2", int(2))], Ok("Tensor[(2, 3, 4), float32]")),
        ("matrix_set_diag", &["Tensor[(4, 3, 3), int32]", "Tensor[(4, 3), int32]"], &[], Ok("Tensor[(4, 3, 3), int32]")),
        ("matrix_set_diag", &["Tensor[(2, 3, 4), float32]", "Tensor[(2, 3), float32]"], &[("k1", int(1)), ("k2", int(1))], Ok("Tensor[(2, 3, 4), float32]")),
        ("matrix_set_diag", &["Tensor[(n, n), float32]", "Tensor[(n), float32]"], &[], Ok("Tensor[(n, n), float32]")),
        ("matrix_set_diag", &["Tensor[(3, 3), float32]", "Tensor[(3), float32]"], &[("k1", int(1)), ("k2", int(1))], Err("`matrix_set_diag` expects the diagonal `Tensor[(2), float32]`, found `Tensor[(3), float32]`")),
        ("matrix_set_diag", &["Tensor[(3, 3), float32]", "_"], &[("k1", int(2)), ("k2", int(1))], Err("`k1` (2) of `matrix_set_diag` must not be greater than `k2` (1)")),
        ("matrix_set_diag", &["Tensor[(3, 3), float32]", "_"], &[("k1", int(0)), ("k2", int(3))], Err("the diagonals `k1` = 0 to `k2` = 3 of `matrix_set_diag` are not all in `Tensor[(3, 3), float32]`")),
        ("reverse_sequence", &["Tensor[(4, 10, 8), float32]", "Tensor[(4), int32]"], &[], Ok("Tensor[(4, 10, 8), float32]")),
        ("reverse_sequence", &["Tensor[(t, b), float32]", "Tensor[(?), int64]"], &[("seq_axis", int(0)), ("batch_axis", int(1))], Ok("Tensor[(t, b), float32]")),
        ("reverse_sequence", &["Tensor[(4, 10, 8), float32]", "Tensor[(10), int32]"], &[], Err("`reverse_sequence` expects one sequence length per entry of axis 0 of `Tensor[(4, 10, 8), float32]`, found `Tensor[(10), int32]`")),
        ("reverse_sequence", &["Tensor[(4, 10), float32]", "Tensor[(4), int32]"], &[("seq_axis", int(2))], Err("`seq_axis` 2 is out of range for `Tensor[(4, 10), float32]` (rank 2)")),
        ("trilu", &["Tensor[(2, 4, 4), float32]", "int64"], &[("upper", boolean(false))], Ok("Tensor[(2, 4, 4), float32]")),
        ("trilu", &["Tensor[(n, m), float32]", "_"], &[], Ok("Tensor[(n, m), float32]")),
        ("trilu", &["Tensor[(4), float32]", "int64"], &[], Err("`trilu` expects data of rank at least 2, found `Tensor[(4), float32]`")),
        ("trilu", &["Tensor[(4, 4), float32]", "Tensor[(1), int64]"], &[], Err("`trilu` expects `k` as a scalar of integers, found `Tensor[(1), int64]`")),
        ("unique", &["Tensor[(n), int32]"], &[], Ok("(Tensor[(n), int32], Tensor[(n), int32], Tensor[(n), int32], Tensor[(1), int32])")),
        ("unique", &["Tensor[(?), float32]"], &[("return_counts", boolean(true))], Ok("(Tensor[(?), float32], Tensor[(?), int32], Tensor[(?), int32], Tensor[(1), int32], Tensor[(?), int32])")),
        ("unique", &["Tensor[(2, 3), int32]"], &[], Err("`unique` expects the data 1-D, found `Tensor[(2, 3), int32]`")),
        ("invert_permutation", &["Tensor[(5), int32]"], &[], Ok("Tensor[(5), int32]")),
        ("invert_permutation", &["Tensor[(n), int64]"], &[], Ok("Tensor[(n), int64]")),
        ("invert_permutation", &["Tensor[(5), float32]"], &[], Err("`invert_permutation` expects a permutation, 1-D of integers, found `Tensor[(5), float32]`")),
    ];
    check(cases);
}

#[test]
fn sparse_coordinates_and_fast_approximations() {
    let cases: &[Case<'_>] = &[
        ("sparse_to_dense", &["Tensor[(2, 2), int32]", "Tensor[(2), float32]", "float32"], &[("output_shape", ints(&[3, 4]))], Ok("Tensor[(3, 4), float32]")),
        ("sparse_to_dense", &["Tensor[(n), int64]", "float32", "_"], &[("output_shape", ints(&[8]))], Ok("Tensor[(8), float32]")),
        ("sparse_to_dense", &["Tensor[(2, 2), int32]", "Tensor[(2), float32]", "float32"], &[("output_shape", ints(&[3, -4]))], Err("`output_shape` of `sparse_to_dense` must not have a negative dimension, found -4")),
        ("sparse_to_dense", &["Tensor[(2, 2), int32]", "Tensor[(2), float32]", "int8"], &[("output_shape", ints(&[3, 4]))], Err("the default value `int8` of `sparse_to_dense` is not of the dtype of the sparse values `Tensor[(2), float32]`")),
        ("sparse_reshape", &["Tensor[(6, 2), int64]", "Tensor[(2), int64]", "Tensor[(3), int64]"], &[], Ok("(Tensor[(6, 3), int64], Tensor[(3), int64])")),
        ("sparse_reshape", &["Tensor[(?, 2), int64]", "Tensor[(2), int64]", "Tensor[(?), int64]"], &[], Ok("(Tensor[(?, ?), int64], Tensor[(?), int64])")),
        ("sparse_reshape", &["Tensor[(6, 2), int64]", "Tensor[(3), int64]", "Tensor[(3), int64]"], &[], Err("`sparse_reshape` expects the previous shape `Tensor[(3), int64]` to have one entry per column of the sparse indices `Tensor[(6, 2), int64]`")),
        ("sparse_fill_empty_rows", &["Tensor[(6, 2), int64]", "Tensor[(6), int64]", "Tensor[(2), int64]", "Tensor[(1), int64]"], &[], Ok("(Tensor[(?, 2), int64], Tensor[(?), int64], Tensor[(?), int64])")),
        ("sparse_fill_empty_rows", &["Tensor[(n, 3), int64]", "Tensor[(n), float32]", "Tensor[(3), int64]", "float32"], &[], Ok("(Tensor[(?, 3), int64], Tensor[(?), int64], Tensor[(?), int64])")),
        ("sparse_fill_empty_rows", &["Tensor[(6, 2), int64]", "Tensor[(5), int64]", "Tensor[(2), int64]", "Tensor[(1), int64]"], &[], Err("`sparse_fill_empty_rows` expects one sparse value `Tensor[(5), int64]` per row of the sparse indices `Tensor[(6, 2), int64]`")),
        ("fast_exp", &["Tensor[(n, 3), float32]"], &[], Ok("Tensor[(n, 3), float32]")),
        ("fast_tanh", &["Tensor[(?), float16]"], &[], Ok("Tensor[(?), float16]")),
        ("fast_erf", &["float32"], &[], Ok("float32")),
    ];
    check(cases);
}

#[test]
fn random_operators_thread_their_keys() {
    let cases: &[Case<'_>] = &[
        ("random.threefry_split", &["Tensor[(10), uint64]"], &[], Ok("(Tensor[(10), uint64], Tensor[(10), uint64])")),
        ("random.threefry_split", &["Tensor[(2), uint64]"], &[], Err("the key must be a Threefry key `Tensor[(10), uint64]`, found `Tensor[(2), uint64]`")),
        ("random.threefry_generate", &["_"], &[("out_shape", ints(&[2, 3]))], Ok("(Tensor[(10), uint64], Tensor[(2, 3), uint64])")),
        ("random.uniform", &["Tensor[(10), uint64]", "float32", "float32"], &[("out_shape", ints(&[4])), ("out_dtype", string("float32"))], Ok("(Tensor[(10), uint64], Tensor[(4), float32])")),
        ("random.uniform", &["_", "_", "_"], &[("out_shape", ints(&[])), ("out_dtype", string("float64"))], Ok("(Tensor[(10), uint64], float64)")),
        ("random.uniform", &["Tensor[(10), uint64]", "float32", "float32"], &[("out_shape", ints(&[4])), ("out_dtype", string("int32"))], Err("`out_dtype` must be float32 or float64, found int32")),
        ("random.normal", &["Tensor[(10), uint64]", "float32", "float32"], &[("out_shape", ints(&[4]))], Err("`out_dtype` must be set to float32 or float64")),
        ("random.normal", &["Tensor[(10), uint64]", "float32", "Tensor[(4), float32]"], &[("out_shape", ints(&[4])), ("out_dtype", string("float32"))], Err("the second parameter must be a scalar of `out_dtype`, found `Tensor[(4), float32]`")),
        ("random.multinomial", &["Tensor[(10), uint64]", "Tensor[(2, 5), float32]"], &[("num_samples", int(4))], Ok("(Tensor[(10), uint64], Tensor[(2, 4), int32])")),
        ("random.multinomial", &["_", "Tensor[(n), float32]"], &[], Ok("(Tensor[(10), uint64], Tensor[(1), int32])")),
        ("random.multinomial", &["Tensor[(10), uint64]", "float32"], &[], Err("the probabilities must be at least 1-D, found `float32`")),
    ];
    check(cases);
    // The key and the distribution's parameters are inferred.
    check_args(&[(
        "random.normal",
        &["_", "_", "_"],
        &[("out_shape", ints(&[2])), ("out_dtype", string("float32"))],
        "(Tensor[(10), uint64], Tensor[(2), float32])",
        &["Tensor[(10), uint64]", "float32", "float32"],
    )]);
}

#[test]
fn backward_inference_of_updates_lengths_and_diagonals() {
    check_args(&[
        (
            "scatter_nd",
            &["Tensor[(4, 5, 6), float32]", "Tensor[(2, 3), int64]", "_"],
            &[],
            "Tensor[(4, 5, 6), float32]",
            &[
                "Tensor[(4, 5, 6), float32]",
                "Tensor[(2, 3), int64]",
                "Tensor[(3, 6), float32]",
            ],
        ),
        (
            "matrix_set_diag",
            &["Tensor[(2, 3, 4), float32]", "_"],
            &[("k1", int(-1)), ("k2", int(2))],
            "Tensor[(2, 3, 4), float32]",
            &["Tensor[(2, 3, 4), float32]", "Tensor[(2, 4, 3), float32]"],
        ),
        (
            "scatter_elements",
            &["Tensor[(n, 5), float32]", "Tensor[(n, 2), int32]", "_"],
            &[("axis", int(1))],
            "Tensor[(n, 5), float32]",
            &[
                "Tensor[(n, 5), float32]",
                "Tensor[(n, 2), int32]",
                "Tensor[(n, 2), float32]",
            ],
        ),
    ]);
}

/// A block as TVM prints it (an ONNX/PyTorch import: einsum attention scores, a causal
/// mask with trilu, scatters, sliding windows and a random draw); every binding has the
/// type TVM printed.
#[test]
fn a_tensor_block_as_tvm_prints_it() {
    let src = r#"
#[version = "0.0.5"]
def @main(%q: Tensor[(2, 8, 16), float32], %k: Tensor[(2, 8, 16), float32], %diag: int64, %idx: Tensor[(2, 8, 8), int64], %upd: Tensor[(2, 8, 8), float32], %key: Tensor[(10), uint64], %seq: Tensor[(2, 32), float32], %lens: Tensor[(2), int32], %pos: Tensor[(3), int64]) {
  %0 = einsum((%q, %k), equation="bid,bjd->bij") /* ty=Tensor[(2, 8, 8), float32] */;
  %1 = trilu(%0, %diag, upper=False) /* ty=Tensor[(2, 8, 8), float32] */;
  %2 = scatter_elements(%1, %idx, %upd, axis=2, reduction="add") /* ty=Tensor[(2, 8, 8), float32] */;
  %3 = fast_exp(%2) /* ty=Tensor[(2, 8, 8), float32] */;
  %4 = sequence_mask(%3, %lens, mask_value=0f, axis=1) /* ty=Tensor[(2, 8, 8), float32] */;
  %5 = sliding_window(%seq, axis=1, window_shape=[8], strides=[4]) /* ty=Tensor[(2, 7, 8), float32] */;
  %6 = argwhere(%5) /* ty=Tensor[(?, 3), int32] */;
  %7 = random.threefry_split(%key) /* ty=(Tensor[(10), uint64], Tensor[(10), uint64]) */;
  %8 = %7.0 /* ty=Tensor[(10), uint64] */;
  %9 = random.uniform(%8, 0f, 1f, out_shape=[2, 8], out_dtype="float32") /* ty=(Tensor[(10), uint64], Tensor[(2, 8), float32]) */;
  %10 = %9.1 /* ty=Tensor[(2, 8), float32] */;
  %11 = meshgrid((%pos, %pos), indexing="ij") /* ty=(Tensor[(3, 3), int64], Tensor[(3, 3), int64]) */;
  %12 = %11.0 /* ty=Tensor[(3, 3), int64] */;
  %13 = unique(%pos, sorted=True, return_counts=True) /* ty=(Tensor[(3), int64], Tensor[(3), int32], Tensor[(3), int32], Tensor[(1), int32], Tensor[(3), int32]) */;
  %14 = matrix_set_diag(%3, %10, k1=0, k2=0) /* ty=Tensor[(2, 8, 8), float32] */;
  (%4, %6, %12, %13, %14)
}
"#;
    assert_eq!(check_printed(src), Ok(15));
}
