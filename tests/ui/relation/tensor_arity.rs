use relay_core::relation;

#[relation(Same(Tensor(sh, bt), O) :- O = Tensor(sh))]
pub struct Same;

fn main() {}
