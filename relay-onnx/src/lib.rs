//! ONNX models as Relay modules: `relay check model.onnx` infers the type of every value
//! of a graph with exact symbolic shapes, and reports what is wrong at the node.
//!
//! - [`proto`]: the messages of the format the checker reads (prost's derive; weights
//!   and names are slices of the file, never copied; external data never opened).
//! - [`check`](mod@check): the graph as a function typed node by node, with one solver.
//! - [`import`](mod@import): the checked graph printed as a Relay module that `relay check`
//!   reads back with the same types (`relay import`).
//! - [`value`]: shape values, the integer tensors ONNX computes shapes with, as lists of
//!   symbolic dimensions.
//! - [`ops`]: the operators, each a mapping onto a Relay operator of the registry,
//!   declared with [`onnx_ops!`] or with the operator (`relay_op!`'s `onnx` clause).
//!
//! ```
//! use prost::Message;
//! use relay_onnx::proto::*;
//!
//! // x: float[N, 3] -> Relu -> y
//! let tensor = |name: &str, dims: Vec<DimensionValue>| ValueInfoProto {
//!     name: name.to_string().into(),
//!     r#type: Some(TypeProto {
//!         value: Some(TypeValue::TensorType(TensorTypeProto {
//!             elem_type: 1,
//!             shape: Some(TensorShapeProto {
//!                 dim: dims.into_iter().map(|d| DimensionProto { value: Some(d) }).collect(),
//!             }),
//!         })),
//!     }),
//! };
//! let n = DimensionValue::DimParam("N".into());
//! let model = ModelProto {
//!     ir_version: 8,
//!     opset_import: vec![OperatorSetIdProto { domain: "".into(), version: 17 }],
//!     graph: Some(GraphProto {
//!         node: vec![NodeProto {
//!             input: vec!["x".into()],
//!             output: vec!["y".into()],
//!             op_type: "Relu".into(),
//!             ..Default::default()
//!         }
//!         .encode_to_vec()
//!         .into()],
//!         input: vec![tensor("x", vec![n, DimensionValue::DimValue(3)])],
//!         output: vec![ValueInfoProto { name: "y".into(), r#type: None }],
//!         ..Default::default()
//!     }),
//!     ..Default::default()
//! };
//! let mut checked = relay_onnx::check_bytes(model.encode_to_vec().into()).unwrap();
//! assert_eq!(checked.signature(), "fn (Tensor[(N, 3), float32]) -> Tensor[(N, 3), float32]");
//! assert!(checked.diagnostics().is_empty());
//! ```

pub mod attr;
pub mod build;
pub mod check;
pub mod import;
pub mod ops;
pub mod proto;
pub mod value;
pub mod workload;

pub use check::{
    check_bytes, check_model, Checked, Diagnostic, LoadError, NodeRef, Severity, ValueRef,
    ValueType,
};

use prost::Message;

// Link the operator library: the mappings name its operators.
use relay_ops as _;

// `relay_op!`'s `onnx` clause names this crate as `::relay_onnx`, here too.
extern crate self as relay_onnx;

#[doc(hidden)]
pub mod __private {
    pub use crate::ops::DECLARED;
    pub use inventory;
}

/// Decodes a model from its bytes: an error that says what is wrong for a file that is
/// not a model (truncated, another format, no graph).
pub fn read(bytes: bytes::Bytes) -> Result<proto::ModelProto, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError("the file is empty, not an ONNX model".into()));
    }
    let model = proto::ModelProto::decode(bytes).map_err(|e| {
        LoadError(format!(
            "not a readable ONNX model (a protobuf `ModelProto`): {}",
            describe_decode_error(&e)
        ))
    })?;
    if model.graph.is_none() {
        return Err(LoadError(
            "not an ONNX model: it decodes, but has no graph (field 7 of `ModelProto`)".into(),
        ));
    }
    if model.ir_version <= 0 {
        return Err(LoadError(format!(
            "not an ONNX model: its IR version is {} (a model has 1 or more)",
            model.ir_version
        )));
    }
    Ok(model)
}

/// Decodes a model's header (its graph left encoded), with [`read`]'s errors.
pub fn read_head(bytes: bytes::Bytes) -> Result<proto::ModelHead, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError("the file is empty, not an ONNX model".into()));
    }
    let head = proto::ModelHead::decode(bytes).map_err(|e| {
        LoadError(format!(
            "not a readable ONNX model (a protobuf `ModelProto`): {}",
            describe_decode_error(&e)
        ))
    })?;
    if head.graph.is_none() {
        return Err(LoadError(
            "not an ONNX model: it decodes, but has no graph (field 7 of `ModelProto`)".into(),
        ));
    }
    if head.ir_version <= 0 {
        return Err(LoadError(format!(
            "not an ONNX model: its IR version is {} (a model has 1 or more)",
            head.ir_version
        )));
    }
    Ok(head)
}

pub(crate) fn describe_decode_error(e: &prost::DecodeError) -> String {
    // The headers the checker decodes are named as the format names the messages.
    let s = e
        .to_string()
        .replace("ModelHead.", "ModelProto.")
        .replace("GraphHead.", "GraphProto.");
    let s = s
        .strip_prefix("failed to decode Protobuf message: ")
        .unwrap_or(&s);
    if s.contains("buffer underflow") || s.contains("unexpected end") {
        format!("{s} (the file is truncated)")
    } else {
        s.to_string()
    }
}
