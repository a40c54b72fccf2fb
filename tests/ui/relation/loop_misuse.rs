use relay_core::relation;

// A default gives a variable one value: not in a loop.
#[relation(
    Defaults(Tensor(s, bt), Tensor(w, wt), O) :-
        for d in s { default(wt, bt) },
        O = Tensor(s, bt)
)]
pub struct Defaults;

// A loop needs goals, and a dtype is not a loop variable.
#[relation(Empty(Tensor(s, bt), O) :- for d in s {}, O = Tensor(s, bt))]
pub struct Empty;

#[relation(Dtype(Tensor(s, bt), O) :- O = Tensor([1 for int8 in s], bt))]
pub struct Dtype;

fn main() {}
