use relay_core::relation;

// The element of a comprehension is a dimension; its filter a bool; a range's ends
// dimensions.
#[relation(Whole(Tensor(s, bt), O) :- O = Tensor([s for d in s], bt))]
pub struct Whole;

#[relation(Filter(Tensor(s, bt), O) :- O = Tensor([d for d in s if d + 1], bt))]
pub struct Filter;

#[relation(Ends(Tensor(s, bt), O) :- O = Tensor([i for i in 0..s], bt))]
pub struct Ends;

// `in` tests a dimension against a shape.
#[relation(Member(Tensor(s, bt), O) :- s in 3, O = Tensor(s, bt))]
pub struct Member;

fn main() {}
