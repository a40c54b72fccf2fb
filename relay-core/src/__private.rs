//! What the declaration macros expand into. Not public API: may change at any time.

pub use crate::registry::RelationEntry;
pub use inventory;
