use relay_core::relation;

#[relation(W(Tensor([k], bt), O) :- default(k + 1, 2), O = Tensor([k], bt))]
pub struct W;

fn main() {}
