use relay_core::relation;

#[relation(Identity(I, I) true)]
pub struct Identity;

fn main() {}
