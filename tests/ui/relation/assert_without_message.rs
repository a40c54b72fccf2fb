use relay_core::relation;

#[relation(Rank2(Tensor(s, bt)) :- assert(len(s) == 2))]
pub struct Rank2;

fn main() {}
