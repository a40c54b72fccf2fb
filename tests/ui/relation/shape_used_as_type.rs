use relay_core::relation;

#[relation(Bad(Tensor(sh, bt), O) :- O = sh)]
pub struct Bad;

fn main() {}
