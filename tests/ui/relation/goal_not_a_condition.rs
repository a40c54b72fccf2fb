use relay_core::relation;

#[relation(Bad(Tensor(s, bt), O) :- O = Tensor(s, bt), prod(s))]
pub struct Bad;

fn main() {}
