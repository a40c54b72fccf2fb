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
        let ExprKind::Call { callee, args, .. } = &self.m.expr(call).kind else {
            return (Some(call), self.span(call), String::new());
        };
        let what = format!(" of {}", self.callee_name(*callee));
        match arg.and_then(|i| self.m.list(*args).get(i)) {
            Some(&a) => (Some(a), self.span(a), what),
            None => (Some(call), self.span(call), what),
        }
    }

    /// Reports relations that do not hold, each at the argument it blames.
    pub(super) fn report_failures(&mut self, errors: Vec<crate::solve::SolveError>) {
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

    pub(super) fn finish(mut self) -> Typed {
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
                            m.var_name(VarId(i as u32)),
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
