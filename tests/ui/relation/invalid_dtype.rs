use relay_core::relation;

#[relation(Cast(Tensor(s, bt), O) :- O = Tensor(s, float13))]
pub struct Cast;

fn main() {}
