//! Checking a clause: the kind of every variable inferred from its uses, builtins and
//! their arities, attributes, patterns, and variables that nothing defines. Every error
//! is collected, each on the narrowest token.

use super::ast::{AttrDecl, Clause, Goal, ListItem, Term};
use super::builtins;
pub use super::dtype::dtype_literal;

mod scope;
mod terms;
pub use super::show::{is_none, placeholders, show};
use proc_macro2::Span;
use std::collections::HashMap;
use syn::Ident;

/// What a clause variable or term stands for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    Type,
    Shape,
    Dim,
    DType,
    Bool,
    /// A `str` attribute or a string literal: only compared.
    Str,
    /// A `float` attribute or a float literal: compared, or multiplying a dimension.
    Float,
    /// A `[float]` attribute: indexed (`attrs.scales[0]`), a float.
    Floats,
}

impl Kind {
    /// The kind a Rust call declares it returns, `rust(f -> kind)`.
    fn declared(name: &str) -> Option<Kind> {
        Some(match name {
            "type" => Kind::Type,
            "shape" => Kind::Shape,
            "dim" => Kind::Dim,
            "dtype" => Kind::DType,
            "bool" => Kind::Bool,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Type => "type",
            Kind::Shape => "shape",
            Kind::Dim => "dimension",
            Kind::DType => "dtype",
            Kind::Bool => "bool",
            Kind::Str => "string",
            Kind::Float => "float",
            Kind::Floats => "list of floats",
        }
    }
}

/// `Tensor(shape, dtype)`'s arguments (a constructor, checked as a builtin is).
const TENSOR: &[Kind] = &[Kind::Shape, Kind::DType];

/// The kinds of the arguments and of the result of `Tensor` or of the builtin `name`.
fn signature(name: &str) -> Option<(&'static [Kind], Kind)> {
    if name == "Tensor" {
        return Some((TENSOR, Kind::Type));
    }
    builtins::find(name).map(|b| (b.params, b.result))
}

const ATTR_TYPES: &[(&str, Kind)] = &[
    ("int", Kind::Dim),
    ("bool", Kind::Bool),
    ("dtype", Kind::DType),
    ("shape", Kind::Shape),
    ("[int]", Kind::Shape),
    ("str", Kind::Str),
    ("float", Kind::Float),
    ("[float]", Kind::Floats),
];

struct VarInfo {
    kind: Option<Kind>,
    first: Span,
    uses: usize,
    /// Appears in the head or where an equation can bind it.
    bindable: bool,
}

/// What checking learns, for the expansion.
pub struct Checked {
    /// Variable names in order of first appearance; their index is their position.
    pub vars: Vec<String>,
    /// Declared attributes in order.
    pub attrs: Vec<(String, String)>,
    /// The variables and attributes that are shapes (an index `s[i]` of a shape `i` is
    /// a gather).
    pub shapes: Vec<String>,
    /// The clause's Rust calls ([`super::fast::rust_calls`]).
    pub rust_calls: Vec<(usize, syn::Path)>,
}

impl Checked {
    pub fn var(&self, name: &str) -> u16 {
        self.vars
            .iter()
            .position(|v| v == name)
            .expect("checked variable") as u16
    }

    /// Whether the index term `i` is a shape (`s[attrs.axes]`, `s[p]`).
    pub fn shape_index(&self, i: &Term) -> bool {
        match i {
            Term::Name(id) => self.shapes.contains(&id.to_string()),
            Term::Attr(_, name) => self.shapes.contains(&format!("attrs.{name}")),
            Term::List(..) | Term::Slice(..) | Term::Repeat(..) => true,
            Term::Call { name, .. } => {
                builtins::find(&name.to_string()).is_some_and(|b| b.result == Kind::Shape)
            }
            Term::Rust { ret: Some(k), .. } => Kind::declared(&k.to_string()) == Some(Kind::Shape),
            Term::Index(_, _, i) => self.shape_index(i),
            Term::Comp { .. } => true,
            Term::IfElse(_, _, a, _) => self.shape_index(a),
            _ => false,
        }
    }

    /// Whether `t` is a float (a literal, a `float` attribute, an index of a `[float]`
    /// one): `h * t` is then `floor(h * t)`.
    pub fn is_float(&self, t: &Term) -> bool {
        is_float(t, |n| {
            self.attrs.iter().find(|a| a.0 == n).map(|a| a.1.as_str())
        })
    }

    pub fn attr(&self, name: &str) -> u16 {
        self.attrs
            .iter()
            .position(|(a, _)| a == name)
            .expect("checked attribute") as u16
    }
}

/// Whether `t` is a float, given the declared type of each attribute.
fn is_float<'a>(t: &Term, base: impl Fn(&str) -> Option<&'a str>) -> bool {
    match t {
        Term::Float(..) => true,
        Term::Attr(_, n) => base(&n.to_string()) == Some("float"),
        Term::Index(a, _, _) => {
            matches!(&**a, Term::Attr(_, n) if base(&n.to_string()) == Some("[float]"))
        }
        _ => false,
    }
}

struct Checker {
    errors: Vec<syn::Error>,
    vars: HashMap<String, VarInfo>,
    order: Vec<String>,
    attrs: Vec<(String, Kind)>,
    /// The declared attributes of an unknown type (an error already).
    untyped: Vec<String>,
    /// The declared attributes that are `Option<..>`.
    optional: Vec<String>,
    /// The variables of comprehensions and loops.
    locals: Vec<String>,
    /// How many loops the goal being checked is in.
    loops: usize,
}

/// Checks `clause`, returning every error found.
pub fn check(clause: &Clause) -> Result<Checked, Vec<syn::Error>> {
    let mut c = Checker {
        errors: Vec::new(),
        vars: HashMap::new(),
        order: Vec::new(),
        attrs: Vec::new(),
        untyped: Vec::new(),
        optional: Vec::new(),
        locals: Vec::new(),
        loops: 0,
    };
    if clause.head.is_empty() {
        c.error(
            clause.head_span,
            format!(
                "expected at least one argument in the head `{}(..)`",
                clause.name
            ),
        );
    }
    // Attributes first: the body refers to them.
    let mut decls: Vec<&AttrDecl> = Vec::new();
    for block in &clause.attrs {
        if block.decls.is_empty() {
            c.error(
                block.kw,
                "expected at least one attribute in `attrs(..)`".into(),
            );
        }
        for d in &block.decls {
            decls.push(d);
        }
    }
    for d in &decls {
        let name = d.name.to_string();
        if c.attrs.iter().any(|(a, _)| *a == name) || c.untyped.contains(&name) {
            c.error(
                d.name.span(),
                format!("the attribute `{name}` is declared twice"),
            );
            continue;
        }
        let ty = d.ty.base.clone();
        if d.ty.optional {
            c.optional.push(name.clone());
        }
        let Some(&(_, kind)) = ATTR_TYPES.iter().find(|(t, _)| *t == ty) else {
            c.error(
                d.ty.span,
                format!(
                    "unknown attribute type `{ty}`: expected `int`, `float`, `bool`, `str`, `dtype`, `shape`, `[int]` or `[float]`, optionally in `Option<..>`"
                ),
            );
            // Its uses are not checked: one error, not one more at each.
            c.untyped.push(name);
            continue;
        };
        match &d.default {
            Some(Term::Name(n)) if n == "None" && d.ty.optional => {}
            Some(default) => c.check_default(default, kind, &ty, &name),
            None => {}
        }
        c.attrs.push((name, kind));
    }
    for arg in &clause.head {
        c.pattern(arg, Kind::Type);
    }
    let mut deferred: Vec<(&Term, &Term)> = Vec::new();
    for goal in &clause.body {
        c.goal(goal, &mut deferred);
    }
    // Equations between terms of unknown kind: try again as long as kinds are learnt.
    loop {
        let before = deferred.len();
        deferred.retain(|(l, r)| !c.equation(l, r));
        if deferred.is_empty() || deferred.len() == before {
            break;
        }
    }
    for (l, _) in deferred {
        c.error(
            l.span(),
            format!(
                "cannot infer whether `{}` is a type, a shape, a dimension or a dtype",
                show(l)
            ),
        );
    }
    scope::check(clause, &c.locals, &mut c.errors);
    for name in &c.order {
        let info = &c.vars[name];
        if c.locals.contains(name) {
            continue;
        }
        if info.kind.is_none() {
            c.errors.push(syn::Error::new(
                info.first,
                format!("cannot infer whether `{name}` is a type, a shape, a dimension or a dtype"),
            ));
        } else if !info.bindable || info.uses < 2 && !c.in_head(name, clause) {
            c.errors.push(syn::Error::new(
                info.first,
                format!(
                    "unknown variable `{name}`: it is not bound in the head and no equation defines it"
                ),
            ));
        }
    }
    if c.errors.is_empty() {
        let mut shapes: Vec<String> = c
            .vars
            .iter()
            .filter(|(_, v)| v.kind == Some(Kind::Shape))
            .map(|(n, _)| n.clone())
            .collect();
        shapes.extend(
            c.attrs
                .iter()
                .filter(|a| a.1 == Kind::Shape)
                .map(|a| format!("attrs.{}", a.0)),
        );
        Ok(Checked {
            shapes,
            rust_calls: super::fast::rust_calls(clause),
            vars: c.order,
            attrs: decls
                .iter()
                .map(|d| (d.name.to_string(), d.ty.base.clone()))
                .collect(),
        })
    } else {
        Err(c.errors)
    }
}

impl Checker {
    fn goal<'a>(&mut self, goal: &'a Goal, deferred: &mut Vec<(&'a Term, &'a Term)>) {
        match goal {
            Goal::Eq(l, r) => {
                if !self.equation(l, r) {
                    deferred.push((l, r));
                }
            }
            Goal::Check(t) => match self.peek(t) {
                Some(k) if k != Kind::Bool => self.error(
                    t.span(),
                    format!(
                        "expected a goal (an equation `a = b`, a comparison or `assert(..)`), found `{}`, a {}",
                        show(t),
                        k.name()
                    ),
                ),
                _ => self.term(t, Kind::Bool, false),
            },
            Goal::Assert {
                cond,
                message,
                args,
            } => {
                self.term(cond, Kind::Bool, false);
                self.message(message, args);
            }
            Goal::AssertEq {
                lhs,
                rhs,
                message,
                args,
            } => {
                if !self.equation(lhs, rhs) {
                    deferred.push((lhs, rhs));
                }
                self.message(message, args);
            }
            Goal::If { cond, then, els } => {
                self.term(cond, Kind::Bool, false);
                for g in then.iter().chain(els) {
                    self.goal(g, deferred);
                }
            }
            Goal::For { kw, var, src, body } => {
                if body.is_empty() {
                    self.error(*kw, "expected at least one goal in the braces of `for`".into());
                }
                self.source(src);
                self.local(var, src);
                self.loops += 1;
                for g in body {
                    self.goal(g, deferred);
                }
                self.loops -= 1;
            }
            Goal::Relation { args, .. } => {
                // Types the clause computes; the relation may refine them.
                for a in args {
                    self.term(a, Kind::Type, true);
                }
            }
            Goal::Default { kw, .. } if self.loops > 0 => self.error(
                *kw,
                "expected no `default` in a `for` loop (a default gives a variable one value, put it outside the loop)".into(),
            ),
            Goal::Default { kw, var, value } => {
                let Term::Name(id) = var else {
                    self.error(
                        *kw,
                        format!(
                            "expected a variable as the first argument of `default`, found `{}`",
                            show(var)
                        ),
                    );
                    return;
                };
                if dtype_literal(&id.to_string()).is_some() {
                    self.error(id.span(), format!("expected a variable, found the dtype `{id}`"));
                    return;
                }
                if !self.equation(var, value) {
                    deferred.push((var, value));
                }
            }
        }
    }

    /// The fields of a tuple (a pattern or a term), each checked by `field`: at most one
    /// is a `..rest`, a tuple of the others.
    pub(super) fn fields(&mut self, items: &[Term], field: impl Fn(&mut Self, &Term)) {
        let mut rest = false;
        for item in items {
            match item {
                Term::Rest(span, t) => {
                    if rest {
                        self.error(
                            *span,
                            "expected at most one `..rest` in a tuple, found a second one".into(),
                        );
                    }
                    rest = true;
                    field(self, t);
                }
                other => field(self, other),
            }
        }
    }

    /// The variable of a comprehension or a loop, local to it: a dimension, or a type
    /// for one over the fields of a tuple (`src`).
    pub(super) fn local(&mut self, var: &Ident, src: &Term) {
        let kind = if self.peek(src) == Some(Kind::Type) {
            Kind::Type
        } else {
            Kind::Dim
        };
        let name = var.to_string();
        if dtype_literal(&name).is_some() {
            self.error(
                var.span(),
                format!("expected a variable after `for`, found the dtype `{name}`"),
            );
            return;
        }
        if !self.locals.contains(&name) {
            self.locals.push(name);
        }
        self.var(var, Some(kind), true);
    }

    /// What a comprehension or a loop goes over: a range of integers, a shape, or the
    /// fields of a tuple.
    pub(super) fn source(&mut self, src: &Term) {
        match src {
            Term::Range(_, lo, hi) => {
                self.term(lo, Kind::Dim, false);
                self.term(hi, Kind::Dim, false);
            }
            other if self.peek(other) == Some(Kind::Type) => self.term(other, Kind::Type, false),
            other => self.term(other, Kind::Shape, false),
        }
    }

    /// The message of an `assert` and the values it shows: one per `{}`.
    fn message(&mut self, message: &syn::LitStr, args: &[Term]) {
        let text = message.value();
        if text.is_empty() {
            self.error(
                message.span(),
                "expected a message, found an empty string".into(),
            );
        }
        let holes = placeholders(&text);
        if holes != args.len() {
            self.error(
                message.span(),
                format!(
                    "expected {holes} value{} after the message (one per `{{}}`), found {}",
                    if holes == 1 { "" } else { "s" },
                    args.len()
                ),
            );
        }
        for a in args {
            self.value(a);
        }
    }

    fn error(&mut self, span: Span, message: String) {
        self.errors.push(syn::Error::new(span, message));
    }

    fn in_head(&self, name: &str, clause: &Clause) -> bool {
        let mut found = false;
        for t in &clause.head {
            t.visit(&mut |t| {
                found |= matches!(t, Term::Name(i) | Term::As(i, _) if i == name);
            });
        }
        found
    }

    fn mismatch(&mut self, span: Span, want: Kind, found: String) {
        self.error(span, format!("expected a {}, found {found}", want.name()));
    }

    /// A term of kind `have` where a `want` is expected: a mismatch unless they are one
    /// kind, `found()` saying what the term is.
    fn expect_kind(&mut self, span: Span, want: Kind, have: Kind, found: impl FnOnce() -> String) {
        if want != have {
            self.mismatch(span, want, found());
        }
    }

    /// A term of whatever kind it shows (a message's value, a Rust function's argument):
    /// a name of no kind yet stays open, any other term without one is a dimension.
    fn any_term(&mut self, a: &Term) {
        match self.peek(a) {
            Some(k) => self.term(a, k, false),
            None => match a {
                Term::Name(id) => self.var(id, None, false),
                other => self.term(other, Kind::Dim, false),
            },
        }
    }

    /// A variable used as `kind` (`None`: of a kind to be inferred).
    fn var(&mut self, id: &Ident, kind: Option<Kind>, bindable: bool) {
        let name = id.to_string();
        let info = match self.vars.get_mut(&name) {
            Some(info) => info,
            None => {
                self.order.push(name.clone());
                self.vars.entry(name.clone()).or_insert(VarInfo {
                    kind: None,
                    first: id.span(),
                    uses: 0,
                    bindable: false,
                })
            }
        };
        info.uses += 1;
        info.bindable |= bindable;
        match (info.kind, kind) {
            (_, None) => {}
            (None, Some(k)) => info.kind = Some(k),
            (Some(have), Some(want)) if have == want => {}
            (Some(have), Some(want)) => {
                let msg = format!(
                    "expected a {}, found the {} `{name}`",
                    want.name(),
                    have.name()
                );
                self.error(id.span(), msg);
            }
        }
    }

    /// A head pattern of kind `kind`.
    fn pattern(&mut self, t: &Term, kind: Kind) {
        let ok = match (t, kind) {
            (Term::Wild(_), _) => true,
            (Term::As(id, p), _) => {
                self.var(id, Some(kind), true);
                self.pattern(p, kind);
                return;
            }
            (Term::Name(id), _) => match dtype_literal(&id.to_string()) {
                Some(_) if kind == Kind::DType => {
                    self.term(t, kind, true);
                    return;
                }
                Some(_) => false,
                None => {
                    self.var(id, Some(kind), true);
                    return;
                }
            },
            (Term::Call { name, args }, Kind::Type) if name == "Tensor" || name == "Tuple" => {
                if name == "Tensor" {
                    if args.len() != 2 {
                        self.error(
                            name.span(),
                            format!(
                                "`Tensor` takes 2 arguments (a shape and a dtype), found {}",
                                args.len()
                            ),
                        );
                        return;
                    }
                    self.pattern(&args[0], Kind::Shape);
                    self.pattern(&args[1], Kind::DType);
                } else {
                    self.fields(args, |c, a| c.pattern(a, Kind::Type));
                }
                return;
            }
            (Term::Tuple(_, items), Kind::Type) => {
                self.fields(items, |c, a| c.pattern(a, Kind::Type));
                return;
            }
            (Term::List(_, items), Kind::Shape) => {
                let mut splice = false;
                for item in items {
                    match item {
                        ListItem::Dim(d) => self.pattern(d, Kind::Dim),
                        ListItem::Splice(span, rest) => {
                            if splice {
                                self.error(
                                    *span,
                                    "expected at most one `..rest` in a shape pattern, found a second one".into(),
                                );
                            }
                            splice = true;
                            self.pattern(rest, Kind::Shape);
                        }
                    }
                }
                return;
            }
            (Term::Int(..) | Term::Any(_), Kind::Dim) => true,
            _ => false,
        };
        if !ok {
            let expected = match kind {
                Kind::Type => "a type pattern (a variable, `_`, `Tensor(shape, dtype)` or a tuple)",
                Kind::Shape => "a shape pattern (a variable, `_` or a list `[d0, ..rest]`)",
                Kind::Dim => "a dimension pattern (a variable, `_` or an integer)",
                Kind::DType => "a dtype pattern (a variable, `_` or a dtype such as `float32`)",
                Kind::Bool | Kind::Str | Kind::Float | Kind::Floats => "a pattern",
            };
            self.error(
                t.span(),
                format!("expected {expected}, found `{}`", show(t)),
            );
        }
    }

    fn check_default(&mut self, t: &Term, kind: Kind, ty: &str, attr: &str) {
        let ok = match (t, kind) {
            (Term::Int(..), Kind::Dim)
            | (Term::Bool(..), Kind::Bool)
            | (Term::Str(_), Kind::Str)
            | (Term::Float(..) | Term::Int(..), Kind::Float) => true,
            (Term::List(_, items), Kind::Floats) => items
                .iter()
                .all(|i| matches!(i, ListItem::Dim(Term::Float(..) | Term::Int(..)))),
            (Term::Name(id), Kind::DType) => matches!(dtype_literal(&id.to_string()), Some(Ok(_))),
            (Term::List(_, items), Kind::Shape) => items
                .iter()
                .all(|i| matches!(i, ListItem::Dim(Term::Int(..)))),
            _ => false,
        };
        if !ok {
            self.error(
                t.span(),
                format!(
                    "expected {} as the default of `{attr}`, found `{}`",
                    match ty {
                        "int" => "an integer literal",
                        "bool" => "`true` or `false`",
                        "dtype" => "a dtype such as `float32`",
                        "str" => "a string literal",
                        "float" => "a float literal",
                        "[float]" => "a list of floats such as `[1.0, 2.0]`",
                        _ => "a list of integers such as `[1, 2]`",
                    },
                    show(t)
                ),
            );
        }
    }

    /// The kind of `t` if it can be told without context (no errors, no recording).
    fn peek(&self, t: &Term) -> Option<Kind> {
        Some(match t {
            Term::Name(id) => {
                let name = id.to_string();
                if dtype_literal(&name).is_some() {
                    Kind::DType
                } else {
                    return self.vars.get(&name).and_then(|v| v.kind);
                }
            }
            Term::Rust { ret, .. } => {
                return ret.as_ref().and_then(|k| Kind::declared(&k.to_string()))
            }
            Term::Wild(_) => return None,
            Term::Int(..) | Term::Any(_) => Kind::Dim,
            Term::Str(_) => Kind::Str,
            Term::Float(..) => Kind::Float,
            Term::Bool(..) | Term::Cmp(..) | Term::Logic(..) | Term::Not(..) => Kind::Bool,
            Term::Call { name, .. } if name == "Tuple" => Kind::Type,
            Term::Call { name, .. } => return signature(&name.to_string()).map(|s| s.1),
            Term::Tuple(..) | Term::Rest(..) => Kind::Type,
            Term::List(..) | Term::Slice(..) | Term::Repeat(..) => Kind::Shape,
            Term::As(_, p) => return self.peek(p),
            Term::Index(_, _, i) if self.peek(i) == Some(Kind::Shape) => Kind::Shape,
            Term::Index(b, _, _) if self.peek(b) == Some(Kind::Type) => Kind::Type,
            Term::Index(..) | Term::Binary(..) | Term::Neg(..) => Kind::Dim,
            Term::Comp { .. } | Term::Range(..) => Kind::Shape,
            Term::In(..) => Kind::Bool,
            Term::IfElse(_, _, a, b) => return self.peek(a).or_else(|| self.peek(b)),
            Term::Attr(_, name) => {
                let name = name.to_string();
                return self.attrs.iter().find(|a| a.0 == name).map(|a| a.1);
            }
        })
    }

    /// `l = r`: checked when the kind of one side is known; `false` to try again later.
    fn equation(&mut self, l: &Term, r: &Term) -> bool {
        let Some(kind) = self.peek(l).or_else(|| self.peek(r)) else {
            return false;
        };
        self.term(l, kind, true);
        self.term(r, kind, true);
        true
    }
}
