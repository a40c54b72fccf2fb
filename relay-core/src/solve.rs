//! The worklist solver of type relations (Relay paper, §"Type Inference").
//!
//! - Flexible variables of four sorts (types, shapes, dimensions, dtypes) live in `ena`
//!   union-find tables.
//! - Relations are nodes with their arguments in one arena. A relation that answers
//!   "not yet" registers itself on every unknown variable still in its resolved arguments
//!   (so also on variables nested inside types it depends on); when one of them is bound
//!   or merged, the relations registered on it go back on the FIFO queue. Nothing is ever
//!   rescanned: the work is proportional to the number of wake-ups.
//! - A dimension equation that unification cannot decide yet (two unknowns, or a
//!   non-linear one) becomes an internal relation that waits like the others.
//! - At the fixpoint the result is one of the spec's three outcomes ([`Outcome`]).
//!
//! ```
//! use relay_core::{DType, Outcome, Solver, TyCtx};
//! use relay_core::testing::IDENTITY;
//! let mut s = Solver::new(TyCtx::new());
//! let known = s.tcx.tensor_const(&[3, 4], DType::FLOAT32);
//! let out = s.fresh_ty();
//! s.add_relation(IDENTITY, &[known, out], None, 0);
//! assert_eq!(s.solve(), Outcome::Solved);
//! let out = s.resolve(out);
//! assert_eq!(s.tcx.show(out), "Tensor[(3, 4), float32]");
//! ```

use crate::attrs::Attrs;
use crate::dim::{Dim, DimData, DimError, Dims, Equation};
use crate::fold::{fold_ty, Folder, Leaf, ParamValue};
use crate::kind::Kind;
use crate::relation::{Progress, RelCx, RelationRef};
use crate::ty::{Constraint, DTy, Shape, ShapeData, Ty, TyCtx, TyData};
use crate::var::{DTypeVar, DimVar, ShapeVar, TyVar};
use ena::unify::{InPlaceUnificationTable, NoError, Snapshot as EnaSnapshot, UnifyKey, UnifyValue};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

/// The attributes of a relation instance given none.
static NO_ATTRS: Attrs = Attrs::EMPTY;

/// The end of a watch list.
const NIL: u32 = u32::MAX;

/// The value slot of a union-find variable: unknown, or known.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot<T>(Option<T>);

impl<T: Clone + fmt::Debug + PartialEq> UnifyValue for Slot<T> {
    type Error = NoError;

    // The solver merges two variables only when at most one of them is known, and sets a
    // value only on an unknown variable (or to re-store the same value resolved further).
    fn unify_values(a: &Self, b: &Self) -> Result<Self, NoError> {
        Ok(if b.0.is_some() { b.clone() } else { a.clone() })
    }
}

macro_rules! unify_key {
    ($key:ident, $value:ty) => {
        impl UnifyKey for $key {
            type Value = Slot<$value>;
            fn index(&self) -> u32 {
                self.0
            }
            fn from_index(i: u32) -> Self {
                $key(i)
            }
            fn tag() -> &'static str {
                stringify!($key)
            }
        }
    };
}

unify_key!(TyVar, Ty);
unify_key!(ShapeVar, Shape);
unify_key!(DimVar, Dim);
unify_key!(DTypeVar, DTy);

/// A flexible variable of any sort.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarRef {
    /// An incomplete type.
    Ty(TyVar),
    /// A shape of unknown rank.
    Shape(ShapeVar),
    /// An unknown dimension.
    Dim(DimVar),
    /// An unknown dtype.
    DType(DTypeVar),
}

impl fmt::Display for VarRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarRef::Ty(v) => write!(f, "{v}"),
            VarRef::Shape(v) => write!(f, "{v}"),
            VarRef::Dim(v) => write!(f, "{v}"),
            VarRef::DType(v) => write!(f, "{v}"),
        }
    }
}

/// The identity of a relation instance in a [`Solver`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RelId(u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RelState {
    /// Waiting on the variables it registered on.
    Waiting,
    /// On the queue.
    Queued,
    /// Being run (a wake-up of its own variables is ignored: it sees them already).
    Running,
    Solved,
    Failed,
}

#[derive(Clone, Debug)]
enum RelKind {
    Call {
        relation: RelationRef,
        start: u32,
        len: u32,
        attrs: Option<Arc<Attrs>>,
    },
    DimEq(Dim, Dim),
}

#[derive(Clone, Debug)]
struct RelNode {
    kind: RelKind,
    state: RelState,
    origin: u32,
}

/// One step of the path from the root of a unification to the place it failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Field `i` of a tuple.
    Field(usize),
    /// Argument `i` of a function type.
    Arg(usize),
    /// The return type of a function type.
    Ret,
    /// Type argument `i` of a type call.
    TypeArg(usize),
    /// The contents of a reference.
    RefInner,
    /// Dimension `i` of a shape.
    Dim(usize),
    /// The element type of a tensor.
    DType,
    /// Argument `j` of constraint `i` of a function type.
    ConstraintArg(usize, usize),
}

/// Why two types do not unify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnifyErrorKind {
    /// Two types of different constructors, handles or parameters.
    Types(Ty, Ty),
    /// Two shapes of different ranks.
    Rank(Shape, Shape),
    /// Two shapes that cannot be equal (a parameter and another shape).
    Shapes(Shape, Shape),
    /// Two dimensions that cannot be equal.
    Dims(Dim, Dim),
    /// `a = b` asks an unknown to be a fraction.
    NoIntegerSolution(Dim, Dim),
    /// Two different element types.
    DTypes(DTy, DTy),
    /// A variable would contain itself.
    Occurs(Ty, Ty),
    /// Two tuples, functions or type calls with different numbers of parts.
    Arity {
        what: &'static str,
        left: usize,
        right: usize,
    },
    /// Two function types whose constraints differ.
    Constraints,
    /// Dimension arithmetic failed.
    Arith(DimError),
}

/// A failed unification: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnifyError {
    /// The path from the unified types to the clash, outermost first.
    pub path: Vec<Step>,
    /// The clash.
    pub kind: UnifyErrorKind,
}

impl UnifyError {
    fn new(kind: UnifyErrorKind) -> Self {
        UnifyError {
            path: Vec::new(),
            kind,
        }
    }

    /// A one-line description, for example `dimension 1: 3 vs 5`.
    pub fn describe(&self, tcx: &TyCtx) -> String {
        let mut out = String::new();
        for step in &self.path {
            let s = match step {
                Step::Field(i) => format!("tuple field {i}"),
                Step::Arg(i) => format!("function argument {i}"),
                Step::Ret => "function result".to_string(),
                Step::TypeArg(i) => format!("type argument {i}"),
                Step::RefInner => "reference contents".to_string(),
                Step::Dim(i) => format!("dimension {i}"),
                Step::DType => "dtype".to_string(),
                Step::ConstraintArg(i, j) => format!("constraint {i} argument {j}"),
            };
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&s);
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        let detail = match &self.kind {
            UnifyErrorKind::Types(a, b) => format!("`{}` vs `{}`", tcx.show(*a), tcx.show(*b)),
            UnifyErrorKind::Rank(a, b) => {
                let rank = |s: &Shape| tcx.shape_dims(*s).map_or(0, |d| d.len());
                format!(
                    "rank {} `{}` vs rank {} `{}`",
                    rank(a),
                    tcx.show_shape(*a),
                    rank(b),
                    tcx.show_shape(*b)
                )
            }
            UnifyErrorKind::Shapes(a, b) => {
                format!("shape `{}` vs `{}`", tcx.show_shape(*a), tcx.show_shape(*b))
            }
            UnifyErrorKind::Dims(a, b) => format!("{} vs {}", tcx.show_dim(*a), tcx.show_dim(*b)),
            UnifyErrorKind::NoIntegerSolution(a, b) => format!(
                "`{} = {}` has no integer solution",
                tcx.show_dim(*a),
                tcx.show_dim(*b)
            ),
            UnifyErrorKind::DTypes(a, b) => {
                format!("{} vs {}", tcx.show_dtype(*a), tcx.show_dtype(*b))
            }
            UnifyErrorKind::Occurs(v, t) => format!(
                "`{}` would have to contain itself in `{}` (an infinite type)",
                tcx.show(*v),
                tcx.show(*t)
            ),
            UnifyErrorKind::Arity { what, left, right } => format!("{what} of {left} vs {right}"),
            UnifyErrorKind::Constraints => "function types with different relations".to_string(),
            UnifyErrorKind::Arith(e) => e.to_string(),
        };
        out.push_str(&detail);
        out
    }
}

/// A relation that failed, or a dimension equation that turned out false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveError {
    /// The relation's name (`DimEq` for a deferred dimension equation).
    pub relation: &'static str,
    /// The tag given to [`Solver::add_relation`] (the call it comes from).
    pub origin: u32,
    /// The argument blamed, if one is.
    pub arg: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// Further facts.
    pub notes: Vec<String>,
}

/// A relation still waiting at the fixpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The relation's name.
    pub relation: &'static str,
    /// The tag given to [`Solver::add_relation`].
    pub origin: u32,
    /// Its arguments, resolved as far as known (printed).
    pub args: Vec<String>,
    /// The unknowns it waits on.
    pub unknowns: Vec<VarRef>,
}

/// The three outcomes of solving (the spec's list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every relation holds.
    Solved,
    /// At least one relation or equation does not hold.
    Failed(Vec<SolveError>),
    /// A fixpoint with relations still waiting on unknowns.
    UnderConstrained(Vec<Waiting>),
}

/// Counters of the solver's work, for tests of its complexity.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Relation runs, in all.
    pub runs: u64,
    /// Relations put back on the queue by a wake-up.
    pub wakeups: u64,
}

#[derive(Debug)]
enum Undo {
    /// The head of a variable's watch list before a change.
    WatchHead(VarRef, u32),
    Enqueued,
    Dequeued(RelId),
    State(RelId, RelState),
    AddRel,
    ArgsLen(usize),
    Error,
    Reported(Vec<SolveError>),
}

/// An open snapshot, to roll back speculative unifications.
#[must_use = "a snapshot must be rolled back or committed"]
pub struct Snapshot {
    tys: EnaSnapshot<ena::unify::InPlace<TyVar>>,
    shapes: EnaSnapshot<ena::unify::InPlace<ShapeVar>>,
    dims: EnaSnapshot<ena::unify::InPlace<DimVar>>,
    dtypes: EnaSnapshot<ena::unify::InPlace<DTypeVar>>,
    undo_len: usize,
}

/// The relation solver: union-find tables, relation nodes, the dependency graph and
/// the queue. It owns the [`TyCtx`] its types live in.
pub struct Solver {
    /// The type context.
    pub tcx: TyCtx,
    tys: InPlaceUnificationTable<TyVar>,
    shapes: InPlaceUnificationTable<ShapeVar>,
    dims: InPlaceUnificationTable<DimVar>,
    dtypes: InPlaceUnificationTable<DTypeVar>,
    // The dependency graph: per variable, the head of a linked list of the relations
    // watching it, threaded through one arena (no allocation per variable).
    ty_watch: Vec<u32>,
    shape_watch: Vec<u32>,
    dim_watch: Vec<u32>,
    dtype_watch: Vec<u32>,
    watch_nodes: Vec<(RelId, u32)>,
    rels: Vec<RelNode>,
    rel_args: Vec<Ty>,
    queue: VecDeque<RelId>,
    errors: Vec<SolveError>,
    undo: Vec<Undo>,
    open_snapshots: usize,
    stats: Stats,
    scratch: Vec<Ty>,
    scratch_vars: Vec<VarRef>,
    /// Bindings and merges so far (to tell whether a run changed anything).
    binds: u64,
}

impl Solver {
    /// A solver with no variables and no relations, over `tcx`.
    pub fn new(tcx: TyCtx) -> Self {
        Solver {
            tcx,
            tys: InPlaceUnificationTable::new(),
            shapes: InPlaceUnificationTable::new(),
            dims: InPlaceUnificationTable::new(),
            dtypes: InPlaceUnificationTable::new(),
            ty_watch: Vec::new(),
            shape_watch: Vec::new(),
            dim_watch: Vec::new(),
            dtype_watch: Vec::new(),
            watch_nodes: Vec::new(),
            rels: Vec::new(),
            rel_args: Vec::new(),
            queue: VecDeque::new(),
            errors: Vec::new(),
            undo: Vec::new(),
            open_snapshots: 0,
            stats: Stats::default(),
            scratch: Vec::new(),
            scratch_vars: Vec::new(),
            binds: 0,
        }
    }

    /// Makes room for `vars` more type variables and `relations` more relations of up to
    /// `arity` arguments each, so that a program whose size is known up front (the
    /// inference pass knows it) builds its constraints without regrowing any table.
    pub fn reserve(&mut self, vars: usize, relations: usize, arity: usize) {
        self.tys.reserve(vars);
        self.ty_watch.reserve(vars);
        self.tcx.reserve_vars(vars);
        self.rels.reserve(relations);
        self.rel_args.reserve(relations.saturating_mul(arity));
        self.queue.reserve(relations);
    }

    /// Gives the type context back.
    pub fn into_tcx(self) -> TyCtx {
        self.tcx
    }

    /// The work done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    // ----- fresh variables -----

    /// A fresh incomplete type.
    pub fn fresh_ty(&mut self) -> Ty {
        let v = self.tys.new_key(Slot(None));
        self.ty_watch.push(NIL);
        self.tcx.var_ty(v)
    }

    /// A fresh shape of unknown rank.
    pub fn fresh_shape(&mut self) -> Shape {
        let v = self.shapes.new_key(Slot(None));
        self.shape_watch.push(NIL);
        self.tcx.shape_var(v)
    }

    /// A fresh unknown dimension.
    pub fn fresh_dim(&mut self) -> Dim {
        let v = self.dims.new_key(Slot(None));
        self.dim_watch.push(NIL);
        self.tcx.dims.var(v)
    }

    /// A fresh unknown dtype.
    pub fn fresh_dtype(&mut self) -> DTy {
        let v = self.dtypes.new_key(Slot(None));
        self.dtype_watch.push(NIL);
        DTy::Var(v)
    }

    /// A fresh value for a parameter of kind `kind`.
    pub fn fresh_for(&mut self, kind: Kind) -> ParamValue {
        match kind {
            Kind::Type => ParamValue::Ty(self.fresh_ty()),
            Kind::Shape => ParamValue::Shape(self.fresh_shape()),
            Kind::ShapeVar => ParamValue::Dim(self.fresh_dim()),
            Kind::BaseType => ParamValue::DType(self.fresh_dtype()),
        }
    }

    // ----- relations -----

    /// Adds an instance of `relation` over `args`, with the call's attributes, tagged with
    /// `origin` (reported back in errors). It goes on the queue.
    pub fn add_relation(
        &mut self,
        relation: RelationRef,
        args: &[Ty],
        attrs: Option<Arc<Attrs>>,
        origin: u32,
    ) -> RelId {
        let start = u32::try_from(self.rel_args.len()).expect("relation arena overflow");
        self.log(Undo::ArgsLen(self.rel_args.len()));
        self.rel_args.extend_from_slice(args);
        let kind = RelKind::Call {
            relation,
            start,
            len: args.len() as u32,
            attrs,
        };
        if let Some(arity) = relation.0.arity.filter(|&n| n != args.len()) {
            // Reported, never run: a relation's code may index its arguments.
            let id = self.push_rel(kind, origin, RelState::Failed);
            self.push_error(SolveError {
                relation: relation.name(),
                origin,
                arg: None,
                message: format!(
                    "`{}` takes {arity} argument{} but was given {}",
                    relation.name(),
                    if arity == 1 { "" } else { "s" },
                    args.len()
                ),
                notes: Vec::new(),
            });
            return id;
        }
        self.push_rel(kind, origin, RelState::Queued)
    }

    fn push_rel(&mut self, kind: RelKind, origin: u32, state: RelState) -> RelId {
        let id = RelId(u32::try_from(self.rels.len()).expect("more than 4 billion relations"));
        self.rels.push(RelNode {
            kind,
            state,
            origin,
        });
        self.log(Undo::AddRel);
        if state == RelState::Queued {
            self.queue.push_back(id);
            self.log(Undo::Enqueued);
        }
        id
    }

    fn set_state(&mut self, id: RelId, state: RelState) {
        let old = std::mem::replace(&mut self.rels[id.0 as usize].state, state);
        self.log(Undo::State(id, old));
    }

    /// Adds every constraint of an instantiated function type.
    pub fn add_constraints(
        &mut self,
        constraints: &[Constraint],
        attrs: Option<Arc<Attrs>>,
        origin: u32,
    ) {
        for c in constraints {
            self.add_relation(c.relation, &c.args, attrs.clone(), origin);
        }
    }

    /// Runs the queue to its fixpoint and reports the outcome. Errors are reported once:
    /// a later call reports only new ones.
    pub fn solve(&mut self) -> Outcome {
        while let Some(id) = self.queue.pop_front() {
            // Inside a snapshot every step is logged, so that a rollback puts the queue,
            // the states and the pending errors back as they were.
            self.log(Undo::Dequeued(id));
            if self.rels[id.0 as usize].state != RelState::Queued {
                continue;
            }
            self.set_state(id, RelState::Running);
            self.run(id);
        }
        if !self.errors.is_empty() {
            let errors = std::mem::take(&mut self.errors);
            if self.open_snapshots > 0 {
                self.undo.push(Undo::Reported(errors.clone()));
            }
            return Outcome::Failed(errors);
        }
        let waiting: Vec<RelId> = (0..self.rels.len() as u32)
            .map(RelId)
            .filter(|id| self.rels[id.0 as usize].state == RelState::Waiting)
            .collect();
        if waiting.is_empty() {
            return Outcome::Solved;
        }
        let report = waiting
            .into_iter()
            .map(|id| self.waiting_report(id))
            .collect();
        Outcome::UnderConstrained(report)
    }

    fn waiting_report(&mut self, id: RelId) -> Waiting {
        let node = self.rels[id.0 as usize].clone();
        match node.kind {
            RelKind::Call {
                relation,
                start,
                len,
                ..
            } => {
                let args: Vec<Ty> = (start..start + len)
                    .map(|i| self.rel_args[i as usize])
                    .collect();
                let resolved: Vec<Ty> = args.iter().map(|&t| self.resolve(t)).collect();
                let mut unknowns = Vec::new();
                for &t in &resolved {
                    self.collect_vars(t, &mut unknowns);
                }
                dedup_in_order(&mut unknowns);
                Waiting {
                    relation: relation.name(),
                    origin: node.origin,
                    args: resolved.iter().map(|&t| self.tcx.show(t)).collect(),
                    unknowns,
                }
            }
            RelKind::DimEq(a, b) => {
                let (a, b) = (self.resolve_dim(a), self.resolve_dim(b));
                let mut unknowns: Vec<VarRef> =
                    self.tcx.dims.vars(a).into_iter().map(VarRef::Dim).collect();
                unknowns.extend(self.tcx.dims.vars(b).into_iter().map(VarRef::Dim));
                dedup_in_order(&mut unknowns);
                Waiting {
                    relation: "DimEq",
                    origin: node.origin,
                    args: vec![self.tcx.show_dim(a), self.tcx.show_dim(b)],
                    unknowns,
                }
            }
        }
    }

    fn run(&mut self, id: RelId) {
        self.stats.runs += 1;
        let node = &self.rels[id.0 as usize];
        let origin = node.origin;
        match node.kind.clone() {
            RelKind::DimEq(a, b) => match self.unify_dim_step(a, b) {
                Ok(DimStep::Done) => self.set_state(id, RelState::Solved),
                Ok(DimStep::Deferred(a, b)) => {
                    self.set_state(id, RelState::Waiting);
                    for v in self
                        .tcx
                        .dims
                        .vars(a)
                        .into_iter()
                        .chain(self.tcx.dims.vars(b))
                    {
                        self.watch(VarRef::Dim(v), id);
                    }
                }
                Err(e) => {
                    let message = e.describe(&self.tcx);
                    self.push_error(SolveError {
                        relation: "DimEq",
                        origin,
                        arg: None,
                        message,
                        notes: Vec::new(),
                    });
                    self.set_state(id, RelState::Failed);
                }
            },
            RelKind::Call {
                relation,
                start,
                len,
                attrs,
            } => {
                let mut args = std::mem::take(&mut self.scratch);
                args.clear();
                for i in start..start + len {
                    let t = self.rel_args[i as usize];
                    let r = self.resolve(t);
                    args.push(r);
                }
                let binds_before = self.binds;
                let result = {
                    let mut cx = RelCx {
                        solver: self,
                        args: &args,
                        attrs: attrs.as_deref().unwrap_or(&NO_ATTRS),
                    };
                    (relation.0.solve)(&mut cx)
                };
                match result {
                    Ok(Progress::Solved) => self.set_state(id, RelState::Solved),
                    Ok(Progress::NotYet) => {
                        self.set_state(id, RelState::Waiting);
                        let mut vars = std::mem::take(&mut self.scratch_vars);
                        vars.clear();
                        // The arguments resolved for the run are current unless it bound
                        // something; only then resolve them again.
                        let rebound = self.binds != binds_before;
                        for (k, i) in (start..start + len).enumerate() {
                            let r = if rebound {
                                let t = self.rel_args[i as usize];
                                self.resolve(t)
                            } else {
                                args[k]
                            };
                            self.collect_vars(r, &mut vars);
                        }
                        for &v in &vars {
                            self.watch(v, id);
                        }
                        self.scratch_vars = vars;
                    }
                    Err(e) => {
                        self.push_error(SolveError {
                            relation: relation.name(),
                            origin,
                            arg: e.arg,
                            message: e.message,
                            notes: e.notes,
                        });
                        self.set_state(id, RelState::Failed);
                    }
                }
                self.scratch = args;
            }
        }
    }

    fn push_error(&mut self, e: SolveError) {
        self.errors.push(e);
        self.log(Undo::Error);
    }

    // ----- the dependency graph -----

    fn watch_head(&mut self, v: VarRef) -> &mut u32 {
        let (list, slot) = match v {
            VarRef::Ty(x) => (&mut self.ty_watch, x.0 as usize),
            VarRef::Shape(x) => (&mut self.shape_watch, x.0 as usize),
            VarRef::Dim(x) => (&mut self.dim_watch, x.0 as usize),
            VarRef::DType(x) => (&mut self.dtype_watch, x.0 as usize),
        };
        // A variable the tables were extended to (see `cover`) has no list yet.
        if slot >= list.len() {
            list.resize(slot + 1, NIL);
        }
        &mut list[slot]
    }

    fn root(&mut self, v: VarRef) -> VarRef {
        match v {
            VarRef::Ty(x) => VarRef::Ty(find(&mut self.tys, x)),
            VarRef::Shape(x) => VarRef::Shape(find(&mut self.shapes, x)),
            VarRef::Dim(x) => VarRef::Dim(find(&mut self.dims, x)),
            VarRef::DType(x) => VarRef::DType(find(&mut self.dtypes, x)),
        }
    }

    fn watch(&mut self, v: VarRef, id: RelId) {
        let v = self.root(v);
        let head = *self.watch_head(v);
        if head != NIL && self.watch_nodes[head as usize].0 == id {
            return;
        }
        let node = u32::try_from(self.watch_nodes.len()).expect("watch arena overflow");
        self.watch_nodes.push((id, head));
        *self.watch_head(v) = node;
        self.log(Undo::WatchHead(v, head));
    }

    /// Puts every relation registered on `v` (a root, about to change) back on the queue.
    fn wake(&mut self, v: VarRef) {
        // Every binding and merge goes through here.
        self.binds += 1;
        let head = std::mem::replace(self.watch_head(v), NIL);
        if head == NIL {
            return;
        }
        self.log(Undo::WatchHead(v, head));
        let mut node = head;
        while node != NIL {
            let (id, next) = self.watch_nodes[node as usize];
            if self.rels[id.0 as usize].state == RelState::Waiting {
                self.stats.wakeups += 1;
                self.set_state(id, RelState::Queued);
                self.queue.push_back(id);
                self.log(Undo::Enqueued);
            }
            node = next;
        }
    }

    #[inline(always)]
    fn log(&mut self, u: Undo) {
        if self.open_snapshots > 0 {
            self.undo.push(u);
        }
    }

    // ----- snapshots -----

    /// Opens a snapshot: every change from now on can be undone by
    /// [`Solver::rollback_to`] until it is committed.
    pub fn snapshot(&mut self) -> Snapshot {
        self.open_snapshots += 1;
        Snapshot {
            tys: self.tys.snapshot(),
            shapes: self.shapes.snapshot(),
            dims: self.dims.snapshot(),
            dtypes: self.dtypes.snapshot(),
            undo_len: self.undo.len(),
        }
    }

    /// Undoes every change made since `s` was taken.
    pub fn rollback_to(&mut self, s: Snapshot) {
        while self.undo.len() > s.undo_len {
            match self.undo.pop().expect("undo entries past the snapshot") {
                Undo::WatchHead(v, head) => *self.watch_head(v) = head,
                Undo::Enqueued => {
                    self.queue.pop_back();
                }
                Undo::Dequeued(id) => self.queue.push_front(id),
                Undo::State(id, old) => self.rels[id.0 as usize].state = old,
                Undo::AddRel => {
                    self.rels.pop();
                }
                Undo::ArgsLen(n) => self.rel_args.truncate(n),
                Undo::Error => {
                    self.errors.pop();
                }
                Undo::Reported(errors) => self.errors = errors,
            }
        }
        self.tys.rollback_to(s.tys);
        self.shapes.rollback_to(s.shapes);
        self.dims.rollback_to(s.dims);
        self.dtypes.rollback_to(s.dtypes);
        // Variables created inside the snapshot are gone from the tables.
        self.ty_watch.truncate(self.tys.len());
        self.shape_watch.truncate(self.shapes.len());
        self.dim_watch.truncate(self.dims.len());
        self.dtype_watch.truncate(self.dtypes.len());
        self.open_snapshots -= 1;
        if self.open_snapshots == 0 {
            self.undo.clear();
        }
    }

    /// Keeps every change made since `s` was taken.
    pub fn commit(&mut self, s: Snapshot) {
        self.tys.commit(s.tys);
        self.shapes.commit(s.shapes);
        self.dims.commit(s.dims);
        self.dtypes.commit(s.dtypes);
        self.open_snapshots -= 1;
        if self.open_snapshots == 0 {
            self.undo.clear();
        }
    }

    /// Unifies `a` and `b` if they can be, and leaves everything as it was if not.
    pub fn try_unify(&mut self, a: Ty, b: Ty) -> Result<(), UnifyError> {
        let s = self.snapshot();
        match self.unify(a, b) {
            Ok(()) => {
                self.commit(s);
                Ok(())
            }
            Err(e) => {
                self.rollback_to(s);
                Err(e)
            }
        }
    }

    // ----- binding -----

    fn bind_ty(&mut self, v: TyVar, t: Ty) {
        self.tys.union_value(v, Slot(Some(t)));
        self.wake(VarRef::Ty(v));
    }

    fn bind_shape(&mut self, v: ShapeVar, s: Shape) {
        self.shapes.union_value(v, Slot(Some(s)));
        self.wake(VarRef::Shape(v));
    }

    fn bind_dim(&mut self, v: DimVar, d: Dim) {
        self.dims.union_value(v, Slot(Some(d)));
        self.wake(VarRef::Dim(v));
    }

    fn bind_dtype(&mut self, v: DTypeVar, d: DTy) {
        self.dtypes.union_value(v, Slot(Some(d)));
        self.wake(VarRef::DType(v));
    }

    // ----- unification -----

    /// Follows a bound type variable to its value (one level of type structure).
    #[inline]
    fn shallow(&mut self, mut t: Ty) -> Ty {
        while let TyData::Var(v) = *self.tcx.data(t) {
            let root = find(&mut self.tys, v);
            match self.tys.probe_value(root).0 {
                Some(value) => t = value,
                None => {
                    return if root == v { t } else { self.tcx.var_ty(root) };
                }
            }
        }
        t
    }

    fn shallow_shape(&mut self, s: Shape) -> Shape {
        if let ShapeData::Var(v) = *self.tcx.shape_data(s) {
            let root = find(&mut self.shapes, v);
            return match self.shapes.probe_value(root).0 {
                Some(value) => value,
                None if root == v => s,
                None => self.tcx.shape_var(root),
            };
        }
        s
    }

    fn shallow_dtype(&mut self, d: DTy) -> DTy {
        if let DTy::Var(v) = d {
            let root = find(&mut self.dtypes, v);
            return self.dtypes.probe_value(root).0.unwrap_or(DTy::Var(root));
        }
        d
    }

    /// Whether type variable `v` (a root) occurs in `t`, looking through solved variables.
    fn occurs(&mut self, v: TyVar, t: Ty) -> bool {
        if !self.tcx.has_vars(t) {
            return false;
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![t];
        let mut kids = Vec::new();
        while let Some(t) = stack.pop() {
            let t = self.shallow(t);
            if !self.tcx.has_vars(t) || !seen.insert(t) {
                continue;
            }
            match self.tcx.data(t) {
                TyData::Var(w) => {
                    if find(&mut self.tys, *w) == v {
                        return true;
                    }
                }
                data => {
                    kids.clear();
                    push_children(data, &mut kids);
                    stack.extend_from_slice(&kids);
                }
            }
        }
        false
    }

    /// Unifies two types, binding variables on either side.
    pub fn unify(&mut self, a: Ty, b: Ty) -> Result<(), UnifyError> {
        // Fast path: an unknown against a type without unknowns (a relation's output).
        let a = self.shallow(a);
        let b = self.shallow(b);
        if a == b {
            return Ok(());
        }
        if let TyData::Var(x) = *self.tcx.data(a) {
            if !self.tcx.has_vars(b) {
                self.bind_ty(x, b);
                return Ok(());
            }
        }
        if let TyData::Var(y) = *self.tcx.data(b) {
            if !self.tcx.has_vars(a) {
                self.bind_ty(y, a);
                return Ok(());
            }
        }
        // Paths are kept as a parent-linked list and only materialized on failure.
        let mut paths: Vec<(u32, Step)> = Vec::new();
        let mut work: Vec<(Ty, Ty, u32)> = vec![(a, b, u32::MAX)];
        let fail = |paths: &Vec<(u32, Step)>, at: u32, kind: UnifyErrorKind| {
            let mut path = Vec::new();
            let mut p = at;
            while p != u32::MAX {
                let (parent, step) = paths[p as usize];
                path.push(step);
                p = parent;
            }
            path.reverse();
            UnifyError { path, kind }
        };
        let step = |paths: &mut Vec<(u32, Step)>, parent: u32, s: Step| -> u32 {
            paths.push((parent, s));
            (paths.len() - 1) as u32
        };
        while let Some((a, b, at)) = work.pop() {
            let a = self.shallow(a);
            let b = self.shallow(b);
            if a == b {
                continue;
            }
            let da = self.tcx.data(a).clone();
            let db = self.tcx.data(b).clone();
            match (&da, &db) {
                (TyData::Var(x), TyData::Var(y)) => {
                    let (x, y) = (*x, *y);
                    self.wake(VarRef::Ty(x));
                    self.wake(VarRef::Ty(y));
                    self.tys.union(x, y);
                }
                (TyData::Var(x), _) => {
                    // Store the value resolved, so that chains of solved variables are
                    // walked once, not at every later bind or occurs check.
                    let b = self.resolve(b);
                    if self.occurs(*x, b) {
                        return Err(fail(&paths, at, UnifyErrorKind::Occurs(a, b)));
                    }
                    self.bind_ty(*x, b);
                }
                (_, TyData::Var(y)) => {
                    let a = self.resolve(a);
                    if self.occurs(*y, a) {
                        return Err(fail(&paths, at, UnifyErrorKind::Occurs(b, a)));
                    }
                    self.bind_ty(*y, a);
                }
                (TyData::Tensor(s1, d1), TyData::Tensor(s2, d2)) => {
                    if let Err(e) = self.unify_dtypes(*d1, *d2) {
                        let mut err = fail(&paths, at, e.kind);
                        err.path.extend(e.path);
                        return Err(err);
                    }
                    if let Err(e) = self.unify_shapes(*s1, *s2) {
                        let mut err = fail(&paths, at, e.kind);
                        err.path.extend(e.path);
                        return Err(err);
                    }
                }
                (TyData::Tuple(x), TyData::Tuple(y)) => {
                    if x.len() != y.len() {
                        let kind = UnifyErrorKind::Types(a, b);
                        return Err(fail(&paths, at, kind));
                    }
                    for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::Field(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Func(f), TyData::Func(g)) => {
                    if f.params.len() != g.params.len() {
                        let kind = UnifyErrorKind::Arity {
                            what: "type parameters",
                            left: f.params.len(),
                            right: g.params.len(),
                        };
                        return Err(fail(&paths, at, kind));
                    }
                    if f.args.len() != g.args.len() {
                        let kind = UnifyErrorKind::Arity {
                            what: "function arguments",
                            left: f.args.len(),
                            right: g.args.len(),
                        };
                        return Err(fail(&paths, at, kind));
                    }
                    if f.constraints.len() != g.constraints.len()
                        || f.constraints
                            .iter()
                            .zip(g.constraints.iter())
                            .any(|(c, d)| c.relation != d.relation || c.args.len() != d.args.len())
                    {
                        return Err(fail(&paths, at, UnifyErrorKind::Constraints));
                    }
                    // Rename g's parameters to f's (same kinds, in order), as TVM does.
                    let mut g_ty = b;
                    if !f.params.is_empty() {
                        let mut map = FxHashMap::default();
                        for (&p, &q) in f.params.iter().zip(g.params.iter()) {
                            let (kp, kq) =
                                (self.tcx.param_info(p).kind, self.tcx.param_info(q).kind);
                            if kp != kq {
                                return Err(fail(&paths, at, UnifyErrorKind::Types(a, b)));
                            }
                            let value = match kp {
                                Kind::Type => {
                                    ParamValue::Ty(self.tcx.param_ty(p).expect("kind checked"))
                                }
                                Kind::Shape => ParamValue::Shape(
                                    self.tcx.shape_param(p).expect("kind checked"),
                                ),
                                Kind::ShapeVar => {
                                    ParamValue::Dim(self.tcx.dim_param(p).expect("kind checked"))
                                }
                                Kind::BaseType => ParamValue::DType(DTy::Param(p)),
                            };
                            map.insert(q, value);
                        }
                        // Strip g's binder so the substitution reaches its body.
                        let body = self.tcx.func(&[], &g.args, g.ret, g.constraints.to_vec());
                        g_ty = self
                            .tcx
                            .substitute(body, &map)
                            .map_err(|e| fail(&paths, at, UnifyErrorKind::Arith(e)))?;
                    }
                    let TyData::Func(g2) = self.tcx.data(g_ty).clone() else {
                        unreachable!()
                    };
                    for (i, c) in f.constraints.iter().enumerate().rev() {
                        for (j, (&p, &q)) in
                            c.args.iter().zip(g2.constraints[i].args.iter()).enumerate()
                        {
                            let s = step(&mut paths, at, Step::ConstraintArg(i, j));
                            work.push((p, q, s));
                        }
                    }
                    let s = step(&mut paths, at, Step::Ret);
                    work.push((f.ret, g2.ret, s));
                    for (i, (&p, &q)) in f.args.iter().zip(g2.args.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::Arg(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Call(h1, x), TyData::Call(h2, y)) => {
                    if h1 != h2 || x.len() != y.len() {
                        return Err(fail(&paths, at, UnifyErrorKind::Types(a, b)));
                    }
                    for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::TypeArg(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Ref(x), TyData::Ref(y)) => {
                    let s = step(&mut paths, at, Step::RefInner);
                    work.push((*x, *y, s));
                }
                _ => return Err(fail(&paths, at, UnifyErrorKind::Types(a, b))),
            }
        }
        Ok(())
    }

    /// Unifies two element types.
    pub fn unify_dtypes(&mut self, a: DTy, b: DTy) -> Result<(), UnifyError> {
        let a = self.shallow_dtype(a);
        let b = self.shallow_dtype(b);
        match (a, b) {
            _ if a == b => Ok(()),
            (DTy::Var(x), DTy::Var(y)) => {
                self.wake(VarRef::DType(x));
                self.wake(VarRef::DType(y));
                self.dtypes.union(x, y);
                Ok(())
            }
            (DTy::Var(x), other) | (other, DTy::Var(x)) => {
                self.bind_dtype(x, other);
                Ok(())
            }
            _ => Err(UnifyError {
                path: vec![Step::DType],
                kind: UnifyErrorKind::DTypes(a, b),
            }),
        }
    }

    /// Unifies two shapes: ranks, then each dimension.
    pub fn unify_shapes(&mut self, a: Shape, b: Shape) -> Result<(), UnifyError> {
        let a = self.shallow_shape(a);
        let b = self.shallow_shape(b);
        if a == b {
            return Ok(());
        }
        let da = self.tcx.shape_data(a).clone();
        let db = self.tcx.shape_data(b).clone();
        match (&da, &db) {
            (ShapeData::Var(x), ShapeData::Var(y)) => {
                self.wake(VarRef::Shape(*x));
                self.wake(VarRef::Shape(*y));
                self.shapes.union(*x, *y);
                Ok(())
            }
            (ShapeData::Var(x), _) => {
                self.bind_shape(*x, b);
                Ok(())
            }
            (_, ShapeData::Var(y)) => {
                self.bind_shape(*y, a);
                Ok(())
            }
            (ShapeData::Dims(x), ShapeData::Dims(y)) => {
                if x.len() != y.len() {
                    return Err(UnifyError::new(UnifyErrorKind::Rank(a, b)));
                }
                for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate() {
                    self.unify_dims(p, q)
                        .map_err(|e| prefix(e, vec![Step::Dim(i)]))?;
                }
                Ok(())
            }
            _ => Err(UnifyError::new(UnifyErrorKind::Shapes(a, b))),
        }
    }

    /// Unifies two dimensions. A linear equation in one unknown is solved on the spot
    /// (`2*x + 1 = 9` gives `x = 4`); one the solver cannot decide yet (two unknowns, or
    /// a non-linear one) waits as a relation until its unknowns are refined.
    pub fn unify_dims(&mut self, a: Dim, b: Dim) -> Result<(), UnifyError> {
        match self.unify_dim_step(a, b)? {
            DimStep::Done => Ok(()),
            DimStep::Deferred(a, b) => {
                let id = self.push_rel(RelKind::DimEq(a, b), u32::MAX, RelState::Waiting);
                for v in self
                    .tcx
                    .dims
                    .vars(a)
                    .into_iter()
                    .chain(self.tcx.dims.vars(b))
                {
                    self.watch(VarRef::Dim(v), id);
                }
                Ok(())
            }
        }
    }

    fn unify_dim_step(&mut self, a: Dim, b: Dim) -> Result<DimStep, UnifyError> {
        let arith = |e: DimError| UnifyError::new(UnifyErrorKind::Arith(e));
        // A failed resolution is an error: going on with the unresolved dimension would
        // treat solved variables as unknowns.
        let a = resolve_dim_in(&mut self.tcx.dims, &mut self.dims, a).map_err(arith)?;
        let b = resolve_dim_in(&mut self.tcx.dims, &mut self.dims, b).map_err(arith)?;
        if a == b {
            return Ok(DimStep::Done);
        }
        let dims = &self.tcx.dims;
        let bare = |d: Dim| match dims.data(d) {
            DimData::Var(v) => Some(*v),
            _ => None,
        };
        let (va, vb) = (bare(a), bare(b));
        if let (Some(x), Some(y)) = (va, vb) {
            self.wake(VarRef::Dim(x));
            self.wake(VarRef::Dim(y));
            self.dims.union(x, y);
            return Ok(DimStep::Done);
        }
        if a == Dims::ANY || b == Dims::ANY {
            // `?` is compatible with every dimension; an unknown unified with it becomes `?`.
            if let Some(x) = va.or(vb) {
                self.bind_dim(x, Dims::ANY);
            }
            return Ok(DimStep::Done);
        }
        match self.tcx.dims.equation(a, b) {
            Equation::False => Err(UnifyError::new(UnifyErrorKind::Dims(a, b))),
            Equation::NoIntegerSolution => {
                Err(UnifyError::new(UnifyErrorKind::NoIntegerSolution(a, b)))
            }
            Equation::Arith(e) => Err(arith(e)),
            Equation::Solved(x, value) => {
                self.bind_dim(x, value);
                Ok(DimStep::Done)
            }
            Equation::Undecided => Ok(DimStep::Deferred(a, b)),
        }
    }

    // ----- resolution -----

    /// `ty` with every solved variable replaced by its value (and every variable by its
    /// union-find root).
    #[inline]
    pub fn resolve(&mut self, ty: Ty) -> Ty {
        if !self.tcx.has_vars(ty) {
            return ty;
        }
        // Fast path: a variable unbound, or bound to a ground type.
        if let TyData::Var(_) = self.tcx.data(ty) {
            let t = self.shallow(ty);
            if !self.tcx.has_vars(t) || matches!(self.tcx.data(t), TyData::Var(_)) {
                return t;
            }
        }
        self.resolve_slow(ty)
    }

    #[inline(never)]
    fn resolve_slow(&mut self, ty: Ty) -> Ty {
        let Solver {
            tcx,
            tys,
            shapes,
            dims,
            dtypes,
            ..
        } = self;
        let mut r = Resolver {
            tys,
            shapes,
            dims,
            dtypes,
        };
        let folded = fold_ty(tcx, &mut r, ty);
        match folded {
            Ok(t) => t,
            Err(e) => {
                self.resolve_failed(e);
                ty
            }
        }
    }

    /// Reports that resolving failed (the value of a solved variable made the arithmetic
    /// of an expression overflow): [`Solver::solve`] returns it as a failure.
    fn resolve_failed(&mut self, e: DimError) {
        // Through `push_error`, so that a rollback takes it back.
        self.push_error(SolveError {
            relation: "resolve",
            origin: u32::MAX,
            arg: None,
            message: e.to_string(),
            notes: Vec::new(),
        });
    }

    /// `dim` with every solved variable replaced by its value. If the arithmetic fails,
    /// `dim` comes back as it is and the next [`Solver::solve`] reports the failure (as
    /// [`Solver::resolve`] does).
    pub fn resolve_dim(&mut self, dim: Dim) -> Dim {
        match resolve_dim_in(&mut self.tcx.dims, &mut self.dims, dim) {
            Ok(d) => d,
            Err(e) => {
                self.resolve_failed(e);
                dim
            }
        }
    }

    /// `shape` with every solved variable replaced by its value (a failure is reported
    /// as by [`Solver::resolve_dim`]).
    pub fn resolve_shape(&mut self, shape: Shape) -> Shape {
        let Solver {
            tcx,
            tys,
            shapes,
            dims,
            dtypes,
            ..
        } = self;
        let mut r = Resolver {
            tys,
            shapes,
            dims,
            dtypes,
        };
        match crate::fold::fold_shape(tcx, &mut r, shape) {
            Ok(s) => s,
            Err(e) => {
                self.resolve_failed(e);
                shape
            }
        }
    }

    /// `dt` with its variable replaced by its value, if solved.
    pub fn resolve_dtype(&mut self, dt: DTy) -> DTy {
        self.shallow_dtype(dt)
    }

    /// The unknowns in `ty` (resolved first), each once, in order of appearance.
    pub fn unknowns(&mut self, ty: Ty) -> Vec<VarRef> {
        let t = self.resolve(ty);
        let mut out = Vec::new();
        self.collect_vars(t, &mut out);
        dedup_in_order(&mut out);
        out
    }

    /// Pushes the variables of a *resolved* type (possibly with repeats).
    fn collect_vars(&self, t: Ty, out: &mut Vec<VarRef>) {
        if !self.tcx.has_vars(t) {
            return;
        }
        // Fast paths for the common leaves, without the bookkeeping of the general walk.
        match self.tcx.data(t) {
            TyData::Var(v) => return out.push(VarRef::Ty(*v)),
            TyData::Tensor(s, dt) => return self.collect_tensor_vars(*s, *dt, out),
            _ => {}
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![t];
        let mut kids = Vec::new();
        while let Some(t) = stack.pop() {
            if !self.tcx.has_vars(t) || !seen.insert(t) {
                continue;
            }
            match self.tcx.data(t) {
                TyData::Var(v) => out.push(VarRef::Ty(*v)),
                TyData::Tensor(s, dt) => self.collect_tensor_vars(*s, *dt, out),
                data => {
                    kids.clear();
                    push_children(data, &mut kids);
                    stack.extend(kids.iter().rev());
                }
            }
        }
    }

    fn collect_tensor_vars(&self, s: Shape, dt: DTy, out: &mut Vec<VarRef>) {
        match self.tcx.shape_data(s) {
            ShapeData::Var(v) => out.push(VarRef::Shape(*v)),
            ShapeData::Dims(ds) => {
                for &d in ds.iter() {
                    match self.tcx.dims.data(d) {
                        DimData::Var(v) => out.push(VarRef::Dim(*v)),
                        _ if self.tcx.dims.has_vars(d) => {
                            out.extend(self.tcx.dims.vars(d).into_iter().map(VarRef::Dim))
                        }
                        _ => {}
                    }
                }
            }
            ShapeData::Param(_) => {}
        }
        if let DTy::Var(v) = dt {
            out.push(VarRef::DType(v));
        }
    }

    /// Instantiates a function type's parameters with fresh variables: the argument
    /// types, the return type and the constraints of one call.
    pub fn instantiate(&mut self, func: Ty) -> Result<(Vec<Ty>, Ty, Vec<Constraint>), DimError> {
        let TyData::Func(f) = self.tcx.data(func).clone() else {
            panic!("instantiate expects a function type")
        };
        let mut map = FxHashMap::default();
        for &p in f.params.iter() {
            let kind = self.tcx.param_info(p).kind;
            let value = self.fresh_for(kind);
            map.insert(p, value);
        }
        let body = self.tcx.func(&[], &f.args, f.ret, f.constraints.to_vec());
        let body = self.tcx.substitute(body, &map)?;
        let TyData::Func(g) = self.tcx.data(body).clone() else {
            unreachable!()
        };
        Ok((g.args.to_vec(), g.ret, g.constraints.to_vec()))
    }
}

enum DimStep {
    Done,
    Deferred(Dim, Dim),
}

fn prefix(mut e: UnifyError, mut outer: Vec<Step>) -> UnifyError {
    outer.append(&mut e.path);
    e.path = outer;
    e
}

fn dedup_in_order(v: &mut Vec<VarRef>) {
    let mut seen = FxHashSet::default();
    v.retain(|x| seen.insert(*x));
}

fn push_children(data: &TyData, out: &mut Vec<Ty>) {
    match data {
        TyData::Tuple(ts) | TyData::Call(_, ts) => out.extend_from_slice(ts),
        TyData::Ref(t) => out.push(*t),
        TyData::Func(f) => {
            out.extend_from_slice(&f.args);
            out.push(f.ret);
            for c in f.constraints.iter() {
                out.extend_from_slice(&c.args);
            }
        }
        _ => {}
    }
}

/// The root of `v` in `table`. A variable the table has never seen (one made inside a
/// snapshot that was rolled back, or by an earlier solver over the same [`TyCtx`]) is an
/// unknown like a fresh one: the table is extended to it, where indexing it would panic.
#[inline]
fn find<K, V>(table: &mut InPlaceUnificationTable<K>, v: K) -> K
where
    K: UnifyKey<Value = Slot<V>>,
    V: Clone + fmt::Debug + PartialEq,
{
    if v.index() as usize >= table.len() {
        extend_to(table, v);
    }
    table.find(v)
}

#[cold]
fn extend_to<K, V>(table: &mut InPlaceUnificationTable<K>, v: K)
where
    K: UnifyKey<Value = Slot<V>>,
    V: Clone + fmt::Debug + PartialEq,
{
    while table.len() <= v.index() as usize {
        table.new_key(Slot(None));
    }
}

/// Resolves a dimension through the dimension table until no solved variable is left.
fn resolve_dim_in(
    dims: &mut Dims,
    table: &mut InPlaceUnificationTable<DimVar>,
    mut d: Dim,
) -> Result<Dim, DimError> {
    loop {
        if !dims.has_vars(d) {
            return Ok(d);
        }
        let mut changed = false;
        let next = dims.map_leaves(d, |dims, x| {
            let DimData::Var(v) = *dims.data(x) else {
                return None;
            };
            let root = find(table, v);
            match table.probe_value(root).0 {
                Some(value) => {
                    changed = true;
                    Some(value)
                }
                None if root != v => {
                    changed = true;
                    Some(dims.var(root))
                }
                None => None,
            }
        })?;
        if !changed {
            return Ok(next);
        }
        d = next;
    }
}

struct Resolver<'a> {
    tys: &'a mut InPlaceUnificationTable<TyVar>,
    shapes: &'a mut InPlaceUnificationTable<ShapeVar>,
    dims: &'a mut InPlaceUnificationTable<DimVar>,
    dtypes: &'a mut InPlaceUnificationTable<DTypeVar>,
}

impl Folder for Resolver<'_> {
    fn mask(&self) -> u8 {
        crate::ty::HAS_VARS
    }

    fn ty_leaf(&mut self, tcx: &mut TyCtx, leaf: &TyData) -> Leaf {
        let TyData::Var(v) = *leaf else {
            return Leaf::Keep;
        };
        let root = find(self.tys, v);
        match self.tys.probe_value(root).0 {
            Some(value) => Leaf::Expand(value),
            None if root != v => Leaf::Final(tcx.var_ty(root)),
            None => Leaf::Keep,
        }
    }

    fn shape_leaf(&mut self, tcx: &mut TyCtx, leaf: &ShapeData) -> Option<Shape> {
        let ShapeData::Var(v) = *leaf else {
            return None;
        };
        let root = find(self.shapes, v);
        match self.shapes.probe_value(root).0 {
            Some(value) => Some(value),
            None if root != v => Some(tcx.shape_var(root)),
            None => None,
        }
    }

    fn dim(&mut self, dims: &mut Dims, d: Dim) -> Result<Dim, DimError> {
        resolve_dim_in(dims, self.dims, d)
    }

    fn dtype_leaf(&mut self, dt: DTy) -> Option<DTy> {
        let DTy::Var(v) = dt else { return None };
        let root = find(self.dtypes, v);
        Some(self.dtypes.probe_value(root).0.unwrap_or(DTy::Var(root)))
    }
}
