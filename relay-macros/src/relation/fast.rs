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
//! [`fast_fn`]) and is interpreted: a Rust call, `d * x` with a float, an index of a
//! `[float]` attribute, a goal that uses a variable a later goal binds, a variable bound
//! in a loop's body, a `default` whose variable nothing binds before it.

use super::ast::{AttrDecl, BinOp, Clause, CmpOp, Goal, ListItem, Term};
use super::check::{dtype_literal, is_none, show, Checked};
use super::expand::flip;
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
}

/// A declared attribute the generated code reads.
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
    /// How many `for` loops the code being written is in: a variable bound in a loop's
    /// body is one variable across its iterations (its first binding is unified with the
    /// next), which the generated code does not do.
    loops: usize,
    /// Dimensions of shapes computed once at the top of a loop's body, by the term as
    /// written (`shape(fs[j])[i]`), when the body reads them more than once.
    memo: Vec<(String, Var)>,
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
        memo: Vec::new(),
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
        #[allow(unused, clippy::all)]
        fn __relay_fast(cx: &mut ::relay_core::RelCx<'_>) -> ::core::option::Option<()> {
            #(#reads)*
            #(#steps)*
            ::core::option::Option::Some(())
        }
    })
}

/// The terms directly inside `t`.
fn children(t: &Term) -> Vec<&Term> {
    match t {
        Term::Name(_)
        | Term::Wild(_)
        | Term::Any(_)
        | Term::Int(..)
        | Term::Bool(..)
        | Term::Str(_)
        | Term::Float(..)
        | Term::Attr(..) => vec![],
        Term::Call { args, .. } | Term::Rust { args, .. } | Term::Tuple(_, args) => {
            args.iter().collect()
        }
        Term::Rest(_, a) | Term::As(_, a) | Term::Not(_, a) | Term::Neg(_, a) => vec![a],
        Term::List(_, items) => items
            .iter()
            .map(|i| match i {
                ListItem::Dim(t) | ListItem::Splice(_, t) => t,
            })
            .collect(),
        Term::Repeat(_, a, b)
        | Term::Logic(_, _, a, b)
        | Term::Index(a, _, b)
        | Term::Binary(_, _, a, b)
        | Term::Cmp(_, _, a, b)
        | Term::Range(_, a, b)
        | Term::In(_, a, b) => vec![a, b],
        Term::Slice(a, _, lo, hi) => {
            let mut v: Vec<&Term> = vec![a];
            v.extend(lo.as_deref());
            v.extend(hi.as_deref());
            v
        }
        Term::Comp {
            elem, src, cond, ..
        } => {
            let mut v: Vec<&Term> = vec![elem, src];
            v.extend(cond.as_deref());
            v
        }
        Term::IfElse(_, a, b, c) => vec![a, b, c],
    }
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
            Term::Comp {
                elem,
                var,
                src,
                cond,
                ..
            } => {
                if !self.computable_in(src, locals) {
                    return false;
                }
                locals.push(var.to_string());
                let ok = self.computable_in(elem, locals)
                    && cond
                        .as_deref()
                        .is_none_or(|c| self.computable_in(c, locals));
                locals.pop();
                ok
            }
            _ => children(t).iter().all(|c| self.computable_in(c, locals)),
        }
    }

    fn bind(&mut self, name: &str, rep: Rep) -> Option<Ident> {
        if self.loops > 0 || self.maybe.iter().any(|m| m == name) {
            return None;
        }
        let ident = format_ident!("v_{}", name);
        self.env.insert(
            name.to_string(),
            Var {
                rep,
                ident: ident.clone(),
            },
        );
        Some(ident)
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
                self.loops += 1;
                let mut used = Vec::new();
                goal_terms(body, &mut used);
                let out = self.each(src, var, &used, |g| g.goals(body));
                self.loops -= 1;
                self.env = saved;
                out
            }
        }
    }

    /// `if cond { then } else { els }`: the variables both branches bind are bound after
    /// it (held the same way: a constant in one branch and a dimension in the other is a
    /// dimension); those only one binds cannot be used after it.
    fn branches(&mut self, cond: TokenStream, then: &[Goal], els: &[Goal]) -> Option<TokenStream> {
        let before = self.env.clone();
        let then_code = self.goals(then)?;
        let after_then = std::mem::replace(&mut self.env, before.clone());
        let els_code = self.goals(els)?;
        let after_els = std::mem::replace(&mut self.env, before.clone());
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
    /// `var` bound to each in `body`.
    fn each(
        &mut self,
        src: &Term,
        var: &Ident,
        used: &[&Term],
        body: impl FnOnce(&mut Self) -> Option<TokenStream>,
    ) -> Option<TokenStream> {
        let memo = self.memo.len();
        let out = self.each_item(src, var, used, body);
        self.memo.truncate(memo);
        out
    }

    fn each_item(
        &mut self,
        src: &Term,
        var: &Ident,
        used: &[&Term],
        body: impl FnOnce(&mut Self) -> Option<TokenStream>,
    ) -> Option<TokenStream> {
        let f = f();
        let name = var.to_string();
        let body = |g: &mut Self| -> Option<TokenStream> {
            let hoisted = g.hoist(used)?;
            let body = body(g)?;
            Some(quote!(#hoisted #body))
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
            visit(t, &mut |s| {
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
            self.memo.push((key, Var { rep: v.rep, ident }));
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
            },
        );
        ident
    }

    // -----------------------------------------------------------------------------------
    // Patterns and unification
    // -----------------------------------------------------------------------------------

    /// Matches the computed `src` against `pattern`: binds its variables not bound yet,
    /// takes `Tensor`s, tuples and lists apart, unifies what is computable.
    fn pattern(&mut self, src: Val, pattern: &Term) -> Option<TokenStream> {
        let f = f();
        if let Term::As(id, p) = pattern {
            let s = self.fresh("as");
            let code = &src.code;
            let mut out = quote!(let #s = #code;);
            out.extend(self.pattern(Val::new(src.rep, quote!(#s)), &Term::Name(id.clone()))?);
            out.extend(self.pattern(Val::new(src.rep, quote!(#s)), p)?);
            return Some(out);
        }
        if let Term::Name(id) = pattern {
            let name = id.to_string();
            if self.c.vars.contains(&name) && !self.env.contains_key(&name) {
                let v = self.bind(&name, src.rep)?;
                let code = src.code;
                return Some(quote!(let #v = #code;));
            }
        }
        if let Term::Wild(_) = pattern {
            let code = src.code;
            return Some(quote!(let _ = #code;));
        }
        if self.computable(pattern) {
            let b = self.term(pattern)?;
            return self.unify(src, b);
        }
        let code = &src.code;
        match (pattern, src.rep) {
            (Term::Call { name, args }, Rep::Ty | Rep::Tuple) if name == "Tensor" => {
                let (s, d) = (self.fresh("s"), self.fresh("d"));
                let mut out = quote! {
                    let (#s, #d) = { let __t = #code; #f::tensor_parts(cx, __t)? };
                };
                // The dimensions are read only when the pattern names them.
                if !matches!(args[0], Term::Wild(_)) {
                    let dims = Val::new(Rep::Dims, quote!(#f::shape_dims(cx, #s)?));
                    out.extend(self.pattern(dims, &args[0])?);
                }
                out.extend(self.pattern(Val::new(Rep::DType, quote!(#d)), &args[1])?);
                Some(out)
            }
            (Term::Call { name, args }, Rep::Ty | Rep::Tuple) if name == "Tuple" => {
                self.tuple(code, src.rep, args)
            }
            (Term::Tuple(_, fields), Rep::Ty | Rep::Tuple) => self.tuple(code, src.rep, fields),
            (Term::List(_, items), Rep::Ints | Rep::Dims) => {
                let item_rep = if src.rep == Rep::Ints {
                    Rep::Int
                } else {
                    Rep::Dim
                };
                let splice = items.iter().position(|i| matches!(i, ListItem::Splice(..)));
                if items
                    .iter()
                    .filter(|i| matches!(i, ListItem::Splice(..)))
                    .count()
                    > 1
                {
                    return None;
                }
                let l = self.fresh("l");
                let n = items.len() as i64;
                let mut out = quote!(let #l = #code;);
                out.extend(match splice {
                    None => quote!(if #l.len() != #n { return ::core::option::Option::None; }),
                    Some(_) => {
                        quote!(if #l.len() < #n - 1 { return ::core::option::Option::None; })
                    }
                });
                let after = splice.map_or(0, |s| items.len() - s - 1) as i64;
                for (k, item) in items.iter().enumerate() {
                    let k = k as i64;
                    match item {
                        ListItem::Dim(t) => {
                            let at = match splice {
                                Some(s) if k > s as i64 => {
                                    let back = -(items.len() as i64 - k);
                                    quote!(#l.at(#back)?)
                                }
                                _ => quote!(#l.at(#k)?),
                            };
                            out.extend(self.pattern(Val::new(item_rep, at), t)?);
                        }
                        ListItem::Splice(_, t) => {
                            let part = quote!(#l.slice(::core::option::Option::Some(#k), ::core::option::Option::Some(#l.len() - #after)));
                            out.extend(self.pattern(Val::new(src.rep, part), t)?);
                        }
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// A tuple pattern against the type in `code`: fields without a rest, or `(..rest)`.
    fn tuple(&mut self, code: &TokenStream, rep: Rep, fields: &[Term]) -> Option<TokenStream> {
        let f = f();
        let t = self.fresh("t");
        let mut out = match rep {
            Rep::Tuple => quote!(let #t = #code;),
            _ => quote!(let #t = { let __t = #code; #f::tuple(cx, __t)? };),
        };
        match fields {
            [Term::Rest(_, rest)] => {
                out.extend(self.pattern(Val::new(Rep::Tuple, quote!(#t)), rest)?);
            }
            _ if fields.iter().any(|f| matches!(f, Term::Rest(..))) => {
                let at = fields.iter().position(|f| matches!(f, Term::Rest(..)))?;
                let (before, after) = (at as i64, (fields.len() - at - 1) as i64);
                let min = before + after;
                out.extend(
                    quote!(if #f::tuple_len(cx, #t)? < #min { return ::core::option::Option::None; }),
                );
                for (k, field) in fields.iter().enumerate() {
                    let k = k as i64;
                    let (v, field) = match field {
                        Term::Rest(_, rest) => (
                            Val::new(Rep::Tuple, quote!(#f::middle(cx, #t, #before, #after)?)),
                            &**rest,
                        ),
                        _ if k < before => {
                            (Val::new(Rep::Ty, quote!(#f::field(cx, #t, #k)?)), field)
                        }
                        _ => {
                            let back = k - fields.len() as i64;
                            (Val::new(Rep::Ty, quote!(#f::field(cx, #t, #back)?)), field)
                        }
                    };
                    out.extend(self.pattern(v, field)?);
                }
            }
            _ => {
                let n = fields.len() as i64;
                out.extend(
                    quote!(if #f::tuple_len(cx, #t)? != #n { return ::core::option::Option::None; }),
                );
                for (k, field) in fields.iter().enumerate() {
                    let k = k as i64;
                    let v = Val::new(Rep::Ty, quote!(#f::field(cx, #t, #k)?));
                    out.extend(self.pattern(v, field)?);
                }
            }
        }
        Some(out)
    }

    /// Unifies two computed values.
    fn unify(&mut self, a: Val, b: Val) -> Option<TokenStream> {
        let f = f();
        let none = quote!(return ::core::option::Option::None;);
        let (x, y) = (&a.code, &b.code);
        Some(match (a.rep, b.rep) {
            (Rep::Ty | Rep::Tuple, Rep::Ty | Rep::Tuple) => {
                quote!({ let __a = #x; let __b = #y; #f::unify(cx, __a, __b)?; })
            }
            (Rep::Int, Rep::Int) | (Rep::Bool, Rep::Bool) => {
                quote!({ let __a = #x; let __b = #y; if __a != __b { #none } })
            }
            (Rep::Ints, Rep::Ints) => {
                quote!({ let __a = #x; let __b = #y; if __a.items() != __b.items() { #none } })
            }
            (Rep::DType, Rep::DType) => {
                quote!({ let __a = #x; let __b = #y; #f::unify_dtype(cx, __a, __b)?; })
            }
            (Rep::Int | Rep::Dim, Rep::Int | Rep::Dim) => {
                let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
                quote!({ let __a = #x; let __b = #y; #f::unify_dim(cx, __a, __b)?; })
            }
            (Rep::Ints | Rep::Dims, Rep::Ints | Rep::Dims) => {
                let (x, y) = (self.convert(a, Rep::Dims)?, self.convert(b, Rep::Dims)?);
                let (ba, a) = by_ref(&x, format_ident!("__a"));
                let (bb, b) = by_ref(&y, format_ident!("__b"));
                quote!({ #ba #bb #f::unify_dims(cx, &#a, &#b)?; })
            }
            _ => return None,
        })
    }

    /// `v` held as `rep`: a constant as a dimension, a dimension as a constant (giving up
    /// when it is not one).
    fn convert(&mut self, v: Val, rep: Rep) -> Option<TokenStream> {
        let f = f();
        let code = v.code;
        Some(match (v.rep, rep) {
            (a, b) if a == b => code,
            (Rep::Tuple, Rep::Ty) => code,
            (Rep::Int, Rep::Dim) => quote!({ let __c = #code; #f::dim(cx, __c) }),
            (Rep::Dim, Rep::Int) => quote!({ let __d = #code; #f::int(cx, __d)? }),
            (Rep::Dims, Rep::Ints) => {
                let (bind, l) = by_ref(&code, format_ident!("__l"));
                quote!({ #bind #f::ints(cx, &#l)? })
            }
            (Rep::Ints, Rep::Dims) => {
                let (bind, l) = by_ref(&code, format_ident!("__l"));
                quote!({ #bind #f::dims(cx, &#l) })
            }
            _ => return None,
        })
    }

    /// The term `t` held as `rep`.
    fn expect(&mut self, t: &Term, rep: Rep) -> Option<TokenStream> {
        let v = self.term(t)?;
        self.convert(v, rep)
    }

    // -----------------------------------------------------------------------------------
    // Terms
    // -----------------------------------------------------------------------------------

    /// The attribute `name`'s local (read at the start of the function).
    fn attr(&mut self, name: &str) -> Option<(Ident, Rep, bool)> {
        if let Some((_, a)) = self.attrs.iter().find(|(n, _)| n == name) {
            return Some((a.ident.clone(), a.rep, a.optional));
        }
        let decl = self.decls.iter().find(|d| d.name == name)?;
        let rep = match decl.ty.base.as_str() {
            "int" => Rep::Int,
            "bool" => Rep::Bool,
            "dtype" => Rep::DType,
            "[int]" | "shape" => Rep::Ints,
            _ => return None,
        };
        // `None` given to an optional attribute with another default is not its default.
        if decl.ty.optional && decl.default.as_ref().is_some_and(|d| !is_none(d)) {
            return None;
        }
        let a = Attr {
            ident: format_ident!("a_{}", name),
            rep,
            optional: decl.ty.optional,
        };
        let out = (a.ident.clone(), rep, a.optional);
        self.attrs.push((name.to_string(), a));
        Some(out)
    }

    /// The statement reading attribute `name` into its local.
    fn read_attr(&mut self, name: &str, a: &Attr) -> Option<TokenStream> {
        let f = f();
        let decl = *self.decls.iter().find(|d| d.name == name)?;
        let read = match decl.ty.base.as_str() {
            "int" => quote!(#f::attr_int(cx, #name)?),
            "bool" => quote!(#f::attr_bool(cx, #name)?),
            "dtype" => quote!(#f::attr_dtype(cx, #name)?),
            "[int]" => quote!(#f::attr_ints(cx, #name, true)?),
            _ => quote!(#f::attr_ints(cx, #name, false)?),
        };
        let ident = &a.ident;
        if a.optional {
            return Some(quote!(let #ident = #read;));
        }
        let default = match &decl.default {
            Some(d) => {
                let saved = std::mem::take(&mut self.env);
                let v = self.expect(d, a.rep);
                self.env = saved;
                v?
            }
            // No value: the interpreter reports it.
            None => quote!(return ::core::option::Option::None),
        };
        Some(quote! {
            let #ident = match #read {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => #default,
            };
        })
    }

    fn term(&mut self, t: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        if is_shape_dim(t) && !self.memo.is_empty() {
            let key = show(t);
            if let Some((_, v)) = self.memo.iter().find(|(k, _)| *k == key) {
                let ident = &v.ident;
                return Some(Val::new(v.rep, quote!(#ident)));
            }
        }
        Some(match t {
            Term::Name(id) => {
                let n = id.to_string();
                if let Some(v) = self.env.get(&n) {
                    let ident = &v.ident;
                    return Some(Val::new(v.rep, quote!(#ident)));
                }
                if self.c.vars.contains(&n) {
                    return None;
                }
                let Some(Ok(d)) = dtype_literal(&n) else {
                    return None;
                };
                let code = Ident::new(d.code, id.span());
                let (bits, lanes) = (d.bits, d.lanes);
                Val::new(
                    Rep::DType,
                    quote!(#f::dtype(#p::DTypeCode::#code, #bits, #lanes)),
                )
            }
            Term::Int(v, _) => Val::new(Rep::Int, quote!(#v)),
            Term::Bool(b, _) => Val::new(Rep::Bool, quote!(#b)),
            Term::Any(_) => Val::new(Rep::Dim, quote!(::relay_core::Dims::ANY)),
            Term::Call { name, args } => return self.call(&name.to_string(), args),
            Term::List(_, items) => {
                let mut vals = Vec::new();
                for item in items {
                    vals.push(match item {
                        ListItem::Dim(t) => (false, self.term(t)?),
                        ListItem::Splice(_, t) => (true, self.term(t)?),
                    });
                }
                let ints = vals
                    .iter()
                    .all(|(_, v)| matches!(v.rep, Rep::Int | Rep::Ints));
                let (rep, item_rep) = if ints {
                    (Rep::Ints, Rep::Int)
                } else {
                    (Rep::Dims, Rep::Dim)
                };
                let mut pushes = Vec::new();
                for (splice, v) in vals {
                    pushes.push(if splice {
                        let code = self.convert(v, rep)?;
                        let (bx, x) = by_ref(&code, format_ident!("__x"));
                        quote!({ #bx __l.extend(#x.items())?; })
                    } else {
                        let code = self.convert(v, item_rep)?;
                        quote!({ let __x = #code; __l.push(__x)?; })
                    });
                }
                Val::new(
                    rep,
                    quote!({ let mut __l = #f::List::default(); #(#pushes)* __l }),
                )
            }
            Term::Index(b, _, i) if self.c.shape_index(i) => {
                let b = self.term(b)?;
                if !matches!(b.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let i = self.expect(i, Rep::Ints)?;
                let code = &b.code;
                Val::new(b.rep, quote!({ let __i = #i; (#code).gather(&__i)? }))
            }
            // A dimension of a tensor's shape, without the shape.
            Term::Index(b, _, i) if is_call(b, "shape") => {
                let Term::Call { args, .. } = &**b else {
                    return None;
                };
                let x = self.expect(&args[0], Rep::Ty)?;
                let i = self.expect(i, Rep::Int)?;
                Val::new(
                    Rep::Dim,
                    quote!({ let __t = #x; let __i = #i; #f::shape_dim(cx, __t, __i)? }),
                )
            }
            Term::Index(b, _, i) => {
                let b = self.term(b)?;
                let i = self.expect(i, Rep::Int)?;
                let code = &b.code;
                match b.rep {
                    Rep::Ints => Val::new(Rep::Int, quote!({ let __i = #i; (#code).at(__i)? })),
                    Rep::Dims => Val::new(Rep::Dim, quote!({ let __i = #i; (#code).at(__i)? })),
                    Rep::Ty => Val::new(
                        Rep::Ty,
                        quote!({ let __i = #i; let __t = #code; let __t = #f::tuple(cx, __t)?; #f::field(cx, __t, __i)? }),
                    ),
                    Rep::Tuple => Val::new(
                        Rep::Ty,
                        quote!({ let __i = #i; #f::field(cx, #code, __i)? }),
                    ),
                    _ => return None,
                }
            }
            Term::Slice(b, _, lo, hi) => {
                let b = self.term(b)?;
                if !matches!(b.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let mut bound = |t: &Option<Box<Term>>| -> Option<TokenStream> {
                    Some(match t {
                        Some(t) => {
                            let v = self.expect(t, Rep::Int)?;
                            quote!(::core::option::Option::Some(#v))
                        }
                        None => quote!(::core::option::Option::None),
                    })
                };
                let (lo, hi) = (bound(lo)?, bound(hi)?);
                let code = &b.code;
                Val::new(
                    b.rep,
                    quote!({ let __lo = #lo; let __hi = #hi; (#code).slice(__lo, __hi) }),
                )
            }
            Term::Binary(BinOp::Mul, _, a, b) if self.c.is_float(a) || self.c.is_float(b) => {
                return None
            }
            Term::Binary(op, _, a, b) => {
                let op = match op {
                    BinOp::Add => quote!(Add),
                    BinOp::Sub => quote!(Sub),
                    BinOp::Mul => quote!(Mul),
                    BinOp::Div => quote!(FloorDiv),
                    BinOp::Rem => quote!(FloorMod),
                };
                self.arith(op, a, b)?
            }
            Term::Neg(_, a) => {
                let a = self.term(a)?;
                let code = &a.code;
                match a.rep {
                    Rep::Int => Val::new(Rep::Int, quote!((#code).checked_neg()?)),
                    Rep::Dim => Val::new(Rep::Dim, quote!({ let __a = #code; #f::neg(cx, __a)? })),
                    _ => return None,
                }
            }
            Term::Logic(and, _, a, b) => {
                let (a, b) = (self.expect(a, Rep::Bool)?, self.expect(b, Rep::Bool)?);
                let code = if *and {
                    quote!((#a && #b))
                } else {
                    quote!((#a || #b))
                };
                Val::new(Rep::Bool, code)
            }
            Term::Not(_, a) => {
                let a = self.expect(a, Rep::Bool)?;
                Val::new(Rep::Bool, quote!((!#a)))
            }
            Term::Cmp(op, _, a, b) => return self.cmp(*op, a, b),
            Term::Attr(_, name) => {
                let (ident, rep, optional) = self.attr(&name.to_string())?;
                if optional {
                    Val::new(rep, quote!((*#ident.as_ref()?)))
                } else {
                    Val::new(rep, quote!(#ident))
                }
            }
            Term::Comp {
                elem,
                var,
                src,
                cond,
                ..
            } => {
                let saved = self.env.clone();
                let mut rep = None;
                let mut used: Vec<&Term> = vec![elem];
                used.extend(cond.as_deref());
                let body = self.each(src, var, &used, |g| {
                    let e = g.term(elem)?;
                    rep = Some(e.rep);
                    let e = e.code;
                    let push = quote!({ let __x = #e; __out.push(__x)?; });
                    Some(match cond {
                        Some(c) => {
                            let c = g.expect(c, Rep::Bool)?;
                            quote!(if (#c) #push)
                        }
                        None => push,
                    })
                });
                self.env = saved;
                let body = body?;
                let rep = match rep? {
                    Rep::Int => Rep::Ints,
                    Rep::Dim => Rep::Dims,
                    _ => return None,
                };
                Val::new(
                    rep,
                    quote!({ let mut __out = #f::List::default(); #body __out }),
                )
            }
            Term::In(_, x, l) => {
                let (x, l) = (self.term(x)?, self.term(l)?);
                if x.rep == Rep::Int && l.rep == Rep::Ints {
                    let (x, l) = (x.code, l.code);
                    Val::new(Rep::Bool, {
                        let (bl, l) = by_ref(&l, format_ident!("__l"));
                        quote!({ let __x = #x; #bl #l.items().contains(&__x) })
                    })
                } else {
                    let (x, l) = (self.convert(x, Rep::Dim)?, self.convert(l, Rep::Dims)?);
                    Val::new(Rep::Bool, {
                        let (bl, l) = by_ref(&l, format_ident!("__l"));
                        quote!({ let __x = #x; #bl #f::dim_in(cx, __x, &#l)? })
                    })
                }
            }
            Term::IfElse(_, c, a, b) => {
                let c = self.expect(c, Rep::Bool)?;
                let (a, b) = (self.term(a)?, self.term(b)?);
                let rep = match (a.rep, b.rep) {
                    (x, y) if x == y => x,
                    (Rep::Int, Rep::Dim) | (Rep::Dim, Rep::Int) => Rep::Dim,
                    (Rep::Ints, Rep::Dims) | (Rep::Dims, Rep::Ints) => Rep::Dims,
                    _ => return None,
                };
                let (a, b) = (self.convert(a, rep)?, self.convert(b, rep)?);
                Val::new(rep, quote!(if (#c) { #a } else { #b }))
            }
            Term::Repeat(_, d, n) => {
                let (d, n) = (self.term(d)?, self.expect(n, Rep::Int)?);
                let rep = match d.rep {
                    Rep::Int => Rep::Ints,
                    Rep::Dim => Rep::Dims,
                    _ => return None,
                };
                let d = d.code;
                Val::new(
                    rep,
                    quote!({ let __d = #d; let __n = #n; #f::List::repeat(__d, __n)? }),
                )
            }
            Term::Tuple(_, fields) => return self.mk_tuple(fields),
            Term::Wild(_)
            | Term::Rest(..)
            | Term::Str(_)
            | Term::Float(..)
            | Term::As(..)
            | Term::Rust { .. }
            | Term::Range(..) => return None,
        })
    }

    /// A tuple type built of `fields` (a `..rest` among them gives its fields).
    fn mk_tuple(&mut self, fields: &[Term]) -> Option<Val> {
        let f = f();
        let mut pushes = Vec::new();
        for field in fields {
            pushes.push(match field {
                Term::Rest(_, rest) => {
                    let t = self.expect(rest, Rep::Ty)?;
                    quote!({ let __t = #t; #f::push_fields(cx, __t, &mut __f)?; })
                }
                _ => {
                    let t = self.expect(field, Rep::Ty)?;
                    quote!({ let __t = #t; __f.push(__t); })
                }
            });
        }
        Some(Val::new(
            Rep::Tuple,
            quote!({ let mut __f = ::std::vec::Vec::new(); #(#pushes)* #f::mk_tuple(cx, &__f) }),
        ))
    }

    /// `a op b` on dimensions: natively on integers.
    fn arith(&mut self, op: TokenStream, a: &Term, b: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        let (a, b) = (self.term(a)?, self.term(b)?);
        Some(if a.rep == Rep::Int && b.rep == Rep::Int {
            let (x, y) = (a.code, b.code);
            Val::new(
                Rep::Int,
                quote!({ let __a = #x; let __b = #y; #f::arith_int(#p::Arith::#op, __a, __b)? }),
            )
        } else {
            let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
            Val::new(
                Rep::Dim,
                quote!({ let __a = #x; let __b = #y; #f::arith(cx, #p::Arith::#op, __a, __b)? }),
            )
        })
    }

    fn cmp(&mut self, op: CmpOp, a: &Term, b: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        if is_none(a) || is_none(b) {
            let attr = if is_none(b) { a } else { b };
            let Term::Attr(_, name) = attr else {
                return None;
            };
            let (ident, _, optional) = self.attr(&name.to_string())?;
            if !optional {
                return None;
            }
            return Some(Val::new(
                Rep::Bool,
                match op {
                    CmpOp::Eq => quote!(#ident.is_none()),
                    _ => quote!(#ident.is_some()),
                },
            ));
        }
        if let Some(v) = self.literal_cmp(op, a, b) {
            return v;
        }
        let cmp = match op {
            CmpOp::Eq => quote!(Eq),
            CmpOp::Ne => quote!(Ne),
            CmpOp::Lt => quote!(Lt),
            CmpOp::Le => quote!(Le),
            CmpOp::Gt => quote!(Gt),
            CmpOp::Ge => quote!(Ge),
        };
        let (a, b) = (self.term(a)?, self.term(b)?);
        Some(Val::new(
            Rep::Bool,
            match (a.rep, b.rep) {
                (Rep::Int, Rep::Int) => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; #p::Cmp::#cmp.holds(__a, __b) })
                }
                (Rep::Int | Rep::Dim, Rep::Int | Rep::Dim) => {
                    let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
                    quote!({ let __a = #x; let __b = #y; #f::cmp(cx, #p::Cmp::#cmp, __a, __b)? })
                }
                (Rep::DType, Rep::DType) => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; #f::cmp_dtype(cx, #p::Cmp::#cmp, __a, __b)? })
                }
                (Rep::Ints, Rep::Ints) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                    let (ba, x) = by_ref(&a.code, format_ident!("__a"));
                    let (bb, y) = by_ref(&b.code, format_ident!("__b"));
                    quote!({ #ba #bb (#x.items() == #y.items()) == #p::Cmp::#cmp.holds(0, 0) })
                }
                (Rep::Ints | Rep::Dims, Rep::Ints | Rep::Dims)
                    if matches!(op, CmpOp::Eq | CmpOp::Ne) =>
                {
                    let (x, y) = (self.convert(a, Rep::Dims)?, self.convert(b, Rep::Dims)?);
                    let (ba, x) = by_ref(&x, format_ident!("__a"));
                    let (bb, y) = by_ref(&y, format_ident!("__b"));
                    quote!({ #ba #bb #f::same_dims(cx, &#x, &#y)? == #p::Cmp::#cmp.holds(0, 0) })
                }
                (Rep::Bool, Rep::Bool) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; #p::Cmp::#cmp.holds(__a as i64, __b as i64) })
                }
                _ => return None,
            },
        ))
    }

    /// `attrs.name op literal` for a `str` or `float` attribute, the literal on either
    /// side: `Some(None)` for another form the code does not compile.
    fn literal_cmp(&mut self, op: CmpOp, a: &Term, b: &Term) -> Option<Option<Val>> {
        let f = f();
        let p = quote!(::relay_core::__private);
        let (attr, lit, op) = match (a, b) {
            (Term::Attr(_, n), lit) | (lit, Term::Attr(_, n))
                if matches!(lit, Term::Str(_) | Term::Float(..))
                    || matches!(lit, Term::Int(..))
                        && self
                            .decls
                            .iter()
                            .any(|d| d.name == *n && d.ty.base == "float") =>
            {
                let op = if matches!(a, Term::Attr(..)) {
                    op
                } else {
                    flip(op)
                };
                (n.to_string(), lit, op)
            }
            _ => return None,
        };
        let Some(decl) = self.decls.iter().find(|d| d.name == attr) else {
            return Some(None);
        };
        let has_default = decl.default.as_ref().is_some_and(|d| !is_none(d));
        let cmp = match op {
            CmpOp::Eq => quote!(Eq),
            CmpOp::Ne => quote!(Ne),
            CmpOp::Lt => quote!(Lt),
            CmpOp::Le => quote!(Le),
            CmpOp::Gt => quote!(Gt),
            CmpOp::Ge => quote!(Ge),
        };
        let none = quote!(::core::option::Option::None);
        let code = match (decl.ty.base.as_str(), lit) {
            ("str", Term::Str(text)) => {
                let default = match &decl.default {
                    Some(Term::Str(d)) => quote!(::core::option::Option::Some(#d)),
                    _ => none,
                };
                quote!(#f::str_cmp(cx, #attr, #default, #has_default, #p::Cmp::#cmp, #text)?)
            }
            ("float", Term::Float(..) | Term::Int(..)) => {
                let x = match lit {
                    Term::Float(x, _) => *x,
                    Term::Int(v, _) => *v as f64,
                    _ => return Some(None),
                };
                let default = match &decl.default {
                    Some(Term::Float(d, _)) => quote!(::core::option::Option::Some(#d)),
                    Some(Term::Int(d, _)) => {
                        let d = *d as f64;
                        quote!(::core::option::Option::Some(#d))
                    }
                    _ => none,
                };
                quote!(#f::float_cmp(cx, #attr, #default, #has_default, #p::Cmp::#cmp, #x)?)
            }
            _ => return Some(None),
        };
        Some(Some(Val::new(Rep::Bool, code)))
    }

    /// A builtin or `Tensor(..)`.
    fn call(&mut self, name: &str, args: &[Term]) -> Option<Val> {
        let f = f();
        Some(match (name, args) {
            ("Tensor", [s, d]) => {
                let (s, d) = (self.expect(s, Rep::Dims)?, self.expect(d, Rep::DType)?);
                Val::new(Rep::Ty, {
                    let (bs, s) = by_ref(&s, format_ident!("__s"));
                    quote!({ #bs let __d = #d; #f::mk_tensor(cx, &#s, __d) })
                })
            }
            ("len", [Term::Call { name, args }]) if name == "shape" && args.len() == 1 => {
                let x = self.expect(&args[0], Rep::Ty)?;
                Val::new(Rep::Int, quote!({ let __t = #x; #f::rank(cx, __t)? }))
            }
            ("len", [x]) => {
                let x = self.term(x)?;
                let code = x.code;
                match x.rep {
                    Rep::Ints | Rep::Dims => Val::new(Rep::Int, quote!((#code).len())),
                    Rep::Ty => Val::new(
                        Rep::Int,
                        quote!({ let __t = #code; let __t = #f::tuple(cx, __t)?; #f::tuple_len(cx, __t)? }),
                    ),
                    Rep::Tuple => Val::new(Rep::Int, quote!(#f::tuple_len(cx, #code)?)),
                    _ => return None,
                }
            }
            ("shape", [x]) => {
                let x = self.expect(x, Rep::Ty)?;
                Val::new(Rep::Dims, quote!({ let __t = #x; #f::tensor(cx, __t)?.0 }))
            }
            ("dtype", [x]) => {
                let x = self.expect(x, Rep::Ty)?;
                Val::new(
                    Rep::DType,
                    quote!({ let __t = #x; #f::dtype_of_tensor(cx, __t)? }),
                )
            }
            ("is_any", [d]) => {
                let d = self.term(d)?;
                let code = d.code;
                match d.rep {
                    Rep::Int => Val::new(Rep::Bool, quote!({ let _ = #code; false })),
                    Rep::Dim => {
                        Val::new(Rep::Bool, quote!({ let __d = #code; #f::is_any(cx, __d) }))
                    }
                    _ => return None,
                }
            }
            ("is_int", [d]) => {
                let d = self.term(d)?;
                let code = d.code;
                match d.rep {
                    Rep::Int => Val::new(Rep::Bool, quote!({ let _ = #code; true })),
                    Rep::Dim => {
                        Val::new(Rep::Bool, quote!({ let __d = #code; #f::is_int(cx, __d)? }))
                    }
                    _ => return None,
                }
            }
            ("sum", [l]) => {
                let l = self.expect(l, Rep::Dims)?;
                let (bl, l) = by_ref(&l, format_ident!("__l"));
                Val::new(Rep::Dim, quote!({ #bl #f::sum(cx, &#l)? }))
            }
            ("Tuple", fields) => return self.mk_tuple(fields),
            ("broadcast", [a, b]) => {
                let (a, b) = (self.expect(a, Rep::Dims)?, self.expect(b, Rep::Dims)?);
                let (ba, a) = by_ref(&a, format_ident!("__a"));
                let (bb, b) = by_ref(&b, format_ident!("__b"));
                Val::new(Rep::Dims, quote!({ #ba #bb #f::broadcast(cx, &#a, &#b)? }))
            }
            ("prod", [l]) => {
                let l = self.expect(l, Rep::Dims)?;
                let (bl, l) = by_ref(&l, format_ident!("__l"));
                Val::new(Rep::Dim, quote!({ #bl #f::prod(cx, &#l)? }))
            }
            ("reverse", [l]) => {
                let l = self.term(l)?;
                if !matches!(l.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let code = l.code;
                Val::new(l.rep, quote!((#code).reversed()))
            }
            ("distinct", [l]) => {
                let l = self.term(l)?;
                let (bl, r) = by_ref(&l.code, format_ident!("__l"));
                match l.rep {
                    Rep::Ints => Val::new(Rep::Bool, quote!({ #bl #f::distinct_ints(&#r) })),
                    Rep::Dims => Val::new(Rep::Bool, quote!({ #bl #f::distinct(cx, &#r)? })),
                    _ => return None,
                }
            }
            ("min", [a, b]) => self.arith(quote!(Min), a, b)?,
            ("max", [a, b]) => self.arith(quote!(Max), a, b)?,
            ("floordiv", [a, b]) => self.arith(quote!(FloorDiv), a, b)?,
            ("floormod", [a, b]) => self.arith(quote!(FloorMod), a, b)?,
            _ => return None,
        })
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

/// Calls `f` on `t` and every term inside it.
fn visit<'t>(t: &'t Term, f: &mut impl FnMut(&'t Term)) {
    f(t);
    for c in children(t) {
        visit(c, f);
    }
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
            Goal::For { src, body, .. } => {
                out.push(src);
                goal_terms(body, out);
            }
        }
    }
}
