use relay_core::{relation, relay_op};

#[relation(Pick(Tensor(s, bt), O) :- O = Tensor([s[attrs.axis]], bt), attrs(axis: int = 0))]
pub struct Pick;

relay_op! {
    pick : fn<a, b>(a) -> b where Pick, attrs { axis: float = 0.0 };
}

fn main() {}
