//! Relay's operator library and prelude, declared with the macros of `relay-core`.
//!
//! - [`prelude`]: the data types of the prelude (`List`, `Optional`, `Tree`, `nat`),
//!   declared with `relay_data!`.
//! - [`level1`] … [`level4`]: TVM's operators by support level (level 4 also holds
//!   levels 6 and 10), declared with `relay_op!` over relations declared with
//!   `#[relation]`.
//! - [`neural`]: the other `nn.*` operators (adaptive pools, sparse, losses, ...).
//! - [`tensor`]: the other tensor operators (`einsum`, scatters, sparse, `random.*`, ...).
//! - [`dynamic`]: TVM's `dyn.*` operators (shapes from tensors), under [`r#dyn`].
//! - [`relations`]: the relations shared across levels (`Identity`, `Flatten`, `Broadcast`).
//!
//! A crate that needs these declarations at run time (through
//! [`relay_core::registry::global`]) must link this crate: `use relay_ops as _;`.

pub use relay_core;

pub mod dynamic;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod level4;
pub mod neural;
pub mod prelude;
pub mod relations;
pub mod tensor;
pub mod workload;

// Every operator's builder and definition at the crate root (`relay_ops::add`,
// `relay_ops::ADD`), and the dotted `nn.*` operators of every level under one `nn`.
pub use level1::*;
pub use level2::*;
pub use level3::*;
pub use level4::*;
pub use tensor::*;

/// The `dyn.*` operators: `relay_ops::r#dyn::reshape(x, s)`, `relay_ops::r#dyn::nn::pad(..)`.
pub use dynamic::r#dyn;

/// The `nn.*` operators of every level: `relay_ops::nn::conv2d(x, w)`.
pub mod nn {
    pub use crate::level1::nn::*;
    pub use crate::level2::nn::*;
    pub use crate::level3::nn::*;
    pub use crate::level4::nn::*;
    pub use crate::neural::nn::*;
}
