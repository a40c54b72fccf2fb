//! Shared by the operator tests: type one call of a registered operator.

#![allow(dead_code)]

use relay_core::text::{parse_type, TypeScope};
use relay_core::{registry, AttrValue, Attrs, Outcome, Solver, Ty, TyCtx};
use std::sync::Arc;

// Link the operator library so that its declarations are registered.
use relay_ops as _;

/// Types a call of operator `op` with arguments of the given types (in the text syntax;
/// `_` for an unknown) and attributes, and returns the result type, printed, or the first
/// error's message. Symbols with the same name are the same symbol across arguments.
pub fn infer(op: &str, args: &[&str], attrs: &[(&str, AttrValue)]) -> Result<String, String> {
    let (out, _) = infer_all(op, args, attrs)?;
    Ok(out)
}

/// Like [`infer`], and also gives every argument type as solved (for backward inference:
/// a weight shape inferred from `units`, say).
pub fn infer_all(
    op: &str,
    args: &[&str],
    attrs: &[(&str, AttrValue)],
) -> Result<(String, Vec<String>), String> {
    let def = registry::global()
        .map_err(|e| e.to_string())?
        .op(op)
        .ok_or_else(|| format!("no operator `{op}`"))?;
    let given = Attrs::new(
        attrs
            .iter()
            .map(|(n, v)| ((*n).into(), v.clone()))
            .collect(),
    );
    let attrs = def.attrs_for_call(&given).map_err(|e| e.to_string())?;
    let mut tcx = TyCtx::new();
    let f = def.ty(&mut tcx);
    let mut s = Solver::new(tcx);
    let mut scope = TypeScope::new();
    let (params, ret, constraints) = s.instantiate(f).map_err(|e| e.to_string())?;
    if params.len() != args.len() {
        return Err(format!(
            "`{op}` takes {} arguments, the test gave {}",
            params.len(),
            args.len()
        ));
    }
    for (&p, src) in params.iter().zip(args) {
        let t: Ty = if *src == "_" {
            s.fresh_ty()
        } else {
            parse_type(&mut s.tcx, &mut scope, src).map_err(|e| e.to_string())?
        };
        s.unify(p, t).map_err(|e| e.describe(&s.tcx))?;
    }
    s.add_constraints(&constraints, Some(Arc::new(attrs)), 0);
    match s.solve() {
        Outcome::Solved => {}
        Outcome::Failed(errors) => return Err(errors[0].message.clone()),
        Outcome::UnderConstrained(waiting) => {
            return Err(format!(
                "waiting: {}",
                waiting
                    .iter()
                    .map(|w| w.relation)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
    let ret = s.resolve(ret);
    let shown_args = params
        .iter()
        .map(|&p| {
            let r = s.resolve(p);
            s.tcx.show(r)
        })
        .collect();
    Ok((s.tcx.show(ret), shown_args))
}

/// An integer attribute.
pub fn int(v: i64) -> AttrValue {
    AttrValue::Int(v)
}

/// A list-of-integers attribute.
pub fn ints(v: &[i64]) -> AttrValue {
    AttrValue::List(v.iter().map(|&x| AttrValue::Int(x)).collect())
}

/// A string attribute.
pub fn string(v: &str) -> AttrValue {
    AttrValue::Str(v.into())
}

/// A boolean attribute.
pub fn boolean(v: bool) -> AttrValue {
    AttrValue::Bool(v)
}
