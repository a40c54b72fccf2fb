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

use crate::attrs::{Attrs, NO_ATTRS};
use crate::dim::{Dim, DimData, DimError, Dims, Equation};
use crate::fold::{fold_ty, Folder, Leaf, ParamValue};
use crate::kind::Kind;
use crate::ty::{Constraint, DTy, Shape, ShapeData, Ty, TyCtx, TyData};
use crate::var::{DTypeVar, DimVar, ShapeVar, TyVar};
use ena::unify::{InPlaceUnificationTable, NoError, Snapshot as EnaSnapshot, UnifyKey, UnifyValue};
use relation::{Progress, RelCx, RelationRef};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

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
        /// The operator whose call added it, if one did ([`RelCx::op_name`]).
        op: Option<&'static str>,
    },
    DimEq(Dim, Dim),
}

#[derive(Clone, Debug)]
struct RelNode {
    kind: RelKind,
    state: RelState,
    origin: u32,
}

/// Counters of the solver's work, for tests of its complexity.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Relation runs, in all.
    pub runs: u64,
    /// Relations put back on the queue by a wake-up.
    pub wakeups: u64,
    /// Runs answered by a remembered result (counted in `runs` too).
    pub remembered: u64,
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
    memo: memo::Memo,
    remember: bool,
    /// Bindings and merges so far (to tell whether a run changed anything).
    pub(crate) binds: u64,
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
            memo: memo::Memo::default(),
            remember: true,
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

    /// Whether a relation run on known inputs with an unknown result remembers the
    /// result for later runs on the same inputs and attributes (on by default; see
    /// `solve/memo.rs`). Off, every relation runs: for benchmarks and tests of the
    /// relations themselves.
    pub fn remember_results(&mut self, on: bool) {
        self.remember = on;
    }

    /// Whether results are remembered ([`Solver::remember_results`]).
    pub fn remembers_results(&self) -> bool {
        self.remember
    }

    /// Counts a result remembered elsewhere (by inference, for a call site) as one
    /// remembered here.
    pub(crate) fn count_remembered(&mut self) {
        self.stats.runs += 1;
        self.stats.remembered += 1;
    }

    /// The remembered result of `relation` on `inputs` (its arguments but the last, all
    /// known) with `attrs`, if an earlier run solved it; counted as a run.
    pub fn remembered(
        &mut self,
        relation: RelationRef,
        attrs: Option<&Arc<Attrs>>,
        inputs: &[Ty],
    ) -> Option<Ty> {
        if !self.remember {
            return None;
        }
        let key = memo::Memo::key_of_inputs(&self.tcx, relation, attrs, inputs)?;
        let t = self.memo.get(&key)?;
        self.stats.runs += 1;
        self.stats.remembered += 1;
        Some(t)
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
        self.add_call(relation, args, attrs, origin, None)
    }

    /// Adds an instance of `relation` for a call of operator `op`, as
    /// [`add_relation`](Self::add_relation) does: the relation reads the operator's name
    /// with [`RelCx::op_name`] (one relation shared by several operators names the one
    /// called in its messages).
    pub fn add_op_relation(
        &mut self,
        op: &'static str,
        relation: RelationRef,
        args: &[Ty],
        attrs: Option<Arc<Attrs>>,
        origin: u32,
    ) -> RelId {
        self.add_call(relation, args, attrs, origin, Some(op))
    }

    fn add_call(
        &mut self,
        relation: RelationRef,
        args: &[Ty],
        attrs: Option<Arc<Attrs>>,
        origin: u32,
        op: Option<&'static str>,
    ) -> RelId {
        let start = u32::try_from(self.rel_args.len()).expect("relation arena overflow");
        self.log(Undo::ArgsLen(self.rel_args.len()));
        self.rel_args.extend_from_slice(args);
        let kind = RelKind::Call {
            relation,
            start,
            len: args.len() as u32,
            attrs,
            op,
        };
        if let Some(arity) = relation.def().arity.filter(|&n| n != args.len()) {
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

    /// Adds every constraint of an instantiated operator type, for a call of operator
    /// `op` ([`add_op_relation`](Self::add_op_relation)).
    pub fn add_op_constraints(
        &mut self,
        op: &'static str,
        constraints: &[Constraint],
        attrs: Option<Arc<Attrs>>,
        origin: u32,
    ) {
        for c in constraints {
            self.add_op_relation(op, c.relation, &c.args, attrs.clone(), origin);
        }
    }

    /// Runs the queue to its fixpoint and reports the outcome. Errors are reported once:
    /// a later call reports only new ones.
    pub fn solve(&mut self) -> Outcome {
        let errors = self.solve_queue();
        if !errors.is_empty() {
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

    /// Runs the queue to its fixpoint and returns the errors found since the last report,
    /// as [`Solver::solve`] does, without listing the relations still waiting: for a caller
    /// that adds relations and solves in turns (an ONNX graph, node by node), to whom
    /// listing them at each turn would cost the whole graph each time.
    pub fn solve_queue(&mut self) -> Vec<SolveError> {
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
        let errors = std::mem::take(&mut self.errors);
        if !errors.is_empty() && self.open_snapshots > 0 {
            self.undo.push(Undo::Reported(errors.clone()));
        }
        errors
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
                    self.watch_equation(id, a, b);
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
                op,
            } => {
                let def = relation.def();
                let mut args = std::mem::take(&mut self.scratch);
                args.clear();
                for i in start..start + len {
                    let t = self.rel_args[i as usize];
                    let r = self.resolve(t);
                    args.push(r);
                }
                // An input the relation declares it needs is still unknown: wait on it
                // without running the relation.
                let missing = def
                    .needs
                    .iter()
                    .find_map(|&i| match self.tcx.data(args[i]) {
                        TyData::Var(v) => Some(*v),
                        _ => None,
                    });
                if let Some(v) = missing {
                    self.set_state(id, RelState::Waiting);
                    self.watch(VarRef::Ty(v), id);
                    self.scratch = args;
                    return;
                }
                let key = if self.remember {
                    memo::Memo::key(&self.tcx, relation, attrs.as_ref(), &args)
                } else {
                    None
                };
                if let Some(t) = key.as_ref().and_then(|k| self.memo.get(k)) {
                    let out = args[args.len() - 1];
                    if self.unify(out, t).is_ok() {
                        self.stats.remembered += 1;
                        self.set_state(id, RelState::Solved);
                        self.scratch = args;
                        return;
                    }
                }
                let binds_before = self.binds;
                let result = {
                    let mut cx = RelCx {
                        solver: self,
                        args: &args,
                        attrs: attrs.as_deref().unwrap_or(&NO_ATTRS),
                        op: op.unwrap_or(relation.name()),
                        binds_at_start: binds_before,
                    };
                    // A relation's code that panics (an index past a rank it did not
                    // check) fails this instance, not the whole check, and prints nothing.
                    error::run_relation(relation, || (def.solve)(&mut cx))
                };
                match result {
                    Ok(Progress::Solved) => {
                        self.set_state(id, RelState::Solved);
                        if let Some(key) = key {
                            let out = self.rel_args[(start + len - 1) as usize];
                            let out = self.resolve(out);
                            if !self.tcx.has_vars(out) {
                                self.memo.insert(key, attrs.as_ref(), out);
                            }
                        }
                    }
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

    /// Registers the deferred dimension equation `id` (`a = b`) on its unknowns.
    fn watch_equation(&mut self, id: RelId, a: Dim, b: Dim) {
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
}

fn dedup_in_order(v: &mut Vec<VarRef>) {
    let mut seen = FxHashSet::default();
    v.retain(|x| seen.insert(*x));
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

mod error;
mod memo;
pub mod relation;
mod resolve;
mod unify;

use error::prefix;
pub use error::{InstantiateError, Outcome, SolveError, Step, UnifyError, UnifyErrorKind, Waiting};
use resolve::resolve_dim_in;
use unify::DimStep;
