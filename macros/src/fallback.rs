//! What a `#[tool]` with mistakes expands to: the user's fn, unchanged but for the parameter
//! attributes rustc would reject (doc comments, `serde`, `schemars`, `#[context]`, `#[header]`,
//! `#[property]`),
//! plus every error. No registration, so no cascade of errors.

use proc_macro2::TokenStream;
use quote::quote;

/// The fn as the user wrote it, plus the errors.
pub(crate) fn with_errors(item: TokenStream, errors: darling::Error) -> TokenStream {
    let errors = errors.write_errors();
    let item = without_errors(item);
    quote! {
        #item
        #errors
    }
}

/// The fn as the user wrote it, without errors: checks left to rustc come next to it.
pub(crate) fn without_errors(item: TokenStream) -> TokenStream {
    match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(mut item_fn) => {
            strip_param_attrs(&mut item_fn);
            quote!(#item_fn)
        }
        Err(_) => item,
    }
}

/// Doc comments, `serde` and `schemars` attributes and the `#[context]`, `#[header]`,
/// `#[property]` and `#[complete]` markers on parameters are `#[tool]` and `#[prompt]` syntax (property descriptions and shapes); rustc rejects them, so the re-emitted
/// fn goes without them. `#[cfg]` stays: rustc honours it on a parameter.
pub(crate) fn strip_param_attrs(item: &mut syn::ItemFn) {
    for input in &mut item.sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| {
                !crate::docs::is_doc(attr)
                    && !crate::valid::is_field_attr(attr)
                    && !crate::valid::is_context_marker(attr)
                    && !crate::valid::is_header_marker(attr)
                    && !crate::valid::is_property_marker(attr)
                    && !crate::valid::is_complete_marker(attr)
            });
        }
    }
}

/// Where an error about the item as a whole points when it is not what the attribute goes on:
/// its first token.
pub(crate) fn item_span(item: &TokenStream) -> proc_macro2::Span {
    item.clone()
        .into_iter()
        .next()
        .map_or_else(proc_macro2::Span::call_site, |token| token.span())
}
