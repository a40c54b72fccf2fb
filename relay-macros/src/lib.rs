//! Declaration macros for Relay: `#[relation]`, `relay_op!` and `relay_data!`.
//!
//! This crate is filled by the macro issue; the solver interface the macros expand into
//! is [`relay_core::RelCx`](../relay_core/relation/index.html).
