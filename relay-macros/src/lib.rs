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

/// Registers a prelude file of Relay functions. See `relay_core::relay_prelude`.
#[proc_macro]
pub fn relay_prelude(input: TokenStream) -> TokenStream {
    prelude::expand(input.into()).into()
}
