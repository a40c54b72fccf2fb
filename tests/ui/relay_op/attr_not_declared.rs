use relay_core::{relation, relay_op};

#[relation(Pick(Tensor(s, bt), O) :- O = Tensor([s[attrs.axis]], bt), attrs(axis: int = 0))]
pub struct Pick;

relay_op! {
    // `axis` is read by the relation but is no attribute of the operator.
    pick : fn<a, b>(a) -> b where Pick, attrs { index: int = 0 };
}

fn main() {}
