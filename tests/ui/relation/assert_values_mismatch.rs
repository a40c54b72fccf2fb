use relay_core::relation;

#[relation(Rank2(Tensor(s, bt), O) :- assert(len(s) == 2, "rank {} of `{}`", len(s)), O = Tensor(s, bt))]
pub struct Rank2;

fn main() {}
