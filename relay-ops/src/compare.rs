//! Auditing a printed module: each binding's inferred type against the `/* ty=T */` that
//! TVM printed on it, and every other expression's against the one printed right after
//! it (a function's result, an argument, a tuple's field, a function literal:
//! `relay check --compare-printed`). A compiler engineer finds with it the pass that
//! printed a wrong type.
//!
//! A printed `?` agrees with any dimension (TVM prints `?` where it does not know one),
//! and so does a printed symbol; constant dimensions, data types and the structure of the
//! types must agree. A comment whose type does not parse (a data type the program does
//! not declare) is left alone.
//!
//! ```
//! use relay_ops::{compare::printed_types, prelude::Prelude};
//! let src = "def @main(%x: Tensor[(2, 3), float32]) {\n  %0 = nn.relu(%x) /* ty=Tensor[(2, 4), float32] */;\n  %0\n}";
//! let checked = Prelude::standard().unwrap().check(src);
//! let problems = printed_types(&checked, src);
//! assert_eq!(
//!     problems[0].message,
//!     "`%0` is `Tensor[(2, 3), float32]`, but TVM printed `Tensor[(2, 4), float32]`"
//! );
//! ```

use crate::prelude::{Checked, Origin, Problem, ProblemLabel};
use relay_core::expr::{ExprId, ExprKind, Span};
use relay_core::text::{parse_type, printed_type, TypeScope};
use relay_core::ty::{DTy, Ty, TyData};
use relay_core::TyCtx;
use std::collections::{HashMap, HashSet};

/// The bindings of the program (`program`: its text) whose inferred type disagrees with
/// the type TVM printed after their value, and the other expressions whose inferred type
/// disagrees with the one printed right after them (on the same line), as problems at
/// the printed comment, in source order. Where several expressions end before one
/// comment (a `let` chain and its result), it is the innermost's. Nothing for a program
/// that did not check.
///
/// ```
/// use relay_ops::{compare::printed_types, prelude::Prelude};
/// let src = "def @main(%x: Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] {\n  nn.relu(%x) /* ty=Tensor[(1, 10), float32] */\n}";
/// let checked = Prelude::standard().unwrap().check(src);
/// let problems = printed_types(&checked, src);
/// assert_eq!(
///     problems[0].message,
///     "`nn.relu(%x)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(1, 10), float32]`"
/// );
/// ```
pub fn printed_types(checked: &Checked, program: &str) -> Vec<Problem> {
    let Some((m, typed)) = &checked.typed else {
        return Vec::new();
    };
    let offset = checked.offset;
    // Printed types are read into a context of their own (`?` and symbols in it stand
    // for what they say; the inferred types are compared by their parts).
    let mut printed_tcx = TyCtx::new();
    let tcx = &typed.solver.tcx;
    let mut out = Vec::new();
    // The comments compared with a binding, by where their type starts.
    let mut done = HashSet::new();
    for g in checked.user_globals() {
        let Some(root) = g.func else { continue };
        for e in m.lets(root) {
            let ExprKind::Let { var, value, .. } = m.expr(e).kind else {
                continue;
            };
            let statement = m.expr(e).span;
            let (Some(value_hi), Some(stmt_hi)) = (
                (m.span_of(value).hi).checked_sub(offset),
                statement.hi.checked_sub(offset),
            ) else {
                continue;
            };
            let Some((lo, text)) = printed_type(program, value_hi as usize, stmt_hi as usize)
            else {
                continue;
            };
            done.insert(lo);
            let mut scope = TypeScope::new();
            let Ok(printed) = parse_type(&mut printed_tcx, &mut scope, text) else {
                continue;
            };
            let inferred = typed.var_ty(var);
            if agree(tcx, inferred, &printed_tcx, printed) {
                continue;
            }
            let name = m.var_name(var);
            let span = Span {
                lo: lo as u32,
                hi: (lo + text.len()) as u32,
            };
            let var_span = m.var_span(var);
            out.push(Problem {
                origin: Origin::User,
                span,
                message: format!(
                    "`%{name}` is `{}`, but TVM printed `{}`",
                    typed.show(inferred),
                    printed_tcx.show(printed)
                ),
                notes: Vec::new(),
                labels: vec![ProblemLabel {
                    origin: Origin::User,
                    span: Span {
                        lo: var_span.lo.saturating_sub(offset),
                        hi: var_span.hi.saturating_sub(offset),
                    },
                    message: format!("`%{name}` bound here"),
                }],
                help: None,
            });
        }
        // Every other expression with a comment right after it: the comment's, the
        // innermost of those that end before it.
        let mut owner: HashMap<usize, (&str, ExprId, Span)> = HashMap::new();
        let mut stack = vec![root];
        let mut kids = Vec::new();
        while let Some(e) = stack.pop() {
            kids.clear();
            m.children(e, &mut kids);
            stack.extend(kids.iter().rev());
            let at = m.span_of(e);
            let (Some(lo), Some(hi)) = (at.lo.checked_sub(offset), at.hi.checked_sub(offset))
            else {
                continue;
            };
            let Some((ty_lo, text)) = comment_after(program, hi as usize) else {
                continue;
            };
            if done.contains(&ty_lo) {
                continue;
            }
            let span = Span { lo, hi };
            let entry = owner.entry(ty_lo).or_insert((text, e, span));
            if span.lo > entry.2.lo {
                *entry = (text, e, span);
            }
        }
        let mut owned: Vec<_> = owner.into_iter().collect();
        owned.sort_unstable_by_key(|&(lo, _)| lo);
        for (lo, (text, e, at)) in owned {
            let mut scope = TypeScope::new();
            let Ok(printed) = parse_type(&mut printed_tcx, &mut scope, text) else {
                continue;
            };
            let inferred = typed.ty_of(m, e);
            if agree(tcx, inferred, &printed_tcx, printed) {
                continue;
            }
            let what = described(program.get(at.lo as usize..at.hi as usize).unwrap_or(""));
            out.push(Problem {
                origin: Origin::User,
                span: Span {
                    lo: lo as u32,
                    hi: (lo + text.len()) as u32,
                },
                message: format!(
                    "{what} is `{}`, but TVM printed `{}`",
                    typed.show(inferred),
                    printed_tcx.show(printed)
                ),
                notes: Vec::new(),
                labels: vec![ProblemLabel {
                    origin: Origin::User,
                    span: at,
                    message: "the expression".to_string(),
                }],
                help: None,
            });
        }
    }
    out.sort_by_key(|p| p.span.lo);
    out
}

/// The expression of text `text` in a message: the text, when short, on one line and
/// without comments; else the text to its first `(` and `(..)` (`add(..)`, `fn (..)`);
/// else "the expression".
fn described(text: &str) -> String {
    if !text.is_empty() && text.len() <= 60 && !text.contains('\n') && !text.contains("/*") {
        return format!("`{text}`");
    }
    match text.split_once('(') {
        Some((head, _)) if !head.is_empty() && head.len() <= 40 && !head.contains('\n') => {
            format!("`{head}(..)`")
        }
        _ => "the expression".to_string(),
    }
}

/// The type TVM printed in a `/* .. ty=T .. */` comment right after byte `hi` (blanks
/// on the same line between them): where `T` starts, and its text.
fn comment_after(program: &str, hi: usize) -> Option<(usize, &str)> {
    let rest = program.get(hi..)?;
    let open = hi + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    if !program[open..].starts_with("/*") {
        return None;
    }
    printed_type(program, open, open + 2)
}

/// Whether the inferred type `a` (in `ta`) agrees with the printed `b` (in `tb`).
fn agree(ta: &TyCtx, a: Ty, tb: &TyCtx, b: Ty) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (ta.data(a), tb.data(b)) {
            // Not known here, or a parameter: nothing to hold against the print.
            (TyData::Var(_) | TyData::Param(_), _) | (_, TyData::Var(_) | TyData::Param(_)) => {}
            (TyData::Tensor(sa, da), TyData::Tensor(sb, db)) => {
                if let (DTy::Known(x), DTy::Known(y)) = (da, db) {
                    if x != y {
                        return false;
                    }
                }
                let (Some(xa), Some(xb)) = (ta.shape_dims(*sa), tb.shape_dims(*sb)) else {
                    continue;
                };
                if xa.len() != xb.len() {
                    return false;
                }
                for (&x, &y) in xa.iter().zip(xb) {
                    let (Some(x), Some(y)) = (ta.dims.as_const(x), tb.dims.as_const(y)) else {
                        continue;
                    };
                    if x != y {
                        return false;
                    }
                }
            }
            (TyData::Tuple(xa), TyData::Tuple(xb)) => {
                if xa.len() != xb.len() {
                    return false;
                }
                stack.extend(xa.iter().copied().zip(xb.iter().copied()));
            }
            (TyData::Func(fa), TyData::Func(fb)) => {
                if fa.args.len() != fb.args.len() {
                    return false;
                }
                stack.extend(fa.args.iter().copied().zip(fb.args.iter().copied()));
                stack.push((fa.ret, fb.ret));
            }
            (TyData::Ref(x), TyData::Ref(y)) => stack.push((*x, *y)),
            // Data types are by name in the print.
            (TyData::Adt(x), TyData::Adt(y)) => {
                if ta.adt_info(*x).name != tb.adt_info(*y).name {
                    return false;
                }
            }
            (TyData::Call(x, xa), TyData::Call(y, xb)) => {
                if ta.adt_info(*x).name != tb.adt_info(*y).name || xa.len() != xb.len() {
                    return false;
                }
                stack.extend(xa.iter().copied().zip(xb.iter().copied()));
            }
            _ => return false,
        }
    }
    true
}
