//! A clause's attributes in the canonical text `relay_op!` compares with the operator's
//! (`relay_core::agreement::AttrSig`): the type as `relay_op!` writes it (a clause's
//! `shape` is `[int]`), the default as a value (`-1`, `0.5`, `"NCHW"`, `float32`, `[1, 1]`,
//! `None`).

use super::ast::{AttrDecl, ListItem, Term};

/// The canonical type and default of `d`; no default for one the clause computes.
pub fn attr_sig(d: &AttrDecl) -> (String, Option<String>) {
    let base = if d.ty.base == "shape" {
        "[int]"
    } else {
        d.ty.base.as_str()
    };
    let ty = if d.ty.optional {
        format!("Option<{base}>")
    } else {
        base.to_string()
    };
    let default = d.default.as_ref().and_then(|t| value(t, base));
    (ty, default)
}

/// A float as both macros write it.
pub fn float(x: f64) -> String {
    format!("{x:?}")
}

/// The canonical text of the default `t` of an attribute of type `base`.
fn value(t: &Term, base: &str) -> Option<String> {
    Some(match t {
        Term::Int(v, _) if base == "float" => float(*v as f64),
        Term::Int(v, _) => v.to_string(),
        Term::Float(x, _) => float(*x),
        Term::Neg(_, inner) => match &**inner {
            Term::Int(v, _) if base == "float" => float(-(*v as f64)),
            Term::Int(v, _) => v.checked_neg()?.to_string(),
            Term::Float(x, _) => float(-x),
            _ => return None,
        },
        Term::Bool(b, _) => b.to_string(),
        Term::Str(s) if base == "dtype" => s.value(),
        Term::Str(s) => format!("{:?}", s.value()),
        Term::Name(n) => n.to_string(),
        Term::List(_, items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    ListItem::Dim(t) if base == "[float]" => out.push(value(t, "float")?),
                    ListItem::Dim(t) => out.push(value(t, "int")?),
                    ListItem::Splice(..) => return None,
                }
            }
            format!("[{}]", out.join(", "))
        }
        _ => return None,
    })
}
