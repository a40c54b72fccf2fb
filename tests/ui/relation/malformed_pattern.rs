use relay_core::relation;

#[relation(Bad(prod(s), O) :- O = Tensor(s, float32))]
pub struct Bad;

fn main() {}
