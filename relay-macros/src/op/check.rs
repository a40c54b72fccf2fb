//! Checks of `relay_op!` declarations: every error, each on the narrowest token. The
//! result is a model that expansion reads, with a fallback wherever something was wrong,
//! so that expansion never fails.

use super::ast::{AttrTy, Input, OpDecl, Value};
use super::onnx::{self, OnnxModel};
use crate::data::ctxt::Ctxt;
use crate::data::names::is_dtype;
use crate::data::tytext::{Kind, TyEnv};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

/// An attribute type, resolved.
#[derive(Clone, PartialEq)]
pub enum ATy {
    Int,
    Float,
    Bool,
    Str,
    DType,
    List(Box<ATy>),
    Option(Box<ATy>),
    Either(Box<ATy>, Box<ATy>),
}

impl ATy {
    pub fn text(&self) -> String {
        match self {
            ATy::Int => "int".into(),
            ATy::Float => "float".into(),
            ATy::Bool => "bool".into(),
            ATy::Str => "str".into(),
            ATy::DType => "dtype".into(),
            ATy::List(t) => format!("[{}]", t.text()),
            ATy::Option(t) => format!("Option<{}>", t.text()),
            ATy::Either(a, b) => format!("{} | {}", a.text(), b.text()),
        }
    }
}

/// What expansion needs of one attribute.
pub struct AttrModel {
    pub ty: ATy,
    /// The default as an `AttrConst` expression; `None` for a required attribute.
    pub default: Option<TokenStream>,
}

/// What expansion needs of one operator beyond its syntax.
pub struct OpModel<'a> {
    pub decl: &'a OpDecl,
    pub kinds: Vec<Kind>,
    pub attrs: Vec<AttrModel>,
    pub level: u8,
    /// Whether this is the first declaration of its name (later ones are not expanded).
    pub first: bool,
    /// Its ONNX mappings, each with whether it is free of errors.
    pub onnx: Vec<OnnxModel>,
}

pub fn check<'a>(cx: &mut Ctxt, input: &'a Input) -> Vec<OpModel<'a>> {
    let mut names = HashMap::new();
    let models: Vec<OpModel<'a>> = input
        .decls
        .iter()
        .map(|d| {
            let full: Vec<String> = d.name.iter().map(|s| s.to_string()).collect();
            let full = full.join(".");
            let first = names.insert(full.clone(), ()).is_none();
            if !first {
                cx.error(
                    d.name[0].span(),
                    format!("operator `{full}` is declared twice"),
                );
            }
            check_decl(cx, d, first)
        })
        .collect();
    onnx::check_block(cx, &models);
    models
}

fn check_decl<'a>(cx: &mut Ctxt, d: &'a OpDecl, first: bool) -> OpModel<'a> {
    for (span, what) in &d.repeated {
        cx.error(*span, format!("`{what}` is given twice"));
    }
    let mut params: Vec<(proc_macro2::Ident, Kind)> = Vec::new();
    let mut kinds = Vec::new();
    for p in &d.params {
        let kind = match &p.kind {
            None => Kind::Type,
            Some(k) => Kind::from_name(&k.to_string()).unwrap_or_else(|| {
                cx.error(
                    k.span(),
                    format!(
                        "unknown kind `{k}`: expected `Type`, `BaseType`, `Shape` or `ShapeVar`"
                    ),
                );
                Kind::Type
            }),
        };
        if params.iter().any(|(q, _)| *q == p.name) {
            cx.error(
                p.name.span(),
                format!("type parameter `{}` is declared twice", p.name),
            );
        }
        params.push((p.name.clone(), kind));
        kinds.push(kind);
    }
    let local = HashMap::new();
    let env = TyEnv {
        params: &params,
        local_adts: &local,
        external_adts: false,
        what: "type parameter",
    };
    crate::data::check::check_fields(cx, &env, &d.args, "argument");
    let arg_names: Vec<&proc_macro2::Ident> =
        d.args.iter().filter_map(|a| a.name.as_ref()).collect();
    env.check(cx, &d.ret);
    let mut attr_names: Vec<&proc_macro2::Ident> = Vec::new();
    let attrs: Vec<AttrModel> = d
        .attr_decls
        .iter()
        .map(|a| {
            if attr_names.contains(&&a.name) {
                cx.error(a.name.span(), format!("attribute `{}` is declared twice", a.name));
            } else if a.name == "build" {
                cx.error(
                    a.name.span(),
                    "an attribute cannot be named `build`: the builder's `build` method has that name",
                );
            } else if a.default.is_none() && arg_names.contains(&&a.name) {
                cx.error(
                    a.name.span(),
                    format!("required attribute `{}` has the name of an argument", a.name),
                );
            }
            attr_names.push(&a.name);
            let ty = resolve(cx, &a.ty);
            // A default is not checked against a type that is not known (one error, not
            // a second one about the default).
            let default = a.default.as_ref().map(|v| {
                ty.as_ref()
                    .and_then(|ty| const_of(cx, ty, v))
                    .unwrap_or_else(|| quote!(::relay_core::__private::AttrConst::None))
            });
            AttrModel { ty: ty.unwrap_or(ATy::Int), default }
        })
        .collect();
    let level = match &d.level {
        None => 10,
        Some(l) => match l.base10_parse::<u8>() {
            Ok(n @ 1..=11) => n,
            _ => {
                cx.error(
                    l.span(),
                    format!("expected a support level from 1 to 11, found `{l}`"),
                );
                10
            }
        },
    };
    let onnx = d
        .onnx
        .iter()
        .map(|o| onnx::check(cx, d, &attrs, o))
        .collect();
    OpModel {
        decl: d,
        kinds,
        attrs,
        level,
        first,
        onnx,
    }
}

/// The type `t` names; `None` (after an error on its token) for a name that is no type.
fn resolve(cx: &mut Ctxt, t: &AttrTy) -> Option<ATy> {
    Some(match t {
        AttrTy::List(t) => ATy::List(Box::new(resolve(cx, t)?)),
        AttrTy::Option(t) => ATy::Option(Box::new(resolve(cx, t)?)),
        AttrTy::Either(a, b) => {
            let (x, y) = (resolve(cx, a), resolve(cx, b));
            let (x, y) = (x?, y?);
            // A builder takes a value or a list of them (`OneOrList`).
            let value_or_list =
                x == ATy::List(Box::new(y.clone())) || y == ATy::List(Box::new(x.clone()));
            let either = ATy::Either(Box::new(x), Box::new(y));
            if !value_or_list {
                cx.error(
                    b.span(),
                    format!(
                        "expected `T | [T]` (a value or a list of them, as `int | [int]`), found `{}`",
                        either.text()
                    ),
                );
                return None;
            }
            either
        }
        AttrTy::Named(n) => match n.to_string().as_str() {
            "int" => ATy::Int,
            "float" => ATy::Float,
            "bool" => ATy::Bool,
            "str" => ATy::Str,
            "dtype" => ATy::DType,
            _ => {
                cx.error(
                    n.span(),
                    format!(
                        "unknown attribute type `{n}`: expected `int`, `float`, `bool`, `str`, `dtype`, `[T]` or `Option<T>`"
                    ),
                );
                return None;
            }
        },
    })
}

pub fn mismatch(cx: &mut Ctxt, ty: &ATy, v: &Value, hint: &str) -> Option<TokenStream> {
    cx.error(
        v.span(),
        format!(
            "expected a value of type `{}`, found `{}`{hint}",
            ty.text(),
            v.text()
        ),
    );
    None
}

/// The `AttrConst` expression of default `v` of type `ty`; an error on the narrowest
/// token if it is not of that type.
pub fn const_of(cx: &mut Ctxt, ty: &ATy, v: &Value) -> Option<TokenStream> {
    use syn::Lit;
    let c = quote!(::relay_core::__private::AttrConst);
    match (ty, v) {
        (ATy::Option(_), Value::Ident(i)) if i == "None" => Some(quote!(#c::None)),
        (ATy::Option(t), Value::Some(_, inner)) => const_of(cx, t, inner),
        (ATy::Option(t), _) => const_of(cx, t, v),
        // The alternatives of `T | [T]` differ in list-ness: a list default is of the list one.
        (ATy::Either(a, b), _) => {
            if matches!(v, Value::List(..)) == matches!(**a, ATy::List(_)) {
                const_of(cx, a, v)
            } else {
                const_of(cx, b, v)
            }
        }
        (_, Value::Ident(i)) if i == "None" => {
            mismatch(cx, ty, v, " (only an `Option<T>` attribute can default to `None`)")
        }
        (ATy::List(t), Value::List(_, items)) => {
            let items: Vec<_> = items.iter().map(|i| const_of(cx, t, i)).collect();
            let items: Option<Vec<_>> = items.into_iter().collect();
            let items = items?;
            Some(quote!(#c::List(&[#(#items),*])))
        }
        (ATy::Int, Value::Lit(neg, Lit::Int(i))) => {
            let text = if neg.is_some() {
                format!("-{}", i.base10_digits())
            } else {
                i.base10_digits().to_string()
            };
            match text.parse::<i64>() {
                Ok(n) => Some(quote!(#c::Int(#n))),
                Err(_) => mismatch(cx, ty, v, " (out of the range of `i64`)"),
            }
        }
        (ATy::Float, Value::Lit(neg, Lit::Float(f))) => {
            let x: f64 = f.base10_parse().ok()?;
            let x = if neg.is_some() { -x } else { x };
            Some(quote!(#c::Float(#x)))
        }
        (ATy::Float, Value::Lit(None, Lit::Int(i))) => {
            let hint = format!(" (write `{}.0`)", i.base10_digits());
            mismatch(cx, ty, v, &hint)
        }
        (ATy::Bool, Value::Lit(None, Lit::Bool(b))) => {
            let b = b.value;
            Some(quote!(#c::Bool(#b)))
        }
        (ATy::Str, Value::Lit(None, Lit::Str(s))) => {
            let s = s.value();
            Some(quote!(#c::Str(#s)))
        }
        (ATy::DType, Value::Lit(None, Lit::Str(s))) if is_dtype(&s.value()) => {
            let s = s.value();
            Some(quote!(#c::DType(#s)))
        }
        (ATy::DType, Value::Ident(i)) if is_dtype(&i.to_string()) => {
            let s = i.to_string();
            Some(quote!(#c::DType(#s)))
        }
        (ATy::DType, Value::Lit(None, Lit::Str(_)) | Value::Ident(_)) => mismatch(
            cx,
            ty,
            v,
            " (a dtype is `bool`, `int8`-`int64`, `uint8`-`uint64`, `float16`-`float64` or `bfloat16`, optionally with lanes as in `float32x4`)",
        ),
        _ => mismatch(cx, ty, v, ""),
    }
}
