//! `relay_data!`: parse ([`ast`]) → check ([`check`]) → expand ([`expand`]).
//!
//! [`tytext`] (type templates), [`ctxt`] (error collection) and [`names`] are shared with
//! `relay_op!`.

pub mod ast;
pub mod check;
pub mod ctxt;
pub mod expand;
pub mod names;
pub mod tytext;

use proc_macro2::TokenStream;

pub fn expand(input: TokenStream) -> TokenStream {
    let input: ast::Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = ctxt::Ctxt::default();
    check::check(&mut cx, &input);
    // Expansion cannot fail: the items are emitted even after an error, so that one
    // mistake gives one error and not a cascade at every use.
    let mut out = expand::expand(&input);
    out.extend(cx.into_compile_errors());
    out
}
