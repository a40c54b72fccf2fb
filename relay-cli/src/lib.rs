//! The `relay` command, as a library: [`main`] runs it, so that a crate that declares its
//! own operators, data types and prelude functions gets a `relay` command that knows them
//! in three lines (its `src/main.rs`; `inventory` registers only the crates linked, so the
//! binary names its crate):
//!
//! ```no_run
//! use relay_ops as _; // your crate here: `use my_ops as _;`
//!
//! fn main() -> std::process::ExitCode {
//!     relay_cli::main()
//! }
//! ```
//!
//! [`render`] and [`render_problems`] render diagnostics as the command does;
//! [`check_declarations`] is the crate's test of its declarations, which fails with the
//! messages the command would print.
//!
//! - `relay check [--bindings] [--compare-printed] FILE...`: type-check Relay programs (`-` reads one from
//!   standard input, which diagnostics name `<stdin>`). On success, exit 0 and
//!   print one line `@name: TYPE` per global definition, in source order; with
//!   `--bindings`, also one line `%name: TYPE` per `let` or graph binding inside it. The
//!   prelude (`relay_ops::prelude`: `@map`, `@foldl`, ...) is in scope and its globals are
//!   not printed; a program's own global of the same name shadows the prelude's. On a
//!   parse or type error, exit 1 with diagnostics on stderr. Exit 2 for usage and I/O
//!   errors.
//! - `relay import MODEL.onnx`: the model as a Relay module (`@main` with the graph inputs
//!   and the initializers as parameters, a `let` per node output annotated with its type),
//!   which `relay check` reads back with the same types; the model's problems, or a node
//!   that cannot be printed, as diagnostics (exit 1).
//! - `relay ops`: every registered operator with its type, relation, attributes and level.
//! - `relay workload N`: the reference workload of the benchmarks with N operators.

use clap::{Parser, Subcommand};
use relay_core::expr::ExprKind;
use relay_core::{registry, TyCtx};
use relay_ops::prelude::Prelude;
use std::io::Write;
use std::process::ExitCode;

mod onnx;
mod render;
mod report;

use report::emit_problems;
pub use report::{render, render_problems, Severity, MAX_SHOWN};

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
        /// Compare each expression's inferred type with the `/* ty=T */` TVM printed on
        /// it (a binding's value, a result, an argument, a tuple's field), and report
        /// every disagreement (exit 1 if there is one).
        #[arg(long)]
        compare_printed: bool,
        /// The `.relay` files (`-`: standard input) and `.onnx` models.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Print an ONNX model as a Relay module that `relay check` reads back.
    ///
    /// `@main`'s parameters are the graph inputs, then the initializers; each node output
    /// is a `let` annotated with its inferred type, and a shape computed in the graph an
    /// `onnx.value` annotated with its value as a type; `If` is Relay's `if`, `Loop` and
    /// `Scan` recursive local functions, sequences and optionals the prelude's `List` and
    /// `Optional`. A model that does not check, or has a node that cannot be printed (a
    /// sequence of elements of different ranks), gives diagnostics naming the node (exit 1).
    Import {
        /// The `.onnx` model.
        file: std::path::PathBuf,
    },
    /// List every registered operator: type, relation, attributes, level.
    Ops,
    /// Print the reference workload of the benchmarks: a transformer-like block of 18
    /// operators repeated to OPS operators in one `let` chain of `@main` (at most
    /// 10,000,000).
    Workload {
        /// The number of operators.
        ops: usize,
        /// Write it as an ONNX model (binary, on standard output) instead of Relay text.
        #[arg(long)]
        onnx: bool,
        /// With `--onnx`: the weights inline (zeros, 28 MB a block of 18 nodes) rather
        /// than outside the file.
        #[arg(long, requires = "onnx")]
        inline_weights: bool,
    },
}

/// Checks the declarations of every crate linked into the program, as `relay check` does
/// before it reads a file: no two operators, data types or constructors of one name, no
/// data type's field of an unknown type, every prelude registered with
/// [`relay_prelude!`](relay_core::relay_prelude) type-checks. For a crate's own `cargo
/// test`, so that its mistakes fail its tests rather than every run of its `relay` command:
///
/// ```
/// # use relay_ops as _;
/// // The body of a `#[test] fn declarations()` in the crate's `src/lib.rs` (whose unit
/// // tests link the crate):
/// relay_cli::check_declarations();
/// ```
///
/// # Panics
///
/// With every mistake, rendered as `relay check` prints it (for example `operator
/// `my.identity` is declared twice: at src/lib.rs:15 and at src/more.rs:3` with its help,
/// or a prelude's type error shown in its file).
pub fn check_declarations() {
    if let Err(problems) = Prelude::standard() {
        let sources = relay_ops::prelude::standard_sources();
        let sources: Vec<(&str, &str)> = sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let shown = render_problems(&sources, None, &problems, Severity::Error);
        panic!("the declarations of the linked crates have mistakes:\n\n{shown}");
    }
}

/// Runs the `relay` command on the process's arguments and returns its exit code (0: well
/// typed, 1: parse or type errors, 2: usage and I/O errors). It knows the operators, data
/// types and prelude functions of every crate linked into the program.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let code = match cli.command {
        Command::Check {
            bindings,
            compare_printed,
            files,
        } => check(
            &mut out,
            &files,
            Show {
                bindings,
                compare_printed,
            },
        ),
        Command::Import { file } => match onnx::import(&mut out, &file) {
            Ok(Ok(true)) => Ok(ExitCode::SUCCESS),
            Ok(Ok(false)) => Ok(ExitCode::from(1)),
            Ok(Err(())) => Ok(ExitCode::from(2)),
            Err(e) => Err(e),
        },
        Command::Ops => ops(&mut out),
        Command::Workload { ops, .. } if ops > relay_ops::workload::MAX_OPS => {
            eprintln!(
                "error: the workload has at most {} operators, found {ops}",
                relay_ops::workload::MAX_OPS
            );
            Ok(ExitCode::from(2))
        }
        Command::Workload {
            ops,
            onnx: true,
            inline_weights,
        } => {
            use relay_onnx::workload::{transformer, Weights};
            let w = if inline_weights {
                Weights::Inline
            } else {
                Weights::External
            };
            out.write_all(&transformer(ops, w))
                .map(|()| ExitCode::SUCCESS)
        }
        Command::Workload { ops, .. } => out
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
        Err(errors) => {
            // As `relay check` shows them: each mistake with its help.
            for e in errors {
                eprintln!("error: {e}");
                if let Some(help) = e.help() {
                    eprintln!(" = help: {help}");
                }
                eprintln!();
            }
            return Ok(ExitCode::from(2));
        }
    };
    let mut tcx = TyCtx::new();
    for op in reg.ops() {
        let ty = op.ty(&mut tcx);
        // A relation by its name, or by its path where another crate's has that name.
        let relation = match op.relation {
            None => "none".to_string(),
            Some(r) if reg.relation(r.name()).is_some() => r.name().to_string(),
            Some(r) => reg
                .relations()
                .find(|e| std::ptr::eq(e.def, r.def()))
                .map_or_else(|| r.name().to_string(), |e| e.path()),
        };
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

/// What `relay check` shows besides the signatures.
#[derive(Copy, Clone)]
struct Show {
    /// Every binding's type.
    bindings: bool,
    /// The disagreements of the inferred types with the printed ones.
    compare_printed: bool,
}

fn check(
    out: &mut impl Write,
    files: &[std::path::PathBuf],
    show: Show,
) -> std::io::Result<ExitCode> {
    // ONNX models need no prelude.
    if files.iter().all(|p| onnx::is_onnx(p)) {
        let mut failed = false;
        for path in files {
            match onnx::check(out, path, show.bindings)? {
                Ok(true) => {}
                Ok(false) => failed = true,
                Err(()) => return Ok(ExitCode::from(2)),
            }
        }
        return Ok(if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    // The prelude is in scope in every file; it is checked once, here.
    let prelude = match Prelude::standard() {
        Ok(p) => p,
        Err(problems) => {
            let sources = relay_ops::prelude::standard_sources();
            let sources: Vec<(&str, &str)> =
                sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
            emit_problems(None, &sources, &problems, Severity::Error);
            return Ok(ExitCode::from(1));
        }
    };
    let mut failed = false;
    for (i, path) in files.iter().enumerate() {
        if onnx::is_onnx(path) {
            match onnx::check(out, path, show.bindings)? {
                Ok(true) => {}
                Ok(false) => failed = true,
                Err(()) => return Ok(ExitCode::from(2)),
            }
            continue;
        }
        // Read straight after the prelude's text: the program is not copied again.
        let read = match read_after(prelude.buffer(0), path) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", input_name(path));
                return Ok(ExitCode::from(2));
            }
        };
        // The last file's checked module, if large, is not freed: the process ends right
        // after (its text is, before the types are printed).
        let leave = i + 1 == files.len() && read.0.len() > LARGE_PROGRAM;
        if !check_one(out, &prelude, path, read, show, leave)? {
            failed = true;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The name diagnostics give the program at `path`: `<stdin>` for `-`.
fn input_name(path: &std::path::Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// `prefix` followed by the program at `path` (standard input for `-`), read into its
/// spare room, and what the file was when read, if it is a regular file (which can be
/// read again).
fn read_after(prefix: String, path: &std::path::Path) -> std::io::Result<(String, Option<Stamp>)> {
    if is_stdin(path) {
        let text = read_limited(prefix, std::io::stdin().lock(), 0, MAX_TEXT)?;
        return Ok((text, None));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata().ok();
    let len = meta.as_ref().map_or(0, |m| m.len() as usize);
    let text = read_limited(prefix, file, len, MAX_TEXT)?;
    let stamp = meta.filter(|m| m.is_file()).map(|m| Stamp {
        len: m.len(),
        modified: m.modified().ok(),
    });
    Ok((text, stamp))
}

/// The most bytes of text (the prelude's and the program's) the checker reads: positions
/// in the text are 32-bit.
const MAX_TEXT: usize = u32::MAX as usize - 1;

/// `prefix` followed by what `reader` gives (`len` bytes expected), so long as the whole
/// is at most `max` bytes: reading stops past it, so that an endless input (`/dev/zero`)
/// is refused instead of filling the memory. A leading byte order mark is skipped; text
/// that is not UTF-8 is an error naming the byte, its offset, line and column.
fn read_limited(
    prefix: String,
    reader: impl std::io::Read,
    len: usize,
    max: usize,
) -> std::io::Result<String> {
    use std::io::Read;
    let too_large =
        || std::io::Error::other("the file is 4 GiB or more, larger than the checker addresses");
    let start = prefix.len();
    let room = max.saturating_sub(start);
    // Refused before it is read when its size is known, as soon as it is read past the
    // limit otherwise (a pipe, a growing file, a device).
    if len > room {
        return Err(too_large());
    }
    let mut bytes = prefix.into_bytes();
    bytes.reserve_exact(len + 1);
    reader.take(room as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() - start > room {
        return Err(too_large());
    }
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let skipped = if bytes[start..].starts_with(BOM) {
        bytes.drain(start..start + BOM.len());
        BOM.len()
    } else {
        0
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The text before `at` is UTF-8.
        let before = std::str::from_utf8(&bytes[start..at]).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        std::io::Error::other(format!(
            "the byte 0x{:02x} at offset {} (line {}, column {}) is not UTF-8, which the text must be",
            bytes[at],
            at - start + skipped,
            before.matches('\n').count() + 1,
            before[line_start..].chars().count() + 1,
        ))
    })
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
    show: Show,
    leave: bool,
) -> std::io::Result<bool> {
    let name = input_name(path);
    let text_len = buf.len();
    let (mut checked, buf) = match prelude.parse_buffer(&buf) {
        Ok(parsed) if stamp.is_some() && buf.len() > LARGE_PROGRAM && !show.compare_printed => {
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
        render::emit_with(|out| report::write_checked(out, prelude, &name, src, &checked));
        if !checked.is_ok() {
            return Ok(false);
        }
    }
    // The printed types against the inferred ones: after the signatures.
    let disagreements = match (&buf, show.compare_printed) {
        (Some(buf), true) => {
            let src = &buf[checked.offset as usize..];
            let found = relay_ops::compare::printed_types(&checked, src);
            Some((found, src.to_string()))
        }
        _ => None,
    };
    let Some((module, typed)) = &checked.typed else {
        return Ok(false);
    };
    // The text is not needed to print types: it goes before they are printed (the type
    // of a large model's `@main` is itself megabytes of text). One allocation, so freeing
    // it is quick even when the rest of the data is left to the end of the process.
    drop(buf);
    // The types printed are bounded by the program's size: a type whose parts are shared
    // (`@dup` applied thirty times) has text exponentially larger than itself, and is cut.
    let mut budget = OutputBudget::new(text_len);
    for g in checked.user_globals() {
        let Some(gid) = module.global(&g.name) else {
            continue;
        };
        let ty = typed.show_within(typed.global_ty(gid), budget.line());
        budget.spend(ty.len());
        writeln!(out, "@{}: {ty}", g.name)?;
        if show.bindings {
            for e in g.func.map_or_else(Vec::new, |f| module.lets(f)) {
                let ExprKind::Let { var, .. } = module.expr(e).kind else {
                    continue;
                };
                let name = module.var_name(var);
                let ty = typed.show_within(typed.var_ty(var), budget.line());
                budget.spend(ty.len());
                writeln!(out, "%{name}: {ty}")?;
            }
        }
    }
    if leave {
        std::mem::forget(checked);
    }
    if let Some((found, src)) = disagreements {
        if !found.is_empty() {
            out.flush()?;
            let sources: Vec<(&str, &str)> = prelude.sources().collect();
            emit_problems(
                Some((name.as_str(), &src)),
                &sources,
                &found,
                Severity::Error,
            );
            return Ok(false);
        }
    }
    Ok(true)
}

/// The bytes of types one check prints: [`OutputBudget::PER_BYTE`] per byte of the
/// text checked (the prelude's and the program's), at least [`OutputBudget::LEAST`]; a line past it still prints
/// [`OutputBudget::LINE`] bytes before its type is cut.
struct OutputBudget {
    left: usize,
}

impl OutputBudget {
    const PER_BYTE: usize = 4;
    const LEAST: usize = 1 << 20;
    const LINE: usize = 256;

    fn new(text_len: usize) -> Self {
        OutputBudget {
            left: text_len.saturating_mul(Self::PER_BYTE).max(Self::LEAST),
        }
    }

    /// The limit of the next line's type.
    fn line(&self) -> usize {
        self.left.max(Self::LINE)
    }

    fn spend(&mut self, n: usize) {
        self.left = self.left.saturating_sub(n);
    }
}

/// The size of text above which the last program's data is not freed: freeing it piece
/// by piece takes time, and the process ends right after (as rustc does).
const LARGE_PROGRAM: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::read_limited;
    use std::io::Read;

    #[test]
    fn an_endless_input_is_refused_at_the_limit() {
        // As `/dev/zero`, with a limit of 1 MiB rather than 4 GiB.
        let e = read_limited("prelude\n".into(), std::io::repeat(0), 0, 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the file is 4 GiB or more, larger than the checker addresses"
        );
        let text = read_limited("p\n".into(), std::io::repeat(b'x').take(10), 0, 12).unwrap();
        assert_eq!(text, "p\nxxxxxxxxxx");
        let e = read_limited("p\n".into(), std::io::repeat(b'x').take(11), 0, 12).unwrap_err();
        assert!(e.to_string().starts_with("the file is 4 GiB"), "{e}");
    }

    #[test]
    fn text_that_is_not_utf8_is_named_by_offset_line_and_column() {
        let src: &[u8] = b"def @main() {\n  \xc3\xa9 \xff }";
        let e = read_limited("p\n".into(), src, src.len(), 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the byte 0xff at offset 19 (line 2, column 5) is not UTF-8, which the text must be"
        );
        // Past a byte order mark, which is skipped, offsets are the file's.
        let src: &[u8] = b"\xef\xbb\xbf\xff";
        let e = read_limited(String::new(), src, src.len(), 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the byte 0xff at offset 3 (line 1, column 1) is not UTF-8, which the text must be"
        );
        let src: &[u8] = b"\xef\xbb\xbfdef";
        assert_eq!(read_limited("p\n".into(), src, 6, 100).unwrap(), "p\ndef");
    }
}
