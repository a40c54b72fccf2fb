use relay_core::{relation, relay_attrs, relay_op};

relay_attrs! {
    /// A new set whose `axis` defaults to 0.
    PickAttrs { axis: int = 0, keepdims: bool = false }
}

#[relation(Pick(Tensor(s, bt), O) :- O = Tensor([s[attrs.axis]], bt), attrs(axis: int = -1))]
pub struct Pick;

relay_op! {
    // The clause's default is -1, the set's 0.
    pick : fn<a, b>(a) -> b where Pick, attrs PickAttrs;
}

fn main() {}
