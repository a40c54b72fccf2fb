//! `relay check model.onnx`: signatures, bindings and diagnostics, on models written by
//! `relay_onnx::build` into a temporary directory.

use relay_onnx::build::{int, ints, string, Graph, D};
use std::path::{Path, PathBuf};

mod common;

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    common::write("onnx", name, bytes)
}

fn relay(args: &[&str], file: &Path) -> (i32, String, String) {
    common::relay_file(args, file)
}

fn conv_net() -> Graph {
    let mut g = Graph::new(17);
    g.input("image", D::F32, &[D::p("N"), D::v(3), D::v(224), D::v(224)]);
    g.init_f32("w", &[16, 3, 3, 3]);
    g.node("Relu", &["image"], &["r"], vec![]);
    g.node("Flatten", &["r"], &["f"], vec![int("axis", 1)]);
    g.output("f");
    g
}

#[test]
fn a_model_prints_its_graph_as_main() {
    let path = write("net.onnx", &conv_net().bytes());
    let (code, out, err) = relay(&["check"], &path);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "@main: fn (Tensor[(N, 3, 224, 224), float32]) -> Tensor[(N, 150528), float32]\n"
    );
    let (code, out, _) = relay(&["check", "--bindings"], &path);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "@main: fn (Tensor[(N, 3, 224, 224), float32]) -> Tensor[(N, 150528), float32]\n\
         %r: Tensor[(N, 3, 224, 224), float32]\n%f: Tensor[(N, 150528), float32]\n"
    );
}

#[test]
fn a_dim_param_that_is_no_identifier_prints_so_that_it_reads_back() {
    let mut g = Graph::new(17);
    g.input(
        "x",
        D::F32,
        &[
            D::p("p2o.DynamicDimension.0"),
            D::p("batch size"),
            D::p("3d"),
        ],
    );
    g.node("Relu", &["x"], &["y"], vec![]);
    g.output("y");
    let path = write("names.onnx", &g.bytes());
    let (code, out, _) = relay(&["check"], &path);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "@main: fn (Tensor[(p2o.DynamicDimension.0, batch_size, _3d), float32]) -> Tensor[(p2o.DynamicDimension.0, batch_size, _3d), float32]\n"
    );
}

fn diagnostics(name: &str, bytes: &[u8]) -> String {
    let path = write(&format!("{name}.onnx"), bytes);
    let (code, out, err) = relay(&["check"], &path);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    err
}

#[test]
fn broadcast_clash() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)])
        .input("b", D::F32, &[D::v(4)]);
    g.node("Add", &["x", "b"], &["y"], vec![]);
    g.output("y");
    insta::assert_snapshot!(diagnostics("broadcast_clash", &g.bytes()));
}

#[test]
fn reshape_whose_element_count_cannot_match() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2), D::v(3)]);
    g.init_ints("shape", &[2], &[4, 2]);
    g.node("Reshape", &["x", "shape"], &["y"], vec![]);
    g.output("y");
    insta::assert_snapshot!(diagnostics("reshape_count", &g.bytes()));
}

#[test]
fn declared_output_that_disagrees() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("Relu", &["x"], &["y"], vec![]);
    g.output_typed("y", D::F32, &[D::p("N"), D::v(4)]);
    insta::assert_snapshot!(diagnostics("declared_output", &g.bytes()));
}

#[test]
fn a_declared_dimension_less_precise_than_the_inferred_one_is_no_error() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("Relu", &["x"], &["y"], vec![]);
    g.output_typed("y", D::F32, &[D::p("unk__1"), D::Unknown]);
    let path = write("less_precise.onnx", &g.bytes());
    assert_eq!(relay(&["check"], &path).0, 0);
}

#[test]
fn unsupported_operator() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node_in("com.example", "FancyOp", &["x"], &["y"], vec![]);
    g.opsets.push(("com.example".into(), 1));
    g.node("Relu", &["x"], &["z"], vec![]);
    g.node("Relu", &["y"], &["w"], vec![]);
    g.node("Add", &["z", "z"], &["v"], vec![]);
    g.output("w").output("v");
    insta::assert_snapshot!(diagnostics("unsupported", &g.bytes()));
}

#[test]
fn truncated_file() {
    let bytes = conv_net().bytes();
    insta::assert_snapshot!(diagnostics("truncated", &bytes[..bytes.len() / 2]));
}

#[test]
fn bad_graphs() {
    // Not a model at all.
    let err = diagnostics("text", b"def @main() { 1 }\n");
    assert!(err.starts_with("error: not a readable ONNX model"), "{err}");
    // A cycle, a name no node produces, an attribute of the wrong type.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2)]);
    g.node("Relu", &["b"], &["a"], vec![]);
    g.node("Relu", &["a"], &["b"], vec![]);
    g.node("Relu", &["nowhere"], &["c"], vec![]);
    g.node("Transpose", &["x"], &["t"], vec![string("perm", "0")]);
    g.node("Concat", &["x", "x"], &["k"], vec![ints("axis", &[0])]);
    g.output("c");
    insta::assert_snapshot!(diagnostics("bad_graphs", &g.bytes()));
}
