use relay_core::relation;

#[relation(Bad(Tensor(s, bt), O) :- O = Tensor(len(s), bt))]
pub struct Bad;

fn main() {}
