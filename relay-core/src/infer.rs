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
use crate::dtype::DType;
use crate::expr::{ExprId, ExprKind, GlobalId, Module, PatId, Pattern, Span, VarId};
use crate::fold::ParamValue;
use crate::kind::Param;
use crate::op::OpDef;
use crate::solve::{Outcome, Solver};
use crate::ty::{Ty, TyCtx, TyData};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A type error, at an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    /// Where.
    pub span: Span,
    /// The expression it is about, if one.
    pub expr: Option<ExprId>,
    /// What is wrong.
    pub message: String,
    /// Further facts.
    pub notes: Vec<String>,
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

    /// The type of expression `e`.
    pub fn expr_ty(&self, e: ExprId) -> Ty {
        self.expr_tys[e.index()]
    }

    /// The type of local variable `v`.
    pub fn var_ty(&self, v: VarId) -> Ty {
        self.var_tys[v.index()]
    }

    /// The type of global `g`.
    pub fn global_ty(&self, g: GlobalId) -> Ty {
        self.global_tys[g.index()]
    }

    /// `ty` printed.
    pub fn show(&self, ty: Ty) -> String {
        self.solver.tcx.show(ty)
    }
}

enum Frame {
    Enter(ExprId),
    Exit(ExprId),
    /// A `let`'s value is typed: bind its variable, then type the body.
    BindLet(ExprId),
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
    op_tys: FxHashMap<*const OpDef, Ty>,
    match_scrutinee: FxHashMap<ExprId, Ty>,
    errors: Vec<TypeError>,
    warnings: Vec<TypeError>,
    bool_ty: Ty,
    unset: Ty,
}

/// Infers the type of every expression, variable and global of `m`. Data types and
/// constructors used by `m` must be loaded in `tcx` (see [`crate::adt::load`]).
pub fn infer(tcx: TyCtx, adts: &AdtTable, m: &Module) -> Typed {
    let (exprs, vars, _) = m.sizes();
    let mut s = Solver::new(tcx);
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
        match_scrutinee: FxHashMap::default(),
        errors: Vec::new(),
        warnings: Vec::new(),
        bool_ty,
        unset,
    };
    cx.declare_globals();
    // Function by function, callees first, each solved before its callers are typed: a
    // caller instantiates a callee's type with its body's relations already solved (a
    // generic `@plus` without a result annotation, called with explicit type arguments).
    for i in callee_first_order(m) {
        let g = &m.globals()[i];
        cx.infer_expr(g.func);
        let f = cx.expr_tys[g.func.index()];
        if !cx.declared[i] {
            let gt = cx.global_tys[i];
            cx.unify(gt, f, g.span, Some(g.func), "the global's type");
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
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, g) in m.globals().iter().enumerate() {
        let mut stack = vec![g.func];
        while let Some(e) = stack.pop() {
            if e.index() >= m.sizes().0 {
                continue;
            }
            match &m.expr(e).kind {
                ExprKind::Global(h) => callees[i].push(h.index()),
                _ => m.children(e, &mut stack),
            }
        }
    }
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
        });
    }

    fn span(&self, e: ExprId) -> Span {
        self.m.expr(e).span
    }

    fn unify(&mut self, a: Ty, b: Ty, span: Span, e: Option<ExprId>, what: &str) {
        if let Err(err) = self.s.unify(a, b) {
            let message = format!("{what}: {}", err.describe(&self.s.tcx));
            self.error(e, span, message);
        }
    }

    /// The type of a variable at its binder: its annotation, or a fresh unknown.
    fn bind_var(&mut self, v: VarId) -> Ty {
        let t = match self.m.var_decl(v).ann {
            Some(t) => t,
            None => self.s.fresh_ty(),
        };
        self.var_tys[v.index()] = t;
        t
    }

    /// A global whose parameters and result are all annotated has its type before its
    /// body is typed; it is polymorphic over its type parameters and the symbolic
    /// dimensions of its signature.
    fn declare_globals(&mut self) {
        for g in self.m.globals() {
            let ExprKind::Func(f) = &self.m.expr(g.func).kind else {
                self.global_tys.push(self.unset);
                self.declared.push(true);
                continue;
            };
            let anns: Option<Vec<Ty>> = f.params.iter().map(|&v| self.m.var_decl(v).ann).collect();
            match (anns, f.ret) {
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
        let mut stack = vec![Frame::Enter(root)];
        while let Some(frame) = stack.pop() {
            match frame {
                Frame::Enter(e) => self.enter(e, &mut stack),
                Frame::BindLet(e) => {
                    let ExprKind::Let { var, value, body } = self.m.expr(e).kind else {
                        unreachable!()
                    };
                    let vt = self.bind_var(var);
                    let value_ty = self.expr_tys[value.index()];
                    let span = self.span(value);
                    self.unify(vt, value_ty, span, Some(value), "the bound value");
                    stack.push(Frame::Exit(e));
                    stack.push(Frame::Enter(body));
                }
                Frame::Exit(e) => {
                    let t = self.exit(e);
                    self.expr_tys[e.index()] = t;
                }
            }
        }
    }

    /// Pushes the frames typing `e`'s children before its own exit.
    fn enter(&mut self, e: ExprId, stack: &mut Vec<Frame>) {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Let { value, .. } => {
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
                for arm in arms.iter() {
                    self.bind_pattern(arm.pattern, st, e);
                }
                self.match_scrutinee.insert(e, st);
            }
            _ => {}
        }
        stack.push(Frame::Exit(e));
        let mut push = |c: ExprId| stack.push(Frame::Enter(c));
        match &m.expr(e).kind {
            ExprKind::Tuple(fields) => fields.iter().rev().copied().for_each(&mut push),
            ExprKind::Proj(t, _) | ExprKind::RefNew(t) | ExprKind::RefRead(t) => push(*t),
            ExprKind::Call { callee, args, .. } => {
                args.iter().rev().copied().for_each(&mut push);
                push(*callee);
            }
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
                for arm in arms.iter().rev() {
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

impl Infer<'_> {
    /// Types pattern `p` against `ty`, binding its variables (iteratively: patterns nest
    /// to any depth).
    fn bind_pattern(&mut self, p: PatId, ty: Ty, at: ExprId) {
        let span = self.span(at);
        let mut stack = vec![(p, ty)];
        while let Some((p, ty)) = stack.pop() {
            match self.m.pattern(p) {
                Pattern::Wildcard => {}
                Pattern::Var(v) => {
                    let vt = self.bind_var(*v);
                    self.unify(vt, ty, span, Some(at), "the pattern variable");
                }
                Pattern::Ctor(c, subs) => {
                    let info = self.adts.ctor_info(&self.s.tcx, *c);
                    let (name, cty) = (info.name.clone(), info.ty);
                    let Ok((fields, ret, _)) = self.s.instantiate(cty) else {
                        continue;
                    };
                    if fields.len() != subs.len() {
                        let message = format!(
                            "constructor `{name}` has {} field{} but the pattern gives {}",
                            fields.len(),
                            if fields.len() == 1 { "" } else { "s" },
                            subs.len()
                        );
                        self.error(Some(at), span, message);
                        // Its variables stay unknown, not wrongly typed, so the arm's
                        // body gives no knock-on errors.
                        for &sub in subs.iter() {
                            let fresh = self.s.fresh_ty();
                            stack.push((sub, fresh));
                        }
                        continue;
                    }
                    self.unify(ty, ret, span, Some(at), &format!("the pattern `{name}`"));
                    stack.extend(subs.iter().copied().zip(fields));
                }
                Pattern::Tuple(subs) => {
                    let fields: Vec<Ty> = subs.iter().map(|_| self.s.fresh_ty()).collect();
                    let t = self.s.tcx.tuple(&fields);
                    self.unify(ty, t, span, Some(at), "the tuple pattern");
                    stack.extend(subs.iter().copied().zip(fields));
                }
            }
        }
    }

    /// Whether every constructor pattern in `pats` has one sub-pattern per field.
    fn patterns_well_formed(&self, pats: &[PatId]) -> bool {
        let mut stack = pats.to_vec();
        while let Some(p) = stack.pop() {
            match self.m.pattern(p) {
                Pattern::Ctor(c, subs) => {
                    if self.adts.ctor_info(&self.s.tcx, *c).fields.len() != subs.len() {
                        return false;
                    }
                    stack.extend_from_slice(subs);
                }
                Pattern::Tuple(subs) => stack.extend_from_slice(subs),
                Pattern::Wildcard | Pattern::Var(_) => {}
            }
        }
        true
    }

    /// Exhaustiveness of a complete `match` (an error listing the missing cases) and
    /// reachability of every arm (a warning).
    fn check_arms(&mut self, e: ExprId, arms: &[crate::expr::Arm], complete: bool) {
        let pats: Vec<PatId> = arms.iter().map(|a| a.pattern).collect();
        if !self.patterns_well_formed(&pats) {
            // A constructor pattern with the wrong number of fields is already an error;
            // exhaustiveness over it would only add knock-on errors.
            return;
        }
        let report = crate::exhaust::analyse(&self.s.tcx, self.m, &pats);
        let span = self.span(e);
        if complete && !report.missing.is_empty() {
            let cases: Vec<String> = report.missing.iter().map(|c| format!("`{c}`")).collect();
            self.errors.push(TypeError {
                span,
                expr: Some(e),
                message: format!("non-exhaustive match: {} not covered", cases.join(", ")),
                notes: vec![
                    "add arms for these cases, or use `match?` for a partial match".to_string(),
                ],
            });
        }
        if report.too_deep {
            self.warnings.push(TypeError {
                span,
                expr: Some(e),
                message: format!(
                    "patterns nested deeper than {} levels are not checked for exhaustiveness",
                    crate::exhaust::MAX_PATTERN_DEPTH
                ),
                notes: Vec::new(),
            });
        }
        for i in report.unreachable {
            let body = arms[i].body;
            self.warnings.push(TypeError {
                span: self.span(body),
                expr: Some(body),
                message: format!(
                    "unreachable arm: the arms before it match every value it matches (arm {i})"
                ),
                notes: Vec::new(),
            });
        }
    }

    fn op_ty(&mut self, def: &'static OpDef) -> Ty {
        let key = def as *const OpDef;
        if let Some(&t) = self.op_tys.get(&key) {
            return t;
        }
        let t = def.ty(&mut self.s.tcx);
        self.op_tys.insert(key, t);
        t
    }

    /// The type of `e`, its children typed.
    fn exit(&mut self, e: ExprId) -> Ty {
        let m = self.m;
        let span = self.span(e);
        match &m.expr(e).kind {
            ExprKind::Var(v) => self.var_tys[v.index()],
            ExprKind::Global(g) => self.global_tys[g.index()],
            ExprKind::Op(def) => self.op_ty(def),
            ExprKind::Ctor(c) => self.adts.ctor_info(&self.s.tcx, *c).ty,
            ExprKind::Constant(t) => *t,
            ExprKind::Tuple(fields) => {
                let tys: Vec<Ty> = fields.iter().map(|f| self.expr_tys[f.index()]).collect();
                self.s.tcx.tuple(&tys)
            }
            ExprKind::Proj(t, i) => self.proj(e, *t, *i),
            ExprKind::Let { body, .. } => self.expr_tys[body.index()],
            ExprKind::Call {
                callee,
                args,
                attrs,
                type_args,
            } => self.call(e, *callee, args, attrs.as_ref(), type_args),
            ExprKind::Func(f) => {
                let body_ty = self.expr_tys[f.body.index()];
                let ret = match f.ret {
                    Some(r) => {
                        let bspan = self.span(f.body);
                        self.unify(r, body_ty, bspan, Some(f.body), "the function's body");
                        r
                    }
                    None => body_ty,
                };
                let params: Vec<Ty> = f.params.iter().map(|v| self.var_tys[v.index()]).collect();
                self.s.tcx.func(&f.type_params, &params, ret, Vec::new())
            }
            ExprKind::If(c, t, f) => {
                let (ct, tt, ft) = (
                    self.expr_tys[c.index()],
                    self.expr_tys[t.index()],
                    self.expr_tys[f.index()],
                );
                let cspan = self.span(*c);
                let b = self.bool_ty;
                self.unify(
                    ct,
                    b,
                    cspan,
                    Some(*c),
                    "the condition must be a `bool` scalar",
                );
                let fspan = self.span(*f);
                self.unify(tt, ft, fspan, Some(*f), "the branches of `if` differ");
                tt
            }
            ExprKind::Match {
                scrutinee,
                arms,
                complete,
            } => {
                self.check_arms(e, arms, *complete);
                let st = self.match_scrutinee[&e];
                let sty = self.expr_tys[scrutinee.index()];
                let sspan = self.span(*scrutinee);
                self.unify(st, sty, sspan, Some(*scrutinee), "the matched value");
                let result = self.s.fresh_ty();
                for arm in arms.iter() {
                    let bt = self.expr_tys[arm.body.index()];
                    let bspan = self.span(arm.body);
                    self.unify(
                        result,
                        bt,
                        bspan,
                        Some(arm.body),
                        "the arms of `match` differ",
                    );
                }
                result
            }
            ExprKind::RefNew(x) => {
                let xt = self.expr_tys[x.index()];
                self.s.tcx.ref_ty(xt)
            }
            ExprKind::RefRead(r) => {
                let v = self.s.fresh_ty();
                let want = self.s.tcx.ref_ty(v);
                let rt = self.expr_tys[r.index()];
                self.unify(rt, want, span, Some(e), "`ref_read` needs a reference");
                v
            }
            ExprKind::RefWrite(r, v) => {
                let vt = self.expr_tys[v.index()];
                let want = self.s.tcx.ref_ty(vt);
                let rt = self.expr_tys[r.index()];
                self.unify(
                    rt,
                    want,
                    span,
                    Some(e),
                    "`ref_write` needs a reference to the value's type",
                );
                self.s.tcx.tuple(&[])
            }
        }
    }

    fn proj(&mut self, e: ExprId, t: ExprId, i: u32) -> Ty {
        let tt = self.expr_tys[t.index()];
        let tt = self.s.resolve(tt);
        match self.s.tcx.data(tt) {
            TyData::Tuple(fields) => match fields.get(i as usize) {
                Some(&f) => f,
                None => {
                    let n = fields.len();
                    let shown = self.s.tcx.show(tt);
                    self.error(
                        Some(e),
                        self.span(e),
                        format!(
                            "index {i} is out of range for `{shown}`, which has {n} field{}",
                            if n == 1 { "" } else { "s" }
                        ),
                    );
                    self.s.fresh_ty()
                }
            },
            TyData::Var(_) => {
                // Not known yet: a relation waits for the tuple.
                let out = self.s.fresh_ty();
                let attrs = Attrs::new(vec![("index".into(), crate::AttrValue::Int(i64::from(i)))]);
                self.s
                    .add_relation(TUPLE_GET_ITEM, &[tt, out], Some(Arc::new(attrs)), e.0);
                out
            }
            _ => {
                let shown = self.s.tcx.show(tt);
                self.error(
                    Some(e),
                    self.span(e),
                    format!("cannot project field {i} of `{shown}`, which is not a tuple"),
                );
                self.s.fresh_ty()
            }
        }
    }

    fn call(
        &mut self,
        e: ExprId,
        callee: ExprId,
        args: &[ExprId],
        attrs: Option<&Arc<Attrs>>,
        type_args: &[ParamValue],
    ) -> Ty {
        let span = self.span(e);
        let ct = self.expr_tys[callee.index()];
        let ct = self.s.resolve(ct);
        let arg_tys: Vec<Ty> = args.iter().map(|a| self.expr_tys[a.index()]).collect();
        let name = self.callee_name(callee);
        let TyData::Func(_) = self.s.tcx.data(ct) else {
            if !type_args.is_empty() {
                self.error(Some(e), span, format!("{name} takes no type arguments"));
            }
            let ret = self.s.fresh_ty();
            let want = self.s.tcx.func(&[], &arg_tys, ret, Vec::new());
            self.unify(ct, want, span, Some(e), &format!("cannot call {name}"));
            return ret;
        };
        let (params, ret, constraints) = match self.s.instantiate_with(ct, type_args) {
            Ok(x) => x,
            Err(err) => {
                self.error(Some(e), span, format!("{name}: {err}"));
                return self.s.fresh_ty();
            }
        };
        if params.len() != args.len() {
            let n = params.len();
            self.error(
                Some(e),
                span,
                format!(
                    "{name} takes {n} argument{} but {} {} given",
                    if n == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            );
            return ret;
        }
        for (k, (&p, &a)) in params.iter().zip(&arg_tys).enumerate() {
            let aspan = self.span(args[k]);
            self.unify(
                p,
                a,
                aspan,
                Some(args[k]),
                &format!("argument {k} of {name}"),
            );
        }
        if !constraints.is_empty() {
            let attrs = match &self.m.expr(callee).kind {
                ExprKind::Op(def) => {
                    let given = attrs.map(|a| (**a).clone()).unwrap_or_default();
                    match def.attrs_for_call(&given) {
                        Ok(filled) => Some(Arc::new(filled)),
                        Err(err) => {
                            self.error(Some(e), span, err.to_string());
                            return ret;
                        }
                    }
                }
                _ => attrs.cloned(),
            };
            self.s.add_constraints(&constraints, attrs, e.0);
        }
        ret
    }

    fn callee_name(&self, callee: ExprId) -> String {
        match &self.m.expr(callee).kind {
            ExprKind::Op(def) => format!("`{}`", def.name),
            ExprKind::Global(g) => format!("`@{}`", self.m.global_def(*g).name),
            ExprKind::Var(v) => format!("`%{}`", self.m.var_decl(*v).name),
            ExprKind::Ctor(c) => format!("`{}`", self.adts.ctor_info(&self.s.tcx, *c).name),
            _ => "this function".to_string(),
        }
    }

    /// The expression and span a relation instance blames: its call, or the argument
    /// `arg` of its call when the relation names one (the last is the result: the call);
    /// and the operator it comes from, for the note.
    fn blame(&self, origin: u32, arg: Option<usize>) -> (Option<ExprId>, Span, String) {
        if origin as usize >= self.m.sizes().0 {
            return (None, Span::default(), String::new());
        }
        let call = ExprId(origin);
        let ExprKind::Call { callee, args, .. } = &self.m.expr(call).kind else {
            return (Some(call), self.span(call), String::new());
        };
        let what = format!(" of {}", self.callee_name(*callee));
        match arg.and_then(|i| args.get(i)) {
            Some(&a) => (Some(a), self.span(a), what),
            None => (Some(call), self.span(call), what),
        }
    }

    /// Reports relations that do not hold, each at the argument it blames.
    fn report_failures(&mut self, errors: Vec<crate::solve::SolveError>) {
        for err in errors {
            let (expr, span, what) = self.blame(err.origin, err.arg);
            let mut notes = err.notes;
            notes.push(format!("from the relation `{}`{what}", err.relation));
            self.errors.push(TypeError {
                span,
                expr,
                message: err.message,
                notes,
            });
        }
    }

    fn finish(mut self) -> Typed {
        match self.s.solve() {
            Outcome::Solved => {}
            Outcome::Failed(errors) => self.report_failures(errors),
            Outcome::UnderConstrained(waiting) => {
                for w in waiting {
                    let (expr, span, what) = self.blame(w.origin, None);
                    let unknowns: Vec<String> =
                        w.unknowns.iter().map(|u| format!("`{u}`")).collect();
                    self.errors.push(TypeError {
                        span,
                        expr,
                        message: format!(
                            "cannot infer the types here: the relation `{}`{what} over ({}) waits on {}",
                            w.relation,
                            w.args.join(", "),
                            unknowns.join(", ")
                        ),
                        notes: vec!["annotate a type to fix it".to_string()],
                    });
                }
            }
        }
        let Infer {
            s: mut solver,
            mut expr_tys,
            mut var_tys,
            mut global_tys,
            errors,
            warnings,
            m,
            ..
        } = self;
        for t in expr_tys
            .iter_mut()
            .chain(var_tys.iter_mut())
            .chain(global_tys.iter_mut())
        {
            *t = solver.resolve(*t);
        }
        let mut errors = errors;
        if errors.is_empty() {
            // Bindings nothing constrains (no let-generalization), by name.
            for (i, &t) in var_tys.iter().enumerate() {
                if solver.tcx.has_vars(t) && errors.len() < MAX_UNDETERMINED {
                    let decl = m.var_decl(VarId(i as u32));
                    errors.push(TypeError {
                        span: decl.span,
                        expr: None,
                        message: format!(
                            "the type of `%{}` is not determined: `{}`",
                            decl.name,
                            solver.tcx.show(t)
                        ),
                        notes: vec!["annotate a type to fix it".to_string()],
                    });
                }
            }
        }
        if errors.is_empty() {
            // Otherwise the first expression whose type is not determined.
            for (i, &t) in expr_tys.iter().enumerate() {
                if solver.tcx.has_vars(t) {
                    let e = ExprId(i as u32);
                    errors.push(TypeError {
                        span: m.expr(e).span,
                        expr: Some(e),
                        message: format!(
                            "the type of this expression is not determined: `{}`",
                            solver.tcx.show(t)
                        ),
                        notes: vec!["annotate a type to fix it".to_string()],
                    });
                    break;
                }
            }
        }
        Typed {
            solver,
            expr_tys,
            var_tys,
            global_tys,
            errors,
            warnings,
        }
    }
}

/// At most this many undetermined bindings are reported.
const MAX_UNDETERMINED: usize = 8;

fn tuple_get_item(cx: &mut crate::RelCx<'_>) -> crate::RelResult {
    let t = cx.arg(0);
    let index = match cx.attrs().get("index") {
        Some(crate::AttrValue::Int(i)) => *i as usize,
        _ => return Err(crate::RelError::new("`TupleGetItem` needs an `index`")),
    };
    match cx.data(t).clone() {
        TyData::Var(_) => Ok(crate::Progress::NotYet),
        TyData::Tuple(fields) => match fields.get(index) {
            Some(&f) => {
                cx.unify(1, f)?;
                Ok(crate::Progress::Solved)
            }
            None => Err(crate::RelError::at(
                0,
                format!("index {index} is out of range for `{}`", cx.show(t)),
            )),
        },
        _ => Err(crate::RelError::at(
            0,
            format!(
                "cannot project a field of `{}`, which is not a tuple",
                cx.show(t)
            ),
        )),
    }
}

static TUPLE_GET_ITEM_DEF: crate::RelationDef = crate::RelationDef {
    name: "TupleGetItem",
    arity: Some(2),
    needs: &[0],
    solve: tuple_get_item,
};

/// The relation of a projection whose tuple is not known when it is typed.
const TUPLE_GET_ITEM: crate::RelationRef = crate::RelationRef(&TUPLE_GET_ITEM_DEF);
