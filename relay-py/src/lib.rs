//! `relay_types._native`: the checker as a Python extension module. The Python package
//! (`python/relay_types/`) wraps these functions: it converts an `onnx.ModelProto` to and
//! from bytes and builds the result objects from the plain tuples returned here.
//!
//! Every function releases the GIL while it checks: the model's bytes are held by a
//! reference to the Python `bytes` object (never copied) or mapped from the file, and
//! the results are plain Rust data until the GIL is taken back to convert them. The
//! registry and the prelude are built once and shared; a check owns its solver, so calls
//! from several threads run side by side.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

mod onnx;
mod relay;
mod wire;

/// A value of a checked model: name, type in Relay's syntax, dims (none: rank not known;
/// a dim is a number, a symbol's text, or none when not known) and dtype.
type ValueOut = (String, String, Option<Vec<DimOut>>, Option<String>);

/// A dimension as Python sees it: `int`, `str` or `None`.
#[derive(Clone)]
enum DimOut {
    Const(i64),
    Sym(String),
    Unknown,
}

impl<'py> IntoPyObject<'py> for DimOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            DimOut::Const(c) => c.into_pyobject(py)?.into_any(),
            DimOut::Sym(s) => s.into_pyobject(py)?.into_any(),
            DimOut::Unknown => py.None().into_bound(py),
        })
    }
}

/// A diagnostic: severity (`"error"`, `"warning"`), message, node (index, name,
/// op_type), span (start and end bytes, line and column from 1), notes, rendered text,
/// whether it reports something not supported yet.
type DiagOut = (
    &'static str,
    String,
    Option<(usize, String, String)>,
    Option<(usize, usize, usize, usize)>,
    Vec<String>,
    String,
    bool,
);

/// A checked model or program: its signature, the types of its globals (name and type),
/// its values and its diagnostics.
type CheckOut = (String, Vec<(String, String)>, Values, Vec<DiagOut>);

/// The values of a checked model, by name, made into Python objects only when asked
/// for: a model of 100k nodes has as many values, and building them all (or even their
/// index by name) would cost more than checking it.
#[pyclass(frozen, sequence)]
struct Values {
    values: ValueList,
    /// The index of each name's value (the last one, where several have it), made on
    /// the first lookup.
    by_name: OnceLock<FxHashMap<Box<str>, usize>>,
}

enum ValueList {
    Onnx(Vec<relay_onnx::ValueType>),
    Relay(Vec<ValueOut>),
}

impl Values {
    fn new(values: ValueList) -> Self {
        Values {
            values,
            by_name: OnceLock::new(),
        }
    }

    fn name(&self, i: usize) -> &str {
        match &self.values {
            ValueList::Onnx(v) => &v[i].name,
            ValueList::Relay(v) => &v[i].0,
        }
    }

    fn len(&self) -> usize {
        match &self.values {
            ValueList::Onnx(v) => v.len(),
            ValueList::Relay(v) => v.len(),
        }
    }

    fn by_name(&self) -> &FxHashMap<Box<str>, usize> {
        self.by_name.get_or_init(|| {
            let mut map = FxHashMap::default();
            map.reserve(self.len());
            for i in 0..self.len() {
                map.insert(self.name(i).into(), i);
            }
            map
        })
    }
}

#[pymethods]
impl Values {
    fn __len__(&self) -> usize {
        self.by_name().len()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.by_name().contains_key(name)
    }

    /// The value of this name: `(name, type, dims, dtype)`; `None` if there is none.
    fn get(&self, name: &str) -> Option<ValueOut> {
        let &i = self.by_name().get(name)?;
        Some(match &self.values {
            ValueList::Onnx(v) => onnx::value(v[i].clone()),
            ValueList::Relay(v) => v[i].clone(),
        })
    }

    /// The names, in the order of the model or program (each once).
    fn names(&self) -> Vec<&str> {
        let by_name = self.by_name();
        (0..self.len())
            .filter(|&i| by_name.get(self.name(i)) == Some(&i))
            .map(|i| self.name(i))
            .collect()
    }
}

/// A model's bytes as the checker reads them: a Python `bytes` object (kept alive, not
/// copied) or a file mapped into memory.
fn model_bytes(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<bytes::Bytes> {
    if let Ok(b) = source.cast::<PyBytes>() {
        return Ok(bytes::Bytes::from_owner(PyBytesOwner::new(b)));
    }
    if let Ok(path) = source.extract::<std::path::PathBuf>() {
        return py
            .detach(|| onnx::map(&path))
            .map_err(|e| PyOSError::new_err(format!("cannot read `{}`: {e}", path.display())));
    }
    Err(PyValueError::new_err(
        "a model is an `onnx.ModelProto`, its bytes, or a path to a `.onnx` file",
    ))
}

/// A Python `bytes` object's data, kept alive by a reference to it.
struct PyBytesOwner {
    _object: Py<PyBytes>,
    data: *const u8,
    len: usize,
}

// SAFETY: a `bytes` object is immutable and does not move while a reference to it is
// held (`_object`), so its data may be read from any thread, with or without the GIL.
unsafe impl Send for PyBytesOwner {}
unsafe impl Sync for PyBytesOwner {}

impl PyBytesOwner {
    fn new(b: &Bound<'_, PyBytes>) -> Self {
        let data = b.as_bytes();
        PyBytesOwner {
            data: data.as_ptr(),
            len: data.len(),
            _object: b.clone().unbind(),
        }
    }
}

impl AsRef<[u8]> for PyBytesOwner {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: see the `Send` impl: the object that owns the data is alive.
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }
}

/// Checks an ONNX model (its bytes, or a path): the signature, every value's type and
/// the diagnostics.
#[pyfunction]
#[pyo3(signature = (source, name))]
fn check_onnx(py: Python<'_>, source: &Bound<'_, PyAny>, name: &str) -> PyResult<CheckOut> {
    let bytes = model_bytes(py, source)?;
    py.detach(|| onnx::check(bytes, name, false, true))
        .map(|(out, _)| out)
        .map_err(PyValueError::new_err)
}

/// Infers an ONNX model's types and writes them into it: the model's bytes with every
/// graph output and node output typed, and the check's result (its values listed with
/// `values`, or where the model has errors).
#[pyfunction]
#[pyo3(signature = (source, name, values=true))]
fn infer_onnx<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    name: &str,
    values: bool,
) -> PyResult<(Bound<'py, PyBytes>, CheckOut)> {
    let bytes = model_bytes(py, source)?;
    let (out, model) = py
        .detach(|| onnx::check(bytes, name, true, values))
        .map_err(PyValueError::new_err)?;
    let model = model.unwrap_or_default();
    Ok((PyBytes::new(py, &model), out))
}

/// Type-checks a Relay program's text (with the standard prelude in scope).
#[pyfunction]
#[pyo3(signature = (text, name))]
fn check_relay(py: Python<'_>, text: String, name: String) -> PyResult<CheckOut> {
    py.detach(|| relay::check(&text, &name))
        .map_err(PyValueError::new_err)
}

/// The native part of `relay_types`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_onnx, m)?)?;
    m.add_function(wrap_pyfunction!(infer_onnx, m)?)?;
    m.add_function(wrap_pyfunction!(check_relay, m)?)?;
    Ok(())
}
