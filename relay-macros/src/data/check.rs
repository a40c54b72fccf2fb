//! Checks of `relay_data!` declarations: every error, each on the narrowest token.

use super::ast::{DataDecl, Field, Input};
use super::ctxt::Ctxt;
use super::tytext::{Kind, TyEnv, TyT};
use std::collections::HashMap;

pub fn check(cx: &mut Ctxt, input: &Input) {
    let mut local = HashMap::new();
    let mut ctor_names = HashMap::new();
    for d in &input.decls {
        let name = d.name.to_string();
        if local.insert(name.clone(), d.params.len()).is_some() {
            cx.error(
                d.name.span(),
                format!("data type `{name}` is declared twice"),
            );
        }
    }
    for d in &input.decls {
        check_decl(cx, d, &local, &mut ctor_names);
    }
}

/// `fields`' types over `env`, and no name given twice (a `what`: "field").
pub fn check_fields(cx: &mut Ctxt, env: &TyEnv, fields: &[Field], what: &str) {
    let mut names: Vec<&proc_macro2::Ident> = Vec::new();
    for f in fields {
        if let Some(n) = &f.name {
            if names.contains(&n) {
                cx.error(n.span(), format!("{what} `{n}` is declared twice"));
            }
            names.push(n);
        }
        env.check(cx, &f.ty);
    }
}

fn check_decl(
    cx: &mut Ctxt,
    d: &DataDecl,
    local: &HashMap<String, usize>,
    ctor_names: &mut HashMap<String, String>,
) {
    let mut params: Vec<(proc_macro2::Ident, Kind)> = Vec::new();
    for p in &d.params {
        if params.iter().any(|(q, _)| q == p) {
            cx.error(p.span(), format!("type parameter `{p}` is declared twice"));
        } else {
            params.push((p.clone(), Kind::Type));
        }
    }
    let env = TyEnv {
        params: &params,
        local_adts: local,
        external_adts: true,
        what: "type variable",
    };
    let data_name = d.name.to_string();
    for c in &d.ctors {
        let cname = c.name.to_string();
        if let Some(owner) = ctor_names.get(&cname) {
            let place = if *owner == data_name {
                String::new()
            } else {
                format!(" (in `{owner}`)")
            };
            cx.error(
                c.name.span(),
                format!("constructor `{cname}` is declared twice{place}"),
            );
        } else {
            ctor_names.insert(cname.clone(), data_name.clone());
        }
        check_fields(cx, &env, &c.fields, "field");
        if let Some((ret, args)) = &c.ret {
            if *ret != d.name {
                cx.error(
                    ret.span(),
                    format!(
                        "expected `{data_name}`, the data type that `{cname}` constructs, found `{ret}`"
                    ),
                );
            } else if let Some(args) = args {
                let ok = args.len() == d.params.len()
                    && args
                        .iter()
                        .zip(&d.params)
                        .all(|(a, p)| matches!(a, TyT::Name { name, args: None } if name == p));
                if !ok {
                    let expected: Vec<String> = d.params.iter().map(|p| p.to_string()).collect();
                    let found: Vec<String> = args.iter().map(TyT::text).collect();
                    cx.error(
                        ret.span(),
                        format!(
                            "expected `{data_name}[{}]`, the data type applied to its parameters, found `{data_name}[{}]`",
                            expected.join(", "),
                            found.join(", ")
                        ),
                    );
                }
            }
        }
    }
}
