//! The reference workload of the benchmarks as an ONNX model: the transformer-like block
//! of [`relay_ops::workload`] (18 operators over `x: float[n, 768]`) written with ONNX's
//! operators (`MatMul`, `Add`, `Reshape`, `Transpose`, `Softmax`, `Concat`), repeated to
//! `N` nodes, each block with its own weights as initializers.
//!
//! The weights are stored outside the file by default (their dims and dtypes only, as
//! a stripped model), or inline (`Weights::Inline`: zeros in `raw_data`, 28 MB a block),
//! which makes the large files a checker must read without copying.
//!
//! ```
//! use relay_onnx::workload::{transformer, Weights};
//! let bytes = transformer(36, Weights::External);
//! let mut c = relay_onnx::check_bytes(bytes.into()).unwrap();
//! assert_eq!(c.signature(), "fn (Tensor[(n, 768), float32]) -> Tensor[(n, 768), float32]");
//! ```

use crate::proto::*;
use bytes::Bytes;
use prost::Message;

/// Where the workload's weights are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Weights {
    /// Outside the file (dims and dtype only).
    External,
    /// In the file, as zeros.
    Inline,
}

/// The most nodes the workload has.
pub const MAX_NODES: usize = 10_000_000;

/// The nodes of one block: op type, inputs (`#` the block index, `$` the block's input),
/// output name, and the attribute (`perm` of a `Transpose`, `axis` of the others).
const BLOCK: [(&str, &[&str], &str); 18] = [
    ("MatMul", &["$", "Wq_#"], "q_#"),
    ("Add", &["q_#", "bq_#"], "qb_#"),
    ("Reshape", &["qb_#", "shape_heads"], "q3_#"),
    ("Transpose", &["q3_#"], "qt_#"),
    ("Softmax", &["qt_#"], "s_#"),
    ("Transpose", &["s_#"], "st_#"),
    ("Reshape", &["st_#", "shape_flat"], "m_#"),
    ("MatMul", &["$", "Wv_#"], "v_#"),
    ("Add", &["v_#", "bv_#"], "vb_#"),
    ("Concat", &["m_#", "vb_#"], "c_#"),
    ("MatMul", &["c_#", "Wo_#"], "o_#"),
    ("Add", &["o_#", "bo_#"], "ob_#"),
    ("Add", &["ob_#", "$"], "h1_#"),
    ("MatMul", &["h1_#", "W1_#"], "f1_#"),
    ("Add", &["f1_#", "b1_#"], "f1b_#"),
    ("MatMul", &["f1b_#", "W2_#"], "f2_#"),
    ("Add", &["f2_#", "b2_#"], "f2b_#"),
    ("Add", &["f2b_#", "h1_#"], "h2_#"),
];

/// The weights of one block: name and dims (`MatMul`'s right-hand sides are `(in, out)`).
const WEIGHTS: [(&str, &[i64]); 10] = [
    ("Wq", &[768, 768]),
    ("bq", &[768]),
    ("Wv", &[768, 768]),
    ("bv", &[768]),
    ("Wo", &[1536, 768]),
    ("bo", &[768]),
    ("W1", &[768, 3072]),
    ("b1", &[3072]),
    ("W2", &[3072, 768]),
    ("b2", &[768]),
];

/// The workload of `nodes` nodes (rounded up to whole blocks of 18), encoded.
pub fn transformer(nodes: usize, weights: Weights) -> Vec<u8> {
    let nodes = nodes.min(MAX_NODES);
    let blocks = nodes.div_ceil(BLOCK.len()).max(1);
    let mut g = GraphProto {
        name: "workload".into(),
        ..Default::default()
    };
    g.input.push(ValueInfoProto {
        name: "x".into(),
        r#type: Some(crate::build::tensor_type(
            1,
            Some(&[crate::build::D::p("n"), crate::build::D::v(768)]),
        )),
    });
    for (name, dims, v) in [
        ("shape_heads", 3, &[0, 12, -1][..]),
        ("shape_flat", 2, &[0, -1]),
    ] {
        let t = crate::build::int64_tensor(name, &[dims], v);
        g.initializer.push(t.encode_to_vec().into());
    }
    let mut input = "x".to_string();
    let mut zeros = Bytes::new();
    for b in 0..blocks {
        let name = |s: &str| Bytes::from(s.replace('#', &b.to_string()).replace('$', &input));
        for (w, dims) in WEIGHTS {
            let mut t = TensorProto {
                name: format!("{w}_{b}").into(),
                dims: dims.to_vec(),
                data_type: 1,
                ..Default::default()
            };
            match weights {
                Weights::External => {
                    t.data_location = 1;
                    t.external_data = vec![Bytes::from(
                        StringStringEntryProto {
                            key: "location".into(),
                            value: "weights.bin".into(),
                        }
                        .encode_to_vec(),
                    )];
                }
                Weights::Inline => {
                    let n = dims.iter().product::<i64>() as usize * 4;
                    if zeros.len() < n {
                        zeros = Bytes::from(vec![0u8; n]);
                    }
                    t.raw_data = zeros.slice(..n);
                }
            }
            g.initializer.push(t.encode_to_vec().into());
        }
        for (k, (op, ins, out)) in BLOCK.iter().enumerate() {
            let attribute = match *op {
                "Transpose" => vec![crate::build::ints("perm", &[0, 2, 1])],
                "Softmax" => vec![crate::build::int("axis", -1)],
                "Concat" => vec![crate::build::int("axis", 1)],
                _ => vec![],
            };
            g.node.push(Bytes::from(
                NodeProto {
                    input: ins.iter().map(|i| name(i)).collect(),
                    output: vec![name(out)],
                    name: format!("{op}_{}", b * BLOCK.len() + k).into(),
                    op_type: (*op).into(),
                    attribute,
                    ..Default::default()
                }
                .encode_to_vec(),
            ));
        }
        input = format!("h2_{b}");
    }
    g.output.push(ValueInfoProto {
        name: input.into(),
        r#type: None,
    });
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto {
            domain: "".into(),
            version: 17,
        }],
        producer_name: "relay workload".into(),
        graph: Some(g),
        ..Default::default()
    }
    .encode_to_vec()
}
