//! A `str` attribute shown by an `assert` message, and Rust calls that declare the kind
//! they return (a shape used as the indices of a gather, a dimension inferred for `k`).
use relay_core::clause::Value;
use relay_core::{relation, RelCx, RelError};

fn einsum_out(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let _ = args;
    Ok(Value::Shape(cx.tcx().shape(&[])))
}

fn rows(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let _ = cx;
    Ok(args[0])
}

#[relation(
    E(Tensor(c, bt), O) :-
        assert(len(c) >= 1, "layout {} needs a dimension", attrs.layout),
        k = rust(rows -> dim)(c[0]),
        O = Tensor([k, ..c[rust(einsum_out -> shape)(attrs.layout)]], bt),
        attrs(layout: str = "NC")
)]
pub struct E;

fn main() {}
