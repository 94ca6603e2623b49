//! `#[resource]`: a `static`/`const` of text or bytes (`include_str!`, `include_bytes!`), or an
//! fn that reads the resource, whose parameters are the variables of its URI template (RFC 6570
//! level 1), and the `Context` and `State<T>` it may take as a tool does (the same rules,
//! `valid::runtime_param`). Generates, next to the item, an `inventory::submit!` of a
//! `ResourceRegistration`.
//!
//! ```text
//! #[resource(uri = "ui://albums/view.html", app(prefers_border))]
//! static ALBUMS_VIEW: &str = include_str!("albums.html");
//! const _: () = {
//!     use ::mcp_toolbelt::__private as __resource_private;
//!     fn __resource_static() -> ResourceBody { static_resource(ALBUMS_VIEW) }
//!     __resource_private::inventory::submit! { ResourceRegistration { uri: "ui://…", … } }
//! };
//! ```

use darling::ast::NestedMeta;
use darling::util::{Override, PathList};
use darling::{Error, FromMeta};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{FnArg, Item, ItemFn, LitStr, Pat, ReturnType, Type};

use crate::ast::Param;
use crate::{docs, fallback, valid};

/// `#[resource(uri = "…", name = "…", title = "…", description = "…", mime_type = "…",
/// app(…), crate = path, icons(…)…)]`
#[derive(Debug, FromMeta)]
struct ResourceArgs {
    uri: LitStr,
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    app: Option<Override<AppArgs>>,
    /// `complete(var = path)`: the completer fn of each template variable named.
    #[darling(default, with = crate::prompt::completers)]
    complete: Option<Vec<(syn::Ident, syn::Path)>>,
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
    /// `icons(src = "…", …)`, once per icon.
    #[darling(multiple, with = crate::icons::icon)]
    icons: Vec<crate::icons::Icon>,
}

/// `app(csp(connect_domains = […], …), permissions(camera, …), domain = "…", prefers_border)`
#[derive(Debug, Default, FromMeta)]
struct AppArgs {
    #[darling(default)]
    csp: Csp,
    #[darling(default)]
    permissions: PathList,
    domain: Option<String>,
    prefers_border: Option<bool>,
}

/// The view's content security policy: origins it may reach.
#[derive(Debug, Default, FromMeta)]
#[allow(
    clippy::struct_field_names,
    reason = "the keys are the extension's `connectDomains`, …"
)]
struct Csp {
    #[darling(default)]
    connect_domains: Vec<LitStr>,
    #[darling(default)]
    resource_domains: Vec<LitStr>,
    #[darling(default)]
    frame_domains: Vec<LitStr>,
    #[darling(default)]
    base_uri_domains: Vec<LitStr>,
}

/// The permissions a view may ask for, as written and as the extension names them.
const PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// `#[resource(args)] item` → the item and its registration, or the item and every error.
pub(crate) fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Error::accumulator();
    let args = errors
        .handle(NestedMeta::parse_meta_list(args).map_err(Error::from))
        .and_then(|list| errors.handle(ResourceArgs::from_list(&list)));
    let parsed = syn::parse2::<Item>(item.clone());
    let source = match parsed {
        Ok(Item::Static(item)) => Some(Source::Static(item.ident, *item.ty, item.attrs)),
        Ok(Item::Const(item)) => Some(Source::Static(item.ident, *item.ty, item.attrs)),
        Ok(Item::Fn(item)) => Some(Source::Fn(item)),
        _ => {
            errors.push(
                Error::custom(
                    "`#[resource]` goes on a `static`/`const` of text or bytes, or on an fn that reads the resource",
                )
                .with_span(&item_span(&item)),
            );
            None
        }
    };
    let (Some(args), Some(source)) = (args, source) else {
        return with_errors(item, errors);
    };
    let variables = check_uri(&mut errors, &args);
    let krate = args
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcp_toolbelt));
    let slots = match &source {
        Source::Fn(item) => fn_params(&mut errors, item, variables.as_deref(), &krate),
        Source::Static(..) => Vec::new(),
    };
    let mut read = read(&mut errors, &source, variables.as_deref(), &slots);
    let (completer_items, completer_list) =
        completers(&mut errors, &args, variables.as_deref(), &slots);
    read.items.extend(completer_items);
    read.completers = completer_list;
    if let Some(app) = &args.app {
        check_app(&mut errors, app);
        if let Some(mime_type) = &args.mime_type {
            errors.push(
                Error::custom(format!(
                    "an app view's MIME type is always `text/html;profile=mcp-app`: remove `mime_type = {mime_type:?}`"
                ))
                .with_span(&args.uri),
            );
        }
    }
    match errors.finish() {
        Ok(()) => {
            let registration = registration(&args, &krate, &source, &read);
            let item = match source {
                // Its parameters are owned values read from the URI: clippy's advice to borrow
                // them cannot be followed.
                Source::Fn(mut item_fn) => {
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
        Err(errors) => fallback::with_errors(item, errors),
    }
}

fn with_errors(item: TokenStream, errors: darling::error::Accumulator) -> TokenStream {
    match errors.finish() {
        Err(errors) => fallback::with_errors(item, errors),
        Ok(()) => item,
    }
}

fn item_span(item: &TokenStream) -> Span {
    item.clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// What the attribute is on.
enum Source {
    /// A `static` or `const`, its type and attributes.
    Static(syn::Ident, Type, Vec<syn::Attribute>),
    /// A reading fn.
    Fn(ItemFn),
}

impl Source {
    fn ident(&self) -> &syn::Ident {
        match self {
            Self::Static(ident, ..) => ident,
            Self::Fn(item) => &item.sig.ident,
        }
    }
}

/// Checks the URI (a scheme, no spaces) or level-1 template; returns its variables, or `None`
/// when it is malformed (then the parameters are not checked against it: one error, not a
/// cascade).
fn check_uri(errors: &mut darling::error::Accumulator, args: &ResourceArgs) -> Option<Vec<String>> {
    let uri = args.uri.value();
    let span = args.uri.span();
    let scheme = uri.split_once(':').map(|(scheme, _)| scheme);
    let valid_scheme = scheme.is_some_and(|scheme| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if !valid_scheme || uri.ends_with(':') || uri.contains(char::is_whitespace) {
        errors.push(
            Error::custom(format!(
                "`{uri}` is not a URI: write a scheme and a path without spaces, e.g. `ui://albums/view.html` or `file:///docs/{{name}}`"
            ))
            .with_span(&span),
        );
        return None;
    }
    match template_variables(&uri) {
        Ok(variables) => {
            if args.app.is_some() && (!uri.starts_with("ui://") || !variables.is_empty()) {
                errors.push(
                    Error::custom(format!(
                        "an app view's URI is a plain `ui://` URI, not `{uri}`"
                    ))
                    .with_span(&span),
                );
            }
            Some(variables)
        }
        Err(message) => {
            errors.push(Error::custom(message).with_span(&span));
            None
        }
    }
}

/// The variables of an RFC 6570 level-1 template, in order; the same rules as the runtime's
/// `UriTemplate::parse`, with the same words.
fn template_variables(template: &str) -> Result<Vec<String>, String> {
    let mut variables: Vec<String> = Vec::new();
    let mut rest = template;
    let mut after_variable = false;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err(format!("`}}` without `{{` in URI template `{template}`"));
        }
        if open > 0 {
            after_variable = false;
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("`{{` without `}}` in URI template `{template}`"))?;
        let name = &after[..close];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!(
                "`{{{name}}}` in URI template `{template}` is not a variable: write `{{name}}` with letters, digits and `_` (RFC 6570 level 1; operators such as `+` or `/` are not supported)"
            ));
        }
        if after_variable {
            return Err(format!(
                "two variables in a row in URI template `{template}`: put a literal between them"
            ));
        }
        if variables.iter().any(|variable| variable == name) {
            return Err(format!(
                "variable `{name}` appears twice in URI template `{template}`"
            ));
        }
        variables.push(name.to_owned());
        after_variable = true;
        rest = &after[close + 1..];
    }
    Ok(variables)
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

/// The `&[VariableCompleter]` of a template: `complete(var = path)`'s fns (each key checked to
/// be a variable), and for the other variables their parameter type's known values.
fn completers(
    errors: &mut darling::error::Accumulator,
    args: &ResourceArgs,
    variables: Option<&[String]>,
    slots: &[Slot<'_>],
) -> (TokenStream, TokenStream) {
    let private = private_alias();
    let named = args.complete.as_deref().unwrap_or_default();
    let variables = variables.unwrap_or_default();
    for (ident, _) in named {
        let name = valid::unraw(ident);
        if !variables.contains(&name) {
            let known = if variables.is_empty() {
                "this URI has none".to_owned()
            } else {
                format!("its variables: {}", variables.join(", "))
            };
            errors.push(
                Error::custom(format!(
                    "`{name}` is not a variable of the URI template ({known})"
                ))
                .with_span(ident),
            );
        }
    }
    let mut items = Vec::new();
    let entries: Vec<TokenStream> = slots
        .iter()
        .filter_map(|slot| match slot {
            Slot::Template(param) => Some((param.variable.clone(), param.ty)),
            Slot::Runtime(_) => None,
        })
        .map(|(variable, ty)| {
            let complete = match named
                .iter()
                .find(|(ident, _)| valid::unraw(ident) == variable)
            {
                Some((_, path)) => {
                    let ident = format_ident!("__resource_complete_{}", variable);
                    items.push(crate::prompt::completer_fn(&private, &ident, path));
                    quote!(|| ::core::option::Option::Some(#private::Completer::Fn(#ident)))
                }
                None => crate::prompt::known_values(&private, ty),
            };
            quote!(#private::VariableCompleter { variable: #variable, complete: #complete })
        })
        .collect();
    (quote!(#(#items)*), quote!(&[#(#entries),*]))
}

/// How the resource is read: the static's value, or the fn called with the template's values
/// and what the runtime provides.
fn read(
    errors: &mut darling::error::Accumulator,
    source: &Source,
    variables: Option<&[String]>,
    slots: &[Slot<'_>],
) -> Reading {
    let private = private_alias();
    match source {
        Source::Static(ident, ty, _) => {
            if let Some(variable) = variables.and_then(<[String]>::first) {
                errors.push(
                    Error::custom(format!(
                        "a URI template needs an fn that reads it, taking `{variable}` as a parameter; a `static` has fixed contents"
                    ))
                    .with_span(ident),
                );
            }
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
        Source::Fn(item) => read_fn(item, variables, slots),
    }
}

/// A parameter of a resource fn that is a variable of its URI template: its value, named after
/// it.
struct TemplateParam<'a> {
    /// The variable, the parameter's name without its `r#`.
    variable: String,
    ident: &'a syn::Ident,
    ty: &'a Type,
}

/// What one parameter of a resource fn receives, in order.
enum Slot<'a> {
    /// The `Context` or app state, as a tool's.
    Runtime(Param<'a>),
    /// A variable of the URI template.
    Template(TemplateParam<'a>),
}

/// A resource fn's parameters: what the runtime provides (checked as a tool's), and the
/// variables, checked against the URI template's `variables` (`None` when the template did not
/// parse: then only the parameters' own shape is checked).
fn fn_params<'a>(
    errors: &mut darling::error::Accumulator,
    item: &'a ItemFn,
    variables: Option<&[String]>,
    krate: &syn::Path,
) -> Vec<Slot<'a>> {
    let mut slots = Vec::new();
    for input in &item.sig.inputs {
        let FnArg::Typed(typed) = input else {
            errors.push(Error::custom("a resource fn is a free fn, not a method").with_span(input));
            continue;
        };
        match valid::runtime_param(errors, typed, krate) {
            valid::RuntimeParam::Given => {}
            valid::RuntimeParam::Provided(param) => {
                slots.push(Slot::Runtime(param));
                continue;
            }
            valid::RuntimeParam::Refused => continue,
        }
        let Pat::Ident(pat) = &*typed.pat else {
            errors.push(
                Error::custom("name this parameter after a variable of the URI template")
                    .with_span(&typed.pat),
            );
            continue;
        };
        let name = valid::unraw(&pat.ident);
        if let Some(variables) = variables
            && !variables.contains(&name)
        {
            errors.push(
                Error::custom(format!(
                    "`{name}` is not a variable of the URI template: every parameter of a resource fn but its `Context` and `State<T>` is one (write `{{{name}}}` in `uri`)"
                ))
                .with_span(&pat.ident),
            );
        }
        slots.push(Slot::Template(TemplateParam {
            variable: name,
            ident: &pat.ident,
            ty: &typed.ty,
        }));
    }
    for variable in variables.unwrap_or_default() {
        let taken = slots
            .iter()
            .any(|slot| matches!(slot, Slot::Template(param) if &param.variable == variable));
        if !taken {
            errors.push(
                Error::custom(format!(
                    "the URI template's variable `{variable}` is not a parameter of `{}`: add `{variable}: String`",
                    item.sig.ident
                ))
                .with_span(&item.sig.ident),
            );
        }
    }
    if !item.sig.generics.params.is_empty() {
        errors.push(Error::custom("a resource fn cannot be generic").with_span(&item.sig.generics));
    }
    slots
}

/// The read of a resource fn: its parameters bound from the template's values and the request's
/// context, the fn called, its output turned into the resource's body.
fn read_fn(item: &ItemFn, variables: Option<&[String]>, slots: &[Slot<'_>]) -> Reading {
    let private = private_alias();
    let variables = variables.unwrap_or_default();
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
        Slot::Runtime(Param::Context { by_ref: true, ty }) => {
            quote_spanned!(ty.span()=> #private::context_ref::<#ty>(&__resource_context))
        }
        Slot::Runtime(Param::Context { by_ref: false, ty }) => {
            quote_spanned!(ty.span()=> #private::context_value::<#ty>(&__resource_context))
        }
        Slot::Runtime(Param::State { by_ref: false, ty }) => {
            quote_spanned!(ty.span()=> #private::state_value::<#ty>(&__resource_context))
        }
        Slot::Runtime(Param::State { by_ref: true, ty }) => {
            quote_spanned!(ty.span()=> &#private::state_value::<#ty>(&__resource_context))
        }
        Slot::Runtime(Param::Struct | Param::Inline(_)) => quote!(),
    });
    let state = slots.iter().filter_map(|slot| match slot {
        Slot::Runtime(Param::State { ty, .. }) => Some(quote!(#private::state_key::<#ty>)),
        _ => None,
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

/// Every permission is one the extension knows.
fn check_app(errors: &mut darling::error::Accumulator, app: &Override<AppArgs>) {
    let Override::Explicit(app) = app else {
        return;
    };
    for permission in app.permissions.iter() {
        let known = PERMISSIONS
            .iter()
            .any(|(word, _)| permission.is_ident(word));
        if !known {
            errors.push(
                Error::custom(
                    "unknown permission: write `camera`, `microphone`, `geolocation` or `clipboard_write`",
                )
                .with_span(permission),
            );
        }
    }
}

fn private_alias() -> syn::Ident {
    format_ident!("__resource_private")
}

/// `Some(value)` or `None`.
fn option<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    value.map_or_else(
        || quote!(::core::option::Option::None),
        |value| quote!(::core::option::Option::Some(#value)),
    )
}

/// The `inventory::submit!` of the registration, with the reading items, in a `const _`.
fn registration(
    args: &ResourceArgs,
    krate: &syn::Path,
    source: &Source,
    read: &Reading,
) -> TokenStream {
    let private = private_alias();
    let uri = &args.uri;
    let ident = source.ident().to_string();
    let default_name = match source {
        Source::Static(..) => ident.to_lowercase(),
        Source::Fn(_) => ident.strip_prefix("r#").unwrap_or(&ident).to_owned(),
    };
    let name = args.name.clone().unwrap_or(default_name);
    let title = option(args.title.as_ref());
    let attrs = match source {
        Source::Fn(item) => &item.attrs,
        Source::Static(_, _, attrs) => attrs,
    };
    let description = option(
        args.description
            .as_ref()
            .map(|text| quote!(#text))
            .or_else(|| docs::description(attrs)),
    );
    let mime_type = option(args.mime_type.as_ref());
    let app = option(args.app.as_ref().map(|app| app_view(&private, app)));
    let icons = crate::icons::registrations(&args.icons, &private);
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

#[cfg(test)]
mod tests {
    //! Expansion snapshots (`tests/expand/resource_*.rs`, refreshed like `#[tool]`'s with
    //! `UPDATE_EXPAND=1`), and the template rules.

    use std::path::PathBuf;

    use proc_macro2::TokenStream;
    use quote::quote;

    use super::template_variables;

    /// Compares `output` (formatted) with `tests/expand/<case>.rs`.
    fn snapshot(case: &str, output: TokenStream) {
        let file: syn::File = syn::parse2(output.clone())
            .unwrap_or_else(|error| panic!("{case} does not parse ({error}):\n{output}"));
        let pretty = prettyplease::unparse(&file);
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/expand")
            .join(format!("{case}.rs"));
        if std::env::var_os("UPDATE_EXPAND").is_some() {
            std::fs::write(&path, &pretty).expect("write the snapshot");
            return;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("no snapshot {}: run with UPDATE_EXPAND=1", path.display()));
        assert!(
            expected == pretty,
            "the expansion of {case} changed; if intended, run with UPDATE_EXPAND=1\n--- expected\n{expected}\n--- actual\n{pretty}"
        );
    }

    #[test]
    fn expand_static_view() {
        snapshot(
            "resource_view",
            super::resource(
                quote!(
                    uri = "ui://albums/view.html",
                    app(
                        csp(connect_domains = ["https://api.example.com"]),
                        permissions(clipboard_write),
                        prefers_border
                    )
                ),
                quote! {
                    /// The albums view
                    static ALBUMS_VIEW: &str = include_str!("albums.html");
                },
            ),
        );
    }

    #[test]
    fn expand_template_fn() {
        snapshot(
            "resource_template",
            super::resource(
                quote!(
                    uri = "docs://manual/{chapter}/{section}",
                    mime_type = "text/markdown",
                    icons(
                        data = include_bytes!("manual.svg"),
                        mime_type = "image/svg+xml",
                        sizes = ["any"]
                    )
                ),
                quote! {
                    /// One section of the manual
                    async fn section(
                        section: String,
                        manual: State<Manual>,
                        chapter: u32,
                        context: &Context,
                    ) -> String {
                        format!("{chapter}.{section}")
                    }
                },
            ),
        );
    }

    #[test]
    fn expand_tool_with_view() {
        snapshot(
            "tool_with_view",
            crate::expand::tool(
                quote!(
                    name = "show-albums",
                    ui = "ui://albums/view.html",
                    visibility(model, app)
                ),
                quote! {
                    /// Show albums
                    async fn show_albums() -> String { String::new() }
                },
            ),
        );
    }

    #[test]
    fn an_app_view_takes_no_mime_type() {
        let output = super::resource(
            quote!(uri = "ui://v.html", mime_type = "text/html", app),
            quote!(
                static V: &str = "";
            ),
        )
        .to_string();
        assert!(
            output.contains("always `text/html;profile=mcp-app`"),
            "{output}"
        );
    }

    #[test]
    fn level_one_templates() {
        assert_eq!(
            template_variables("a://{x}/b/{y}"),
            Ok(vec!["x".into(), "y".into()])
        );
        assert_eq!(template_variables("a://plain"), Ok(vec![]));
        for bad in [
            "a://{x",
            "a://x}",
            "a://{}",
            "a://{x}{y}",
            "a://{x}/{x}",
            "a://{/x}",
        ] {
            assert!(template_variables(bad).is_err(), "{bad}");
        }
    }
}
