//! What the Rust code that `#[relation]` writes for a clause calls: the clause's fast
//! path, compiled.
//!
//! For each clause, the macro writes a function that runs the clause's steps in source
//! order, as the general interpreter's first pass would when no step waits: it takes
//! the arguments apart, computes the terms and unifies. It knows at compile time which
//! side of each equation is computed and which is taken apart, and the kind of every
//! value, so integers that are constants by construction (a rank, an integer attribute,
//! a loop index over a range) are plain `i64`s and lists of at most [`CAP`] items live
//! on the stack. Everything here answers `None` ("give up") for anything but the plain
//! case: an unknown, a dimension whose comparison needs the solver's knowledge, an
//! error. The generated function then returns `None`, and the clause runs in the
//! interpreter from its start, which waits or reports exactly (unifications are
//! idempotent, so what the fast path did first is what the interpreter does first too).
//!
//! A builtin's meaning is the interpreter's: these functions call the rules of
//! [`builtin`](mod@super::builtin) on the values they decide and give up on the rest; they
//! add no rule of their own.

use super::builtin::{self, Order};
use super::ir::{dtype_of, Arith, BuiltinFn, Cmp, RustFn};
use super::Value;
use crate::attrs::AttrValue;
use crate::dim::{Dim, Dims};
use crate::dtype::DTypeCode;
use crate::relation::{RelCx, RelationDef};
use crate::ty::{DTy, Shape, ShapeData, Ty, TyData};

thread_local! {
    static ENABLED: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Turns the compiled fast paths of clauses on or off for the relations run on this
/// thread: with them off, every clause runs in the interpreter. For tests that compare
/// the two.
pub fn set_enabled(on: bool) {
    ENABLED.set(on);
}

/// Whether the fast paths are on for this thread ([`set_enabled`]).
#[inline]
pub fn enabled() -> bool {
    ENABLED.get()
}

pub use crate::relation::FastFn;

/// The most items of a list the fast path keeps (a rank, the axes of an attribute, the
/// fields of a concatenation): longer ones run in the interpreter.
pub const CAP: usize = 15;

/// An item of a [`List`]: an integer or a dimension.
pub trait Item: Copy + PartialEq {
    /// The filler of the unused items.
    const BLANK: Self;
}

impl Item for i64 {
    const BLANK: i64 = 0;
}

impl Item for Dim {
    const BLANK: Dim = Dims::ANY;
}

/// A list of at most [`CAP`] integers or dimensions, on the stack.
#[derive(Copy, Clone)]
pub struct List<T: Item> {
    items: [T; CAP],
    len: u8,
}

impl<T: Item> Default for List<T> {
    fn default() -> Self {
        List {
            len: 0,
            items: [T::BLANK; CAP],
        }
    }
}

impl<T: Item> List<T> {
    /// The list of `items`, if they fit.
    #[inline]
    pub fn of(items: &[T]) -> Option<Self> {
        let mut l = Self::default();
        l.extend(items)?;
        Some(l)
    }

    /// Appends `x` (`None` when the list is full).
    #[inline(always)]
    pub fn push(&mut self, x: T) -> Option<()> {
        *self.items.get_mut(self.len as usize)? = x;
        self.len += 1;
        Some(())
    }

    /// Appends `xs`.
    #[inline]
    pub fn extend(&mut self, xs: &[T]) -> Option<()> {
        let end = self.len as usize + xs.len();
        self.items
            .get_mut(self.len as usize..end)?
            .copy_from_slice(xs);
        self.len = end as u8;
        Some(())
    }

    /// The items.
    #[inline(always)]
    pub fn items(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    /// The number of items, as the clause's `len` gives it.
    #[inline(always)]
    pub fn len(&self) -> i64 {
        self.len as i64
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Item `i`, negative from the end; `None` out of range (the interpreter reports it).
    #[inline(always)]
    pub fn at(&self, i: i64) -> Option<T> {
        Some(self.items[builtin::index(i, self.len as usize)?])
    }

    /// `l[lo..hi]`, with Python's bounds: negative from the end, clamped.
    #[inline(always)]
    pub fn slice(&self, lo: Option<i64>, hi: Option<i64>) -> Self {
        let r = builtin::slice(lo, hi, self.len as usize);
        let mut out = Self::default();
        out.items[..r.len()].copy_from_slice(&self.items[r.clone()]);
        out.len = r.len() as u8;
        out
    }

    /// The items in reverse order.
    #[inline]
    pub fn reversed(&self) -> Self {
        let mut out = *self;
        out.items[..self.len as usize].reverse();
        out
    }

    /// The items at the indices `idx` (negative from the end); `None` for one out of range.
    #[inline]
    pub fn gather(&self, idx: &List<i64>) -> Option<Self> {
        let mut out = Self::default();
        for &i in idx.items() {
            out.push(self.at(i)?)?;
        }
        Some(out)
    }

    /// `[x; n]`.
    #[inline]
    pub fn repeat(x: T, n: i64) -> Option<Self> {
        let n = builtin::repeat_count(n)?;
        let mut out = Self::default();
        out.items.get_mut(..n)?.fill(x);
        out.len = n as u8;
        Some(out)
    }
}

/// Argument `i` of the run.
#[inline]
pub fn arg(cx: &RelCx<'_>, i: usize) -> Ty {
    cx.arg(i)
}

/// `t` resolved (free when it mentions no unknown).
#[inline(always)]
fn resolved(cx: &mut RelCx<'_>, t: Ty) -> Ty {
    if !cx.tcx_ref().has_vars(t) {
        t
    } else {
        cx.resolve(t)
    }
}

/// The shape and dtype of the tensor type `t`.
#[inline(always)]
pub fn tensor_parts(cx: &mut RelCx<'_>, t: Ty) -> Option<(Shape, DTy)> {
    let t = resolved(cx, t);
    match *cx.data(t) {
        TyData::Tensor(s, d) => Some((s, d)),
        _ => None,
    }
}

/// The dimensions of the shape `s` (of a resolved type), of known rank.
#[inline]
pub fn shape_dims(cx: &RelCx<'_>, s: Shape) -> Option<List<Dim>> {
    List::of(cx.tcx_ref().shape_dims(s)?)
}

/// The dimensions of the tensor type `t`, of known rank.
#[inline(always)]
fn shape_of<'a>(cx: &'a mut RelCx<'_>, t: Ty) -> Option<&'a [Dim]> {
    let (s, _) = tensor_parts(cx, t)?;
    cx.tcx_ref().shape_dims(s)
}

/// `shape(t)[i]`, negative from the end.
#[inline(always)]
pub fn shape_dim(cx: &mut RelCx<'_>, t: Ty, i: i64) -> Option<Dim> {
    let dims = shape_of(cx, t)?;
    Some(dims[builtin::index(i, dims.len())?])
}

/// `len(shape(t))`.
#[inline]
pub fn rank(cx: &mut RelCx<'_>, t: Ty) -> Option<i64> {
    Some(shape_of(cx, t)?.len() as i64)
}

/// `dtype(t)`, of the tensor type `t`.
#[inline]
pub fn dtype_of_tensor(cx: &mut RelCx<'_>, t: Ty) -> Option<DTy> {
    Some(tensor_parts(cx, t)?.1)
}

/// The tuple type `t`, resolved.
#[inline]
pub fn tuple(cx: &mut RelCx<'_>, t: Ty) -> Option<Ty> {
    let t = resolved(cx, t);
    matches!(cx.data(t), TyData::Tuple(_)).then_some(t)
}

/// The number of fields of the tuple `t` (resolved by [`tuple()`]).
#[inline(always)]
pub fn tuple_len(cx: &RelCx<'_>, t: Ty) -> Option<i64> {
    match cx.data(t) {
        TyData::Tuple(fs) => Some(fs.len() as i64),
        _ => None,
    }
}

/// Field `i` of the tuple `t` (resolved by [`tuple()`]), negative from the end; `None`
/// out of range. The interpreter's too.
#[inline(always)]
pub fn field(cx: &RelCx<'_>, t: Ty, i: i64) -> Option<Ty> {
    let TyData::Tuple(fs) = cx.data(t) else {
        return None;
    };
    Some(fs[builtin::index(i, fs.len())?])
}

/// A dtype literal.
#[inline]
pub fn dtype(code: DTypeCode, bits: u8, lanes: u16) -> DTy {
    DTy::Known(dtype_of(code, bits, lanes))
}

/// The integer `c` as a dimension.
#[inline]
pub fn dim(cx: &mut RelCx<'_>, c: i64) -> Dim {
    cx.tcx().dims.konst(c)
}

/// The integers of `l` as dimensions.
#[inline]
pub fn dims(cx: &mut RelCx<'_>, l: &List<i64>) -> List<Dim> {
    let mut out = List::default();
    for (o, &c) in out.items.iter_mut().zip(l.items()) {
        *o = cx.tcx().dims.konst(c);
    }
    out.len = l.len;
    out
}

/// The dimensions of `l` as integers, when each is a constant.
#[inline]
pub fn ints(cx: &mut RelCx<'_>, l: &List<Dim>) -> Option<List<i64>> {
    let mut out = List::default();
    for &d in l.items() {
        out.push(int(cx, d)?)?;
    }
    Some(out)
}

/// The dimension `d` resolved (free when it mentions no unknown).
#[inline(always)]
fn resolved_dim(cx: &mut RelCx<'_>, d: Dim) -> Dim {
    if cx.tcx_ref().dims.has_vars(d) {
        cx.resolve_dim(d)
    } else {
        d
    }
}

/// The dimension `d` as an integer, when it is a constant.
#[inline]
pub fn int(cx: &mut RelCx<'_>, d: Dim) -> Option<i64> {
    let d = resolved_dim(cx, d);
    cx.tcx_ref().dims.as_const(d)
}

/// `a op b` on integers, when exact.
#[inline]
pub fn arith_int(op: Arith, a: i64, b: i64) -> Option<i64> {
    op.on_consts(a, b)
}

/// `a op b` on dimensions.
#[inline]
pub fn arith(cx: &mut RelCx<'_>, op: Arith, a: Dim, b: Dim) -> Option<Dim> {
    let (a, b) = (resolved_dim(cx, a), resolved_dim(cx, b));
    let dims = &mut cx.tcx().dims;
    if let (Some(x), Some(y)) = (dims.as_const(a), dims.as_const(b)) {
        if let Some(r) = op.on_consts(x, y) {
            return Some(dims.konst(r));
        }
    }
    op.on_dims(dims, a, b).ok()
}

/// `-a` on a dimension.
#[inline]
pub fn neg(cx: &mut RelCx<'_>, a: Dim) -> Option<Dim> {
    let a = resolved_dim(cx, a);
    cx.tcx().dims.neg(a).ok()
}

/// `a op b` on dimensions, as the interpreter decides it: constants, the same dimension,
/// `?` (checked at run time, it satisfies every comparison), a constant difference, and
/// different dimensions over rigid symbols (equal to nothing else, of no order).
#[inline]
pub fn cmp(cx: &mut RelCx<'_>, op: Cmp, a: Dim, b: Dim) -> Option<bool> {
    let (a, b) = (resolved_dim(cx, a), resolved_dim(cx, b));
    match builtin::compare(&mut cx.tcx().dims, op, a, b).ok()? {
        Order::Is(r) => Some(r),
        Order::Waits | Order::Unordered => None,
    }
}

/// `a op b` on dtypes: `==` and `!=` of known dtypes.
#[inline]
pub fn cmp_dtype(cx: &mut RelCx<'_>, op: Cmp, a: DTy, b: DTy) -> Option<bool> {
    let (a, b) = (cx.resolve_dtype(a), cx.resolve_dtype(b));
    match (op, a, b) {
        (Cmp::Eq, DTy::Known(x), DTy::Known(y)) => Some(x == y),
        (Cmp::Ne, DTy::Known(x), DTy::Known(y)) => Some(x != y),
        _ => None,
    }
}

/// `x in l` on dimensions.
#[inline]
pub fn dim_in(cx: &mut RelCx<'_>, x: Dim, l: &List<Dim>) -> Option<bool> {
    let xs = l.items();
    builtin::some_equal(xs.len(), true, |_, b| {
        Ok::<_, ()>(cmp(cx, Cmp::Eq, x, xs[b]))
    })
    .ok()
    .flatten()
}

/// `sum(l)`.
#[inline]
pub fn sum(cx: &mut RelCx<'_>, l: &List<Dim>) -> Option<Dim> {
    let mut l = *l;
    for d in &mut l.items[..l.len as usize] {
        *d = resolved_dim(cx, *d);
    }
    builtin::sum(&mut cx.tcx().dims, l.items()).ok()
}

/// `is_any(d)`.
#[inline(always)]
pub fn is_any(cx: &mut RelCx<'_>, d: Dim) -> bool {
    let d = resolved_dim(cx, d);
    builtin::is_any(&cx.tcx_ref().dims, d)
}

/// `is_axis(a, t)`: `Some(true)` when `a` is an axis of the tensor `t`
/// ([`builtin::index`], as [`builtin::is_axis`] decides); `None` while its rank is
/// unknown, and out of range, where the interpreter reports `builtin::is_axis`'s error.
#[inline]
pub fn is_axis(cx: &mut RelCx<'_>, a: i64, t: Ty) -> Option<bool> {
    let rank = usize::try_from(rank(cx, t)?).ok()?;
    builtin::index(a, rank).map(|_| true)
}

/// `is_int(d)`: undecided while `d` has unknowns.
#[inline]
pub fn is_int(cx: &mut RelCx<'_>, d: Dim) -> Option<bool> {
    let d = resolved_dim(cx, d);
    builtin::is_int(&cx.tcx_ref().dims, d)
}

/// The integers `lo..hi` a loop or a comprehension goes over.
#[inline]
pub fn range(lo: i64, hi: i64) -> Option<std::ops::Range<i64>> {
    builtin::range(lo, hi)
}

/// `Tensor(dims, dtype)`.
#[inline]
pub fn mk_tensor(cx: &mut RelCx<'_>, dims: &List<Dim>, dtype: DTy) -> Ty {
    let s = cx.tcx().shape(dims.items());
    cx.tcx().tensor(s, dtype)
}

/// `Tensor(s, dtype)` of a shape taken from a tensor type.
#[inline]
pub fn mk_tensor_of(cx: &mut RelCx<'_>, s: Shape, dtype: DTy) -> Ty {
    cx.tcx().tensor(s, dtype)
}

/// Unifies two types.
#[inline]
pub fn unify(cx: &mut RelCx<'_>, a: Ty, b: Ty) -> Option<()> {
    if a == b {
        return Some(());
    }
    cx.unify_blaming(a, b, 0).ok()
}

/// Unifies two dimensions.
#[inline(always)]
pub fn unify_dim(cx: &mut RelCx<'_>, a: Dim, b: Dim) -> Option<()> {
    if a == b {
        return Some(());
    }
    cx.unify_dim(a, b, 0).ok()
}

/// Unifies two lists of dimensions, of one length.
#[inline]
pub fn unify_dims(cx: &mut RelCx<'_>, a: &List<Dim>, b: &List<Dim>) -> Option<()> {
    if a.len != b.len {
        return None;
    }
    for (&x, &y) in a.items().iter().zip(b.items()) {
        unify_dim(cx, x, y)?;
    }
    Some(())
}

/// Unifies two dtypes.
#[inline]
pub fn unify_dtype(cx: &mut RelCx<'_>, a: DTy, b: DTy) -> Option<()> {
    if a == b {
        return Some(());
    }
    cx.unify_dtype(a, b, 0).ok()
}

/// An attribute as given: `Some(None)` when the call leaves it out or gives `None`.
#[inline]
fn given<'a>(cx: &'a RelCx<'_>, name: &str) -> Option<&'a AttrValue> {
    match cx.attrs().get(name) {
        None | Some(AttrValue::None) => None,
        Some(v) => Some(v),
    }
}

/// Integer attribute `name` (`Some(None)` when not given; `None` for another value).
#[inline]
pub fn attr_int(cx: &RelCx<'_>, name: &str) -> Option<Option<i64>> {
    match given(cx, name) {
        None => Some(None),
        Some(AttrValue::Int(c)) => Some(Some(*c)),
        Some(_) => None,
    }
}

/// Boolean attribute `name`.
#[inline]
pub fn attr_bool(cx: &RelCx<'_>, name: &str) -> Option<Option<bool>> {
    match given(cx, name) {
        None => Some(None),
        Some(AttrValue::Bool(b)) => Some(Some(*b)),
        Some(_) => None,
    }
}

/// Dtype attribute `name`.
#[inline]
pub fn attr_dtype(cx: &RelCx<'_>, name: &str) -> Option<Option<DTy>> {
    match given(cx, name) {
        None => Some(None),
        Some(AttrValue::DType(d)) => Some(Some(DTy::Known(*d))),
        Some(AttrValue::Str(s)) => Some(Some(DTy::Known(s.parse().ok()?))),
        Some(_) => None,
    }
}

/// List attribute `name`: a list of integers; `one` (`[int]`) also takes one integer as a
/// list of one, `shape` takes no negative integer.
#[inline]
pub fn attr_ints(cx: &RelCx<'_>, name: &str, one: bool) -> Option<Option<List<i64>>> {
    let items: &[AttrValue] = match given(cx, name) {
        None => return Some(None),
        Some(AttrValue::List(items)) => items,
        Some(v @ AttrValue::Int(_)) if one => std::slice::from_ref(v),
        Some(_) => return None,
    };
    let mut l = List::default();
    for item in items {
        match item {
            AttrValue::Int(c) if one || *c >= 0 => l.push(*c)?,
            _ => return None,
        }
    }
    Some(Some(l))
}

/// `prod(l)`.
#[inline]
pub fn prod(cx: &mut RelCx<'_>, l: &List<Dim>) -> Option<Dim> {
    cx.tcx().dims.product(l.items()).ok()
}

/// `broadcast(a, b)`, when decided.
#[inline]
pub fn broadcast(cx: &mut RelCx<'_>, a: &List<Dim>, b: &List<Dim>) -> Option<List<Dim>> {
    if a.items() == b.items() || b.is_empty() {
        return Some(*a);
    }
    if a.is_empty() {
        return Some(*b);
    }
    let mut out = List::default();
    let mut fits = true;
    let decided = crate::shape::broadcast_each(&cx.tcx_ref().dims, a.items(), b.items(), |d| {
        fits &= out.push(d).is_some();
    });
    (decided == Ok(true) && fits).then_some(out)
}

/// The tuple type of `fields`.
#[inline]
pub fn mk_tuple(cx: &mut RelCx<'_>, fields: &[Ty]) -> Ty {
    cx.tcx().tuple(fields)
}

/// The fields of the tuple `t` (resolved by [`tuple()`]) but the first `before` and the last
/// `after`, as a tuple: what `..rest` stands for (`t` itself in `Tuple(..fs)`); `None`
/// when `t` has fewer fields. The interpreter's too.
#[inline]
pub fn middle(cx: &mut RelCx<'_>, t: Ty, before: i64, after: i64) -> Option<Ty> {
    let TyData::Tuple(fs) = cx.data(t) else {
        return None;
    };
    if before == 0 && after == 0 {
        return Some(t);
    }
    let end = (fs.len() as i64).checked_sub(after)?;
    let fields: Vec<Ty> = fs
        .get(usize::try_from(before).ok()?..usize::try_from(end).ok()?)?
        .to_vec();
    Some(cx.tcx().tuple(&fields))
}

/// Appends the fields of the tuple `t` to `out`.
#[inline]
pub fn push_fields(cx: &mut RelCx<'_>, t: Ty, out: &mut Vec<Ty>) -> Option<()> {
    let t = tuple(cx, t)?;
    let TyData::Tuple(fs) = cx.data(t) else {
        return None;
    };
    out.extend_from_slice(fs);
    Some(())
}

/// Whether two lists of dimensions are the same shape: `None` while one has unknowns.
#[inline]
pub fn same_dims(cx: &mut RelCx<'_>, a: &List<Dim>, b: &List<Dim>) -> Option<bool> {
    let mut a = *a;
    let mut b = *b;
    for d in a
        .items
        .iter_mut()
        .take(a.len as usize)
        .chain(b.items.iter_mut().take(b.len as usize))
    {
        *d = resolved_dim(cx, *d);
    }
    if a.items() == b.items() {
        return Some(true);
    }
    let dims = &cx.tcx_ref().dims;
    if a.items().iter().chain(b.items()).any(|&d| dims.has_vars(d)) {
        return None;
    }
    Some(false)
}

/// The value of attribute `name` as given, `Some(None)` when it is not (or is `None`)
/// and the declaration has a default, `None` when it has none (the interpreter reports
/// the missing value).
#[inline]
fn given_or_default<'a>(
    cx: &'a RelCx<'_>,
    name: &str,
    has_default: bool,
) -> Option<Option<&'a AttrValue>> {
    match given(cx, name) {
        Some(v) => Some(Some(v)),
        None if has_default => Some(None),
        None => None,
    }
}

/// `attrs.name op text` for a `str` attribute whose default is `default` (a string
/// literal, or `None` for another default): `false` when it has no value.
#[inline]
pub fn str_cmp(
    cx: &RelCx<'_>,
    name: &str,
    default: Option<&str>,
    has_default: bool,
    op: Cmp,
    text: &str,
) -> Option<bool> {
    let value: &str = match (given_or_default(cx, name, has_default)?, default) {
        (Some(AttrValue::Str(s)), _) => s,
        (None, Some(d)) => d,
        (Some(_), _) => return None,
        (None, None) => return Some(false),
    };
    Some(match op {
        Cmp::Ne => value != text,
        _ => value == text,
    })
}

/// `attrs.name op x` for a `float` attribute whose default is `default` (a float
/// literal, or `None` for another default): `false` when it has no value.
#[inline]
pub fn float_cmp(
    cx: &RelCx<'_>,
    name: &str,
    default: Option<f64>,
    has_default: bool,
    op: Cmp,
    x: f64,
) -> Option<bool> {
    let value = match (given_or_default(cx, name, has_default)?, default) {
        (Some(v), _) => float(v)?,
        (None, Some(d)) => d,
        (None, None) => return Some(false),
    };
    Some(op.holds(value, x))
}

/// A list of dimensions as a value passed to a Rust function: the shape of them.
#[inline]
pub fn dims_value(cx: &mut RelCx<'_>, l: &List<Dim>) -> Value {
    Value::Shape(cx.tcx().shape(l.items()))
}

/// A string literal as a value passed to a Rust function.
#[inline]
pub fn text_value(cx: &mut RelCx<'_>, s: &str) -> Value {
    Value::Text(cx.tcx().text(s))
}

/// The `str` attribute `name` as a value passed to a Rust function, its default
/// `default` when not given.
#[inline]
pub fn attr_text(cx: &mut RelCx<'_>, name: &str, default: Option<&str>) -> Option<Value> {
    let text = match (given(cx, name), default) {
        (Some(AttrValue::Str(s)), _) => s.clone(),
        (None, Some(d)) => d.into(),
        _ => return None,
    };
    Some(text_value(cx, &text))
}

/// An argument of a Rust function, resolved, once it is ready: a shape of known rank, a
/// type that is not a bare unknown; `None` while it is not. The interpreter's too.
pub fn rust_arg(cx: &mut RelCx<'_>, v: Value) -> Option<Value> {
    Some(match v {
        Value::Ty(t) => {
            let t = resolved(cx, t);
            if matches!(cx.data(t), TyData::Var(_)) {
                return None;
            }
            Value::Ty(t)
        }
        Value::Shape(s) => {
            let s = cx.solver.resolve_shape(s);
            if matches!(cx.tcx_ref().shape_data(s), ShapeData::Var(_)) {
                return None;
            }
            Value::Shape(s)
        }
        Value::Dim(d) => Value::Dim(resolved_dim(cx, d)),
        Value::DType(d) => Value::DType(cx.resolve_dtype(d)),
        v => v,
    })
}

/// `rust(f)(args)`: `f` on the arguments once each is ready ([`rust_arg`]); `None` for
/// an error.
pub fn call(cx: &mut RelCx<'_>, f: RustFn, args: &mut [Value]) -> Option<Value> {
    for v in args.iter_mut() {
        *v = rust_arg(cx, *v)?;
    }
    f(cx, args).ok()
}

/// A [`Term::Builtin`](super::Term::Builtin): `f` on the arguments once each is ready
/// ([`rust_arg`]); `None` while undecided, or for an error.
pub fn builtin(cx: &mut RelCx<'_>, f: BuiltinFn, args: &mut [Value]) -> Option<Value> {
    for v in args.iter_mut() {
        *v = rust_arg(cx, *v)?;
    }
    f(cx, args).ok()?
}

/// A goal `Name(args...)` ([`builtin::relation`]): `Some(())` when the relation is
/// solved, `None` when it waits or fails (the interpreter reports it). A relation with
/// a compiled run (`fast`, a clause's) runs only that: where it gives up, so does the
/// caller's, and the interpreter runs both.
#[inline]
pub fn relation(
    cx: &mut RelCx<'_>,
    def: &'static RelationDef,
    fast: Option<FastFn>,
    args: &[Ty],
) -> Option<()> {
    match fast {
        Some(fast) => builtin::on_args(cx, args, fast),
        None => match builtin::relation(cx, def, args) {
            Ok(crate::relation::Progress::Solved) => Some(()),
            _ => None,
        },
    }
}

/// The dimensions of the shape a Rust function gave, of known rank.
#[inline]
pub fn value_dims(cx: &mut RelCx<'_>, v: Value) -> Option<List<Dim>> {
    let s = cx.solver.resolve_shape(v.shape()?);
    shape_dims(cx, s)
}

/// `floor(d * x)`, as TVM's resize computes its output size; `None` for an error or a
/// dimension with unknowns.
#[inline]
pub fn scale_floor(cx: &mut RelCx<'_>, d: Dim, x: f64) -> Option<Dim> {
    let d = resolved_dim(cx, d);
    super::run::scale_floor(&mut cx.tcx().dims, d, x)
        .ok()
        .flatten()
}

/// A number an attribute gives as a float: a float, or an integer.
fn float(v: &AttrValue) -> Option<f64> {
    match v {
        AttrValue::Float(f) => Some(*f),
        AttrValue::Int(c) => Some(*c as f64),
        _ => None,
    }
}

/// The `float` attribute `name`, `default` (a literal) when it is not given.
#[inline]
pub fn float_attr(
    cx: &RelCx<'_>,
    name: &str,
    default: Option<f64>,
    has_default: bool,
) -> Option<f64> {
    match given_or_default(cx, name, has_default)? {
        Some(v) => float(v),
        None => default,
    }
}

/// `attrs.name[k]` of the `[float]` attribute `name` (negative from the end), `default`
/// (literals) when it is not given; a single float is a list of one.
#[inline]
pub fn float_at(
    cx: &RelCx<'_>,
    name: &str,
    default: Option<&[f64]>,
    has_default: bool,
    k: i64,
) -> Option<f64> {
    let at = |n: usize| builtin::index(k, n);
    match given_or_default(cx, name, has_default)? {
        Some(AttrValue::List(items)) => {
            // Every item a number, as the interpreter reads the list.
            let numbers: Option<Vec<f64>> = items.iter().map(float).collect();
            let numbers = numbers?;
            numbers.get(at(numbers.len())?).copied()
        }
        Some(v) => {
            at(1)?;
            float(v)
        }
        None => {
            let d = default?;
            d.get(at(d.len())?).copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clause::ir::MAX_RANGE;

    fn ints(xs: &[i64]) -> List<i64> {
        List::of(xs).expect("fits")
    }

    #[test]
    fn lists_index_and_slice_as_the_interpreter_does() {
        let l = ints(&[10, 11, 12, 13]);
        assert_eq!((l.at(0), l.at(-1), l.at(3)), (Some(10), Some(13), Some(13)));
        assert_eq!((l.at(4), l.at(-5)), (None, None));
        assert_eq!(l.slice(Some(1), None).items(), [11, 12, 13]);
        assert_eq!(l.slice(None, Some(-1)).items(), [10, 11, 12]);
        assert_eq!(l.slice(Some(-9), Some(9)).items(), [10, 11, 12, 13]);
        assert_eq!(l.slice(Some(3), Some(1)).items(), [] as [i64; 0]);
        assert_eq!(l.reversed().items(), [13, 12, 11, 10]);
        assert_eq!(l.gather(&ints(&[-1, 0])).map(|g| g.len()), Some(2));
        assert!(l.gather(&ints(&[4])).is_none());
    }

    #[test]
    fn a_list_longer_than_cap_gives_up() {
        let mut l = List::<i64>::default();
        for i in 0..CAP as i64 {
            assert_eq!(l.push(i), Some(()));
        }
        assert_eq!(l.push(0), None);
        assert!(List::<i64>::repeat(1, CAP as i64 + 1).is_none());
        assert!(List::<i64>::repeat(1, -1).is_none());
        assert_eq!(List::<i64>::repeat(7, 2).map(|l| l.len()), Some(2));
        assert!(List::<i64>::of(&[0; CAP + 1]).is_none());
    }

    #[test]
    fn ranges_are_bounded_as_in_the_interpreter() {
        assert_eq!(range(2, 5), Some(2..5));
        assert_eq!(range(5, 2).map(|r| r.count()), Some(0));
        assert_eq!(range(0, MAX_RANGE).map(|r| r.end), Some(MAX_RANGE));
        assert_eq!(range(0, MAX_RANGE + 1), None);
        assert_eq!(range(i64::MIN, i64::MAX), None);
    }
}
