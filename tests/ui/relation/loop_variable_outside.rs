use relay_core::relation;

// The variable of a comprehension is defined only inside it.
#[relation(Last(Tensor(s, bt), O) :- O = Tensor([d + 1 for d in s], bt), d == 1)]
pub struct Last;

// Nor may a nested loop reuse an enclosing loop's name.
#[relation(
    Nested(Tensor(s, bt), O) :-
        for i in 0..len(s) { for i in s { i > 0 } },
        O = Tensor(s, bt)
)]
pub struct Nested;

fn main() {}
