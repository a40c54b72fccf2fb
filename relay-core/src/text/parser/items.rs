//! Top-level items: the module and its items (definitions, data types, a printed
//! expression), and the headers of functions.

use super::{FnState, Item, ItemKind, PResult, ParseError, Parser};
use crate::expr::Span;
use crate::kind::Param;
use crate::lexer::Lexer;
use crate::lexer::Tok;
use crate::text::Binding;
use crate::ty::Adt;
use crate::ty::Ty;

/// A data type declared by the source, between the two steps of declaring it.
struct DataDecl {
    adt: Adt,
    name: Box<str>,
    params: Vec<(Box<str>, Param)>,
    /// Where its `{` is (`None` for an `extern type`).
    body: Option<usize>,
}

impl Parser<'_, '_> {
    /// `def := 'def' @name fn_header '{' seq '}'`.
    pub(super) fn def(&mut self) -> PResult<()> {
        let kw = self.bump()?;
        let name = self.expect(Tok::Global, "a global's name after `def`")?;
        // A second definition of a name is reported: its body is read (for its errors)
        // and dropped.
        let g = self.declare_global(name);
        let st = self.fn_header()?;
        self.expect(Tok::LBrace, "`{`")?;
        let body = self.top_seq()?;
        self.expect(Tok::RBrace, "`}`")?;
        let f = self.end_fn(st, kw.lo, body, true);
        if let Some(g) = g {
            self.m.set_body(g, f);
        }
        Ok(())
    }

    /// `expr_program := (free_var | stmt)* expr`: a printed expression (what TVM's
    /// `print(expr)` gives: `free_var %x: T;` lines, bindings and a result), read as
    /// `IRModule.from_expr` reads it: the function `@main` whose parameters are the free
    /// variables, in order; an expression that is a function and has no free variables is
    /// `@main` itself.
    pub(super) fn expr_program(&mut self) -> PResult<()> {
        let lo = self.tok.lo;
        let g = self.define_global("main", Span { lo, hi: lo });
        let mark = self.names.locals.mark();
        self.free_vars = Some(Vec::new());
        let body = self.top_seq();
        let params = self.free_vars.take().unwrap_or_default();
        let st = FnState {
            params,
            mark,
            ..FnState::default()
        };
        let f = self.end_fn(st, lo, body?, true);
        if !self.is(Tok::Eof) && !self.at_metadata() {
            return Err(self.expected("the end of the expression"));
        }
        let f = match &self.m.expr(f).kind {
            crate::expr::ExprKind::Func(func) if func.params.is_empty() => {
                match self.m.expr(func.body).kind {
                    crate::expr::ExprKind::Func(_) => func.body,
                    _ => f,
                }
            }
            _ => f,
        };
        self.m.set_body(g, f);
        Ok(())
    }

    /// `fn_header := type_params? '(' (param | attr),* ')' ('->' ty)?` of a definition or
    /// function literal, where `param := %name ('{' .. '}')? (':' ty)?`: binds its type
    /// parameters and parameters, and returns its state for [`Parser::end_fn`].
    pub(super) fn fn_header(&mut self) -> PResult<FnState> {
        let (type_params, type_restore) = self.type_params()?;
        let mark = self.names.locals.mark();
        let mut params = Vec::new();
        self.expect(Tok::LParen, "`(`")?;
        let mut attrs = None;
        while !self.eat(Tok::RParen)? {
            if self.is(Tok::Local) && self.simple_params(&mut params)? {
                continue;
            }
            // TVM's function attributes (`Primitive=1, Compiler="mrvl"`) end the list.
            if self.at_attr()? {
                attrs = self.attrs()?;
                self.expect(Tok::RParen, "`)`")?;
                break;
            }
            let t = self.expect(Tok::Local, "a parameter `%name`")?;
            let t = self.binder(t)?;
            // TVM's attributes of a parameter (`%x {virtual_device=..}: T`): read and
            // dropped.
            if self.is(Tok::LBrace) {
                self.skip_group(self.tok.lo as usize)?;
            }
            let ann = self.annotation()?;
            params.push(self.new_local(t, ann));
            if !self.eat(Tok::Comma)? && !self.is(Tok::RParen) {
                return Err(self.expected("`,` or `)`"));
            }
        }
        let ret = if self.eat(Tok::Arrow)? {
            let lo = self.tok.lo;
            let t = self.ty()?;
            Some((t, self.span_from(lo)))
        } else {
            None
        };
        for (v, first) in self.names.locals.bind_params(&self.m, &params) {
            let name = self.m.var_name(v);
            let mut e = ParseError::new(
                self.m.var_span(v),
                format!("parameter `%{name}` is declared twice"),
            );
            e.labels.push(crate::diag::Label::new(
                self.m.var_span(first),
                format!("`%{name}` first declared here"),
            ));
            e.help = Some(format!("rename one of the two parameters `%{name}`"));
            self.errors.push(e);
        }
        Ok(FnState {
            type_params,
            params,
            attrs,
            ret,
            mark,
            type_restore,
        })
    }

    /// Declares the data types of the source found by the first pass (all names first, so
    /// that they may mention each other), then their constructors.
    pub(super) fn declare_data(&mut self, items: &[Item]) {
        let mut decls = Vec::new();
        for it in items.iter().filter(|it| it.kind == ItemKind::Data) {
            match self.data_header(it.lo as usize) {
                Ok(Some(d)) => decls.push(d),
                Ok(None) => {}
                Err(e) => self.errors.push(e),
            }
        }
        self.scope = self.adts.scope();
        for d in decls {
            let mut restore = Vec::new();
            for (n, p) in &d.params {
                restore.push((n.clone(), self.scope.bind(n, Binding::Param(*p))));
            }
            let ctors = self.data_body(&d);
            self.restore_types(restore);
            match ctors {
                Ok((ctors, spans)) => {
                    let here = &self.declared_here;
                    let shadows = |a| !here.contains(&a);
                    let defined = self
                        .adts
                        .define_ctors_shadowing(self.tcx, d.adt, ctors, shadows);
                    if let Err(dup) = defined {
                        let at = spans
                            .iter()
                            .find(|(n, _)| **n == *dup)
                            .map_or(Span::default(), |(_, s)| *s);
                        self.error(at, format!("constructor `{dup}` is declared twice"));
                    }
                }
                Err(e) => self.errors.push(e),
            }
        }
        self.scope = self.adts.scope();
    }

    /// Skips a data type declared by [`Parser::declare_data`]: `type Name[A] { .. }`.
    pub(super) fn skip_data_item(&mut self) -> PResult<()> {
        if self.is_word("extern") {
            // `extern type Name[A, ..]`, which ends there.
            self.bump()?;
            self.expect_word("type")?;
            self.expect(Tok::Ident, "a data type's name")?;
            return self.skip_brackets();
        }
        while !self.is(Tok::LBrace) {
            if self.is(Tok::Eof) {
                return Err(self.expected("`{`"));
            }
            self.bump()?;
        }
        // To the `}` that closes the `{`.
        let mut depth = 0usize;
        loop {
            match self.tok.kind {
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth -= 1,
                Tok::Eof => return Err(self.expected("`}`")),
                _ => {}
            }
            self.bump()?;
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// `type Name[A, B]` or `data Name<a>`: declares the data type unless one of that
    /// name is loaded already (`None` then).
    fn data_header(&mut self, pos: usize) -> PResult<Option<DataDecl>> {
        self.seek(pos)?;
        // TVM's `extern type Storage`: a data type without constructors, and no body.
        let external = self.is_word("extern");
        if external {
            self.bump()?;
            self.expect_word("type")?;
        } else {
            self.bump()?;
        }
        let name = self.expect(Tok::Ident, "a data type's name")?;
        let n = self.text(name);
        let (params, restore) = self.type_params()?;
        self.restore_types(restore);
        if !external && !self.is(Tok::LBrace) {
            return Err(self.expected("`{`"));
        }
        // One of an earlier source, or registered, is shadowed for this one.
        if let Some(existing) = self.adts.adt(n) {
            if self.declared_here.contains(&existing) {
                return Err(ParseError::new(
                    name.span(),
                    format!("data type `{n}` is declared twice"),
                ));
            }
        }
        let adt = self
            .adts
            .declare(self.tcx, n, &params)
            .map_err(|e| ParseError::new(name.span(), e.to_string()))?;
        self.declared_here.push(adt);
        let params = params
            .iter()
            .map(|&p| (self.tcx.param_name(p).into(), p))
            .collect();
        Ok(Some(DataDecl {
            adt,
            name: n.into(),
            params,
            body: (!external).then_some(self.tok.lo as usize),
        }))
    }

    /// `{ Cons(A, List[A]), Nil }` or `{ Nil : () -> List, Cons : (a, List[a]) -> List }`.
    #[allow(clippy::type_complexity)]
    fn data_body(
        &mut self,
        d: &DataDecl,
    ) -> PResult<(Vec<(Box<str>, Vec<Ty>)>, Vec<(Box<str>, Span)>)> {
        let Some(body) = d.body else {
            return Ok((Vec::new(), Vec::new()));
        };
        self.seek(body)?;
        self.expect(Tok::LBrace, "`{`")?;
        let mut ctors = Vec::new();
        let mut spans = Vec::new();
        while !self.eat(Tok::RBrace)? {
            let c = self.expect(Tok::Ident, "a constructor's name or `}`")?;
            let spec = self.eat(Tok::Colon)?;
            let mut fields = Vec::new();
            if spec || self.is(Tok::LParen) {
                self.expect(Tok::LParen, "`(`")?;
                self.list(Tok::RParen, |p| p.ty().map(|v| fields.push(v)))?;
            }
            if spec {
                self.expect(Tok::Arrow, "`->`")?;
                let r = self.expect(Tok::Ident, &format!("`{}`", d.name))?;
                if self.text(r) != &*d.name {
                    let found = self.text(r);
                    let message = format!(
                        "expected `{}` (the data type declared), found `{found}`",
                        d.name
                    );
                    return Err(ParseError::new(r.span(), message));
                }
            }
            let n: Box<str> = self.text(c).into();
            spans.push((n.clone(), c.span()));
            ctors.push((n, fields));
            self.eat(Tok::Comma)?;
        }
        Ok((ctors, spans))
    }

    /// Reads the source from `self.start`, item by item, in one pass. A global may be
    /// mentioned before its definition: such a mention is resolved at the end of the
    /// source, to the source's own definition if it has one (which shadows an earlier
    /// source's), else to an earlier source's global.
    pub(super) fn module(&mut self) {
        let first_error = self.errors.len();
        self.names.start_source();
        self.items = None;
        self.metadata = None;
        if let Err(e) = self.items_of_source() {
            self.errors.push(e);
        }
        self.resolve_forward();
        // In the order of the text (an unknown global is known at the source's end).
        self.errors[first_error..].sort_by_key(|e| e.span.lo);
    }

    /// The items of the source, an error in one reported and the next one read.
    fn items_of_source(&mut self) -> PResult<()> {
        self.forget_words();
        self.seek(self.start)?;
        // TVM 0.6 and earlier printed their version as `v0.0.4` on the first line.
        self.version_line()?;
        if self.is(Tok::Hash) && !self.at_metadata() {
            if let Err(e) = self.header() {
                // Go on at the first item after the header's error.
                let next = self.item_after(e.span.lo);
                self.errors.push(e);
                self.seek(next)?;
            }
        }
        // The data types first (a definition may use one declared after it): found by a
        // pass over the tokens, which only a source that has the word `type` or `data`
        // needs.
        let src = &self.src.as_bytes()[self.start..];
        if has_word(src, b"type") || has_word(src, b"data") {
            let at = self.tok.lo as usize;
            let items = self.find_items();
            self.declare_data(&items);
            self.forget_words();
            self.seek(at)?;
        }
        self.scope = self.adts.scope();
        let base = self.scope.mark();
        while !self.is(Tok::Eof) {
            let lo = self.tok.lo;
            let result = if self.is_word("def") {
                self.scope.reset(base);
                self.def()
            } else if self.is_word("type") || self.is_word("data") || self.is_word("extern") {
                self.skip_data_item()
            } else if self.at_metadata() {
                // TVM's metadata section, the rest of the text.
                break;
            } else if self.is_word("free_var")
                || self.is_word("let")
                || self.is(Tok::Local)
                || self.is_word("fn") && self.peek2().is_ok_and(|t| t.kind != Tok::Global)
            {
                self.scope.reset(base);
                self.expr_program()
            } else {
                Err(self.expected("`def`, `type` or `data`"))
            };
            self.reset();
            if let Err(e) = result {
                self.errors.push(e);
                // Go on at the next item.
                let next = self.item_after(lo);
                self.seek(next)?;
            }
        }
        Ok(())
    }

    /// Where the first top-level item after byte `lo` starts (the end of the source if
    /// none): where reading resumes after an error.
    #[cold]
    pub(super) fn item_after(&mut self, lo: u32) -> usize {
        if self.items.is_none() {
            self.items = Some(self.find_items());
        }
        let items = self.items.as_deref().unwrap_or_default();
        let next = items.partition_point(|it| it.lo <= lo);
        items.get(next).map_or(self.src.len(), |it| it.lo as usize)
    }

    /// `#[version = "0.0.5"]`.
    pub(super) fn header(&mut self) -> PResult<()> {
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

    /// Every `def`, `type` and `data` outside braces in the source being read, by its
    /// tokens (what a character the lexer does not take is skipped).
    pub(super) fn find_items(&self) -> Vec<Item> {
        let mut lex = Lexer::new(self.src);
        lex.seek(self.start);
        let mut items = Vec::new();
        let mut depth = 0usize;
        loop {
            let t = lex.advance();
            match t.kind {
                Tok::Eof => break,
                Tok::Error => lex.seek(t.hi.max(t.lo + 1) as usize),
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth = depth.saturating_sub(1),
                Tok::Ident if depth == 0 => {
                    let kind = match self.text(t) {
                        "def" => ItemKind::Def,
                        // (The `type` of `extern type` is the item's `extern`'s.)
                        "type"
                            if items.last().is_some_and(|it: &Item| {
                                self.src[it.lo as usize..t.lo as usize].trim_end() == "extern"
                            }) =>
                        {
                            continue
                        }
                        "type" | "data" | "extern" => ItemKind::Data,
                        _ => continue,
                    };
                    items.push(Item { kind, lo: t.lo });
                }
                _ => {}
            }
        }
        items
    }
}

/// Whether `word` is in `text` as a word of its own (not inside a name).
pub(super) fn has_word(text: &[u8], word: &[u8]) -> bool {
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'%' | b'@' | b'.');
    memchr::memmem::find_iter(text, word).any(|i| {
        (i == 0 || !name(text[i - 1])) && text.get(i + word.len()).is_none_or(|&c| !name(c))
    })
}
