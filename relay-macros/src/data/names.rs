//! Names: doc comments, case conversions, Rust keywords, data type names.

use proc_macro2::{Ident, Span};
use syn::Attribute;

/// The text of the `///` comments among `attrs`, one line each, without the leading space.
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &a.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let v = s.value();
                lines.push(v.strip_prefix(' ').unwrap_or(&v).to_string());
            }
        }
    }
    lines.join("\n")
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// `name` as a Rust identifier: raw when it is a keyword, with a trailing `_` when it
/// cannot be raw (`self`, `super`, `crate`, `Self`).
pub fn rust_ident(name: &str, span: Span) -> Ident {
    if matches!(name, "self" | "super" | "crate" | "Self" | "_") {
        Ident::new(&format!("{name}_"), span)
    } else if KEYWORDS.contains(&name) {
        Ident::new_raw(name, span)
    } else {
        Ident::new(name, span)
    }
}

/// `conv2d` → `Conv2d`, `batch_norm` → `BatchNorm`.
pub fn camel(name: &str) -> String {
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

/// `MkPair` → `mk_pair`, `Cons` → `cons`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(ch.to_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Whether `s` names a data type (`float32`, `int8x4`, `bool`).
pub fn is_dtype(s: &str) -> bool {
    let (base, lanes) = match s.split_once('x') {
        Some((b, l)) => (b, Some(l)),
        None => (s, None),
    };
    if let Some(l) = lanes {
        if !matches!(l.parse::<u16>(), Ok(n) if n >= 1) || !l.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    matches!(
        base,
        "bool"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "float16"
            | "float32"
            | "float64"
            | "bfloat16"
    )
}

/// The names of Rust's prelude (2021) and its primitive types: a `relay_data!` struct of
/// one of these names would shadow it in the module (`data Result<a, e>` and every
/// `Result<T, E>` after it).
const RUST_NAMES: &[&str] = &[
    "Copy",
    "Send",
    "Sized",
    "Sync",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Box",
    "ToOwned",
    "Clone",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "Default",
    "Iterator",
    "Extend",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "ToString",
    "Vec",
    "TryFrom",
    "TryInto",
    "FromIterator",
    "bool",
    "char",
    "str",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
];

/// The name of the struct `relay_data!` generates for data type `name`: the name itself,
/// or `{name}Data` for a name of Rust's prelude (`Result` → `ResultData`), which the
/// struct would shadow.
pub fn data_struct(name: &Ident) -> Ident {
    let text = name.to_string();
    if RUST_NAMES.contains(&text.as_str()) {
        Ident::new(&format!("{text}Data"), name.span())
    } else {
        name.clone()
    }
}
