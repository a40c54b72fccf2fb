//! Relay's operator library and prelude, declared with `relay-macros` over `relay-core`.
//!
//! The operators arrive with the operator-library issue; until then this crate re-exports
//! the core so that downstream crates can already depend on it.

pub use relay_core;
