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
pub mod util;

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

/// TVM's `InitOpRel`: no input; the result is `Tensor[shape, dtype]`. An unset `dtype`
/// (TVM's C++ default, the void dtype, printed `""`) is an error: TVM would type the result
/// with the void dtype, which no tensor has.
#[relation(
    InitOp(O) :-
        assert(attrs.dtype != None, "`dtype` must be set: the unset dtype (TVM's default) is no tensor's dtype"),
        O = Tensor(attrs.shape, attrs.dtype),
        attrs(shape: shape, dtype: Option<dtype>)
)]
pub struct InitOp;

/// TVM's `FullLikeRel`: the data's type; the fill value is a scalar.
#[relation(
    FullLike(Tensor(s, bt), Tensor(sv, _), O) :-
        assert(len(sv) == 0, "the fill value must be a scalar"),
        O = Tensor(s, bt)
)]
pub struct FullLike;

/// TVM's `ReverseRel`: the same type, `axis` in range. `axis` has no default in TVM's
/// C++ (`None`), which TVM's relation cannot read (it crashes): an error here.
#[relation(
    Reverse(X @ Tensor(s, bt), O) :-
        assert(attrs.axis != None, "`axis` must be set: `reverse` reverses one axis"),
        O = Tensor(s, bt),
        is_axis(attrs.axis, X),
        attrs(axis: Option<int>)
)]
pub struct Reverse;

/// TVM's `RepeatRel`: dimension `axis` multiplied by `repeats`. `axis` defaults to
/// `None` in TVM's C++, which TVM's relation cannot read (it crashes): an error here.
#[relation(
    Repeat(X @ Tensor(s, bt), O) :-
        assert(attrs.axis != None, "`axis` must be set: `repeat` repeats along one axis"),
        is_axis(attrs.axis, X),
        assert(attrs.repeats >= 1, "`repeats` must be at least 1"),
        k = attrs.axis % len(s),
        O = Tensor([..s[..k], s[k] * attrs.repeats, ..s[k + 1..]], bt),
        attrs(repeats: int, axis: Option<int>)
)]
pub struct Repeat;

/// TVM's `GatherRel`: the shape of the indices, the data's dtype; same ranks. `axis`
/// defaults to `None` in TVM's C++, which TVM's relation cannot read (it crashes): an
/// error here.
#[relation(
    Gather(X @ Tensor(s, bt), Tensor(si, _), O) :-
        assert(attrs.axis != None, "`axis` must be set: `gather` gathers along one axis"),
        assert(len(si) == len(s), "the data and the indices must have the same rank"),
        is_axis(attrs.axis, X),
        O = Tensor(si, bt),
        attrs(axis: Option<int>)
)]
pub struct Gather;

/// TVM's `PReluRel`: the data's type; `alpha` is `(C)` with `C` the data's dimension
/// `axis` (inferred backward when `alpha` is unknown): the rule of `nn.bias_add`'s
/// relation, which it is.
pub type PRelu = crate::level1::BiasAdd;

relay_op! {
    /// Reshapes to `newshape`, whose special values are TVM's: `0` copies the input
    /// dimension under the cursor (a literal 0 with `allowzero`), `-1` is inferred from
    /// the element count (at most one), `-2` copies the remaining dimensions, `-3` merges
    /// two, `-4 a b` splits one into `a` and `b` (one may be `-1`). The element counts
    /// must agree (compared in normal form).
    ///
    /// ```text
    /// %y = reshape(%x, newshape=[0, -1])  // (2, 3, 4) f32 -> (2, 12) f32
    /// ```
    reshape : fn<t1, t2>(data: t1) -> t2 where Reshape,
        attrs ReshapeAttrs,
        level 3;

    /// Reshapes `data`'s dimensions `[lhs_begin, lhs_end)` to `shape_like`'s dimensions
    /// `[rhs_begin, rhs_end)` (`None`: to the end; negatives from the end).
    ///
    /// ```text
    /// %z = reshape_like(%x, %y, lhs_end=2, rhs_end=1)  // (2, 3, 4) f32, (6, 2) i8 -> (6, 4) f32
    /// ```
    reshape_like : fn<t1, t2, t3>(data: t1, shape_like: t2) -> t3 where ReshapeLike,
        attrs {
            lhs_begin: int = 0,
            lhs_end: Option<int> = None,
            rhs_begin: int = 0,
            rhs_end: Option<int> = None,
        },
        level 10;

    /// TVM's `contrib_reverse_reshape` (the parser reads that name as this one): `reshape`
    /// with the special values applied from the right (on the reversed shapes). Its
    /// attributes are `reshape`'s (TVM's `ReshapeAttrs`): `newshape` (required),
    /// `allowzero = false`.
    ///
    /// ```text
    /// %y = reverse_reshape(%x, newshape=[-1, 0])  // (10, 5, 4) f32 -> (50, 4) f32
    /// ```
    reverse_reshape : fn<t1, t2>(data: t1) -> t2 where ReverseReshape,
        attrs ReshapeAttrs,
        level 10;

    /// Permutes the dimensions by `axes` (`None`: reverses them).
    ///
    /// ```text
    /// %y = transpose(%x, axes=[1, 0, 2])  // (2, 3, 4) f32 -> (3, 2, 4) f32
    /// ```
    transpose : fn<t1, t2>(data: t1) -> t2 where Transpose,
        attrs { axes: Option<[int]> = None },
        level 3;

    /// Removes dimensions of size 1: those listed in `axis`, or (`None`) every one known
    /// to be 1 — a `?` or symbolic dimension is then an error asking for `axis`.
    ///
    /// ```text
    /// %y = squeeze(%x)  // (1, 3, 1) f32 -> (3) f32
    /// ```
    squeeze : fn<t1, t2>(data: t1) -> t2 where Squeeze,
        attrs { axis: Option<[int]> = None },
        level 3;

    /// Splits along `axis` into `indices_or_sections` equal parts (an integer), or at
    /// the given indices (a list, accepted by the relation); a tuple of tensors.
    ///
    /// ```text
    /// %y = split(%x, indices_or_sections=3)  // (6, 4) f32 -> ((2, 4) f32, (2, 4) f32, (2, 4) f32)
    /// ```
    split : fn<t1, t2>(data: t1) -> t2 where Split,
        attrs { indices_or_sections: int | [int], axis: int = 0 },
        level 3;

    /// Takes elements of `data` at `indices` along `axis` (`None`: of the flattened data).
    ///
    /// `mode`: `"clip"`, `"wrap"` or `"fast"`.
    ///
    /// ```text
    /// %y = take(%x, %i, axis=0)  // (5, 4) f32, (2, 3) i32 -> (2, 3, 4) f32
    /// ```
    take : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where Take,
        attrs { batch_dims: int = 0, axis: Option<int> = None, mode: str = "clip" },
        level 3;

    /// Stacks a tuple of tensors of one shape along a new dimension `axis`.
    ///
    /// ```text
    /// %y = stack((%a, %b), axis=1)  // (3) f32, (3) f32 -> (3, 2) f32
    /// ```
    stack : fn<t1, t2>(data: t1) -> t2 where Stack,
        attrs { axis: int = 0 },
        level 3;

    /// Converts the elements to `dtype`.
    ///
    /// ```text
    /// %y = cast(%x, dtype="int8")  // (2, 3) f32 -> (2, 3) i8
    /// ```
    cast : fn<t1, t2>(data: t1) -> t2 where Cast,
        attrs { dtype: dtype },
        level 3;

    /// Converts the elements to the dtype of `dtype_like`.
    ///
    /// ```text
    /// %z = cast_like(%x, %y)  // (2, 3) f32, (7) i8 -> (2, 3) i8
    /// ```
    cast_like : fn<t1, t2, t3>(data: t1, dtype_like: t2) -> t3 where CastLike,
        level 3;

    /// Reinterprets the bits of the elements as `dtype` (of the same width).
    ///
    /// ```text
    /// %y = reinterpret(%x, dtype="int32")  // (2, 3) f32 -> (2, 3) i32
    /// ```
    reinterpret : fn<t1, t2>(data: t1) -> t2 where Reinterpret,
        attrs { dtype: dtype },
        level 3;

    /// A tensor of zeros of `shape` and `dtype`.
    ///
    /// `dtype`: TVM's C++ default, which leaves the result without a dtype: an error here.
    ///
    /// ```text
    /// %y = zeros(shape=[2, 3], dtype="float32")  // -> (2, 3) f32
    /// ```
    zeros,

    /// A tensor of ones of `shape` and `dtype`.
    ///
    /// `dtype`: TVM's C++ default, which leaves the result without a dtype: an error here.
    ///
    /// ```text
    /// %y = ones(shape=[4], dtype="int32")  // -> (4) i32
    /// ```
    ones : fn<t>() -> t where InitOp,
        attrs InitOpAttrs,
        level 3;

    /// A tensor of `shape` filled with the scalar `fill_value`, of `dtype` (`None`: the
    /// fill value's).
    ///
    /// ```text
    /// %y = full(%v, shape=[2, 3])  // () f32 -> (2, 3) f32
    /// ```
    full : fn<t1, t2>(fill_value: t1) -> t2 where Full,
        attrs InitOpAttrs,
        level 3;

    /// A tensor of `data`'s type filled with the scalar `fill_value`.
    ///
    /// ```text
    /// %y = full_like(%x, %v)  // (2, 3) f32, () f32 -> (2, 3) f32
    /// ```
    full_like : fn<t1, t2, t3>(data: t1, fill_value: t2) -> t3 where FullLike,
        level 3;

    /// Zeros of `data`'s type.
    ///
    /// ```text
    /// %y = zeros_like(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    zeros_like,

    /// Ones of `data`'s type.
    ///
    /// ```text
    /// %y = ones_like(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    ones_like : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 4;

    /// The values from `start` to `stop` by `step` (scalars of `dtype`); the length is
    /// not known statically.
    ///
    /// Attributes, as TVM's `ArangeAttrs` has them: `start`, `stop` and `step`, the
    /// arguments again as expressions, which TVM prints as references into the metadata
    /// section (`meta[relay.Constant][0]`, `meta[relay.Call][0]`), kept as their text and
    /// not read for the type (the arguments are); `dtype` (required: TVM's C++ has no
    /// default; its Python API passes `"float32"`).
    ///
    /// ```text
    /// %y = arange(%start, %stop, %step, dtype="int32")  // () i32, () i32, () i32 -> (?) i32
    /// ```
    arange : fn<t1, t2, t3, t4>(start: t1, stop: t2, step: t3) -> t4 where Arange,
        attrs {
            start: Option<str> = None,
            stop: Option<str> = None,
            step: Option<str> = None,
            dtype: dtype,
        },
        level 3;

    /// Repeats each element `repeats` times along `axis`.
    ///
    /// `axis`: TVM's C++ default; an error: the axis must be given.
    ///
    /// ```text
    /// %y = repeat(%x, repeats=2, axis=1)  // (2, 3) f32 -> (2, 6) f32
    /// ```
    repeat : fn<t1, t2>(data: t1) -> t2 where Repeat,
        attrs { repeats: int, axis: Option<int> = None },
        level 3;

    /// Tiles the data `reps` times along each dimension (the shorter of the shape and
    /// `reps` padded with leading 1s).
    ///
    /// ```text
    /// %y = tile(%x, reps=[2, 1, 2])  // (2, 3) f32 -> (2, 2, 6) f32
    /// ```
    tile : fn<t1, t2>(data: t1) -> t2 where Tile,
        attrs { reps: [int] },
        level 3;

    /// Reverses the order of the elements along `axis` (`Option<int> = None`, TVM's C++
    /// default; an error: the axis must be given).
    ///
    /// ```text
    /// %y = reverse(%x, axis=1)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    reverse : fn<t1, t2>(data: t1) -> t2 where Reverse,
        attrs { axis: Option<int> = None },
        level 3;

    /// Gathers elements along `axis` (`Option<int> = None`, TVM's C++ default; an error:
    /// the axis must be given) at `indices` (of the data's rank).
    ///
    /// ```text
    /// %y = gather(%x, %i, axis=1)  // (3, 4) f32, (3, 2) i32 -> (3, 2) f32
    /// ```
    gather : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where Gather,
        attrs { axis: Option<int> = None },
        level 3;

    /// Gathers slices of `data` at the `M`-dimensional indices `(M, Y...)`:
    /// `Y... ++ data[batch_dims + M:]`.
    ///
    /// ```text
    /// %y = gather_nd(%x, %i)  // (3, 4, 5) f32, (2, 6) i32 -> (6, 5) f32
    /// ```
    gather_nd : fn<t1, t2, t3>(data: t1, indices: t2) -> t3 where GatherNd,
        attrs { batch_dims: int = 0, index_rank: Option<int> = None },
        level 3;

    /// Element-wise absolute value.
    ///
    /// ```text
    /// %y = abs(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    abs,

    /// Element-wise ceiling.
    ///
    /// ```text
    /// %y = ceil(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    ceil,

    /// Element-wise floor.
    ///
    /// ```text
    /// %y = floor(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    floor,

    /// Element-wise rounding to the nearest integer.
    ///
    /// ```text
    /// %y = round(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    round,

    /// Element-wise truncation toward zero.
    ///
    /// ```text
    /// %y = trunc(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    trunc,

    /// Element-wise sign (-1, 0 or 1).
    ///
    /// ```text
    /// %y = sign(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    sign,

    /// Element-wise negation.
    ///
    /// ```text
    /// %y = negative(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    negative,

    /// A copy of the data.
    ///
    /// ```text
    /// %y = copy(%x)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    copy : fn<t1, t2>(data: t1) -> t2 where Identity, level 3;

    /// Clamps every element to `[a_min, a_max]`.
    ///
    /// ```text
    /// %y = clip(%x, a_min=0f, a_max=6f)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    clip : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { a_min: float, a_max: float },
        level 3;

    /// Leaky ReLU: `x` if positive, else `alpha * x`.
    ///
    /// `alpha`: the C++ attribute default; Python passes 0.01.
    ///
    /// ```text
    /// %y = nn.leaky_relu(%x, alpha=0.1f)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    nn.leaky_relu : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { alpha: float = 0.25 },
        level 3;

    /// Parametric ReLU with one slope per channel: `alpha` is `(C)`, `C` the data's
    /// dimension `axis` (inferred when `alpha` is not annotated).
    ///
    /// ```text
    /// %y = nn.prelu(%x, %a)  // (1, 3, 8, 8) f32, (3) f32 -> (1, 3, 8, 8) f32
    /// ```
    nn.prelu : fn<t1, t2, t3>(data: t1, alpha: t2) -> t3 where PRelu,
        attrs { axis: int = 1 },
        level 3;

    /// Element-wise test for NaN.
    ///
    /// ```text
    /// %y = isnan(%x)  // (2, 3) f32 -> (2, 3) bool
    /// ```
    isnan,

    /// Element-wise test for an infinity.
    ///
    /// ```text
    /// %y = isinf(%x)  // (2, 3) f32 -> (2, 3) bool
    /// ```
    isinf,

    /// Element-wise test for a finite value.
    ///
    /// ```text
    /// %y = isfinite(%x)  // (2, 3) f32 -> (2, 3) bool
    /// ```
    isfinite : fn<t1, t2>(data: t1) -> t2 where IdentityComp, level 3;

    /// Cumulative sum along `axis` (`None`: over the flattened data), in `dtype`
    /// (`None`: the data's); `exclusive` leaves out each element itself.
    ///
    /// ```text
    /// %y = cumsum(%x)  // (2, 3) i32 -> (6) i32
    /// ```
    cumsum,

    /// Cumulative product along `axis` (`None`: over the flattened data), in `dtype`
    /// (`None`: the data's); `exclusive` leaves out each element itself.
    ///
    /// ```text
    /// %y = cumprod(%x, axis=1)  // (2, 3) f32 -> (2, 3) f32
    /// ```
    cumprod : fn<t1, t2>(data: t1) -> t2 where Scanop,
        attrs { axis: Option<int> = None, dtype: Option<dtype> = None, exclusive: bool = false },
        level 3;
}
