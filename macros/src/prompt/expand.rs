//! The expansion of a checked `#[prompt]` fn: the fn re-emitted, an adapter that reads each
//! argument from its string and calls it, and the `PromptRegistration` submitted.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{ReturnType, Type};

use super::ast::{Presence, PromptFn, Slot};
use crate::complete::completion;
use crate::expand::{option, provided_arg, state_key};
use crate::{fallback, icons, valid};

/// The name under which generated code reaches `<crate>::__private`.
const PRIVATE: &str = "__prompt_private";

/// The expansion of a valid `#[prompt]` fn.
pub(super) fn generate(prompt: &PromptFn<'_>) -> TokenStream {
    let private = format_ident!("{PRIVATE}");
    let krate = &prompt.krate;
    let bare = valid::unraw(&prompt.item.sig.ident);
    let get_ident = format_ident!("__prompt_{}_get", bare);
    let mut user_fn = prompt.item.clone();
    fallback::strip_param_attrs(&mut user_fn);
    // The arguments are owned values read from strings: clippy's advice to borrow them cannot
    // be followed.
    user_fn
        .attrs
        .push(syn::parse_quote!(#[allow(clippy::needless_pass_by_value)]));

    let reads = reads(prompt, &private);
    let fn_ident = &prompt.item.sig.ident;
    let span = prompt.item.sig.ident.span();
    let prompt_fn = quote_spanned!(span=> __prompt_fn);
    let run = call(prompt, &private, &prompt_fn);

    let argument_registrations = argument_registrations(prompt, &private);
    let state = prompt.slots.iter().filter_map(|slot| match slot {
        Slot::Runtime(provided) => state_key(provided, &private),
        Slot::Argument(_) => None,
    });
    let (name, description) = (&prompt.name, &prompt.description);
    let icons = icons::registrations(&prompt.icons, &private);
    let tags = crate::tags::registrations(&prompt.tags);
    let scopes = crate::scopes::registrations(&prompt.scopes);
    let title = option(prompt.title.as_ref().map(|title| quote!(#title)));
    let const_underscore = quote_spanned!(span=> const _);
    quote! {
        #user_fn

        #const_underscore: () = {
            use #krate::__private as #private;

            #[allow(deprecated)]
            fn #get_ident(
                __prompt_arguments: ::std::collections::BTreeMap<::std::string::String, ::std::string::String>,
                __prompt_context: #private::Context,
            ) -> #private::BoxFuture<'static, ::core::result::Result<#private::GetPromptResult, #private::PromptError>> {
                ::std::boxed::Box::pin(async move {
                    #(#reads)*
                    let #prompt_fn = #fn_ident;
                    #run
                })
            }

            #private::inventory::submit! {
                #private::PromptRegistration {
                    name: #name,
                    title: #title,
                    description: #description,
                    arguments: &[#(#argument_registrations),*],
                    icons: #icons,
                    state: &[#(#state),*],
                    get: #get_ident,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    tags: #tags,
                    scopes: #scopes,
                }
            }
        };
    }
}

/// The call of the user's fn (`prompt_fn`, spanned at its name) with each argument and what the
/// runtime provides, and the conversion of its output into the prompt's result.
fn call(prompt: &PromptFn<'_>, private: &syn::Ident, prompt_fn: &TokenStream) -> TokenStream {
    let call_args = prompt.slots.iter().map(|slot| match slot {
        Slot::Argument(index) => {
            let local = format_ident!("__prompt_arg_{}", index);
            quote!(#local)
        }
        Slot::Runtime(provided) => provided_arg(provided, private, "__prompt_context"),
    });
    let span = prompt.item.sig.ident.span();
    let is_async = prompt.item.sig.asyncness.is_some();
    let output = if is_async {
        quote_spanned!(span=> #private::assert_send(#prompt_fn(#(#call_args),*)).await)
    } else {
        quote_spanned!(span=> #prompt_fn(#(#call_args),*))
    };
    let convert = match &prompt.item.sig.output {
        ReturnType::Default => {
            quote_spanned!(span=> #private::prompt_result::<()>(__prompt_output))
        }
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => {
            quote_spanned!(ty.span()=> #private::prompt_result(__prompt_output))
        }
        ReturnType::Type(_, ty) => {
            quote_spanned!(ty.span()=> #private::prompt_result::<#ty>(__prompt_output))
        }
    };

    run(is_async, &output, &convert, span, private)
}

/// The statements that read each argument from the arguments' map into its parameter's type
/// (`?` on a missing or refused one).
fn reads(prompt: &PromptFn<'_>, private: &syn::Ident) -> Vec<TokenStream> {
    prompt
        .arguments
        .iter()
        .enumerate()
        .map(|(index, argument)| {
            let local = format_ident!("__prompt_arg_{}", index);
            let (name, ty, value_ty) = (&argument.name, argument.ty, argument.value_ty);
            let read = quote_spanned! {value_ty.span()=>
                #private::prompt_argument::<#value_ty, _>(&__prompt_arguments, #name, {
                    #[allow(unused_imports)]
                    use #private::{ReadByDeserialize as _, ReadByFromStr as _, ReadByNothing as _};
                    (&&&#private::ArgumentProbe::<#value_ty>::new()).reader()
                })?
            };
            let value = match argument.how {
                Presence::Optional => read,
                Presence::Required => quote!(#private::required(#read, #name)?),
                Presence::Defaulted => quote!(#read.unwrap_or_default()),
            };
            if !argument.fields {
                return quote!(let #local: #ty = #value;);
            }
            // An argument struct is read from the arguments its fields are.
            let fields = fields_probe(private, ty, &quote!(read(&__prompt_arguments)));
            quote! {
                let #local: #ty = match #fields {
                    ::core::option::Option::Some(read) => read?,
                    ::core::option::Option::None => #value,
                };
            }
        })
        .collect()
}

/// The `PromptArgumentRegistration` of each argument.
fn argument_registrations(prompt: &PromptFn<'_>, private: &syn::Ident) -> Vec<TokenStream> {
    prompt
        .arguments
        .iter()
        .map(|argument| {
            let name = &argument.name;
            let description = option(argument.docs.clone());
            let required = argument.how == Presence::Required;
            let fields = option(argument.fields.then(|| {
                let schema = fields_probe(private, argument.ty, &quote!(schema()));
                quote!(|| #schema)
            }));
            let complete = completion(private, argument.completer.as_ref(), argument.value_ty);
            quote! {
                #private::PromptArgumentRegistration {
                    name: #name,
                    description: #description,
                    required: #required,
                    complete: #complete,
                    fields: #fields,
                }
            }
        })
        .collect()
}

/// The call of the user's fn and the conversion of its output. A plain fn may block (a
/// database read): it runs on tokio's blocking threads, as a plain `#[tool]` fn does, converted
/// there too so that only the result crosses back.
fn run(
    is_async: bool,
    output: &TokenStream,
    convert: &TokenStream,
    span: Span,
    private: &syn::Ident,
) -> TokenStream {
    if is_async {
        return quote! {
            let __prompt_output = #output;
            #convert
        };
    }
    let run_blocking = quote_spanned!(span=> #private::run_blocking);
    quote! {
        #run_blocking(move || {
            let __prompt_output = #output;
            #convert
        })
        .await
    }
}

/// `(&&FieldsProbe::<T>::new()).call`, with the traits that tell an argument struct (its fields
/// the arguments) from a type read from one string.
fn fields_probe(private: &syn::Ident, ty: &Type, call: &TokenStream) -> TokenStream {
    quote! {
        {
            #[allow(unused_imports)]
            use #private::{NoFields as _, ReadByFields as _};
            (&&#private::FieldsProbe::<#ty>::new()).#call
        }
    }
}
