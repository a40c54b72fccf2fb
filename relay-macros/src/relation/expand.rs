//! Code generation: a checked clause into static data, plus the relation's definition,
//! its `Relation` impl and its registration. Cannot fail.

use super::ast::{AttrDecl, BinOp, Clause, CmpOp, Goal, ListItem, Term};
use super::builtins::Run;
use super::check::{dtype_literal, is_none, show, Checked};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

/// The definition, impl and registration of relation `ty` solved by `solve` (a path or
/// a non-capturing closure), needing the arguments `needs`, with `statics` defined
/// before them; `fast` is its compiled run (an `Option`), if a clause's.
pub fn registration(
    ty: &Ident,
    arity: Option<usize>,
    needs: &[usize],
    (solve, fast): (TokenStream, TokenStream),
    statics: TokenStream,
    attrs: &[&AttrDecl],
) -> TokenStream {
    let sigs = attrs.iter().map(|d| {
        let name = d.name.to_string();
        let (ty, default) = super::sig::attr_sig(d);
        let default = match default {
            Some(d) => quote!(::core::option::Option::Some(#d)),
            None => quote!(::core::option::Option::None),
        };
        quote!(::relay_core::__private::AttrSig { name: #name, ty: #ty, default: #default })
    });
    let name = ty.to_string();
    let arity = match arity {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        const _: () = {
            #statics
            static __RELAY_DEF: ::relay_core::RelationDef = ::relay_core::RelationDef {
                name: #name,
                arity: #arity,
                needs: &[#(#needs),*],
                solve: #solve,
            };
            impl ::relay_core::Relation for #ty {
                const DEF: &'static ::relay_core::RelationDef = &__RELAY_DEF;
                const ARITY: ::core::option::Option<usize> = #arity;
                const ATTRS: &'static [::relay_core::__private::AttrSig] = &[#(#sigs),*];
                const FAST: ::core::option::Option<::relay_core::__private::fast::FastFn> = #fast;
            }
            ::relay_core::__private::inventory::submit! {
                ::relay_core::__private::RelationEntry {
                    def: &__RELAY_DEF,
                    module: ::core::module_path!(),
                    file: ::core::file!(),
                    line: ::core::line!(),
                }
            }
        };
    }
}

/// The clause form: `item` (a unit struct) unchanged, then the compiled clause.
pub fn clause(item: &syn::ItemStruct, clause: &Clause, checked: &Checked) -> TokenStream {
    let p = quote!(::relay_core::__private);
    let name = clause.name.to_string();
    let vars = &checked.vars;
    let head = clause.head.iter().map(|t| term(t, checked));
    let body = clause.body.iter().map(|g| goal(g, checked));
    let attrs = clause.attrs.iter().flat_map(|b| b.decls.iter()).map(|d| {
        let n = d.name.to_string();
        let ty = match d.ty.base.as_str() {
            "int" => quote!(Int),
            "bool" => quote!(Bool),
            "dtype" => quote!(DType),
            "[int]" => quote!(Ints),
            "str" => quote!(Str),
            "float" => quote!(Float),
            "[float]" => quote!(Floats),
            _ => quote!(Shape),
        };
        let default = match &d.default {
            Some(Term::Int(v, _)) if d.ty.base == "float" => {
                let v = *v as f64;
                quote!(::core::option::Option::Some(#p::Term::Float(#v)))
            }
            Some(t) if !is_none(t) => {
                let t = term(t, checked);
                quote!(::core::option::Option::Some(#t))
            }
            _ => quote!(::core::option::Option::None),
        };
        let optional = d.ty.optional;
        quote!(#p::AttrDecl { name: #n, ty: #p::AttrType::#ty, default: #default, optional: #optional })
    });
    let (fast_fn, fast) = match super::fast::fast_fn(clause, checked) {
        Some(code) => (code, quote!(::core::option::Option::Some(__relay_fast))),
        None => (TokenStream::new(), quote!(::core::option::Option::None)),
    };
    // Each Rust call's function, once: the static form and the compiled run read it.
    let rust_fns = checked.rust_calls.iter().enumerate().map(|(k, (_, path))| {
        let name = super::fast::rust_const(k);
        let span = syn::spanned::Spanned::span(path);
        quote_spanned!(span=> const #name: #p::RustFn = #path;)
    });
    // Each relation a goal calls takes as many arguments as the goal gives it.
    let mut calls = Vec::new();
    relation_calls(&clause.body, &mut calls);
    let arities = calls.iter().map(|(name, n)| {
        let message = format!(
            "the relation `{name}` takes another number of arguments than the {n} this goal gives it"
        );
        quote_spanned! {name.span()=>
            const _: () = ::core::assert!(
                match <#name as ::relay_core::Relation>::ARITY {
                    ::core::option::Option::Some(n) => n == #n,
                    ::core::option::Option::None => true,
                },
                #message
            );
        }
    });
    let statics = quote! {
        #(#arities)*
        #(#rust_fns)*
        #fast_fn
        static __RELAY_CLAUSE: #p::Clause = #p::Clause {
            name: #name,
            vars: &[#(#vars),*],
            head: &[#(#head),*],
            body: &[#(#body),*],
            attrs: &[#(#attrs),*],
            fast: #fast,
        };
    };
    let solve = quote!(|cx| #p::run_clause(&__RELAY_CLAUSE, cx));
    let needs = super::needs::needs(clause);
    let decls: Vec<&AttrDecl> = clause.attrs.iter().flat_map(|b| b.decls.iter()).collect();
    let reg = registration(
        &item.ident,
        Some(clause.head.len()),
        &needs,
        (solve, fast),
        statics,
        &decls,
    );
    // The rustdoc ends with the clause.
    let mut item = item.clone();
    let doc = format!(
        "\n\nThe relation's clause:\n\n```text\n{}\n```",
        super::show::show_clause(clause)
    );
    item.attrs.push(syn::parse_quote!(#[doc = #doc]));
    quote!(#item #reg)
}

fn goal(g: &Goal, c: &Checked) -> TokenStream {
    let p = quote!(::relay_core::__private);
    let message = |m: &syn::LitStr, args: &[Term]| {
        let args = args.iter().map(|t| term(t, c));
        quote!(#p::Message { text: #m, args: &[#(#args),*] })
    };
    match g {
        Goal::Eq(l, r) => {
            let (l, r) = (term(l, c), term(r, c));
            quote!(#p::Goal::Eq(#l, #r))
        }
        Goal::Check(cond) => {
            let text = show(cond);
            let cond = term(cond, c);
            quote!(#p::Goal::Check { cond: #cond, text: #text, message: ::core::option::Option::None })
        }
        Goal::Assert {
            cond,
            message: m,
            args,
        } => {
            let text = show(cond);
            let cond = term(cond, c);
            let m = message(m, args);
            quote!(#p::Goal::Check { cond: #cond, text: #text, message: ::core::option::Option::Some(#m) })
        }
        Goal::AssertEq {
            lhs,
            rhs,
            message: m,
            args,
        } => {
            let (l, r) = (term(lhs, c), term(rhs, c));
            let m = message(m, args);
            quote!(#p::Goal::Unify { lhs: #l, rhs: #r, message: #m })
        }
        Goal::If { cond, then, els } => {
            let cond = term(cond, c);
            let then = then.iter().map(|g| goal(g, c));
            let els = els.iter().map(|g| goal(g, c));
            quote!(#p::Goal::If { cond: #cond, then: &[#(#then),*], els: &[#(#els),*] })
        }
        Goal::For { var, src, body, .. } => {
            let i = c.var(&var.to_string());
            let src = term(src, c);
            let body = body.iter().map(|g| goal(g, c));
            quote!(#p::Goal::For { var: #i, src: #src, body: &[#(#body),*] })
        }
        Goal::Relation { name, args } => {
            let args = args.iter().map(|t| term(t, c));
            quote!(#p::Goal::Call(<#name as ::relay_core::Relation>::DEF, &[#(#args),*]))
        }
        Goal::Default { var, value, .. } => {
            let i = match var {
                Term::Name(id) => c.var(&id.to_string()),
                _ => 0,
            };
            let value = term(value, c);
            quote!(#p::Goal::Default(#i, #value))
        }
    }
}

/// The relations the goals call (nested goals' too), each with its number of arguments.
fn relation_calls<'g>(goals: &'g [Goal], out: &mut Vec<(&'g Ident, usize)>) {
    for g in goals {
        match g {
            Goal::Relation { name, args } => out.push((name, args.len())),
            Goal::If { then, els, .. } => {
                relation_calls(then, out);
                relation_calls(els, out);
            }
            Goal::For { body, .. } => relation_calls(body, out),
            _ => {}
        }
    }
}

/// A string or float literal: the other side of a comparison is a `str` or `float`
/// attribute (the checker made sure).
pub(super) fn literal(t: &Term) -> bool {
    matches!(t, Term::Str(_) | Term::Float(..))
}

/// `attrs.x op 1` with `x` a `float` attribute (an integer literal compared with it).
pub(super) fn float_attr(a: &Term, b: &Term, c: &Checked) -> bool {
    [a, b].iter().any(
        |t| matches!(t, Term::Attr(_, n) if c.attrs.iter().any(|(x, ty)| n == x && ty == "float")),
    )
}

pub(super) fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// The `Arith` variant of a binary operator (`/` and `%` round toward negative infinity).
pub(super) fn arith(op: BinOp) -> TokenStream {
    match op {
        BinOp::Add => quote!(Add),
        BinOp::Sub => quote!(Sub),
        BinOp::Mul => quote!(Mul),
        BinOp::Div => quote!(FloorDiv),
        BinOp::Rem => quote!(FloorMod),
    }
}

/// The `Cmp` variant of a comparison.
pub(super) fn cmp(op: CmpOp) -> TokenStream {
    match op {
        CmpOp::Eq => quote!(Eq),
        CmpOp::Ne => quote!(Ne),
        CmpOp::Lt => quote!(Lt),
        CmpOp::Le => quote!(Le),
        CmpOp::Gt => quote!(Gt),
        CmpOp::Ge => quote!(Ge),
    }
}

fn term(t: &Term, c: &Checked) -> TokenStream {
    let p = quote!(::relay_core::__private);
    let boxed = |t: &Term| {
        let t = term(t, c);
        quote!(&#t)
    };
    match t {
        Term::Name(id) => match dtype_literal(&id.to_string()) {
            Some(Ok(d)) => {
                let code = Ident::new(d.code, id.span());
                let (bits, lanes) = (d.bits, d.lanes);
                quote!(#p::Term::DType(#p::DTypeCode::#code, #bits, #lanes))
            }
            _ => {
                let i = c.var(&id.to_string());
                quote!(#p::Term::Var(#i))
            }
        },
        Term::Wild(_) => quote!(#p::Term::Wild),
        Term::Int(v, _) => quote!(#p::Term::Int(#v)),
        Term::Any(_) => quote!(#p::Term::Any),
        Term::Bool(b, _) => quote!(#p::Term::Bool(#b)),
        Term::Call { name, args } => {
            let a: Vec<TokenStream> = args.iter().map(boxed).collect();
            match name.to_string().as_str() {
                "Tensor" => quote!(#p::Term::Tensor(#(#a),*)),
                "Tuple" => {
                    let items = args.iter().map(|t| term(t, c));
                    quote!(#p::Term::Tuple(&[#(#items),*]))
                }
                n => match super::builtins::find(n).map(|b| b.run) {
                    Some(Run::Term(v)) => {
                        let v = Ident::new(v, name.span());
                        quote!(#p::Term::#v(#(#a),*))
                    }
                    Some(Run::Arith(op)) => {
                        let op = Ident::new(op, name.span());
                        quote!(#p::Term::Arith(#p::Arith::#op, #(#a),*))
                    }
                    Some(Run::Value(f)) => {
                        let f = Ident::new(f, name.span());
                        let args = args.iter().map(|t| term(t, c));
                        quote!(#p::Term::Builtin(#p::builtin::#f, &[#(#args),*]))
                    }
                    // Checked: no other name.
                    None => quote!(#p::Term::Wild),
                },
            }
        }
        Term::Tuple(_, items) => {
            let items = items.iter().map(|t| term(t, c));
            quote!(#p::Term::Tuple(&[#(#items),*]))
        }
        Term::Rest(_, rest) => {
            let rest = boxed(rest);
            quote!(#p::Term::Rest(#rest))
        }
        Term::List(_, items) => {
            let items = items.iter().map(|i| match i {
                ListItem::Dim(t) => {
                    let t = term(t, c);
                    quote!(#p::Item::Dim(#t))
                }
                ListItem::Splice(_, t) => {
                    let t = term(t, c);
                    quote!(#p::Item::Splice(#t))
                }
            });
            quote!(#p::Term::List(&[#(#items),*]))
        }
        Term::Index(b, _, i) if c.shape_index(i) => {
            let (b, i) = (boxed(b), boxed(i));
            quote!(#p::Term::Gather(#b, #i))
        }
        Term::Index(b, _, i) => {
            let (b, i) = (boxed(b), boxed(i));
            quote!(#p::Term::Index(#b, #i))
        }
        Term::Repeat(_, d, n) => {
            let (d, n) = (boxed(d), boxed(n));
            quote!(#p::Term::Repeat(#d, #n))
        }
        Term::As(id, pat) => {
            let i = c.var(&id.to_string());
            let pat = boxed(pat);
            quote!(#p::Term::As(&#p::Term::Var(#i), #pat))
        }
        Term::Slice(b, _, lo, hi) => {
            let b = boxed(b);
            let opt = |t: &Option<Box<Term>>| match t {
                Some(t) => {
                    let t = boxed(t);
                    quote!(::core::option::Option::Some(#t))
                }
                None => quote!(::core::option::Option::None),
            };
            let (lo, hi) = (opt(lo), opt(hi));
            quote!(#p::Term::Slice(#b, #lo, #hi))
        }
        Term::Binary(BinOp::Mul, _, a, b) if c.is_float(a) || c.is_float(b) => {
            let (d, x) = if c.is_float(b) { (a, b) } else { (b, a) };
            let (d, x) = (boxed(d), boxed(x));
            quote!(#p::Term::ScaleFloor(#d, #x))
        }
        Term::Binary(op, _, a, b) => {
            let op = arith(*op);
            let (a, b) = (boxed(a), boxed(b));
            quote!(#p::Term::Arith(#p::Arith::#op, #a, #b))
        }
        Term::Neg(_, a) => {
            let a = boxed(a);
            quote!(#p::Term::Neg(#a))
        }
        Term::Str(l) => quote!(#p::Term::Str(#l)),
        Term::Logic(and, _, a, b) => {
            let (a, b) = (boxed(a), boxed(b));
            if *and {
                quote!(#p::Term::And(#a, #b))
            } else {
                quote!(#p::Term::Or(#a, #b))
            }
        }
        Term::Not(_, a) => {
            let a = boxed(a);
            quote!(#p::Term::Not(#a))
        }
        Term::Float(x, _) => quote!(#p::Term::Float(#x)),
        Term::Cmp(op, _, a, b) if literal(a) || literal(b) || float_attr(a, b, c) => {
            // `attrs.name op literal`, the literal on either side.
            let (attr, lit, op) = if matches!(**a, Term::Attr(..)) {
                (a, b, *op)
            } else {
                (b, a, flip(*op))
            };
            let i = match &**attr {
                Term::Attr(_, name) => c.attr(&name.to_string()),
                _ => 0,
            };
            let op = cmp(op);
            match &**lit {
                Term::Str(l) => quote!(#p::Term::StrCmp(#i, #p::Cmp::#op, #l)),
                Term::Float(x, _) => quote!(#p::Term::FloatCmp(#i, #p::Cmp::#op, #x)),
                Term::Int(v, _) => {
                    let x = *v as f64;
                    quote!(#p::Term::FloatCmp(#i, #p::Cmp::#op, #x))
                }
                _ => quote!(#p::Term::Bool(false)),
            }
        }
        Term::Cmp(op, _, a, b) if is_none(a) || is_none(b) => {
            let attr = if is_none(b) { a } else { b };
            let i = match &**attr {
                Term::Attr(_, name) => c.attr(&name.to_string()),
                _ => 0,
            };
            match op {
                CmpOp::Eq => quote!(#p::Term::IsNone(#i)),
                _ => {
                    quote!(#p::Term::Cmp(#p::Cmp::Eq, &#p::Term::IsNone(#i), &#p::Term::Bool(false)))
                }
            }
        }
        Term::Cmp(op, _, a, b) => {
            let op = cmp(*op);
            let (a, b) = (boxed(a), boxed(b));
            quote!(#p::Term::Cmp(#p::Cmp::#op, #a, #b))
        }
        Term::Attr(_, name) => {
            let i = c.attr(&name.to_string());
            quote!(#p::Term::Attr(#i))
        }
        Term::Comp(comp) => {
            let (elem, var, src, cond) = comp.parts();
            let i = c.var(&var.to_string());
            let (elem, src) = (boxed(elem), boxed(src));
            let cond = match cond {
                Some(t) => {
                    let t = boxed(t);
                    quote!(::core::option::Option::Some(#t))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(#p::Term::Comp { elem: #elem, var: #i, src: #src, cond: #cond })
        }
        Term::Range(_, lo, hi) => {
            let (lo, hi) = (boxed(lo), boxed(hi));
            quote!(#p::Term::Range(#lo, #hi))
        }
        Term::In(_, x, l) => {
            let (x, l) = (boxed(x), boxed(l));
            quote!(#p::Term::In(#x, #l))
        }
        Term::IfElse(_, cond, a, b) => {
            let (cond, a, b) = (boxed(cond), boxed(a), boxed(b));
            quote!(#p::Term::IfElse(#cond, #a, #b))
        }
        Term::Rust { args, .. } => {
            let args = args.iter().map(|t| term(t, c));
            let f = super::fast::rust_fn(&c.rust_calls, t);
            quote!(#p::Term::Rust(#f, &[#(#args),*]))
        }
    }
}

/// The imperative form: the function unchanged, a unit struct named `name` with the
/// function's visibility, and the registration solved by the function.
pub fn imperative(name: &Ident, f: &syn::ItemFn) -> TokenStream {
    let vis = &f.vis;
    let fn_name = &f.sig.ident;
    let doc = format!("The relation `{name}`, solved by [`{fn_name}`].");
    let span = syn::spanned::Spanned::span(&f.sig.output);
    let solve = quote_spanned!(span=> { const __RELAY_SOLVE: fn(&mut ::relay_core::RelCx<'_>) -> ::relay_core::RelResult = #fn_name; __RELAY_SOLVE });
    let none = quote!(::core::option::Option::None);
    let reg = registration(name, None, &[], (solve, none), TokenStream::new(), &[]);
    quote! {
        #f
        #[doc = #doc]
        #[derive(Copy, Clone, Debug)]
        #vis struct #name;
        #reg
    }
}

/// After an error in the declaration of relation `ty`: its `Relation` impl over a
/// definition that is never registered (nor run: the program does not compile), so that
/// an operator naming it gets no second error.
pub fn placeholder(ty: &Ident) -> TokenStream {
    quote! {
        impl ::relay_core::Relation for #ty {
            const DEF: &'static ::relay_core::RelationDef =
                &::relay_core::__private::UNCOMPILED_RELATION;
        }
    }
}
