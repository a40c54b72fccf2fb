//! Diagnostics rendered like rustc's (by `codespan-reporting`), in output bounded by what
//! is shown, not by the size of the input.
//!
//! - Each diagnostic is rendered against an [`Excerpt`]: the lines its labels touch (and
//!   the context lines the renderer shows), copied out of the sources. A line longer than
//!   [`LONG_LINE`] bytes is shown as windows around the labels on it, joined by `...`: a
//!   label on a 20 KB line prints a few hundred bytes, not the line.
//! - Control characters (NUL among them, but not tabs) are shown escaped (`\0`,
//!   `\u{1b}`), in the source lines and in the messages.
//! - At most [`MAX_SHOWN`] diagnostics of one severity are rendered; a last line counts
//!   the rest, as rustc's "aborting due to N previous errors" does.
//! - The output is rendered into one buffer and written at once ([`emit_with`]).
//!
//! Labels keep their true line and column numbers (`file.relay:1:20345`): the excerpt
//! maps its own offsets back to the source's.

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::{Error, Files, Location};
use codespan_reporting::term::{self, termcolor};
use std::io::IsTerminal;
use std::ops::Range;

/// A line longer than this (in bytes) is shown as windows around its labels.
pub const LONG_LINE: usize = 160;

/// The bytes shown on each side of a label on a long line.
const CONTEXT: usize = 40;

/// The most bytes of one label shown on a long line.
const MAX_LABEL: usize = 80;

/// The most diagnostics of one severity rendered; the rest are counted.
pub const MAX_SHOWN: usize = 50;

/// The lines of context the renderer shows after the start and before the end of a
/// label over several lines (codespan's defaults, which [`config`] keeps).
const START_CONTEXT: usize = 3;
const END_CONTEXT: usize = 1;

fn config() -> term::Config {
    let config = term::Config::default();
    debug_assert_eq!(config.start_context_lines, START_CONTEXT);
    debug_assert_eq!(config.end_context_lines, END_CONTEXT);
    debug_assert_eq!(
        (config.before_label_lines, config.after_label_lines),
        (0, 0)
    );
    config
}

/// A named source text and where its lines start.
pub struct Source<'a> {
    name: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Source {
            name,
            text,
            line_starts,
        }
    }

    /// The text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The index of the line that holds byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= at) - 1
    }

    /// Line `i`'s bytes, without its line break (`\n` or `\r\n`).
    fn line(&self, i: usize) -> Range<usize> {
        let start = self.line_starts[i];
        let end = self
            .line_starts
            .get(i + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let end = if self.text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
}

/// A diagnostic's labels, in the sources' offsets: file, range, primary, message.
pub struct Labeled {
    pub file: usize,
    pub range: Range<usize>,
    pub primary: bool,
    pub message: String,
}

/// Runs `write` on a buffer and writes what it wrote to standard error at once, in color
/// on a terminal.
pub fn emit_with(write: impl FnOnce(&mut dyn termcolor::WriteColor)) {
    let choice = if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    };
    let writer = termcolor::BufferWriter::stderr(choice);
    let mut buffer = writer.buffer();
    write(&mut buffer);
    if !buffer.is_empty() {
        let _ = writer.print(&buffer);
    }
}

/// Renders `diags` (a severity, a message, labels and notes each) into `out`: the first
/// [`MAX_SHOWN`], then a line that counts the rest. `diags` is not empty.
pub fn render(
    out: &mut dyn termcolor::WriteColor,
    sources: &[Source<'_>],
    diags: Vec<(Severity, String, Vec<Labeled>, Vec<String>)>,
) {
    let config = config();
    let total = diags.len();
    let severity = diags[0].0;
    for (severity, message, labels, notes) in diags.into_iter().take(MAX_SHOWN) {
        let (excerpt, labels) = Excerpt::new(sources, &labels);
        let d = Diagnostic::new(severity)
            .with_message(escape_controls(&message))
            .with_labels(labels)
            .with_notes(notes.iter().map(|n| escape_controls(n)).collect());
        let _ = term::emit_to_write_style(out, &config, &excerpt, &d);
    }
    if total > MAX_SHOWN {
        let what = if severity == Severity::Warning {
            "warnings"
        } else {
            "errors"
        };
        let d = Diagnostic::new(severity).with_message(format!(
            "{total} {what} in all: the first {MAX_SHOWN} are shown, {} are not",
            total - MAX_SHOWN
        ));
        let _ = term::emit_to_write_style(out, &config, &Excerpt::empty(sources), &d);
    }
}

/// `text` with its control characters but `\n` and `\t` escaped.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(is_escaped) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_shown(&mut out, c, true);
    }
    out
}

fn is_escaped(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

/// Pushes `c` as shown: escaped if a control character (a line break too, unless
/// `breaks`).
fn push_shown(out: &mut String, c: char, breaks: bool) {
    if is_escaped(c) || (!breaks && c == '\n') {
        out.extend(c.escape_debug());
    } else {
        out.push(c);
    }
}

/// The bytes `c` takes once shown (in a source line).
fn shown_len(c: char) -> usize {
    if c.is_control() && c != '\t' {
        c.escape_debug().len()
    } else {
        c.len_utf8()
    }
}

/// A piece of a shown line: the source's bytes `src`, shown from byte `at` of the
/// excerpt's text.
struct Piece {
    src: Range<usize>,
    at: usize,
}

/// One shown line: its index in the source, its range in the excerpt's text, its pieces.
struct Line {
    index: usize,
    range: Range<usize>,
    pieces: Vec<Piece>,
}

/// What one file of an excerpt shows.
#[derive(Default)]
struct Shown {
    text: String,
    lines: Vec<Line>,
}

/// The lines one diagnostic shows, for the renderer: offsets are the excerpt's, line
/// numbers and locations the sources'.
struct Excerpt<'s, 'a> {
    sources: &'s [Source<'a>],
    shown: Vec<Shown>,
}

impl<'s, 'a> Excerpt<'s, 'a> {
    fn empty(sources: &'s [Source<'a>]) -> Self {
        Excerpt {
            sources,
            shown: sources.iter().map(|_| Shown::default()).collect(),
        }
    }

    /// The excerpt for `labels`, and the labels in its offsets.
    fn new(sources: &'s [Source<'a>], labels: &[Labeled]) -> (Self, Vec<Label<usize>>) {
        let mut excerpt = Excerpt::empty(sources);
        for (file, src) in sources.iter().enumerate() {
            // The parts of lines to show: (line, start, end), in source offsets.
            let mut focus: Vec<(usize, usize, usize)> = Vec::new();
            for l in labels.iter().filter(|l| l.file == file) {
                let (lo, hi) = (l.range.start, l.range.end);
                let (first, last) = (src.line_of(lo), src.line_of(hi));
                if first == last {
                    focus.push((first, lo, hi));
                    continue;
                }
                focus.push((first, lo, src.line(first).end.max(lo)));
                let middle = (first + 1..=(first + START_CONTEXT).min(last - 1))
                    .chain((last - END_CONTEXT).max(first + 1)..last);
                for i in middle {
                    let start = src.line(i).start;
                    focus.push((i, start, start));
                }
                focus.push((last, src.line(last).start, hi));
            }
            focus.sort_unstable();
            // A line between two shown lines is shown too (as the renderer does).
            let mut between = Vec::new();
            for w in focus.windows(2) {
                if w[1].0 == w[0].0 + 2 {
                    let start = src.line(w[0].0 + 1).start;
                    between.push((w[0].0 + 1, start, start));
                }
            }
            focus.extend(between);
            focus.sort_unstable();
            let shown = &mut excerpt.shown[file];
            for group in focus.chunk_by(|a, b| a.0 == b.0) {
                shown.push_line(src, group);
            }
        }
        let labels = labels
            .iter()
            .map(|l| {
                let range = excerpt.map(l.file, l.range.start)..excerpt.map(l.file, l.range.end);
                let label = if l.primary {
                    Label::primary(l.file, range)
                } else {
                    Label::secondary(l.file, range)
                };
                label.with_message(escape_controls(&l.message))
            })
            .collect();
        (excerpt, labels)
    }

    /// Byte `at` of file `file` in the excerpt's offsets (clamped into a window).
    fn map(&self, file: usize, at: usize) -> usize {
        let src = &self.sources[file];
        let shown = &self.shown[file];
        let index = src.line_of(at);
        let Some(line) = shown.lines.iter().find(|l| l.index == index) else {
            return shown.text.len();
        };
        // The last piece that starts at or before `at`, or the first.
        let piece = line
            .pieces
            .iter()
            .rev()
            .find(|p| p.src.start <= at)
            .unwrap_or(&line.pieces[0]);
        let end = at.clamp(piece.src.start, piece.src.end);
        piece.at
            + src.text[piece.src.start..end]
                .chars()
                .map(shown_len)
                .sum::<usize>()
    }

    fn line(&self, file: usize, at: usize) -> Result<&Line, Error> {
        let shown = self.shown.get(file).ok_or(Error::FileMissing)?;
        let i = shown.lines.partition_point(|l| l.range.start <= at);
        match i.checked_sub(1) {
            Some(i) => Ok(&shown.lines[i]),
            None => Err(Error::IndexTooLarge {
                given: at,
                max: shown.text.len(),
            }),
        }
    }
}

impl Shown {
    /// Shows line `group[0].0` of `src` around the parts `group` gives (sorted).
    fn push_line(&mut self, src: &Source<'_>, group: &[(usize, usize, usize)]) {
        let index = group[0].0;
        let whole = src.line(index);
        let text = src.text;
        let windows: Vec<Range<usize>> = if whole.len() <= LONG_LINE {
            vec![whole.clone()]
        } else {
            let mut windows: Vec<Range<usize>> = Vec::new();
            for &(_, a, b) in group {
                let (a, b) = (
                    a.clamp(whole.start, whole.end),
                    b.clamp(whole.start, whole.end),
                );
                let (lo, hi) = if b - a <= MAX_LABEL {
                    (a.saturating_sub(CONTEXT), b + CONTEXT)
                } else if a == whole.start && b > a {
                    // The end of a label begun on an earlier line.
                    (b - MAX_LABEL, b + CONTEXT)
                } else {
                    (a.saturating_sub(CONTEXT), a + MAX_LABEL)
                };
                let lo = floor_char(text, lo.max(whole.start));
                let hi = ceil_char(text, hi.min(whole.end));
                match windows.last_mut() {
                    Some(w) if lo <= w.end => w.end = w.end.max(hi),
                    _ => windows.push(lo..hi),
                }
            }
            windows
        };
        let start = self.text.len();
        let mut pieces = Vec::with_capacity(windows.len());
        for (k, w) in windows.iter().enumerate() {
            if k > 0 {
                self.text.push_str(" ... ");
            } else if w.start > whole.start {
                self.text.push_str("...");
            }
            pieces.push(Piece {
                src: w.clone(),
                at: self.text.len(),
            });
            for c in text[w.clone()].chars() {
                push_shown(&mut self.text, c, false);
            }
        }
        if windows.last().is_some_and(|w| w.end < whole.end) {
            self.text.push_str("...");
        }
        let end = self.text.len();
        self.text.push('\n');
        self.lines.push(Line {
            index,
            range: start..end,
            pieces,
        });
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl<'f> Files<'f> for Excerpt<'_, '_> {
    type FileId = usize;
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, id: usize) -> Result<&'f str, Error> {
        self.sources
            .get(id)
            .map(|s| s.name)
            .ok_or(Error::FileMissing)
    }

    fn source(&'f self, id: usize) -> Result<&'f str, Error> {
        self.shown
            .get(id)
            .map(|s| s.text.as_str())
            .ok_or(Error::FileMissing)
    }

    fn line_index(&'f self, id: usize, at: usize) -> Result<usize, Error> {
        Ok(self.line(id, at)?.index)
    }

    fn line_range(&'f self, id: usize, index: usize) -> Result<Range<usize>, Error> {
        let shown = self.shown.get(id).ok_or(Error::FileMissing)?;
        // A line the excerpt does not show (inside a label over many lines, which the
        // renderer skips) is empty.
        Ok(shown
            .lines
            .binary_search_by_key(&index, |l| l.index)
            .map_or(shown.text.len()..shown.text.len(), |i| {
                shown.lines[i].range.clone()
            }))
    }

    /// The source's line and column (in characters) of the excerpt's byte `at`.
    fn location(&'f self, id: usize, at: usize) -> Result<Location, Error> {
        let line = self.line(id, at)?;
        let src = &self.sources[id];
        // Back to the source's offset, through the escapes.
        let piece = line
            .pieces
            .iter()
            .rev()
            .find(|p| p.at <= at)
            .unwrap_or(&line.pieces[0]);
        let mut left = at.saturating_sub(piece.at);
        let mut offset = piece.src.start;
        for c in src.text[piece.src.clone()].chars() {
            let n = shown_len(c);
            if left < n {
                break;
            }
            left -= n;
            offset += c.len_utf8();
        }
        let line_start = src.line_starts[line.index];
        Ok(Location {
            line_number: line.index + 1,
            column_number: src.text[line_start..offset].chars().count() + 1,
        })
    }
}
