//! Shape values: the exporter patterns over `x: float[N, S, 768]` that other tools lose.

use relay_onnx::build::{int, ints, Graph, D};

fn x(g: &mut Graph) {
    g.input("x", D::F32, &[D::p("N"), D::p("S"), D::v(768)]);
}

/// `Shape(x)[i]` as a one-element vector.
fn dim(g: &mut Graph, i: i64, out: &str) {
    let idx = format!("{out}_idx");
    g.init_ints(&idx, &[1], &[i]);
    g.node("Gather", &["shape", &idx], &[out], vec![int("axis", 0)]);
}

#[test]
fn reshape_to_concat_of_gathered_dims_keeps_both_symbols() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    dim(&mut g, 0, "n");
    dim(&mut g, 1, "s");
    g.init_ints("heads", &[1], &[12])
        .init_ints("width", &[1], &[64]);
    g.node(
        "Concat",
        &["n", "s", "heads", "width"],
        &["target"],
        vec![int("axis", 0)],
    );
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.node(
        "Transpose",
        &["y"],
        &["z"],
        vec![ints("perm", &[0, 2, 1, 3])],
    );
    g.output("z");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, S, 12, 64), float32]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(N, 12, S, 64), float32]");
}

#[test]
fn reshape_to_a_product_of_symbols() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    dim(&mut g, 0, "n");
    dim(&mut g, 1, "s");
    g.node("Mul", &["n", "s"], &["ns"], vec![]);
    g.init_ints("width", &[1], &[768]);
    g.node(
        "Concat",
        &["ns", "width"],
        &["target"],
        vec![int("axis", 0)],
    );
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N*S, 768), float32]");
}

#[test]
fn reshape_with_minus_one_infers_the_symbol() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.init_ints("s0", &[1], &[0]).init_ints("e1", &[1], &[1]);
    g.node("Slice", &["shape", "s0", "e1"], &["n"], vec![]);
    g.init_ints("rest", &[2], &[-1, 768]);
    g.node("Concat", &["n", "rest"], &["target"], vec![int("axis", 0)]);
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, S, 768), float32]");
}

#[test]
fn expand_and_constant_of_shape_take_the_whole_shape() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.input("b", D::F32, &[D::v(1), D::v(1), D::v(768)]);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.node("Expand", &["b", "shape"], &["e"], vec![]);
    g.node("ConstantOfShape", &["shape"], &["c"], vec![]);
    g.output("e").output("c");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("e").unwrap(), "Tensor[(N, S, 768), float32]");
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(N, S, 768), float32]");
}

#[test]
fn range_to_a_gathered_dimension() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.init_ints("one_idx", &[], &[1]);
    g.node(
        "Gather",
        &["shape", "one_idx"],
        &["s"],
        vec![int("axis", 0)],
    );
    g.init_ints("zero", &[], &[0]).init_ints("step", &[], &[1]);
    g.node("Range", &["zero", "s", "step"], &["r"], vec![]);
    g.output("r");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("s").unwrap(), "int64");
    assert_eq!(c.type_of("r").unwrap(), "Tensor[(S), int64]");
}

#[test]
fn pytorch_pad_pattern_reverses_and_transposes_a_matrix_of_pads() {
    // F.pad(x, (1, 2)) as PyTorch exports it: [1, 2] padded with zeros to [1, 2, 0, 0],
    // viewed as pairs (2, 2), reversed, transposed, flattened: [0, 1, 0, 2].
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::p("N"), D::v(5)]);
    g.init_ints("given", &[2], &[1, 2])
        .init_ints("two", &[1], &[2]);
    g.node(
        "ConstantOfShape",
        &["two"],
        &["zeros"],
        vec![relay_onnx::build::tensor_attr("value", &[1], &[0])],
    );
    g.node(
        "Concat",
        &["given", "zeros"],
        &["flat"],
        vec![int("axis", 0)],
    );
    g.init_ints("pairs", &[2], &[-1, 2]);
    g.node("Reshape", &["flat", "pairs"], &["m"], vec![]);
    g.init_ints("s", &[1], &[-1])
        .init_ints("e", &[1], &[i64::MIN])
        .init_ints("a", &[1], &[0]);
    g.node("Slice", &["m", "s", "e", "a", "s"], &["rev"], vec![]);
    g.node("Transpose", &["rev"], &["t"], vec![ints("perm", &[1, 0])]);
    g.init_ints("all", &[1], &[-1]);
    g.node("Reshape", &["t", "all"], &["pads"], vec![]);
    g.node("Pad", &["x", "pads"], &["y"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 8), float32]");
}

#[test]
fn a_float_division_of_a_size_is_cast_back_as_onnx_truncates() {
    // (768 / 2) as a float is 384; (768 / 5) is 153.6, which Cast makes 153.
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    dim(&mut g, 2, "d");
    g.node("Cast", &["d"], &["f"], vec![int("to", 1)]);
    for (k, v) in [("two", 2), ("five", 5)] {
        g.init_ints(&format!("{k}_i"), &[1], &[v]);
        g.node("Cast", &[&format!("{k}_i")], &[k], vec![int("to", 1)]);
        g.node("Div", &["f", k], &[&format!("q_{k}")], vec![]);
        g.node(
            "Cast",
            &[&format!("q_{k}")],
            &[&format!("n_{k}")],
            vec![int("to", 7)],
        );
        g.node(
            "ConstantOfShape",
            &[&format!("n_{k}")],
            &[&format!("c_{k}")],
            vec![],
        );
    }
    g.output("c_two").output("c_five");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("c_two").unwrap(), "Tensor[(384), float32]");
    // 153.6 cast to int64 is 153: ONNX's `Cast` truncates toward zero.
    assert_eq!(c.type_of("c_five").unwrap(), "Tensor[(153), float32]");
}

#[test]
fn split_of_a_shape_gives_each_part_its_dimensions() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.init_ints("parts", &[3], &[1, 1, 1]);
    g.node("Split", &["shape", "parts"], &["n", "s", "c"], vec![]);
    g.node(
        "Concat",
        &["s", "n", "c"],
        &["target"],
        vec![int("axis", 0)],
    );
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(S, N, 768), float32]");
}

/// A float `Constant` of these values.
fn float_constant(g: &mut Graph, out: &str, v: f32) {
    let t = relay_onnx::proto::TensorProto {
        data_type: 1,
        float_data: v.to_le_bytes().to_vec().into(),
        ..Default::default()
    };
    let attr = relay_onnx::proto::AttributeProto {
        name: "value".into(),
        r#type: 4,
        t: Some(t),
        ..Default::default()
    };
    g.node("Constant", &[], &[out], vec![attr]);
}

#[test]
fn a_size_computed_in_floats_stays_a_size() {
    // Range(0.0, float(S), 1.0), as a window function's expansion computes its length;
    // a step of 0.5 is no whole number, and gives no length.
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.init_ints("i1", &[], &[1]);
    g.node("Gather", &["shape", "i1"], &["s"], vec![int("axis", 0)]);
    g.node("Cast", &["s"], &["s_f"], vec![int("to", 1)]);
    float_constant(&mut g, "zero", 0.0);
    float_constant(&mut g, "one", 1.0);
    float_constant(&mut g, "half", 0.5);
    g.node("Range", &["zero", "s_f", "one"], &["r"], vec![]);
    g.node("Range", &["zero", "s_f", "half"], &["h"], vec![]);
    g.output("r").output("h");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("r").unwrap(), "Tensor[(S), float32]");
    assert_eq!(c.type_of("h").unwrap(), "Tensor[(?), float32]");
}

/// The diagnostics as `severity: message`.
fn said(c: &relay_onnx::Checked) -> Vec<String> {
    c.diagnostics()
        .iter()
        .map(|d| format!("{:?}: {}", d.severity, d.message))
        .collect()
}

#[test]
fn a_value_not_known_of_known_length_still_gives_the_rank() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.input("s", D::I64, &[D::v(3)]);
    g.node("Reshape", &["x", "s"], &["y"], vec![]);
    g.node("Expand", &["x", "s"], &["e"], vec![]);
    g.input("pads", D::I64, &[D::v(6)]);
    g.node("Pad", &["x", "pads"], &["p"], vec![]);
    g.output("y").output("e").output("p");
    let mut c = g.check();
    assert_eq!(said(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(?, ?, ?), float32]");
    // `768` broadcast with what is not known is 768 (or the model fails at run time).
    assert_eq!(c.type_of("e").unwrap(), "Tensor[(N, S, 768), float32]");
    assert_eq!(c.type_of("p").unwrap(), "Tensor[(?, ?, ?), float32]");
}

#[test]
fn a_value_not_known_of_unknown_length_says_why_the_result_is_not_known() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.input("s", D::I64, &[D::p("K")]);
    g.node("Reshape", &["x", "s"], &["y"], vec![]);
    g.node("Relu", &["y"], &["z"], vec![]);
    g.output("z");
    let c = g.check();
    // One warning, at the node that waits (not at `Relu`, which only follows it).
    assert_eq!(
        said(&c),
        ["Warning: the type of output `y` is not known: the value of input 1 `s` is not known"]
    );
    assert!(!c.has_errors());
}

#[test]
fn axes_not_known_are_a_warning_not_an_error() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.input("a", D::I64, &[D::v(1)]);
    g.node("Unsqueeze", &["x", "a"], &["u"], vec![]);
    g.output("u");
    let c = g.check();
    assert_eq!(
        said(&c),
        ["Warning: its outputs are not known: input 1 `a` gives attribute `axes`, and its value is not known"]
    );
    assert!(!c.has_errors());
}

#[test]
fn squeeze_without_axes_drops_ones_and_waits_on_symbols() {
    let mut g = Graph::new(17);
    g.input("c", D::F32, &[D::v(1), D::v(3), D::v(1)]);
    g.node("Squeeze", &["c"], &["c2"], vec![]);
    x(&mut g);
    g.node("Squeeze", &["x"], &["x2"], vec![]);
    g.init_ints("ax", &[1], &[-1]);
    g.node("Squeeze", &["c", "ax"], &["c3"], vec![]);
    g.output("c2").output("x2").output("c3");
    let mut c = g.check();
    // `N` or `S` may be 1 at run time: valid ONNX, a result of unknown rank.
    assert_eq!(
        said(&c),
        ["Warning: the type of output `x2` is not known: the relation of `onnx.squeeze` cannot tell it from the inputs' types"]
    );
    assert_eq!(c.type_of("c2").unwrap(), "Tensor[(3), float32]");
    assert_eq!(c.type_of("c3").unwrap(), "Tensor[(1, 3), float32]");
    g.init_ints("ax3", &[1], &[1]);
    g.node("Squeeze", &["c", "ax3"], &["bad"], vec![]);
    g.output("bad");
    assert_eq!(
        said(&g.check())[1],
        "Error: cannot squeeze axis 1 of `Tensor[(1, 3, 1), float32]`: its dimension is 3, not 1"
    );
}

#[test]
fn ceil_and_floor_of_a_quotient_of_constants_are_values() {
    // Range's expansion: `ceil((limit - start) / delta)` in floats, then cast back.
    let mut g = Graph::new(17);
    g.input("x", D::F32, &[D::v(2), D::v(10), D::p("S")]);
    g.node("Shape", &["x"], &["shape"], vec![]);
    for (i, out) in [(1, "ten"), (2, "s")] {
        dim(&mut g, i, out);
        g.node("Cast", &[out], &[&format!("{out}_f")], vec![int("to", 1)]);
    }
    g.init_ints("three_i", &[1], &[3]);
    g.node("Cast", &["three_i"], &["three"], vec![int("to", 1)]);
    for (round, size) in [("Ceil", "ten"), ("Floor", "ten"), ("Ceil", "s")] {
        let q = format!("{round}_{size}_q");
        let r = format!("{round}_{size}_r");
        let n = format!("{round}_{size}_n");
        g.node("Div", &[&format!("{size}_f"), "three"], &[&q], vec![]);
        g.node(round, &[&q], &[&r], vec![]);
        g.node("Cast", &[&r], &[&n], vec![int("to", 7)]);
        g.node(
            "ConstantOfShape",
            &[&n],
            &[&format!("{round}_{size}")],
            vec![],
        );
        g.output(&format!("{round}_{size}"));
    }
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("Ceil_ten").unwrap(), "Tensor[(4), float32]");
    assert_eq!(c.type_of("Floor_ten").unwrap(), "Tensor[(3), float32]");
    // A symbolic size divided by 3 is no constant: its length only.
    assert_eq!(c.type_of("Ceil_s").unwrap(), "Tensor[(?), float32]");
}

/// A scalar initializer of ONNX element type `elem` whose raw data is `bytes`.
fn scalar(g: &mut Graph, name: &str, elem: i32, bytes: Vec<u8>) {
    g.init(relay_onnx::proto::TensorProto {
        name: name.to_string().into(),
        data_type: elem,
        raw_data: bytes.into(),
        ..Default::default()
    });
}

#[test]
fn a_range_of_float_constants_has_their_length() {
    let mut g = Graph::new(17);
    for (name, v) in [("one", 1.0f32), ("five", 5.0), ("two", 2.0), ("tenth", 0.1)] {
        scalar(&mut g, name, 1, v.to_le_bytes().to_vec());
    }
    scalar(&mut g, "zero", 1, 0f32.to_le_bytes().to_vec());
    scalar(&mut g, "three_tenths", 1, 0.3f32.to_le_bytes().to_vec());
    // float16 and bfloat16 bounds: 1, 5, 2 in each format's bits.
    for (elem, bits) in [
        (10, [0x3c00u16, 0x4500, 0x4000]),
        (16, [0x3f80, 0x40a0, 0x4000]),
    ] {
        for (name, b) in ["one", "five", "two"].iter().zip(bits) {
            scalar(
                &mut g,
                &format!("{name}_{elem}"),
                elem,
                b.to_le_bytes().to_vec(),
            );
        }
        let names = ["one", "five", "two"].map(|n| format!("{n}_{elem}"));
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        g.node("Range", &names, &[&format!("r{elem}")], vec![]);
        g.output(&format!("r{elem}"));
    }
    g.node("Range", &["one", "five", "two"], &["r"], vec![]);
    g.node("Range", &["five", "one", "two"], &["empty"], vec![]);
    // 0.3f / 0.1f is 3 in single precision and 3.0000000745 in double: the two ceilings
    // (3 and 4) differ, and runtimes take either, so the length is not known.
    g.node(
        "Range",
        &["zero", "three_tenths", "tenth"],
        &["near"],
        vec![],
    );
    // Range's expansion, `ceil(relu(limit - start) / delta)` in floats cast to an
    // integer, is a value too.
    g.node("Sub", &["five", "one"], &["span"], vec![]);
    g.node("Div", &["span", "two"], &["q"], vec![]);
    g.node("Ceil", &["q"], &["c"], vec![]);
    g.node("Relu", &["c"], &["nonneg"], vec![]);
    g.node("Cast", &["nonneg"], &["n"], vec![int("to", 7)]);
    g.node("Reshape", &["n", "shape1"], &["n1"], vec![]);
    g.init_ints("shape1", &[1], &[1]);
    g.node("ConstantOfShape", &["n1"], &["filled"], vec![]);
    g.output("r")
        .output("empty")
        .output("near")
        .output("filled");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("r").unwrap(), "Tensor[(2), float32]");
    assert_eq!(c.type_of("r10").unwrap(), "Tensor[(2), float16]");
    assert_eq!(c.type_of("r16").unwrap(), "Tensor[(2), bfloat16]");
    assert_eq!(c.type_of("empty").unwrap(), "Tensor[(0), float32]");
    assert_eq!(c.type_of("near").unwrap(), "Tensor[(?), float32]");
    assert_eq!(c.type_of("filled").unwrap(), "Tensor[(2), float32]");
}

#[test]
fn a_range_of_float_constants_with_a_zero_step_is_an_error() {
    let mut g = Graph::new(17);
    for (name, v) in [("one", 1.0f32), ("five", 5.0), ("zero", 0.0)] {
        scalar(&mut g, name, 1, v.to_le_bytes().to_vec());
    }
    g.node("Range", &["one", "five", "zero"], &["r"], vec![]);
    g.output("r");
    let c = g.check();
    assert_eq!(said(&c), ["Error: a `Range` step is 0"]);
}
