use relay_core::relation;

#[relation(Softmax(T, O) :- O = T, attrs(axis: int, axis: int))]
pub struct Softmax;

fn main() {}
