use relay_core::relation;

#[relation(Identity(I, I) :- true extra)]
pub struct Identity;

fn main() {}
