//! Relay expressions and modules, stored in arenas.
//!
//! Every expression, local variable and pattern of a [`Module`] lives in one of its
//! vectors and is named by a `u32` id, so a program of a million nodes is a few flat
//! arrays: no per-node allocation, no recursive drop, no pointer chasing. Local variables
//! are resolved when the module is built (each binder is its own [`VarId`]), so inference
//! never looks a name up.
//!
//! ```
//! use relay_core::expr::Module;
//! use relay_core::{DType, TyCtx};
//!
//! let mut tcx = TyCtx::new();
//! let mut m = Module::new();
//! let t = tcx.tensor_const(&[3], DType::FLOAT32);
//! let x = m.var("x", Some(t));
//! let body = m.var_ref(x);
//! let f = m.func(&[], &[x], None, body);
//! m.define("id3", f).unwrap();
//! assert_eq!(m.globals().len(), 1);
//! ```

use crate::adt::CtorRef;
use crate::attrs::Attrs;
use crate::fold::ParamValue;
use crate::kind::Param;
use crate::op::OpDef;
use crate::ty::Ty;
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub use crate::diag::Span;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The index in its arena.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// An expression of a [`Module`]: a node of its arena ([`Module::expr`]), or a
    /// compact mention of a local variable ([`ExprId::is_mention`]), which is not.
    ExprId
);

/// The bit of an [`ExprId`] that makes it a compact mention: the rest is its index in the
/// module's table of mentions.
const MENTION: u32 = 1 << 31;

impl ExprId {
    /// Whether this is a compact mention of a local variable: an argument of a call the
    /// parser read as `%name` (most arguments of a model), stored in eight bytes instead
    /// of an expression's 24. It is no node of the expression arena: read it with
    /// [`Module::mention`] and [`Module::span_of`], never [`Module::expr`]; its
    /// [`ExprId::index`] is past the end of every arena. It is what an
    /// [`ExprKind::Var`] of the same variable and span would be, and only ever appears
    /// in a call's argument list ([`Module::args`]; so also [`Module::list`] of a call's
    /// parts and [`Module::children`]).
    #[inline]
    pub fn is_mention(self) -> bool {
        self.0 & MENTION != 0
    }
}
id!(
    /// A local variable (a binder of a `let`, a function parameter or a pattern).
    VarId
);
id!(
    /// A global function of a [`Module`].
    GlobalId
);
id!(
    /// A pattern of a `match` arm.
    PatId
);

/// A local variable: its name and optional annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Where the name (without `%`) ends in the module's text of names; it starts where
    /// the previous variable's ends: [`Module::var_name`]. (Four bytes, not a start and a
    /// length: a million-variable module's table is 12 bytes a variable, not 28.)
    name_end: u32,
    /// The written type's id, or [`NO_ANN`] ([`VarDecl::ann`]: four bytes, not the eight
    /// of an `Option<Ty>`); its top bit, [`EMPTY_SPAN`], marks a binder whose span is
    /// empty.
    ann: u32,
    /// Where its binder starts: [`Module::var_span`]. A binder is mostly its `%name`,
    /// whose end the name gives.
    lo: u32,
}

/// The bit of [`VarDecl::ann`] marking an empty span.
const EMPTY_SPAN: u32 = 1 << 31;

/// No written type: the `ann` of a [`VarDecl`] without one (no type has this id: the
/// interner would need two billion types, some 32 GB).
const NO_ANN: u32 = EMPTY_SPAN - 1;

impl VarDecl {
    /// The written type, if any.
    #[inline]
    pub fn ann(&self) -> Option<Ty> {
        let a = self.ann & !EMPTY_SPAN;
        (a != NO_ANN).then_some(Ty(a))
    }
}

/// A function literal (also the body of a global).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The type parameters it binds.
    pub type_params: Box<[Param]>,
    /// Its parameters.
    pub params: Box<[VarId]>,
    /// The written result type, if any.
    pub ret: Option<Ty>,
    /// Where the text writes the result type (`-> T`'s `T`), if it is read from text.
    pub ret_span: Option<Span>,
    /// The body.
    pub body: ExprId,
    /// The attributes TVM writes among the parameters (`Primitive=1`,
    /// `Compiler="mrvl"`, `global_symbol="f"`): kept and printed, with no effect on types.
    pub attrs: Option<Arc<Attrs>>,
}

/// A `match` arm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    /// What it matches.
    pub pattern: PatId,
    /// What it evaluates to.
    pub body: ExprId,
}

/// A pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// `_`.
    Wildcard,
    /// `%x`: binds the value.
    Var(VarId),
    /// `Cons(p, q)`.
    Ctor(CtorRef, Box<[PatId]>),
    /// `(p, q)`.
    Tuple(Box<[PatId]>),
}

/// What an expression is.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A local variable.
    Var(VarId),
    /// A global function, as a value or a callee.
    Global(GlobalId),
    /// An operator, as a value or a callee.
    Op(&'static OpDef),
    /// A constructor, as a value or a callee.
    Ctor(CtorRef),
    /// A constant of the given type (a tensor literal: `1f`, `2i64`, `True`).
    Constant(Ty),
    /// `(a, b, ...)`.
    Tuple(ExprList),
    /// `e.i`.
    Proj(ExprId, u32),
    /// `let %x = value; body`. The text's parser gives it the span of its statement,
    /// `let %x = value;` (or `%x = value;`, or `value;` for a `_`), not of its body: a
    /// chain of a million has its spans set as it is read. Where its value is written is
    /// where its chain's result is ([`Module::tail`]).
    Let {
        var: VarId,
        value: ExprId,
        body: ExprId,
    },
    /// `callee[type_args](args, attrs)`: the callee and then the arguments in one list
    /// ([`Module::callee`], [`Module::args`]), the attributes by their index in the
    /// module ([`Module::attrs`]); the explicit type arguments (`@plus<(10, 10)>(..)`,
    /// rare) are kept aside: [`Module::type_args`].
    Call {
        parts: ExprList,
        attrs: Option<AttrsId>,
    },
    /// `fn [..](..) -> R { .. }`.
    Func(Box<Function>),
    /// `if (c) { t } else { e }`.
    If(ExprId, ExprId, ExprId),
    /// `match (e) { .. }` (`complete: false` for `match?`).
    Match {
        scrutinee: ExprId,
        arms: ArmList,
        complete: bool,
    },
    /// `ref(e)`.
    RefNew(ExprId),
    /// `ref_read(e)`.
    RefRead(ExprId),
    /// `ref_write(r, v)`.
    RefWrite(ExprId, ExprId),
}

/// An expression and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// A global function definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalDef {
    /// The name, without `@`.
    pub name: Box<str>,
    /// Its function (an [`ExprKind::Func`]); `None` while only declared
    /// ([`Module::declare`] before [`Module::set_body`]).
    pub func: Option<ExprId>,
    /// Where it is defined.
    pub span: Span,
}

/// A global defined twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateGlobal {
    /// The name.
    pub name: Box<str>,
    /// The first definition.
    pub first: Span,
}

// An expression is three words: a million-operator program's arena stays small.
const _: () = assert!(std::mem::size_of::<Expr>() <= 24);

/// A compact mention of a local variable ([`ExprId::is_mention`]): the variable and the
/// first byte of `%name` (it ends after the name).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Mention {
    var: VarId,
    lo: u32,
}

/// The attributes of a call, by their index in the module: calls given the same shared
/// list (the parser shares lists written alike) share one index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttrsId(std::num::NonZeroU32);

/// The index of each attribute list of a module by its address (an address is no part
/// of what a module is: its `Debug` shows only how many there are).
#[derive(Clone, Default)]
struct AttrIds(FxHashMap<*const Attrs, AttrsId>);

impl std::fmt::Debug for AttrIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} lists", self.0.len())
    }
}

/// The arms of a `match`, stored in its module: read them with [`Module::arms`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArmList {
    start: u32,
    len: u32,
}
// And a variable twelve bytes.
const _: () = assert!(std::mem::size_of::<VarDecl>() <= 12);

/// A list of expressions (a call's arguments, a tuple's fields), stored in its module:
/// read it with [`Module::list`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExprList {
    start: u32,
    len: u32,
}

impl ExprList {
    /// How many expressions it holds.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether it holds none.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// A module: global functions over one arena of expressions, variables and patterns.
#[derive(Clone, Debug, Default)]
pub struct Module {
    exprs: Vec<Expr>,
    /// The compact mentions of variables ([`ExprId::is_mention`]), by their index.
    mentions: Vec<Mention>,
    /// The names of the variables, one after the other.
    names: String,
    /// The expressions of every [`ExprList`], one after the other.
    lists: Vec<ExprId>,
    /// The arms of every `match`, one after the other.
    arms: Vec<Arm>,
    /// The attribute lists of calls, by [`AttrsId`] (index + 1), and the index of each
    /// list by its address (kept alive here, so no other list takes it).
    attr_lists: Vec<Arc<Attrs>>,
    attr_ids: AttrIds,
    /// The explicit type arguments of the calls that have them.
    type_args: FxHashMap<ExprId, Box<[ParamValue]>>,
    /// The calls whose attributes were omitted with TVM's metadata section, typed by the
    /// type TVM printed on them: that type and the reference (rare).
    printed_types: FxHashMap<ExprId, (Ty, Box<str>)>,
    vars: Vec<VarDecl>,
    /// The end of each variable's span that is neither empty nor its `%name`
    /// ([`Module::var_span`]): few (a `_` bound to an expression statement).
    var_span_ends: FxHashMap<VarId, u32>,
    pats: Vec<Pattern>,
    /// Where each pattern is (the span current when it was built).
    pat_spans: Vec<Span>,
    globals: Vec<GlobalDef>,
    by_name: FxHashMap<Box<str>, GlobalId>,
    /// How many mentions of globals ([`ExprKind::Global`]) the arena holds.
    global_refs: u32,
    span: Span,
}

impl Module {
    /// An empty module.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the span given to the nodes built next (parsers set it before each node).
    pub fn at(&mut self, span: Span) -> &mut Self {
        self.span = span;
        self
    }

    fn new_list(&mut self, items: &[ExprId]) -> ExprList {
        let start = u32::try_from(self.lists.len()).expect("more than 4 billion list items");
        self.lists.extend_from_slice(items);
        ExprList {
            start,
            len: items.len() as u32,
        }
    }

    #[inline]
    fn push(&mut self, kind: ExprKind) -> ExprId {
        let id = ExprId(
            u32::try_from(self.exprs.len())
                .ok()
                .filter(|&i| i < MENTION)
                .expect("more than 2 billion expressions"),
        );
        self.exprs.push(Expr {
            kind,
            span: self.span,
        });
        id
    }

    // ----- reading -----

    /// The expression `e`, a node of the arena: not a compact mention
    /// ([`ExprId::is_mention`], which only a call's arguments can be), for which it
    /// panics. [`Module::mention`] and [`Module::span_of`] read any expression.
    #[inline]
    pub fn expr(&self, e: ExprId) -> &Expr {
        &self.exprs[e.0 as usize]
    }

    /// The variable `e` mentions, if it is a mention: a compact one
    /// ([`ExprId::is_mention`]) or an [`ExprKind::Var`].
    #[inline]
    pub fn mention(&self, e: ExprId) -> Option<VarId> {
        if let Some(m) = self.compact(e) {
            return Some(m.var);
        }
        match self.exprs[e.0 as usize].kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        }
    }

    /// The record of compact mention `e` ([`ExprId::is_mention`]): `None` for a node of
    /// the arena.
    #[inline]
    fn compact(&self, e: ExprId) -> Option<Mention> {
        e.is_mention()
            .then(|| self.mentions[(e.0 & !MENTION) as usize])
    }

    /// The variable of compact mention `e` ([`ExprId::is_mention`]), without looking at
    /// the arena: `None` for any node of it.
    #[inline]
    pub(crate) fn compact_mention(&self, e: ExprId) -> Option<VarId> {
        self.compact(e).map(|m| m.var)
    }

    /// Where expression `e` is: a node of the arena or a compact mention (`%name`, from
    /// its `%` to the end of the name).
    #[inline]
    pub fn span_of(&self, e: ExprId) -> Span {
        if let Some(m) = self.compact(e) {
            let len = self.name_range(m.var).len() as u32;
            return Span {
                lo: m.lo,
                hi: m.lo + 1 + len,
            };
        }
        self.exprs[e.0 as usize].span
    }

    /// The `let` nodes inside `root` (graph bindings included), in source order.
    pub fn lets(&self, root: ExprId) -> Vec<ExprId> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        let mut kids = Vec::new();
        while let Some(e) = stack.pop() {
            // A compact mention (a call's argument) is no node of the arena: no `let`.
            if e.is_mention() {
                continue;
            }
            if let ExprKind::Let { .. } = self.expr(e).kind {
                out.push(e);
            }
            kids.clear();
            self.children(e, &mut kids);
            stack.extend(kids.iter().rev());
        }
        out
    }

    /// Whether a `let` of value `value` binds its variable before the value (the value
    /// may mention it: a recursive closure, as TVM's loops print). TVM binds every `let`
    /// so; here, one whose value as written starts with a function literal (`fn (..) {..}`,
    /// or a call or projection of one), so that `let %x = add(%x, 1f)` still means the
    /// `%x` before it.
    pub fn let_binds_first(&self, mut value: ExprId) -> bool {
        loop {
            if value.is_mention() {
                return false;
            }
            value = match &self.expr(value).kind {
                ExprKind::Func(_) => return true,
                ExprKind::Call { parts, .. } => self.callee(*parts),
                ExprKind::Proj(base, _) => *base,
                _ => return false,
            };
        }
    }

    /// The expression whose value `e` has, past its `let`s: `e` itself unless it is a
    /// [`ExprKind::Let`], whose value is its body's (a chain's result). A type error about
    /// a value is shown there.
    pub fn tail(&self, mut e: ExprId) -> ExprId {
        while !e.is_mention() {
            match self.exprs[e.index()].kind {
                ExprKind::Let { body, .. } => e = body,
                _ => break,
            }
        }
        e
    }

    /// The variables of the compact mentions, in the order built.
    pub(crate) fn mentioned_vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.mentions.iter().map(|m| m.var)
    }

    /// The expressions of `list`.
    #[inline]
    pub fn list(&self, list: ExprList) -> &[ExprId] {
        &self.lists[list.start as usize..(list.start + list.len) as usize]
    }

    /// The callee of a call of `parts` ([`ExprKind::Call`]).
    #[inline]
    pub fn callee(&self, parts: ExprList) -> ExprId {
        self.lists[parts.start as usize]
    }

    /// The arguments of a call of `parts` ([`ExprKind::Call`]).
    #[inline]
    pub fn args(&self, parts: ExprList) -> &[ExprId] {
        &self.list(parts)[1..]
    }

    /// The attribute list `a` of a call ([`ExprKind::Call`]).
    #[inline]
    pub fn attrs(&self, a: Option<AttrsId>) -> Option<&Arc<Attrs>> {
        a.map(|a| &self.attr_lists[a.0.get() as usize - 1])
    }

    /// The arms of a `match` ([`ExprKind::Match`]).
    #[inline]
    pub fn arms(&self, arms: ArmList) -> &[Arm] {
        &self.arms[arms.start as usize..(arms.start + arms.len) as usize]
    }

    /// The explicit type arguments of call `e` (none for most calls).
    pub fn type_args(&self, e: ExprId) -> &[ParamValue] {
        self.type_args.get(&e).map_or(&[], |a| a)
    }

    /// The type TVM printed on call `e`, to be trusted because its attributes were
    /// omitted (`meta[relay.attrs.Conv2DAttrs][0]` without the metadata section), and
    /// the reference that stands for them; `None` for any other call.
    pub fn printed_type(&self, e: ExprId) -> Option<(Ty, &str)> {
        self.printed_types.get(&e).map(|(t, r)| (*t, &**r))
    }

    /// Types call `e` by `ty`, the type TVM printed on it, because its attributes, which
    /// `reference` stands for, were omitted: its operator's relation is not applied (see
    /// [`Module::printed_type`]).
    pub fn trust_printed_type(&mut self, e: ExprId, ty: Ty, reference: &str) {
        self.printed_types.insert(e, (ty, reference.into()));
    }

    /// Room for the nodes of a source text of `len` bytes (a guess: one expression per
    /// 16 bytes, one compact mention per 40, one variable per 40, a byte of names per 5),
    /// so that building a large module does not copy it as it grows. The reference
    /// workload at a million operators uses one expression per 33 bytes, one compact
    /// mention per 44, one variable per 46 and a byte of names per 6.0. Room reserved and
    /// not used costs no memory (the pages of a large allocation are mapped when first
    /// written), and growing past it does not copy with glibc (`mremap`), but it does
    /// with other allocators.
    pub fn reserve_for_source(&mut self, len: usize) {
        self.exprs.reserve(len / 16);
        self.mentions.reserve(len / 40);
        self.lists.reserve(len / 24);
        self.names.reserve(len / 5);
        self.vars.reserve(len / 40);
    }

    /// The name of variable `v`, without `%`.
    #[inline]
    pub fn var_name(&self, v: VarId) -> &str {
        &self.names[self.name_range(v)]
    }

    /// The name of variable `v`, as bytes (no check of character boundaries).
    #[inline]
    pub(crate) fn var_name_bytes(&self, v: VarId) -> &[u8] {
        &self.names.as_bytes()[self.name_range(v)]
    }

    /// Where variable `v`'s name is in `names`: from the end of the previous one's.
    #[inline]
    fn name_range(&self, v: VarId) -> std::ops::Range<usize> {
        let i = v.0 as usize;
        let end = self.vars[i].name_end as usize;
        let start = if i == 0 {
            0
        } else {
            self.vars[i - 1].name_end as usize
        };
        start..end
    }

    /// The variable `v`.
    pub fn var_decl(&self, v: VarId) -> &VarDecl {
        &self.vars[v.0 as usize]
    }

    /// Where variable `v` is bound (the span current when it was made).
    pub fn var_span(&self, v: VarId) -> Span {
        let d = &self.vars[v.0 as usize];
        let hi = if d.ann & EMPTY_SPAN != 0 {
            d.lo
        } else if let Some(&hi) = self.var_span_ends.get(&v) {
            hi
        } else {
            d.lo.saturating_add(1 + self.name_range(v).len() as u32)
        };
        Span { lo: d.lo, hi }
    }

    /// The pattern `p`.
    pub fn pattern(&self, p: PatId) -> &Pattern {
        &self.pats[p.0 as usize]
    }

    /// Where pattern `p` is.
    pub fn pat_span(&self, p: PatId) -> Span {
        self.pat_spans[p.0 as usize]
    }

    /// Pushes the sub-expressions of `e` onto `out`, in source order (a `match`'s arms
    /// by their bodies; patterns are not expressions). A call's arguments may be compact
    /// mentions ([`ExprId::is_mention`]), which have no sub-expressions and are not nodes
    /// of the arena: `e` may be one (it has none).
    pub fn children(&self, e: ExprId, out: &mut Vec<ExprId>) {
        if e.is_mention() {
            return;
        }
        match &self.expr(e).kind {
            ExprKind::Tuple(fields) => out.extend_from_slice(self.list(*fields)),
            ExprKind::Proj(t, _) | ExprKind::RefNew(t) | ExprKind::RefRead(t) => out.push(*t),
            ExprKind::Let { value, body, .. } => out.extend([*value, *body]),
            ExprKind::Call { parts, .. } => out.extend_from_slice(self.list(*parts)),
            ExprKind::Func(f) => out.push(f.body),
            ExprKind::If(c, t, f) => out.extend([*c, *t, *f]),
            ExprKind::RefWrite(r, v) => out.extend([*r, *v]),
            ExprKind::Match {
                scrutinee, arms, ..
            } => {
                out.push(*scrutinee);
                out.extend(self.arms(*arms).iter().map(|a| a.body));
            }
            ExprKind::Var(_)
            | ExprKind::Global(_)
            | ExprKind::Op(_)
            | ExprKind::Ctor(_)
            | ExprKind::Constant(_) => {}
        }
    }

    /// For each global (by index), the indices of the globals its body mentions, in the
    /// order met (repeats included). Linear in the module's size, and only a pass over the
    /// arena's tags when no expression mentions a global.
    pub fn global_callees(&self) -> Vec<Vec<usize>> {
        let mut callees = vec![Vec::new(); self.globals.len()];
        if self.global_refs == 0 {
            return callees;
        }
        // Which expressions have a mention of a global below them: an expression is built
        // after its sub-expressions, so one pass in arena order decides. The exception is
        // the `let` of a parser's chain, built before its body: it waits on a stack until
        // its body is decided (the next `let` of the chain, or the chain's result), and
        // counts as having one meanwhile (if a module were built otherwise, the walk
        // below would then go through it: slower, never wrong).
        let mut below = vec![false; self.exprs.len()];
        let mut kids = Vec::new();
        let mut waiting: Vec<(usize, usize)> = Vec::new();
        for i in 0..self.exprs.len() {
            if let ExprKind::Let { body, .. } = self.exprs[i].kind {
                if body.index() > i {
                    waiting.push((i, body.index()));
                    below[i] = true;
                    continue;
                }
            }
            below[i] = match self.exprs[i].kind {
                ExprKind::Global(_) => true,
                ExprKind::Var(_) | ExprKind::Op(_) | ExprKind::Ctor(_) | ExprKind::Constant(_) => {
                    false
                }
                _ => {
                    kids.clear();
                    self.children(ExprId(i as u32), &mut kids);
                    kids.iter()
                        .any(|k| !k.is_mention() && (k.index() >= i || below[k.index()]))
                }
            };
            // The `let`s whose bodies are now decided, innermost first.
            let mut decided = i;
            while let Some(&(l, body)) = waiting.last() {
                if body != decided {
                    break;
                }
                waiting.pop();
                let ExprKind::Let { value, .. } = self.exprs[l].kind else {
                    unreachable!("only `let`s wait")
                };
                // (A value after its `let`, which the parser does not build, counts as
                // having one.)
                let v = value.index();
                below[l] = below[body] || !value.is_mention() && (v >= l || below[v]);
                decided = l;
            }
        }
        let mut stack = Vec::new();
        for (i, g) in self.globals.iter().enumerate() {
            stack.extend(g.func.filter(|f| below[f.index()]));
            while let Some(e) = stack.pop() {
                match self.expr(e).kind {
                    ExprKind::Global(h) => callees[i].push(h.index()),
                    _ => {
                        let from = stack.len();
                        self.children(e, &mut stack);
                        let mut k = from;
                        for j in from..stack.len() {
                            if !stack[j].is_mention() && below[stack[j].index()] {
                                stack[k] = stack[j];
                                k += 1;
                            }
                        }
                        stack.truncate(k);
                    }
                }
            }
        }
        callees
    }

    /// Every global, in definition order.
    pub fn globals(&self) -> &[GlobalDef] {
        &self.globals
    }

    /// The global named `name`.
    pub fn global(&self, name: &str) -> Option<GlobalId> {
        self.by_name.get(name).copied()
    }

    /// The definition of `g`.
    pub fn global_def(&self, g: GlobalId) -> &GlobalDef {
        &self.globals[g.0 as usize]
    }

    /// How many expressions, variables and patterns the arenas hold (compact mentions,
    /// which are not in the expression arena, not counted: [`Module::mention_count`]).
    pub fn sizes(&self) -> (usize, usize, usize) {
        (self.exprs.len(), self.vars.len(), self.pats.len())
    }

    /// How many compact mentions ([`ExprId::is_mention`]) the module holds.
    pub fn mention_count(&self) -> usize {
        self.mentions.len()
    }

    // ----- building -----

    /// A new local variable (a binder: use [`Module::var_ref`] to mention it).
    pub fn var(&mut self, name: &str, ann: Option<Ty>) -> VarId {
        let id = VarId(u32::try_from(self.vars.len()).expect("more than 4 billion variables"));
        self.names.push_str(name);
        let name_end = u32::try_from(self.names.len()).expect("more than 4 GiB of names");
        let mut ann = ann.map_or(NO_ANN, |t| {
            assert!(t.0 < NO_ANN, "fewer than two billion types");
            t.0
        });
        let Span { lo, hi } = self.span;
        // `%name`, or empty, or an end kept aside.
        if hi == lo {
            ann |= EMPTY_SPAN;
        } else if u64::from(hi) != u64::from(lo) + 1 + name.len() as u64 {
            self.var_span_ends.insert(id, hi);
        }
        self.vars.push(VarDecl { name_end, ann, lo });
        id
    }

    /// A mention of local variable `v`.
    pub fn var_ref(&mut self, v: VarId) -> ExprId {
        self.push(ExprKind::Var(v))
    }

    /// A compact mention of local variable `v` ([`ExprId::is_mention`]), written
    /// `%name` from the start of the current span: for a call's argument list only.
    #[inline]
    pub(crate) fn var_mention(&mut self, v: VarId) -> ExprId {
        debug_assert_eq!(
            self.span.hi - self.span.lo,
            1 + self.name_range(v).len() as u32,
            "a mention spans `%name`"
        );
        let i = u32::try_from(self.mentions.len())
            .ok()
            .filter(|&i| i < MENTION)
            .expect("more than 2 billion mentions");
        self.mentions.push(Mention {
            var: v,
            lo: self.span.lo,
        });
        ExprId(i | MENTION)
    }

    /// Declares a global named `name` whose function is not built yet (for recursion and
    /// mutual recursion: mention it with [`Module::global_ref`], then [`Module::define`]).
    pub fn declare(&mut self, name: &str) -> Result<GlobalId, DuplicateGlobal> {
        if let Some(&g) = self.by_name.get(name) {
            return Err(DuplicateGlobal {
                name: name.into(),
                first: self.globals[g.0 as usize].span,
            });
        }
        Ok(self.shadow(name))
    }

    /// Declares a global named `name` that shadows an existing one of that name: later
    /// mentions of `name` resolve to the new global, while expressions already built keep
    /// the old one (a program's own `@map` over the prelude's, which keeps using its own).
    pub fn shadow(&mut self, name: &str) -> GlobalId {
        let g = GlobalId(self.globals.len() as u32);
        self.globals.push(GlobalDef {
            name: name.into(),
            func: None,
            span: self.span,
        });
        self.by_name.insert(name.into(), g);
        g
    }

    /// Gives global `g` its function.
    pub fn set_body(&mut self, g: GlobalId, func: ExprId) {
        self.globals[g.0 as usize].func = Some(func);
    }

    /// Declares and defines a global in one step.
    pub fn define(&mut self, name: &str, func: ExprId) -> Result<GlobalId, DuplicateGlobal> {
        let g = self.declare(name)?;
        self.set_body(g, func);
        Ok(g)
    }

    /// A mention of global `g`.
    pub fn global_ref(&mut self, g: GlobalId) -> ExprId {
        self.global_refs += 1;
        self.push(ExprKind::Global(g))
    }

    /// Makes the global mention `e` mention `g` instead, or, with `None`, an empty tuple
    /// (a name that resolved to nothing: the parser's forward mentions, decided at the end
    /// of their source).
    pub(crate) fn retarget_global(&mut self, e: ExprId, g: Option<GlobalId>) {
        let node = &mut self.exprs[e.0 as usize];
        debug_assert!(matches!(node.kind, ExprKind::Global(_)));
        node.kind = match g {
            Some(g) => ExprKind::Global(g),
            None => {
                self.global_refs -= 1;
                ExprKind::Tuple(ExprList { start: 0, len: 0 })
            }
        };
    }

    /// Operator `op` as an expression.
    pub fn op(&mut self, op: &'static OpDef) -> ExprId {
        self.push(ExprKind::Op(op))
    }

    /// Constructor `c` as an expression.
    pub fn ctor(&mut self, c: CtorRef) -> ExprId {
        self.push(ExprKind::Ctor(c))
    }

    /// A constant of type `ty`.
    pub fn constant(&mut self, ty: Ty) -> ExprId {
        self.push(ExprKind::Constant(ty))
    }

    /// A tuple.
    pub fn tuple(&mut self, fields: &[ExprId]) -> ExprId {
        let fields = self.new_list(fields);
        self.push(ExprKind::Tuple(fields))
    }

    /// The projection `e.index`.
    pub fn proj(&mut self, e: ExprId, index: u32) -> ExprId {
        self.push(ExprKind::Proj(e, index))
    }

    /// `let %var = value; body`.
    pub fn let_(&mut self, var: VarId, value: ExprId, body: ExprId) -> ExprId {
        self.push(ExprKind::Let { var, value, body })
    }

    /// Sets the body of `let_`, a [`ExprKind::Let`] built before its body (a parser's
    /// chain of `let`s, built as it is read).
    pub(crate) fn set_let_body(&mut self, let_: ExprId, e: ExprId) {
        if let ExprKind::Let { body, .. } = &mut self.exprs[let_.index()].kind {
            *body = e;
        }
    }

    /// A call.
    pub fn call(&mut self, callee: ExprId, args: &[ExprId]) -> ExprId {
        self.call_full(callee, args, None, &[])
    }

    /// A call with attributes and explicit type arguments.
    pub fn call_full(
        &mut self,
        callee: ExprId,
        args: &[ExprId],
        attrs: Option<Arc<Attrs>>,
        type_args: &[ParamValue],
    ) -> ExprId {
        let start = u32::try_from(self.lists.len()).expect("more than 4 billion list items");
        // Item by item: a call has a few arguments, fewer than a copy's call is worth.
        self.lists.push(callee);
        for &a in args {
            self.lists.push(a);
        }
        let parts = ExprList {
            start,
            len: args.len() as u32 + 1,
        };
        let attrs = attrs.map(|a| self.attrs_id(a));
        let e = self.push(ExprKind::Call { parts, attrs });
        if !type_args.is_empty() {
            self.type_args.insert(e, type_args.into());
        }
        e
    }

    /// The index of attribute list `a`: one per list, however many calls share it.
    fn attrs_id(&mut self, a: Arc<Attrs>) -> AttrsId {
        let key = Arc::as_ptr(&a);
        if let Some(&id) = self.attr_ids.0.get(&key) {
            return id;
        }
        self.attr_lists.push(a);
        let n = u32::try_from(self.attr_lists.len()).expect("fewer than 4 billion lists");
        let id = AttrsId(std::num::NonZeroU32::new(n).expect("counted from one"));
        self.attr_ids.0.insert(key, id);
        id
    }

    /// A function literal.
    pub fn func(
        &mut self,
        type_params: &[Param],
        params: &[VarId],
        ret: Option<Ty>,
        body: ExprId,
    ) -> ExprId {
        self.func_of(type_params.into(), params.into(), ret, body)
    }

    /// [`Module::func`] of lists already built (a parser's, a model's million weights not
    /// copied).
    pub(crate) fn func_of(
        &mut self,
        type_params: Box<[Param]>,
        params: Box<[VarId]>,
        ret: Option<Ty>,
        body: ExprId,
    ) -> ExprId {
        self.push(ExprKind::Func(Box::new(Function {
            type_params,
            params,
            ret,
            ret_span: None,
            body,
            attrs: None,
        })))
    }

    /// Records where the text writes the result type of function `f` (an
    /// [`ExprKind::Func`]).
    pub(crate) fn set_ret_span(&mut self, f: ExprId, span: Span) {
        if let ExprKind::Func(func) = &mut self.exprs[f.0 as usize].kind {
            func.ret_span = Some(span);
        }
    }

    /// Gives function `f` (an [`ExprKind::Func`]) the attributes `attrs`.
    pub fn set_func_attrs(&mut self, f: ExprId, attrs: Arc<Attrs>) {
        if let ExprKind::Func(func) = &mut self.exprs[f.0 as usize].kind {
            func.attrs = Some(attrs);
        }
    }

    /// The call an operator builder made (`relay_ops::nn::dense(x, w).units(64).build()`):
    /// the operator, its arguments and its attributes, defaults filled.
    pub fn op_call(&mut self, call: crate::op::OpCall<ExprId>) -> ExprId {
        let callee = self.op(call.op);
        self.call_full(callee, &call.args, Some(Arc::new(call.attrs)), &[])
    }

    /// The constructor call a data type's builder made (`List::cons(h, t)`), with the
    /// constructors loaded in `adts`; `None` if its data type is not loaded there.
    pub fn ctor_call(
        &mut self,
        adts: &crate::adt::AdtTable,
        call: crate::adt::CtorCall<ExprId>,
    ) -> Option<ExprId> {
        let c = adts.ctor(call.name())?;
        let callee = self.ctor(c);
        Some(self.call(callee, &call.args))
    }

    /// `if (c) { t } else { e }`.
    pub fn if_(&mut self, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
        self.push(ExprKind::If(c, t, e))
    }

    /// A pattern.
    pub fn pat(&mut self, p: Pattern) -> PatId {
        let id = PatId(u32::try_from(self.pats.len()).expect("more than 4 billion patterns"));
        self.pats.push(p);
        self.pat_spans.push(self.span);
        id
    }

    /// `match (scrutinee) { arms }`, complete or partial (`match?`).
    pub fn match_(&mut self, scrutinee: ExprId, arms: &[Arm], complete: bool) -> ExprId {
        let start = u32::try_from(self.arms.len()).expect("more than 4 billion arms");
        self.arms.extend_from_slice(arms);
        let arms = ArmList {
            start,
            len: arms.len() as u32,
        };
        self.push(ExprKind::Match {
            scrutinee,
            arms,
            complete,
        })
    }

    /// `ref(e)`.
    pub fn ref_new(&mut self, e: ExprId) -> ExprId {
        self.push(ExprKind::RefNew(e))
    }

    /// `ref_read(r)`.
    pub fn ref_read(&mut self, r: ExprId) -> ExprId {
        self.push(ExprKind::RefRead(r))
    }

    /// `ref_write(r, v)`.
    pub fn ref_write(&mut self, r: ExprId, v: ExprId) -> ExprId {
        self.push(ExprKind::RefWrite(r, v))
    }
}
