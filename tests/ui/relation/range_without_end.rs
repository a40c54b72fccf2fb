use relay_core::relation;

#[relation(Open(Tensor(s, bt), O) :- O = Tensor([i for i in 0..], bt))]
pub struct Open;

fn main() {}
