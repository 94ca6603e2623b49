//! The expansion of a checked `#[resource]` item: the item re-emitted, the fn that reads it,
//! and the `ResourceRegistration` submitted, in a `const _`.

use darling::util::Override;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{ItemFn, ReturnType};

use super::ast::{ResourceItem, Slot, Source, TemplateParam};
use super::attr::{AppArgs, Csp, PERMISSIONS};
use crate::complete::completion;
use crate::expand::{option, provided_arg, state_key};
use crate::{docs, fallback, valid};

/// The item and its registration.
pub(super) fn generate(resource: &ResourceItem<'_>, item: TokenStream) -> TokenStream {
    let registration = registration(resource, &read(resource));
    let item = match resource.source {
        // Its parameters are owned values read from the URI: clippy's advice to borrow them
        // cannot be followed.
        Source::Fn(item_fn) => {
            let mut item_fn = item_fn.clone();
            fallback::strip_param_attrs(&mut item_fn);
            item_fn
                .attrs
                .push(syn::parse_quote!(#[allow(clippy::needless_pass_by_value)]));
            quote!(#item_fn)
        }
        Source::Static(..) => item,
    };
    quote!(#item #registration)
}

/// The `ResourceRead` expression and the items it needs, and the template variables'
/// completers.
struct Reading {
    items: TokenStream,
    read: TokenStream,
    completers: TokenStream,
    /// The `StateKey` fns of its `State<T>` parameters, checked at start-up.
    state: TokenStream,
}

/// The `&[VariableCompleter]` of a template: `complete(var = path)`'s fns, and for the other
/// variables their parameter type's known values.
fn completers(resource: &ResourceItem<'_>) -> TokenStream {
    let private = private_alias();
    let named = resource.args.complete.as_deref().unwrap_or_default();
    let entries = resource.slots.iter().filter_map(|slot| match slot {
        Slot::Template(param) => {
            let variable = &param.variable;
            let path = named
                .iter()
                .find(|(ident, _)| valid::unraw(ident) == *variable)
                .map(|(_, path)| path);
            let complete = completion(&private, path, param.ty);
            Some(quote!(#private::VariableCompleter { variable: #variable, complete: #complete }))
        }
        Slot::Runtime(_) => None,
    });
    quote!(&[#(#entries),*])
}

/// How the resource is read: the static's value, or the fn called with the template's values
/// and what the runtime provides.
fn read(resource: &ResourceItem<'_>) -> Reading {
    let private = private_alias();
    let mut reading = match resource.source {
        Source::Static(ident, ty, _) => {
            let body = quote_spanned!(ty.span()=> #private::static_resource::<#ty>(#ident));
            Reading {
                items: quote! {
                    fn __resource_static() -> #private::ResourceBody { #body }
                },
                read: quote!(#private::ResourceRead::Static(__resource_static)),
                completers: TokenStream::new(),
                state: quote!(&[]),
            }
        }
        Source::Fn(item) => read_fn(item, &resource.variables, &resource.slots),
    };
    reading.completers = completers(resource);
    reading
}

/// The read of a resource fn: its parameters bound from the template's values and the request's
/// context, the fn called, its output turned into the resource's body.
fn read_fn(item: &ItemFn, variables: &[String], slots: &[Slot<'_>]) -> Reading {
    let private = private_alias();
    // The values arrive in the template's order; each parameter takes its own.
    let bindings = slots.iter().filter_map(|slot| match slot {
        Slot::Template(TemplateParam { variable, ident, ty }) => {
            let index = variables
                .iter()
                .position(|name| name == variable)
                .unwrap_or(0);
            Some(quote_spanned! {ty.span()=>
                let #ident: #ty = #private::template_value::<#ty>(#variable, &__resource_values[#index])?;
            })
        }
        Slot::Runtime(_) => None,
    });
    let args = slots.iter().map(|slot| match slot {
        Slot::Template(param) => {
            let ident = &param.ident;
            quote!(#ident)
        }
        Slot::Runtime(provided) => provided_arg(provided, &private, "__resource_context"),
    });
    let state = slots.iter().filter_map(|slot| match slot {
        Slot::Runtime(provided) => state_key(provided, &private),
        Slot::Template(_) => None,
    });
    let fn_ident = &item.sig.ident;
    // The fn is taken as a value first, as `#[tool]` does (its `async` is then required by the
    // caller, which keeps `clippy::unused_async` quiet about fns that do not await), and before
    // the parameters are bound, since one may share its name.
    let call = if item.sig.asyncness.is_some() {
        quote!(__resource_fn(#(#args),*).await)
    } else {
        quote!(__resource_fn(#(#args),*))
    };
    let convert = match &item.sig.output {
        ReturnType::Type(_, ty) => {
            quote_spanned!(ty.span()=> #private::resource_body::<#ty>(__resource_output))
        }
        ReturnType::Default => quote_spanned! {item.sig.ident.span()=>
            #private::resource_body::<()>(__resource_output)
        },
    };
    Reading {
        items: quote! {
            fn __resource_read(
                __resource_values: ::std::vec::Vec<::std::string::String>,
                __resource_context: #private::Context,
            ) -> #private::BoxFuture<'static, ::core::result::Result<#private::ResourceBody, #private::ResourceError>> {
                let __resource_fn = #fn_ident;
                ::std::boxed::Box::pin(async move {
                    #(#bindings)*
                    let __resource_output = #call;
                    #convert
                })
            }
        },
        read: quote!(#private::ResourceRead::Dynamic(__resource_read)),
        completers: TokenStream::new(),
        state: quote!(&[#(#state),*]),
    }
}

/// The `inventory::submit!` of the registration, with the reading items, in a `const _`.
fn registration(resource: &ResourceItem<'_>, read: &Reading) -> TokenStream {
    let (args, krate, source) = (resource.args, &resource.krate, resource.source);
    let private = private_alias();
    let uri = &args.uri;
    let ident = source.ident().to_string();
    let default_name = match source {
        Source::Static(..) => ident.to_lowercase(),
        Source::Fn(_) => ident.strip_prefix("r#").unwrap_or(&ident).to_owned(),
    };
    let name = args.name.clone().unwrap_or(default_name);
    let title = option(args.title.as_ref());
    let description = option(
        args.description
            .as_ref()
            .map(|text| quote!(#text))
            .or_else(|| docs::description(source.attrs())),
    );
    let mime_type = option(args.mime_type.as_ref());
    let app = option(args.app.as_ref().map(|app| app_view(&private, app)));
    let icons = crate::icons::registrations(&args.icons, &private);
    let tags = crate::tags::registrations(&args.tags);
    let scopes = crate::scopes::registrations(&args.scopes);
    let Reading {
        items,
        read,
        completers,
        state,
    } = read;
    quote! {
        const _: () = {
            use #krate::__private as #private;
            #items
            #private::inventory::submit! {
                #private::ResourceRegistration {
                    uri: #uri,
                    name: #name,
                    title: #title,
                    description: #description,
                    mime_type: #mime_type,
                    app: #app,
                    read: #read,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    icons: #icons,
                    completers: #completers,
                    state: #state,
                    tags: #tags,
                    scopes: #scopes,
                }
            }
        };
    }
}

/// The `AppView` of `app(…)`.
fn app_view(private: &syn::Ident, app: &Override<AppArgs>) -> TokenStream {
    let default = AppArgs::default();
    let app = match app {
        Override::Inherit => &default,
        Override::Explicit(app) => app,
    };
    let Csp {
        connect_domains,
        resource_domains,
        frame_domains,
        base_uri_domains,
    } = &app.csp;
    let permissions = app.permissions.iter().filter_map(|permission| {
        PERMISSIONS
            .iter()
            .find(|(word, _)| permission.is_ident(word))
            .map(|(_, name)| *name)
    });
    let domain = option(app.domain.as_ref());
    let prefers_border = option(app.prefers_border);
    quote! {
        #private::AppView {
            connect_domains: &[#(#connect_domains),*],
            resource_domains: &[#(#resource_domains),*],
            frame_domains: &[#(#frame_domains),*],
            base_uri_domains: &[#(#base_uri_domains),*],
            permissions: &[#(#permissions),*],
            domain: #domain,
            prefers_border: #prefers_border,
        }
    }
}

/// The name under which generated code reaches `<crate>::__private`.
fn private_alias() -> syn::Ident {
    format_ident!("__resource_private")
}
