use relay_core::relation;

#[relation(Nothing() :- true)]
pub struct Nothing;

fn main() {}
