//! onnxruntime's contrib operators (domain `com.microsoft`): exact (symbolic) result
//! types, checked against the shapes onnxruntime's CPU kernels give, and the messages of
//! ill-shaped nodes.

use relay_onnx::build::{int, ints, string, Graph, D};
use relay_onnx::proto::TensorProto;

const MS: &str = "com.microsoft";

fn p(s: &str) -> D {
    D::p(s)
}

fn v(n: i64) -> D {
    D::v(n)
}

/// A graph over these inputs (name, ONNX data type, dims) with one node of `op` in
/// `domain` (`""` for an absent input), checked.
fn node_in(
    domain: &str,
    op: &str,
    inputs: &[(&str, i32, Vec<D>)],
    names: &[&str],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
    init: Option<TensorProto>,
) -> relay_onnx::Checked {
    let mut g = Graph::new(17);
    g.opsets.push((MS.into(), 1));
    g.opsets.push((NCHWC.into(), 1));
    for (n, t, d) in inputs {
        g.input(n, *t, d);
    }
    if let Some(t) = init {
        g.init(t);
    }
    g.node_in(domain, op, names, outs, attrs);
    for o in outs.iter().filter(|o| !o.is_empty()) {
        g.output(o);
    }
    g.check()
}

/// The types of the outputs of a `com.microsoft` node that checks without a message.
fn types(
    op: &str,
    inputs: &[(&str, i32, Vec<D>)],
    names: &[&str],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> Vec<String> {
    let mut c = node_in(MS, op, inputs, names, outs, attrs, None);
    assert_eq!(messages(&c), Vec::<String>::new());
    outs.iter()
        .filter(|o| !o.is_empty())
        .map(|o| c.type_of(o).unwrap())
        .collect()
}

/// The messages of a `com.microsoft` node.
fn errors(
    op: &str,
    inputs: &[(&str, i32, Vec<D>)],
    names: &[&str],
    outs: &[&str],
    attrs: Vec<relay_onnx::proto::AttributeProto>,
) -> Vec<String> {
    messages(&node_in(MS, op, inputs, names, outs, attrs, None))
}

fn messages(c: &relay_onnx::Checked) -> Vec<String> {
    c.diagnostics().iter().map(|d| d.message.clone()).collect()
}

/// The names of the inputs, in order.
fn names<'a>(inputs: &[(&'a str, i32, Vec<D>)]) -> Vec<&'a str> {
    inputs.iter().map(|(n, _, _)| *n).collect()
}

const F: i32 = D::F32;

// --- 1. The fused activations -------------------------------------------------------------

#[test]
fn gelus_keep_their_input_type() {
    let x = || ("x", F, vec![p("B"), p("S"), v(768)]);
    let b = || ("b", F, vec![v(768)]);
    for op in ["Gelu", "QuickGelu", "FastGelu"] {
        assert_eq!(
            types(op, &[x()], &["x"], &["y"], vec![]),
            ["Tensor[(B, S, 768), float32]"]
        );
    }
    assert_eq!(
        types("FastGelu", &[x(), b()], &["x", "b"], &["y"], vec![]),
        ["Tensor[(B, S, 768), float32]"]
    );
    assert_eq!(
        types("BiasGelu", &[x(), b()], &["x", "b"], &["y"], vec![]),
        ["Tensor[(B, S, 768), float32]"]
    );
}

#[test]
fn a_bias_is_a_vector_of_the_last_axis() {
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("b", F, vec![v(3072)]),
    ];
    assert_eq!(
        errors("BiasGelu", &inputs, &["x", "b"], &["y"], vec![]),
        ["`bias` has 3072 elements, and the input's last axis is 768"]
    );
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("b", F, vec![v(1), v(768)]),
    ];
    assert_eq!(
        errors("FastGelu", &inputs, &["x", "b"], &["y"], vec![]),
        ["`bias` is `Tensor[(1, 768), float32]`, and it must be a vector of the input's last axis (768)"]
    );
}

#[test]
fn bias_add_and_bias_softmax() {
    let inputs = [
        ("x", F, vec![p("N"), p("S"), v(320)]),
        ("b", F, vec![v(320)]),
        ("s", F, vec![p("N"), p("S"), v(320)]),
    ];
    assert_eq!(
        types("BiasAdd", &inputs, &["x", "b", "s"], &["y"], vec![]),
        ["Tensor[(N, S, 320), float32]"]
    );
    let inputs = [
        ("x", F, vec![p("N"), p("S"), v(320)]),
        ("b", F, vec![v(320)]),
        ("s", F, vec![p("N"), v(320)]),
    ];
    assert_eq!(
        errors("BiasAdd", &inputs, &["x", "b", "s"], &["y"], vec![]),
        ["`skip` is `Tensor[(N, 320), float32]`, and it must have the shape of `X` (`Tensor[(N, S, 320), float32]`)"]
    );
    let inputs = [
        ("x", F, vec![p("B"), v(12), p("S"), p("S")]),
        ("b", F, vec![v(1), v(12), p("S"), p("S")]),
    ];
    let attrs = || vec![int("axis", 3), int("is_inner_broadcast", 0)];
    assert_eq!(
        types("BiasSoftmax", &inputs, &["x", "b"], &["y"], attrs()),
        ["Tensor[(B, 12, S, S), float32]"]
    );
    let inputs = [
        ("x", F, vec![p("B"), v(12), p("S"), p("S")]),
        ("b", F, vec![v(8), p("S"), p("S")]),
    ];
    assert_eq!(
        errors("BiasSoftmax", &inputs, &["x", "b"], &["y"], attrs()),
        ["the bias `Tensor[(8, S, S), float32]` does not broadcast to the input `Tensor[(B, 12, S, S), float32]`"]
    );
}

#[test]
fn bias_split_gelu_halves_the_channels() {
    let inputs = [
        ("x", D::F16, vec![p("N"), p("HW"), v(2560)]),
        ("b", D::F16, vec![v(2560)]),
    ];
    assert_eq!(
        types("BiasSplitGelu", &inputs, &["x", "b"], &["y"], vec![]),
        ["Tensor[(N, HW, 1280), float16]"]
    );
    let inputs = [
        ("x", D::F16, vec![p("N"), p("HW"), v(2561)]),
        ("b", D::F16, vec![v(2561)]),
    ];
    assert_eq!(
        errors("BiasSplitGelu", &inputs, &["x", "b"], &["y"], vec![]),
        ["the input's last axis (2561) does not split in two halves"]
    );
}

#[test]
fn gemm_fast_gelu_is_a_product_plus_bias() {
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("w", F, vec![v(768), v(3072)]),
        ("b", F, vec![v(3072)]),
    ];
    assert_eq!(
        types("GemmFastGelu", &inputs, &["x", "w", "b"], &["y"], vec![]),
        ["Tensor[(B, S, 3072), float32]"]
    );
}

// --- 1. The fused normalizations ----------------------------------------------------------

#[test]
fn group_norms_keep_their_input_type() {
    let attrs = || vec![int("groups", 32), int("activation", 1)];
    let inputs = [
        ("x", D::F16, vec![p("N"), p("H"), p("W"), v(320)]),
        ("g", F, vec![v(320)]),
        ("b", F, vec![v(320)]),
        ("skip", D::F16, vec![p("N"), p("H"), p("W"), v(320)]),
        ("bias", D::F16, vec![v(320)]),
    ];
    assert_eq!(
        types("GroupNorm", &inputs[..3], &["x", "g", "b"], &["y"], attrs()),
        ["Tensor[(N, H, W, 320), float16]"]
    );
    assert_eq!(
        types(
            "SkipGroupNorm",
            &inputs,
            &names(&inputs),
            &["y", "s"],
            attrs()
        ),
        [
            "Tensor[(N, H, W, 320), float16]",
            "Tensor[(N, H, W, 320), float16]"
        ]
    );
    let inputs = [
        ("x", D::F16, vec![p("N"), p("H"), p("W"), v(100)]),
        ("g", F, vec![v(100)]),
        ("b", F, vec![v(100)]),
    ];
    assert_eq!(
        errors("GroupNorm", &inputs, &["x", "g", "b"], &["y"], attrs()),
        ["the input's 100 channels are not a multiple of `groups` (32)"]
    );
}

fn skip_inputs(skip: Vec<D>, gamma: i64) -> Vec<(&'static str, i32, Vec<D>)> {
    vec![
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("s", F, skip),
        ("g", F, vec![v(gamma)]),
        ("b", F, vec![v(768)]),
        ("bias", F, vec![v(768)]),
    ]
}

#[test]
fn skip_layer_norm_gives_all_four_outputs() {
    // onnxruntime at (2, 3, 8): (2, 3, 8), (2, 3, 1), (2, 3, 1), (2, 3, 8).
    let inputs = skip_inputs(vec![p("B"), p("S"), v(768)], 768);
    let t = types(
        "SkipLayerNormalization",
        &inputs,
        &names(&inputs),
        &["y", "mean", "inv", "sum"],
        vec![],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 768), float32]",
            "Tensor[(B, S, 1), float32]",
            "Tensor[(B, S, 1), float32]",
            "Tensor[(B, S, 768), float32]"
        ]
    );
    // A skip without the batch, or with a batch of 1, is added to every batch.
    for skip in [vec![p("S"), v(768)], vec![v(1), p("S"), v(768)]] {
        let inputs = skip_inputs(skip, 768);
        let t = types(
            "SkipLayerNormalization",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![],
        );
        assert_eq!(t, ["Tensor[(B, S, 768), float32]"]);
    }
    // The simplified form has no `beta`; `(T, H)` inputs are tokens.
    let inputs = [
        ("x", D::F16, vec![p("T"), v(2048)]),
        ("s", D::F16, vec![p("T"), v(2048)]),
        ("g", D::F16, vec![v(2048)]),
    ];
    let t = types(
        "SkipSimplifiedLayerNormalization",
        &inputs,
        &names(&inputs),
        &["y", "", "inv", "sum"],
        vec![],
    );
    assert_eq!(
        t,
        [
            "Tensor[(T, 2048), float16]",
            "Tensor[(T, 1), float32]",
            "Tensor[(T, 2048), float16]"
        ]
    );
}

#[test]
fn skip_layer_norm_mistakes() {
    let inputs = skip_inputs(vec![p("B"), p("S"), v(768)], 1024);
    assert_eq!(
        errors(
            "SkipLayerNormalization",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["`gamma` has 1024 elements, and the hidden size is 768"]
    );
    let inputs = skip_inputs(vec![p("B"), p("S"), v(512)], 768);
    assert_eq!(
        errors(
            "SkipLayerNormalization",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["`skip` is `Tensor[(B, S, 512), float32]`, and it must have the shape of the input (`Tensor[(B, S, 768), float32]`), maybe without its batch"]
    );
}

#[test]
fn simplified_layer_norm_is_in_the_default_domain() {
    let mut c = node_in(
        "",
        "SimplifiedLayerNormalization",
        &[
            ("x", F, vec![p("B"), p("S"), v(3072)]),
            ("g", F, vec![v(3072)]),
        ],
        &["x", "g"],
        &["y", "inv"],
        vec![],
        None,
    );
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(B, S, 3072), float32]");
    assert_eq!(c.type_of("inv").unwrap(), "Tensor[(B, S, 1), float32]");
}

fn embed_inputs(position: i64) -> Vec<(&'static str, i32, Vec<D>)> {
    vec![
        ("ids", D::I32, vec![p("B"), p("S")]),
        ("seg", D::I32, vec![p("B"), p("S")]),
        ("word", F, vec![v(30522), v(768)]),
        ("pos", F, vec![v(512), v(position)]),
        ("segemb", F, vec![v(2), v(768)]),
        ("g", F, vec![v(768)]),
        ("b", F, vec![v(768)]),
        ("mask", D::I32, vec![p("B"), p("S")]),
    ]
}

#[test]
fn embed_layer_norm_gives_the_embedding_its_mask_index_and_sum() {
    // onnxruntime at (2, 5): (2, 5, 8), (2), (2, 5, 8).
    let inputs = embed_inputs(768);
    let t = types(
        "EmbedLayerNormalization",
        &inputs,
        &names(&inputs),
        &["y", "mask_index", "sum"],
        vec![],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 768), float32]",
            "Tensor[(B), int32]",
            "Tensor[(B, S, 768), float32]"
        ]
    );
    let inputs = embed_inputs(512);
    assert_eq!(
        errors(
            "EmbedLayerNormalization",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["`position_embedding` has rows of 512, and `word_embedding` of 768"]
    );
}

// --- 2. The attentions --------------------------------------------------------------------

#[test]
fn attention_projects_and_keeps_a_present_state() {
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("w", F, vec![v(768), v(2304)]),
        ("b", F, vec![v(2304)]),
        ("mask", D::I32, vec![p("B"), p("S")]),
    ];
    let t = types(
        "Attention",
        &inputs,
        &names(&inputs),
        &["y", "present"],
        vec![int("num_heads", 12)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 768), float32]",
            "Tensor[(2, B, 12, S, 64), float32]"
        ]
    );
    // A past of P makes a present of P + S (onnxruntime: (2, 2, 4, 6, 4) after 1 more).
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(768)]),
        ("w", F, vec![v(768), v(2304)]),
        ("b", F, vec![v(2304)]),
        ("past", F, vec![v(2), p("B"), v(12), p("P"), v(64)]),
    ];
    let t = types(
        "Attention",
        &inputs,
        &["x", "w", "b", "", "past"],
        &["y", "present"],
        vec![int("num_heads", 12), int("unidirectional", 1)],
    );
    assert_eq!(
        t,
        [
            "Tensor[(B, S, 768), float32]",
            "Tensor[(2, B, 12, P + S, 64), float32]"
        ]
    );
    // `qkv_hidden_sizes` gives V its own size.
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(16)]),
        ("w", F, vec![v(16), v(40)]),
    ];
    let t = types(
        "Attention",
        &inputs,
        &["x", "w"],
        &["y"],
        vec![int("num_heads", 4), ints("qkv_hidden_sizes", &[16, 16, 8])],
    );
    assert_eq!(t, ["Tensor[(B, S, 8), float32]"]);
}

#[test]
fn qattention_is_attention_of_integers_into_floats() {
    // onnxruntime at (2, 1, 16) after a past of 6: (2, 1, 16) and (2, 2, 4, 7, 4).
    let inputs = [
        ("x", D::U8, vec![p("B"), p("S"), v(768)]),
        ("w", D::I8, vec![v(768), v(2304)]),
        ("b", F, vec![v(2304)]),
        ("xs", F, vec![]),
        ("ws", F, vec![v(2304)]),
        ("mask", D::I32, vec![p("B")]),
        ("xz", D::U8, vec![]),
        ("wz", D::I8, vec![v(2304)]),
        ("past", F, vec![v(2), p("B"), v(12), p("P"), v(64)]),
    ];
    assert_eq!(
        types(
            "QAttention",
            &inputs,
            &names(&inputs),
            &["y", "present"],
            vec![int("num_heads", 12)]
        ),
        [
            "Tensor[(B, S, 768), float32]",
            "Tensor[(2, B, 12, P + S, 64), float32]"
        ]
    );
    let mut inputs = inputs[..5].to_vec();
    inputs[3].2 = vec![v(2)];
    assert_eq!(
        errors(
            "QAttention",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![int("num_heads", 12)]
        ),
        ["`input_scale` is `Tensor[(2), float32]`, and it must be one scale"]
    );
}

#[test]
fn attention_mistakes() {
    // (input width, weight, heads, message)
    let cases = [
        (768, [768, 2000], 12, "the weights have 2000 columns, which are not three equal sizes (give `qkv_hidden_sizes`)"),
        (512, [768, 2304], 12, "the weights take inputs of 768, and the input's are 512"),
        (768, [768, 2304], 10, "the hidden size of Q of 768 is not a multiple of the 10 heads"),
    ];
    for (width, [k, n], heads, message) in cases {
        let inputs = [
            ("x", F, vec![p("B"), p("S"), v(width)]),
            ("w", F, vec![v(k), v(n)]),
        ];
        let said = errors(
            "Attention",
            &inputs,
            &["x", "w"],
            &["y"],
            vec![int("num_heads", heads)],
        );
        assert_eq!(said, [message]);
    }
}

#[test]
fn multi_head_attention_in_each_form() {
    // Separate Q, K and V (onnxruntime: (2, 3, 16), (2, 4, 5, 8), (2, 4, 5, 4)).
    let inputs = [
        ("q", F, vec![p("B"), p("S"), v(32)]),
        ("k", F, vec![p("B"), p("L"), v(32)]),
        ("v", F, vec![p("B"), p("L"), v(16)]),
    ];
    let attrs = || vec![int("num_heads", 4)];
    let outs = ["y", "pk", "pv"];
    assert_eq!(
        types(
            "MultiHeadAttention",
            &inputs,
            &names(&inputs),
            &outs,
            attrs()
        ),
        [
            "Tensor[(B, S, 16), float32]",
            "Tensor[(B, 4, L, 8), float32]",
            "Tensor[(B, 4, L, 4), float32]"
        ]
    );
    // With a past.
    let inputs = [
        ("q", F, vec![p("B"), p("S"), v(32)]),
        ("k", F, vec![p("B"), p("S"), v(32)]),
        ("v", F, vec![p("B"), p("S"), v(32)]),
        ("past_k", F, vec![p("B"), v(4), p("P"), v(8)]),
        ("past_v", F, vec![p("B"), v(4), p("P"), v(8)]),
    ];
    assert_eq!(
        types(
            "MultiHeadAttention",
            &inputs,
            &["q", "k", "v", "", "", "", "past_k", "past_v"],
            &outs,
            attrs()
        ),
        [
            "Tensor[(B, S, 32), float32]",
            "Tensor[(B, 4, P + S, 8), float32]",
            "Tensor[(B, 4, P + S, 8), float32]"
        ]
    );
    // Key and value already split into heads are the present ones.
    let inputs = [
        ("q", F, vec![p("B"), p("S"), v(32)]),
        ("k", F, vec![p("B"), v(4), p("L"), v(8)]),
        ("v", F, vec![p("B"), v(4), p("L"), v(8)]),
    ];
    assert_eq!(
        types(
            "MultiHeadAttention",
            &inputs,
            &names(&inputs),
            &outs,
            attrs()
        ),
        [
            "Tensor[(B, S, 32), float32]",
            "Tensor[(B, 4, L, 8), float32]",
            "Tensor[(B, 4, L, 8), float32]"
        ]
    );
    // Packed query, key and value; packed key and value.
    let inputs = [("q", F, vec![p("B"), p("S"), v(4), v(3), v(8)])];
    assert_eq!(
        types("MultiHeadAttention", &inputs, &["q"], &outs, attrs()),
        [
            "Tensor[(B, S, 32), float32]",
            "Tensor[(B, 4, S, 8), float32]",
            "Tensor[(B, 4, S, 8), float32]"
        ]
    );
    let inputs = [
        ("q", F, vec![p("B"), p("S"), v(32)]),
        ("k", F, vec![p("B"), p("L"), v(4), v(2), v(8)]),
    ];
    assert_eq!(
        types("MultiHeadAttention", &inputs, &["q", "k"], &["y"], attrs()),
        ["Tensor[(B, S, 32), float32]"]
    );
}

#[test]
fn multi_head_attention_mistakes() {
    let inputs = [
        ("q", F, vec![p("B"), p("S"), v(32)]),
        ("k", F, vec![p("B"), p("L"), v(32)]),
        ("v", F, vec![p("B"), v(7), v(16)]),
    ];
    assert_eq!(
        errors(
            "MultiHeadAttention",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![int("num_heads", 4)]
        ),
        Vec::<String>::new(),
        "a symbol may be 7"
    );
    let inputs = [
        ("q", F, vec![p("B"), v(3), v(32)]),
        ("k", F, vec![p("B"), v(5), v(24)]),
        ("v", F, vec![p("B"), v(5), v(16)]),
    ];
    assert_eq!(
        errors(
            "MultiHeadAttention",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![int("num_heads", 4)]
        ),
        ["`key` has a hidden size of 24, and `query` of 32"]
    );
    let inputs = [("q", F, vec![p("B"), p("S"), v(32)])];
    assert_eq!(
        errors(
            "MultiHeadAttention",
            &inputs,
            &["q"],
            &["y"],
            vec![int("num_heads", 4)]
        ),
        ["`key` is required unless `query` packs the query, key and value"]
    );
}

/// A `GroupQueryAttention` node whose `total_sequence_length` is the constant `total`.
fn gqa(inputs: &[(&str, i32, Vec<D>)], names: &[&str], total: i32) -> relay_onnx::Checked {
    let t = TensorProto {
        name: "total".into(),
        data_type: 6,
        int32_data: vec![total],
        ..Default::default()
    };
    node_in(
        MS,
        "GroupQueryAttention",
        inputs,
        names,
        &["y", "pk", "pv", "qk"],
        vec![int("num_heads", 32), int("kv_num_heads", 8)],
        Some(t),
    )
}

#[test]
fn group_query_attention_presents_the_longer_of_past_and_total() {
    // onnxruntime: a past of 5 and a total of 8 give 8; a past of 10, 10.
    let inputs = |past: i64| {
        vec![
            ("q", D::F16, vec![v(1), v(3), v(4096)]),
            ("k", D::F16, vec![v(1), v(3), v(1024)]),
            ("v", D::F16, vec![v(1), v(3), v(1024)]),
            ("past_k", D::F16, vec![v(1), v(8), v(past), v(128)]),
            ("past_v", D::F16, vec![v(1), v(8), v(past), v(128)]),
            ("seqlens", D::I32, vec![v(1)]),
        ]
    };
    let names = ["q", "k", "v", "past_k", "past_v", "seqlens", "total"];
    for (past, present) in [(5, 8), (10, 10)] {
        let mut c = gqa(&inputs(past), &names, 8);
        assert_eq!(messages(&c), Vec::<String>::new());
        assert_eq!(c.type_of("y").unwrap(), "Tensor[(1, 3, 4096), float16]");
        assert_eq!(
            c.type_of("pk").unwrap(),
            format!("Tensor[(1, 8, {present}, 128), float16]")
        );
        // The scores span `total_sequence_length` (onnxruntime: (1, 4, 3, 8) either way).
        assert_eq!(c.type_of("qk").unwrap(), "Tensor[(1, 32, 3, 8), float16]");
    }
    // Packed query, key and value: (32 + 2 * 8) heads of 128.
    let inputs = [
        ("q", D::F16, vec![p("B"), p("S"), v(6144)]),
        ("seqlens", D::I32, vec![p("B")]),
    ];
    let mut c = gqa(&inputs, &["q", "", "", "", "", "seqlens", "total"], 7);
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(c.type_of("y").unwrap(), "Tensor[(B, S, 4096), float16]");
    assert_eq!(c.type_of("pv").unwrap(), "Tensor[(B, 8, 7, 128), float16]");
    // A key of the query's heads is not of the key and value heads.
    let inputs = [
        ("q", D::F16, vec![p("B"), p("S"), v(4096)]),
        ("k", D::F16, vec![p("B"), p("S"), v(4096)]),
        ("v", D::F16, vec![p("B"), p("S"), v(1024)]),
        ("seqlens", D::I32, vec![p("B")]),
    ];
    let c = gqa(&inputs, &["q", "k", "v", "", "", "seqlens", "total"], 7);
    assert_eq!(
        messages(&c),
        ["`key` has a hidden size of 4096, and 8 heads of `query`'s make 1024"]
    );
}

#[test]
fn rotary_embedding_keeps_its_input_type() {
    let inputs = [
        ("x", F, vec![p("B"), p("S"), v(32)]),
        ("pos", D::I64, vec![p("B"), p("S")]),
        ("cos", F, vec![v(16), v(4)]),
        ("sin", F, vec![v(16), v(4)]),
    ];
    assert_eq!(
        types(
            "RotaryEmbedding",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![int("num_heads", 4)]
        ),
        ["Tensor[(B, S, 32), float32]"]
    );
    assert_eq!(
        types("RotaryEmbedding", &inputs, &names(&inputs), &["y"], vec![]),
        ["Tensor[(B, S, 32), float32]"]
    );
    let inputs = [
        ("x", F, vec![p("B"), v(4), p("S"), v(8)]),
        ("pos", D::I64, vec![v(1)]),
        ("cos", F, vec![v(16), v(3)]),
        ("sin", F, vec![v(16), v(3)]),
    ];
    assert_eq!(
        errors("RotaryEmbedding", &inputs, &names(&inputs), &["y"], vec![]),
        ["`cos_cache` is `Tensor[(16, 3), float32]`; its last axis is half the 8 rotated elements"]
    );
}

// --- 3. The fused products ----------------------------------------------------------------

fn nbits_inputs(b: Vec<D>) -> Vec<(&'static str, i32, Vec<D>)> {
    vec![
        ("a", F, vec![p("B"), p("S"), v(4096)]),
        ("b", D::U8, b),
        ("scales", F, vec![v(11008 * 128)]),
    ]
}

#[test]
fn matmul_nbits_reads_its_packed_weights() {
    let attrs = || {
        vec![
            int("K", 4096),
            int("N", 11008),
            int("bits", 4),
            int("block_size", 32),
        ]
    };
    let inputs = nbits_inputs(vec![v(11008), v(128), v(16)]);
    assert_eq!(
        types("MatMulNBits", &inputs, &names(&inputs), &["y"], attrs()),
        ["Tensor[(B, S, 11008), float32]"]
    );
    // The weights as `(K, N)` are not the packed blocks.
    let inputs = nbits_inputs(vec![v(11008), v(4096), v(1)]);
    assert_eq!(
        errors("MatMulNBits", &inputs, &names(&inputs), &["y"], attrs()),
        ["`B` (`Tensor[(11008, 4096, 1), uint8]`) has 4096 on axis 1, and the blocks of K make 128"]
    );
}

#[test]
fn fused_matmul_transposes_before_multiplying() {
    // onnxruntime: (7, 2, 3, 5) with transBatchA by (2, 3, 5, 4) is (2, 3, 7, 4).
    let cases = [
        (
            vec![v(7), p("B"), v(3), v(5)],
            vec![p("B"), v(3), v(5), v(4)],
            vec![int("transBatchA", 1)],
        ),
        (
            vec![v(5), p("B"), v(3), v(7)],
            vec![p("B"), v(3), v(5), v(4)],
            vec![int("transBatchA", 1), int("transA", 1)],
        ),
        (
            vec![p("B"), v(3), v(7), v(5)],
            vec![v(4), p("B"), v(3), v(5)],
            vec![int("transBatchB", 1), int("transB", 1)],
        ),
        (
            vec![p("B"), v(3), v(5), v(7)],
            vec![p("B"), v(3), v(4), v(5)],
            vec![int("transA", 1), int("transB", 1)],
        ),
    ];
    for (a, b, attrs) in cases {
        let inputs = [("a", F, a), ("b", F, b)];
        assert_eq!(
            types("FusedMatMul", &inputs, &["a", "b"], &["y"], attrs),
            ["Tensor[(B, 3, 7, 4), float32]"]
        );
    }
    let inputs = [
        ("a", F, vec![p("B"), v(3), v(7), v(5)]),
        ("b", F, vec![p("B"), v(3), v(5), v(4)]),
    ];
    assert_eq!(
        errors("FusedMatMul", &inputs, &["a", "b"], &["y"], vec![int("transA", 1)]),
        ["cannot multiply `Tensor[(B, 3, 7, 5), float32]` by `Tensor[(B, 3, 5, 4), float32]` (transA=1, transB=0, transBatchA=0, transBatchB=0): the inner dimensions 7 and 5 differ"]
    );
}

#[test]
fn fused_conv_and_gemm_are_conv_and_gemm() {
    let inputs = [
        ("x", F, vec![p("N"), v(3), p("H"), p("W")]),
        ("w", F, vec![v(16), v(3), v(3), v(3)]),
        ("b", F, vec![v(16)]),
    ];
    let attrs = || {
        vec![
            string("activation", "Relu"),
            ints("pads", &[1, 1, 1, 1]),
            ints("strides", &[2, 2]),
        ]
    };
    assert_eq!(
        types("FusedConv", &inputs, &["x", "w", "b"], &["y"], attrs()),
        ["Tensor[(N, 16, floordiv(H + 1, 2), floordiv(W + 1, 2)), float32]"]
    );
    let inputs = [
        ("x", F, vec![p("N"), v(3), v(8), v(8)]),
        ("w", F, vec![v(16), v(3), v(3), v(3)]),
        ("b", F, vec![v(16)]),
        ("z", F, vec![p("N"), v(16), v(8), v(8)]),
    ];
    assert_eq!(
        errors("FusedConv", &inputs, &["x", "w", "b", "z"], &["y"], attrs()),
        ["`Z` is `Tensor[(N, 16, 8, 8), float32]`, and it must have the shape of `Y` (`Tensor[(N, 16, 4, 4), float32]`)"]
    );
    let inputs = [
        ("a", F, vec![p("M"), v(64)]),
        ("b", F, vec![v(10), v(64)]),
        ("c", F, vec![v(10)]),
    ];
    assert_eq!(
        types(
            "FusedGemm",
            &inputs,
            &["a", "b", "c"],
            &["y"],
            vec![int("transB", 1), string("activation", "LeakyRelu")]
        ),
        ["Tensor[(M, 10), float32]"]
    );
}

// --- 4. The quantized operators -----------------------------------------------------------

/// A quantized tensor `name` with its float scale and zero point.
fn q(name: &'static str, dims: Vec<D>) -> [(&'static str, i32, Vec<D>); 3] {
    let (s, z): (&'static str, &'static str) = match name {
        "a" => ("a_s", "a_z"),
        "b" => ("b_s", "b_z"),
        "c" => ("c_s", "c_z"),
        _ => ("y_s", "y_z"),
    };
    [(name, D::U8, dims), (s, F, vec![]), (z, D::U8, vec![])]
}

#[test]
fn qlinear_elementwise_operators() {
    let mut inputs = q("a", vec![p("N"), v(64), p("H"), p("W")]).to_vec();
    inputs.extend(q("b", vec![v(64), v(1), v(1)]));
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    for op in ["QLinearAdd", "QLinearMul"] {
        assert_eq!(
            types(op, &inputs, &names(&inputs), &["c"], vec![]),
            ["Tensor[(N, 64, H, W), uint8]"]
        );
    }
    let mut inputs = q("a", vec![p("N"), v(64), p("H"), p("W")]).to_vec();
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    for op in ["QLinearSigmoid", "QLinearLeakyRelu", "QLinearSoftmax"] {
        assert_eq!(
            types(op, &inputs, &names(&inputs), &["c"], vec![int("opset", 13)]),
            ["Tensor[(N, 64, H, W), uint8]"]
        );
    }
    let mut inputs = q("a", vec![p("N"), v(64), v(8)]).to_vec();
    inputs.extend(q("b", vec![v(32), v(1)]));
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    assert_eq!(
        errors("QLinearAdd", &inputs, &names(&inputs), &["c"], vec![]),
        ["cannot broadcast dimension 1 of the first input (64) with dimension 0 of the second (32)"]
    );
}

#[test]
fn qlinear_pools() {
    let mut inputs = q("a", vec![p("N"), v(64), v(56), v(56)]).to_vec();
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    assert_eq!(
        types(
            "QLinearAveragePool",
            &inputs,
            &names(&inputs),
            &["c"],
            vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])]
        ),
        ["Tensor[(N, 64, 28, 28), uint8]"]
    );
    assert_eq!(
        types(
            "QLinearGlobalAveragePool",
            &inputs,
            &names(&inputs),
            &["c"],
            vec![]
        ),
        ["Tensor[(N, 64, 1, 1), uint8]"]
    );
    let mut inputs = q("a", vec![p("N"), p("H"), p("W"), v(64)]).to_vec();
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    assert_eq!(
        types(
            "QLinearGlobalAveragePool",
            &inputs,
            &names(&inputs),
            &["c"],
            vec![int("channels_last", 1)]
        ),
        ["Tensor[(N, 1, 1, 64), uint8]"]
    );
    // onnxruntime's NHWC form (its layout optimizer writes it), checked against
    // onnxruntime 1.32: `(2, 17, 9, 16)` pooled by 2 is `(2, 8, 4, 16)`.
    assert_eq!(
        types(
            "QLinearAveragePool",
            &inputs,
            &names(&inputs),
            &["c"],
            vec![
                ints("kernel_shape", &[2, 2]),
                ints("strides", &[2, 2]),
                int("channels_last", 1)
            ]
        ),
        ["Tensor[(N, floordiv(H, 2), floordiv(W, 2), 64), uint8]"]
    );
}

#[test]
fn qlinear_conv_in_nhwc_keeps_the_weight_layout() {
    // What onnxruntime's layout optimizer makes of a `QLinearConv` (its output at
    // `(1, 32, 32, 8)` is `(1, 16, 16, 16)`, at `(2, 17, 9, 8)` `(2, 9, 5, 16)`).
    let mut inputs = q("a", vec![p("N"), p("H"), p("W"), v(8)]).to_vec();
    inputs.extend(q("b", vec![v(16), v(8), v(3), v(3)]));
    inputs.extend(q("y", vec![]).into_iter().skip(1));
    let attrs = |last| {
        vec![
            ints("kernel_shape", &[3, 3]),
            ints("pads", &[1, 1, 1, 1]),
            ints("strides", &[2, 2]),
            int("channels_last", last),
        ]
    };
    assert_eq!(
        types("QLinearConv", &inputs, &names(&inputs), &["c"], attrs(1)),
        ["Tensor[(N, floordiv(H + 1, 2), floordiv(W + 1, 2), 16), uint8]"]
    );
    // Read as NCHW, an input `(1, 32, 32, 8)` has 32 channels.
    inputs[0].2 = vec![v(1), v(32), v(32), v(8)];
    assert_eq!(
        types("QLinearConv", &inputs, &names(&inputs), &["c"], attrs(1)),
        ["Tensor[(1, 16, 16, 16), uint8]"]
    );
    assert_eq!(
        errors("QLinearConv", &inputs, &names(&inputs), &["c"], attrs(0)),
        ["the input has 32 channels, and the weight takes 8"]
    );
}

#[test]
fn qlinear_concat_joins_every_third_input() {
    let mut inputs = q("y", vec![]).into_iter().skip(1).collect::<Vec<_>>();
    inputs.extend(q("a", vec![p("N"), v(32), p("H")]));
    inputs.extend(q("b", vec![p("N"), v(16), p("H")]));
    let n = names(&inputs);
    assert_eq!(
        types("QLinearConcat", &inputs, &n, &["c"], vec![int("axis", 1)]),
        ["Tensor[(N, 48, H), uint8]"]
    );
    let mut inputs = q("y", vec![]).into_iter().skip(1).collect::<Vec<_>>();
    inputs.extend(q("a", vec![p("N"), v(32), v(7)]));
    inputs.extend(q("b", vec![p("N"), v(16), v(8)]));
    let n = names(&inputs);
    assert_eq!(
        errors("QLinearConcat", &inputs, &n, &["c"], vec![int("axis", 1)]),
        ["input 5 `Tensor[(N, 16, 8), uint8]` has 8 on axis 2, and input 2 `Tensor[(N, 32, 7), uint8]` has 7"]
    );
}

#[test]
fn quantized_matmuls_give_floats() {
    let inputs = [
        ("a", F, vec![p("B"), p("S"), v(768)]),
        ("b", D::I8, vec![v(768), v(3072)]),
        ("bs", F, vec![]),
        ("bz", D::I8, vec![]),
        ("bias", F, vec![v(3072)]),
    ];
    assert_eq!(
        types(
            "DynamicQuantizeMatMul",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["Tensor[(B, S, 3072), float32]"]
    );
    let inputs = [
        ("a", D::U8, vec![p("B"), p("S"), v(768)]),
        ("b", D::I8, vec![v(768), v(3072)]),
        ("as", F, vec![]),
        ("bs", F, vec![v(3072)]),
        ("az", D::U8, vec![]),
        ("bz", D::I8, vec![v(3072)]),
        ("bias", F, vec![v(768)]),
    ];
    assert_eq!(
        errors(
            "MatMulIntegerToFloat",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["`bias` has 768 elements, and the result's columns is 3072"]
    );
    let inputs = [
        ("a", D::U8, vec![p("B"), p("S"), v(768)]),
        ("b", D::I8, vec![v(512), v(3072)]),
        ("as", F, vec![]),
        ("bs", F, vec![v(3072)]),
    ];
    assert_eq!(
        errors(
            "MatMulIntegerToFloat",
            &inputs,
            &names(&inputs),
            &["y"],
            vec![]
        ),
        ["cannot multiply `Tensor[(B, S, 768), uint8]` by `Tensor[(512, 3072), int8]`: the inner dimensions 768 and 512 differ"]
    );
}

#[test]
fn quantize_and_dequantize_in_the_microsoft_domain() {
    let inputs = [
        ("x", F, vec![p("N"), v(64)]),
        ("s", F, vec![]),
        ("z", D::I8, vec![]),
    ];
    assert_eq!(
        types("QuantizeLinear", &inputs, &names(&inputs), &["y"], vec![]),
        ["Tensor[(N, 64), int8]"]
    );
    let inputs = [
        ("x", D::U8, vec![p("N"), v(64)]),
        ("s", F, vec![v(64)]),
        ("z", D::U8, vec![v(64)]),
    ];
    assert_eq!(
        types("DequantizeLinear", &inputs, &names(&inputs), &["y"], vec![]),
        ["Tensor[(N, 64), float32]"]
    );
    let inputs = [("x", D::U8, vec![p("N"), v(64)]), ("s", F, vec![v(32)])];
    assert_eq!(
        errors("DequantizeLinear", &inputs, &names(&inputs), &["y"], vec![]),
        ["the scale `Tensor[(32), float32]` does not fit the input `Tensor[(N, 64), uint8]`: per axis 1, it has 64 elements"]
    );
}

#[test]
fn ill_ranked_inputs_are_messages_not_panics() {
    let ops = [
        "Gelu",
        "QuickGelu",
        "FastGelu",
        "BiasGelu",
        "BiasAdd",
        "BiasSoftmax",
        "SkipLayerNormalization",
        "SkipSimplifiedLayerNormalization",
        "EmbedLayerNormalization",
        "Attention",
        "MultiHeadAttention",
        "GroupQueryAttention",
        "RotaryEmbedding",
        "MatMulNBits",
        "FusedMatMul",
        "FusedConv",
        "FusedGemm",
        "QLinearAdd",
        "QLinearMul",
        "QLinearSigmoid",
        "QLinearLeakyRelu",
        "QLinearSoftmax",
        "QLinearAveragePool",
        "QLinearGlobalAveragePool",
        "QLinearConcat",
        "QLinearConv",
        "DynamicQuantizeMatMul",
        "MatMulIntegerToFloat",
        "QuantizeLinear",
        "DequantizeLinear",
        "QAttention",
        "BiasSplitGelu",
        "GemmFastGelu",
        "GroupNorm",
        "SkipGroupNorm",
    ];
    let attrs = || {
        vec![
            int("num_heads", 2),
            int("kv_num_heads", 1),
            int("K", 8),
            int("N", 4),
            int("block_size", 16),
            int("axis", 0),
            int("transBatchA", 1),
            int("groups", 2),
        ]
    };
    for op in ops {
        for rank in 0..6 {
            for n in 1..=9 {
                let inputs: Vec<(&str, i32, Vec<D>)> =
                    ["a", "b", "c", "d", "e", "f", "g", "h", "i"][..n]
                        .iter()
                        .map(|&name| (name, F, (0..rank).map(|k| v(k as i64 + 1)).collect()))
                        .collect();
                let c = node_in(MS, op, &inputs, &names(&inputs), &["y"], attrs(), None);
                let _ = messages(&c);
            }
        }
    }
}

const NCHWC: &str = "com.microsoft.nchwc";

/// A model as onnxruntime saves it at `ORT_ENABLE_ALL`: blocked convolutions and pools
/// between `ReorderInput` and `ReorderOutput` (domain `com.microsoft.nchwc`).
fn blocked(g: &mut Graph) {
    g.opsets.push((NCHWC.into(), 1));
    g.input("x", F, &[p("N"), v(3), p("H"), p("W")]);
    g.input("w0", F, &[v(16), v(3), v(3), v(3)]);
    g.input("b0", F, &[v(16)]);
    // The first convolution reads the plain layout and writes the blocked one.
    g.node_in(
        NCHWC,
        "Conv",
        &["x", "w0", "b0"],
        &["c0"],
        vec![
            ints("kernel_shape", &[3, 3]),
            ints("strides", &[2, 2]),
            ints("pads", &[1, 1, 1, 1]),
            string("activation", "Relu"),
        ],
    );
    g.node_in(
        NCHWC,
        "MaxPool",
        &["c0"],
        &["m0"],
        vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])],
    );
    g.node_in(
        NCHWC,
        "Upsample",
        &["m0"],
        &["u0"],
        vec![ints("scales", &[1, 1, 2, 2])],
    );
    g.node_in(NCHWC, "GlobalAveragePool", &["u0"], &["g0"], vec![]);
    g.node_in(
        NCHWC,
        "ReorderOutput",
        &["u0"],
        &["y"],
        vec![int("channels", 16)],
    );
    g.node_in(
        NCHWC,
        "ReorderOutput",
        &["g0"],
        &["y_last"],
        vec![int("channels", 12), int("channels_last", 1)],
    );
    // 20 channels round up to 24 or 32 by the machine's block size: not known.
    g.input("z", F, &[p("N"), p("H"), p("W"), v(20)]);
    g.node_in(
        NCHWC,
        "ReorderInput",
        &["z"],
        &["zb"],
        vec![int("channels_last", 1)],
    );
    g.input("x32", F, &[p("N"), v(32), p("H"), p("W")]);
    g.node_in(NCHWC, "ReorderInput", &["x32"], &["xb"], vec![]);
    for o in ["y", "y_last", "zb", "xb"] {
        g.output(o);
    }
}

#[test]
fn onnxruntime_blocked_layout_operators() {
    let mut g = Graph::new(17);
    blocked(&mut g);
    let mut c = g.check();
    assert_eq!(messages(&c), Vec::<String>::new());
    assert_eq!(
        c.type_of("y").unwrap(),
        "Tensor[(N, 16, 2*floordiv(floordiv(H + 1, 2), 2), 2*floordiv(floordiv(W + 1, 2), 2)), float32]"
    );
    assert_eq!(
        c.type_of("y_last").unwrap(),
        "Tensor[(N, 1, 1, 12), float32]"
    );
    assert_eq!(c.type_of("zb").unwrap(), "Tensor[(N, ?, H, W), float32]");
    assert_eq!(c.type_of("xb").unwrap(), "Tensor[(N, 32, H, W), float32]");
}

#[test]
fn onnxruntime_blocked_layout_mistakes() {
    let reorder = |channels: i64| {
        let inputs = [("x", F, vec![p("N"), v(16), p("H"), p("W")])];
        messages(&node_in(
            NCHWC,
            "ReorderOutput",
            &inputs,
            &["x"],
            &["y"],
            vec![int("channels", channels)],
            None,
        ))
    };
    assert_eq!(reorder(0), ["`channels` is 0, and it must be positive"]);
    assert_eq!(
        reorder(24),
        ["`channels` is 24, more than the 16 of the blocked input `Tensor[(N, 16, H, W), float32]`"]
    );
    let inputs = [("x", F, vec![v(16)])];
    assert_eq!(
        messages(&node_in(
            NCHWC,
            "ReorderInput",
            &inputs,
            &["x"],
            &["y"],
            vec![],
            None
        )),
        ["the input is `Tensor[(16), float32]`, and a reorder takes a batch and channels"]
    );
    let inputs = [("x", F, vec![p("N"), v(16), p("H"), p("W")])];
    assert_eq!(
        messages(&node_in(
            NCHWC,
            "Upsample",
            &inputs,
            &["x"],
            &["y"],
            vec![ints("scales", &[2, 2])],
            None
        )),
        ["`scales` has 2 values for 4 axes"]
    );
}
