use relay_core::relation;

#[relation(Halve(Tensor([n], bt), O) :- if n % 2 { O = Tensor([n / 2], bt) }, O = Tensor([n], bt))]
pub struct Halve;

fn main() {}
