//! The errors of names the parser cannot resolve (with "did you mean" help) and of the
//! forms of TVM's text it does not read (`free_var`, `meta[...]`), kept out of the paths
//! that read well-formed text.

use super::expr::Mode;
use super::{PResult, ParseError, Parser};
use crate::expr::{ExprId, Span};
use crate::lexer::{Tok, Token};
use crate::registry::Unknown;

/// How many unknown names of a parse get a "did you mean" (more are not shown).
const MAX_SUGGESTED: usize = 50;

impl Parser<'_, '_> {
    /// Reports `message` about the unknown name `name` at `span`, with the closest of
    /// `candidates` (written with `sigil` before it) as help.
    #[cold]
    pub(super) fn unknown_name<'c>(
        &mut self,
        span: Span,
        message: String,
        name: &str,
        sigil: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) {
        let mut e = ParseError::new(span, message);
        e.help = crate::diag::did_you_mean(name, candidates)
            .map(|c| format!("did you mean `{sigil}{c}`?"));
        self.errors.push(e);
    }

    /// Whether an unknown name still gets a "did you mean": the first
    /// [`MAX_SUGGESTED`] of a parse do (no more are shown), so that a thousand unknown
    /// names do not each go over every name in scope.
    fn suggests(&mut self) -> bool {
        self.suggested += 1;
        self.suggested <= MAX_SUGGESTED
    }

    /// An unknown name without a suggestion ([`Parser::suggests`]).
    fn unknown_plain(&mut self, span: Span, message: String) -> ExprId {
        self.errors.push(ParseError::new(span, message));
        self.placeholder(span)
    }

    /// [`Parser::unknown_name`] for a name of the registry (an operator, a data type or
    /// a constructor, as `what` says): when the registry seems to lack the crate that
    /// declares it, the help says how to link the crate instead
    /// ([`registry::link_hint`]).
    #[cold]
    pub(super) fn unknown_registered<'c>(
        &mut self,
        span: Span,
        message: String,
        name: &str,
        what: Unknown,
        candidates: impl IntoIterator<Item = &'c str>,
    ) {
        match self.adts.link_hint(what, name) {
            Some(hint) => {
                let mut e = ParseError::new(span, message);
                e.help = Some(hint);
                self.errors.push(e);
            }
            None => self.unknown_name(span, message, name, "", candidates),
        }
    }

    /// The error for a `free_var %x: T;` declaration (TVM prints one for each free
    /// variable of an expression), which this format does not read: a module's variables
    /// are the parameters of its definitions.
    #[cold]
    pub(super) fn free_var(&self) -> ParseError {
        let mut lex = self.lex;
        let name = match lex.next_token() {
            Ok(t) if t.kind == Tok::Local => format!(" `{}`", self.text(t)),
            _ => String::new(),
        };
        let mut e = ParseError::new(
            self.tok.span(),
            format!("free variables are not supported: `free_var`{name} declares one"),
        );
        e.help = Some(format!(
            "make{} a parameter of a `def` instead",
            if name.is_empty() { " it" } else { &name }
        ));
        e
    }

    /// Reports the `%name` token `t` that no binding in scope names; a placeholder for it.
    #[cold]
    pub(super) fn unbound_local(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unbound local variable `%{name}`");
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let names: Vec<String> = self
            .locals
            .names(&self.m)
            .into_iter()
            .map(str::to_string)
            .collect();
        self.unknown_name(
            t.span(),
            message,
            name,
            "%",
            names.iter().map(String::as_str),
        );
        self.placeholder(t.span())
    }

    /// Reports the `@name` token `t` that no global names; a placeholder for it.
    #[cold]
    pub(super) fn unknown_global(&mut self, t: Token) -> ExprId {
        let name = &self.text(t)[1..];
        let message = format!("unknown global `@{name}`");
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let globals: Vec<String> = self
            .m
            .globals()
            .iter()
            .map(|g| g.name.to_string())
            .collect();
        self.unknown_name(
            t.span(),
            message,
            name,
            "@",
            globals.iter().map(String::as_str),
        );
        self.placeholder(t.span())
    }

    /// Reports the bare name `t` that is no constructor, operator or variable; a
    /// placeholder for it.
    #[cold]
    pub(super) fn unknown_word(&mut self, t: Token) -> ExprId {
        let name = self.text(t);
        let (what, unknown) = if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            ("constructor", Unknown::Constructor)
        } else {
            ("operator", Unknown::Operator)
        };
        let message = format!("unknown {what} `{name}`");
        if !self.suggests() {
            return self.unknown_plain(t.span(), message);
        }
        let mut names: Vec<String> = self.adts.ctor_names().map(str::to_string).collect();
        let ops = self.adts.registry().map_or(&[][..], |r| r.ops());
        names.extend(ops.iter().map(|op| op.name.to_string()));
        self.unknown_registered(
            t.span(),
            message,
            name,
            unknown,
            names.iter().map(String::as_str),
        );
        self.placeholder(t.span())
    }

    /// `meta[relay.Constant][0]`: a constant of TVM's metadata section, typed by its
    /// tensor in the section (its data type and shape), else by the `/* ty=T */` comment
    /// TVM prints right after it; without either it is an error that says so. Other
    /// references as a value (`meta[relay.attrs.Conv2DAttrs][0]`) are errors.
    #[cold]
    pub(super) fn meta_reference(&mut self, lo: u32) -> PResult<Mode> {
        let (span, kind, n) = self.meta_ref(lo)?;
        let text = &self.src[span.lo as usize..span.hi as usize];
        if kind == "relay.Constant" {
            let from_metadata = self.metadata().map(|md| md.constant(n));
            let ty = match from_metadata {
                Some(Ok((dtype, shape))) => Some(self.tcx.tensor_const(&shape, dtype)),
                Some(Err(message)) => {
                    self.error(span, message);
                    return Ok(Mode::After(self.placeholder(span)));
                }
                None => self.ty_comment(span.hi as usize)?,
            };
            if let Some(ty) = ty {
                return Ok(Mode::After(self.m.at(span).constant(ty)));
            }
            let mut e =
                ParseError::new(span, format!("the type of constant `{text}` is not known"));
            e.help = Some(
                "TVM prints it with its type as `/* ty=Tensor[(..), float32] */` after the reference, or with the module's `#[metadata]` section: keep either".to_string(),
            );
            self.errors.push(e);
            return Ok(Mode::After(self.placeholder(span)));
        }
        let mut e = ParseError::new(
            span,
            format!("`{text}` refers to a metadata section, which is not supported"),
        );
        e.help = Some("write the attributes it holds in the call".to_string());
        self.errors.push(e);
        Ok(Mode::After(self.placeholder(span)))
    }

    /// `meta[relay.attrs.X][n]` as a call's attributes: read from the metadata section,
    /// each value as the operator declares it (TVM writes scalars as text: `"1"`).
    #[cold]
    pub(super) fn meta_attrs(&mut self) -> PResult<Option<std::sync::Arc<crate::Attrs>>> {
        let lo = self.bump()?.lo;
        let (span, kind, n) = self.meta_ref(lo)?;
        let text = self.src[span.lo as usize..span.hi as usize].to_string();
        let op = match self.frames.last() {
            Some(super::expr::Frame::Call { callee, .. }) if !callee.is_mention() => {
                match self.m.expr(*callee).kind {
                    crate::expr::ExprKind::Op(op) => Some(op),
                    _ => None,
                }
            }
            _ => None,
        };
        let read = match self.metadata() {
            Some(md) => md.attrs(&kind, n),
            None => Err(format!(
                "the attributes `{text}` are in a metadata section, which this text does not have"
            )),
        };
        let entries = match read {
            Ok(entries) => entries,
            Err(message) => {
                self.error(span, message);
                return Ok(None);
            }
        };
        let values = entries
            .into_iter()
            .map(|(name, v)| {
                let ty = op
                    .and_then(|op| op.attrs.iter().find(|a| a.name == name))
                    .map(|a| &a.ty);
                (
                    name.into_boxed_str(),
                    super::super::metadata::attr_value(v, ty),
                )
            })
            .collect();
        Ok(Some(std::sync::Arc::new(crate::Attrs::new(values))))
    }

    /// Skips the bracketed groups from the current token on (`[kind][0]`).
    pub(super) fn skip_brackets(&mut self) -> PResult<()> {
        while self.eat(Tok::LBracket)? {
            while !self.eat(Tok::RBracket)? {
                if self.is(Tok::Eof) {
                    return Err(self.expected("`]`"));
                }
                self.bump()?;
            }
        }
        Ok(())
    }

    /// From the bracket at byte `open` (`(`, `[` or `{`), the byte after the one that
    /// closes it, over nested brackets and quoted strings (`'llvm'`, `"a)b"`): the text
    /// of a value TVM prints only to be read by people, such as
    /// `VirtualDevice(device_type=1, target=Target(kind='llvm', keys={'cpu'}))`.
    pub(super) fn group_end(&self, open: usize) -> PResult<usize> {
        let b = self.src.as_bytes();
        let mut closers = Vec::new();
        let mut i = open;
        while i < b.len() {
            match b[i] {
                b'(' => closers.push(b')'),
                b'[' => closers.push(b']'),
                b'{' => closers.push(b'}'),
                c @ (b')' | b']' | b'}') => {
                    if closers.pop() != Some(c) {
                        break;
                    }
                    if closers.is_empty() {
                        return Ok(i + 1);
                    }
                }
                q @ (b'\'' | b'"') => {
                    i += 1;
                    while i < b.len() && b[i] != q {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let hi = (open + 1).min(b.len()) as u32;
        Err(ParseError {
            span: Span { lo: open as u32, hi },
            message: "this bracket is not closed (before the end of the text, or by the bracket that ends it)".into(),
            labels: Vec::new(),
            help: None,
        })
    }

    /// Reads on after the group of brackets opening at byte `open` ([`Parser::group_end`]):
    /// its end.
    pub(super) fn skip_group(&mut self, open: usize) -> PResult<usize> {
        let end = self.group_end(open)?;
        self.seek(end)?;
        self.prev_hi = end as u32;
        Ok(end)
    }

    /// Reads `meta[kind][n]` from its `meta` (at `lo`, read): its span, kind and index.
    pub(super) fn meta_ref(&mut self, lo: u32) -> PResult<(Span, String, u64)> {
        self.skip_brackets()?;
        let span = self.span_from(lo);
        let compact: String = self.src[span.lo as usize..span.hi as usize]
            .split_whitespace()
            .collect();
        let parts = compact
            .strip_prefix("meta[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.split_once("]["))
            .and_then(|(k, n)| Some((k.to_string(), n.parse::<u64>().ok()?)));
        match parts {
            Some((kind, n)) => Ok((span, kind, n)),
            None => Err(ParseError::new(
                span,
                format!("expected `meta[kind][index]`, found `{compact}`"),
            )),
        }
    }

    /// The source's metadata section, read at its first use (an error if it is not
    /// TVM's JSON, reported once); `None` if there is none.
    pub(super) fn metadata(&mut self) -> Option<&super::super::metadata::Metadata> {
        if self.metadata.is_none() {
            let src = &self.src[self.start..];
            let read = match src.rfind("#[metadata]") {
                None => Ok(None),
                Some(at) => {
                    let json = &src[at + "#[metadata]".len()..];
                    super::super::metadata::Metadata::parse(json)
                        .map(Some)
                        .map_err(|(m, k)| {
                            let lo = (self.start + at + "#[metadata]".len() + k) as u32;
                            (m, Span { lo, hi: lo })
                        })
                }
            };
            self.metadata = Some(match read {
                Ok(md) => md,
                Err((message, span)) => {
                    self.error(span, message);
                    None
                }
            });
        }
        self.metadata.as_ref().and_then(Option::as_ref)
    }

    /// The type in a `/* ty=T */` comment right after byte `at` (blanks before it), if
    /// there is one.
    fn ty_comment(&mut self, at: usize) -> PResult<Option<crate::ty::Ty>> {
        let b = self.src.as_bytes();
        let mut i = at;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if !self.src[i..].starts_with("/*") {
            return Ok(None);
        }
        let Some((pos, _)) = crate::text::printed_type(self.src, i, i + 2) else {
            return Ok(None);
        };
        let (ty, _) = crate::ty::parse_type_at(self.tcx, &mut self.scope, self.src, pos)
            .map_err(|e| self.type_error(e))?;
        Ok(Some(ty))
    }
}
