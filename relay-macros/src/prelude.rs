//! `relay_prelude!("file.relay")`: one `inventory::submit!` of the file's text, read with
//! `include_str!` spanned at the path, so that a missing file is an error on it.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::parse::{Parse, ParseStream};
use syn::LitStr;

/// The path given to the macro, with an optional trailing comma.
struct Input {
    path: LitStr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let expected = "expected the path of a `.relay` file, as a string literal relative \
                        to this file: `relay_prelude!(\"my_prelude.relay\");`";
        let path: LitStr = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), expected))?;
        if input.peek(syn::Token![,]) {
            input.parse::<syn::Token![,]>()?;
        }
        if !input.is_empty() {
            return Err(input
                .error("unexpected token after the path: one prelude file per `relay_prelude!`"));
        }
        Ok(Input { path })
    }
}

pub fn expand(input: TokenStream) -> TokenStream {
    let Input { path } = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let p = quote_spanned!(path.span()=> ::relay_core::__private);
    quote_spanned! {path.span()=>
        #p::inventory::submit! {
            #p::PreludeEntry {
                path: #path,
                file: ::core::file!(),
                line: ::core::line!(),
                text: ::core::include_str!(#path),
            }
        }
    }
}
