//! What `relay_op!` checks at compile time between an operator and its relation: that it
//! gives the relation as many arguments as the relation takes ([`Disagreement::arity`]),
//! and that the attributes the relation's clause declares are the operator's, of the same
//! types and defaults ([`Disagreement::attrs`]). Each is evaluated in a constant next to
//! the operator; a disagreement panics with its text, a compile error at the relation's
//! name in the `where` clause.
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
//!
//! ```compile_fail,E0080
//! use relay_core::{relation, relay_op};
//!
//! #[relation(Pick(T, O) :- O = T, attrs(axis: int = -1))]
//! pub struct Pick;
//!
//! relay_op! {
//!     // The operator's default is not the clause's.
//!     pick : fn<a, b>(a) -> b where Pick, attrs { axis: int = 0 };
//! }
//! # fn main() {}
//! ```

/// An attribute as a declaration writes it, in a canonical text both macros write the
/// same way: its type (`int`, `[int]`, `Option<dtype>`; a clause's `shape` is `[int]`)
/// and its default (`-1`, `0.5`, `"NCHW"`, `float32`, `[1, 1]`, `None`), if it has one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AttrSig {
    /// The attribute's name.
    pub name: &'static str,
    /// Its type.
    pub ty: &'static str,
    /// Its default; `None` for a required attribute (or a default the clause computes).
    pub default: Option<&'static str>,
}

/// The text of a disagreement, built in a constant (no allocation: a fixed buffer, cut
/// past its size); empty when they agree.
pub struct Disagreement {
    buf: [u8; 1024],
    len: usize,
}

impl Disagreement {
    const NONE: Disagreement = Disagreement {
        buf: [0; 1024],
        len: 0,
    };

    /// The error of operator `op` with `args` arguments whose relation, written `rel`,
    /// takes `takes` arguments ([`Relation::ARITY`](crate::Relation::ARITY)); empty if it takes `args + 1` (or
    /// any number, as an imperative relation does).
    ///
    /// ```
    /// use relay_core::agreement::Disagreement;
    /// use relay_core::{relation, Relation};
    ///
    /// #[relation(Same(A, A) :- true)]
    /// pub struct Same;
    ///
    /// const OK: Disagreement = Disagreement::arity(Same::ARITY, "copy", "Same", 1);
    /// assert_eq!(OK.as_str(), "");
    /// const WRONG: Disagreement = Disagreement::arity(Same::ARITY, "add", "Same", 2);
    /// assert_eq!(
    ///     WRONG.as_str(),
    ///     "relation `Same` takes 2 arguments, but operator `add` gives it 3 (its 2 \
    ///      arguments and its result): `Same`'s head has one term per argument of the \
    ///      operator, then one for its result"
    /// );
    /// ```
    pub const fn arity(takes: Option<usize>, op: &str, rel: &str, args: usize) -> Disagreement {
        let takes = match takes {
            Some(n) if n != args + 1 => n,
            _ => return Self::NONE,
        };
        let m = Self::NONE.push("relation `").push(rel).push("` takes ");
        let m = m.count(takes, "argument").push(", but operator `").push(op);
        let m = m.push("` gives it ").num(args + 1).push(" (its ");
        let m = m
            .count(args, "argument")
            .push(" and its result): `")
            .push(rel);
        m.push("`'s head has one term per argument of the operator, then one for its result")
    }

    /// The disagreements between the attributes `rel_attrs` the clause of relation `rel`
    /// declares ([`Relation::ATTRS`](crate::Relation::ATTRS)) and those operator `op` declares (`op_attrs`), one
    /// per line: an attribute the operator does not declare, a type or a default that
    /// is not the operator's. Empty if every attribute of the clause is the operator's
    /// (the operator may declare more: attributes no relation reads). An operator's
    /// `Option<T> = None` agrees with a clause's `T = d`: where the clause reads `None`
    /// (what a call without the attribute gets) it reads `d`, as TVM's relations do with
    /// an unset dtype.
    ///
    /// ```
    /// use relay_core::agreement::{AttrSig, Disagreement};
    /// const AXIS: AttrSig = AttrSig { name: "axis", ty: "int", default: Some("-1") };
    /// const CLAUSE: [AttrSig; 2] = [AXIS, AttrSig { name: "eps", ty: "float", default: None }];
    /// const OP: [AttrSig; 1] = [AttrSig { default: Some("0"), ..AXIS }];
    /// const D: Disagreement = Disagreement::attrs(&CLAUSE, &OP, "pick", "Pick");
    /// assert_eq!(
    ///     D.as_str(),
    ///     "attribute `axis` of relation `Pick` has the default `-1` in its clause, but operator \
    ///      `pick` declares `axis: int = 0`: declare it alike in both\n\
    ///      relation `Pick` reads attribute `eps`, which operator `pick` does not declare: \
    ///      declare `eps: float` in its `attrs { .. }`"
    /// );
    /// ```
    pub const fn attrs(
        rel_attrs: &[AttrSig],
        op_attrs: &[AttrSig],
        op: &str,
        rel: &str,
    ) -> Disagreement {
        let mut m = Self::NONE;
        let mut i = 0;
        while i < rel_attrs.len() {
            let r = rel_attrs[i];
            i += 1;
            let mut found = None;
            let mut j = 0;
            while j < op_attrs.len() {
                if str_eq(op_attrs[j].name, r.name) {
                    found = Some(op_attrs[j]);
                }
                j += 1;
            }
            // The operator's `Option<T> = None` is the clause's `T = d`: `None` given (or
            // nothing) is `d` where the clause reads it.
            let none_is_default = match (r.default, found) {
                (Some(_), Some(o)) => {
                    is_option_of(o.ty, r.ty) && matches!(o.default, Some(d) if str_eq(d, "None"))
                }
                _ => false,
            };
            let same_default = match (r.default, found) {
                _ if none_is_default => true,
                (
                    Some(a),
                    Some(AttrSig {
                        default: Some(b), ..
                    }),
                ) => str_eq(a, b),
                _ => true,
            };
            m = match found {
                None => {
                    let m = m
                        .line()
                        .push("relation `")
                        .push(rel)
                        .push("` reads attribute `");
                    let m = m.push(r.name).push("`, which operator `").push(op);
                    let m = m
                        .push("` does not declare: declare `")
                        .push(r.name)
                        .push(": ");
                    m.push(r.ty).push("` in its `attrs { .. }`")
                }
                Some(o) if !str_eq(o.ty, r.ty) && !none_is_default => {
                    let m = m
                        .line()
                        .push("attribute `")
                        .push(r.name)
                        .push("` of relation `");
                    let m = m.push(rel).push("` is of type `").push(r.ty);
                    let m = m
                        .push("` in its clause, but operator `")
                        .push(op)
                        .push("` declares `");
                    m.sig(o).push("`: declare it alike in both")
                }
                Some(o) if !same_default => {
                    let m = m
                        .line()
                        .push("attribute `")
                        .push(r.name)
                        .push("` of relation `");
                    let m = m.push(rel).push("` has the default `");
                    let m = match r.default {
                        Some(d) => m.push(d),
                        None => m,
                    };
                    let m = m
                        .push("` in its clause, but operator `")
                        .push(op)
                        .push("` declares `");
                    m.sig(o).push("`: declare it alike in both")
                }
                Some(_) => m,
            };
        }
        m
    }

    /// The text (empty: no disagreement).
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

    /// Whether there is no disagreement.
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

    /// A line break before what follows, unless it is the first line.
    const fn line(self) -> Self {
        if self.len == 0 {
            self
        } else {
            self.push("\n")
        }
    }

    /// `name: ty = default` (without `= ..` if it has none).
    const fn sig(self, a: AttrSig) -> Self {
        let m = self.push(a.name).push(": ").push(a.ty);
        match a.default {
            Some(d) => m.push(" = ").push(d),
            None => m,
        }
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

/// Whether `a` and `b` are the same text (`==` is not `const`).
const fn str_eq(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), b.as_bytes())
}

/// Whether `a` and `b` are the same bytes (`==` is not `const`).
const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `o` is `Option<r>`.
const fn is_option_of(o: &str, r: &str) -> bool {
    let (o, r) = (o.as_bytes(), r.as_bytes());
    const OPEN: &[u8] = b"Option<";
    if o.len() != OPEN.len() + r.len() + 1 || o[o.len() - 1] != b'>' {
        return false;
    }
    let (open, rest) = o.split_at(OPEN.len());
    let (inner, _) = rest.split_at(r.len());
    bytes_eq(open, OPEN) && bytes_eq(inner, r)
}
