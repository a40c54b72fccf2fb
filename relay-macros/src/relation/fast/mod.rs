//! The clause's compiled run: a function that runs the clause's steps in source
//! order, as the interpreter's first pass does when no step waits, with every decision
//! that depends only on the clause taken here: which side of an equation is computed and
//! which is taken apart, which variables are bound where, and how each value is held.
//!
//! Values are held by what they are known to be: an integer that is a constant by
//! construction (a literal, a rank, an integer attribute, an index of a range, arithmetic
//! of those) is an `i64`; other dimensions are `Dim`s; a list is a stack-allocated
//! `List` of either. What the code cannot decide alone (an unknown, a comparison of
//! symbolic dimensions, an error) makes it return `None`, and the interpreter runs the
//! clause from its start (`relay_core::clause::fast` says why that is sound).
//!
//! A clause with a form this file does not compile gets no function (`None` from
//! [`fast_fn`]) and is interpreted: a goal that uses a variable a later goal binds, a
//! variable bound in an `if` inside a loop's body, a `default` whose variable nothing
//! binds before it. A variable a loop's body binds is one across the iterations, as in
//! the interpreter: an `Option` of its first binding, which the next are unified with.

mod pattern;
mod term;

use super::ast::{AttrDecl, Clause, Goal, ListItem, Term};
use super::check::{show, Checked};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use std::collections::HashMap;
use syn::Ident;

/// How a value is held in the generated code.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Rep {
    /// `i64`: a dimension known to be a constant.
    Int,
    /// `Dim`.
    Dim,
    /// `List<i64>`.
    Ints,
    /// `List<Dim>`.
    Dims,
    /// `bool`.
    Bool,
    /// `DTy`.
    DType,
    /// `Ty`.
    Ty,
    /// `Ty`, a tuple type, resolved.
    Tuple,
    /// `Value`: what a Rust function gave, of the kind the clause uses it as.
    Value,
}

/// A computed value: an expression of its representation.
struct Val {
    rep: Rep,
    code: TokenStream,
}

impl Val {
    fn new(rep: Rep, code: TokenStream) -> Self {
        Val { rep, code }
    }
}

/// What a variable is bound to: a local of the generated function.
#[derive(Clone)]
struct Var {
    rep: Rep,
    ident: Ident,
    /// Bound in a loop's body: the local is an `Option` of its first binding (set by the
    /// first iteration that binds it; the next unify with it), read with `?`.
    once: bool,
}

/// A declared attribute the generated code reads.
#[derive(Clone)]
struct Attr {
    ident: Ident,
    rep: Rep,
    optional: bool,
}

struct Gen<'a> {
    c: &'a Checked,
    decls: Vec<&'a AttrDecl>,
    /// The variables bound at this point of the code.
    env: HashMap<String, Var>,
    /// The variables bound in one branch of an `if` only: the code cannot use them.
    maybe: Vec<String>,
    /// The attributes read, in order of first use.
    attrs: Vec<(String, Attr)>,
    next: usize,
    /// How many `for` loops the code being written is in.
    loops: usize,
    /// How many `if` branches the code being written is in.
    branches: usize,
    /// The variables first bound in the body of the outermost loop being written: their
    /// `Option` locals are declared before it.
    loop_vars: Vec<(Ident, Rep)>,
    /// Dimensions of shapes computed once at the top of a loop's body, by the term as
    /// written (`shape(fs[j])[i]`), when the body reads them more than once.
    memo: Vec<(String, Var)>,
    /// The shape variables bound whole from a tensor's shape at the top of the function,
    /// with the local holding that shape: `Tensor(s, d)` rebuilds on it, not on `s`'s
    /// dimensions.
    shapes: HashMap<String, Ident>,
}

/// `::relay_core::__private::fast`, where the generated code's helpers are.
fn f() -> TokenStream {
    quote!(::relay_core::__private::fast)
}

/// The compiled run of `clause`, a function `__relay_fast`, or `None` when a form of
/// the clause has no compiled form.
pub fn fast_fn(clause: &Clause, c: &Checked) -> Option<TokenStream> {
    let mut g = Gen {
        c,
        decls: clause.attrs.iter().flat_map(|b| b.decls.iter()).collect(),
        env: HashMap::new(),
        maybe: Vec::new(),
        attrs: Vec::new(),
        next: 0,
        loops: 0,
        branches: 0,
        loop_vars: Vec::new(),
        memo: Vec::new(),
        shapes: HashMap::new(),
    };
    let f = f();
    let mut steps = Vec::new();
    for (i, pattern) in clause.head.iter().enumerate() {
        let arg = Val::new(Rep::Ty, quote!(#f::arg(cx, #i)));
        steps.push(g.pattern(arg, pattern)?);
    }
    for goal in &clause.body {
        steps.push(g.goal(goal)?);
    }
    let mut reads = Vec::new();
    for (name, a) in std::mem::take(&mut g.attrs) {
        reads.push(g.read_attr(&name, &a)?);
    }
    Some(quote! {
        #[allow(unused, clippy::all, clippy::pedantic, clippy::nursery)]
        fn __relay_fast(cx: &mut ::relay_core::RelCx<'_>) -> ::core::option::Option<()> {
            #(#reads)*
            #(#steps)*
            ::core::option::Option::Some(())
        }
    })
}

impl Gen<'_> {
    fn fresh(&mut self, what: &str) -> Ident {
        self.next += 1;
        format_ident!("__{}{}", what, self.next)
    }

    /// Whether `t` can be computed here: no `_`, and every variable in it bound.
    fn computable(&self, t: &Term) -> bool {
        self.computable_in(t, &mut Vec::new())
    }

    fn computable_in(&self, t: &Term, locals: &mut Vec<String>) -> bool {
        match t {
            Term::Wild(_) => false,
            Term::Name(id) => {
                let n = id.to_string();
                !self.c.vars.contains(&n) || locals.contains(&n) || self.env.contains_key(&n)
            }
            Term::As(id, _) => self.env.contains_key(&id.to_string()),
            Term::Comp(comp) => {
                let (elem, var, src, cond) = comp.parts();
                if !self.computable_in(src, locals) {
                    return false;
                }
                locals.push(var.to_string());
                let ok = self.computable_in(elem, locals)
                    && cond.as_ref().is_none_or(|c| self.computable_in(c, locals));
                locals.pop();
                ok
            }
            _ => t.children().iter().all(|c| self.computable_in(c, locals)),
        }
    }

    fn bind(&mut self, name: &str, rep: Rep) -> Option<Ident> {
        if self.loops > 0 || self.maybe.iter().any(|m| m == name) {
            return None;
        }
        Some(self.bind_local(name, rep))
    }

    /// Binds `name`, not bound yet, to the value `src` in a loop's body, where a variable
    /// is one across the iterations: the first iteration that binds it sets it, the next
    /// unify with it. Not in an `if`'s branch (the branch may not run in every iteration).
    fn bind_in_loop(&mut self, name: &str, src: Val) -> Option<TokenStream> {
        if self.branches > 0 || self.maybe.iter().any(|m| m == name) {
            return None;
        }
        let ident = format_ident!("v_{}", name);
        self.loop_vars.push((ident.clone(), src.rep));
        let rep = src.rep;
        let unify = self.unify(Val::new(rep, quote!(__prev)), Val::new(rep, quote!(__new)))?;
        self.env.insert(
            name.to_string(),
            Var {
                rep,
                ident: ident.clone(),
                once: true,
            },
        );
        let code = src.code;
        Some(quote! {{
            let __new = #code;
            match #ident {
                ::core::option::Option::None => #ident = ::core::option::Option::Some(__new),
                ::core::option::Option::Some(__prev) => { #unify }
            }
        }})
    }

    // -----------------------------------------------------------------------------------
    // Goals
    // -----------------------------------------------------------------------------------

    fn goals(&mut self, goals: &[Goal]) -> Option<TokenStream> {
        let mut out = TokenStream::new();
        for g in goals {
            out.extend(self.goal(g)?);
        }
        Some(out)
    }

    fn goal(&mut self, goal: &Goal) -> Option<TokenStream> {
        match goal {
            Goal::Eq(l, r) | Goal::AssertEq { lhs: l, rhs: r, .. } => {
                match (self.computable(l), self.computable(r)) {
                    (true, true) => {
                        let (a, b) = (self.term(l)?, self.term(r)?);
                        self.unify(a, b)
                    }
                    (true, false) => {
                        let a = self.term(l)?;
                        self.pattern(a, r)
                    }
                    (false, true) => {
                        let b = self.term(r)?;
                        self.pattern(b, l)
                    }
                    (false, false) => None,
                }
            }
            Goal::Check(cond) | Goal::Assert { cond, .. } => {
                if !self.computable(cond) {
                    return None;
                }
                let cond = self.expect(cond, Rep::Bool)?;
                Some(quote!(if !(#cond) { return ::core::option::Option::None; }))
            }
            Goal::If { cond, then, els } => {
                if !self.computable(cond) {
                    return None;
                }
                let cond = self.expect(cond, Rep::Bool)?;
                self.branches(cond, then, els)
            }
            Goal::Relation { name, args } => {
                let f = f();
                let mut tys = Vec::new();
                for a in args {
                    if !self.computable(a) {
                        return None;
                    }
                    tys.push(self.expect(a, Rep::Ty)?);
                }
                Some(quote! {
                    {
                        let __tys = [#(#tys),*];
                        #f::relation(
                            cx,
                            <#name as ::relay_core::Relation>::DEF,
                            <#name as ::relay_core::Relation>::FAST,
                            &__tys,
                        )?;
                    }
                })
            }
            Goal::Default { var, .. } => match var {
                Term::Name(id) if self.env.contains_key(&id.to_string()) => {
                    Some(TokenStream::new())
                }
                _ => None,
            },
            Goal::For { var, src, body, .. } => {
                if !self.computable(src) {
                    return None;
                }
                let saved = self.env.clone();
                let first = self.loop_vars.len();
                self.loops += 1;
                let mut used = Vec::new();
                goal_terms(body, &mut used);
                let out = self.each(src, var, &used, |g| g.goals(body));
                self.loops -= 1;
                // The variables the body binds stay bound after the loop.
                let once: Vec<(String, Var)> = self
                    .env
                    .iter()
                    .filter(|(n, v)| v.once && !saved.contains_key(*n))
                    .map(|(n, v)| (n.clone(), v.clone()))
                    .collect();
                self.env = saved;
                self.env.extend(once);
                let out = out?;
                if self.loops > 0 {
                    return Some(out);
                }
                let decls = self.loop_vars.split_off(first).into_iter().map(|(ident, rep)| {
                    let ty = rust_type(rep);
                    quote!(let mut #ident: ::core::option::Option<#ty> = ::core::option::Option::None;)
                });
                Some(quote!(#(#decls)* #out))
            }
        }
    }

    /// `if cond { then } else { els }`: the variables both branches bind are bound after
    /// it (held the same way: a constant in one branch and a dimension in the other is a
    /// dimension); those only one binds cannot be used after it.
    fn branches(&mut self, cond: TokenStream, then: &[Goal], els: &[Goal]) -> Option<TokenStream> {
        let before = self.env.clone();
        self.branches += 1;
        let then_code = self.goals(then);
        let after_then = std::mem::replace(&mut self.env, before.clone());
        let els_code = self.goals(els);
        let after_els = std::mem::replace(&mut self.env, before.clone());
        self.branches -= 1;
        let (then_code, els_code) = (then_code?, els_code?);
        let new = |env: &HashMap<String, Var>| -> Vec<String> {
            let mut v: Vec<String> = env
                .keys()
                .filter(|k| !before.contains_key(*k))
                .cloned()
                .collect();
            v.sort();
            v
        };
        let (in_then, in_els) = (new(&after_then), new(&after_els));
        let mut shared = Vec::new();
        for name in in_then.iter().chain(&in_els) {
            let (Some(a), Some(b)) = (after_then.get(name), after_els.get(name)) else {
                if !self.maybe.contains(name) {
                    self.maybe.push(name.clone());
                }
                continue;
            };
            if shared.iter().any(|(n, _, _, _)| n == name) {
                continue;
            }
            let rep = match (a.rep, b.rep) {
                (x, y) if x == y => x,
                (Rep::Int, Rep::Dim) | (Rep::Dim, Rep::Int) => Rep::Dim,
                (Rep::Ints, Rep::Dims) | (Rep::Dims, Rep::Ints) => Rep::Dims,
                (Rep::Tuple, Rep::Ty) | (Rep::Ty, Rep::Tuple) => Rep::Ty,
                _ => {
                    self.maybe.push(name.clone());
                    continue;
                }
            };
            shared.push((name.clone(), rep, a.clone(), b.clone()));
        }
        let mut out_then = Vec::new();
        let mut out_els = Vec::new();
        let mut idents = Vec::new();
        for (name, rep, a, b) in &shared {
            let ta = self.convert(Val::new(a.rep, a.ident.to_token_stream()), *rep)?;
            let tb = self.convert(Val::new(b.rep, b.ident.to_token_stream()), *rep)?;
            out_then.push(ta);
            out_els.push(tb);
            idents.push(self.bind(name, *rep)?);
        }
        Some(quote! {
            let (#(#idents,)*) = if (#cond) {
                #then_code
                (#(#out_then,)*)
            } else {
                #els_code
                (#(#out_els,)*)
            };
        })
    }

    /// A loop over the items of `src` (a range, a list, the fields of a tuple), with
    /// `var` bound to each in `body`, which reads the terms `used` (for [`Gen::hoist`]).
    fn each(
        &mut self,
        src: &Term,
        var: &Ident,
        used: &[&Term],
        body: impl FnOnce(&mut Self) -> Option<TokenStream>,
    ) -> Option<TokenStream> {
        let f = f();
        let name = var.to_string();
        // The dimensions hoisted to the top of the body, known in the body only.
        let body = |g: &mut Self| -> Option<TokenStream> {
            let memo = g.memo.len();
            let out = g.hoist(used).and_then(|hoisted| {
                let body = body(g)?;
                Some(quote!(#hoisted #body))
            });
            g.memo.truncate(memo);
            out
        };
        if let Term::Range(_, lo, hi) = src {
            let (lo, hi) = (self.expect(lo, Rep::Int)?, self.expect(hi, Rep::Int)?);
            let v = self.bind_local(&name, Rep::Int);
            let body = body(self)?;
            return Some(quote! {
                for #v in #f::range(#lo, #hi)? { #body }
            });
        }
        let src = self.term(src)?;
        let s = self.fresh("src");
        let code = &src.code;
        let (bind, s) = by_ref(code, s);
        match src.rep {
            Rep::Ints | Rep::Dims => {
                let rep = if src.rep == Rep::Ints {
                    Rep::Int
                } else {
                    Rep::Dim
                };
                let v = self.bind_local(&name, rep);
                let body = body(self)?;
                Some(quote! {
                    #bind
                    for &#v in #s.items() { #body }
                })
            }
            Rep::Ty | Rep::Tuple => {
                let v = self.bind_local(&name, Rep::Ty);
                let body = body(self)?;
                let k = self.fresh("k");
                let resolve = match src.rep {
                    Rep::Tuple => quote!(let #s = #code;),
                    _ => quote!(let #s = { let __t = #code; #f::tuple(cx, __t)? };),
                };
                Some(quote! {
                    #resolve
                    for #k in 0..#f::tuple_len(cx, #s)? {
                        let #v = #f::field(cx, #s, #k)?;
                        #body
                    }
                })
            }
            _ => None,
        }
    }

    /// The dimensions of shapes (`shape(x)[i]`) that `used` reads more than once and that
    /// can be computed here, each bound to a local (the statements binding them).
    fn hoist(&mut self, used: &[&Term]) -> Option<TokenStream> {
        let mut seen: Vec<(String, &Term, usize)> = Vec::new();
        for t in used {
            t.visit(&mut |s| {
                if is_shape_dim(s) {
                    let key = show(s);
                    match seen.iter_mut().find(|(k, _, _)| *k == key) {
                        Some(e) => e.2 += 1,
                        None => seen.push((key, s, 1)),
                    }
                }
            });
        }
        let mut out = TokenStream::new();
        for (key, t, n) in seen {
            if n < 2 || !self.computable(t) || self.memo.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let v = self.term(t)?;
            let ident = self.fresh("dim");
            let code = v.code;
            out.extend(quote!(let #ident = #code;));
            self.memo.push((
                key,
                Var {
                    rep: v.rep,
                    ident,
                    once: false,
                },
            ));
        }
        Some(out)
    }

    /// Binds a loop's or a comprehension's variable (it shadows any other of its name).
    fn bind_local(&mut self, name: &str, rep: Rep) -> Ident {
        let ident = format_ident!("v_{}", name);
        self.env.insert(
            name.to_string(),
            Var {
                rep,
                ident: ident.clone(),
                once: false,
            },
        );
        ident
    }
}

/// `code` as a place to borrow: itself when it is a variable (a list is not copied),
/// else a local `tmp` bound to it (the statement binding it, and the place).
fn by_ref(code: &TokenStream, tmp: Ident) -> (TokenStream, TokenStream) {
    match syn::parse2::<syn::Expr>(code.clone()) {
        Ok(syn::Expr::Path(_)) => (TokenStream::new(), quote!(#code)),
        Ok(syn::Expr::Paren(p)) if matches!(&*p.expr, syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_))) => {
            (TokenStream::new(), quote!(#code))
        }
        _ => (quote!(let #tmp = #code;), quote!(#tmp)),
    }
}

/// Whether `t` is a call of the builtin `name` with one argument.
fn is_call(t: &Term, name: &str) -> bool {
    matches!(t, Term::Call { name: n, args } if n == name && args.len() == 1)
}

/// Whether `t` is a dimension of a tensor's shape, `shape(x)[i]`.
fn is_shape_dim(t: &Term) -> bool {
    matches!(t, Term::Index(b, _, _) if is_call(b, "shape"))
}

/// The terms the goals compute or match (not their messages), nested goals' included.
fn goal_terms<'g>(goals: &'g [Goal], out: &mut Vec<&'g Term>) {
    for g in goals {
        match g {
            Goal::Eq(l, r) | Goal::AssertEq { lhs: l, rhs: r, .. } => out.extend([l, r]),
            Goal::Check(c) | Goal::Assert { cond: c, .. } => out.push(c),
            Goal::If { cond, then, els } => {
                out.push(cond);
                goal_terms(then, out);
                goal_terms(els, out);
            }
            Goal::Default { value, .. } => out.push(value),
            Goal::Relation { args, .. } => out.extend(args),
            Goal::For { src, body, .. } => {
                out.push(src);
                goal_terms(body, out);
            }
        }
    }
}

/// Every `rust(f)(..)` of `clause` (its address), in one order: the function pointer of
/// call `k` is the constant `__RELAY_RUST_k`, which the static form and the compiled run
/// share (a wrong path is one error, not two).
pub fn rust_calls(clause: &Clause) -> Vec<(usize, syn::Path)> {
    let mut terms: Vec<&Term> = clause.head.iter().collect();
    goal_terms(&clause.body, &mut terms);
    message_args(&clause.body, &mut terms);
    let mut out: Vec<(usize, syn::Path)> = Vec::new();
    for t in terms {
        t.visit(&mut |s| {
            let at = s as *const Term as usize;
            if let Term::Rust { path, .. } = s {
                if !out.iter().any(|(a, _)| *a == at) {
                    out.push((at, path.clone()));
                }
            }
        });
    }
    out
}

/// The constant holding the function of Rust call `k` ([`rust_calls`]).
pub fn rust_const(k: usize) -> Ident {
    format_ident!("__RELAY_RUST_{}", k)
}

/// The constant holding the function of the Rust call `t` ([`rust_calls`]).
pub fn rust_fn(calls: &[(usize, syn::Path)], t: &Term) -> Ident {
    let at = t as *const Term as usize;
    rust_const(calls.iter().position(|(a, _)| *a == at).unwrap_or(0))
}

/// The arguments of the goals' messages, nested goals' included.
fn message_args<'g>(goals: &'g [Goal], out: &mut Vec<&'g Term>) {
    for g in goals {
        match g {
            Goal::Assert { args, .. } | Goal::AssertEq { args, .. } => out.extend(args),
            Goal::If { then, els, .. } => {
                message_args(then, out);
                message_args(els, out);
            }
            Goal::For { body, .. } => message_args(body, out),
            _ => {}
        }
    }
}

/// The Rust type a value held as `rep` has.
fn rust_type(rep: Rep) -> TokenStream {
    let f = f();
    match rep {
        Rep::Int => quote!(i64),
        Rep::Dim => quote!(::relay_core::Dim),
        Rep::Ints => quote!(#f::List<i64>),
        Rep::Dims => quote!(#f::List<::relay_core::Dim>),
        Rep::Bool => quote!(bool),
        Rep::DType => quote!(::relay_core::ty::DTy),
        Rep::Ty | Rep::Tuple => quote!(::relay_core::Ty),
        Rep::Value => quote!(::relay_core::__private::Value),
    }
}
