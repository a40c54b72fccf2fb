//! Relations written as clauses: the language of the [`relation`](macro@crate::relation)
//! attribute, and its runtime.
//!
//! # The two forms
//!
//! **A clause on a unit struct.** The head names the relation (the struct's name) and
//! gives one pattern per argument (the output is the last); the body, after `:-`, is
//! `true` or goals separated by commas. The struct is kept; the macro adds a
//! [`Relation`](crate::Relation) impl and registers the relation. The spec's three
//! relations read as the spec writes them:
//!
//! ```
//! use relay_core::{relation, Relation};
//!
//! #[relation(Identity(I, I) :- true)]
//! pub struct Identity;
//!
//! #[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt))]
//! pub struct Flatten;
//!
//! #[relation(Broadcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
//! pub struct Broadcast;
//!
//! assert_eq!(Flatten::DEF.name, "Flatten");
//! assert_eq!(Broadcast::DEF.arity, Some(3));
//! ```
//!
//! **A function.** `#[relation(Name)]` on a function `fn(cx: &mut RelCx<'_>) -> RelResult`
//! keeps the function and generates `struct Name;` (with the function's visibility), its
//! `Relation` impl and the same registration:
//!
//! ```
//! use relay_core::{relation, Progress, RelCx, RelResult, Relation};
//!
//! /// `Swap(A, B, O) :- O = (B, A)`, by hand.
//! #[relation(Swap)]
//! pub fn swap(cx: &mut RelCx<'_>) -> RelResult {
//!     let (a, b) = (cx.arg(0), cx.arg(1));
//!     let out = cx.tcx().tuple(&[b, a]);
//!     cx.unify(2, out)?;
//!     Ok(Progress::Solved)
//! }
//! assert_eq!(Swap::DEF.name, "Swap");
//! ```
//!
//! # Kinds
//!
//! Every variable and term has one of five kinds, inferred by the macro from where it
//! is used: a **type** (`I`, `Tensor(..)`, a tuple), a **shape** (a list `[..]`, a
//! slice), a **dimension** (an integer, `s[0]`, arithmetic: integers are constant
//! dimensions), a **dtype** (`float32`), a **bool** (a comparison). A variable used as two
//! kinds is a compile error on the second use (`expected a dtype, found the dimension
//! `n``). A name that spells a data type (`bool`, `int8`…`int64`, `uint8`…, `float16`,
//! `float32`, `float64`, `bfloat16`, with lanes as in `float32x4`) is a dtype literal,
//! never a variable.
//!
//! # Head patterns
//!
//! | pattern | matches |
//! |---|---|
//! | `I` | any type; a variable that occurs twice unifies the two arguments |
//! | `_` | anything |
//! | `Tensor(shape, dtype)` | a tensor type |
//! | `Tuple(p, ...)`, `(p, q)`, `(p,)`, `()` | a tuple type of that many fields |
//! | `Tuple(..fs)`, `(p, ..rest)`, `(..init, q)` | a tuple of any number of fields (at least the others): `..rest` names the fields between the others, a tuple |
//! | shape: `s` or `[d0, d1, ..rest]` | a whole shape, or its dimensions; at most one `..rest`, anywhere |
//! | dimension: `n`, `3`, `?`, `_` | one dimension (`?` matches only `?`) |
//! | dtype: `bt`, `float32`, `_` | an element type |
//! | `X @ pattern` | what `pattern` matches, and names the whole of it `X` (for messages, or to pass it on) |
//!
//! ```
//! use relay_core::relation;
//!
//! /// A batched matrix product: `[..b, n, k]` with `[k, m]`.
//! #[relation(Matmul(Tensor([..b, n, k], bt), Tensor([k, m], bt), O) :- O = Tensor([..b, n, m], bt))]
//! pub struct Matmul;
//!
//! /// A pair of booleans of one shape gives a scalar.
//! #[relation(AllOf((Tensor(s, bool), Tensor(s, bool)), O) :- O = Tensor([], bool))]
//! pub struct AllOf;
//! ```
//!
//! # Body goals
//!
//! - `true` (or nothing else): the head alone.
//! - `A = term`: an equation (either side may be the unknown one, see below).
//! - `a == b`, `a != b`, `a < b`, `a <= b`, `a > b`, `a >= b`: a condition. `==` and
//!   `!=` compare values of any kind; the others compare dimensions. Conditions combine
//!   with `&&`, `||` and `!` (a side that decides alone does not wait for the other).
//! - `assert(condition, "message")`: a condition that fails with your message. The message
//!   may show values: `assert(k < len(s), "`axis` {} is out of range for `{}`", k, X)`, one
//!   value per `{}` (`{{` and `}}` are braces; a value may be a `str` attribute), each
//!   shown in the text syntax (`_` for one
//!   still unknown).
//! - `assert(a = b, "message", values...)`: an equation whose failure to unify is reported
//!   with your message rather than the unifier's (an unknown on either side is still
//!   solved, as by `a = b`).
//! - `if condition { goals } else { goals }`, `else if`, or no `else`: the goals of the branch
//!   the condition takes; it waits while the condition cannot be decided. Conditions on
//!   attributes are decided at once.
//! - `for x in list { goals }` (or `for i in lo..hi`): the goals once for each dimension
//!   `x` of a shape (each integer `i` of a range); done when they hold for every one,
//!   waiting while the shape's rank (the range's ends) is unknown. The variable is a
//!   dimension local to the loop. Equations in a loop unify for every dimension
//!   (`for d in s { d = 1 }`); conditions and `assert`s show the dimension they fail on.
//! - `Name(args...)`, with `Name` a relation (a capitalised name other than `Tensor` and
//!   `Tuple`, a type implementing [`Relation`](crate::Relation) in scope): that relation
//!   holds of the arguments, under the call's attributes. Goals shared by several
//!   relations are written once and called (relay-ops' `ArgReduce` and `Variance` call
//!   `Reduce`). The
//!   arguments are types the clause computes (the goal waits for them); the relation's
//!   error blames the argument it comes from; a number of arguments other than the
//!   relation's arity is a compile error on its name.
//! - `default(x, term)`: once nothing else can be learnt, a variable `x` still unknown is
//!   `term`. For the defaults an operator documents (an inferred weight has the data's
//!   dtype), never to guess.
//! - `attrs(name: type, name: type = default, ...)`: not a goal but the declaration of the
//!   attributes the body reads: `int`, `bool`, `dtype`, `shape` (a list of integers read
//!   as a shape), `[int]` (the same, also given as a single integer), `str` and `float`
//!   (compared with a literal, either side: `attrs.layout == "NCHW"`, `attrs.rate < 1.0`;
//!   an integer counts as a float), `[float]` (a list of floats, or a single float,
//!   indexed: `attrs.scales[0]`), and any of them as
//!   `Option<type>` (default `None`; `attrs.name == None` and `attrs.name != None` test it,
//!   and reading it while it is `None` is an error), with optional defaults.
//!
//! # Terms
//!
//! Variables; integers (`-1` too); `?` (the dimension `Any`: `Tensor([?, len(s)], int64)`
//! for `argwhere`, whose count is known only at run time); `true`, `false`; dtype literals; `Tensor(shape, dtype)`;
//! `Tuple(a, b)` or `(a, b)`, with a tuple spliced in (`(a, ..rest)`); lists
//! `[d0, ..s, d1]` (dimensions, and shapes spliced in);
//! indexing `s[i]` (negative from the end); slices `s[a..b]`, `s[a..]`, `s[..b]` (Python's
//! bounds: negative from the end, clamped); `+ - *`, `/` (floor division), `%` (floor
//! modulo) and unary `-` on dimensions; the builtins `prod(s)`, `sum(s)`, `len(s)`,
//! `broadcast(s1, s2)`, `min(a, b)`, `max(a, b)`, `floordiv(a, b)`, `floormod(a, b)`,
//! `d * x` with `x` a float (a literal, a `float` attribute, `attrs.scales[i]` of a
//! `[float]` one): `floor(d * x)` as TVM's resize computes it (exact below 2^53, an error
//! when it does not fit; for a symbol, an integral factor scales it and another gives `?`);
//! `reverse(s)` (the dimensions in reverse order), `distinct(s)` (a bool: no two
//! dimensions are equal); `is_axis(a, X)` (a bool: `a` is an axis of the tensor `X`; a
//! goal `is_axis(attrs.axis, X)` fails otherwise with "`axis` 5 is out of range for `X`
//! (rank 2)", the message of [`RelCx::axis`](crate::RelCx::axis)); `[d; n]` (`n` times the dimension `d`); `s[list]` (the
//! dimensions of `s` at the indices of a list, as in NumPy: `s[attrs.axes]`);
//! attributes `attrs.name`; calls of Rust functions `rust(path)(args...)` (a `str`
//! attribute or a string literal is an argument too, a [`Value::Text`]:
//! `rust(einsum)(attrs.equation, a, b)`; `rust(path -> kind)(args...)` declares the kind
//! it returns, `type`, `shape`, `dim`, `dtype` or `bool`, where nothing else tells it:
//! `s[rust(axes -> shape)(attrs.equation)]` is a gather, not an index);
//! comprehensions `[elem for x in list]` and `[elem for x in list if cond]` (a shape: the
//! dimension `elem` for each dimension `x` of `list`, or each integer of a range
//! `lo..hi`, that passes `cond`; `x` is local to the comprehension); membership `x in
//! list` (a bool: the dimension `x` equals one of the list's); `if cond { a } else { b }`
//! as a term (`else` required, `else if` nests); `is_int(d)` (a bool: `d` is an integer,
//! false for `?` and for symbols, undecided while `d` has unknowns); `is_any(d)` (a bool:
//! `d` is `?`; an unknown dimension is not).
//!
//! **Tuples of any length.** A tuple `fs` (bound by `Tuple(..fs)`, or any type that is
//! a tuple) has `len(fs)` fields; `fs[i]` is one (negative from the end); `for f in fs
//! { goals }` runs the goals for each field, and `[elem for f in fs]` is a comprehension
//! over them, `f` a type; `shape(T)` and `dtype(T)` are the shape and the dtype of a
//! tensor type. Folds are comprehensions under `sum`, `prod`, `len` or `in`:
//!
//! ```
//! use relay_core::relation;
//!
//! /// Joins a tuple of tensors of one rank and dtype along their first axis.
//! #[relation(
//!     Join(X, O) :-
//!         assert(X = Tuple(..fs), "expected a tuple, found `{}`", X),
//!         assert(len(fs) >= 1, "expected at least one tensor"),
//!         fs[0] = Tensor([_, ..rest], bt),
//!         for f in fs {
//!             assert(f = Tensor(_, bt), "expected tensors of `{}`, found `{}`", bt, f),
//!             assert(shape(f)[1..] = rest, "expected `[_, ..{}]`, found `{}`", rest, f),
//!         },
//!         O = Tensor([sum([shape(f)[0] for f in fs]), ..rest], bt)
//! )]
//! pub struct Join;
//!
//! /// A tuple's first field, and the others.
//! #[relation(Split(Tuple(first, ..others), O) :- O = (others, first))]
//! pub struct Split;
//! ```
//!
//! ```
//! use relay_core::relation;
//!
//! /// Reduces over `axis` (negative from the end), keeping the reduced axes as 1 with
//! /// `keepdims`.
//! #[relation(
//!     Reduce(X @ Tensor(s, bt), O) :-
//!         for a in attrs.axis {
//!             assert(-len(s) <= a && a < len(s), "`axis` {} is out of range for `{}`", a, X),
//!         },
//!         r = [a % len(s) for a in attrs.axis],
//!         if attrs.keepdims {
//!             O = Tensor([if i in r { 1 } else { s[i] } for i in 0..len(s)], bt)
//!         } else {
//!             O = Tensor([s[i] for i in 0..len(s) if !(i in r)], bt)
//!         },
//!         attrs(axis: [int], keepdims: bool = false)
//! )]
//! pub struct Reduce;
//! ```
//!
//! ```
//! use relay_core::relation;
//!
//! /// Sums over `axis`, keeping it as 1 when `keepdims` is set.
//! #[relation(
//!     SumAxis(Tensor(s, bt), O) :-
//!         k = attrs.axis,
//!         assert(k >= 0, "a negative `axis` is not supported"),
//!         assert(k < len(s), "`axis` is out of range"),
//!         attrs.keepdims == false,
//!         O = Tensor([..s[..k], ..s[k + 1..]], bt),
//!         attrs(axis: int = 0, keepdims: bool = false)
//! )]
//! pub struct SumAxis;
//!
//! /// Casts to the `dtype` attribute; the element count is `prod(s)`.
//! #[relation(CastFlat(Tensor(s, _), O) :- O = Tensor([prod(s)], attrs.dtype), attrs(dtype: dtype))]
//! pub struct CastFlat;
//!
//! /// Splits the last dimension in two halves.
//! #[relation(Halves(Tensor([..lead, n], bt), O) :- n % 2 == 0, O = (Tensor([..lead, n / 2], bt), Tensor([..lead, n / 2], bt)))]
//! pub struct Halves;
//! ```
//!
//! A Rust function is a [`RustFn`]: it receives the values of its arguments
//! ([`Value`]s: every shape of known rank and every type more than a bare unknown, the
//! call waits until then) and returns the value or an error:
//!
//! ```
//! use relay_core::clause::Value;
//! use relay_core::{relation, RelCx, RelError};
//!
//! fn pad(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
//!     let (d, p) = (args[0].dim().unwrap(), args[1].dim().unwrap());
//!     let two_p = cx.tcx().dims.scale(p, 2).map_err(|e| RelError::new(e.to_string()))?;
//!     Ok(Value::Dim(cx.tcx().dims.add(d, two_p).map_err(|e| RelError::new(e.to_string()))?))
//! }
//!
//! #[relation(Pad(Tensor([n], bt), O) :- O = Tensor([rust(pad)(n, attrs.pad)], bt), attrs(pad: int))]
//! pub struct Pad;
//! ```
//!
//! A relation read from its attributes, with conditions and messages that show values
//! (this is `nn.dense` of the operator library, written as a clause):
//!
//! ```
//! use relay_core::{relation, Relation};
//!
//! #[relation(
//!     Dense(X @ Tensor(sa, bt), W @ Tensor(sw, wt), O) :-
//!         if attrs.units != None {
//!             assert(attrs.units >= 0, "`units` must not be negative, found {}", attrs.units),
//!         },
//!         assert(len(sa) >= 1, "the data must be at least 1-D, found `{}`", X),
//!         assert(len(sw) == 2, "the weight must be 2-D, found `{}`", W),
//!         assert(
//!             sw[1] = sa[-1],
//!             "the contraction dimensions differ: {} in the data and {} in the weight",
//!             sa[-1], sw[1]
//!         ),
//!         if attrs.units != None {
//!             assert(sw[0] = attrs.units, "`units` is {} but the weight has {}", attrs.units, sw[0]),
//!             // Backward: an unknown weight is `(units, k)`, of the data's dtype.
//!             sw = [attrs.units, sa[-1]],
//!             default(wt, bt),
//!             u = attrs.units,
//!         } else {
//!             u = sw[0],
//!         },
//!         if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
//!         O = Tensor([..sa[..-1], u], odt),
//!         attrs(units: Option<int> = None, out_dtype: Option<dtype> = None)
//! )]
//! pub struct Dense;
//!
//! /// `transpose` without its checks: `axes` permutes, `None` reverses.
//! #[relation(
//!     Permute(Tensor(s, bt), O) :-
//!         if attrs.axes == None { O = Tensor(reverse(s), bt) } else { O = Tensor(s[attrs.axes], bt) },
//!         attrs(axes: Option<[int]> = None)
//! )]
//! pub struct Permute;
//!
//! /// `n` new axes of size 1 in front.
//! #[relation(Lead(Tensor(s, bt), O) :- O = Tensor([..[1; attrs.n], ..s], bt), attrs(n: int))]
//! pub struct Lead;
//!
//! // The data is needed (nothing gives its shape back); the weight is not (`units`).
//! assert_eq!(Dense::DEF.needs, &[0]);
//! ```
//!
//! # How a clause runs
//!
//! Each run first takes the clause's *compiled run*: `#[relation]` writes, next to the
//! clause's static form, a Rust function that runs the steps in source order for the
//! case where every step succeeds the first time (inputs known, outputs computed),
//! holding an integer that is a constant by construction (a rank, an integer attribute,
//! a loop index) as an `i64` and a list on the stack ([`fast`] has what it calls). It
//! solves the clause or gives up, and then the interpreter below runs the clause from its
//! start: an unknown input, a goal that must wait, an error (whose message only the
//! interpreter composes), a list longer than [`fast::CAP`]. A clause gets no compiled run
//! when it uses a variable before the goal that binds it, or binds one in an `if` inside
//! a loop; it is interpreted.
//! Every operator test runs both ways and checks that they agree
//! ([`fast::set_enabled`]). The compiled runs of `concatenate`, `stack`, `squeeze` and the
//! reductions take about the time of the hand-written relations they replaced (relay-ops'
//! `clauses` benchmark). The solver does not run the clause at all while an
//! argument it *needs* is an unknown: one whose head pattern takes it apart and that no
//! equation can rebuild from the other arguments (`Broadcast` needs its two inputs;
//! `Identity` needs nothing). The general interpreter:
//!
//! 1. Each argument is matched against its head pattern. A variable seen for the first
//!    time is bound; seen again, its two values are unified (so `Identity(I, I)` refines
//!    either argument from the other). A structural pattern against an argument that is
//!    still unknown binds nothing yet.
//! 2. The goals run, repeatedly, while one of them makes progress. An equation whose one
//!    side can be computed unifies it with the other if that one can be computed too, and
//!    otherwise *destructures* the known value along the other side (`O = Tensor(s, bt)`
//!    with `O` known binds `s` and `bt`: the backward direction); head patterns are
//!    equations too, so an argument that was unknown is rebuilt from its pattern once
//!    every variable of the pattern is known. A goal whose inputs are unknown (a shape of
//!    unknown rank under `s[0]`, an undecided comparison) waits.
//! 3. No goal left: [`Progress::Solved`](crate::Progress). Some waiting: `NotYet`, and the
//!    solver runs the relation again when one of its arguments is refined. Nothing
//!    guesses, nothing panics.
//!
//! Failures blame an argument: a head pattern that does not match blames its argument; an
//! equation that does not unify blames the argument its left side comes from (usually
//! the output), with the unifier's message; `broadcast` names both clashing dimensions;
//! an `assert` gives its message; another condition quotes itself (`` `len(s) == 2` does
//! not hold: it is `3 == 2` ``). A comparison of dimensions with different normal forms
//! over rigid symbols (`n < 5`) cannot be decided and is an error, whose message suggests
//! testing `is_int(n)` first (`if is_int(n) { assert(attrs.k <= n, ..) }`); `?` satisfies
//! every comparison (it is checked at run time).
//!
//! ```
//! use relay_core::{relation, DType, Outcome, Relation, Solver, TyCtx};
//!
//! #[relation(Flatten(Tensor(sh, bt), O) :- O = Tensor([sh[0], prod(sh[1..])], bt))]
//! pub struct Flatten;
//!
//! let mut s = Solver::new(TyCtx::new());
//! let x = s.fresh_ty();
//! let o = s.fresh_ty();
//! s.add_relation(Flatten::REF, &[x, o], None, 0);
//! assert!(matches!(s.solve(), Outcome::UnderConstrained(_)));
//! let known = s.tcx.tensor_const(&[4, 2, 3], DType::FLOAT32);
//! s.unify(x, known).unwrap();
//! assert_eq!(s.solve(), Outcome::Solved);
//! let o = s.resolve(o);
//! assert_eq!(s.tcx.show(o), "Tensor[(4, 6), float32]");
//! ```
//!
//! # Compile errors
//!
//! Every mistake is reported, each on its token: an unknown variable, builtin or
//! attribute; a builtin or `Tensor` with the wrong number of arguments; a variable used as
//! two kinds; a malformed pattern or clause; a head named differently from the struct; an
//! invalid dtype literal; an attribute declared twice or with an unknown type; an
//! `assert` without a message, or with a number of values different from its `{}`s;
//! `&&`, `||` or `!` on something that is not a bool; `None` compared with an attribute
//! that is not `Option<..>`, or anywhere else than in
//! `attrs.name == None`; `default` of something that is not a variable; an `if` whose
//! condition is not a bool; an `if` term without `else`; a comprehension's or loop's
//! variable used outside it, or reused by a nested one; a `for` without `in`, without
//! goals, or with a `default`; a range without its end; the attribute on anything but a unit struct or a function
//! of the right signature. The cases are in `tests/ui/relation/`.
//!
//! # Runtime
//!
//! The macro compiles a clause into static data ([`Clause`]: patterns, goals and terms,
//! with function pointers for the Rust functions it calls) and its compiled run; one
//! generic interpreter, [`run_clause`], runs it against a
//! [`RelCx`](crate::RelCx). The expansion is that data, the compiled run, a
//! [`RelationDef`](crate::RelationDef) whose `solve` calls `run_clause` and whose `needs`
//! the macro computed, the `Relation` impl and one `inventory::submit!`.
//!
//! A builtin's meaning is written once, in [`builtin`]: the interpreter and the compiled
//! run call the same functions (an index from the end, a slice's bounds, a comparison of
//! dimensions, `[d; n]`'s bounds, ...). **Adding a builtin** touches three places: its
//! function over values in [`builtin`] (a [`BuiltinFn`], as `distinct_of`); its row in the
//! macro's table of builtins (`relay-macros/src/relation/builtins.rs`: name, kinds of the
//! arguments and of the result, the function); and its row in the table of the
//! [`relation`](macro@crate::relation) page, which a test checks against the macro's.

pub mod builtin;
pub mod fast;
mod ir;
mod run;
#[cfg(test)]
mod tests;
mod value;

pub use ir::{
    Arith, AttrDecl, AttrType, BuiltinFn, Clause, Cmp, Goal, Item, Message, RustFn, Term,
    MAX_RANGE, MAX_REPEAT,
};
pub use run::run_clause;
pub use value::Value;
