use relay_core::relation;

#[relation(Bad(I, O) :- O = Tensor([I[0]], float32))]
pub struct Bad;

fn main() {}
