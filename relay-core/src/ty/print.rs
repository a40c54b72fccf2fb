//! Printing types, shapes and dimensions in Relay's text syntax.
//!
//! The printer is a loop over an explicit stack of pieces to emit, so a tuple type nested
//! a hundred thousand deep prints on a small thread stack. Output follows the `relay`
//! command-line contract: `Tensor[(5, 4), float32]`, rank 1 as `Tensor[(5), float32]`,
//! rank 0 as the bare dtype (`Tensor[(), b]` when the dtype is not a known one), `?` for
//! Any, `(A,)` for a one-field tuple, `fn [A](A) -> A`. Flexible variables, which only
//! appear before solving, print as `'t3`, `'s3`, `'d3` and `'b3` (type, shape, dimension,
//! dtype).
//!
//! A dimension sum prints the way a person writes it, whatever the ids of its parts:
//! terms by descending degree, then by the names of their factors, the constant last, but
//! a positive term first when there is one (`n*n + 2*n + 1`, `m*n + 2*m - n - 2`,
//! `m - n`, `3 - n`), with `floormod(x, c)` recovered from its stored form
//! `x - c*floordiv(x, c)`. Everything printed reads back through the type parser as the
//! same dimension.
//!
//! Printed text is bounded. Types are interned, so a type may share its parts: `@dup`
//! (`fn [A](A) -> (A, A)`) applied thirty times is a type of thirty nodes whose text has
//! a billion. Each printing has a limit of bytes ([`SHOW_LIMIT`] for
//! [`TyCtx::show`], the caller's for [`type_to_string_within`]): past it, the next type
//! or dimension is not printed; the text ends with `... N nodes more` (the types and
//! dimensions not printed) and the brackets still open, as in
//! `((float32, float32), ... 1073741822 nodes more)`. Text so cut does not read back.

use crate::dim::{Dim, DimData, Shown, ShownTerm};
use crate::ty::{DTy, Shape, ShapeData, Ty, TyCtx, TyData};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Ordering;
use std::fmt::Write;

#[derive(Copy, Clone)]
enum Piece {
    Ty(Ty),
    Shape(Shape),
    Dim(Dim),
    /// `floormod(x, c)`, recovered from a sum by [`crate::Dims::shown_terms`].
    FloorMod(Dim, Dim),
    DType(DTy),
    Int(u64),
    Text(&'static str),
    /// The end of tensor type `Ty`, begun at this byte of the output.
    EndTensor(Ty, usize),
    /// The types of a tuple, a function's arguments or a data type's arguments (as `Ty`
    /// holds them) from this index on, one at a time: a signature of a million parameters
    /// needs no million pieces at once.
    Items(Ty, u32),
    /// A dimension of a shape's list: a node, where the text may be cut.
    ShapeDim(Dim),
}

/// The most bytes [`TyCtx::show`] prints of one type, shape or dimension (then cut as
/// the module's docs say): types in messages stay readable whatever their size.
pub const SHOW_LIMIT: usize = 8 << 10;

/// The most bytes printed of a type that is a result rather than part of a message (a
/// signature): far above a real model's, far below what would exhaust memory.
pub const OUTPUT_LIMIT: usize = 64 << 20;

struct Printer<'a> {
    tcx: &'a TyCtx,
    out: String,
    stack: Vec<Piece>,
    sums: SumOrders,
    /// The tensor types printed so far: a signature of many parameters of a few types
    /// prints each type once.
    tensors: FxHashMap<Ty, Box<str>>,
    /// The length of text past which no more nodes are printed.
    limit: usize,
    /// The nodes (types and dimensions of shapes) printed so far.
    nodes: u64,
}

impl<'a> Printer<'a> {
    fn run(tcx: &'a TyCtx, first: Piece, limit: usize) -> String {
        let mut p = Printer {
            tcx,
            out: String::new(),
            stack: vec![first],
            sums: SumOrders::default(),
            tensors: FxHashMap::default(),
            limit,
            nodes: 0,
        };
        while let Some(piece) = p.stack.pop() {
            if matches!(piece, Piece::Ty(_) | Piece::ShapeDim(_)) {
                if p.out.len() >= p.limit {
                    p.cut(first);
                    break;
                }
                p.nodes += 1;
            }
            match piece {
                Piece::Ty(t) => p.ty(t),
                Piece::ShapeDim(d) => p.stack.push(Piece::Dim(d)),
                Piece::Shape(s) => p.shape(s),
                Piece::DType(dt) => p.dtype(dt),
                Piece::Dim(d) => {
                    if matches!(tcx.dims.data(d), DimData::Sum(_)) {
                        p.sums.ensure(tcx, d);
                    }
                    expand_dim(tcx, &p.sums, piece, &mut p.out, &mut p.stack);
                }
                Piece::Items(t, i) => p.items(t, i),
                Piece::EndTensor(t, start) => {
                    p.tensors.insert(t, p.out[start..].into());
                }
                Piece::FloorMod(..) | Piece::Int(_) | Piece::Text(_) => {
                    expand_dim(tcx, &p.sums, piece, &mut p.out, &mut p.stack);
                }
            }
        }
        p.out
    }

    /// Ends the text where the limit cut it (before the piece just popped): the number
    /// of nodes not printed, then the brackets still open.
    #[cold]
    fn cut(&mut self, first: Piece) {
        let total = match first {
            Piece::Ty(t) => tree_size(self.tcx, t),
            Piece::Shape(s) => self.tcx.shape_dims(s).map_or(0, |d| d.len() as u64),
            _ => 0,
        };
        let more = total.saturating_sub(self.nodes);
        let _ = write!(
            self.out,
            "... {more} node{} more",
            if more == 1 { "" } else { "s" }
        );
        while let Some(piece) = self.stack.pop() {
            if let Piece::Text(text) = piece {
                self.out
                    .extend(text.chars().filter(|c| matches!(c, ')' | ']')));
            }
        }
    }

    /// Pushes `items` separated by `sep` so that they print in order.
    fn push_list<T: Copy>(&mut self, items: &[T], sep: &'static str, wrap: fn(T) -> Piece) {
        for (i, &item) in items.iter().enumerate().rev() {
            self.stack.push(wrap(item));
            if i > 0 {
                self.stack.push(Piece::Text(sep));
            }
        }
    }

    fn dtype(&mut self, dt: DTy) {
        match dt {
            DTy::Known(d) => {
                let _ = write!(self.out, "{d}");
            }
            DTy::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
            DTy::Param(p) => self.out.push_str(self.tcx.param_name(p)),
        }
    }

    /// Item `i` of the list of types `t` holds, preceded by `, ` after the first, and the
    /// rest after it.
    fn items(&mut self, t: Ty, i: u32) {
        let items: &[Ty] = match self.tcx.data(t) {
            TyData::Tuple(fields) => fields,
            TyData::Func(f) => &f.args,
            TyData::Call(_, args) => args,
            _ => &[],
        };
        let Some(&item) = items.get(i as usize) else {
            return;
        };
        if i > 0 {
            self.out.push_str(", ");
        }
        self.stack.push(Piece::Items(t, i + 1));
        self.stack.push(Piece::Ty(item));
    }

    fn ty(&mut self, t: Ty) {
        let tcx = self.tcx;
        match tcx.data(t) {
            TyData::Tensor(s, dt) => {
                // Rank 0 prints as the bare dtype, but only a known one: a dtype parameter
                // `b` alone would read back as a type, which a `BaseType` is not.
                if tcx.shape_dims(*s).is_some_and(|d| d.is_empty()) && matches!(dt, DTy::Known(_)) {
                    self.dtype(*dt);
                    return;
                }
                if let Some(done) = self.tensors.get(&t) {
                    // Copied whole only within the limit; else printed, to be cut.
                    if self.out.len() + done.len() <= self.limit {
                        self.out.push_str(done);
                        self.nodes += tcx.shape_dims(*s).map_or(0, |d| d.len() as u64);
                        return;
                    }
                }
                self.stack.push(Piece::EndTensor(t, self.out.len()));
                self.out.push_str("Tensor[");
                self.stack.push(Piece::Text("]"));
                self.stack.push(Piece::DType(*dt));
                self.stack.push(Piece::Text(", "));
                self.stack.push(Piece::Shape(*s));
            }
            TyData::Tuple(fields) => {
                self.out.push('(');
                self.stack
                    .push(Piece::Text(if fields.len() == 1 { ",)" } else { ")" }));
                self.stack.push(Piece::Items(t, 0));
            }
            TyData::Func(f) => {
                self.out.push_str("fn ");
                if !f.params.is_empty() {
                    self.out.push('[');
                    for (i, &p) in f.params.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        let info = tcx.param_info(p);
                        self.out.push_str(&info.name);
                        if info.kind != crate::Kind::Type {
                            let _ = write!(self.out, ": {}", info.kind);
                        }
                    }
                    self.out.push(']');
                }
                self.out.push('(');
                self.stack.push(Piece::Ty(f.ret));
                self.stack.push(Piece::Text(") -> "));
                self.stack.push(Piece::Items(t, 0));
            }
            TyData::Param(p) => self.out.push_str(tcx.param_name(*p)),
            TyData::Adt(a) => self.out.push_str(&tcx.adt_info(*a).name),
            TyData::Call(a, args) => {
                self.out.push_str(&tcx.adt_info(*a).name);
                if !args.is_empty() {
                    self.out.push('[');
                    self.stack.push(Piece::Text("]"));
                    self.stack.push(Piece::Items(t, 0));
                }
            }
            TyData::Ref(inner) => {
                self.out.push_str("ref(");
                self.stack.push(Piece::Text(")"));
                self.stack.push(Piece::Ty(*inner));
            }
            TyData::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
        }
    }

    fn shape(&mut self, s: Shape) {
        match self.tcx.shape_data(s) {
            ShapeData::Dims(dims) => {
                self.out.push('(');
                self.stack.push(Piece::Text(")"));
                self.push_list(dims, ", ", Piece::ShapeDim);
            }
            ShapeData::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
            ShapeData::Param(p) => self.out.push_str(self.tcx.param_name(*p)),
        }
    }
}

/// Writes the text of a dimension piece that comes first into `out` and pushes the
/// pieces that follow it onto `stack` (last first). Only dimension pieces.
fn expand_dim(
    tcx: &TyCtx,
    sums: &SumOrders,
    piece: Piece,
    out: &mut String,
    stack: &mut Vec<Piece>,
) {
    match piece {
        Piece::Dim(d) => match tcx.dims.data(d) {
            DimData::Const(c) => {
                let _ = write!(out, "{c}");
            }
            DimData::Any => out.push('?'),
            DimData::Sym(p) => out.push_str(tcx.param_name(*p)),
            DimData::Var(v) => {
                let _ = write!(out, "{v}");
            }
            DimData::Op(op, a, b) => {
                out.push_str(op.name());
                out.push('(');
                stack.push(Piece::Text(")"));
                stack.push(Piece::Dim(*b));
                stack.push(Piece::Text(", "));
                stack.push(Piece::Dim(*a));
            }
            DimData::Sum(_) => match sums.terms.get(&d) {
                Some(terms) => push_terms(terms, stack),
                // Not reached: every sum is ordered before it is expanded. Still correct
                // text, in the stored order.
                None => push_terms(&tcx.dims.shown_terms(d), stack),
            },
        },
        Piece::FloorMod(x, c) => {
            out.push_str("floormod(");
            stack.push(Piece::Text(")"));
            stack.push(Piece::Dim(c));
            stack.push(Piece::Text(", "));
            stack.push(Piece::Dim(x));
        }
        Piece::Int(k) => {
            let _ = write!(out, "{k}");
        }
        Piece::Text(s) => out.push_str(s),
        Piece::Ty(_)
        | Piece::Shape(_)
        | Piece::DType(_)
        | Piece::EndTensor(..)
        | Piece::Items(..)
        | Piece::ShapeDim(_) => {
            unreachable!("not a dimension piece")
        }
    }
}

/// Pushes the pieces of a sum whose terms are in printed order.
fn push_terms(terms: &[ShownTerm], stack: &mut Vec<Piece>) {
    for (i, t) in terms.iter().enumerate().rev() {
        for (j, f) in t.factors.iter().enumerate().rev() {
            stack.push(factor_piece(*f));
            if j > 0 {
                stack.push(Piece::Text("*"));
            }
        }
        let magnitude = t.coeff.unsigned_abs();
        if t.factors.is_empty() || magnitude != 1 {
            if !t.factors.is_empty() {
                stack.push(Piece::Text("*"));
            }
            stack.push(Piece::Int(magnitude));
        }
        stack.push(Piece::Text(match (i, t.coeff < 0) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        }));
    }
}

fn factor_piece(f: Shown) -> Piece {
    match f {
        Shown::Atom(a) => Piece::Dim(a),
        Shown::FloorMod(x, c) => Piece::FloorMod(x, c),
    }
}

/// The printed order of the terms of the sums met so far in one printing.
///
/// A sum prints the way a person writes it: terms by descending degree, terms of equal
/// degree by the names of their factors, the constant last, except that a positive term
/// comes first when the sum has one (`m - n`, `3 - n`). Inside a term, symbols and
/// variables come before operators, each by name. Names compare as printed text, with
/// runs of digits compared as numbers (`'d2` before `'d10`); factors that print the same
/// (two symbols of one name) fall back on their ids. None of this depends on the order in
/// which dimensions were interned, except for that last tie.
#[derive(Default)]
struct SumOrders {
    terms: FxHashMap<Dim, Box<[ShownTerm]>>,
    seen: FxHashSet<Dim>,
}

impl SumOrders {
    /// Orders `d` and every sum inside it, inner sums first (without recursion).
    fn ensure(&mut self, tcx: &TyCtx, d: Dim) {
        let mut stack = vec![(d, false)];
        while let Some((x, done)) = stack.pop() {
            if done {
                let ordered = order_terms(tcx, self, x);
                self.terms.insert(x, ordered);
                continue;
            }
            if !self.seen.insert(x) {
                continue;
            }
            match tcx.dims.data(x) {
                DimData::Sum(terms) => {
                    stack.push((x, true));
                    for t in terms.iter() {
                        for &a in t.atoms.iter() {
                            stack.push((a, false));
                        }
                    }
                }
                DimData::Op(_, a, b) => {
                    stack.push((*a, false));
                    stack.push((*b, false));
                }
                _ => {}
            }
        }
    }
}

/// The terms of the sum `d` in printed order; the sums inside its atoms are ordered.
fn order_terms(tcx: &TyCtx, sums: &SumOrders, d: Dim) -> Box<[ShownTerm]> {
    let factor_cmp = |a: &Shown, b: &Shown| cmp_factors(tcx, sums, *a, *b);
    let mut terms = tcx.dims.shown_terms(d);
    for t in terms.iter_mut() {
        merge_sort(&mut t.factors, &factor_cmp);
    }
    // The constant term last; the others by descending degree, then by their factors.
    let mut order: Vec<usize> = (0..terms.len())
        .filter(|&i| !terms[i].factors.is_empty())
        .collect();
    merge_sort(&mut order, &|&i: &usize, &j: &usize| {
        let (a, b) = (&terms[i].factors, &terms[j].factors);
        b.len().cmp(&a.len()).then_with(|| {
            a.iter()
                .zip(b.iter())
                .map(|(x, y)| factor_cmp(x, y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    });
    order.extend((0..terms.len()).filter(|&i| terms[i].factors.is_empty()));
    let mut slots: Vec<Option<ShownTerm>> = terms.into_iter().map(Some).collect();
    let mut ordered: Vec<ShownTerm> = order.iter().filter_map(|&i| slots[i].take()).collect();
    if ordered.first().is_some_and(|t| t.coeff < 0) {
        if let Some(i) = ordered.iter().position(|t| t.coeff > 0) {
            let t = ordered.remove(i);
            ordered.insert(0, t);
        }
    }
    ordered.into_boxed_slice()
}

/// The order of two factors of a term: symbols and variables first, then by printed
/// text, then by id.
fn cmp_factors(tcx: &TyCtx, sums: &SumOrders, a: Shown, b: Shown) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let class = |f: Shown| match f {
        Shown::Atom(d) => match tcx.dims.data(d) {
            DimData::Sym(_) | DimData::Var(_) => 0,
            _ => 1,
        },
        Shown::FloorMod(..) => 2,
    };
    let (ca, cb) = (class(a), class(b));
    // Operators and recovered `floormod`s are one class, ordered by their text.
    ca.min(1)
        .cmp(&cb.min(1))
        .then_with(|| cmp_text(tcx, sums, factor_piece(a), factor_piece(b)))
        .then(ca.cmp(&cb))
        .then_with(|| match (a, b) {
            (Shown::Atom(x), Shown::Atom(y)) => x.cmp(&y),
            (Shown::FloorMod(x, c), Shown::FloorMod(y, e)) => (x, c).cmp(&(y, e)),
            _ => Ordering::Equal,
        })
}

/// One side of a text comparison: the text printed so far and not yet compared, and the
/// pieces still to print.
struct Side {
    out: String,
    pos: usize,
    stack: Vec<Piece>,
}

impl Side {
    fn pending(&self) -> &[u8] {
        &self.out.as_bytes()[self.pos..]
    }

    /// Prints until there is a byte to compare or nothing is left.
    fn fill(&mut self, tcx: &TyCtx, sums: &SumOrders) {
        if self.pos == self.out.len() {
            self.out.clear();
            self.pos = 0;
        }
        while self.pending().is_empty() {
            let Some(piece) = self.stack.pop() else {
                return;
            };
            expand_dim(tcx, sums, piece, &mut self.out, &mut self.stack);
        }
    }

    /// Takes the whole run of digits that starts at the next byte.
    fn take_digits(&mut self, tcx: &TyCtx, sums: &SumOrders) -> String {
        while self.pending().iter().all(u8::is_ascii_digit) {
            let Some(piece) = self.stack.pop() else {
                break;
            };
            expand_dim(tcx, sums, piece, &mut self.out, &mut self.stack);
        }
        let n = self
            .pending()
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let run = self.out[self.pos..self.pos + n].to_string();
        self.pos += n;
        run
    }
}

/// Compares the printed text of two dimension pieces, printing only as far as the first
/// difference, with runs of digits compared as numbers. Pieces that are the same
/// dimension at the same point of both texts are skipped unprinted.
fn cmp_text(tcx: &TyCtx, sums: &SumOrders, a: Piece, b: Piece) -> Ordering {
    let same = |p: &Piece, q: &Piece| match (p, q) {
        (Piece::Dim(x), Piece::Dim(y)) => x == y,
        (Piece::FloorMod(x, c), Piece::FloorMod(y, e)) => (x, c) == (y, e),
        (Piece::Int(x), Piece::Int(y)) => x == y,
        (Piece::Text(x), Piece::Text(y)) => x == y,
        _ => false,
    };
    let new = |p: Piece| Side {
        out: String::new(),
        pos: 0,
        stack: vec![p],
    };
    let (mut x, mut y) = (new(a), new(b));
    loop {
        if x.pending().is_empty() && y.pending().is_empty() {
            match (x.stack.last(), y.stack.last()) {
                (None, None) => return Ordering::Equal,
                (Some(p), Some(q)) if same(p, q) => {
                    x.stack.pop();
                    y.stack.pop();
                    continue;
                }
                _ => {}
            }
        }
        x.fill(tcx, sums);
        y.fill(tcx, sums);
        match (x.pending().first().copied(), y.pending().first().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let (m, n) = (x.take_digits(tcx, sums), y.take_digits(tcx, sums));
                let (m0, n0) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                let o = m0
                    .len()
                    .cmp(&n0.len())
                    .then_with(|| m0.cmp(n0))
                    .then(m.len().cmp(&n.len()));
                if o.is_ne() {
                    return o;
                }
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(&q);
                }
                x.pos += 1;
                y.pos += 1;
            }
        }
    }
}

/// A stable merge sort that cannot panic whatever `cmp` does (the standard sorts may
/// panic on an order that is not total).
fn merge_sort<T: Copy>(items: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    let n = items.len();
    if n < 2 {
        return;
    }
    let mut src = std::mem::take(items);
    let mut dst: Vec<T> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        dst.clear();
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            while i < mid && j < hi {
                if cmp(&src[j], &src[i]) == Ordering::Less {
                    dst.push(src[j]);
                    j += 1;
                } else {
                    dst.push(src[i]);
                    i += 1;
                }
            }
            dst.extend_from_slice(&src[i..mid]);
            dst.extend_from_slice(&src[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut src, &mut dst);
        width *= 2;
    }
    *items = src;
}

/// The number of nodes of `ty` as printed: each type, and each dimension of a shape's
/// list, counted once per place it is printed (saturating). Linear in the distinct types
/// `ty` holds, however many places they are printed in.
pub fn tree_size(tcx: &TyCtx, ty: Ty) -> u64 {
    let mut sizes: FxHashMap<Ty, u64> = FxHashMap::default();
    let mut stack = vec![(ty, false)];
    let parts = |t: Ty| -> &[Ty] {
        match tcx.data(t) {
            TyData::Tuple(ts) | TyData::Call(_, ts) => ts,
            TyData::Func(f) => &f.args,
            TyData::Ref(inner) => std::slice::from_ref(inner),
            _ => &[],
        }
    };
    let ret = |t: Ty| match tcx.data(t) {
        TyData::Func(f) => Some(f.ret),
        _ => None,
    };
    while let Some((t, done)) = stack.pop() {
        if sizes.contains_key(&t) {
            continue;
        }
        if !done {
            stack.push((t, true));
            stack.extend(parts(t).iter().chain(ret(t).as_ref()).map(|&p| (p, false)));
            continue;
        }
        let own = match tcx.data(t) {
            TyData::Tensor(s, _) => 1 + tcx.shape_dims(*s).map_or(0, |d| d.len() as u64),
            _ => 1,
        };
        let size = parts(t)
            .iter()
            .chain(ret(t).as_ref())
            .fold(own, |n, p| n.saturating_add(sizes[p]));
        sizes.insert(t, size);
    }
    sizes[&ty]
}

/// `ty` in the text syntax, cut past [`SHOW_LIMIT`] bytes.
pub fn type_to_string(tcx: &TyCtx, ty: Ty) -> String {
    type_to_string_within(tcx, ty, SHOW_LIMIT)
}

/// `ty` in the text syntax, cut past `limit` bytes (`usize::MAX`: never; the text of a
/// type that shares its parts may then be exponentially larger than the type).
pub fn type_to_string_within(tcx: &TyCtx, ty: Ty, limit: usize) -> String {
    Printer::run(tcx, Piece::Ty(ty), limit)
}

/// `shape` in the text syntax, cut past [`SHOW_LIMIT`] bytes.
pub fn shape_to_string(tcx: &TyCtx, shape: Shape) -> String {
    Printer::run(tcx, Piece::Shape(shape), SHOW_LIMIT)
}

/// `dim` in the text syntax.
pub fn dim_to_string(tcx: &TyCtx, dim: Dim) -> String {
    Printer::run(tcx, Piece::Dim(dim), SHOW_LIMIT)
}

/// `dt` in the text syntax.
pub fn dtype_to_string(tcx: &TyCtx, dt: DTy) -> String {
    Printer::run(tcx, Piece::DType(dt), SHOW_LIMIT)
}
