//! The `relay` command.
//!
//! - `relay check [--bindings] FILE...`: type-check Relay programs. On success, exit 0 and
//!   print one line `@name: TYPE` per global definition, in source order; with
//!   `--bindings`, also one line `%name: TYPE` per `let` or graph binding inside it. The
//!   prelude (`relay_ops::prelude`: `@map`, `@foldl`, ...) is in scope and its globals are
//!   not printed; a program's own global of the same name shadows the prelude's. On a
//!   parse or type error, exit 1 with diagnostics on stderr. Exit 2 for usage and I/O
//!   errors.
//! - `relay ops`: every registered operator with its type, relation, attributes and level.
//! - `relay workload N`: the reference workload of the benchmarks with N operators.

use clap::{Parser, Subcommand};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use relay_core::expr::{ExprId, ExprKind, Module, Span};
use relay_core::{registry, TyCtx};
use relay_ops::prelude::{Origin, Prelude, Problem, PRELUDE, PRELUDE_NAME};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

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
    /// Print the reference workload of the benchmarks: a transformer-like block of 18
    /// operators repeated to OPS operators in one `let` chain of `@main`.
    Workload {
        /// The number of operators.
        ops: usize,
    },
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
        Command::Workload { ops } => out
            .write_all(relay_ops::workload::transformer(ops).as_bytes())
            .map(|()| ExitCode::SUCCESS),
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
    // The prelude is in scope in every file; it is checked once, here.
    let prelude = match Prelude::standard() {
        Ok(p) => p,
        Err(problems) => {
            emit_problems(
                None,
                &[(PRELUDE_NAME, PRELUDE)],
                &problems,
                Diagnostic::error,
            );
            return Ok(ExitCode::from(1));
        }
    };
    let mut failed = false;
    for (i, path) in files.iter().enumerate() {
        // Read straight after the prelude's text: the program is not copied again.
        let read = match read_after(prelude.buffer(0), path) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        };
        // The last file's checked module, if large, is not freed: the process ends right
        // after (its text is, before the types are printed).
        let leave = i + 1 == files.len() && read.0.len() > LARGE_PROGRAM;
        if !check_one(out, &prelude, path, read, bindings, leave)? {
            failed = true;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `prefix` followed by the contents of the file at `path`, read into its spare room, and
/// what the file was when read, if it is a regular file (which can be read again).
fn read_after(
    mut prefix: String,
    path: &std::path::Path,
) -> std::io::Result<(String, Option<Stamp>)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata().ok();
    let len = meta.as_ref().map_or(0, |m| m.len() as usize);
    // Positions in the text are 32-bit: a text of 4 GiB or more is refused, before it is
    // read when its size is known, after otherwise (a pipe, a growing file).
    let too_large = |n: usize| {
        (n >= u32::MAX as usize).then(|| {
            std::io::Error::other("the file is 4 GiB or more, larger than the checker addresses")
        })
    };
    if let Some(e) = too_large(prefix.len() + len) {
        return Err(e);
    }
    prefix.reserve_exact(len + 1);
    file.read_to_string(&mut prefix)?;
    if let Some(e) = too_large(prefix.len()) {
        return Err(e);
    }
    let stamp = meta.filter(|m| m.is_file()).map(|m| Stamp {
        len: m.len(),
        modified: m.modified().ok(),
    });
    Ok((prefix, stamp))
}

/// What a regular file was when it was read: read again, it is the same text if its size
/// and time of change are the same.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

/// Checks one file with the prelude in scope (`buf`: [`Prelude::buffer`] and the file's
/// text, `stamp` what the file was if it can be read again); prints the signatures of
/// its own globals (not the prelude's), or its diagnostics. Whether it is well typed.
/// With `leave`, the checked module is not freed.
fn check_one(
    out: &mut impl Write,
    prelude: &Prelude,
    path: &std::path::Path,
    (buf, stamp): (String, Option<Stamp>),
    bindings: bool,
    leave: bool,
) -> std::io::Result<bool> {
    let name = path.display().to_string();
    let (mut checked, buf) = match prelude.parse_buffer(&buf) {
        Ok(parsed) if stamp.is_some() && buf.len() > LARGE_PROGRAM => {
            // Inference needs no text, and a large model's text is about as large as all
            // that inference adds to its module: it goes first, and is read again only
            // if there are problems to show.
            let len = buf.len();
            drop(buf);
            let checked = prelude.infer_parsed(parsed);
            if checked.errors.is_empty() && checked.warnings.is_empty() {
                (checked, None)
            } else {
                match read_after(prelude.buffer(0), path) {
                    Ok((buf, again)) if again == stamp && buf.len() == len => (checked, Some(buf)),
                    _ => {
                        eprintln!(
                            "error: `{name}` changed, or could not be read again, while it \
                             was checked: check it again"
                        );
                        return Ok(false);
                    }
                }
            }
        }
        Ok(parsed) => (prelude.infer_parsed(parsed), Some(buf)),
        Err(checked) => (*checked, Some(buf)),
    };
    if let Some(buf) = &buf {
        let src = &buf[checked.offset as usize..];
        checked.point_at_attributes(prelude, src);
        let sources: Vec<(&str, &str)> = prelude.sources().collect();
        let user = Some((name.as_str(), src));
        emit_problems(user, &sources, &checked.warnings, Diagnostic::warning);
        if !checked.is_ok() {
            // In the order of the text, whichever phase found them.
            let mut errors = std::mem::take(&mut checked.errors);
            errors.sort_by_key(|p| (p.origin != Origin::User, p.span.lo));
            emit_problems(user, &sources, &errors, Diagnostic::error);
            return Ok(false);
        }
    }
    let Some((module, typed)) = &checked.typed else {
        return Ok(false);
    };
    // The text is not needed to print types: it goes before they are printed (the type
    // of a large model's `@main` is itself megabytes of text). One allocation, so freeing
    // it is quick even when the rest of the data is left to the end of the process.
    drop(buf);
    for g in checked.user_globals() {
        let Some(gid) = module.global(&g.name) else {
            continue;
        };
        writeln!(out, "@{}: {}", g.name, typed.show(typed.global_ty(gid)))?;
        if bindings {
            for var in g.func.map_or_else(Vec::new, |f| let_bindings(module, f)) {
                let name = module.var_name(var);
                writeln!(out, "%{name}: {}", typed.show(typed.var_ty(var)))?;
            }
        }
    }
    if leave {
        std::mem::forget(checked);
    }
    Ok(true)
}

/// The size of text above which the last program's data is not freed: freeing it piece
/// by piece takes time, and the process ends right after (as rustc does).
const LARGE_PROGRAM: usize = 1 << 20;

/// Renders `problems`, each against the source it is in: the user's file (`user`, as
/// `(name, text)`) or one of the prelude's `sources`; a secondary label may point into
/// another source than its problem. A help line comes after the notes.
fn emit_problems(
    user: Option<(&str, &str)>,
    sources: &[(&str, &str)],
    problems: &[Problem],
    severity: fn() -> Diagnostic<usize>,
) {
    if problems.is_empty() {
        return;
    }
    // The user's file is file 0, the sources follow in order, then an empty stand-in for
    // a source of another name (which `Prelude` never gives).
    let mut files = SimpleFiles::new();
    files.add(user.map_or("<input>", |u| u.0), user.map_or("", |u| u.1));
    for &(name, text) in sources {
        files.add(name, text);
    }
    let unknown = files.add("<unknown source>", "");
    let file_of = |origin: &Origin| match origin {
        Origin::User => 0,
        Origin::Prelude(n) => sources
            .iter()
            .position(|(s, _)| s == n)
            .map_or(unknown, |i| i + 1),
    };
    let mut diags = Vec::with_capacity(problems.len());
    for p in problems {
        let id = file_of(&p.origin);
        let mut labels = vec![label(&files, id, p.span, true)];
        for l in &p.labels {
            let lid = file_of(&l.origin);
            labels.push(label(&files, lid, l.span, false).with_message(&l.message));
        }
        let mut notes = p.notes.clone();
        if let Some(help) = &p.help {
            notes.push(format!("help: {help}"));
        }
        diags.push(
            severity()
                .with_message(&p.message)
                .with_labels(labels)
                .with_notes(notes),
        );
    }
    emit(&files, &diags);
}

/// The variables bound by `let` (and graph bindings) inside `root`, in source order.
fn let_bindings(m: &Module, root: ExprId) -> Vec<relay_core::expr::VarId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut kids = Vec::new();
    while let Some(e) = stack.pop() {
        // A compact mention (a call's argument) is no node of the arena: no `let`.
        if e.is_mention() {
            continue;
        }
        if let ExprKind::Let { var, .. } = m.expr(e).kind {
            out.push(var);
        }
        kids.clear();
        m.children(e, &mut kids);
        stack.extend(kids.iter().rev());
    }
    out
}

/// A label at `span` of file `id`, clamped to its text.
fn label(files: &SimpleFiles<&str, &str>, id: usize, span: Span, primary: bool) -> Label<usize> {
    let len = files.get(id).map_or(0, |f| f.source().len());
    let lo = (span.lo as usize).min(len);
    let hi = (span.hi as usize).clamp(lo, len);
    if primary {
        Label::primary(id, lo..hi)
    } else {
        Label::secondary(id, lo..hi)
    }
}

fn emit(files: &SimpleFiles<&str, &str>, diags: &[Diagnostic<usize>]) {
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
        let _ = term::emit_to_write_style(&mut writer.lock(), &config, files, d);
    }
}
