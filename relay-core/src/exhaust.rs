//! Exhaustiveness and reachability of `match` arms, by pattern expansion over the pattern
//! matrix (Maranget's usefulness algorithm).
//!
//! Constructors are expanded only as deep as the patterns themselves go, so the analysis
//! terminates for recursive data types (`List`) too. A complete `match` that misses cases
//! is an error listing them (`Cons(_, Nil)`); an arm no value can reach is a warning.
//!
//! The analysis takes no stack in proportion to its input: the searches run on explicit
//! stacks, so a tuple pattern of ten thousand fields (wide, not deep) is checked like a
//! small one. Patterns share their fields (`Rc`) and rows are persistent lists (`Row`),
//! so expanding a row costs the fields it gains, not the row's width; rows are grouped by
//! their first constructor, so expanding a column of a data type of many constructors
//! visits each row once, not once per constructor; an arm equal to an earlier one is
//! unreachable at once. Two bounds remain, and a `match` past
//! either is not checked, which [`MatchReport::unchecked`] says:
//!
//! - patterns nested deeper than [`MAX_PATTERN_DEPTH`] (their equality, hashing and
//!   freeing recurse);
//! - more than [`MAX_WORK`] steps, whatever the shape (usefulness is NP-complete in the
//!   number of columns; real matches take thousands of steps).

use crate::adt::CtorRef;
use crate::expr::{Module, PatId, Pattern};
use crate::text::push_separated;
use crate::ty::TyCtx;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// How deeply patterns nest and are still analysed.
pub const MAX_PATTERN_DEPTH: usize = 256;

/// The most steps of one `match`'s analysis: rows visited and pattern cells copied.
pub const MAX_WORK: u64 = 1 << 26;

/// At most this many missing cases are listed.
pub const MAX_WITNESSES: usize = 8;

/// A pattern in the analysis: wildcards (variables too), constructors and tuples.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Pat {
    Wild,
    Ctor(CtorRef, Rc<[Pat]>),
    Tuple(Rc<[Pat]>),
}

/// The head of a column: which constructor, and how many fields it has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Head {
    Ctor(CtorRef, usize),
    Tuple(usize),
}

impl Head {
    fn arity(self) -> usize {
        match self {
            Head::Ctor(_, n) | Head::Tuple(n) => n,
        }
    }

    /// The head's pattern with `fields`.
    fn with(self, fields: &[Pat]) -> Pat {
        match self {
            Head::Ctor(c, _) => Pat::Ctor(c, fields.into()),
            Head::Tuple(_) => Pat::Tuple(fields.into()),
        }
    }
}

/// Why a `match` was not checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unchecked {
    /// A pattern nests deeper than [`MAX_PATTERN_DEPTH`].
    TooDeep,
    /// The analysis would take more than [`MAX_WORK`] steps.
    TooLarge,
}

/// The analysis of one `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// Cases no arm covers, printed (`Cons(_, Nil)`), at most [`MAX_WITNESSES`].
    pub missing: Vec<String>,
    /// The arms (by index) that no value can reach.
    pub unreachable: Vec<usize>,
    /// Why the arms were not (all) checked, if they were not: then `missing` and
    /// `unreachable` say nothing.
    pub unchecked: Option<Unchecked>,
}

struct Analysis<'a> {
    tcx: &'a TyCtx,
    /// Steps left.
    work: u64,
    /// Rows of wildcards, by length (each the rest of the next).
    wilds: Vec<Row>,
}

/// A row of patterns (or a vector of them, a case found missing): a persistent list, so
/// that dropping its first pattern, or putting patterns in front, leaves the rest shared.
#[derive(Clone, Default)]
struct Row(Option<Rc<Cell>>);

struct Cell {
    first: Pat,
    rest: Row,
}

impl Row {
    fn cons(first: Pat, rest: Row) -> Row {
        Row(Some(Rc::new(Cell { first, rest })))
    }

    /// `items` in front of `rest`.
    fn prepend(items: &[Pat], rest: Row) -> Row {
        items
            .iter()
            .rev()
            .fold(rest, |r, p| Row::cons(p.clone(), r))
    }

    fn first(&self) -> Option<&Pat> {
        self.0.as_ref().map(|c| &c.first)
    }

    /// The row without its first pattern.
    fn rest(&self) -> Row {
        self.0
            .as_ref()
            .map_or_else(Row::default, |c| c.rest.clone())
    }

    fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl Drop for Row {
    /// Frees the cells no other row shares in a loop: a row may be long.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(cell) = next {
            next = match Rc::try_unwrap(cell) {
                Ok(mut cell) => cell.rest.0.take(),
                Err(_) => None,
            };
        }
    }
}

/// The rows of a matrix grouped by the head of their first pattern: for each head, in
/// order of first appearance, the indices of its rows; and the rows with a wildcard.
struct Groups {
    heads: Vec<Head>,
    rows: FxHashMap<Head, Vec<u32>>,
    wild: Vec<u32>,
}

/// Analyses the arms' patterns, in order.
pub fn analyse(tcx: &TyCtx, m: &Module, arms: &[PatId]) -> MatchReport {
    let unchecked = |why| MatchReport {
        missing: Vec::new(),
        unreachable: Vec::new(),
        unchecked: Some(why),
    };
    if arms.iter().any(|&p| too_deep(m, p)) {
        return unchecked(Unchecked::TooDeep);
    }
    let mut a = Analysis {
        tcx,
        work: MAX_WORK,
        wilds: vec![Row::default()],
    };
    // The arms that can be reached, distinct, grouped by their head.
    let mut kept: Vec<Row> = Vec::new();
    let mut by_head: FxHashMap<Head, Vec<u32>> = FxHashMap::default();
    let mut wild: Vec<u32> = Vec::new();
    let mut seen: FxHashSet<&Pat> = FxHashSet::default();
    let lowered: Vec<Pat> = arms.iter().map(|&p| lower(m, p)).collect();
    let mut unreachable = Vec::new();
    let mut irrefutable = false;
    for (i, p) in lowered.iter().enumerate() {
        // An arm after an irrefutable one, or equal to an earlier one, is unreachable
        // without a search.
        if irrefutable || !seen.insert(p) {
            unreachable.push(i);
            continue;
        }
        // Only the earlier arms of the same head, or a wildcard, can cover it.
        let candidates: Vec<Row> = match a.head(p) {
            None => kept.clone(),
            Some(h) => merge(by_head.get(&h).map_or(&[][..], |v| v), &wild)
                .map(|j| kept[j as usize].clone())
                .collect(),
        };
        a.spend(candidates.len() as u64 + 1);
        let row = Row::cons(p.clone(), Row::default());
        if !a.useful(candidates, row.clone()) {
            unreachable.push(i);
            continue;
        }
        if a.work == 0 {
            return unchecked(Unchecked::TooLarge);
        }
        match a.head(p) {
            None => {
                wild.push(kept.len() as u32);
                irrefutable = irrefutable || is_irrefutable(p);
            }
            Some(h) => by_head.entry(h).or_default().push(kept.len() as u32),
        }
        kept.push(row);
    }
    let witnesses = a.missing(kept, 1);
    if a.work == 0 {
        return unchecked(Unchecked::TooLarge);
    }
    MatchReport {
        missing: witnesses
            .iter()
            .filter_map(|w| w.first().map(|p| a.show(p)))
            .collect(),
        unreachable,
        unchecked: None,
    }
}

/// Whether pattern `p` nests deeper than [`MAX_PATTERN_DEPTH`] (iterative).
fn too_deep(m: &Module, p: PatId) -> bool {
    let mut stack = vec![(p, 1usize)];
    while let Some((p, depth)) = stack.pop() {
        if depth > MAX_PATTERN_DEPTH {
            return true;
        }
        if let Pattern::Ctor(_, subs) | Pattern::Tuple(subs) = m.pattern(p) {
            stack.extend(subs.iter().map(|&s| (s, depth + 1)));
        }
    }
    false
}

/// Whether `p` matches every value: wildcards and tuples of them.
fn is_irrefutable(p: &Pat) -> bool {
    let mut stack = vec![p];
    while let Some(p) = stack.pop() {
        match p {
            Pat::Wild => {}
            Pat::Ctor(..) => return false,
            Pat::Tuple(fs) => stack.extend(fs.iter()),
        }
    }
    true
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
                let fields: Rc<[Pat]> = out.split_off(out.len() - n).into();
                out.push(match m.pattern(p) {
                    Pattern::Ctor(c, _) => Pat::Ctor(*c, fields),
                    _ => Pat::Tuple(fields),
                });
            }
        }
    }
    out.pop().expect("one pattern lowered")
}

/// The two increasing lists of row indices merged, in increasing order.
fn merge<'v>(a: &'v [u32], b: &'v [u32]) -> impl Iterator<Item = u32> + 'v {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => return None,
        };
        Some(next)
    })
}

/// What the search of missing cases does with the cases its child search finds.
#[derive(Clone, Copy)]
enum Then {
    /// Regroup the first fields under this head.
    Regroup(Head),
    /// Keep the cases as the default's: the cases of each head no row names.
    Default,
    /// Put a wildcard in front (a column of wildcards).
    PrependWild,
}

/// A search of the cases `rows` miss, `n` columns wide, on the stack of
/// [`Analysis::missing`].
struct Search {
    rows: Vec<Row>,
    n: usize,
    groups: Groups,
    /// Every head of the first column's type; empty for a column of wildcards.
    all: Vec<Head>,
    /// The next head of `all` to expand.
    next: usize,
    /// The cases the rows with a wildcard first miss in the other columns, once known.
    default: Option<Vec<Row>>,
    /// What to do with the child search's cases, while there is one.
    waiting: Option<Then>,
    out: Vec<Row>,
}

impl Analysis<'_> {
    /// Takes `n` steps of the work; false (and no work left) when they are not there.
    fn spend(&mut self, n: u64) -> bool {
        self.work = self.work.saturating_sub(n);
        self.work > 0
    }

    /// A row of `n` wildcards.
    fn wilds(&mut self, n: usize) -> Row {
        while self.wilds.len() <= n {
            let longer = Row::cons(Pat::Wild, self.wilds[self.wilds.len() - 1].clone());
            self.wilds.push(longer);
        }
        self.spend(1);
        self.wilds[n].clone()
    }

    fn arity(&self, c: CtorRef) -> usize {
        self.tcx.adt_info(c.adt).ctors[c.index as usize]
            .fields
            .len()
    }

    fn head(&self, p: &Pat) -> Option<Head> {
        match p {
            Pat::Wild => None,
            Pat::Ctor(c, _) => Some(Head::Ctor(*c, self.arity(*c))),
            Pat::Tuple(fields) => Some(Head::Tuple(fields.len())),
        }
    }

    fn group(&mut self, rows: &[Row]) -> Groups {
        self.spend(rows.len() as u64);
        let mut g = Groups {
            heads: Vec::new(),
            rows: FxHashMap::default(),
            wild: Vec::new(),
        };
        for (i, r) in rows.iter().enumerate() {
            match r.first().and_then(|p| self.head(p)) {
                None => g.wild.push(i as u32),
                Some(h) => {
                    let v = g.rows.entry(h).or_default();
                    if v.is_empty() {
                        g.heads.push(h);
                    }
                    v.push(i as u32);
                }
            }
        }
        g
    }

    /// Every head of the type of the first column (`None` when no row names one).
    fn all_heads(&self, g: &Groups) -> Vec<Head> {
        match g.heads.first() {
            None => Vec::new(),
            Some(Head::Tuple(n)) => vec![Head::Tuple(*n)],
            Some(Head::Ctor(c, _)) => (0..self.tcx.adt_info(c.adt).ctors.len())
                .map(|i| {
                    let c = CtorRef {
                        adt: c.adt,
                        index: i as u32,
                    };
                    Head::Ctor(c, self.arity(c))
                })
                .collect(),
        }
    }

    /// Whether the rows name every head of their first column's type.
    fn complete(&self, g: &Groups) -> bool {
        match g.heads.first() {
            None => false,
            Some(Head::Tuple(_)) => true,
            Some(Head::Ctor(c, _)) => {
                let ctors = self.tcx.adt_info(c.adt).ctors.len();
                g.heads
                    .iter()
                    .filter(|h| matches!(h, Head::Ctor(d, _) if d.adt == c.adt))
                    .count()
                    == ctors
            }
        }
    }

    /// The rows that match `head` (by their groups), with their first pattern replaced
    /// by its fields.
    fn specialize(&mut self, rows: &[Row], g: &Groups, head: Head) -> Vec<Row> {
        let n = head.arity();
        let named = g.rows.get(&head).map_or(&[][..], |v| v);
        let mut out = Vec::with_capacity(named.len() + g.wild.len());
        for i in merge(named, &g.wild) {
            let r = &rows[i as usize];
            let row = match r.first() {
                Some(Pat::Ctor(_, fs) | Pat::Tuple(fs)) if fs.len() == n => {
                    Row::prepend(fs, r.rest())
                }
                // A pattern with the wrong number of fields is a type error reported
                // elsewhere; it matches nothing here.
                Some(Pat::Ctor(..) | Pat::Tuple(..)) => continue,
                Some(Pat::Wild) | None => {
                    let mut row = r.rest();
                    for _ in 0..n {
                        row = Row::cons(Pat::Wild, row);
                    }
                    row
                }
            };
            self.spend(n as u64 + 1);
            out.push(row);
        }
        out
    }

    /// The rows whose first pattern is a wildcard, without it.
    fn default(&mut self, rows: &[Row], g: &Groups) -> Vec<Row> {
        self.spend(g.wild.len() as u64);
        g.wild.iter().map(|&i| rows[i as usize].rest()).collect()
    }

    /// Whether some value matched by `q` is matched by no row. A depth-first search on
    /// an explicit stack for a branch where `q` is left with rows that match nothing;
    /// out of work, it answers true (the arm is not reported).
    fn useful(&mut self, rows: Vec<Row>, q: Row) -> bool {
        let mut stack = vec![(rows, q)];
        while let Some((rows, q)) = stack.pop() {
            if rows.is_empty() {
                return true;
            }
            if q.is_empty() || self.work == 0 {
                // Every row is empty and matches `q`'s values, or the work is out.
                if self.work == 0 {
                    return true;
                }
                continue;
            }
            let g = self.group(&rows);
            let first = q.first().expect("not empty");
            match self.head(first) {
                Some(h) => {
                    let fields: &[Pat] = match first {
                        Pat::Ctor(_, fs) | Pat::Tuple(fs) => fs,
                        Pat::Wild => &[],
                    };
                    let spec = self.specialize(&rows, &g, h);
                    self.spend(fields.len() as u64);
                    let q2 = Row::prepend(fields, q.rest());
                    stack.push((spec, q2));
                }
                None if self.complete(&g) => {
                    for h in self.all_heads(&g) {
                        let spec = self.specialize(&rows, &g, h);
                        let mut q2 = q.rest();
                        for _ in 0..h.arity() {
                            q2 = Row::cons(Pat::Wild, q2);
                        }
                        stack.push((spec, q2));
                    }
                }
                None => {
                    let d = self.default(&rows, &g);
                    stack.push((d, q.rest()));
                }
            }
        }
        false
    }

    /// Vectors of `n` patterns that no row matches (at most [`MAX_WITNESSES`]): for each
    /// head of the first column, the cases missing below it. A search on an explicit
    /// stack of [`Search`]es; out of work, it finds no more.
    fn missing(&mut self, rows: Vec<Row>, n: usize) -> Vec<Row> {
        let mut stack: Vec<Search> = Vec::new();
        // The cases of the search just finished, for the one below it.
        let mut found: Option<Vec<Row>> = self.start(&mut stack, rows, n);
        loop {
            let Some(top) = stack.last_mut() else {
                return found.unwrap_or_default();
            };
            if let Some(cases) = found.take() {
                match top.waiting.take().expect("a search waits for its child") {
                    Then::Regroup(h) => {
                        for w in cases {
                            let mut rest = w;
                            let mut fields = Vec::with_capacity(h.arity());
                            for _ in 0..h.arity() {
                                fields.extend(rest.first().cloned());
                                rest = rest.rest();
                            }
                            top.out.push(Row::cons(h.with(&fields), rest));
                        }
                        top.next += 1;
                    }
                    Then::Default => {
                        top.default = Some(cases);
                    }
                    Then::PrependWild => {
                        top.out
                            .extend(cases.into_iter().map(|w| Row::cons(Pat::Wild, w)));
                        top.next = usize::MAX;
                    }
                }
            }
            top.out.truncate(MAX_WITNESSES);
            let done = top.out.len() >= MAX_WITNESSES
                || self.work == 0
                || (top.all.is_empty() && top.next == usize::MAX)
                || (!top.all.is_empty() && top.next >= top.all.len());
            if done {
                let top = stack.pop().expect("a search");
                found = Some(top.out);
                continue;
            }
            // The next child search, or the next heads no row names.
            let (rows, n, then) = if top.all.is_empty() {
                let d = self.default(&top.rows, &top.groups);
                (d, top.n - 1, Then::PrependWild)
            } else {
                let h = top.all[top.next];
                if top.groups.rows.contains_key(&h) {
                    let spec = self.specialize(&top.rows, &top.groups, h);
                    (spec, h.arity() + top.n - 1, Then::Regroup(h))
                } else if let Some(default) = &top.default {
                    // A head no row names: missing wherever the default misses.
                    let head = h.with(&vec![Pat::Wild; h.arity()]);
                    for w in default.iter().take(MAX_WITNESSES - top.out.len()) {
                        top.out.push(Row::cons(head.clone(), w.clone()));
                    }
                    top.next += 1;
                    continue;
                } else {
                    let d = self.default(&top.rows, &top.groups);
                    (d, top.n - 1, Then::Default)
                }
            };
            top.waiting = Some(then);
            found = self.start(&mut stack, rows, n);
        }
    }

    /// Begins the search of the cases `rows` miss, `n` wide: its cases if it needs no
    /// child search, else `None` with the search pushed on `stack`.
    fn start(&mut self, stack: &mut Vec<Search>, rows: Vec<Row>, n: usize) -> Option<Vec<Row>> {
        if rows.is_empty() {
            return Some(vec![self.wilds(n)]);
        }
        if n == 0 || self.work == 0 {
            // Rows of no columns match the empty vector.
            return Some(Vec::new());
        }
        let groups = self.group(&rows);
        let all = self.all_heads(&groups);
        stack.push(Search {
            rows,
            n,
            groups,
            all,
            next: 0,
            default: None,
            waiting: None,
            out: Vec::new(),
        });
        None
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
                        push_separated(&mut stack, fields, Piece::Pat, || Piece::Text(", "));
                    }
                }
                Piece::Pat(Pat::Tuple(fields)) => {
                    out.push('(');
                    stack.push(Piece::Text(if fields.len() == 1 { ",)" } else { ")" }));
                    push_separated(&mut stack, fields, Piece::Pat, || Piece::Text(", "));
                }
            }
        }
        out
    }
}
