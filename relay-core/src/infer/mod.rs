//! Type inference over a [`Module`]: generate types and relations, solve, resolve.
//!
//! The three steps of the Relay paper. The first walks every expression with an explicit
//! stack (a million chained `let`s or a call nested a hundred thousand deep need no call
//! stack), giving each a type and adding, at each call, the callee's relations
//! instantiated with the call's attributes. The [`Solver`] then runs them to their
//! fixpoint, and every expression's type is resolved.
//!
//! Decisions (as in TVM unless said): a global with a fully annotated signature has a
//! polymorphic type, its type parameters and the symbolic dimensions of its signature
//! instantiated afresh at every use; an unannotated global is monomorphic within the
//! module; there is no let-generalization; an annotation is never overwritten.

use crate::adt::AdtTable;
use crate::attrs::Attrs;
use crate::diag::Label;
use crate::dtype::DType;
use crate::expr::{ExprId, ExprKind, GlobalId, Module, PatId, Pattern, Span, VarId};
use crate::fold::ParamValue;
use crate::kind::Param;
use crate::op::{OpDef, OpScheme};
use crate::solve::{Outcome, Solver};
use crate::ty::{Ty, TyCtx, TyData};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A type error, at an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    /// Where.
    pub span: Span,
    /// The expression it is about, if one (perhaps a compact mention, for an argument:
    /// read it with [`Module::span_of`] and [`Module::mention`], see
    /// [`ExprId::is_mention`]).
    pub expr: Option<ExprId>,
    /// What is wrong.
    pub message: String,
    /// Further facts.
    pub notes: Vec<String>,
    /// Other places that explain it (where each clashing fact came from).
    pub labels: Vec<Label>,
    /// How to fix it, where that is known.
    pub help: Option<String>,
    /// The attribute of the call at `span` it is about, if one: a renderer that has the
    /// source narrows `span` to it with [`crate::text::attribute_span`].
    pub attr: Option<Box<str>>,
}

/// The types of a module after inference.
pub struct Typed {
    /// The solver, with the type context every type below lives in.
    pub solver: Solver,
    expr_tys: Vec<Ty>,
    var_tys: Vec<Ty>,
    global_tys: Vec<Ty>,
    errors: Vec<TypeError>,
    warnings: Vec<TypeError>,
}

impl Typed {
    /// The warnings (unreachable arms), in the order found.
    pub fn warnings(&self) -> &[TypeError] {
        &self.warnings
    }

    /// The type errors, in the order found (empty when the module is well typed).
    pub fn errors(&self) -> &[TypeError] {
        &self.errors
    }

    /// The type of expression `e`, a node of the module's arena (a compact mention,
    /// [`ExprId::is_mention`], has its variable's type: [`Typed::ty_of`]).
    pub fn expr_ty(&self, e: ExprId) -> Ty {
        self.expr_tys[e.index()]
    }

    /// The type of expression `e` of module `m` (the module inferred), a compact mention
    /// or not.
    pub fn ty_of(&self, m: &Module, e: ExprId) -> Ty {
        match m.compact_mention(e) {
            Some(v) => self.var_tys[v.index()],
            None => self.expr_tys[e.index()],
        }
    }

    /// The type of local variable `v`.
    pub fn var_ty(&self, v: VarId) -> Ty {
        self.var_tys[v.index()]
    }

    /// The type of global `g`.
    pub fn global_ty(&self, g: GlobalId) -> Ty {
        self.global_tys[g.index()]
    }

    /// `ty` printed, cut past [`crate::print::SHOW_LIMIT`] bytes.
    pub fn show(&self, ty: Ty) -> String {
        self.solver.tcx.show(ty)
    }

    /// `ty` printed, cut past `limit` bytes (`usize::MAX`: never).
    pub fn show_within(&self, ty: Ty, limit: usize) -> String {
        self.solver.tcx.show_within(ty, limit)
    }
}

/// What requires an expression's type, recorded by [`Infer::require`].
#[derive(Copy, Clone, Debug)]
enum Required {
    /// The annotated return type of a function, written at the span when read from text.
    Return(Ty, Option<Span>),
    /// The annotation of a `let`'s variable.
    Let(VarId),
    /// Another branch of an `if` or arm of a `match` (named by the text), which has the
    /// same type.
    Other(ExprId, &'static str),
}

/// See [`Infer::op_sites`].
struct OpSite {
    /// The operator's name.
    op: &'static str,
    relation: crate::relation::RelationRef,
    arity: usize,
    attrs: Arc<Attrs>,
    /// The latest results of the relation here by their inputs (all known; at most
    /// [`SITE_INPUTS`] of them, the rest filled with `unset`), the next one to replace
    /// first: the calls of an operator with the same attributes see a few input types over
    /// and over, compared here without hashing.
    seen: [Option<([Ty; SITE_INPUTS], Ty)>; 4],
    next: usize,
}

/// Inputs of the calls whose results [`OpSite::seen`] keeps.
const SITE_INPUTS: usize = 3;

enum Frame {
    Enter(ExprId),
    Exit(ExprId),
    /// A `let`'s value is typed: bind its variable, then type the body.
    BindLet(ExprId),
    /// The `let`s of `Infer::run_lets` from `from` on, each the body of the one before,
    /// whose last's `body` is typed: each has the body's type. The `let` nodes are not
    /// read again, and a run of a chain takes one frame and four bytes a `let`: a chain
    /// of a million is unwound without touching the arena.
    ExitLets {
        from: u32,
        body: ExprId,
    },
}

struct Infer<'m> {
    m: &'m Module,
    adts: &'m AdtTable,
    s: Solver,
    expr_tys: Vec<Ty>,
    var_tys: Vec<Ty>,
    global_tys: Vec<Ty>,
    /// Globals whose type is a scheme known before their bodies are typed.
    declared: Vec<bool>,
    op_tys: FxHashMap<*const OpDef, OpScheme>,
    /// Filled attributes by operator and given attribute list (by address: the lists
    /// belong to the module, borrowed for as long as this lives, so no address is reused).
    attr_cache: FxHashMap<(*const OpDef, *const Attrs), Arc<Attrs>>,
    /// Calls of an operator of the common scheme, by operator and given attributes: its
    /// relation, arity and filled attributes, found with one lookup per call (the index
    /// in `op_sites`).
    op_site_ids: FxHashMap<(*const OpDef, *const Attrs), u32>,
    op_sites: Vec<OpSite>,
    /// What `expr_tys` holds for an expression not typed yet.
    unset: Ty,
    /// A buffer for a relation's arguments.
    scratch: Vec<Ty>,
    /// The tuple annotation of the `let` a call being typed is bound by.
    expected: FxHashMap<ExprId, Ty>,
    /// The frames of [`Infer::infer_expr`], kept from one body to the next.
    frames: Vec<Frame>,
    /// The `let`s of the runs of [`Frame::ExitLets`], outer runs first.
    run_lets: Vec<ExprId>,
    match_scrutinee: FxHashMap<ExprId, Ty>,
    /// What required the result type of a call whose relation had not decided it yet: a
    /// relation that then fails on its result is reported as the result's clash with it
    /// (see [`Infer::require`]).
    required: FxHashMap<ExprId, Vec<Required>>,
    errors: Vec<TypeError>,
    warnings: Vec<TypeError>,
    bool_ty: Ty,
}

/// Infers the type of every expression, variable and global of `m`. Data types and
/// constructors used by `m` must be loaded in `tcx` (see [`crate::adt::load`]).
pub fn infer(tcx: TyCtx, adts: &AdtTable, m: &Module) -> Typed {
    infer_with(tcx, adts, m, Options::default())
}

/// How [`infer_with`] works.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// Whether relation results are remembered by their known inputs
    /// ([`Solver::remember_results`]): an operator call whose inputs are all known takes
    /// the result of an earlier call with the same inputs and attributes. On by default;
    /// the types are the same either way.
    pub remember_results: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            remember_results: true,
        }
    }
}

/// [`infer`] with `options`.
pub fn infer_with(tcx: TyCtx, adts: &AdtTable, m: &Module, options: Options) -> Typed {
    infer_full(tcx, adts, m, &[], options)
}

/// [`infer`], except for the globals `i` with `skip[i]` (e.g. those a name error
/// touched): their bodies are not typed, so their expressions and variables keep the type
/// `()`, and a global that uses one must be skipped too.
pub fn infer_skipping(tcx: TyCtx, adts: &AdtTable, m: &Module, skip: &[bool]) -> Typed {
    infer_full(tcx, adts, m, skip, Options::default())
}

fn infer_full(tcx: TyCtx, adts: &AdtTable, m: &Module, skip: &[bool], options: Options) -> Typed {
    let (exprs, vars, _) = m.sizes();
    let mut s = Solver::new(tcx);
    s.remember_results(options.remember_results);
    let bool_ty = s.tcx.scalar(DType::BOOL);
    let unset = s.tcx.tuple(&[]);
    let mut cx = Infer {
        m,
        adts,
        s,
        expr_tys: vec![unset; exprs],
        var_tys: vec![unset; vars],
        global_tys: Vec::with_capacity(m.globals().len()),
        declared: Vec::with_capacity(m.globals().len()),
        op_tys: FxHashMap::default(),
        attr_cache: FxHashMap::default(),
        op_site_ids: FxHashMap::default(),
        op_sites: Vec::new(),
        unset,
        scratch: Vec::new(),
        expected: FxHashMap::default(),
        // A frame a `let` at most, reserved at once (pages not touched stay free): a
        // million-`let` chain is never copied to a larger stack.
        frames: Vec::with_capacity(exprs / 2 + 1),
        run_lets: Vec::with_capacity(exprs / 2 + 1),
        match_scrutinee: FxHashMap::default(),
        required: FxHashMap::default(),
        errors: Vec::new(),
        warnings: Vec::new(),
        bool_ty,
    };
    cx.declare_globals();
    // Function by function, callees first, each solved before its callers are typed: a
    // caller instantiates a callee's type with its body's relations already solved (a
    // generic `@plus` without a result annotation, called with explicit type arguments).
    for i in callee_first_order(m) {
        if skip.get(i) == Some(&true) {
            continue;
        }
        let g = &m.globals()[i];
        let Some(func) = g.func else {
            let message = format!("`@{}` is declared but never defined", g.name);
            cx.error(None, g.span, message);
            continue;
        };
        cx.infer_expr(func);
        let f = cx.expr_tys[func.index()];
        if !cx.declared[i] {
            let gt = cx.global_tys[i];
            cx.unify(gt, f, g.span, Some(func), "the global's type");
        }
        if let Outcome::Failed(errors) = cx.s.solve() {
            cx.report_failures(errors);
        }
    }
    cx.finish()
}

/// The globals' indices, each after the globals its body mentions (globals that call each
/// other in a cycle in definition order). Iterative, linear in the module's size.
fn callee_first_order(m: &Module) -> Vec<usize> {
    let n = m.globals().len();
    let callees = m.global_callees();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (g, next) = *top;
            if let Some(&c) = callees[g].get(next) {
                top.1 += 1;
                if !seen[c] {
                    seen[c] = true;
                    stack.push((c, 0));
                }
            } else {
                order.push(g);
                stack.pop();
            }
        }
    }
    order
}

impl Infer<'_> {
    fn error(&mut self, e: Option<ExprId>, span: Span, message: String) {
        self.errors.push(TypeError {
            span,
            expr: e,
            message,
            notes: Vec::new(),
            labels: Vec::new(),
            help: None,
            attr: None,
        });
    }

    /// Where the value of `e` is written: past `let`s, their chain's result.
    fn span(&self, e: ExprId) -> Span {
        self.m.span_of(self.m.tail(e))
    }

    /// The type of `e`, typed: a compact mention has its variable's (bound before any
    /// mention of it is typed, and never bound again).
    #[inline]
    fn ty_of(&self, e: ExprId) -> Ty {
        match self.m.compact_mention(e) {
            Some(v) => self.var_tys[v.index()],
            None => self.expr_tys[e.index()],
        }
    }

    /// Unifies `a` with `b`; a failure is an error `what: why` at `span`. Whether they
    /// unified.
    fn unify(&mut self, a: Ty, b: Ty, span: Span, e: Option<ExprId>, what: &str) -> bool {
        if let Err(err) = self.s.unify(a, b) {
            let message = format!("{what}: {}", err.describe(&self.s.tcx));
            self.error(e, span, message);
            return false;
        }
        true
    }

    /// The type of a variable at its binder: its annotation, or a fresh unknown.
    fn bind_var(&mut self, v: VarId) -> Ty {
        let t = match self.m.var_decl(v).ann() {
            Some(t) => self.open_ann(t),
            None => self.s.fresh_ty(),
        };
        self.var_tys[v.index()] = t;
        t
    }

    /// Annotation `t` with each incomplete type `_` in it an unknown of its own.
    pub(super) fn open_ann(&mut self, t: Ty) -> Ty {
        if !self.s.tcx.has_params(t) {
            return t;
        }
        let holes: Vec<Param> = (self.s.tcx.free_params(t).into_iter())
            .filter(|&p| self.s.tcx.is_hole(p))
            .collect();
        if holes.is_empty() {
            return t;
        }
        let map = holes
            .into_iter()
            .map(|p| (p, crate::fold::ParamValue::Ty(self.s.fresh_ty())))
            .collect();
        self.s
            .tcx
            .substitute(t, &map)
            .expect("a type put in place of a type changes no dimension")
    }

    /// A global whose parameters and result are all annotated has its type before its
    /// body is typed; it is polymorphic over its type parameters and the symbolic
    /// dimensions of its signature.
    fn declare_globals(&mut self) {
        for g in self.m.globals() {
            // No body (an error reported when it is typed), or a body that is not a
            // function literal: its type is whatever the body's is.
            let Some(ExprKind::Func(f)) = g.func.map(|e| &self.m.expr(e).kind) else {
                let t = self.s.fresh_ty();
                self.global_tys.push(t);
                self.declared.push(false);
                continue;
            };
            let anns: Option<Vec<Ty>> =
                f.params.iter().map(|&v| self.m.var_decl(v).ann()).collect();
            // An annotation with an incomplete type `_` is solved with the body.
            let holes = |t: &Ty| self.s.tcx.has_holes(*t);
            let anns = anns.filter(|a| !a.iter().any(holes));
            match (anns, f.ret.filter(|r| !holes(r))) {
                (Some(args), Some(ret)) => {
                    let mut params: Vec<Param> = f.type_params.to_vec();
                    for &t in args.iter().chain(std::iter::once(&ret)) {
                        for p in self.s.tcx.free_params(t) {
                            if !params.contains(&p) {
                                params.push(p);
                            }
                        }
                    }
                    let t = self.s.tcx.func(&params, &args, ret, Vec::new());
                    self.global_tys.push(t);
                    self.declared.push(true);
                }
                _ => {
                    let t = self.s.fresh_ty();
                    self.global_tys.push(t);
                    self.declared.push(false);
                }
            }
        }
    }

    fn infer_expr(&mut self, root: ExprId) {
        let mut stack = std::mem::take(&mut self.frames);
        stack.clear();
        stack.push(Frame::Enter(root));
        while let Some(frame) = stack.pop() {
            match frame {
                Frame::Enter(e) => self.enter(e, &mut stack),
                Frame::BindLet(mut e) => {
                    let from =
                        u32::try_from(self.run_lets.len()).expect("fewer than 4 billion lets");
                    loop {
                        let ExprKind::Let { var, value, body } = self.m.expr(e).kind else {
                            unreachable!()
                        };
                        let value_ty = self.expr_tys[value.index()];
                        match self.m.var_decl(var).ann() {
                            // A function's variable, bound before its value (it may call
                            // itself): the two are one type.
                            None if self.m.let_binds_first(value) => {
                                let vt = self.var_tys[var.index()];
                                if let Err(err) = self.s.unify(vt, value_ty) {
                                    self.binding_error(var, value, &err);
                                }
                            }
                            // Unannotated: the variable has the value's type.
                            None => self.var_tys[var.index()] = value_ty,
                            Some(vt) => {
                                let vt = if self.m.let_binds_first(value) {
                                    self.var_tys[var.index()]
                                } else {
                                    self.open_ann(vt)
                                };
                                self.var_tys[var.index()] = vt;
                                self.require(value, Required::Let(var));
                                if let Err(err) = self.s.unify(vt, value_ty) {
                                    self.binding_error(var, value, &err);
                                }
                            }
                        }
                        self.run_lets.push(e);
                        // The next `let` of a chain, if its value is a call of leaves: typed
                        // here, as its frames would type it, and bound in turn.
                        if let ExprKind::Let { var, value, .. } = self.m.expr(body).kind {
                            if let ExprKind::Call { parts, .. } = self.m.expr(value).kind {
                                self.expect_ann(var, value);
                                if self.leaf_call(value, self.m.list(parts)) {
                                    e = body;
                                    continue;
                                }
                            }
                        }
                        stack.push(Frame::ExitLets { from, body });
                        stack.push(Frame::Enter(body));
                        break;
                    }
                }
                Frame::Exit(e) => {
                    let t = self.exit(e);
                    self.expr_tys[e.index()] = t;
                }
                Frame::ExitLets { from, body } => {
                    let t = self.expr_tys[body.index()];
                    for &e in &self.run_lets[from as usize..] {
                        self.expr_tys[e.index()] = t;
                    }
                    self.run_lets.truncate(from as usize);
                }
            }
        }
        self.frames = stack;
    }

    /// Types call `e` at once when its callee and arguments are leaves (names, operators,
    /// constants: most calls of a model), in the order the frames would: the callee, the
    /// arguments, the call. Whether it did.
    fn leaf_call(&mut self, e: ExprId, parts: &[ExprId]) -> bool {
        let leaf = |c: ExprId| {
            c.is_mention()
                || matches!(
                    self.m.expr(c).kind,
                    ExprKind::Var(_)
                        | ExprKind::Global(_)
                        | ExprKind::Op(_)
                        | ExprKind::Ctor(_)
                        | ExprKind::Constant(_)
                )
        };
        if !parts.iter().all(|&c| leaf(c)) {
            return false;
        }
        for &c in parts {
            // A compact mention has its variable's type: nothing to store.
            if c.is_mention() {
                continue;
            }
            let t = match self.m.expr(c).kind {
                ExprKind::Var(v) => self.var_tys[v.index()],
                ExprKind::Constant(t) => t,
                // An operator's node is shared by its calls: typed once.
                ExprKind::Op(_) if self.expr_tys[c.index()] != self.unset => continue,
                _ => self.exit(c),
            };
            self.expr_tys[c.index()] = t;
        }
        let t = self.exit(e);
        self.expr_tys[e.index()] = t;
        true
    }

    /// Records the annotation of `var`, bound to `value`, as the type expected of the call
    /// `value` is, when it is a tuple: the relation of an operator of several results sees
    /// how many are asked for before it is solved (ONNX's `Dropout` gives its mask only
    /// when asked).
    fn expect_ann(&mut self, var: VarId, value: ExprId) {
        let (Some(ann), ExprKind::Call { parts, .. }) =
            (self.m.var_decl(var).ann(), &self.m.expr(value).kind)
        else {
            return;
        };
        // Only an operator's call takes it (`op_call`), and takes it out again.
        let callee = self.m.callee(*parts);
        let op = !callee.is_mention() && matches!(self.m.expr(callee).kind, ExprKind::Op(_));
        // Recorded once: a chained `let` whose call is not of leaves comes here again.
        if op
            && matches!(self.s.tcx.data(ann), TyData::Tuple(_))
            && !self.expected.contains_key(&value)
        {
            let ann = self.open_ann(ann);
            self.expected.insert(value, ann);
        }
    }

    /// Pushes the frames typing `e`'s children before its own exit.
    fn enter(&mut self, e: ExprId, stack: &mut Vec<Frame>) {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Call { parts, .. } if self.leaf_call(e, m.list(*parts)) => {
                return;
            }
            ExprKind::Let { var, value, .. } => {
                if m.let_binds_first(*value) {
                    self.bind_var(*var);
                }
                self.expect_ann(*var, *value);
                stack.push(Frame::BindLet(e));
                stack.push(Frame::Enter(*value));
                return;
            }
            ExprKind::Func(f) => {
                for &p in f.params.iter() {
                    self.bind_var(p);
                }
            }
            ExprKind::Match { arms, .. } => {
                // The patterns bind their variables before the arms are typed, against
                // a type the scrutinee's is unified with on exit.
                let st = self.s.fresh_ty();
                for arm in m.arms(*arms) {
                    self.bind_pattern(arm.pattern, st, e);
                }
                self.match_scrutinee.insert(e, st);
            }
            _ => {}
        }
        stack.push(Frame::Exit(e));
        let mut push = |c: ExprId| stack.push(Frame::Enter(c));
        match &m.expr(e).kind {
            ExprKind::Tuple(fields) => m.list(*fields).iter().rev().copied().for_each(&mut push),
            ExprKind::Proj(t, _) | ExprKind::RefNew(t) | ExprKind::RefRead(t) => push(*t),
            // Compact mentions have their variables' types: nothing to type.
            ExprKind::Call { parts, .. } => m
                .list(*parts)
                .iter()
                .rev()
                .copied()
                .filter(|c| !c.is_mention())
                .for_each(&mut push),
            ExprKind::Func(f) => push(f.body),
            ExprKind::If(c, t, f) => {
                push(*f);
                push(*t);
                push(*c);
            }
            ExprKind::RefWrite(r, v) => {
                push(*v);
                push(*r);
            }
            ExprKind::Match {
                scrutinee, arms, ..
            } => {
                for arm in m.arms(*arms).iter().rev() {
                    push(arm.body);
                }
                push(*scrutinee);
            }
            ExprKind::Var(_)
            | ExprKind::Global(_)
            | ExprKind::Op(_)
            | ExprKind::Ctor(_)
            | ExprKind::Constant(_)
            | ExprKind::Let { .. } => {}
        }
    }
}

mod exprs;
mod patterns;
mod report;
