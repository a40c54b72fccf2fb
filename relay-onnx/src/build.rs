//! Building small models in Rust, for tests and examples: a graph of named inputs,
//! initializers and nodes, encoded as a model of one opset.
//!
//! ```
//! use relay_onnx::build::{Graph, D};
//! let mut g = Graph::new(17);
//! g.input("x", D::F32, &[D::p("N"), D::v(3)]);
//! g.node("Relu", &["x"], &["y"], vec![]);
//! g.output("y");
//! let mut c = g.check();
//! assert_eq!(c.type_of("y").unwrap(), "Tensor[(N, 3), float32]");
//! ```

use crate::proto::*;
use bytes::Bytes;
use prost::Message;

/// A dimension of a declared type, and the element types by their ONNX numbers.
#[derive(Clone, Debug)]
pub enum D {
    /// A `dim_value`.
    V(i64),
    /// A `dim_param`.
    P(String),
    /// Unset.
    Unknown,
}

impl D {
    /// `float`.
    pub const F32: i32 = 1;
    /// `int64`.
    pub const I64: i32 = 7;
    /// `int32`.
    pub const I32: i32 = 6;
    /// `bool`.
    pub const BOOL: i32 = 9;
    /// `uint8`.
    pub const U8: i32 = 2;
    /// `int8`.
    pub const I8: i32 = 3;
    /// `float16`.
    pub const F16: i32 = 10;
    /// `double`.
    pub const F64: i32 = 11;
    /// `string`.
    pub const STR: i32 = 8;

    /// A `dim_value`.
    pub fn v(n: i64) -> D {
        D::V(n)
    }

    /// A `dim_param`.
    pub fn p(name: &str) -> D {
        D::P(name.to_string())
    }
}

/// A graph under construction.
pub struct Graph {
    /// The default domain's opset version.
    pub opset: i64,
    /// Further opsets (domain, version).
    pub opsets: Vec<(String, i64)>,
    /// The graph.
    pub graph: GraphProto,
}

/// A tensor type with these dims (`None`: unknown rank).
pub fn tensor_type(elem: i32, dims: Option<&[D]>) -> TypeProto {
    TypeProto {
        value: Some(TypeValue::TensorType(TensorTypeProto {
            elem_type: elem,
            shape: dims.map(|dims| TensorShapeProto {
                dim: dims
                    .iter()
                    .map(|d| DimensionProto {
                        value: match d {
                            D::V(n) => Some(DimensionValue::DimValue(*n)),
                            D::P(p) => Some(DimensionValue::DimParam(Bytes::from(p.clone()))),
                            D::Unknown => None,
                        },
                    })
                    .collect(),
            }),
        })),
    }
}

/// An `INT` attribute.
pub fn int(name: &str, i: i64) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 2,
        i,
        ..Default::default()
    }
}

/// A `FLOAT` attribute.
pub fn float(name: &str, f: f32) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 1,
        f,
        ..Default::default()
    }
}

/// An `INTS` attribute.
pub fn ints(name: &str, v: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 7,
        ints: v.to_vec(),
        ..Default::default()
    }
}

/// A `FLOATS` attribute.
pub fn floats(name: &str, v: &[f32]) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 6,
        floats: v.to_vec(),
        ..Default::default()
    }
}

/// A `STRING` attribute.
pub fn string(name: &str, s: &str) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 3,
        s: s.to_string().into(),
        ..Default::default()
    }
}

/// A `GRAPH` attribute (a control-flow body): `g`'s graph.
pub fn graph_attr(name: &str, g: &Graph) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 5,
        g: Some(g.graph.clone()),
        ..Default::default()
    }
}

/// A `TENSOR` attribute holding int64 values of these dims.
pub fn tensor_attr(name: &str, dims: &[i64], values: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.to_string().into(),
        r#type: 4,
        t: Some(int64_tensor("", dims, values)),
        ..Default::default()
    }
}

/// An int64 tensor.
pub fn int64_tensor(name: &str, dims: &[i64], values: &[i64]) -> TensorProto {
    TensorProto {
        name: name.to_string().into(),
        dims: dims.to_vec(),
        data_type: 7,
        int64_data: values.to_vec(),
        ..Default::default()
    }
}

impl Graph {
    /// An empty graph of the default domain at `opset`.
    pub fn new(opset: i64) -> Self {
        Graph {
            opset,
            opsets: Vec::new(),
            graph: GraphProto::default(),
        }
    }

    /// A graph input of this element type and dims.
    pub fn input(&mut self, name: &str, elem: i32, dims: &[D]) -> &mut Self {
        self.graph.input.push(ValueInfoProto {
            name: name.to_string().into(),
            r#type: Some(tensor_type(elem, Some(dims))),
        });
        self
    }

    /// A graph input, a sequence of tensors of `elem` and these dims.
    pub fn input_sequence(&mut self, name: &str, elem: i32, dims: &[D]) -> &mut Self {
        let elem = tensor_type(elem, Some(dims));
        self.graph.input.push(ValueInfoProto {
            name: name.to_string().into(),
            r#type: Some(TypeProto {
                value: Some(TypeValue::SequenceType(Box::new(SequenceTypeProto {
                    elem_type: Some(Box::new(elem)),
                }))),
            }),
        });
        self
    }

    /// An initializer.
    pub fn init(&mut self, t: TensorProto) -> &mut Self {
        self.graph.initializer.push(t.encode_to_vec().into());
        self
    }

    /// An int64 initializer.
    pub fn init_ints(&mut self, name: &str, dims: &[i64], values: &[i64]) -> &mut Self {
        self.graph
            .initializer
            .push(int64_tensor(name, dims, values).encode_to_vec().into());
        self
    }

    /// A float initializer of these dims, its data outside the file (as large weights
    /// are).
    pub fn init_f32(&mut self, name: &str, dims: &[i64]) -> &mut Self {
        self.graph.initializer.push(
            TensorProto {
                name: name.to_string().into(),
                dims: dims.to_vec(),
                data_type: 1,
                data_location: 1,
                external_data: vec![Bytes::from(
                    StringStringEntryProto {
                        key: "location".into(),
                        value: "weights.bin".into(),
                    }
                    .encode_to_vec(),
                )],
                ..Default::default()
            }
            .encode_to_vec()
            .into(),
        );
        self
    }

    /// A node of the default domain.
    pub fn node(
        &mut self,
        op: &str,
        inputs: &[&str],
        outputs: &[&str],
        attrs: Vec<AttributeProto>,
    ) -> &mut Self {
        self.node_in("", op, inputs, outputs, attrs)
    }

    /// A node of a domain.
    pub fn node_in(
        &mut self,
        domain: &str,
        op: &str,
        inputs: &[&str],
        outputs: &[&str],
        attrs: Vec<AttributeProto>,
    ) -> &mut Self {
        let k = self.graph.node.len();
        self.graph.node.push(Bytes::from(
            NodeProto {
                input: inputs.iter().map(|s| Bytes::from(s.to_string())).collect(),
                output: outputs.iter().map(|s| Bytes::from(s.to_string())).collect(),
                name: format!("{op}_{k}").into(),
                op_type: op.to_string().into(),
                domain: domain.to_string().into(),
                attribute: attrs,
            }
            .encode_to_vec(),
        ));
        self
    }

    /// A graph output with no declared type.
    pub fn output(&mut self, name: &str) -> &mut Self {
        self.graph.output.push(ValueInfoProto {
            name: name.to_string().into(),
            r#type: None,
        });
        self
    }

    /// A graph output with a declared type.
    pub fn output_typed(&mut self, name: &str, elem: i32, dims: &[D]) -> &mut Self {
        self.graph.output.push(ValueInfoProto {
            name: name.to_string().into(),
            r#type: Some(tensor_type(elem, Some(dims))),
        });
        self
    }

    /// The model.
    pub fn model(&self) -> ModelProto {
        let mut opset_import = vec![OperatorSetIdProto {
            domain: "".into(),
            version: self.opset,
        }];
        for (d, v) in &self.opsets {
            opset_import.push(OperatorSetIdProto {
                domain: d.clone().into(),
                version: *v,
            });
        }
        ModelProto {
            ir_version: 8,
            opset_import,
            producer_name: "relay-onnx tests".into(),
            graph: Some(self.graph.clone()),
            ..Default::default()
        }
    }

    /// The model's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.model().encode_to_vec()
    }

    /// The model checked (through its bytes, as a file is).
    pub fn check(&self) -> crate::Checked {
        crate::check_bytes(Bytes::from(self.bytes())).expect("a model built here reads back")
    }
}
