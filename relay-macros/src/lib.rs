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

/// Declares a type relation. See `relay_core::clause` for the accepted forms.
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
