use relay_core::relation;

#[relation(Bad(Tensor([n], bt), O) :- O = Tensor([rust(double)], bt))]
pub struct Bad;

fn main() {}
