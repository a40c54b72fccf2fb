//! What the checker keeps of a graph for the importer, when asked
//! ([`crate::check::check_bytes_recorded`]): every value's name and type, which values
//! are the graph's inputs, initializers and outputs, the order the nodes were typed in,
//! and, per node, the Relay call it became (operator, argument types as given, attributes
//! as computed) or the subgraphs it holds. The importer prints from this, so that the
//! text says what the checker inferred, never a second derivation of it.

use crate::check::NodeRef;
use crate::ops::OnnxOp;
use relay_core::{AttrValue, Ty};

/// One graph (the model's, or a branch of an `If`), as the checker typed it. A value a
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
