use relay_core::relation;

#[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s3), bt))]
pub struct Broadcast;

fn main() {}
