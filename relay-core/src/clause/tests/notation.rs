//! The forms added for issue 18's gaps: `?` in a term, float arithmetic with dimensions,
//! string values, variadic tuples.

use super::run;
use crate::attrs::AttrValue;
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

/// `topk` without `is_int`: a symbolic axis cannot be ordered against `k`.
#[relation(
    TopK(Tensor([..b, n], bt), O) :-
        assert(attrs.k <= n, "`k` is {} but the axis has {}", attrs.k, n),
        O = Tensor([..b, attrs.k], bt),
        attrs(k: int)
)]
struct TopK;

/// The same, accepting a symbolic axis.
#[relation(
    TopKSym(Tensor([..b, n], bt), O) :-
        if is_int(n) { assert(attrs.k <= n, "`k` is {} but the axis has {}", attrs.k, n) },
        O = Tensor([..b, attrs.k], bt),
        attrs(k: int)
)]
struct TopKSym;

/// Sides that are not a variable are not named.
#[relation(Halve(Tensor([n], bt), O) :- n * 2 > 4, O = Tensor([n], bt))]
struct Halve;

#[test]
fn an_order_on_a_symbol_suggests_is_int() {
    let k = [("k", AttrValue::Int(3))];
    assert_eq!(
        run(TopK::REF, &["Tensor[(2, 8), float32]"], &k),
        Ok("Tensor[(2, 3), float32]".into())
    );
    assert_eq!(
        run(TopK::REF, &["Tensor[(2), float32]"], &k),
        Err("`k` is 3 but the axis has 2".into())
    );
    assert_eq!(
        run(TopK::REF, &["Tensor[(h), float32]"], &k),
        Err("cannot decide `attrs.k <= n`: `3` and `h` have no known order; to accept a symbolic dimension, test `is_int(n)` first (`if is_int(n) { .. }`)".into())
    );
    assert_eq!(
        run(TopKSym::REF, &["Tensor[(h), float32]"], &k),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(Halve::REF, &["Tensor[(h), float32]"], &[]),
        Err("cannot decide `n * 2 > 4`: `2*h` and `4` have no known order; to accept a symbolic dimension, test it with `is_int(..)` first".into())
    );
}
