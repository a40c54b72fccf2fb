//! An ONNX operator declared twice for one opset version is an error naming both places,
//! reported on every model checked.

use relay_onnx::build::{Graph, D};
use relay_onnx::onnx_ops;

onnx_ops! {
    "test.dup" Twice since 3 => "nn.relu"(In(0));
    "test.dup" Twice since 3 => "copy"(In(0));
    "test.dup" Twice since 5 => "copy"(In(0));
}

#[test]
fn a_mapping_declared_twice_is_reported() {
    let file = file!();
    assert_eq!(
        relay_onnx::ops::problems(),
        [format!(
            "ONNX operator `test.dup.Twice` since opset 3 is declared twice in the `onnx_ops!` block at {file}:7"
        )]
    );
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2)]);
    g.node("Relu", &["x"], &["y"], vec![]);
    g.output("y");
    let c = g.check();
    assert_eq!(c.diagnostics().len(), 1);
    assert!(c.diagnostics()[0].message.contains("declared twice"));
}
