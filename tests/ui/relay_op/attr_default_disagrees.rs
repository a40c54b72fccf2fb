use relay_core::{relation, relay_op};

#[relation(Pick(Tensor(s, bt), O) :- O = Tensor([s[attrs.axis]], bt), attrs(axis: int = -1))]
pub struct Pick;

relay_op! {
    // The clause's default is -1: programs would get 0, the relation's unit tests -1.
    pick : fn<a, b>(a) -> b where Pick, attrs { axis: int = 0 };
}

fn main() {}
