//! An operator declared with `relay_op!`'s `onnx` clause types its nodes with its relation:
//! an input's value as a shape, an optional input, an attribute from an input's constant
//! value and a tuple of outputs, as relay-onnx's own mappings do.

use relay_core::{relation, relay_op};
use relay_onnx::build::{Graph, D};

/// `(Tensor([..v, extra], bt), B)`: the data's dtype in the shape the value `v` gives, with
/// `extra` last; and the optional input as it is.
#[relation(
    Filled(Tensor(s, bt), Tensor(v, dt), B, O) :-
        O = (Tensor([..v, attrs.extra], bt), B),
        attrs(extra: int = 1)
)]
pub struct Filled;

relay_op! {
    /// A tensor of the data's dtype in a shape given by value, and the bias passed through.
    test.filled : fn<a, b, c, d>(data: a, shape: b, bias: c) -> d where Filled,
        attrs { extra: int = 1 },
        onnx "test.clause" Filled since 2 {
            inputs(X, S, E, B?) => (data: X, shape: value(S), bias: B),
            attrs { extra: value(E) },
            outputs(Y, Z),
        };
}

fn graph(inputs: &[&str]) -> Graph {
    let mut g = Graph::new(17);
    g.opsets.push(("test.clause".into(), 3));
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.input("b", D::F32, &[D::v(7)]);
    g.init_ints("shape", &[2], &[2, 4])
        .init_ints("extra", &[1], &[5]);
    g.node_in("test.clause", "Filled", inputs, &["y", "z"], vec![]);
    g.output("y").output("z");
    g
}

#[test]
fn a_node_is_typed_through_the_declared_mapping() {
    let mut c = graph(&["x", "shape", "extra", "b"]).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(2, 4, 5), float32]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(7), float32]");
}

#[test]
fn an_absent_optional_input_is_the_empty_tuple() {
    let mut c = graph(&["x", "shape", "extra"]).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(2, 4, 5), float32]");
    assert_eq!(c.type_of("z").unwrap(), "()");
}

#[test]
fn a_node_of_an_earlier_opset_is_not_this_operator() {
    let mut g = graph(&["x", "shape", "extra", "b"]);
    g.opsets[0].1 = 1;
    let messages: Vec<String> = g
        .check()
        .diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(
        messages,
        [
            "node 0 `Filled_0` (test.clause.Filled): operator `test.clause.Filled` is supported \
          from opset 2 on, and the model imports opset 1\n  = note: the nodes that use its \
          outputs are not checked"
        ]
    );
}
