//! Exhaustiveness and reachability of `match` arms, by pattern expansion over the pattern
//! matrix (Maranget's usefulness algorithm).
//!
//! Constructors are expanded only as deep as the patterns themselves go, so the analysis
//! terminates for recursive data types (`List`) too. A complete `match` that misses cases
//! is an error listing them (`Cons(_, Nil)`); an arm no value can reach is a warning.

use crate::adt::CtorRef;
use crate::expr::{Module, PatId, Pattern};
use crate::ty::TyCtx;

/// How deeply patterns are analysed; deeper patterns are reported as too deep, never a
/// stack overflow.
pub const MAX_PATTERN_DEPTH: usize = 256;

/// At most this many missing cases are listed.
pub const MAX_WITNESSES: usize = 8;

/// A pattern in the analysis: wildcards (variables too), constructors and tuples.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pat {
    Wild,
    Ctor(CtorRef, Vec<Pat>),
    Tuple(Vec<Pat>),
}

/// The head of a column: which constructor, and how many fields it has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Head {
    Ctor(CtorRef, usize),
    Tuple(usize),
}

/// The analysis of one `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// Cases no arm covers, printed (`Cons(_, Nil)`), at most [`MAX_WITNESSES`].
    pub missing: Vec<String>,
    /// The arms (by index) that no value can reach.
    pub unreachable: Vec<usize>,
    /// Whether a pattern was too deep to analyse.
    pub too_deep: bool,
}

struct Analysis<'a> {
    tcx: &'a TyCtx,
    too_deep: bool,
}

/// Analyses the arms' patterns, in order.
pub fn analyse(tcx: &TyCtx, m: &Module, arms: &[PatId]) -> MatchReport {
    let mut a = Analysis {
        tcx,
        too_deep: false,
    };
    let rows: Vec<Vec<Pat>> = arms.iter().map(|&p| vec![lower(m, p)]).collect();
    let mut unreachable = Vec::new();
    for i in 0..rows.len() {
        if !a.useful(&rows[..i], &rows[i], 0) {
            unreachable.push(i);
        }
    }
    let mut missing = Vec::new();
    for w in a.missing(&rows, 1, 0) {
        if missing.len() == MAX_WITNESSES {
            break;
        }
        missing.push(a.show(&w[0]));
    }
    MatchReport {
        missing,
        unreachable,
        too_deep: a.too_deep,
    }
}

/// The analysis form of a pattern (iterative: patterns nest to any depth).
fn lower(m: &Module, p: PatId) -> Pat {
    enum Frame {
        Visit(PatId),
        Build(PatId, usize),
    }
    let mut stack = vec![Frame::Visit(p)];
    let mut out: Vec<Pat> = Vec::new();
    while let Some(f) = stack.pop() {
        match f {
            Frame::Visit(p) => match m.pattern(p) {
                Pattern::Wildcard | Pattern::Var(_) => out.push(Pat::Wild),
                Pattern::Ctor(_, subs) | Pattern::Tuple(subs) => {
                    stack.push(Frame::Build(p, subs.len()));
                    stack.extend(subs.iter().rev().map(|&s| Frame::Visit(s)));
                }
            },
            Frame::Build(p, n) => {
                let fields = out.split_off(out.len() - n);
                out.push(match m.pattern(p) {
                    Pattern::Ctor(c, _) => Pat::Ctor(*c, fields),
                    _ => Pat::Tuple(fields),
                });
            }
        }
    }
    out.pop().expect("one pattern lowered")
}

impl Analysis<'_> {
    fn arity(&self, c: CtorRef) -> usize {
        self.tcx.adt_info(c.adt).ctors[c.index as usize]
            .fields
            .len()
    }

    /// The heads in the first column, each once, in order of appearance.
    fn heads(&self, rows: &[Vec<Pat>]) -> Vec<Head> {
        let mut heads = Vec::new();
        for r in rows {
            let h = match &r[0] {
                Pat::Wild => continue,
                Pat::Ctor(c, _) => Head::Ctor(*c, self.arity(*c)),
                Pat::Tuple(fields) => Head::Tuple(fields.len()),
            };
            if !heads.contains(&h) {
                heads.push(h);
            }
        }
        heads
    }

    /// Every head of the type of the first column, if `heads` names them all.
    fn complete(&self, heads: &[Head]) -> Option<Vec<Head>> {
        match heads.first()? {
            Head::Tuple(n) => Some(vec![Head::Tuple(*n)]),
            Head::Ctor(c, _) => {
                let all: Vec<Head> = (0..self.tcx.adt_info(c.adt).ctors.len())
                    .map(|i| {
                        let c = CtorRef {
                            adt: c.adt,
                            index: i as u32,
                        };
                        Head::Ctor(c, self.arity(c))
                    })
                    .collect();
                all.iter().all(|h| heads.contains(h)).then_some(all)
            }
        }
    }

    /// The rows that match `head`, with their first pattern replaced by its fields.
    fn specialize(&self, rows: &[Vec<Pat>], head: Head) -> Vec<Vec<Pat>> {
        let n = match head {
            Head::Ctor(_, n) | Head::Tuple(n) => n,
        };
        rows.iter()
            .filter_map(|r| {
                let fields = match (&r[0], head) {
                    (Pat::Wild, _) => vec![Pat::Wild; n],
                    // A pattern with the wrong number of fields is a type error reported
                    // elsewhere; it matches nothing here.
                    (Pat::Ctor(c, fs), Head::Ctor(h, k)) if *c == h && fs.len() == k => fs.clone(),
                    (Pat::Tuple(fs), Head::Tuple(k)) if fs.len() == k => fs.clone(),
                    _ => return None,
                };
                Some(fields.into_iter().chain(r[1..].iter().cloned()).collect())
            })
            .collect()
    }

    /// The rows whose first pattern is a wildcard, without it.
    fn default(&self, rows: &[Vec<Pat>]) -> Vec<Vec<Pat>> {
        rows.iter()
            .filter(|r| r[0] == Pat::Wild)
            .map(|r| r[1..].to_vec())
            .collect()
    }

    /// Whether some value matched by `q` is matched by no row.
    fn useful(&mut self, rows: &[Vec<Pat>], q: &[Pat], depth: usize) -> bool {
        if q.is_empty() {
            return rows.is_empty();
        }
        if depth > MAX_PATTERN_DEPTH {
            self.too_deep = true;
            return true;
        }
        match &q[0] {
            Pat::Ctor(c, fs) => {
                let spec = self.specialize(rows, Head::Ctor(*c, fs.len()));
                let q2: Vec<Pat> = fs.iter().cloned().chain(q[1..].iter().cloned()).collect();
                self.useful(&spec, &q2, depth + 1)
            }
            Pat::Tuple(fs) => {
                let spec = self.specialize(rows, Head::Tuple(fs.len()));
                let q2: Vec<Pat> = fs.iter().cloned().chain(q[1..].iter().cloned()).collect();
                self.useful(&spec, &q2, depth + 1)
            }
            Pat::Wild => {
                let heads = self.heads(rows);
                match self.complete(&heads) {
                    Some(all) => all.into_iter().any(|h| {
                        let n = match h {
                            Head::Ctor(_, n) | Head::Tuple(n) => n,
                        };
                        let spec = self.specialize(rows, h);
                        let q2: Vec<Pat> = std::iter::repeat_n(Pat::Wild, n)
                            .chain(q[1..].iter().cloned())
                            .collect();
                        self.useful(&spec, &q2, depth + 1)
                    }),
                    None => {
                        let d = self.default(rows);
                        self.useful(&d, &q[1..], depth + 1)
                    }
                }
            }
        }
    }

    /// Vectors of `n` patterns that no row matches (at most about [`MAX_WITNESSES`]).
    fn missing(&mut self, rows: &[Vec<Pat>], n: usize, depth: usize) -> Vec<Vec<Pat>> {
        if n == 0 {
            return if rows.is_empty() {
                vec![vec![]]
            } else {
                vec![]
            };
        }
        if depth > MAX_PATTERN_DEPTH {
            self.too_deep = true;
            return vec![];
        }
        let heads = self.heads(rows);
        let mut out = Vec::new();
        // Every head of the column's type, in declaration order: a head some row names is
        // expanded (its own fields may miss cases); one no row names is missing whenever
        // the rows with a wildcard here miss something in the other columns.
        let all: Vec<Head> = match heads.first() {
            None => Vec::new(),
            Some(Head::Tuple(k)) => vec![Head::Tuple(*k)],
            Some(Head::Ctor(c, _)) => (0..self.tcx.adt_info(c.adt).ctors.len())
                .map(|i| {
                    let c = CtorRef {
                        adt: c.adt,
                        index: i as u32,
                    };
                    Head::Ctor(c, self.arity(c))
                })
                .collect(),
        };
        let mut default_rest: Option<Vec<Vec<Pat>>> = None;
        if all.is_empty() {
            let d = self.default(rows);
            for w in self.missing(&d, n - 1, depth + 1) {
                out.push(std::iter::once(Pat::Wild).chain(w).collect());
                if out.len() >= MAX_WITNESSES {
                    break;
                }
            }
            return out;
        }
        for h in all {
            let k = match h {
                Head::Ctor(_, k) | Head::Tuple(k) => k,
            };
            let witnesses: Vec<Vec<Pat>> = if heads.contains(&h) {
                let spec = self.specialize(rows, h);
                self.missing(&spec, k + n - 1, depth + 1)
                    .into_iter()
                    .map(|w| {
                        let (fields, rest) = w.split_at(k);
                        let head = match h {
                            Head::Ctor(c, _) => Pat::Ctor(c, fields.to_vec()),
                            Head::Tuple(_) => Pat::Tuple(fields.to_vec()),
                        };
                        std::iter::once(head).chain(rest.iter().cloned()).collect()
                    })
                    .collect()
            } else {
                let rest = match &default_rest {
                    Some(r) => r.clone(),
                    None => {
                        let d = self.default(rows);
                        let r = self.missing(&d, n - 1, depth + 1);
                        default_rest = Some(r.clone());
                        r
                    }
                };
                let head = match h {
                    Head::Ctor(c, k) => Pat::Ctor(c, vec![Pat::Wild; k]),
                    Head::Tuple(k) => Pat::Tuple(vec![Pat::Wild; k]),
                };
                rest.into_iter()
                    .map(|w| std::iter::once(head.clone()).chain(w).collect())
                    .collect()
            };
            for w in witnesses {
                out.push(w);
                if out.len() >= MAX_WITNESSES {
                    return out;
                }
            }
        }
        out
    }

    /// A pattern printed as the text format writes it (`Cons(_, Nil)`, `(_, _)`).
    fn show(&self, p: &Pat) -> String {
        enum Piece<'p> {
            Pat(&'p Pat),
            Text(&'static str),
        }
        let mut out = String::new();
        let mut stack = vec![Piece::Pat(p)];
        while let Some(piece) = stack.pop() {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Pat(Pat::Wild) => out.push('_'),
                Piece::Pat(Pat::Ctor(c, fields)) => {
                    out.push_str(&self.tcx.adt_info(c.adt).ctors[c.index as usize].name);
                    if !fields.is_empty() {
                        out.push('(');
                        stack.push(Piece::Text(")"));
                        for (i, f) in fields.iter().enumerate().rev() {
                            stack.push(Piece::Pat(f));
                            if i > 0 {
                                stack.push(Piece::Text(", "));
                            }
                        }
                    }
                }
                Piece::Pat(Pat::Tuple(fields)) => {
                    out.push('(');
                    stack.push(Piece::Text(if fields.len() == 1 { ",)" } else { ")" }));
                    for (i, f) in fields.iter().enumerate().rev() {
                        stack.push(Piece::Pat(f));
                        if i > 0 {
                            stack.push(Piece::Text(", "));
                        }
                    }
                }
            }
        }
        out
    }
}
