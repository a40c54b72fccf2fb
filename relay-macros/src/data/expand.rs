//! Code generation for `relay_data!`: per data type, a unit struct with the definition as
//! an associated constant, one builder per constructor, and one `inventory::submit!`.

use super::ast::{DataDecl, Field, Input};
use super::names::{data_struct, doc_text, rust_ident, snake};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use std::collections::HashSet;

pub fn expand(input: &Input) -> TokenStream {
    let mut seen = HashSet::new();
    input
        .decls
        .iter()
        .filter(|d| seen.insert(d.name.to_string()))
        .map(expand_decl)
        .collect()
}

fn expand_decl(d: &DataDecl) -> TokenStream {
    let name = &data_struct(&d.name);
    let name_str = d.name.to_string();
    let mut doc = doc_text(&d.attrs);
    if doc.is_empty() {
        doc = format!("The data type `{name_str}`.");
    }
    if *name != d.name {
        doc.push_str(&format!(
            "\n\n(Named `{name}` in Rust: a struct `{name_str}` would shadow Rust's own.)"
        ));
    }
    let params = d.params.iter().map(|p| p.to_string());
    let mut seen = HashSet::new();
    let ctors: Vec<_> = d
        .ctors
        .iter()
        .enumerate()
        .filter(|(_, c)| seen.insert(c.name.to_string()))
        .collect();
    let ctor_defs = d.ctors.iter().map(|c| {
        let cname = c.name.to_string();
        let fields = c.fields.iter().map(|f| f.ty.text());
        quote! {
            ::relay_core::__private::CtorDef { name: #cname, fields: &[#(#fields),*] }
        }
    });
    let builders = ctors.iter().map(|(index, c)| {
        let fname = rust_ident(&snake(&c.name.to_string()), c.name.span());
        let args = Field::rust_names(&c.fields, "field");
        let sig: Vec<String> = c.fields.iter().map(|f| f.ty.text()).collect();
        let doc = format!(
            "`{}({})`: builds constructor `{}` of `{name_str}`.",
            c.name,
            sig.join(", "),
            c.name
        );
        quote! {
            #[doc = #doc]
            pub fn #fname<E>(#(#args: E),*) -> ::relay_core::__private::CtorCall<E> {
                ::relay_core::__private::CtorCall {
                    data: Self::DEF,
                    ctor: #index,
                    args: ::relay_core::__private::Vec::from([#(#args),*]),
                }
            }
        }
    });
    let line = quote_spanned!(d.data.span=> ::core::line!());
    let file = quote_spanned!(d.data.span=> ::core::file!());
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Copy, Clone, Debug)]
        pub struct #name;

        #[allow(clippy::new_ret_no_self)]
        impl #name {
            /// The registered definition of this data type.
            pub const DEF: &'static ::relay_core::__private::DataDef =
                &::relay_core::__private::DataDef {
                    name: #name_str,
                    doc: #doc,
                    params: &[#(#params),*],
                    ctors: &[#(#ctor_defs),*],
                    file: #file,
                    line: #line,
                };
            #(#builders)*
        }

        ::relay_core::__private::inventory::submit! {
            ::relay_core::__private::DataEntry { def: #name::DEF }
        }
    }
}
