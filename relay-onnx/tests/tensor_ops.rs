//! The tensor operators of `src/ops/tensor/`: reductions, arg reductions, `TopK`, the
//! data-dependent operators, gathers, generators, quantization, losses, `Einsum` and the
//! signal operators, each typed exactly over symbolic inputs.

use relay_onnx::build::{float, int, ints, string, Graph, D};
use relay_onnx::proto::TensorProto;

/// `x: float[N, S, 768]`.
fn x(g: &mut Graph) {
    g.input("x", D::F32, &[D::p("N"), D::p("S"), D::v(768)]);
}

/// A graph of one node over `x` at `opset`, its output's type (the diagnostics must be
/// empty).
fn one(
    opset: i64,
    op: &str,
    inputs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
    init: impl FnOnce(&mut Graph),
) -> String {
    let mut g = Graph::new(opset);
    x(&mut g);
    init(&mut g);
    g.node(op, inputs, &["y"], attrs);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[], "{op}");
    c.type_of("y").unwrap()
}

/// The messages of a graph's diagnostics.
fn errors(g: &Graph) -> Vec<String> {
    g.check()
        .diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect()
}

fn bool_tensor(name: &str, values: &[bool]) -> TensorProto {
    TensorProto {
        name: name.to_string().into(),
        dims: vec![values.len() as i64],
        data_type: 9,
        int32_data: values.iter().map(|&b| i32::from(b)).collect(),
        ..Default::default()
    }
}

fn f32_tensor(name: &str, dims: &[i64], values: &[f32]) -> TensorProto {
    TensorProto {
        name: name.to_string().into(),
        dims: dims.to_vec(),
        data_type: 1,
        raw_data: values
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect::<Vec<u8>>()
            .into(),
        ..Default::default()
    }
}

#[test]
fn reduce_sum_with_axes_input_keeps_dims_by_default() {
    let t = one(13, "ReduceSum", &["x", "axes"], vec![], |g| {
        g.init_ints("axes", &[1], &[1]);
    });
    assert_eq!(t, "Tensor[(N, 1, 768), float32]");
}

#[test]
fn reduce_mean_with_axes_attribute_and_no_keepdims() {
    let t = one(
        11,
        "ReduceMean",
        &["x"],
        vec![ints("axes", &[-1]), int("keepdims", 0)],
        |_| {},
    );
    assert_eq!(t, "Tensor[(N, S), float32]");
}

#[test]
fn reduce_max_of_several_axes_at_opset_18() {
    let t = one(
        18,
        "ReduceMax",
        &["x", "axes"],
        vec![int("keepdims", 0)],
        |g| {
            g.init_ints("axes", &[2], &[2, 0]);
        },
    );
    assert_eq!(t, "Tensor[(S), float32]");
}

#[test]
fn reductions_without_axes_reduce_everything_unless_noop() {
    let all = one(18, "ReduceL2", &["x"], vec![], |_| {});
    assert_eq!(all, "Tensor[(1, 1, 1), float32]");
    let scalar = one(13, "ReduceSum", &["x"], vec![int("keepdims", 0)], |_| {});
    assert_eq!(scalar, "float32");
    let noop = one(
        18,
        "ReduceLogSumExp",
        &["x", "axes"],
        vec![int("noop_with_empty_axes", 1)],
        |g| {
            g.init_ints("axes", &[0], &[]);
        },
    );
    assert_eq!(noop, "Tensor[(N, S, 768), float32]");
}

#[test]
fn reduce_with_unknown_axes_keeps_the_rank() {
    let mut g = Graph::new(13);
    x(&mut g);
    g.input("axes", D::I64, &[D::v(2)]);
    g.node("ReduceSum", &["x", "axes"], &["k"], vec![]);
    g.node(
        "ReduceSum",
        &["x", "axes"],
        &["d"],
        vec![int("keepdims", 0)],
    );
    g.input("three", D::I64, &[D::v(3)]);
    g.node("ReduceSum", &["x", "three"], &["all"], vec![]);
    g.output("k").output("d");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("k").unwrap(), "Tensor[(?, ?, ?), float32]");
    assert_eq!(c.type_of("d").unwrap(), "Tensor[(?), float32]");
    assert_eq!(c.type_of("all").unwrap(), "Tensor[(1, 1, 1), float32]");
}

#[test]
fn reduce_axis_out_of_range_is_an_error() {
    let mut g = Graph::new(13);
    x(&mut g);
    g.init_ints("axes", &[1], &[3]);
    g.node("ReduceSum", &["x", "axes"], &["y"], vec![]);
    g.output("y");
    assert_eq!(
        errors(&g),
        [concat!(
            "node 0 `ReduceSum_0` (ReduceSum): axis 3 is out of range for rank 3\n",
            "  = note: input 0 `x`: `Tensor[(N, S, 768), float32]`\n",
            "  = note: the value of input 1 `axes`: [3] (here)\n",
            "  = note: input 1 `axes`: `Tensor[(1), int64]`"
        )]
    );
}

#[test]
fn reduce_axis_given_twice_is_an_error() {
    let mut g = Graph::new(11);
    x(&mut g);
    g.node("ReduceProd", &["x"], &["y"], vec![ints("axes", &[1, -2])]);
    g.output("y");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `ReduceProd_0` (ReduceProd): axis -2 is reduced twice"),
        "{e:?}"
    );
}

#[test]
fn reduce_prod_of_a_shape_is_its_element_count() {
    let mut g = Graph::new(18);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.node("ReduceProd", &["shape"], &["n"], vec![]);
    g.node("Reshape", &["x", "n"], &["flat"], vec![]);
    g.node("ReduceSum", &["shape"], &["s"], vec![int("keepdims", 1)]);
    g.node("ConstantOfShape", &["s"], &["z"], vec![]);
    g.output("flat").output("z");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("flat").unwrap(), "Tensor[(768*N*S), float32]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(N + S + 768), float32]");
}

#[test]
fn arg_max_and_arg_min_give_int64_indices() {
    let kept = one(13, "ArgMax", &["x"], vec![int("axis", 1)], |_| {});
    assert_eq!(kept, "Tensor[(N, 1, 768), int64]");
    let dropped = one(
        12,
        "ArgMin",
        &["x"],
        vec![
            int("axis", -1),
            int("keepdims", 0),
            int("select_last_index", 1),
        ],
        |_| {},
    );
    assert_eq!(dropped, "Tensor[(N, S), int64]");
}

#[test]
fn arg_max_axis_out_of_range_is_an_error() {
    let mut g = Graph::new(13);
    x(&mut g);
    g.node("ArgMax", &["x"], &["y"], vec![int("axis", -4)]);
    g.output("y");
    assert_eq!(
        errors(&g),
        ["node 0 `ArgMax_0` (ArgMax): axis -4 is out of range for rank 3\n  = note: input 0 `x`: `Tensor[(N, S, 768), float32]` (here)"]
    );
}

#[test]
fn top_k_gives_values_and_int64_indices() {
    let mut g = Graph::new(11);
    x(&mut g);
    g.init_ints("k", &[1], &[5]);
    g.node("TopK", &["x", "k"], &["v", "i"], vec![int("axis", 1)]);
    g.node("TopK", &["x"], &["v1", "i1"], vec![]);
    g.output("v").output("i");
    let mut c = g.check();
    // The second node has no `K` input: an error, at opset 10 and on.
    let e: Vec<String> = c.diagnostics().iter().map(|d| d.to_string()).collect();
    assert_eq!(
        e,
        [concat!(
            "node 1 `TopK_1` (TopK): `K` is required: input 1 from opset 10 on, an attribute before\n",
            "  = note: input 0 `x`: `Tensor[(N, S, 768), float32]`"
        )]
    );
    assert_eq!(c.type_of("v").unwrap(), "Tensor[(N, 5, 768), float32]");
    assert_eq!(c.type_of("i").unwrap(), "Tensor[(N, 5, 768), int64]");

    let mut g = Graph::new(1);
    x(&mut g);
    g.node("TopK", &["x"], &["v", "i"], vec![int("k", 3)]);
    g.output("v").output("i");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("i").unwrap(), "Tensor[(N, S, 3), int64]");
}

#[test]
fn top_k_larger_than_its_axis_is_an_error() {
    let mut g = Graph::new(11);
    x(&mut g);
    g.init_ints("k", &[1], &[1000]);
    g.node("TopK", &["x", "k"], &["v", "i"], vec![]);
    g.output("v");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `TopK_0` (TopK): `K` is 1000, more than the 768 elements of axis -1 of `Tensor[(N, S, 768), float32]`"),
        "{e:?}"
    );
}

#[test]
fn non_zero_counts_a_known_value_and_is_data_dependent_otherwise() {
    let mut g = Graph::new(13);
    g.input("m", D::F32, &[D::p("N"), D::v(3)]);
    g.init_ints("c", &[2, 2], &[1, 0, 3, 4]);
    g.node("NonZero", &["m"], &["y"], vec![]);
    g.node("NonZero", &["c"], &["z"], vec![]);
    g.output("y").output("z");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(2, NonZero_0), int64]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(2, 3), int64]");
}

#[test]
fn unique_gives_four_outputs() {
    let mut g = Graph::new(11);
    x(&mut g);
    g.node(
        "Unique",
        &["x"],
        &["y", "idx", "inv", "counts"],
        vec![int("axis", 2)],
    );
    g.node("Unique", &["x"], &["flat", "i2", "inv2"], vec![]);
    g.init_ints("ids", &[2, 2], &[3, 1, 3, 2]);
    g.node("Unique", &["ids"], &["known"], vec![]);
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, S, Unique_0), float32]");
    assert_eq!(c.type_of("idx").unwrap(), "Tensor[(Unique_0), int64]");
    assert_eq!(c.type_of("inv").unwrap(), "Tensor[(768), int64]");
    assert_eq!(c.type_of("counts").unwrap(), "Tensor[(Unique_0), int64]");
    assert_eq!(c.type_of("flat").unwrap(), "Tensor[(Unique_1), float32]");
    assert_eq!(c.type_of("inv2").unwrap(), "Tensor[(768*N*S), int64]");
    assert_eq!(c.type_of("known").unwrap(), "Tensor[(3), int64]");
}

#[test]
fn compress_by_a_known_condition() {
    let mut g = Graph::new(11);
    g.input("m", D::F32, &[D::p("N"), D::v(3)]);
    g.init(bool_tensor("cond", &[true, false, true]));
    g.node("Compress", &["m", "cond"], &["y"], vec![int("axis", 1)]);
    g.node("Compress", &["m", "cond"], &["flat"], vec![]);
    g.output("y").output("flat");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 2), float32]");
    assert_eq!(c.type_of("flat").unwrap(), "Tensor[(Compress_1), float32]");
}

#[test]
fn non_max_suppression_selects_triples() {
    let mut g = Graph::new(11);
    g.input("boxes", D::F32, &[D::p("B"), D::p("K"), D::v(4)]);
    g.input("scores", D::F32, &[D::p("B"), D::v(80), D::p("K")]);
    g.init_ints("max", &[1], &[10]);
    g.node(
        "NonMaxSuppression",
        &["boxes", "scores", "max"],
        &["y"],
        vec![],
    );
    g.output("y");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(
        c.type_of("y").unwrap(),
        "Tensor[(NonMaxSuppression_0, 3), int64]"
    );
}

#[test]
fn one_hot_inserts_the_depth_at_axis() {
    let t = one(
        11,
        "OneHot",
        &["i", "depth", "values"],
        vec![int("axis", 1)],
        |g| {
            g.input("i", D::I64, &[D::p("N"), D::p("S")]);
            g.init_ints("depth", &[], &[10]);
            g.input("values", D::I32, &[D::v(2)]);
        },
    );
    assert_eq!(t, "Tensor[(N, 10, S), int32]");
    let t = one(11, "OneHot", &["i", "depth", "values"], vec![], |g| {
        g.input("i", D::I64, &[D::p("N")]);
        g.init(f32_tensor("depth", &[], &[12.0]));
        g.input("values", D::F32, &[D::v(2)]);
    });
    assert_eq!(t, "Tensor[(N, 12), float32]");
}

#[test]
fn gather_elements_and_gather_nd() {
    let t = one(
        13,
        "GatherElements",
        &["x", "i"],
        vec![int("axis", 2)],
        |g| {
            g.input("i", D::I64, &[D::p("N"), D::p("S"), D::v(5)]);
        },
    );
    assert_eq!(t, "Tensor[(N, S, 5), float32]");
    let t = one(
        12,
        "GatherND",
        &["x", "i"],
        vec![int("batch_dims", 1)],
        |g| {
            g.input("i", D::I64, &[D::p("N"), D::v(7), D::v(1)]);
        },
    );
    assert_eq!(t, "Tensor[(N, 7, 768), float32]");
    let t = one(11, "GatherND", &["x", "i"], vec![], |g| {
        g.input("i", D::I64, &[D::v(4), D::v(2)]);
    });
    assert_eq!(t, "Tensor[(4, 768), float32]");
}

#[test]
fn gather_nd_indexing_too_deep_is_an_error() {
    let mut g = Graph::new(12);
    x(&mut g);
    g.input("i", D::I64, &[D::v(4), D::v(4)]);
    g.node("GatherND", &["x", "i"], &["y"], vec![]);
    g.output("y");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `GatherND_0` (GatherND): the last dimension of `indices` is 4, and must be between 1 and 3"),
        "{e:?}"
    );
}

#[test]
fn generators_take_their_shape_and_dtype() {
    let mut g = Graph::new(22);
    g.input("m", D::F32, &[D::p("N"), D::p("M")]);
    g.node("EyeLike", &["m"], &["eye"], vec![int("dtype", 7)]);
    g.node("RandomUniformLike", &["m"], &["u"], vec![]);
    g.node("Bernoulli", &["m"], &["b"], vec![int("dtype", 9)]);
    g.node(
        "RandomNormal",
        &[],
        &["r"],
        vec![ints("shape", &[2, 3]), int("dtype", 11)],
    );
    g.node("Multinomial", &["m"], &["s"], vec![int("sample_size", 4)]);
    g.output("eye");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("eye").unwrap(), "Tensor[(N, M), int64]");
    assert_eq!(c.type_of("u").unwrap(), "Tensor[(N, M), float32]");
    assert_eq!(c.type_of("b").unwrap(), "Tensor[(N, M), bool]");
    assert_eq!(c.type_of("r").unwrap(), "Tensor[(2, 3), float64]");
    assert_eq!(c.type_of("s").unwrap(), "Tensor[(N, 4), int32]");
}

#[test]
fn quantize_and_dequantize() {
    let mut g = Graph::new(21);
    x(&mut g);
    g.input("scale", D::F32, &[]);
    g.input("zp", 3, &[]); // int8
    g.node("QuantizeLinear", &["x", "scale", "zp"], &["q"], vec![]);
    g.node("QuantizeLinear", &["x", "scale"], &["q8"], vec![]);
    g.node(
        "QuantizeLinear",
        &["x", "scale"],
        &["q16"],
        vec![int("output_dtype", 5)],
    );
    g.node("DequantizeLinear", &["q", "scale", "zp"], &["d"], vec![]);
    g.node("DynamicQuantizeLinear", &["x"], &["y", "ys", "yz"], vec![]);
    g.output("d");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("q").unwrap(), "Tensor[(N, S, 768), int8]");
    assert_eq!(c.type_of("q8").unwrap(), "Tensor[(N, S, 768), uint8]");
    assert_eq!(c.type_of("q16").unwrap(), "Tensor[(N, S, 768), int16]");
    assert_eq!(c.type_of("d").unwrap(), "Tensor[(N, S, 768), float32]");
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, S, 768), uint8]");
    assert_eq!(c.type_of("ys").unwrap(), "float32");
    assert_eq!(c.type_of("yz").unwrap(), "uint8");
}

#[test]
fn losses_reduce_or_keep_the_labels_shape() {
    let mut g = Graph::new(13);
    g.input("scores", D::F32, &[D::p("N"), D::v(5), D::p("T")]);
    g.input("labels", D::I64, &[D::p("N"), D::p("T")]);
    g.input("w", D::F32, &[D::v(5)]);
    g.node(
        "SoftmaxCrossEntropyLoss",
        &["scores", "labels", "w"],
        &["loss", "log_prob"],
        vec![string("reduction", "none")],
    );
    g.node(
        "NegativeLogLikelihoodLoss",
        &["scores", "labels"],
        &["nll"],
        vec![],
    );
    g.output("loss");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("loss").unwrap(), "Tensor[(N, T), float32]");
    assert_eq!(c.type_of("log_prob").unwrap(), "Tensor[(N, 5, T), float32]");
    assert_eq!(c.type_of("nll").unwrap(), "float32");
}

#[test]
fn loss_with_labels_of_the_wrong_rank_is_an_error() {
    let mut g = Graph::new(13);
    g.input("scores", D::F32, &[D::p("N"), D::v(5)]);
    g.input("labels", D::I64, &[D::p("N"), D::v(5)]);
    g.node(
        "SoftmaxCrossEntropyLoss",
        &["scores", "labels"],
        &["loss"],
        vec![],
    );
    g.output("loss");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `SoftmaxCrossEntropyLoss_0` (SoftmaxCrossEntropyLoss): the labels `Tensor[(N, 5), int64]` are the scores `Tensor[(N, 5), float32]` without their class axis (1)"),
        "{e:?}"
    );
}

#[test]
fn det_cumsum_reverse_sequence_keep_or_drop_matrices() {
    let mut g = Graph::new(14);
    g.input("m", D::F32, &[D::p("B"), D::v(3), D::v(3)]);
    g.init_ints("axis", &[], &[1]);
    g.input("lens", D::I64, &[D::p("B")]);
    g.node("Det", &["m"], &["det"], vec![]);
    g.node("CumSum", &["m", "axis"], &["cs"], vec![]);
    g.node(
        "ReverseSequence",
        &["m", "lens"],
        &["rs"],
        vec![int("batch_axis", 0), int("time_axis", 1)],
    );
    g.output("det");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("det").unwrap(), "Tensor[(B), float32]");
    assert_eq!(c.type_of("cs").unwrap(), "Tensor[(B, 3, 3), float32]");
    assert_eq!(c.type_of("rs").unwrap(), "Tensor[(B, 3, 3), float32]");
}

#[test]
fn einsum_explicit_implicit_and_ellipsis() {
    let mut g = Graph::new(12);
    g.input("a", D::F32, &[D::p("B"), D::p("I"), D::p("J")]);
    g.input("b", D::F32, &[D::p("B"), D::p("J"), D::p("K")]);
    g.node(
        "Einsum",
        &["a", "b"],
        &["bmm"],
        vec![string("equation", "bij,bjk->bik")],
    );
    g.node(
        "Einsum",
        &["a", "b"],
        &["implicit"],
        vec![string("equation", "bij,bjk")],
    );
    g.node(
        "Einsum",
        &["a"],
        &["swap"],
        vec![string("equation", "...ij->...ji")],
    );
    g.node(
        "Einsum",
        &["a"],
        &["trace_all"],
        vec![string("equation", "...")],
    );
    g.input("m", D::F32, &[D::p("J"), D::p("K")]);
    g.input("sq", D::F32, &[D::v(4), D::v(4)]);
    g.node(
        "Einsum",
        &["a", "m"],
        &["bcast"],
        vec![string("equation", "...ij,...jk->...ik")],
    );
    g.node(
        "Einsum",
        &["sq"],
        &["diag"],
        vec![string("equation", "ii->i")],
    );
    g.node(
        "Einsum",
        &["sq", "sq"],
        &["dot"],
        vec![string("equation", "ij, ij ->")],
    );
    g.output("bmm");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("bmm").unwrap(), "Tensor[(B, I, K), float32]");
    assert_eq!(c.type_of("implicit").unwrap(), "Tensor[(I, K), float32]");
    assert_eq!(c.type_of("swap").unwrap(), "Tensor[(B, J, I), float32]");
    assert_eq!(
        c.type_of("trace_all").unwrap(),
        "Tensor[(B, I, J), float32]"
    );
    assert_eq!(c.type_of("bcast").unwrap(), "Tensor[(B, I, K), float32]");
    assert_eq!(c.type_of("diag").unwrap(), "Tensor[(4), float32]");
    assert_eq!(c.type_of("dot").unwrap(), "float32");
}

#[test]
fn einsum_with_the_wrong_operand_count_is_an_error() {
    let mut g = Graph::new(12);
    x(&mut g);
    g.node(
        "Einsum",
        &["x"],
        &["y"],
        vec![string("equation", "ij,jk->ik")],
    );
    g.output("y");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `Einsum_0` (Einsum): equation `ij,jk->ik` has 2 operands, and 1 inputs are given"),
        "{e:?}"
    );
}

#[test]
fn bitcast_keeps_the_shape_and_the_width() {
    let t = one(26, "BitCast", &["x"], vec![int("to", 6)], |_| {});
    assert_eq!(t, "Tensor[(N, S, 768), int32]");
    let mut g = Graph::new(26);
    x(&mut g);
    g.node("BitCast", &["x"], &["y"], vec![int("to", 7)]);
    g.output("y");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("node 0 `BitCast_0` (BitCast): `float32` is 32 bits wide and `int64` 64: a bit cast keeps the width"),
        "{e:?}"
    );
}

#[test]
fn signal_operators() {
    let mut g = Graph::new(20);
    g.init_ints("size", &[], &[16]);
    g.node(
        "HannWindow",
        &["size"],
        &["w"],
        vec![int("output_datatype", 11)],
    );
    g.input("sig", D::F32, &[D::p("B"), D::v(128), D::v(1)]);
    g.init_ints("step", &[], &[8]);
    g.node("STFT", &["sig", "step", "w"], &["spec"], vec![]);
    g.input("s", D::F32, &[D::p("B"), D::p("T"), D::v(1)]);
    g.init_ints("axis", &[], &[1]);
    g.node("DFT", &["s", "", "axis"], &["f"], vec![]);
    g.node("DFT", &["s", "", "axis"], &["rf"], vec![int("onesided", 1)]);
    g.init_ints("mels", &[], &[8])
        .init_ints("n_fft", &[], &[16]);
    g.init_ints("rate", &[], &[8000]);
    g.input("lo", D::F32, &[]).input("hi", D::F32, &[]);
    g.node(
        "MelWeightMatrix",
        &["mels", "n_fft", "rate", "lo", "hi"],
        &["mel"],
        vec![],
    );
    g.output("spec");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("w").unwrap(), "Tensor[(16), float64]");
    assert_eq!(c.type_of("spec").unwrap(), "Tensor[(B, 15, 9, 2), float32]");
    assert_eq!(c.type_of("f").unwrap(), "Tensor[(B, T, 2), float32]");
    assert_eq!(
        c.type_of("rf").unwrap(),
        "Tensor[(B, floordiv(T, 2) + 1, 2), float32]"
    );
    assert_eq!(c.type_of("mel").unwrap(), "Tensor[(9, 8), float32]");
}

#[test]
fn tfidf_vectorizer_counts_ngram_indexes() {
    let t = one(
        9,
        "TfIdfVectorizer",
        &["t"],
        vec![
            ints("ngram_indexes", &[0, 1, 2, 3, 4, 5, 6]),
            string("mode", "TF"),
            int("min_gram_length", 2),
            int("max_gram_length", 2),
            int("max_skip_count", 0),
            ints("ngram_counts", &[0, 4]),
            ints("pool_int64s", &[2, 3, 5, 4, 5, 6, 7, 8, 6, 7]),
            float("unused", 0.0),
        ],
        |g| {
            g.input("t", D::I32, &[D::p("B"), D::v(12)]);
        },
    );
    assert_eq!(t, "Tensor[(B, 7), float32]");
}

#[test]
fn cumsum_and_nonzero_of_shape_values() {
    let mut g = Graph::new(13);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    g.init_ints("axis", &[], &[0]);
    g.node("CumSum", &["shape", "axis"], &["sums"], vec![]);
    g.node("ConstantOfShape", &["sums"], &["a"], vec![]);
    g.node(
        "CumSum",
        &["shape", "axis"],
        &["rev"],
        vec![int("exclusive", 1), int("reverse", 1)],
    );
    g.node("ConstantOfShape", &["rev"], &["b"], vec![]);
    g.init_ints("mask", &[4], &[0, 5, 0, 7]);
    g.node("NonZero", &["mask"], &["nz"], vec![]);
    g.init_ints("zero", &[1], &[0]);
    g.node("Squeeze", &["nz", "zero"], &["where"], vec![]);
    g.node("ConstantOfShape", &["where"], &["c"], vec![]);
    g.output("a").output("b").output("c");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(
        c.type_of("a").unwrap(),
        "Tensor[(N, N + S, N + S + 768), float32]"
    );
    assert_eq!(
        c.type_of("b").unwrap(),
        "Tensor[(S + 768, 768, 0), float32]"
    );
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(1, 3), float32]");
}

/// Each node over `x` (and the initializers `init` adds) is an error, never a panic;
/// the messages, one a node.
fn bad(
    opset: i64,
    cases: Vec<(&str, Vec<&str>, Vec<relay_onnx::proto::AttributeProto>)>,
    init: impl Fn(&mut Graph),
) -> Vec<String> {
    let mut out = Vec::new();
    for (op, inputs, attrs) in cases {
        let mut g = Graph::new(opset);
        x(&mut g);
        init(&mut g);
        g.node(
            op,
            &inputs,
            &["y", "y2"][..if op == "TopK" { 2 } else { 1 }],
            attrs,
        );
        g.output("y");
        let e = errors(&g);
        assert!(!e.is_empty(), "{op} {inputs:?}: no error");
        out.push(e[0].lines().next().unwrap().to_string());
    }
    out
}

#[test]
fn bad_inputs_are_errors_and_never_panics() {
    let big = i64::MAX;
    let small = i64::MIN;
    let e = bad(
        20,
        vec![
            ("ReduceSum", vec!["x", "huge"], vec![]),
            ("ReduceMean", vec!["x", "tiny"], vec![]),
            ("ArgMax", vec!["x"], vec![int("axis", big)]),
            ("ArgMin", vec!["x"], vec![int("axis", small)]),
            ("TopK", vec!["x", "neg"], vec![]),
            ("TopK", vec!["x", "huge"], vec![]),
            ("TopK", vec!["x", "two"], vec![]),
            ("OneHot", vec!["idx", "neg", "vals"], vec![]),
            (
                "OneHot",
                vec!["idx", "three", "vals"],
                vec![int("axis", big)],
            ),
            ("GatherND", vec!["x", "idx"], vec![int("batch_dims", -1)]),
            ("GatherND", vec!["x", "idx"], vec![int("batch_dims", big)]),
            ("GatherElements", vec!["x", "idx"], vec![]),
            ("RandomNormal", vec![], vec![ints("shape", &[2, -1])]),
            ("Multinomial", vec!["x"], vec![]),
            ("HannWindow", vec!["neg"], vec![]),
            ("STFT", vec!["x", "zero", "", "three"], vec![]),
            ("DFT", vec!["x", "zero"], vec![]),
            ("DFT", vec!["x", "", "huge"], vec![]),
            (
                "MelWeightMatrix",
                vec!["neg", "huge", "three", "three", "three"],
                vec![],
            ),
            ("Einsum", vec!["x"], vec![string("equation", "i..j")]),
            ("Einsum", vec!["x"], vec![string("equation", "ij")]),
            (
                "Einsum",
                vec!["x", "x"],
                vec![string("equation", "abc,abd->e")],
            ),
            (
                "Einsum",
                vec!["x", "x"],
                vec![string("equation", "abc,dbc->1")],
            ),
            (
                "QuantizeLinear",
                vec!["x", "three"],
                vec![int("output_dtype", 99)],
            ),
            ("Compress", vec!["x", "long"], vec![int("axis", 2)]),
            ("Det", vec!["x"], vec![]),
            ("Unique", vec!["x"], vec![int("axis", 3)]),
            ("NonMaxSuppression", vec!["x", "idx"], vec![]),
            ("NonMaxSuppression", vec!["x", "x"], vec![]),
            ("OneHot", vec!["idx", "three", "x"], vec![]),
            ("Einsum", vec!["x"], vec![string("equation", "abc->aa")]),
            (
                "TfIdfVectorizer",
                vec!["x"],
                vec![ints("ngram_indexes", &[big])],
            ),
            (
                "SoftmaxCrossEntropyLoss",
                vec!["x", "lab"],
                vec![string("reduction", "all")],
            ),
            ("SoftmaxCrossEntropyLoss", vec!["x", "idx"], vec![]),
            (
                "NegativeLogLikelihoodLoss",
                vec!["x", "lab", "vals"],
                vec![],
            ),
            (
                "ReverseSequence",
                vec!["x", "vals"],
                vec![int("batch_axis", 0), int("time_axis", 1)],
            ),
            (
                "ReverseSequence",
                vec!["x", "vals"],
                vec![int("batch_axis", 2)],
            ),
            ("CumSum", vec!["x", "two"], vec![]),
        ],
        |g| {
            g.init_ints("huge", &[], &[big]);
            g.init_ints("tiny", &[1], &[small]);
            g.init_ints("neg", &[], &[-3]);
            g.init_ints("zero", &[], &[0]);
            g.init_ints("three", &[], &[3]);
            g.init_ints("two", &[2], &[1, 2]);
            g.init_ints("long", &[1000], &[1; 1000]);
            g.input("idx", D::I64, &[D::v(2), D::v(3)]);
            g.input("vals", D::F32, &[D::v(2)]);
            g.input("lab", D::I64, &[D::p("N"), D::v(768)]);
        },
    );
    let expected = [
        "node 0 `ReduceSum_0` (ReduceSum): axis 9223372036854775807 is out of range for rank 3",
        "node 0 `ReduceMean_0` (ReduceMean): axis -9223372036854775808 is out of range for rank 3",
        "node 0 `ArgMax_0` (ArgMax): axis 9223372036854775807 is out of range for rank 3",
        "node 0 `ArgMin_0` (ArgMin): axis -9223372036854775808 is out of range for rank 3",
        "node 0 `TopK_0` (TopK): `K` is -3, and must not be negative",
        "node 0 `TopK_0` (TopK): `K` is 9223372036854775807, more than the 768 elements of axis -1 of `Tensor[(N, S, 768), float32]`",
        "node 0 `TopK_0` (TopK): `K` is a scalar, and has 2 elements",
        "node 0 `OneHot_0` (OneHot): `depth` is -3, and must be positive",
        "node 0 `OneHot_0` (OneHot): axis 9223372036854775807 is out of range for rank 3",
        "node 0 `GatherND_0` (GatherND): `batch_dims` is -1, and must be less than the ranks of `data` (3) and `indices` (2)",
        "node 0 `GatherND_0` (GatherND): `batch_dims` is 9223372036854775807, and must be less than the ranks of `data` (3) and `indices` (2)",
        "node 0 `GatherElements_0` (GatherElements): `indices` has rank 2, and `data` `Tensor[(N, S, 768), float32]` rank 3 (`indices` is `Tensor[(2, 3), int64]`)",
        "node 0 `RandomNormal_0` (RandomNormal): `shape` has a negative dimension -1",
        "node 0 `Multinomial_0` (Multinomial): the input is `(batch_size, class_size)`, and is `Tensor[(N, S, 768), float32]`",
        "node 0 `HannWindow_0` (HannWindow): `size` is -3, and must not be negative",
        "node 0 `STFT_0` (STFT): `frame_step` must be positive",
        "node 0 `DFT_0` (DFT): `dft_length` is 0, and must be positive",
        "node 0 `DFT_0` (DFT): axis 9223372036854775807 is out of range for rank 3",
        "node 0 `MelWeightMatrix_0` (MelWeightMatrix): `num_mel_bins` is -3, and must be positive",
        "node 0 `Einsum_0` (Einsum): `i..j`: an ellipsis is `...`, at most once a term",
        "node 0 `Einsum_0` (Einsum): operand 0 of `ij` names 2 axes, and input 0 has rank 3",
        "node 0 `Einsum_0` (Einsum): the output of `abc,abd->e` names `e`, which no operand has",
        "node 0 `Einsum_0` (Einsum): `1`: an einsum term is letters and at most one `...`",
        "node 0 `QuantizeLinear_0` (QuantizeLinear): `output_dtype` is 99, which is no ONNX data type",
        "node 0 `Compress_0` (Compress): `condition` has 1000 elements, more than the 768 it selects from",
        "node 0 `Det_0` (Det): `Det` takes square matrices, and the input is `Tensor[(N, S, 768), float32]`",
        "node 0 `Unique_0` (Unique): axis 3 is out of range for rank 3",
        "node 0 `NonMaxSuppression_0` (NonMaxSuppression): `scores` has rank 3: (batch, classes, boxes)",
        "node 0 `NonMaxSuppression_0` (NonMaxSuppression): `boxes` is `(batch, boxes, 4)`, and is `Tensor[(N, S, 768), float32]`",
        "node 0 `OneHot_0` (OneHot): `values` is `[off, on]`, and is `Tensor[(N, S, 768), float32]`",
        "node 0 `Einsum_0` (Einsum): the output of `abc->aa` names `a` twice",
        "node 0 `TfIdfVectorizer_0` (TfIdfVectorizer): the input is `(N)` or `(B, N)`, and is `Tensor[(N, S, 768), float32]`",
        "node 0 `SoftmaxCrossEntropyLoss_0` (SoftmaxCrossEntropyLoss): `reduction` is \"all\", and must be \"none\", \"mean\" or \"sum\"",
        "node 0 `SoftmaxCrossEntropyLoss_0` (SoftmaxCrossEntropyLoss): axis 0 of the labels is not axis 0 of the scores: N and 2",
        "node 0 `NegativeLogLikelihoodLoss_0` (NegativeLogLikelihoodLoss): `weights` has one element a class (axis 1 of the scores): 2 and S",
        "node 0 `ReverseSequence_0` (ReverseSequence): `sequence_lens` has one length a batch element: 2 and N",
        "node 0 `ReverseSequence_0` (ReverseSequence): `batch_axis` (2) and `time_axis` (0) are 0 and 1, in some order",
        "node 0 `CumSum_0` (CumSum): `axis` is a scalar, and is `Tensor[(2), int64]`",
    ];
    assert_eq!(e, expected);
}

#[test]
fn reduce_axes_as_an_input_before_its_opset_is_an_error() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.init_ints("axes", &[1], &[1]);
    g.node("ReduceMean", &["x", "axes"], &["y"], vec![]);
    g.output("y");
    let e = errors(&g);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with(
            "node 0 `ReduceMean_0` (ReduceMean): input 1 is given, and at this opset `axes` is an attribute"
        ),
        "{e:?}"
    );
}

#[test]
fn quantization_scales_must_fit_the_input() {
    let run = |scale: &[D], zp: Option<&[D]>, attrs: Vec<relay_onnx::proto::AttributeProto>| {
        let mut g = Graph::new(21);
        g.input("w", D::F32, &[D::v(8), D::v(6)]);
        g.input("scale", D::F32, scale);
        let mut ins = vec!["w", "scale"];
        if let Some(z) = zp {
            g.input("zp", 3, z);
            ins.push("zp");
        }
        g.node("QuantizeLinear", &ins, &["q"], attrs);
        g.output("q");
        let mut c = g.check();
        let e: Vec<String> = c
            .diagnostics()
            .iter()
            .map(|d| d.to_string().lines().next().unwrap().to_string())
            .collect();
        (e, c.type_of("q").unwrap())
    };
    // Per tensor, per axis, blocked: fine.
    for (scale, attrs) in [
        (vec![], vec![]),
        (vec![D::v(1)], vec![]),
        (vec![D::v(6)], vec![]),
        (vec![D::v(8)], vec![int("axis", 0)]),
        (
            vec![D::v(3), D::v(6)],
            vec![int("axis", 0), int("block_size", 3)],
        ),
    ] {
        let (e, t) = run(&scale, Some(&scale), attrs);
        assert_eq!(e, Vec::<String>::new());
        assert_eq!(t, "Tensor[(8, 6), int8]");
    }
    let cases = [
        (vec![D::v(8)], None, vec![]),
        (
            vec![D::v(3), D::v(6)],
            None,
            vec![int("axis", 0), int("block_size", 2)],
        ),
        (vec![D::v(6)], Some(vec![D::v(5)]), vec![]),
    ];
    let got: Vec<String> = cases
        .into_iter()
        .map(|(s, z, a)| run(&s, z.as_deref(), a).0.join("; "))
        .collect();
    assert_eq!(
        got,
        [
            "node 0 `QuantizeLinear_0` (QuantizeLinear): the scale `Tensor[(8), float32]` does not fit the input `Tensor[(8, 6), float32]`: per axis 1, it has 6 elements",
            "node 0 `QuantizeLinear_0` (QuantizeLinear): the scale `Tensor[(3, 6), float32]` does not fit the input `Tensor[(8, 6), float32]`: blocks of 2 on axis 0 make 4",
            "node 0 `QuantizeLinear_0` (QuantizeLinear): the zero point `Tensor[(5), int8]` and the scale `Tensor[(6), float32]` have different shapes",
        ]
    );
}

#[test]
fn linear_classifier_gives_labels_and_a_score_per_class() {
    let mut g = relay_onnx::build::Graph::new(13);
    g.opsets.push(("ai.onnx.ml".into(), 1));
    g.input("x", relay_onnx::build::D::F32, &[D::p("N"), D::v(4)]);
    let floats = |name: &str, n: usize| relay_onnx::proto::AttributeProto {
        name: name.to_string().into(),
        r#type: 6,
        floats: vec![0.5; n],
        ..Default::default()
    };
    g.node_in(
        "ai.onnx.ml",
        "LinearClassifier",
        &["x"],
        &["label", "scores"],
        vec![
            floats("coefficients", 12),
            floats("intercepts", 3),
            relay_onnx::build::ints("classlabels_ints", &[0, 1, 2]),
        ],
    );
    g.output("label").output("scores");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    assert_eq!(c.type_of("label").unwrap(), "Tensor[(N), int64]");
    assert_eq!(c.type_of("scores").unwrap(), "Tensor[(N, 3), float32]");
}

/// A graph of one `ai.onnx.ml` node over `x`, checked: the output's type, or the messages.
fn ml_node(
    op: &str,
    opset: i64,
    inputs: &[(&str, i32, Vec<D>)],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> Result<String, Vec<String>> {
    let mut g = relay_onnx::build::Graph::new(21);
    g.opsets.push(("ai.onnx.ml".into(), opset));
    for (n, t, d) in inputs {
        g.input(n, *t, d);
    }
    let names: Vec<&str> = inputs.iter().map(|(n, _, _)| *n).collect();
    g.node_in("ai.onnx.ml", op, &names, &["y"], attrs);
    g.output("y");
    let mut c = g.check();
    if c.diagnostics().is_empty() {
        Ok(c.type_of("y").unwrap())
    } else {
        Err(c.diagnostics().iter().map(|d| d.message.clone()).collect())
    }
}

#[test]
fn array_feature_extractor_indexes_the_last_axis() {
    let x = |d: Vec<D>| ("x", D::F32, d);
    let i = |d: Vec<D>| ("i", D::I64, d);
    let afe = |a, b| ml_node("ArrayFeatureExtractor", 1, &[a, b], vec![]);
    assert_eq!(
        afe(x(vec![D::p("N"), D::v(4)]), i(vec![D::v(2)])),
        Ok("Tensor[(N, 2), float32]".into())
    );
    // A vector gives a row, as onnxruntime does; every element of the indices counts.
    assert_eq!(
        afe(x(vec![D::v(7)]), i(vec![D::v(2), D::v(3)])),
        Ok("Tensor[(1, 6), float32]".into())
    );
    assert_eq!(
        afe(x(vec![D::v(7)]), ("i", D::I32, vec![D::v(2)])),
        Err(vec![
            "the indices are `Tensor[(2), int32]`, and must be int64".into()
        ])
    );
}

#[test]
fn tree_ensembles_give_a_value_per_target() {
    let x = |t, d: Vec<D>| vec![("x", t, d)];
    let n = |k| vec![int("n_targets", k)];
    assert_eq!(
        ml_node(
            "TreeEnsemble",
            5,
            &x(D::F64, vec![D::p("N"), D::v(2)]),
            n(2)
        ),
        Ok("Tensor[(N, 2), float64]".into())
    );
    // The older regressor always gives float32.
    assert_eq!(
        ml_node(
            "TreeEnsembleRegressor",
            3,
            &x(D::F64, vec![D::p("N"), D::v(2)]),
            n(1)
        ),
        Ok("Tensor[(N, 1), float32]".into())
    );
    assert_eq!(
        ml_node("TreeEnsemble", 5, &x(D::F32, vec![D::v(2)]), n(2)),
        Err(vec![
            "`Tensor[(2), float32]` must be `(N, F)`: a batch of feature vectors".into()
        ])
    );
    assert_eq!(
        ml_node("TreeEnsemble", 5, &x(D::F32, vec![D::v(3), D::v(2)]), n(0)),
        Err(vec!["`n_targets` is 0, and must be at least 1".into()])
    );
}

/// A graph of one node (`domain` `""` or `ai.onnx.ml`), checked: the outputs' types, or the
/// messages.
fn string_node(
    domain: &str,
    op: &str,
    inputs: &[(&str, i32, Vec<D>)],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> Result<Vec<String>, Vec<String>> {
    let mut g = relay_onnx::build::Graph::new(20);
    g.opsets.push(("ai.onnx.ml".into(), 4));
    for (n, t, d) in inputs {
        g.input(n, *t, d);
    }
    let names: Vec<&str> = inputs.iter().map(|(n, _, _)| *n).collect();
    g.node_in(domain, op, &names, outs, attrs);
    for o in outs {
        g.output(o);
    }
    let mut c = g.check();
    if c.diagnostics().is_empty() {
        Ok(outs.iter().map(|o| c.type_of(o).unwrap()).collect())
    } else {
        Err(c.diagnostics().iter().map(|d| d.message.clone()).collect())
    }
}

fn strings_attr(name: &str, v: &[&str]) -> relay_onnx::proto::AttributeProto {
    relay_onnx::proto::AttributeProto {
        name: name.to_string().into(),
        r#type: 8,
        strings: v.iter().map(|s| s.to_string().into()).collect(),
        ..Default::default()
    }
}

#[test]
fn strings_are_a_dtype_of_their_own() {
    let s = |d: Vec<D>| ("x", D::STR, d);
    assert_eq!(
        string_node(
            "",
            "StringNormalizer",
            &[s(vec![D::v(1), D::p("C")])],
            &["y"],
            vec![]
        ),
        Ok(vec!["Tensor[(1, C), string]".into()])
    );
    // Stopwords leave as many strings as the data has others: a new symbol.
    assert_eq!(
        string_node(
            "",
            "StringNormalizer",
            &[s(vec![D::p("C")])],
            &["y"],
            vec![strings_attr("stopwords", &["monday"])]
        ),
        Ok(vec!["Tensor[(StringNormalizer_0), string]".into()])
    );
    assert_eq!(
        string_node(
            "",
            "StringSplit",
            &[s(vec![D::p("N"), D::v(2)])],
            &["y", "n"],
            vec![]
        ),
        Ok(vec![
            "Tensor[(N, 2, StringSplit_0), string]".into(),
            "Tensor[(N, 2), int64]".into()
        ])
    );
    assert_eq!(
        string_node(
            "",
            "RegexFullMatch",
            &[s(vec![D::p("N")])],
            &["y"],
            vec![string("pattern", "a+")]
        ),
        Ok(vec!["Tensor[(N), bool]".into()])
    );
    let y = ("y", D::STR, vec![D::v(1)]);
    assert_eq!(
        string_node(
            "",
            "StringConcat",
            &[s(vec![D::p("N")]), y.clone()],
            &["z"],
            vec![]
        ),
        Ok(vec!["Tensor[(N), string]".into()])
    );
    assert_eq!(
        string_node(
            "",
            "StringConcat",
            &[("x", D::F32, vec![D::v(2)]), y.clone()],
            &["z"],
            vec![]
        ),
        Err(vec![
            "`Tensor[(2), float32]` must be a tensor of strings".into()
        ])
    );
    assert_eq!(
        string_node("", "Add", &[s(vec![D::v(2)]), y], &["z"], vec![]),
        Err(vec![
            "`Tensor[(2), string]`: this operator does not take strings".into()
        ])
    );
}

#[test]
fn label_encoder_maps_keys_to_values_of_their_dtype() {
    let keys = || strings_attr("keys_strings", &["a", "b"]);
    let int_keys = || ints("keys_int64s", &[0, 1]);
    let cases = [
        (
            D::STR,
            keys(),
            ints("values_int64s", &[0, 1]),
            Ok("Tensor[(N), int64]"),
        ),
        (
            D::I64,
            int_keys(),
            strings_attr("values_strings", &["a", "b"]),
            Ok("Tensor[(N), string]"),
        ),
        (
            D::I64,
            keys(),
            ints("values_int64s", &[0, 1]),
            Err("`Tensor[(N), int64]` is encoded by keys of string"),
        ),
    ];
    for (dtype, keys, values, want) in cases {
        let got = string_node(
            "ai.onnx.ml",
            "LabelEncoder",
            &[("x", dtype, vec![D::p("N")])],
            &["y"],
            vec![keys, values],
        );
        assert_eq!(
            got,
            want.map(|t| vec![t.to_string()])
                .map_err(|e| vec![e.to_string()])
        );
    }
}

#[test]
fn a_classifier_with_string_labels_gives_strings() {
    let floats = |name: &str, n: usize| relay_onnx::proto::AttributeProto {
        name: name.to_string().into(),
        r#type: 6,
        floats: vec![0.5; n],
        ..Default::default()
    };
    assert_eq!(
        string_node(
            "ai.onnx.ml",
            "LinearClassifier",
            &[("x", D::F32, vec![D::p("N"), D::v(4)])],
            &["label", "scores"],
            vec![
                floats("coefficients", 12),
                floats("intercepts", 3),
                strings_attr("classlabels_strings", &["cat", "dog", "owl"]),
            ]
        ),
        Ok(vec![
            "Tensor[(N), string]".into(),
            "Tensor[(N, 3), float32]".into()
        ])
    );
}
