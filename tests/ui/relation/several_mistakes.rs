use relay_core::relation;

#[relation(Bad(Tensor(s, bt), O) :- O = Tensor(brodcast(s, t), bt), assert(attrs.axis < 0, "no"))]
pub struct Bad;

fn main() {}
