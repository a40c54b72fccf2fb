//! Relay's text syntax: [`parse_module`] reads modules (TVM's text format 0.0.5 with
//! the extensions of `DESIGN.md`), [`parse_type`] reads types.
//!
//! [`parse_type`] reads the type syntax that [`crate::TyCtx::show`] prints, with the
//! extensions of our text format: named symbolic dimensions and arithmetic in shapes
//! (`Tensor[(n, 2*m + 1), float32]`), kinded type parameters on function types
//! (`fn [A, s: Shape](Tensor[s, float32], A) -> A`), `ref(T)`, type calls (`List[A]`).
//!
//! A lowercase name in a dimension that the scope does not know is a new rigid symbol,
//! recorded in the scope so that the same name means the same symbol afterwards (the
//! implicit binding of TVM's size variables). Kinds are checked: a parameter of kind
//! `Type` written as a shape is an error that names it and its kind.
//!
//! ```
//! use relay_core::text::{parse_type, TypeScope};
//! use relay_core::TyCtx;
//! let mut tcx = TyCtx::new();
//! let mut scope = TypeScope::new();
//! let t = parse_type(&mut tcx, &mut scope, "fn [A](Tensor[(n, 2*3*n), float32], A) -> (A,)").unwrap();
//! assert_eq!(tcx.show(t), "fn [A](Tensor[(n, 6*n), float32], A) -> (A,)");
//! let err = parse_type(&mut tcx, &mut scope, "fn [t](Tensor[t, float32]) -> t").unwrap_err();
//! assert_eq!(err.message, "`t` has kind `Type` but is used where a `Shape` is expected");
//! ```

mod lexer;
mod parser;
mod printer;
mod ty_parser;

pub use lexer::{LexError, Lexer, Tok, Token};
pub use parser::{parse_joined, parse_module, parse_sources, ParseError};
pub use printer::print_module;

pub use ty_parser::{parse_type, Binding, TypeParseError, TypeScope, MAX_NESTING};
