use relay_core::relation;

#[relation(Identity(I, I) :- true)]
pub struct Identity {
    x: u32,
}

fn main() {}
