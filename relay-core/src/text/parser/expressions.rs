//! Expressions and sequences of statements: one function per production, each
//! dispatching on the first token.
//!
//! A construct nested in another is read through [`Stk::run`], which keeps the state of
//! the `async` productions on a heap-allocated stack ([`reblessive`]), so that a call
//! nested 100,000 deep needs no native stack (under a kilobyte of heap a level); a chain
//! of `let`s is a loop ([`Parser::seq`]).

use super::{FnState, PResult, ParseError, Parser};
use crate::expr::{Arm, ExprId, Span, VarId};
use crate::lexer::{Tok, Token};
use reblessive::Stk;

/// The mark of a [`Chain`] whose bindings are not logged.
const UNLOGGED: u32 = u32::MAX;

/// A chain of `let`s (and `e;` statements) being read, built as it is read: the first
/// `Let` node and the last, whose body is still to come.
pub(super) struct Chain {
    /// Whether it is the body of a definition (or of a printed expression), whose
    /// bindings are not logged: the definition's end clears every local.
    top: bool,
    first: Option<ExprId>,
    last: ExprId,
    /// The locals' log before its first binding, or [`UNLOGGED`].
    mark: u32,
}

/// The first byte at or after `i` that is not a blank (as the lexer's blanks).
#[inline]
pub(super) fn blank(b: &[u8], mut i: usize) -> usize {
    // Most bytes met are not blanks, and most blanks are one space: those decide first.
    while let Some(&c) = b.get(i) {
        if c > b' ' || (c != b' ' && !matches!(c, b'\n' | b'\t' | b'\r' | b'\x0c')) {
            break;
        }
        i += 1;
    }
    i
}

/// The infix operators: token, precedence, operator name.
const BINOPS: [(Tok, u8, &str); 10] = [
    (Tok::Star, 12, "multiply"),
    (Tok::Slash, 12, "divide"),
    (Tok::Plus, 10, "add"),
    (Tok::Minus, 10, "subtract"),
    (Tok::Lt, 8, "less"),
    (Tok::Le, 8, "less_equal"),
    (Tok::Gt, 8, "greater"),
    (Tok::Ge, 8, "greater_equal"),
    (Tok::EqEq, 7, "equal"),
    (Tok::Ne, 7, "not_equal"),
];

impl Parser<'_, '_> {
    /// `seq := (stmt ';')* expr`, where `stmt := 'let' %x (':' ty)? '=' expr | %n '=' expr
    /// | expr | free_var`: the statements as a loop, each `let` added to the chain as it
    /// is read. `top` for a definition's body.
    pub(super) async fn seq(&mut self, stk: &mut Stk, top: bool) -> PResult<ExprId> {
        let mut chain = Chain {
            top,
            first: None,
            last: ExprId(u32::MAX),
            mark: UNLOGGED,
        };
        loop {
            if self.is_word("let") && self.simple_lets(&mut chain)? {
                continue;
            }
            let lo = self.tok.lo;
            let graph = self.is(Tok::Local) && self.peek2()?.kind == Tok::Eq;
            if graph || self.is_word("let") {
                self.binding(stk, &mut chain, graph).await?;
            } else if self.is_word("free_var") {
                if self.free_vars.is_none() {
                    return Err(self.free_var());
                }
                self.free_var_decl()?;
            } else {
                let e = self.expr(stk, 0).await?;
                if !self.eat(Tok::Semi)? || self.is(Tok::RBrace) || self.is(Tok::Eof) {
                    return Ok(self.end_chain(chain, e));
                }
                let span = self.m.expr(e).span;
                let var = self.m.at(span).var("_", None);
                self.chain_let(&mut chain, var, e, lo, self.prev_hi, None);
            }
        }
    }

    /// The body of a definition or of a printed expression, on a stack of its own.
    pub(super) fn top_seq(&mut self) -> PResult<ExprId> {
        reblessive::Stack::new()
            .enter(|stk| self.seq(stk, true))
            .finish()
    }

    /// `'let' %x (':' ty)? '=' expr ';'` or, `graph`, `%n '=' expr ';'`, added to `chain`.
    async fn binding(&mut self, stk: &mut Stk, chain: &mut Chain, graph: bool) -> PResult<()> {
        let lo = self.tok.lo;
        if !graph {
            self.bump()?;
        }
        let name = self.expect(Tok::Local, "a variable `%name` after `let`")?;
        let name = self.binder(name)?;
        let ann = if graph { None } else { self.annotation()? };
        self.expect(Tok::Eq, "`=`")?;
        let var = self.new_local(name, ann);
        // `let %loop = fn (..) { .. %loop(..) }`: a function sees its own name.
        let early = (!graph && self.is_word("fn")).then(|| {
            let mark = self.names.locals.mark() as u32;
            self.names.locals.bind(&self.m, var);
            mark
        });
        let value = self.expr(stk, 0).await?;
        // TVM 0.5 ended a binding with its line.
        if !self.line_ended() {
            self.expect(Tok::Semi, "`;` after the bound value")?;
        }
        self.chain_let(chain, var, value, lo, self.prev_hi, early);
        if early.is_none() {
            self.bind_chained(chain, var);
        }
        Ok(())
    }

    /// Adds `let var = value;` (the statement at `lo..hi`) to `chain`, before `var` is
    /// bound; a chain it starts undoes the locals back to `early` if given (its variable
    /// was bound before its value). The `Let` node is built whole: its body is the value
    /// until the next statement is read, so an abandoned chain is still a tree.
    #[inline(always)]
    pub(super) fn chain_let(
        &mut self,
        chain: &mut Chain,
        var: VarId,
        value: ExprId,
        lo: u32,
        hi: u32,
        early: Option<u32>,
    ) {
        let id = self.m.at(Span { lo, hi }).let_(var, value, value);
        if chain.first.is_some() {
            self.m.set_let_body(chain.last, id);
        } else {
            chain.first = Some(id);
            if !chain.top {
                chain.mark = early.unwrap_or(self.names.locals.mark() as u32);
            }
        }
        chain.last = id;
    }

    /// Binds the variable of the chain's latest `let` (unlogged in a definition's body).
    #[inline]
    pub(super) fn bind_chained(&mut self, chain: &Chain, var: VarId) {
        match chain.mark {
            UNLOGGED => self.names.locals.bind_unlogged(&self.m, var),
            _ => self.names.locals.bind(&self.m, var),
        }
    }

    /// The chain's result `e`: the chain's first `Let`, its bindings out of scope.
    fn end_chain(&mut self, chain: Chain, e: ExprId) -> ExprId {
        let Some(first) = chain.first else {
            return e;
        };
        if chain.mark != UNLOGGED {
            self.names.locals.unbind_to(&self.m, chain.mark as usize);
        }
        self.m.set_let_body(chain.last, e);
        first
    }

    /// `expr := operand postfix* (binop expr)*`, its infix operators binding at least as
    /// tightly as `min`.
    pub(super) async fn expr(&mut self, stk: &mut Stk, min: u8) -> PResult<ExprId> {
        let e = self.operand(stk).await?;
        self.infix(stk, e, min).await
    }

    /// After the operand `lhs`: its postfix calls and projections, then the infix
    /// operators of precedence `min` or more (left-associative, by precedence).
    async fn infix(&mut self, stk: &mut Stk, lhs: ExprId, min: u8) -> PResult<ExprId> {
        let mut lhs = self.postfix(stk, lhs).await?;
        while let Some(op) = BINOPS
            .iter()
            .position(|&(k, p, _)| k == self.tok.kind && p >= min)
        {
            let lo = self.lo_of(lhs);
            self.bump()?;
            let prec = BINOPS[op].1;
            let rhs = stk.run(|stk| self.expr(stk, prec + 1)).await?;
            lhs = self.binary(op, lhs, rhs, lo);
        }
        Ok(lhs)
    }

    /// `postfix := '(' args ')' | '.' index`, as many as follow `e`.
    async fn postfix(&mut self, stk: &mut Stk, mut e: ExprId) -> PResult<ExprId> {
        loop {
            match self.tok.kind {
                // In TVM 0.5's text a line ends a binding: `(` on the next line starts the
                // body (a tuple), not a call.
                Tok::LParen if !self.line_ended() => {
                    self.bump()?;
                    let tstart = self.targs.len();
                    e = self.call(stk, e, tstart).await?;
                }
                Tok::Dot => {
                    self.bump()?;
                    let i = self.expect(Tok::Num, "a field index after `.`")?;
                    let index = self.text(i).parse::<u32>().map_err(|_| {
                        let found = self.text(i);
                        let message = format!("expected a field index after `.`, found `{found}`");
                        ParseError::new(i.span(), message)
                    })?;
                    let span = self.span_from(self.lo_of(e));
                    e = self.m.at(span).proj(e, index);
                }
                _ => return Ok(e),
            }
        }
    }

    /// `operand := %x | @g | literal | word | '(' expr,* ')' | '(' seq ')' | '{' seq '}'`.
    async fn operand(&mut self, stk: &mut Stk) -> PResult<ExprId> {
        let t = self.tok;
        match t.kind {
            Tok::Local => {
                let (t, v) = self.local()?;
                Ok(self.local_ref(t, v))
            }
            Tok::Global => {
                self.bump()?;
                let e = self.global_mention(t);
                let adjacent = self.tok.lo == t.hi;
                if adjacent && (self.is(Tok::Lt) || self.is(Tok::LBracket)) {
                    return self.type_args_call(stk, e).await;
                }
                Ok(e)
            }
            Tok::Num | Tok::Minus => self.number_literal(t),
            Tok::LParen => {
                self.bump()?;
                self.paren(stk, t.lo).await
            }
            Tok::LBrace => self.block(stk).await,
            Tok::Ident => self.word(stk, t).await,
            _ => Err(self.expected("an expression")),
        }
    }

    /// The local at the current token, read as a use ([`Parser::longest_bound`]): its
    /// token and the variable it names, if bound.
    fn local(&mut self) -> PResult<(Token, Option<VarId>)> {
        let mut t = self.bump()?;
        // `%input.1`: the longest name bound so, else projections of `%input`;
        // `%unsanitary-name++_0_i0`: the same, with `-` and `+` parts.
        let against = self.tok.lo == t.hi;
        if against && matches!(self.tok.kind, Tok::Dot | Tok::Minus | Tok::Plus) {
            t = self.longest_bound(t)?;
        }
        let v = self.names.locals.get(&self.m, &self.text(t)[1..]);
        Ok((t, v))
    }

    /// A use of the local `t`, bound to `v` (else a free variable of a printed
    /// expression, else an error).
    fn local_ref(&mut self, t: Token, v: Option<VarId>) -> ExprId {
        match v.or_else(|| self.free_var_named(&self.text(t)[1..])) {
            Some(v) => self.m.at(t.span()).var_ref(v),
            None => self.unbound_local(t),
        }
    }

    /// `'(' expr,* ')'` (a tuple, or one expression in parentheses) or `'(' seq ')'` (TVM
    /// prints a `let` used as a value so), after the `(` at `lo`.
    async fn paren(&mut self, stk: &mut Stk, lo: u32) -> PResult<ExprId> {
        if self.is_word("let") {
            let e = stk.run(|stk| self.seq(stk, false)).await?;
            self.expect(Tok::RParen, "`)`")?;
            return Ok(e);
        }
        let start = self.items_stack.len();
        let mut comma = false;
        while !self.eat(Tok::RParen)? {
            let e = stk.run(|stk| self.expr(stk, 0)).await?;
            self.items_stack.push(e);
            if self.eat(Tok::Comma)? {
                comma = true;
            } else if !self.is(Tok::RParen) {
                return Err(self.expected("`,` or `)`"));
            }
        }
        let e = if self.items_stack.len() == start + 1 && !comma {
            self.items_stack[start]
        } else {
            let span = self.span_from(lo);
            self.m.at(span).tuple(&self.items_stack[start..])
        };
        self.items_stack.truncate(start);
        Ok(e)
    }

    /// An operand that starts with a name: a keyword's construct, a literal, a
    /// constructor, an operator, a variable a pattern bound, or `meta[..]`.
    async fn word(&mut self, stk: &mut Stk, t: Token) -> PResult<ExprId> {
        let lo = t.lo;
        let name = self.text(t);
        self.bump()?;
        match name {
            "fn" => self.function(stk, lo).await,
            "True" | "False" => Ok(self.scalar(crate::DType::BOOL, lo)),
            "if" => self.if_(stk, lo).await,
            "match" => self.match_(stk, t).await,
            "ref" | "ref_read" | "ref_write" => self.reference(stk, name, lo).await,
            "let" | "else" | "def" | "type" | "data" | "case" => Err(ParseError::new(
                t.span(),
                format!("expected an expression, found `{name}`"),
            )),
            _ => self.name(t),
        }
    }

    /// A constructor, an operator, a variable a pattern bound without `%` (the spec's
    /// `case Single(x)`), a float word (`inff`), or `meta[..]`, named by `t`.
    fn name(&mut self, t: Token) -> PResult<ExprId> {
        let (lo, name) = (t.lo, self.text(t));
        let word = match self.words.get(name) {
            Some(&w) => w,
            None => {
                let w = if let Some(c) = self.adts.ctor(name) {
                    super::Word::Ctor(c)
                } else if let Some(op) = self
                    .adts
                    .registry()
                    .ok()
                    .and_then(|r| r.op(name).or_else(|| r.op(super::tvm::tvm_alias(name)?)))
                {
                    super::Word::Op(op, None)
                } else {
                    super::Word::Unknown
                };
                self.words.insert(name, w);
                w
            }
        };
        Ok(match word {
            super::Word::Ctor(c) => {
                let e = self.m.at(t.span()).ctor(c);
                // A constructor without fields, not called: the call, as TVM reads it
                // (`Nil` is `Nil()`).
                if !self.is(Tok::LParen) && self.adts.ctor_info(self.tcx, c).fields.is_empty() {
                    self.m.at(t.span()).call(e, &[])
                } else {
                    e
                }
            }
            _ if super::tvm::float_word(name).is_some() => {
                let f = super::tvm::float_word(name).expect("a float word");
                self.scalar(f, lo)
            }
            super::Word::Op(op, node) => {
                let e = match node {
                    Some(e) => e,
                    None => {
                        let e = self.m.at(t.span()).op(op);
                        self.words.insert(name, super::Word::Op(op, Some(e)));
                        e
                    }
                };
                self.last_op = (e, t.lo);
                e
            }
            super::Word::Unknown => {
                if let Some(v) = self.names.locals.get(&self.m, name) {
                    self.m.at(t.span()).var_ref(v)
                } else if name == "meta" && self.is(Tok::LBracket) {
                    return self.meta_reference(lo);
                } else {
                    self.unknown_word(t)
                }
            }
        })
    }

    /// `'fn' fn_header '{' seq '}'`, after the `fn` at `lo`.
    async fn function(&mut self, stk: &mut Stk, lo: u32) -> PResult<ExprId> {
        let st = self.fn_header()?;
        let body = self.block(stk).await?;
        Ok(self.end_fn(st, lo, body, false))
    }

    /// The function from `lo` whose header was `st` and whose body is `body`, its
    /// parameters out of scope (`top`: a definition, which clears every local).
    pub(super) fn end_fn(&mut self, st: FnState, lo: u32, body: ExprId, top: bool) -> ExprId {
        if top {
            self.names.locals.clear();
        } else {
            self.names.locals.unbind_to(&self.m, st.mark);
        }
        self.restore_types(st.type_restore);
        let span = self.span_from(lo);
        let (tps, ps) = (st.type_params.into(), st.params.into_boxed_slice());
        let f = self.m.at(span).func_of(tps, ps, st.ret.map(|r| r.0), body);
        if let Some(attrs) = st.attrs {
            self.m.set_func_attrs(f, attrs);
        }
        if let Some((_, span)) = st.ret {
            self.m.set_ret_span(f, span);
        }
        f
    }

    /// `'if' '(' expr ')' '{' seq '}' 'else' (expr | '{' seq '}')`, the expression after
    /// `else` being another `if`; after the `if` at `lo`.
    async fn if_(&mut self, stk: &mut Stk, lo: u32) -> PResult<ExprId> {
        self.expect(Tok::LParen, "`(`")?;
        let c = stk.run(|stk| self.expr(stk, 0)).await?;
        self.expect(Tok::RParen, "`)`")?;
        let t = self.block(stk).await?;
        self.expect_word("else")?;
        let e = if self.is_word("if") {
            stk.run(|stk| self.expr(stk, 0)).await?
        } else {
            self.block(stk).await?
        };
        let span = self.span_from(lo);
        Ok(self.m.at(span).if_(c, t, e))
    }

    /// `'{' seq '}'`.
    async fn block(&mut self, stk: &mut Stk) -> PResult<ExprId> {
        self.expect(Tok::LBrace, "`{`")?;
        let e = stk.run(|stk| self.seq(stk, false)).await?;
        self.expect(Tok::RBrace, "`}`")?;
        Ok(e)
    }

    /// `('match' | 'match?') expr '{' arm,* '}'`, after the `match` `t`. The scrutinee
    /// reads its own parentheses, if any: `match (%a, %b)` is a tuple, TVM prints
    /// `match %x {`.
    async fn match_(&mut self, stk: &mut Stk, t: Token) -> PResult<ExprId> {
        let complete = !(self.is(Tok::Question) && self.tok.lo == t.hi);
        if !complete {
            self.bump()?;
        }
        let scrut = stk.run(|stk| self.expr(stk, 0)).await?;
        self.expect(Tok::LBrace, "`{`")?;
        let start = self.arms.len();
        while !self.eat(Tok::RBrace)? {
            self.arm(stk).await?;
        }
        let span = self.span_from(t.lo);
        let e = self.m.at(span).match_(scrut, &self.arms[start..], complete);
        self.arms.truncate(start);
        Ok(e)
    }

    /// `arm := pattern '=>' seq | 'case' pattern '{' seq '}'`, onto the arm stack.
    async fn arm(&mut self, stk: &mut Stk) -> PResult<()> {
        if self.is_word("case") {
            self.bump()?;
        }
        let mark = self.names.locals.mark();
        let pattern = self.pattern(0)?;
        let braced = if self.eat(Tok::FatArrow)? {
            false
        } else if self.eat(Tok::LBrace)? {
            true
        } else {
            return Err(self.expected("`=>` or `{` after the pattern"));
        };
        let body = stk.run(|stk| self.seq(stk, false)).await?;
        if braced {
            self.expect(Tok::RBrace, "`}`")?;
        }
        self.names.locals.unbind_to(&self.m, mark);
        self.arms.push(Arm { pattern, body });
        self.eat(Tok::Comma)?;
        Ok(())
    }

    /// `'ref' '(' expr ')' | 'ref_read' '(' expr ')' | 'ref_write' '(' expr ',' expr ')'`,
    /// after the word `name` at `lo`.
    async fn reference(&mut self, stk: &mut Stk, name: &str, lo: u32) -> PResult<ExprId> {
        self.expect(Tok::LParen, "`(`")?;
        let r = stk.run(|stk| self.expr(stk, 0)).await?;
        let value = if name == "ref_write" {
            self.expect(Tok::Comma, "`,`")?;
            Some(stk.run(|stk| self.expr(stk, 0)).await?)
        } else {
            None
        };
        self.expect(Tok::RParen, "`)`")?;
        let span = self.span_from(lo);
        Ok(match (name, value) {
            (_, Some(v)) => self.m.at(span).ref_write(r, v),
            ("ref", _) => self.m.at(span).ref_new(r),
            _ => self.m.at(span).ref_read(r),
        })
    }

    /// `<T, ..>(args)` or `[T, ..](args)` after a global, adjacent to its name.
    async fn type_args_call(&mut self, stk: &mut Stk, callee: ExprId) -> PResult<ExprId> {
        let close = if self.eat(Tok::Lt)? {
            Tok::Gt
        } else {
            self.bump()?;
            Tok::RBracket
        };
        let tstart = self.targs.len();
        self.list(close, |p| p.type_arg().map(|a| p.targs.push(a)))?;
        self.expect(Tok::LParen, "`(` after the type arguments")?;
        self.call(stk, callee, tstart).await
    }

    /// `args := expr,* (',' attr,*)? ')'` of a call of `callee`, after its `(`; its type
    /// arguments are on the type-argument stack from `tstart`.
    async fn call(&mut self, stk: &mut Stk, callee: ExprId, tstart: usize) -> PResult<ExprId> {
        let start = self.items_stack.len();
        let lo = self.lo_of(callee);
        let mut attrs = None;
        while !self.is(Tok::RParen) {
            // `op(%x, meta[relay.attrs.Conv2DAttrs][0])`: the attributes, in the metadata.
            if self.is_word("meta") && self.src[self.tok.hi as usize..].starts_with("[relay.attrs.")
            {
                let (attrs, printed) = self.meta_attrs(callee)?;
                let e = self.finish_call(callee, start, tstart, lo, attrs)?;
                if let Some((ty, reference)) = printed {
                    self.m.trust_printed_type(e, ty, &reference);
                }
                return Ok(e);
            }
            if self.at_attr()? {
                attrs = self.attrs()?;
                break;
            }
            let a = self.argument(stk).await?;
            self.items_stack.push(a);
            if !self.eat(Tok::Comma)? && !self.is(Tok::RParen) {
                return Err(self.expected("`,` or `)`"));
            }
        }
        self.finish_call(callee, start, tstart, lo, attrs)
    }

    /// An argument of a call: an expression, a bound local alone being a compact
    /// mention.
    async fn argument(&mut self, stk: &mut Stk) -> PResult<ExprId> {
        if !self.is(Tok::Local) {
            return stk.run(|stk| self.expr(stk, 0)).await;
        }
        let (t, v) = self.local()?;
        if let Some(v) = v.filter(|_| matches!(self.tok.kind, Tok::Comma | Tok::RParen)) {
            return Ok(self.m.at(t.span()).var_mention(v));
        }
        let e = self.local_ref(t, v);
        stk.run(|stk| self.infix(stk, e, 0)).await
    }

    /// The call of `callee` from `lo` whose arguments are on the item stack from `start`,
    /// at its `)`.
    fn finish_call(
        &mut self,
        callee: ExprId,
        start: usize,
        tstart: usize,
        lo: u32,
        attrs: Option<std::sync::Arc<crate::Attrs>>,
    ) -> PResult<ExprId> {
        self.expect(Tok::RParen, "`)`")?;
        let span = self.span_from(lo);
        let e = self.m.at(span).call_full(
            callee,
            &self.items_stack[start..],
            attrs,
            &self.targs[tstart..],
        );
        self.items_stack.truncate(start);
        self.targs.truncate(tstart);
        Ok(e)
    }

    /// Where `e` starts: a shared operator node starts where it was last mentioned.
    fn lo_of(&self, e: ExprId) -> u32 {
        if e == self.last_op.0 {
            return self.last_op.1;
        }
        self.m.expr(e).span.lo
    }

    /// A scalar constant of `dtype` from `lo`.
    pub(super) fn scalar(&mut self, dtype: crate::DType, lo: u32) -> ExprId {
        let ty = self.tcx.scalar(dtype);
        let span = self.span_from(lo);
        self.m.at(span).constant(ty)
    }

    /// `lhs op rhs` as a call of the operator it stands for.
    fn binary(&mut self, op: usize, lhs: ExprId, rhs: ExprId, lo: u32) -> ExprId {
        let span = Span {
            lo,
            hi: self.prev_hi,
        };
        let adts = &self.adts;
        let def = *self.binops[op].get_or_insert_with(|| adts.op(BINOPS[op].2));
        let callee = match def {
            Some(def) => self.m.at(span).op(def),
            None => {
                let (_, _, name) = BINOPS[op];
                let mut e = ParseError::new(
                    span,
                    format!("unknown operator `{name}` (what an infix operator stands for)"),
                );
                // The infix operators stand for relay-ops' operators.
                e.help = Some(format!(
                    "`{name}` is declared by relay-ops, which is not linked into the program \
                     (`inventory` finds only what is linked): name it in your code \
                     (`use relay_ops as _;`)"
                ));
                self.errors.push(e);
                self.placeholder(span)
            }
        };
        self.m.at(span).call(callee, &[lhs, rhs])
    }
}
