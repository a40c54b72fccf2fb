//! Control flow: `If`, `Loop` and `Scan`, their subgraphs typed in the scope of their graph.

use relay_onnx::build::{graph_attr, int, Graph, D};

/// A branch reading the outer `x` through `op`, making `out`.
fn branch(op: &str, out: &str) -> Graph {
    let mut b = Graph::new(17);
    b.node(op, &["x"], &[out], vec![]);
    b.output(out);
    b
}

fn if_model(then_b: &Graph, else_b: &Graph, cond_known: Option<bool>) -> Graph {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    match cond_known {
        None => {
            g.input("c", D::BOOL, &[]);
        }
        Some(c) => {
            g.init(relay_onnx::proto::TensorProto {
                name: "c".into(),
                data_type: 9,
                int32_data: vec![i32::from(c)],
                ..Default::default()
            });
        }
    }
    g.node(
        "If",
        &["c"],
        &["y"],
        vec![
            graph_attr("then_branch", then_b),
            graph_attr("else_branch", else_b),
        ],
    );
    g.output("y");
    g
}

#[test]
fn branches_that_agree_give_their_type() {
    let g = if_model(&branch("Relu", "a"), &branch("Sigmoid", "b"), None);
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3), float32]");
}

#[test]
fn branches_that_differ_join_and_a_known_condition_picks_one() {
    let mut flat = Graph::new(17);
    flat.node("Flatten", &["x"], &["f"], vec![int("axis", 0)]);
    flat.output("f");
    // (N, 3) against (1, 3*N): neither dimension agrees.
    let mut c = if_model(&branch("Relu", "a"), &flat, None).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?, ?), float32]");
    let mut c = if_model(&branch("Relu", "a"), &flat, Some(false)).check();
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(1, 3*N), float32]");
    let mut c = if_model(&branch("Relu", "a"), &flat, Some(true)).check();
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3), float32]");
}

#[test]
fn a_mistake_inside_a_branch_says_where_it_is() {
    let mut bad = Graph::new(17);
    bad.init_f32("b", &[4]);
    bad.node("Add", &["x", "b"], &["r"], vec![]);
    bad.output("r");
    let c = if_model(&branch("Relu", "a"), &bad, None).check();
    let shown: Vec<String> = c.diagnostics().iter().map(|d| d.to_string()).collect();
    assert_eq!(
        shown,
        ["node 0 `Add_0` (Add): cannot broadcast dimension 1 of the first input (3) with dimension 0 of the second (4)\n  \
          = note: input 0 `x`: `Tensor[(N, 3), float32]`\n  \
          = note: input 1 `b`: `Tensor[(4), float32]` (here)\n  \
          = note: in the `else_branch` of node 0 `If_0` (If)"]
    );
}

#[test]
fn a_loop_carries_its_values_and_stacks_its_scan_outputs() {
    // for i in 0..5: s = s + x; scan out Relu(s).
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("s", D::F32, &[D::p("N"), D::v(3)]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("Add", &["s", "x"], &["s_out"], vec![]);
    body.node("Relu", &["s_out"], &["scan"], vec![]);
    body.output("c_out").output("s_out").output("scan");
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.init_ints("m", &[], &[5]);
    g.node(
        "Loop",
        &["m", "", "x"],
        &["final", "stacked"],
        vec![graph_attr("body", &body)],
    );
    g.output("final").output("stacked");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("final").unwrap(), "Tensor[(N, 3), float32]");
    assert_eq!(c.type_of("stacked").unwrap(), "Tensor[(5, N, 3), float32]");
    // With a condition, the number of iterations is data's: a symbol named after the node.
    g.graph.input.push(relay_onnx::proto::ValueInfoProto {
        name: "go".into(),
        r#type: Some(relay_onnx::build::tensor_type(D::BOOL, Some(&[]))),
    });
    let mut h = Graph::new(17);
    h.graph = g.graph.clone();
    h.graph.node.clear();
    h.node(
        "Loop",
        &["m", "go", "x"],
        &["final", "stacked"],
        vec![graph_attr("body", &body)],
    );
    let mut c = h.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(
        c.type_of("stacked").unwrap(),
        "Tensor[(Loop_0, N, 3), float32]"
    );
}

#[test]
fn a_scan_slices_its_inputs_and_stacks_its_outputs() {
    // A running sum over the rows of x: (S, 3), scan axis 0.
    let mut body = Graph::new(17);
    body.input("acc", D::F32, &[D::v(3)])
        .input("row", D::F32, &[D::v(3)]);
    body.node("Add", &["acc", "row"], &["next"], vec![]);
    body.node("Identity", &["next"], &["out"], vec![]);
    body.output("next").output("out");
    let mut g = Graph::new(17);
    g.input("init", D::F32, &[D::v(3)])
        .input("x", D::F32, &[D::p("S"), D::v(3)]);
    g.node(
        "Scan",
        &["init", "x"],
        &["sum", "running"],
        vec![
            graph_attr("body", &body),
            int("num_scan_inputs", 1),
            relay_onnx::build::ints("scan_output_axes", &[1]),
        ],
    );
    g.output("sum").output("running");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("sum").unwrap(), "Tensor[(3), float32]");
    assert_eq!(c.type_of("running").unwrap(), "Tensor[(3, S), float32]");
}

#[test]
fn a_known_condition_types_its_branch_alone_and_passes_its_value_on() {
    // The then branch gives x's shape; the else branch would be ill typed at these
    // shapes, and is dead: no diagnostic. The If's output keeps the shape value.
    let mut then_b = Graph::new(17);
    then_b.node("Shape", &["x"], &["s"], vec![]);
    then_b.output("s");
    let mut bad = Graph::new(17);
    bad.init_f32("b", &[4]);
    bad.node("Add", &["x", "b"], &["r"], vec![]);
    bad.node("Shape", &["r"], &["s2"], vec![]);
    bad.output("s2");
    let mut g = if_model(&then_b, &bad, Some(true));
    g.node("ConstantOfShape", &["y"], &["z"], vec![]);
    g.output("z");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(N, 3), float32]");
}

#[test]
fn a_scan_before_opset_9_has_a_batch_axis_the_body_does_not_see() {
    // The same running sum over (B, S, 3), with `sequence_lens` absent.
    let mut body = Graph::new(8);
    body.input("acc", D::F32, &[D::v(3)])
        .input("row", D::F32, &[D::v(3)]);
    body.node("Add", &["acc", "row"], &["next"], vec![]);
    body.node("Identity", &["next"], &["out"], vec![]);
    body.output("next").output("out");
    let mut g = Graph::new(8);
    g.input("init", D::F32, &[D::p("B"), D::v(3)]).input(
        "x",
        D::F32,
        &[D::p("B"), D::p("S"), D::v(3)],
    );
    g.node(
        "Scan",
        &["", "init", "x"],
        &["sum", "running"],
        vec![graph_attr("body", &body), int("num_scan_inputs", 1)],
    );
    g.output("sum").output("running");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("sum").unwrap(), "Tensor[(B, 3), float32]");
    assert_eq!(c.type_of("running").unwrap(), "Tensor[(B, S, 3), float32]");
}

#[test]
fn branches_of_different_ranks_are_a_warning_that_names_both() {
    // What exporters write for a squeeze of a dimension they cannot tell is 1.
    let mut squeeze = Graph::new(17);
    squeeze.init_ints("ax", &[1], &[0]);
    squeeze.node("Squeeze", &["x", "ax"], &["s"], vec![]);
    squeeze.output("s");
    let mut c = if_model(&squeeze, &branch("Relu", "a"), None).check();
    let said: Vec<String> = c
        .diagnostics()
        .iter()
        .map(|d| format!("{:?}: {d}", d.severity))
        .collect();
    assert_eq!(
        said,
        ["Warning: node 0 `If_0` (If): its branches give output 0 of ranks 1 and 2: it is taken as the `then_branch`'s, which holds only when that branch runs\n  = note: `then_branch`: `Tensor[(3), float32]`\n  = note: `else_branch`: `Tensor[(N, 3), float32]`"]
    );
    assert!(!c.has_errors());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(3), float32]");
}

/// A loop body reading the outer `x`: `sl = Slice(x, [start], [i + 1])`, `start` the
/// iteration number `i` (or 0 when `from_zero`), `y_out = Add(y, sl)` carried, and `sl` a
/// scan output.
fn slice_body(y: &[D], from_zero: bool) -> Graph {
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("y", D::F32, y);
    body.init_ints("one", &[], &[1])
        .init_ints("axis0", &[1], &[0])
        .init_ints("zero", &[1], &[0]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("Add", &["i", "one"], &["i1"], vec![]);
    body.node("Unsqueeze", &["i", "axis0"], &["start"], vec![]);
    body.node("Unsqueeze", &["i1", "axis0"], &["end"], vec![]);
    let start = if from_zero { "zero" } else { "start" };
    body.node("Slice", &["x", start, "end"], &["sl"], vec![]);
    body.node("Add", &["y", "sl"], &["y_out"], vec![]);
    body.output("c_out").output("y_out").output("sl");
    body
}

/// `Loop(m, "", y0)` over `body`, `x` of `x_len` elements and `y0` of `y0_len`; `m` a
/// known trip count, or an input when `None`.
fn loop_over(body: &Graph, x_len: i64, y0_len: i64, m: Option<i64>) -> Graph {
    loop_while(body, x_len, y0_len, m, "")
}

/// [`loop_over`] with the condition `cond`, an input unless it is `""`.
fn loop_while(body: &Graph, x_len: i64, y0_len: i64, m: Option<i64>, cond: &str) -> Graph {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(x_len)])
        .input("y0", D::F32, &[D::v(y0_len)]);
    match m {
        Some(m) => g.init_ints("m", &[], &[m]),
        None => g.input("m", D::I64, &[]),
    };
    if !cond.is_empty() {
        g.input(cond, D::BOOL, &[]);
    }
    g.node(
        "Loop",
        &["m", cond, "y0"],
        &["y", "scan"],
        vec![graph_attr("body", body)],
    );
    g.output("y").output("scan");
    g
}

fn shown(c: &relay_onnx::Checked) -> Vec<String> {
    c.diagnostics().iter().map(|d| d.to_string()).collect()
}

#[test]
fn a_loop_of_a_known_count_types_its_body_with_each_iteration_number() {
    // ONNX's `test_loop11`: y += x[i..i + 1] for i in 0..5, each slice a scan output.
    let body = slice_body(&[D::v(1)], false);
    let mut c = loop_over(&body, 5, 1, Some(5)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(1), float32]");
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(5, 1), float32]");
    // The count unknown: the body once, `i` unknown, so the slice's length too.
    let mut c = loop_over(&body, 5, 1, None).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?), float32]");
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(Loop_0, ?), float32]");
    // More iterations than are typed one by one (x long enough for each): the body once,
    // as above.
    let mut c = loop_over(&body, 65, 1, Some(65)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?), float32]");
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(65, ?), float32]");
}

#[test]
fn a_carried_value_takes_the_type_of_each_iteration() {
    // y = Concat(y, x[i..i + 1]) grows by one each iteration: (1 + m) after m of them. The
    // loop surely runs them all, so each takes the type the one before gave.
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("y", D::F32, &[D::Unknown]);
    body.init_ints("one", &[], &[1])
        .init_ints("axis0", &[1], &[0]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("Add", &["i", "one"], &["i1"], vec![]);
    body.node("Unsqueeze", &["i", "axis0"], &["start"], vec![]);
    body.node("Unsqueeze", &["i1", "axis0"], &["end"], vec![]);
    body.node("Slice", &["x", "start", "end"], &["sl"], vec![]);
    body.node("Concat", &["y", "sl"], &["y_out"], vec![int("axis", 0)]);
    body.node("Shape", &["y_out"], &["len"], vec![]);
    body.output("c_out").output("y_out").output("len");
    let mut c = loop_over(&body, 5, 1, Some(4)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(5), float32]");
    // The scan outputs, each iteration's length, are alike: `(4, 1)`.
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(4, 1), int64]");
    // The count unknown: the body once, its carried value joined with the initial one.
    let mut c = loop_over(&body, 5, 1, None).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?), float32]");
}

#[test]
fn a_carried_value_that_stops_broadcasting_is_found_in_its_iteration() {
    // y = y + x[0..i + 1]: (1) after iteration 0, (2) after iteration 1, and in iteration
    // 2 `(2) + (3)` does not broadcast, as onnxruntime finds when it runs it. The slices,
    // the scan output, are (1) then (2): onnxruntime does not stack them either.
    let scan_error = "node 0 `Loop_0` (Loop): scan output 0 of its `body` is `Tensor[(2), float32]` in iteration 1, and `Tensor[(1), float32]` before it: a scan output keeps one shape in every iteration";
    let body = slice_body(&[D::Unknown], true);
    let c = loop_over(&body, 5, 1, Some(4)).check();
    assert_eq!(
        shown(&c),
        [
            scan_error,
            "node 5 `Add_5` (Add): cannot broadcast dimension 0 of the first input (2) with dimension 0 of the second (3)\n  \
             = note: input 0 `y`: `Tensor[(2), float32]`\n  \
             = note: input 1 `sl`: `Tensor[(3), float32]` (here)\n  \
             = note: in iteration 2 of the `body` of node 0 `Loop_0` (Loop)"
        ]
    );
    // Two iterations: the sum broadcasts, the scan output does not stack.
    let c = loop_over(&body, 5, 1, Some(2)).check();
    assert_eq!(shown(&c), [scan_error]);
}

#[test]
fn a_mistake_in_one_iteration_says_which() {
    // y (3) + x[0..i + 1]: broadcasts in iteration 0 (a slice of 1), not in iteration 1.
    let body = slice_body(&[D::v(3)], true);
    let c = loop_over(&body, 5, 3, Some(5)).check();
    assert_eq!(
        shown(&c),
        ["node 5 `Add_5` (Add): cannot broadcast dimension 0 of the first input (3) with dimension 0 of the second (2)\n  \
          = note: input 0 `y`: `Tensor[(3), float32]`\n  \
          = note: input 1 `sl`: `Tensor[(2), float32]` (here)\n  \
          = note: in iteration 1 of the `body` of node 0 `Loop_0` (Loop)"]
    );
    // The loop's outputs are not typed (what uses them is not checked).
    assert!(!c.is_checked("y"));
    assert!(!c.is_checked("scan"));
    // The count unknown, the slice's length is too: nothing to report.
    let mut c = loop_over(&body, 5, 3, None).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(3), float32]");
    // With a condition of unknown value, iteration 1 may not run: the body once, as above.
    let mut c = loop_while(&body, 5, 3, Some(5), "go").check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(3), float32]");
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(Loop_0, ?), float32]");
}

#[test]
fn a_mistake_in_every_iteration_is_said_once() {
    // `sl` declared int32 in the body: wrong in each of the 5 iterations alike.
    let mut body = slice_body(&[D::v(1)], false);
    body.graph
        .value_info
        .push(relay_onnx::proto::ValueInfoProto {
            name: "sl".into(),
            r#type: Some(relay_onnx::build::tensor_type(D::I32, Some(&[D::v(1)]))),
        });
    let mut c = loop_over(&body, 5, 1, Some(5)).check();
    assert_eq!(
        shown(&c),
        ["node 4 `Slice_4` (Slice): value `sl` is declared `Tensor[(1), int32]` but inferred `Tensor[(1), float32]`\n  \
          = note: dtype: declared int32, inferred float32\n  \
          = note: in iterations 0 to 4 of the `body` of node 0 `Loop_0` (Loop)"]
    );
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(5, 1), float32]");
}

#[test]
fn a_loop_in_a_loop_typed_per_iteration_is_typed_once() {
    // The outer loop reads its iteration number, and runs twice: its body is typed twice,
    // and the inner loop's body once each time (the typings do not multiply).
    let inner = slice_body(&[D::v(1)], false);
    let mut outer = Graph::new(17);
    outer
        .input("j", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("y", D::F32, &[D::v(1)]);
    outer.init_ints("m", &[], &[5]);
    outer.node("Identity", &["c_in"], &["c_out"], vec![]);
    outer.node(
        "Loop",
        &["m", "", "y"],
        &["y_out", "slices"],
        vec![graph_attr("body", &inner)],
    );
    outer.node("Identity", &["j"], &["j_out"], vec![]);
    outer.output("c_out").output("y_out").output("j_out");
    let mut c = loop_over(&outer, 5, 1, Some(2)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?), float32]");
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(2), int64]");
}

#[test]
fn a_body_too_large_to_type_per_iteration_is_typed_once() {
    // 9 nodes typed 64 times: per iteration.
    let mut body = slice_body(&[D::v(1)], false);
    let mut c = loop_over(&body, 64, 1, Some(64)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(64, 1), float32]");
    // 9 nodes and 60 more: 69 typed 64 times is more than 4096, 5 times is not.
    let mut last = "sl".to_string();
    for n in 0..60 {
        let next = format!("r{n}");
        body.node("Relu", &[&last], &[&next], vec![]);
        last = next;
    }
    let mut c = loop_over(&body, 64, 1, Some(64)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(64, ?), float32]");
    let mut c = loop_over(&body, 5, 1, Some(5)).check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("scan").unwrap(), "Tensor[(5, 1), float32]");
}
