//! `relay import`: the printed module of small models, exactly, and the round trip of the
//! real models (`tests/onnx-models/`): each printed module read back by relay-core's
//! reader and checker, every binding and the signature compared with the ONNX check's.

use relay_onnx::build::{graph_attr, int, ints, Graph, D};
use relay_onnx::import::{import_bytes, Bindings, ImportError};

#[path = "support/round_trip.rs"]
mod support;
use support::round_trip;

/// `g` ending in `y = Reshape(x, Concat(parts))`, imported.
fn reshape_x_to(mut g: Graph, parts: &[&str]) -> relay_onnx::import::Imported {
    g.node("Concat", parts, &["target"], vec![int("axis", 0)]);
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.output("y");
    import_bytes(g.bytes().into()).unwrap()
}

#[test]
fn a_computed_shape_is_an_onnx_value_annotated_with_its_value() {
    // `Reshape(x, Concat(Shape(x)[0] * Shape(x)[1], 768))`.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::p("S"), D::v(768)]);
    g.node("Shape", &["x"], &["shape"], vec![]);
    for (i, out) in ["n", "s"].into_iter().enumerate() {
        let idx = format!("{out}_idx");
        g.init_ints(&idx, &[1], &[i as i64]);
        g.node("Gather", &["shape", &idx], &[out], vec![int("axis", 0)]);
    }
    g.node("Mul", &["n", "s"], &["ns"], vec![]);
    g.init_ints("width", &[1], &[768]);
    let imported = reshape_x_to(g, &["ns", "width"]);
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, S, 768), float32],
  %n_idx: Tensor[(1), int64],
  %s_idx: Tensor[(1), int64],
  %width: Tensor[(1), int64]
) {
  let %shape: Tensor[(3), int64] = onnx.shape(%x);
  let %n: Tensor[(1), int64] = take(%shape, %n_idx, axis=0);
  let %s: Tensor[(1), int64] = take(%shape, %s_idx, axis=0);
  let %ns: Tensor[(1), int64] = onnx.binary(%n, %s);
  let %target: Tensor[(2), int64] = onnx.concat((%ns, %width), axis=0);
  let %target_value: Tensor[(N*S, 768), int64] = onnx.value(%target);
  let %y: Tensor[(N*S, 768), float32] = onnx.reshape(%x, %target_value);
  %y
}
";
    assert_eq!(imported.text, text);
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let checked = prelude.check(text);
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    assert_eq!(
        checked.signatures(),
        ["@main: fn (Tensor[(N, S, 768), float32], Tensor[(1), int64], Tensor[(1), int64], Tensor[(1), int64]) -> Tensor[(N*S, 768), float32]"]
    );
    // An annotation of another number of elements than the tensor has is rejected.
    let wrong = text
        .replace(
            "%target_value: Tensor[(N*S, 768), int64]",
            "%target_value: Tensor[(N, S, 768), int64]",
        )
        .replace(
            "%y: Tensor[(N*S, 768), float32]",
            "%y: Tensor[(N, S, 768), float32]",
        );
    let checked = prelude.check(&wrong);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the result of `onnx.value` does not have the type required of it: `Tensor[(2), int64]` has 2 elements, and the value `Tensor[(N, S, 768), int64]` has 3 elements"]
    );
}

/// Reads `text` back with relay-core's reader and checker: its signature and each
/// binding's `%name: TYPE`.
fn read_back(text: &str) -> Vec<String> {
    let back = support::read_back(text).unwrap_or_else(|e| panic!("not read back: {e}"));
    let lets = back.lets.into_iter().map(|(n, t)| format!("%{n}: {t}"));
    back.signatures.into_iter().chain(lets).collect()
}

/// A branch reading the outer `x` through `op`, making `out`.
fn branch(op: &str, out: &str) -> Graph {
    let mut b = Graph::new(17);
    b.node(op, &["x"], &[out], vec![]);
    b.output(out);
    b
}

#[test]
fn an_if_is_relays_if_with_each_branch_annotated_with_the_joined_type() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.input("c", D::BOOL, &[D::v(1)]);
    let mut flat = Graph::new(17);
    flat.node("Flatten", &["x"], &["f"], vec![int("axis", 0)]);
    flat.output("f");
    let then_b = branch("Relu", "a");
    let branches = vec![
        graph_attr("then_branch", &then_b),
        graph_attr("else_branch", &flat),
    ];
    g.node("If", &["c"], &["y"], branches.clone());
    g.output("y");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, 3), float32],
  %c: Tensor[(1), bool]
) {
  let %c_scalar: bool = reshape(%c, newshape=[]);
  let %y: Tensor[(?, ?), float32] = if (%c_scalar) {
    let %a: Tensor[(N, 3), float32] = nn.relu(%x);
    let %a_joined: Tensor[(?, ?), float32] = %a;
    %a_joined
  } else {
    let %f: Tensor[(1, 3*N), float32] = onnx.flatten(%x, axis=0);
    let %f_joined: Tensor[(?, ?), float32] = %f;
    %f_joined
  };
  %y
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N, 3), float32], Tensor[(1), bool]) -> Tensor[(?, ?), float32]",
            "%c_scalar: bool",
            "%y: Tensor[(?, ?), float32]",
            "%a: Tensor[(N, 3), float32]",
            "%a_joined: Tensor[(?, ?), float32]",
            "%f: Tensor[(1, 3*N), float32]",
            "%f_joined: Tensor[(?, ?), float32]",
        ]
    );
    // A known condition: its branch alone, said so.
    g.init(relay_onnx::proto::TensorProto {
        name: "k".into(),
        data_type: 9,
        int32_data: vec![0],
        ..Default::default()
    });
    g.node("If", &["k"], &["z"], branches);
    g.output("z");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let tail = "  /* node 1 `If_1` (If): its condition is known to be false; its `else_branch`: */
  let %f_2: Tensor[(1, 3*N), float32] = onnx.flatten(%x, axis=0);
  let %z: Tensor[(1, 3*N), float32] = %f_2;
  (%y, %z)
}
";
    assert!(imported.text.ends_with(tail), "{}", imported.text);
    read_back(&imported.text);
}

#[test]
fn a_node_of_several_outputs_is_one_call_projected() {
    let mut g = Graph::new(18);
    g.input("x", D::F32, &[D::p("N"), D::v(6)]);
    g.node(
        "Split",
        &["x"],
        &["a", "b"],
        vec![int("axis", 1), int("num_outputs", 2)],
    );
    g.output("a").output("b");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, 6), float32]
) {
  let %Split_0: (Tensor[(N, 3), float32], Tensor[(N, 3), float32]) = onnx.split(%x, (), axis=1);
  let %a: Tensor[(N, 3), float32] = %Split_0.0;
  let %b: Tensor[(N, 3), float32] = %Split_0.1;
  (%a, %b)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N, 6), float32]) -> (Tensor[(N, 3), float32], Tensor[(N, 3), float32])",
            "%Split_0: (Tensor[(N, 3), float32], Tensor[(N, 3), float32])",
            "%a: Tensor[(N, 3), float32]",
            "%b: Tensor[(N, 3), float32]",
        ]
    );
}

#[test]
fn names_and_symbols_the_text_does_not_read_are_spelled_so_that_it_does() {
    let mut g = Graph::new(17);
    g.input(
        "/enc/layer.0/x",
        D::F32,
        &[D::p("DynamicDimension.0"), D::Unknown, D::v(4)],
    );
    g.init_ints("shape", &[2], &[0, -1]);
    g.node(
        "Reshape",
        &["/enc/layer.0/x", "shape"],
        &["input.1"],
        vec![],
    );
    g.node(
        "Transpose",
        &["input.1"],
        &["2"],
        vec![ints("perm", &[1, 0])],
    );
    g.output("2");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %enc_layer_0_x: Tensor[(DynamicDimension_0, d0, 4), float32],
  %shape: Tensor[(2), int64]
) {
  let %shape_value = onnx.value(%shape, values=[0, -1]);
  let %input.1: Tensor[(DynamicDimension_0, 4*d0), float32] = onnx.reshape(%enc_layer_0_x, %shape_value);
  let %_2: Tensor[(4*d0, DynamicDimension_0), float32] = transpose(%input.1, axes=[1, 0]);
  %_2
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        imported.symbols,
        [
            ("DynamicDimension.0".into(), "DynamicDimension_0".into()),
            ("'d0".into(), "d0".into())
        ]
    );
    assert_eq!(
        read_back(text)[2],
        "%input.1: Tensor[(DynamicDimension_0, 4*d0), float32]"
    );
}

#[test]
fn a_node_that_cannot_be_printed_is_an_error_naming_it() {
    // A `Scan` of opset 8: a batch axis the body does not see.
    let mut body = Graph::new(8);
    body.input("acc", D::F32, &[D::v(3)])
        .input("row", D::F32, &[D::v(3)]);
    body.node("Add", &["acc", "row"], &["next"], vec![]);
    body.output("next");
    let mut g = Graph::new(8);
    g.input("init", D::F32, &[D::p("B"), D::v(3)]).input(
        "x",
        D::F32,
        &[D::p("B"), D::p("S"), D::v(3)],
    );
    g.node(
        "Scan",
        &["", "init", "x"],
        &["sum"],
        vec![graph_attr("body", &body), int("num_scan_inputs", 1)],
    );
    g.output("sum");
    // A sequence of elements of ranks 1 and 2, which no `List` holds.
    let mut h = Graph::new(17);
    h.input("a", D::F32, &[D::v(3)])
        .input("b", D::F32, &[D::v(2), D::v(3)]);
    h.node("SequenceConstruct", &["a", "b"], &["s"], vec![]);
    h.node("SequenceLength", &["s"], &["n"], vec![]);
    h.output("n");
    let shown: Vec<String> = [g, h]
        .iter()
        .map(|m| match import_bytes(m.bytes().into()) {
            Err(ImportError::Diagnostics(d)) => d[0].to_string(),
            other => panic!("not printed: {other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "node 0 `Scan_0` (Scan): a `Scan` of an opset before 9 (a batch axis first, and `sequence_lens`) is not printed",
            "node 0 `SequenceConstruct_0` (SequenceConstruct): the sequence's elements are of different ranks (input 0 is `Tensor[(3), float32]`), and a `List` holds elements of one type",
        ]
    );
}

#[test]
fn the_real_models_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/onnx-models");
    let mut models: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    models.sort();
    let mut exact = 0;
    let mut bindings = 0;
    let mut not = Vec::new();
    let mut bare = Vec::new();
    for path in &models {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        match round_trip(&bytes, Bindings::Annotated) {
            Ok(r) => {
                assert_eq!(r.less_exact, Vec::<String>::new(), "{name}");
                exact += 1;
                bindings += r.compared;
                // Without the annotations, the relations alone give the same types.
                if let Err(why) = round_trip(&bytes, Bindings::Bare) {
                    bare.push(format!("{name}: {why}"));
                }
            }
            Err(why) => not.push(format!("{name}: {why}")),
        }
    }
    for n in &not {
        println!("{n}");
    }
    for n in &bare {
        println!("bare: {n}");
    }
    assert_eq!(bare, Vec::<String>::new());
    // Each model that does not round-trip, and why (the messages are the exact ones).
    let why: Vec<(&str, &str)> = not
        .iter()
        .map(|n| {
            let (model, reason) = n.split_once(": ").unwrap();
            let kind = if reason.contains("is declared `") {
                "a declared output disagrees with the inferred type: the model does not check"
            } else if reason.contains("is not supported") {
                "an operator the checker does not support"
            } else if reason.contains("Relay's `if` needs one type of both branches") {
                "an `If` whose branches give outputs of different ranks"
            } else if reason.contains("vs max(") {
                "a dimension the model leaves unknown, printed as a symbol"
            } else {
                reason
            };
            (model, kind)
        })
        .collect();
    assert_eq!(
        why,
        [
            (
                "ddddocr_common.onnx",
                "a declared output disagrees with the inferred type: the model does not check"
            ),
            (
                "ddddocr_common_old.onnx",
                "a declared output disagrees with the inferred type: the model does not check"
            ),
            (
                "ort_logreg_iris.onnx",
                "an operator the checker does not support"
            ),
            (
                "ppocrv3_det.onnx",
                "a dimension the model leaves unknown, printed as a symbol"
            ),
            (
                "silero_vad_16k_op15.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
            (
                "silero_vad_half.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
            (
                "silero_vad_v6.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
        ]
    );
    // The others: every binding and the signature exactly the ONNX check's.
    assert_eq!((exact, bindings, models.len()), (43, 17093, 50));
}

#[test]
fn a_value_of_symbols_and_negative_constants_is_two_onnx_values() {
    // `Reshape(x, Concat(Shape(x)[0:1], [-1]))`: `[N, -1]`, which no type holds.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3), D::v(4)]);
    g.node("Shape", &["x"], &["shape"], vec![int("end", 1)]);
    g.init_ints("minus_one", &[1], &[-1]);
    let imported = reshape_x_to(g, &["shape", "minus_one"]);
    let body = "\
  let %shape: Tensor[(1), int64] = onnx.shape(%x, end=1);
  let %target: Tensor[(2), int64] = onnx.concat((%shape, %minus_one), axis=0);
  let %target_value_at: Tensor[(N), int64] = onnx.value(%target, at=[0]);
  let %target_value = onnx.value(%target_value_at, values=[-1], at=[0]);
  let %y: Tensor[(N, 12), float32] = onnx.reshape(%x, %target_value);
  %y
}
";
    assert!(imported.text.ends_with(body), "{}", imported.text);
    assert_eq!(
        read_back(&imported.text).last().unwrap(),
        "%y: Tensor[(N, 12), float32]"
    );
    // Selecting an element the tensor does not have is an error.
    let wrong = imported.text.replace(
        "at=[0]);\n  let %target_value =",
        "at=[2]);\n  let %target_value =",
    );
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let messages: Vec<String> = prelude
        .check(&wrong)
        .errors
        .into_iter()
        .map(|e| e.message)
        .collect();
    assert_eq!(
        messages,
        ["`at` selects element 2 of `Tensor[(2), int64]`, which has 2"]
    );
}

#[test]
fn a_call_annotated_with_a_tuple_gives_as_many_results_as_asked_for() {
    // `Dropout` gives its mask only when asked: the annotation asks before the relation
    // is solved.
    let mut g = Graph::new(13);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("Dropout", &["x"], &["y", "mask"], vec![]);
    g.output("y").output("mask");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let body = "\
  let %Dropout_0: (Tensor[(N, 3), float32], Tensor[(N, 3), bool]) = onnx.dropout(%x, (), (), mask_dtype=\"bool\");
  let %y: Tensor[(N, 3), float32] = %Dropout_0.0;
  let %mask: Tensor[(N, 3), bool] = %Dropout_0.1;
  (%y, %mask)
}
";
    assert!(imported.text.ends_with(body), "{}", imported.text);
    assert_eq!(
        read_back(&imported.text)[1..],
        [
            "%Dropout_0: (Tensor[(N, 3), float32], Tensor[(N, 3), bool])",
            "%y: Tensor[(N, 3), float32]",
            "%mask: Tensor[(N, 3), bool]",
        ]
    );
}

#[test]
fn a_branchs_initializers_are_parameters_too() {
    let mut then_b = Graph::new(17);
    then_b.init_f32("bias", &[3]);
    then_b.node("Add", &["x", "bias"], &["a"], vec![]);
    then_b.output("a");
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.input("c", D::BOOL, &[]);
    g.node(
        "If",
        &["c"],
        &["y"],
        vec![
            graph_attr("then_branch", &then_b),
            graph_attr("else_branch", &branch("Relu", "b")),
        ],
    );
    g.output("y");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, 3), float32],
  %c: bool,
  %bias: Tensor[(3), float32]
) {
  let %y: Tensor[(N, 3), float32] = if (%c) {
    let %a: Tensor[(N, 3), float32] = onnx.binary(%x, %bias);
    %a
  } else {
    let %b: Tensor[(N, 3), float32] = nn.relu(%x);
    %b
  };
  %y
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text)[0],
        "@main: fn (Tensor[(N, 3), float32], bool, Tensor[(3), float32]) -> Tensor[(N, 3), float32]"
    );
}

#[test]
fn a_size_that_depends_on_data_is_an_onnx_value_of_no_tensor() {
    // `NonZero` of the value of a shape: its count is a symbol named after the node.
    let mut g = Graph::new(13);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.node("NonZero", &["shape"], &["nz"], vec![]);
    g.output("nz");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let body = "\
  let %shape: Tensor[(2), int64] = onnx.shape(%x);
  let %shape_value: Tensor[(N, 3), int64] = onnx.value(%shape);
  let %NonZero_1_value: Tensor[(NonZero_1), int64] = onnx.value(());
  let %nz: Tensor[(1, NonZero_1), int64] = onnx.nonzero(%shape, %shape_value, %NonZero_1_value);
  %nz
}
";
    assert!(imported.text.ends_with(body), "{}", imported.text);
    assert_eq!(
        read_back(&imported.text).last().unwrap(),
        "%nz: Tensor[(1, NonZero_1), int64]"
    );
    // Of data, whose value is not known: not printed.
    let mut g = Graph::new(13);
    g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    g.node("NonZero", &["x"], &["nz"], vec![]);
    g.output("nz");
    let Err(ImportError::Diagnostics(d)) = import_bytes(g.bytes().into()) else {
        panic!("an unknown value is not printed");
    };
    assert_eq!(
        d[0].to_string(),
        "node 0 `NonZero_0` (NonZero): the value of input 0 is not known, and the text has no way to pass an unknown value"
    );
}

/// The loop of `control_flow.rs`: `for i in 0..5: s = s + x`, scan output `Relu(s)`.
fn loop_model(cond: bool) -> Graph {
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
    if cond {
        g.input("go", D::BOOL, &[D::v(1)]);
    }
    g.init_ints("m", &[], &[5]);
    g.node(
        "Loop",
        &["m", if cond { "go" } else { "" }, "x"],
        &["final", "stacked"],
        vec![graph_attr("body", &body)],
    );
    g.output("final").output("stacked");
    g
}

#[test]
fn a_loop_that_reads_its_iteration_number_prints_one_body_for_every_iteration() {
    // ONNX's `test_loop11`: y + x[i..i + 1]. `relay check` types the body once per
    // iteration (`res_scan: (5, 1)`); the text has one body for every `%i`, so the import
    // prints the body typed once, its slice of unknown length, and gives the loop's
    // outputs the types that body gives.
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("y", D::F32, &[D::v(1)]);
    body.init_ints("one", &[], &[1])
        .init_ints("axis0", &[1], &[0]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("Add", &["i", "one"], &["i1"], vec![]);
    body.node("Unsqueeze", &["i", "axis0"], &["start"], vec![]);
    body.node("Unsqueeze", &["i1", "axis0"], &["end"], vec![]);
    body.node("Slice", &["x", "start", "end"], &["sl"], vec![]);
    body.node("Add", &["y", "sl"], &["y_out"], vec![]);
    body.output("c_out").output("y_out").output("sl");
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(5)])
        .input("y0", D::F32, &[D::v(1)]);
    g.init_ints("m", &[], &[5]);
    g.node(
        "Loop",
        &["m", "", "y0"],
        &["y", "scan"],
        vec![graph_attr("body", &body)],
    );
    g.output("y").output("scan");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let back = read_back(&imported.text);
    assert!(
        back.contains(&"%Loop_0: (Tensor[(?), float32], Tensor[(5, ?), float32])".to_string()),
        "{back:?}"
    );
    assert!(
        imported.text.contains("strided_slice") || imported.text.contains("onnx.slice"),
        "{}",
        imported.text
    );
}

#[test]
fn a_loop_is_a_recursive_function_whose_scan_outputs_grow_by_concatenation() {
    let imported = import_bytes(loop_model(false).bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, 3), float32],
  %m: int64
) {
  let %scan_empty_shape: Tensor[(0, N, 3), int64] = onnx.value(());
  let %scan_empty: Tensor[(0, N, 3), float32] = onnx.constant_of_shape(%scan_empty_shape, dtype=\"float32\");
  let %Loop_0_body = fn (%i: int64, %c_in: bool, %s: Tensor[(N, 3), float32], %scan_acc: Tensor[(?, N, 3), float32]) -> (Tensor[(N, 3), float32], Tensor[(?, N, 3), float32]) {
    if (less(%i, %m)) {
      let %c_out: bool = copy(%c_in);
      let %s_out: Tensor[(N, 3), float32] = onnx.binary(%s, %x);
      let %scan: Tensor[(N, 3), float32] = nn.relu(%s_out);
      %Loop_0_body(add(%i, 1i64), %c_out, %s_out, concatenate((%scan_acc, expand_dims(%scan, axis=0)), axis=0))
    } else {
      (%s, %scan_acc)
    }
  };
  let %Loop_0: (Tensor[(N, 3), float32], Tensor[(5, N, 3), float32]) = %Loop_0_body(0i64, True, %x, %scan_empty);
  let %final: Tensor[(N, 3), float32] = %Loop_0.0;
  let %stacked: Tensor[(5, N, 3), float32] = %Loop_0.1;
  (%final, %stacked)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N, 3), float32], int64) -> (Tensor[(N, 3), float32], Tensor[(5, N, 3), float32])",
            "%scan_empty_shape: Tensor[(0, N, 3), int64]",
            "%scan_empty: Tensor[(0, N, 3), float32]",
            "%Loop_0_body: fn (int64, bool, Tensor[(N, 3), float32], Tensor[(?, N, 3), float32]) -> (Tensor[(N, 3), float32], Tensor[(?, N, 3), float32])",
            "%c_out: bool",
            "%s_out: Tensor[(N, 3), float32]",
            "%scan: Tensor[(N, 3), float32]",
            "%Loop_0: (Tensor[(N, 3), float32], Tensor[(5, N, 3), float32])",
            "%final: Tensor[(N, 3), float32]",
            "%stacked: Tensor[(5, N, 3), float32]",
        ]
    );
    // Printed without the node outputs' annotations, the loop's results keep theirs: the
    // recursion gives the scan output `?` for its number of iterations.
    let bare =
        relay_onnx::import::import_bytes_with(loop_model(false).bytes().into(), Bindings::Bare)
            .unwrap();
    assert!(bare.text.contains("let %Loop_0: (Tensor[(N, 3), float32], Tensor[(5, N, 3), float32]) = %Loop_0_body(0i64, True, %x, %scan_empty);"), "{}", bare.text);
    assert_eq!(read_back(&bare.text)[1..], read_back(text)[1..]);
}

#[test]
fn a_loop_with_a_condition_runs_a_number_of_iterations_named_after_it() {
    let imported = import_bytes(loop_model(true).bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, 3), float32],
  %go: Tensor[(1), bool],
  %m: int64
) {
  let %go_scalar: bool = reshape(%go, newshape=[]);
  let %scan_empty_shape: Tensor[(0, N, 3), int64] = onnx.value(());
  let %scan_empty: Tensor[(0, N, 3), float32] = onnx.constant_of_shape(%scan_empty_shape, dtype=\"float32\");
  let %Loop_0_body = fn (%i: int64, %c_in: bool, %s: Tensor[(N, 3), float32], %scan_acc: Tensor[(?, N, 3), float32]) -> (Tensor[(N, 3), float32], Tensor[(?, N, 3), float32]) {
    if (logical_and(less(%i, %m), %c_in)) {
      let %c_out: bool = copy(%c_in);
      let %s_out: Tensor[(N, 3), float32] = onnx.binary(%s, %x);
      let %scan: Tensor[(N, 3), float32] = nn.relu(%s_out);
      %Loop_0_body(add(%i, 1i64), %c_out, %s_out, concatenate((%scan_acc, expand_dims(%scan, axis=0)), axis=0))
    } else {
      (%s, %scan_acc)
    }
  };
  let %Loop_0: (Tensor[(N, 3), float32], Tensor[(Loop_0, N, 3), float32]) = %Loop_0_body(0i64, %go_scalar, %x, %scan_empty);
  let %final: Tensor[(N, 3), float32] = %Loop_0.0;
  let %stacked: Tensor[(Loop_0, N, 3), float32] = %Loop_0.1;
  (%final, %stacked)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N, 3), float32], Tensor[(1), bool], int64) -> (Tensor[(N, 3), float32], Tensor[(Loop_0, N, 3), float32])",
            "%go_scalar: bool",
            "%scan_empty_shape: Tensor[(0, N, 3), int64]",
            "%scan_empty: Tensor[(0, N, 3), float32]",
            "%Loop_0_body: fn (int64, bool, Tensor[(N, 3), float32], Tensor[(?, N, 3), float32]) -> (Tensor[(N, 3), float32], Tensor[(?, N, 3), float32])",
            "%c_out: bool",
            "%s_out: Tensor[(N, 3), float32]",
            "%scan: Tensor[(N, 3), float32]",
            "%Loop_0: (Tensor[(N, 3), float32], Tensor[(Loop_0, N, 3), float32])",
            "%final: Tensor[(N, 3), float32]",
            "%stacked: Tensor[(Loop_0, N, 3), float32]",
        ]
    );
}

#[test]
fn a_carried_value_whose_shape_changes_is_typed_with_a_question_mark_there() {
    // for i in 0..3: s = Concat(s, x): the rows of s grow.
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("c_in", D::BOOL, &[])
        .input("s", D::F32, &[D::v(1), D::v(3)]);
    body.node("Identity", &["c_in"], &["c_out"], vec![]);
    body.node("Concat", &["s", "x"], &["s_out"], vec![int("axis", 0)]);
    body.output("c_out").output("s_out");
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(1), D::v(3)]);
    g.init_ints("m", &[1], &[3]);
    g.init(relay_onnx::proto::TensorProto {
        name: "go".into(),
        data_type: 9,
        dims: vec![1],
        int32_data: vec![1],
        ..Default::default()
    });
    g.node(
        "Loop",
        &["m", "go", "x"],
        &["grown"],
        vec![graph_attr("body", &body)],
    );
    g.output("grown");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(1, 3), float32],
  %m: Tensor[(1), int64],
  %go: Tensor[(1), bool]
) {
  let %m_scalar: int64 = reshape(%m, newshape=[]);
  let %go_scalar: bool = reshape(%go, newshape=[]);
  let %Loop_0_body = fn (%i: int64, %c_in: bool, %s: Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32] {
    if (logical_and(less(%i, %m_scalar), %c_in)) {
      let %c_out = copy(%c_in);
      let %s_out = onnx.concat((%s, %x), axis=0);
      %Loop_0_body(add(%i, 1i64), %c_out, %s_out)
    } else {
      %s
    }
  };
  let %grown: Tensor[(?, 3), float32] = %Loop_0_body(0i64, %go_scalar, %x);
  %grown
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(1, 3), float32], Tensor[(1), int64], Tensor[(1), bool]) -> Tensor[(?, 3), float32]",
            "%m_scalar: int64",
            "%go_scalar: bool",
            "%Loop_0_body: fn (int64, bool, Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32]",
            "%c_out: bool",
            "%s_out: Tensor[(?, 3), float32]",
            "%grown: Tensor[(?, 3), float32]",
        ]
    );
}

/// The scan of `control_flow.rs`: a running sum over the rows of x, the sums stacked on
/// axis 1; the rows read from the last with `reverse`.
fn scan_model(reverse: bool) -> Graph {
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
            ints("scan_input_directions", &[i64::from(reverse)]),
            ints("scan_output_axes", &[1]),
        ],
    );
    g.output("sum").output("running");
    g
}

#[test]
fn a_scan_is_a_recursive_function_over_its_scan_axis() {
    let imported = import_bytes(scan_model(false).bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %init: Tensor[(3), float32],
  %x: Tensor[(S, 3), float32]
) {
  let %out_empty_shape: Tensor[(3, 0), int64] = onnx.value(());
  let %out_empty: Tensor[(3, 0), float32] = onnx.constant_of_shape(%out_empty_shape, dtype=\"float32\");
  let %Scan_0_length: int64 = take(shape_of(%x, dtype=\"int64\"), 0i64);
  let %Scan_0_body = fn (%Scan_0_i: int64, %acc: Tensor[(3), float32], %out_acc: Tensor[(3, ?), float32]) -> (Tensor[(3), float32], Tensor[(3, ?), float32]) {
    if (less(%Scan_0_i, %Scan_0_length)) {
      let %row: Tensor[(3), float32] = take(%x, %Scan_0_i, axis=0);
      let %next: Tensor[(3), float32] = onnx.binary(%acc, %row);
      let %out: Tensor[(3), float32] = copy(%next);
      %Scan_0_body(add(%Scan_0_i, 1i64), %next, concatenate((%out_acc, expand_dims(%out, axis=1)), axis=1))
    } else {
      (%acc, %out_acc)
    }
  };
  let %Scan_0: (Tensor[(3), float32], Tensor[(3, S), float32]) = %Scan_0_body(0i64, %init, %out_empty);
  let %sum: Tensor[(3), float32] = %Scan_0.0;
  let %running: Tensor[(3, S), float32] = %Scan_0.1;
  (%sum, %running)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(3), float32], Tensor[(S, 3), float32]) -> (Tensor[(3), float32], Tensor[(3, S), float32])",
            "%out_empty_shape: Tensor[(3, 0), int64]",
            "%out_empty: Tensor[(3, 0), float32]",
            "%Scan_0_length: int64",
            "%Scan_0_body: fn (int64, Tensor[(3), float32], Tensor[(3, ?), float32]) -> (Tensor[(3), float32], Tensor[(3, ?), float32])",
            "%row: Tensor[(3), float32]",
            "%next: Tensor[(3), float32]",
            "%out: Tensor[(3), float32]",
            "%Scan_0: (Tensor[(3), float32], Tensor[(3, S), float32])",
            "%sum: Tensor[(3), float32]",
            "%running: Tensor[(3, S), float32]",
        ]
    );
    // Read from the end: the index counts down.
    let imported = import_bytes(scan_model(true).bytes().into()).unwrap();
    assert!(
        imported.text.contains(
            "      let %Scan_0_i_reversed: int64 = subtract(subtract(%Scan_0_length, 1i64), %Scan_0_i);
      let %row: Tensor[(3), float32] = take(%x, %Scan_0_i_reversed, axis=0);
"
        ),
        "{}",
        imported.text
    );
    assert_eq!(
        read_back(&imported.text).last().unwrap(),
        "%running: Tensor[(3, S), float32]"
    );
}

#[test]
fn sequences_are_lists_of_the_prelude() {
    // Construct, insert (at the end, at a position), at, erase, length.
    let mut g = Graph::new(17);
    g.input("a", D::F32, &[D::p("N"), D::v(3)])
        .input("b", D::F32, &[D::p("N"), D::v(3)])
        .input("c", D::F32, &[D::v(2), D::v(3)]);
    g.node("SequenceConstruct", &["a", "b"], &["s"], vec![]);
    g.node("SequenceInsert", &["s", "c"], &["t"], vec![]);
    g.init_ints("minus_one", &[], &[-1]);
    g.node("SequenceInsert", &["s", "a", "minus_one"], &["u"], vec![]);
    g.node("SequenceAt", &["t", "minus_one"], &["y"], vec![]);
    g.node("SequenceErase", &["u"], &["v"], vec![]);
    g.node("SequenceLength", &["v"], &["n"], vec![]);
    g.node("SequenceEmpty", &[], &["e"], vec![]);
    g.node("SequenceInsert", &["e", "a"], &["w"], vec![]);
    g.output("y").output("n").output("w");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %a: Tensor[(N, 3), float32],
  %b: Tensor[(N, 3), float32],
  %c: Tensor[(2, 3), float32],
  %minus_one: int64
) {
  let %s: List[Tensor[(N, 3), float32]] = Cons(%a, Cons(%b, Nil()));
  let %s_joined: List[Tensor[(?, 3), float32]] = %s;
  let %c_joined: Tensor[(?, 3), float32] = %c;
  let %t: List[Tensor[(?, 3), float32]] = @concat(%s_joined, Cons(%c_joined, Nil()));
  let %u: List[Tensor[(N, 3), float32]] = @onnx_sequence_insert(%s, cast(%minus_one, dtype=\"int32\"), %a);
  let %y: Tensor[(?, 3), float32] = @onnx_sequence_at(%t, cast(%minus_one, dtype=\"int32\"));
  let %v: List[Tensor[(N, 3), float32]] = @onnx_sequence_erase(%u, -1);
  let %n: int64 = cast(@length(%v), dtype=\"int64\");
  let %e = Nil();
  let %e_joined: List[Tensor[(N, 3), float32]] = %e;
  let %w: List[Tensor[(N, 3), float32]] = @concat(%e_joined, Cons(%a, Nil()));
  (%y, %n, %w)
}

def @onnx_sequence_at[A](%xs: List[A], %i: int32) -> A {
  if (%i < 0) {
    @nth(%xs, %i + @length(%xs))
  } else {
    @nth(%xs, %i)
  }
}

def @onnx_sequence_insert[A](%xs: List[A], %i: int32, %x: A) -> List[A] {
  if (%i < 0) {
    @onnx_sequence_insert(%xs, %i + @length(%xs), %x)
  } else {
    if (%i == 0) {
      Cons(%x, %xs)
    } else {
      Cons(@hd(%xs), @onnx_sequence_insert(@tl(%xs), %i - 1, %x))
    }
  }
}

def @onnx_sequence_erase[A](%xs: List[A], %i: int32) -> List[A] {
  if (%i < 0) {
    @onnx_sequence_erase(%xs, %i + @length(%xs))
  } else {
    if (%i == 0) {
      @tl(%xs)
    } else {
      Cons(@hd(%xs), @onnx_sequence_erase(@tl(%xs), %i - 1))
    }
  }
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N, 3), float32], Tensor[(N, 3), float32], Tensor[(2, 3), float32], int64) -> (Tensor[(?, 3), float32], int64, List[Tensor[(N, 3), float32]])",
            "@onnx_sequence_at: fn [A](List[A], int32) -> A",
            "@onnx_sequence_insert: fn [A](List[A], int32, A) -> List[A]",
            "@onnx_sequence_erase: fn [A](List[A], int32) -> List[A]",
            "%s: List[Tensor[(N, 3), float32]]",
            "%s_joined: List[Tensor[(?, 3), float32]]",
            "%c_joined: Tensor[(?, 3), float32]",
            "%t: List[Tensor[(?, 3), float32]]",
            "%u: List[Tensor[(N, 3), float32]]",
            "%y: Tensor[(?, 3), float32]",
            "%v: List[Tensor[(N, 3), float32]]",
            "%n: int64",
            "%e: List[Tensor[(N, 3), float32]]",
            "%e_joined: List[Tensor[(N, 3), float32]]",
            "%w: List[Tensor[(N, 3), float32]]",
        ]
    );
}

#[test]
fn split_to_sequence_and_concat_from_sequence_are_recursive_functions() {
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(3), D::v(6)]);
    g.init_ints("two", &[], &[2]);
    g.init_ints("lengths", &[2], &[1, 2]);
    g.node(
        "SplitToSequence",
        &["x", "two"],
        &["s"],
        vec![int("axis", 1)],
    );
    g.node("SplitToSequence", &["x", "lengths"], &["l"], vec![]);
    g.node("SplitToSequence", &["x"], &["k"], vec![int("keepdims", 0)]);
    g.node("ConcatFromSequence", &["s"], &["y"], vec![int("axis", 1)]);
    g.node(
        "ConcatFromSequence",
        &["k"],
        &["z"],
        vec![int("axis", -1), int("new_axis", 1)],
    );
    g.output("y").output("z").output("l");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(3, 6), float32],
  %two: int64,
  %lengths: Tensor[(2), int64]
) {
  let %SplitToSequence_0_length: int64 = take(shape_of(%x, dtype=\"int64\"), 1i64);
  let %SplitToSequence_0_pieces = fn (%SplitToSequence_0_i: int64) -> List[Tensor[(3, 2), float32]] {
    if (less(%SplitToSequence_0_i, %SplitToSequence_0_length)) {
      Cons(take(%x, arange(%SplitToSequence_0_i, minimum(add(%SplitToSequence_0_i, %two), %SplitToSequence_0_length), 1i64, dtype=\"int64\"), axis=1), %SplitToSequence_0_pieces(add(%SplitToSequence_0_i, %two)))
    } else {
      Nil()
    }
  };
  let %s: List[Tensor[(3, 2), float32]] = %SplitToSequence_0_pieces(0i64);
  let %SplitToSequence_1_length: int64 = take(shape_of(%x, dtype=\"int64\"), 0i64);
  let %SplitToSequence_1_count: int64 = take(shape_of(%lengths, dtype=\"int64\"), 0i64);
  let %SplitToSequence_1_pieces = fn (%SplitToSequence_1_k: int64, %SplitToSequence_1_i: int64) -> List[Tensor[(?, 6), float32]] {
    if (less(%SplitToSequence_1_k, %SplitToSequence_1_count)) {
      let %SplitToSequence_1_l: int64 = cast(take(%lengths, %SplitToSequence_1_k), dtype=\"int64\");
      Cons(take(%x, arange(%SplitToSequence_1_i, add(%SplitToSequence_1_i, %SplitToSequence_1_l), 1i64, dtype=\"int64\"), axis=0), %SplitToSequence_1_pieces(add(%SplitToSequence_1_k, 1i64), add(%SplitToSequence_1_i, %SplitToSequence_1_l)))
    } else {
      Nil()
    }
  };
  let %l: List[Tensor[(?, 6), float32]] = %SplitToSequence_1_pieces(0i64, 0i64);
  let %SplitToSequence_2_length: int64 = take(shape_of(%x, dtype=\"int64\"), 0i64);
  let %SplitToSequence_2_pieces = fn (%SplitToSequence_2_i: int64) -> List[Tensor[(6), float32]] {
    if (less(%SplitToSequence_2_i, %SplitToSequence_2_length)) {
      Cons(take(%x, %SplitToSequence_2_i, axis=0), %SplitToSequence_2_pieces(add(%SplitToSequence_2_i, 1i64)))
    } else {
      Nil()
    }
  };
  let %k: List[Tensor[(6), float32]] = %SplitToSequence_2_pieces(0i64);
  let %ConcatFromSequence_3_concat = fn (%ConcatFromSequence_3_xs: List[Tensor[(3, 2), float32]], %ConcatFromSequence_3_acc: Tensor[(3, ?), float32]) -> Tensor[(3, ?), float32] {
    match (%ConcatFromSequence_3_xs) {
      Cons(%ConcatFromSequence_3_x, %ConcatFromSequence_3_rest) => %ConcatFromSequence_3_concat(%ConcatFromSequence_3_rest, concatenate((%ConcatFromSequence_3_acc, %ConcatFromSequence_3_x), axis=1)),
      Nil => %ConcatFromSequence_3_acc,
    }
  };
  let %y: Tensor[(3, ?), float32] = match? (%s) { Cons(%ConcatFromSequence_3_first, %ConcatFromSequence_3_others) => %ConcatFromSequence_3_concat(%ConcatFromSequence_3_others, %ConcatFromSequence_3_first) };
  let %ConcatFromSequence_4_concat = fn (%ConcatFromSequence_4_xs: List[Tensor[(6), float32]], %ConcatFromSequence_4_acc: Tensor[(6, ?), float32]) -> Tensor[(6, ?), float32] {
    match (%ConcatFromSequence_4_xs) {
      Cons(%ConcatFromSequence_4_x, %ConcatFromSequence_4_rest) => %ConcatFromSequence_4_concat(%ConcatFromSequence_4_rest, concatenate((%ConcatFromSequence_4_acc, expand_dims(%ConcatFromSequence_4_x, axis=1)), axis=1)),
      Nil => %ConcatFromSequence_4_acc,
    }
  };
  let %z: Tensor[(6, ?), float32] = match? (%k) { Cons(%ConcatFromSequence_4_first, %ConcatFromSequence_4_others) => %ConcatFromSequence_4_concat(%ConcatFromSequence_4_others, expand_dims(%ConcatFromSequence_4_first, axis=1)) };
  (%y, %z, %l)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(3, 6), float32], int64, Tensor[(2), int64]) -> (Tensor[(3, ?), float32], Tensor[(6, ?), float32], List[Tensor[(?, 6), float32]])",
            "%SplitToSequence_0_length: int64",
            "%SplitToSequence_0_pieces: fn (int64) -> List[Tensor[(3, ?), float32]]",
            "%s: List[Tensor[(3, 2), float32]]",
            "%SplitToSequence_1_length: int64",
            "%SplitToSequence_1_count: int64",
            "%SplitToSequence_1_pieces: fn (int64, int64) -> List[Tensor[(?, 6), float32]]",
            "%SplitToSequence_1_l: int64",
            "%l: List[Tensor[(?, 6), float32]]",
            "%SplitToSequence_2_length: int64",
            "%SplitToSequence_2_pieces: fn (int64) -> List[Tensor[(6), float32]]",
            "%k: List[Tensor[(6), float32]]",
            "%ConcatFromSequence_3_concat: fn (List[Tensor[(3, 2), float32]], Tensor[(3, ?), float32]) -> Tensor[(3, ?), float32]",
            "%y: Tensor[(3, ?), float32]",
            "%ConcatFromSequence_4_concat: fn (List[Tensor[(6), float32]], Tensor[(6, ?), float32]) -> Tensor[(6, ?), float32]",
            "%z: Tensor[(6, ?), float32]",
        ]
    );
}

#[test]
fn a_sequence_map_is_a_recursive_function_over_its_lists() {
    // Each element of `xs` plus `t`, and `ys` as they are.
    let mut body = Graph::new(17);
    body.input("x", D::F32, &[D::p("N")])
        .input("y", D::F32, &[D::p("M")])
        .input("t", D::F32, &[D::p("N")]);
    body.node("Add", &["x", "t"], &["sum"], vec![]);
    body.node("Identity", &["y"], &["same"], vec![]);
    body.output("sum").output("same");
    let mut g = Graph::new(17);
    g.input_sequence("xs", D::F32, &[D::p("N")]);
    g.input_sequence("ys", D::F32, &[D::p("M")]);
    g.input("t", D::F32, &[D::p("N")]);
    g.node(
        "SequenceMap",
        &["xs", "ys", "t"],
        &["sums", "sames"],
        vec![graph_attr("body", &body)],
    );
    g.output("sums").output("sames");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %xs: List[Tensor[(N), float32]],
  %ys: List[Tensor[(M), float32]],
  %t: Tensor[(N), float32]
) {
  let %SequenceMap_0_map = fn (%SequenceMap_0_xs0: List[Tensor[(N), float32]], %SequenceMap_0_xs1: List[Tensor[(M), float32]]) -> (List[Tensor[(N), float32]], List[Tensor[(M), float32]]) {
    match ((%SequenceMap_0_xs0, %SequenceMap_0_xs1)) {
      (Cons(%x, %SequenceMap_0_rest0), Cons(%y, %SequenceMap_0_rest1)) => {
        let %sum: Tensor[(N), float32] = onnx.binary(%x, %t);
        let %same: Tensor[(M), float32] = copy(%y);
        let %SequenceMap_0_rest = %SequenceMap_0_map(%SequenceMap_0_rest0, %SequenceMap_0_rest1);
        (Cons(%sum, %SequenceMap_0_rest.0), Cons(%same, %SequenceMap_0_rest.1))
      },
      _ => (Nil(), Nil()),
    }
  };
  let %SequenceMap_0: (List[Tensor[(N), float32]], List[Tensor[(M), float32]]) = %SequenceMap_0_map(%xs, %ys);
  let %sums: List[Tensor[(N), float32]] = %SequenceMap_0.0;
  let %sames: List[Tensor[(M), float32]] = %SequenceMap_0.1;
  (%sums, %sames)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (List[Tensor[(N), float32]], List[Tensor[(M), float32]], Tensor[(N), float32]) -> (List[Tensor[(N), float32]], List[Tensor[(M), float32]])",
            "%SequenceMap_0_map: fn (List[Tensor[(N), float32]], List[Tensor[(M), float32]]) -> (List[Tensor[(N), float32]], List[Tensor[(M), float32]])",
            "%sum: Tensor[(N), float32]",
            "%same: Tensor[(M), float32]",
            "%SequenceMap_0_rest: (List[Tensor[(N), float32]], List[Tensor[(M), float32]])",
            "%SequenceMap_0: (List[Tensor[(N), float32]], List[Tensor[(M), float32]])",
            "%sums: List[Tensor[(N), float32]]",
            "%sames: List[Tensor[(M), float32]]",
        ]
    );
}

#[test]
fn optionals_are_the_preludes_optional() {
    use relay_onnx::proto::{AttributeProto, TypeProto};
    let mut g = Graph::new(18);
    g.input("x", D::F32, &[D::p("N")]);
    g.node("Optional", &["x"], &["o"], vec![]);
    let tp: TypeProto = relay_onnx::build::tensor_type(D::F32, Some(&[D::v(2)]));
    let type_attr = AttributeProto {
        name: "type".into(),
        r#type: 13,
        tp: Some(tp),
        ..Default::default()
    };
    g.node("Optional", &[], &["none"], vec![type_attr]);
    g.node("OptionalHasElement", &["o"], &["has"], vec![]);
    g.node("OptionalHasElement", &["none"], &["has_none"], vec![]);
    g.node("OptionalHasElement", &["x"], &["has_x"], vec![]);
    g.node("OptionalHasElement", &[], &["has_nothing"], vec![]);
    g.node("OptionalGetElement", &["o"], &["got"], vec![]);
    g.node("OptionalGetElement", &["x"], &["got_x"], vec![]);
    for out in [
        "has",
        "has_none",
        "has_x",
        "has_nothing",
        "got",
        "got_x",
        "none",
    ] {
        g.output(out);
    }
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N), float32]
) {
  let %o: Optional[Tensor[(N), float32]] = Some(%x);
  let %none: Optional[Tensor[(2), float32]] = None();
  let %has: bool = match (%o) { Some(_) => True, None => False };
  let %has_none: bool = match (%none) { Some(_) => True, None => False };
  let %has_x: bool = True;
  let %has_nothing: bool = False;
  let %got: Tensor[(N), float32] = match? (%o) { Some(%o_value) => %o_value };
  let %got_x: Tensor[(N), float32] = %x;
  (%has, %has_none, %has_x, %has_nothing, %got, %got_x, %none)
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (Tensor[(N), float32]) -> (bool, bool, bool, bool, Tensor[(N), float32], Tensor[(N), float32], Optional[Tensor[(2), float32]])",
            "%o: Optional[Tensor[(N), float32]]",
            "%none: Optional[Tensor[(2), float32]]",
            "%has: bool",
            "%has_none: bool",
            "%has_x: bool",
            "%has_nothing: bool",
            "%got: Tensor[(N), float32]",
            "%got_x: Tensor[(N), float32]",
        ]
    );
}

#[test]
fn a_loop_of_a_condition_alone_with_no_carried_values_stops_on_its_bodys_condition() {
    // Runs while its condition holds: `go`, then the body's `i < 3` (a tensor of one
    // element); scans out `i`.
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[]).input("c_in", D::BOOL, &[]);
    body.init_ints("three", &[1], &[3]);
    body.node("Less", &["i", "three"], &["c_out"], vec![]);
    body.node("Identity", &["i"], &["each"], vec![]);
    body.output("c_out").output("each");
    let mut g = Graph::new(17);
    g.input("go", D::BOOL, &[]);
    g.node(
        "Loop",
        &["", "go"],
        &["all"],
        vec![graph_attr("body", &body)],
    );
    g.output("all");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %go: bool,
  %three: Tensor[(1), int64]
) {
  let %each_empty_shape: Tensor[(0), int64] = onnx.value(());
  let %each_empty: Tensor[(0), int64] = onnx.constant_of_shape(%each_empty_shape, dtype=\"int64\");
  let %Loop_0_body = fn (%i: int64, %c_in: bool, %each_acc: Tensor[(?), int64]) -> Tensor[(?), int64] {
    if (%c_in) {
      let %c_out: Tensor[(1), bool] = onnx.compare(%i, %three);
      let %each: int64 = copy(%i);
      let %c_out_scalar: bool = reshape(%c_out, newshape=[]);
      %Loop_0_body(add(%i, 1i64), %c_out_scalar, concatenate((%each_acc, expand_dims(%each, axis=0)), axis=0))
    } else {
      %each_acc
    }
  };
  let %all: Tensor[(Loop_0), int64] = %Loop_0_body(0i64, %go, %each_empty);
  %all
}
";
    assert_eq!(imported.text, text);
    assert_eq!(
        read_back(text),
        [
            "@main: fn (bool, Tensor[(1), int64]) -> Tensor[(Loop_0), int64]",
            "%each_empty_shape: Tensor[(0), int64]",
            "%each_empty: Tensor[(0), int64]",
            "%Loop_0_body: fn (int64, bool, Tensor[(?), int64]) -> Tensor[(?), int64]",
            "%c_out: Tensor[(1), bool]",
            "%each: int64",
            "%c_out_scalar: bool",
            "%all: Tensor[(Loop_0), int64]"
        ]
    ); // Of no outputs at all: a function of the iteration number and the condition alone.
    let mut g = Graph::new(17);
    g.input("go", D::BOOL, &[]);
    body.graph.output.pop();
    body.graph.node.pop();
    g.node("Loop", &["", "go"], &[], vec![graph_attr("body", &body)]);
    g.node("Not", &["go"], &["stop"], vec![]);
    g.output("stop");
    let imported = import_bytes(g.bytes().into()).unwrap();
    assert!(
        imported
            .text
            .contains("  let %Loop_0_body = fn (%i: int64, %c_in: bool) -> () {"),
        "{}",
        imported.text
    );
    assert!(
        imported
            .text
            .contains("  let %Loop_0: () = %Loop_0_body(0i64, %go);\n"),
        "{}",
        imported.text
    );
    assert_eq!(read_back(&imported.text).last().unwrap(), "%stop: bool");
}
