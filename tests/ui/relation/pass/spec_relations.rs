//! The spec's three relations, as the spec writes them.

use relay_core::{relation, Relation};

#[relation(Identity(I, I) :- true)]
pub struct Identity;

#[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt))]
pub struct Flatten;

#[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
pub struct Broadcast;

fn main() {
    assert_eq!(Identity::DEF.name, "Identity");
    assert_eq!(Flatten::DEF.arity, Some(2));
    assert_eq!(Broadcast::REF.name(), "Broadcast");
}
