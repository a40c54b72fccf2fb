//! Compiling a clause into its plan: which steps are computed, which take a value apart,
//! and in which registers, decided once from the clause alone.

use super::*;

/// A computed value the plan keeps in a register, to compute it once.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Key {
    Attr(u16),
    DimAt(Reg, i32),
}

struct Compiler {
    clause: &'static Clause,
    items: Vec<ListOp>,
    /// Values computed so far on every path to here.
    memo: Vec<(Key, Reg)>,
    ops: Vec<Op>,
    /// The next free register.
    next: u16,
    /// The register of variable 0.
    vars: u16,
    bound: Vec<Bound>,
}

/// Whether a variable is bound at a point of the plan.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    No,
    Yes,
    /// In one branch of an `if` only: the plan cannot use it.
    Maybe,
}

/// `ops` without the instructions that do nothing (a variable taken apart into its own
/// register that no evaluated term reads), with the jumps retargeted.
fn without_nops(ops: Vec<Op>) -> Vec<Op> {
    let nop = |op: &Op| matches!(op, Op::Bind { src, dst, slot: false, .. } if src == dst);
    // The new index of each old one (and of the end).
    let mut at = Vec::with_capacity(ops.len() + 1);
    let mut n = 0u16;
    for op in &ops {
        at.push(n);
        n += u16::from(!nop(op));
    }
    at.push(n);
    ops.into_iter()
        .filter(|op| !nop(op))
        .map(|op| match op {
            Op::Branch { cond, to } => Op::Branch {
                cond,
                to: at[to as usize],
            },
            Op::BranchAttr { attr, test, to } => Op::BranchAttr {
                attr,
                test,
                to: at[to as usize],
            },
            Op::Jump(to) => Op::Jump(at[to as usize]),
            op => op,
        })
        .collect()
}

/// Whether a slice bound is absent or a literal that fits an `i32`.
fn bound(t: &Option<&'static Term>) -> bool {
    match t {
        None => true,
        Some(Term::Int(i)) => i32::try_from(*i).is_ok(),
        Some(_) => false,
    }
}

/// The literal of a slice bound that [`bound`] accepted.
fn int_of(t: &Option<&'static Term>) -> Option<i32> {
    match t {
        Some(Term::Int(i)) => Some(*i as i32),
        _ => None,
    }
}

/// Whether `t` can be computed once the variables in `bound` are: it has no `_` and
/// every variable in it is bound (what `eval` answers at run time).
fn computable(t: &'static Term, bound: &[Bound]) -> bool {
    let mut ok = !has_wild(t);
    visit_vars(t, &mut |v| ok &= bound[v as usize] == Bound::Yes);
    ok
}

fn has_wild(t: &'static Term) -> bool {
    let mut wild = matches!(t, Term::Wild);
    super::super::for_each_child(t, &mut |c| wild = wild || has_wild(c));
    wild
}

/// Calls `f` on every variable a goal of the plan reads in its slot: those of the terms
/// `eval` computes, and the variables local to comprehensions and loops (`eval` binds
/// them in their slots).
fn read_vars(op: &Op, f: &mut dyn FnMut(u16)) {
    let term = match op {
        Op::Eval { term, .. } | Op::Branch { cond: term, .. } => *term,
        Op::Check(Goal::Check { cond, .. }) => cond,
        Op::For(goal) => return goal_vars(goal, f),
        _ => return,
    };
    visit_vars(term, f);
    visit_locals(term, f);
}

/// [`read_vars`] of the checks of a loop.
fn goal_vars(goal: &'static Goal, f: &mut dyn FnMut(u16)) {
    match goal {
        Goal::Check { cond, .. } => {
            visit_vars(cond, f);
            visit_locals(cond, f);
        }
        Goal::If { cond, then, els } => {
            visit_vars(cond, f);
            visit_locals(cond, f);
            then.iter().chain(els.iter()).for_each(|g| goal_vars(g, f));
        }
        Goal::Eq(l, r) | Goal::Unify { lhs: l, rhs: r, .. } => {
            for t in [l, r] {
                visit_vars(t, f);
                visit_locals(t, f);
            }
        }
        Goal::For { var, src, body } => {
            f(*var);
            visit_vars(src, f);
            visit_locals(src, f);
            body.iter().for_each(|g| goal_vars(g, f));
        }
        _ => {}
    }
}

impl Plan {
    pub(super) fn compile(clause: &'static Clause) -> Option<Plan> {
        let (args, vars) = (clause.head.len() as u16, clause.vars.len() as u16);
        let mut c = Compiler {
            clause,
            items: Vec::new(),
            memo: Vec::new(),
            ops: Vec::new(),
            next: args + vars,
            vars: args,
            bound: vec![Bound::No; clause.vars.len()],
        };
        for (i, pattern) in clause.head.iter().enumerate() {
            c.pattern(i as u16, pattern)?;
        }
        c.goals(clause.body)?;
        // Only the variables a term read by `eval` mentions need their slots.
        let mut read = vec![false; clause.vars.len()];
        for op in &c.ops {
            read_vars(op, &mut |v| read[v as usize] = true);
        }
        for op in &mut c.ops {
            if let Op::Bind { var, slot, .. } = op {
                *slot = read[*var as usize];
            }
        }
        Some(Plan {
            slots: read.contains(&true),
            items: c.items,
            ops: without_nops(c.ops),
            regs: c.next as usize,
        })
    }
}

impl Compiler {
    fn goals(&mut self, goals: &'static [Goal]) -> Option<()> {
        for goal in goals {
            match goal {
                Goal::Eq(l, r) | Goal::Unify { lhs: l, rhs: r, .. } => {
                    let (lc, rc) = (computable(l, &self.bound), computable(r, &self.bound));
                    match (lc, rc) {
                        (true, true) => match (l, r) {
                            // A shape against a list of dimensions: its rank, then each
                            // dimension (no shape is built for the list).
                            (s, Term::List(items)) | (Term::List(items), s)
                                if !matches!(s, Term::List(_))
                                    && items.iter().all(|i| matches!(i, Item::Dim(_))) =>
                            {
                                let shape = self.value(s);
                                let k = items.len() as i64;
                                self.ops.push(Op::CheckRank {
                                    shape,
                                    op: Cmp::Eq,
                                    k,
                                });
                                for (i, item) in items.iter().enumerate() {
                                    let (Item::Dim(t) | Item::Splice(t)) = item;
                                    let a = self.dim_at(shape, i as i32);
                                    let b = self.value(t);
                                    self.ops.push(Op::Same { a, b });
                                }
                            }
                            _ => {
                                let (a, b) = (self.value(l), self.value(r));
                                self.ops.push(Op::Same { a, b });
                            }
                        },
                        (true, false) => {
                            let a = self.value(l);
                            self.destructure(a, r)?;
                        }
                        (false, true) => {
                            let b = self.value(r);
                            self.destructure(b, l)?;
                        }
                        (false, false) => return None,
                    }
                }
                Goal::Check { cond, .. } => {
                    if !computable(cond, &self.bound) {
                        return None;
                    }
                    let int_attr = |t: &Term| match t {
                        Term::Attr(i) if self.clause.attrs[*i as usize].ty == AttrType::Int => {
                            Some(*i)
                        }
                        _ => None,
                    };
                    match cond {
                        Term::Cmp(op, a, Term::Int(k)) if int_attr(a).is_some() => {
                            let attr = int_attr(a).unwrap_or(0);
                            self.ops.push(Op::CheckAttr {
                                attr,
                                op: *op,
                                k: *k,
                            });
                        }
                        Term::Cmp(op, Term::Len(s), Term::Int(k)) => {
                            let shape = self.value(s);
                            self.ops.push(Op::CheckRank {
                                shape,
                                op: *op,
                                k: *k,
                            });
                        }
                        Term::Cmp(op, Term::Int(k), Term::Len(s)) => {
                            let shape = self.value(s);
                            let op = match op {
                                Cmp::Lt => Cmp::Gt,
                                Cmp::Le => Cmp::Ge,
                                Cmp::Gt => Cmp::Lt,
                                Cmp::Ge => Cmp::Le,
                                other => *other,
                            };
                            self.ops.push(Op::CheckRank { shape, op, k: *k });
                        }
                        _ => self.ops.push(Op::Check(goal)),
                    }
                }
                Goal::If { cond, then, els } => {
                    if !computable(cond, &self.bound) {
                        return None;
                    }
                    let branch = self.ops.len();
                    let test = self.attr_test(cond);
                    self.ops.push(Op::Branch { cond, to: 0 });
                    let before = self.bound.clone();
                    let memo = self.memo.len();
                    self.goals(then)?;
                    self.memo.truncate(memo);
                    let after_then = std::mem::replace(&mut self.bound, before);
                    let jump = self.ops.len();
                    self.ops.push(Op::Jump(0));
                    let else_at = self.ops.len() as u16;
                    self.goals(els)?;
                    self.memo.truncate(memo);
                    let end = self.ops.len() as u16;
                    self.ops[branch] = match test {
                        Some((attr, test)) => Op::BranchAttr {
                            attr,
                            test,
                            to: else_at,
                        },
                        None => Op::Branch { cond, to: else_at },
                    };
                    self.ops[jump] = Op::Jump(end);
                    for (b, t) in self.bound.iter_mut().zip(after_then) {
                        if *b != t {
                            *b = Bound::Maybe;
                        }
                    }
                }
                // A loop of conditions (under `if`s too) is checked whole; one with
                // equations runs in the general interpreter.
                Goal::For { .. } => {
                    if !self.checks_only(goal) {
                        return None;
                    }
                    self.ops.push(Op::For(goal));
                }
                // A default applies only once nothing else can be learnt: the plan
                // skips it when its variable is bound here, and gives up otherwise.
                Goal::Default(v, _) => {
                    if self.bound[*v as usize] != Bound::Yes {
                        return None;
                    }
                }
            }
        }
        Some(())
    }

    /// Whether `goal`, a loop, holds only conditions (and loops of them) that can be
    /// computed here, with its variable bound.
    fn checks_only(&mut self, goal: &'static Goal) -> bool {
        let Goal::For { var, src, body } = goal else {
            return false;
        };
        if !computable(src, &self.bound) {
            return false;
        }
        let v = *var as usize;
        let before = std::mem::replace(&mut self.bound[v], Bound::Yes);
        let ok = self.all_checks(body);
        self.bound[v] = before;
        ok
    }

    /// Whether `goals` (of a loop) are conditions, equations that bind nothing, loops of
    /// them and `if`s of them that can be computed here.
    fn all_checks(&mut self, goals: &'static [Goal]) -> bool {
        goals.iter().all(|g| match g {
            Goal::Check { cond, .. } => computable(cond, &self.bound),
            Goal::Eq(l, r) | Goal::Unify { lhs: l, rhs: r, .. } => {
                let mut bound = true;
                visit_vars(l, &mut |v| bound &= self.bound[v as usize] == Bound::Yes);
                visit_vars(r, &mut |v| bound &= self.bound[v as usize] == Bound::Yes);
                bound && (computable(l, &self.bound) || computable(r, &self.bound))
            }
            Goal::For { .. } => self.checks_only(g),
            Goal::If { cond, then, els } => {
                computable(cond, &self.bound) && self.all_checks(then) && self.all_checks(els)
            }
            _ => false,
        })
    }

    fn temp(&mut self) -> Reg {
        self.temps(1)
    }

    fn temps(&mut self, n: usize) -> Reg {
        self.next += n as u16;
        self.next - n as u16
    }

    /// A condition on an attribute alone, tested without evaluating terms.
    fn attr_test(&self, cond: &'static Term) -> Option<(u16, AttrTest)> {
        match cond {
            Term::IsNone(i) => Some((*i, AttrTest::Absent)),
            Term::Cmp(Cmp::Eq, Term::IsNone(i), Term::Bool(false)) => Some((*i, AttrTest::Present)),
            Term::Attr(i) if self.clause.attrs[*i as usize].ty == AttrType::Bool => {
                Some((*i, AttrTest::True))
            }
            _ => None,
        }
    }

    fn memo(&self, key: Key) -> Option<Reg> {
        self.memo.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
    }

    /// The register of dimension `index` of the shape in `shape` (computed once).
    fn dim_at(&mut self, shape: Reg, index: i32) -> Reg {
        let key = Key::DimAt(shape, index);
        if let Some(r) = self.memo(key) {
            return r;
        }
        let dst = self.temp();
        self.ops.push(Op::DimAt { shape, index, dst });
        self.memo.push((key, dst));
        dst
    }

    /// Where the value of the computable term `t` will be.
    fn value(&mut self, t: &'static Term) -> Reg {
        match t {
            Term::Var(v) => self.vars + v,
            Term::Index(s, Term::Int(i)) if i32::try_from(*i).is_ok() => {
                let shape = self.value(s);
                self.dim_at(shape, *i as i32)
            }
            Term::List(items) => {
                let mut list = Vec::with_capacity(items.len());
                for item in items.iter() {
                    list.push(match item {
                        Item::Dim(t) => ListOp::Dim(self.value(t)),
                        Item::Splice(Term::Slice(s, lo, hi)) if bound(lo) && bound(hi) => {
                            ListOp::Slice(self.value(s), int_of(lo), int_of(hi))
                        }
                        Item::Splice(t) => ListOp::Splice(self.value(t)),
                    });
                }
                let start = self.items.len() as u16;
                self.items.extend(list);
                let dst = self.temp();
                self.ops.push(Op::MkList {
                    start,
                    len: items.len() as u16,
                    dst,
                });
                dst
            }
            Term::Broadcast(a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                let dst = self.temp();
                self.ops.push(Op::Broadcast { a, b, dst });
                dst
            }
            Term::Attr(i) => {
                if let Some(r) = self.memo(Key::Attr(*i)) {
                    return r;
                }
                let dst = self.temp();
                if self.clause.attrs[*i as usize].ty == AttrType::Int {
                    self.ops.push(Op::AttrDim { attr: *i, dst });
                } else {
                    self.ops.push(Op::Eval { term: t, dst });
                }
                self.memo.push((Key::Attr(*i), dst));
                dst
            }
            Term::Tensor(s, d) => {
                let (shape, dtype) = (self.value(s), self.value(d));
                let dst = self.temp();
                self.ops.push(Op::MkTensor { shape, dtype, dst });
                dst
            }
            _ => {
                let dst = self.temp();
                self.ops.push(Op::Eval { term: t, dst });
                dst
            }
        }
    }

    /// Where to take a part matched by `pattern` apart into: the register of a variable
    /// not bound yet (then matching it is nothing more), else a temporary.
    fn target(&mut self, pattern: &'static Term) -> Reg {
        match pattern {
            Term::Var(v) if self.bound[*v as usize] == Bound::No => self.vars + v,
            _ => self.temp(),
        }
    }

    /// `match_value(src, pattern)`: unify when computable, else take apart.
    fn pattern(&mut self, src: Reg, pattern: &'static Term) -> Option<()> {
        if let Term::As(v, p) = pattern {
            self.pattern(src, v)?;
            return self.pattern(src, p);
        }
        if let Term::Var(v) = pattern {
            if src == self.vars + v {
                // Taken apart into its own register: bound there.
                self.ops.push(Op::Bind {
                    src,
                    var: *v,
                    dst: src,
                    slot: true,
                });
                self.bound[*v as usize] = Bound::Yes;
                return Some(());
            }
        }
        if computable(pattern, &self.bound) {
            let a = self.value(pattern);
            self.ops.push(Op::Same { a, b: src });
            return Some(());
        }
        self.destructure(src, pattern)
    }

    /// `destructure(src, pattern)`, the pattern not computable.
    fn destructure(&mut self, src: Reg, pattern: &'static Term) -> Option<()> {
        match pattern {
            Term::Var(v) => {
                if self.bound[*v as usize] == Bound::Maybe {
                    return None;
                }
                let dst = self.vars + v;
                self.ops.push(Op::Bind {
                    src,
                    var: *v,
                    dst,
                    slot: true,
                });
                self.bound[*v as usize] = Bound::Yes;
            }
            Term::Wild => {}
            Term::As(v, p) => {
                self.pattern(src, v)?;
                self.pattern(src, p)?;
            }
            Term::Tensor(s, d) => {
                // A part that is a variable seen for the first time is taken apart
                // straight into the variable's register.
                let (shape, dtype) = (self.target(s), self.target(d));
                self.ops.push(Op::Tensor { src, shape, dtype });
                self.pattern(shape, s)?;
                self.pattern(dtype, d)?;
            }
            Term::Tuple(fields) => {
                let at = fields.iter().position(|f| matches!(f, Term::Rest(_)));
                let before = at.unwrap_or(fields.len()) as u16;
                let after = at.map_or(0, |a| fields.len() - a - 1) as u16;
                let first = self.temps(fields.len());
                self.ops.push(Op::Tuple {
                    src,
                    first,
                    before,
                    after,
                    rest: at.is_some(),
                });
                for (k, f) in fields.iter().enumerate() {
                    let f = match f {
                        Term::Rest(rest) => rest,
                        f => f,
                    };
                    self.pattern(first + k as u16, f)?;
                }
            }
            Term::List(items) => {
                let splices = items
                    .iter()
                    .filter(|i| matches!(i, Item::Splice(_)))
                    .count();
                if splices > 1 {
                    return None;
                }
                let at = items.iter().position(|i| matches!(i, Item::Splice(_)));
                let before = at.unwrap_or(items.len()) as u16;
                let after = at.map_or(0, |a| items.len() - a - 1) as u16;
                let first = self.temps(items.len());
                self.ops.push(Op::List {
                    src,
                    first,
                    before,
                    after,
                    splice: at.is_some(),
                });
                for (k, item) in items.iter().enumerate() {
                    let (Item::Dim(t) | Item::Splice(t)) = item;
                    self.pattern(first + k as u16, t)?;
                }
            }
            // A computation with an unknown input: the general interpreter waits.
            _ => return None,
        }
        Some(())
    }
}
