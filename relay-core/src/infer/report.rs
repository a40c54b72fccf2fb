//! The end of inference: solving, reporting failures and leftover unknowns at the
//! expressions they come from, resolving every type.

use super::*;

impl Infer<'_> {
    /// The expression and span a relation instance blames: its call, or the argument
    /// `arg` of its call when the relation names one (the last is the result: the call);
    /// and the operator it comes from, for the note.
    pub(super) fn blame(&self, origin: u32, arg: Option<usize>) -> (Option<ExprId>, Span, String) {
        if origin as usize >= self.m.sizes().0 {
            return (None, Span::default(), String::new());
        }
        let call = ExprId(origin);
        let ExprKind::Call { parts, .. } = &self.m.expr(call).kind else {
            return (Some(call), self.span(call), String::new());
        };
        let what = format!(" of {}", self.callee_name(self.m.callee(*parts)));
        match arg.and_then(|i| self.m.args(*parts).get(i)) {
            Some(&a) => (Some(a), self.span(a), what),
            None => (Some(call), self.span(call), what),
        }
    }

    /// Records that `req` requires the type of `e`, before they are unified, for each call
    /// `e` ends in (through `let`s, the branches of an `if`, the arms of a `match`) whose
    /// result is not known yet: its relation, which decides it later, may find it taken.
    pub(super) fn require(&mut self, e: ExprId, req: Required) {
        let unknown = |cx: &mut Self, e: ExprId| {
            let t = cx.s.resolve_top(cx.ty_of(e));
            matches!(cx.s.tcx.data(t), TyData::Var(_))
        };
        if !unknown(self, e) {
            return;
        }
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            let e = self.m.tail(e);
            if e.is_mention() || !unknown(self, e) {
                continue;
            }
            match &self.m.expr(e).kind {
                ExprKind::Call { .. } => {
                    let reqs = self.required.entry(e).or_default();
                    if reqs.len() < MAX_REQUIRED {
                        reqs.push(req);
                    }
                }
                ExprKind::If(_, t, f) => todo.extend([*t, *f]),
                ExprKind::Match { arms, .. } => {
                    todo.extend(self.m.arms(*arms).iter().map(|arm| arm.body))
                }
                _ => {}
            }
        }
    }

    /// The labels (and notes, where a requirement has no place in the text) of what
    /// required the result of call `e`, if anything did.
    fn requirements(&mut self, e: ExprId) -> Option<(Vec<Label>, Vec<String>)> {
        let reqs = self.required.get(&e)?.clone();
        let (mut labels, mut notes) = (Vec::new(), Vec::new());
        for req in reqs {
            match req {
                Required::Return(ret, span) => {
                    let ret = self.s.resolve(ret);
                    let ret = self.s.tcx.show(ret);
                    match span {
                        Some(span) => labels.push(Label::new(
                            span,
                            format!("the return type is annotated `{ret}` here"),
                        )),
                        None => notes.push(format!("the function is annotated to return `{ret}`")),
                    }
                }
                Required::Let(v) => {
                    // Recorded for an annotated variable only.
                    if let Some(ann) = self.m.var_decl(v).ann() {
                        labels.push(self.annotation_label(v, ann));
                    }
                }
                Required::Other(other, what) => {
                    let t = self.s.resolve(self.ty_of(other));
                    let t = self.s.tcx.show(t);
                    labels.push(Label::new(self.span(other), format!("{what} is `{t}`")));
                }
            }
        }
        Some((labels, notes))
    }

    /// Reports relations that do not hold, each at the argument it blames, with the type
    /// of every argument of its call and where each came from. A relation that fails on
    /// the result of its call, which something else required before it was decided (an
    /// annotation, another arm), is reported as the result's clash with that requirement.
    pub(super) fn report_failures(&mut self, errors: Vec<crate::solve::SolveError>) {
        for err in errors {
            let (expr, span, what) = self.blame(err.origin, err.arg);
            let mut message = err.message;
            let mut notes = err.notes;
            notes.push(format!("from the relation `{}`{what}", err.relation));
            let mut labels = Vec::new();
            if (err.origin as usize) < self.m.sizes().0 {
                let call = ExprId(err.origin);
                if let ExprKind::Call { parts, .. } = &self.m.expr(call).kind {
                    let on_result = err.arg == Some(self.m.args(*parts).len());
                    let required = if on_result {
                        self.requirements(call)
                    } else {
                        None
                    };
                    let result_blamed = required.is_some();
                    if let Some((required, mut more)) = required {
                        // A clash the relation's message says in its own words, naming
                        // the operator, is its; a bare clash of types is the result's.
                        let name = self.callee_name(self.m.callee(*parts));
                        if !message.contains(&name) {
                            message = format!(
                                "the result of {name} does not have the type required of it: {message}"
                            );
                        }
                        labels.extend(required);
                        more.append(&mut notes);
                        notes = more;
                    }
                    for (k, &a) in self.m.args(*parts).iter().enumerate() {
                        let t = self.s.resolve(self.ty_of(a));
                        // Of the result's clash, an argument not known says nothing.
                        if result_blamed && self.s.tcx.has_vars(t) {
                            continue;
                        }
                        let shown = self.s.tcx.show(t);
                        labels.push(Label::new(
                            self.span(a),
                            format!("argument {}: `{shown}`", k + 1),
                        ));
                        // A variable passed twice is labelled once.
                        if let Some(origin) = self.origin_label(a) {
                            if !labels.contains(&origin) {
                                labels.push(origin);
                            }
                        }
                    }
                }
            }
            self.errors.push(TypeError {
                span,
                expr,
                message,
                notes,
                labels,
                help: None,
                attr: None,
            });
        }
    }

    /// Where the type of `e` comes from, when `e` is a variable: its annotation or its
    /// binding.
    pub(super) fn origin_label(&mut self, e: ExprId) -> Option<Label> {
        let v = self.m.mention(e)?;
        let decl = self.m.var_decl(v);
        let message = match decl.ann() {
            Some(t) => return Some(self.annotation_label(v, t)),
            None => {
                let t = self.s.resolve(self.var_tys[v.index()]);
                format!(
                    "`%{}` is bound here to `{}`",
                    self.m.var_name(v),
                    self.s.tcx.show(t)
                )
            }
        };
        Some(Label::new(self.m.var_span(v), message))
    }

    /// "`%x` is annotated `T` here", at `v`'s binder.
    fn annotation_label(&self, v: VarId, t: Ty) -> Label {
        let shown = self.s.tcx.show(t);
        let name = self.m.var_name(v);
        Label::new(
            self.m.var_span(v),
            format!("`%{name}` is annotated `{shown}` here"),
        )
    }

    /// Adds to the last error a label at `e`: `{what} is `T``, its type as far as known.
    #[cold]
    pub(super) fn label_type(&mut self, e: ExprId, what: &str) {
        let t = self.s.resolve(self.ty_of(e));
        let label = Label::new(self.span(e), format!("{what} is `{}`", self.s.tcx.show(t)));
        if let Some(last) = self.errors.last_mut() {
            last.labels.push(label);
        }
    }

    /// Reports that a function's body does not have the return type `ret` it is annotated
    /// with (written at `ret_span` in the text, when read from text), at the body (its
    /// chain's result), the annotation labelled, both types in notes.
    #[cold]
    pub(super) fn return_error(
        &mut self,
        body: ExprId,
        ret: Ty,
        ret_span: Option<crate::expr::Span>,
        err: &crate::solve::UnifyError,
    ) {
        let mut message = "the function's body does not have its annotated return type".to_string();
        // A clash of the two whole types is the notes' (there resolved further); a clash
        // inside them is said where it is.
        let whole = err.path.is_empty() && matches!(err.kind, crate::UnifyErrorKind::Types(..));
        if !whole {
            let sides = (Some("the return type"), Some("the body"));
            message = format!("{message}: {}", err.describe_sides(&self.s.tcx, sides));
        }
        let (ret, body_ty) = (self.s.resolve(ret), self.s.resolve(self.ty_of(body)));
        let (ret, body_ty) = (self.s.tcx.show(ret), self.s.tcx.show(body_ty));
        self.errors.push(TypeError {
            span: self.span(body),
            expr: Some(body),
            message,
            // The annotation labelled where the text writes it, else in a note.
            labels: ret_span
                .map(|s| Label::new(s, "the return type is annotated here".to_string()))
                .into_iter()
                .collect(),
            notes: match ret_span {
                Some(_) => vec![format!("the body is `{body_ty}`")],
                None => vec![
                    format!("the function is annotated to return `{ret}`"),
                    format!("the body is `{body_ty}`"),
                ],
            },
            help: None,
            attr: None,
        });
    }

    /// Reports that the value of a `let` does not fit its variable `v` (which must be
    /// annotated: an unannotated one takes any type), with the annotation, the other side
    /// of the clash, labelled, and where `value`'s type comes from.
    #[cold]
    pub(super) fn binding_error(
        &mut self,
        v: VarId,
        value: ExprId,
        err: &crate::solve::UnifyError,
    ) {
        let decl = self.m.var_decl(v);
        let left = format!("the annotation of `%{}`", self.m.var_name(v));
        let right = (self.m.mention(value)).map(|w| format!("`%{}`", self.m.var_name(w)));
        let why = err.describe_sides(&self.s.tcx, (Some(&left), right.as_deref()));
        let mut labels: Vec<Label> = decl
            .ann()
            .map(|t| self.annotation_label(v, t))
            .into_iter()
            .collect();
        labels.extend(self.origin_label(value));
        self.errors.push(TypeError {
            span: self.span(value),
            expr: Some(value),
            message: format!("the bound value: {why}"),
            notes: Vec::new(),
            labels,
            help: None,
            attr: None,
        });
    }

    /// Reports that argument `k` of a call of `callee` does not unify with its parameter,
    /// with where the parameter's type and the argument's type come from.
    #[cold]
    pub(super) fn argument_error(
        &mut self,
        callee: ExprId,
        args: &[ExprId],
        k: usize,
        err: &crate::solve::UnifyError,
    ) {
        let arg = args[k];
        let name = self.callee_name(callee);
        let param = self.callee_params(callee).and_then(|ps| ps.get(k).copied());
        // Where each side comes from (design: "3 from `%a` vs 5 from `%b`"): the
        // parameter's annotation only when it is ground (a type parameter or a symbol of
        // it is instantiated by the other arguments), the argument when it is a variable.
        let left = param.and_then(|p| {
            let decl = self.m.var_decl(p);
            let t = decl.ann()?;
            let ground = !self.s.tcx.has_vars(t) && !self.s.tcx.has_params(t);
            ground.then(|| format!("the parameter `%{}`", self.m.var_name(p)))
        });
        let right = (self.m.mention(arg)).map(|v| format!("`%{}`", self.m.var_name(v)));
        let message = format!(
            "argument {} of {name}: {}",
            k + 1,
            err.describe_sides(&self.s.tcx, (left.as_deref(), right.as_deref()))
        );
        let mut labels = Vec::new();
        if let Some(param) = param {
            let decl = self.m.var_decl(param);
            let message = match decl.ann() {
                Some(t) => format!(
                    "parameter `%{}` is declared `{}` here",
                    self.m.var_name(param),
                    self.s.tcx.show(t)
                ),
                None => format!("parameter `%{}` is declared here", self.m.var_name(param)),
            };
            labels.push(Label::new(self.m.var_span(param), message));
        }
        labels.extend(self.origin_label(arg));
        self.errors.push(TypeError {
            span: self.span(arg),
            expr: Some(arg),
            message,
            notes: Vec::new(),
            labels,
            help: None,
            attr: None,
        });
    }

    /// The parameters of the function `callee` names, when it is a global defined by a
    /// function literal.
    fn callee_params(&self, callee: ExprId) -> Option<&[VarId]> {
        let ExprKind::Global(g) = self.m.expr(callee).kind else {
            return None;
        };
        let func = self.m.global_def(g).func?;
        match &self.m.expr(func).kind {
            ExprKind::Func(f) => Some(&f.params),
            _ => None,
        }
    }

    /// Adds to the last error a label at the definition of `callee`, which takes `n`
    /// arguments; or, where it has none in the source (an operator, a constructor), a
    /// note with its type `ct`.
    #[cold]
    pub(super) fn label_callee(&mut self, callee: ExprId, ct: Ty, n: usize) {
        let plural = if n == 1 { "" } else { "s" };
        let label = match self.m.expr(callee).kind {
            ExprKind::Global(g) => {
                let def = self.m.global_def(g);
                Label::new(
                    def.span,
                    format!("`@{}` is defined here with {n} parameter{plural}", def.name),
                )
            }
            ExprKind::Var(v) => Label::new(
                self.m.var_span(v),
                format!("`%{}` is bound here", self.m.var_name(v)),
            ),
            _ => {
                let note = format!(
                    "{} has type `{}`",
                    self.callee_name(callee),
                    self.s.tcx.show(ct)
                );
                if let Some(last) = self.errors.last_mut() {
                    last.notes.push(note);
                }
                return;
            }
        };
        if let Some(last) = self.errors.last_mut() {
            last.labels.push(label);
        }
    }

    pub(super) fn finish(mut self) -> Typed {
        match self.s.solve() {
            Outcome::Solved => {}
            Outcome::Failed(errors) => self.report_failures(errors),
            // After an error, relations waiting on what a failed one never produced are
            // its echoes, not new problems (rustc, too, stays quiet about them).
            Outcome::UnderConstrained(_) if !self.errors.is_empty() => {}
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
                        labels: Vec::new(),
                        help: None,
                        attr: None,
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
            mut warnings,
            m,
            ..
        } = self;
        // Resolved together: the parts the types share are resolved once.
        solver.resolve_each(&mut [&mut expr_tys, &mut var_tys, &mut global_tys]);
        let mut errors = errors;
        if errors.is_empty() {
            // Bindings nothing constrains (no let-generalization), by name.
            for (i, &t) in var_tys.iter().enumerate() {
                if errors.len() == MAX_UNDETERMINED {
                    break;
                }
                if solver.tcx.has_vars(t) {
                    errors.push(TypeError {
                        span: m.var_span(VarId(i as u32)),
                        expr: None,
                        message: format!(
                            "the type of `%{}` is not determined: `{}`",
                            m.var_name(VarId(i as u32)),
                            solver.tcx.show(t)
                        ),
                        notes: vec!["annotate a type to fix it".to_string()],
                        labels: Vec::new(),
                        help: None,
                        attr: None,
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
                        span: m.span_of(m.tail(e)),
                        expr: Some(e),
                        message: format!(
                            "the type of this expression is not determined: `{}`",
                            solver.tcx.show(t)
                        ),
                        notes: vec!["annotate a type to fix it".to_string()],
                        labels: Vec::new(),
                        help: None,
                        attr: None,
                    });
                    break;
                }
            }
        }
        // The unknowns a message mentions get names that do not depend on what else was
        // checked (`'a`, not `'t178`).
        for e in errors.iter_mut().chain(warnings.iter_mut()) {
            let mut texts: Vec<&mut String> = vec![&mut e.message];
            texts.extend(e.notes.iter_mut());
            texts.extend(e.labels.iter_mut().map(|l| &mut l.message));
            crate::diag::stable_var_names(&mut texts);
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

/// At most this many requirements of one call's result are kept (and labelled).
const MAX_REQUIRED: usize = 4;

/// At most this many undetermined bindings are reported.
const MAX_UNDETERMINED: usize = 8;
