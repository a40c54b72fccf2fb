//! The printer of whole modules back to the text format: [`print_module`].
//!
//! Printing is a loop over an explicit stack of tasks, so that a call nested a hundred
//! thousand deep or a million chained `let`s take no native stack. Local variables keep
//! their names unless a binder would shadow a variable still in scope: such a binder is
//! renamed (`%x` becomes `%x_1`), so that every mention still means the variable it meant.
//! The printed text parses back to the same module, and printing that module again gives
//! the same text.
//!
//! Limitations, all due to what a [`Module`] records:
//!
//! - a constant records only its type, not its value: it is printed as a representative
//!   literal of its data type (`0`, `0i64`, `0u8`, `0f`, `0f16`, `0f64`, `True`); a constant
//!   of a non-scalar or vector type (built in Rust) prints as the scalar literal of its
//!   element type;
//! - infix operators were read as calls (`%a + %b` is `add(%a, %b)`) and graph bindings
//!   (`%0 = e;`) as `let`s: they print as calls and `let`s;
//! - the data types the source declared are not recorded by the module: every data type of
//!   the [`AdtTable`] that is not registered (with `relay_data!`) is printed as a `type`
//!   declaration, which includes the source's;
//! - explicit type arguments are printed only on a call of a global (the only place the
//!   parser reads them); a type argument of kind `ShapeVar` or `BaseType` (built in Rust)
//!   is printed as its dimension or data type, which the parser reads as a shape or type;
//! - comments, the spelling of literals and layout are not kept, except the `/* ty=T */`
//!   of a call whose attributes were omitted with TVM's metadata, printed with the
//!   reference that stood for them, as read ([`Module::printed_type`]).

use crate::adt::AdtTable;
use crate::attrs::AttrValue;
use crate::dtype::DTypeCode;
use crate::expr::{ExprId, ExprKind, Function, Module, PatId, Pattern, VarId};
use crate::fold::ParamValue;
use crate::kind::{Kind, Param};
use crate::text::push_separated;
use crate::ty::{DTy, Ty, TyCtx, TyData};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// Where an expression is printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ctx {
    /// The start of a sequence of statements (a body): `let` chains print bare.
    Seq,
    /// An operand (an argument, a field, a bound value): a `let` needs braces.
    Operand,
    /// The callee of a call or the base of a projection: a literal needs parentheses.
    Postfix,
}

/// One step of the printing loop.
#[derive(Copy, Clone, Debug)]
enum Task {
    Expr(ExprId, Ctx),
    Str(&'static str),
    /// `{`, then a new line one level deeper.
    Open,
    /// A new line one level shallower, then `}`.
    Close,
    /// A new line at the current level.
    Nl,
    /// Binds the variable of a `let` (named when its `let` was printed).
    Bind(VarId),
    /// Unbinds every variable bound since the log had this length.
    Unbind(usize),
    /// A pattern (its variables are bound as they are printed).
    Pat(PatId),
    /// The explicit type arguments of a call of a global.
    TypeArgs(ExprId),
    /// `.i` after the base of a projection.
    Index(u32),
    /// The attributes of a call, after its arguments (`true`: after at least one).
    Attrs(ExprId, bool),
    /// ` /* ty=T */` after a call typed by the type TVM printed on it
    /// ([`Module::printed_type`]).
    PrintedType(ExprId),
}

/// Indentation stops growing past this depth, so that deep nesting prints in linear size.
const MAX_INDENT: usize = 16;

struct Printer<'a> {
    m: &'a Module,
    tcx: &'a TyCtx,
    out: String,
    tasks: Vec<Task>,
    indent: usize,
    /// The printed name of each variable, given when it is bound.
    names: Vec<Option<Box<str>>>,
    /// The names in scope (each names exactly one variable).
    live: FxHashSet<Box<str>>,
    /// The variables bound, in order, to unbind them at the end of their scope.
    log: Vec<VarId>,
    /// The next suffix to try per base name (renaming stays linear).
    next_suffix: FxHashMap<Box<str>, u32>,
    /// Whether each variable is mentioned somewhere.
    referenced: Vec<bool>,
}

/// Prints module `m` in the text format: the version header, the data types of `adts`
/// that are not registered (the source's: see the module documentation), then every
/// global in definition order. Parsing the text (with the registered data types loaded)
/// gives the same module, up to the limitations listed in the module documentation.
///
/// ```
/// use relay_core::text::{parse_module, print_module};
/// use relay_core::{adt::AdtTable, TyCtx};
/// let mut tcx = TyCtx::new();
/// let mut adts = AdtTable::default();
/// let src = "def @f[A](%x: A) -> A { let %x = %x; %x }";
/// let m = parse_module(src, &mut tcx, &mut adts).unwrap();
/// assert_eq!(
///     print_module(&m, &tcx, &adts),
///     "#[version = \"0.0.5\"]\ndef @f[A](%x: A) -> A {\n  let %x_1 = %x;\n  %x_1\n}\n"
/// );
/// ```
pub fn print_module(m: &Module, tcx: &TyCtx, adts: &AdtTable) -> String {
    let (n_exprs, n_vars, _) = m.sizes();
    let mut referenced = vec![false; n_vars];
    for i in 0..n_exprs {
        if let ExprKind::Var(v) = m.expr(ExprId(i as u32)).kind {
            referenced[v.index()] = true;
        }
    }
    for v in m.mentioned_vars() {
        referenced[v.index()] = true;
    }
    let mut p = Printer {
        m,
        tcx,
        out: String::with_capacity(n_exprs * 8 + 64),
        tasks: Vec::new(),
        indent: 0,
        names: vec![None; n_vars],
        live: FxHashSet::default(),
        log: Vec::new(),
        next_suffix: FxHashMap::default(),
        referenced,
    };
    p.out.push_str("#[version = \"0.0.5\"]\n");
    p.data_types(adts);
    for g in m.globals() {
        let Some(func) = g.func else { continue };
        p.live.clear();
        p.log.clear();
        p.next_suffix.clear();
        p.out.push_str("def @");
        p.out.push_str(&g.name);
        match &m.expr(func).kind {
            ExprKind::Func(f) => p.func(f),
            _ => {
                // A global built in Rust whose value is not a function literal.
                p.out.push_str("() ");
                p.tasks.push(Task::Close);
                p.tasks.push(Task::Expr(func, Ctx::Seq));
                p.tasks.push(Task::Open);
            }
        }
        p.run();
        p.out.push('\n');
    }
    p.out
}

/// Whether `b` may appear in a name.
fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A literal of the data type of constant type `ty`.
fn literal(tcx: &TyCtx, ty: Ty) -> &'static str {
    let TyData::Tensor(_, DTy::Known(d)) = tcx.data(ty) else {
        return "0";
    };
    match (d.code(), d.bits()) {
        (DTypeCode::Bool, _) => "True",
        (DTypeCode::Int, 8) => "0i8",
        (DTypeCode::Int, 16) => "0i16",
        (DTypeCode::Int, 64) => "0i64",
        (DTypeCode::UInt, 8) => "0u8",
        (DTypeCode::UInt, 16) => "0u16",
        (DTypeCode::UInt, 32) => "0u32",
        (DTypeCode::UInt, 64) => "0u64",
        (DTypeCode::Float | DTypeCode::BFloat, 16) => "0f16",
        (DTypeCode::Float, 64) => "0f64",
        (DTypeCode::Float | DTypeCode::BFloat, _) => "0f",
        _ => "0",
    }
}

/// `s` as a string literal the lexer reads back.
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An attribute value, without recursion.
fn push_attr(out: &mut String, v: &AttrValue) {
    enum Step<'v> {
        Val(&'v AttrValue),
        Str(&'static str),
    }
    let mut stack = vec![Step::Val(v)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Str(s) => out.push_str(s),
            Step::Val(v) => match v {
                AttrValue::Int(i) => {
                    let _ = write!(out, "{i}");
                }
                AttrValue::Float(x) => {
                    let _ = write!(out, "{x:?}f");
                }
                AttrValue::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
                AttrValue::Str(s) => push_string(out, s),
                AttrValue::DType(d) => push_string(out, &d.to_string()),
                AttrValue::None => out.push_str("None"),
                AttrValue::List(items) => {
                    out.push('[');
                    stack.push(Step::Str("]"));
                    push_separated(&mut stack, items, Step::Val, || Step::Str(", "));
                }
            },
        }
    }
}

impl Printer<'_> {
    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent.min(MAX_INDENT) {
            self.out.push_str("  ");
        }
    }

    fn ty(&mut self, t: Ty) {
        // Whole, to read back: an annotation the parser read is no larger than its text.
        let s = self.tcx.show_within(t, usize::MAX);
        self.out.push_str(&s);
    }

    /// The data types that are not registered, as `type` declarations.
    fn data_types(&mut self, adts: &AdtTable) {
        let registered: FxHashSet<&str> = adts
            .registry()
            .map(|r| r.data_types().iter().map(|d| d.name).collect())
            .unwrap_or_default();
        // The first data type of a registered name is the registered one; later ones of
        // that name are a program's own, which shadow it.
        let mut seen = FxHashSet::default();
        for adt in adts.adts(self.tcx) {
            let info = self.tcx.adt_info(adt);
            if seen.insert(&*info.name) && registered.contains(&*info.name) {
                continue;
            }
            self.out.push_str("type ");
            self.out.push_str(&info.name);
            self.type_params(&info.params);
            self.out.push_str(" {\n");
            for c in info.ctors.iter() {
                self.out.push_str("  ");
                self.out.push_str(&c.name);
                if !c.fields.is_empty() {
                    self.out.push('(');
                    for (i, &f) in c.fields.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.ty(f);
                    }
                    self.out.push(')');
                }
                self.out.push_str(",\n");
            }
            self.out.push_str("}\n");
        }
    }

    /// `[A, s: Shape]` (nothing when there are none).
    fn type_params(&mut self, params: &[Param]) {
        if params.is_empty() {
            return;
        }
        self.out.push('[');
        for (i, &p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let info = self.tcx.param_info(p);
            self.out.push_str(&info.name);
            if info.kind != Kind::Type {
                self.out.push_str(": ");
                self.out.push_str(info.kind.name());
            }
        }
        self.out.push(']');
    }

    /// Chooses the printed name of binder `v` (not bound yet): its own name unless that
    /// is in scope.
    fn name(&mut self, v: VarId) -> Box<str> {
        let raw = self.m.var_name(v);
        let base: Box<str> = if raw.is_empty() {
            "v".into()
        } else if raw.bytes().all(is_ident_char) {
            raw.into()
        } else {
            raw.chars()
                .map(|c| {
                    if c.is_ascii() && is_ident_char(c as u8) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
                .into()
        };
        if !self.live.contains(&base) {
            return base;
        }
        let k = self.next_suffix.entry(base.clone()).or_insert(1);
        loop {
            let candidate: Box<str> = format!("{base}_{k}").into();
            *k += 1;
            if !self.live.contains(&candidate) {
                return candidate;
            }
        }
    }

    /// Binds `v` under the name it was given.
    fn bind(&mut self, v: VarId) {
        if let Some(n) = &self.names[v.index()] {
            self.live.insert(n.clone());
            self.log.push(v);
        }
    }

    /// Names and binds binder `v`, and prints `%name` (with its annotation).
    fn binder(&mut self, v: VarId) {
        let n = self.name(v);
        self.out.push('%');
        self.out.push_str(&n);
        self.names[v.index()] = Some(n);
        self.bind(v);
        if let Some(t) = self.m.var_decl(v).ann() {
            self.out.push_str(": ");
            self.ty(t);
        }
    }

    fn unbind(&mut self, mark: usize) {
        while self.log.len() > mark {
            let v = self.log.pop().expect("above the mark");
            if let Some(n) = &self.names[v.index()] {
                self.live.remove(n);
            }
        }
    }

    /// `[A](%x: T, ..) -> R { body }` of a function (after `fn` or `def @name`).
    fn func(&mut self, f: &Function) {
        self.type_params(&f.type_params);
        let mark = self.log.len();
        self.out.push('(');
        for (i, &v) in f.params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.binder(v);
        }
        if let Some(attrs) = &f.attrs {
            for (i, (name, v)) in attrs.iter().enumerate() {
                if i > 0 || !f.params.is_empty() {
                    self.out.push_str(", ");
                }
                self.out.push_str(name);
                self.out.push('=');
                push_attr(&mut self.out, v);
            }
        }
        self.out.push(')');
        if let Some(r) = f.ret {
            self.out.push_str(" -> ");
            self.ty(r);
        }
        self.out.push(' ');
        self.tasks.push(Task::Unbind(mark));
        self.tasks.push(Task::Close);
        self.tasks.push(Task::Expr(f.body, Ctx::Seq));
        self.tasks.push(Task::Open);
    }

    fn run(&mut self) {
        while let Some(task) = self.tasks.pop() {
            match task {
                Task::Expr(e, ctx) => self.expr(e, ctx),
                Task::Str(s) => self.out.push_str(s),
                Task::Open => {
                    self.out.push('{');
                    self.indent += 1;
                    self.newline();
                }
                Task::Close => {
                    self.indent -= 1;
                    self.newline();
                    self.out.push('}');
                }
                Task::Nl => self.newline(),
                Task::Bind(v) => self.bind(v),
                Task::Unbind(mark) => self.unbind(mark),
                Task::Pat(p) => self.pattern(p),
                Task::Index(i) => {
                    let _ = write!(self.out, ".{i}");
                }
                Task::TypeArgs(e) => self.type_args(e),
                Task::Attrs(e, after_args) => self.attrs(e, after_args),
                Task::PrintedType(e) => {
                    if let Some((ty, _)) = self.m.printed_type(e) {
                        self.out.push_str(" /* ty=");
                        self.out.push_str(&self.tcx.show_within(ty, usize::MAX));
                        self.out.push_str(" */");
                    }
                }
            }
        }
    }

    /// A mention of `v`.
    fn var(&mut self, v: VarId) {
        self.out.push('%');
        match &self.names[v.index()] {
            Some(n) => self.out.push_str(n),
            // Not bound where it is mentioned (a module built in Rust).
            None => self.out.push_str(self.m.var_name(v)),
        }
    }

    /// Pushes `items` separated by `, ` (to be printed in order).
    fn push_list(&mut self, items: &[ExprId]) {
        let operand = |&x: &ExprId| Task::Expr(x, Ctx::Operand);
        push_separated(&mut self.tasks, items, operand, || Task::Str(", "));
    }

    fn expr(&mut self, e: ExprId, ctx: Ctx) {
        let m = self.m;
        if let Some(v) = m.compact_mention(e) {
            self.var(v);
            return;
        }
        match &m.expr(e).kind {
            ExprKind::Let { var, value, body } => {
                if ctx != Ctx::Seq {
                    self.tasks.push(Task::Close);
                    self.tasks.push(Task::Expr(e, Ctx::Seq));
                    self.tasks.push(Task::Open);
                    return;
                }
                let d = m.var_decl(*var);
                if m.var_name(*var) == "_" && d.ann().is_none() && !self.referenced[var.index()] {
                    // `e; body`.
                    self.tasks.push(Task::Expr(*body, Ctx::Seq));
                    self.tasks.push(Task::Nl);
                    self.tasks.push(Task::Str(";"));
                    self.tasks.push(Task::Expr(*value, Ctx::Operand));
                    return;
                }
                let n = self.name(*var);
                self.out.push_str("let %");
                self.out.push_str(&n);
                self.names[var.index()] = Some(n);
                if let Some(t) = d.ann() {
                    self.out.push_str(": ");
                    self.ty(t);
                }
                self.out.push_str(" = ");
                self.tasks.push(Task::Unbind(self.log.len()));
                self.tasks.push(Task::Expr(*body, Ctx::Seq));
                self.tasks.push(Task::Nl);
                // In scope in its value when the parser binds it first.
                let first = m.let_binds_first(*value);
                if !first {
                    self.tasks.push(Task::Bind(*var));
                }
                self.tasks.push(Task::Str(";"));
                self.tasks.push(Task::Expr(*value, Ctx::Operand));
                if first {
                    self.tasks.push(Task::Bind(*var));
                }
            }
            ExprKind::Var(v) => self.var(*v),
            ExprKind::Global(g) => {
                self.out.push('@');
                self.out.push_str(&m.global_def(*g).name);
            }
            ExprKind::Op(op) => self.out.push_str(op.name),
            ExprKind::Ctor(c) => {
                let name = &self.tcx.adt_info(c.adt).ctors[c.index as usize].name;
                self.out.push_str(name);
            }
            ExprKind::Constant(t) => {
                let lit = literal(self.tcx, *t);
                if ctx == Ctx::Postfix {
                    self.out.push('(');
                    self.out.push_str(lit);
                    self.out.push(')');
                } else {
                    self.out.push_str(lit);
                }
            }
            ExprKind::Tuple(items) => {
                let items = m.list(*items);
                self.out.push('(');
                self.tasks
                    .push(Task::Str(if items.len() == 1 { ",)" } else { ")" }));
                self.push_list(items);
            }
            ExprKind::Proj(base, i) => {
                self.tasks.push(Task::Index(*i));
                self.tasks.push(Task::Expr(*base, Ctx::Postfix));
            }
            ExprKind::Call { parts, attrs } => {
                let (callee, args) = (m.callee(*parts), m.args(*parts));
                let type_args = m.type_args(e);
                // Attributes omitted with the metadata: the reference and TVM's type, as
                // read.
                let printed = m.printed_type(e).is_some();
                if printed {
                    self.tasks.push(Task::PrintedType(e));
                }
                self.tasks.push(Task::Str(")"));
                if printed || m.attrs(*attrs).is_some_and(|a| !a.is_empty()) {
                    self.tasks.push(Task::Attrs(e, !args.is_empty()));
                }
                self.push_list(args);
                self.tasks.push(Task::Str("("));
                if !type_args.is_empty() && matches!(m.expr(callee).kind, ExprKind::Global(_)) {
                    self.tasks.push(Task::TypeArgs(e));
                }
                self.tasks.push(Task::Expr(callee, Ctx::Postfix));
            }
            ExprKind::Func(f) => {
                self.out.push_str("fn ");
                self.func(f);
            }
            ExprKind::If(c, t, f) => {
                self.out.push_str("if (");
                self.tasks.push(Task::Close);
                self.tasks.push(Task::Expr(*f, Ctx::Seq));
                self.tasks.push(Task::Open);
                self.tasks.push(Task::Str(" else "));
                self.tasks.push(Task::Close);
                self.tasks.push(Task::Expr(*t, Ctx::Seq));
                self.tasks.push(Task::Open);
                self.tasks.push(Task::Str(") "));
                self.tasks.push(Task::Expr(*c, Ctx::Operand));
            }
            ExprKind::Match {
                scrutinee,
                arms,
                complete,
            } => {
                self.out
                    .push_str(if *complete { "match (" } else { "match? (" });
                // Every arm starts with the bindings the match starts with.
                let mark = self.log.len();
                self.tasks.push(Task::Close);
                for (i, arm) in m.arms(*arms).iter().enumerate().rev() {
                    self.tasks.push(Task::Unbind(mark));
                    self.tasks.push(Task::Str(","));
                    self.tasks.push(Task::Expr(arm.body, Ctx::Operand));
                    self.tasks.push(Task::Str(" => "));
                    self.tasks.push(Task::Pat(arm.pattern));
                    if i > 0 {
                        self.tasks.push(Task::Nl);
                    }
                }
                self.tasks.push(Task::Open);
                self.tasks.push(Task::Str(") "));
                self.tasks.push(Task::Expr(*scrutinee, Ctx::Operand));
            }
            ExprKind::RefNew(x) => {
                self.out.push_str("ref(");
                self.tasks.push(Task::Str(")"));
                self.tasks.push(Task::Expr(*x, Ctx::Operand));
            }
            ExprKind::RefRead(x) => {
                self.out.push_str("ref_read(");
                self.tasks.push(Task::Str(")"));
                self.tasks.push(Task::Expr(*x, Ctx::Operand));
            }
            ExprKind::RefWrite(r, v) => {
                self.out.push_str("ref_write(");
                self.tasks.push(Task::Str(")"));
                self.tasks.push(Task::Expr(*v, Ctx::Operand));
                self.tasks.push(Task::Str(", "));
                self.tasks.push(Task::Expr(*r, Ctx::Operand));
            }
        }
    }

    fn pattern(&mut self, p: PatId) {
        match self.m.pattern(p) {
            Pattern::Wildcard => self.out.push('_'),
            Pattern::Var(v) => self.binder(*v),
            Pattern::Ctor(c, fields) => {
                let name = &self.tcx.adt_info(c.adt).ctors[c.index as usize].name;
                self.out.push_str(name);
                if !fields.is_empty() {
                    self.out.push('(');
                    self.tasks.push(Task::Str(")"));
                    self.push_pats(fields);
                }
            }
            Pattern::Tuple(fields) => {
                self.out.push('(');
                self.tasks
                    .push(Task::Str(if fields.len() == 1 { ",)" } else { ")" }));
                self.push_pats(fields);
            }
        }
    }

    fn push_pats(&mut self, fields: &[PatId]) {
        push_separated(
            &mut self.tasks,
            fields,
            |&f| Task::Pat(f),
            || Task::Str(", "),
        );
    }

    fn type_args(&mut self, e: ExprId) {
        let type_args = self.m.type_args(e);
        self.out.push('[');
        for (i, a) in type_args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let s = match *a {
                ParamValue::Ty(t) => self.tcx.show(t),
                ParamValue::Shape(s) => self.tcx.show_shape(s),
                ParamValue::Dim(d) => self.tcx.show_dim(d),
                ParamValue::DType(d) => self.tcx.show_dtype(d),
            };
            self.out.push_str(&s);
        }
        self.out.push(']');
    }

    fn attrs(&mut self, e: ExprId, after_args: bool) {
        let ExprKind::Call { attrs, .. } = &self.m.expr(e).kind else {
            return;
        };
        if let Some((_, reference)) = self.m.printed_type(e) {
            if after_args {
                self.out.push_str(", ");
            }
            self.out.push_str(reference);
            return;
        }
        let Some(attrs) = self.m.attrs(*attrs) else {
            return;
        };
        for (i, (name, v)) in attrs.iter().enumerate() {
            if i > 0 || after_args {
                self.out.push_str(", ");
            }
            self.out.push_str(name);
            self.out.push('=');
            push_attr(&mut self.out, v);
        }
    }
}
