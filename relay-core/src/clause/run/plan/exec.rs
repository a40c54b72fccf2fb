//! Running a plan: each instruction on the registers, until one gives up.

use super::*;

impl Machine<'_, '_> {
    /// Runs `plan`: `true` when every instruction succeeded (the clause is solved),
    /// `false` when the general interpreter must run the clause.
    pub(in crate::clause::run) fn run_plan(&mut self, plan: &Plan) -> bool {
        let regs = &mut self.scratch.regs;
        if regs.len() < plan.regs {
            regs.resize(plan.regs, Value::Bool(false));
        }
        for (r, &arg) in regs.iter_mut().zip(self.cx.args.iter()) {
            *r = Value::Ty(arg);
        }
        let mut pc = 0;
        while let Some(&op) = plan.ops.get(pc) {
            pc += 1;
            let ok = match op {
                Op::Branch { cond, to } => match self.eval(cond, None) {
                    Ok(Some(Value::Bool(true))) => true,
                    Ok(Some(Value::Bool(false))) => {
                        pc = to as usize;
                        true
                    }
                    _ => false,
                },
                Op::Jump(to) => {
                    pc = to as usize;
                    true
                }
                Op::DimAt { shape, index, dst } if self.plan_is_tuple(shape) => {
                    self.plan_field(shape, index, dst)
                }
                Op::DimAt { shape, index, dst } => match self.plan_dims(shape) {
                    Some(dims) => {
                        let rank = dims.len() as i64;
                        let k = if index < 0 {
                            index as i64 + rank
                        } else {
                            index as i64
                        };
                        if (0..rank).contains(&k) {
                            let d = dims[k as usize];
                            self.scratch.regs[dst as usize] = Value::Dim(d);
                            true
                        } else {
                            false
                        }
                    }
                    None => false,
                },
                Op::Broadcast { a, b, dst } => self.plan_broadcast(a, b, dst),
                Op::AttrDim { attr, dst } => match self.int_attr(attr) {
                    Some(c) => {
                        let d = self.cx.solver.tcx.dims.konst(c);
                        self.scratch.regs[dst as usize] = Value::Dim(d);
                        true
                    }
                    None => false,
                },
                Op::CheckAttr { attr, op, k } => {
                    self.int_attr(attr).is_some_and(|c| op.holds(c, k))
                }
                Op::MkList { start, len, dst } => {
                    let items = &plan.items[start as usize..(start + len) as usize];
                    self.plan_mk_list(items, dst)
                }
                Op::BranchAttr { attr, test, to } => match self.attr_test(attr, test) {
                    Some(true) => true,
                    Some(false) => {
                        pc = to as usize;
                        true
                    }
                    None => false,
                },
                Op::CheckRank { shape, op, k } if self.plan_is_tuple(shape) => {
                    let Value::Ty(t) = self.scratch.regs[shape as usize] else {
                        return false;
                    };
                    matches!(self.as_tuple(t, None), Ok(Some((_, n))) if op.holds(n as i64, k))
                }
                Op::CheckRank { shape, op, k } => match self.plan_dims(shape) {
                    Some(dims) => op.holds(dims.len() as i64, k),
                    None => false,
                },
                Op::Bind {
                    src,
                    var,
                    dst,
                    slot,
                } => {
                    let v = self.scratch.regs[src as usize];
                    self.scratch.regs[dst as usize] = v;
                    if slot {
                        self.scratch.slots[var as usize].val = Some(v);
                    }
                    true
                }
                Op::Same { a, b } => {
                    let (x, y) = (self.scratch.regs[a as usize], self.scratch.regs[b as usize]);
                    x == y
                        || match (x, y) {
                            (Value::Ty(x), Value::Ty(y)) => self.cx.solver.unify(x, y).is_ok(),
                            _ => self.unify(x, y, None).is_ok(),
                        }
                }
                Op::Eval { term, dst } => match self.eval(term, None) {
                    Ok(Some(v)) => {
                        self.scratch.regs[dst as usize] = v;
                        true
                    }
                    _ => false,
                },
                Op::MkTensor { shape, dtype, dst } => {
                    let regs = &mut self.scratch.regs;
                    match (regs[shape as usize], regs[dtype as usize]) {
                        (Value::Shape(s), Value::DType(d)) => {
                            regs[dst as usize] = Value::Ty(self.cx.solver.tcx.tensor(s, d));
                            true
                        }
                        _ => false,
                    }
                }
                Op::Tensor { src, shape, dtype } => {
                    let Value::Ty(t) = self.scratch.regs[src as usize] else {
                        return false;
                    };
                    let t = self.cx.resolve(t);
                    match *self.cx.data(t) {
                        TyData::Tensor(s, d) => {
                            self.scratch.regs[shape as usize] = Value::Shape(s);
                            self.scratch.regs[dtype as usize] = Value::DType(d);
                            true
                        }
                        _ => false,
                    }
                }
                Op::Tuple {
                    src,
                    first,
                    before,
                    after,
                    rest,
                } => self.plan_tuple(src, first as usize, before as usize, after as usize, rest),
                Op::List {
                    src,
                    first,
                    before,
                    after,
                    splice,
                } => self.plan_list(src, first, before as usize, after as usize, splice),
                Op::Check(Goal::Check { cond, .. }) => self.holds(cond),
                Op::Check(_) => false,
                Op::For(goal) => self.plan_for(goal),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// `broadcast` of the shapes in registers `a` and `b` into `dst`, as the general
    /// interpreter computes it; `false` when it waits or fails (it reports).
    fn plan_broadcast(&mut self, a: Reg, b: Reg, dst: Reg) -> bool {
        let (Value::Shape(s1), Value::Shape(s2)) =
            (self.scratch.regs[a as usize], self.scratch.regs[b as usize])
        else {
            return false;
        };
        let s1 = self.resolve_shape(s1);
        let s2 = self.resolve_shape(s2);
        let tcx = &self.cx.solver.tcx;
        let rank0 = |s: Shape| tcx.shape_dims(s).is_some_and(|d| d.is_empty());
        let out = if s1 == s2 || rank0(s2) {
            s1
        } else if rank0(s1) {
            s2
        } else {
            let (ShapeData::Dims(x), ShapeData::Dims(y)) = (tcx.shape_data(s1), tcx.shape_data(s2))
            else {
                return false;
            };
            match broadcast(&tcx.dims, x, y) {
                Ok(Some(dims)) => self.cx.solver.tcx.shape(&dims),
                _ => return false,
            }
        };
        self.scratch.regs[dst as usize] = Value::Shape(out);
        true
    }

    /// Builds the shape of `items` into register `dst`; `false` when an item is not known
    /// or not of its kind.
    fn plan_mk_list(&mut self, items: &[ListOp], dst: Reg) -> bool {
        let base = self.scratch.dims.len();
        let ok = self.plan_push_items(items);
        if ok {
            let s = self.cx.solver.tcx.shape(&self.scratch.dims[base..]);
            self.scratch.regs[dst as usize] = Value::Shape(s);
        }
        self.scratch.dims.truncate(base);
        ok
    }

    fn plan_push_items(&mut self, items: &[ListOp]) -> bool {
        for item in items {
            match *item {
                ListOp::Dim(r) => match self.scratch.regs[r as usize] {
                    Value::Dim(d) => self.scratch.dims.push(d),
                    _ => return false,
                },
                ListOp::Splice(r) | ListOp::Slice(r, ..) => {
                    let Value::Shape(s) = self.scratch.regs[r as usize] else {
                        return false;
                    };
                    let s = self.resolve_shape(s);
                    let ShapeData::Dims(d) = self.cx.solver.tcx.shape_data(s) else {
                        return false;
                    };
                    let part = match *item {
                        ListOp::Slice(_, lo, hi) => {
                            let n = d.len() as i64;
                            let at = |b: Option<i32>, dflt: i64| match b {
                                None => dflt,
                                Some(i) => {
                                    let i = i as i64;
                                    (if i < 0 { i + n } else { i }).clamp(0, n)
                                }
                            };
                            let (lo, hi) = (at(lo, 0), at(hi, n));
                            &d[lo as usize..hi.max(lo) as usize]
                        }
                        _ => d,
                    };
                    self.scratch.dims.extend_from_slice(part);
                }
            }
        }
        true
    }

    /// The value of the integer attribute `attr`, given or by default (`None` for
    /// anything else: the general interpreter reports it).
    fn int_attr(&self, attr: u16) -> Option<i64> {
        let decl = &self.clause.attrs[attr as usize];
        match (self.cx.attrs().get(decl.name), &decl.default) {
            (Some(AttrValue::Int(c)), _) => Some(*c),
            (None | Some(AttrValue::None), Some(Term::Int(c))) => Some(*c),
            _ => None,
        }
    }

    /// Whether attribute `attr` passes `test` (`None`: a value of the wrong type, which
    /// the general interpreter reports).
    fn attr_test(&self, attr: u16, test: AttrTest) -> Option<bool> {
        let decl = &self.clause.attrs[attr as usize];
        let given = self.cx.attrs().get(decl.name);
        let none = match given {
            None => decl.default.is_none(),
            Some(v) => matches!(v, AttrValue::None),
        };
        match test {
            AttrTest::Absent => Some(none),
            AttrTest::Present => Some(!none),
            AttrTest::True => match (given, &decl.default) {
                (Some(AttrValue::Bool(b)), _) => Some(*b),
                (None | Some(AttrValue::None), Some(Term::Bool(b))) => Some(*b),
                _ => None,
            },
        }
    }

    /// The dimensions of the shape in register `r`, when it is a shape of known rank.
    /// Whether register `r` holds a type (a tuple, for `len(fs)` and `fs[i]`), not a shape.
    fn plan_is_tuple(&self, r: Reg) -> bool {
        matches!(self.scratch.regs[r as usize], Value::Ty(_))
    }

    /// [`Op::DimAt`] on a tuple: field `index` (negative from the end) into `dst`.
    fn plan_field(&mut self, r: Reg, index: i32, dst: Reg) -> bool {
        let Value::Ty(t) = self.scratch.regs[r as usize] else {
            return false;
        };
        let Ok(Some((t, n))) = self.as_tuple(t, None) else {
            return false;
        };
        match self.field_at(t, n, i64::from(index)) {
            Some(field) => {
                self.scratch.regs[dst as usize] = Value::Ty(field);
                true
            }
            None => false,
        }
    }

    /// [`Op::Tuple`]: the fields of the tuple in `src` into registers from `first`.
    fn plan_tuple(
        &mut self,
        src: Reg,
        first: usize,
        before: usize,
        after: usize,
        rest: bool,
    ) -> bool {
        let Value::Ty(t) = self.scratch.regs[src as usize] else {
            return false;
        };
        let t = self.cx.resolve(t);
        let n = match self.cx.data(t) {
            TyData::Tuple(tys) => tys.len(),
            _ => return false,
        };
        if n < before + after || !rest && n != before {
            return false;
        }
        for k in 0..before {
            self.scratch.regs[first + k] = Value::Ty(self.field(t, k));
        }
        for k in 0..after {
            let field = self.field(t, n - after + k);
            self.scratch.regs[first + before + 1 + k] = Value::Ty(field);
        }
        if rest {
            self.scratch.regs[first + before] = Value::Ty(self.middle(t, n, before, after));
        }
        true
    }

    fn plan_dims(&mut self, r: Reg) -> Option<&[Dim]> {
        let Value::Shape(s) = self.scratch.regs[r as usize] else {
            return None;
        };
        let s = self.resolve_shape(s);
        match self.cx.tcx_ref().shape_data(s) {
            ShapeData::Dims(d) => Some(d),
            _ => None,
        }
    }

    /// Whether the condition `cond` holds now (`false` when it does not, is undecided
    /// or fails: the general interpreter tells which, with the message).
    fn holds(&mut self, cond: &'static Term) -> bool {
        // Integers compare natively; anything else as the interpreter compares it.
        if let Term::Cmp(op, a, b) = cond {
            if self.is_int_term(a) && self.is_int_term(b) {
                return matches!(
                    (self.eval_int(a, None), self.eval_int(b, None)),
                    (Ok(Some(x)), Ok(Some(y))) if op.holds(x, y)
                );
            }
        }
        matches!(self.eval(cond, None), Ok(Some(Value::Bool(true))))
    }

    /// Whether the conditions of the loop `goal` hold for every dimension of what it
    /// goes over (`false` when one does not, is undecided or fails).
    fn plan_for(&mut self, goal: &'static Goal) -> bool {
        let Goal::For { var, src, body } = goal else {
            return false;
        };
        let base = self.scratch.dims.len();
        let Ok(Some(items)) = self.items(src, None) else {
            self.scratch.dims.truncate(base);
            return false;
        };
        let saved = self.scratch.slots[*var as usize].val;
        let mut ok = true;
        for j in 0..items.len() {
            self.scratch.slots[*var as usize].val = Some(self.item(&items, j));
            ok = self.plan_checks(body);
            if !ok {
                break;
            }
        }
        self.scratch.slots[*var as usize].val = saved;
        self.scratch.dims.truncate(base);
        ok
    }

    /// Whether the goals of a loop's body hold now: conditions, loops and `if`s of them.
    fn plan_checks(&mut self, goals: &'static [Goal]) -> bool {
        goals.iter().all(|g| match g {
            Goal::Check { cond, .. } => self.holds(cond),
            Goal::For { .. } => self.plan_for(g),
            Goal::If { cond, then, els } => match self.eval(cond, None) {
                Ok(Some(Value::Bool(true))) => self.plan_checks(then),
                Ok(Some(Value::Bool(false))) => self.plan_checks(els),
                _ => false,
            },
            // Binds nothing (the compiler made sure): it unifies or takes a value apart.
            Goal::Eq(l, r) | Goal::Unify { lhs: l, rhs: r, .. } => {
                matches!(self.equation(l, r, None), Ok(Step::Done))
            }
            _ => false,
        })
    }

    fn plan_list(
        &mut self,
        src: Reg,
        first: u16,
        before: usize,
        after: usize,
        splice: bool,
    ) -> bool {
        let Value::Shape(s) = self.scratch.regs[src as usize] else {
            return false;
        };
        let s = self.resolve_shape(s);
        let tcx = &mut self.cx.solver.tcx;
        let ShapeData::Dims(dims) = tcx.shape_data(s) else {
            return false;
        };
        let rank = dims.len();
        let first = first as usize;
        let temps = &mut self.scratch.regs;
        if splice {
            if rank < before + after {
                return false;
            }
            for k in 0..before {
                temps[first + k] = Value::Dim(dims[k]);
            }
            for k in 0..after {
                temps[first + before + 1 + k] = Value::Dim(dims[rank - after + k]);
            }
            let base = self.scratch.dims.len();
            self.scratch
                .dims
                .extend_from_slice(&dims[before..rank - after]);
            let middle = tcx.shape(&self.scratch.dims[base..]);
            self.scratch.dims.truncate(base);
            self.scratch.regs[first + before] = Value::Shape(middle);
        } else {
            if rank != before {
                return false;
            }
            for (k, &d) in dims.iter().enumerate() {
                temps[first + k] = Value::Dim(d);
            }
        }
        true
    }
}
