use relay_core::relation;

#[relation(NoIn(Tensor(s, bt), O) :- for d s { d > 0 }, O = Tensor(s, bt))]
pub struct NoIn;

fn main() {}
