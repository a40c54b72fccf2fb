//! The neural-network operators: exact (symbolic) result types, and the messages of
//! ill-shaped models.

use relay_onnx::build::{float, int, ints, string, Graph, D};

/// The messages of a checked graph's diagnostics.
fn messages(c: &relay_onnx::Checked) -> Vec<String> {
    c.diagnostics().iter().map(|d| d.message.clone()).collect()
}

/// A single-node graph over float inputs, checked: the type of each output.
fn one(
    opset: i64,
    op: &str,
    inputs: &[(&str, Vec<D>)],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> Vec<String> {
    let mut g = Graph::new(opset);
    let names: Vec<&str> = inputs.iter().map(|(n, _)| *n).collect();
    for (n, d) in inputs {
        if !n.is_empty() {
            g.input(n, D::F32, d);
        }
    }
    g.node(op, &names, outs, attrs);
    for o in outs {
        g.output(o);
    }
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    outs.iter().map(|o| c.type_of(o).unwrap()).collect()
}

/// The first error of a single-node graph over float inputs.
fn error(
    opset: i64,
    op: &str,
    inputs: &[(&str, Vec<D>)],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> String {
    let mut g = Graph::new(opset);
    let names: Vec<&str> = inputs.iter().map(|(n, _)| *n).collect();
    for (n, d) in inputs {
        g.input(n, D::F32, d);
    }
    g.node(op, &names, outs, attrs);
    for o in outs {
        g.output(o);
    }
    let c = g.check();
    let m = messages(&c);
    assert!(!m.is_empty(), "no error");
    m[0].clone()
}

fn p(s: &str) -> D {
    D::p(s)
}

fn v(n: i64) -> D {
    D::v(n)
}

// --- MatMul, Gemm ------------------------------------------------------------------------

#[test]
fn matmul_broadcasts_batches_symbolically() {
    let t = one(
        17,
        "MatMul",
        &[
            ("a", vec![p("N"), v(1), p("S"), v(64)]),
            ("b", vec![v(12), v(64), p("S")]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 12, S, S), float32]");
}

#[test]
fn matmul_drops_the_axes_of_vectors() {
    let t = one(
        13,
        "MatMul",
        &[("a", vec![v(3)]), ("b", vec![p("B"), v(3), v(5)])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(B, 5), float32]");
    let t = one(
        13,
        "MatMul",
        &[("a", vec![p("M"), v(3)]), ("b", vec![v(3)])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(M), float32]");
}

#[test]
fn matmul_with_different_inner_dimensions_is_an_error() {
    let e = error(
        13,
        "MatMul",
        &[("a", vec![p("N"), v(3)]), ("b", vec![v(4), v(5)])],
        &["y"],
        vec![],
    );
    assert_eq!(
        e,
        "cannot multiply `Tensor[(N, 3), float32]` by `Tensor[(4, 5), float32]`: the inner dimensions 3 and 4 differ"
    );
}

#[test]
fn gemm_transposes_and_broadcasts_c() {
    let t = one(
        13,
        "Gemm",
        &[
            ("a", vec![v(7), p("M")]),
            ("b", vec![p("N"), v(7)]),
            ("c", vec![v(1), p("N")]),
        ],
        &["y"],
        vec![int("transA", 1), int("transB", 1)],
    );
    assert_eq!(t[0], "Tensor[(M, N), float32]");
}

// --- Convolutions ------------------------------------------------------------------------

#[test]
fn conv_same_upper_by_stride_two_is_a_ceiling() {
    let t = one(
        11,
        "Conv",
        &[
            ("x", vec![p("N"), v(3), p("H"), p("W")]),
            ("w", vec![v(16), v(3), v(3), v(3)]),
        ],
        &["y"],
        vec![string("auto_pad", "SAME_UPPER"), ints("strides", &[2, 2])],
    );
    assert_eq!(
        t[0],
        "Tensor[(N, 16, floordiv(H + 1, 2), floordiv(W + 1, 2)), float32]"
    );
}

#[test]
fn conv_with_pads_dilations_and_groups() {
    let t = one(
        11,
        "Conv",
        &[
            ("x", vec![p("N"), v(8), v(10), p("L")]),
            ("w", vec![v(4), v(2), v(3), v(3)]),
            ("b", vec![v(4)]),
        ],
        &["y"],
        vec![
            ints("pads", &[1, 0, 1, 0]),
            ints("dilations", &[2, 2]),
            int("group", 4),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 4, 8, L - 4), float32]");
    let t = one(
        11,
        "Conv",
        &[("x", vec![v(1), v(2), v(9)]), ("w", vec![v(5), v(2), v(3)])],
        &["y"],
        vec![ints("strides", &[2])],
    );
    assert_eq!(t[0], "Tensor[(1, 5, 4), float32]");
}

#[test]
fn conv_kernel_larger_than_the_input_is_an_error() {
    let e = error(
        11,
        "Conv",
        &[
            ("x", vec![v(1), v(1), v(4), v(4)]),
            ("w", vec![v(1), v(1), v(5), v(5)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(
        e,
        "kernel of 5 on axis 2 is larger than the padded input (4)"
    );
}

#[test]
fn conv_channels_must_match_the_weight() {
    let e = error(
        11,
        "Conv",
        &[
            ("x", vec![v(1), v(3), v(4), v(4)]),
            ("w", vec![v(8), v(2), v(1), v(1)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(e, "the input has 3 channels, and the weight takes 2");
}

#[test]
fn grouped_conv_channels_name_the_groups() {
    let e = error(
        11,
        "Conv",
        &[
            ("x", vec![v(1), v(6), v(4), v(4)]),
            ("w", vec![v(8), v(2), v(1), v(1)]),
        ],
        &["y"],
        vec![int("group", 2)],
    );
    assert_eq!(
        e,
        "the input has 6 channels, and the weight takes 2 per group × 2 groups = 4"
    );
}

#[test]
fn conv_transpose_output_size() {
    let t = one(
        11,
        "ConvTranspose",
        &[
            ("x", vec![p("N"), v(1), p("H"), v(3)]),
            ("w", vec![v(1), v(2), v(3), v(3)]),
        ],
        &["y"],
        vec![ints("strides", &[3, 2]), ints("output_padding", &[1, 1])],
    );
    assert_eq!(t[0], "Tensor[(N, 2, 3*H + 1, 8), float32]");
}

// --- Pools ------------------------------------------------------------------------------

#[test]
fn max_pool_with_indices_and_ceil_mode() {
    let t = one(
        12,
        "MaxPool",
        &[("x", vec![p("N"), v(3), v(5), v(5)])],
        &["y", "i"],
        vec![
            ints("kernel_shape", &[2, 2]),
            ints("strides", &[2, 2]),
            int("ceil_mode", 1),
        ],
    );
    assert_eq!(
        t,
        [
            "Tensor[(N, 3, 3, 3), float32]",
            "Tensor[(N, 3, 3, 3), int64]"
        ]
    );
}

#[test]
fn average_pool_symbolic_and_global_pools() {
    let t = one(
        11,
        "AveragePool",
        &[("x", vec![p("N"), v(3), p("H")])],
        &["y"],
        vec![
            ints("kernel_shape", &[3]),
            ints("strides", &[2]),
            ints("pads", &[1, 1]),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 3, floordiv(H + 1, 2)), float32]");
    let t = one(
        11,
        "GlobalMaxPool",
        &[("x", vec![p("N"), v(3), p("H"), p("W")])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 3, 1, 1), float32]");
}

// --- Normalizations, softmax, dropout ------------------------------------------------------

#[test]
fn layer_normalization_gives_mean_and_inv_std_dev() {
    let t = one(
        17,
        "LayerNormalization",
        &[
            ("x", vec![p("N"), p("S"), v(768)]),
            ("s", vec![v(768)]),
            ("b", vec![v(768)]),
        ],
        &["y", "mean", "inv"],
        vec![int("axis", -1)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(N, S, 768), float32]",
            "Tensor[(N, S, 1), float32]",
            "Tensor[(N, S, 1), float32]"
        ]
    );
}

#[test]
fn batch_normalization_in_training_gives_running_stats() {
    let c = || vec![v(3)];
    let t = one(
        15,
        "BatchNormalization",
        &[
            ("x", vec![p("N"), v(3), p("H")]),
            ("s", c()),
            ("b", c()),
            ("m", c()),
            ("var", c()),
        ],
        &["y", "rm", "rv"],
        vec![int("training_mode", 1)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(N, 3, H), float32]",
            "Tensor[(3), float32]",
            "Tensor[(3), float32]"
        ]
    );
}

#[test]
fn softmax_keeps_the_shape_and_checks_the_axis() {
    let t = one(
        13,
        "LogSoftmax",
        &[("x", vec![p("N"), v(10)])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 10), float32]");
    let e = error(
        11,
        "Softmax",
        &[("x", vec![p("N"), v(10)])],
        &["y"],
        vec![int("axis", 2)],
    );
    assert_eq!(
        e,
        "`axis` 2 is out of range for `Tensor[(N, 10), float32]` (rank 2)"
    );
}

#[test]
fn dropout_mask_is_bool() {
    let t = one(
        13,
        "Dropout",
        &[("x", vec![p("N"), v(10)])],
        &["y", "m"],
        vec![],
    );
    assert_eq!(t, ["Tensor[(N, 10), float32]", "Tensor[(N, 10), bool]"]);
}

// --- Resize -------------------------------------------------------------------------------

#[test]
fn resize_by_sizes_and_by_scales() {
    let mut g = Graph::new(19);
    g.input("x", D::F32, &[p("N"), v(3), v(4), v(6)]);
    g.init_ints("sizes", &[2], &[8, 9]);
    g.node(
        "Resize",
        &["x", "", "", "sizes"],
        &["y"],
        vec![ints("axes", &[2, 3])],
    );
    g.node(
        "Resize",
        &["x", "", "", "sizes"],
        &["z"],
        vec![
            ints("axes", &[2, 3]),
            string("keep_aspect_ratio_policy", "not_larger"),
        ],
    );
    g.output("y").output("z");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3, 8, 9), float32]");
    assert_eq!(c.type_of("z").unwrap(), "Tensor[(N, 3, 6, 9), float32]");
    let t = one(
        7,
        "Upsample",
        &[("x", vec![p("N"), v(3), p("H"), v(5)])],
        &["y"],
        vec![relay_onnx::build::floats("scales", &[1.0, 1.0, 2.0, 0.5])],
    );
    assert_eq!(t[0], "Tensor[(N, 3, 2*H, 2), float32]");
}

// --- Attention ----------------------------------------------------------------------------

#[test]
fn attention_3d_with_past_gives_present_key_and_value() {
    let t = one(
        23,
        "Attention",
        &[
            ("q", vec![p("B"), p("S"), v(8 * 64)]),
            ("k", vec![p("B"), p("S"), v(2 * 64)]),
            ("v", vec![p("B"), p("S"), v(2 * 32)]),
            ("", vec![]),
            ("pk", vec![p("B"), v(2), p("P"), v(64)]),
            ("pv", vec![p("B"), v(2), p("P"), v(32)]),
        ],
        &["y", "k2", "v2", "qk"],
        vec![int("q_num_heads", 8), int("kv_num_heads", 2)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 256), float32]",
            "Tensor[(B, 2, P + S, 64), float32]",
            "Tensor[(B, 2, P + S, 32), float32]",
            "Tensor[(B, 8, S, P + S), float32]",
        ]
    );
}

#[test]
fn grid_sample_and_lrn() {
    let t = one(
        20,
        "GridSample",
        &[
            ("x", vec![p("N"), v(3), p("H"), p("W")]),
            ("g", vec![p("N"), v(7), v(9), v(2)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 3, 7, 9), float32]");
    let t = one(
        13,
        "LRN",
        &[("x", vec![p("N"), v(3), p("H"), p("W")])],
        &["y"],
        vec![int("size", 3), float("alpha", 0.001)],
    );
    assert_eq!(t[0], "Tensor[(N, 3, H, W), float32]");
}

/// Prints the diagnostics of the models listed in the file `$NN_MODELS` (one path a
/// line), and every binding when it lists one model (a debugging aid).
#[test]
#[ignore]
fn dump_models() {
    let Ok(list) = std::env::var("NN_MODELS") else {
        return;
    };
    let paths: Vec<String> = std::fs::read_to_string(list)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(mut c) = relay_onnx::check::check_bytes(bytes.into()) else {
            println!("{path}: unreadable");
            continue;
        };
        if paths.len() == 1 {
            for (n, t) in c.bindings() {
                println!("{n}: {t}");
            }
        }
        println!("{path}: {}", c.signature());
        for d in c.diagnostics() {
            println!("  {d}");
        }
    }
}

// --- Quantized and integer variants -------------------------------------------------------

#[test]
fn integer_and_quantized_matmul_and_conv_dtypes() {
    let mut g = Graph::new(21);
    g.input("a", D::U8, &[p("N"), v(4)]);
    g.input("b", D::U8, &[v(4), v(2)]);
    g.node("MatMulInteger", &["a", "b"], &["mi"], vec![]);
    g.input("x", D::U8, &[p("N"), v(2), p("H"), p("W")]);
    g.input("w", D::U8, &[v(6), v(2), v(3), v(3)]);
    g.input("s", D::F32, &[]);
    g.input("z", D::U8, &[]);
    g.node(
        "ConvInteger",
        &["x", "w"],
        &["ci"],
        vec![ints("pads", &[1, 1, 1, 1])],
    );
    g.node(
        "QLinearConv",
        &["x", "s", "z", "w", "s", "z", "s", "z"],
        &["qc"],
        vec![],
    );
    g.input("m", D::U8, &[p("N"), p("K")]);
    g.input("n", D::U8, &[p("K"), v(3)]);
    g.node(
        "QLinearMatMul",
        &["m", "s", "z", "n", "s", "z", "s", "z"],
        &["qm"],
        vec![],
    );
    g.output("mi").output("ci").output("qc").output("qm");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("mi").unwrap(), "Tensor[(N, 2), int32]");
    assert_eq!(c.type_of("ci").unwrap(), "Tensor[(N, 6, H, W), int32]");
    assert_eq!(
        c.type_of("qc").unwrap(),
        "Tensor[(N, 6, H - 2, W - 2), uint8]"
    );
    assert_eq!(c.type_of("qm").unwrap(), "Tensor[(N, 3), uint8]");
}

// --- Regions, unpooling, image operators --------------------------------------------------

#[test]
fn roi_pools_and_max_unpool() {
    let t = one(
        16,
        "RoiAlign",
        &[
            ("x", vec![p("N"), v(8), p("H"), p("W")]),
            ("r", vec![p("R"), v(4)]),
            ("i", vec![p("R")]),
        ],
        &["y"],
        vec![int("output_height", 5), int("output_width", 7)],
    );
    assert_eq!(t[0], "Tensor[(R, 8, 5, 7), float32]");
    let t = one(
        11,
        "MaxRoiPool",
        &[
            ("x", vec![p("N"), v(8), p("H"), p("W")]),
            ("r", vec![p("R"), v(5)]),
        ],
        &["y"],
        vec![ints("pooled_shape", &[2, 3])],
    );
    assert_eq!(t[0], "Tensor[(R, 8, 2, 3), float32]");
    let t = one(
        11,
        "MaxUnpool",
        &[
            ("x", vec![p("N"), v(8), p("H"), v(3)]),
            ("i", vec![p("N"), v(8), p("H"), v(3)]),
        ],
        &["y"],
        vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])],
    );
    assert_eq!(t[0], "Tensor[(N, 8, 2*H, 6), float32]");
    let mut g = Graph::new(11);
    g.input("x", D::F32, &[p("N"), v(8), v(2), v(2)]);
    g.input("i", D::I64, &[p("N"), v(8), v(2), v(2)]);
    g.init_ints("shape", &[4], &[1, 8, 5, 5]);
    g.node(
        "MaxUnpool",
        &["x", "i", "shape"],
        &["y"],
        vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])],
    );
    g.output("y");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(1, 8, 5, 5), float32]");
}

#[test]
fn depth_to_space_and_space_to_depth() {
    let t = one(
        13,
        "DepthToSpace",
        &[("x", vec![p("N"), v(8), p("H"), v(3)])],
        &["y"],
        vec![int("blocksize", 2), string("mode", "CRD")],
    );
    assert_eq!(t[0], "Tensor[(N, 2, 2*H, 6), float32]");
    let t = one(
        13,
        "SpaceToDepth",
        &[("x", vec![p("N"), v(2), v(4), v(6)])],
        &["y"],
        vec![int("blocksize", 2)],
    );
    assert_eq!(t[0], "Tensor[(N, 8, 2, 3), float32]");
}

#[test]
fn col2im_affine_grid_and_center_crop_pad() {
    let mut g = Graph::new(20);
    g.input("x", D::F32, &[p("N"), v(12), p("L")]);
    g.init_ints("img", &[2], &[5, 6])
        .init_ints("blk", &[2], &[2, 2]);
    g.node("Col2Im", &["x", "img", "blk"], &["y"], vec![]);
    g.input("theta", D::F32, &[p("N"), v(2), v(3)]);
    g.init_ints("size", &[4], &[4, 3, 7, 9]);
    g.node("AffineGrid", &["theta", "size"], &["grid"], vec![]);
    g.input("im", D::F32, &[p("H"), p("W"), v(3)]);
    g.init_ints("crop", &[2], &[10, 12]);
    g.node(
        "CenterCropPad",
        &["im", "crop"],
        &["c"],
        vec![ints("axes", &[0, 1])],
    );
    g.output("y").output("grid").output("c");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3, 5, 6), float32]");
    assert_eq!(c.type_of("grid").unwrap(), "Tensor[(4, 7, 9, 2), float32]");
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(10, 12, 3), float32]");
}

// --- More normalizations, softmax defaults, pools --------------------------------------------

#[test]
fn instance_and_rms_normalization_check_their_scales() {
    let t = one(
        23,
        "RMSNormalization",
        &[("x", vec![p("N"), p("S"), v(64)]), ("s", vec![v(64)])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, S, 64), float32]");
    let e = error(
        11,
        "InstanceNormalization",
        &[
            ("x", vec![p("N"), v(3), p("H")]),
            ("s", vec![v(4)]),
            ("b", vec![v(3)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(
        e,
        "`Tensor[(4), float32]` does not broadcast to the normalized axes (3)"
    );
}

#[test]
fn hardmax_before_13_defaults_to_axis_1() {
    let e = error(11, "Hardmax", &[("x", vec![p("N")])], &["y"], vec![]);
    assert_eq!(
        e,
        "`axis` 1 is out of range for `Tensor[(N), float32]` (rank 1)"
    );
    let t = one(13, "Hardmax", &[("x", vec![p("N")])], &["y"], vec![]);
    assert_eq!(t[0], "Tensor[(N), float32]");
}

#[test]
fn lp_pool_3d_and_global_lp_pool() {
    let t = one(
        18,
        "LpPool",
        &[("x", vec![p("N"), v(2), v(8), p("H"), v(8)])],
        &["y"],
        vec![
            ints("kernel_shape", &[3, 3, 3]),
            string("auto_pad", "VALID"),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 2, 6, H - 2, 6), float32]");
    let t = one(
        2,
        "GlobalLpPool",
        &[("x", vec![p("N"), v(2), v(8)])],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 2, 1), float32]");
}

#[test]
fn deform_conv_and_causal_conv_with_state() {
    let t = one(
        19,
        "DeformConv",
        &[
            ("x", vec![p("N"), v(2), v(5), v(5)]),
            ("w", vec![v(4), v(2), v(3), v(3)]),
            ("o", vec![p("N"), v(18), v(3), v(3)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(N, 4, 3, 3), float32]");
    let t = one(
        27,
        "CausalConvWithState",
        &[
            ("x", vec![p("B"), v(16), p("L")]),
            ("w", vec![v(16), v(1), v(4)]),
        ],
        &["y", "state"],
        vec![],
    );
    assert_eq!(
        t,
        ["Tensor[(B, 16, L), float32]", "Tensor[(B, 16, 3), float32]"]
    );
}

#[test]
fn linear_attention_with_grouped_heads() {
    let t = one(
        27,
        "LinearAttention",
        &[
            ("q", vec![p("B"), p("T"), v(4 * 16)]),
            ("k", vec![p("B"), p("T"), v(2 * 16)]),
            ("v", vec![p("B"), p("T"), v(2 * 8)]),
        ],
        &["y", "state"],
        vec![int("q_num_heads", 4), int("kv_num_heads", 2)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, T, 32), float32]",
            "Tensor[(B, 2, 16, 8), float32]"
        ]
    );
}

// --- Bad attributes are errors, not panics ---------------------------------------------------

#[test]
fn bad_window_attributes_are_errors() {
    let x = || vec![p("N"), v(3), v(8), v(8)];
    let w = || vec![v(4), v(3), v(3), v(3)];
    let cases: Vec<(Vec<relay_onnx::proto::AttributeProto>, &str)> = vec![
        (
            vec![ints("strides", &[0, 1])],
            "`strides` has 0, and each must be at least 1",
        ),
        (
            vec![ints("strides", &[1, 1, 1])],
            "`strides` has 3 values for 2 spatial axes",
        ),
        (
            vec![ints("pads", &[1, 1])],
            "`pads` has 2 values for 2 spatial axes (it takes 4)",
        ),
        (
            vec![ints("pads", &[-1, 0, 0, 0])],
            "`pads` has -1, and a pad is at least 0",
        ),
        (vec![int("group", 0)], "`group` is 0, and it is at least 1"),
        (
            vec![ints("dilations", &[-2, 1])],
            "`dilations` has -2, and each must be at least 1",
        ),
        (
            vec![string("auto_pad", "SAME")],
            "`auto_pad` is \"SAME\"; it is one of NOTSET, SAME_UPPER, SAME_LOWER, VALID",
        ),
        (
            vec![ints("kernel_shape", &[3, 2])],
            "`kernel_shape` is 2 on axis 3, and the weight's is 3",
        ),
    ];
    for (attrs, msg) in cases {
        assert_eq!(
            error(11, "Conv", &[("x", x()), ("w", w())], &["y"], attrs),
            msg
        );
    }
    assert_eq!(
        error(
            11,
            "MaxPool",
            &[("x", x())],
            &["y"],
            vec![ints("kernel_shape", &[i64::MAX, 1])]
        ),
        format!(
            "kernel of {} on axis 2 is larger than the padded input (8)",
            i64::MAX
        )
    );
    assert_eq!(
        error(
            11,
            "Gemm",
            &[("a", vec![v(2), v(3), v(4)]), ("b", vec![v(4), v(5)])],
            &["y"],
            vec![]
        ),
        "`Gemm` takes matrices, and operand 0 is `Tensor[(2, 3, 4), float32]`"
    );
    assert_eq!(
        error(11, "Conv", &[("x", vec![p("N"), v(3)]), ("w", vec![v(4), v(3)])], &["y"], vec![]),
        "a convolution takes `(N, C, D1, ..)` with at least one spatial axis, and the input is `Tensor[(N, 3), float32]`"
    );
}

#[test]
fn attention_4d_grouped_query_and_its_errors() {
    let t = one(
        23,
        "Attention",
        &[
            ("q", vec![p("B"), v(8), p("S"), v(64)]),
            ("k", vec![p("B"), v(2), p("L"), v(64)]),
            ("v", vec![p("B"), v(2), p("L"), v(32)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(B, 8, S, 32), float32]");
    let e = error(
        23,
        "Attention",
        &[
            ("q", vec![p("B"), v(8), p("S"), v(64)]),
            ("k", vec![p("B"), v(3), p("L"), v(64)]),
            ("v", vec![p("B"), v(3), p("L"), v(32)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(
        e,
        "8 query heads are not a multiple of 3 key and value heads"
    );
    let e = error(
        23,
        "Attention",
        &[
            ("q", vec![p("B"), p("S"), v(8 * 64)]),
            ("k", vec![p("B"), p("L"), v(2 * 32)]),
            ("v", vec![p("B"), p("L"), v(2 * 32)]),
        ],
        &["y"],
        vec![int("q_num_heads", 8), int("kv_num_heads", 2)],
    );
    assert_eq!(e, "`K`'s head size is 32, and `Q`'s is 64");
}

/// Extreme attribute values never panic (overflow is checked): each combination is
/// typed or reported.
#[test]
fn extreme_attributes_do_not_panic() {
    let vals = [i64::MIN, -1, 0, 1, 2, i64::MAX];
    let x = || vec![p("N"), v(3), v(8), p("W")];
    let w = || vec![v(4), v(3), v(3), v(3)];
    for &a in &vals {
        for &b in &vals {
            for name in [
                "strides",
                "dilations",
                "kernel_shape",
                "output_padding",
                "output_shape",
            ] {
                for op in [
                    "Conv",
                    "ConvTranspose",
                    "MaxPool",
                    "AveragePool",
                    "MaxUnpool",
                ] {
                    let mut attrs = vec![ints(name, &[a, b])];
                    if name != "kernel_shape" {
                        attrs.push(ints("kernel_shape", &[3, 3]));
                    }
                    attrs.push(ints("pads", &[a.max(0), b.max(0), 0, 1]));
                    attrs.push(int("ceil_mode", 1));
                    let mut g = Graph::new(19);
                    g.input("x", D::F32, &x());
                    g.input("w", D::F32, &w());
                    let ins: &[&str] = if op.starts_with("Conv") || op == "MaxUnpool" {
                        &["x", "w"]
                    } else {
                        &["x"]
                    };
                    g.node(op, ins, &["y"], attrs);
                    g.output("y");
                    let _ = g.check();
                }
            }
            let mut g = Graph::new(19);
            g.input("x", D::F32, &x());
            g.init_ints("sizes", &[2], &[a, b]);
            g.node(
                "Resize",
                &["x", "", "", "sizes"],
                &["y"],
                vec![
                    ints("axes", &[2, 3]),
                    string("keep_aspect_ratio_policy", "not_smaller"),
                ],
            );
            g.input("c", D::F32, &[v(2), v(12), v(9)]);
            g.init_ints("img", &[2], &[a, b])
                .init_ints("blk", &[2], &[b, a]);
            g.node("Col2Im", &["c", "img", "blk"], &["z"], vec![]);
            g.output("y").output("z");
            let _ = g.check();
            for op in ["Attention", "LinearAttention"] {
                let mut g = Graph::new(27);
                for n in ["q", "k", "v"] {
                    g.input(n, D::F32, &[v(2), v(4), v(16)]);
                }
                g.node(
                    op,
                    &["q", "k", "v"],
                    &["y"],
                    vec![int("q_num_heads", a), int("kv_num_heads", b)],
                );
                g.output("y");
                let _ = g.check();
            }
        }
    }
}

#[test]
fn negative_sizes_are_errors() {
    let mut g = Graph::new(19);
    g.input("x", D::F32, &[p("N"), v(3), v(4), v(6)]);
    g.init_ints("sizes", &[2], &[-8, 9]);
    g.node(
        "Resize",
        &["x", "", "", "sizes"],
        &["y"],
        vec![ints("axes", &[2, 3])],
    );
    g.output("y");
    let c = g.check();
    assert_eq!(messages(&c), ["`sizes` has -8, and a size is at least 0"]);
    let e = error(
        11,
        "MaxUnpool",
        &[
            ("x", vec![p("N"), v(8), v(1), v(3)]),
            ("i", vec![p("N"), v(8), v(1), v(3)]),
        ],
        &["y"],
        vec![ints("kernel_shape", &[2, 2]), ints("pads", &[2, 0, 1, 0])],
    );
    assert_eq!(
        e,
        "axis 2 of the result would be -1: the padding is larger than the output"
    );
}

#[test]
fn too_many_outputs_is_an_error() {
    let e = error(
        13,
        "Dropout",
        &[("x", vec![p("N")])],
        &["y", "m", "extra"],
        vec![],
    );
    assert_eq!(
        e,
        "the node has 3 outputs, and the operator gives at most 2"
    );
}

#[test]
fn ceil_mode_on_a_symbolic_axis_is_exact_only_when_no_window_starts_in_the_padding() {
    let t = one(
        12,
        "MaxPool",
        &[("x", vec![p("N"), v(3), p("H"), p("W")])],
        &["y"],
        vec![
            ints("kernel_shape", &[3, 1]),
            ints("strides", &[2, 4]),
            ints("pads", &[1, 0, 1, 0]),
            int("ceil_mode", 1),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 3, floordiv(H, 2) + 1, ?), float32]");
}

#[test]
fn sizes_computed_from_data_keep_the_rank() {
    let mut g = Graph::new(20);
    g.input("x", D::F32, &[p("N"), v(3), v(4), v(6)]);
    g.input("sizes", D::I64, &[v(2)]);
    g.node(
        "Resize",
        &["x", "", "", "sizes"],
        &["y"],
        vec![ints("axes", &[2, 3])],
    );
    g.input("theta", D::F32, &[p("N"), v(3), v(4)]);
    g.input("size", D::I64, &[v(5)]);
    g.node("AffineGrid", &["theta", "size"], &["grid"], vec![]);
    g.node(
        "CenterCropPad",
        &["x", "sizes"],
        &["c"],
        vec![ints("axes", &[1, 2])],
    );
    g.output("y").output("grid").output("c");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3, ?, ?), float32]");
    assert_eq!(
        c.type_of("grid").unwrap(),
        "Tensor[(N, ?, ?, ?, 3), float32]"
    );
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(N, ?, ?, 6), float32]");
}

#[test]
fn rotary_embedding_checks_its_caches() {
    let t = one(
        23,
        "RotaryEmbedding",
        &[
            ("x", vec![p("B"), p("S"), v(4 * 16)]),
            ("c", vec![p("P"), v(8)]),
            ("s", vec![p("P"), v(8)]),
            ("pos", vec![p("B"), p("S")]),
        ],
        &["y"],
        vec![int("num_heads", 4)],
    );
    assert_eq!(t[0], "Tensor[(B, S, 64), float32]");
    let e = error(
        23,
        "RotaryEmbedding",
        &[
            ("x", vec![p("B"), v(4), p("S"), v(16)]),
            ("c", vec![p("B"), p("S"), v(4)]),
            ("s", vec![p("B"), p("S"), v(4)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(e, "`cos_cache` is `Tensor[(B, S, 4), float32]`; its last axis is half the 16 rotated elements");
}

#[test]
fn group_normalization_scales_per_group_then_per_channel() {
    let x = || vec![p("N"), v(6), p("H")];
    let t = one(
        18,
        "GroupNormalization",
        &[("x", x()), ("s", vec![v(3)]), ("b", vec![v(3)])],
        &["y"],
        vec![int("num_groups", 3)],
    );
    assert_eq!(t[0], "Tensor[(N, 6, H), float32]");
    let t = one(
        21,
        "GroupNormalization",
        &[("x", x()), ("s", vec![v(6)]), ("b", vec![v(6)])],
        &["y"],
        vec![int("num_groups", 3)],
    );
    assert_eq!(t[0], "Tensor[(N, 6, H), float32]");
    let e = error(
        21,
        "GroupNormalization",
        &[("x", x()), ("s", vec![v(6)]), ("b", vec![v(6)])],
        &["y"],
        vec![int("num_groups", 4)],
    );
    assert_eq!(
        e,
        "the input's 6 channels are not a multiple of `num_groups` (4)"
    );
}

#[test]
fn attention_mask_must_broadcast_to_the_scores() {
    let e = error(
        23,
        "Attention",
        &[
            ("q", vec![v(2), v(8), v(5), v(64)]),
            ("k", vec![v(2), v(8), v(7), v(64)]),
            ("v", vec![v(2), v(8), v(7), v(64)]),
            ("m", vec![v(4), v(7)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(
        e,
        "the mask `Tensor[(4, 7), float32]` does not broadcast to the scores (2, 8, 5, 7)"
    );
    let t = one(
        23,
        "Attention",
        &[
            ("q", vec![v(2), v(8), v(5), v(64)]),
            ("k", vec![v(2), v(8), v(7), v(64)]),
            ("v", vec![v(2), v(8), v(7), v(64)]),
            ("m", vec![v(5), v(6)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(t[0], "Tensor[(2, 8, 5, 64), float32]");
}

#[test]
fn roi_align_batch_indices_match_the_regions() {
    let e = error(
        16,
        "RoiAlign",
        &[
            ("x", vec![p("N"), v(8), p("H"), p("W")]),
            ("r", vec![v(5), v(4)]),
            ("i", vec![v(3)]),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(e, "`batch_indices` has 3 elements for 5 regions");
}

/// A float32 initializer holding `values`.
fn init_floats(g: &mut Graph, name: &str, values: &[f32]) {
    let raw: Vec<u8> = values.iter().flat_map(|f| f.to_le_bytes()).collect();
    g.init(relay_onnx::proto::TensorProto {
        name: name.to_string().into(),
        dims: vec![values.len() as i64],
        data_type: 1,
        raw_data: raw.into(),
        ..Default::default()
    });
}

#[test]
fn resize_by_constant_scales_scales_symbols() {
    let mut g = Graph::new(10);
    g.input("x", D::F32, &[p("N"), v(3), p("H"), v(5)]);
    init_floats(&mut g, "scales", &[1.0, 1.0, 2.0, 0.6]);
    g.node("Resize", &["x", "scales"], &["y"], vec![]);
    init_floats(&mut g, "half", &[1.0, 1.0, 0.5, 1.0]);
    g.node("Upsample", &["x", "half"], &["z"], vec![]);
    g.output("y").output("z");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3, 2*H, 3), float32]");
    assert_eq!(
        c.type_of("z").unwrap(),
        "Tensor[(N, 3, floordiv(H, 2), 5), float32]"
    );
}

#[test]
fn conv_transpose_same_and_output_shape_and_same_lower_pools() {
    let t = one(
        11,
        "ConvTranspose",
        &[
            ("x", vec![p("N"), v(4), p("H"), v(5)]),
            ("w", vec![v(4), v(2), v(3), v(3)]),
        ],
        &["y"],
        vec![
            string("auto_pad", "SAME_UPPER"),
            ints("strides", &[2, 2]),
            int("group", 2),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 4, 2*H, 10), float32]");
    let t = one(
        11,
        "ConvTranspose",
        &[
            ("x", vec![p("N"), v(4), p("H"), v(5)]),
            ("w", vec![v(4), v(2), v(3), v(3)]),
        ],
        &["y"],
        vec![ints("output_shape", &[21, 11]), ints("strides", &[2, 2])],
    );
    assert_eq!(t[0], "Tensor[(N, 2, 21, 11), float32]");
    let t = one(
        11,
        "AveragePool",
        &[("x", vec![p("N"), v(3), p("H"), v(7)])],
        &["y"],
        vec![
            ints("kernel_shape", &[3, 3]),
            ints("strides", &[3, 3]),
            string("auto_pad", "SAME_LOWER"),
        ],
    );
    assert_eq!(t[0], "Tensor[(N, 3, floordiv(H + 2, 3), 3), float32]");
}

/// A small deterministic generator (an LCG) for the property tests.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as i64
    }
}

/// The window operators' symbolic sizes, evaluated at a size, are the sizes the same
/// graph over that constant size gets (or the constant graph is an error there): the
/// `floordiv` forms and the `ceil_mode` rule agree with the constant arithmetic.
#[test]
fn symbolic_window_sizes_agree_with_constant_ones() {
    let mut rng = Lcg(7);
    let mut compared = 0;
    for case in 0..300 {
        let op = ["Conv", "ConvTranspose", "MaxPool", "AveragePool"][rng.below(4) as usize];
        let k = 1 + rng.below(4);
        let s = 1 + rng.below(3);
        let d = 1 + rng.below(2);
        let mut attrs = vec![ints("strides", &[s]), ints("dilations", &[d])];
        match rng.below(4) {
            0 => attrs.push(string(
                "auto_pad",
                ["SAME_UPPER", "SAME_LOWER", "VALID"][rng.below(3) as usize],
            )),
            1 => attrs.push(ints("pads", &[rng.below(3), rng.below(3)])),
            _ => {}
        }
        if op.ends_with("Pool") {
            attrs.push(ints("kernel_shape", &[k]));
            if rng.below(2) == 0 {
                attrs.push(int("ceil_mode", 1));
            }
        }
        let build = |len: D| {
            let mut g = Graph::new(19);
            g.input("x", D::F32, &[v(1), v(2), len]);
            let mut ins = vec!["x"];
            if op.starts_with("Conv") {
                g.input("w", D::F32, &[v(2), v(2), v(k)]);
                ins.push("w");
            }
            g.node(op, &ins, &["y"], attrs.clone());
            g.output("y");
            g.check()
        };
        let mut sym = build(p("L"));
        if !messages(&sym).is_empty() {
            continue;
        }
        for len in 1..14 {
            let mut konst = build(v(len));
            if !messages(&konst).is_empty() {
                continue;
            }
            let want: Vec<i64> = konst
                .type_of("y")
                .unwrap()
                .trim_start_matches("Tensor[(")
                .split(')')
                .next()
                .unwrap()
                .split(", ")
                .map(|x| x.parse().unwrap())
                .collect();
            match sym.eval_shape("y", &[("x", vec![1, 2, len])]) {
                Ok(got) => {
                    assert_eq!(got, want, "case {case}: {op} {attrs:?} at L = {len}");
                    compared += 1;
                }
                // `?` (ceil_mode on a symbolic axis that may drop a window).
                Err(_) => assert!(sym.type_of("y").unwrap().contains('?'), "case {case}"),
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn batch_normalization_names_the_vector_that_does_not_fit() {
    let c = || vec![v(3)];
    let e = error(
        15,
        "BatchNormalization",
        &[
            ("x", vec![p("N"), v(3), p("H")]),
            ("s", c()),
            ("b", c()),
            ("m", vec![v(4)]),
            ("var", c()),
        ],
        &["y"],
        vec![],
    );
    assert_eq!(e, "`input_mean` has 4 elements for 3 channels");
}

// --- Recurrent layers ---------------------------------------------------------------------

#[test]
fn lstm_bidirectional_and_gru_batch_first() {
    let t = one(
        14,
        "LSTM",
        &[
            ("x", vec![p("S"), p("B"), v(10)]),
            ("w", vec![v(2), v(4 * 16), v(10)]),
            ("r", vec![v(2), v(4 * 16), v(16)]),
            ("b", vec![v(2), v(8 * 16)]),
        ],
        &["y", "h", "c"],
        vec![string("direction", "bidirectional"), int("hidden_size", 16)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(S, 2, B, 16), float32]",
            "Tensor[(2, B, 16), float32]",
            "Tensor[(2, B, 16), float32]"
        ]
    );
    let t = one(
        14,
        "GRU",
        &[
            ("x", vec![p("B"), p("S"), v(10)]),
            ("w", vec![v(1), v(3 * 8), v(10)]),
            ("r", vec![v(1), v(3 * 8), v(8)]),
        ],
        &["y", "h"],
        vec![int("layout", 1)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 1, 8), float32]",
            "Tensor[(B, 1, 8), float32]"
        ]
    );
    let e = error(
        14,
        "RNN",
        &[
            ("x", vec![p("S"), p("B"), v(10)]),
            ("w", vec![v(1), v(8), v(12)]),
            ("r", vec![v(1), v(8), v(8)]),
        ],
        &["y"],
        vec![int("hidden_size", 8)],
    );
    assert_eq!(e, "`W` takes inputs of 12, and `X`'s are 10");
}

#[test]
fn flex_attention_has_attention_shapes() {
    let mut g = Graph::new(23);
    g.opsets.push(("ai.onnx.preview".to_string(), 1));
    g.input("q", D::F32, &[p("B"), v(8), p("L"), v(64)]);
    g.input("k", D::F32, &[p("B"), v(2), p("S"), v(64)]);
    g.input("v", D::F32, &[p("B"), v(2), p("S"), v(32)]);
    g.node_in(
        "ai.onnx.preview",
        "FlexAttention",
        &["q", "k", "v"],
        &["y"],
        vec![],
    );
    g.output("y");
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(B, 8, L, 32), float32]");
}

/// onnxruntime's `DynamicQuantizeLSTM` over `x` `(S, B, 10)` with int8 weights of
/// these dims (`(D, input, 4 * H)`, `(D, H, 4 * H)`) and one scale per direction.
fn quantized_lstm(w: &[D], r: &[D]) -> relay_onnx::Checked {
    let mut g = Graph::new(14);
    g.opsets.push(("com.microsoft".into(), 1));
    g.input("x", D::F32, &[p("S"), p("B"), v(10)])
        .input("w", D::I8, w)
        .input("r", D::I8, r)
        .input("scale", D::F32, &[v(2)])
        .input("zero", D::I8, &[v(2)]);
    g.node_in(
        "com.microsoft",
        "DynamicQuantizeLSTM",
        &[
            "x", "w", "r", "", "", "", "", "", "scale", "zero", "scale", "zero",
        ],
        &["y", "h", "c"],
        vec![string("direction", "bidirectional"), int("hidden_size", 16)],
    );
    g.output("y").output("h").output("c");
    g.check()
}

#[test]
fn dynamic_quantize_lstm_reads_its_weights_transposed() {
    let mut c = quantized_lstm(&[v(2), v(10), v(64)], &[v(2), v(16), v(64)]);
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(S, 2, B, 16), float32]");
    assert_eq!(c.type_of("c").unwrap(), "Tensor[(2, B, 16), float32]");
    // ONNX's LSTM layout, (D, 4 * H, input), is not the one it takes.
    let c = quantized_lstm(&[v(2), v(64), v(10)], &[v(2), v(16), v(64)]);
    assert_eq!(
        messages(&c),
        ["`W` has 10 columns, and 4 gates of the hidden size make 64"]
    );
}

#[test]
fn image_decoder_gives_the_image_size_as_new_symbols() {
    let decode = |elem: i32, dims: Vec<D>, format: &str| {
        let mut g = Graph::new(20);
        g.input("bytes", elem, &dims);
        g.node(
            "ImageDecoder",
            &["bytes"],
            &["img"],
            vec![string("pixel_format", format)],
        );
        g.output("img");
        let mut c = g.check();
        let t = c.type_of("img");
        (messages(&c), t)
    };
    assert_eq!(
        decode(D::U8, vec![p("L")], "RGB"),
        (
            vec![],
            Some("Tensor[(ImageDecoder_0, ImageDecoder_0_2, 3), uint8]".into())
        )
    );
    assert_eq!(
        decode(D::U8, vec![v(1000)], "Grayscale").1.unwrap(),
        "Tensor[(ImageDecoder_0, ImageDecoder_0_2, 1), uint8]"
    );
    assert_eq!(
        decode(D::U8, vec![v(1000)], "RGBA").0,
        ["`pixel_format` is `RGBA`; it is `RGB`, `BGR` or `Grayscale`"]
    );
    assert_eq!(
        decode(D::F32, vec![v(1000)], "RGB").0,
        ["the encoded image is `Tensor[(1000), float32]`, and must be a `uint8` vector"]
    );
}
