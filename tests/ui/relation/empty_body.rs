use relay_core::relation;

#[relation(Identity(I, I) :-)]
pub struct Identity;

fn main() {}
