use relay_core::relation;

#[relation(Bad(Tensor(s, bt), O) :- O = Tensor([prod(s), k], bt))]
pub struct Bad;

fn main() {}
