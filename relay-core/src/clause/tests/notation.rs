//! The forms added for issue 18's gaps: `?` in a term, float arithmetic with dimensions,
//! string values, variadic tuples.

use super::run;
use crate::relation;
use crate::relation::Relation;

/// `nonzero`: the count of the nonzero elements is known only at run time.
#[relation(ArgWhere(Tensor(s, _), O) :- O = Tensor([?, len(s)], int64))]
struct ArgWhere;

/// A shape whose first dimension must be `?`, named in a head pattern.
#[relation(AnyFirst(Tensor([?, n], bt), O) :- O = Tensor([n], bt))]
struct AnyFirst;

#[test]
fn any_is_a_dimension_term() {
    let a = ArgWhere::REF;
    assert_eq!(
        run(a, &["Tensor[(2, 3, 4), float32]"], &[]),
        Ok("Tensor[(?, 3), int64]".into())
    );
    assert_eq!(
        run(a, &["Tensor[(), bool]"], &[]),
        Ok("Tensor[(?, 0), int64]".into())
    );
    assert_eq!(
        run(AnyFirst::REF, &["Tensor[(?, 5), int8]"], &[]),
        Ok("Tensor[(5), int8]".into())
    );
}
