use relay_core::relation;

#[relation(Identity(I, I) :- true)]
pub enum Identity {}

fn main() {}
