use relay_core::relation;

#[relation(Identity(I, I) :- true)]
pub struct Ident;

fn main() {}
