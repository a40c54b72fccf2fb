//! The variables of comprehensions and loops are local: each is used only inside the
//! comprehension or loop that introduces it, and none introduces a name an enclosing one
//! already has.

use super::super::ast::{Clause, Goal, Term};
use syn::Ident;

/// Reports every use of a local variable outside its comprehension or loop, and every
/// local that shadows an enclosing one.
pub fn check(clause: &Clause, locals: &[String], errors: &mut Vec<syn::Error>) {
    if locals.is_empty() {
        return;
    }
    let mut s = Scope {
        locals,
        bound: Vec::new(),
        errors,
    };
    for t in &clause.head {
        s.term(t);
    }
    s.goals(&clause.body);
}

struct Scope<'a> {
    locals: &'a [String],
    /// The local variables in scope, innermost last.
    bound: Vec<String>,
    errors: &'a mut Vec<syn::Error>,
}

impl Scope<'_> {
    fn name(&mut self, id: &Ident) {
        let name = id.to_string();
        if self.locals.contains(&name) && !self.bound.contains(&name) {
            self.errors.push(syn::Error::new(
                id.span(),
                format!(
                    "`{name}` is the variable of a comprehension or a `for` loop: it is defined only inside it"
                ),
            ));
        }
    }

    /// Runs `f` with `var` in scope.
    fn with(&mut self, var: &Ident, f: impl FnOnce(&mut Self)) {
        let name = var.to_string();
        if self.bound.contains(&name) {
            self.errors.push(syn::Error::new(
                var.span(),
                format!("`{name}` is already the variable of an enclosing comprehension or loop"),
            ));
        }
        self.bound.push(name);
        f(self);
        self.bound.pop();
    }

    fn goals(&mut self, goals: &[Goal]) {
        for g in goals {
            match g {
                Goal::Eq(l, r) => {
                    self.term(l);
                    self.term(r);
                }
                Goal::Check(t) => self.term(t),
                Goal::Relation { args, .. } => args.iter().for_each(|a| self.term(a)),
                Goal::Assert { cond, args, .. } => {
                    self.term(cond);
                    args.iter().for_each(|a| self.term(a));
                }
                Goal::AssertEq { lhs, rhs, args, .. } => {
                    self.term(lhs);
                    self.term(rhs);
                    args.iter().for_each(|a| self.term(a));
                }
                Goal::If { cond, then, els } => {
                    self.term(cond);
                    self.goals(then);
                    self.goals(els);
                }
                Goal::Default { var, value, .. } => {
                    self.term(var);
                    self.term(value);
                }
                Goal::For { var, src, body, .. } => {
                    self.term(src);
                    self.with(var, |s| s.goals(body));
                }
            }
        }
    }

    fn term(&mut self, t: &Term) {
        match t {
            Term::Name(id) | Term::As(id, _) => self.name(id),
            Term::Comp(comp) => {
                let (elem, var, src, cond) = comp.parts();
                self.term(src);
                self.with(var, |s| {
                    s.term(elem);
                    if let Some(c) = cond {
                        s.term(c);
                    }
                });
                return;
            }
            _ => {}
        }
        for c in t.children() {
            self.term(c);
        }
    }
}
