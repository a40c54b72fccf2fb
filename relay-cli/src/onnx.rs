//! `relay check model.onnx`: an ONNX model checked with `relay_onnx`, its graph printed
//! as `@main`'s type and its problems as diagnostics that name the node; `relay import
//! model.onnx`: the model printed as a Relay module.
//!
//! The file is mapped, not read: a model's weights are never touched (they are slices of
//! the mapping that the checker does not look at), so a model of hundreds of megabytes
//! costs what its graph costs.

use std::io::Write;
use std::path::Path;

/// The number of values above which the checked model is not freed.
const LARGE_GRAPH: usize = 10_000;

/// Whether `path` names an ONNX model (by its extension).
pub(crate) fn is_onnx(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("onnx"))
}

/// The model's bytes: the file mapped into memory.
fn map(path: &Path) -> std::io::Result<bytes::Bytes> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(bytes::Bytes::new());
    }
    // SAFETY: the mapping is read-only and private; a file changed by another process
    // while it is checked may give wrong types, which is the contract of every tool that
    // maps its input (as the checker reads each byte at most once, no more).
    let mmap = unsafe { memmap2::Mmap::map(&file)? };
    // The checker reads the graph and skips the weights: no read-ahead into them.
    let _ = mmap.advise(memmap2::Advice::Random);
    Ok(bytes::Bytes::from_owner(mmap))
}

/// The model at `path` (shown as `name`) mapped, or `None` after saying why it cannot be
/// read.
fn read(path: &Path, name: &str) -> Option<bytes::Bytes> {
    match map(path) {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("error: cannot read `{name}`: {e}");
            None
        }
    }
}

/// Checks one model: prints `@main: TYPE` (and with `bindings` each node output's
/// `%name: TYPE`) or its diagnostics on standard error. Whether it is well typed; an
/// error for a file that cannot be read.
pub(crate) fn check(
    out: &mut impl Write,
    path: &Path,
    bindings: bool,
) -> std::io::Result<Result<bool, ()>> {
    let name = path.display().to_string();
    let Some(bytes) = read(path, &name) else {
        return Ok(Err(()));
    };
    let mut checked = match relay_onnx::check_bytes(bytes) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n  ┌─ {name}\n");
            return Ok(Ok(false));
        }
    };
    // A large model's types are not freed piece by piece: the process ends right after
    // (as the Relay path leaves its last large module).
    let large = checked.len() > LARGE_GRAPH;
    let ok = emit(&name, checked.diagnostics())?;
    if !ok {
        return Ok(Ok(false));
    }
    writeln!(out, "@main: {}", checked.signature())?;
    if bindings {
        for (n, t) in checked.bindings() {
            writeln!(out, "%{n}: {t}")?;
        }
    }
    if large {
        std::mem::forget(checked);
    }
    Ok(Ok(ok))
}

/// Prints diagnostics on standard error as `relay check` does, with the count of errors
/// after them; whether none is an error.
fn emit(name: &str, diagnostics: &[relay_onnx::Diagnostic]) -> std::io::Result<bool> {
    if diagnostics.is_empty() {
        return Ok(true);
    }
    let mut err = std::io::stderr().lock();
    let mut errors = 0;
    for d in diagnostics {
        let level = match d.severity {
            relay_onnx::Severity::Error => {
                errors += 1;
                "error"
            }
            relay_onnx::Severity::Warning => "warning",
        };
        writeln!(err, "{level}: {}", d.message)?;
        match &d.node {
            Some(n) => writeln!(err, "  ┌─ {name}: {n}")?,
            None => writeln!(err, "  ┌─ {name}")?,
        }
        for note in &d.notes {
            writeln!(err, "  = {note}")?;
        }
        writeln!(err)?;
    }
    if errors > 0 {
        writeln!(
            err,
            "error: {errors} problem{} in `{name}`",
            if errors == 1 { "" } else { "s" }
        )?;
    }
    Ok(errors == 0)
}

/// Imports one model: prints it as a Relay module, or its diagnostics on standard error
/// (those of `relay check`, and a node the importer cannot print). Whether it was
/// printed; an error for a file that cannot be read.
pub(crate) fn import(out: &mut impl Write, path: &Path) -> std::io::Result<Result<bool, ()>> {
    let name = path.display().to_string();
    let Some(bytes) = read(path, &name) else {
        return Ok(Err(()));
    };
    match relay_onnx::import::import_bytes(bytes) {
        Ok(imported) => {
            emit(&name, &imported.warnings)?;
            out.write_all(imported.text.as_bytes())?;
            Ok(Ok(true))
        }
        Err(relay_onnx::import::ImportError::Load(e)) => {
            eprintln!("error: {e}\n  ┌─ {name}\n");
            Ok(Ok(false))
        }
        Err(relay_onnx::import::ImportError::Diagnostics(d)) => {
            emit(&name, &d)?;
            Ok(Ok(false))
        }
    }
}
