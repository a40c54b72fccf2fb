use relay_core::{relation, relay_op};

// One mistake in the clause (`prod` misspelled): one error, none at the operators that
// use the relation.
#[relation(Flat(Tensor(sh, bt), O) :- O = Tensor([sh[0], prd(sh[1..])], bt))]
pub struct Flat;

relay_op! {
    flat1 : fn<a, b>(a) -> b where Flat;
    flat2 : fn<a, b>(a) -> b where Flat;
}

fn main() {}
