//! The solver test API ([`TestSolver`]) and hand-written relations over the
//! [`crate::RelCx`] interface, used by the solver's tests and benchmarks (the operator
//! library declares its own with `#[relation]`).
//!
//! - [`IDENTITY`]: `Identity(I, I, ...) :- true`: every argument is the same type, so
//!   information flows in every direction.
//! - [`BROADCAST`]: `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :-
//!   O = Tensor(broadcast(s1, s2), bt)`. A shape broadcast with itself or with a scalar
//!   is itself even when its rank is unknown; a shape parameter next to any other shape
//!   is an error (its rank never becomes known).

use crate::attrs::Attrs;
use crate::dim::{Dim, DimData};
use crate::kind::Param;
use crate::relation::{Progress, RelCx, RelError, RelResult, RelationDef, RelationRef};
use crate::shape::broadcast;
use crate::solve::{Solver, UnifyErrorKind, VarRef};
use crate::ty::ShapeData;
use crate::ty::{parse_type, Binding, TypeScope};
use crate::ty::{Ty, TyCtx, TyData};
use std::sync::Arc;

/// The errors of a solve that must have failed (a test's check: it panics on any other
/// outcome).
pub fn failed(outcome: crate::solve::Outcome) -> Vec<crate::solve::SolveError> {
    match outcome {
        crate::solve::Outcome::Failed(errors) => errors,
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn identity(cx: &mut RelCx<'_>) -> RelResult {
    let first = cx.arg(0);
    for i in 1..cx.len() {
        cx.unify(i, first)?;
    }
    Ok(Progress::Solved)
}

/// The definition of [`IDENTITY`].
pub static IDENTITY_DEF: RelationDef = RelationDef {
    name: "Identity",
    arity: None,
    needs: &[],
    solve: identity,
};

/// `Identity(I, I, ...) :- true`.
pub const IDENTITY: RelationRef = RelationRef(&IDENTITY_DEF);

fn broadcast_rel(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((s1, d1)), Some((s2, d2))) = (cx.tensor(0)?, cx.tensor(1)?) else {
        return Ok(Progress::NotYet);
    };
    cx.unify_dtype(d1, d2, 1)?;
    let dtype = cx.resolve_dtype(d1);
    // Whole shapes first: a shape broadcast with itself or with a scalar is itself, even
    // when it is a shape variable or a shape parameter (its dimensions unknown).
    let rank0 = |cx: &mut RelCx<'_>, s| cx.tcx().shape_dims(s).is_some_and(|d| d.is_empty());
    let whole = if s1 == s2 || rank0(cx, s2) {
        Some(s1)
    } else if rank0(cx, s1) {
        Some(s2)
    } else {
        None
    };
    if let Some(shape) = whole {
        let out = cx.tcx().tensor(shape, dtype);
        cx.unify(2, out)?;
        return Ok(Progress::Solved);
    }
    let tcx = cx.tcx_ref();
    let result = match (tcx.shape_data(s1), tcx.shape_data(s2)) {
        (ShapeData::Dims(a), ShapeData::Dims(b)) => broadcast(&tcx.dims, a, b),
        (ShapeData::Param(p), _) => {
            let p = *p;
            return Err(shape_param_error(cx, 0, p));
        }
        (_, ShapeData::Param(p)) => {
            let p = *p;
            return Err(shape_param_error(cx, 1, p));
        }
        _ => return Ok(Progress::NotYet),
    };
    match result {
        Ok(Some(dims)) => {
            let out = cx.mk_tensor(&dims, dtype);
            cx.unify(2, out)?;
            Ok(Progress::Solved)
        }
        Ok(None) => Ok(Progress::NotYet),
        Err(clash) => {
            let (a, b) = (cx.arg(0), cx.arg(1));
            Err(RelError::at(
                1,
                format!(
                    "`{}` and `{}` do not broadcast: dimension {} of the first is {} and dimension {} of the second is {}",
                    cx.show(a),
                    cx.show(b),
                    clash.lhs_index,
                    cx.show_dim(clash.lhs),
                    clash.rhs_index,
                    cx.show_dim(clash.rhs),
                ),
            ))
        }
    }
}

/// A rigid shape parameter next to a different shape: it has no rank to align, and
/// waiting would never give it one.
fn shape_param_error(cx: &mut RelCx<'_>, blame: usize, p: Param) -> RelError {
    let (a, b) = (cx.arg(0), cx.arg(1));
    let name = cx.tcx().param_name(p).to_string();
    RelError::at(
        blame,
        format!(
            "cannot broadcast `{}` with `{}`: the shape parameter `{name}` has no known rank",
            cx.show(a),
            cx.show(b),
        ),
    )
}

/// The definition of [`BROADCAST`].
pub static BROADCAST_DEF: RelationDef = RelationDef {
    name: "Broadcast",
    arity: Some(3),
    needs: &[0, 1],
    solve: broadcast_rel,
};

/// `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)`.
pub const BROADCAST: RelationRef = RelationRef(&BROADCAST_DEF);

/// The solver test API, in the manner of TVM's `_test_type_solver`: a [`Solver`] and the
/// names the types of one test may mention, with types written in the text syntax.
///
/// ```
/// use relay_core::testing::{TestSolver, BROADCAST, IDENTITY};
/// use relay_core::Outcome;
///
/// let mut t = TestSolver::new();
/// let out = t.var("out");
/// t.var("mid");
/// // Added last-first: the binding of `mid` wakes the Identity relation.
/// t.rel(IDENTITY, &["mid", "out"], 1);
/// t.rel(BROADCAST, &["Tensor[(n, 1), float32]", "Tensor[(3), float32]", "mid"], 0);
/// assert_eq!(t.solver.solve(), Outcome::Solved);
/// assert_eq!(t.show_resolved(out), "Tensor[(n, 3), float32]");
/// ```
pub struct TestSolver {
    /// The solver.
    pub solver: Solver,
    /// The names types may mention: variables made by [`TestSolver::var`] and
    /// [`TestSolver::dim`], and rigid symbols, bound at their first use.
    pub scope: TypeScope,
}

impl Default for TestSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl TestSolver {
    /// An empty solver and scope.
    pub fn new() -> Self {
        TestSolver {
            solver: Solver::new(TyCtx::new()),
            scope: TypeScope::new(),
        }
    }

    /// The type written `src` (unbound lowercase dimension names become rigid symbols).
    ///
    /// # Panics
    /// If `src` does not parse: a test's own text is wrong.
    pub fn ty(&mut self, src: &str) -> Ty {
        parse_type(&mut self.solver.tcx, &mut self.scope, src)
            .unwrap_or_else(|e| panic!("cannot parse `{src}`: {e}"))
    }

    /// A fresh type variable, named `name` in later types.
    pub fn var(&mut self, name: &str) -> Ty {
        let t = self.solver.fresh_ty();
        self.scope.bind(name, Binding::Ty(t));
        t
    }

    /// A fresh dimension variable, named `name` in later types.
    pub fn dim(&mut self, name: &str) -> Dim {
        let d = self.solver.fresh_dim();
        self.scope.bind(name, Binding::Dim(d));
        d
    }

    /// The dimension written `src`.
    pub fn d(&mut self, src: &str) -> Dim {
        let t = self.ty(&format!("Tensor[({src}), int32]"));
        let TyData::Tensor(s, _) = *self.solver.tcx.data(t) else {
            unreachable!("a tensor type was parsed")
        };
        self.solver
            .tcx
            .shape_dims(s)
            .expect("a shape of known rank")[0]
    }

    /// Adds `relation` over the types written in `args`, tagged `origin`.
    pub fn rel(&mut self, relation: RelationRef, args: &[&str], origin: u32) {
        self.rel_with(relation, args, None, origin);
    }

    /// Adds `relation` over the types written in `args`, with attributes.
    pub fn rel_with(
        &mut self,
        relation: RelationRef,
        args: &[&str],
        attrs: Option<Attrs>,
        origin: u32,
    ) {
        let args: Vec<Ty> = args.iter().map(|a| self.ty(a)).collect();
        self.solver
            .add_relation(relation, &args, attrs.map(Arc::new), origin);
    }

    /// Unifies the types written `a` and `b`.
    ///
    /// # Panics
    /// If they do not unify.
    pub fn unify(&mut self, a: &str, b: &str) {
        let (x, y) = (self.ty(a), self.ty(b));
        if let Err(e) = self.solver.unify(x, y) {
            panic!(
                "`{a}` and `{b}` do not unify: {}",
                e.describe(&self.solver.tcx)
            );
        }
    }

    /// The description of the failure to unify the types written `a` and `b`.
    ///
    /// # Panics
    /// If they unify.
    pub fn unify_err(&mut self, a: &str, b: &str) -> String {
        let (x, y) = (self.ty(a), self.ty(b));
        match self.solver.unify(x, y) {
            Ok(()) => panic!("`{a}` and `{b}` unified"),
            Err(e) => e.describe(&self.solver.tcx),
        }
    }

    /// Unifies the dimensions written `a` and `b`.
    pub fn unify_dims(&mut self, a: &str, b: &str) -> Result<(), UnifyErrorKind> {
        let (x, y) = (self.d(a), self.d(b));
        self.solver.unify_dims(x, y).map_err(|e| e.kind)
    }

    /// `t` resolved and printed.
    pub fn show_resolved(&mut self, t: Ty) -> String {
        let r = self.solver.resolve(t);
        // Whole: a test compares the text.
        self.solver.tcx.show_within(r, usize::MAX)
    }

    /// The type written `src`, resolved and printed.
    pub fn show(&mut self, src: &str) -> String {
        let t = self.ty(src);
        self.show_resolved(t)
    }

    /// `d` resolved and printed.
    pub fn show_dim(&mut self, d: Dim) -> String {
        let r = self.solver.resolve_dim(d);
        self.solver.tcx.show_dim(r)
    }

    /// The variable `t` is (as the solver names unknowns in its reports).
    ///
    /// # Panics
    /// If `t` is not a type variable.
    pub fn tyvar(&self, t: Ty) -> VarRef {
        match self.solver.tcx.data(t) {
            TyData::Var(v) => VarRef::Ty(*v),
            _ => panic!("not a type variable"),
        }
    }

    /// The variable `d` is.
    ///
    /// # Panics
    /// If `d` is not a dimension variable.
    pub fn dimvar(&self, d: Dim) -> VarRef {
        match self.solver.tcx.dims.data(d) {
            DimData::Var(v) => VarRef::Dim(*v),
            _ => panic!("not a dimension variable"),
        }
    }
}

/// Runs `f` on a thread with a 2 MiB stack and waits for it, so that a test shows that
/// no recursion depth follows the size of its input.
///
/// # Panics
/// If the thread cannot be spawned, or `f` panics (a stack overflow aborts the process).
///
/// ```
/// relay_core::testing::on_small_stack(|| {
///     let v: Vec<u32> = (0..100_000).collect();
///     assert_eq!(v.len(), 100_000);
/// });
/// ```
pub fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the work finishes on a 2 MiB stack");
}

/// The solver benchmark's workload: `x[i+1] = Broadcast(x[i], y)` for `i < len`, with
/// `y: Tensor[(n, 768), float32]`, `x[0]: Tensor[(n, 1), float32]` and every other `x[i]`
/// an unknown, added in program order or last-first.
pub struct BroadcastChain {
    /// The solver, with the relations added and not solved yet.
    pub solver: Solver,
    /// `x[len]`.
    pub last: Ty,
    /// The type `x[len]` must resolve to.
    pub expected: Ty,
}

/// Builds a [`BroadcastChain`] of `len` relations of this module's hand-written
/// [`BROADCAST`].
///
/// ```
/// use relay_core::testing::broadcast_chain;
/// use relay_core::Outcome;
/// let mut chain = broadcast_chain(1000, true);
/// assert_eq!(chain.solver.solve(), Outcome::Solved);
/// assert_eq!(chain.solver.resolve(chain.last), chain.expected);
/// assert_eq!(chain.solver.stats().runs, 1999);
/// ```
pub fn broadcast_chain(len: usize, reverse: bool) -> BroadcastChain {
    broadcast_chain_of(BROADCAST, len, reverse)
}

/// Builds a [`BroadcastChain`] of `len` instances of `relation` (any relation with
/// `Broadcast`'s meaning: to compare implementations, such as a `#[relation]` clause).
pub fn broadcast_chain_of(relation: RelationRef, len: usize, reverse: bool) -> BroadcastChain {
    let mut s = Solver::new(TyCtx::new());
    let n = s.tcx.param("n", crate::Kind::ShapeVar);
    let n = s.tcx.dim_param(n).expect("n is a ShapeVar");
    let c = s.tcx.dims.konst(768);
    let one = s.tcx.dims.konst(1);
    let y = s.tcx.tensor_of(&[n, c], crate::DType::FLOAT32);
    let x0 = s.tcx.tensor_of(&[n, one], crate::DType::FLOAT32);
    let mut xs = Vec::with_capacity(len + 1);
    xs.push(x0);
    for _ in 0..len {
        xs.push(s.fresh_ty());
    }
    let add = |s: &mut Solver, i: usize| {
        s.add_relation(relation, &[xs[i], y, xs[i + 1]], None, i as u32);
    };
    if reverse {
        (0..len).rev().for_each(|i| add(&mut s, i));
    } else {
        (0..len).for_each(|i| add(&mut s, i));
    }
    BroadcastChain {
        solver: s,
        last: xs[len],
        expected: y,
    }
}

/// `src` with an empty comment `/**/` before each local (`%x`) and after each `:`, as the
/// lexer reads them (never inside a string or a comment; after a `/` with a space
/// before it): the same program to the
/// grammar, which the reader's fast paths (made for statements and parameters without
/// comments) leave to the grammar. How the tests compare the two ways of reading. The
/// text after a lexical error is kept as it is.
///
/// ```
/// use relay_core::testing::commented;
/// let src = "def @f(%x: float32) { let %y = copy(%x); %y } // %z: w";
/// assert_eq!(
///     commented(src),
///     "def @f(/**/%x:/**/ float32) { let /**/%y = copy(/**/%x); /**/%y } // %z: w"
/// );
/// ```
pub fn commented(src: &str) -> String {
    use crate::lexer::{Lexer, Tok};
    let mut out = String::with_capacity(src.len() + src.len() / 4);
    let mut lex = Lexer::new(src);
    let mut done = 0;
    loop {
        let t = lex.advance();
        match t.kind {
            Tok::Eof | Tok::Error => break,
            Tok::Local => {
                out.push_str(&src[done..t.lo as usize]);
                // (Not `//**/`, a line comment, after a `/`.)
                if out.ends_with('/') {
                    out.push(' ');
                }
                out.push_str("/**/");
                done = t.lo as usize;
            }
            Tok::Colon => {
                out.push_str(&src[done..t.hi as usize]);
                out.push_str("/**/");
                done = t.hi as usize;
            }
            _ => {}
        }
    }
    out.push_str(&src[done..]);
    out
}

/// What the reader reads from `src`, as text to compare: the module printed, or the
/// error messages, one a line (without their places, which a comment moves). With
/// [`commented`], how the tests compare the reader's fast paths with its grammar.
///
/// ```
/// use relay_core::testing::{commented, reading};
/// use relay_core::{adt::AdtTable, TyCtx};
/// let src = "def @f(%x: float32) { let %y = (%x,); %z }";
/// let read = |src: &str| reading(src, &mut TyCtx::new(), &mut AdtTable::default());
/// assert_eq!(read(src), "unbound local variable `%z`");
/// assert!(read("def @f(%x: float32) { %x }").ends_with("def @f(%x: float32) {\n  %x\n}\n"));
/// assert_eq!(read(src), read(&commented(src)));
/// ```
pub fn reading(src: &str, tcx: &mut TyCtx, adts: &mut crate::adt::AdtTable) -> String {
    match crate::text::parse_module(src, tcx, adts) {
        Ok(m) => crate::text::print_module(&m, tcx, adts),
        Err(errors) => {
            let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
            messages.join("\n")
        }
    }
}
