//! Expressions, read by a loop over an explicit stack of frames.
//!
//! The loop is in one of four modes: at the start of a sequence of statements (`let`,
//! `%0 = e;`, `e;`), before an operand, after an operand (postfix calls and projections,
//! then infix operators by precedence), or delivering a finished expression to the frame
//! that waits for it. Every construct that contains expressions (`f(..)`, `(..)`, `let`,
//! `fn`, `if`, `match`, `ref`, `{..}`, an infix operator) is a frame on the stack, so a
//! call nested a hundred thousand deep or a million `let`s take no native stack.

use super::{PResult, ParseError, Parser, Word};
use crate::expr::{Arm, ExprId, PatId, Span, VarId};
use crate::lexer::{Tok, Token};

/// The mark of a [`Frame::LetChain`] whose bindings are not logged.
const UNLOGGED: u32 = u32::MAX;

/// A construct waiting for the expression being read.
#[derive(Copy, Clone, Debug)]
pub(super) enum Frame {
    /// The bottom: the expression read is the result.
    Done,
    /// `lhs op _`.
    Bin { lhs: ExprId, op: u8, lo: u32 },
    /// `callee(args.., _`: the arguments so far are on the item stack from `start`, the
    /// type arguments on the type-argument stack from `tstart`.
    Call {
        callee: ExprId,
        start: u32,
        tstart: u32,
        lo: u32,
    },
    /// `(items.., _`.
    Paren { start: u32, comma: bool, lo: u32 },
    /// An expression statement from `lo`: `_;` continues the sequence.
    SeqExpr { lo: u32 },
    /// `let %x = _;`.
    LetValue {
        var: VarId,
        lo: u32,
        /// For a function's `let` (bound before its value, so that it may call itself, as
        /// TVM binds it): the locals' mark before it was bound.
        early: Option<u32>,
    },
    /// `let %x = value; .. _`: a chain of `let`s (and `e;` statements), built as it is
    /// read: the first `Let` node and the last, whose body is still to come (`mark`: the
    /// locals' log before the first was bound, or [`UNLOGGED`] for a definition's body,
    /// whose bindings are not logged: the definition's end clears every local).
    LetChain {
        first: ExprId,
        last: ExprId,
        mark: u32,
    },
    /// The body of a function literal or definition (its state is on the `fns` stack);
    /// not `braced` for a printed expression read as `@main` ([`Parser::expr_program`]).
    Fn { lo: u32, top: bool, braced: bool },
    /// `{ _ }`.
    Block,
    /// `(let .. ; _)`.
    ParenSeq,
    /// `if (_)`.
    IfCond { lo: u32 },
    /// `if (c) { _ }`.
    IfThen { c: ExprId, lo: u32 },
    /// `if (c) { t } else { _ }`.
    IfElse { c: ExprId, t: ExprId, lo: u32 },
    /// `if (c) { t } else _`, where `_` is another `if`.
    IfElseIf { c: ExprId, t: ExprId, lo: u32 },
    /// `match (_)`.
    MatchScrut { lo: u32, complete: bool },
    /// The arms of a match read so far are on the arm stack from `start`.
    MatchArms {
        scrut: ExprId,
        start: u32,
        lo: u32,
        complete: bool,
    },
    /// `pattern => _` or `case pattern { _ }`.
    MatchArm {
        pattern: PatId,
        mark: u32,
        braced: bool,
    },
    /// `ref(_)`.
    RefNew { lo: u32 },
    /// `ref_read(_)`.
    RefRead { lo: u32 },
    /// `ref_write(_, ..)`.
    RefWrite1 { lo: u32 },
    /// `ref_write(r, _)`.
    RefWrite2 { r: ExprId, lo: u32 },
}

/// What the loop does next.
#[derive(Copy, Clone, Debug)]
pub(super) enum Mode {
    /// At the start of a sequence of statements.
    Seq,
    /// Before an operand.
    Operand,
    /// After an operand: postfix and infix operators may follow.
    After(ExprId),
    /// A finished expression for the frame on top.
    Deliver(ExprId),
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

/// The data type of the float literal TVM prints for an infinity or a NaN (`inff`,
/// `nanf16`), if `name` is one.
fn float_word(name: &str) -> Option<crate::DType> {
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
fn tvm_alias(name: &str) -> Option<&'static str> {
    match name {
        "contrib_reverse_reshape" => Some("reverse_reshape"),
        _ => None,
    }
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
    /// Runs the loop from `mode` until the [`Frame::Done`] at the bottom of the stack
    /// receives an expression.
    pub(super) fn run(&mut self, mut mode: Mode) -> PResult<ExprId> {
        loop {
            mode = match mode {
                Mode::Seq => self.seq_start()?,
                Mode::Operand => self.operand()?,
                Mode::After(e) => self.after(e)?,
                Mode::Deliver(e) => match self.deliver(e)? {
                    Some(m) => m,
                    None => return Ok(e),
                },
            };
        }
    }

    fn lo_of(&self, e: ExprId) -> u32 {
        // A shared operator node starts where it was last mentioned (what follows it).
        if e == self.last_op.0 {
            return self.last_op.1;
        }
        self.m.expr(e).span.lo
    }

    /// A statement: `let %x: T = e;`, `%0 = e;` or an expression.
    fn seq_start(&mut self) -> PResult<Mode> {
        let lo = self.tok.lo;
        if self.is_word("let") {
            if let Some(mode) = self.simple_let()? {
                return Ok(mode);
            }
        }
        let graph = self.is(Tok::Local) && self.peek2()?.kind == Tok::Eq;
        if !(graph || self.is_word("let")) {
            if self.is_word("free_var") {
                if !self.in_expr_program() {
                    return Err(self.free_var());
                }
                self.free_var_decl()?;
                return Ok(Mode::Seq);
            }
            self.frames.push(Frame::SeqExpr { lo });
            return Ok(Mode::Operand);
        }
        if !graph {
            self.bump()?;
        }
        let name = self.expect(Tok::Local, "a variable `%name` after `let`")?;
        let name = self.binder(name)?;
        let ann = if !graph && self.eat(Tok::Colon)? {
            Some(self.ty()?)
        } else {
            None
        };
        self.expect(Tok::Eq, "`=`")?;
        let var = self.new_local(name, ann);
        // `let %loop = fn (..) { .. %loop(..) }`: a function sees its own name.
        let early = (!graph && self.is_word("fn")).then(|| {
            let mark = self.names.mark() as u32;
            self.bind_local(var);
            mark
        });
        self.frames.push(Frame::LetValue { var, lo, early });
        Ok(Mode::Operand)
    }

    /// Adds `let var = value;` (the statement at `lo..hi`) to the chain of `let`s being
    /// read, starting one unless the frame on top is one; before `var` is bound.
    ///
    /// The `Let` node is built now, whole, so a chain of a million holds nothing aside and
    /// is never gone over again: its span is its statement's, and its body is the value
    /// until the next `let` (or the chain's result) is known, which keeps an abandoned
    /// chain a well-formed tree.
    #[inline(always)]
    pub(super) fn chain_let(&mut self, var: VarId, value: ExprId, lo: u32, hi: u32) {
        self.chain_let_from(var, value, lo, hi, None);
    }

    /// [`Parser::chain_let`], where a chain it starts undoes the locals back to `mark`
    /// if given (its variable was bound before its value).
    fn chain_let_from(&mut self, var: VarId, value: ExprId, lo: u32, hi: u32, mark: Option<u32>) {
        let id = self.m.at(Span { lo, hi }).let_(var, value, value);
        if let Some(Frame::LetChain { last, .. }) = self.frames.last_mut() {
            self.m.set_let_body(*last, id);
            *last = id;
        } else {
            let mark = if matches!(self.frames.last(), Some(Frame::Fn { top: true, .. })) {
                UNLOGGED
            } else {
                mark.unwrap_or(self.names.mark() as u32)
            };
            self.frames.push(Frame::LetChain {
                first: id,
                last: id,
                mark,
            });
        }
    }

    /// Binds the variable of the chain's latest `let` (unlogged in a definition's body).
    #[inline]
    pub(super) fn bind_chained(&mut self, var: VarId) {
        match self.frames.last() {
            Some(Frame::LetChain { mark: UNLOGGED, .. }) => self.names.bind_chained(&self.m, var),
            _ => self.bind_local(var),
        }
    }

    /// An operand: a name, a literal, or the start of a construct.
    fn operand(&mut self) -> PResult<Mode> {
        let t = self.tok;
        match t.kind {
            Tok::Local => {
                self.bump()?;
                // `%input.1`: the longest name bound so, else projections of `%input`.
                let mut t = t;
                // `%unsanitary-name++_0_i0`: the same, with `-` and `+` parts.
                let against = self.tok.lo == t.hi;
                if against && matches!(self.tok.kind, Tok::Dot | Tok::Minus | Tok::Plus) {
                    t = self.longest_bound(t)?;
                }
                let name = &self.text(t)[1..];
                Ok(match self.names.local(&self.m, name) {
                    // An argument of a call, alone (what `after` would deliver to the
                    // call at once): a compact mention.
                    Some(v)
                        if matches!(self.tok.kind, Tok::Comma | Tok::RParen)
                            && matches!(self.frames.last(), Some(Frame::Call { .. })) =>
                    {
                        let e = self.m.at(t.span()).var_mention(v);
                        self.items_stack.push(e);
                        self.after_argument()?
                    }
                    Some(v) => Mode::After(self.m.at(t.span()).var_ref(v)),
                    None => match self.free_var_named(name) {
                        Some(v) => Mode::After(self.m.at(t.span()).var_ref(v)),
                        None => Mode::After(self.unbound_local(t)),
                    },
                })
            }
            Tok::Global => {
                self.bump()?;
                let e = self.global_mention(t);
                let adjacent = self.tok.lo == t.hi;
                if adjacent && (self.is(Tok::Lt) || self.is(Tok::LBracket)) {
                    return self.type_args_call(e);
                }
                Ok(Mode::After(e))
            }
            Tok::Num | Tok::Minus => {
                let negative = self.eat(Tok::Minus)?;
                if let Some(f) = negative
                    .then(|| float_word(self.text(self.tok)))
                    .flatten()
                    .filter(|_| self.is(Tok::Ident))
                {
                    self.bump()?;
                    return Ok(Mode::After(self.scalar(f, t.lo)));
                }
                if negative && !self.is(Tok::Num) {
                    return Err(self.expected("a number after a unary `-`"));
                }
                let n = self.bump()?;
                let num = self.number(n, negative, t.lo)?;
                let mut dtype = num.dtype();
                // TVM 0.8 and earlier printed an int64 scalar without its suffix
                // (`2 /* ty=int64 */`): a bare integer takes the integer dtype printed on it.
                if self.text(n).bytes().all(|c| c.is_ascii_digit()) {
                    let printed =
                        crate::text::printed_type(self.src, n.hi as usize, self.tok.lo as usize)
                            .and_then(|(_, ty)| {
                                ty.split_whitespace().next()?.parse::<crate::DType>().ok()
                            });
                    if let Some(d) = printed.filter(|d| d.is_int() && d.lanes() == 1) {
                        dtype = d;
                    }
                }
                Ok(Mode::After(self.scalar(dtype, t.lo)))
            }
            Tok::LParen => {
                self.bump()?;
                // `(let %f = ..; %f)`: statements in parentheses, as TVM prints a `let`
                // used as a value.
                if self.is_word("let") {
                    self.frames.push(Frame::ParenSeq);
                    return Ok(Mode::Seq);
                }
                if self.eat(Tok::RParen)? {
                    let span = self.span_from(t.lo);
                    return Ok(Mode::After(self.m.at(span).tuple(&[])));
                }
                let start = self.items_stack.len() as u32;
                self.frames.push(Frame::Paren {
                    start,
                    comma: false,
                    lo: t.lo,
                });
                Ok(Mode::Operand)
            }
            Tok::LBrace => {
                self.bump()?;
                self.frames.push(Frame::Block);
                Ok(Mode::Seq)
            }
            Tok::Ident => self.word(t),
            _ => Err(self.expected("an expression")),
        }
    }

    fn scalar(&mut self, dtype: crate::DType, lo: u32) -> ExprId {
        let ty = self.tcx.scalar(dtype);
        let span = self.span_from(lo);
        self.m.at(span).constant(ty)
    }

    /// An operand that starts with a name: a keyword, a constructor or an operator.
    fn word(&mut self, t: Token) -> PResult<Mode> {
        let lo = t.lo;
        let name = self.text(t);
        self.bump()?;
        let frame = match name {
            "fn" => {
                self.fn_header()?;
                self.expect(Tok::LBrace, "`{`")?;
                self.frames.push(Frame::Fn {
                    lo,
                    top: false,
                    braced: true,
                });
                return Ok(Mode::Seq);
            }
            "True" | "False" => {
                return Ok(Mode::After(self.scalar(crate::DType::BOOL, lo)));
            }
            "if" => Frame::IfCond { lo },
            "match" => {
                let complete = !(self.is(Tok::Question) && self.tok.lo == t.hi);
                if !complete {
                    self.bump()?;
                }
                // The scrutinee reads its own parentheses, if any: `match (%a, %b)` is a
                // tuple, TVM prints `match %x {`.
                self.frames.push(Frame::MatchScrut { lo, complete });
                return Ok(Mode::Operand);
            }
            "ref" => Frame::RefNew { lo },
            "ref_read" => Frame::RefRead { lo },
            "ref_write" => Frame::RefWrite1 { lo },
            "let" | "else" | "def" | "type" | "data" | "case" => {
                return Err(crate::text::parser::ParseError {
                    span: t.span(),
                    message: format!("expected an expression, found `{name}`"),
                    labels: Vec::new(),
                    help: None,
                })
            }
            _ => {
                let word = match self.words.get(name) {
                    Some(&w) => w,
                    None => {
                        let w = if let Some(c) = self.adts.ctor(name) {
                            Word::Ctor(c)
                        } else if let Some(op) = self
                            .adts
                            .registry()
                            .ok()
                            .and_then(|r| r.op(name).or_else(|| r.op(tvm_alias(name)?)))
                        {
                            Word::Op(op, None)
                        } else {
                            Word::Unknown
                        };
                        self.words.insert(name, w);
                        w
                    }
                };
                let e = if let Word::Ctor(c) = word {
                    let e = self.m.at(t.span()).ctor(c);
                    // A constructor without fields, not called: the call, as TVM reads it
                    // (`Nil` is `Nil()`).
                    if !self.is(Tok::LParen) && self.adts.ctor_info(self.tcx, c).fields.is_empty() {
                        self.m.at(t.span()).call(e, &[])
                    } else {
                        e
                    }
                } else if let Some(f) = float_word(name) {
                    self.scalar(f, lo)
                } else if let Word::Op(op, node) = word {
                    let e = match node {
                        Some(e) => e,
                        None => {
                            let e = self.m.at(t.span()).op(op);
                            self.words.insert(name, Word::Op(op, Some(e)));
                            e
                        }
                    };
                    self.last_op = (e, t.lo);
                    e
                } else if let Some(v) = self.names.local(&self.m, name) {
                    // A variable bound without `%` by a pattern (the spec's `case Single(x)`).
                    self.m.at(t.span()).var_ref(v)
                } else if name == "meta" && self.is(Tok::LBracket) {
                    return self.meta_reference(lo);
                } else {
                    self.unknown_word(t)
                };
                return Ok(Mode::After(e));
            }
        };
        self.expect(Tok::LParen, "`(`")?;
        self.frames.push(frame);
        Ok(Mode::Operand)
    }

    /// `<T, ..>(` or `[T, ..](` after a global, adjacent to its name.
    fn type_args_call(&mut self, callee: ExprId) -> PResult<Mode> {
        let close = if self.eat(Tok::Lt)? {
            Tok::Gt
        } else {
            self.bump()?;
            Tok::RBracket
        };
        let tstart = self.targs.len() as u32;
        while !self.eat(close)? {
            let a = self.type_arg()?;
            self.targs.push(a);
            if !self.eat(Tok::Comma)? && !self.is(close) {
                let c = if close == Tok::Gt { "`>`" } else { "`]`" };
                return Err(self.expected(&format!("`,` or {c}")));
            }
        }
        self.expect(Tok::LParen, "`(` after the type arguments")?;
        self.start_call(callee, tstart)
    }

    /// After an argument of the call whose frame is on top, pushed on the item stack:
    /// the next argument, the attributes or the `)`.
    fn after_argument(&mut self) -> PResult<Mode> {
        if self.eat(Tok::Comma)? {
            self.call_next()
        } else if self.is(Tok::RParen) {
            self.finish_call(None)
        } else {
            Err(self.expected("`,` or `)`"))
        }
    }

    /// After `callee(`: pushes the call's frame and reads on.
    fn start_call(&mut self, callee: ExprId, tstart: u32) -> PResult<Mode> {
        let start = self.items_stack.len() as u32;
        let lo = self.lo_of(callee);
        self.frames.push(Frame::Call {
            callee,
            start,
            tstart,
            lo,
        });
        self.call_next()
    }

    /// In a call's argument list, before an argument, the attributes or the `)`.
    fn call_next(&mut self) -> PResult<Mode> {
        if self.is(Tok::RParen) {
            return self.finish_call(None);
        }
        // `op(%x, meta[relay.attrs.Conv2DAttrs][0])`: the attributes, in the metadata.
        if self.is_word("meta") && self.src[self.tok.hi as usize..].starts_with("[relay.attrs.") {
            return self.meta_attrs();
        }
        if self.at_attr()? {
            let attrs = self.attrs()?;
            return self.finish_call(attrs);
        }
        Ok(Mode::Operand)
    }

    pub(super) fn finish_call(
        &mut self,
        attrs: Option<std::sync::Arc<crate::Attrs>>,
    ) -> PResult<Mode> {
        self.expect(Tok::RParen, "`)`")?;
        let Some(Frame::Call {
            callee,
            start,
            tstart,
            lo,
        }) = self.frames.pop()
        else {
            unreachable!("a call's frame is on top")
        };
        let span = self.span_from(lo);
        let e = self.m.at(span).call_full(
            callee,
            &self.items_stack[start as usize..],
            attrs,
            &self.targs[tstart as usize..],
        );
        self.items_stack.truncate(start as usize);
        self.targs.truncate(tstart as usize);
        Ok(Mode::After(e))
    }

    /// After an operand: calls, projections, then infix operators.
    fn after(&mut self, e: ExprId) -> PResult<Mode> {
        match self.tok.kind {
            // In TVM 0.5's text a line ends a binding: `(` on the next line starts the
            // body (a tuple), not a call.
            Tok::LParen if !self.line_ended() => {
                self.bump()?;
                let tstart = self.targs.len() as u32;
                return self.start_call(e, tstart);
            }
            Tok::Dot => {
                self.bump()?;
                let i = self.expect(Tok::Num, "a field index after `.`")?;
                let index = self.text(i).parse::<u32>().map_err(|_| super::ParseError {
                    span: i.span(),
                    message: format!("expected a field index after `.`, found `{}`", self.text(i)),
                    labels: Vec::new(),
                    help: None,
                })?;
                let span = self.span_from(self.lo_of(e));
                return Ok(Mode::After(self.m.at(span).proj(e, index)));
            }
            _ => {}
        }
        let op = BINOPS.iter().position(|&(k, _, _)| k == self.tok.kind);
        let prec = op.map_or(0, |i| BINOPS[i].1);
        let mut rhs = e;
        while let Some(&Frame::Bin { lhs, op: o, lo }) = self.frames.last() {
            if BINOPS[o as usize].1 < prec {
                break;
            }
            self.frames.pop();
            rhs = self.binary(o, lhs, rhs, lo);
        }
        match op {
            Some(i) => {
                let lo = self.lo_of(rhs);
                self.bump()?;
                self.frames.push(Frame::Bin {
                    lhs: rhs,
                    op: i as u8,
                    lo,
                });
                Ok(Mode::Operand)
            }
            None => Ok(Mode::Deliver(rhs)),
        }
    }

    /// `lhs op rhs` as a call of the operator it stands for.
    fn binary(&mut self, op: u8, lhs: ExprId, rhs: ExprId, lo: u32) -> ExprId {
        let span = Span {
            lo,
            hi: self.prev_hi,
        };
        let adts = &self.adts;
        let def = *self.binops[op as usize].get_or_insert_with(|| adts.op(BINOPS[op as usize].2));
        let callee = match def {
            Some(def) => self.m.at(span).op(def),
            None => {
                let (_, _, name) = BINOPS[op as usize];
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

    /// Gives `e` to the frame on top; `None` when that is the bottom.
    fn deliver(&mut self, e: ExprId) -> PResult<Option<Mode>> {
        let frame = self
            .frames
            .pop()
            .expect("the bottom frame is never delivered past");
        let mode = match frame {
            Frame::Done => return Ok(None),
            Frame::Bin { .. } => unreachable!("infix frames are reduced before delivering"),
            Frame::Call { .. } => {
                self.frames.push(frame);
                self.items_stack.push(e);
                self.after_argument()?
            }
            Frame::Paren { start, comma, lo } => {
                self.items_stack.push(e);
                let mut comma = comma;
                if self.eat(Tok::Comma)? {
                    comma = true;
                    if !self.is(Tok::RParen) {
                        self.frames.push(Frame::Paren { start, comma, lo });
                        return Ok(Some(Mode::Operand));
                    }
                }
                self.expect(Tok::RParen, "`,` or `)`")?;
                let items = self.items_stack.split_off(start as usize);
                if items.len() == 1 && !comma {
                    Mode::After(items[0])
                } else {
                    let span = self.span_from(lo);
                    Mode::After(self.m.at(span).tuple(&items))
                }
            }
            Frame::SeqExpr { lo } => {
                if !self.eat(Tok::Semi)? || self.is(Tok::RBrace) || self.is(Tok::Eof) {
                    Mode::Deliver(e)
                } else {
                    let span = self.m.expr(e).span;
                    let var = self.m.at(span).var("_", None);
                    self.chain_let(var, e, lo, self.prev_hi);
                    Mode::Seq
                }
            }
            Frame::LetValue { var, lo, early } => {
                // TVM 0.5 ended a binding with its line.
                if !self.line_ended() {
                    self.expect(Tok::Semi, "`;` after the bound value")?;
                }
                self.chain_let_from(var, e, lo, self.prev_hi, early);
                if early.is_none() {
                    self.bind_chained(var);
                }
                Mode::Seq
            }
            Frame::LetChain { first, last, mark } => {
                // When the frame below is the function's, it unbinds further back before
                // anything else is read, so the locals need not be undone here.
                if !matches!(self.frames.last(), Some(Frame::Fn { .. })) {
                    debug_assert_ne!(mark, UNLOGGED, "a definition's body is in its function");
                    self.unbind_locals(mark as usize);
                }
                self.m.set_let_body(last, e);
                Mode::Deliver(first)
            }
            Frame::Fn { lo, top, braced } => {
                if braced {
                    self.expect(Tok::RBrace, "`}`")?;
                }
                let st = self.fns.pop().expect("a function's state");
                if top {
                    // Its unlogged bindings too.
                    self.names.clear_locals();
                } else {
                    self.unbind_locals(st.mark);
                }
                self.restore_types(st.type_restore);
                let span = self.span_from(lo);
                let (tps, ps) = (st.type_params.into(), st.params.into_boxed_slice());
                let f = self.m.at(span).func_of(tps, ps, st.ret.map(|r| r.0), e);
                if let Some(attrs) = st.attrs {
                    self.m.set_func_attrs(f, attrs);
                }
                if let Some((_, span)) = st.ret {
                    self.m.set_ret_span(f, span);
                }
                if top {
                    Mode::Deliver(f)
                } else {
                    Mode::After(f)
                }
            }
            Frame::Block => {
                self.expect(Tok::RBrace, "`}`")?;
                Mode::After(e)
            }
            Frame::ParenSeq => {
                self.expect(Tok::RParen, "`)`")?;
                Mode::After(e)
            }
            Frame::IfCond { lo } => {
                self.expect(Tok::RParen, "`)`")?;
                self.expect(Tok::LBrace, "`{`")?;
                self.frames.push(Frame::IfThen { c: e, lo });
                Mode::Seq
            }
            Frame::IfThen { c, lo } => {
                self.expect(Tok::RBrace, "`}`")?;
                self.expect_word("else")?;
                if self.is_word("if") {
                    self.frames.push(Frame::IfElseIf { c, t: e, lo });
                    return Ok(Some(Mode::Operand));
                }
                self.expect(Tok::LBrace, "`{`")?;
                self.frames.push(Frame::IfElse { c, t: e, lo });
                Mode::Seq
            }
            Frame::IfElseIf { c, t, lo } => {
                // As an `if` with a braced `else`: an operand (an infix operator's right
                // one, say, whose frame is below).
                let span = self.span_from(lo);
                Mode::After(self.m.at(span).if_(c, t, e))
            }
            Frame::IfElse { c, t, lo } => {
                self.expect(Tok::RBrace, "`}`")?;
                let span = self.span_from(lo);
                Mode::After(self.m.at(span).if_(c, t, e))
            }
            Frame::MatchScrut { lo, complete } => {
                self.expect(Tok::LBrace, "`{`")?;
                self.frames.push(Frame::MatchArms {
                    scrut: e,
                    start: self.arms.len() as u32,
                    lo,
                    complete,
                });
                self.arm_start()?
            }
            Frame::MatchArm {
                pattern,
                mark,
                braced,
            } => {
                if braced {
                    self.expect(Tok::RBrace, "`}`")?;
                }
                self.unbind_locals(mark as usize);
                self.arms.push(Arm { pattern, body: e });
                self.eat(Tok::Comma)?;
                self.arm_start()?
            }
            Frame::MatchArms { .. } => unreachable!("arms are read by `arm_start`"),
            Frame::RefNew { lo } | Frame::RefRead { lo } => {
                self.expect(Tok::RParen, "`)`")?;
                let span = self.span_from(lo);
                Mode::After(if matches!(frame, Frame::RefNew { .. }) {
                    self.m.at(span).ref_new(e)
                } else {
                    self.m.at(span).ref_read(e)
                })
            }
            Frame::RefWrite1 { lo } => {
                self.expect(Tok::Comma, "`,`")?;
                self.frames.push(Frame::RefWrite2 { r: e, lo });
                Mode::Operand
            }
            Frame::RefWrite2 { r, lo } => {
                self.expect(Tok::RParen, "`)`")?;
                let span = self.span_from(lo);
                Mode::After(self.m.at(span).ref_write(r, e))
            }
        };
        Ok(Some(mode))
    }

    /// In a match's arms: the next arm, or the `}` that ends the match.
    fn arm_start(&mut self) -> PResult<Mode> {
        if self.eat(Tok::RBrace)? {
            let Some(Frame::MatchArms {
                scrut,
                start,
                lo,
                complete,
            }) = self.frames.pop()
            else {
                unreachable!("the match's frame is on top")
            };
            let arms = self.arms.split_off(start as usize);
            let span = self.span_from(lo);
            return Ok(Mode::After(self.m.at(span).match_(scrut, &arms, complete)));
        }
        if self.is_word("case") {
            self.bump()?;
        }
        let mark = self.names.mark() as u32;
        let pattern = self.pattern(0)?;
        let braced = if self.eat(Tok::FatArrow)? {
            false
        } else if self.eat(Tok::LBrace)? {
            true
        } else {
            return Err(self.expected("`=>` or `{` after the pattern"));
        };
        self.frames.push(Frame::MatchArm {
            pattern,
            mark,
            braced,
        });
        Ok(Mode::Seq)
    }
}
