//! Kinds, type parameters and the names they print with.

use std::fmt;

/// The kind of a type parameter: which positions of a type it may stand in.
///
/// ```
/// use relay_core::Kind;
/// assert_eq!(Kind::Shape.to_string(), "Shape");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A whole type: tensor, tuple, function, ADT instance, reference.
    Type,
    /// The element type of a tensor (`float32`, `int8x4`, `bool`).
    BaseType,
    /// A whole tensor shape (`(n, 3)`), of any rank.
    Shape,
    /// One dimension of a shape (`n`).
    ShapeVar,
}

impl Kind {
    /// The kind's name as written in the text format.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Type => "Type",
            Kind::BaseType => "BaseType",
            Kind::Shape => "Shape",
            Kind::ShapeVar => "ShapeVar",
        }
    }

    /// Parses a kind name (`Type`, `BaseType`, `Shape`, `ShapeVar`).
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "Type" => Kind::Type,
            "BaseType" => Kind::BaseType,
            "Shape" => Kind::Shape,
            "ShapeVar" => Kind::ShapeVar,
            _ => return None,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rigid type parameter: a name bound by a function (`[A]`, `[s: Shape]`) or a
/// symbolic dimension written in a signature (`n` in `Tensor[(n, 3), float32]`).
///
/// Parameters are identities, not names: two parameters both called `A` are different
/// parameters. A parameter never unifies with anything but itself; a call instantiates
/// it with a fresh flexible variable of its kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Param(pub(crate) u32);

impl Param {
    /// The parameter's index in its [`crate::TyCtx`].
    pub fn index(self) -> u32 {
        self.0
    }
}

/// What the context knows of a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The name it was written with.
    pub name: Box<str>,
    /// Its kind.
    pub kind: Kind,
}

/// A parameter used where its kind does not allow it (`Tensor[t, float32]` with `t: Type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindError {
    /// The parameter's name.
    pub name: Box<str>,
    /// The kind it was declared with.
    pub found: Kind,
    /// The kind the position needs.
    pub expected: Kind,
}

impl fmt::Display for KindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` has kind `{}` but is used where a `{}` is expected",
            self.name, self.found, self.expected
        )
    }
}

impl std::error::Error for KindError {}
