use relay_core::{relation, Relation};

/// Joins a tuple of tensors along their first axis.
#[relation(
    Join(X, O) :-
        assert(X = Tuple(..fs), "expected a tuple, found `{}`", X),
        fs[0] = Tensor([_, ..rest], bt),
        for f in fs {
            assert(f = Tensor(_, bt), "expected tensors of `{}`, found `{}`", bt, f),
        },
        O = Tensor([sum([shape(f)[0] for f in fs]), ..rest], bt)
)]
pub struct Join;

/// The first field, then the others.
#[relation(Rotate((first, ..others), O) :- O = Tuple(..others, first))]
pub struct Rotate;

/// The fields that are tensors with a `?`, counted, and the dtype of the last.
#[relation(
    Count(T @ (.._, Tensor(_, bt)), O) :-
        O = Tensor([len([i for i in 0..len(T) if is_any(shape(T[i])[0])])], dtype(T[-1])),
        dtype(T[-1]) = bt
)]
pub struct Count;

fn main() {
    assert_eq!(Join::DEF.arity, Some(2));
    // The input is rebuilt from the output: nothing is needed.
    assert!(Rotate::DEF.needs.is_empty());
    assert_eq!(Count::DEF.name, "Count");
}
