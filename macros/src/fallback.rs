//! What a `#[tool]` with mistakes expands to: the user's fn, unchanged but for the parameter doc
//! comments rustc would reject, plus every error. No registration, so no cascade of errors.

use proc_macro2::TokenStream;
use quote::quote;

/// The fn as the user wrote it, plus the errors.
pub(crate) fn with_errors(item: TokenStream, errors: darling::Error) -> TokenStream {
    let errors = errors.write_errors();
    let item = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(mut item_fn) => {
            strip_param_docs(&mut item_fn);
            quote!(#item_fn)
        }
        Err(_) => item,
    };
    quote! {
        #item
        #errors
    }
}

/// Doc comments on parameters (property descriptions) and the `#[context]` marker are
/// `#[tool]` syntax; rustc rejects them, so the re-emitted fn goes without them.
pub(crate) fn strip_param_docs(item: &mut syn::ItemFn) {
    for input in &mut item.sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| {
                !crate::docs::is_doc(attr) && !crate::valid::is_context_marker(attr)
            });
        }
    }
}
