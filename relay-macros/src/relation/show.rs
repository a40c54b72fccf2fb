//! Clause terms printed back in the clause syntax (the text of conditions for their
//! default messages), and the small facts about messages and `None` the other stages ask.

use super::ast::{AttrDecl, BinOp, Clause, Goal, ListItem, Term};

/// Whether `t` is `None`.
pub fn is_none(t: &Term) -> bool {
    matches!(t, Term::Name(id) if id == "None")
}

/// The number of `{}` in an `assert` message (`{{` and `}}` are braces).
pub fn placeholders(text: &str) -> usize {
    let mut n = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('{', Some('{')) | ('}', Some('}')) => {
                chars.next();
            }
            ('{', Some('}')) => {
                chars.next();
                n += 1;
            }
            _ => {}
        }
    }
    n
}

/// `t` printed back in the clause syntax (for messages and the text of conditions).
pub fn show(t: &Term) -> String {
    let list = |ts: &[Term]| ts.iter().map(show).collect::<Vec<_>>().join(", ");
    match t {
        Term::Name(i) => i.to_string(),
        Term::Wild(_) => "_".into(),
        Term::Int(c, _) => c.to_string(),
        Term::Any(_) => "?".into(),
        Term::Logic(and, _, a, b) => {
            format!("{} {} {}", show(a), if *and { "&&" } else { "||" }, show(b))
        }
        Term::Not(_, a) => format!("!{}", show(a)),
        Term::Str(l) => format!("{:?}", l.value()),
        Term::Float(x, _) => format!("{x:?}"),
        Term::Bool(b, _) => b.to_string(),
        Term::Call { name, args } => format!("{name}({})", list(args)),
        Term::Tuple(_, items) if items.len() == 1 && !matches!(items[0], Term::Rest(..)) => {
            format!("({},)", show(&items[0]))
        }
        Term::Rest(_, t) => format!("..{}", show(t)),
        Term::Tuple(_, items) => format!("({})", list(items)),
        Term::List(_, items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| match i {
                    ListItem::Dim(t) => show(t),
                    ListItem::Splice(_, t) => format!("..{}", show(t)),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Term::Index(b, _, i) => format!("{}[{}]", show(b), show(i)),
        Term::Repeat(_, d, n) => format!("[{}; {}]", show(d), show(n)),
        Term::As(id, p) => format!("{id} @ {}", show(p)),
        Term::Slice(b, _, lo, hi) => format!(
            "{}[{}..{}]",
            show(b),
            lo.as_deref().map(show).unwrap_or_default(),
            hi.as_deref().map(show).unwrap_or_default()
        ),
        Term::Binary(op, _, a, b) => {
            // Parentheses where the tree groups otherwise than precedence would: `(a + b) * c`,
            // `a - (b - c)`.
            let level = |op: &BinOp| match op {
                BinOp::Add | BinOp::Sub => 1,
                BinOp::Mul | BinOp::Div | BinOp::Rem => 2,
            };
            let side = |t: &Term, right: bool| match t {
                Term::Binary(inner, ..)
                    if level(inner) < level(op) || (right && level(inner) == level(op)) =>
                {
                    format!("({})", show(t))
                }
                Term::Logic(..) | Term::Cmp(..) | Term::IfElse(..) => format!("({})", show(t)),
                _ => show(t),
            };
            format!("{} {} {}", side(a, false), op.symbol(), side(b, true))
        }
        Term::Neg(_, a) if matches!(**a, Term::Binary(..)) => format!("-({})", show(a)),
        Term::Neg(_, a) => format!("-{}", show(a)),
        Term::Cmp(op, _, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        Term::Attr(_, n) => format!("attrs.{n}"),
        Term::Comp(comp) => {
            let (elem, var, src, cond) = comp.parts();
            match cond {
                Some(c) => format!("[{} for {var} in {} if {}]", show(elem), show(src), show(c)),
                None => format!("[{} for {var} in {}]", show(elem), show(src)),
            }
        }
        Term::Range(_, lo, hi) => format!("{}..{}", show(lo), show(hi)),
        Term::In(_, x, l) => format!("{} in {}", show(x), show(l)),
        Term::IfElse(_, c, a, b) => {
            format!("if {} {{ {} }} else {{ {} }}", show(c), show(a), show(b))
        }
        Term::Rust {
            path, ret, args, ..
        } => {
            let p = quote::quote!(#path).to_string().replace(' ', "");
            let ret = ret.as_ref().map(|k| format!(" -> {k}")).unwrap_or_default();
            format!("rust({p}{ret})({})", list(args))
        }
    }
}

/// `c` printed back in the clause syntax, one goal a line (for the relation's rustdoc).
pub fn show_clause(c: &Clause) -> String {
    let head: Vec<String> = c.head.iter().map(show).collect();
    let mut lines = Vec::new();
    goals(&c.body, 1, &mut lines);
    let attrs: Vec<String> = c
        .attrs
        .iter()
        .flat_map(|b| b.decls.iter())
        .map(show_attr)
        .collect();
    if !attrs.is_empty() {
        lines.push(format!("    attrs({})", attrs.join(", ")));
    }
    format!("{}({}) :-\n{}", c.name, head.join(", "), lines.join(",\n"))
}

fn show_attr(d: &AttrDecl) -> String {
    let ty = if d.ty.optional {
        format!("Option<{}>", d.ty.base)
    } else {
        d.ty.base.clone()
    };
    match &d.default {
        Some(v) => format!("{}: {ty} = {}", d.name, show(v)),
        None => format!("{}: {ty}", d.name),
    }
}

/// Pushes `body`'s goals, indented `depth` levels, a line each (nested blocks over
/// several).
fn goals(body: &[Goal], depth: usize, out: &mut Vec<String>) {
    let pad = "    ".repeat(depth);
    for g in body {
        match g {
            Goal::Eq(l, r) => out.push(format!("{pad}{} = {}", show(l), show(r))),
            Goal::Check(t) => out.push(format!("{pad}{}", show(t))),
            Goal::Relation { name, args } => {
                let args: Vec<String> = args.iter().map(show).collect();
                out.push(format!("{pad}{name}({})", args.join(", ")))
            }
            Goal::Assert {
                cond,
                message,
                args,
            } => out.push(format!(
                "{pad}assert({}, {:?}{})",
                show(cond),
                message.value(),
                args.iter()
                    .map(|a| format!(", {}", show(a)))
                    .collect::<String>()
            )),
            Goal::AssertEq {
                lhs,
                rhs,
                message,
                args,
            } => out.push(format!(
                "{pad}assert({} = {}, {:?}{})",
                show(lhs),
                show(rhs),
                message.value(),
                args.iter()
                    .map(|a| format!(", {}", show(a)))
                    .collect::<String>()
            )),
            Goal::Default { var, value, .. } => {
                out.push(format!("{pad}default({}, {})", show(var), show(value)))
            }
            Goal::If { cond, then, els } => {
                block(out, format!("{pad}if {} {{", show(cond)), then, depth);
                if !els.is_empty() {
                    let last = out.pop().unwrap_or_default();
                    block(out, format!("{last} else {{"), els, depth);
                }
            }
            Goal::For { var, src, body, .. } => {
                block(
                    out,
                    format!("{pad}for {var} in {} {{", show(src)),
                    body,
                    depth,
                );
            }
        }
    }
}

/// `open`, then `body` one level deeper (goals separated by commas), then `}`, as one
/// entry of `out`.
fn block(out: &mut Vec<String>, open: String, body: &[Goal], depth: usize) {
    let mut inner = Vec::new();
    goals(body, depth + 1, &mut inner);
    out.push(format!(
        "{open}\n{}\n{}}}",
        inner.join(",\n"),
        "    ".repeat(depth)
    ));
}

#[cfg(test)]
mod tests {
    use super::super::ast::clause;
    use super::show_clause;

    fn shown(src: &str) -> String {
        show_clause(&clause(src))
    }

    #[test]
    fn a_clause_is_shown_a_goal_a_line() {
        assert_eq!(
            shown("Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)"),
            "Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :-\n    O = Tensor(broadcast(s1, s2), bt)"
        );
        assert_eq!(
            shown(
                "Pool(Tensor([n, c, h], bt), O) :- assert(attrs.k >= 1, \"`k` is {}\", attrs.k), \
                 if attrs.ceil { O = Tensor([n, c, (h - attrs.k + 1) * 2], bt) } \
                 else { O = Tensor([n, c, h - (attrs.k - 1)], bt) }, \
                 for a in attrs.axes { a >= 0 }, \
                 attrs(k: int = 2, ceil: bool = false, axes: Option<[int]> = None)"
            ),
            "Pool(Tensor([n, c, h], bt), O) :-\n    \
             assert(attrs.k >= 1, \"`k` is {}\", attrs.k),\n    \
             if attrs.ceil {\n        O = Tensor([n, c, (h - attrs.k + 1) * 2], bt)\n    } else {\n        \
             O = Tensor([n, c, h - (attrs.k - 1)], bt)\n    },\n    \
             for a in attrs.axes {\n        a >= 0\n    },\n    \
             attrs(k: int = 2, ceil: bool = false, axes: Option<[int]> = None)"
        );
    }
}
