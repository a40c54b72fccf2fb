//! Patterns: binding their variables, and the exhaustiveness of complete matches.

use super::*;

impl Infer<'_> {
    /// Types pattern `p` against `ty`, binding its variables (iteratively: patterns nest
    /// to any depth).
    pub(super) fn bind_pattern(&mut self, p: PatId, ty: Ty, at: ExprId) {
        let mut stack = vec![(p, ty)];
        while let Some((p, ty)) = stack.pop() {
            // Errors go on the pattern itself, not the whole match.
            let span = self.m.pat_span(p);
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
                        let note = format!("`{name}` has type `{}`", self.s.tcx.show(cty));
                        self.errors
                            .last_mut()
                            .expect("just reported")
                            .notes
                            .push(note);
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
    pub(super) fn patterns_well_formed(&self, pats: &[PatId]) -> bool {
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
    pub(super) fn check_arms(&mut self, e: ExprId, arms: &[crate::expr::Arm], complete: bool) {
        let pats: Vec<PatId> = arms.iter().map(|a| a.pattern).collect();
        if !self.patterns_well_formed(&pats) {
            // A constructor pattern with the wrong number of fields is already an error;
            // exhaustiveness over it would only add knock-on errors.
            return;
        }
        let report = crate::exhaust::analyse(&self.s.tcx, self.m, &pats);
        let span = self.span(e);
        if complete && !report.missing.is_empty() {
            // At the value matched, as rustc does.
            let span = match &self.m.expr(e).kind {
                ExprKind::Match { scrutinee, .. } => self.span(*scrutinee),
                _ => span,
            };
            let cases: Vec<String> = report.missing.iter().map(|c| format!("`{c}`")).collect();
            self.errors.push(TypeError {
                span,
                expr: Some(e),
                message: format!("non-exhaustive match: {} not covered", cases.join(", ")),
                notes: vec![
                    "add arms for these cases, or use `match?` for a partial match".to_string(),
                ],
                labels: Vec::new(),
                help: None,
                attr: None,
            });
        }
        // A complete match that was not checked is an error: it may miss cases.
        if let (true, Some(why)) = (complete, report.unchecked) {
            let why = match why {
                crate::exhaust::Unchecked::TooDeep => format!(
                    "its patterns nest deeper than {} levels",
                    crate::exhaust::MAX_PATTERN_DEPTH
                ),
                crate::exhaust::Unchecked::TooLarge => format!(
                    "checking it would take more than {} steps",
                    crate::exhaust::MAX_WORK
                ),
            };
            self.errors.push(TypeError {
                span,
                expr: Some(e),
                message: format!("this match cannot be checked for exhaustiveness: {why}"),
                notes: vec![
                    "split it into nested matches, or use `match?` for a partial match".to_string(),
                ],
                labels: Vec::new(),
                help: None,
                attr: None,
            });
        }
        for i in report.unreachable {
            let body = arms[i].body;
            self.warnings.push(TypeError {
                // At the pattern, which is what never matches.
                span: self.m.pat_span(arms[i].pattern),
                expr: Some(body),
                message: format!(
                    "unreachable arm: the arms before it match every value it matches (arm {})",
                    i + 1
                ),
                notes: Vec::new(),
                labels: Vec::new(),
                help: None,
                attr: None,
            });
        }
    }
}
