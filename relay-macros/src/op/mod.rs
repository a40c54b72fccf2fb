//! `relay_op!`: parse ([`ast`]) → check ([`check`]) → expand ([`expand`]).
//!
//! Type templates, error collection and names are shared with `relay_data!`
//! (`crate::data::{tytext, ctxt, names}`).

mod ast;
mod check;
mod expand;

use proc_macro2::TokenStream;

pub fn expand(input: TokenStream) -> TokenStream {
    let input: ast::Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = crate::data::ctxt::Ctxt::default();
    let models = check::check(&mut cx, &input);
    // Expansion cannot fail: the items are emitted even after an error (with fallbacks
    // where the declaration was wrong), so that one mistake gives one error.
    let mut out = expand::expand(&models);
    out.extend(cx.into_compile_errors());
    out
}
