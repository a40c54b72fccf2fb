//! The type of each expression once its children are typed: calls with instantiation
//! and relations, projections, functions, `if`, `match`, references.

use super::*;

impl Infer<'_> {
    pub(super) fn op_ty(&mut self, def: &'static OpDef) -> Ty {
        self.op_scheme(def).ty
    }

    /// The operator's type, and whether it is the common scheme `fn [t1, .., tk](t1, ..)
    /// -> tk where R(t1, .., tk)` of distinct type parameters (most operators), computed
    /// once per operator.
    fn op_scheme(&mut self, def: &'static OpDef) -> OpScheme {
        let key = def as *const OpDef;
        if let Some(&scheme) = self.op_tys.get(&key) {
            return scheme;
        }
        let scheme = def.scheme(&mut self.s.tcx);
        self.op_tys.insert(key, scheme);
        scheme
    }

    /// A call of an operator of the common scheme (see [`Infer::op_scheme`]) with the
    /// right number of arguments: the relation goes straight over the arguments' types and
    /// a fresh result, without instantiating the scheme. `None` for any other call.
    fn op_call(
        &mut self,
        e: ExprId,
        def: &'static OpDef,
        args: &[ExprId],
        attrs: Option<&Arc<Attrs>>,
    ) -> Option<Ty> {
        // A result the `let` annotates as a tuple: the relation sees it (not remembered).
        let expected = match self.expected.is_empty() {
            true => None,
            false => self.expected.remove(&e),
        };
        let key = (
            def as *const OpDef,
            attrs.map_or(std::ptr::null(), Arc::as_ptr),
        );
        let id = match self.op_site_ids.get(&key) {
            Some(&id) => id as usize,
            None => {
                // Attributes that do not fit are reported; the call gets a fresh type.
                let Some(site) = self.new_op_site(e, def, args.len(), attrs)? else {
                    return Some(self.s.fresh_ty());
                };
                let id = self.op_sites.len();
                self.op_sites.push(site);
                self.op_site_ids.insert(key, id as u32);
                id
            }
        };
        let site = &self.op_sites[id];
        if site.arity != args.len() {
            return None;
        }
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        buf.extend(args.iter().map(|&a| self.ty_of(a)));
        if let Some(want) = expected {
            let known = buf.iter().all(|&t| !self.s.tcx.has_vars(t));
            let ret = self.s.fresh_ty();
            buf.push(ret);
            // A fresh result takes any type.
            let _ = self.s.unify(ret, want);
            let (relation, filled) = (site.relation, site.attrs.clone());
            self.s
                .add_op_relation(site.op, relation, &buf, Some(filled), e.0);
            self.scratch = buf;
            if known {
                if let Outcome::Failed(errors) = self.s.solve() {
                    self.report_failures(errors);
                }
            }
            return Some(ret);
        }
        // Every input known: the relation decides now (or has decided before, for the
        // same inputs and attributes), and the call has its type at once.
        let known = self.s.remembers_results() && buf.iter().all(|&t| !self.s.tcx.has_vars(t));
        let inputs = (known && buf.len() <= SITE_INPUTS).then(|| {
            // Every slot of the key set in turn (a fixed count): a copy of the inputs'
            // length, not known at compile time, would be a call to `memcpy` for a few
            // bytes, as would a loop over the inputs, which the compiler turns into one.
            let unset = self.unset;
            std::array::from_fn(|j| buf.get(j).copied().unwrap_or(unset))
        });
        if let Some(k) = inputs {
            if let Some((_, t)) = site.seen.iter().flatten().find(|(ins, _)| *ins == k) {
                let t = *t;
                self.s.count_remembered();
                self.scratch = buf;
                return Some(t);
            }
        }
        let mut result = None;
        let mut failed = false;
        if known {
            result = self.s.remembered(site.relation, Some(&site.attrs), &buf);
        }
        if result.is_none() {
            let (relation, filled) = (site.relation, site.attrs.clone());
            let ret = self.s.fresh_ty();
            buf.push(ret);
            self.s
                .add_op_relation(site.op, relation, &buf, Some(filled), e.0);
            if !known {
                self.scratch = buf;
                return Some(ret);
            }
            if let Outcome::Failed(errors) = self.s.solve() {
                failed = true;
                self.report_failures(errors);
            }
            result = Some(self.s.resolve(ret));
        }
        self.scratch = buf;
        let t = result.expect("decided above");
        // A result without unknowns, of a solve that did not fail, is the relation's for
        // these inputs: kept here.
        if let Some(k) = inputs.filter(|_| !failed && !self.s.tcx.has_vars(t)) {
            let site = &mut self.op_sites[id];
            site.seen[site.next] = Some((k, t));
            site.next = (site.next + 1) % site.seen.len();
        }
        Some(t)
    }

    /// The site of calls of `def` with `attrs`: `None` if the operator is not of the
    /// common scheme for `arity` arguments (the general path types the call), `Some(None)`
    /// after reporting that the attributes do not fit.
    fn new_op_site(
        &mut self,
        e: ExprId,
        def: &'static OpDef,
        arity: usize,
        attrs: Option<&Arc<Attrs>>,
    ) -> Option<Option<OpSite>> {
        let scheme = self.op_scheme(def);
        let relation = scheme.relation.filter(|_| scheme.arity == arity)?;
        let Some(filled) = self.call_attrs(e, def, attrs) else {
            return Some(None);
        };
        Some(Some(OpSite {
            op: def.name,
            relation,
            arity: scheme.arity,
            attrs: filled,
            seen: [None; 4],
            next: 0,
        }))
    }

    /// The attributes of a call of `def` with its defaults filled, shared by every call
    /// with the same given attributes (the parser shares equal attribute lists), or `None`
    /// after reporting that they do not fit.
    fn call_attrs(
        &mut self,
        e: ExprId,
        def: &'static OpDef,
        given: Option<&Arc<Attrs>>,
    ) -> Option<Arc<Attrs>> {
        let key = (
            def as *const OpDef,
            given.map_or(std::ptr::null(), Arc::as_ptr),
        );
        if let Some(filled) = self.attr_cache.get(&key) {
            return Some(filled.clone());
        }
        let given_ref = given.map_or(&crate::attrs::NO_ATTRS, |a| &**a);
        match def.attrs_for_call(given_ref) {
            Ok(filled) => {
                let filled = Arc::new(filled);
                self.attr_cache.insert(key, filled.clone());
                Some(filled)
            }
            Err(err) => {
                self.error(Some(e), self.span(e), err.message);
                let last = self.errors.last_mut().expect("just pushed");
                last.help = err.help;
                last.attr = Some(err.attr);
                None
            }
        }
    }

    /// The type of `e`, its children typed.
    pub(super) fn exit(&mut self, e: ExprId) -> Ty {
        let m = self.m;
        match &m.expr(e).kind {
            ExprKind::Var(v) => self.var_tys[v.index()],
            ExprKind::Global(g) => self.global_tys[g.index()],
            ExprKind::Op(def) => self.op_ty(def),
            ExprKind::Ctor(c) => self.adts.ctor_info(&self.s.tcx, *c).ty,
            ExprKind::Constant(t) => *t,
            ExprKind::Tuple(fields) => {
                let tys: Vec<Ty> = m.list(*fields).iter().map(|&f| self.ty_of(f)).collect();
                self.s.tcx.tuple(&tys)
            }
            ExprKind::Proj(t, i) => self.proj(e, *t, *i),
            ExprKind::Let { body, .. } => self.expr_tys[body.index()],
            ExprKind::Call { parts, attrs } => self.call(
                e,
                m.callee(*parts),
                m.args(*parts),
                m.attrs(*attrs),
                m.type_args(e),
            ),
            ExprKind::Func(f) => {
                let body_ty = self.expr_tys[f.body.index()];
                let ret = match f.ret {
                    Some(r) => {
                        let r = self.open_ann(r);
                        self.require(f.body, Required::Return(r, f.ret_span));
                        if let Err(err) = self.s.unify(r, body_ty) {
                            self.return_error(f.body, r, f.ret_span, &err);
                        }
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
                let b = self.bool_ty;
                if self.s.unify(ct, b).is_err() {
                    let found = self.s.resolve(ct);
                    let found = self.s.tcx.show(found);
                    let message =
                        format!("the condition of `if` must be a `bool` scalar, found `{found}`");
                    self.error(Some(*c), self.span(*c), message);
                    if let Some(origin) = self.origin_label(*c) {
                        self.errors
                            .last_mut()
                            .expect("just pushed")
                            .labels
                            .push(origin);
                    }
                }
                self.require(*t, Required::Other(*f, "the other branch"));
                self.require(*f, Required::Other(*t, "the other branch"));
                let fspan = self.span(*f);
                if !self.unify(tt, ft, fspan, Some(*f), "the branches of `if` differ") {
                    self.label_type(*t, "the other branch");
                }
                // Of two polymorphic functions, the one of fewer type parameters (the other's
                // surplus became unknowns when they were unified), as TVM types it.
                let type_params = |s: &Self, t: Ty| match s.s.tcx.data(t) {
                    TyData::Func(f) => f.params.len(),
                    _ => 0,
                };
                if type_params(self, ft) < type_params(self, tt) {
                    ft
                } else {
                    tt
                }
            }
            ExprKind::Match {
                scrutinee,
                arms,
                complete,
            } => {
                let arms = m.arms(*arms);
                self.check_arms(e, arms, *complete);
                let st = self.match_scrutinee[&e];
                let sty = self.expr_tys[scrutinee.index()];
                let sspan = self.span(*scrutinee);
                self.unify(st, sty, sspan, Some(*scrutinee), "the matched value");
                let result = self.s.fresh_ty();
                for (k, arm) in arms.iter().enumerate() {
                    // The first arm takes the type of the later ones; each later one, the
                    // first's.
                    match k {
                        0 if arms.len() > 1 => {
                            self.require(arm.body, Required::Other(arms[1].body, "the second arm"))
                        }
                        0 => {}
                        _ => self.require(arm.body, Required::Other(arms[0].body, "the first arm")),
                    }
                    let bt = self.expr_tys[arm.body.index()];
                    let bspan = self.span(arm.body);
                    let same = self.unify(
                        result,
                        bt,
                        bspan,
                        Some(arm.body),
                        "the arms of `match` differ",
                    );
                    if !same {
                        self.label_type(arms[0].body, "the first arm");
                    }
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
                let span = self.span(e);
                self.unify(rt, want, span, Some(e), "`ref_read` needs a reference");
                v
            }
            ExprKind::RefWrite(r, v) => {
                let vt = self.expr_tys[v.index()];
                let want = self.s.tcx.ref_ty(vt);
                let rt = self.expr_tys[r.index()];
                let span = self.span(e);
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

    pub(super) fn proj(&mut self, e: ExprId, t: ExprId, i: u32) -> Ty {
        let tt = self.expr_tys[t.index()];
        // Its outer structure is enough (resolving it whole, at each of a chain of
        // projections into a deep tuple, was quadratic).
        let tt = self.s.resolve_top(tt);
        match self.s.tcx.data(tt) {
            TyData::Tuple(fields) => match fields.get(i as usize) {
                Some(&f) => f,
                None => {
                    let n = fields.len();
                    let tt = self.s.resolve(tt);
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
                let tt = self.s.resolve(tt);
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

    /// The warning for call `e`, typed by the type `ty` TVM printed on it because its
    /// attributes (`reference`) were omitted with the metadata section.
    #[cold]
    fn trusted_printed_type(&mut self, e: ExprId, callee: ExprId, ty: Ty, reference: &str) {
        let callee = match self.m.expr(callee).kind {
            ExprKind::Op(def) => format!(" of `{}`", def.name),
            _ => String::new(),
        };
        let shown = self.s.tcx.show(ty);
        self.warnings.push(TypeError {
            span: self.span(e),
            expr: Some(e),
            message: format!(
                "the attributes{callee} were omitted with the metadata section (`{reference}`): the printed type `{shown}` is trusted"
            ),
            notes: Vec::new(),
            labels: Vec::new(),
            help: Some(
                "print the module with its metadata (`show_meta_data=True`) to check this call"
                    .to_string(),
            ),
            attr: None,
        });
    }

    pub(super) fn call(
        &mut self,
        e: ExprId,
        callee: ExprId,
        args: &[ExprId],
        attrs: Option<&Arc<Attrs>>,
        type_args: &[ParamValue],
    ) -> Ty {
        if let Some((ty, reference)) = self.m.printed_type(e) {
            self.trusted_printed_type(e, callee, ty, reference);
            return ty;
        }
        if let (ExprKind::Op(def), []) = (&self.m.expr(callee).kind, type_args) {
            if let Some(t) = self.op_call(e, def, args, attrs) {
                return t;
            }
        }
        let span = self.span(e);
        let ct = self.expr_tys[callee.index()];
        // Its outer structure is enough (resolving it whole, at each call of a curried
        // chain `%f(%x)(%x)...`, was quadratic); a message resolves it whole.
        let ct = self.s.resolve_top(ct);
        let arg_tys: Vec<Ty> = args.iter().map(|&a| self.ty_of(a)).collect();
        // The callee's name is for messages only: made when one is.
        let TyData::Func(_) = self.s.tcx.data(ct) else {
            if !type_args.is_empty() {
                let name = self.callee_name(callee);
                self.error(Some(e), span, format!("{name} takes no type arguments"));
            }
            let ct = self.s.resolve(ct);
            let ret = self.s.fresh_ty();
            let want = self.s.tcx.func(&[], &arg_tys, ret, Vec::new());
            if let Err(err) = self.s.unify(ct, want) {
                let name = self.callee_name(callee);
                let message = format!("cannot call {name}: {}", err.describe(&self.s.tcx));
                self.error(Some(e), span, message);
            }
            return ret;
        };
        let (params, ret, constraints) = match self.s.instantiate_with(ct, type_args) {
            Ok(x) => x,
            Err(err) => {
                let name = self.callee_name(callee);
                self.error(Some(e), span, format!("{name}: {err}"));
                return self.s.fresh_ty();
            }
        };
        if params.len() != args.len() {
            let name = self.callee_name(callee);
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
            let ct = self.s.resolve(ct);
            self.label_callee(callee, ct, n);
            return ret;
        }
        for (k, (&p, &a)) in params.iter().zip(&arg_tys).enumerate() {
            if let Err(err) = self.s.unify(p, a) {
                self.argument_error(callee, args, k, &err);
            }
        }
        if !constraints.is_empty() {
            match &self.m.expr(callee).kind {
                ExprKind::Op(def) => {
                    let Some(filled) = self.call_attrs(e, def, attrs) else {
                        return ret;
                    };
                    self.s
                        .add_op_constraints(def.name, &constraints, Some(filled), e.0);
                }
                _ => self.s.add_constraints(&constraints, attrs.cloned(), e.0),
            }
        }
        ret
    }

    pub(super) fn callee_name(&self, callee: ExprId) -> String {
        match &self.m.expr(callee).kind {
            ExprKind::Op(def) => format!("`{}`", def.name),
            ExprKind::Global(g) => format!("`@{}`", self.m.global_def(*g).name),
            ExprKind::Var(v) => format!("`%{}`", self.m.var_name(*v)),
            ExprKind::Ctor(c) => format!("`{}`", self.adts.ctor_info(&self.s.tcx, *c).name),
            _ => "this function".to_string(),
        }
    }
}

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
