//! `relay_op!`: parse ([`ast`]) → check ([`check`]) → expand ([`expand`]); an `onnx`
//! clause is checked and expanded in [`onnx`]; where namespaces shared with the module's
//! other invocations go, in [`layout`]; and `relay_attrs!`, the named attribute sets it
//! splices in ([`sets`]).
//!
//! Type templates, error collection and names are shared with `relay_data!`
//! (`crate::data::{tytext, ctxt, names}`).

mod ast;
mod check;
mod expand;
mod layout;
mod onnx;
pub mod sets;

use proc_macro2::TokenStream;

pub fn expand(input: TokenStream) -> TokenStream {
    // An attribute set named by a declaration is spliced in first, by its macro.
    if let Some(call) = sets::splice_into_op(&input) {
        return call;
    }
    let input: ast::Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = crate::data::ctxt::Ctxt::default();
    let models = check::check(&mut cx, &input);
    // Expansion cannot fail: the items are emitted even after an error (with fallbacks
    // where the declaration was wrong), so that one mistake gives one error.
    // The module's other invocations, from the source file, for namespaces they share.
    // Only namespaces are shared: a block of top-level operators reads nothing.
    let namespaced = input.decls.iter().any(|d| d.name.len() > 1);
    let blocks = input.decls.first().filter(|_| namespaced).and_then(|d| {
        let names: Vec<String> = input
            .decls
            .iter()
            .map(|d| {
                let segs: Vec<String> = d.name.iter().map(|s| s.to_string()).collect();
                segs.join(".")
            })
            .collect();
        layout::Blocks::find(d.name[0].span(), &names)
    });
    let mut out = expand::expand(&models, blocks.as_ref());
    out.extend(cx.into_compile_errors());
    out
}
