//! Clause terms printed back in the clause syntax (the text of conditions for their
//! default messages), and the small facts about messages and `None` the other stages ask.

use super::ast::{ListItem, Term};

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
        Term::Logic(and, _, a, b) => {
            format!("{} {} {}", show(a), if *and { "&&" } else { "||" }, show(b))
        }
        Term::Not(_, a) => format!("!{}", show(a)),
        Term::Str(l) => format!("{:?}", l.value()),
        Term::Float(x, _) => format!("{x:?}"),
        Term::Bool(b, _) => b.to_string(),
        Term::Call { name, args } => format!("{name}({})", list(args)),
        Term::Tuple(_, items) if items.len() == 1 => format!("({},)", show(&items[0])),
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
        Term::Binary(op, _, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        Term::Neg(_, a) => format!("-{}", show(a)),
        Term::Cmp(op, _, a, b) => format!("{} {} {}", show(a), op.symbol(), show(b)),
        Term::Attr(_, n) => format!("attrs.{n}"),
        Term::Comp {
            elem,
            var,
            src,
            cond,
            ..
        } => match cond {
            Some(c) => format!("[{} for {var} in {} if {}]", show(elem), show(src), show(c)),
            None => format!("[{} for {var} in {}]", show(elem), show(src)),
        },
        Term::Range(_, lo, hi) => format!("{}..{}", show(lo), show(hi)),
        Term::In(_, x, l) => format!("{} in {}", show(x), show(l)),
        Term::IfElse(_, c, a, b) => {
            format!("if {} {{ {} }} else {{ {} }}", show(c), show(a), show(b))
        }
        Term::Rust { path, args, .. } => {
            let p = quote::quote!(#path).to_string().replace(' ', "");
            format!("rust({p})({})", list(args))
        }
    }
}
