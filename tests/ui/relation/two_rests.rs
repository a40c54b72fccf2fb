use relay_core::relation;

#[relation(Bad(Tensor([..a, ..b], bt), O) :- O = Tensor(a, bt))]
pub struct Bad;

fn main() {}
