//! The `relay` command.
//!
//! - `relay check [--bindings] FILE...`: type-check Relay programs. On success, exit 0 and
//!   print one line `@name: TYPE` per global definition, in source order; with
//!   `--bindings`, also one line `%name: TYPE` per `let` or graph binding inside it. On a
//!   parse or type error, exit 1 with diagnostics on stderr. Exit 2 for usage and I/O
//!   errors.
//! - `relay ops`: every registered operator with its type, relation, attributes and level.

use clap::{Parser, Subcommand};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use relay_core::expr::{ExprId, ExprKind, Module, Span};
use relay_core::infer::{infer, TypeError};
use relay_core::text::parse_module;
use relay_core::{adt, registry, TyCtx};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

// Link the operator library and the prelude's data types.
use relay_ops as _;

#[derive(Parser)]
#[command(name = "relay", version, about = "Type-check Relay programs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Type-check Relay programs and print the type of every global definition.
    Check {
        /// Also print the type of every `let` and graph binding.
        #[arg(long)]
        bindings: bool,
        /// The `.relay` files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// List every registered operator: type, relation, attributes, level.
    Ops,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let code = match cli.command {
        Command::Check { bindings, files } => check(&mut out, &files, bindings),
        Command::Ops => ops(&mut out),
    };
    // A closed pipe (`relay ops | head`) or a full disk ends the output, not the program.
    match code.and_then(|code| out.flush().map(|()| code)) {
        Ok(code) => code,
        Err(_) => ExitCode::from(2),
    }
}

fn ops(out: &mut impl Write) -> std::io::Result<ExitCode> {
    let reg = match registry::global() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut tcx = TyCtx::new();
    for op in reg.ops() {
        let ty = op.ty(&mut tcx);
        let relation = op.relation.map_or("none", |r| r.name());
        let attrs: Vec<String> = op
            .attrs
            .iter()
            .map(|a| match &a.default {
                Some(d) => format!("{}: {} = {}", a.name, a.ty, d.value()),
                None => format!("{}: {}", a.name, a.ty),
            })
            .collect();
        let attrs = if attrs.is_empty() {
            "none".to_string()
        } else {
            attrs.join(", ")
        };
        writeln!(out, "{}: {} where {relation}", op.name, tcx.show(ty))?;
        writeln!(out, "    level {}; attributes: {attrs}", op.level)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn check(
    out: &mut impl Write,
    files: &[std::path::PathBuf],
    bindings: bool,
) -> std::io::Result<ExitCode> {
    let mut failed = false;
    for path in files {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        };
        let name = path.display().to_string();
        if !check_one(out, &name, &src, bindings)? {
            failed = true;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks one file; prints its signatures, or its diagnostics. Whether it is well typed.
fn check_one(out: &mut impl Write, name: &str, src: &str, bindings: bool) -> std::io::Result<bool> {
    let file = SimpleFile::new(name, src);
    let mut tcx = TyCtx::new();
    let mut adts = match adt::load(&mut tcx) {
        Ok(a) => a,
        Err(e) => {
            emit(&file, &[Diagnostic::error().with_message(e.to_string())]);
            return Ok(false);
        }
    };
    let module = match parse_module(src, &mut tcx, &mut adts) {
        Ok(m) => m,
        Err(errors) => {
            let diags: Vec<_> = errors
                .iter()
                .map(|e| {
                    Diagnostic::error()
                        .with_message(&e.message)
                        .with_labels(vec![label(e.span, src.len())])
                })
                .collect();
            emit(&file, &diags);
            return Ok(false);
        }
    };
    let typed = infer(tcx, &adts, &module);
    let warnings: Vec<_> = typed
        .warnings()
        .iter()
        .map(|w| diagnostic(Diagnostic::warning(), w, src.len()))
        .collect();
    emit(&file, &warnings);
    if !typed.errors().is_empty() {
        let errors: Vec<_> = typed
            .errors()
            .iter()
            .map(|e| diagnostic(Diagnostic::error(), e, src.len()))
            .collect();
        emit(&file, &errors);
        return Ok(false);
    }
    for g in module.globals() {
        let Some(gid) = module.global(&g.name) else {
            continue;
        };
        writeln!(out, "@{}: {}", g.name, typed.show(typed.global_ty(gid)))?;
        if bindings {
            for var in let_bindings(&module, g.func) {
                let decl = module.var_decl(var);
                writeln!(out, "%{}: {}", decl.name, typed.show(typed.var_ty(var)))?;
            }
        }
    }
    Ok(true)
}

/// The variables bound by `let` (and graph bindings) inside `root`, in source order.
fn let_bindings(m: &Module, root: ExprId) -> Vec<relay_core::expr::VarId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if e.index() >= m.sizes().0 {
            continue;
        }
        let kind = &m.expr(e).kind;
        if let ExprKind::Let { var, .. } = kind {
            out.push(*var);
        }
        let mut kids = Vec::new();
        match kind {
            ExprKind::Tuple(f) => kids.extend_from_slice(f),
            ExprKind::Proj(t, _) | ExprKind::RefNew(t) | ExprKind::RefRead(t) => kids.push(*t),
            ExprKind::Let { value, body, .. } => kids.extend([*value, *body]),
            ExprKind::Call { callee, args, .. } => {
                kids.push(*callee);
                kids.extend_from_slice(args);
            }
            ExprKind::Func(f) => kids.push(f.body),
            ExprKind::If(c, t, f) => kids.extend([*c, *t, *f]),
            ExprKind::RefWrite(r, v) => kids.extend([*r, *v]),
            ExprKind::Match {
                scrutinee, arms, ..
            } => {
                kids.push(*scrutinee);
                kids.extend(arms.iter().map(|a| a.body));
            }
            _ => {}
        }
        stack.extend(kids.into_iter().rev());
    }
    out
}

fn label(span: Span, len: usize) -> Label<()> {
    let lo = (span.lo as usize).min(len);
    let hi = (span.hi as usize).clamp(lo, len);
    Label::primary((), lo..hi)
}

fn diagnostic(d: Diagnostic<()>, e: &TypeError, len: usize) -> Diagnostic<()> {
    d.with_message(&e.message)
        .with_labels(vec![label(e.span, len)])
        .with_notes(e.notes.clone())
}

fn emit(file: &SimpleFile<&str, &str>, diags: &[Diagnostic<()>]) {
    if diags.is_empty() {
        return;
    }
    let choice = if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    };
    let writer = termcolor::StandardStream::stderr(choice);
    let config = term::Config::default();
    for d in diags {
        let _ = term::emit_to_write_style(&mut writer.lock(), &config, file, d);
    }
}
