//! The syntax of `relay_op!`.

use crate::data::tytext::TyT;
use proc_macro2::{Ident, Span};
use syn::parse::{Parse, ParseStream};
use syn::{braced, bracketed, parenthesized, Attribute, Lit, Token};

mod kw {
    syn::custom_keyword!(attrs);
    syn::custom_keyword!(level);
}

/// Every declaration of one invocation.
pub struct Input {
    pub decls: Vec<OpDecl>,
}

/// `name.segments : fn<params>(args) -> ret [, where R] [, attrs {..}] [, level N]`.
pub struct OpDecl {
    pub attrs: Vec<Attribute>,
    /// The dotted name's segments.
    pub name: Vec<Ident>,
    pub params: Vec<ParamDecl>,
    pub args: Vec<ArgDecl>,
    pub ret: TyT,
    pub relation: Option<syn::Path>,
    pub attr_decls: Vec<AttrDecl>,
    pub level: Option<syn::LitInt>,
    /// Clauses given twice: the keyword's span and its name.
    pub repeated: Vec<(Span, &'static str)>,
}

/// `t1 : Type`.
pub struct ParamDecl {
    pub name: Ident,
    pub kind: Option<Ident>,
}

/// `data: d` or `d`.
pub struct ArgDecl {
    pub name: Option<Ident>,
    pub ty: TyT,
}

/// `strides: [int] = [1, 1]`.
pub struct AttrDecl {
    pub name: Ident,
    pub ty: AttrTy,
    pub default: Option<Value>,
}

/// An attribute type as written.
pub enum AttrTy {
    Named(Ident),
    List(Box<AttrTy>),
    Option(Box<AttrTy>),
    /// `T | U`.
    Either(Box<AttrTy>, Box<AttrTy>),
}

/// A default value as written.
pub enum Value {
    /// A literal, with a `-` in front if it was negated.
    Lit(Option<Span>, Lit),
    /// A bare identifier (`None`, `float32`).
    Ident(Ident),
    /// `Some(v)`.
    Some(Ident, Box<Value>),
    /// `[a, b]`.
    List(Span, Vec<Value>),
}

impl Value {
    /// The value as written, for messages.
    pub fn text(&self) -> String {
        match self {
            Value::Lit(neg, l) => {
                let t = quote::ToTokens::to_token_stream(l).to_string();
                if neg.is_some() {
                    format!("-{t}")
                } else {
                    t
                }
            }
            Value::Ident(i) => i.to_string(),
            Value::Some(_, v) => format!("Some({})", v.text()),
            Value::List(_, items) => {
                let items: Vec<String> = items.iter().map(Value::text).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    /// The span to report an error on.
    pub fn span(&self) -> Span {
        match self {
            Value::Lit(Some(neg), l) => neg.join(l.span()).unwrap_or(l.span()),
            Value::Lit(None, l) => l.span(),
            Value::Ident(i) => i.span(),
            Value::Some(i, _) => i.span(),
            Value::List(s, _) => *s,
        }
    }
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut decls = Vec::new();
        while !input.is_empty() {
            decls.push(input.parse()?);
            if input.is_empty() {
                break;
            }
            input.parse::<Token![;]>()?;
        }
        Ok(Input { decls })
    }
}

impl Parse for OpDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let mut name = vec![input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(e.span(), "expected an operator name (`add`, `nn.conv2d`)")
        })?];
        while input.peek(Token![.]) {
            input.parse::<Token![.]>()?;
            name.push(input.call(syn::ext::IdentExt::parse_any)?);
        }
        input.parse::<Token![:]>()?;
        input.parse::<Token![fn]>()?;
        let mut params = Vec::new();
        if input.peek(Token![<]) {
            input.parse::<Token![<]>()?;
            while !input.peek(Token![>]) {
                let name: Ident = input.parse()?;
                let kind = if input.peek(Token![:]) {
                    input.parse::<Token![:]>()?;
                    Some(input.parse()?)
                } else {
                    None
                };
                params.push(ParamDecl { name, kind });
                if !input.peek(Token![>]) {
                    input.parse::<Token![,]>()?;
                }
            }
            input.parse::<Token![>]>()?;
        }
        let content;
        parenthesized!(content in input);
        let mut args = Vec::new();
        while !content.is_empty() {
            let name = if content.peek(syn::Ident)
                && content.peek2(Token![:])
                && !content.peek2(Token![::])
            {
                let n: Ident = content.parse()?;
                content.parse::<Token![:]>()?;
                Some(n)
            } else {
                None
            };
            args.push(ArgDecl {
                name,
                ty: content.parse()?,
            });
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        input.parse::<Token![->]>()?;
        let ret: TyT = input.parse()?;
        let mut decl = OpDecl {
            attrs,
            name,
            params,
            args,
            ret,
            relation: None,
            attr_decls: Vec::new(),
            level: None,
            repeated: Vec::new(),
        };
        let mut seen_attrs = false;
        if input.peek(Token![where]) {
            input.parse::<Token![where]>()?;
            decl.relation = Some(input.parse()?);
        }
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            let look = input.lookahead1();
            if look.peek(Token![where]) {
                let kw = input.parse::<Token![where]>()?;
                let path = input.parse()?;
                if decl.relation.is_some() {
                    decl.repeated.push((kw.span, "where"));
                } else {
                    decl.relation = Some(path);
                }
            } else if look.peek(kw::attrs) {
                let kw = input.parse::<kw::attrs>()?;
                let content;
                braced!(content in input);
                let mut list = Vec::new();
                while !content.is_empty() {
                    list.push(content.parse()?);
                    if !content.is_empty() {
                        content.parse::<Token![,]>()?;
                    }
                }
                if seen_attrs {
                    decl.repeated.push((kw.span, "attrs"));
                } else {
                    decl.attr_decls = list;
                    seen_attrs = true;
                }
            } else if look.peek(kw::level) {
                let kw = input.parse::<kw::level>()?;
                let n: syn::LitInt = input.parse()?;
                if decl.level.is_some() {
                    decl.repeated.push((kw.span, "level"));
                } else {
                    decl.level = Some(n);
                }
            } else {
                return Err(look.error());
            }
        }
        Ok(decl)
    }
}

impl Parse for AttrDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        input.parse::<Token![:]>()?;
        let ty = input.parse()?;
        let default = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(AttrDecl { name, ty, default })
    }
}

impl Parse for AttrTy {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let first = AttrTy::parse_one(input)?;
        if input.peek(Token![|]) {
            input.parse::<Token![|]>()?;
            let second = AttrTy::parse_one(input)?;
            return Ok(AttrTy::Either(Box::new(first), Box::new(second)));
        }
        Ok(first)
    }
}

impl AttrTy {
    /// The type as written (`Option<[int]>`), for docs.
    pub fn text(&self) -> String {
        match self {
            AttrTy::Named(n) => n.to_string(),
            AttrTy::List(t) => format!("[{}]", t.text()),
            AttrTy::Option(t) => format!("Option<{}>", t.text()),
            AttrTy::Either(a, b) => format!("{} | {}", a.text(), b.text()),
        }
    }

    /// The span of its first name (`int` in `[int]`).
    pub fn span(&self) -> Span {
        match self {
            AttrTy::Named(n) => n.span(),
            AttrTy::List(t) | AttrTy::Option(t) | AttrTy::Either(t, _) => t.span(),
        }
    }

    /// One alternative of an attribute type (`int`, `[T]`, `Option<T>`).
    fn parse_one(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::token::Bracket) {
            let content;
            bracketed!(content in input);
            let inner = content.parse()?;
            if !content.is_empty() {
                return Err(content.error("expected `]`"));
            }
            return Ok(AttrTy::List(Box::new(inner)));
        }
        let name: Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected an attribute type (`int`, `float`, `bool`, `str`, `dtype`, `[T]` or `Option<T>`)",
            )
        })?;
        if name == "Option" && input.peek(Token![<]) {
            input.parse::<Token![<]>()?;
            let inner = input.parse()?;
            input.parse::<Token![>]>()?;
            return Ok(AttrTy::Option(Box::new(inner)));
        }
        Ok(AttrTy::Named(name))
    }
}

impl Parse for Value {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![-]) {
            let minus = input.parse::<Token![-]>()?;
            return Ok(Value::Lit(Some(minus.span), input.parse()?));
        }
        if input.peek(syn::token::Bracket) {
            let content;
            let b = bracketed!(content in input);
            let mut items = Vec::new();
            while !content.is_empty() {
                items.push(content.parse()?);
                if !content.is_empty() {
                    content.parse::<Token![,]>()?;
                }
            }
            return Ok(Value::List(b.span.join(), items));
        }
        if input.peek(Lit) {
            return Ok(Value::Lit(None, input.parse()?));
        }
        let ident: Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected an attribute value (a literal, a list, `None` or a dtype)",
            )
        })?;
        if ident == "Some" && input.peek(syn::token::Paren) {
            let content;
            parenthesized!(content in input);
            let v = content.parse()?;
            return Ok(Value::Some(ident, Box::new(v)));
        }
        Ok(Value::Ident(ident))
    }
}
