//! Relay's type system in Rust: the type language with symbolic shapes, the worklist
//! solver of type relations, and the interface relations are written against.
//!
//! - [`dim`]: dimensions in a canonical normal form, with checked arithmetic.
//! - [`ty`]: interned types ([`Ty`]), shapes, dtypes, kinds, and the [`TyCtx`] that owns
//!   them.
//! - [`solve`]: the [`Solver`]: union-find tables, relations, the dependency graph, the
//!   FIFO worklist and the three outcomes of solving.
//! - [`relation`]: what a relation receives ([`RelCx`]) and answers ([`Progress`]).
//! - [`text`]: the parser of the text syntax of types.

extern crate self as relay_core;

#[doc(hidden)]
pub mod __private;
pub mod attrs;
pub mod dim;
pub mod dtype;
mod fold;
mod intern;
pub mod kind;
pub mod print;
pub mod registry;
pub mod relation;
pub mod shape;
pub mod solve;
pub mod testing;
pub mod text;
pub mod ty;
pub mod var;

pub use attrs::{AttrValue, Attrs};
pub use dim::{Dim, DimData, DimError, DimOp, Dims};
pub use dtype::{DType, DTypeCode};
pub use fold::ParamValue;
pub use kind::{Kind, KindError, Param, ParamInfo};
pub use relation::{Progress, RelCx, RelError, RelResult, Relation, RelationDef, RelationRef};
pub use relay_macros::{relation, relay_data, relay_op};
pub use solve::{Outcome, SolveError, Solver, Step, UnifyError, UnifyErrorKind, VarRef, Waiting};
pub use ty::{
    Adt, AdtInfo, ArityError, Constraint, DTy, FuncTy, Shape, ShapeData, Ty, TyCtx, TyData,
};
pub use var::{DTypeVar, DimVar, ShapeVar, TyVar};

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
