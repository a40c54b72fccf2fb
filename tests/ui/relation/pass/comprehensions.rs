use relay_core::{relation, Relation};

/// The axes of `attrs.axis` (negative from the end) dropped, or kept as 1.
#[relation(
    Reduce(X @ Tensor(s, bt), O) :-
        for i in 0..len(attrs.axis) {
            assert(-len(s) <= attrs.axis[i] && attrs.axis[i] < len(s), "`axis` {} is out of range for `{}`", attrs.axis[i], X),
        },
        r = [a % len(s) for a in attrs.axis],
        if attrs.keepdims {
            O = Tensor([if i in r { 1 } else { s[i] } for i in 0..len(s)], bt)
        } else {
            O = Tensor([s[i] for i in 0..len(s) if !(i in r)], bt)
        },
        attrs(axis: [int], keepdims: bool = false)
)]
pub struct Reduce;

/// Sibling comprehensions may share a variable's name.
#[relation(Twice(Tensor(s, bt), O) :- O = Tensor([..[d for d in s], ..[d * 2 for d in s if is_int(d)]], bt))]
pub struct Twice;

fn main() {
    assert_eq!(Reduce::DEF.needs, &[0]);
    assert_eq!(Twice::DEF.needs, &[0]);
}
