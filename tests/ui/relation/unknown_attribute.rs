use relay_core::relation;

#[relation(Softmax(Tensor(s, bt), O) :- assert(attrs.axes < len(s), "axis out of range"), O = Tensor(s, bt), attrs(axis: int))]
pub struct Softmax;

fn main() {}
