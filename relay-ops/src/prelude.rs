//! Relay's prelude: its data types (`List`, `Optional`, `Tree`, `nat`) in the spec's
//! notation, and its functions ([`PRELUDE`], TVM's `@map`, `@foldl`, ... in the text
//! format) with [`Prelude`] to check programs with them in scope.

use relay_core::diag::Label;
use relay_core::expr::{GlobalDef, Module, Span};
use relay_core::infer::{infer, infer_skipping, Typed};
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

/// Where a [`Problem`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// In the program being checked: the span indexes into its text.
    User,
    /// In the prelude source of that name: the span indexes into its text.
    Prelude(String),
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
}

impl Checked {
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

    /// `@name: TYPE` for each of the program's globals, in source order.
    pub fn signatures(&self) -> Vec<String> {
        let Some((m, typed)) = &self.typed else {
            return Vec::new();
        };
        self.user_globals()
            .iter()
            .filter_map(|g| {
                let gid = m.global(&g.name)?;
                Some(format!("@{}: {}", g.name, typed.show(typed.global_ty(gid))))
            })
            .collect()
    }
}

impl Prelude {
    /// [`PRELUDE`] alone, checked.
    ///
    /// # Errors
    /// The prelude's own problems (none, unless the registry of data types is broken).
    pub fn standard() -> Result<Self, Vec<Problem>> {
        Self::with(&[])
    }

    /// [`PRELUDE`] and `extra` (`(name, text)` pairs, e.g. a downstream crate's
    /// `include_str!` file) on top of it, in order; each source is checked with the ones
    /// before it in scope.
    ///
    /// # Errors
    /// The problems of the first source that does not check, in its own coordinates; or
    /// a source named like one before it (the prelude is `the prelude`).
    pub fn with(extra: &[(&str, &str)]) -> Result<Self, Vec<Problem>> {
        let mut p = Prelude {
            sources: vec![(PRELUDE_NAME.to_string(), PRELUDE.to_string())],
        };
        for &(name, text) in extra {
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
                let errors = checked.errors.into_iter().map(|mut e| {
                    if e.origin == Origin::User {
                        e.origin = Origin::Prelude(name.to_string());
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
        let user_src = &buf[at..];
        if u32::try_from(buf.len()).is_err() {
            // Positions are 32-bit.
            return Checked {
                errors: vec![Problem {
                    origin: Origin::User,
                    span: Span::default(),
                    message: "the program is 4 GiB or more, larger than the checker addresses"
                        .into(),
                    notes: Vec::new(),
                    labels: Vec::new(),
                    help: None,
                }],
                warnings: Vec::new(),
                typed: None,
                offset,
                prelude_globals: 0,
            };
        }
        let mut all: Vec<(&str, &str)> = self.sources().collect();
        all.push(("the program", user_src));
        // The source a span of the joined text is in, and the span in its coordinates.
        let place = |span: Span| {
            let k = starts.iter().rposition(|&s| s <= span.lo).unwrap_or(0);
            let origin = if k + 1 == all.len() {
                Origin::User
            } else {
                Origin::Prelude(all[k].0.to_string())
            };
            let span = Span {
                lo: span.lo - starts[k],
                hi: span.hi.max(span.lo) - starts[k],
            };
            (origin, span)
        };
        let locate = |span: Span, message: String, notes: Vec<String>| {
            let (origin, span) = place(span);
            Problem {
                origin,
                span,
                message,
                notes,
                labels: Vec::new(),
                help: None,
            }
        };
        let with_details = |mut p: Problem, labels: &[Label], help: &Option<String>| {
            p.labels = labels
                .iter()
                .map(|l| {
                    let (origin, span) = place(l.span);
                    ProblemLabel {
                        origin,
                        span,
                        message: l.message.clone(),
                    }
                })
                .collect();
            p.help.clone_from(help);
            p
        };
        let mut tcx = TyCtx::new();
        let mut adts = match adt::load(&mut tcx) {
            Ok(a) => a,
            Err(e) => {
                return Checked {
                    errors: vec![locate(Span::default(), e.to_string(), Vec::new())],
                    warnings: Vec::new(),
                    typed: None,
                    offset,
                    prelude_globals: 0,
                }
            }
        };
        let problems = |list: &[relay_core::infer::TypeError]| -> Vec<Problem> {
            list.iter()
                .map(|e| {
                    let mut p = locate(e.span, e.message.clone(), e.notes.clone());
                    // An error about an attribute points at it, not at the whole call.
                    if let Some(attr) = &e.attr {
                        let text = match &p.origin {
                            Origin::User => user_src,
                            Origin::Prelude(n) => self.text_of(n),
                        };
                        if let Some(span) = attribute_span(text, p.span, attr) {
                            p.span = span;
                        }
                    }
                    with_details(p, &e.labels, &e.help)
                })
                .collect()
        };
        let lens: Vec<(&str, usize)> = all.iter().map(|&(n, t)| (n, t.len())).collect();
        let Recovered {
            module,
            errors: parse_errors,
            defs,
        } = parse_joined_recovering(buf, &lens, &mut tcx, &mut adts);
        if !parse_errors.is_empty() {
            let mut errors: Vec<Problem> = parse_errors
                .iter()
                .map(|e| {
                    let p = locate(e.span, e.message.clone(), Vec::new());
                    with_details(p, &e.labels, &e.help)
                })
                .collect();
            // The type errors of the definitions the errors do not touch, after them.
            if let Some(skip) = untouched_by(&module, &parse_errors, &defs) {
                let typed = infer_skipping(tcx, &adts, &module, &skip);
                let type_errors = problems(typed.errors());
                errors.extend(type_errors.into_iter().filter(|p| p.origin == Origin::User));
            }
            return Checked {
                errors,
                warnings: Vec::new(),
                typed: None,
                offset,
                prelude_globals: 0,
            };
        }
        let prelude_globals = module
            .globals()
            .iter()
            .take_while(|g| g.span.lo < offset)
            .count();
        let typed = infer(tcx, &adts, &module);
        let errors = problems(typed.errors());
        let warnings = problems(typed.warnings())
            .into_iter()
            .filter(|w| w.origin == Origin::User)
            .collect();
        Checked {
            errors,
            warnings,
            typed: Some((module, typed)),
            offset,
            prelude_globals,
        }
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
        },
    }
}
