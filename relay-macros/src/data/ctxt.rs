//! Error collection (serde_derive's `Ctxt`): every error of a declaration, each on the
//! narrowest token, reported together.

use proc_macro2::{Span, TokenStream};
use std::fmt::Display;

/// The errors found so far.
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// An error at `span`; the same error again (on a signature that several operators
    /// share) is reported once.
    pub fn error(&mut self, span: Span, message: impl Display) {
        let error = syn::Error::new(span, message);
        let same = |e: &syn::Error| {
            e.to_string() == error.to_string()
                && format!("{:?}", e.span()) == format!("{:?}", error.span())
        };
        if !self.errors.iter().any(same) {
            self.errors.push(error);
        }
    }

    /// How many errors were found so far.
    pub fn count(&self) -> usize {
        self.errors.len()
    }

    /// The errors as `compile_error!` invocations.
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}
