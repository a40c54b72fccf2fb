use relay_core::relation;

// `..rest` twice in one tuple pattern: its length is not determined.
#[relation(Two(Tuple(..a, x, ..b), O) :- O = x)]
pub struct Two;

// `..rest` is a field of a tuple, not a term of its own.
#[relation(Loose(Tuple(..fs), O) :- assert(len(..fs) > 0, "empty"), O = fs)]
pub struct Loose;

// A field of a tuple is a type: it is no dimension.
#[relation(Field(Tuple(..fs), O) :- O = Tensor([fs[0]], float32))]
pub struct Field;

fn main() {}
