//! The relations of the operator library, in the spec's notation.
//!
//! ```
//! use relay_core::{text::{parse_type, TypeScope, Binding}, Outcome, Relation, Solver, TyCtx};
//! use relay_ops::relations::Flatten;
//!
//! let mut s = Solver::new(TyCtx::new());
//! let mut scope = TypeScope::new();
//! let out = s.fresh_ty();
//! scope.bind("O", Binding::Ty(out));
//! let input = parse_type(&mut s.tcx, &mut scope, "Tensor[(n, 2, 3), float32]").unwrap();
//! s.add_relation(Flatten::REF, &[input, out], None, 0);
//! assert_eq!(s.solve(), Outcome::Solved);
//! let out = s.resolve(out);
//! assert_eq!(s.tcx.show(out), "Tensor[(n, 6), float32]");
//! ```

use relay_core::relation;

/// Every argument is the same type; information flows in every direction.
#[relation(Identity(I, I) :- true)]
pub struct Identity;

/// A tensor flattened to two dimensions: the first, and the product of the rest.
#[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt))]
pub struct Flatten;

/// NumPy broadcasting of two tensors of the same dtype.
#[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
pub struct Broadcast;
