//! The relations of this level that read well as clauses.

use relay_core::relation;

/// NumPy broadcasting of two tensors of one dtype, with a `bool` result (comparisons).
#[relation(BroadcastComp(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bool))]
pub struct BroadcastComp;

/// `where`: the condition (of any dtype), `x` and `y` (of one dtype) broadcast together.
#[relation(
    Where(Tensor(sc, _), Tensor(s1, bt), Tensor(s2, bt), O) :-
        O = Tensor(broadcast(sc, broadcast(s1, s2)), bt)
)]
pub struct Where;

/// `broadcast_to`: the data broadcast to the `shape` attribute.
#[relation(
    BroadcastTo(Tensor(s, bt), O) :-
        t = attrs.shape,
        O = Tensor(t, bt),
        assert(broadcast(s, t) == t, "the data does not broadcast to `shape`"),
        attrs(shape: shape)
)]
pub struct BroadcastTo;

/// `broadcast_to_like`: the data broadcast to the second argument's shape.
#[relation(
    BroadcastToLike(Tensor(s, bt), Tensor(t, _), O) :-
        O = Tensor(t, bt),
        assert(broadcast(s, t) == t, "the data does not broadcast to the shape of `broadcast_type`")
)]
pub struct BroadcastToLike;

/// `collapse_sum_like`: the data summed down to the second argument's shape.
#[relation(
    CollapseSumLike(Tensor(s, bt), Tensor(t, _), O) :-
        O = Tensor(t, bt),
        assert(broadcast(t, s) == s, "the shape of `collapse_type` does not broadcast to the data's shape")
)]
pub struct CollapseSumLike;

/// `shape_of`: a 1-D tensor of `dtype` with one element per axis of the data.
#[relation(ShapeOf(Tensor(s, _), O) :- O = Tensor([len(s)], attrs.dtype), attrs(dtype: dtype = int32))]
pub struct ShapeOf;

/// `ndarray_size`: a scalar of `dtype` (the number of elements).
#[relation(NdarraySize(Tensor(_, _), O) :- O = Tensor([], attrs.dtype), attrs(dtype: dtype = int32))]
pub struct NdarraySize;

/// `argsort`: indices of `dtype`, of the data's shape; `axis` must be in range.
#[relation(
    Argsort(X @ Tensor(s, _), O) :-
        O = Tensor(s, attrs.dtype),
        is_axis(attrs.axis, X),
        attrs(axis: int = -1, dtype: dtype = int32)
)]
pub struct Argsort;

/// `sort`: the data's type; `axis` must be in range.
#[relation(
    Sort(X @ Tensor(s, bt), O) :-
        O = Tensor(s, bt),
        is_axis(attrs.axis, X),
        attrs(axis: int = -1)
)]
pub struct Sort;
