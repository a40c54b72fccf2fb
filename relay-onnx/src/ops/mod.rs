//! ONNX operators as data: each is a mapping onto an operator of the registry, declared
//! beside the relations it needs with [`onnx_ops!`](crate::onnx_ops) or in the operator's
//! own declaration (`relay_op!`'s `onnx` clause), and registered at link time, as
//! `relay_op!` registers operators. The checker never dispatches on an op
//! type by hand: it looks the node's `(domain, op_type)` up here and takes the mapping
//! with the greatest `since` version not above the model's opset for that domain.
//!
//! A mapping says which Relay operator types the node ([`OnnxOp::relay`]), what its
//! arguments are ([`Arg`]: an input, an optional input, an input's *value*, the inputs
//! from one on as a tuple, a fresh symbol named after the node), where each attribute
//! comes from ([`AttrFrom`]: the node's attribute, with or without a default, or the
//! constant value of an input, as opset 13 moved Squeeze's `axes` into an input) and how
//! the result is read ([`Outputs`]). Shape values (the int64 tensors ONNX computes shapes
//! with) are evaluated by an optional [`ValueFn`], in [`crate::value`].
//!
//! An operator author says which ONNX operator an operator is where it declares it, with
//! the `onnx` clause of [`relay_op!`](relay_core::relay_op) (its page documents it): the
//! clause checks the mapping against the declaration at compile time and registers the
//! same [`OnnxOp`] here, so a crate's own operator is typed inside ONNX models with its
//! relation.
//!
//! ```
//! use relay_core::{relation, relay_op};
//! use relay_onnx::build::{Graph, D};
//!
//! /// The data's shape with its last dimension doubled.
//! #[relation(Twice(Tensor([..s, n], bt), O) :- O = Tensor([..s, n * 2], bt))]
//! pub struct Twice;
//!
//! relay_op! {
//!     /// Two copies of the data side by side.
//!     my.twice : fn<a, b>(data: a) -> b where Twice,
//!         onnx "com.example" Twice since 1 { inputs(X) => (data: X) };
//! }
//!
//! # fn main() {
//! let op = relay_onnx::ops::find("com.example", "Twice", 3).unwrap();
//! assert_eq!(op.relay, "my.twice");
//! let mut g = Graph::new(17);
//! g.opsets.push(("com.example".into(), 1));
//! g.input("x", 1, &[D::p("N"), D::v(3)]);
//! g.node_in("com.example", "Twice", &["x"], &["y"], vec![]);
//! g.output("y");
//! assert_eq!(g.check().signature(), "fn (Tensor[(N, 3), float32]) -> Tensor[(N, 6), float32]");
//! # }
//! ```
//!
//! relay-onnx maps operators of other crates (relay-ops', which cannot depend on it) with
//! [`onnx_ops!`](crate::onnx_ops), into the same table, and so can any crate:
//!
//! ```
//! use relay_onnx::onnx_ops;
//! onnx_ops! {
//!     /// `Relu` is Relay's `nn.relu`.
//!     "my.domain" MyRelu since 1 => "nn.relu"(In(0));
//! }
//! let op = relay_onnx::ops::find("my.domain", "MyRelu", 3).unwrap();
//! assert_eq!(op.relay, "nn.relu");
//! ```

// The attribute sets several operators share (declared before the modules that use them,
// which see their macros).
relay_core::relay_attrs! {
    /// ONNX's convolution attributes (`Conv`, `ConvInteger`, `QLinearConv`, `DeformConv`,
    /// onnxruntime's `FusedConv`).
    OnnxConvAttrs {
        auto_pad: str = "NOTSET",
        pads: Option<[int]> = None,
        strides: Option<[int]> = None,
        dilations: Option<[int]> = None,
        group: int = 1,
        kernel_shape: Option<[int]> = None,
    }

    /// ONNX's pooling attributes (`onnx.pool`, onnxruntime's `QLinearAveragePool`).
    OnnxPoolAttrs {
        kernel_shape: Option<[int]> = None,
        auto_pad: str = "NOTSET",
        pads: Option<[int]> = None,
        strides: Option<[int]> = None,
        dilations: Option<[int]> = None,
        ceil_mode: int = 0,
        global: int = 0,
    }

    /// onnxruntime's `QLinearConv`: ONNX's convolution attributes, and `channels_last`
    /// (the NHWC form onnxruntime's layout optimizer writes).
    OrtConvAttrs { ..OnnxConvAttrs, channels_last: int = 0 }

    /// onnxruntime's `QLinearAveragePool`: ONNX's pooling attributes, and `channels_last`.
    OrtPoolAttrs { ..OnnxPoolAttrs, channels_last: int = 0 }

    /// ONNX's `ConvTranspose`: the convolution attributes, and the output's padding or
    /// shape.
    OnnxConvTransposeAttrs {
        ..OnnxConvAttrs,
        output_padding: Option<[int]> = None,
        output_shape: Option<[int]> = None,
    }
}

pub mod contrib;
pub mod elementwise;
pub mod nn;
pub mod shape;
pub mod tensor;
pub mod training;
pub mod util;

use crate::value::ValueFn;
use relay_core::op::AttrConst;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// One argument of the Relay operator a node becomes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Arg {
    /// The node's input `i`, which must be given.
    In(usize),
    /// The node's optional input `i`: its type, or `()` when it is absent.
    Opt(usize),
    /// The *value* of the node's integer input `i`, as the shape of a tensor:
    /// `Tensor[(v0, v1, ..), int64]` (a scalar is one element), `()` when the input is
    /// absent, and an unknown (the relation waits) when its value is not known.
    Value(usize),
    /// The node's inputs from `i` on, as a tuple (variadic operators: `Concat`, `Sum`).
    Rest(usize),
    /// A new symbolic dimension named after the node, as the shape of a tensor
    /// (`Tensor[(NonZero_3), int64]`): the size of a result that depends on data.
    Fresh,
    /// The node's integer-list attribute of this name as a value, as [`Arg::Value`]
    /// gives an input's (`()` when the node does not have it): so an operator whose
    /// attribute became an input in a later opset (`Slice`'s `starts`) has one relation.
    AttrInts(&'static str),
}

/// Where a Relay attribute's value comes from.
#[derive(Copy, Clone, Debug)]
pub enum AttrFrom {
    /// The node's attribute of this name, if it has one (else the Relay default).
    Attr(&'static str),
    /// The node's attribute of this name, or this value.
    AttrOr(&'static str, AttrConst),
    /// The constant integer value of the node's input `i` (a list, or an int for a
    /// scalar), if the input is given (else the Relay default); an input whose value is
    /// not known is an error that says so.
    Input(usize),
    /// A constant.
    Const(AttrConst),
    /// Computed from the node's attributes (`Cast`'s `to`, an ONNX data type number,
    /// as a dtype): `None` leaves the Relay default.
    With(AttrFn),
    /// The constant float values of the node's input `i` (`Resize`'s `scales`), if it is
    /// given and its value known.
    Floats(usize),
}

/// Computes a Relay attribute from a node's attributes.
pub type AttrFn =
    fn(&crate::attr::NodeAttrs<'_>) -> Result<Option<relay_core::AttrValue>, AttrFnError>;

/// Why an [`AttrFn`] gives no value: the node is wrong, or asks for what the checker
/// does not support (a data type Relay has none of).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrFnError {
    /// What is wrong.
    pub message: String,
    /// It is a limit of the checker, not a mistake of the model.
    pub unsupported: bool,
}

impl From<String> for AttrFnError {
    fn from(message: String) -> Self {
        AttrFnError {
            message,
            unsupported: false,
        }
    }
}

impl From<&str> for AttrFnError {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

/// A Relay attribute of the mapping: its name and where its value comes from.
#[derive(Copy, Clone, Debug)]
pub struct AttrMap {
    /// The Relay attribute.
    pub relay: &'static str,
    /// Its source.
    pub from: AttrFrom,
}

/// How the Relay result gives the node's outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// The result is the first output; further outputs are unsupported.
    One,
    /// The result is a tuple with one field per output of the node (the checker makes a
    /// tuple of that many unknowns and unifies it with the result first, so a relation
    /// knows how many outputs were asked for).
    Each,
}

/// An ONNX operator: a domain, an op type, the first opset version the mapping is for,
/// and the Relay operator, arguments and attributes it becomes.
#[derive(Debug)]
pub struct OnnxOp {
    /// The domain (`""` for `ai.onnx`).
    pub domain: &'static str,
    /// The op type (`Reshape`).
    pub op_type: &'static str,
    /// The opset version from which this mapping holds (until the next one's).
    pub since: u32,
    /// The Relay operator (a name of the registry).
    pub relay: &'static str,
    /// Its arguments.
    pub args: &'static [Arg],
    /// Its attributes.
    pub attrs: &'static [AttrMap],
    /// How its result gives the outputs.
    pub outputs: Outputs,
    /// How it computes integer values (shapes), if it does: run when an input has a
    /// value, or always when `value_from_types` (`Shape` and `Size` make values from their
    /// input's type, `Constant` from its attributes).
    pub value: Option<ValueFn>,
    /// Its value function reads types and attributes, not input values.
    pub value_from_types: bool,
    /// The doc comment.
    pub doc: &'static str,
    /// Where it was declared.
    pub file: &'static str,
    /// The line it was declared on.
    pub line: u32,
}

/// The fields of an [`OnnxOp`] that `relay_op!`'s `onnx` clause does not write (no value
/// function), so that a field added here leaves the macro's expansion valid. The others
/// are placeholders the clause always replaces.
#[doc(hidden)]
pub const DECLARED: OnnxOp = OnnxOp {
    domain: "",
    op_type: "",
    since: 1,
    relay: "",
    args: &[],
    attrs: &[],
    outputs: Outputs::One,
    value: None,
    value_from_types: false,
    doc: "",
    file: "",
    line: 0,
};

inventory::collect!(OnnxOpEntry);

/// An [`OnnxOp`] registered by [`onnx_ops!`](crate::onnx_ops) or by the `onnx` clause of
/// a `relay_op!` declaration.
pub struct OnnxOpEntry(pub &'static OnnxOp);

/// Declares ONNX operators as mappings onto Relay operators and registers them.
///
/// Each declaration is `"domain" OpType since N => "relay.op"(args)` followed by
/// optional parts, in this order: `{ relay_attr: source, .. }` ([`AttrFrom`]: `Attr("n")`,
/// `AttrOr("n", AttrConst::..)`, `Input(i)`, `Const(AttrConst::..)`), `-> Each` (the
/// result is a tuple of the outputs), `value f` (a [`ValueFn`], run when an input has a
/// value) or `value(types) f` (run always: a value made from types or attributes). Arguments are
/// [`Arg`]s (`In(0)`, `Opt(2)`, `Value(1)`, `Rest(0)`, `Fresh`). A declaration ends with
/// `;`; `""` is the default domain.
///
/// `relay_op!`'s `onnx` clause registers the same [`OnnxOp`], written with the names of
/// the operator's declaration and checked against it at compile time: `data: X` is
/// `In(i)` for the `i`-th declared input (`Opt(i)` for one declared `X?`, `Rest(i)` for
/// `..Xs`), `shape: value(S)` is `Value(i)`; `factor: alpha` is `Attr("alpha")`,
/// `factor: alpha = 1.0` is `AttrOr("alpha", AttrConst::Float(1.0))`, `axes: value(A)` is
/// `Input(i)`; `outputs(Values, Indices)` or `outputs(..Ys)` is `-> Each`. What only
/// relay-onnx's own shape operators need (value functions, `Fresh`, `AttrInts`, `Const`,
/// `With`, `Floats`) is written here.
///
/// ```
/// use relay_onnx::onnx_ops;
/// use relay_core::op::AttrConst;
/// onnx_ops! {
///     /// Softmax over one axis (opset 13's semantics).
///     "example" Softmax since 13 => "nn.softmax"(In(0)) { axis: AttrOr("axis", AttrConst::Int(-1)) };
/// }
/// assert!(relay_onnx::ops::find("example", "Softmax", 12).is_none());
/// assert_eq!(relay_onnx::ops::find("example", "Softmax", 21).unwrap().since, 13);
/// ```
#[macro_export]
macro_rules! onnx_ops {
    ($(
        $(#[doc = $doc:literal])*
        $domain:literal $op:ident since $since:literal => $relay:literal ( $($arg:expr),* $(,)? )
        $({ $($attr:ident : $from:expr),* $(,)? })?
        $(-> $outputs:ident)?
        $(value $(($vfrom:ident))? $value:path)?
        ;
    )*) => {
        $(
            const _: () = {
                #[allow(unused_imports)]
                use $crate::ops::Arg::*;
                #[allow(unused_imports)]
                use $crate::ops::AttrFrom::*;
                static OP: $crate::ops::OnnxOp = $crate::ops::OnnxOp {
                    domain: $domain,
                    op_type: stringify!($op),
                    since: $since,
                    relay: $relay,
                    args: &[$($arg),*],
                    attrs: &[$($($crate::ops::AttrMap { relay: stringify!($attr), from: $from }),*)?],
                    outputs: $crate::__outputs!($($outputs)?),
                    value: $crate::__value!($($value)?),
                    value_from_types: $crate::__from_types!($($($vfrom)?)?),
                    doc: concat!($($doc, "\n"),*),
                    file: file!(),
                    line: line!(),
                };
                $crate::__private::inventory::submit! { $crate::ops::OnnxOpEntry(&OP) }
            };
        )*
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __outputs {
    () => {
        $crate::ops::Outputs::One
    };
    ($o:ident) => {
        $crate::ops::Outputs::$o
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __from_types {
    () => {
        false
    };
    (types) => {
        true
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __value {
    () => {
        None
    };
    ($v:path) => {
        Some($v as $crate::value::ValueFn)
    };
}

/// The registered mappings by domain and op type, each list sorted by `since`, and the
/// mistakes found while building it.
struct Table {
    ops: FxHashMap<(&'static str, &'static str), Vec<&'static OnnxOp>>,
    problems: Vec<String>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut ops: FxHashMap<_, Vec<&'static OnnxOp>> = FxHashMap::default();
        for e in inventory::iter::<OnnxOpEntry> {
            let domain = if e.0.domain == "ai.onnx" {
                ""
            } else {
                e.0.domain
            };
            ops.entry((domain, e.0.op_type)).or_default().push(e.0);
        }
        let mut problems = Vec::new();
        for list in ops.values_mut() {
            list.sort_by_key(|op| (op.since, op.file, op.line));
            for w in list.windows(2) {
                if w[0].since == w[1].since {
                    let domain = if w[0].domain.is_empty() {
                        "ai.onnx"
                    } else {
                        w[0].domain
                    };
                    let (a, b) = (
                        format!("{}:{}", w[0].file, w[0].line),
                        format!("{}:{}", w[1].file, w[1].line),
                    );
                    let places = if a == b {
                        format!("twice in the `onnx_ops!` block at {a}")
                    } else {
                        format!("twice: at {a} and at {b}")
                    };
                    problems.push(format!(
                        "ONNX operator `{domain}.{}` since opset {} is declared {places}",
                        w[0].op_type, w[0].since
                    ));
                }
            }
        }
        problems.sort();
        Table { ops, problems }
    })
}

/// The mistakes in the registered mappings (an op type declared twice for one version),
/// each a message naming both places. The checker reports them on every model.
pub fn problems() -> &'static [String] {
    &table().problems
}

/// The mapping of `op_type` in `domain` (`""` or `ai.onnx` for the default) at opset
/// `version`: the one with the greatest `since` not above it.
pub fn find(domain: &str, op_type: &str, version: i64) -> Option<&'static OnnxOp> {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    let list = table().ops.get(&(domain, op_type))?;
    list.iter()
        .rev()
        .find(|op| i64::from(op.since) <= version)
        .copied()
}

/// The versions for which `op_type` of `domain` has mappings (for messages).
pub fn versions(domain: &str, op_type: &str) -> Vec<u32> {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    table()
        .ops
        .get(&(domain, op_type))
        .map(|l| l.iter().map(|op| op.since).collect())
        .unwrap_or_default()
}

/// Every registered mapping, sorted by domain, op type and version.
pub fn all() -> Vec<&'static OnnxOp> {
    let mut v: Vec<&'static OnnxOp> = table().ops.values().flatten().copied().collect();
    v.sort_by_key(|op| (op.domain, op.op_type, op.since));
    v
}
