use relay_core::relation;

#[relation(Softmax(T, O) :- O = T, attrs(axis: integer))]
pub struct Softmax;

fn main() {}
