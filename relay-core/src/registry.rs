//! The registry of relations, operators and data types, filled by the declaration macros
//! through `inventory` and built once, sorted by name, rejecting duplicates.

use crate::relation::RelationDef;

/// A relation registered by `#[relation]`.
pub struct RelationEntry {
    /// The relation.
    pub def: &'static RelationDef,
    /// Where it was declared (`file!()`), for duplicate errors.
    pub file: &'static str,
    /// The line it was declared on.
    pub line: u32,
}

inventory::collect!(RelationEntry);
