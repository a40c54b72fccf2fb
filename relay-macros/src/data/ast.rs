//! The syntax of `relay_data!`.

use super::tytext::TyT;
use proc_macro2::Ident;
use syn::parse::{Parse, ParseStream};
use syn::{braced, parenthesized, Attribute, Token};

syn::custom_keyword!(data);

/// Every declaration of one invocation.
pub struct Input {
    pub decls: Vec<DataDecl>,
}

/// `data Name<params> { ctors }`.
pub struct DataDecl {
    pub attrs: Vec<Attribute>,
    pub data: data,
    pub name: Ident,
    pub params: Vec<Ident>,
    pub ctors: Vec<CtorDecl>,
}

/// `Name : (fields) -> Ret`, `Name(fields)` or `Name`.
pub struct CtorDecl {
    pub name: Ident,
    pub fields: Vec<Field>,
    /// The declared result: the name and its type arguments, if written.
    pub ret: Option<(Ident, Option<Vec<TyT>>)>,
}

/// A field: a type, optionally named (`head: a`).
pub struct Field {
    pub name: Option<Ident>,
    pub ty: TyT,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut decls = Vec::new();
        while !input.is_empty() {
            decls.push(input.parse()?);
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            }
        }
        Ok(Input { decls })
    }
}

impl Parse for DataDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let data = input
            .parse::<data>()
            .map_err(|e| syn::Error::new(e.span(), "expected `data`, to declare a data type"))?;
        let name: Ident = input.parse()?;
        let mut params = Vec::new();
        if input.peek(Token![<]) {
            input.parse::<Token![<]>()?;
            while !input.peek(Token![>]) {
                params.push(input.parse()?);
                if !input.peek(Token![>]) {
                    input.parse::<Token![,]>()?;
                }
            }
            input.parse::<Token![>]>()?;
        }
        let content;
        braced!(content in input);
        let mut ctors = Vec::new();
        while !content.is_empty() {
            ctors.push(content.parse()?);
            if content.peek(Token![,]) {
                content.parse::<Token![,]>()?;
            }
        }
        Ok(DataDecl {
            attrs,
            data,
            name,
            params,
            ctors,
        })
    }
}

impl Field {
    /// The Rust names of `fields` (a builder's parameters): each one's name, or
    /// `{unnamed}{i}` for the `i`th without one.
    pub fn rust_names(fields: &[Field], unnamed: &str) -> Vec<Ident> {
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| match &f.name {
                Some(n) => super::names::rust_ident(&n.to_string(), n.span()),
                None => quote::format_ident!("{unnamed}{i}"),
            })
            .collect()
    }
}

/// `(a, head: b, ..)`: a constructor's fields, or an operator's arguments.
pub fn fields(input: ParseStream) -> syn::Result<Vec<Field>> {
    let content;
    parenthesized!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        let name =
            if content.peek(syn::Ident) && content.peek2(Token![:]) && !content.peek2(Token![::]) {
                let n: Ident = content.parse()?;
                content.parse::<Token![:]>()?;
                Some(n)
            } else {
                None
            };
        out.push(Field {
            name,
            ty: content.parse()?,
        });
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(out)
}

impl Parse for CtorDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a constructor (`Name : (fields) -> Data`)",
            )
        })?;
        if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            let fields = fields(input)?;
            input.parse::<Token![->]>()?;
            let ret_name: Ident = input.parse()?;
            let args = if input.peek(syn::token::Bracket) {
                let content;
                syn::bracketed!(content in input);
                Some(super::tytext::comma_list(&content)?.0)
            } else {
                None
            };
            return Ok(CtorDecl {
                name,
                fields,
                ret: Some((ret_name, args)),
            });
        }
        let fields = if input.peek(syn::token::Paren) {
            fields(input)?
        } else {
            Vec::new()
        };
        Ok(CtorDecl {
            name,
            fields,
            ret: None,
        })
    }
}
