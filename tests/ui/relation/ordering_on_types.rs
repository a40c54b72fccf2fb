use relay_core::relation;

#[relation(Less(A, B) :- A < B)]
pub struct Less;

fn main() {}
