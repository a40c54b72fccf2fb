//! A model's mistakes at a node: each an error that names the node and says what is wrong.

use relay_onnx::build::{int, Graph, D};

fn messages(g: &Graph) -> Vec<String> {
    g.check()
        .diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn an_input_the_operator_does_not_take_is_an_error() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2)]);
    g.node("Relu", &["x", "x"], &["y"], vec![]);
    g.output("y");
    assert_eq!(
        messages(&g),
        ["node 0 `Relu_0` (Relu): it has 2 inputs, and `Relu` takes at most 1 (opset 6 on)"]
    );
}

#[test]
fn an_axis_out_of_range_names_the_axis_and_the_rank() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("Flatten", &["x"], &["y"], vec![int("axis", 5)]);
    g.output("y");
    assert_eq!(
        messages(&g),
        ["node 0 `Flatten_0` (Flatten): axis 5 is out of range for rank 2\n  = note: input 0 `x`: `Tensor[(N, 3), float32]` (here)"]
    );
}

#[test]
fn an_operator_of_a_later_opset_says_from_which_it_is_supported() {
    let mut g = Graph::new(5);
    g.input("x", D::F32, &[D::v(2)]);
    g.node("Mish", &["x"], &["y"], vec![]);
    g.output("y");
    assert_eq!(
        messages(&g),
        ["node 0 `Mish_0` (Mish): operator `ai.onnx.Mish` is supported from opset 18 on, and the model imports opset 5\n  = note: the nodes that use its outputs are not checked"]
    );
}

#[test]
fn weights_kept_outside_the_file_are_typed_by_their_dims_whatever_their_size() {
    // 2^34 floats (64 GB) in external data, never opened.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(1 << 17)]);
    g.init_f32("w", &[1 << 17, 1 << 17]);
    g.node("MatMul", &["x", "w"], &["y"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 131072), float32]");
}

#[test]
fn an_optimizer_step_keeps_each_tensor_and_state_type() {
    let mut g = Graph::new(17);
    g.opsets.push(("ai.onnx.preview.training".into(), 1));
    g.input("r", D::F32, &[]).input("t", D::I64, &[]);
    for (name, dims) in [
        ("x1", 3),
        ("x2", 4),
        ("g1", 3),
        ("g2", 4),
        ("v1", 3),
        ("v2", 4),
    ] {
        g.input(name, D::F32, &[D::v(dims)]);
    }
    g.node_in(
        "ai.onnx.preview.training",
        "Momentum",
        &["r", "t", "x1", "x2", "g1", "g2", "v1", "v2"],
        &["x1_new", "x2_new", "v1_new", "v2_new"],
        vec![],
    );
    g.output("x2_new").output("v1_new");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("x2_new").unwrap(), "Tensor[(4), float32]");
    assert_eq!(c.type_of("v1_new").unwrap(), "Tensor[(3), float32]");
}

#[test]
fn extreme_steps_are_steps_not_overflows() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(5)]);
    g.init_ints("zero", &[1], &[0])
        .init_ints("five", &[1], &[5])
        .init_ints("one", &[1], &[1]);
    g.init_ints("four", &[1], &[4])
        .init_ints("back", &[1], &[-6]);
    g.init_ints("max", &[1], &[i64::MAX])
        .init_ints("min", &[1], &[i64::MIN]);
    g.node(
        "Slice",
        &["x", "zero", "five", "one", "max"],
        &["a"],
        vec![],
    );
    g.node(
        "Slice",
        &["x", "four", "back", "one", "min"],
        &["b"],
        vec![],
    );
    // The same on a value: the shape [N, 5] stepped by i64::MAX is [N].
    g.node("Shape", &["x"], &["s"], vec![]);
    g.node(
        "Slice",
        &["s", "zero", "five", "zero", "max"],
        &["sv"],
        vec![],
    );
    g.node("ConstantOfShape", &["sv"], &["c"], vec![]);
    g.init_ints("s0", &[], &[0])
        .init_ints("s10", &[], &[10])
        .init_ints("smin", &[], &[i64::MIN]);
    g.node("Range", &["s0", "s10", "smin"], &["r"], vec![]);
    g.output("a").output("b").output("c").output("r");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("a").unwrap(), "Tensor[(N, 1), float32]");
    assert_eq!(c.type_of("b").unwrap(), "Tensor[(N, 1), float32]");
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(N), float32]");
    assert_eq!(c.type_of("r").unwrap(), "Tensor[(0), int64]");
}
