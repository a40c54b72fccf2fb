use relay_core::relation;

#[relation(Both(Tensor([a, b], bt), O) :- assert(a && b > 1, "both"), O = Tensor([a], bt))]
pub struct Both;

fn main() {}
