use relay_core::relation;

#[relation(Identity)]
pub struct Identity;

fn main() {}
