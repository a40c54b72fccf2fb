//! Matching a known value against a pattern or constructor term, binding what the
//! term's variables stand for.

use super::*;

impl Machine<'_, '_> {
    /// `value = pattern` where the pattern cannot be computed: bind, destructure or wait.
    pub(super) fn destructure(
        &mut self,
        value: Value,
        pattern: &'static Term,
        blame: Option<usize>,
    ) -> Result<Step, RelError> {
        match pattern {
            Term::Var(i) => {
                let slot = &mut self.scratch.slots[*i as usize];
                // Not bound: `eval` would have computed it.
                slot.val = Some(value);
                slot.origin = blame;
                self.bound += 1;
                Ok(Step::Done)
            }
            Term::Wild => Ok(Step::Done),
            Term::As(v, p) => {
                let a = self.match_value(value, v, blame, None)?;
                Ok(a.and(self.match_value(value, p, blame, None)?))
            }
            Term::Tensor(s, d) => {
                let Value::Ty(t) = value else {
                    return Err(self.kind_clash("a tensor", value, blame));
                };
                let t = self.cx.resolve(t);
                match *self.cx.data(t) {
                    TyData::Tensor(shape, dtype) => {
                        if let Term::Var(k) = s {
                            let slot = &mut self.scratch.slots[*k as usize];
                            if slot.val.is_none() {
                                slot.tensor = Some(t);
                            }
                        }
                        let a = self.match_value(Value::Shape(shape), s, blame, None)?;
                        let b = self.match_value(Value::DType(dtype), d, blame, None)?;
                        Ok(a.and(b))
                    }
                    TyData::Var(_) => Ok(Step::Wait),
                    _ => Err(err(
                        blame,
                        format!("expected a tensor, found `{}`", self.cx.show(t)),
                    )),
                }
            }
            Term::Tuple(fields) if fields.iter().any(|f| matches!(f, Term::Rest(_))) => {
                let Value::Ty(t) = value else {
                    return Err(self.kind_clash("a tuple", value, blame));
                };
                self.match_rest(t, fields, blame)
            }
            Term::Tuple(fields) => {
                let Value::Ty(t) = value else {
                    return Err(self.kind_clash("a tuple", value, blame));
                };
                let t = self.cx.resolve(t);
                match self.cx.data(t) {
                    TyData::Tuple(tys) if tys.len() == fields.len() => {
                        let mut step = Step::Done;
                        for (k, f) in fields.iter().enumerate() {
                            let TyData::Tuple(tys) = self.cx.data(t) else {
                                unreachable!("checked above")
                            };
                            let ty = tys[k];
                            step = step.and(self.match_value(Value::Ty(ty), f, blame, None)?);
                        }
                        Ok(step)
                    }
                    TyData::Var(_) => Ok(Step::Wait),
                    _ => Err(err(
                        blame,
                        format!(
                            "expected a tuple of {} field{}, found `{}`",
                            fields.len(),
                            if fields.len() == 1 { "" } else { "s" },
                            self.cx.show(t)
                        ),
                    )),
                }
            }
            Term::List(items) => {
                let Value::Shape(s) = value else {
                    return Err(self.kind_clash("a shape", value, blame));
                };
                let Some(dims) = self.dims_of(s, blame)? else {
                    return Ok(Step::Wait);
                };
                let step = self.match_list(s, dims.clone(), items, blame);
                self.scratch.dims.truncate(dims.start);
                step
            }
            // A computation whose inputs are unknown, or a literal: wait.
            _ => Ok(Step::Wait),
        }
    }

    /// The tuple type `t` against the fields of a tuple pattern with a `..rest`: the
    /// fields before and after it one by one, the rest as a tuple of the fields between.
    fn match_rest(
        &mut self,
        t: Ty,
        fields: &'static [Term],
        blame: Option<usize>,
    ) -> Result<Step, RelError> {
        let t = self.cx.resolve(t);
        // The fields besides `..rest`, which the tuple must have at least.
        let fixed = fields.len() - 1;
        let n = match self.cx.data(t) {
            TyData::Tuple(tys) if tys.len() >= fixed => tys.len(),
            TyData::Var(_) => return Ok(Step::Wait),
            _ => {
                let least = match fixed {
                    0 => String::new(),
                    1 => " of at least 1 field".into(),
                    k => format!(" of at least {k} fields"),
                };
                let shown = self.cx.show(t);
                return Err(err(
                    blame,
                    format!("expected a tuple{least}, found `{shown}`"),
                ));
            }
        };
        let at = fields
            .iter()
            .position(|f| matches!(f, Term::Rest(_)))
            .unwrap_or(fixed);
        let after = fixed - at;
        let mut step = Step::Done;
        for (k, f) in fields.iter().enumerate() {
            step = step.and(match f {
                Term::Rest(rest) => {
                    // `n` covers the fields around the rest (checked above).
                    let middle = crate::clause::fast::middle(self.cx, t, at as i64, after as i64)
                        .unwrap_or(t);
                    self.match_value(Value::Ty(middle), rest, blame, None)?
                }
                f => {
                    let j = if k < at { k } else { n - (fields.len() - k) };
                    let field = self.field(t, j);
                    self.match_value(Value::Ty(field), f, blame, None)?
                }
            });
        }
        Ok(step)
    }

    /// The dimensions `dims` (on the dimension stack) of shape `s` against the list
    /// pattern `items`.
    pub(super) fn match_list(
        &mut self,
        s: Shape,
        dims: Range<usize>,
        items: &'static [Item],
        blame: Option<usize>,
    ) -> Result<Step, RelError> {
        let mut splice = None;
        for (k, item) in items.iter().enumerate() {
            if let Item::Splice(_) = item {
                if splice.is_some() {
                    // Several unknown splices: their lengths are not determined.
                    return Ok(Step::Wait);
                }
                splice = Some(k);
            }
        }
        let rank = dims.len();
        let fixed = items.len() - usize::from(splice.is_some());
        let wrong_rank = |m: &Self, at_least: bool| {
            err(
                blame,
                format!(
                    "expected a shape of rank {}{fixed}, found `{}`",
                    if at_least { "at least " } else { "" },
                    m.cx.tcx_ref().show_shape(s)
                ),
            )
        };
        let base = dims.start;
        let mut step = Step::Done;
        match splice {
            None => {
                if rank != fixed {
                    return Err(wrong_rank(self, false));
                }
                for (k, item) in items.iter().enumerate() {
                    let (Item::Dim(t) | Item::Splice(t)) = item;
                    let d = Value::Dim(self.scratch.dims[base + k]);
                    step = step.and(self.match_value(d, t, blame, Some(k))?);
                }
            }
            Some(at) => {
                if rank < fixed {
                    return Err(wrong_rank(self, true));
                }
                let after = items.len() - at - 1;
                for (k, item) in items.iter().enumerate() {
                    step = step.and(match item {
                        Item::Splice(t) => {
                            let middle = &self.scratch.dims[base + at..base + rank - after];
                            let middle = self.cx.tcx().shape(middle);
                            self.match_value(Value::Shape(middle), t, blame, None)?
                        }
                        Item::Dim(t) => {
                            let j = if k < at { k } else { rank - (items.len() - k) };
                            let d = Value::Dim(self.scratch.dims[base + j]);
                            self.match_value(d, t, blame, Some(j))?
                        }
                    });
                }
            }
        }
        Ok(step)
    }

    pub(super) fn kind_clash(
        &self,
        expected: &str,
        found: Value,
        blame: Option<usize>,
    ) -> RelError {
        err(
            blame,
            format!(
                "expected {expected}, found {} `{}`",
                found.kind_name(),
                found.show(self.cx.tcx_ref())
            ),
        )
    }

    /// The argument a term's first variable with a known origin comes from.
    pub(super) fn blame_of(&self, t: &'static Term) -> Option<usize> {
        let mut found = None;
        visit_vars(t, &mut |v| {
            if found.is_none() {
                found = self.scratch.slots[v as usize].origin;
            }
        });
        found
    }

    // ----- unification and comparison -----
}
