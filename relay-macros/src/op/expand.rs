//! Code generation for `relay_op!`: per operator, the definition as a `static`, one
//! `inventory::submit!`, and a typed builder; operators with a dotted name go in modules,
//! one per namespace even across invocations of one module ([`layout`](super::layout)).

use super::ast::{ArgDecl, Value};
use super::check::{ATy, OpModel};
use super::layout::Blocks;
use crate::data::names::{camel, doc_text, rust_ident};
use crate::data::tytext::Kind;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::collections::BTreeMap;

/// Operators grouped by namespace.
#[derive(Default)]
struct Namespace<'m> {
    ops: Vec<&'m OpModel<'m>>,
    children: BTreeMap<String, (Ident, Namespace<'m>)>,
}

pub fn expand(models: &[OpModel<'_>], blocks: Option<&Blocks>) -> TokenStream {
    let mut root = Namespace::default();
    for m in models.iter().filter(|m| m.first) {
        let segs = &m.decl.name;
        let mut ns = &mut root;
        for seg in &segs[..segs.len() - 1] {
            ns = &mut ns
                .children
                .entry(seg.to_string())
                .or_insert_with(|| (seg.clone(), Namespace::default()))
                .1;
        }
        ns.ops.push(m);
    }
    emit(&root, &[], blocks)
}

/// The items of namespace `path` (`[]` for the invocation's module), its operators' and
/// its namespaces' modules. With `blocks` (the invocations of the module, read from the
/// source file), a namespace that other invocations declare operators in too is defined
/// by the first of them, which re-exports the others' operators by name ([`layout`](super::layout)).
fn emit(ns: &Namespace<'_>, path: &[String], blocks: Option<&Blocks>) -> TokenStream {
    let mut out: TokenStream = ns.ops.iter().map(|m| expand_op(m)).collect();
    for (name, (ident, child)) in &ns.children {
        let mut full = path.to_vec();
        full.push(name.clone());
        let inner = emit(child, &full, blocks);
        let span = ident.span();
        let layout = blocks.map(|b| b.namespace(&full));
        let doc = format!("Operators of the `{}` namespace.", full.join("."));
        let (module, hidden) = match layout.as_ref().and_then(|l| l.name.as_ref()) {
            Some(hidden) => (format_ident!("{}", hidden, span = span), true),
            None => (rust_ident(&ident.to_string(), span), false),
        };
        if path.is_empty() && !hidden {
            // Where this invocation defines the namespace's module, another that defines
            // it too (one that could not read the source file, or that a macro generated)
            // is rustc's error, which names the module only: this item's name says what
            // to do.
            let hint = format_ident!(
                "merge_the_relay_op_blocks_of_namespace_{}_into_one",
                name,
                span = span
            );
            out.extend(quote_spanned! {span=>
                #[doc(hidden)]
                #[allow(non_upper_case_globals, dead_code)]
                const #hint: () = ();
            });
        }
        // The other invocations' operators and namespaces in this one, by name (so that
        // they shadow what `use super::*` brings).
        let supers = vec![quote!(super); full.len()];
        let reexports = layout.iter().flat_map(|l| &l.others).map(|o| {
            let module = o.module.iter().map(|m| rust_ident(m, span));
            let mut names: Vec<Ident> = o.ops.iter().flat_map(|op| item_idents(op, span)).collect();
            names.extend(o.children.iter().map(|c| rust_ident(c, span)));
            quote!(pub use #(#supers::)* #(#module::)* { #(#names),* };)
        });
        let hidden = hidden.then(|| quote!(#[doc(hidden)]));
        out.extend(quote! {
            #[doc = #doc]
            #hidden
            pub mod #module {
                #[allow(unused_imports)]
                use super::*;
                #(#reexports)*
                #inner
            }
        });
    }
    out
}

/// The items of operator `last` (the last segment of its name): its builder function,
/// its definition's `static` and its builder's type.
fn item_idents(last: &str, span: Span) -> [Ident; 3] {
    [
        rust_ident(last, span),
        format_ident!("{}", last.to_uppercase(), span = span),
        format_ident!("{}Builder", camel(last), span = span),
    ]
}

/// The Rust type a builder takes for an attribute of type `t`, as rustdoc shows it: `i64`,
/// `f64`, `bool`, `&str` and `DType` for `int`, `float`, `bool`, `str` and `dtype`; an
/// iterable of those for `[T]`; the value itself for `Option<T>` (a builder that does not
/// set it keeps the default); `impl Into<OneOrList<T>>` for `T | [T]`.
fn param_ty(t: &ATy) -> TokenStream {
    let p = quote!(::relay_core::__private);
    match t {
        ATy::Int => quote!(::core::primitive::i64),
        ATy::Float => quote!(::core::primitive::f64),
        ATy::Bool => quote!(::core::primitive::bool),
        ATy::Str => quote!(&::core::primitive::str),
        ATy::DType => quote!(#p::DType),
        ATy::List(t) => {
            let item = item_ty(t);
            quote!(impl ::core::iter::IntoIterator<Item = #item>)
        }
        ATy::Option(t) => param_ty(t),
        ATy::Either(a, b) => {
            let v = value_ty(one_of(a, b));
            quote!(impl ::core::convert::Into<#p::OneOrList<#v>>)
        }
    }
}

/// The type of an item of a list attribute's iterable: as [`param_ty`], but a string is
/// `impl AsRef<str>` (a borrowed `&str` there would need a named lifetime).
fn item_ty(t: &ATy) -> TokenStream {
    match t {
        ATy::Str => quote!(impl ::core::convert::AsRef<::core::primitive::str>),
        ATy::Option(t) => item_ty(t),
        _ => param_ty(t),
    }
}

/// The owned Rust type of a value of type `t`, inside a `OneOrList`.
fn value_ty(t: &ATy) -> TokenStream {
    let p = quote!(::relay_core::__private);
    match t {
        ATy::Int | ATy::Float | ATy::Bool | ATy::DType => param_ty(t),
        ATy::Str => quote!(::std::string::String),
        ATy::List(t) => {
            let t = value_ty(t);
            quote!(#p::Vec<#t>)
        }
        ATy::Option(t) => value_ty(t),
        ATy::Either(a, b) => {
            let t = value_ty(one_of(a, b));
            quote!(#p::OneOrList<#t>)
        }
    }
}

/// The one-value side of `T | [T]` (the check rejects other pairs).
fn one_of<'t>(a: &'t ATy, b: &'t ATy) -> &'t ATy {
    match a {
        ATy::List(_) => b,
        _ => a,
    }
}

/// The `AttrValue` of `x`, a value of [`param_ty`]`(t)`.
fn value_expr(t: &ATy, x: TokenStream) -> TokenStream {
    let p = quote!(::relay_core::__private);
    match t {
        ATy::Int | ATy::Float | ATy::Bool | ATy::Str | ATy::DType => {
            quote!(#p::AttrValue::from(#x))
        }
        ATy::List(t) => {
            let item = item_expr(t, quote!(x));
            quote!(#p::attr_list(#x, |x| #item))
        }
        ATy::Option(t) => value_expr(t, x),
        ATy::Either(a, b) => {
            let v = value_ty(one_of(a, b));
            quote!(#p::AttrValue::from(::core::convert::Into::<#p::OneOrList<#v>>::into(#x)))
        }
    }
}

/// The `AttrValue` of `x`, an item of [`item_ty`]`(t)`.
fn item_expr(t: &ATy, x: TokenStream) -> TokenStream {
    let p = quote!(::relay_core::__private);
    match t {
        ATy::Str => quote!(#p::AttrValue::from(
            ::core::convert::AsRef::<::core::primitive::str>::as_ref(&#x)
        )),
        ATy::Option(t) => item_expr(t, x),
        _ => value_expr(t, x),
    }
}

fn attr_type(t: &ATy) -> TokenStream {
    let a = quote!(::relay_core::__private::OpAttrType);
    match t {
        ATy::Int => quote!(#a::Int),
        ATy::Float => quote!(#a::Float),
        ATy::Bool => quote!(#a::Bool),
        ATy::Str => quote!(#a::Str),
        ATy::DType => quote!(#a::DType),
        ATy::List(t) => {
            let t = attr_type(t);
            quote!(#a::List(&#t))
        }
        ATy::Option(t) => {
            let t = attr_type(t);
            quote!(#a::Option(&#t))
        }
        ATy::Either(x, y) => {
            let (x, y) = (attr_type(x), attr_type(y));
            quote!(#a::Either(&#x, &#y))
        }
    }
}

/// The generated "Attributes:" section of an operator's documentation: one line per
/// attribute with its type and default as declared (`` - `axis: int = -1` ``;
/// `` - `num_groups: int` (required) ``), or "Attributes: none.".
fn attrs_section(d: &super::ast::OpDecl, m: &OpModel<'_>) -> String {
    if d.attr_decls.is_empty() {
        return "Attributes: none.".into();
    }
    let mut out = String::from("Attributes:\n");
    for (a, am) in d.attr_decls.iter().zip(&m.attrs) {
        let name = a.name.to_string();
        let ty = am.ty.text();
        match &a.default {
            Some(v) => out.push_str(&format!("\n- `{name}: {ty} = {}`", v.text())),
            None => out.push_str(&format!("\n- `{name}: {ty}` (required)")),
        }
    }
    out
}

fn expand_op(m: &OpModel<'_>) -> TokenStream {
    let d = m.decl;
    let p = quote!(::relay_core::__private);
    let last = d.name.last().expect("a name has a segment");
    let last_str = last.to_string();
    let full: Vec<String> = d.name.iter().map(|s| s.to_string()).collect();
    let full = full.join(".");
    let [fn_name, static_name, builder] = item_idents(&last_str, last.span());

    let params: Vec<String> = d
        .params
        .iter()
        .zip(&m.kinds)
        .map(|(p, k)| {
            if *k == Kind::Type {
                p.name.to_string()
            } else {
                format!("{}: {}", p.name, k.name())
            }
        })
        .collect();
    let args_text: Vec<String> = d.args.iter().map(|a| a.ty.text()).collect();
    // Arguments as declared, with their names (`data: d`).
    let named_args: Vec<String> = d
        .args
        .iter()
        .zip(&args_text)
        .map(|(a, ty)| match &a.name {
            Some(n) => format!("{n}: {ty}"),
            None => ty.clone(),
        })
        .collect();
    let signature = format!(
        "{full} : fn<{}>({}) -> {}{}",
        params.join(", "),
        named_args.join(", "),
        d.ret.text(),
        match &d.relation {
            Some(r) => format!(" where {}", quote!(#r)).replace(" :: ", "::"),
            None => String::new(),
        }
    );
    let user_doc = doc_text(&d.attrs);
    let attrs_doc = attrs_section(d, m);
    // The registered `doc`: the user's text, then the attributes as declared.
    let def_doc = if user_doc.is_empty() {
        attrs_doc.clone()
    } else {
        format!("{user_doc}\n\n{attrs_doc}")
    };
    // The rustdoc: the same, with the signature (and a link to the relation) before the
    // attributes.
    let signature = match &d.relation {
        Some(r) => {
            let path = quote!(#r).to_string().replace(' ', "");
            format!("`{signature}` (relation: [`{path}`])")
        }
        None => format!("`{signature}`"),
    };
    let mut doc = if user_doc.is_empty() {
        format!("{signature}\n\n{attrs_doc}")
    } else {
        format!("{user_doc}\n\n{signature}\n\n{attrs_doc}")
    };
    // Its ONNX operators, each registered in relay-onnx's table.
    for o in &m.onnx {
        let domain = if o.domain.is_empty() {
            "ai.onnx"
        } else {
            &o.domain
        };
        doc.push_str(&format!(
            "\n\nONNX: `{}` of domain `{domain}`, from opset {}.",
            o.op_type, o.since
        ));
    }
    let onnx: TokenStream = m
        .onnx
        .iter()
        .map(|o| super::onnx::expand(o, &full, &user_doc))
        .collect();

    let param_defs = d.params.iter().zip(&m.kinds).map(|(param, k)| {
        let name = param.name.to_string();
        let kind = format_ident!("{}", k.name());
        quote!(#p::TypeParamDef { name: #name, kind: #p::Kind::#kind })
    });
    let arg_idents = ArgDecl::rust_names(&d.args, "arg");
    let arg_names: Vec<String> = arg_idents
        .iter()
        .map(|i| i.to_string().trim_start_matches("r#").to_string())
        .collect();
    let relation = match &d.relation {
        Some(r) => quote_spanned!(syn::spanned::Spanned::span(r)=>
            #p::Some(<#r as #p::Relation>::REF)),
        None => quote!(#p::None),
    };
    // The relation takes the operator's arguments and its result: checked in a constant,
    // an error at the relation's name.
    let arity_check = d.relation.as_ref().map(|r| {
        let span = syn::spanned::Spanned::span(r);
        let written = quote!(#r).to_string().replace(' ', "");
        let args = d.args.len();
        quote_spanned! {span=>
            const _: () = {
                const MESSAGE: #p::Disagreement =
                    #p::Disagreement::arity(<#r as #p::Relation>::ARITY, #full, #written, #args);
                if !MESSAGE.is_empty() {
                    ::core::panic!("{}", MESSAGE.as_str());
                }
            };
        }
    });
    // The attributes the relation's clause declares are the operator's, alike.
    let attrs_check = d.relation.as_ref().map(|r| {
        let span = syn::spanned::Spanned::span(r);
        let written = quote!(#r).to_string().replace(' ', "");
        let sigs = d.attr_decls.iter().zip(&m.attrs).map(|(a, am)| {
            let name = a.name.to_string();
            let ty = am.ty.text();
            let default = match a.default.as_ref().and_then(|v| sig_value(v, &am.ty)) {
                Some(v) => quote!(#p::Some(#v)),
                None => quote!(#p::None),
            };
            quote!(#p::AttrSig { name: #name, ty: #ty, default: #default })
        });
        quote_spanned! {span=>
            const _: () = {
                const MESSAGE: #p::Disagreement = #p::Disagreement::attrs(
                    <#r as #p::Relation>::ATTRS,
                    &[#(#sigs),*],
                    #full,
                    #written,
                );
                if !MESSAGE.is_empty() {
                    ::core::panic!("{}", MESSAGE.as_str());
                }
            };
        }
    });
    let attr_defs = d.attr_decls.iter().zip(&m.attrs).map(|(a, am)| {
        let name = a.name.to_string();
        let ty = attr_type(&am.ty);
        let default = match &am.default {
            Some(c) => quote!(#p::Some(#c)),
            None => quote!(#p::None),
        };
        quote!(#p::AttrDef { name: #name, ty: #ty, default: #default })
    });
    let level = m.level;
    let ret = d.ret.text();
    let line = quote_spanned!(d.name[0].span()=> ::core::line!());
    let file = quote_spanned!(d.name[0].span()=> ::core::file!());

    let mut required = Vec::new();
    let mut setters = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (a, am) in d.attr_decls.iter().zip(&m.attrs) {
        let name = a.name.to_string();
        if !seen.insert(name.clone()) || name == "build" {
            continue; // reported by the check
        }
        let ident = rust_ident(&name, a.name.span());
        let ty = param_ty(&am.ty);
        let value = value_expr(&am.ty, quote!(#ident));
        let set = quote!(.set(#name, #value));
        if am.default.is_none() {
            required.push((quote!(#ident: #ty), set));
        } else {
            let sdoc = format!("Sets attribute `{name}` (`{}`).", am.ty.text());
            setters.push(quote! {
                #[doc = #sdoc]
                pub fn #ident(self, #ident: #ty) -> Self {
                    Self(self.0 #set)
                }
            });
        }
    }
    let req_params = required.iter().map(|(param, _)| param);
    let req_sets = required.iter().map(|(_, set)| set);
    let static_doc = format!("The definition of operator `{full}`, as registered.");
    let builder_doc = format!("A call of `{full}` being built: set attributes, then `build()`.");
    quote! {
        #[doc = #static_doc]
        pub static #static_name: #p::OpDef = #p::OpDef {
            name: #full,
            doc: #def_doc,
            params: &[#(#param_defs),*],
            arg_names: &[#(#arg_names),*],
            args: &[#(#args_text),*],
            ret: #ret,
            relation: #relation,
            attrs: &[#(#attr_defs),*],
            level: #level,
            file: #file,
            line: #line,
        };

        #p::inventory::submit! { #p::OpEntry { def: &#static_name } }

        #arity_check
        #attrs_check
        #onnx

        #[doc = #doc]
        // One parameter per argument of the operator (`qnn.add` has eight).
        #[allow(clippy::too_many_arguments)]
        pub fn #fn_name<E>(#(#arg_idents: E,)* #(#req_params),*) -> #builder<E> {
            #builder(#p::CallBuilder::new(&#static_name, #p::Vec::from([#(#arg_idents),*])) #(#req_sets)*)
        }

        #[doc = #builder_doc]
        #[must_use]
        #[derive(Clone, Debug)]
        pub struct #builder<E>(#p::CallBuilder<E>);

        impl<E> #builder<E> {
            #(#setters)*

            /// The call, with the defaults of the attributes not set.
            pub fn build(self) -> #p::OpCall<E> {
                self.0.build()
            }
        }
    }
}

/// The canonical text of the default `v` of an attribute of type `ty`, as a clause's
/// is written (`crate::relation::sig`); `None` for a value it does not read.
fn sig_value(v: &Value, ty: &ATy) -> Option<String> {
    use crate::relation::sig::float;
    use syn::Lit;
    let inner = match ty {
        ATy::Option(t) => t,
        other => other,
    };
    Some(match v {
        Value::Lit(neg, Lit::Int(i)) => {
            let n: i64 = i.base10_parse().ok()?;
            let n = if neg.is_some() { n.checked_neg()? } else { n };
            if matches!(inner, ATy::Float) {
                float(n as f64)
            } else {
                n.to_string()
            }
        }
        Value::Lit(neg, Lit::Float(f)) => {
            let x: f64 = f.base10_parse().ok()?;
            float(if neg.is_some() { -x } else { x })
        }
        Value::Lit(None, Lit::Str(s)) if matches!(inner, ATy::DType) => s.value(),
        Value::Lit(None, Lit::Str(s)) => format!("{:?}", s.value()),
        Value::Lit(None, Lit::Bool(b)) => b.value.to_string(),
        Value::Ident(i) => i.to_string(),
        Value::Some(_, v) => sig_value(v, inner)?,
        Value::List(_, items) => {
            let elem = match inner {
                ATy::List(t) => &**t,
                other => other,
            };
            let items: Option<Vec<String>> = items.iter().map(|v| sig_value(v, elem)).collect();
            format!("[{}]", items?.join(", "))
        }
        Value::Lit(..) => return None,
    })
}

#[cfg(test)]
mod tests {
    /// The rustdoc of each function and static `src` generates, in order.
    fn docs(src: &str) -> Vec<String> {
        let file: syn::File = syn::parse2(super::super::expand(src.parse().unwrap())).unwrap();
        let mut out = Vec::new();
        for item in file.items {
            let attrs = match &item {
                syn::Item::Static(s) => &s.attrs,
                syn::Item::Fn(f) => &f.attrs,
                _ => continue,
            };
            for a in attrs.iter().filter(|a| a.path().is_ident("doc")) {
                if let syn::Meta::NameValue(nv) = &a.meta {
                    if let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &nv.value
                    {
                        out.push(s.value());
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_signature_shows_the_argument_names() {
        let docs = docs("copy : fn<d, o>(data: d, Tensor[(3), float32]) -> o where Same;");
        let signature = "`copy : fn<d, o>(data: d, Tensor[(3), float32]) -> o where Same` \
                         (relation: [`Same`])\n\nAttributes: none.";
        // The static's, then the builder's.
        assert_eq!(
            docs,
            [
                "The definition of operator `copy`, as registered.",
                signature
            ]
        );
    }

    #[test]
    fn the_rustdoc_names_the_onnx_operators() {
        let docs = docs(
            "scale : fn<d, o>(data: d) -> o, \
             onnx \"com.example\" Scale since 2 { inputs(X) => (data: X) }, \
             onnx \"ai.onnx\" Scale since 1 { inputs(X) => (data: X) };",
        );
        assert_eq!(
            docs[1],
            "`scale : fn<d, o>(data: d) -> o`\n\nAttributes: none.\n\n\
             ONNX: `Scale` of domain `com.example`, from opset 2.\n\n\
             ONNX: `Scale` of domain `ai.onnx`, from opset 1."
        );
    }
}
