//! Matching a known value against a pattern or constructor term, binding what the
//! term's variables stand for.

use super::*;

impl Machine<'_, '_> {
    /// `value = pattern` where the pattern cannot be computed: bind, destructure or wait.
    pub(super) fn matches(
        &mut self,
        value: Value,
        pattern: &'static Term,
        blame: Option<usize>,
    ) -> Result<Step, RelError> {
        match pattern {
            Term::Var(i) => {
                let i = *i as usize;
                let slot = &mut self.scratch.slots[i];
                match slot.val {
                    Some(old) => self.unify(old, value, blame)?,
                    None => {
                        slot.val = Some(value);
                        slot.origin = blame;
                    }
                }
                Ok(Step::Done)
            }
            Term::Wild => Ok(Step::Done),
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
                        Ok(self.split([
                            sub(Value::Shape(shape), s, blame),
                            sub(Value::DType(dtype), d, blame),
                        ]))
                    }
                    TyData::Var(_) => Ok(Step::Wait),
                    _ => Err(err(
                        blame,
                        format!("expected a tensor, found `{}`", self.cx.show(t)),
                    )),
                }
            }
            Term::Tuple(fields) => {
                let Value::Ty(t) = value else {
                    return Err(self.kind_clash("a tuple", value, blame));
                };
                let t = self.cx.resolve(t);
                match self.cx.data(t) {
                    TyData::Tuple(tys) if tys.len() == fields.len() => {
                        let base = self.scratch.stack.len();
                        for (&ty, f) in tys.iter().zip(fields.iter()) {
                            self.scratch.stack.push(sub(Value::Ty(ty), f, blame));
                        }
                        self.scratch.stack[base..].reverse();
                        Ok(Step::Split)
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
                self.match_list(s, &dims, items, blame)
            }
            // A computation whose inputs are unknown, or a literal: wait.
            _ => Ok(Step::Wait),
        }
    }

    /// The dimensions `dims` of shape `s` against the list pattern `items`.
    pub(super) fn match_list(
        &mut self,
        s: Shape,
        dims: &[Dim],
        items: &'static [Item],
        blame: Option<usize>,
    ) -> Result<Step, RelError> {
        let splices: Vec<usize> = (0..items.len())
            .filter(|&i| matches!(items[i], Item::Splice(_)))
            .collect();
        let fixed = items.len() - splices.len();
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
        match splices.as_slice() {
            [] => {
                if dims.len() != fixed {
                    return Err(wrong_rank(self, false));
                }
                Ok(self.split(
                    dims.iter()
                        .zip(items.iter())
                        .enumerate()
                        .map(|(k, (&d, item))| match item {
                            Item::Dim(t) | Item::Splice(t) => dim_sub(d, k, t, blame),
                        }),
                ))
            }
            [at] => {
                if dims.len() < fixed {
                    return Err(wrong_rank(self, true));
                }
                let at = *at;
                let after = items.len() - at - 1;
                let middle = &dims[at..dims.len() - after];
                let middle = self.cx.tcx().shape(middle);
                Ok(
                    self.split(items.iter().enumerate().map(|(k, item)| match item {
                        Item::Splice(t) => sub(Value::Shape(middle), t, blame),
                        Item::Dim(t) if k < at => dim_sub(dims[k], k, t, blame),
                        Item::Dim(t) => {
                            let j = dims.len() - (items.len() - k);
                            dim_sub(dims[j], j, t, blame)
                        }
                    })),
                )
            }
            // Several unknown splices: their lengths are not determined.
            _ => Ok(Step::Wait),
        }
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
