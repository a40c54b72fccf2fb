use relay_core::relation;

#[relation(R(Tensor([h], bt), O) :- O = Tensor([attrs.scale], bt), attrs(scale: float = 2.0))]
pub struct R;

fn main() {}
