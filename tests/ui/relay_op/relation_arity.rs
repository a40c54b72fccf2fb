use relay_core::{relation, relay_op};

/// A head without the output (one term), used by a one-input operator (which gives its
/// relation two: its argument and its result).
#[relation(Positive(Tensor(s, bt)) :- len(s) >= 1)]
pub struct Positive;

relay_op! {
    my.relu : fn<a, b>(data: a) -> b where Positive;
}

fn main() {}
