//! The arguments a clause needs ([`RelationDef::needs`] of relay-core): those it must
//! take apart before it can compute anything, so that the solver does not run the
//! relation while one of them is an unknown.
//!
//! Argument `i` is needed when its head pattern takes it apart (`Tensor(..)`, a tuple,
//! a list) and the clause cannot rebuild it from the other arguments: some variable of
//! the pattern is bound by no other head pattern and by no equation whose other side can
//! be computed without argument `i` (equations are followed to a fixpoint, and a side
//! binds only the variables it reaches through constructors: `Tensor`, tuples, lists).
//! Until such an argument is known the clause could only wait, or at most pass on a
//! fact that is not its result (a dtype shared by two other arguments); that is left to
//! the run that follows.
//!
//! `Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)`
//! needs its two inputs (nothing gives `s1` or `s2` back); `Identity(I, I)` needs
//! nothing; `Rotate(Tensor([a, ..r], d), O) :- O = Tensor([..r, a], d)` needs nothing
//! either (its input is rebuilt from its output).
//!
//! [`RelationDef::needs`]: https://docs.rs/relay-core

use super::ast::{Clause, Goal, ListItem, Term};
use super::check::dtype_literal;
use std::collections::HashSet;

/// The indices of the arguments `clause` needs, in order.
pub fn needs(clause: &Clause) -> Vec<usize> {
    (0..clause.head.len())
        .filter(|&i| needed(clause, i))
        .collect()
}

fn needed(clause: &Clause, i: usize) -> bool {
    let pattern = &clause.head[i];
    let inner = match pattern {
        Term::As(_, p) => &**p,
        p => p,
    };
    let structural = matches!(inner, Term::Tuple(..) | Term::List(..))
        || matches!(inner, Term::Call { name, .. } if name == "Tensor" || name == "Tuple");
    if !structural {
        return false;
    }
    let mut mine = HashSet::new();
    // An `X @ pattern` is rebuilt from `X` or from its pattern.
    let (whole, pattern) = match pattern {
        Term::As(x, p) => (Some(x.to_string()), &**p),
        p => (None, p),
    };
    vars(pattern, &mut mine);
    if mine.is_empty() {
        return false;
    }
    let mut known = HashSet::new();
    for (j, p) in clause.head.iter().enumerate() {
        if j != i {
            vars(p, &mut known);
        }
    }
    let (mut equations, mut defaults) = (Vec::new(), Vec::new());
    collect(&clause.body, &mut equations, &mut defaults);
    loop {
        let before = known.len();
        for &(l, r) in &equations {
            for (from, to) in [(l, r), (r, l)] {
                if computable(from, &known) {
                    reachable(to, &mut known);
                }
            }
        }
        for &(var, value) in &defaults {
            if computable(value, &known) {
                reachable(var, &mut known);
            }
        }
        if known.len() == before {
            break;
        }
    }
    !mine.is_subset(&known) && !whole.is_some_and(|x| known.contains(&x))
}

/// Every equation of `goals`, and every `default(x, value)` (which gives `x` from
/// `value`, never the other way), in both branches of each `if` (a variable an equation
/// of either branch can bind counts as given back: needing less is always sound).
fn collect<'a>(
    goals: &'a [Goal],
    out: &mut Vec<(&'a Term, &'a Term)>,
    defaults: &mut Vec<(&'a Term, &'a Term)>,
) {
    for g in goals {
        match g {
            Goal::Eq(l, r) | Goal::AssertEq { lhs: l, rhs: r, .. } => out.push((l, r)),
            Goal::Default { var, value, .. } => defaults.push((var, value)),
            Goal::If { then, els, .. } => {
                collect(then, out, defaults);
                collect(els, out, defaults);
            }
            // A loop's equations mention its variable: they give nothing back.
            // What another relation gives back is its own (the clause waits for it).
            Goal::Check(_) | Goal::Assert { .. } | Goal::For { .. } | Goal::Relation { .. } => {}
        }
    }
}

fn is_var(id: &syn::Ident) -> bool {
    dtype_literal(&id.to_string()).is_none()
}

/// Every variable of `t` (but a comprehension's own).
fn vars(t: &Term, out: &mut HashSet<String>) {
    match t {
        Term::Name(id) if is_var(id) => {
            out.insert(id.to_string());
        }
        Term::As(id, _) => {
            out.insert(id.to_string());
        }
        Term::Comp(comp) => {
            let (elem, var, src, cond) = comp.parts();
            vars(src, out);
            let mut inner = HashSet::new();
            vars(elem, &mut inner);
            cond.iter().for_each(|c| vars(c, &mut inner));
            inner.remove(&var.to_string());
            out.extend(inner);
            return;
        }
        _ => {}
    }
    for c in t.children() {
        vars(c, out);
    }
}

/// Whether `t` can be computed from the variables in `known`.
fn computable(t: &Term, known: &HashSet<String>) -> bool {
    let mut all = HashSet::new();
    vars(t, &mut all);
    !has_wild(t) && all.is_subset(known)
}

fn has_wild(t: &Term) -> bool {
    matches!(t, Term::Wild(_)) || t.children().into_iter().any(has_wild)
}

/// The variables a known value binds when taken apart along `t`: those reached through
/// constructors only.
fn reachable(t: &Term, out: &mut HashSet<String>) {
    match t {
        Term::Name(id) if is_var(id) => {
            out.insert(id.to_string());
        }
        Term::Call { name, args } if name == "Tensor" || name == "Tuple" => {
            args.iter().for_each(|a| reachable(a, out))
        }
        Term::Tuple(_, args) => args.iter().for_each(|a| reachable(a, out)),
        Term::Rest(_, rest) => reachable(rest, out),
        Term::As(id, p) => {
            out.insert(id.to_string());
            reachable(p, out);
        }
        Term::List(_, items) => {
            let splices = items
                .iter()
                .filter(|i| matches!(i, ListItem::Splice(..)))
                .count();
            if splices <= 1 {
                items.iter().for_each(|i| match i {
                    ListItem::Dim(t) | ListItem::Splice(_, t) => reachable(t, out),
                });
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::ast::clause;
    use super::needs;

    /// Clauses and the inputs each needs known.
    const CASES: &[(&str, &[usize])] = &[
        // Inputs that cannot be rebuilt.
        (
            "Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt)",
            &[0, 1],
        ),
        (
            "Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt)",
            &[0],
        ),
        // Arguments rebuilt from others.
        ("Identity(I, I) :- true", &[]),
        ("Rotate(Tensor([a, ..r], d), O) :- O = Tensor([..r, a], d)", &[]),
        // A pattern without variables only checks.
        ("Any(Tensor(_, _), O) :- O = Tensor([], bool)", &[]),
        // Either input is rebuilt from the other and the output.
        (
            "Dense(Tensor([..b, k], bt), Tensor([u, k], bt), O) :- O = Tensor([..b, u], bt)",
            &[],
        ),
        // `X @ pattern` is rebuilt from `X`.
        ("Same(X @ Tensor(s, bt), O) :- O = X", &[]),
        // A default gives its variable, never the other way.
        (
            "W(Tensor([k], bt), Tensor(sw, wt), O) :- sw = [2, k], default(wt, bt), O = Tensor([k], wt)",
            &[0],
        ),
        // Equations in either branch of an `if` count.
        (
            "I(Tensor(s, bt), O) :- if attrs.f { O = Tensor(s, bt) } else { O = Tensor(s, bt) }, attrs(f: bool)",
            &[],
        ),
        // Two splices in an equation: their lengths are not determined, `a` and `b` are
        // not given back.
        (
            "Cat(Tensor(s, d), O) :- s = [..a, ..b], len(a) == 1, O = Tensor([..b, ..a], d)",
            &[0],
        ),
    ];

    #[test]
    fn the_inputs_each_clause_needs() {
        for (src, want) in CASES {
            assert_eq!(needs(&clause(src)), *want, "{src}");
        }
    }
}
