use relay_core::relation;

#[relation(
    Softmax(T, O) :- if attrs.axis == None { O = T } else { O = T }, attrs(axis: int = -1)
)]
pub struct Softmax;

fn main() {}
