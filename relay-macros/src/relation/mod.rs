//! `#[relation]`: parse ([`ast`]) → check ([`check`], every error collected) → expand
//! ([`expand`], cannot fail). When a declaration has mistakes, the user's item is still
//! emitted next to the errors, so that one mistake gives one error.

mod ast;
mod builtins;
mod check;
mod dtype;
mod expand;
mod fast;
mod needs;
mod show;
pub(crate) mod sig;

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let decl = syn::parse2::<ast::Decl>(attr);
    let parsed = syn::parse2::<syn::Item>(item.clone());
    let (decl, parsed) = match (decl, parsed) {
        (Ok(d), Ok(i)) => (d, i),
        (Err(e), _) | (_, Err(e)) => return with_errors(item, vec![e]),
    };
    let mut errors = Vec::new();
    match (&decl, &parsed) {
        (ast::Decl::Clause(clause), syn::Item::Struct(s)) => {
            if !matches!(s.fields, syn::Fields::Unit) {
                let span = match s.fields.iter().next() {
                    Some(f) => f.ident.as_ref().map_or_else(|| f.ty.span(), |i| i.span()),
                    None => s.fields.span(),
                };
                errors.push(syn::Error::new(
                    span,
                    "expected a unit struct (`struct Name;`), found a struct with fields",
                ));
            }
            if !s.generics.params.is_empty() {
                errors.push(syn::Error::new(
                    s.generics.span(),
                    "expected a unit struct without generic parameters",
                ));
            }
            if clause.name != s.ident {
                errors.push(syn::Error::new(
                    clause.name.span(),
                    format!(
                        "expected the head to be named after the struct, `{}`, found `{}`",
                        s.ident, clause.name
                    ),
                ));
            }
            // The struct is sound (errors only in the clause): it still implements
            // `Relation`, so that operators naming it get no second error.
            let sound = errors.is_empty();
            let out = match check::check(clause) {
                Ok(checked) if errors.is_empty() => return expand::clause(s, clause, &checked),
                Ok(_) => with_errors(item, errors),
                Err(more) => {
                    errors.extend(more);
                    with_errors(item, errors)
                }
            };
            if sound {
                let mut out = out;
                out.extend(expand::placeholder(&s.ident));
                out
            } else {
                out
            }
        }
        (ast::Decl::Bare(name), syn::Item::Fn(f)) => {
            signature(&f.sig, &mut errors);
            if errors.is_empty() {
                expand::imperative(name, f)
            } else {
                // The relation's struct, for the operators that name it.
                let vis = &f.vis;
                let mut out = with_errors(item, errors);
                out.extend(quote::quote!(#[allow(dead_code)] #vis struct #name;));
                out.extend(expand::placeholder(name));
                out
            }
        }
        (ast::Decl::Clause(clause), syn::Item::Fn(_)) => with_errors(
            item,
            vec![syn::Error::new(
                clause.head_span,
                format!(
                    "expected only the relation's name on a function, `#[relation({})]`, found a clause (a clause goes on a unit struct)",
                    clause.name
                ),
            )],
        ),
        (ast::Decl::Bare(name), syn::Item::Struct(_)) => with_errors(
            item,
            vec![syn::Error::new(
                name.span(),
                format!(
                    "expected a clause `{name}(args) :- body` on a struct, found only a name (the bare form goes on a function)"
                ),
            )],
        ),
        (_, other) => {
            let (span, what) = match other {
                syn::Item::Enum(e) => (e.enum_token.span, "an enum"),
                syn::Item::Union(u) => (u.union_token.span, "a union"),
                syn::Item::Trait(t) => (t.trait_token.span, "a trait"),
                syn::Item::Impl(i) => (i.impl_token.span, "an impl block"),
                other => (other.span(), "another item"),
            };
            with_errors(
                item,
                vec![syn::Error::new(
                    span,
                    format!("expected a unit struct or a function, found {what}"),
                )],
            )
        }
    }
}

/// The imperative form's signature: `fn name(cx: &mut RelCx<'_>) -> RelResult`.
fn signature(sig: &syn::Signature, errors: &mut Vec<syn::Error>) {
    const EXPECTED: &str = "`fn(cx: &mut RelCx<'_>) -> RelResult`";
    if let Some(a) = &sig.asyncness {
        errors.push(syn::Error::new(
            a.span,
            format!("expected a plain function {EXPECTED}, found an `async fn`"),
        ));
    }
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new(
            sig.generics.span(),
            format!("expected a function without generic parameters, {EXPECTED}"),
        ));
    }
    let input_ok = sig.inputs.len() == 1
        && match &sig.inputs[0] {
            syn::FnArg::Typed(pat) => match &*pat.ty {
                syn::Type::Reference(r) => {
                    r.mutability.is_some()
                        && matches!(&*r.elem, syn::Type::Path(p)
                            if p.path.segments.last().is_some_and(|s| s.ident == "RelCx"))
                }
                _ => false,
            },
            syn::FnArg::Receiver(_) => false,
        };
    if !input_ok {
        let span = if sig.inputs.is_empty() {
            sig.paren_token.span.join()
        } else {
            sig.inputs.span()
        };
        let found = if sig.inputs.is_empty() {
            "no parameter".to_string()
        } else {
            let types: Vec<String> = sig
                .inputs
                .iter()
                .map(|a| match a {
                    syn::FnArg::Typed(p) => {
                        let ty = &p.ty;
                        quote!(#ty).to_string()
                    }
                    syn::FnArg::Receiver(_) => "self".to_string(),
                })
                .collect();
            format!("`{}`", types.join(", "))
        };
        errors.push(syn::Error::new(
            span,
            format!("expected one parameter `cx: &mut RelCx<'_>` ({EXPECTED}), found {found}"),
        ));
    }
    match &sig.output {
        syn::ReturnType::Default => errors.push(syn::Error::new(
            sig.paren_token.span.close(),
            format!("expected the return type `-> RelResult` ({EXPECTED}), found none"),
        )),
        syn::ReturnType::Type(_, ty) => {
            let ok = matches!(&**ty, syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "RelResult" || s.ident == "Result"));
            if !ok {
                errors.push(syn::Error::new(
                    ty.span(),
                    format!(
                        "expected the return type `RelResult` ({EXPECTED}), found `{}`",
                        quote!(#ty)
                    ),
                ));
            }
        }
    }
}

fn with_errors(item: TokenStream, errors: Vec<syn::Error>) -> TokenStream {
    let errors = errors.into_iter().map(|e| e.to_compile_error());
    quote!(#item #(#errors)*)
}
