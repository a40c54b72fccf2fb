use relay_core::relation;

// One error, at the type: the attribute's uses are not checked against a guessed kind.
#[relation(
    Pick(Tensor(s, bt), O) :- assert(attrs.axis < len(s), "axis out of range"),
        O = Tensor([s[attrs.axis]], bt),
        attrs(axis: integer = 0)
)]
pub struct Pick;

fn main() {}
