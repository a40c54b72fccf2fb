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

mod compile;
mod exec;

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
    /// Takes the tuple type in `src` apart: `before` fields, then (with `rest`) the tuple
    /// of the middle ones, then `after` fields, into registers from `first`.
    Tuple {
        src: Reg,
        first: Reg,
        before: u16,
        after: u16,
        rest: bool,
    },
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
    /// A loop (a [`Goal::For`]) of conditions, and of `if`s and loops of them, that must
    /// hold now for every item.
    For(&'static Goal),
    /// Goes on when `cond` holds, to instruction `to` when it does not.
    Branch { cond: &'static Term, to: u16 },
    /// Goes to instruction `to`.
    Jump(u16),
    /// Dimension `index` (negative from the end) of the shape in `shape`: `s[1]`.
    DimAt { shape: Reg, index: i32, dst: Reg },
    /// The condition `len(s) op k` on the shape in `shape`.
    CheckRank { shape: Reg, op: Cmp, k: i64 },
    /// The integer attribute `attr` as a dimension (its default when not given).
    AttrDim { attr: u16, dst: Reg },
    /// The condition `attrs.name op k` on the integer attribute `attr`.
    CheckAttr { attr: u16, op: Cmp, k: i64 },
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
