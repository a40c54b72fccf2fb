//! Writing inferred types back into a model's bytes: the model and its graph are walked
//! field by field on the wire and copied as they are, except the graph's outputs and
//! `value_info`, whose types are merged with the inferred ones, and the new `value_info`
//! entries appended. Every other field (weights, nodes, metadata, fields this crate does
//! not know) is copied once, byte for byte.
//!
//! Field numbers are those of the ONNX format: `ModelProto.graph` 7, `GraphProto.node` 1,
//! `.output` 12, `.value_info` 13, `ValueInfoProto.name` 1, `.type` 2.

use prost::encoding::{decode_varint, encode_varint};
use prost::Message;
use relay_onnx::check::DimShown;
use relay_onnx::proto::{
    DimensionProto, DimensionValue, TensorShapeProto, TensorTypeProto, TypeProto, TypeValue,
    ValueInfoProto,
};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

const MODEL_GRAPH: u64 = 7;
const GRAPH_NODE: u64 = 1;
const GRAPH_OUTPUT: u64 = 12;
const GRAPH_VALUE_INFO: u64 = 13;
const VALUE_INFO_NAME: u64 = 1;
const VALUE_INFO_TYPE: u64 = 2;
const NODE_OUTPUT: u64 = 2;
const LEN: u64 = 2;

/// One field of a message on the wire: its number, wire type, the bytes of the whole
/// field (key included) and of its payload (a length-delimited field's content).
struct Field {
    number: u64,
    wire: u64,
    whole: Range<usize>,
    payload: Range<usize>,
}

/// The fields of the message encoded in `buf`, in order.
fn fields(buf: &[u8]) -> Result<Vec<Field>, String> {
    let mut out = Vec::new();
    let mut rest = buf;
    while !rest.is_empty() {
        let start = buf.len() - rest.len();
        let key = decode_varint(&mut rest).map_err(|e| e.to_string())?;
        let (number, wire) = (key >> 3, key & 7);
        let payload_start;
        match wire {
            0 => {
                payload_start = buf.len() - rest.len();
                decode_varint(&mut rest).map_err(|e| e.to_string())?;
            }
            1 | 5 => {
                payload_start = buf.len() - rest.len();
                let n = if wire == 1 { 8 } else { 4 };
                if rest.len() < n {
                    return Err("a field runs past the end of its message".into());
                }
                rest = &rest[n..];
            }
            LEN => {
                let n = decode_varint(&mut rest).map_err(|e| e.to_string())?;
                let n = usize::try_from(n)
                    .ok()
                    .filter(|&n| n <= rest.len())
                    .ok_or("a field runs past the end of its message")?;
                payload_start = buf.len() - rest.len();
                rest = &rest[n..];
            }
            _ => {
                return Err(format!(
                    "field {number} has wire type {wire}, which ONNX never uses"
                ))
            }
        }
        let end = buf.len() - rest.len();
        out.push(Field {
            number,
            wire,
            whole: start..end,
            payload: payload_start..end,
        });
    }
    Ok(out)
}

fn put_len_field(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    encode_varint(number << 3 | LEN, out);
    encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

/// What inference knows of a value: its ONNX element type (0: not known) and dims (none:
/// rank not known).
pub struct Inferred {
    pub elem_type: i32,
    pub dims: Option<Vec<DimShown>>,
}

impl Inferred {
    /// The type, as ONNX writes it: a constant as `dim_value`, a symbol or an expression
    /// as `dim_param` (in Relay's syntax, which reads back), an unknown unset.
    fn to_proto(&self) -> TypeProto {
        let dim = |d: &DimShown| DimensionProto {
            value: match d {
                DimShown::Const(c) => Some(DimensionValue::DimValue(*c)),
                DimShown::Sym(s) => Some(DimensionValue::DimParam(s.clone().into())),
                DimShown::Unknown => None,
            },
        };
        TypeProto {
            value: Some(TypeValue::TensorType(TensorTypeProto {
                elem_type: self.elem_type,
                shape: self.dims.as_ref().map(|dims| TensorShapeProto {
                    dim: dims.iter().map(dim).collect(),
                }),
            })),
        }
    }

    /// The declared type `declared` made as precise as the inferred one, as ONNX merges
    /// them: an inferred constant replaces a dimension; a declared dimension (a number or a
    /// name) is otherwise kept, and an unset one takes the inferred symbol. `None` when
    /// the declared type is not a tensor or disagrees in rank (the diagnostics say so):
    /// it is kept as it is.
    fn merged(&self, declared: Option<&TypeProto>) -> Option<TypeProto> {
        let declared = match declared.and_then(|t| t.value.as_ref()) {
            None => return Some(self.to_proto()),
            Some(TypeValue::TensorType(t)) => t,
            Some(_) => return None,
        };
        let elem_type = if declared.elem_type != 0 {
            declared.elem_type
        } else {
            self.elem_type
        };
        let shape = match (&declared.shape, &self.dims) {
            (None, _) => self.to_proto_shape(),
            (Some(s), None) => Some(s.clone()),
            (Some(s), Some(dims)) if s.dim.len() != dims.len() => return None,
            (Some(s), Some(dims)) => Some(TensorShapeProto {
                dim: s
                    .dim
                    .iter()
                    .zip(dims)
                    .map(|(d, have)| match (have, &d.value) {
                        (DimShown::Const(c), _) => DimensionProto {
                            value: Some(DimensionValue::DimValue(*c)),
                        },
                        (_, Some(DimensionValue::DimValue(v))) if *v >= 0 => d.clone(),
                        (_, Some(DimensionValue::DimParam(p))) if !p.is_empty() => d.clone(),
                        (DimShown::Sym(s), _) => DimensionProto {
                            value: Some(DimensionValue::DimParam(s.clone().into())),
                        },
                        (DimShown::Unknown, _) => d.clone(),
                    })
                    .collect(),
            }),
        };
        Some(TypeProto {
            value: Some(TypeValue::TensorType(TensorTypeProto { elem_type, shape })),
        })
    }

    fn to_proto_shape(&self) -> Option<TensorShapeProto> {
        match self.to_proto().value {
            Some(TypeValue::TensorType(t)) => t.shape,
            _ => None,
        }
    }
}

/// A `ValueInfoProto` (encoded in `raw`) with its type replaced by `ty`, its other fields
/// (name, doc string, metadata) copied.
fn retyped(raw: &[u8], ty: &TypeProto) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(raw.len() + 32);
    for f in fields(raw)? {
        if f.number != VALUE_INFO_TYPE {
            out.extend_from_slice(&raw[f.whole]);
        }
    }
    put_len_field(&mut out, VALUE_INFO_TYPE, &ty.encode_to_vec());
    Ok(out)
}

/// The names of the outputs of the graph's nodes (encoded in `graph`), in order.
fn node_outputs(graph: &[u8]) -> Result<Vec<&[u8]>, String> {
    let mut names = Vec::new();
    for f in fields(graph)? {
        if f.number == GRAPH_NODE && f.wire == LEN {
            let node = &graph[f.payload];
            for g in fields(node)? {
                if g.number == NODE_OUTPUT && g.wire == LEN && !g.payload.is_empty() {
                    names.push(&node[g.payload]);
                }
            }
        }
    }
    Ok(names)
}

/// The model encoded in `model` with the inferred types (`types`, by value name) written
/// in: every graph output and every node output's `value_info` as precise as inference
/// made it. Values the graph already declares keep what they declare where inference
/// knows less.
pub fn write_back(model: &[u8], types: &HashMap<Vec<u8>, Inferred>) -> Result<Vec<u8>, String> {
    let top = fields(model)?;
    let mut out = Vec::with_capacity(model.len() + types.len() * 48);
    for f in top {
        if f.number == MODEL_GRAPH && f.wire == LEN {
            let graph = write_graph(&model[f.payload.clone()], types)?;
            put_len_field(&mut out, MODEL_GRAPH, &graph);
        } else {
            out.extend_from_slice(&model[f.whole]);
        }
    }
    Ok(out)
}

fn write_graph(graph: &[u8], types: &HashMap<Vec<u8>, Inferred>) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(graph.len() + types.len() * 48);
    // Values already declared (outputs and `value_info`): retyped in place.
    let mut declared: HashSet<&[u8]> = HashSet::new();
    for f in fields(graph)? {
        let raw = &graph[f.payload.clone()];
        if (f.number == GRAPH_OUTPUT || f.number == GRAPH_VALUE_INFO) && f.wire == LEN {
            let vi = ValueInfoProto::decode(raw)
                .map_err(|e| format!("a graph output or value_info does not decode: {e}"))?;
            declared.insert(name_of(raw)?);
            if let Some(ty) = types
                .get(&vi.name[..])
                .and_then(|i| i.merged(vi.r#type.as_ref()))
            {
                put_len_field(&mut out, f.number, &retyped(raw, &ty)?);
                continue;
            }
        }
        out.extend_from_slice(&graph[f.whole]);
    }
    // The other node outputs: new `value_info` entries, in the order of the nodes.
    for name in node_outputs(graph)? {
        // A name declared already, or made twice (the checker reports that).
        if !declared.insert(name) {
            continue;
        }
        let Some(inferred) = types.get(name) else {
            continue;
        };
        let vi = ValueInfoProto {
            name: bytes::Bytes::copy_from_slice(name),
            r#type: Some(inferred.to_proto()),
        };
        put_len_field(&mut out, GRAPH_VALUE_INFO, &vi.encode_to_vec());
    }
    Ok(out)
}

/// The name of the `ValueInfoProto` encoded in `raw` (the last one written, as protobuf
/// reads a field written twice).
fn name_of(raw: &[u8]) -> Result<&[u8], String> {
    let mut name: &[u8] = &[];
    for f in fields(raw)? {
        if f.number == VALUE_INFO_NAME && f.wire == LEN {
            name = &raw[f.payload];
        }
    }
    Ok(name)
}
