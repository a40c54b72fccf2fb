//! TVM's level-3 operators: shape manipulation (reshape, transpose, squeeze, split,
//! take, stack, …), initializers, casts, element-wise rounding and sign operators, and
//! scans.
//!
//! Relations that read well as clauses are written as clauses below; the others
//! (`newshape`'s special values, lists of axes, tuples of results, `?` in a result) are
//! imperative, in [`reshape`](mod@reshape) and [`shapes`].

use crate::relations::Identity;
use relay_core::{relation, relay_op};

pub mod reshape;
pub mod shapes;
mod util;

pub use reshape::{Reshape, ReshapeLike, ReverseReshape};
pub use shapes::{
    Arange, Full, GatherNd, Reinterpret, Scanop, Split, Squeeze, Stack, Take, Tile, Transpose,
};

/// TVM's `CastRel`: the same shape with the `dtype` attribute.
#[relation(Cast(Tensor(s, _), O) :- O = Tensor(s, attrs.dtype), attrs(dtype: dtype))]
pub struct Cast;

/// TVM's `CastLikeRel`: the data's shape with the dtype of the second tensor.
#[relation(CastLike(Tensor(s, _), Tensor(_, dt), O) :- O = Tensor(s, dt))]
pub struct CastLike;

/// TVM's `IdentityCompRel`: the same shape, `bool` elements.
#[relation(IdentityComp(Tensor(s, _), O) :- O = Tensor(s, bool))]
pub struct IdentityComp;

/// TVM's `InitOpRel`: no input; the result is `Tensor[shape, dtype]`.
#[relation(InitOp(O) :- O = Tensor(attrs.shape, attrs.dtype), attrs(shape: shape, dtype: dtype))]
pub struct InitOp;

/// TVM's `FullLikeRel`: the data's type; the fill value is a scalar.
#[relation(
    FullLike(Tensor(s, bt), Tensor(sv, _), O) :-
        assert(len(sv) == 0, "the fill value must be a scalar"),
        O = Tensor(s, bt)
)]
pub struct FullLike;

/// TVM's `ReverseRel`: the same type, `axis` in range.
#[relation(
    Reverse(Tensor(s, bt), O) :-
        O = Tensor(s, bt),
        assert(attrs.axis >= -len(s), "`axis` is out of range"),
        assert(attrs.axis < len(s), "`axis` is out of range"),
        attrs(axis: int)
)]
pub struct Reverse;

/// TVM's `RepeatRel`: dimension `axis` multiplied by `repeats`.
#[relation(
    Repeat(Tensor(s, bt), O) :-
        assert(attrs.axis >= -len(s), "`axis` is out of range"),
        assert(attrs.axis < len(s), "`axis` is out of range"),
        assert(attrs.repeats >= 1, "`repeats` must be at least 1"),
        k = attrs.axis % len(s),
        O = Tensor([..s[..k], s[k] * attrs.repeats, ..s[k + 1..]], bt),
        attrs(repeats: int, axis: int)
)]
pub struct Repeat;

/// TVM's `GatherRel`: the shape of the indices, the data's dtype; same ranks.
#[relation(
    Gather(Tensor(s, bt), Tensor(si, _), O) :-
        assert(len(si) == len(s), "the data and the indices must have the same rank"),
        assert(attrs.axis >= -len(s), "`axis` is out of range"),
        assert(attrs.axis < len(s), "`axis` is out of range"),
        O = Tensor(si, bt),
        attrs(axis: int)
)]
pub struct Gather;

/// TVM's `PReluRel`: the data's type; `alpha` is `(C)` with `C` the data's dimension
/// `axis` (inferred backward when `alpha` is unknown).
#[relation(
    PRelu(Tensor(s, bt), A, O) :-
        assert(attrs.axis >= -len(s), "`axis` is out of range"),
        assert(attrs.axis < len(s), "`axis` is out of range"),
        A = Tensor([s[attrs.axis]], bt),
        O = Tensor(s, bt),
        attrs(axis: int = 1)
)]
pub struct PRelu;

relay_op! {
    /// Reshapes to `newshape`, whose special values are TVM's: `0` copies the input
    /// dimension under the cursor (a literal 0 with `allowzero`), `-1` is inferred from
    /// the element count (at most one), `-2` copies the remaining dimensions, `-3` merges
    /// two, `-4 a b` splits one into `a` and `b` (one may be `-1`). The element counts
    /// must agree (compared in normal form).
    ///
    /// Attributes: `newshape: [int]` (required), `allowzero: bool = false`.
    ///
    /// ```text
    /// reshape(%x: Tensor[(2, 3, 4), float32], newshape=[0, -1])  // Tensor[(2, 12), float32]
    /// ```
    reshape : fn<t1, t2>(data: t1) -> t2 where Reshape,
        attrs { newshape: [int], allowzero: bool = false },
        level 3;

    /// Reshapes `data`'s dimensions `[lhs_begin, lhs_end)` to `shape_like`'s dimensions
    /// `[rhs_begin, rhs_end)` (`None`: to the end; negatives from the end).
    ///
    /// Attributes: `lhs_begin: int = 0`, `lhs_end: Option<int> = None`,
    /// `rhs_begin: int = 0`, `rhs_end: Option<int> = None`.
    ///
    /// ```text
    /// reshape_like(%x: Tensor[(2, 3, 4), float32], %y: Tensor[(6, 2), int8], lhs_end=2, rhs_end=1)
    /// // Tensor[(6, 4), float32]
    /// ```
    reshape_like : fn<t1, t2, t3>(data: t1, shape_like: t2) -> t3 where ReshapeLike,
        attrs {
            lhs_begin: int = 0,
            lhs_end: Option<int> = None,
            rhs_begin: int = 0,
            rhs_end: Option<int> = None,
        },
        level 10;

    /// TVM's `contrib_reverse_reshape`: `reshape` with the special values applied from
    /// the right (on the reversed shapes).
    ///
    /// Attributes: `newshape: [int]` (required).
    ///
    /// ```text
    /// reverse_reshape(%x: Tensor[(10, 5, 4), float32], newshape=[-1, 0])  // Tensor[(50, 4), float32]
    /// ```
    reverse_reshape : fn<t1, t2>(data: t1) -> t2 where ReverseReshape,
        attrs { newshape: [int] },
        level 10;

    /// Permutes the dimensions by `axes` (`None`: reverses them).
    ///
    /// Attributes: `axes: Option<[int]> = None`.
    ///
    /// ```text
    /// transpose(%x: Tensor[(2, 3, 4), float32], axes=[1, 0, 2])  // Tensor[(3, 2, 4), float32]
    /// ```
    transpose : fn<t1, t2>(data: t1) -> t2 where Transpose,
        attrs { axes: Option<[int]> = None },
        level 3;

    /// Removes dimensions of size 1: those listed in `axis`, or (`None`) every one known
    /// to be 1 — a `?` or symbolic dimension is then an error asking for `axis`.
    ///
    /// Attributes: `axis: Option<[int]> = None`.
    ///
    /// ```text
    /// squeeze(%x: Tensor[(1, 3, 1), float32])  // Tensor[(3), float32]
    /// ```
    squeeze : fn<t1, t2>(data: t1) -> t2 where Squeeze,
        attrs { axis: Option<[int]> = None },
        level 3;

    /// Splits along `axis` into `indices_or_sections` equal parts (an integer), or at
    /// the given indices (a list, accepted by the relation); a tuple of tensors.
    ///
    /// Attributes: `indices_or_sections: int` (required), `axis: int = 0`.
    ///
    /// ```text
    /// split(%x: Tensor[(6, 4), float32], indices_or_sections=3)
    /// // (Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])
    /// ```
    split : fn<t1, t2>(data: t1) -> t2 where Split,
        attrs { indices_or_sections: int | [int], axis: int = 0 },
        level 3;

    /// Takes elements of `data` at `indices` along `axis` (`None`: of the flattened data).
    ///
    /// Attributes: `axis: Option<int> = None`, `batch_dims: int = 0`,
    /// `mode: str = "clip"` (`"clip"`, `"wrap"` or `"fast"`).
    ///
    /// ```text
    /// take(%x: Tensor[(5, 4), float32], %i: Tensor[(2, 3), int32], axis=0)  // Tensor[(2, 3, 4), float32]
    /// ```
    take : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where Take,
        attrs { axis: Option<int> = None, batch_dims: int = 0, mode: str = "clip" },
        level 3;

    /// Stacks a tuple of tensors of one shape along a new dimension `axis`.
    ///
    /// Attributes: `axis: int = 0`.
    ///
    /// ```text
    /// stack((%a: Tensor[(3), float32], %b: Tensor[(3), float32]), axis=1)  // Tensor[(3, 2), float32]
    /// ```
    stack : fn<t1, t2>(data: t1) -> t2 where Stack,
        attrs { axis: int = 0 },
        level 3;

    /// Converts the elements to `dtype`.
    ///
    /// Attributes: `dtype: dtype` (required).
    ///
    /// ```text
    /// cast(%x: Tensor[(2, 3), float32], dtype="int8")  // Tensor[(2, 3), int8]
    /// ```
    cast : fn<t1, t2>(data: t1) -> t2 where Cast,
        attrs { dtype: dtype },
        level 3;

    /// Converts the elements to the dtype of `dtype_like`.
    ///
    /// ```text
    /// cast_like(%x: Tensor[(2, 3), float32], %y: Tensor[(7), int8])  // Tensor[(2, 3), int8]
    /// ```
    cast_like : fn<t1, t2, t3>(data: t1, dtype_like: t2) -> t3 where CastLike,
        level 3;

    /// Reinterprets the bits of the elements as `dtype` (of the same width).
    ///
    /// Attributes: `dtype: dtype` (required).
    ///
    /// ```text
    /// reinterpret(%x: Tensor[(2, 3), float32], dtype="int32")  // Tensor[(2, 3), int32]
    /// ```
    reinterpret : fn<t1, t2>(data: t1) -> t2 where Reinterpret,
        attrs { dtype: dtype },
        level 3;

    /// A tensor of zeros of `shape` and `dtype`.
    ///
    /// Attributes: `shape: [int]`, `dtype: dtype` (both required).
    ///
    /// ```text
    /// zeros(shape=[2, 3], dtype="float32")  // Tensor[(2, 3), float32]
    /// ```
    zeros : fn<t>() -> t where InitOp,
        attrs { shape: [int], dtype: dtype },
        level 3;

    /// A tensor of ones of `shape` and `dtype`.
    ///
    /// Attributes: `shape: [int]`, `dtype: dtype` (both required).
    ///
    /// ```text
    /// ones(shape=[4], dtype="int32")  // Tensor[(4), int32]
    /// ```
    ones : fn<t>() -> t where InitOp,
        attrs { shape: [int], dtype: dtype },
        level 3;

    /// A tensor of `shape` filled with the scalar `fill_value`, of `dtype` (`None`: the
    /// fill value's).
    ///
    /// Attributes: `shape: [int]` (required), `dtype: Option<dtype> = None`.
    ///
    /// ```text
    /// full(%v: float32, shape=[2, 3])  // Tensor[(2, 3), float32]
    /// ```
    full : fn<t1, t2>(fill_value: t1) -> t2 where Full,
        attrs { shape: [int], dtype: Option<dtype> = None },
        level 3;

    /// A tensor of `data`'s type filled with the scalar `fill_value`.
    ///
    /// ```text
    /// full_like(%x: Tensor[(2, 3), float32], %v: float32)  // Tensor[(2, 3), float32]
    /// ```
    full_like : fn<t1, t2, t3>(data: t1, fill_value: t2) -> t3 where FullLike,
        level 3;

    /// Zeros of `data`'s type.
    ///
    /// ```text
    /// zeros_like(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    zeros_like : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 4;

    /// Ones of `data`'s type.
    ///
    /// ```text
    /// ones_like(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    ones_like : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 4;

    /// The values from `start` to `stop` by `step` (scalars of `dtype`); the length is
    /// not known statically.
    ///
    /// Attributes: `dtype: dtype = "float32"`.
    ///
    /// ```text
    /// arange(%start: int32, %stop: int32, %step: int32, dtype="int32")  // Tensor[(?), int32]
    /// ```
    arange : fn<t1, t2, t3, t4>(start: t1, stop: t2, step: t3) -> t4 where Arange,
        attrs { dtype: dtype = "float32" },
        level 3;

    /// Repeats each element `repeats` times along `axis`.
    ///
    /// Attributes: `repeats: int`, `axis: int` (both required).
    ///
    /// ```text
    /// repeat(%x: Tensor[(2, 3), float32], repeats=2, axis=1)  // Tensor[(2, 6), float32]
    /// ```
    repeat : fn<t1, t2>(data: t1) -> t2 where Repeat,
        attrs { repeats: int, axis: int },
        level 3;

    /// Tiles the data `reps` times along each dimension (the shorter of the shape and
    /// `reps` padded with leading 1s).
    ///
    /// Attributes: `reps: [int]` (required).
    ///
    /// ```text
    /// tile(%x: Tensor[(2, 3), float32], reps=[2, 1, 2])  // Tensor[(2, 2, 6), float32]
    /// ```
    tile : fn<t1, t2>(data: t1) -> t2 where Tile,
        attrs { reps: [int] },
        level 3;

    /// Reverses the order of the elements along `axis`.
    ///
    /// Attributes: `axis: int` (required).
    ///
    /// ```text
    /// reverse(%x: Tensor[(2, 3), float32], axis=1)  // Tensor[(2, 3), float32]
    /// ```
    reverse : fn<t1, t2>(data: t1) -> t2 where Reverse,
        attrs { axis: int },
        level 3;

    /// Gathers elements along `axis` at `indices` (of the data's rank).
    ///
    /// Attributes: `axis: int` (required).
    ///
    /// ```text
    /// gather(%x: Tensor[(3, 4), float32], %i: Tensor[(3, 2), int32], axis=1)  // Tensor[(3, 2), float32]
    /// ```
    gather : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where Gather,
        attrs { axis: int },
        level 3;

    /// Gathers slices of `data` at the `M`-dimensional indices `(M, Y...)`:
    /// `Y... ++ data[batch_dims + M:]`.
    ///
    /// Attributes: `batch_dims: int = 0`, `index_rank: Option<int> = None`.
    ///
    /// ```text
    /// gather_nd(%x: Tensor[(3, 4, 5), float32], %i: Tensor[(2, 6), int32])  // Tensor[(6, 5), float32]
    /// ```
    gather_nd : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where GatherNd,
        attrs { batch_dims: int = 0, index_rank: Option<int> = None },
        level 3;

    /// Element-wise absolute value.
    ///
    /// ```text
    /// abs(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    abs : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise ceiling.
    ///
    /// ```text
    /// ceil(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    ceil : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise floor.
    ///
    /// ```text
    /// floor(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    floor : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise rounding to the nearest integer.
    ///
    /// ```text
    /// round(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    round : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise truncation toward zero.
    ///
    /// ```text
    /// trunc(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    trunc : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise sign (-1, 0 or 1).
    ///
    /// ```text
    /// sign(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    sign : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Element-wise negation.
    ///
    /// ```text
    /// negative(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    negative : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// A copy of the data.
    ///
    /// ```text
    /// copy(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), float32]
    /// ```
    copy : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Clamps every element to `[a_min, a_max]`.
    ///
    /// Attributes: `a_min: float`, `a_max: float` (both required).
    ///
    /// ```text
    /// clip(%x: Tensor[(2, 3), float32], a_min=0f, a_max=6f)  // Tensor[(2, 3), float32]
    /// ```
    clip : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { a_min: float, a_max: float },
        level 3;

    /// Leaky ReLU: `x` if positive, else `alpha * x`.
    ///
    /// Attributes: `alpha: float = 0.25` (the C++ attribute default; Python passes 0.01).
    ///
    /// ```text
    /// nn.leaky_relu(%x: Tensor[(2, 3), float32], alpha=0.1f)  // Tensor[(2, 3), float32]
    /// ```
    nn.leaky_relu : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { alpha: float = 0.25 },
        level 3;

    /// Parametric ReLU with one slope per channel: `alpha` is `(C)`, `C` the data's
    /// dimension `axis` (inferred when `alpha` is not annotated).
    ///
    /// Attributes: `axis: int = 1`.
    ///
    /// ```text
    /// nn.prelu(%x: Tensor[(1, 3, 8, 8), float32], %a)  // Tensor[(1, 3, 8, 8), float32], %a: Tensor[(3), float32]
    /// ```
    nn.prelu : fn<t1, t2, t3>(data: t1, alpha: t2) -> t3 where PRelu,
        attrs { axis: int = 1 },
        level 3;

    /// Element-wise test for NaN.
    ///
    /// ```text
    /// isnan(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), bool]
    /// ```
    isnan : fn<t1, t2>(data: t1) -> t2 where IdentityComp, level 3;

    /// Element-wise test for an infinity.
    ///
    /// ```text
    /// isinf(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), bool]
    /// ```
    isinf : fn<t1, t2>(data: t1) -> t2 where IdentityComp, level 3;

    /// Element-wise test for a finite value.
    ///
    /// ```text
    /// isfinite(%x: Tensor[(2, 3), float32])  // Tensor[(2, 3), bool]
    /// ```
    isfinite : fn<t1, t2>(data: t1) -> t2 where IdentityComp, level 3;

    /// Cumulative sum along `axis` (`None`: over the flattened data), in `dtype`
    /// (`None`: the data's); `exclusive` leaves out each element itself.
    ///
    /// Attributes: `axis: Option<int> = None`, `dtype: Option<dtype> = None`,
    /// `exclusive: bool = false`.
    ///
    /// ```text
    /// cumsum(%x: Tensor[(2, 3), int32])  // Tensor[(6), int32]
    /// ```
    cumsum : fn<t1, t2>(data: t1) -> t2 where Scanop,
        attrs { axis: Option<int> = None, dtype: Option<dtype> = None, exclusive: bool = false },
        level 3;

    /// Cumulative product along `axis` (`None`: over the flattened data), in `dtype`
    /// (`None`: the data's); `exclusive` leaves out each element itself.
    ///
    /// Attributes: `axis: Option<int> = None`, `dtype: Option<dtype> = None`,
    /// `exclusive: bool = false`.
    ///
    /// ```text
    /// cumprod(%x: Tensor[(2, 3), float32], axis=1)  // Tensor[(2, 3), float32]
    /// ```
    cumprod : fn<t1, t2>(data: t1) -> t2 where Scanop,
        attrs { axis: Option<int> = None, dtype: Option<dtype> = None, exclusive: bool = false },
        level 3;
}
