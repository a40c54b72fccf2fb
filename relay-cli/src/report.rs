//! Diagnostics as `relay check` shows them, for library users: [`render`] the problems of
//! a checked program, or [`render_problems`] any list of them, into rustc-style text.

use crate::render::{self};
use codespan_reporting::diagnostic::Severity as Level;
use codespan_reporting::term::termcolor::{Buffer, WriteColor};
use relay_core::expr::Span;
use relay_ops::prelude::{Checked, Origin, Prelude, Problem};

/// Whether the problems rendered are errors or warnings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error: ...`
    Error,
    /// `warning: ...`
    Warning,
}

impl Severity {
    fn level(self) -> Level {
        match self {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        }
    }
}

/// The diagnostics of `checked` as `relay check` prints them on standard error (without
/// colors): its warnings, then its errors in the order of the text, each against the
/// source it is in (the program, named `name` and whose text is `program`, or one of the
/// prelude's sources), at most [`MAX_SHOWN`] of each. Empty when there is nothing to say.
///
/// `checked` comes from [`Prelude::check`] or [`Prelude::check_buffer`] (after
/// [`Prelude::infer_parsed`], call [`Checked::point_at_attributes`] first).
///
/// ```
/// use relay_ops::prelude::Prelude;
/// let prelude = Prelude::standard().unwrap();
/// let program = "def @f(%x: float32) {\n  @length(%x)\n}\n";
/// let checked = prelude.check(program);
/// let shown = relay_cli::render(&prelude, "model.relay", program, &checked);
/// assert!(shown.starts_with("error: "), "{shown}");
/// assert!(shown.contains("┌─ model.relay:2:11"), "{shown}");
/// ```
pub fn render(prelude: &Prelude, name: &str, program: &str, checked: &Checked) -> String {
    let mut out = Buffer::no_color();
    write_checked(&mut out, prelude, name, program, checked);
    String::from_utf8_lossy(out.as_slice()).into_owned()
}

/// `problems` rendered as rustc renders its diagnostics (without colors), each against
/// the source it is in: [`Origin::User`] is `user` (`(name, text)`), [`Origin::Prelude`]
/// the one of its name among `sources` (`(name, text)` pairs, as
/// [`Prelude::sources`] gives them); [`Origin::Registry`] is a plain error. At most [`MAX_SHOWN`] are shown, then a line counts
/// the rest.
///
/// ```
/// use relay_cli::{render_problems, Severity};
/// use relay_ops::prelude::Prelude;
/// let prelude = Prelude::standard().unwrap();
/// let checked = prelude.check("def @f() { nosuchop(1) }");
/// let sources: Vec<(&str, &str)> = prelude.sources().collect();
/// let user = Some(("f.relay", "def @f() { nosuchop(1) }"));
/// let shown = render_problems(&sources, user, &checked.errors, Severity::Error);
/// assert!(shown.starts_with("error: unknown operator `nosuchop`\n  ┌─ f.relay:1:12\n"), "{shown}");
/// ```
pub fn render_problems(
    sources: &[(&str, &str)],
    user: Option<(&str, &str)>,
    problems: &[Problem],
    severity: Severity,
) -> String {
    let mut out = Buffer::no_color();
    write_problems(&mut out, user, sources, problems.iter(), severity);
    String::from_utf8_lossy(out.as_slice()).into_owned()
}

/// The most diagnostics of one severity shown; the rest are counted.
pub const MAX_SHOWN: usize = render::MAX_SHOWN;

/// Writes the diagnostics of `checked` to `out`, as [`render`] describes them.
pub(crate) fn write_checked(
    out: &mut dyn WriteColor,
    prelude: &Prelude,
    name: &str,
    program: &str,
    checked: &Checked,
) {
    let sources: Vec<(&str, &str)> = prelude.sources().collect();
    let user = Some((name, program));
    write_problems(
        out,
        user,
        &sources,
        checked.warnings.iter(),
        Severity::Warning,
    );
    if !checked.is_ok() {
        // In the order of the text, whichever phase found them.
        let mut errors: Vec<&Problem> = checked.errors.iter().collect();
        errors.sort_by_key(|p| (p.origin != Origin::User, p.span.lo));
        write_problems(out, user, &sources, errors.into_iter(), Severity::Error);
    }
}

/// Writes `problems` to standard error, as [`render_problems`] renders them (in color
/// on a terminal).
pub(crate) fn emit_problems(
    user: Option<(&str, &str)>,
    sources: &[(&str, &str)],
    problems: &[Problem],
    severity: Severity,
) {
    render::emit_with(|out| write_problems(out, user, sources, problems.iter(), severity));
}

/// Renders `problems` into `out`, each against the source it is in: the user's file
/// (`user`, as `(name, text)`) or one of the prelude's `sources`; a secondary label may
/// point into another source than its problem. A help line comes after the notes. At
/// most [`render::MAX_SHOWN`] are shown, and a long line is shown as windows around its
/// labels.
fn write_problems<'p>(
    out: &mut dyn WriteColor,
    user: Option<(&str, &str)>,
    sources: &[(&str, &str)],
    problems: impl ExactSizeIterator<Item = &'p Problem>,
    severity: Severity,
) {
    if problems.len() == 0 {
        return;
    }
    let severity = severity.level();
    // The user's file is file 0, the sources follow in order, then an empty stand-in for
    // a source of another name (which `Prelude` never gives).
    let mut files = vec![render::Source::new(
        user.map_or("<input>", |u| u.0),
        user.map_or("", |u| u.1),
    )];
    files.extend(
        sources
            .iter()
            .map(|&(name, text)| render::Source::new(name, text)),
    );
    let unknown = files.len();
    files.push(render::Source::new("<unknown source>", ""));
    let file_of = |origin: &Origin| match origin {
        Origin::User => Some(0),
        Origin::Prelude(n) => Some(
            sources
                .iter()
                .position(|(s, _)| s == n)
                .map_or(unknown, |i| i + 1),
        ),
        // A plain error: its message names the places.
        Origin::Registry => None,
    };
    // Only the problems shown are prepared.
    let mut diags = Vec::with_capacity(problems.len().min(render::MAX_SHOWN));
    for (i, p) in problems.enumerate() {
        if i >= render::MAX_SHOWN {
            // Counted, not shown.
            diags.push((severity, String::new(), Vec::new(), Vec::new()));
            continue;
        }
        let mut labels = Vec::with_capacity(1 + p.labels.len());
        if let Some(id) = file_of(&p.origin) {
            labels.push(label(&files, id, p.span, true, String::new()));
        }
        for l in &p.labels {
            if let Some(lid) = file_of(&l.origin) {
                labels.push(label(&files, lid, l.span, false, l.message.clone()));
            }
        }
        let mut notes = p.notes.clone();
        if let Some(help) = &p.help {
            notes.push(format!("help: {help}"));
        }
        diags.push((severity, p.message.clone(), labels, notes));
    }
    render::render(out, &files, diags);
}

/// A label at `span` of file `id`, clamped to its text (and to its characters).
fn label(
    files: &[render::Source<'_>],
    id: usize,
    span: Span,
    primary: bool,
    message: String,
) -> render::Labeled {
    let text = files.get(id).map_or("", |f| f.text());
    let mut lo = (span.lo as usize).min(text.len());
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = (span.hi as usize).clamp(lo, text.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    render::Labeled {
        file: id,
        range: lo..hi,
        primary,
        message,
    }
}
