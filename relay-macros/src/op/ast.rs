//! The syntax of `relay_op!`.

use crate::data::tytext::TyT;
use proc_macro2::{Ident, Span};
use syn::parse::{Parse, ParseStream};
use syn::{braced, bracketed, parenthesized, Attribute, Lit, Token};

mod kw {
    syn::custom_keyword!(attrs);
    syn::custom_keyword!(level);
    syn::custom_keyword!(onnx);
    syn::custom_keyword!(since);
    syn::custom_keyword!(inputs);
    syn::custom_keyword!(outputs);
    syn::custom_keyword!(value);
}

/// Every declaration of one invocation.
pub struct Input {
    pub decls: Vec<OpDecl>,
}

/// `name.segments : fn<params>(args) -> ret [, where R] [, attrs {..}] [, level N]
/// [, onnx ..]*`; `a, b : fn..` gives one of these for each name.
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
    /// `onnx "domain" OpType since N { .. }`, any number of them.
    pub onnx: Vec<OnnxDecl>,
    /// Clauses given twice: the keyword's span and its name.
    pub repeated: Vec<(Span, &'static str)>,
}

/// `t1 : Type`.
pub struct ParamDecl {
    pub name: Ident,
    pub kind: Option<Ident>,
}

/// `data: d` or `d`: an argument is written as a constructor's field.
pub use crate::data::ast::Field as ArgDecl;

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
            decls.extend(OpDecl::parse_group(input)?);
            if input.is_empty() {
                break;
            }
            input.parse::<Token![;]>()?;
        }
        Ok(Input { decls })
    }
}

impl OpDecl {
    /// `name, name : fn..`: one declaration of each name (with its own attributes), each
    /// parsed from the one signature and its clauses.
    fn parse_group(input: ParseStream) -> syn::Result<Vec<OpDecl>> {
        let mut names = vec![(
            input.call(Attribute::parse_outer)?,
            OpDecl::parse_name(input)?,
        )];
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            names.push((
                input.call(Attribute::parse_outer)?,
                OpDecl::parse_name(input)?,
            ));
        }
        input.parse::<Token![:]>()?;
        let last = names.pop().expect("a declaration names an operator");
        let mut decls = Vec::new();
        // All but the last from a fork of the stream, the last from the stream itself.
        for (attrs, name) in names {
            decls.push(OpDecl::parse_signature(&input.fork(), attrs, name)?);
        }
        let alone = decls.is_empty();
        let decl = OpDecl::parse_signature(input, last.0, last.1)?;
        if let (false, Some(onnx)) = (alone, decl.onnx.first()) {
            return Err(syn::Error::new(
                onnx.kw,
                format!(
                    "an `onnx` clause maps one operator, not the {} of this declaration",
                    decls.len() + 1
                ),
            ));
        }
        decls.push(decl);
        Ok(decls)
    }

    /// A dotted name (`add`, `nn.conv2d`).
    fn parse_name(input: ParseStream) -> syn::Result<Vec<Ident>> {
        let mut name = vec![input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(e.span(), "expected an operator name (`add`, `nn.conv2d`)")
        })?];
        while input.peek(Token![.]) {
            input.parse::<Token![.]>()?;
            name.push(input.call(syn::ext::IdentExt::parse_any)?);
        }
        Ok(name)
    }

    /// `fn<params>(args) -> ret` and the clauses after it, for the operator `name`.
    fn parse_signature(
        input: ParseStream,
        attrs: Vec<Attribute>,
        name: Vec<Ident>,
    ) -> syn::Result<Self> {
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
        let args = crate::data::ast::fields(input)?;
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
            onnx: Vec::new(),
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
                once(
                    &mut decl.relation,
                    path,
                    (kw.span, "where"),
                    &mut decl.repeated,
                );
            } else if look.peek(kw::attrs) {
                let kw = input.parse::<kw::attrs>()?;
                let list = braced_list(input)?;
                if seen_attrs {
                    decl.repeated.push((kw.span, "attrs"));
                } else {
                    decl.attr_decls = list;
                    seen_attrs = true;
                }
            } else if look.peek(kw::level) {
                let kw = input.parse::<kw::level>()?;
                let n: syn::LitInt = input.parse()?;
                once(&mut decl.level, n, (kw.span, "level"), &mut decl.repeated);
            } else if look.peek(kw::onnx) {
                decl.onnx.push(input.parse()?);
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

/// `onnx "domain" OpType since N { inputs(..) => (..), attrs { .. }, outputs(..) }`: the
/// ONNX operator the declaration is, from opset `N` on.
pub struct OnnxDecl {
    /// The `onnx` keyword.
    pub kw: Span,
    pub domain: syn::LitStr,
    pub op_type: OpType,
    /// The opset version as written (a `-` in front if negated).
    pub since: (Option<Span>, Lit),
    /// The body's braces.
    pub body: Span,
    /// `inputs(X, B?, ..Rest) => (arg: X, ..)`; `None` without `inputs`.
    pub inputs: Option<OnnxInputs>,
    /// `attrs { relay: onnx [= default], relay: value(X) }`: the `attrs` keyword and the
    /// mappings.
    pub attrs: Option<(Span, Vec<OnnxAttr>)>,
    /// `outputs(Y)`, `outputs(Values, Indices)`, `outputs(..Ys)`.
    pub outputs: Option<Vec<OnnxInput>>,
    /// Parts given twice: the keyword's span and its name.
    pub repeated: Vec<(Span, &'static str)>,
}

/// The op type: `Scale` or `"Scale"`.
pub enum OpType {
    Ident(Ident),
    Str(syn::LitStr),
}

impl OpType {
    pub fn value(&self) -> String {
        match self {
            OpType::Ident(i) => i.to_string().trim_start_matches("r#").to_string(),
            OpType::Str(s) => s.value(),
        }
    }

    pub fn span(&self) -> Span {
        match self {
            OpType::Ident(i) => i.span(),
            OpType::Str(s) => s.span(),
        }
    }
}

/// The node's inputs as declared, and the operator's arguments they give.
pub struct OnnxInputs {
    pub declared: Vec<OnnxInput>,
    /// The parentheses of the arguments' mapping.
    pub args_span: Span,
    pub args: Vec<(Ident, ArgFrom)>,
}

/// An input (or output) of the node as declared: `X`, `B?` (optional), `..Rest` (the
/// inputs from there on).
pub struct OnnxInput {
    pub name: Ident,
    pub optional: bool,
    pub rest: bool,
}

/// One of the node's declared inputs: by name (`X`) or by index (`0`).
pub enum InputRef {
    Name(Ident),
    Index(syn::LitInt),
}

impl InputRef {
    pub fn span(&self) -> Span {
        match self {
            InputRef::Name(i) => i.span(),
            InputRef::Index(i) => i.span(),
        }
    }
}

/// Where an argument comes from: an input (its type), or `value(X)` (its value as a
/// shape).
pub enum ArgFrom {
    Input(InputRef),
    Value(InputRef),
}

/// `relay_attr: onnx_attr`, `relay_attr: onnx_attr = default`, `relay_attr: value(X)`.
pub struct OnnxAttr {
    pub relay: Ident,
    pub from: AttrFrom,
}

pub enum AttrFrom {
    /// The node's attribute of this name, with a default.
    Attr(Ident, Option<Value>),
    /// The constant value of the node's input.
    Value(InputRef),
}

impl Parse for OnnxDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let kw = input.parse::<kw::onnx>()?.span;
        let domain: syn::LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the ONNX domain as a string (`onnx \"com.example\" Scale since 1 { .. }`)",
            )
        })?;
        let op_type =
            if input.peek(syn::LitStr) {
                OpType::Str(input.parse()?)
            } else {
                OpType::Ident(input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
                    syn::Error::new(e.span(), "expected the ONNX op type (`Scale`)")
                })?)
            };
        input.parse::<kw::since>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `since` and the opset version from which the mapping holds (`since 1`)",
            )
        })?;
        let minus = if input.peek(Token![-]) {
            Some(input.parse::<Token![-]>()?.span)
        } else {
            None
        };
        let since: Lit = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected an opset version (`since 1`)"))?;
        let content;
        let brace = braced!(content in input);
        let mut decl = OnnxDecl {
            kw,
            domain,
            op_type,
            since: (minus, since),
            body: brace.span.join(),
            inputs: None,
            attrs: None,
            outputs: None,
            repeated: Vec::new(),
        };
        while !content.is_empty() {
            let look = content.lookahead1();
            if look.peek(kw::inputs) {
                let kw = content.parse::<kw::inputs>()?.span;
                let declared = parse_names(&content)?;
                content.parse::<Token![=>]>()?;
                let list;
                let paren = parenthesized!(list in content);
                let mut args = Vec::new();
                while !list.is_empty() {
                    let name: Ident = list.call(syn::ext::IdentExt::parse_any)?;
                    list.parse::<Token![:]>()?;
                    let from = if list.peek(kw::value) && list.peek2(syn::token::Paren) {
                        list.parse::<kw::value>()?;
                        let inner;
                        parenthesized!(inner in list);
                        ArgFrom::Value(inner.parse()?)
                    } else {
                        ArgFrom::Input(list.parse()?)
                    };
                    args.push((name, from));
                    if !list.is_empty() {
                        list.parse::<Token![,]>()?;
                    }
                }
                let inputs = OnnxInputs {
                    declared,
                    args_span: paren.span.join(),
                    args,
                };
                once(&mut decl.inputs, inputs, (kw, "inputs"), &mut decl.repeated);
            } else if look.peek(kw::attrs) {
                let kw = content.parse::<kw::attrs>()?.span;
                let attrs = braced_list(&content)?;
                once(
                    &mut decl.attrs,
                    (kw, attrs),
                    (kw, "attrs"),
                    &mut decl.repeated,
                );
            } else if look.peek(kw::outputs) {
                let kw = content.parse::<kw::outputs>()?.span;
                let names = parse_names(&content)?;
                once(
                    &mut decl.outputs,
                    names,
                    (kw, "outputs"),
                    &mut decl.repeated,
                );
            } else {
                return Err(look.error());
            }
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        Ok(decl)
    }
}

/// A clause or part that may be given once: `value` into `slot`, or, if it is already
/// there, `kw` (the keyword's span and name) into `repeated`.
fn once<T>(
    slot: &mut Option<T>,
    value: T,
    kw: (Span, &'static str),
    repeated: &mut Vec<(Span, &'static str)>,
) {
    if slot.is_some() {
        repeated.push(kw);
    } else {
        *slot = Some(value);
    }
}

/// `{ item, item, .. }`, a trailing comma allowed.
fn braced_list<T: Parse>(input: ParseStream) -> syn::Result<Vec<T>> {
    let content;
    braced!(content in input);
    let mut list = Vec::new();
    while !content.is_empty() {
        list.push(content.parse()?);
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(list)
}

/// `(X, B?, ..Rest)`.
fn parse_names(input: ParseStream) -> syn::Result<Vec<OnnxInput>> {
    let list;
    parenthesized!(list in input);
    let mut names = Vec::new();
    while !list.is_empty() {
        let rest = if list.peek(Token![..]) {
            list.parse::<Token![..]>()?;
            true
        } else {
            false
        };
        let name: Ident = list.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a name (`X`, `B?` when optional, `..Rest`)",
            )
        })?;
        let optional = if list.peek(Token![?]) {
            list.parse::<Token![?]>()?;
            true
        } else {
            false
        };
        names.push(OnnxInput {
            name,
            optional,
            rest,
        });
        if !list.is_empty() {
            list.parse::<Token![,]>()?;
        }
    }
    Ok(names)
}

impl Parse for InputRef {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::LitInt) {
            return Ok(InputRef::Index(input.parse()?));
        }
        let name = input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected one of the node's inputs: its name (`X`) or its index (`0`)",
            )
        })?;
        Ok(InputRef::Name(name))
    }
}

impl Parse for OnnxAttr {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let relay: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        input.parse::<Token![:]>()?;
        if input.peek(kw::value) && input.peek2(syn::token::Paren) {
            input.parse::<kw::value>()?;
            let inner;
            parenthesized!(inner in input);
            return Ok(OnnxAttr {
                relay,
                from: AttrFrom::Value(inner.parse()?),
            });
        }
        let name: Ident = input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the node's attribute (`alpha`, `alpha = 1.0`) or an input's value (`value(X)`)",
            )
        })?;
        let default = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(OnnxAttr {
            relay,
            from: AttrFrom::Attr(name, default),
        })
    }
}
