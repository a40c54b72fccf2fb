//! The runtime values of clause variables and terms.

use crate::dim::Dim;
use crate::ty::{DTy, Shape, Text, Ty, TyCtx};

/// The value of a clause variable or term while a clause runs. It may still mention the
/// solver's unknowns (a type variable, a shape of unknown rank, a dimension variable).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A type.
    Ty(Ty),
    /// A shape.
    Shape(Shape),
    /// A dimension (integers are constant dimensions).
    Dim(Dim),
    /// An element type.
    DType(DTy),
    /// A truth value.
    Bool(bool),
    /// A string (a `str` attribute or a string literal), interned: its text is
    /// [`TyCtx::text_str`].
    Text(Text),
}

impl Value {
    /// What kind of value it is, as the clause language names it (`a shape`).
    pub fn kind_name(self) -> &'static str {
        match self {
            Value::Ty(_) => "a type",
            Value::Shape(_) => "a shape",
            Value::Dim(_) => "a dimension",
            Value::DType(_) => "a dtype",
            Value::Bool(_) => "a bool",
            Value::Text(_) => "a string",
        }
    }

    /// The type, if it is one.
    pub fn ty(self) -> Option<Ty> {
        match self {
            Value::Ty(t) => Some(t),
            _ => None,
        }
    }

    /// The shape, if it is one.
    pub fn shape(self) -> Option<Shape> {
        match self {
            Value::Shape(s) => Some(s),
            _ => None,
        }
    }

    /// The dimension, if it is one.
    pub fn dim(self) -> Option<Dim> {
        match self {
            Value::Dim(d) => Some(d),
            _ => None,
        }
    }

    /// The element type, if it is one.
    pub fn dtype(self) -> Option<DTy> {
        match self {
            Value::DType(d) => Some(d),
            _ => None,
        }
    }

    /// The truth value, if it is one.
    pub fn bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The string, if it is one.
    ///
    /// ```
    /// use relay_core::clause::Value;
    /// let mut tcx = relay_core::TyCtx::new();
    /// let v = Value::Text(tcx.text("NCHW"));
    /// assert_eq!(v.text(&tcx), Some("NCHW"));
    /// assert_eq!(v.show(&tcx), "\"NCHW\"");
    /// ```
    pub fn text(self, tcx: &TyCtx) -> Option<&str> {
        match self {
            Value::Text(t) => Some(tcx.text_str(t)),
            _ => None,
        }
    }

    /// The value printed in the text syntax.
    pub fn show(self, tcx: &TyCtx) -> String {
        match self {
            Value::Ty(t) => tcx.show(t),
            Value::Shape(s) => tcx.show_shape(s),
            Value::Dim(d) => tcx.show_dim(d),
            Value::DType(d) => tcx.show_dtype(d),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) => format!("{:?}", tcx.text_str(t)),
        }
    }
}
