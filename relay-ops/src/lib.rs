//! Relay's operator library and prelude, declared with the macros of `relay-core`.
//!
//! - [`prelude`]: the data types of the prelude (`List`, `Optional`, `Tree`, `nat`),
//!   declared with `relay_data!`.
//! - [`level1`] … [`level4`]: TVM's operators by support level (level 4 also holds
//!   levels 6 and 10), declared with `relay_op!` over relations declared with
//!   `#[relation]`.
//! - [`internal`]: TVM's compiler-internal operators (`annotation.*`, `on_device`,
//!   `device_copy`, `call_lowered`, `memory.*`, `vm.*`, `debug`) and the data type
//!   `Storage`.
//! - [`quantized`]: TVM's quantized operators (`qnn.*`, level 11) and the fixed-point
//!   multiplications.
//! - [`neural`]: the other `nn.*` operators (adaptive pools, sparse, losses, ...).
//! - [`tensor`]: the other tensor operators (`einsum`, scatters, sparse, `random.*`, ...).
//! - [`dynamic`]: TVM's `dyn.*` operators (shapes from tensors), under `relay_ops::r#dyn`.
//! - [`relations`]: the relations shared across levels (`Identity`, `Flatten`, `Broadcast`).
//! - [`conv_variants`]: `layout_transform` and the convolution variants (packed, winograd,
//!   GEMM, deformable, bit-serial), correlation and dilation.
//! - [`image_ops`]: the `image.*` operators (resizes, crops, sampling grids, dilation),
//!   re-exported as [`image`].
//! - [`vision_ops`]: the `vision.*` operators (multibox, non-maximum suppressions, R-CNN
//!   regions, YOLO), re-exported as [`vision`].
//!
//! A crate that needs these declarations at run time (through
//! [`relay_core::registry::global`]) must link this crate: `use relay_ops as _;`.

pub use relay_core;

/// Relations each of which runs one imperative function on its operator's name and
/// arguments of its own: `Name = name_rel(run, "op", args..);` declares
/// `#[relation(Name)] pub fn name_rel(cx)`, documented as the relation of `op`, which
/// returns `run(cx, "op", args..)`.
macro_rules! relations_running {
    ($($name:ident = $f:ident($run:path, $op:literal $(, $arg:expr)*);)*) => {$(
        #[doc = concat!("The relation of `", $op, "`.")]
        #[relation($name)]
        pub fn $f(cx: &mut RelCx<'_>) -> RelResult {
            $run(cx, $op $(, $arg)*)
        }
    )*};
}

#[macro_use]
mod attr_sets;
pub mod compare;
pub mod conv_variants;
pub mod dynamic;
pub mod image_ops;
pub mod internal;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod level4;
pub mod neural;
pub mod prelude;
pub mod quantized;
pub mod relations;
pub mod tensor;
pub mod vision_ops;
pub mod workload;

// Every operator's builder and definition at the crate root (`relay_ops::add`,
// `relay_ops::ADD`), and the dotted `nn.*` operators of every level under one `nn`.
pub use conv_variants::*;
pub use image_ops::image;
pub use internal::*;
pub use level1::*;
pub use level2::*;
pub use level3::*;
pub use level4::*;
pub use quantized::*;
pub use tensor::*;
pub use vision_ops::vision;

/// The `dyn.*` operators: `relay_ops::r#dyn::reshape(x, s)`, `relay_ops::r#dyn::nn::pad(..)`.
pub use dynamic::r#dyn;

/// The `nn.*` operators of every level: `relay_ops::nn::conv2d(x, w)`.
pub mod nn {
    pub use crate::conv_variants::nn::*;
    pub use crate::level1::nn::*;
    pub use crate::level2::nn::*;
    pub use crate::level3::nn::*;
    pub use crate::level4::nn::*;
    pub use crate::neural::nn::*;
}
