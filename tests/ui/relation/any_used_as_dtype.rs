use relay_core::relation;

#[relation(Bad(Tensor(s, bt), O) :- O = Tensor(s, ?))]
pub struct Bad;

fn main() {}
