//! Operator attributes: the named values given at a call (`axis=1`, `newshape=[0, -1]`)
//! that relations read.

use crate::dtype::DType;
use std::fmt;

/// One attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// An integer (`axis=1`).
    Int(i64),
    /// A float (`epsilon=1e-5`).
    Float(f64),
    /// A boolean (`keepdims=True`).
    Bool(bool),
    /// A string (`data_layout="NCHW"`).
    Str(Box<str>),
    /// A data type (`dtype="int64"` read as a dtype).
    DType(DType),
    /// A list (`strides=[2, 2]`).
    List(Vec<AttrValue>),
    /// The absent value (`axis=None`).
    None,
}

impl fmt::Display for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttrValue::Int(i) => write!(f, "{i}"),
            AttrValue::Float(x) => write!(f, "{x:?}f"),
            AttrValue::Bool(true) => f.write_str("True"),
            AttrValue::Bool(false) => f.write_str("False"),
            AttrValue::Str(s) => write!(f, "{s:?}"),
            AttrValue::DType(d) => write!(f, "\"{d}\""),
            AttrValue::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            AttrValue::None => f.write_str("None"),
        }
    }
}

/// The attributes of one call, by name, in the order they were given.
///
/// ```
/// use relay_core::{AttrValue, Attrs};
/// let attrs = Attrs::new(vec![("axis".into(), AttrValue::Int(1))]);
/// assert_eq!(attrs.get("axis"), Some(&AttrValue::Int(1)));
/// assert_eq!(attrs.get("units"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attrs {
    entries: Vec<(Box<str>, AttrValue)>,
}

impl Attrs {
    /// No attributes.
    pub const EMPTY: Attrs = Attrs {
        entries: Vec::new(),
    };

    /// Attributes from `(name, value)` pairs.
    pub fn new(entries: Vec<(Box<str>, AttrValue)>) -> Self {
        Attrs { entries }
    }

    /// The value of attribute `name`, if given.
    pub fn get(&self, name: &str) -> Option<&AttrValue> {
        self.entries
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    /// Every attribute, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &AttrValue)> {
        self.entries.iter().map(|(n, v)| (&**n, v))
    }

    /// Whether no attribute was given.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
