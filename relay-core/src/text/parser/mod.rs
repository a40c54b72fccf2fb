//! The parser of modules in the text format (TVM's Relay 0.0.5 with our extensions).
//!
//! It reads each source item by item in one pass over the tokens. A source that declares
//! data types (`type`, `data`) has them declared first, by a pass over its tokens, so
//! that a definition may use one declared after it; a global mentioned before its
//! definition is resolved at the source's end ([`names`]). After a syntax error the
//! parser skips to the next top-level item and goes on, so that independent errors are
//! all reported.
//!
//! The grammar is one function per production, in files by construct: [`items`],
//! [`expressions`], [`types`], [`patterns`], [`attributes`] and [`literals`], each
//! dispatching on the first token. A construct nested in another is read through a
//! heap-allocated stack ([`expressions`]), so that no native recursion depth follows the
//! nesting of the input; a chain of `let`s is a loop. Name resolution is in [`names`],
//! the fast path for a large program's simple statements and parameters in [`fast`].
//! One line per production, with the function that reads it; types are read by
//! [`crate::ty::parse_type`]'s grammar, which its module lists:
//!
//! ```text
//! module    := version? header? item* metadata?     Parser::module, tvm::version_line, Parser::header
//! item      := def | data | expr_program            Parser::module (dispatch on the first word)
//! def       := 'def' @name fn_header '{' seq '}'    Parser::def
//! data      := ('type' | 'data' | 'extern' 'type') name params? ('{' ctor,* '}')?
//!                                                   Parser::declare_data, data_header, data_body
//! expr_program := (free_var | stmt)* expr           Parser::expr_program, tvm::free_var_decl
//! fn_header := type_params? '(' (param | attr),* ')' ('->' ty)?
//!                                                   Parser::fn_header, Parser::type_params
//! param     := %name ('{' .. '}')? (':' ty)?        Parser::fn_header, tvm::binder
//! seq       := (stmt ';')* expr                     Parser::seq
//! stmt      := 'let' %x (':' ty)? '=' expr | %n '=' expr | expr | free_var
//!                                                   Parser::binding, tvm::line_ended
//! expr      := operand postfix* (binop expr)*       Parser::expr, Parser::infix
//! postfix   := '(' args ')' | '.' index             Parser::postfix
//! args      := expr,* (',' attr,*)?                 Parser::call, Parser::argument, tvm::meta_attrs
//! operand   := %x | @g type_args? | literal | '(' expr,* ')' | '(' seq ')' | '{' seq '}'
//!            | fn | if | match | ref | name | meta  Parser::operand, Parser::paren, Parser::word
//! fn        := 'fn' fn_header '{' seq '}'           Parser::function
//! if        := 'if' '(' expr ')' '{' seq '}' 'else' (if | '{' seq '}')
//!                                                   Parser::if_, Parser::block
//! match     := ('match' | 'match?') expr '{' arm,* '}'
//!                                                   Parser::match_
//! arm       := pattern '=>' seq | 'case' pattern '{' seq '}'
//!                                                   Parser::arm
//! pattern   := '_' | %x (':' ty)? | Ctor ('(' pattern,* ')')? | '(' pattern,* ')'
//!                                                   Parser::pattern
//! ref       := 'ref' '(' expr ')' | 'ref_read' '(' expr ')' | 'ref_write' '(' expr ',' expr ')'
//!                                                   Parser::reference
//! type_args := ('<' ty,* '>' | '[' ty,* ']') '(' args ')'
//!                                                   Parser::type_args_call
//! name      := Ctor | op | x | float_word          Parser::name
//! literal   := '-'? number | string | 'True' | 'False'
//!                                                   Parser::number_literal, Parser::word
//! attr      := name '=' attr_value                  Parser::attrs
//! attr_value := number | string | '[' attr_value,* ']' | name | printed
//!                                                   Parser::attr_value, tvm::printed_value
//! meta      := 'meta' '[' kind ']' '[' n ']'        tvm::meta_reference, tvm::meta_attrs
//! ```
//!
//! TVM's version-specific forms (the `v0.0.1` text, `%input.1` names, values printed for
//! people such as `VirtualDevice(..)`, `free_var`, `meta[..]` and the metadata section)
//! are read in [`tvm`], which the grammar calls where such a form can start.

mod attributes;
mod errors;
mod expressions;
mod fast;
mod items;
mod literals;
mod names;
mod patterns;
mod tvm;
mod types;

use super::{Binding, TypeScope};
use crate::adt::AdtTable;
use crate::diag::Label;
use crate::expr::{ExprId, Module, Span, VarId};
use crate::fold::ParamValue;
use crate::kind::Param;
use crate::lexer::{LexError, Lexer, Tok, Token};
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
        let (labels, help) = (Vec::new(), None);
        ParseError {
            span,
            message,
            labels,
            help,
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
        ParseError::new(e.span, e.message)
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
    let mut p = Parser::new(src, tcx, adts);
    p.m.reserve_for_source(src.len());
    p.module();
    Recovered {
        module: p.m,
        errors: p.errors,
        defs: Vec::new(),
    }
    .into_result()
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
    parse_sources_recovering(sources, tcx, adts).into_result()
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

impl Recovered {
    fn into_result(self) -> Result<Module, Vec<ParseError>> {
        match self.errors.is_empty() {
            true => Ok(self.module),
            false => Err(self.errors),
        }
    }
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
    parse_joined_recovering(joined, lens, tcx, adts).into_result()
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
            p.start = start;
            let items = p.find_items();
            for (k, it) in items.iter().enumerate() {
                if it.kind == ItemKind::Def {
                    let hi = items.get(k + 1).map_or(end as u32, |next| next.lo);
                    defs.push(Span { lo: it.lo, hi });
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
}

/// A top-level item found by the first pass: its kind and its first byte.
#[derive(Copy, Clone, Debug)]
struct Item {
    kind: ItemKind,
    lo: u32,
}

/// The header of a function literal or definition being read ([`Parser::fn_header`]).
#[derive(Default)]
struct FnState {
    type_params: Vec<Param>,
    params: Vec<VarId>,
    /// Its attributes, written after the parameters (`Primitive=1`).
    attrs: Option<Arc<crate::Attrs>>,
    /// The result type, and where the text writes it.
    ret: Option<(Ty, crate::expr::Span)>,
    /// The length of the local shadow log before the parameters were bound.
    mark: usize,
    /// The type names the type parameters shadowed.
    type_restore: Vec<(Box<str>, Option<Binding>)>,
}

struct Parser<'s, 'a> {
    src: &'s str,
    /// The whole text (`src` is the part of it up to the end of the source being read).
    full_src: &'s str,
    /// The offsets of `full_src`'s newlines, found when an error needs a place.
    newlines: std::cell::OnceCell<Vec<u32>>,
    lex: Lexer<'s>,
    /// The current token (not consumed yet).
    tok: Token,
    /// The end of the last consumed token.
    prev_hi: u32,
    /// Whether the source is TVM 0.5's `v0.0.1` text, whose bindings end at the end of
    /// their line instead of at a `;`.
    line_ends_binding: bool,
    tcx: &'a mut TyCtx,
    adts: &'a mut AdtTable,
    m: Module,
    errors: Vec<ParseError>,
    /// The names types may mention (data types, type parameters, symbols).
    scope: TypeScope,
    /// The names in scope ([`names`]).
    names: names::Names<'s>,
    /// The fields and arguments read so far of the tuples and calls being read.
    items_stack: Vec<ExprId>,
    /// The arguments of the `let` being read by the fast path: each local and its span.
    fast_args: Vec<(VarId, Span)>,
    targs: Vec<ParamValue>,
    arms: Vec<crate::expr::Arm>,
    /// In a printed expression, its free variables so far (`free_var`): the parameters
    /// of its `@main`.
    free_vars: Option<Vec<VarId>>,
    binops: [Option<Option<&'static crate::op::OpDef>>; 10],
    /// The data types the source declared.
    declared_here: Vec<crate::ty::Adt>,
    /// The first byte of the source being read ([`parse_sources`]; 0 otherwise).
    start: usize,
    /// The first byte and the name of each source read so far ([`parse_sources`]).
    starts: Vec<(u32, &'s str)>,
    /// The source's top-level items, found when an error needs them to resume.
    items: Option<Vec<Item>>,
    /// Attribute lists by their text: calls written alike share one list.
    attr_lists: FxHashMap<&'s str, Arc<crate::Attrs>>,
    /// The shared operator node read last and where that mention starts.
    last_op: (ExprId, u32),
    /// Types by their text, valid while the type scope has version `type_cache_version`.
    type_cache: FxHashMap<&'s str, Ty>,
    type_cache_version: u64,
    /// Operators and constructors by name, for this source.
    words: FxHashMap<&'s str, Word>,
    /// How many unknown names have been reported (see `Parser::unknown`).
    suggested: usize,
    /// The source's metadata section, read when a reference needs it: `None` before,
    /// then the section if there is one that reads.
    metadata: Option<Option<tvm::Metadata>>,
}

/// What a name in expression position is.
#[derive(Copy, Clone)]
enum Word {
    Ctor(crate::adt::CtorRef),
    /// An operator, and its node once made: every mention in a source shares one (a leaf
    /// with nothing of its own but its operator; a call's span starts at its own mention).
    Op(&'static crate::op::OpDef, Option<ExprId>),
    Unknown,
}

impl<'s, 'a> Parser<'s, 'a> {
    fn new(src: &'s str, tcx: &'a mut TyCtx, adts: &'a mut AdtTable) -> Self {
        let scope = adts.scope();
        Parser {
            src,
            full_src: src,
            newlines: std::cell::OnceCell::new(),
            lex: Lexer::new(src),
            tok: Token {
                kind: Tok::Eof,
                lo: 0,
                hi: 0,
            },
            prev_hi: 0,
            line_ends_binding: false,
            tcx,
            adts,
            m: Module::new(),
            errors: Vec::new(),
            scope,
            names: names::Names::default(),
            items_stack: Vec::new(),
            targs: Vec::new(),
            arms: Vec::new(),
            free_vars: None,
            binops: [None; 10],
            declared_here: Vec::new(),
            start: 0,
            starts: Vec::new(),
            attr_lists: FxHashMap::default(),
            fast_args: Vec::new(),
            items: None,
            last_op: (ExprId(u32::MAX), 0),
            type_cache: FxHashMap::default(),
            type_cache_version: 0,
            words: FxHashMap::default(),
            metadata: None,
            suggested: 0,
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

    /// Moves to byte `end`, past what was read by its bytes.
    fn jump(&mut self, end: usize) -> PResult<()> {
        self.prev_hi = end as u32;
        self.seek(end)
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
        ParseError::new(
            self.tok.span(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    /// `item,* close` after the opening bracket, a trailing comma allowed.
    fn list(&mut self, close: Tok, mut item: impl FnMut(&mut Self) -> PResult<()>) -> PResult<()> {
        while !self.eat(close)? {
            item(self)?;
            if !self.eat(Tok::Comma)? && !self.is(close) {
                return Err(self.expected(match close {
                    Tok::RParen => "`,` or `)`",
                    Tok::RBracket => "`,` or `]`",
                    _ => "`,` or `>`",
                }));
            }
        }
        Ok(())
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
        self.errors.push(ParseError::new(span, message));
    }

    fn span_from(&self, lo: u32) -> Span {
        Span {
            lo,
            hi: self.prev_hi.max(lo),
        }
    }

    /// `line L, column C` of byte `offset` (from 1), counted in its own source, followed
    /// by that source's name if it is not the one being read: by the offsets of the
    /// text's newlines, found once.
    fn place(&self, offset: u32) -> String {
        let starts = self.starts.iter().rev();
        let (lo, name) = starts.copied().find(|s| s.0 <= offset).unwrap_or((0, ""));
        let newlines = self.newlines.get_or_init(|| {
            memchr::memchr_iter(b'\n', self.full_src.as_bytes())
                .map(|i| i as u32)
                .collect()
        });
        let offset = offset.min(self.full_src.len() as u32);
        let before = newlines.partition_point(|&i| i < offset);
        let first = newlines.partition_point(|&i| i < lo);
        let line_start = if before > first {
            newlines[before - 1] + 1
        } else {
            lo
        };
        let here = format!(
            "line {}, column {}",
            before - first + 1,
            offset - line_start + 1
        );
        match lo as usize == self.start || name.is_empty() {
            true => here,
            false => format!("{here} of {name}"),
        }
    }

    // ----- locals -----

    /// A new local from a `%name` token.
    fn new_local(&mut self, t: Token, ann: Option<Ty>) -> VarId {
        let name = &self.text(t)[1..];
        self.m.at(t.span()).var(name, ann)
    }

    /// An expression standing for one that could not be built (after a reported error).
    fn placeholder(&mut self, span: Span) -> ExprId {
        self.m.at(span).tuple(&[])
    }

    /// Forgets the operators and constructors met (the data types in scope change).
    fn forget_words(&mut self) {
        self.words.clear();
        self.last_op = (ExprId(u32::MAX), 0);
    }

    fn reset(&mut self) {
        self.items_stack.clear();
        self.targs.clear();
        self.arms.clear();
        self.free_vars = None;
        self.names.locals.clear();
    }
}
