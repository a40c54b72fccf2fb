use relay_core::relation;

#[relation(Softmax(Tensor(s, bt), O) :- assert(attrs.axis < len(s), "axis out of range"), O = Tensor(s, bt))]
pub struct Softmax;

fn main() {}
