use relay_core::relation;

#[relation(Bad(Tensor([n], bt), O) :- O = Tensor([n], n))]
pub struct Bad;

fn main() {}
