//! Relay's type system in Rust: the type language with symbolic shapes, the worklist
//! solver of type relations, and the interface relations are written against.
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
/// Each declaration is `name : fn<params>(args) -> ret` followed by optional clauses, each
/// after a comma, in any order: `where Relation`, `attrs { ... }`, `level N`. Declarations
/// end with `;` (optional after the last one); doc comments document the operator.
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
///     ["size=[32, 32]", "layout=\"NCHW\"", "scale=0.5f", "antialias=False", "out_dtype=\"float16\"", "pad=[0, 0]"]
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
/// The default support level is 10, TVM's default. The builder of `a.b.name` lives in
/// module `a::b` (generated by the invocation, so one invocation per namespace and
/// module, which imports its parent's names with `use super::*`: declare operators with
/// dotted names at module level, not inside a function); the definition is the `static`
/// named after the operator in upper case.
pub use relay_macros::relay_op;

/// Registers a prelude: a file of Relay functions (`def @f ...`) that every program
/// checked with `relay_ops::prelude::Prelude::standard()` (and so `relay check`) has in
/// scope, next to the standard prelude's `@map`, `@foldl`, .... The path is relative to
/// the file the macro is in, as `include_str!`'s; the text is part of the binary.
///
/// ```ignore
/// // In src/lib.rs, next to src/my_prelude.relay (as tests/downstream does):
/// relay_core::relay_prelude!("my_prelude.relay");
/// ```
///
/// The prelude is type-checked when a `Prelude` is built, with the standard prelude and
/// the registered preludes whose names sort before its own in scope; its errors are shown
/// in its file, named by its path as `file!()` names the file that registers it
/// (`src/my_prelude.relay`; `tests/downstream/src/my_prelude.relay` in a workspace). Its functions may use the crate's operators and data types. As
/// for operators, only a crate that is linked is seen (`use my_ops as _;`).
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
