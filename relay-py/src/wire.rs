//! Writing inferred types back into a model's bytes: the model and its graph are walked
//! field by field on the wire and copied as they are, except the graph's outputs and
//! `value_info`, whose types are merged with the inferred ones, and the new `value_info`
//! entries appended. Every other field (weights, nodes, metadata, fields this crate does
//! not know) is copied once, byte for byte.
//!
//! Field numbers are those of the ONNX format: `ModelProto.graph` 7, `GraphProto.output`
//! 12, `.value_info` 13, `ValueInfoProto.name` 1, `.type` 2, `TypeProto.tensor_type` 1,
//! `TypeProto.Tensor.elem_type` 1, `.shape` 2, `TensorShapeProto.dim` 1,
//! `Dimension.dim_value` 1, `.dim_param` 2.

use hashbrown::HashTable;
use prost::encoding::{decode_varint, encode_varint, encoded_len_varint};
use prost::Message;
use relay_core::DType;
use relay_onnx::check::onnx_dtype;
use relay_onnx::check::DimShown;
use relay_onnx::proto::{
    DimensionProto, DimensionValue, TensorShapeProto, TensorTypeProto, TypeProto, TypeValue,
    ValueInfoProto,
};
use relay_onnx::ValueRef;
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};
use std::hash::BuildHasher;
use std::ops::Range;

const MODEL_GRAPH: u64 = 7;
const GRAPH_OUTPUT: u64 = 12;
const GRAPH_VALUE_INFO: u64 = 13;
const VALUE_INFO_NAME: u64 = 1;
const VALUE_INFO_TYPE: u64 = 2;
const LEN: u64 = 2;

/// One field of a message on the wire: its number, wire type, the bytes of the whole
/// field (key included) and of its payload (a length-delimited field's content).
struct Field {
    number: u64,
    wire: u64,
    whole: Range<usize>,
    payload: Range<usize>,
}

/// The fields of the message encoded in `buf`, in order (an error where the encoding
/// breaks off).
fn fields(buf: &[u8]) -> Fields<'_> {
    Fields { buf, pos: 0 }
}

struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl Fields<'_> {
    fn field(&mut self) -> Result<Field, String> {
        let buf = self.buf;
        let start = self.pos;
        let mut rest = &buf[start..];
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
        self.pos = end;
        Ok(Field {
            number,
            wire,
            whole: start..end,
            payload: payload_start..end,
        })
    }
}

impl Iterator for Fields<'_> {
    type Item = Result<Field, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.buf.len() {
            return None;
        }
        let f = self.field();
        if f.is_err() {
            // Nothing after a broken field is read.
            self.pos = self.buf.len();
        }
        Some(f)
    }
}

fn put_len_field(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    encode_varint(number << 3 | LEN, out);
    encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

/// What inference knows of a value: its ONNX element type (0: not known) and dims (none:
/// rank not known).
#[derive(Copy, Clone)]
pub struct Inferred<'v> {
    pub elem_type: i32,
    pub dims: Option<&'v [DimShown]>,
}

impl Inferred<'_> {
    /// Writes `ValueInfoProto { name, type }` of this type, as [`Inferred::to_proto`]
    /// encodes it, into `out` (with `scratch` for the nested messages: no allocation
    /// per value).
    fn write_value_info(
        &self,
        name: &[u8],
        out: &mut Vec<u8>,
        scratch: &mut [Vec<u8>; 3],
    ) -> Range<usize> {
        let [shape, tensor, dim] = scratch;
        shape.clear();
        if let Some(dims) = self.dims {
            for d in dims {
                dim.clear();
                match d {
                    DimShown::Const(c) => {
                        encode_varint(1 << 3, dim);
                        encode_varint(*c as u64, dim);
                    }
                    DimShown::Sym(s) => put_len_field(dim, 2, s.as_bytes()),
                    DimShown::Unknown => {}
                }
                put_len_field(shape, 1, dim);
            }
        }
        tensor.clear();
        if self.elem_type != 0 {
            encode_varint(1 << 3, tensor);
            encode_varint(self.elem_type as u64, tensor);
        }
        if self.dims.is_some() {
            put_len_field(tensor, 2, shape);
        }
        // `TypeProto { tensor_type: 1 }` around it, in `ValueInfoProto { name, type }`
        // (each key is one byte).
        let type_len = 1 + encoded_len_varint(tensor.len() as u64) + tensor.len();
        let vi_len = 1
            + encoded_len_varint(name.len() as u64)
            + name.len()
            + 1
            + encoded_len_varint(type_len as u64)
            + type_len;
        encode_varint(GRAPH_VALUE_INFO << 3 | LEN, out);
        encode_varint(vi_len as u64, out);
        put_len_field(out, VALUE_INFO_NAME, name);
        let at = out.len() - name.len()..out.len();
        encode_varint(VALUE_INFO_TYPE << 3 | LEN, out);
        encode_varint(type_len as u64, out);
        put_len_field(out, 1, tensor);
        at
    }

    /// The type, as ONNX writes it: a constant as `dim_value`, a symbol or an expression
    /// as `dim_param` (in Relay's syntax, which reads back), an unknown unset.
    fn to_proto(self) -> TypeProto {
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
                shape: self.dims.map(|dims| TensorShapeProto {
                    dim: dims.iter().map(dim).collect(),
                }),
            })),
        }
    }

    /// The declared type `declared` made as precise as the inferred one: an inferred
    /// constant replaces a dimension, an inferred symbol or expression replaces a declared
    /// name (an exporter's `Reshape_524_o0__d2` becomes what it is in the inputs' symbols)
    /// or an unset dimension; a declared number is kept where inference knows less, and
    /// any declared dimension where it knows nothing. `None` when the declared type is not
    /// a tensor or disagrees in rank (the diagnostics say so): it is kept as it is.
    fn merged(self, declared: Option<&TypeProto>) -> Option<TypeProto> {
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
        let shape = match (&declared.shape, self.dims) {
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

    fn to_proto_shape(self) -> Option<TensorShapeProto> {
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
    for f in fields(raw) {
        let f = f?;
        if f.number != VALUE_INFO_TYPE {
            out.extend_from_slice(&raw[f.whole]);
        }
    }
    put_len_field(&mut out, VALUE_INFO_TYPE, &ty.encode_to_vec());
    Ok(out)
}

/// Writes inferred types into a model: give it each value ([`Writer::value`]), then
/// [`Writer::finish`]. The new `value_info` entries are encoded as the values come;
/// the few values the graph declares already (its outputs, its `value_info`) are kept
/// to be merged into their declarations.
pub struct Writer<'m> {
    model: &'m [u8],
    /// Where the graph's field is in `model`, and its encoding.
    graph_field: Range<usize>,
    graph: Range<usize>,
    /// The names the graph declares (outputs and `value_info`), each with its inferred
    /// type once it comes.
    declared: HashMap<&'m [u8], Option<Owned>>,
    /// The new `value_info` entries, encoded.
    entries: Vec<u8>,
    /// Where each name written in `entries` is (a name made twice, which the checker
    /// allows as ONNX's users do, is written for its first value).
    written: HashTable<Range<usize>>,
    scratch: [Vec<u8>; 3],
    /// The ONNX element type of each dtype.
    elem_types: HashMap<DType, i32>,
}

/// An inferred type kept beyond its value's visit.
struct Owned {
    elem_type: i32,
    dims: Option<Vec<DimShown>>,
}

impl<'m> Writer<'m> {
    /// A writer for the model encoded in `model`; an error if it is not readable.
    pub fn new(model: &'m [u8]) -> Result<Self, String> {
        let mut graph = None;
        for f in fields(model) {
            let f = f?;
            if f.number == MODEL_GRAPH && f.wire == LEN {
                graph = Some((f.whole, f.payload));
            }
        }
        let (graph_field, graph) = graph.ok_or("the model has no graph")?;
        let mut declared = HashMap::default();
        for f in fields(&model[graph.clone()]) {
            let f = f?;
            if (f.number == GRAPH_OUTPUT || f.number == GRAPH_VALUE_INFO) && f.wire == LEN {
                let raw = &model[graph.start + f.payload.start..graph.start + f.payload.end];
                declared.insert(name_of(raw)?, None);
            }
        }
        let elem_types = (1..64)
            .filter_map(|e| Some((onnx_dtype(e).ok()?, e)))
            .collect();
        Ok(Writer {
            model,
            graph_field,
            graph,
            declared,
            entries: Vec::new(),
            written: HashTable::new(),
            scratch: Default::default(),
            elem_types,
        })
    }

    /// Takes in one value: a node output that was checked and of which something is
    /// known gets a `value_info` entry, or its declaration is merged.
    pub fn value(&mut self, v: ValueRef<'_>) {
        if v.node.is_none() || !v.checked || (v.dtype.is_none() && v.dims.is_none()) {
            return;
        }
        let elem_type = v
            .dtype
            .and_then(|d| self.elem_types.get(&d).copied())
            .unwrap_or(0);
        if let Some(slot) = self.declared.get_mut(v.name) {
            if slot.is_none() {
                *slot = Some(Owned {
                    elem_type,
                    dims: v.dims.map(<[DimShown]>::to_vec),
                });
            }
            return;
        }
        let hash = FxBuildHasher.hash_one(v.name);
        let entries = &self.entries;
        if self
            .written
            .find(hash, |r| &entries[r.clone()] == v.name)
            .is_some()
        {
            return;
        }
        let inferred = Inferred {
            elem_type,
            dims: v.dims,
        };
        let name = inferred.write_value_info(v.name, &mut self.entries, &mut self.scratch);
        let entries = &self.entries;
        self.written
            .insert_unique(hash, name, |r| FxBuildHasher.hash_one(&entries[r.clone()]));
    }

    /// The model with the types written in: every graph output and every node output's
    /// `value_info` as precise as inference made it. Values the graph already declares
    /// keep what they declare where inference knows less.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        let model = self.model;
        let graph = &model[self.graph.clone()];
        let mut g = Vec::with_capacity(graph.len() + self.entries.len());
        // The declared values retyped in place; the fields between them copied in runs.
        let mut run = 0;
        for f in fields(graph) {
            let f = f?;
            if !((f.number == GRAPH_OUTPUT || f.number == GRAPH_VALUE_INFO) && f.wire == LEN) {
                continue;
            }
            let raw = &graph[f.payload.clone()];
            let Some(Some(have)) = self.declared.get(name_of(raw)?) else {
                continue;
            };
            let vi = ValueInfoProto::decode(raw)
                .map_err(|e| format!("a graph output or value_info does not decode: {e}"))?;
            let inferred = Inferred {
                elem_type: have.elem_type,
                dims: have.dims.as_deref(),
            };
            if let Some(ty) = inferred.merged(vi.r#type.as_ref()) {
                g.extend_from_slice(&graph[run..f.whole.start]);
                put_len_field(&mut g, f.number, &retyped(raw, &ty)?);
                run = f.whole.end;
            }
        }
        g.extend_from_slice(&graph[run..]);
        g.extend_from_slice(&self.entries);
        // The model around it, its other fields copied.
        let mut out = Vec::with_capacity(model.len() + self.entries.len() + 16);
        out.extend_from_slice(&model[..self.graph_field.start]);
        put_len_field(&mut out, MODEL_GRAPH, &g);
        out.extend_from_slice(&model[self.graph_field.end..]);
        Ok(out)
    }
}

/// The name of the `ValueInfoProto` encoded in `raw` (the last one written, as protobuf
/// reads a field written twice).
fn name_of(raw: &[u8]) -> Result<&[u8], String> {
    let mut name: &[u8] = &[];
    for f in fields(raw) {
        let f = f?;
        if f.number == VALUE_INFO_NAME && f.wire == LEN {
            name = &raw[f.payload];
        }
    }
    Ok(name)
}
