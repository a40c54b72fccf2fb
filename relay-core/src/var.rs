//! Flexible (inference) variables: one key type per sort, each a newtype over `u32`
//! used as a key of an `ena` union-find table in the [`crate::Solver`].

use std::fmt;

macro_rules! var_key {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The variable's index in its union-find table.
            pub fn index(self) -> u32 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!("'", $prefix, "{}"), self.0)
            }
        }
    };
}

var_key!(
    /// An incomplete type (`_`): a type not known yet.
    TyVar,
    "t"
);
var_key!(
    /// A shape not known yet, rank included.
    ShapeVar,
    "s"
);
var_key!(
    /// A dimension not known yet.
    DimVar,
    "d"
);
var_key!(
    /// A data type not known yet.
    DTypeVar,
    "b"
);
