//! Relay's type system in Rust: the type language with symbolic shapes, the worklist
//! solver of type relations, and the interface relations are written against.
//!
//! # Adding an operator
//!
//! An operator author works in a crate of their own, which depends on `relay-core`,
//! `relay-ops` (the built-in operators and the prelude) and `relay-cli` (the `relay`
//! command). In order (`tests/downstream` in the repository does each step, and its
//! tests check them end to end):
//!
//! 1. **A relation**, in the spec's notation: [`#[relation]`](macro@relation), for
//!    example `#[relation(Same(A, A) :- true)] pub struct Same;`. [`clause`] documents
//!    every form; a relation clearer as code is a function over [`RelCx`].
//! 2. **An operator**: [`relay_op!`] declares its dotted name, its type with named
//!    arguments, the relation, its attributes and level, and generates a typed builder
//!    (attributes that several operators share: [`relay_attrs!`]).
//! 3. **A data type**, if it needs one: [`relay_data!`], in the spec's notation.
//! 4. **A prelude**, if it has Relay functions: [`relay_prelude!`] registers a `.relay`
//!    file, type-checked with the standard prelude.
//! 5. **A test**: [`relay_cli::check_declarations()`](../relay_cli/fn.check_declarations.html)
//!    in a `#[test]` of the crate's `src/lib.rs` fails its `cargo test` on a name declared
//!    twice, a field of an unknown type or a prelude that does not type-check, with the
//!    messages the command would print; `relay_ops::prelude::Prelude::standard()` checks
//!    programs against the operators in the crate's own tests.
//! 6. **A binary**: `fn main() -> ExitCode { relay_cli::main() }` with `use my_crate as _;`
//!    is the crate's own `relay` command ([`relay_cli`](../relay_cli/index.html)), which
//!    checks programs with the crate's operators, data types and prelude next to the
//!    built-in ones.
//!
//! ```
//! use relay_core::{relation, relay_op};
//!
//! /// `Same(A, A) :- true`: the result is the argument.
//! #[relation(Same(A, A) :- true)]
//! pub struct Same;
//!
//! relay_op! {
//!     /// Returns its argument unchanged.
//!     my.identity : fn<d, o>(data: d) -> o where Same, level 9;
//! }
//!
//! # fn main() {
//! let op = relay_core::registry::global().unwrap().op("my.identity").unwrap();
//! let mut tcx = relay_core::TyCtx::new();
//! let ty = op.ty(&mut tcx);
//! assert_eq!(tcx.show(ty), "fn [d, o](d) -> o");
//! # }
//! ```
//!
//! # Modules
//!
//! - [`dim`]: dimensions in a canonical normal form, with checked arithmetic.
//! - [`ty`]: interned types ([`Ty`]), shapes, dtypes, kinds, and the [`TyCtx`] that owns
//!   them.
//! - [`solve`]: the [`Solver`]: union-find tables, relations, the dependency graph, the
//!   FIFO worklist and the three outcomes of solving.
//! - [`relation`](mod@relation): what a relation receives ([`RelCx`]) and answers ([`Progress`]).
//! - [`text`]: the parser of the text syntax of types.
//! - [`op`], [`adt`], [`registry`]: operators and data types as the declaration macros
//!   declare them, and the registry that finds them at run time.
//! - [`diag`]: what diagnostics carry besides their message: secondary labels, "did you
//!   mean" help, stable names for the unknowns they mention.

extern crate self as relay_core;

#[doc(hidden)]
pub mod __private;
pub mod agreement;
pub mod attrs;
pub mod clause;
pub mod diag;
pub mod dim;
pub mod dtype;
pub mod exhaust;
pub mod expr;
mod fold;
pub mod infer;
mod intern;
pub mod kind;
mod lexer;
pub mod op;
pub mod registry;
pub mod shape;
pub mod solve;
pub mod testing;
pub mod text;
pub mod ty;
pub mod var;

// Modules that live in the folder of their layer, at the paths they have always had.
pub use registry::adt;
pub use solve::relation;
pub use ty::print;

pub use adt::{AdtTable, CtorCall, DataDef};
pub use attrs::{AttrTypeError, AttrValue, Attrs};
pub use dim::{Dim, DimData, DimError, DimOp, Dims};
pub use dtype::{DType, DTypeCode};
pub use fold::ParamValue;
pub use kind::{Kind, KindError, Param, ParamInfo};
pub use op::{OpCall, OpDef};
pub use registry::Registry;
pub use relation::{Progress, RelCx, RelError, RelResult, Relation, RelationDef, RelationRef};
pub use relay_macros::relation;
/// Declares algebraic data types in the spec's notation: registers a [`DataDef`] for each
/// and generates constructor builders ([`CtorCall`]). See [`adt`] for loading them into a
/// [`TyCtx`].
///
/// The spec's notation, several data types per invocation. Constructors are separated by
/// commas or by nothing (newlines, as in the spec); the result may be written bare
/// (`-> List`) or applied to the parameters (`-> List[a]`); fields may be named, which
/// names the builder's parameters. A data type may have no constructor (as in TVM).
///
/// ```
/// use relay_core::{relay_data, CtorCall};
///
/// relay_data! {
///     /// The spec's form, with commas.
///     data Pair<a, b> {
///         MkPair : (a, b) -> Pair,
///     }
///
///     /// Without commas, as the spec writes it; a type call in the result; named fields.
///     data Stream<a> {
///         Done : () -> Stream
///         More : (head: a, rest: Stream[a]) -> Stream[a]
///     }
///
///     /// No parameters, field types of the text syntax, an empty data type.
///     data Numbers { Single : (Tensor[(), int32]) -> Numbers, Many : ((int32, int32)) -> Numbers }
///     data Void {}
/// }
///
/// // Builders: one associated function per constructor, in snake case.
/// let call: CtorCall<&str> = Stream::more("x", "rest");
/// assert_eq!((call.name(), call.ctor, call.args), ("More", 1, vec!["x", "rest"]));
/// assert_eq!(Stream::done::<()>().name(), "Done");
/// assert_eq!(Pair::DEF.ctors[0].fields, ["a", "b"]);
///
/// // Loading gives each data type a handle and each constructor its type.
/// let mut tcx = relay_core::TyCtx::new();
/// let defs = [Pair::DEF, Stream::DEF, Numbers::DEF, Void::DEF];
/// let table = relay_core::adt::load_defs(&mut tcx, defs).unwrap();
/// let more = table.ctor("More").unwrap();
/// assert_eq!(tcx.show(table.ctor_info(&tcx, more).ty), "fn [a](a, Stream[a]) -> Stream[a]");
/// ```
///
/// Constructors are global names (as in Relay's text format): two data types declaring a
/// constructor of the same name are rejected when the registry is built.
///
/// The struct of a data type named like an item of Rust's prelude or a primitive type
/// (`Result`, `Option`, `Box`, `str`, ...) is named `{name}Data`, so that it does not
/// shadow Rust's in the module: `data Result<a, e>` is `ResultData` in Rust (and
/// `Result` in Relay), and `Result<T, E>` stays Rust's.
pub use relay_macros::relay_data;
/// Declares operators: registers an [`OpDef`] for each and generates a typed builder of
/// calls ([`OpCall`]). See [`op`] for the runtime types.
///
/// Each declaration is `name : fn<params>(args) -> ret` (or `name, name, .. : fn..`,
/// [several operators](#several-operators-of-one-signature)) followed by optional
/// clauses, each after a comma, in any order: `where Relation`, `attrs { ... }`,
/// `level N`, and any number of `onnx ...` (the ONNX operators it is,
/// [below](#onnx-operators)). Declarations end with `;` (optional after the last one);
/// doc comments document the operator.
///
/// ```
/// use relay_core::{relay_op, Relation, RelationDef};
///
/// // A relation (normally from `#[relation]`; written by hand here).
/// pub struct Same;
/// impl Relation for Same {
///     const DEF: &'static RelationDef = &relay_core::testing::IDENTITY_DEF;
/// }
///
/// relay_op! {
///     /// The spec's form: type parameters with kinds, arguments, result, relation.
///     copy : fn<t1 : Type, t2 : Type>(t1) -> t2 where Same;
///
///     /// A kind left out is `Type`; arguments may be named (the builder's parameter
///     /// names); types may be any type of the text syntax over the parameters.
///     cast_to_float : fn<s: Shape, a: BaseType>(data: Tensor[s, a]) -> Tensor[s, float32],
///         level 3;
///
///     /// A dotted name puts the builder in a module (`image::crop`). Attributes have a
///     /// type (`int`, `float`, `bool`, `str`, `dtype`, `[T]`, `Option<T>`, and `T | [T]`
///     /// for a value or a list, as TVM's `indices_or_sections: int | [int]`) and a
///     /// default; one without a default is required and becomes a builder argument.
///     image.crop : fn<t, u>(data: t) -> u where Same,
///         attrs {
///             size: [int],
///             layout: str = "NCHW",
///             scale: float = 1.0,
///             antialias: bool = false,
///             out_dtype: Option<dtype> = None,
///             pad: Option<[int]> = [0, 0],
///         },
///         level 5;
/// }
///
/// # fn main() {
/// // The builder: one typed setter per attribute, defaults filled at `build()`.
/// let call = image::crop("x", [32, 32]).scale(0.5).out_dtype(relay_core::DType::FLOAT16).build();
/// // Each takes its attribute's Rust type, as its signature shows: `i64` for `int`, `f64`
/// // for `float`, `bool`, `&str` for `str`, `DType` for `dtype`, `impl IntoIterator<Item = i64>`
/// // for `[int]`, the value for `Option<T>`, `impl Into<OneOrList<i64>>` for `int | [int]`.
/// let _: fn(image::CropBuilder<u8>, f64) -> image::CropBuilder<u8> = image::CropBuilder::scale;
/// assert_eq!(call.op.name, "image.crop");
/// assert_eq!(call.args, vec!["x"]);
/// let shown: Vec<String> = call.attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
/// assert_eq!(
///     shown,
///     ["size=[32, 32]", "layout=\"NCHW\"", "scale=0.5", "antialias=False", "out_dtype=\"float16\"", "pad=[0, 0]"]
/// );
///
/// // The definition, and the operator's type in a type context.
/// assert_eq!(image::CROP.level, 5);
/// assert_eq!(COPY.level, 10);
/// let mut tcx = relay_core::TyCtx::new();
/// let ty = CAST_TO_FLOAT.ty(&mut tcx);
/// assert_eq!(tcx.show(ty), "fn [s: Shape, a: BaseType](Tensor[s, a]) -> Tensor[s, float32]");
/// # }
/// ```
///
/// The relation takes the operator's arguments and then its result: a relation of
/// `#[relation]` whose head has another number of terms is a compile error at its name in
/// the `where` clause, which reads: relation `Positive` takes 1 argument, but operator
/// `my.relu` gives it 2 (its 1 argument and its result). Each attribute a clause declares
/// (`attrs(axis: int = -1)`) must be one of the operator's, of the same type and default
/// (an operator's `Option<T> = None` may be the clause's `T = d`), or it is a compile
/// error there too: see [`agreement`].
///
/// # Several operators of one signature
///
/// Operators whose signature and clauses are the same, as TVM's element-wise families,
/// are one declaration: their names separated by commas before the `:`, each with its own
/// doc comment. Each is the operator it would be declared alone (its builder, its
/// definition, its doc); `relay ops` cannot tell them apart from separate declarations.
///
/// ```
/// # use relay_core::{relay_op, Relation, RelationDef};
/// # pub struct Same;
/// # impl Relation for Same {
/// #     const DEF: &'static RelationDef = &relay_core::testing::IDENTITY_DEF;
/// # }
/// relay_op! {
///     /// Rounds up.
///     my.ceil,
///     /// Rounds down.
///     my.floor,
///     /// Rounds to the nearest integer.
///     my.round : fn<t1, t2>(data: t1) -> t2 where Same, attrs { exact: bool = true }, level 3;
/// }
///
/// # fn main() {
/// assert_eq!(my::floor("x").exact(false).build().op.name, "my.floor");
/// assert_eq!((my::CEIL.level, my::ROUND.arg_names), (3, &["data"][..]));
/// assert_eq!(my::FLOOR.doc, "Rounds down.\n\nAttributes:\n\n- `exact: bool = true`");
/// # }
/// ```
///
/// A mistake in the shared signature is reported once, on its token. A name given twice
/// is an error on the second; an `onnx` clause, which maps one operator, is an error in
/// such a declaration (declare the operator it maps alone).
///
/// # ONNX operators
///
/// A clause `onnx "domain" OpType since N { .. }` says that the operator is an ONNX
/// operator too, from opset `N` of its domain on (until a later clause's), and how a
/// node's inputs and attributes give its arguments and attributes: `relay check model.onnx`
/// (the crate's own `relay` command, or
/// [`relay_onnx::check_bytes`](../relay_onnx/fn.check_bytes.html)) then types such nodes
/// with the operator's relation. The crate depends on `relay-onnx`, in whose table the
/// clause registers the mapping ([`relay_onnx::ops`](../relay_onnx/ops/index.html)); a
/// crate without the clause does not need it.
///
/// ```ignore
/// relay_op! {
///     my.scale : fn<a, b, c, d>(data: a, bias: b, shape: c) -> d where Scale,
///         attrs { factor: float = 1.0, axes: Option<[int]> = None, mode: str = "linear" },
///         onnx "com.example" Scale since 1 {
///             inputs(X, B?, S, A?) => (data: X, bias: B, shape: value(S)),
///             attrs { factor: alpha = 1.0, mode: mode, axes: value(A) },
///             outputs(Y),
///         };
/// }
/// ```
///
/// The parts, each at most once and in any order:
///
/// - `inputs(..) => (..)`: the node's inputs in order, each named (`X`), optional (`B?`:
///   an absent one gives `()`), or the inputs from there on (`..Xs`, last: a tuple, for a
///   variadic operator); then each argument of the operator, by its name in the
///   signature, with the input that gives it, by name or by index (`data: X`, `data: 0`),
///   or `value(S)`: the input's integer value as the shape of a tensor, `Tensor[(v0, v1,
///   ..), int64]` (an unknown until it is known, `()` when absent), as relay-onnx's shape
///   operators take `Reshape`'s shape. Every argument is mapped, and every input gives
///   something.
/// - `attrs { .. }`: operator attributes from the node's: `factor: alpha` (the node's
///   `alpha`, or the operator's default when the node has none), `factor: alpha = 2.0`
///   (or this default, of the attribute's type), `axes: value(A)` (the constant value of
///   input `A`, for an `int` or `[int]` attribute, as opset 13 moved `Squeeze`'s `axes`
///   into an input). An attribute left out keeps its default; a required one is mapped.
/// - `outputs(..)`: the node's outputs: one (`outputs(Y)`, as when the part is left out)
///   is the result; several (`outputs(Values, Indices)`) or `outputs(..Ys)` take the
///   result as a tuple with a field per output.
///
/// A mistake in the mapping is a compile error on its token: an argument or attribute the
/// operator does not have, one mapped twice or not at all, an input that is not declared
/// or out of range, an input that gives nothing, `value(..)` of the rest of the inputs or
/// into an attribute that is not `int` or `[int]`, a default of another type, an opset
/// version that is not an integer from 1 on, an empty domain or op type (the default
/// domain is `"ai.onnx"`), one ONNX operator and opset mapped twice in one invocation.
/// Across invocations and crates, relay-onnx reports such a duplicate on every model it
/// checks. relay-onnx's own operators are mapped with its `onnx_ops!` into the same
/// table. The operator's rustdoc names its ONNX operators.
///
/// The default support level is 10, TVM's default. The builder of `a.b.name` lives in
/// module `a::b`, which imports its parent's names with `use super::*` (declare operators
/// with dotted names at module level, not inside a function); the definition is the
/// `static` named after the operator in upper case. Several invocations in one module may
/// declare operators of one namespace: the first defines its module and re-exports the
/// others' builders and definitions, so `my::first` and `my::second` are both there. An
/// invocation finds the others of its module by reading its source file, which needs
/// Rust 1.88 (`Span::local_file`); with an older compiler, or for an invocation a macro
/// of yours generates, an invocation defines the module as if it were alone, and another
/// that defines it too is rustc's error E0428, on the module and on a constant named
/// `merge_the_relay_op_blocks_of_namespace_a_into_one`.
pub use relay_macros::relay_op;

/// Declares named attribute sets (TVM's shared attribute structs, `Conv2DAttrs`), once:
/// an operator takes one with `attrs Name` in [`relay_op!`], a clause with `attrs(Name)`
/// in [`#[relation]`](macro@relation), as if the attributes were written there. Each set is a
/// macro (exported: a downstream crate names it as `my_crate::Name`; in its own crate it
/// is in scope after the module that declares it, with `#[macro_use]`), documented with
/// its attributes. A set may take another's attributes where it writes `..Other`
/// (TVM's `AvgPool2DAttrs { ..MaxPool2DAttrs, count_include_pad: bool = false }`), and
/// several sets' in its order (`{ ..Window, deformable_groups: int = 1, ..Channels }`,
/// each set declared before the one that takes it). Whether
/// an operator's attributes agree with its relation's clause is still checked at compile
/// time ([`agreement`]).
///
/// ```
/// use relay_core::{relation, relay_attrs, relay_op};
///
/// relay_attrs! {
///     /// The attributes of the windowed operators.
///     WindowAttrs { size: int = 2, axis: int = -1 }
/// }
///
/// /// The data's type, `axis` in range.
/// #[relation(
///     Window(X @ Tensor(s, bt), O) :-
///         assert(-len(s) <= attrs.axis && attrs.axis < len(s), "`axis` {} is out of range", attrs.axis),
///         O = Tensor(s, bt),
///         attrs(WindowAttrs)
/// )]
/// pub struct Window;
///
/// relay_op! {
///     /// A windowed maximum.
///     window_max : fn<t, u>(data: t) -> u where Window, attrs WindowAttrs;
///     /// A windowed minimum.
///     window_min : fn<t, u>(data: t) -> u where Window, attrs WindowAttrs, level 4;
/// }
///
/// # fn main() {
/// let call = window_min("x").size(3).build();
/// let shown: Vec<String> = call.attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
/// assert_eq!(shown, ["size=3", "axis=-1"]);
/// assert_eq!(WINDOW_MAX.attrs.len(), 2);
/// # }
/// ```
///
/// A set that disagrees with a clause that reads it (another type or default) is a
/// compile error at the relation's name, as any operator's attributes are:
///
/// ```compile_fail,E0080
/// use relay_core::{relation, relay_attrs, relay_op};
///
/// relay_attrs! { PickAttrs { axis: int = 0 } }
///
/// #[relation(Pick(T, O) :- O = T, attrs(axis: int = -1))]
/// pub struct Pick;
///
/// relay_op! { pick : fn<a, b>(a) -> b where Pick, attrs PickAttrs; }
/// # fn main() {}
/// ```
pub use relay_macros::relay_attrs;

// Documented in relay-macros (where a link to it from another crate lands); shown here.
pub use relay_macros::relay_prelude;

pub use solve::{
    InstantiateError, Outcome, SolveError, Solver, Step, UnifyError, UnifyErrorKind, VarRef,
    Waiting,
};
pub use ty::{
    Adt, AdtCtor, AdtInfo, ArityError, Constraint, DTy, FuncTy, RelationName, Shape, ShapeData,
    Text, Ty, TyCtx, TyData,
};
pub use var::{DTypeVar, DimVar, ShapeVar, TyVar};
