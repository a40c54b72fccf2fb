//! Relay text: type-checked against the standard prelude (built once, shared by every
//! thread), its globals' types, the parameters' and `let` bindings' types, and the
//! diagnostics rendered as `relay check` shows them.

use crate::{CheckOut, DiagOut, DimOut, ValueList, ValueOut, Values};
use relay_core::expr::ExprKind;
use relay_core::{DTy, Ty, TyData};
use relay_ops::prelude::{Checked, Origin, Prelude, Problem};
use std::sync::OnceLock;

fn prelude() -> Result<&'static Prelude, String> {
    static PRELUDE: OnceLock<Result<Prelude, String>> = OnceLock::new();
    PRELUDE
        .get_or_init(|| {
            Prelude::standard().map_err(|problems| {
                let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                format!("the standard prelude does not check: {}", shown.join("; "))
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Checks `text` (named `name` in rendered diagnostics).
pub fn check(text: &str, name: &str) -> Result<CheckOut, String> {
    let prelude = prelude()?;
    let checked = prelude.check(text);
    let mut diagnostics: Vec<DiagOut> = Vec::new();
    for (problems, severity) in [
        (&checked.warnings, relay_cli::Severity::Warning),
        (&checked.errors, relay_cli::Severity::Error),
    ] {
        for p in problems {
            diagnostics.push(diag(prelude, text, name, p, severity));
        }
    }
    let (globals, values) = types(&checked);
    let signature = globals
        .iter()
        .find(|(g, _)| g == "main")
        .or(globals.last())
        .map(|(_, t)| t.clone())
        .unwrap_or_default();
    Ok((
        signature,
        globals,
        Values::new(ValueList::Relay(values)),
        diagnostics,
    ))
}

/// The program's globals with their types, and its functions' parameters and `let`
/// bindings with theirs, in source order.
fn types(checked: &Checked) -> (Vec<(String, String)>, Vec<ValueOut>) {
    let Some((module, typed)) = &checked.typed else {
        return (Vec::new(), Vec::new());
    };
    let mut globals = Vec::new();
    let mut values = Vec::new();
    for g in checked.user_globals() {
        let Some(gid) = module.global(&g.name) else {
            continue;
        };
        let ty = typed.show_within(typed.global_ty(gid), relay_core::print::OUTPUT_LIMIT);
        globals.push((g.name.to_string(), ty));
        let Some(f) = g.func else {
            continue;
        };
        let mut vars = Vec::new();
        if let ExprKind::Func(func) = &module.expr(f).kind {
            vars.extend(func.params.iter().copied());
        }
        for e in module.lets(f) {
            if let ExprKind::Let { var, .. } = module.expr(e).kind {
                vars.push(var);
            }
        }
        for var in vars {
            let t = typed.var_ty(var);
            let (dims, dtype) = tensor_parts(typed, t);
            values.push((
                module.var_name(var).to_string(),
                typed.show_within(t, relay_core::print::OUTPUT_LIMIT),
                dims,
                dtype,
            ));
        }
    }
    (globals, values)
}

/// A tensor type's dims and dtype (none for other types, or what is not known).
fn tensor_parts(typed: &relay_core::infer::Typed, t: Ty) -> (Option<Vec<DimOut>>, Option<String>) {
    let tcx = &typed.solver.tcx;
    let TyData::Tensor(shape, dt) = *tcx.data(t) else {
        return (None, None);
    };
    let dtype = match dt {
        DTy::Known(d) => Some(d.to_string()),
        _ => None,
    };
    let dims = tcx.shape_dims(shape).map(|dims| {
        dims.iter()
            .map(|&d| match tcx.dims.as_const(d) {
                Some(c) => DimOut::Const(c),
                None if tcx.dims.has_vars(d) || tcx.dims.is_any(d) => DimOut::Unknown,
                None => DimOut::Sym(tcx.show_dim(d)),
            })
            .collect()
    });
    (dims, dtype)
}

/// Line and column (from 1, the column in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

fn diag(
    prelude: &Prelude,
    text: &str,
    name: &str,
    p: &Problem,
    severity: relay_cli::Severity,
) -> DiagOut {
    let sources: Vec<(&str, &str)> = prelude.sources().collect();
    let rendered = relay_cli::render_problems(
        &sources,
        Some((name, text)),
        std::slice::from_ref(p),
        severity,
    );
    let span = (p.origin == Origin::User).then(|| {
        let (lo, hi) = (p.span.lo as usize, p.span.hi as usize);
        let (line, col) = line_col(text, lo);
        (lo, hi, line, col)
    });
    let mut notes = p.notes.clone();
    if let Some(help) = &p.help {
        notes.push(format!("help: {help}"));
    }
    let severity = match severity {
        relay_cli::Severity::Error => "error",
        relay_cli::Severity::Warning => "warning",
    };
    (
        severity,
        p.message.clone(),
        None,
        span,
        notes,
        rendered,
        false,
    )
}
