use relay_core::relation;

#[relation(Softmax(T, O) :- O = T, attrs(axis: int = true))]
pub struct Softmax;

fn main() {}
