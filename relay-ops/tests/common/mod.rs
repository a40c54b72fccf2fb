//! Shared by the operator tests: type one call of a registered operator, or a program
//! with the type of each of its bindings.

#![allow(dead_code)]

pub mod oracles;
pub mod printed;

use relay_core::expr::{ExprId, ExprKind, Module, VarId};
use relay_core::text::{parse_type, TypeScope};
use relay_core::{registry, AttrValue, Attrs, Outcome, RelationRef, Solver, Ty, TyCtx};
use relay_ops::prelude::Prelude;
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

/// The attributes of a call of `def` given as `(name, value)` pairs, with its defaults
/// filled, or the message of why they do not fit.
pub fn filled_attrs(def: &relay_core::OpDef, attrs: &[(&str, AttrValue)]) -> Result<Attrs, String> {
    let given = Attrs::new(
        attrs
            .iter()
            .map(|(n, v)| ((*n).into(), v.clone()))
            .collect(),
    );
    def.attrs_for_call(&given).map_err(|e| e.to_string())
}

/// The registered operator `op` and the attributes of a call of it ([`filled_attrs`]).
fn op_and_attrs(
    op: &str,
    attrs: &[(&str, AttrValue)],
) -> Result<(&'static relay_core::OpDef, Attrs), String> {
    let def = registry::global()
        .map_err(|errors| format!("{errors:?}"))?
        .op(op)
        .ok_or_else(|| format!("no operator `{op}`"))?;
    Ok((def, filled_attrs(def, attrs)?))
}

/// Like [`infer`], and also gives every argument type as solved (for backward inference:
/// a weight shape inferred from `units`, say).
pub fn infer_all(
    op: &str,
    args: &[&str],
    attrs: &[(&str, AttrValue)],
) -> Result<(String, Vec<String>), String> {
    let compiled = infer_once(op, args, attrs);
    // Every case also checks that a clause's compiled fast path agrees with the
    // interpreter.
    relay_core::__private::fast::set_enabled(false);
    let interpreted = infer_once(op, args, attrs);
    relay_core::__private::fast::set_enabled(true);
    assert_eq!(
        compiled, interpreted,
        "`{op}` on {args:?}: the compiled clause and the interpreter differ"
    );
    compiled
}

fn infer_once(
    op: &str,
    args: &[&str],
    attrs: &[(&str, AttrValue)],
) -> Result<(String, Vec<String>), String> {
    let (def, attrs) = op_and_attrs(op, attrs)?;
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
    s.add_op_constraints(def.name, &constraints, Some(Arc::new(attrs)), 0);
    solved(&mut s, ret, &params)
}

/// The outcome of solving `s`: the result `ret` and the arguments `args` printed as
/// solved, or the first error, or the relations still waiting.
fn solved(s: &mut Solver, ret: Ty, args: &[Ty]) -> Result<(String, Vec<String>), String> {
    match s.solve() {
        Outcome::Solved => {}
        Outcome::Failed(errors) => return Err(errors[0].message.clone()),
        Outcome::UnderConstrained(waiting) => {
            let names: Vec<&str> = waiting.iter().map(|w| w.relation).collect();
            return Err(format!("waiting: {}", names.join(", ")));
        }
    }
    let shown = args
        .iter()
        .map(|&p| {
            let r = s.resolve(p);
            s.tcx.show(r)
        })
        .collect();
    let ret = s.resolve(ret);
    Ok((s.tcx.show(ret), shown))
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

/// One call: operator, argument types (`_` unknown), attributes, expected result (the
/// printed result type or the first error's message).
pub type Case<'a> = (
    &'a str,
    &'a [&'a str],
    &'a [(&'a str, AttrValue)],
    Result<&'a str, &'a str>,
);

/// Runs every case and reports all mismatches at once.
pub fn check(cases: &[Case<'_>]) {
    let mut wrong = Vec::new();
    for (op, args, attrs, want) in cases {
        let got = infer(op, args, attrs);
        let want = want.map(str::to_string).map_err(str::to_string);
        if got != want {
            wrong.push(format!(
                "{op}{args:?} {attrs:?}\n   got {got:?}\n  want {want:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// One call of a given operator: argument types, attributes, expected result.
pub type OpCase<'a> = (
    &'a [&'a str],
    &'a [(&'a str, AttrValue)],
    Result<&'a str, &'a str>,
);

/// [`check`] on calls of the one operator `op`.
pub fn check_op(op: &str, cases: &[OpCase<'_>]) {
    let cases: Vec<Case<'_>> = cases
        .iter()
        .map(|(args, attrs, want)| (op, *args, *attrs, *want))
        .collect();
    check(&cases);
}

/// One call checked with its solved argument types too (backward inference): operator,
/// argument types, attributes, the printed result type, the printed solved arguments.
pub type ArgsCase<'a> = (
    &'a str,
    &'a [&'a str],
    &'a [(&'a str, AttrValue)],
    &'a str,
    &'a [&'a str],
);

/// Runs every case (each must succeed) and reports all mismatches at once.
pub fn check_args(cases: &[ArgsCase<'_>]) {
    let mut wrong = Vec::new();
    for (op, args, attrs, out, solved) in cases {
        let got = infer_all(op, args, attrs);
        let want = Ok((
            out.to_string(),
            solved.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        ));
        if got != want {
            wrong.push(format!("{op}{args:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variables bound by `let` (and graph bindings) inside `root`, in source order.
pub fn let_bindings(m: &Module, root: ExprId) -> Vec<VarId> {
    m.lets(root)
        .into_iter()
        .filter_map(|e| match m.expr(e).kind {
            ExprKind::Let { var, .. } => Some(var),
            _ => None,
        })
        .collect()
}

/// `@name: TYPE` of each global of `src`, each followed by `%name: TYPE` of its bindings.
pub fn check_with_bindings(src: &str) -> Vec<String> {
    let prelude = Prelude::standard().expect("the prelude checks");
    let checked = prelude.check(src);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert!(checked.is_ok(), "{messages:?}");
    let (module, typed) = checked.typed.as_ref().expect("typed");
    let mut out = Vec::new();
    for g in checked.user_globals() {
        let gid = module.global(&g.name).expect("declared");
        out.push(format!("@{}: {}", g.name, typed.show(typed.global_ty(gid))));
        for var in g.func.map_or_else(Vec::new, |f| let_bindings(module, f)) {
            let ty = typed.show(typed.var_ty(var));
            out.push(format!("%{}: {ty}", module.var_name(var)));
        }
    }
    out
}

/// The name and type of every `let` (and graph binding) of `@main`'s body, in order, and
/// `@main`'s type.
pub fn bindings(src: &str) -> (Vec<(String, String)>, String) {
    use relay_core::expr::ExprKind;
    let checked = relay_ops::prelude::Prelude::standard().unwrap().check(src);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert!(messages.is_empty(), "{messages:?}");
    let (m, typed) = checked.typed.as_ref().expect("typed");
    let main = m.global("main").expect("@main");
    let func = m.global_def(main).func.expect("defined");
    let ExprKind::Func(f) = &m.expr(func).kind else {
        panic!("@main is a function")
    };
    let mut found = Vec::new();
    let mut e = f.body;
    while let ExprKind::Let { var, body, .. } = m.expr(e).kind {
        found.push((m.var_name(var).to_string(), typed.show(typed.var_ty(var))));
        e = body;
    }
    (found, typed.show(typed.global_ty(main)))
}

/// The `(name, type)` of each `%name = ... /* ty=TYPE */;` line of `src`: the types TVM
/// printed.
pub fn printed(src: &str) -> Vec<(String, String)> {
    src.lines()
        .filter_map(|l| {
            let l = l.trim();
            let (lhs, rest) = l.split_once(" = ")?;
            let name = lhs.strip_prefix('%')?;
            let ty = rest.rsplit_once("/* ty=")?.1.strip_suffix(" */;")?;
            Some((name.to_string(), ty.to_string()))
        })
        .collect()
}

/// Types a call of `op`'s signature with `relation` instead of the operator's own: the
/// printed result and arguments, or the first error, or the relations still waiting.
pub fn infer_with(
    relation: RelationRef,
    op: &str,
    args: &[&str],
    attrs: &[(&str, AttrValue)],
) -> Result<(String, Vec<String>), String> {
    let (_, attrs) = op_and_attrs(op, attrs)?;
    let mut s = Solver::new(TyCtx::new());
    let mut scope = TypeScope::new();
    let mut tys: Vec<Ty> = Vec::new();
    for src in args {
        tys.push(if *src == "_" {
            s.fresh_ty()
        } else {
            parse_type(&mut s.tcx, &mut scope, src).map_err(|e| e.to_string())?
        });
    }
    let out = s.fresh_ty();
    tys.push(out);
    s.add_relation(relation, &tys, Some(Arc::new(attrs)), 0);
    solved(&mut s, out, &tys[..args.len()])
}

/// The types (or first error, or `waiting`) given by the relation `rel` and by the
/// operator's own relation, for every input and attribute combination of a grid.
pub fn same_as_operator(
    rel: RelationRef,
    op: &str,
    inputs: &[&[&str]],
    attr_sets: &[Vec<(&str, AttrValue)>],
) {
    let own = registry::global()
        .expect("registry")
        .op(op)
        .expect("operator")
        .relation
        .expect("a relation");
    let mut wrong = Vec::new();
    let mut errors = 0;
    for args in inputs {
        for attrs in attr_sets {
            let theirs = infer_with(own, op, args, attrs);
            let mine =
                infer_with(rel, op, args, attrs).map_err(|e| e.replace(rel.name(), own.name()));
            errors += usize::from(theirs.is_err());
            if mine != theirs {
                wrong.push(format!(
                    "{op}{args:?} {attrs:?}
  clause {mine:?}
  operator {theirs:?}"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // The grid has failures and successes.
    assert!(
        errors > 0 && errors < inputs.len() * attr_sets.len(),
        "{errors} errors"
    );
}
