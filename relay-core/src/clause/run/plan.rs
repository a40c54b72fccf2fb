//! The fast path: a clause compiled (at its first run) into a linear list of
//! instructions over registers, for the common run where every step succeeds on the
//! first try in source order (the inputs are known, the outputs are computed).
//!
//! The instructions are exactly what the general interpreter's first pass does when no
//! step waits: the same bindings, the same unifications, in the same order, with
//! every decision that depends only on the clause (is this pattern computable here? is
//! this side of the equation the known one?) taken once, at compile time. Anything
//! else (an unknown argument, a goal that cannot be decided yet, an error) *aborts*
//! the fast path, and the general interpreter runs the clause from the start: what the
//! fast path did before is what the general interpreter does first too (unifications
//! are idempotent), and it reports the same errors with the same blame, as only it
//! keeps track of where values come from. A clause whose single in-order pass cannot
//! succeed (a goal that uses a variable a later goal defines, two splices in one list
//! pattern) has no plan and always runs in the general interpreter.

use super::*;
use std::sync::OnceLock;

/// The compiled fast path of a clause, computed at its first run. Part of every
/// [`Clause`] (its `plan` field): `PlanCell::new()`.
pub struct PlanCell(OnceLock<Option<Plan>>);

impl PlanCell {
    /// An empty cell, for a clause's static initializer.
    pub const fn new() -> Self {
        PlanCell(OnceLock::new())
    }

    pub(super) fn get(&self, clause: &'static Clause) -> Option<&Plan> {
        self.0.get_or_init(|| Plan::compile(clause)).as_ref()
    }
}

impl Default for PlanCell {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for PlanCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(Some(p)) => write!(f, "PlanCell({} ops)", p.ops.len()),
            Some(None) => f.write_str("PlanCell(none)"),
            None => f.write_str("PlanCell(not compiled)"),
        }
    }
}

/// A register: the plan's registers are the arguments, then the clause's variables,
/// then temporaries.
pub(super) type Reg = u16;

#[derive(Copy, Clone, Debug)]
pub(super) enum Op {
    /// Binds variable `var` (its register is `dst`, not bound yet) to the value in
    /// `src`; with `slot`, in its slot too (a term the plan evaluates reads it there).
    Bind {
        src: Reg,
        var: u16,
        dst: Reg,
        slot: bool,
    },
    /// Unifies the values in `a` and `b` (`a` the pattern's, computed, side first).
    Same { a: Reg, b: Reg },
    /// Computes `term` (every variable in it is bound) into `dst`.
    Eval { term: &'static Term, dst: Reg },
    /// Builds the tensor type of the shape in `shape` and the dtype in `dtype`.
    MkTensor { shape: Reg, dtype: Reg, dst: Reg },
    /// Takes the tensor type in `src` apart into `shape` and `dtype`.
    Tensor { src: Reg, shape: Reg, dtype: Reg },
    /// Takes the tuple type in `src` (of `len` fields) apart into `first..first + len`.
    Tuple { src: Reg, first: Reg, len: u16 },
    /// Takes the shape in `src` apart: `before` dimensions, then (with `splice`) the
    /// shape of the middle, then `after` dimensions, into registers from `first`.
    List {
        src: Reg,
        first: Reg,
        before: u16,
        after: u16,
        splice: bool,
    },
    /// A condition that must hold now.
    Check(&'static Goal),
    /// Goes on when `cond` holds, to instruction `to` when it does not.
    Branch { cond: &'static Term, to: u16 },
    /// Goes to instruction `to`.
    Jump(u16),
    /// Dimension `index` (negative from the end) of the shape in `shape`: `s[1]`.
    DimAt { shape: Reg, index: i32, dst: Reg },
    /// The condition `len(s) op k` on the shape in `shape`.
    CheckRank { shape: Reg, op: Cmp, k: i64 },
    /// `broadcast(a, b)` of the shapes in `a` and `b`.
    Broadcast { a: Reg, b: Reg, dst: Reg },
    /// Builds the shape of the items `items[start..start + len]` of the plan into `dst`.
    MkList { start: u16, len: u16, dst: Reg },
    /// Goes on when attribute `attr` passes `test`, to instruction `to` when it does not:
    /// `if attrs.units != None`, `if attrs.transpose_a`.
    BranchAttr { attr: u16, test: AttrTest, to: u16 },
}

/// What [`Op::BranchAttr`] asks of an attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum AttrTest {
    /// `attrs.x == None`.
    Absent,
    /// `attrs.x != None`.
    Present,
    /// `attrs.x` (a bool).
    True,
}

/// An item of a list built by [`Op::MkList`].
#[derive(Copy, Clone, Debug)]
pub(super) enum ListOp {
    /// The dimension in a register.
    Dim(Reg),
    /// The dimensions of the shape in a register.
    Splice(Reg),
    /// `..s[lo..hi]`: the dimensions of a part of the shape in a register (Python's
    /// bounds, `None` for an end).
    Slice(Reg, Option<i32>, Option<i32>),
}

/// A computed value the plan keeps in a register, to compute it once.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Key {
    Attr(u16),
    DimAt(Reg, i32),
}

/// A clause's fast path.
pub(super) struct Plan {
    pub(super) ops: Vec<Op>,
    /// Whether a term the plan evaluates reads a variable (in its slot): the slots must
    /// be cleared before the plan runs.
    pub(super) slots: bool,
    /// The items of the lists the plan builds.
    pub(super) items: Vec<ListOp>,
    /// The number of registers.
    pub(super) regs: usize,
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
    match t {
        Term::Wild => true,
        Term::Var(_)
        | Term::Int(_)
        | Term::Bool(_)
        | Term::DType(..)
        | Term::Attr(_)
        | Term::IsNone(_)
        | Term::Str(_)
        | Term::Float(_)
        | Term::StrCmp(..)
        | Term::FloatCmp(..) => false,
        Term::Tensor(a, b)
        | Term::Index(a, b)
        | Term::Arith(_, a, b)
        | Term::Cmp(_, a, b)
        | Term::Broadcast(a, b) => has_wild(a) || has_wild(b),
        Term::Tuple(ts) | Term::Rust(_, ts) => ts.iter().any(has_wild),
        Term::List(items) => items.iter().any(|i| match i {
            Item::Dim(t) | Item::Splice(t) => has_wild(t),
        }),
        Term::Slice(s, a, b) => has_wild(s) || a.is_some_and(has_wild) || b.is_some_and(has_wild),
        Term::Neg(a)
        | Term::Prod(a)
        | Term::Sum(a)
        | Term::Len(a)
        | Term::Reverse(a)
        | Term::Distinct(a) => has_wild(a),
        Term::Gather(a, b)
        | Term::Repeat(a, b)
        | Term::As(a, b)
        | Term::And(a, b)
        | Term::Or(a, b) => has_wild(a) || has_wild(b),
        Term::Not(a) => has_wild(a),
    }
}

impl Plan {
    fn compile(clause: &'static Clause) -> Option<Plan> {
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
            let term = match op {
                Op::Eval { term, .. } | Op::Branch { cond: term, .. } => *term,
                Op::Check(Goal::Check { cond, .. }) => cond,
                _ => continue,
            };
            visit_vars(term, &mut |v| read[v as usize] = true);
        }
        for op in &mut c.ops {
            if let Op::Bind { var, slot, .. } = op {
                *slot = read[*var as usize];
            }
        }
        Some(Plan {
            slots: read.contains(&true),
            items: c.items,
            ops: c.ops,
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
                    match cond {
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
                self.ops.push(Op::Eval { term: t, dst });
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
                let first = self.temps(fields.len());
                self.ops.push(Op::Tuple {
                    src,
                    first,
                    len: fields.len() as u16,
                });
                for (k, f) in fields.iter().enumerate() {
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

impl Machine<'_, '_> {
    /// Runs `plan`: `true` when every instruction succeeded (the clause is solved),
    /// `false` when the general interpreter must run the clause.
    pub(super) fn run_plan(&mut self, plan: &Plan) -> bool {
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
                Op::Tuple { src, first, len } => {
                    let Value::Ty(t) = self.scratch.regs[src as usize] else {
                        return false;
                    };
                    let t = self.cx.resolve(t);
                    match self.cx.solver.tcx.data(t) {
                        TyData::Tuple(tys) if tys.len() == len as usize => {
                            let regs = &mut self.scratch.regs[first as usize..];
                            for (r, &ty) in regs.iter_mut().zip(tys.iter()) {
                                *r = Value::Ty(ty);
                            }
                            true
                        }
                        _ => false,
                    }
                }
                Op::List {
                    src,
                    first,
                    before,
                    after,
                    splice,
                } => self.plan_list(src, first, before as usize, after as usize, splice),
                Op::Check(Goal::Check { cond, .. }) => self.holds(cond),
                Op::Check(_) => false,
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
        if let Term::Cmp(op, a, b) = cond {
            if self.is_int_term(a) && self.is_int_term(b) {
                return matches!(
                    (self.eval_int(a, None), self.eval_int(b, None)),
                    (Ok(Some(x)), Ok(Some(y))) if op.holds(x, y)
                );
            }
            let (Ok(Some(x)), Ok(Some(y))) = (self.eval(a, None), self.eval(b, None)) else {
                return false;
            };
            return matches!(self.compare(*op, x, y, "", None), Ok(Some(true)));
        }
        matches!(self.eval(cond, None), Ok(Some(Value::Bool(true))))
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
