//! `relay_attrs!`: named attribute sets (TVM's `Conv2DAttrs`), declared once and used by
//! `relay_op!`'s `attrs Name` and a clause's `attrs(Name)`.
//!
//! A proc macro cannot read another item, so a set is a `macro_rules!` macro that splices
//! its attributes back into the declaration that names it: `relay_op!` (or `#[relation]`)
//! finding `attrs Name` expands to `Name! { @relay_op [before] [after] }`, which expands
//! to the same `relay_op!` with `attrs { .. }` written out, one set per round. Both
//! macros then see the attributes as if written there (their docs, builders and the
//! compile-time agreement between an operator and its clause are unchanged), and an
//! error in the set points at the set's own tokens. A set that takes another's
//! attributes (`..Other`) is written out by the other's macro the same way, one `..Other`
//! a round when it takes several.

use super::ast::AttrDecl;
use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{braced, Attribute, Token};

/// `#[doc] Name { name: type = default, .., ..Other, .. }`, any number of them, each with
/// any number of `..Other`s.
struct Sets(Vec<Set>);

struct Set {
    attrs: Vec<Attribute>,
    name: Ident,
    /// The attributes' tokens, as written (checked to parse as attributes), without a
    /// trailing comma.
    body: TokenStream,
    decls: Vec<AttrDecl>,
    /// The first `..Other`: another set's attributes spliced in there, with the tokens
    /// before and after it (each list ends, or starts, with its comma; the tokens after
    /// it may hold more `..Other`s).
    spread: Option<(syn::Path, TokenStream, TokenStream)>,
}

impl Parse for Sets {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut sets = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            let name: Ident = input.parse()?;
            let content;
            braced!(content in input);
            let mut body: Vec<TokenTree> =
                content.fork().parse::<TokenStream>()?.into_iter().collect();
            if matches!(body.last(), Some(TokenTree::Punct(p)) if p.as_char() == ',') {
                body.pop();
            }
            // Every `..Other` is parsed; the first is spliced in (its set's macro calls
            // `relay_attrs!` again, where the next one is the first).
            let (mut decls, mut spread) = (Vec::new(), None);
            while !content.is_empty() {
                if content.peek(Token![..]) {
                    content.parse::<Token![..]>()?;
                    let path: syn::Path = content.parse()?;
                    spread.get_or_insert(path);
                } else {
                    decls.push(content.parse()?);
                }
                if !content.is_empty() {
                    content.parse::<Token![,]>()?;
                }
            }
            let spread = spread.map(|path| {
                // Split the written tokens at the first `..Path`.
                let at = (0..body.len())
                    .find(|&i| matches!((&body[i], body.get(i + 1)), (TokenTree::Punct(a), Some(TokenTree::Punct(b))) if a.as_char() == '.' && b.as_char() == '.'))
                    .expect("`..` was parsed");
                let end = (at + 2..body.len())
                    .find(|&i| matches!(&body[i], TokenTree::Punct(p) if p.as_char() == ','))
                    .unwrap_or(body.len());
                let (head, tail) = (&body[..at], &body[end..]);
                (
                    path,
                    head.iter().cloned().collect(),
                    tail.iter().cloned().collect(),
                )
            });
            sets.push(Set {
                attrs,
                name,
                body: body.into_iter().collect(),
                decls,
                spread,
            });
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            }
        }
        Ok(Sets(sets))
    }
}

/// The `macro_rules!` macro of each set, exported (`#[macro_export]`), documented with
/// its attributes.
pub fn expand(input: TokenStream) -> TokenStream {
    let sets = match syn::parse2::<Sets>(input) {
        Ok(s) => s,
        Err(e) => return e.to_compile_error(),
    };
    sets.0.iter().map(expand_set).collect()
}

fn expand_set(set: &Set) -> TokenStream {
    let Set {
        attrs,
        name,
        body,
        decls,
        spread,
    } = set;
    if let Some((path, head, tail)) = spread {
        // The other set's macro writes this one out with its attributes, and
        // `relay_attrs!` runs again.
        return quote!(#path ! { @relay_attrs { #(#attrs)* } #name [#head] [#tail] });
    }
    let mut doc = String::from("\n\nAttributes:\n");
    for d in decls {
        let line = match &d.default {
            Some(v) => format!("- `{}: {} = {}`\n", d.name, d.ty.text(), v.text()),
            None => format!("- `{}: {}` (required)\n", d.name, d.ty.text()),
        };
        doc.push_str(&line);
    }
    let usage = format!(
        "\n\nUsed as `attrs {name}` in [`relay_op!`](::relay_core::relay_op) and as \
         `attrs({name})` in a clause of [`#[relation]`](::relay_core::relation)."
    );
    quote! {
        #(#attrs)*
        #[doc = #doc]
        #[doc = #usage]
        #[macro_export]
        macro_rules! #name {
            (@relay_op [$($before:tt)*] [$($after:tt)*]) => {
                ::relay_core::relay_op! { $($before)* attrs { #body } $($after)* }
            };
            (@relation [$($before:tt)*] [$($after:tt)*] $($item:tt)*) => {
                #[::relay_core::relation($($before)* attrs(#body) $($after)*)]
                $($item)*
            };
            (@relay_attrs { $($doc:tt)* } $name:ident [$($before:tt)*] [$($after:tt)*]) => {
                ::relay_core::relay_attrs! { $($doc)* $name { $($before)* #body $($after)* } }
            };
        }
    }
}

/// The first `, attrs Name` (a path, not `{ .. }`) among the top-level tokens of a
/// `relay_op!` input: the call of the set's macro that splices it in, or `None`.
pub fn splice_into_op(input: &TokenStream) -> Option<TokenStream> {
    let toks: Vec<TokenTree> = input.clone().into_iter().collect();
    (1..toks.len()).find_map(|i| {
        let after_comma = matches!(&toks[i - 1], TokenTree::Punct(p) if p.as_char() == ',');
        if !after_comma || !is_ident(&toks[i], "attrs") {
            return None;
        }
        let end = path_end(&toks, i + 1)?;
        let path = &toks[i + 1..end];
        let (before, after) = (&toks[..i], &toks[end..]);
        Some(quote!(#(#path)* ! { @relay_op [#(#before)*] [#(#after)*] }))
    })
}

/// The first `attrs(Name)` (a path alone in the parentheses) among the top-level tokens
/// of a `#[relation(..)]` clause: the call of the set's macro that splices it in and puts
/// the relation back on `item`, or `None`.
pub fn splice_into_relation(attr: &TokenStream, item: &TokenStream) -> Option<TokenStream> {
    let toks: Vec<TokenTree> = attr.clone().into_iter().collect();
    (0..toks.len()).find_map(|i| {
        if !is_ident(&toks[i], "attrs") {
            return None;
        }
        let TokenTree::Group(g) = toks.get(i + 1)? else {
            return None;
        };
        if g.delimiter() != Delimiter::Parenthesis {
            return None;
        }
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        if path_end(&inner, 0)? != inner.len() {
            return None;
        }
        let (before, after) = (&toks[..i], &toks[i + 2..]);
        let call = Group::new(
            Delimiter::Brace,
            quote!(@relation [#(#before)*] [#(#after)*] #item),
        );
        Some(quote!(#(#inner)* ! #call))
    })
}

fn is_ident(t: &TokenTree, name: &str) -> bool {
    matches!(t, TokenTree::Ident(i) if i == name)
}

/// The end of a path (`Name`, `crate::sets::Name`) starting at `start`: `None` if there
/// is none there, or if it is followed by something other than a clause's end (`,`, `;`
/// or the end of the input).
fn path_end(toks: &[TokenTree], start: usize) -> Option<usize> {
    let mut j = start;
    let mut want_ident = true;
    while let Some(t) = toks.get(j) {
        match t {
            TokenTree::Ident(_) if want_ident => {
                want_ident = false;
                j += 1;
            }
            TokenTree::Punct(p)
                if !want_ident
                    && p.as_char() == ':'
                    && matches!(toks.get(j + 1), Some(TokenTree::Punct(q)) if q.as_char() == ':') =>
            {
                want_ident = true;
                j += 2;
            }
            _ => break,
        }
    }
    let ends_clause = match toks.get(j) {
        None => true,
        Some(TokenTree::Punct(p)) => matches!(p.as_char(), ',' | ';'),
        Some(_) => false,
    };
    (j > start && !want_ident && ends_clause).then_some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_op_naming_a_set_calls_the_sets_macro_with_the_tokens_around_it() {
        let input =
            quote!(a : fn<t, u>(t) -> u where R, attrs Conv2DAttrs, level 2; b : fn<t>(t) -> t);
        let out = splice_into_op(&input).unwrap().to_string();
        assert_eq!(
            out,
            quote!(Conv2DAttrs ! { @relay_op [a : fn<t, u>(t) -> u where R,] [, level 2; b : fn<t>(t) -> t] })
                .to_string()
        );
        // A list is not a set; an operator named `attrs` is not one either.
        assert!(splice_into_op(&quote!(a : fn<t>(t) -> t, attrs { x: int })).is_none());
        assert!(splice_into_op(&quote!(attrs : fn<t>(t) -> t)).is_none());
    }

    #[test]
    fn a_set_taking_several_others_splices_the_first_and_keeps_the_rest() {
        let out = expand(quote!(S { ..A, x: int = 1, ..B })).to_string();
        assert_eq!(
            out,
            quote!(A! { @relay_attrs { } S [] [, x: int = 1, ..B] }).to_string()
        );
        // The next round, with `A`'s attributes written out, splices `B`.
        let out = expand(quote!(S {
            a: int = 0,
            x: int = 1,
            ..B
        }))
        .to_string();
        assert_eq!(
            out,
            quote!(B! { @relay_attrs { } S [a: int = 0, x: int = 1,] [] }).to_string()
        );
    }

    #[test]
    fn a_clause_naming_a_set_calls_the_sets_macro_with_the_item() {
        let attr = quote!(R(T, O) :- O = T, attrs(sets::ReduceAttrs));
        let item = quote!(
            pub struct R;
        );
        let out = splice_into_relation(&attr, &item).unwrap().to_string();
        assert_eq!(
            out,
            quote!(sets::ReduceAttrs! { @relation [R(T, O) :- O = T,] [] pub struct R; })
                .to_string()
        );
        assert!(splice_into_relation(&quote!(R(T) :- true, attrs(axis: int)), &item).is_none());
    }
}
