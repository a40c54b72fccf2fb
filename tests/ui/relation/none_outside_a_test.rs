use relay_core::relation;

#[relation(Pick(Tensor(s, bt), O) :- O = Tensor([s[None]], bt))]
pub struct Pick;

fn main() {}
