//! `relay import model.onnx`: the module printed, read back by `relay check` with the
//! same types; the problems of a model that cannot be imported, as `relay check` shows
//! them.

use relay_onnx::build::{int, Graph, D};
use std::path::{Path, PathBuf};

mod common;

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    common::write("import", name, bytes)
}

fn relay(args: &[&str], file: &Path) -> (i32, String, String) {
    common::relay_file(args, file)
}

#[test]
fn a_model_is_printed_and_checks_back_with_its_types() {
    let mut g = Graph::new(17);
    g.input("image", D::F32, &[D::p("N"), D::v(3), D::v(8), D::v(8)]);
    g.init_f32("w", &[4, 3, 3, 3]);
    g.node("Conv", &["image", "w"], &["c"], vec![]);
    g.node("Flatten", &["c"], &["f"], vec![int("axis", 1)]);
    g.output("f");
    let model = write("conv.onnx", &g.bytes());
    let (code, text, err) = relay(&["import"], &model);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        text,
        "#[version = \"0.0.5\"]
def @main(
  %image: Tensor[(N, 3, 8, 8), float32],
  %w: Tensor[(4, 3, 3, 3), float32]
) {
  let %c: Tensor[(N, 4, 6, 6), float32] = onnx.conv(%image, %w, ());
  let %f: Tensor[(N, 144), float32] = onnx.flatten(%c, axis=1);
  %f
}
"
    );
    let (_, onnx, _) = relay(&["check", "--bindings"], &model);
    assert_eq!(
        onnx,
        "@main: fn (Tensor[(N, 3, 8, 8), float32]) -> Tensor[(N, 144), float32]\n\
         %c: Tensor[(N, 4, 6, 6), float32]\n%f: Tensor[(N, 144), float32]\n"
    );
    // Read back: the same types, the weights a parameter.
    let relay_file = write("conv.relay", text.as_bytes());
    let (code, back, err) = relay(&["check", "--bindings"], &relay_file);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        back,
        "@main: fn (Tensor[(N, 3, 8, 8), float32], Tensor[(4, 3, 3, 3), float32]) -> Tensor[(N, 144), float32]\n\
         %c: Tensor[(N, 4, 6, 6), float32]\n%f: Tensor[(N, 144), float32]\n"
    );
}

#[test]
fn a_model_that_cannot_be_imported_shows_why_as_check_does() {
    // A sequence of elements of ranks 1 and 2, which no `List` holds.
    let mut g = Graph::new(17);
    g.input("a", D::F32, &[D::v(3)])
        .input("b", D::F32, &[D::v(2), D::v(3)]);
    g.node("SequenceConstruct", &["a", "b"], &["seq"], vec![]);
    g.node(
        "ConcatFromSequence",
        &["seq"],
        &["ab"],
        vec![int("axis", 0)],
    );
    g.output("ab");
    let model = write("seq.onnx", &g.bytes());
    let (code, out, err) = relay(&["import"], &model);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: the sequence's elements are of different ranks (input 0 is `Tensor[(3), float32]`), and a `List` holds elements of one type\n  \
         ┌─ DIR/seq.onnx: node 0 `SequenceConstruct_0` (SequenceConstruct)\n\nerror: 1 problem in `DIR/seq.onnx`\n"
    );
    // A model that does not check: its diagnostics, as `relay check` prints them.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(3)]);
    g.input("b", D::F32, &[D::v(4)]);
    g.node("Add", &["x", "b"], &["y"], vec![]);
    g.output("y");
    let model = write("add.onnx", &g.bytes());
    let (code, out, err) = relay(&["import"], &model);
    let (_, _, check_err) = relay(&["check"], &model);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "", check_err.as_str())
    );
    assert!(err.starts_with("error: cannot broadcast"), "{err}");
    // Not a model, and no file.
    let (code, _, err) = relay(&["import"], &write("empty.onnx", b""));
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "error: the file is empty, not an ONNX model\n  ┌─ DIR/empty.onnx\n\n"
        )
    );
    let missing = model.with_file_name("missing.onnx");
    let (code, _, err) = relay(&["import"], &missing);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: cannot read `DIR/missing.onnx`: "),
        "{err}"
    );
}
