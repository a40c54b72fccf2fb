use relay_core::clause::Value;
use relay_core::{relation, RelCx, RelError, Relation};

/// The shape named by a string: `"scalar"` or anything else (a vector of 1).
fn named(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let dims = match args[0].text(cx.tcx()) {
        Some("scalar") => vec![],
        _ => vec![cx.tcx().dims.konst(1)],
    };
    Ok(Value::Shape(cx.tcx().shape(&dims)))
}

#[relation(
    Named(Tensor(_, bt), O) :-
        if attrs.kind == "literal" {
            O = Tensor(rust(named)("scalar"), bt)
        } else {
            O = Tensor(rust(named)(attrs.kind), bt)
        },
        attrs(kind: str = "scalar")
)]
pub struct Named;

fn main() {
    assert_eq!(Named::DEF.name, "Named");
}
