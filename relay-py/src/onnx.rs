//! ONNX models: checked with `relay_onnx`, their values' types listed, and for
//! `infer_shapes` written back into the model's bytes ([`crate::wire`]).

use crate::wire::Writer;
use crate::{CheckOut, DiagOut, DimOut, ValueList, ValueOut, Values};
use relay_onnx::check::DimShown;
use relay_onnx::{Severity, ValueType};
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
/// the model with its inferred types written in. The values are listed with
/// `keep_values`, or where the model has errors. An error for bytes that are not a model.
pub fn check(
    bytes: bytes::Bytes,
    name: &str,
    write: bool,
    keep_values: bool,
) -> Result<(CheckOut, Option<Vec<u8>>), String> {
    let kept = write.then(|| bytes.clone());
    let mut checked = relay_onnx::check_bytes(bytes).map_err(|e| e.to_string())?;
    let signature = checked.signature();
    let diagnostics: Vec<DiagOut> = checked
        .diagnostics()
        .iter()
        .map(|d| diag(d, name))
        .collect();
    let model = match &kept {
        Some(model) => {
            let mut w = Writer::new(model)?;
            checked.for_each_value(|v| w.value(v));
            Some(w.finish()?)
        }
        None => None,
    };
    let values = if keep_values || checked.has_errors() {
        checked.values()
    } else {
        Vec::new()
    };
    free(checked);
    let globals = vec![("main".to_string(), signature.clone())];
    let values = Values::new(ValueList::Onnx(values));
    Ok(((signature, globals, values, diagnostics), model))
}

/// The number of values above which a checked model is freed on a thread of its own.
const LARGE_GRAPH: usize = 10_000;

/// Frees a checked model: a large one (its solver's tables, a type per value) on a thread
/// of its own, so that the call returns while its memory is given back (inline if no
/// thread can be started).
fn free(checked: relay_onnx::Checked) {
    if checked.len() > LARGE_GRAPH {
        let _ = std::thread::Builder::new()
            .name("relay_types-free".into())
            .spawn(move || drop(checked));
    }
}

/// A value as Python sees it.
pub fn value(v: ValueType) -> ValueOut {
    let dims = v.dims.map(|dims| {
        dims.into_iter()
            .map(|d| match d {
                DimShown::Const(c) => DimOut::Const(c),
                DimShown::Sym(s) => DimOut::Sym(s),
                DimShown::Unknown => DimOut::Unknown,
            })
            .collect::<Vec<_>>()
    });
    let dtype = v.dtype.map(|d| d.to_string());
    let ty = shown(dims.as_deref(), dtype.as_deref(), v.checked);
    (v.name, ty, dims, dtype)
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
