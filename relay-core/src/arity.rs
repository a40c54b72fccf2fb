//! The compile-time check that an operator gives its relation as many arguments as the
//! relation takes: `relay_op!` evaluates [`ArityMessage::check`] in a constant next to
//! each operator with a relation, and panics with its text (a compile error at the
//! relation's name in the `where` clause) when it is not empty.
//!
//! ```compile_fail,E0080
//! use relay_core::{relation, relay_op};
//!
//! #[relation(Two(A, A) :- true)]
//! pub struct Two;
//!
//! relay_op! {
//!     // One argument and the result: 2 (right); two and the result: 3 (wrong).
//!     pair : fn<a, b>(a, a) -> b where Two;
//! }
//! # fn main() {}
//! ```

#[cfg(doc)]
use crate::relation::Relation;

/// The text of an arity error, built in a constant (no allocation: a fixed buffer, cut
/// past its size).
pub struct ArityMessage {
    buf: [u8; 512],
    len: usize,
}

impl ArityMessage {
    /// The error of operator `op` with `args` arguments whose relation, written `rel`,
    /// takes `takes` arguments ([`Relation::ARITY`]); empty if it takes `args + 1` (or
    /// any number, as an imperative relation does).
    ///
    /// ```
    /// use relay_core::arity::ArityMessage;
    /// use relay_core::{relation, Relation};
    ///
    /// #[relation(Same(A, A) :- true)]
    /// pub struct Same;
    ///
    /// const OK: ArityMessage = ArityMessage::check(Same::ARITY, "copy", "Same", 1);
    /// assert_eq!(OK.as_str(), "");
    /// const WRONG: ArityMessage = ArityMessage::check(Same::ARITY, "add", "Same", 2);
    /// assert_eq!(
    ///     WRONG.as_str(),
    ///     "relation `Same` takes 2 arguments, but operator `add` gives it 3 (its 2 \
    ///      arguments and its result): `Same`'s head has one term per argument of the \
    ///      operator, then one for its result"
    /// );
    /// ```
    pub const fn check(takes: Option<usize>, op: &str, rel: &str, args: usize) -> ArityMessage {
        let m = ArityMessage {
            buf: [0; 512],
            len: 0,
        };
        let takes = match takes {
            Some(n) if n != args + 1 => n,
            _ => return m,
        };
        let m = m.push("relation `").push(rel).push("` takes ");
        let m = m.count(takes, "argument").push(", but operator `").push(op);
        let m = m.push("` gives it ").num(args + 1).push(" (its ");
        let m = m
            .count(args, "argument")
            .push(" and its result): `")
            .push(rel);
        m.push("`'s head has one term per argument of the operator, then one for its result")
    }

    /// The text (empty: no error).
    pub const fn as_str(&self) -> &str {
        match std::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            // Cut inside a character: the text up to the last whole one.
            Err(e) => match std::str::from_utf8(self.buf.split_at(e.valid_up_to()).0) {
                Ok(s) => s,
                Err(_) => "",
            },
        }
    }

    /// Whether there is no error.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    const fn push(mut self, s: &str) -> Self {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < self.buf.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn num(mut self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }

    /// `n noun`, plural unless `n` is 1.
    const fn count(self, n: usize, noun: &str) -> Self {
        let m = self.num(n).push(" ").push(noun);
        if n == 1 {
            m
        } else {
            m.push("s")
        }
    }
}
