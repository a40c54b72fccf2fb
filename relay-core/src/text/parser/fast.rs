//! The fast path of the reader: the statements and parameters of a large program read
//! straight from the bytes, building exactly what the grammar builds, or nothing (and
//! the grammar reads them). It earns its lines on the reference workload (measured in
//! instructions of the whole `workload_phases` run at N = 100,000: 1.58x without both
//! paths, 1.34x without [`Parser::simple_params`] and the types kept by their text
//! ([`Parser::ty`])).
//!
//! - [`Parser::simple_lets`]: `let %x = op(%a, %b, attrs..);` whose operator and
//!   attribute list the source has met before, and the statements like it that follow;
//! - [`Parser::simple_params`]: a run of parameters `%x: T,` whose types were met
//!   before (a model's weights).
//!
//! The tests compare what it reads with what the grammar reads from the same text with
//! an empty comment before each local and after each `:`, which the fast path does not
//! take ([`crate::testing::commented`]).

use super::expressions::{blank, Chain};
use super::types::type_text;
use super::{PResult, Parser, Word};
use crate::expr::Span;
use crate::lexer::{dotted_end, is_ident_start, name_end};

impl Parser<'_, '_> {
    /// The common statement of a large program, `let %x = op(%a, %b, attrs..);`, read
    /// straight from the bytes, building what the grammar would build; and the
    /// statements like it that follow. `None`, with nothing done, for anything else:
    /// comments, an annotation, an argument that is not a bound local, an operator or
    /// attribute list not met before in this source (the grammar reads those first,
    /// and reports every error).
    pub(super) fn simple_lets(&mut self, chain: &mut Chain) -> PResult<bool> {
        let b = self.src.as_bytes();
        let (mut lo, mut hi) = (self.tok.lo as usize, self.tok.hi as usize);
        let mut next = None;
        while let Some(end) = self.simple_let_at(chain, lo, hi) {
            next = Some(end);
            // Another `let`, as the lexer would read it: blanks, then the word alone.
            let i = blank(b, end);
            if !b[i..].starts_with(b"let") || dotted_end(b, i) != i + 3 {
                break;
            }
            (lo, hi) = (i, i + 3);
        }
        let Some(end) = next else {
            return Ok(false);
        };
        self.jump(end)?;
        Ok(true)
    }

    /// One statement for [`Parser::simple_lets`], its `let` at `let_lo..let_hi`: the
    /// offset after its `;`, once built.
    fn simple_let_at(&mut self, chain: &mut Chain, let_lo: usize, let_hi: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let at = |i: usize| b.get(i).copied().unwrap_or(0);
        let blank = |i: usize| blank(b, i);
        let let_lo = let_lo as u32;
        // `%x`
        let name_lo = blank(let_hi);
        if at(name_lo) != b'%' {
            return None;
        }
        let name_hi = name_end(b, name_lo + 1);
        if name_hi == name_lo + 1 {
            return None;
        }
        // Its slot in the table of locals, likely far from the cache in a long chain,
        // asked for now: it arrives while the call is read.
        self.names.locals.prefetch(&b[name_lo + 1..name_hi]);
        // `=`
        let i = blank(name_hi);
        if at(i) != b'=' || matches!(at(i + 1), b'=' | b'>') {
            return None;
        }
        // The operator, already met.
        let op_lo = blank(i + 1);
        if !is_ident_start(at(op_lo)) {
            return None;
        }
        let op_hi = dotted_end(b, op_lo);
        let Some(&Word::Op(_, Some(callee))) = self.words.get(&self.src[op_lo..op_hi]) else {
            return None;
        };
        let mut i = blank(op_hi);
        if at(i) != b'(' {
            return None;
        }
        // Locals, or a tuple of locals alone, then perhaps attributes, to the `)`.
        self.fast_args.clear();
        let mut attrs = None;
        let mut tuple = None;
        loop {
            i = blank(i + 1);
            match at(i) {
                b'(' if self.fast_args.is_empty() => {
                    // `concatenate((%a, %b), axis=1)`: two locals or more, in `(..)`.
                    let lo = i;
                    loop {
                        i = self.fast_local(blank(i + 1))?;
                        match at(i) {
                            b',' => {}
                            b')' => break,
                            _ => return None,
                        }
                    }
                    if self.fast_args.len() < 2 {
                        return None;
                    }
                    tuple = Some(Span {
                        lo: lo as u32,
                        hi: i as u32 + 1,
                    });
                    i = blank(i + 1);
                }
                b'%' if tuple.is_none() => i = self.fast_local(i)?,
                c if is_ident_start(c) && !self.fast_args.is_empty() => {
                    let text = self.attrs_text(i)?;
                    attrs = Some(self.attr_lists.get(text)?.clone());
                    i = blank(i + text.len());
                    break;
                }
                _ => return None,
            }
            match at(i) {
                b',' => {}
                b')' => break,
                _ => return None,
            }
        }
        let call_hi = i + 1;
        let semi = blank(call_hi);
        if at(semi) != b';' {
            return None;
        }
        // Built as the grammar builds it: the variable, the mentions (or the tuple),
        // the call.
        let var = self.m.at(Span {
            lo: name_lo as u32,
            hi: name_hi as u32,
        });
        let var = var.var(&self.src[name_lo + 1..name_hi], None);
        let start = self.items_stack.len();
        for k in 0..self.fast_args.len() {
            let (v, span) = self.fast_args[k];
            // A tuple's fields are mentions of their own (compact ones are for a call's
            // argument list only); the tuple is the one argument.
            let e = match tuple {
                Some(_) => self.m.at(span).var_ref(v),
                None => self.m.at(span).var_mention(v),
            };
            self.items_stack.push(e);
        }
        if let Some(span) = tuple {
            let t = self.m.at(span).tuple(&self.items_stack[start..]);
            self.items_stack.truncate(start);
            self.items_stack.push(t);
        }
        self.last_op = (callee, op_lo as u32);
        let span = Span {
            lo: op_lo as u32,
            hi: call_hi as u32,
        };
        let value = self
            .m
            .at(span)
            .call_full(callee, &self.items_stack[start..], attrs, &[]);
        self.items_stack.truncate(start);
        self.chain_let(chain, var, value, let_lo, semi as u32 + 1, None);
        self.bind_chained(chain, var);
        Some(semi + 1)
    }

    /// For [`Parser::simple_let_at`]: the local `%name` at `i`, if bound, onto
    /// `fast_args`; the first byte after it that is not a blank.
    #[inline(always)]
    pub(super) fn fast_local(&mut self, i: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        if b.get(i) != Some(&b'%') {
            return None;
        }
        let hi = name_end(b, i + 1);
        let v = self.names.locals.get(&self.m, &b[i + 1..hi])?;
        let span = Span {
            lo: i as u32,
            hi: hi as u32,
        };
        self.fast_args.push((v, span));
        Some(blank(b, hi))
    }

    /// A run of parameters `%x: T,` whose types were met before (a model's weights), read
    /// straight from the bytes as the grammar reads them; then on to the next
    /// parameter or the `)`. Whether any was read (if none, nothing was done).
    pub(super) fn simple_params(&mut self, params: &mut Vec<crate::expr::VarId>) -> PResult<bool> {
        if self.type_cache_version != self.scope.version() {
            return Ok(false);
        }
        let b = self.src.as_bytes();
        let at = |i: usize| b.get(i).copied().unwrap_or(0);
        let mut i = self.tok.lo as usize;
        // Where the grammar would be after the last parameter read, and `prev_hi`.
        let mut resume = None;
        while at(i) == b'%' {
            let name_hi = name_end(b, i + 1);
            let colon = blank(b, name_hi);
            if name_hi == i + 1 || at(colon) != b':' {
                break;
            }
            let ty_lo = blank(b, colon + 1);
            // A type met before (the same text in the same scope).
            let text = type_text(self.src, ty_lo);
            let Some(&ty) = self.type_cache.get(text) else {
                break;
            };
            let ty_hi = ty_lo + text.len();
            let after = blank(b, ty_hi);
            let next = match at(after) {
                b',' => after + 1,
                b')' => after,
                _ => break,
            };
            let span = Span {
                lo: i as u32,
                hi: name_hi as u32,
            };
            params.push(self.m.at(span).var(&self.src[i + 1..name_hi], Some(ty)));
            resume = Some((next, if next == after { ty_hi } else { next }));
            if next == after {
                break;
            }
            i = blank(b, next);
        }
        let Some((next, prev_hi)) = resume else {
            return Ok(false);
        };
        self.seek(next)?;
        self.prev_hi = prev_hi as u32;
        Ok(true)
    }
}
