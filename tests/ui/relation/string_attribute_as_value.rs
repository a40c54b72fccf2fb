use relay_core::relation;

#[relation(L(Tensor(s, bt), O) :- O = Tensor([attrs.layout], bt), attrs(layout: str = "NC"))]
pub struct L;

fn main() {}
