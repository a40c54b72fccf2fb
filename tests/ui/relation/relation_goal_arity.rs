use relay_core::relation;

#[relation(Pair(X, Y, O) :- O = (X, Y))]
pub struct Pair;

// `Pair` takes three arguments; the goal gives it two.
#[relation(Twice(X, O) :- Pair(X, O))]
pub struct Twice;

fn main() {}
