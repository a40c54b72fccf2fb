//! Declaration macros for Relay: `#[relation]`, `relay_op!`, `relay_data!` and
//! `relay_prelude!`.
//!
//! Use them through `relay_core` (which re-exports them); the generated code refers to
//! the runtime by absolute paths under `::relay_core::__private`. Each macro is split in
//! stages, in its own module: `ast` (parse) → `check` (collect every error, each on the
//! narrowest token) → `expand` (generate; cannot fail).

use proc_macro::TokenStream;

mod data;
mod op;
mod prelude;
mod relation;

/// Declares a type relation: a clause on a unit struct, or a function of the relation's
/// context. The notation in brief; `relay_core::clause` has each form in detail with
/// runnable examples, and how a clause runs.
///
/// ```text
/// #[relation(Name(pattern, ..., O) :- goal, goal, ..., attrs(name: type = default, ...))]
/// pub struct Name;
///
/// #[relation(Name)]
/// pub fn name(cx: &mut RelCx<'_>) -> RelResult { ... }
/// ```
///
/// **Kinds.** Every variable and term is a *type*, a *shape*, a *dimension*, a *dtype*
/// or a *bool*, inferred from its uses; one used as two kinds is a compile error on the
/// second use. A `str` attribute is a *string*, a `float` one a *float*.
///
/// **Head patterns**, one per argument, the output last: a variable (twice: the same
/// type), `_`, `Tensor(shape, dtype)`, tuples `(p, q)`, `Tuple(..fs)`, `(p, ..rest)`;
/// shapes `s` or `[d0, ..rest, dn]`; dimensions `n`, `3`, `?`; dtypes `bt`, `float32`;
/// `X @ pattern` names the whole.
///
/// **Goals**: `A = term` (either side the unknown one); a condition (`==`, `!=`, `<`,
/// `<=`, `>`, `>=`, `&&`, `||`, `!`, `x in s`); `assert(cond, "message {}", values...)`
/// and `assert(a = b, "message", values...)` (a value is any term, or a `str` attribute);
/// `if cond { goals } else { goals }`; `for x in s { goals }` (or `in lo..hi`, or over
/// the fields of a tuple); `default(x, term)`; `attrs(..)` declares the attributes
/// (`int`, `bool`, `dtype`, `shape`, `[int]`, `str`, `float`, `[float]`, `Option<..>`).
///
/// **Terms**: variables, integers, `?`, `true`/`false`, dtype literals, `Tensor(s, d)`,
/// tuples, lists `[d0, ..s]`, `[d; n]`, `s[i]` and `s[a..b]` (negative from the end),
/// `s[list]`, `+ - * / %` on dimensions (floor division and modulo), `d * x` with a
/// float `x` (floored), comprehensions `[e for x in s if c]`, `if c { a } else { b }`,
/// `attrs.name`, `rust(path)(args...)` (a Rust function; `rust(path -> kind)(args...)`
/// declares the kind it returns), and the builtins:
///
/// | builtin | result | meaning |
/// |---|---|---|
/// | `prod(shape)` | dimension | the product of the dimensions |
/// | `sum(shape)` | dimension | the sum of the dimensions |
/// | `len(shape)` | dimension | the rank (of a tuple: its number of fields) |
/// | `broadcast(shape, shape)` | shape | NumPy broadcasting |
/// | `min(dimension, dimension)` | dimension | the smaller |
/// | `max(dimension, dimension)` | dimension | the larger |
/// | `floordiv(dimension, dimension)` | dimension | `a / b`, rounded toward negative infinity |
/// | `floormod(dimension, dimension)` | dimension | `a % b`, of the sign of `b` |
/// | `reverse(shape)` | shape | the dimensions in reverse order |
/// | `distinct(shape)` | bool | no two dimensions are equal |
/// | `is_axis(dimension, type)` | bool | an axis of the tensor (`-rank..rank`); else fails: "`axis` 5 is out of range for `T` (rank 2)" |
/// | `is_int(dimension)` | bool | a constant (not `?`, not a symbol); waits on an unknown |
/// | `is_any(dimension)` | bool | `?` (an unknown dimension is not) |
/// | `shape(type)` | shape | the shape of a tensor type |
/// | `dtype(type)` | dtype | the dtype of a tensor type |
///
/// Every mistake is a compile error on its token (the cases are `tests/ui/relation/`).
/// A builtin is declared once, in the macro's table of builtins, which this table is
/// checked against; its meaning is one function of `relay_core::clause::builtin`, which
/// the interpreter and the compiled run both call.
#[proc_macro_attribute]
pub fn relation(attr: TokenStream, item: TokenStream) -> TokenStream {
    let (attr, item) = (attr.into(), item.into());
    // An attribute set named by the clause (`attrs(ReduceAttrs)`) is spliced in first.
    if let Some(call) = op::sets::splice_into_relation(&attr, &item) {
        return call.into();
    }
    relation::expand(attr, item).into()
}

/// Declares an operator. See `relay_core::op` for the accepted forms.
#[proc_macro]
pub fn relay_op(input: TokenStream) -> TokenStream {
    op::expand(input.into()).into()
}

/// Declares named attribute sets. See `relay_core::relay_attrs`.
#[proc_macro]
pub fn relay_attrs(input: TokenStream) -> TokenStream {
    op::sets::expand(input.into()).into()
}

/// Declares algebraic data types. See `relay_core::adt` for the accepted forms.
#[proc_macro]
pub fn relay_data(input: TokenStream) -> TokenStream {
    data::expand(input.into()).into()
}

// Documented here, not at relay-core's re-export (which shows these docs): a link to
// `relay_core::relay_prelude` from another crate lands on this page.
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
/// (`src/my_prelude.relay`; `tests/downstream/src/my_prelude.relay` in a workspace). Its
/// functions may use the crate's operators and data types. As for operators, only a crate
/// that is linked is seen (`use my_ops as _;`). A prelude that does not type-check fails
/// the crate's `cargo test` where it calls `relay_cli::check_declarations()`.
#[proc_macro]
pub fn relay_prelude(input: TokenStream) -> TokenStream {
    prelude::expand(input.into()).into()
}
