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

/// The value as messages show it: a float as a number (`2.5`, without the `f` TVM's
/// printer adds), a string quoted (a renderer with the program's text shows the value as
/// written there instead).
///
/// ```
/// use relay_core::AttrValue;
/// assert_eq!(AttrValue::Float(2.5).to_string(), "2.5");
/// assert_eq!(AttrValue::from(vec![2, 2]).to_string(), "[2, 2]");
/// ```
impl fmt::Display for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttrValue::Int(i) => write!(f, "{i}"),
            AttrValue::Float(x) => write!(f, "{x:?}"),
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

/// The Rust values of the attribute types: `i64` (`int`), `f64` (`float`), `bool`, `&str` or
/// `String` (`str`), [`DType`] (`dtype`), and a `Vec` of values (`[T]`).
///
/// ```
/// use relay_core::{AttrValue, DType};
/// assert_eq!(AttrValue::from(-1), AttrValue::Int(-1));
/// assert_eq!(AttrValue::from("NCHW"), AttrValue::Str("NCHW".into()));
/// assert_eq!(AttrValue::from(DType::FLOAT16).to_string(), "\"float16\"");
/// assert_eq!(AttrValue::from(vec![2, 2]).to_string(), "[2, 2]");
/// ```
impl From<i64> for AttrValue {
    fn from(i: i64) -> Self {
        AttrValue::Int(i)
    }
}

impl From<f64> for AttrValue {
    fn from(x: f64) -> Self {
        AttrValue::Float(x)
    }
}

impl From<bool> for AttrValue {
    fn from(b: bool) -> Self {
        AttrValue::Bool(b)
    }
}

impl From<&str> for AttrValue {
    fn from(s: &str) -> Self {
        AttrValue::Str(s.into())
    }
}

impl From<String> for AttrValue {
    fn from(s: String) -> Self {
        AttrValue::Str(s.into())
    }
}

impl From<DType> for AttrValue {
    fn from(d: DType) -> Self {
        AttrValue::DType(d)
    }
}

impl<T: Into<AttrValue>> From<Vec<T>> for AttrValue {
    fn from(items: Vec<T>) -> Self {
        AttrValue::List(items.into_iter().map(Into::into).collect())
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

/// No attributes, to borrow for `'static` (what a call without attributes reads).
pub(crate) static NO_ATTRS: Attrs = Attrs::EMPTY;

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

    /// The value of attribute `name`, unless it is absent or `None`.
    fn value(&self, name: &str) -> Option<&AttrValue> {
        self.get(name).filter(|v| **v != AttrValue::None)
    }

    /// Attribute `name` read by `read`: `None` when it is absent or `None`, an error
    /// saying it must be `expected` when `read` refuses it.
    fn read<'a, T>(
        &'a self,
        name: &str,
        expected: &'static str,
        read: impl FnOnce(&'a AttrValue) -> Option<T>,
    ) -> Result<Option<T>, AttrTypeError> {
        let Some(v) = self.value(name) else {
            return Ok(None);
        };
        read(v).map(Some).ok_or_else(|| AttrTypeError {
            name: name.into(),
            expected,
            found: v.clone(),
        })
    }

    /// Integer attribute `name`: `None` when it is absent or `None`.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("axis".into(), AttrValue::Int(-1)),
    ///     ("units".into(), AttrValue::None),
    ///     ("name".into(), AttrValue::Str("x".into())),
    /// ]);
    /// assert_eq!(attrs.int("axis"), Ok(Some(-1)));
    /// assert_eq!(attrs.int("units"), Ok(None));
    /// assert_eq!(attrs.int("k").unwrap_or(None).unwrap_or(1), 1);
    /// assert_eq!(
    ///     attrs.int("name").unwrap_err().to_string(),
    ///     "attribute `name` must be an integer, found `\"x\"`"
    /// );
    /// ```
    pub fn int(&self, name: &str) -> Result<Option<i64>, AttrTypeError> {
        self.read(name, "an integer", |v| match v {
            AttrValue::Int(i) => Some(*i),
            _ => None,
        })
    }

    /// Float attribute `name` (an integer is accepted): `None` when it is absent or
    /// `None`.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("alpha".into(), AttrValue::Float(0.5)),
    ///     ("scale".into(), AttrValue::Int(2)),
    ///     ("eps".into(), AttrValue::Bool(true)),
    /// ]);
    /// assert_eq!(attrs.float("alpha"), Ok(Some(0.5)));
    /// assert_eq!(attrs.float("scale"), Ok(Some(2.0)));
    /// assert_eq!(attrs.float("beta"), Ok(None));
    /// assert_eq!(
    ///     attrs.float("eps").unwrap_err().to_string(),
    ///     "attribute `eps` must be a number, found `True`"
    /// );
    /// ```
    pub fn float(&self, name: &str) -> Result<Option<f64>, AttrTypeError> {
        self.read(name, "a number", |v| match v {
            AttrValue::Float(x) => Some(*x),
            AttrValue::Int(i) => Some(*i as f64),
            _ => None,
        })
    }

    /// Boolean attribute `name`: `None` when it is absent or `None`.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("keepdims".into(), AttrValue::Bool(true)),
    ///     ("exclude".into(), AttrValue::Int(1)),
    /// ]);
    /// assert_eq!(attrs.bool("keepdims"), Ok(Some(true)));
    /// assert_eq!(attrs.bool("ceil_mode"), Ok(None));
    /// assert_eq!(
    ///     attrs.bool("exclude").unwrap_err().to_string(),
    ///     "attribute `exclude` must be a boolean, found `1`"
    /// );
    /// ```
    pub fn bool(&self, name: &str) -> Result<Option<bool>, AttrTypeError> {
        self.read(name, "a boolean", |v| match v {
            AttrValue::Bool(b) => Some(*b),
            _ => None,
        })
    }

    /// String attribute `name`: `None` when it is absent or `None`.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("layout".into(), AttrValue::Str("NCHW".into())),
    ///     ("method".into(), AttrValue::Int(0)),
    /// ]);
    /// assert_eq!(attrs.str("layout"), Ok(Some("NCHW")));
    /// assert_eq!(attrs.str("out_layout"), Ok(None));
    /// assert_eq!(
    ///     attrs.str("method").unwrap_err().to_string(),
    ///     "attribute `method` must be a string, found `0`"
    /// );
    /// ```
    pub fn str(&self, name: &str) -> Result<Option<&str>, AttrTypeError> {
        self.read(name, "a string", |v| match v {
            AttrValue::Str(s) => Some(&**s),
            _ => None,
        })
    }

    /// Data-type attribute `name` (a string naming a data type is accepted): `None` when
    /// it is absent, `None` or the empty string.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs, DType};
    /// let attrs = Attrs::new(vec![
    ///     ("dtype".into(), AttrValue::DType(DType::INT32)),
    ///     ("out_dtype".into(), AttrValue::Str("float16".into())),
    ///     ("acc_dtype".into(), AttrValue::Str("".into())),
    ///     ("bad".into(), AttrValue::Str("float13".into())),
    /// ]);
    /// assert_eq!(attrs.dtype("dtype"), Ok(Some(DType::INT32)));
    /// assert_eq!(attrs.dtype("out_dtype"), Ok(Some(DType::FLOAT16)));
    /// assert_eq!(attrs.dtype("acc_dtype"), Ok(None));
    /// assert_eq!(attrs.dtype("other"), Ok(None));
    /// assert_eq!(
    ///     attrs.dtype("bad").unwrap_err().to_string(),
    ///     "attribute `bad` must be a dtype, found `\"float13\"`"
    /// );
    /// ```
    pub fn dtype(&self, name: &str) -> Result<Option<DType>, AttrTypeError> {
        if let Some(AttrValue::Str(s)) = self.get(name) {
            if s.is_empty() {
                return Ok(None);
            }
        }
        self.read(name, "a dtype", |v| match v {
            AttrValue::DType(d) => Some(*d),
            AttrValue::Str(s) => s.parse().ok(),
            _ => None,
        })
    }

    /// List-of-integers attribute `name`: `None` when it is absent or `None`. A bare
    /// integer is refused (see [`Attrs::int_or_ints`]).
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("newshape".into(), AttrValue::List(vec![AttrValue::Int(0), AttrValue::Int(-1)])),
    ///     ("axes".into(), AttrValue::Int(1)),
    /// ]);
    /// assert_eq!(attrs.ints("newshape"), Ok(Some(vec![0, -1])));
    /// assert_eq!(attrs.ints("shape"), Ok(None));
    /// assert_eq!(
    ///     attrs.ints("axes").unwrap_err().to_string(),
    ///     "attribute `axes` must be a list of integers, found `1`"
    /// );
    /// ```
    pub fn ints(&self, name: &str) -> Result<Option<Vec<i64>>, AttrTypeError> {
        self.read(name, "a list of integers", |v| match v {
            AttrValue::List(items) => list_of_ints(items),
            _ => None,
        })
    }

    /// Like [`Attrs::ints`], but a bare integer is accepted as a list of one.
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let attrs = Attrs::new(vec![
    ///     ("strides".into(), AttrValue::List(vec![AttrValue::Int(2), AttrValue::Int(2)])),
    ///     ("axis".into(), AttrValue::Int(1)),
    ///     ("padding".into(), AttrValue::List(vec![AttrValue::Float(1.5)])),
    /// ]);
    /// assert_eq!(attrs.int_or_ints("strides"), Ok(Some(vec![2, 2])));
    /// assert_eq!(attrs.int_or_ints("axis"), Ok(Some(vec![1])));
    /// assert_eq!(attrs.int_or_ints("dilation"), Ok(None));
    /// assert_eq!(
    ///     attrs.int_or_ints("padding").unwrap_err().to_string(),
    ///     "attribute `padding` must be a list of integers, found `[1.5]`"
    /// );
    /// ```
    pub fn int_or_ints(&self, name: &str) -> Result<Option<Vec<i64>>, AttrTypeError> {
        self.read(name, "a list of integers", int_or_ints)
    }

    /// List-of-lists-of-integers attribute `name`: `None` when it is absent or `None`.
    /// Each element is read as by [`Attrs::int_or_ints`] (a bare integer is a list of
    /// one).
    ///
    /// ```
    /// use relay_core::{AttrValue, Attrs};
    /// let pair = |a, b| AttrValue::List(vec![AttrValue::Int(a), AttrValue::Int(b)]);
    /// let attrs = Attrs::new(vec![
    ///     ("pad_width".into(), AttrValue::List(vec![pair(0, 0), pair(1, 2)])),
    ///     ("bad".into(), AttrValue::List(vec![AttrValue::Bool(true)])),
    /// ]);
    /// assert_eq!(attrs.int_lists("pad_width"), Ok(Some(vec![vec![0, 0], vec![1, 2]])));
    /// assert_eq!(attrs.int_lists("other"), Ok(None));
    /// assert_eq!(
    ///     attrs.int_lists("bad").unwrap_err().to_string(),
    ///     "attribute `bad` must be a list of lists of integers, found `[True]`"
    /// );
    /// ```
    pub fn int_lists(&self, name: &str) -> Result<Option<Vec<Vec<i64>>>, AttrTypeError> {
        self.read(name, "a list of lists of integers", |v| match v {
            AttrValue::List(items) => items.iter().map(int_or_ints).collect(),
            _ => None,
        })
    }
}

/// The integers of `items`, if each is one.
fn list_of_ints(items: &[AttrValue]) -> Option<Vec<i64>> {
    items
        .iter()
        .map(|x| match x {
            AttrValue::Int(i) => Some(*i),
            _ => None,
        })
        .collect()
}

/// `v` as a list of integers, a bare integer as a list of one.
fn int_or_ints(v: &AttrValue) -> Option<Vec<i64>> {
    match v {
        AttrValue::List(items) => list_of_ints(items),
        AttrValue::Int(i) => Some(vec![*i]),
        _ => None,
    }
}

/// An attribute of the wrong type, from the typed readers of [`Attrs`]
/// ([`Attrs::int`], [`Attrs::ints`], ...). As a [`RelError`](crate::RelError) it blames no
/// argument.
///
/// ```
/// use relay_core::{AttrValue, Attrs, RelError};
/// let attrs = Attrs::new(vec![("groups".into(), AttrValue::Float(1.5))]);
/// let err = attrs.int("groups").unwrap_err();
/// assert_eq!(err.name.as_ref(), "groups");
/// assert_eq!(err.expected, "an integer");
/// assert_eq!(err.found, AttrValue::Float(1.5));
/// let err = RelError::from(err);
/// assert_eq!(err.message, "attribute `groups` must be an integer, found `1.5`");
/// assert_eq!(err.arg, None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AttrTypeError {
    /// The attribute's name.
    pub name: Box<str>,
    /// What it must be, with its article (`an integer`, `a list of integers`).
    pub expected: &'static str,
    /// The value it has.
    pub found: AttrValue,
}

impl fmt::Display for AttrTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "attribute `{}` must be {}, found `{}`",
            self.name, self.expected, self.found
        )
    }
}

impl std::error::Error for AttrTypeError {}
