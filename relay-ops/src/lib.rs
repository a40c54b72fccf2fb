//! Relay's operator library and prelude, declared with the macros of `relay-core`.
//!
//! - [`prelude`]: the data types of the prelude (`List`, `Optional`, `Tree`, `nat`),
//!   declared with `relay_data!`.
//! - [`add`]: element-wise addition over the `Broadcast` relation, declared with
//!   `relay_op!` (the rest of the operator library arrives with its own issue).
//!
//! A crate that needs these declarations at run time (through
//! [`relay_core::registry::global`]) must link this crate: `use relay_ops as _;`.

pub use relay_core;

pub mod prelude;
pub mod relations;

use relations::Broadcast;
use relay_core::relay_op;

relay_op! {
    /// Element-wise addition with NumPy broadcasting.
    add : fn<t1 : Type, t2 : Type, t3 : Type>(lhs: t1, rhs: t2) -> t3 where Broadcast,
        level 1;
}
