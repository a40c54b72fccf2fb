//! The `onnx` clause of `relay_op!`: which ONNX operator a declaration is, checked
//! against the declaration (every mistake on its token) and expanded into a mapping of
//! relay-onnx's table (`relay_onnx::ops::OnnxOp`, registered as `onnx_ops!` registers
//! its own).
//!
//! ```text
//! onnx "com.example" Scale since 1 {
//!     inputs(X, B?, ..Rest) => (data: X, bias: B, shape: value(S), more: Rest),
//!     attrs { factor: alpha = 1.0, axis: axis, axes: value(A) },
//!     outputs(Y),
//! }
//! ```

use super::ast::{self, ArgFrom, InputRef, OnnxDecl, OnnxInput, OpDecl};
use super::check::{const_of, ATy, AttrModel, OpModel};
use crate::data::ctxt::Ctxt;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// A checked mapping, as expansion needs it.
pub struct OnnxModel {
    /// The `onnx` keyword (the generated code's span: a crate without relay-onnx is told
    /// there).
    pub kw: Span,
    pub domain: String,
    pub op_type: String,
    pub since: u32,
    /// `relay_onnx::ops::Arg` expressions, in the order of the operator's arguments.
    pub args: Vec<TokenStream>,
    /// `relay_onnx::ops::AttrMap` expressions.
    pub attrs: Vec<TokenStream>,
    /// The result is a tuple of the outputs (more than one output, or `..Ys`).
    pub each: bool,
    /// Free of errors: expanded (a wrong mapping registers nothing, so that one mistake
    /// is one error).
    pub ok: bool,
}

/// The words of a list: `` `a`, `b` and `c` ``.
fn list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

fn plain(i: &proc_macro2::Ident) -> String {
    i.to_string().trim_start_matches("r#").to_string()
}

/// The index of input `r` among `declared`: an error on its token if it names none.
fn resolve_input(
    cx: &mut Ctxt,
    op_type: &str,
    declared: &[OnnxInput],
    r: &InputRef,
) -> Option<usize> {
    let names: Vec<String> = declared.iter().map(|i| plain(&i.name)).collect();
    let declares = if names.is_empty() {
        "declares no inputs".to_string()
    } else {
        let n = names.len();
        format!(
            "declares {n} input{} ({})",
            if n == 1 { "" } else { "s" },
            list(&names)
        )
    };
    match r {
        InputRef::Name(n) => {
            let found = names.iter().position(|x| *x == plain(n));
            if found.is_none() {
                cx.error(
                    n.span(),
                    format!(
                        "`{}` is not an input of `{op_type}`, which {declares}",
                        plain(n)
                    ),
                );
            }
            found
        }
        InputRef::Index(i) => match i.base10_parse::<usize>() {
            Ok(k) if k < names.len() => Some(k),
            _ => {
                cx.error(
                    i.span(),
                    format!("input {i} is out of range: `{op_type}` {declares}"),
                );
                None
            }
        },
    }
}

/// Checks one `onnx` clause of operator `d`, whose attributes are `attrs`.
pub fn check(cx: &mut Ctxt, d: &OpDecl, attrs: &[AttrModel], o: &OnnxDecl) -> OnnxModel {
    let errors = cx.count();
    let full: Vec<String> = d.name.iter().map(|s| s.to_string()).collect();
    let full = full.join(".");
    let ops = quote_spanned!(o.kw=> ::relay_onnx::ops);
    for (span, what) in &o.repeated {
        cx.error(*span, format!("`{what}` is given twice"));
    }
    // The operator: domain, op type, opset.
    let domain = o.domain.value();
    if domain.is_empty() {
        cx.error(
            o.domain.span(),
            "the ONNX domain is empty: ONNX's default domain is written \"ai.onnx\"",
        );
    }
    let op_type = o.op_type.value();
    if op_type.is_empty() {
        cx.error(o.op_type.span(), "the ONNX op type is empty");
    }
    let (minus, lit) = &o.since;
    let since = match (minus, lit) {
        (None, syn::Lit::Int(i)) if i.suffix().is_empty() => {
            i.base10_parse::<u32>().ok().filter(|&n| n >= 1)
        }
        _ => None,
    };
    let since = since.unwrap_or_else(|| {
        let text = quote::ToTokens::to_token_stream(lit).to_string();
        let (text, span) = match minus {
            Some(m) => (format!("-{text}"), m.join(lit.span()).unwrap_or(lit.span())),
            None => (text, lit.span()),
        };
        cx.error(
            span,
            format!("expected an opset version (an integer from 1 on), found `{text}`"),
        );
        1
    });

    // The node's inputs as declared.
    let empty = Vec::new();
    let declared = o.inputs.as_ref().map_or(&empty, |i| &i.declared);
    check_names(cx, declared, "input");
    let mut used = vec![false; declared.len()];

    // Arguments, by name.
    let arg_names: Vec<Option<String>> =
        d.args.iter().map(|a| a.name.as_ref().map(plain)).collect();
    let mut args: Vec<Option<TokenStream>> = vec![None; d.args.len()];
    let mut mapped = vec![false; d.args.len()];
    // A name that is no argument (or no attribute) is reported alone: the one it meant to
    // be is not reported unmapped too.
    let mut unknown_arg = false;
    if let Some(inputs) = &o.inputs {
        for (name, from) in &inputs.args {
            let n = plain(name);
            let Some(j) = arg_names.iter().position(|a| a.as_deref() == Some(&*n)) else {
                let named: Vec<String> = arg_names.iter().flatten().cloned().collect();
                let has = if named.is_empty() {
                    "it has no named arguments".to_string()
                } else {
                    format!(
                        "its argument{} {}",
                        if named.len() == 1 { " is" } else { "s are" },
                        list(&named)
                    )
                };
                cx.error(
                    name.span(),
                    format!("`{full}` has no argument `{n}`: {has}"),
                );
                unknown_arg = true;
                continue;
            };
            if mapped[j] {
                cx.error(name.span(), format!("argument `{n}` is mapped twice"));
                continue;
            }
            mapped[j] = true;
            let (r, value) = match from {
                ArgFrom::Input(r) => (r, false),
                ArgFrom::Value(r) => (r, true),
            };
            let Some(k) = resolve_input(cx, &op_type, declared, r) else {
                continue;
            };
            used[k] = true;
            let input = &declared[k];
            args[j] = Some(match value {
                true if input.rest => {
                    cx.error(r.span(), rest_has_no_value(input));
                    continue;
                }
                true => quote_spanned!(o.kw=> #ops::Arg::Value(#k)),
                false if input.rest => quote_spanned!(o.kw=> #ops::Arg::Rest(#k)),
                false if input.optional => quote_spanned!(o.kw=> #ops::Arg::Opt(#k)),
                false => quote_spanned!(o.kw=> #ops::Arg::In(#k)),
            });
        }
    }
    // Every argument is mapped.
    let at = match &o.inputs {
        Some(i) => i.args_span,
        None => o.body,
    };
    for (j, a) in d.args.iter().enumerate() {
        if mapped[j] || unknown_arg {
            continue;
        }
        let message = match &a.name {
            Some(n) => format!(
                "argument `{}` of `{full}` is not mapped: give it one of the node's inputs (`{}: X`)",
                plain(n),
                plain(n)
            ),
            None => format!(
                "argument {} of `{full}` (`{}`) has no name to map it by: name it in the signature (`data: {}`)",
                j + 1,
                a.ty.text(),
                a.ty.text()
            ),
        };
        cx.error(at, message);
    }

    // Attributes, by name.
    let mut attr_maps = Vec::new();
    let mut attr_mapped = vec![false; d.attr_decls.len()];
    let mut unknown_attr = false;
    let onnx_attrs = o.attrs.as_ref().map_or(&[][..], |(_, a)| &a[..]);
    for a in onnx_attrs {
        let n = plain(&a.relay);
        let Some(j) = d.attr_decls.iter().position(|x| plain(&x.name) == n) else {
            let declared: Vec<String> = d.attr_decls.iter().map(|x| plain(&x.name)).collect();
            let has = if declared.is_empty() {
                "it declares no attributes".to_string()
            } else {
                format!("it declares {}", list(&declared))
            };
            cx.error(
                a.relay.span(),
                format!("`{full}` has no attribute `{n}`: {has}"),
            );
            unknown_attr = true;
            continue;
        };
        if attr_mapped[j] {
            cx.error(a.relay.span(), format!("attribute `{n}` is mapped twice"));
            continue;
        }
        attr_mapped[j] = true;
        let ty = &attrs[j].ty;
        let from = match &a.from {
            ast::AttrFrom::Attr(onnx_name, None) => {
                let s = plain(onnx_name);
                quote_spanned!(o.kw=> #ops::AttrFrom::Attr(#s))
            }
            ast::AttrFrom::Attr(onnx_name, Some(v)) => {
                let s = plain(onnx_name);
                let Some(c) = const_of(cx, ty, v) else {
                    continue;
                };
                quote_spanned!(o.kw=> #ops::AttrFrom::AttrOr(#s, #c))
            }
            ast::AttrFrom::Value(r) => {
                let Some(k) = resolve_input(cx, &op_type, declared, r) else {
                    continue;
                };
                used[k] = true;
                if declared[k].rest {
                    cx.error(r.span(), rest_has_no_value(&declared[k]));
                    continue;
                }
                if !takes_ints(ty) {
                    cx.error(
                        a.relay.span(),
                        format!(
                            "attribute `{n}` is `{}`: an input's value gives an `int` or `[int]` attribute",
                            ty.text()
                        ),
                    );
                    continue;
                }
                quote_spanned!(o.kw=> #ops::AttrFrom::Input(#k))
            }
        };
        let name = n.clone();
        attr_maps.push(quote_spanned!(o.kw=> #ops::AttrMap { relay: #name, from: #from }));
    }
    // A required attribute is mapped.
    for (j, (a, am)) in d.attr_decls.iter().zip(attrs).enumerate() {
        if am.default.is_none() && !attr_mapped[j] && !unknown_attr {
            let at = match &o.attrs {
                Some((kw, _)) => *kw,
                None => o.body,
            };
            cx.error(
                at,
                format!(
                    "required attribute `{}` of `{full}` is not mapped: give it the node's attribute (`{}: name`) or an input's value (`{}: value(X)`)",
                    plain(&a.name),
                    plain(&a.name),
                    plain(&a.name)
                ),
            );
        }
    }
    // Every declared input gives something (the checker reads no other); not told after
    // another mistake, which may be why one is not.
    let clean = cx.count() == errors;
    for (k, input) in declared.iter().enumerate() {
        if !used[k] && clean {
            cx.error(
                input.name.span(),
                format!(
                    "input `{}` is not mapped: give it to an argument or, by `value({})`, to an attribute",
                    plain(&input.name),
                    plain(&input.name)
                ),
            );
        }
    }

    // Outputs.
    let mut each = false;
    if let Some(outs) = &o.outputs {
        if outs.is_empty() {
            cx.error(
                o.body,
                "`outputs()` declares no output: a node has at least one",
            );
        }
        check_names(cx, outs, "output");
        each = outs.len() > 1 || outs.iter().any(|o| o.rest);
    }

    OnnxModel {
        kw: o.kw,
        domain,
        op_type,
        since,
        args: args.into_iter().flatten().collect(),
        attrs: attr_maps,
        each,
        ok: cx.count() == errors,
    }
}

/// Each name of `names` (the node's inputs or outputs, `what`) once, and `..Rest` last
/// and not optional.
fn check_names(cx: &mut Ctxt, names: &[OnnxInput], what: &str) {
    for (k, n) in names.iter().enumerate() {
        let name = plain(&n.name);
        if names[..k].iter().any(|j| plain(&j.name) == name) {
            cx.error(n.name.span(), format!("{what} `{name}` is declared twice"));
        }
        if n.rest && k + 1 != names.len() {
            cx.error(
                n.name.span(),
                format!("`..{name}` is the {what}s from there on: it must be the last {what}"),
            );
        }
        if n.rest && n.optional {
            cx.error(
                n.name.span(),
                format!("`..{name}` cannot be optional: the {what}s from there on may be none"),
            );
        }
    }
}

fn rest_has_no_value(input: &OnnxInput) -> String {
    let name = plain(&input.name);
    format!("`{name}` is the inputs from there on (`..{name}`): it has no single value")
}

/// Whether an attribute of type `t` takes an input's constant value (an integer or a
/// list of them).
fn takes_ints(t: &ATy) -> bool {
    match t {
        ATy::Int => true,
        ATy::List(t) => **t == ATy::Int,
        ATy::Option(t) => takes_ints(t),
        ATy::Either(a, b) => takes_ints(a) && takes_ints(b),
        _ => false,
    }
}

/// The same ONNX operator and opset mapped twice in one invocation: an error on the
/// second's op type (across invocations and crates, relay-onnx's table reports it).
pub fn check_block(cx: &mut Ctxt, models: &[OpModel<'_>]) {
    let mut seen: Vec<(&str, &str, u32)> = Vec::new();
    for m in models {
        for (o, om) in m.decl.onnx.iter().zip(&m.onnx) {
            let key = (om.domain.as_str(), om.op_type.as_str(), om.since);
            if seen.contains(&key) {
                cx.error(
                    o.op_type.span(),
                    format!(
                        "ONNX operator `{}` of domain \"{}\" since opset {} is mapped twice",
                        om.op_type, om.domain, om.since
                    ),
                );
            } else {
                seen.push(key);
            }
        }
    }
}

/// The mapping's registration in relay-onnx's table.
pub fn expand(o: &OnnxModel, full: &str, doc: &str) -> TokenStream {
    if !o.ok {
        return TokenStream::new();
    }
    let span = o.kw;
    let ops = quote_spanned!(span=> ::relay_onnx::ops);
    let private = quote_spanned!(span=> ::relay_onnx::__private);
    let OnnxModel {
        domain,
        op_type,
        since,
        args,
        attrs,
        each,
        ..
    } = o;
    let outputs = if *each {
        quote!(#ops::Outputs::Each)
    } else {
        quote!(#ops::Outputs::One)
    };
    quote_spanned! {span=>
        const _: () = {
            static ONNX: #ops::OnnxOp = #ops::OnnxOp {
                domain: #domain,
                op_type: #op_type,
                since: #since,
                relay: #full,
                args: &[#(#args),*],
                attrs: &[#(#attrs),*],
                outputs: #outputs,
                doc: #doc,
                file: ::core::file!(),
                line: ::core::line!(),
                ..#private::DECLARED
            };
            #private::inventory::submit! { #ops::OnnxOpEntry(&ONNX) }
        };
    }
}
