//! The messages of the ONNX format that a shape checker reads, declared with prost's
//! derive (no `protoc`, no build script). Only the fields the checker needs are declared:
//! prost skips the others on the wire, so a weight stored as `float_data` is never
//! decoded. The field numbers and wire types are those of the ONNX format.
//!
//! Strings (names, op types, domains) are declared as `Bytes`: the wire form of a string
//! and of bytes is the same, and a `Bytes` field of a message decoded from a `Bytes`
//! buffer is a slice of that buffer, so neither a name nor a weight is copied. Names are
//! checked as UTF-8 when they are read ([`text`]).
//!
//! ```
//! use prost::Message;
//! use relay_onnx::proto::{ModelProto, OperatorSetIdProto};
//! let model = ModelProto {
//!     ir_version: 8,
//!     opset_import: vec![OperatorSetIdProto { domain: "".into(), version: 17 }],
//!     ..Default::default()
//! };
//! let bytes = bytes::Bytes::from(model.encode_to_vec());
//! let back = ModelProto::decode(bytes).unwrap();
//! assert_eq!(back.opset_import[0].version, 17);
//! ```

use bytes::Bytes;
use prost::{Message, Oneof};

/// A model: its IR version, the operator sets it imports, and its graph.
#[derive(Clone, PartialEq, Message)]
pub struct ModelProto {
    /// The version of the IR the model was written in.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// The operator sets (domain and version) its nodes use.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
    /// The tool that wrote it.
    #[prost(bytes = "bytes", tag = "2")]
    pub producer_name: Bytes,
    /// The version of that tool.
    #[prost(bytes = "bytes", tag = "3")]
    pub producer_version: Bytes,
    /// The graph.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Key-value metadata (licence, author, ...).
    #[prost(message, repeated, tag = "14")]
    pub metadata_props: Vec<StringStringEntryProto>,
    /// Model-local functions.
    #[prost(message, repeated, tag = "25")]
    pub functions: Vec<FunctionProto>,
}

/// An operator set: a domain (`""` is the default domain, `ai.onnx`) and its version.
#[derive(Clone, PartialEq, Message)]
pub struct OperatorSetIdProto {
    /// The domain.
    #[prost(bytes = "bytes", tag = "1")]
    pub domain: Bytes,
    /// The version.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// A key and a value.
#[derive(Clone, PartialEq, Message)]
pub struct StringStringEntryProto {
    /// The key.
    #[prost(bytes = "bytes", tag = "1")]
    pub key: Bytes,
    /// The value.
    #[prost(bytes = "bytes", tag = "2")]
    pub value: Bytes,
}

/// A graph: nodes in any order, its inputs, outputs, initializers and declared types.
#[derive(Clone, PartialEq, Message)]
pub struct GraphProto {
    /// The nodes, each still encoded (a [`NodeProto`], wire-identical): read with
    /// [`Nodes::read`], which takes their names as slices of the file, without the
    /// allocations of a decoded message per node.
    #[prost(bytes = "bytes", repeated, tag = "1")]
    pub node: Vec<Bytes>,
    /// Its name.
    #[prost(bytes = "bytes", tag = "2")]
    pub name: Bytes,
    /// Constant tensors (weights), by name, each still encoded (a [`TensorProto`]): the
    /// checker decodes one at a time, and reads its name with [`tensor_name`].
    #[prost(bytes = "bytes", repeated, tag = "5")]
    pub initializer: Vec<Bytes>,
    /// The graph's inputs (initializers may be listed among them).
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
    /// Declared types of intermediate values.
    #[prost(message, repeated, tag = "13")]
    pub value_info: Vec<ValueInfoProto>,
}

/// A node: an operator applied to named inputs, giving named outputs. The checker reads
/// nodes with [`Nodes::read`]; this message writes them ([`crate::build`]).
#[derive(Clone, PartialEq, Message)]
pub struct NodeProto {
    /// Input names (`""` for an absent optional input).
    #[prost(bytes = "bytes", repeated, tag = "1")]
    pub input: Vec<Bytes>,
    /// Output names (`""` for an output not asked for).
    #[prost(bytes = "bytes", repeated, tag = "2")]
    pub output: Vec<Bytes>,
    /// The node's name (may be empty).
    #[prost(bytes = "bytes", tag = "3")]
    pub name: Bytes,
    /// The operator.
    #[prost(bytes = "bytes", tag = "4")]
    pub op_type: Bytes,
    /// The operator's domain (`""` is `ai.onnx`).
    #[prost(bytes = "bytes", tag = "7")]
    pub domain: Bytes,
    /// The attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
}

/// An attribute of a node.
#[derive(Clone, PartialEq, Message)]
pub struct AttributeProto {
    /// Its name.
    #[prost(bytes = "bytes", tag = "1")]
    pub name: Bytes,
    /// In a function body: the attribute of the calling node it refers to.
    #[prost(bytes = "bytes", tag = "21")]
    pub ref_attr_name: Bytes,
    /// Its type ([`AttributeType`]).
    #[prost(int32, tag = "20")]
    pub r#type: i32,
    /// A float.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// An integer.
    #[prost(int64, tag = "3")]
    pub i: i64,
    /// A string.
    #[prost(bytes = "bytes", tag = "4")]
    pub s: Bytes,
    /// A tensor.
    #[prost(message, optional, tag = "5")]
    pub t: Option<TensorProto>,
    /// A graph (control flow bodies).
    #[prost(message, optional, tag = "6")]
    pub g: Option<GraphProto>,
    /// A type.
    #[prost(message, optional, tag = "14")]
    pub tp: Option<TypeProto>,
    /// Floats.
    #[prost(float, repeated, tag = "7")]
    pub floats: Vec<f32>,
    /// Integers.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// Strings.
    #[prost(bytes = "bytes", repeated, tag = "9")]
    pub strings: Vec<Bytes>,
    /// Tensors.
    #[prost(message, repeated, tag = "10")]
    pub tensors: Vec<TensorProto>,
    /// Graphs.
    #[prost(message, repeated, tag = "11")]
    pub graphs: Vec<GraphProto>,
}

/// The type of an attribute, as [`AttributeProto::type`] numbers it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttributeType {
    /// Not set (old writers leave it so; the set field tells).
    Undefined,
    /// `f`.
    Float,
    /// `i`.
    Int,
    /// `s`.
    String,
    /// `t`.
    Tensor,
    /// `g`.
    Graph,
    /// `floats`.
    Floats,
    /// `ints`.
    Ints,
    /// `strings`.
    Strings,
    /// `tensors`.
    Tensors,
    /// `graphs`.
    Graphs,
    /// Sparse tensors and type protos, which no operator here reads.
    Other(i32),
}

impl AttributeType {
    /// The type of a wire number.
    pub fn of(n: i32) -> Self {
        match n {
            0 => AttributeType::Undefined,
            1 => AttributeType::Float,
            2 => AttributeType::Int,
            3 => AttributeType::String,
            4 => AttributeType::Tensor,
            5 => AttributeType::Graph,
            6 => AttributeType::Floats,
            7 => AttributeType::Ints,
            8 => AttributeType::Strings,
            9 => AttributeType::Tensors,
            10 => AttributeType::Graphs,
            n => AttributeType::Other(n),
        }
    }

    /// The name ONNX gives it (`INTS`).
    pub fn name(self) -> &'static str {
        match self {
            AttributeType::Undefined => "UNDEFINED",
            AttributeType::Float => "FLOAT",
            AttributeType::Int => "INT",
            AttributeType::String => "STRING",
            AttributeType::Tensor => "TENSOR",
            AttributeType::Graph => "GRAPH",
            AttributeType::Floats => "FLOATS",
            AttributeType::Ints => "INTS",
            AttributeType::Strings => "STRINGS",
            AttributeType::Tensors => "TENSORS",
            AttributeType::Graphs => "GRAPHS",
            AttributeType::Other(11) => "SPARSE_TENSOR",
            AttributeType::Other(12) => "SPARSE_TENSORS",
            AttributeType::Other(13) => "TYPE_PROTO",
            AttributeType::Other(14) => "TYPE_PROTOS",
            AttributeType::Other(_) => "an unknown attribute type",
        }
    }
}

/// A named value and its declared type.
#[derive(Clone, PartialEq, Message)]
pub struct ValueInfoProto {
    /// The value's name.
    #[prost(bytes = "bytes", tag = "1")]
    pub name: Bytes,
    /// Its type (absent: unknown).
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
}

/// A type: a tensor, a sequence, a map, an optional value.
#[derive(Clone, PartialEq, Message)]
pub struct TypeProto {
    /// Which type it is.
    #[prost(oneof = "TypeValue", tags = "1, 4, 5, 9, 8")]
    pub value: Option<TypeValue>,
}

/// The cases of [`TypeProto`].
#[derive(Clone, PartialEq, Oneof)]
pub enum TypeValue {
    /// A tensor.
    #[prost(message, tag = "1")]
    TensorType(TensorTypeProto),
    /// A sequence of values of one type.
    #[prost(message, tag = "4")]
    SequenceType(Box<SequenceTypeProto>),
    /// A map (not read: reported as unsupported).
    #[prost(message, tag = "5")]
    MapType(EmptyMessage),
    /// An optional value.
    #[prost(message, tag = "9")]
    OptionalType(Box<SequenceTypeProto>),
    /// A sparse tensor.
    #[prost(message, tag = "8")]
    SparseTensorType(TensorTypeProto),
}

/// A message whose fields are not read.
#[derive(Clone, PartialEq, Message)]
pub struct EmptyMessage {}

/// A tensor type: its element type and, if known, its shape.
#[derive(Clone, PartialEq, Message)]
pub struct TensorTypeProto {
    /// The element type (a [`TensorProto`] data type number).
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// The shape; absent when the rank is unknown.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// A sequence's (or an optional's) element type.
#[derive(Clone, PartialEq, Message)]
pub struct SequenceTypeProto {
    /// The element type.
    #[prost(message, optional, boxed, tag = "1")]
    pub elem_type: Option<Box<TypeProto>>,
}

/// A shape: one entry per dimension.
#[derive(Clone, PartialEq, Message)]
pub struct TensorShapeProto {
    /// The dimensions.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<DimensionProto>,
}

/// A dimension: a number, a named symbol, or neither (unknown).
#[derive(Clone, PartialEq, Message)]
pub struct DimensionProto {
    /// Which it is.
    #[prost(oneof = "DimensionValue", tags = "1, 2")]
    pub value: Option<DimensionValue>,
}

/// The cases of [`DimensionProto`].
#[derive(Clone, PartialEq, Oneof)]
pub enum DimensionValue {
    /// A number.
    #[prost(int64, tag = "1")]
    DimValue(i64),
    /// A symbol.
    #[prost(bytes = "bytes", tag = "2")]
    DimParam(Bytes),
}

/// A tensor: dims, data type, and its data inline or outside the file.
#[derive(Clone, PartialEq, Message)]
pub struct TensorProto {
    /// The dimensions.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// The data type.
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Its name (initializers).
    #[prost(bytes = "bytes", tag = "8")]
    pub name: Bytes,
    /// 32-bit integer data (also int8/16, uint8/16, bool, float16 as bits).
    #[prost(int32, repeated, tag = "5")]
    pub int32_data: Vec<i32>,
    /// 64-bit integer data.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// Float data, packed (as ONNX declares it): a slice of the file, never copied.
    #[prost(bytes = "bytes", tag = "4")]
    pub float_data: Bytes,
    /// Double data, packed: a slice of the file.
    #[prost(bytes = "bytes", tag = "10")]
    pub double_data: Bytes,
    /// Raw little-endian data: a slice of the file, never copied.
    #[prost(bytes = "bytes", tag = "9")]
    pub raw_data: Bytes,
    /// Where external data is (never opened, so kept encoded: each a
    /// [`StringStringEntryProto`]).
    #[prost(bytes = "bytes", repeated, tag = "13")]
    pub external_data: Vec<Bytes>,
    /// 1 when the data is external.
    #[prost(int32, tag = "14")]
    pub data_location: i32,
}

/// A model-local function (read for its name, so a node calling it is named well).
#[derive(Clone, PartialEq, Message)]
pub struct FunctionProto {
    /// Its name (the op type of nodes calling it).
    #[prost(bytes = "bytes", tag = "1")]
    pub name: Bytes,
    /// Its domain.
    #[prost(bytes = "bytes", tag = "10")]
    pub domain: Bytes,
}

/// A name or string read as UTF-8 (lossy: a name is for messages and lookups).
pub fn text(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

/// The nodes of a graph, read from their encodings: op types, domains, names, inputs and
/// outputs are slices of the model's bytes (one table of them for the whole graph, not a
/// vector per node); attributes are decoded, their tensors slices of the file too.
///
/// ```
/// use prost::Message;
/// use relay_onnx::proto::{NodeProto, Nodes};
/// let node = NodeProto {
///     input: vec!["x".into(), "".into()],
///     output: vec!["y".into()],
///     op_type: "Relu".into(),
///     ..Default::default()
/// };
/// let raw = bytes::Bytes::from(node.encode_to_vec());
/// let nodes = Nodes::read(&[(&raw, &raw[..])]).unwrap();
/// assert_eq!(nodes.len(), 1);
/// assert_eq!(nodes.op_type(0), b"Relu");
/// assert_eq!(nodes.inputs(0), [&b"x"[..], &b""[..]]);
/// assert_eq!(nodes.outputs(0), [&b"y"[..]]);
/// assert!(nodes.attributes(0).unwrap().is_empty());
/// ```
pub struct Nodes<'a> {
    nodes: Vec<NodeRec>,
    /// The buffers the nodes' encodings are slices of (their attributes' tensors become
    /// slices of them): one for all the nodes of a graph read from one file.
    owners: Vec<&'a Bytes>,
    names: Vec<&'a [u8]>,
    /// Each attribute's encoding (decoded when a node's attributes are asked for: a
    /// node whose type is remembered never decodes them).
    raw_attrs: Vec<&'a [u8]>,
}

/// A node's name, op type and domain as spans of its owner (48 bytes a node: the table
/// of a 100,000-node model stays small).
struct NodeRec {
    /// Its owner: `owners[owner]`.
    owner: u32,
    name: Span32,
    op_type: Span32,
    domain: Span32,
    /// Its inputs are `names[io..io + n_in]`, its outputs the `n_out` after.
    io: u32,
    n_in: u32,
    n_out: u32,
    /// Its attributes are `attrs[attr..attr + n_attr]`.
    attr: u32,
    n_attr: u32,
}

/// A span of an owner's bytes: its start and length.
#[derive(Copy, Clone, Default)]
struct Span32(u32, u32);

impl Span32 {
    /// `part`, a slice of `owner`, as a span of it (`None` past 4 GB).
    fn of(owner: &[u8], part: &[u8]) -> Option<Span32> {
        let at = (part.as_ptr() as usize).checked_sub(owner.as_ptr() as usize)?;
        Some(Span32(
            u32::try_from(at).ok()?,
            u32::try_from(part.len()).ok()?,
        ))
    }

    fn get(self, owner: &[u8]) -> &[u8] {
        &owner[self.0 as usize..self.0 as usize + self.1 as usize]
    }
}

impl<'a> Nodes<'a> {
    /// Reads encoded nodes; an error names the node that is not one.
    pub fn read(raw: &[(&'a Bytes, &'a [u8])]) -> Result<Self, String> {
        let mut out = Nodes {
            nodes: Vec::with_capacity(raw.len()),
            owners: Vec::new(),
            names: Vec::with_capacity(raw.len() * 3),
            raw_attrs: Vec::new(),
        };
        for (k, &(owner, b)) in raw.iter().enumerate() {
            out.read_one(owner, b)
                .map_err(|e| format!("node {k} is not a readable `NodeProto`: {e}"))?;
        }
        if out.names.len() > u32::MAX as usize || out.raw_attrs.len() > u32::MAX as usize {
            return Err("the graph has more than 4 billion node inputs and outputs".into());
        }
        Ok(out)
    }

    /// Reads node `bytes`, a slice of `owner`.
    fn read_one(&mut self, owner: &'a Bytes, bytes: &'a [u8]) -> Result<(), String> {
        if !self.owners.last().is_some_and(|o| std::ptr::eq(*o, owner)) {
            self.owners.push(owner);
        }
        let mut rec = NodeRec {
            owner: (self.owners.len() - 1) as u32,
            name: Span32::default(),
            op_type: Span32::default(),
            domain: Span32::default(),
            io: self.names.len() as u32,
            n_in: 0,
            n_out: 0,
            attr: self.raw_attrs.len() as u32,
            n_attr: 0,
        };
        let span = |part: &[u8]| {
            Span32::of(owner, part)
                .ok_or_else(|| "it lies more than 4 GB into its graph".to_string())
        };
        let mut r = Wire { buf: bytes, pos: 0 };
        while r.pos < bytes.len() {
            let key = r.varint()?;
            let (field, wire) = (key >> 3, key & 7);
            match (field, wire) {
                (1, 2) => {
                    if rec.n_out > 0 {
                        // Writers put the inputs first, as the fields are numbered.
                        return Err("an input after an output".into());
                    }
                    self.names.push(r.bytes()?);
                    rec.n_in += 1;
                }
                (2, 2) => {
                    self.names.push(r.bytes()?);
                    rec.n_out += 1;
                }
                (3, 2) => rec.name = span(r.bytes()?)?,
                (4, 2) => rec.op_type = span(r.bytes()?)?,
                (7, 2) => rec.domain = span(r.bytes()?)?,
                (5, 2) => {
                    self.raw_attrs.push(r.bytes()?);
                    rec.n_attr += 1;
                }
                (f, w) => r.skip_field(f, w)?,
            }
        }
        self.nodes.push(rec);
        Ok(())
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The number of outputs of all nodes.
    pub fn output_count(&self) -> usize {
        self.nodes.iter().map(|n| n.n_out as usize).sum()
    }

    /// Node `k`.
    pub fn at(&self, k: usize) -> NodeAt<'_, 'a> {
        NodeAt { nodes: self, k }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node `k`'s name.
    pub fn name(&self, k: usize) -> &'a [u8] {
        let n = &self.nodes[k];
        n.name.get(self.owners[n.owner as usize])
    }

    /// Node `k`'s op type.
    pub fn op_type(&self, k: usize) -> &'a [u8] {
        let n = &self.nodes[k];
        n.op_type.get(self.owners[n.owner as usize])
    }

    /// Node `k`'s domain.
    pub fn domain(&self, k: usize) -> &'a [u8] {
        let n = &self.nodes[k];
        n.domain.get(self.owners[n.owner as usize])
    }

    /// Node `k`'s inputs (`""` for an absent one).
    pub fn inputs(&self, k: usize) -> &[&'a [u8]] {
        let n = &self.nodes[k];
        &self.names[n.io as usize..(n.io + n.n_in) as usize]
    }

    /// Node `k`'s outputs.
    pub fn outputs(&self, k: usize) -> &[&'a [u8]] {
        let n = &self.nodes[k];
        let at = (n.io + n.n_in) as usize;
        &self.names[at..at + n.n_out as usize]
    }

    /// Node `k`'s attributes, decoded (their tensors slices of the file); an error names
    /// the attribute that is not one.
    pub fn attributes(&self, k: usize) -> Result<Vec<AttributeProto>, String> {
        let n = &self.nodes[k];
        self.raw_attributes(k)
            .iter()
            .enumerate()
            .map(|(i, a)| {
                AttributeProto::decode(self.owners[n.owner as usize].slice_ref(a)).map_err(|e| {
                    format!("its attribute {i} is not a readable `AttributeProto`: {e}")
                })
            })
            .collect()
    }

    /// Node `k`'s attributes as they are encoded (two nodes whose encodings are equal
    /// have equal attributes).
    pub fn raw_attributes(&self, k: usize) -> &[&'a [u8]] {
        let n = &self.nodes[k];
        &self.raw_attrs[n.attr as usize..(n.attr + n.n_attr) as usize]
    }
}

/// One node of [`Nodes`].
#[derive(Copy, Clone)]
pub struct NodeAt<'n, 'a> {
    nodes: &'n Nodes<'a>,
    k: usize,
}

impl<'n, 'a> NodeAt<'n, 'a> {
    /// Its name.
    pub fn name(self) -> &'a [u8] {
        self.nodes.name(self.k)
    }

    /// Its op type.
    pub fn op_type(self) -> &'a [u8] {
        self.nodes.op_type(self.k)
    }

    /// Its domain.
    pub fn domain(self) -> &'a [u8] {
        self.nodes.domain(self.k)
    }

    /// Its inputs.
    pub fn input(self) -> &'n [&'a [u8]] {
        self.nodes.inputs(self.k)
    }

    /// Its outputs.
    pub fn output(self) -> &'n [&'a [u8]] {
        self.nodes.outputs(self.k)
    }

    /// Its attributes, decoded.
    pub fn attribute(self) -> Result<Vec<AttributeProto>, String> {
        self.nodes.attributes(self.k)
    }
}

/// A graph as the checker reads it: its declared values decoded, its nodes and
/// initializers still encoded, each node with the buffer it is a slice of.
pub struct GraphRef<'a> {
    /// The graph's inputs.
    pub input: &'a [ValueInfoProto],
    /// The graph's outputs.
    pub output: &'a [ValueInfoProto],
    /// Declared types of intermediate values.
    pub value_info: &'a [ValueInfoProto],
    /// The nodes' encodings, each with the buffer it is a slice of.
    pub node: Vec<(&'a Bytes, &'a [u8])>,
    /// The initializers' encodings.
    pub initializer: Vec<&'a [u8]>,
}

impl<'a> GraphRef<'a> {
    /// A decoded graph, as the checker reads it.
    pub fn of(g: &'a GraphProto) -> Self {
        GraphRef {
            input: &g.input,
            output: &g.output,
            value_info: &g.value_info,
            node: g.node.iter().map(|b| (b, &b[..])).collect(),
            initializer: g.initializer.iter().map(|b| &b[..]).collect(),
        }
    }

    /// The graph encoded in `raw` with its declared values decoded (`head`): its nodes
    /// and initializers found by walking the wire, without a vector of `Bytes` for each.
    pub fn read(raw: &'a Bytes, head: &'a GraphHead) -> Result<Self, String> {
        let mut node = Vec::new();
        let mut initializer = Vec::new();
        let mut r = Wire { buf: raw, pos: 0 };
        while r.pos < raw.len() {
            let key = r.varint()?;
            match (key >> 3, key & 7) {
                (1, 2) => node.push((raw, r.bytes()?)),
                (5, 2) => initializer.push(r.bytes()?),
                (f, w) => r.skip_field(f, w)?,
            }
        }
        Ok(GraphRef {
            input: &head.input,
            output: &head.output,
            value_info: &head.value_info,
            node,
            initializer,
        })
    }
}

/// A model's header: what the checker decodes of it, its graph left encoded.
#[derive(Clone, PartialEq, Message)]
pub struct ModelHead {
    /// The version of the IR.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// The operator sets.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
    /// The graph, encoded.
    #[prost(bytes = "bytes", optional, tag = "7")]
    pub graph: Option<Bytes>,
}

/// A graph's declared values, decoded without its nodes and initializers (which prost
/// skips).
#[derive(Clone, PartialEq, Message)]
pub struct GraphHead {
    /// The graph's inputs.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
    /// Declared types of intermediate values.
    #[prost(message, repeated, tag = "13")]
    pub value_info: Vec<ValueInfoProto>,
}

/// What the checker reads of a tensor (an initializer, a `Constant`'s value): its name,
/// dims, data type, and its data where it is small and in the file. Read from an encoded
/// [`TensorProto`] with [`TensorView::read`] (slices of the encoding, no reference
/// counting), or viewed over a decoded one with [`TensorView::of`]: one reading of the
/// data serves both.
///
/// ```
/// use prost::Message;
/// use relay_onnx::proto::TensorView;
/// let t = relay_onnx::build::int64_tensor("shape", &[2], &[4, -1]);
/// let raw = t.encode_to_vec();
/// let v = TensorView::read(&raw).unwrap();
/// assert_eq!((v.name, &v.dims[..], v.data_type), (&b"shape"[..], &[2][..], 7));
/// assert_eq!(relay_onnx::attr::int_data(&v), Ok(Some(vec![4, -1])));
/// ```
#[derive(Clone, Debug, Default)]
pub struct TensorView<'a> {
    /// The name.
    pub name: &'a [u8],
    /// The dimensions.
    pub dims: TensorDims,
    /// The data type.
    pub data_type: i32,
    /// Its data is outside the file.
    pub external: bool,
    /// `raw_data`.
    pub raw_data: &'a [u8],
    /// `float_data`, packed.
    pub float_data: &'a [u8],
    /// `double_data`, packed.
    pub double_data: &'a [u8],
    /// `int32_data`.
    pub int32_data: Vec<i32>,
    /// `int64_data`.
    pub int64_data: Vec<i64>,
}

impl<'a> TensorView<'a> {
    /// A view over a decoded tensor.
    pub fn of(t: &'a TensorProto) -> Self {
        TensorView {
            name: &t.name,
            dims: t.dims.iter().copied().collect(),
            data_type: t.data_type,
            external: t.data_location == 1 || !t.external_data.is_empty(),
            raw_data: &t.raw_data,
            float_data: &t.float_data,
            double_data: &t.double_data,
            int32_data: t.int32_data.clone(),
            int64_data: t.int64_data.clone(),
        }
    }

    /// Reads an encoded tensor; an error says what is not protobuf.
    pub fn read(raw: &'a [u8]) -> Result<Self, String> {
        let mut v = TensorView::default();
        let mut r = Wire { buf: raw, pos: 0 };
        // A repeated integer field, packed or not.
        fn ints(r: &mut Wire<'_>, wire: u64, out: &mut impl FnMut(u64)) -> Result<(), String> {
            if wire == 2 {
                let mut p = Wire {
                    buf: r.bytes()?,
                    pos: 0,
                };
                while p.pos < p.buf.len() {
                    out(p.varint()?);
                }
            } else {
                out(r.varint()?);
            }
            Ok(())
        }
        while r.pos < raw.len() {
            let key = r.varint()?;
            match (key >> 3, key & 7) {
                (1, w @ (0 | 2)) => ints(&mut r, w, &mut |x| v.dims.push(x as i64))?,
                (2, 0) => v.data_type = r.varint()? as i32,
                (5, w @ (0 | 2)) => ints(&mut r, w, &mut |x| v.int32_data.push(x as i32))?,
                (7, w @ (0 | 2)) => ints(&mut r, w, &mut |x| v.int64_data.push(x as i64))?,
                (8, 2) => v.name = r.bytes()?,
                (9, 2) => v.raw_data = r.bytes()?,
                (4, 2) => v.float_data = r.bytes()?,
                (10, 2) => v.double_data = r.bytes()?,
                (13, 2) => {
                    r.bytes()?;
                    v.external = true;
                }
                (14, 0) => v.external |= r.varint()? == 1,
                (f, w) => r.skip_field(f, w)?,
            }
        }
        Ok(v)
    }
}

/// A tensor's dimensions, inline up to eight (an initializer's read allocates nothing).
#[derive(Clone, Debug, Default)]
pub struct TensorDims {
    inline: [i64; 8],
    len: usize,
    more: Vec<i64>,
}

impl TensorDims {
    /// Adds a dimension.
    pub fn push(&mut self, d: i64) {
        if self.len < self.inline.len() {
            self.inline[self.len] = d;
        } else {
            if self.more.is_empty() {
                self.more.extend_from_slice(&self.inline);
            }
            self.more.push(d);
        }
        self.len += 1;
    }
}

impl std::ops::Deref for TensorDims {
    type Target = [i64];

    fn deref(&self) -> &[i64] {
        if self.len <= self.inline.len() {
            &self.inline[..self.len]
        } else {
            &self.more
        }
    }
}

impl FromIterator<i64> for TensorDims {
    fn from_iter<I: IntoIterator<Item = i64>>(iter: I) -> Self {
        let mut d = TensorDims::default();
        for x in iter {
            d.push(x);
        }
        d
    }
}

/// The name (field 8) of an encoded [`TensorProto`], as a slice of its encoding.
///
/// ```
/// use prost::Message;
/// let t = relay_onnx::build::int64_tensor("shape", &[2], &[4, 2]);
/// let raw = t.encode_to_vec();
/// assert_eq!(relay_onnx::proto::tensor_name(&raw), Ok(&b"shape"[..]));
/// ```
pub fn tensor_name(raw: &[u8]) -> Result<&[u8], String> {
    let mut r = Wire { buf: raw, pos: 0 };
    let mut name: &[u8] = b"";
    while r.pos < raw.len() {
        let key = r.varint()?;
        match (key >> 3, key & 7) {
            (8, 2) => name = r.bytes()?,
            (f, w) => r.skip_field(f, w)?,
        }
    }
    Ok(name)
}

/// A reader of protobuf's wire format.
struct Wire<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Wire<'a> {
    #[inline]
    fn varint(&mut self) -> Result<u64, String> {
        // Tags and short lengths are one byte.
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u64::from(b));
            }
        }
        self.varint_long()
    }

    fn varint_long(&mut self) -> Result<u64, String> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let Some(&b) = self.buf.get(self.pos) else {
                return Err("it ends inside a number (truncated)".into());
            };
            self.pos += 1;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a number is longer than 10 bytes".into())
    }

    /// Skips the value of field `field` of wire type `wire`.
    fn skip_field(&mut self, field: u64, wire: u64) -> Result<(), String> {
        match wire {
            0 => self.varint().map(drop),
            1 => self.skip(8),
            2 => self.bytes().map(drop),
            5 => self.skip(4),
            w => Err(format!(
                "field {field} has wire type {w}, which is not one of protobuf's"
            )),
        }
    }

    #[inline]
    fn skip(&mut self, n: usize) -> Result<(), String> {
        if self.buf.len() - self.pos < n {
            return Err("it ends inside a field (truncated)".into());
        }
        self.pos += n;
        Ok(())
    }

    #[inline]
    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.varint()?;
        let n = usize::try_from(n).map_err(|_| "a length does not fit in memory".to_string())?;
        let start = self.pos;
        self.skip(n)?;
        Ok(&self.buf[start..self.pos])
    }
}
