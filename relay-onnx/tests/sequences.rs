//! Sequences and optionals: ONNX's `seq(T)` is Relay's `List[T]`, `optional(T)` is
//! `Optional[T]`; a sequence's element type is its elements' joined.

use relay_onnx::build::{graph_attr, int, Graph, D};

fn messages(c: &relay_onnx::Checked) -> Vec<String> {
    c.diagnostics().iter().map(|d| d.to_string()).collect()
}

#[test]
fn construct_insert_at_and_length() {
    let mut g = Graph::new(17);
    g.input("a", D::F32, &[D::p("N"), D::v(3)])
        .input("b", D::F32, &[D::p("N"), D::v(3)])
        .input("c", D::F32, &[D::v(2), D::v(3)]);
    g.node("SequenceConstruct", &["a", "b"], &["s"], vec![]);
    g.node("SequenceInsert", &["s", "c"], &["t"], vec![]);
    g.init_ints("i0", &[], &[0]);
    g.node("SequenceAt", &["s", "i0"], &["x"], vec![]);
    g.node("SequenceAt", &["t", "i0"], &["y"], vec![]);
    g.node("SequenceLength", &["t"], &["n"], vec![]);
    g.output("x").output("y").output("n").output("t");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("s").unwrap(), "List[Tensor[(N, 3), float32]]");
    // N and 2 differ: the element's first dimension is not known.
    assert_eq!(c.type_of("t").unwrap(), "List[Tensor[(?, 3), float32]]");
    assert_eq!(c.type_of("x").unwrap(), "Tensor[(N, 3), float32]");
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?, 3), float32]");
    assert_eq!(c.type_of("n").unwrap(), "int64");
}

#[test]
fn split_to_sequence_and_concat_from_sequence() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(3), D::v(6)]);
    g.init_ints("two", &[], &[2]);
    g.node(
        "SplitToSequence",
        &["x", "two"],
        &["s"],
        vec![int("axis", 1)],
    );
    g.node("SplitToSequence", &["x"], &["k"], vec![int("keepdims", 0)]);
    g.node("ConcatFromSequence", &["s"], &["y"], vec![int("axis", 1)]);
    g.node(
        "ConcatFromSequence",
        &["k"],
        &["z"],
        vec![int("axis", 0), int("new_axis", 1)],
    );
    g.output("y").output("z");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("s").unwrap(), "List[Tensor[(3, 2), float32]]");
    assert_eq!(c.type_of("k").unwrap(), "List[Tensor[(6), float32]]");
    // The concatenated length is the sum of the elements', which are not counted.
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(3, ?), float32]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(?, 6), float32]");
}

#[test]
fn a_loop_fills_an_empty_sequence_with_its_elements() {
    // for i in 0..4: s.insert(x)
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[]).input("c_in", D::BOOL, &[]);
    body.input_sequence("s_in", D::F32, &[]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("SequenceInsert", &["s_in", "x"], &["s_out"], vec![]);
    body.output("c_out").output("s_out");
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.init_ints("m", &[], &[4]);
    g.node("SequenceEmpty", &[], &["empty"], vec![]);
    g.node(
        "Loop",
        &["m", "", "empty"],
        &["filled"],
        vec![graph_attr("body", &body)],
    );
    g.output("filled");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(
        c.type_of("filled").unwrap(),
        "List[Tensor[(N, 3), float32]]"
    );
    // Empty, the sequence's element is a tensor of its dtype, of no shape yet.
    assert_eq!(c.type_of("empty").unwrap(), "List[Tensor['s0, float32]]");
}

#[test]
fn sequence_map_types_its_body_over_an_element() {
    let mut body = Graph::new(17);
    body.input("e", D::F32, &[D::p("H"), D::p("W")]);
    body.node("Shape", &["e"], &["shape"], vec![]);
    body.output("shape");
    let mut g = Graph::new(17);
    g.input_sequence("images", D::F32, &[D::p("H"), D::p("W")]);
    g.node(
        "SequenceMap",
        &["images"],
        &["shapes"],
        vec![graph_attr("body", &body)],
    );
    g.output("shapes");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("shapes").unwrap(), "List[Tensor[(2), int64]]");
}

#[test]
fn optionals_wrap_and_unwrap() {
    let mut g = Graph::new(18);
    g.input("x", D::F32, &[D::p("N")]);
    g.node("Optional", &["x"], &["o"], vec![]);
    g.node("OptionalHasElement", &["o"], &["has"], vec![]);
    g.node("OptionalGetElement", &["o"], &["v"], vec![]);
    g.output("has").output("v");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("o").unwrap(), "Optional[Tensor[(N), float32]]");
    assert_eq!(c.type_of("has").unwrap(), "bool");
    assert_eq!(c.type_of("v").unwrap(), "Tensor[(N), float32]");
}

#[test]
fn a_tensor_where_a_sequence_is_needed_is_an_error() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2)]);
    g.init_ints("i0", &[], &[0]);
    g.node("SequenceAt", &["x", "i0"], &["y"], vec![]);
    g.output("y");
    let c = g.check();
    assert_eq!(
        messages(&c),
        ["node 0 `SequenceAt_0` (SequenceAt): input 0 is `Tensor[(2), float32]`, and must be a sequence"]
    );
}
