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
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let checked = prelude.check(text);
    let errors: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(errors, Vec::<&str>::new());
    let (module, typed) = checked.typed.as_ref().unwrap();
    let main = checked
        .user_globals()
        .iter()
        .find(|g| &*g.name == "main")
        .unwrap();
    let mut out = checked.signatures();
    for e in module.lets(main.func.unwrap()) {
        if let relay_core::expr::ExprKind::Let { var, .. } = module.expr(e).kind {
            out.push(format!(
                "%{}: {}",
                module.var_name(var),
                typed.show(typed.var_ty(var))
            ));
        }
    }
    out
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
    let mut body = Graph::new(17);
    body.input("i", D::I64, &[])
        .input("cond", D::BOOL, &[])
        .input("v", D::F32, &[D::v(3)]);
    body.node("Relu", &["v"], &["w"], vec![]);
    body.output("cond").output("w");
    let mut g = Graph::new(17);
    g.input("v0", D::F32, &[D::v(3)]);
    g.init_ints("m", &[], &[4]);
    g.node(
        "Loop",
        &["m", "", "v0"],
        &["vn"],
        vec![graph_attr("body", &body)],
    );
    g.output("vn");
    let Err(ImportError::Diagnostics(d)) = import_bytes(g.bytes().into()) else {
        panic!("a `Loop` is not printed");
    };
    let shown: Vec<String> = d.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        ["node 0 `Loop_0` (Loop): `Loop` cannot be printed as Relay yet: the importer prints the operators of the mappings and `If`"]
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
    assert_eq!((exact, bindings, models.len()), (38, 15468, 45));
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
