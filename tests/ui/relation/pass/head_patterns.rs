//! Every head pattern: type variables, `_`, tensors, tuples in both spellings, shape
//! variables and lists with a rest anywhere, integer and dtype literals.

use relay_core::relation;

#[relation(Any(_, O) :- O = Tuple())]
pub struct Any;

#[relation(Pairs(Tuple(A, B), (C, D), O) :- O = (A, B, C, D))]
pub struct Pairs;

#[relation(Lists(Tensor([n, 3, ..rest], float32), Tensor([..lead, m], bool), Tensor([], _), O) :-
    O = Tensor([n, m, ..rest, ..lead], int64))]
pub struct Lists;

#[relation(Middle(Tensor([first, ..mid, last], dt), O) :- O = Tensor([first + last, ..mid], dt))]
pub struct Middle;

#[relation(Lanes(Tensor(_, float32x4), Tensor(_, bfloat16), Tensor(_, uint8), O) :- O = Tensor([], bool))]
pub struct Lanes;

fn main() {}
