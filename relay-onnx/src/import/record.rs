//! What the checker keeps of a graph for the importer, when asked
//! ([`crate::check::check_bytes_recorded`]): every value's name and type, which values
//! are the graph's inputs, initializers and outputs, the order the nodes were typed in,
//! and, per node, the Relay call it became (operator, argument types as given, attributes
//! as computed) or the subgraphs it holds. The importer prints from this, so that the
//! text says what the checker inferred, never a second derivation of it.

use crate::check::NodeRef;
use crate::ops::OnnxOp;
use relay_core::{AttrValue, Ty};

/// One graph (the model's, a branch of an `If`, the body of a `Loop`, `Scan` or
/// `SequenceMap`), as the checker typed it. A value a
/// subgraph reads from the graphs around it is a slot of its name with no producer.
#[derive(Default)]
pub(crate) struct GraphRecord {
    /// Each value's name as the file has it, by slot.
    pub names: Vec<Box<[u8]>>,
    /// Each value's type (resolve before use), by slot.
    pub tys: Vec<Ty>,
    /// The graph inputs that are not initializers (a subgraph's: its formal inputs).
    pub inputs: Vec<usize>,
    /// The initializers.
    pub initializers: Vec<usize>,
    /// The graph outputs.
    pub outputs: Vec<usize>,
    /// The nodes in the order they were typed (each after the nodes making its inputs).
    pub order: Vec<usize>,
    /// Each node, by its index in the graph.
    pub nodes: Vec<NodeRecord>,
}

/// A node of a recorded graph.
pub(crate) struct NodeRecord {
    /// How messages name it.
    pub node: NodeRef,
    /// The slot of each input (`None`: absent).
    pub inputs: Vec<Option<usize>>,
    /// The slot of each output (`None`: unnamed, so absent).
    pub outputs: Vec<Option<usize>>,
    /// What it became.
    pub kind: NodeKind,
}

/// What a node became.
pub(crate) enum NodeKind {
    /// Not typed (it failed, or the checker does not record its kind).
    Other,
    /// A call of a Relay operator through its mapping.
    Call(Call),
    /// An `If`: its condition's value if known (then only that branch was typed), and each
    /// branch typed.
    If {
        known: Option<bool>,
        then_branch: Option<Box<GraphRecord>>,
        else_branch: Option<Box<GraphRecord>>,
    },
    /// `Identity` of a sequence or an optional: its output is its input.
    Pass,
    /// A `Loop`: its body as typed (over the loop-carried values' initial types).
    Loop { body: Option<Box<GraphRecord>> },
    /// A `Scan`: its body as typed, its integer attributes, and whether it is of an
    /// opset before 9 (a batch axis first, and `sequence_lens`).
    Scan {
        body: Option<Box<GraphRecord>>,
        attrs: IntAttrs,
        batched: bool,
    },
    /// A sequence or optional operator (its op type is the node's): its integer
    /// attributes, and `SequenceMap`'s body as typed.
    Sequence {
        attrs: IntAttrs,
        body: Option<Box<GraphRecord>>,
    },
}

/// A node's integer attributes by name, each as a list (an `int` as one).
#[derive(Default)]
pub(crate) struct IntAttrs(pub Vec<(Box<str>, Vec<i64>)>);

impl IntAttrs {
    /// The integer attributes of `attrs` (those of type `INT` or `INTS`).
    pub fn of(attrs: &[crate::proto::AttributeProto]) -> Self {
        use crate::proto::AttributeType;
        IntAttrs(
            attrs
                .iter()
                .filter_map(|a| {
                    let v = match AttributeType::of(a.r#type) {
                        AttributeType::Int => vec![a.i],
                        AttributeType::Ints => a.ints.clone(),
                        // Old writers leave the type unset: the field set tells.
                        AttributeType::Undefined if !a.ints.is_empty() => a.ints.clone(),
                        AttributeType::Undefined if a.g.is_none() && a.graphs.is_empty() => {
                            vec![a.i]
                        }
                        _ => return None,
                    };
                    Some((String::from_utf8_lossy(&a.name).into(), v))
                })
                .collect(),
        )
    }

    /// Attribute `name`'s integers, if given.
    pub fn ints(&self, name: &str) -> Option<&[i64]> {
        self.0
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// Attribute `name`'s integer, or `default`.
    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.ints(name)
            .and_then(|v| v.first().copied())
            .unwrap_or(default)
    }
}

impl NodeKind {
    /// The subgraphs it holds, as typed.
    pub fn subgraphs(&self) -> impl Iterator<Item = &GraphRecord> {
        let (a, b): (Option<&GraphRecord>, Option<&GraphRecord>) = match self {
            NodeKind::If {
                then_branch,
                else_branch,
                ..
            } => (then_branch.as_deref(), else_branch.as_deref()),
            NodeKind::Loop { body }
            | NodeKind::Scan { body, .. }
            | NodeKind::Sequence { body, .. } => (body.as_deref(), None),
            NodeKind::Other | NodeKind::Call(_) | NodeKind::Pass => (None, None),
        };
        a.into_iter().chain(b)
    }
}

/// A call of a Relay operator, as the checker made it.
pub(crate) struct Call {
    /// The mapping.
    pub op: &'static OnnxOp,
    /// The arguments' types, one per [`OnnxOp::args`] (a value argument's is the value as
    /// a tensor's shape; an absent one `()`).
    pub args: Vec<Ty>,
    /// The attributes given (the others take the operator's defaults), in the mapping's
    /// order.
    pub attrs: Vec<(Box<str>, AttrValue)>,
    /// The result's types: one, or one per output of the node (`Outputs::Each`).
    pub outs: Vec<Ty>,
}
