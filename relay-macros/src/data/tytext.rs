//! Type templates: the types of operator signatures and constructor fields, written as
//! Rust tokens in the text syntax (`a`, `List[a]`, `Tensor[(n, 3), float32]`, `(a, b)`,
//! `fn (a) -> b`), parsed, checked against the declared parameters, and printed back as
//! text for the runtime's type parser.

use super::ctxt::Ctxt;
use super::names::is_dtype;
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use std::collections::HashMap;
use std::fmt::Write;
use syn::parse::{Parse, ParseStream};
use syn::{bracketed, parenthesized, Token};

/// A kind, as the macro knows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Type,
    BaseType,
    Shape,
    ShapeVar,
}

impl Kind {
    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s {
            "Type" => Kind::Type,
            "BaseType" => Kind::BaseType,
            "Shape" => Kind::Shape,
            "ShapeVar" => Kind::ShapeVar,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Type => "Type",
            Kind::BaseType => "BaseType",
            Kind::Shape => "Shape",
            Kind::ShapeVar => "ShapeVar",
        }
    }
}

/// A tensor's shape: a parameter of kind `Shape`, or dimensions in parentheses.
pub enum ShapeT {
    Param(Ident),
    Dims(TokenStream),
}

/// A type template.
pub enum TyT {
    /// `a`, `float32`, `List[a]`.
    Name { name: Ident, args: Option<Vec<TyT>> },
    /// `Tensor[shape, dtype]`.
    Tensor { shape: ShapeT, dtype: Ident },
    /// `(a, b)`, `(a,)`, `()`.
    Tuple(Vec<TyT>),
    /// `fn (a, b) -> c`.
    Func { args: Vec<TyT>, ret: Box<TyT> },
}

impl Parse for TyT {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![fn]) {
            input.parse::<Token![fn]>()?;
            let content;
            parenthesized!(content in input);
            let args = comma_list(&content)?.0;
            input.parse::<Token![->]>()?;
            let ret = Box::new(input.parse()?);
            return Ok(TyT::Func { args, ret });
        }
        if input.peek(syn::token::Paren) {
            let content;
            parenthesized!(content in input);
            let (mut items, trailing) = comma_list(&content)?;
            if items.len() == 1 && !trailing {
                return Ok(items.pop().expect("one item"));
            }
            return Ok(TyT::Tuple(items));
        }
        let name: Ident = input.call(syn::ext::IdentExt::parse_any).map_err(|_| {
            syn::Error::new(
                input.span(),
                "expected a type (a parameter, `Tensor[..]`, a tuple, `fn (..) -> ..` or a data type)",
            )
        })?;
        if !input.peek(syn::token::Bracket) {
            return Ok(TyT::Name { name, args: None });
        }
        let content;
        bracketed!(content in input);
        if name == "Tensor" {
            let shape = if content.peek(syn::token::Paren) {
                let g: proc_macro2::Group = content.parse()?;
                ShapeT::Dims(g.to_token_stream_text())
            } else {
                ShapeT::Param(content.parse()?)
            };
            content.parse::<Token![,]>()?;
            let dtype: Ident = content.parse()?;
            if content.peek(Token![,]) {
                content.parse::<Token![,]>()?;
            }
            if !content.is_empty() {
                return Err(content.error("expected `]` after the tensor's dtype"));
            }
            return Ok(TyT::Tensor { shape, dtype });
        }
        let args = comma_list(&content)?.0;
        Ok(TyT::Name {
            name,
            args: Some(args),
        })
    }
}

trait GroupText {
    fn to_token_stream_text(&self) -> TokenStream;
}

impl GroupText for proc_macro2::Group {
    fn to_token_stream_text(&self) -> TokenStream {
        std::iter::once(TokenTree::Group(self.clone())).collect()
    }
}

/// Comma-separated types; also says whether there was a trailing comma.
pub fn comma_list(input: ParseStream) -> syn::Result<(Vec<TyT>, bool)> {
    let mut items = Vec::new();
    let mut trailing = false;
    while !input.is_empty() {
        items.push(input.parse()?);
        trailing = false;
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
        trailing = true;
    }
    Ok((items, trailing))
}

/// What names mean while checking a template.
pub struct TyEnv<'a> {
    /// The declared parameters and their kinds.
    pub params: &'a [(Ident, Kind)],
    /// Data types declared in the same invocation, with their parameter counts.
    pub local_adts: &'a HashMap<String, usize>,
    /// Whether a name the macro does not know may be a data type of another crate
    /// (resolved at load time): true in data types, false in operator signatures.
    pub external_adts: bool,
    /// How to call a parameter in messages (`type variable` or `type parameter`).
    pub what: &'static str,
}

impl TyEnv<'_> {
    fn param(&self, name: &Ident) -> Option<Kind> {
        self.params.iter().find(|(p, _)| p == name).map(|(_, k)| *k)
    }

    fn kind_error(cx: &mut Ctxt, span: Span, name: &str, found: Kind, expected: Kind) {
        cx.error(
            span,
            format!(
                "`{name}` has kind `{}` but is used where a `{}` is expected",
                found.name(),
                expected.name()
            ),
        );
    }

    fn arity_error(cx: &mut Ctxt, span: Span, name: &str, expected: usize, found: usize) {
        let plural = if expected == 1 { "" } else { "s" };
        let were = if found == 1 { "was" } else { "were" };
        cx.error(
            span,
            format!("`{name}` takes {expected} type argument{plural} but {found} {were} given"),
        );
    }

    fn unknown(&self, cx: &mut Ctxt, name: &Ident) {
        let declared: Vec<String> = self.params.iter().map(|(p, _)| format!("`{p}`")).collect();
        let expected = if declared.is_empty() {
            format!("no {} is declared", self.what)
        } else if declared.len() == 1 {
            format!("expected {}", declared[0])
        } else {
            format!("expected one of {}", declared.join(", "))
        };
        cx.error(
            name.span(),
            format!("unknown {} `{name}`: {expected}", self.what),
        );
    }

    /// Checks `t`, reporting every error.
    pub fn check(&self, cx: &mut Ctxt, t: &TyT) {
        match t {
            TyT::Name { name, args } => self.check_name(cx, name, args.as_deref()),
            TyT::Tensor { shape, dtype } => {
                match shape {
                    ShapeT::Param(p) => match self.param(p) {
                        Some(Kind::Shape) => {}
                        Some(k) => Self::kind_error(cx, p.span(), &p.to_string(), k, Kind::Shape),
                        None => cx.error(
                            p.span(),
                            format!(
                                "expected a shape (a parameter of kind `Shape` or dimensions in parentheses), found `{p}`"
                            ),
                        ),
                    },
                    ShapeT::Dims(tokens) => self.check_dims(cx, tokens.clone()),
                }
                match self.param(dtype) {
                    Some(Kind::BaseType) => {}
                    Some(k) => {
                        Self::kind_error(cx, dtype.span(), &dtype.to_string(), k, Kind::BaseType)
                    }
                    None if is_dtype(&dtype.to_string()) => {}
                    None => cx.error(
                        dtype.span(),
                        format!(
                            "expected a dtype (`float32`, `int64`, ...) or a parameter of kind `BaseType`, found `{dtype}`"
                        ),
                    ),
                }
            }
            TyT::Tuple(items) => items.iter().for_each(|i| self.check(cx, i)),
            TyT::Func { args, ret } => {
                args.iter().for_each(|i| self.check(cx, i));
                self.check(cx, ret);
            }
        }
    }

    fn check_dims(&self, cx: &mut Ctxt, tokens: TokenStream) {
        // Iterative: a work list of token streams.
        let mut work = vec![tokens];
        while let Some(ts) = work.pop() {
            for tt in ts {
                match tt {
                    TokenTree::Group(g) => work.push(g.stream()),
                    TokenTree::Ident(i) => match self.param(&i) {
                        Some(Kind::ShapeVar) | None => {}
                        Some(k) => {
                            Self::kind_error(cx, i.span(), &i.to_string(), k, Kind::ShapeVar)
                        }
                    },
                    _ => {}
                }
            }
        }
    }

    fn check_name(&self, cx: &mut Ctxt, name: &Ident, args: Option<&[TyT]>) {
        let text = name.to_string();
        let found = args.map_or(0, <[TyT]>::len);
        if let Some(k) = self.param(name) {
            if k != Kind::Type {
                Self::kind_error(cx, name.span(), &text, k, Kind::Type);
            } else if args.is_some() {
                cx.error(
                    name.span(),
                    format!("`{text}` is a {} and takes no type arguments", self.what),
                );
            }
        } else if let Some(&expected) = self.local_adts.get(&text) {
            if expected != found {
                Self::arity_error(cx, name.span(), &text, expected, found);
            }
        } else if is_dtype(&text) {
            if args.is_some() {
                cx.error(
                    name.span(),
                    format!("`{text}` is a dtype and takes no type arguments"),
                );
            }
        } else if self.external_adts && text.starts_with(|c: char| c.is_uppercase()) {
            // A data type of another crate, resolved when the data types are loaded.
        } else if !self.external_adts && text.starts_with(|c: char| c.is_uppercase()) {
            cx.error(
                name.span(),
                format!(
                    "unknown type `{text}`: an operator's type may name its type parameters, `Tensor[..]`, tuples, functions and dtypes"
                ),
            );
        } else {
            self.unknown(cx, name);
        }
        for a in args.into_iter().flatten() {
            self.check(cx, a);
        }
    }
}

impl TyT {
    /// The template as text of the type syntax.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            TyT::Name { name, args } => {
                let _ = write!(out, "{name}");
                if let Some(args) = args {
                    out.push('[');
                    write_list(out, args);
                    out.push(']');
                }
            }
            TyT::Tensor { shape, dtype } => {
                out.push_str("Tensor[");
                match shape {
                    ShapeT::Param(p) => {
                        let _ = write!(out, "{p}");
                    }
                    ShapeT::Dims(ts) => {
                        let _ = write!(out, "{ts}");
                    }
                }
                let _ = write!(out, ", {dtype}]");
            }
            TyT::Tuple(items) => {
                out.push('(');
                write_list(out, items);
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            TyT::Func { args, ret } => {
                out.push_str("fn (");
                write_list(out, args);
                out.push_str(") -> ");
                ret.write(out);
            }
        }
    }
}

fn write_list(out: &mut String, items: &[TyT]) {
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        t.write(out);
    }
}
