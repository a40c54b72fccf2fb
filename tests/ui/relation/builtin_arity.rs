use relay_core::relation;

#[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh, 1)], bt))]
pub struct Flatten;

fn main() {}
