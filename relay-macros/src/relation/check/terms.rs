//! Checking the terms of a body: each against the kind its place wants.

use super::super::ast::{BinOp, CmpOp, ListItem, Term};
use super::*;

impl Checker {
    /// A body term expected to be of kind `want`. `bind`: the position can bind a
    /// variable (a whole side of an equation, or a constructor's part of one).
    pub(super) fn term(&mut self, t: &Term, want: Kind, bind: bool) {
        let found = |k: Kind| format!("a {}", k.name());
        match t {
            Term::Name(id) if id == "None" => self.error(
                id.span(),
                "expected `None` only in `attrs.name == None` or `attrs.name != None`".into(),
            ),
            Term::Name(id) => {
                let name = id.to_string();
                match dtype_literal(&name) {
                    Some(Ok(_)) if want == Kind::DType => {}
                    Some(Ok(_)) => self.mismatch(id.span(), want, format!("the dtype `{name}`")),
                    Some(Err(())) => self.error(
                        id.span(),
                        format!(
                            "`{name}` is not a data type, expected one of `bool`, `int8`-`int64`, `uint8`-`uint64`, `float16`/`float32`/`float64`, `bfloat16`, optionally with lanes (`float32x4`)"
                        ),
                    ),
                    None => self.var(id, Some(want), bind),
                }
            }
            Term::Wild(_) => {}
            Term::Int(c, span) => {
                self.expect_kind(*span, want, Kind::Dim, || format!("the integer `{c}`"));
            }
            Term::Any(span) => {
                self.expect_kind(*span, want, Kind::Dim, || "the dimension `?`".into());
            }
            Term::Bool(b, span) => {
                self.expect_kind(*span, want, Kind::Bool, || format!("`{b}`"));
            }
            Term::Call { name, args } => {
                let n = name.to_string();
                if n == "Tuple" {
                    self.expect_kind(name.span(), want, Kind::Type, || "a tuple type".into());
                    self.fields(args, |c, a| c.term(a, Kind::Type, bind));
                    return;
                }
                // The number of fields of a tuple, as the rank of a shape.
                if n == "len" && args.len() == 1 && self.peek(&args[0]) == Some(Kind::Type) {
                    self.expect_kind(name.span(), want, Kind::Dim, || {
                        "`len(..)`, a dimension".into()
                    });
                    self.term(&args[0], Kind::Type, false);
                    return;
                }
                let Some((params, result)) = signature(&n) else {
                    let known: Vec<String> = ["Tensor", "Tuple"]
                        .into_iter()
                        .chain(builtins::BUILTINS.iter().map(|b| b.name))
                        .map(|b| format!("`{b}`"))
                        .collect();
                    self.error(
                        name.span(),
                        format!(
                            "unknown builtin `{n}`, expected one of {} (call a Rust function with `rust(path)(args)`)",
                            known.join(", ")
                        ),
                    );
                    return;
                };
                if args.len() != params.len() {
                    let plural = if params.len() == 1 { "" } else { "s" };
                    self.error(
                        name.span(),
                        format!(
                            "`{n}` takes {} argument{plural}, found {}",
                            params.len(),
                            args.len()
                        ),
                    );
                    return;
                }
                self.expect_kind(name.span(), want, result, || {
                    format!("`{n}(..)`, {}", found(result))
                });
                let bind = bind && n == "Tensor";
                for (a, k) in args.iter().zip(params.iter()) {
                    self.term(a, *k, bind);
                }
            }
            Term::Tuple(span, items) => {
                self.expect_kind(*span, want, Kind::Type, || "a tuple type".into());
                self.fields(items, |c, a| c.term(a, Kind::Type, bind));
            }
            Term::Rest(span, _) => self.error(
                *span,
                "expected `..rest` only among the fields of a tuple (`Tuple(x, ..rest)`)".into(),
            ),
            // A field of a tuple.
            Term::Index(base, span, index) if self.peek(base) == Some(Kind::Type) => {
                self.expect_kind(*span, want, Kind::Type, || {
                    format!("`{}`, a field of a tuple (a type)", show(t))
                });
                self.term(base, Kind::Type, false);
                self.term(index, Kind::Dim, false);
            }
            Term::List(span, items) => {
                self.expect_kind(*span, want, Kind::Shape, || {
                    format!("a shape `{}`", show(t))
                });
                for item in items {
                    match item {
                        ListItem::Dim(d) => self.term(d, Kind::Dim, bind),
                        ListItem::Splice(_, s) => self.term(s, Kind::Shape, bind),
                    }
                }
            }
            Term::Index(base, span, index) if self.peek(index) == Some(Kind::Shape) => {
                self.expect_kind(*span, want, Kind::Shape, || {
                    format!("a shape `{}`", show(t))
                });
                self.term(base, Kind::Shape, false);
                self.term(index, Kind::Shape, false);
            }
            Term::Index(base, span, index) => {
                self.expect_kind(*span, want, Kind::Dim, || {
                    // What the author wrote, and why it is taken for a dimension.
                    let hint = match &**index {
                        Term::Rust { ret: None, .. } => " (an index whose kind is not declared is a dimension: declare the kind the function returns, `rust(f -> shape)(..)`)",
                        _ => "",
                    };
                    format!("a dimension `{}`{hint}", show(t))
                });
                self.term(base, Kind::Shape, false);
                self.term(index, Kind::Dim, false);
            }
            Term::Repeat(span, d, n) => {
                self.expect_kind(*span, want, Kind::Shape, || {
                    format!("a shape `{}`", show(t))
                });
                self.term(d, Kind::Dim, false);
                self.term(n, Kind::Dim, false);
            }
            Term::As(id, p) => {
                self.var(id, Some(want), bind);
                self.term(p, want, bind);
            }
            Term::Slice(base, span, lo, hi) => {
                self.expect_kind(*span, want, Kind::Shape, || {
                    format!("a shape `{}`", show(t))
                });
                self.term(base, Kind::Shape, false);
                for b in lo.iter().chain(hi.iter()) {
                    self.term(b, Kind::Dim, false);
                }
            }
            Term::Binary(BinOp::Mul, span, a, b) if self.is_float(a) || self.is_float(b) => {
                self.expect_kind(*span, want, Kind::Dim, || {
                    "a dimension (the result of `*`)".into()
                });
                let (d, x) = if self.is_float(b) { (a, b) } else { (b, a) };
                self.term(d, Kind::Dim, false);
                if let Term::Index(_, _, i) = &**x {
                    self.term(i, Kind::Dim, false);
                }
            }
            Term::Binary(op, span, a, b) => {
                self.expect_kind(*span, want, Kind::Dim, || {
                    format!("a dimension (the result of `{}`)", op.symbol())
                });
                self.term(a, Kind::Dim, false);
                self.term(b, Kind::Dim, false);
            }
            Term::Neg(span, a) => {
                self.expect_kind(*span, want, Kind::Dim, || "a dimension (a negation)".into());
                self.term(a, Kind::Dim, false);
            }
            Term::Cmp(op, span, a, b) if is_none(a) || is_none(b) => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    format!("a comparison `{}`", op.symbol())
                });
                let (attr, none) = if is_none(b) { (a, b) } else { (b, a) };
                let ok_op = matches!(op, CmpOp::Eq | CmpOp::Ne);
                match &**attr {
                    Term::Attr(_, name) if ok_op => {
                        let n = name.to_string();
                        if self.untyped.contains(&n) {
                        } else if self.attrs.iter().all(|a| a.0 != n) {
                            self.term(attr, Kind::Dim, false);
                        } else if !self.optional.contains(&n) {
                            self.error(
                                name.span(),
                                format!(
                                    "the attribute `{n}` is not optional, so it is never `None` (declare it `{n}: Option<..>`)"
                                ),
                            );
                        }
                    }
                    _ => self.error(
                        none.span(),
                        "expected `None` only in `attrs.name == None` or `attrs.name != None`"
                            .into(),
                    ),
                }
            }
            Term::Cmp(op, span, a, b) if self.str_or_float(a, b).is_some() => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    format!("a comparison `{}`", op.symbol())
                });
                let kind = self.str_or_float(a, b).unwrap_or(Kind::Str);
                let literal = |t: &Term| match kind {
                    Kind::Str => matches!(t, Term::Str(_)),
                    _ => matches!(t, Term::Float(..) | Term::Int(..)),
                };
                let attr = |t: &Term| matches!(t, Term::Attr(..));
                if !(attr(a) && literal(b) || literal(a) && attr(b)) {
                    self.error(
                        *span,
                        format!(
                            "expected a {} attribute compared with a literal (`attrs.name {} {}`), found `{}`",
                            if kind == Kind::Str { "`str`" } else { "`float`" },
                            op.symbol(),
                            if kind == Kind::Str { "\"text\"" } else { "0.5" },
                            show(t)
                        ),
                    );
                    return;
                }
                if kind == Kind::Str && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    self.error(
                        *span,
                        format!(
                            "expected `==` or `!=` between strings, found `{}`",
                            op.symbol()
                        ),
                    );
                }
                let name = match (a.as_ref(), b.as_ref()) {
                    (Term::Attr(_, n), _) | (_, Term::Attr(_, n)) => n.to_string(),
                    _ => String::new(),
                };
                match self.attrs.iter().find(|x| x.0 == name) {
                    Some(&(_, k)) if k == kind => {}
                    Some(&(_, k)) => self.error(
                        *span,
                        format!(
                            "expected a {} attribute, found the {} attribute `{name}`",
                            kind.name(),
                            k.name()
                        ),
                    ),
                    None => self.term(if attr(a) { a } else { b }, kind, false),
                }
            }
            Term::Logic(and, span, a, b) => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    let op = if *and { "&&" } else { "||" };
                    format!("a bool (the result of `{op}`)")
                });
                self.term(a, Kind::Bool, false);
                self.term(b, Kind::Bool, false);
            }
            Term::Not(span, a) => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    "a bool (the result of `!`)".into()
                });
                self.term(a, Kind::Bool, false);
            }
            Term::Str(lit) => {
                self.expect_kind(lit.span(), want, Kind::Str, || {
                    format!("the string {}", show(t))
                });
            }
            Term::Float(x, span) => {
                self.expect_kind(*span, want, Kind::Float, || format!("the float `{x}`"));
            }
            Term::Cmp(op, span, a, b) => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    format!("a comparison `{}`", op.symbol())
                });
                let kind = match op {
                    CmpOp::Eq | CmpOp::Ne => {
                        self.peek(a).or_else(|| self.peek(b)).unwrap_or(Kind::Dim)
                    }
                    _ => Kind::Dim,
                };
                self.term(a, kind, false);
                self.term(b, kind, false);
            }
            Term::Attr(_, name) if self.untyped.contains(&name.to_string()) => {}
            Term::Attr(_, name) => {
                let n = name.to_string();
                match self.attrs.iter().find(|a| a.0 == n) {
                    Some(&(_, Kind::Float | Kind::Floats)) => self.error(
                        name.span(),
                        format!(
                            "the float attribute `{n}` is only compared with a literal (`attrs.{n} < 0.5`) or multiplies a dimension (`h * attrs.{n}`, or `h * attrs.{n}[0]` for a `[float]`)"
                        ),
                    ),
                    Some(&(_, Kind::Str)) => self.error(
                        name.span(),
                        format!(
                            "the string attribute `{n}` is only compared with a literal (`attrs.{n} == \"text\"`), passed to a Rust function (`rust(f)(attrs.{n})`) or shown by an `assert` message (`assert(cond, \"{{}}\", attrs.{n})`)"
                        ),
                    ),
                    Some(&(_, kind)) => self.expect_kind(name.span(), want, kind, || {
                        format!("the {} attribute `{n}`", kind.name())
                    }),
                    None => {
                        let declared: Vec<String> =
                            self.attrs.iter().map(|a| format!("`{}`", a.0)).collect();
                        let hint = if declared.is_empty() {
                            format!("no attribute is declared (declare it with `attrs({n}: int)` at the end of the clause)")
                        } else {
                            format!("the declared attributes are {}", declared.join(", "))
                        };
                        self.error(name.span(), format!("unknown attribute `{n}`: {hint}"));
                    }
                }
            }
            Term::Comp(comp) => {
                let span = &comp.span;
                let (elem, var, src, cond) = comp.parts();
                self.expect_kind(*span, want, Kind::Shape, || {
                    format!("a shape `{}`", show(t))
                });
                self.source(src);
                self.local(var, src);
                self.term(elem, Kind::Dim, false);
                if let Some(c) = cond {
                    self.term(c, Kind::Bool, false);
                }
            }
            Term::Range(span, ..) => self.error(
                *span,
                "expected a range `a..b` only after `in` in a comprehension or a `for` loop".into(),
            ),
            Term::In(span, x, list) => {
                self.expect_kind(*span, want, Kind::Bool, || {
                    "a bool (the result of `in`)".into()
                });
                self.term(x, Kind::Dim, false);
                self.term(list, Kind::Shape, false);
            }
            Term::IfElse(_, cond, a, b) => {
                self.term(cond, Kind::Bool, false);
                self.term(a, want, false);
                self.term(b, want, false);
            }
            Term::Rust { ret, args, .. } => {
                if let Some(k) = ret {
                    match Kind::declared(&k.to_string()) {
                        Some(kind) if kind != want => self.mismatch(
                            k.span(),
                            want,
                            format!("`{}`, which returns a {}", show(t), kind.name()),
                        ),
                        Some(_) => {}
                        None => self.error(
                            k.span(),
                            format!(
                                "unknown kind `{k}`: a Rust function returns a `type`, a `shape`, a `dim`, a `dtype` or a `bool`"
                            ),
                        ),
                    }
                }
                for a in args {
                    self.value(a);
                }
            }
        }
    }

    /// A value passed on (a Rust function's argument, a message's value): any term, or
    /// a `str` attribute (a string: an einsum equation, a layout in a message).
    pub(super) fn value(&mut self, a: &Term) {
        match a {
            Term::Attr(_, n) if self.attrs.iter().any(|x| *n == x.0 && x.1 == Kind::Str) => {}
            _ => self.any_term(a),
        }
    }

    /// Whether `t` is a float that multiplies a dimension (`h * attrs.scale`).
    fn is_float(&self, t: &Term) -> bool {
        is_float(t, |n| {
            self.attrs.iter().find(|a| a.0 == n).map(|a| match a.1 {
                Kind::Float => "float",
                Kind::Floats => "[float]",
                _ => "",
            })
        })
    }

    /// `Str` or `Float` when a side of a comparison is a string or a float (attribute or
    /// literal; an integer literal goes with a float attribute).
    fn str_or_float(&self, a: &Term, b: &Term) -> Option<Kind> {
        [self.peek(a), self.peek(b)]
            .into_iter()
            .flatten()
            .find(|k| matches!(k, Kind::Str | Kind::Float))
    }
}
