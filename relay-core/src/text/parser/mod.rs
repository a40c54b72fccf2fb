//! The parser of modules in the text format (TVM's Relay 0.0.5 with our extensions).
//!
//! It reads in three passes over the tokens, each linear: the first finds the top-level
//! items (`def`, `type`, `data`) and declares every global, so that globals resolve in
//! any order; the second declares the data types of the source and their constructors;
//! the third reads the definitions. Expressions are read by a loop over an explicit stack
//! of frames ([`expr`]), so that no recursion depth follows the nesting of the input.
//! After a syntax error the parser skips to the next top-level item and goes on, so that
//! independent errors are all reported.

mod decl;
mod errors;
mod expr;
mod lit;
mod locals;

use super::lexer::{LexError, Lexer, Tok, Token};
use super::ty_parser::{parse_shape_at, parse_type_at};
use super::{Binding, TypeParseError, TypeScope};
use crate::adt::AdtTable;
use crate::diag::Label;
use crate::expr::{ExprId, Module, Span, VarId};
use crate::fold::ParamValue;
use crate::kind::{Kind, Param};
use crate::ty::{Ty, TyCtx};
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::Arc;

/// A syntax or name-resolution error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The bytes it is about.
    pub span: Span,
    /// What is wrong, and what was expected.
    pub message: String,
    /// Other places that explain it (the first definition of a duplicate).
    pub labels: Vec<Label>,
    /// How to fix it, where that is known (a name it was probably meant to be).
    pub help: Option<String>,
}

impl ParseError {
    /// An error at `span`, without labels or help.
    pub fn new(span: Span, message: String) -> Self {
        ParseError {
            span,
            message,
            labels: Vec::new(),
            help: None,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at bytes {}..{})",
            self.message, self.span.lo, self.span.hi
        )
    }
}

impl std::error::Error for ParseError {}

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        ParseError {
            span: e.span,
            message: e.message,
            labels: Vec::new(),
            help: None,
        }
    }
}

type PResult<T> = Result<T, ParseError>;

/// Parses the module in `src`. Data types declared in the source (`type` or `data`) are
/// added to `tcx` and `adts` unless `adts` already has one of that name (a registered
/// data type, which the source may declare again as the spec's programs do).
///
/// ```
/// use relay_core::text::parse_module;
/// use relay_core::{adt::AdtTable, TyCtx};
/// let mut tcx = TyCtx::new();
/// let mut adts = AdtTable::default();
/// let src = "#[version = \"0.0.5\"]\ndef @id[A](%x: A) -> A { %x }";
/// let m = parse_module(src, &mut tcx, &mut adts).unwrap();
/// assert_eq!(m.globals().len(), 1);
/// let errs = parse_module("def @f() { @g() }", &mut tcx, &mut adts).unwrap_err();
/// assert_eq!(errs[0].message, "unknown global `@g`");
/// ```
pub fn parse_module(
    src: &str,
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Result<Module, Vec<ParseError>> {
    parse_module_with(src, tcx, adts, true)
}

/// [`parse_module`] without the fast path for simple `let`s (for the tests that check it
/// builds what the general loop does).
#[doc(hidden)]
pub fn parse_module_general(
    src: &str,
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Result<Module, Vec<ParseError>> {
    parse_module_with(src, tcx, adts, false)
}

fn parse_module_with(
    src: &str,
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
    fast: bool,
) -> Result<Module, Vec<ParseError>> {
    let mut p = Parser::new(src, tcx, adts);
    p.fast = fast;
    p.m.reserve_for_source(src.len());
    p.module();
    if p.errors.is_empty() {
        Ok(p.m)
    } else {
        Err(p.errors)
    }
}

/// Parses several sources, in order, into one module: a later source sees the globals
/// and data types of the earlier ones (a prelude, then a program). Source `k` is read as
/// if alone (its own version header), but its spans are offset so that every span indexes
/// into `sources.join("\n")` (the texts only, joined by one newline): source `k` starts
/// at byte `len_0 + 1 + ... + len_(k-1) + 1`. A global defined again by a later source
/// shadows the earlier one for that source (the earlier sources keep their own); defined
/// twice in one source, it is an error that names both places, the first with its source's
/// name.
///
/// ```
/// use relay_core::text::parse_sources;
/// use relay_core::{adt::AdtTable, TyCtx};
/// let mut tcx = TyCtx::new();
/// let mut adts = AdtTable::default();
/// let lib = "def @id[A](%x: A) -> A { %x }";
/// let m = parse_sources(&[("lib", lib), ("main", "def @f() { @id(()) }")], &mut tcx, &mut adts)
///     .unwrap();
/// assert_eq!(m.globals().len(), 2);
/// // `main`'s own `@id` shadows `lib`'s for `main`.
/// let m = parse_sources(&[("lib", lib), ("main", "def @id() { () }")], &mut tcx, &mut adts)
///     .unwrap();
/// assert_eq!(m.globals().len(), 2);
/// assert_eq!(m.global("id").unwrap().index(), 1);
/// // Twice in one source is an error naming both places.
/// let twice = "def @g() { () }\ndef @g() { () }";
/// let errs = parse_sources(&[("lib", lib), ("main", twice)], &mut tcx, &mut adts).unwrap_err();
/// assert_eq!(errs[0].message, "`@g` is defined twice: first at line 1, column 5, again at line 2, column 5");
/// ```
pub fn parse_sources(
    sources: &[(&str, &str)],
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Result<Module, Vec<ParseError>> {
    let r = parse_sources_recovering(sources, tcx, adts);
    if r.errors.is_empty() {
        Ok(r.module)
    } else {
        Err(r.errors)
    }
}

/// What [`parse_sources_recovering`] read.
#[derive(Debug)]
pub struct Recovered {
    /// The module, as far as it could be built: a name that does not resolve is an empty
    /// tuple, a definition with a syntax error has no body.
    pub module: Module,
    /// The errors (none if the sources parsed).
    pub errors: Vec<ParseError>,
    /// When there are errors, the bytes of every `def` item: from its `def` to the next
    /// top-level item or the end of its source, in source order. An error in one of them
    /// is that definition's; an error in none is in a data type or between items.
    pub defs: Vec<Span>,
}

/// [`parse_sources`], returning the module read even when there are errors, with them
/// and where each definition is. A definition whose text holds no error is read exactly
/// as without the others, so a checker may type the definitions the errors do not touch
/// (and those that do not use them).
///
/// ```
/// use relay_core::text::parse_sources_recovering;
/// use relay_core::{adt::AdtTable, TyCtx};
/// let (mut tcx, mut adts) = (TyCtx::new(), AdtTable::default());
/// let src = "def @f() { %nope }\ndef @g() { () }";
/// let r = parse_sources_recovering(&[("main", src)], &mut tcx, &mut adts);
/// assert_eq!(r.errors[0].message, "unbound local variable `%nope`");
/// assert!(r.module.globals()[1].func.is_some());
/// let defs: Vec<&str> = r.defs.iter().map(|s| &src[s.lo as usize..s.hi as usize]).collect();
/// assert_eq!(defs, ["def @f() { %nope }\n", "def @g() { () }"]);
/// ```
pub fn parse_sources_recovering(
    sources: &[(&str, &str)],
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Recovered {
    let texts: Vec<&str> = sources.iter().map(|s| s.1).collect();
    let joined = texts.join("\n");
    let lens: Vec<(&str, usize)> = sources.iter().map(|&(n, t)| (n, t.len())).collect();
    parse_joined_recovering(&joined, &lens, tcx, adts)
}

/// [`parse_sources`] over sources already joined by newlines in `joined`, given by name
/// and length in `lens` (a caller that reads a large program straight after its
/// prelude's text saves a copy of it).
///
/// ```
/// use relay_core::text::parse_joined;
/// use relay_core::{adt::AdtTable, TyCtx};
/// let (mut tcx, mut adts) = (TyCtx::new(), AdtTable::default());
/// let lib = "def @id[A](%x: A) -> A { %x }";
/// let main = "def @f() { @id(()) }";
/// let joined = format!("{lib}\n{main}");
/// let m = parse_joined(&joined, &[("lib", lib.len()), ("main", main.len())], &mut tcx, &mut adts)
///     .unwrap();
/// assert_eq!(m.globals().len(), 2);
/// ```
///
/// # Panics
/// If the lengths do not fit in `joined` as described.
pub fn parse_joined(
    joined: &str,
    lens: &[(&str, usize)],
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Result<Module, Vec<ParseError>> {
    let r = parse_joined_recovering(joined, lens, tcx, adts);
    if r.errors.is_empty() {
        Ok(r.module)
    } else {
        Err(r.errors)
    }
}

/// [`parse_joined`], returning the module read even when there are errors, with them
/// (see [`parse_sources_recovering`]).
///
/// # Panics
/// If the lengths do not fit in `joined` as described.
pub fn parse_joined_recovering(
    joined: &str,
    lens: &[(&str, usize)],
    tcx: &mut TyCtx,
    adts: &mut AdtTable,
) -> Recovered {
    let total = lens.iter().map(|l| l.1).sum::<usize>() + lens.len().saturating_sub(1);
    assert!(
        total <= joined.len(),
        "the sources are {total} bytes joined, the text {}",
        joined.len()
    );
    let mut p = Parser::new(joined, tcx, adts);
    p.m.reserve_for_source(joined.len());
    let mut start = 0;
    for &(name, len) in lens {
        let end = start + len;
        p.src = &joined[..end];
        p.lex = Lexer::new(p.src);
        p.start = start;
        p.starts.push((start as u32, name));
        p.module();
        start = end + 1;
    }
    let mut defs = Vec::new();
    if !p.errors.is_empty() {
        // The items again (a pass over the tokens, only when there are errors).
        let mut start = 0;
        for &(_, len) in lens {
            let end = start + len;
            p.src = &joined[..end];
            p.lex = Lexer::new(p.src);
            if p.seek(start).is_ok() {
                let items = p.find_items();
                for (k, it) in items.iter().enumerate() {
                    if it.kind == ItemKind::Def {
                        let hi = items.get(k + 1).map_or(end as u32, |next| next.lo);
                        defs.push(Span { lo: it.lo, hi });
                    }
                }
            }
            start = end + 1;
        }
    }
    Recovered {
        module: p.m,
        errors: p.errors,
        defs,
    }
}

/// What a top-level item is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ItemKind {
    Def,
    Data,
    Other,
}

/// A top-level item found by the first pass: its kind and its first byte.
#[derive(Copy, Clone, Debug)]
struct Item {
    kind: ItemKind,
    lo: u32,
}

/// The state of a function literal or definition being read.
struct FnState {
    type_params: Vec<Param>,
    params: Vec<VarId>,
    ret: Option<Ty>,
    /// The length of the local shadow log before the parameters were bound.
    mark: usize,
    /// The type names the type parameters shadowed.
    type_restore: Vec<(Box<str>, Option<Binding>)>,
}

struct Parser<'s, 'a> {
    src: &'s str,
    lex: Lexer<'s>,
    /// The current token (not consumed yet).
    tok: Token,
    /// The end of the last consumed token.
    prev_hi: u32,
    tcx: &'a mut TyCtx,
    adts: &'a mut AdtTable,
    m: Module,
    errors: Vec<ParseError>,
    /// The names types may mention (data types, type parameters, symbols).
    scope: TypeScope,
    locals: locals::Locals,
    // The shared stacks of the expression machine.
    frames: Vec<expr::Frame>,
    items_stack: Vec<ExprId>,
    /// Whether simple `let`s are read by the fast path.
    fast: bool,
    /// The arguments of the `let` being read by the fast path: each local and its span.
    fast_args: Vec<(VarId, Span)>,
    targs: Vec<ParamValue>,
    arms: Vec<crate::expr::Arm>,
    fns: Vec<FnState>,
    binops: [Option<Option<&'static crate::op::OpDef>>; 10],
    /// The data types the source declared.
    declared_here: Vec<crate::ty::Adt>,
    /// The first byte of the source being read ([`parse_sources`]; 0 otherwise).
    start: usize,
    /// The first byte and the name of each source read so far ([`parse_sources`]).
    starts: Vec<(u32, &'s str)>,
    /// Attribute lists by their text: calls written alike share one list.
    attr_lists: FxHashMap<&'s str, Arc<crate::Attrs>>,
    /// The shared operator node read last and where that mention starts.
    last_op: (ExprId, u32),
    /// Types by their text, valid while the type scope has version `type_cache_version`.
    type_cache: FxHashMap<&'s str, Ty>,
    type_cache_version: u64,
    /// Types of the cache met last as parameters' (a model has a few kinds of weights),
    /// each with its first sixteen bytes, searched in turn; the next one to replace.
    param_types: [Option<ParamType<'s>>; PARAM_TYPES],
    param_next: usize,
    /// Operators and constructors by name, for this source.
    words: FxHashMap<&'s str, Word>,
    /// Operator nodes of `words` by their names' length and first and last eight bytes.
    op_nodes: [Option<(NameKey, ExprId)>; 16],
    /// Whether the definition being read is read alone ([`Parser::first_def_alone`]).
    alone: bool,
    /// Where the last definition's body starts (its `{`).
    body_lo: u32,
}

/// The bytes that matter inside a body: braces, and what starts a string or a comment.
#[cfg(test)]
const IN_BODY_BYTES: &[u8] = b"{}\"/#";
/// The words that matter outside bodies, besides those bytes.
const ITEM_WORDS: [&str; 3] = ["def", "type", "data"];

/// Finds the next place that matters to [`Parser::find_items`]: inside a body, a brace or
/// what starts a string or a comment ([`IN_BODY_BYTES`]); outside, also `def`, `type` or
/// `data` (within a word, too: the caller checks). `memchr`'s vectorized searches, in
/// groups: `{`, `}` or `"`; `/` or `#`; and each word. Each group's search is remembered
/// until passed, so a body without comments is searched for them once. The groups search
/// a window of [`SCAN_WINDOW`] bytes at a time, one after the other: a large program's
/// text is read from memory once for all of them, not once for each. (The words, not
/// their first letters: a definition's parameter list, long for a model's weights, has a
/// `t` in every `float32`.)
struct ItemScan {
    /// Per group, the first match in its last searched window, or `usize::MAX` for none.
    hit: [usize; GROUPS],
    /// Per group, how far its last search holds: the end of that window, less the
    /// length of its word but one (a word across the window's end is found by the next
    /// window). 0 before the first search. A group's search holds for `i` while
    /// `hit >= i` and `end > i` (`i` only grows).
    end: [usize; GROUPS],
    words: [memchr::memmem::Finder<'static>; 3],
}

impl Default for ItemScan {
    fn default() -> Self {
        ItemScan {
            hit: [0; GROUPS],
            end: [0; GROUPS],
            words: ITEM_WORDS.map(memchr::memmem::Finder::new),
        }
    }
}

/// [`ItemScan`]'s groups: two of bytes, then a word each.
const GROUPS: usize = 2 + ITEM_WORDS.len();

/// The bytes a group searches at a time: well within the second-level cache.
const SCAN_WINDOW: usize = 1 << 15;

impl ItemScan {
    fn next(&mut self, b: &[u8], mut i: usize, at_top: bool) -> Option<usize> {
        let groups = if at_top { GROUPS } else { 2 };
        loop {
            // The first match of any group, and how far every group without one has
            // searched.
            let mut best = usize::MAX;
            let mut horizon = usize::MAX;
            for g in 0..groups {
                if self.hit[g] < i || self.end[g] <= i {
                    let end = b.len().min(i.saturating_add(SCAN_WINDOW));
                    let s = &b[i..end];
                    let (found, overlap) = match g {
                        0 => (memchr::memchr3(b'{', b'}', b'"', s), 0),
                        1 => (memchr::memchr2(b'/', b'#', s), 0),
                        _ => {
                            let w = &self.words[g - 2];
                            (w.find(s), w.needle().len() - 1)
                        }
                    };
                    self.hit[g] = found.map_or(usize::MAX, |k| i + k);
                    self.end[g] = if end == b.len() {
                        end
                    } else {
                        // (A window is longer than any word.)
                        end - overlap
                    };
                }
                best = best.min(self.hit[g]);
                if self.hit[g] == usize::MAX {
                    horizon = horizon.min(self.end[g]);
                }
            }
            if best < horizon {
                return Some(best);
            }
            if horizon >= b.len() {
                return None;
            }
            i = horizon;
        }
    }
}

/// How many parameter types [`Parser::simple_params`] keeps at hand.
const PARAM_TYPES: usize = 8;

/// A parameter type kept at hand: the first sixteen bytes of its text, its text, the type.
type ParamType<'s> = ((u64, u64), &'s str, Ty);

/// The end of the name starting at `i`, with `.` inside where a letter follows it.
fn dotted_name_end(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i + 1 < b.len() && b[i] == b'.' && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') {
            i += 1;
        } else {
            return i;
        }
    }
}

/// A name of up to sixteen bytes, exactly: its first and last eight bytes (overlapping,
/// or the first word masked to a shorter name's bytes) and its length.
type NameKey = (u64, u64, u8);

/// What a name in expression position is.
#[derive(Copy, Clone)]
enum Word {
    Ctor(crate::adt::CtorRef),
    /// An operator, and its node once made: every mention in a source shares one (a leaf
    /// with nothing of its own but its operator; a call's span starts at its own mention).
    Op(&'static crate::op::OpDef, Option<ExprId>),
    Unknown,
}

/// The text of the type starting at `lo`, as far as a quick scan can tell: up to a `,`,
/// `)`, `]`, `{`, `;` or `=` outside brackets, trailing blanks excluded (and short of any
/// comment). Only a key: the type parser decides where the type really ends.
fn type_text(src: &str, lo: usize) -> &str {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = lo;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' if depth > 0 => depth -= 1,
            b')' | b']' | b',' | b'{' | b';' | b'=' | b'/' | b'#' if depth == 0 => break,
            b'/' | b'#' | b'"' => break,
            _ => {}
        }
        i += 1;
    }
    while i > lo && b[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    &src[lo..i]
}

/// The offset just past the name or the single byte at `offset`, for an error's span.
fn word_end(src: &str, offset: usize) -> usize {
    let b = src.as_bytes();
    let mut end = offset;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b'.') {
        end += 1;
    }
    if end == offset {
        end = (offset + 1).min(b.len());
    }
    end
}

/// `line L, column C` of byte `offset` (both from 1).
fn line_col(src: &str, offset: u32) -> String {
    let before = &src.as_bytes()[..(offset as usize).min(src.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&c| c != b'\n').count() + 1;
    format!("line {line}, column {col}")
}

impl<'s, 'a> Parser<'s, 'a> {
    fn new(src: &'s str, tcx: &'a mut TyCtx, adts: &'a mut AdtTable) -> Self {
        let scope = adts.scope();
        Parser {
            src,
            lex: Lexer::new(src),
            tok: Token {
                kind: Tok::Eof,
                lo: 0,
                hi: 0,
            },
            prev_hi: 0,
            tcx,
            adts,
            m: Module::new(),
            errors: Vec::new(),
            scope,
            locals: locals::Locals::default(),
            frames: Vec::new(),
            items_stack: Vec::new(),
            fast: true,
            fast_args: Vec::new(),
            targs: Vec::new(),
            arms: Vec::new(),
            fns: Vec::new(),
            binops: [None; 10],
            declared_here: Vec::new(),
            start: 0,
            starts: Vec::new(),
            attr_lists: FxHashMap::default(),
            last_op: (ExprId(u32::MAX), 0),
            alone: false,
            body_lo: 0,
            type_cache: FxHashMap::default(),
            type_cache_version: 0,
            param_types: [None; PARAM_TYPES],
            param_next: 0,
            words: FxHashMap::default(),
            op_nodes: [None; 16],
        }
    }

    // ----- tokens -----

    /// The text of token `t`.
    fn text(&self, t: Token) -> &'s str {
        &self.src[t.lo as usize..t.hi as usize]
    }

    /// Moves to byte `pos` and reads the token there.
    fn seek(&mut self, pos: usize) -> PResult<()> {
        self.lex.seek(pos);
        self.tok = self.next_tok()?;
        Ok(())
    }

    /// The lexer's next token.
    #[inline]
    fn next_tok(&mut self) -> PResult<Token> {
        let t = self.lex.advance();
        if t.kind == Tok::Error {
            return Err(self.lex.error().into());
        }
        Ok(t)
    }

    /// Consumes the current token and returns it.
    fn bump(&mut self) -> PResult<Token> {
        let t = self.tok;
        self.prev_hi = t.hi;
        self.tok = self.next_tok()?;
        Ok(t)
    }

    /// The token after the current one.
    fn peek2(&self) -> PResult<Token> {
        let mut l = self.lex;
        Ok(l.next_token()?)
    }

    fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    fn is_word(&self, w: &str) -> bool {
        self.tok.kind == Tok::Ident && self.text(self.tok) == w
    }

    fn eat(&mut self, k: Tok) -> PResult<bool> {
        if self.is(k) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// The current token as an error message names it.
    fn found(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "the end of the text".to_string(),
            _ => {
                let t = self.text(self.tok);
                if t.len() > 24 {
                    let cut = (0..=24).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                    format!("`{}...`", &t[..cut])
                } else {
                    format!("`{t}`")
                }
            }
        }
    }

    /// An error at the current token: expected `what`, found it.
    #[cold]
    fn expected(&self, what: &str) -> ParseError {
        ParseError {
            span: self.tok.span(),
            message: format!("expected {what}, found {}", self.found()),
            labels: Vec::new(),
            help: None,
        }
    }

    fn expect(&mut self, k: Tok, what: &str) -> PResult<Token> {
        if self.is(k) {
            self.bump()
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_word(&mut self, w: &str) -> PResult<Token> {
        if self.is_word(w) {
            self.bump()
        } else {
            Err(self.expected(&format!("`{w}`")))
        }
    }

    fn error(&mut self, span: Span, message: String) {
        self.errors.push(ParseError {
            span,
            message,
            labels: Vec::new(),
            help: None,
        });
    }

    fn span_from(&self, lo: u32) -> Span {
        Span {
            lo,
            hi: self.prev_hi.max(lo),
        }
    }

    /// `line L, column C` of byte `offset`, counted in its own source, followed by that
    /// source's name if it is not the one being read.
    fn place(&self, offset: u32) -> String {
        let Some(&(lo, name)) = self.starts.iter().rev().find(|(lo, _)| *lo <= offset) else {
            return line_col(self.src, offset);
        };
        let here = line_col(&self.src[lo as usize..], offset - lo);
        if lo as usize == self.start {
            here
        } else {
            format!("{here} of {name}")
        }
    }

    // ----- types -----

    fn type_error(&self, e: TypeParseError) -> ParseError {
        let hi = word_end(self.src, e.offset);
        ParseError {
            span: Span {
                lo: e.offset as u32,
                hi: hi as u32,
            },
            message: e.message,
            labels: Vec::new(),
            help: e.help,
        }
    }

    /// The type that starts at the current token.
    fn ty(&mut self) -> PResult<Ty> {
        if self.is(Tok::Eof) {
            return Err(self.expected("a type"));
        }
        let lo = self.tok.lo as usize;
        // The same text in the same scope is the same type: parameters of one type (a
        // model's weights) are read once.
        let text = type_text(self.src, lo);
        if self.type_cache_version != self.scope.version() {
            self.type_cache.clear();
            self.param_types = [None; PARAM_TYPES];
            self.type_cache_version = self.scope.version();
        }
        if let Some(&t) = self.type_cache.get(text) {
            let end = lo + text.len();
            self.prev_hi = end as u32;
            self.seek(end)?;
            return Ok(t);
        }
        let (t, end) = parse_type_at(self.tcx, &mut self.scope, self.src, lo)
            .map_err(|e| self.type_error(e))?;
        if end == lo + text.len() && self.scope.version() == self.type_cache_version {
            self.type_cache.insert(text, t);
        }
        self.prev_hi = end as u32;
        self.seek(end)?;
        Ok(t)
    }

    /// A type argument at a call: a shape (`(10, n)`, a shape parameter) or a type.
    fn type_arg(&mut self) -> PResult<ParamValue> {
        let at = self.tok.lo as usize;
        if let Ok((s, end)) = parse_shape_at(self.tcx, &mut self.scope, self.src, at) {
            self.prev_hi = end as u32;
            self.seek(end)?;
            return Ok(ParamValue::Shape(s));
        }
        Ok(ParamValue::Ty(self.ty()?))
    }

    /// Optional type parameters `[A, s: Shape]` (or the spec's `<a>`), bound in the type
    /// scope; returns them and what their names shadowed.
    #[allow(clippy::type_complexity)]
    fn type_params(&mut self) -> PResult<(Vec<Param>, Vec<(Box<str>, Option<Binding>)>)> {
        let mut params = Vec::new();
        let mut restore = Vec::new();
        let close = if self.eat(Tok::LBracket)? {
            Tok::RBracket
        } else if self.eat(Tok::Lt)? {
            Tok::Gt
        } else {
            return Ok((params, restore));
        };
        let closer = if close == Tok::Gt { "`>`" } else { "`]`" };
        while !self.eat(close)? {
            let name = self.expect(Tok::Ident, "a type parameter")?;
            let kind = if self.eat(Tok::Colon)? {
                let k = self.expect(Tok::Ident, "a kind")?;
                Kind::from_name(self.text(k)).ok_or_else(|| ParseError {
                    span: k.span(),
                    message: format!(
                        "unknown kind `{}`: expected `Type`, `BaseType`, `Shape` or `ShapeVar`",
                        self.text(k)
                    ),
                    labels: Vec::new(),
                    help: None,
                })?
            } else {
                Kind::Type
            };
            let n = self.text(name);
            if restore.iter().any(|(r, _): &(Box<str>, _)| &**r == n) {
                return Err(ParseError {
                    span: name.span(),
                    message: format!("type parameter `{n}` is declared twice"),
                    labels: Vec::new(),
                    help: None,
                });
            }
            let p = self.tcx.param(n, kind);
            params.push(p);
            let prev = self.scope.bind(n, Binding::Param(p));
            restore.push((n.into(), prev));
            if !self.eat(Tok::Comma)? && !self.is(close) {
                return Err(self.expected(&format!("`,` or {closer}")));
            }
        }
        Ok((params, restore))
    }

    fn restore_types(&mut self, restore: Vec<(Box<str>, Option<Binding>)>) {
        for (name, prev) in restore.into_iter().rev() {
            self.scope.unbind(&name, prev);
        }
    }

    // ----- locals -----

    /// Binds local `v` under its own name.
    fn bind_local(&mut self, v: VarId) {
        self.locals.bind(&self.m, v);
    }

    fn unbind_locals(&mut self, mark: usize) {
        self.locals.unbind_to(&self.m, mark);
    }

    /// A new local from a `%name` token.
    fn new_local(&mut self, t: Token, ann: Option<Ty>) -> VarId {
        let name = &self.text(t)[1..];
        self.m.at(t.span()).var(name, ann)
    }

    /// An expression standing for one that could not be built (after a reported error).
    fn placeholder(&mut self, span: Span) -> ExprId {
        self.m.at(span).tuple(&[])
    }

    // ----- the module -----

    fn module(&mut self) {
        if let Err(e) = self.seek(self.start) {
            self.errors.push(e);
            return;
        }
        if self.is(Tok::Hash) {
            if let Err(e) = self.header() {
                self.errors.push(e);
            }
        }
        let mut items = None;
        if self.fast && self.is_word("def") {
            items = self.first_def_alone();
        }
        let items = items.unwrap_or_else(|| self.find_items());
        self.declare_globals(&items);
        let start = self.tok.lo as usize;
        self.declare_data(&items);
        self.forget_words();
        if let Err(e) = self.seek(start) {
            self.errors.push(e);
            return;
        }
        let base = self.scope.clone();
        while !self.is(Tok::Eof) {
            let lo = self.tok.lo;
            let here = items
                .binary_search_by_key(&lo, |it| it.lo)
                .ok()
                .map(|i| items[i].kind);
            let result = match here {
                Some(ItemKind::Def) => {
                    self.scope = base.clone();
                    self.def()
                }
                // Read by the second pass: skip it.
                Some(_) => Ok(false),
                None if self.is_word("free_var") => Err(self.free_var()),
                None if self.is(Tok::Hash)
                    && self.src[self.tok.hi as usize..].starts_with("[metadata]") =>
                {
                    // TVM's metadata section, the rest of the text: one error, then done.
                    let span = self.tok.span();
                    let mut e = ParseError::new(
                        Span {
                            lo: span.lo,
                            hi: span.lo + "#[metadata]".len() as u32,
                        },
                        "a metadata section (`#[metadata]`) is not supported".to_string(),
                    );
                    e.help =
                        Some("write the constants it holds as values or parameters".to_string());
                    self.errors.push(e);
                    return;
                }
                None => Err(self.expected("`def`, `type` or `data`")),
            };
            self.reset();
            let resume = match result {
                Ok(true) => continue,
                Ok(false) => true,
                Err(e) => {
                    self.errors.push(e);
                    true
                }
            };
            if resume {
                // Go on at the next item.
                let next = items
                    .iter()
                    .find(|it| it.lo > lo)
                    .map_or(self.src.len(), |it| it.lo as usize);
                if let Err(e) = self.seek(next) {
                    self.errors.push(e);
                    return;
                }
            }
        }
    }

    /// A source that starts with a definition (a model: one `def @main` of a million
    /// statements) has it read before the first pass, which then searches only the text
    /// after it: a large program's text is not read from memory twice. The definition is
    /// declared first, as the first pass would declare it, and read as the usual order
    /// reads it, with the data types of the earlier sources in scope. It is kept, and the
    /// items after it returned, if the first pass would have found nothing else in its
    /// header, nothing it reads depends on what comes after it: no global mentioned (a
    /// later definition may be that global, or shadow an earlier source's: the reading
    /// stops there), no error (an unknown name may be declared later; and a recovery
    /// needs the first pass), no data type declared after it (its constructors would
    /// change what names mean). Otherwise the module is put back as it was, and the
    /// source is read in the usual order.
    fn first_def_alone(&mut self) -> Option<Vec<Item>> {
        let lo = self.tok.lo;
        let name = self.def_name(lo as usize)?;
        let n = &self.text(name)[1..];
        // A global of an earlier source, which this one shadows; or a module so large
        // already that copying it (to put it back) is not worth it: the usual order.
        // (A copy costs at most what this source will add: many sources cost a copy
        // each of what they add, not of all before them.)
        if self.m.global(n).is_some() || self.m.sizes().0 > (self.src.len() - self.start) / 16 {
            return None;
        }
        let (module, errors, scope) = (self.m.clone(), self.errors.len(), self.scope.clone());
        self.m
            .at(name.span())
            .declare(n)
            .expect("a name not declared yet");
        self.scope = self.adts.scope();
        self.forget_words();
        self.alone = true;
        let read = self.def();
        self.alone = false;
        self.reset();
        if read.is_ok() && self.errors.len() == errors {
            let header = self.items_in(lo as usize, self.body_lo as usize);
            let rest = self.find_items();
            if header.len() == 1 && rest.iter().all(|it| it.kind != ItemKind::Data) {
                return Some(rest);
            }
        }
        // Back to before the definition.
        self.m = module;
        self.m.reserve_for_source(self.src.len() - self.start);
        self.errors.truncate(errors);
        self.scope = scope;
        self.forget_words();
        self.attr_lists.clear();
        self.last_op = (ExprId(u32::MAX), 0);
        if let Err(e) = self.seek(lo as usize) {
            self.errors.push(e);
        }
        None
    }

    /// The global `@name` after the `def` at `lo`, if that is what follows it.
    fn def_name(&self, lo: usize) -> Option<Token> {
        let mut lex = self.lex;
        lex.seek(lo);
        match (lex.next_token(), lex.next_token()) {
            (Ok(_), Ok(t)) if t.kind == Tok::Global => Some(t),
            _ => None,
        }
    }

    /// Forgets the operators and constructors met (the data types in scope change, or
    /// the module is put back).
    fn forget_words(&mut self) {
        self.words.clear();
        self.op_nodes = [None; 16];
    }

    fn reset(&mut self) {
        self.frames.clear();
        self.items_stack.clear();
        self.targs.clear();
        self.arms.clear();
        self.fns.clear();
        self.locals.clear();
    }

    /// `#[version = "0.0.5"]`.
    fn header(&mut self) -> PResult<()> {
        self.bump()?;
        self.expect(Tok::LBracket, "`[`")?;
        self.expect_word("version")?;
        self.expect(Tok::Eq, "`=`")?;
        let v = self.expect(Tok::Str, "a version string")?;
        if self.text(v) != "\"0.0.5\"" {
            self.error(
                v.span(),
                format!("unsupported version {}: expected `\"0.0.5\"`", self.text(v)),
            );
        }
        self.expect(Tok::RBracket, "`]`")?;
        Ok(())
    }

    /// The first pass: every `def`, `type` and `data` outside braces, from the current
    /// token on.
    fn find_items(&self) -> Vec<Item> {
        #[cfg(test)]
        tests::FIRST_PASS_FROM.with(|f| f.set(Some(self.tok.lo)));
        self.items_in(self.tok.lo as usize, self.src.len())
    }

    /// The first pass over `lo..hi` of the text, from outside every body.
    fn items_in(&self, lo: usize, hi: usize) -> Vec<Item> {
        // A scan of the bytes, not of tokens: only braces, strings, comments and the
        // words at depth 0 matter, and the bodies (most of a program) are skipped fast.
        let b = &self.src.as_bytes()[..hi];
        let mut items = Vec::new();
        let mut depth = 0usize;
        let mut i = lo;
        let mut scan = ItemScan::default();
        while i < b.len() {
            // On to the next place that matters: inside a body, braces and what starts a
            // string or a comment; outside, also the item words.
            let next = scan.next(b, i, depth == 0);
            match next {
                Some(k) => i = k,
                None => break,
            }
            let c = b[i];
            match c {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                b'"' => {
                    // To the closing quote or the end of the line, as the lexer reads it.
                    i += 1;
                    while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'#' if b.get(i + 1) != Some(&b'[') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                        i += 1;
                    }
                    i += 1;
                }
                b'd' | b't' if depth == 0 => {
                    // A word of its own (not inside a name, a number, or the name after
                    // `%`, `@` or `.`), to its end, dotted names included.
                    let lo = i;
                    let own = lo == 0
                        || !(b[lo - 1].is_ascii_alphanumeric()
                            || matches!(b[lo - 1], b'_' | b'%' | b'@' | b'.'));
                    i = dotted_name_end(b, lo);
                    let kind = match &b[lo..i] {
                        b"def" => ItemKind::Def,
                        b"type" | b"data" => ItemKind::Data,
                        _ => ItemKind::Other,
                    };
                    if own && kind != ItemKind::Other {
                        items.push(Item {
                            kind,
                            lo: lo as u32,
                        });
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        items
    }

    /// Declares every `def @name` in source order; a second definition is an error.
    fn declare_globals(&mut self, items: &[Item]) {
        for it in items.iter().filter(|it| it.kind == ItemKind::Def) {
            let Some(name) = self.def_name(it.lo as usize) else {
                continue;
            };
            let n = &self.text(name)[1..];
            // A global of an earlier source (the prelude) is shadowed for this one.
            if let Some(g) = self.m.global(n) {
                if (self.m.global_def(g).span.lo as usize) < self.start {
                    self.m.at(name.span()).shadow(n);
                    continue;
                }
            }
            if let Err(dup) = self.m.at(name.span()).declare(n) {
                let message = format!(
                    "`@{n}` is defined twice: first at {}, again at {}",
                    self.place(dup.first.lo),
                    self.place(name.lo)
                );
                let mut e = ParseError::new(name.span(), message);
                e.labels
                    .push(Label::new(dup.first, format!("`@{n}` first defined here")));
                e.help = Some(format!("rename one of the two definitions of `@{n}`"));
                self.errors.push(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ItemScan, IN_BODY_BYTES, ITEM_WORDS, SCAN_WINDOW};
    use std::cell::Cell;

    thread_local! {
        /// Where the last first pass started.
        pub(super) static FIRST_PASS_FROM: Cell<Option<u32>> = const { Cell::new(None) };
    }

    /// The first pass of a source that starts with a definition read alone searches only
    /// the text after it; when the definition must be read again, the whole source.
    #[test]
    fn the_first_pass_starts_after_a_first_definition_kept() {
        let mut tcx = crate::TyCtx::new();
        let mut adts = crate::adt::AdtTable::default();
        let mut from = |src: &str| {
            super::parse_module(src, &mut tcx, &mut adts).expect("parses");
            FIRST_PASS_FROM.with(Cell::take)
        };
        let kept = "#[version = \"0.0.5\"]\ndef @main(%x: int32) -> int32 { %x }\ndef @g() { () }";
        let second = kept.find("def @g").unwrap() as u32;
        assert_eq!(from(kept), Some(second));
        let again = "def @main() { @g() }\ndef @g() { () }";
        assert_eq!(from(again), Some(0));
        let alone = "def @main(%x: int32) -> int32 { %x }";
        assert_eq!(from(alone), Some(alone.len() as u32));
    }

    /// The grouped scan finds what a byte-at-a-time one does, wherever the bytes and
    /// words that matter fall, one scanner reused from position to position as
    /// `find_items` uses it (forward, switching between inside and outside bodies).
    #[test]
    fn the_grouped_scan_agrees_with_the_byte_scan() {
        let alphabet = b"{}\"/#|z.0 \n\x7f\x80\xff-[]azdtecusfyp";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut words_found = 0;
        for len in 0..40 {
            for _ in 0..400 {
                let mut text: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                // Now and then a word at a random place.
                if len >= 4 && seed.is_multiple_of(2) {
                    let w = ITEM_WORDS[(seed / 2 % 3) as usize].as_bytes();
                    let at = (seed / 8) as usize % (len - w.len() + 1);
                    text[at..at + w.len()].copy_from_slice(w);
                }
                let mut scan = ItemScan::default();
                for start in 0..=len {
                    let at_top = seed.is_multiple_of(3);
                    let matters = |k: usize| {
                        IN_BODY_BYTES.contains(&text[k])
                            || at_top
                                && ITEM_WORDS
                                    .iter()
                                    .any(|w| text[k..].starts_with(w.as_bytes()))
                    };
                    let naive = (start..len).find(|&k| matters(k));
                    let found = scan.next(&text, start, at_top);
                    assert_eq!(found, naive, "{text:?} from {start}");
                    words_found +=
                        usize::from(found.is_some_and(|k| !IN_BODY_BYTES.contains(&text[k])));
                    seed = seed.rotate_left(7) ^ 0x9e37_79b9;
                }
            }
        }
        assert!(words_found > 1000, "{words_found}");
    }

    /// A word across the end of a window is found (by the next window).
    #[test]
    fn a_word_across_windows_is_found() {
        for w in ITEM_WORDS {
            for at in SCAN_WINDOW - 5..SCAN_WINDOW + 2 {
                let text = format!("{}{w} {}", "x".repeat(at), "x".repeat(SCAN_WINDOW));
                assert_eq!(ItemScan::default().next(text.as_bytes(), 0, true), Some(at));
            }
        }
    }
}
