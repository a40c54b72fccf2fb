use relay_core::relation;

#[relation(Bad(T, O) :- O = T, x = y)]
pub struct Bad;

fn main() {}
