//! TVM's version-specific forms, each named for what it is, kept out of the grammar: the
//! grammar calls these where a form can start, and reads on.
//!
//! - **The version line** (`v0.0.4`, TVM 0.6 and earlier): [`Parser::version_line`]. TVM
//!   0.5's `v0.0.1` text ends a binding with its line instead of a `;`
//!   ([`Parser::line_ended`]).
//! - **Names with `.digits` parts** (`%input.1` from PyTorch's ONNX export, `%a.15` from
//!   TorchScript, `%layer1.0.conv1.weight`): [`Parser::binder`] and
//!   [`Parser::longest_bound`]; `%t.0` is also a projection.
//! - **Names with `-` and `+` parts** (`%unsanitary-name++_0_i0`, a parameter of a
//!   partition for an external compiler so named), which TVM prints but its parser
//!   rejects: [`Parser::binder`] and [`Parser::longest_bound`] too.
//! - **Values printed for people** (`VirtualDevice(device_type=1, target=Target(..))`,
//!   `ConvAttrs={channels=48}`, a parameter's `{virtual_device=..}`): read as text
//!   ([`Parser::printed_value`], [`Parser::skip_group`]).
//! - **`free_var %x: T;`** of a printed expression: a parameter of its `@main`
//!   ([`Parser::free_var_decl`]), an error elsewhere ([`Parser::free_var`]).
//! - **`meta[kind][n]`** references and **the `#[metadata]` section** they refer to
//!   (TVM 0.6's after a `/* meta data */` line; [`metadata`]): a constant typed by its
//!   tensor or by the `/* ty=T */` after it ([`Parser::meta_reference`]), a call's
//!   attributes ([`Parser::meta_attrs`]).
//! - **Float words** (`inff`, `nanf16`: [`float_word`]) and operators TVM names otherwise
//!   ([`tvm_alias`]).

mod metadata;
#[cfg(test)]
mod tests;

use super::{PResult, ParseError, Parser};
use crate::attrs::AttrValue;
use crate::expr::{ExprId, Span};
use crate::lexer::{dotted_end, is_ident_start, Tok, Token};
use std::sync::Arc;

pub(super) use metadata::Metadata;

/// The data type of the float literal TVM prints for an infinity or a NaN (`inff`,
/// `nanf16`), if `name` is one.
pub(super) fn float_word(name: &str) -> Option<crate::DType> {
    let suffix = name
        .strip_prefix("inf")
        .or_else(|| name.strip_prefix("nan"))?;
    match suffix {
        "f" | "f32" => Some(crate::DType::FLOAT32),
        "f16" => Some(crate::DType::FLOAT16),
        "f64" => Some(crate::DType::FLOAT64),
        _ => None,
    }
}

/// The registered name of an operator TVM's text format writes under another name.
pub(super) fn tvm_alias(name: &str) -> Option<&'static str> {
    match name {
        "contrib_reverse_reshape" => Some("reverse_reshape"),
        _ => None,
    }
}

impl<'s> Parser<'s, '_> {
    // ----- the version line -----

    /// Reads TVM 0.6's version line (`v0.0.4`) if the source starts with one, and notes
    /// whether it is TVM 0.5's `v0.0.1`, whose bindings end with their line.
    pub(super) fn version_line(&mut self) -> PResult<()> {
        let (b, lo) = (self.src.as_bytes(), self.tok.lo as usize);
        let digits = b[lo..].strip_prefix(b"v0.0.").unwrap_or_default();
        let end = lo + 5 + digits.iter().take_while(|c| c.is_ascii_digit()).count();
        self.line_ends_binding = false;
        if end > lo + 5 && b.get(end).is_none_or(u8::is_ascii_whitespace) {
            self.line_ends_binding = &self.src[lo..end] == "v0.0.1";
            self.seek(end)?;
        }
        Ok(())
    }

    /// Whether the binding being read ends here, at the end of its line without a `;`
    /// (TVM 0.5's `v0.0.1` text; comments between the tokens aside).
    pub(super) fn line_ended(&self) -> bool {
        self.line_ends_binding
            && !self.is(Tok::Semi)
            && self.src[self.prev_hi as usize..self.tok.lo as usize].contains('\n')
    }

    // ----- names with `.digits` parts -----

    /// The ends of the `.digits` parts written against the local `t` (`%input.1`, as
    /// PyTorch's ONNX export names a model's input; TorchScript's `%a.15`), in order, a
    /// `.name` part after them included (`%layer1.0.conv1.weight`, a PyTorch parameter).
    /// TVM prints such names as they are; `%t.0` is also a projection.
    fn digit_parts(&self, t: Token) -> Vec<usize> {
        let b = self.src.as_bytes();
        let mut ends = Vec::new();
        let mut i = t.hi as usize;
        while b.get(i) == Some(&b'.') {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let next = b.get(i + 1 + n).copied().unwrap_or(b' ');
            if n == 0 && !ends.is_empty() && is_ident_start(next) {
                i = dotted_end(b, i + 1);
            } else if n == 0 || next.is_ascii_alphanumeric() || next == b'_' {
                break;
            } else {
                i += 1 + n;
            }
            ends.push(i);
        }
        ends
    }

    /// `t` extended to byte `end`, the parser reading on from there.
    fn extend_to(&mut self, t: Token, end: usize) -> PResult<Token> {
        if end != t.hi as usize {
            self.jump(end)?;
        }
        Ok(Token {
            hi: end as u32,
            ..t
        })
    }

    /// The local `t` extended over the `-` and `+` written against it, with the letters,
    /// digits and `_` among them, if there are any (`%unsanitary-name++_0_i0`); `None`
    /// if `t` is followed by none, or by no letter, digit or `_` (`%a-%b`).
    ///
    /// TVM prints the parameters of a partition for an external compiler after the
    /// compiler's name as it is (`unsanitary-name++`), though its own parser rejects
    /// them. TVM never prints infix arithmetic, so a `-` or `+` against a name is part
    /// of it: read so as a binder, and as a use where it names a bound local.
    fn unsanitary(&self, t: Token) -> Option<Token> {
        let b = self.src.as_bytes();
        let (mut i, mut word) = (t.hi as usize, false);
        while let Some(&c) = b.get(i) {
            match c {
                b'+' => {}
                b'-' if b.get(i + 1) != Some(&b'>') => {}
                c if c.is_ascii_alphanumeric() || c == b'_' => word = true,
                _ => break,
            }
            i += 1;
        }
        (word && i > t.hi as usize).then_some(Token { hi: i as u32, ..t })
    }

    /// A local being bound (a parameter, a `let`, a pattern, a `free_var`): `t` with its
    /// `-` and `+` parts ([`Parser::unsanitary`]) and all its `.digits` parts
    /// ([`Parser::digit_parts`]).
    pub(super) fn binder(&mut self, t: Token) -> PResult<Token> {
        let long = self.unsanitary(t).unwrap_or(t);
        let end = self.digit_parts(long).last().copied();
        self.extend_to(t, end.unwrap_or(long.hi as usize))
    }

    /// A local used: `t` with its `-` and `+` parts and the most of its `.digits` parts
    /// that still name a bound local, else with the most of its `.digits` parts that do,
    /// or alone (the parts are projections). A name with `-` or `+` parts bound by
    /// neither reading is the unbound name with them (`%unsanitary-name++_0_i0`).
    pub(super) fn longest_bound(&mut self, t: Token) -> PResult<Token> {
        let long = self.unsanitary(t);
        let mut ends = Vec::new();
        if let Some(long) = long {
            ends.push(long.hi as usize);
            ends.extend(self.digit_parts(long));
        }
        let short = ends.len();
        ends.push(t.hi as usize);
        ends.extend(self.digit_parts(t));
        // Longest first within each reading, the `-` and `+` one first.
        ends[..short].reverse();
        ends[short..].reverse();
        for &end in &ends {
            let name = &self.src[t.lo as usize + 1..end];
            if self.names.locals.get(&self.m, name).is_some() {
                return self.extend_to(t, end);
            }
        }
        let short_name = &self.src[t.lo as usize + 1..t.hi as usize];
        match long {
            Some(long) if self.free_var_named(short_name).is_none() => {
                self.extend_to(t, long.hi as usize)
            }
            _ => Ok(t),
        }
    }

    // ----- values printed for people -----

    /// An attribute value that TVM prints in a form of its own, at the current token
    /// (which starts at `lo`), kept as its text: a reference into the metadata
    /// (`meta[VirtualDevice][0]`), or a value printed only to be read by people when the
    /// metadata is not shown (`VirtualDevice(device_type=1, ..)`, `Target(..)`,
    /// attributes or a map: `ConvAttrs={channels=48, data_layout="NCHW1n16c"}`).
    pub(super) fn printed_value(&mut self, lo: u32) -> PResult<Option<AttrValue>> {
        match self.tok.kind {
            Tok::Ident if self.is_word("meta") && self.peek2()?.kind == Tok::LBracket => {
                self.bump()?;
                self.skip_brackets()?;
                let text: String = self.src[lo as usize..self.prev_hi as usize]
                    .split_whitespace()
                    .collect();
                Ok(Some(AttrValue::Str(text.into())))
            }
            Tok::LBrace => {
                let end = self.skip_group(lo as usize)?;
                Ok(Some(AttrValue::Str(self.src[lo as usize..end].into())))
            }
            Tok::Ident if self.src.as_bytes().get(self.tok.hi as usize) == Some(&b'(') => {
                let end = self.skip_group(self.tok.hi as usize)?;
                Ok(Some(AttrValue::Str(self.src[lo as usize..end].into())))
            }
            _ => Ok(None),
        }
    }

    /// Reads on after the bracket at byte `open` (`(`, `[` or `{`) and the one that
    /// closes it, over nested brackets and quoted strings (`'llvm'`, `"a)b"`): the text
    /// of a value TVM prints only to be read by people, such as
    /// `VirtualDevice(device_type=1, target=Target(kind='llvm', keys={'cpu'}))`. Its end.
    pub(super) fn skip_group(&mut self, open: usize) -> PResult<usize> {
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
                        self.jump(i + 1)?;
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
        Err(ParseError::new(Span { lo: open as u32, hi }, "this bracket is not closed (before the end of the text, or by the bracket that ends it)".into()))
    }

    // ----- `free_var` -----

    /// The free variable `name` of the printed expression being read, declared so far:
    /// TVM prints a `free_var` in the scope of its first use (an `if` branch, a function
    /// body), and mentions it after that scope too.
    pub(super) fn free_var_named(&self, name: &str) -> Option<crate::expr::VarId> {
        let params = self.free_vars.as_ref()?;
        params.iter().copied().find(|&v| self.m.var_name(v) == name)
    }

    /// `free_var %x: T;` in a printed expression: a parameter of its `@main`, bound from
    /// here on.
    pub(super) fn free_var_decl(&mut self) -> PResult<()> {
        self.bump()?;
        let t = self.expect(Tok::Local, "a variable `%name` after `free_var`")?;
        let t = self.binder(t)?;
        let ann = self.annotation()?;
        self.eat(Tok::Semi)?;
        let v = self.new_local(t, ann);
        self.names.locals.bind(&self.m, v);
        if let Some(params) = &mut self.free_vars {
            params.push(v);
        }
        Ok(())
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

    // ----- `meta[..]` and the metadata section -----

    /// Whether the current token starts TVM's metadata section: `#[metadata]`, or TVM
    /// 0.6's JSON after a `/* meta data */` line.
    pub(super) fn at_metadata(&self) -> bool {
        match self.tok.kind {
            Tok::Hash => self.src[self.tok.hi as usize..].starts_with("[metadata]"),
            Tok::LBrace => metadata::after_old_marker(&self.src[..self.tok.lo as usize]),
            _ => false,
        }
    }

    /// `meta[relay.Constant][0]`: a constant of TVM's metadata section, typed by its
    /// tensor in the section (its data type and shape), else by the `/* ty=T */` comment
    /// TVM prints right after it; without either it is an error that says so. Other
    /// references as a value (`meta[relay.attrs.Conv2DAttrs][0]`) are errors.
    #[cold]
    pub(super) fn meta_reference(&mut self, lo: u32) -> PResult<ExprId> {
        let (span, kind, n) = self.meta_ref(lo)?;
        let text = &self.src[span.lo as usize..span.hi as usize];
        if kind == "relay.Constant" {
            let from_metadata = self.metadata().map(|md| md.constant(n));
            let ty = match from_metadata {
                Some(Ok((dtype, shape))) => Some(self.tcx.tensor_const(&shape, dtype)),
                Some(Err(message)) => {
                    self.error(span, message);
                    return Ok(self.placeholder(span));
                }
                None => self.ty_comment(span.hi as usize)?,
            };
            if let Some(ty) = ty {
                return Ok(self.m.at(span).constant(ty));
            }
            let mut e =
                ParseError::new(span, format!("the type of constant `{text}` is not known"));
            e.help = Some(
                "TVM prints it with its type as `/* ty=Tensor[(..), float32] */` after the reference, or with the module's `#[metadata]` section: keep either".to_string(),
            );
            self.errors.push(e);
            return Ok(self.placeholder(span));
        }
        let mut e = ParseError::new(
            span,
            format!("`{text}` refers to a metadata section, which is not supported"),
        );
        e.help = Some("write the attributes it holds in the call".to_string());
        self.errors.push(e);
        Ok(self.placeholder(span))
    }

    /// `meta[relay.attrs.X][n]` as the attributes of a call of `callee`: read from the
    /// metadata section, each value as the operator declares it (TVM writes scalars as
    /// text: `"1"`). Without the section (`// meta data omitted`), a call TVM printed with
    /// its type (`/* ty=T */` after its `)`) is typed by it ([`Module::trust_printed_type`],
    /// a warning when inferred): that type and the reference are returned for the caller
    /// to give the call; without either it is an error.
    ///
    /// [`Module::trust_printed_type`]: crate::expr::Module::trust_printed_type
    #[cold]
    #[allow(clippy::type_complexity)]
    pub(super) fn meta_attrs(
        &mut self,
        callee: ExprId,
    ) -> PResult<(Option<Arc<crate::Attrs>>, Option<(crate::ty::Ty, String)>)> {
        let lo = self.bump()?.lo;
        let (span, kind, n) = self.meta_ref(lo)?;
        if let Some(read) = self.metadata().map(|md| md.attrs(&kind, n)) {
            let entries = match read {
                Ok(entries) => entries,
                Err(message) => {
                    self.error(span, message);
                    return Ok((None, None));
                }
            };
            let op = match callee.is_mention() {
                false => match self.m.expr(callee).kind {
                    crate::expr::ExprKind::Op(op) => Some(op),
                    _ => None,
                },
                true => None,
            };
            let values = entries.into_iter().map(|(name, v)| {
                let ty = op.and_then(|op| op.attrs.iter().find(|a| a.name == name));
                (
                    name.into_boxed_str(),
                    metadata::attr_value(v, ty.map(|a| &a.ty)),
                )
            });
            return Ok((Some(Arc::new(crate::Attrs::new(values.collect()))), None));
        }
        let reference = self.src[span.lo as usize..span.hi as usize].to_string();
        let printed = match self.is(Tok::RParen) {
            true => self.ty_comment(self.tok.hi as usize)?,
            false => None,
        };
        if printed.is_none() {
            self.error(
                span,
                format!("the attributes `{reference}` are in a metadata section, which this text does not have"),
            );
        }
        Ok((None, printed.map(|ty| (ty, reference))))
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

    /// Reads `meta[kind][n]` from its `meta` (at `lo`, read): its span, kind and index.
    fn meta_ref(&mut self, lo: u32) -> PResult<(Span, String, u64)> {
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
    fn metadata(&mut self) -> Option<&metadata::Metadata> {
        if self.metadata.is_none() {
            let src = &self.src[self.start..];
            let md = metadata::section(src).and_then(|at| {
                let read = metadata::Metadata::parse(&src[at..]);
                read.map_err(|(message, k)| {
                    let lo = (self.start + at + k) as u32;
                    self.error(Span { lo, hi: lo }, message);
                })
                .ok()
            });
            self.metadata = Some(md);
        }
        self.metadata.as_ref().and_then(Option::as_ref)
    }

    /// The type in a `/* ty=T */` comment right after byte `at` (blanks before it), if
    /// there is one.
    fn ty_comment(&mut self, at: usize) -> PResult<Option<crate::ty::Ty>> {
        let rest = &self.src[at..];
        let i = at + rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_whitespace())
                .len();
        let Some((pos, _)) = crate::text::printed_type(self.src, i, i + 2) else {
            return Ok(None);
        };
        let (ty, _) = crate::ty::parse_type_at(self.tcx, &mut self.scope, self.src, pos)
            .map_err(|e| self.type_error(e))?;
        Ok(Some(ty))
    }
}
