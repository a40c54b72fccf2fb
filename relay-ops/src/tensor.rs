//! TVM's other tensor operators: `einsum`, scatters and gathers by index (`scatter_elements`,
//! `scatter_nd`, `adv_index`, `strided_set`, `searchsorted`, `unravel_index`,
//! `argwhere`), shape makers and keepers (`meshgrid`, `sliding_window`, `stft`, `dft`,
//! `sequence_mask`, `matrix_set_diag`, `reverse_sequence`, `trilu`, `unique`,
//! `invert_permutation`), sparse coordinate tensors (`sparse_to_dense`, `sparse_reshape`,
//! `sparse_fill_empty_rows`), the fast approximations `fast_exp`, `fast_tanh`,
//! `fast_erf`, and the `random.*` operators on Threefry keys.
//!
//! The random relations are clauses, below; the others are imperative, in
//! [`einsum`](mod@einsum), [`index`], [`shape`] and [`sparse`]. Attributes are TVM's C++
//! ones (`include/tvm/relay/attrs/{transform,algorithm,random}.h`).

pub mod einsum;
pub mod index;
pub mod shape;
pub mod sparse;
pub(crate) mod util;

use crate::relations::Identity;
use einsum::Einsum;
use index::{
    AdvIndex, ArgWhere, ScatterElements, ScatterND, SearchSorted, StridedSet, UnRavelIndex,
};
use relay_core::{relation, relay_op};
use shape::{
    Dft, InvertPermutation, MatrixSetDiag, Meshgrid, ReverseSequence, SequenceMask, SlidingWindow,
    Stft, Trilu, Unique,
};
use sparse::{SparseFillEmptyRows, SparseReshape, SparseToDense};

/// TVM's `ThreefrySplit`: a Threefry key `(10) uint64` (assigned when unknown) splits in
/// two keys.
#[relation(
    ThreefrySplit(K, O) :-
        assert(K = Tensor([10], uint64), "the key must be a Threefry key `Tensor[(10), uint64]`, found `{}`", K),
        O = (Tensor([10], uint64), Tensor([10], uint64))
)]
pub struct ThreefrySplit;

/// TVM's `ThreefryGenerate`: a key gives the next key and `out_shape` random `uint64`s.
#[relation(
    ThreefryGenerate(K, O) :-
        assert(K = Tensor([10], uint64), "the key must be a Threefry key `Tensor[(10), uint64]`, found `{}`", K),
        O = (Tensor([10], uint64), Tensor(attrs.out_shape, uint64)),
        attrs(out_shape: shape)
)]
pub struct ThreefryGenerate;

/// TVM's `Uniform` and `Normal`: a key and two scalar parameters of `out_dtype` (`float32`
/// or `float64`, assigned when unknown) give the next key and `out_shape` random values.
#[relation(
    RandomDistribution(K, A, B, O) :-
        assert(attrs.out_dtype != None, "`out_dtype` must be set to float32 or float64"),
        assert(
            attrs.out_dtype == float32 || attrs.out_dtype == float64,
            "`out_dtype` must be float32 or float64, found {}", attrs.out_dtype
        ),
        assert(K = Tensor([10], uint64), "the key must be a Threefry key `Tensor[(10), uint64]`, found `{}`", K),
        assert(A = Tensor([], attrs.out_dtype), "the first parameter must be a scalar of `out_dtype`, found `{}`", A),
        assert(B = Tensor([], attrs.out_dtype), "the second parameter must be a scalar of `out_dtype`, found `{}`", B),
        O = (Tensor([10], uint64), Tensor(attrs.out_shape, attrs.out_dtype)),
        attrs(out_shape: shape, out_dtype: Option<dtype> = None)
)]
pub struct RandomDistribution;

/// TVM's `Multinomial`: a key and probabilities `(..., C)` give the next key and
/// `(..., num_samples)` `int32` indices.
#[relation(
    Multinomial(K, P @ Tensor(s, _), O) :-
        assert(K = Tensor([10], uint64), "the key must be a Threefry key `Tensor[(10), uint64]`, found `{}`", K),
        assert(len(s) >= 1, "the probabilities must be at least 1-D, found `{}`", P),
        assert(attrs.num_samples >= 1, "`num_samples` must be at least 1, found {}", attrs.num_samples),
        O = (Tensor([10], uint64), Tensor([..s[..-1], attrs.num_samples], int32)),
        attrs(num_samples: int = 1)
)]
pub struct Multinomial;

relay_op! {
    /// Einstein summation of a tuple of tensors of one dtype by `equation`
    /// (`"ij,jk->ik"`; with `...` for broadcast dimensions; without `->`, the output is
    /// the ellipsis then the labels seen once, in ASCII order). A label's extents must
    /// agree or be 1; a wrong equation is an error naming the problem.
    ///
    /// (TVM registers it at support level 11; it is declared at 10, the highest level
    /// here.)
    ///
    /// ```text
    /// %y = einsum((%a, %b), equation="ij,jk->ik")  // (2, 3) f32, (3, 4) f32 -> (2, 4) f32
    /// %y = einsum((%a, %b), equation="...ij,...jk")  // (n, 2, 3) f32, (1, 3, 4) f32 -> (n, 2, 4) f32
    /// ```
    einsum : fn<t1, t2>(data: t1) -> t2 where Einsum,
        attrs { equation: str },
        level 10;

    /// Writes `updates` into a copy of `data` at `indices` along `axis`; the data's type.
    /// The indices (integers) have the data's rank, the updates their shape.
    ///
    /// `reduction`: `"update"` or `"add"`, `"mul"`, `"mean"`, `"min"`, `"max"`.
    ///
    /// ```text
    /// %y = scatter_elements(%x, %i, %u, axis=1)  // (3, 5) f32, (3, 2) i64, (3, 2) f32 -> (3, 5) f32
    /// ```
    scatter_elements : fn<t1, t2, t3, t4>(data: t1, indices: t2, updates: t3) -> t4 where ScatterElements,
        attrs { axis: int = 0, reduction: str = "update" },
        level 3;

    /// Writes `updates` `(Y..., X_M, ...)` into a copy of `data` `(X_0, ..., X_N-1)` at
    /// the `M`-dimensional `indices` `(M, Y...)`; the data's type.
    ///
    /// `mode`: `"update"` or `"add"`, `"mul"`, `"min"`, `"max"`.
    ///
    /// ```text
    /// %y = scatter_nd(%x, %i, %u)  // (4, 5, 6) f32, (2, 3) i64, (3, 6) f32 -> (4, 5, 6) f32
    /// ```
    scatter_nd : fn<t1, t2, t3, t4>(data: t1, indices: t2, updates: t3) -> t4 where ScatterND,
        attrs { mode: str = "update" },
        level 3;

    /// The unique elements of 1-D data, their first indices, the inverse indices and their
    /// number (and their counts, with `return_counts`).
    ///
    /// ```text
    /// %y = unique(%x)  // (n) i32 -> ((n) i32, (n) i32, (n) i32, (1) i32)
    /// ```
    unique : fn<t1, t2>(data: t1) -> t2 where Unique,
        attrs { sorted: bool = true, return_counts: bool = false },
        level 3;

    /// The indices of the non-zero elements: `(?, rank)` of `int32`.
    ///
    /// ```text
    /// %y = argwhere(%x)  // (3, 4) bool -> (?, 2) i32
    /// ```
    argwhere : fn<t1, t2>(condition: t1) -> t2 where ArgWhere, level 10;

    /// Grids of a tuple of scalars and 1-D tensors of one dtype: one tensor per field, of
    /// the shape of their lengths (`indexing = "xy"` swaps the first two).
    ///
    /// ```text
    /// %y = meshgrid((%a, %b))  // (3) f32, (4) f32 -> ((3, 4) f32, (3, 4) f32)
    /// %y = meshgrid((%a, %b), indexing="xy")  // (3) f32, (n) f32 -> ((n, 3) f32, (n, 3) f32)
    /// ```
    meshgrid : fn<t1, t2>(data: t1) -> t2 where Meshgrid,
        attrs { indexing: str = "ij" },
        level 3;

    /// The indices at which `values` would be inserted into `sorted_sequence` (1-D, or of
    /// the values' rank and outer dimensions): the values' shape, of `dtype`.
    ///
    /// ```text
    /// %y = searchsorted(%s, %v)  // (8) f32, (2, 3) f32 -> (2, 3) i32
    /// ```
    searchsorted : fn<t1, t2, t3>(sorted_sequence: t1, values: t2) -> t3 where SearchSorted,
        attrs { right: bool = false, dtype: dtype = int32 },
        level 6;

    /// The upper (or lower) triangle of the matrices in the last two axes, from the
    /// diagonal `k` (an integer scalar); the data's type.
    ///
    /// ```text
    /// %y = trilu(%x, %k, upper=False)  // (2, 4, 4) f32, () i64 -> (2, 4, 4) f32
    /// ```
    trilu : fn<t1, t2, t3>(data: t1, k: t2) -> t3 where Trilu,
        attrs { upper: bool = true },
        level 3;

    /// The short-time Fourier transform of `data` (`(L)` or `(B, L)`) with `window`:
    /// `([B,] n_fft / 2 + 1, frames, 2)` (`n_fft` unless `onesided`), `frames =
    /// floordiv(L - n_fft, hop_length) + 1`.
    ///
    /// `n_fft` and `hop_length` are `-1` by default in TVM's C++, which is invalid: they must
    /// be set.
    ///
    /// ```text
    /// %y = stft(%x, %w, n_fft=16, hop_length=4, win_length=16)  // (2, 64) f32, (16) f32 -> (2, 9, 13, 2) f32
    /// ```
    stft : fn<t1, t2, t3>(data: t1, window: t2) -> t3 where Stft,
        attrs {
            n_fft: int = -1,
            hop_length: int = -1,
            win_length: int = -1,
            normalized: bool = false,
            onesided: bool = true,
        },
        level 3;

    /// The discrete Fourier transform of the complex data given as its real and
    /// imaginary parts (of one type): the pair of the result's parts.
    ///
    /// ```text
    /// %y = dft(%re, %im, inverse=True)  // (4, 8) f32, (4, 8) f32 -> ((4, 8) f32, (4, 8) f32)
    /// ```
    dft : fn<t1, t2, t3>(re_data: t1, im_data: t2) -> t3 where Dft,
        attrs { inverse: bool = false },
        level 3;

    /// Masks the entries of each sequence beyond its `valid_length` with `mask_value`;
    /// the data's type. `axis` (0 or 1) is the time axis, the other one the batch, whose
    /// length `valid_length` has (inferred when unknown).
    ///
    /// ```text
    /// %y = sequence_mask(%x, %l, axis=1)  // (4, 10, 8) f32, (4) i32 -> (4, 10, 8) f32
    /// ```
    sequence_mask : fn<t1, t2, t3>(data: t1, valid_length: t2) -> t3 where SequenceMask,
        attrs { mask_value: float = 0.0, axis: int = 0 },
        level 10;

    /// Sets the diagonals `k1` to `k2` of the matrices in the last two axes of `input` to
    /// `diagonal` (`(..., L)` for one diagonal, `(..., k2 - k1 + 1, L)` for a band, `L` the
    /// longest diagonal's length; inferred when unknown); the input's type.
    ///
    /// ```text
    /// %y = matrix_set_diag(%x, %d, k1=-1, k2=2)  // (2, 3, 4) f32, (2, 4, 3) f32 -> (2, 3, 4) f32
    /// ```
    matrix_set_diag : fn<t1, t2, t3>(input: t1, diagonal: t2) -> t3 where MatrixSetDiag,
        attrs {
            k1: int = 0,
            k2: int = 0,
            super_diag_right_align: bool = true,
            sub_diag_right_align: bool = false,
        },
        level 10;

    /// Reverses the first `seq_lengths[b]` entries along `seq_axis` of each entry `b` of
    /// `batch_axis`; the data's type.
    ///
    /// ```text
    /// %y = reverse_sequence(%x, %l)  // (4, 10, 8) f32, (4) i32 -> (4, 10, 8) f32
    /// ```
    reverse_sequence : fn<t1, t2, t3>(data: t1, seq_lengths: t2) -> t3 where ReverseSequence,
        attrs { seq_axis: int = 1, batch_axis: int = 0 },
        level 3;

    /// The coordinates of flat `indices` in an array of `shape`: one row per dimension
    /// of `shape`, the indices' shape after it.
    ///
    /// ```text
    /// %y = unravel_index(%i, %s)  // (5) i64, (3) i64 -> (3, 5) i64
    /// ```
    unravel_index : fn<t1, t2, t3>(indices: t1, shape: t2) -> t3 where UnRavelIndex,
        level 3;

    /// The inverse of a permutation (a 1-D integer tensor); the same type.
    ///
    /// ```text
    /// %y = invert_permutation(%x)  // (5) i32 -> (5) i32
    /// ```
    invert_permutation : fn<t1, t2>(data: t1) -> t2 where InvertPermutation, level 1;

    /// NumPy advanced indexing of the first field of the tuple by the others (integer
    /// tensors, broadcast together): their broadcast shape, then the dimensions not
    /// indexed.
    ///
    /// ```text
    /// %y = adv_index((%x, %i, %j))  // (5, 6, 7) f32, (2, 1) i64, (3) i64 -> (2, 3, 7) f32
    /// ```
    adv_index : fn<t1, t2>(inputs: t1) -> t2 where AdvIndex, level 3;

    /// Writes `v` into the strided slice `begin:end:strides` (1-D integer tensors) of a
    /// copy of `data`; the data's type.
    ///
    /// ```text
    /// %y = strided_set(%x, %v, %b, %e, %s)  // (4, 6) f32, (2, 3) f32, (2) i64, (2) i64, (2) i64 -> (4, 6) f32
    /// ```
    strided_set : fn<t1, t2, t3, t4, t5, t6>(data: t1, v: t2, begin: t3, end: t4, strides: t5) -> t6
        where StridedSet,
        level 4;

    /// The windows of `window_shape` slid by `strides` over the axes from `axis`: the
    /// axes before `axis`, the number of windows along each slid axis, then the window.
    ///
    /// ```text
    /// %y = sliding_window(%x, axis=1, window_shape=[3, 4], strides=[1, 2])  // (2, 6, 8) f32 -> (2, 4, 3, 3, 4) f32
    /// ```
    sliding_window : fn<t1, t2>(data: t1) -> t2 where SlidingWindow,
        attrs { axis: int, window_shape: [int], strides: [int] },
        level 10;

    /// A dense tensor of `output_shape` with `sparse_values` (rank 0 or 1) at
    /// `sparse_indices` (integers of rank 0 to 2) and the scalar `default_value` (of the
    /// values' dtype) elsewhere.
    ///
    /// ```text
    /// %y = sparse_to_dense(%i, %v, %d, output_shape=[3, 4])  // (2, 2) i32, (2) f32, () f32 -> (3, 4) f32
    /// ```
    sparse_to_dense : fn<t1, t2, t3, t4>(sparse_indices: t1, sparse_values: t2, default_value: t3) -> t4
        where SparseToDense,
        attrs { output_shape: [int] },
        level 3;

    /// Reshapes a sparse tensor of coordinates `(N, ndims)` from `prev_shape` to
    /// `new_shape` (1-D integer tensors): the new coordinates `(N, len(new_shape))` and
    /// the new shape.
    ///
    /// ```text
    /// %y = sparse_reshape(%i, %p, %n)  // (6, 2) i64, (2) i64, (3) i64 -> ((6, 3) i64, (3) i64)
    /// ```
    sparse_reshape : fn<t1, t2, t3, t4>(sparse_indices: t1, prev_shape: t2, new_shape: t3) -> t4
        where SparseReshape,
        level 3;

    /// Fills the empty rows of a sparse tensor of coordinates `(N, ndims)` with
    /// `default_value`: the new coordinates `(?, ndims)`, the new values `(?)` and the
    /// empty-row indicator `(?)`, all `int64` (as TVM's kernel writes them).
    ///
    /// ```text
    /// %y = sparse_fill_empty_rows(%i, %v, %s, %d)  // (6, 2) i64, (6) i64, (2) i64, (1) i64 -> ((?, 2) i64, (?) i64, (?) i64)
    /// ```
    sparse_fill_empty_rows : fn<t1, t2, t3, t4, t5>(sparse_indices: t1, sparse_values: t2, dense_shape: t3, default_value: t4) -> t5
        where SparseFillEmptyRows,
        level 3;

    /// Element-wise exponential, approximated.
    ///
    /// ```text
    /// %y = fast_exp(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    fast_exp,

    /// Element-wise hyperbolic tangent, approximated.
    ///
    /// ```text
    /// %y = fast_tanh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    fast_tanh,

    /// Element-wise error function, approximated.
    ///
    /// ```text
    /// %y = fast_erf(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    fast_erf : fn<t1, t2>(data: t1) -> t2 where Identity, level 1;

    /// Draws `num_samples` indices from the categorical distributions `probs`
    /// `(..., C)` with the Threefry `key`: the next key and `(..., num_samples)` `int32`.
    ///
    /// ```text
    /// %y = random.multinomial(%k, %p, num_samples=4)  // (10) u64, (2, 5) f32 -> ((10) u64, (2, 4) i32)
    /// ```
    random.multinomial : fn<t1, t2, t3>(key: t1, probs: t2) -> t3 where Multinomial,
        attrs { num_samples: int = 1 },
        level 10;

    /// Draws `out_shape` values from the normal distribution of scalar `mean` and
    /// `scale` with the Threefry `key`: the next key and the values, of `out_dtype`.
    ///
    /// `out_dtype`: `float32` or `float64`; TVM's C++ leaves it unset, an error.
    ///
    /// ```text
    /// %y = random.normal(%k, %m, %s, out_shape=[2, 3], out_dtype="float32")  // (10) u64, () f32, () f32 -> ((10) u64, (2, 3) f32)
    /// ```
    random.normal : fn<t1, t2, t3, t4>(key: t1, mean: t2, scale: t3) -> t4 where RandomDistribution,
        attrs { out_shape: [int], out_dtype: Option<dtype> = None },
        level 10;

    /// Draws `out_shape` values uniformly in `[low, high)` (scalars) with the Threefry
    /// `key`: the next key and the values, of `out_dtype` (`float32` or `float64`).
    ///
    /// ```text
    /// %y = random.uniform(%k, %lo, %hi, out_shape=[4], out_dtype="float64")  // (10) u64, () f64, () f64 -> ((10) u64, (4) f64)
    /// ```
    random.uniform : fn<t1, t2, t3, t4>(key: t1, low: t2, high: t3) -> t4 where RandomDistribution,
        attrs { out_shape: [int], out_dtype: Option<dtype> = None },
        level 10;

    /// Generates `out_shape` random `uint64`s with the Threefry `key`: the next key and
    /// the values.
    ///
    /// ```text
    /// %y = random.threefry_generate(%k, out_shape=[2, 2])  // (10) u64 -> ((10) u64, (2, 2) u64)
    /// ```
    random.threefry_generate : fn<t1, t2>(key: t1) -> t2 where ThreefryGenerate,
        attrs { out_shape: [int] },
        level 10;

    /// Splits the Threefry `key` into two new keys.
    ///
    /// ```text
    /// %y = random.threefry_split(%k)  // (10) u64 -> ((10) u64, (10) u64)
    /// ```
    random.threefry_split : fn<t1, t2>(key: t1) -> t2 where ThreefrySplit, level 10;
}
