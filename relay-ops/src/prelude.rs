//! Relay's prelude: its data types (`List`, `Optional`, `Tree`, `nat`) in the spec's
//! notation, and its functions ([`PRELUDE`], TVM's `@map`, `@foldl`, ... in the text
//! format) with [`Prelude`] to check programs with them in scope.

use relay_core::diag::Label;
use relay_core::expr::{GlobalDef, Module, Span};
use relay_core::infer::{infer, infer_skipping, TypeError, Typed};
use relay_core::relay_data;
use relay_core::text::{attribute_span, parse_joined_recovering, ParseError, Recovered};
use relay_core::{adt, TyCtx};

relay_data! {
    /// A list: empty, or a head and a tail.
    data List<a> {
        Nil : () -> List,
        Cons : (a, List[a]) -> List,
    }

    /// An optional value.
    data Optional<a> {
        None : () -> Optional,
        Some : (a) -> Optional,
    }

    /// A rose tree: a value and a list of subtrees.
    data Tree<a> {
        Rose : (a, List[Tree[a]]) -> Tree,
    }

    /// Natural numbers in unary (TVM's prelude: `type nat { zero, succ(nat) }`).
    data nat {
        zero
        succ(nat)
    }
}

// ----- the prelude's functions -----

/// The functions of TVM's prelude in the text format (`@id`, `@compose`, `@map`,
/// `@foldl`, ..., `@iterate`), over the data types above.
pub const PRELUDE: &str = include_str!("prelude.relay");

/// The name [`PRELUDE`] goes by in diagnostics.
pub const PRELUDE_NAME: &str = "the prelude";

/// The `(name, text)` of the sources of [`Prelude::standard`]: [`PRELUDE`] (named
/// [`PRELUDE_NAME`]), then the preludes registered with
/// [`relay_prelude!`](relay_core::relay_prelude) by the linked crates, sorted by name (a
/// registered prelude is named by its path, `src/my_prelude.relay`). The texts of the
/// problems [`Prelude::standard`] may give are among them.
///
/// ```
/// let sources = relay_ops::prelude::standard_sources();
/// assert_eq!(sources[0], (relay_ops::prelude::PRELUDE_NAME.to_string(), relay_ops::prelude::PRELUDE));
/// ```
pub fn standard_sources() -> Vec<(String, &'static str)> {
    let mut sources = vec![(PRELUDE_NAME.to_string(), PRELUDE)];
    sources.extend(
        relay_core::registry::preludes()
            .into_iter()
            .map(|(name, e)| (name, e.text)),
    );
    sources
}

/// Where a [`Problem`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// In the program being checked: the span indexes into its text.
    User,
    /// In the prelude source of that name: the span indexes into its text.
    Prelude(String),
    /// In the declarations of the linked crates (the registry: two declarations of one
    /// name, a data type's field of an unknown type; one problem per mistake): no text to
    /// point at, the message names the places (`file:line`).
    Registry,
}

/// An error or a warning, in the coordinates of the source it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The source it is in.
    pub origin: Origin,
    /// The bytes it is about, in that source.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// Further facts.
    pub notes: Vec<String>,
    /// Other places that explain it, each in the coordinates of its own source.
    pub labels: Vec<ProblemLabel>,
    /// How to fix it, where that is known.
    pub help: Option<String>,
}

/// The message, then each note and the help on a line of its own, as rustc writes them
/// under a diagnostic (`= note`, `= help: ...`). The place is not shown: it needs the
/// source's text (`relay_cli::render` shows the problem against it).
///
/// ```
/// use relay_ops::prelude::Prelude;
/// let checked = Prelude::standard().unwrap().check("def @f() { @lenght(Nil()) }");
/// assert_eq!(
///     checked.errors[0].to_string(),
///     "unknown global `@lenght`\n  = help: did you mean `@length`?"
/// );
/// ```
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        for note in &self.notes {
            write!(f, "\n  = {note}")?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

/// A secondary place of a [`Problem`]: where a clashing fact came from, a first definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemLabel {
    /// The source it is in.
    pub origin: Origin,
    /// The bytes it points at, in that source.
    pub span: Span,
    /// What they have to do with the problem.
    pub message: String,
}

/// A prelude ready to check programs against: [`PRELUDE`] and any texts a downstream
/// crate puts on top of it, each able to use the globals of those before it. Every
/// source is type-checked when the prelude is built.
///
/// The globals of the prelude are in scope in the programs it checks. A program may
/// define a global of the same name as a prelude function (the spec's programs define
/// their own `@map`, `@sum`, ...): its own definition shadows the prelude's for the
/// program, while the prelude keeps using its own. Defining one name twice in the
/// program is an error that names both places.
///
/// ```
/// use relay_ops::prelude::Prelude;
/// let prelude = Prelude::with(&[("mylib", "def @twice[A](%f: fn (A) -> A) -> fn (A) -> A { @compose(%f, %f) }")])
///     .unwrap();
/// let checked = prelude.check("def @f(%xs: List[int32]) { @length(%xs) }");
/// assert!(checked.errors.is_empty());
/// assert_eq!(checked.signatures(), ["@f: fn (List[int32]) -> int32"]);
/// ```
#[derive(Clone, Debug)]
pub struct Prelude {
    /// `(name, text)` of every source, [`PRELUDE`] first.
    sources: Vec<(String, String)>,
}

/// A program checked against a [`Prelude`].
pub struct Checked {
    /// The errors, parse or type errors, in source order of discovery; empty if well typed.
    pub errors: Vec<Problem>,
    /// The warnings (e.g. a `match?` that is not exhaustive).
    pub warnings: Vec<Problem>,
    /// The module (prelude and program) and its types, unless it did not parse. Spans
    /// in it index into the prelude's sources and the program joined by newlines; the
    /// program starts at [`Checked::offset`].
    pub typed: Option<(Module, Typed)>,
    /// The byte of the joined sources where the program starts.
    pub offset: u32,
    /// How many globals the prelude defines (they come first in the module).
    prelude_globals: usize,
    /// The problems about an attribute, whose spans still cover the whole call: see
    /// [`Checked::point_at_attributes`].
    pending: Vec<PendingAttr>,
}

/// A problem about an attribute, to point at the attribute once the text is at hand.
struct PendingAttr {
    warning: bool,
    index: usize,
    attr: Box<str>,
}

/// A program parsed against a [`Prelude`], its types not yet inferred
/// ([`Prelude::parse_buffer`], then [`Prelude::infer_parsed`]). It holds no text: the
/// program's text may be freed in between, as `relay check` does for a large model,
/// whose text is about as large as all the data inference adds to the module.
pub struct Parsed {
    tcx: TyCtx,
    adts: adt::AdtTable,
    module: Module,
    /// Where each source starts in the joined text, the program last.
    starts: Vec<u32>,
    offset: u32,
}

impl Checked {
    /// Points each problem about an attribute at the attribute instead of the whole
    /// call, finding it in `program` (the program's text, without the prelude's) or the
    /// prelude's own texts. [`Prelude::check_buffer`] does it; after
    /// [`Prelude::infer_parsed`], call it before showing the problems.
    pub fn point_at_attributes(&mut self, prelude: &Prelude, program: &str) {
        for p in std::mem::take(&mut self.pending) {
            let list = if p.warning {
                &mut self.warnings
            } else {
                &mut self.errors
            };
            let Some(problem) = list.get_mut(p.index) else {
                continue;
            };
            let text = match &problem.origin {
                Origin::User => program,
                Origin::Prelude(n) => prelude.text_of(n),
                Origin::Registry => continue,
            };
            if let Some(span) = attribute_span(text, problem.span, &p.attr) {
                problem.span = span;
                // A value that does not fit is shown as written (`k=2.5`, `axis=[h, w]`),
                // not as the checker reads it.
                let written = text[span.lo as usize..span.hi as usize].split_once('=');
                if let (Some((_, value)), Some(at)) = (written, problem.message.rfind(", found `"))
                {
                    if problem.message.ends_with('`') {
                        problem.message.truncate(at);
                        problem
                            .message
                            .push_str(&format!(", found `{}`", value.trim()));
                    }
                }
            }
        }
    }

    /// Whether the program parsed and is well typed.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty() && self.typed.is_some()
    }

    /// The program's own global definitions, in source order (the prelude's excluded).
    pub fn user_globals(&self) -> &[GlobalDef] {
        match &self.typed {
            Some((m, _)) => &m.globals()[self.prelude_globals.min(m.globals().len())..],
            None => &[],
        }
    }

    /// `@name: TYPE` for each of the program's globals, in source order. A type is cut
    /// past [`relay_core::print::OUTPUT_LIMIT`] bytes (only one whose parts are shared
    /// many times over comes near).
    pub fn signatures(&self) -> Vec<String> {
        let Some((m, typed)) = &self.typed else {
            return Vec::new();
        };
        self.user_globals()
            .iter()
            .filter_map(|g| {
                let gid = m.global(&g.name)?;
                let ty = typed.show_within(typed.global_ty(gid), relay_core::print::OUTPUT_LIMIT);
                Some(format!("@{}: {ty}", g.name))
            })
            .collect()
    }
}

impl Prelude {
    /// [`PRELUDE`] and the preludes the linked crates register with
    /// [`relay_prelude!`](relay_core::relay_prelude) ([`standard_sources`]), checked.
    ///
    /// # Errors
    /// The problems of the first source that does not check, in its own coordinates
    /// (none for [`PRELUDE`], unless the registry of data types is broken).
    pub fn standard() -> Result<Self, Vec<Problem>> {
        Self::with(&[])
    }

    /// [`Prelude::standard`]'s sources and `extra` (`(name, text)` pairs, e.g. a
    /// downstream crate's `include_str!` file) on top of them, in order; each source is
    /// checked with the ones before it in scope.
    ///
    /// # Errors
    /// The problems of the first source that does not check, in its own coordinates; or
    /// a source named like one before it (the prelude is `the prelude`).
    pub fn with(extra: &[(&str, &str)]) -> Result<Self, Vec<Problem>> {
        let mut p = Prelude {
            sources: vec![(PRELUDE_NAME.to_string(), PRELUDE.to_string())],
        };
        let registered = standard_sources();
        let registered = registered[1..].iter().map(|(n, t)| (n.as_str(), *t));
        for (name, text) in registered.chain(extra.iter().copied()) {
            // Problems name their source: two of one name could not be told apart.
            if p.sources.iter().any(|(n, _)| n == name) {
                return Err(vec![Problem {
                    origin: Origin::Prelude(name.to_string()),
                    span: Span::default(),
                    message: format!("two prelude sources are named `{name}`"),
                    notes: Vec::new(),
                    labels: Vec::new(),
                    help: None,
                }]);
            }
            let checked = p.check(text);
            if !checked.is_ok() {
                // Checked as the program: its places, labels too, are this source's.
                let errors = checked.errors.into_iter().map(|mut e| {
                    let origins = std::iter::once(&mut e.origin)
                        .chain(e.labels.iter_mut().map(|l| &mut l.origin));
                    for origin in origins {
                        if *origin == Origin::User {
                            *origin = Origin::Prelude(name.to_string());
                        }
                    }
                    e
                });
                return Err(errors.collect());
            }
            p.sources.push((name.to_string(), text.to_string()));
        }
        if p.sources.len() == 1 {
            let checked = p.check("");
            if !checked.is_ok() {
                return Err(checked.errors);
            }
        }
        Ok(p)
    }

    /// The text of the source named `name` (empty if there is none).
    fn text_of(&self, name: &str) -> &str {
        self.sources
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, t)| t.as_str())
    }

    /// The `(name, text)` of each source, [`PRELUDE`] first.
    pub fn sources(&self) -> impl Iterator<Item = (&str, &str)> {
        self.sources.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }

    /// Parses and type-checks `user_src` with the prelude's globals in scope. Problems in
    /// the program are in its own coordinates ([`Origin::User`]); the prelude's warnings
    /// are not repeated. When the program does not parse because of errors inside its
    /// definitions (an unknown name or a syntax error, say), the definitions they do not
    /// touch, and that do not use one they touch, are type-checked all the same and their
    /// type errors follow.
    pub fn check(&self, user_src: &str) -> Checked {
        let mut buf = self.buffer(user_src.len());
        buf.push_str(user_src);
        self.check_buffer(&buf)
    }

    /// The prelude's sources joined by newlines and followed by one, with room for
    /// `program_len` more bytes: append a program to it (read a file straight into it)
    /// and pass it to [`Prelude::check_buffer`], which then needs no copy of the program.
    ///
    /// ```
    /// use relay_ops::prelude::Prelude;
    /// let prelude = Prelude::standard().unwrap();
    /// let mut buf = prelude.buffer(16);
    /// buf.push_str("def @f() { @id(1) }");
    /// assert_eq!(prelude.check_buffer(&buf).signatures(), ["@f: fn () -> int32"]);
    /// ```
    pub fn buffer(&self, program_len: usize) -> String {
        let len: usize = self.sources.iter().map(|(_, t)| t.len() + 1).sum();
        let mut buf = String::with_capacity(len + program_len);
        for (_, text) in &self.sources {
            buf.push_str(text);
            buf.push('\n');
        }
        buf
    }

    /// Checks the program that follows the prelude's text in `buf` (see
    /// [`Prelude::buffer`]), as [`Prelude::check`] does.
    ///
    /// # Panics
    /// If `buf` does not start with [`Prelude::buffer`]'s text.
    pub fn check_buffer(&self, buf: &str) -> Checked {
        let mut checked = match self.parse_buffer(buf) {
            Ok(parsed) => self.infer_parsed(parsed),
            Err(checked) => *checked,
        };
        let program = buf.get(checked.offset as usize..).unwrap_or("");
        checked.point_at_attributes(self, program);
        checked
    }

    /// The first half of [`Prelude::check_buffer`]: reads the program that follows the
    /// prelude's text in `buf`. What it gives holds no text, so `buf` may be freed
    /// before [`Prelude::infer_parsed`] types it.
    ///
    /// # Errors
    /// The checked program, when it does not parse: the parse errors, then the type
    /// errors of the definitions they do not touch (as [`Prelude::check`] says), not
    /// yet pointed at attributes ([`Checked::point_at_attributes`]).
    ///
    /// # Panics
    /// If `buf` does not start with [`Prelude::buffer`]'s text.
    pub fn parse_buffer(&self, buf: &str) -> Result<Parsed, Box<Checked>> {
        // Where each source starts in `buf`, the prelude's texts checked to be there.
        let mut starts = Vec::with_capacity(self.sources.len() + 1);
        let mut at = 0;
        for (_, text) in &self.sources {
            let end = at + text.len();
            assert!(
                buf.get(at..end) == Some(text.as_str()) && buf.get(end..end + 1) == Some("\n"),
                "the buffer does not start with the prelude"
            );
            starts.push(at as u32);
            at = end + 1;
        }
        let offset = at as u32;
        starts.push(offset);
        let failed = |errors: Vec<Problem>, pending: Vec<PendingAttr>| {
            Box::new(Checked {
                errors,
                warnings: Vec::new(),
                typed: None,
                offset,
                prelude_globals: 0,
                pending,
            })
        };
        if u32::try_from(buf.len()).is_err() {
            // Positions are 32-bit.
            let message = "the program is 4 GiB or more, larger than the checker addresses";
            let at = Span {
                lo: offset,
                hi: offset,
            };
            let p = self.place(&starts, at, message.into(), Vec::new());
            return Err(failed(vec![p], Vec::new()));
        }
        let mut tcx = TyCtx::new();
        let mut adts = match adt::load(&mut tcx) {
            Ok(a) => a,
            Err(errors) => {
                // A broken registry: no text is at fault. Each mistake with its help.
                let problems = errors
                    .iter()
                    .map(|e| Problem {
                        origin: Origin::Registry,
                        span: Span::default(),
                        message: e.to_string(),
                        notes: Vec::new(),
                        labels: Vec::new(),
                        help: e.help(),
                    })
                    .collect();
                return Err(failed(problems, Vec::new()));
            }
        };
        let mut lens: Vec<(&str, usize)> = self.sources().map(|(n, t)| (n, t.len())).collect();
        lens.push(("the program", buf.len() - at));
        let Recovered {
            module,
            errors: parse_errors,
            defs,
        } = parse_joined_recovering(buf, &lens, &mut tcx, &mut adts);
        if parse_errors.is_empty() {
            return Ok(Parsed {
                tcx,
                adts,
                module,
                starts,
                offset,
            });
        }
        let mut errors: Vec<Problem> = parse_errors
            .iter()
            .map(|e| {
                let p = self.place(&starts, e.span, e.message.clone(), Vec::new());
                self.with_details(&starts, p, &e.labels, &e.help)
            })
            .collect();
        let mut pending = Vec::new();
        // The type errors of the definitions the errors do not touch, after them.
        if let Some(skip) = untouched_by(&module, &parse_errors, &defs) {
            let typed = infer_skipping(tcx, &adts, &module, &skip);
            let type_errors = self.problems(&starts, typed.errors());
            add_problems(&mut errors, &mut pending, false, type_errors, true);
        }
        Err(failed(errors, pending))
    }

    /// The second half of [`Prelude::check_buffer`]: types what
    /// [`Prelude::parse_buffer`] read. Problems about an attribute cover the whole call
    /// until [`Checked::point_at_attributes`] is given the program's text.
    pub fn infer_parsed(&self, parsed: Parsed) -> Checked {
        let Parsed {
            tcx,
            adts,
            module,
            starts,
            offset,
        } = parsed;
        let prelude_globals = module
            .globals()
            .iter()
            .take_while(|g| g.span.lo < offset)
            .count();
        let typed = infer(tcx, &adts, &module);
        let (mut pending, mut errors, mut warnings) = (Vec::new(), Vec::new(), Vec::new());
        let found = self.problems(&starts, typed.errors());
        add_problems(&mut errors, &mut pending, false, found, false);
        // The prelude's warnings are not repeated.
        let found = self.problems(&starts, typed.warnings());
        add_problems(&mut warnings, &mut pending, true, found, true);
        Checked {
            errors,
            warnings,
            typed: Some((module, typed)),
            offset,
            prelude_globals,
            pending,
        }
    }

    /// A problem at `span` of the joined text (sources starting at `starts`), in the
    /// coordinates of the source it is in.
    fn place(&self, starts: &[u32], span: Span, message: String, notes: Vec<String>) -> Problem {
        let (origin, span) = self.locate(starts, span);
        Problem {
            origin,
            span,
            message,
            notes,
            labels: Vec::new(),
            help: None,
        }
    }

    /// The source a span of the joined text is in, and the span in its coordinates.
    fn locate(&self, starts: &[u32], span: Span) -> (Origin, Span) {
        let k = starts.iter().rposition(|&s| s <= span.lo).unwrap_or(0);
        let origin = match self.sources.get(k) {
            Some((name, _)) if k + 1 < starts.len() => Origin::Prelude(name.clone()),
            _ => Origin::User,
        };
        let span = Span {
            lo: span.lo - starts[k],
            hi: span.hi.max(span.lo) - starts[k],
        };
        (origin, span)
    }

    /// `p` with its labels, each placed in its source, and its help.
    fn with_details(
        &self,
        starts: &[u32],
        mut p: Problem,
        labels: &[Label],
        help: &Option<String>,
    ) -> Problem {
        p.labels = labels
            .iter()
            .map(|l| {
                let (origin, span) = self.locate(starts, l.span);
                ProblemLabel {
                    origin,
                    span,
                    message: l.message.clone(),
                }
            })
            .collect();
        p.help.clone_from(help);
        p
    }

    /// The problems of type errors, each with the attribute it is about, if any.
    fn problems(&self, starts: &[u32], list: &[TypeError]) -> Vec<(Problem, Option<Box<str>>)> {
        list.iter()
            .map(|e| {
                let p = self.place(starts, e.span, e.message.clone(), e.notes.clone());
                let p = self.with_details(starts, p, &e.labels, &e.help);
                (p, e.attr.clone())
            })
            .collect()
    }
}

/// Appends `found` (only the program's own with `user_only`) to `list`, the warnings if
/// `warning`, noting in `pending` those about an attribute.
fn add_problems(
    list: &mut Vec<Problem>,
    pending: &mut Vec<PendingAttr>,
    warning: bool,
    found: Vec<(Problem, Option<Box<str>>)>,
    user_only: bool,
) {
    for (p, attr) in found {
        if user_only && p.origin != Origin::User {
            continue;
        }
        pending.extend(attr.map(|attr| PendingAttr {
            warning,
            index: list.len(),
            attr,
        }));
        list.push(p);
    }
}

/// The globals to skip when typing `m` despite the parse `errors`: those whose text (in
/// `defs`, the extent of every `def` item) holds an error, those without a body, and those
/// that use a skipped one (transitively). `None` when an error is outside every
/// definition: in a data type, say, which any definition might use.
fn untouched_by(m: &Module, errors: &[ParseError], defs: &[Span]) -> Option<Vec<bool>> {
    let globals = m.globals();
    let mut skip: Vec<bool> = globals.iter().map(|g| g.func.is_none()).collect();
    // The globals by where their names are (all defined in source order).
    let mut by_place: Vec<(u32, usize)> = globals
        .iter()
        .enumerate()
        .map(|(i, g)| (g.span.lo, i))
        .collect();
    by_place.sort_unstable();
    for e in errors {
        let k = defs.partition_point(|d| d.lo <= e.span.lo);
        let def = defs.get(k.checked_sub(1)?)?;
        if e.span.hi > def.hi {
            return None;
        }
        // The global this `def` defines, if it defines one (a second definition of a
        // name defines none: its body is dropped).
        let j = by_place.partition_point(|&(lo, _)| lo < def.lo);
        if let Some(&(lo, i)) = by_place.get(j) {
            if lo < def.hi {
                skip[i] = true;
            }
        }
    }
    // Who uses whom, then the users of skipped globals, transitively.
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); globals.len()];
    for (i, callees) in m.global_callees().into_iter().enumerate() {
        for h in callees {
            users[h].push(i);
        }
    }
    let mut work: Vec<usize> = (0..globals.len()).filter(|&i| skip[i]).collect();
    while let Some(g) = work.pop() {
        for &u in &users[g] {
            if !skip[u] {
                skip[u] = true;
                work.push(u);
            }
        }
    }
    Some(skip)
}

/// Checks `user_src` with [`PRELUDE`] and `extra_preludes` (named `extra prelude 1`, ...)
/// in scope. A shorthand for [`Prelude::with`] then [`Prelude::check`]; build a
/// [`Prelude`] once to check many programs.
///
/// ```
/// let checked = relay_ops::prelude::check_with_prelude("def @f() { @sum(Nil()) }", &[]);
/// assert_eq!(checked.signatures(), ["@f: fn () -> int32"]);
/// ```
pub fn check_with_prelude(user_src: &str, extra_preludes: &[&str]) -> Checked {
    let names: Vec<String> = (1..=extra_preludes.len())
        .map(|i| format!("extra prelude {i}"))
        .collect();
    let extra: Vec<(&str, &str)> = names
        .iter()
        .map(String::as_str)
        .zip(extra_preludes.iter().copied())
        .collect();
    match Prelude::with(&extra) {
        Ok(p) => p.check(user_src),
        Err(errors) => Checked {
            errors,
            warnings: Vec::new(),
            typed: None,
            offset: 0,
            prelude_globals: 0,
            pending: Vec::new(),
        },
    }
}
