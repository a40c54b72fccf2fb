//! ONNX models: checked with `relay_onnx`, their values' types listed, and for
//! `infer_shapes` written back into the model's bytes ([`crate::wire`]).

use crate::wire::{write_back, Inferred};
use crate::{CheckOut, DiagOut, DimOut, ValueOut};
use relay_onnx::check::{onnx_dtype, DimShown};
use relay_onnx::{Severity, ValueType};
use std::collections::HashMap;
use std::path::Path;

/// The model's bytes: the file mapped into memory (as `relay check` reads it).
pub fn map(path: &Path) -> std::io::Result<bytes::Bytes> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(bytes::Bytes::new());
    }
    // SAFETY: the mapping is read-only and private; a file changed by another process
    // while it is checked may give wrong types, the contract of every tool that maps
    // its input.
    let mmap = unsafe { memmap2::Mmap::map(&file)? };
    Ok(bytes::Bytes::from_owner(mmap))
}

/// Checks the model in `bytes` (named `name` in rendered diagnostics); with `write`, also
/// the model with its inferred types written in. An error for bytes that are not a model.
pub fn check(
    bytes: bytes::Bytes,
    name: &str,
    write: bool,
) -> Result<(CheckOut, Option<Vec<u8>>), String> {
    let kept = write.then(|| bytes.clone());
    let mut checked = relay_onnx::check_bytes(bytes).map_err(|e| e.to_string())?;
    let signature = checked.signature();
    let values = checked.values();
    let diagnostics: Vec<DiagOut> = checked
        .diagnostics()
        .iter()
        .map(|d| diag(d, name))
        .collect();
    let model = match kept {
        Some(model) => Some(write_back(&model, &inferred(&values))?),
        None => None,
    };
    let values: Vec<ValueOut> = values.into_iter().map(value).collect();
    let globals = vec![("main".to_string(), signature.clone())];
    Ok(((signature, globals, values, diagnostics), model))
}

/// The node outputs' types, by name, as ONNX writes them (values that could not be
/// checked, or of which nothing is known, left out).
fn inferred(values: &[ValueType]) -> HashMap<Vec<u8>, Inferred> {
    // The ONNX element type of each dtype name (the checker's own table, inverted).
    let elem_types: HashMap<String, i32> = (1..64)
        .filter_map(|e| Some((onnx_dtype(e).ok()?.to_string(), e)))
        .collect();
    values
        .iter()
        .filter(|v| v.node.is_some() && v.checked)
        .filter(|v| v.dtype.is_some() || v.dims.is_some())
        .map(|v| {
            let elem_type = v
                .dtype
                .as_ref()
                .and_then(|d| elem_types.get(d).copied())
                .unwrap_or(0);
            let inferred = Inferred {
                elem_type,
                dims: v.dims.clone(),
            };
            (v.name.as_bytes().to_vec(), inferred)
        })
        .collect()
}

fn value(v: ValueType) -> ValueOut {
    let dims = v.dims.map(|dims| {
        dims.into_iter()
            .map(|d| match d {
                DimShown::Const(c) => DimOut::Const(c),
                DimShown::Sym(s) => DimOut::Sym(s),
                DimShown::Unknown => DimOut::Unknown,
            })
            .collect::<Vec<_>>()
    });
    let ty = shown(dims.as_deref(), v.dtype.as_deref(), v.checked);
    (v.name, ty, dims, v.dtype)
}

/// A value's type in Relay's syntax: `Tensor[(N, 3), float32]`, a scalar as its dtype,
/// `?` for what is not known.
fn shown(dims: Option<&[DimOut]>, dtype: Option<&str>, checked: bool) -> String {
    if !checked || (dims.is_none() && dtype.is_none()) {
        return "?".into();
    }
    if let (Some([]), Some(dtype)) = (dims, dtype) {
        return dtype.to_string();
    }
    let shape = match dims {
        None => "?".to_string(),
        Some(dims) => {
            let shown: Vec<String> = dims
                .iter()
                .map(|d| match d {
                    DimOut::Const(c) => c.to_string(),
                    DimOut::Sym(s) => s.clone(),
                    DimOut::Unknown => "?".into(),
                })
                .collect();
            format!("({})", shown.join(", "))
        }
    };
    format!("Tensor[{shape}, {}]", dtype.unwrap_or("?"))
}

/// A diagnostic, rendered as `relay check` shows it.
fn diag(d: &relay_onnx::Diagnostic, name: &str) -> DiagOut {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut rendered = format!("{severity}: {}\n", d.message);
    match &d.node {
        Some(n) => rendered.push_str(&format!("  ┌─ {name}: {n}\n")),
        None => rendered.push_str(&format!("  ┌─ {name}\n")),
    }
    for note in &d.notes {
        rendered.push_str(&format!("  = {note}\n"));
    }
    let node = d
        .node
        .as_ref()
        .map(|n| (n.index, n.name.clone(), n.op_type.clone()));
    (
        severity,
        d.message.clone(),
        node,
        None,
        d.notes.clone(),
        rendered,
        d.unsupported,
    )
}
