//! Code generation: the user's fn, re-emitted, then a hidden adapter and its registration, all
//! inside `const _: () = { … };` and reached through `#krate::__private`.

use darling::FromMeta as _;
use darling::ast::NestedMeta;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{ItemFn, ReturnType, Type};

use crate::ast::{Input, Param, ToolFn};
use crate::attr::ToolArgs;
use crate::{fallback, valid};

/// `#[tool(args)] item` → the expansion, or the fn and every error.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let args = NestedMeta::parse_meta_list(args)
        .map_err(darling::Error::from)
        .and_then(|list| ToolArgs::from_list(&list));
    let args = errors.handle(args);
    let item_fn = match syn::parse2::<ItemFn>(item.clone()) {
        Ok(item_fn) => Some(item_fn),
        Err(_) => {
            errors.push(
                darling::Error::custom("`#[tool]` goes on a fn: `#[tool] async fn name(args: Args) -> … { … }`")
                    .with_span(&first_token_span(&item)),
            );
            None
        }
    };
    let (Some(args), Some(item_fn)) = (args, item_fn) else {
        return fallback::with_errors(item, errors.finish().err().unwrap_or_else(|| darling::Error::custom("invalid `#[tool]`")));
    };
    let model = match valid::check(args, &item_fn) {
        Ok(model) => model,
        Err(more) => {
            errors.push(more);
            return fallback::with_errors(item, errors.finish().err().unwrap_or_else(|| darling::Error::custom("invalid `#[tool]`")));
        }
    };
    if let Err(errors) = errors.finish() {
        return fallback::with_errors(item, errors);
    }
    generate(&model)
}

fn first_token_span(item: &TokenStream) -> Span {
    item.clone().into_iter().next().map_or_else(Span::call_site, |token| token.span())
}

fn generate(tool: &ToolFn<'_>) -> TokenStream {
    let krate = &tool.krate;
    let private = quote!(#krate::__private);
    let fn_ident = &tool.item.sig.ident;
    let bare = fn_ident.to_string();
    let bare = bare.strip_prefix("r#").unwrap_or(&bare);
    let call_ident = format_ident!("__tool_{}_call", bare, span = Span::call_site());
    let args_ident = format_ident!("__tool_{}_arguments", bare, span = Span::call_site());

    let mut user_fn = tool.item.clone();
    fallback::strip_param_docs(&mut user_fn);

    let (name, description) = (&tool.name, &tool.description);
    let title = option(tool.title.as_ref().map(|title| quote!(#title)));
    let hints = &tool.hints;
    let (read_only, destructive) = (option_bool(hints.read_only), option_bool(hints.destructive));
    let (idempotent, open_world) = (option_bool(hints.idempotent), option_bool(hints.open_world));

    let (arguments_struct, arguments_type, input_schema) = match &tool.input {
        Input::None => (quote!(), None, quote!(#private::empty_input_schema)),
        Input::Struct(ty) => {
            let check = quote_spanned! {ty.span()=> #private::assert_tool_arguments::<#ty>()};
            (quote!(const _: () = #check;), Some(quote!(#ty)), quote!(#private::input_schema::<#ty>))
        }
        Input::Inline(params) => {
            let serde_path = quote!(#private::serde).to_string();
            let schemars_path = quote!(#private::schemars).to_string();
            let fields = params.iter().map(|param| {
                let (ident, ty) = (param.ident, param.ty);
                let doc = param.docs.as_ref().map(|docs| quote!(#[doc = #docs]));
                quote!(#doc #ident: #ty)
            });
            let arguments_struct = quote! {
                #[derive(#private::serde::Deserialize, #private::schemars::JsonSchema)]
                #[serde(crate = #serde_path)]
                #[schemars(crate = #schemars_path)]
                struct #args_ident { #(#fields,)* }
            };
            (arguments_struct, Some(quote!(#args_ident)), quote!(#private::input_schema::<#args_ident>))
        }
    };

    let parse = arguments_type.map(|ty| {
        let pattern = match &tool.input {
            Input::Inline(params) => {
                let idents = params.iter().map(|param| param.ident);
                quote!(#args_ident { #(#idents),* })
            }
            _ => quote!(arguments),
        };
        quote! {
            let #pattern = match #private::parse_arguments::<#ty>(#name, arguments) {
                ::core::result::Result::Ok(arguments) => arguments,
                ::core::result::Result::Err(error) => return error,
            };
        }
    });
    let call_args = tool.params.iter().map(|param| match param {
        Param::Context { by_ref: true } => quote!(&context),
        Param::Context { by_ref: false } => quote!(::core::clone::Clone::clone(&context)),
        Param::Struct => quote!(arguments),
        Param::Inline(ident) => quote!(#ident),
    });
    let call = quote!(#fn_ident(#(#call_args),*));
    let call = if tool.is_async() {
        let checked = quote_spanned! {tool.ident_span()=> #private::assert_send(#call)};
        quote!(#checked.await)
    } else {
        call
    };
    let (convert, output_schema) = result_conversion(tool.output, &private);
    let unused_context = tool.params.iter().all(|p| !matches!(p, Param::Context { .. })).then(|| quote!(let _ = &context;));
    let unused_arguments = matches!(tool.input, Input::None).then(|| quote!(let _ = &arguments;));

    quote! {
        #user_fn

        #[doc(hidden)]
        #[allow(non_camel_case_types, clippy::all, clippy::pedantic)]
        const _: () = {
            #arguments_struct

            fn #call_ident(
                arguments: #private::serde_json::Value,
                context: #private::Context,
            ) -> #private::BoxFuture<'static, #private::CallToolResult> {
                ::std::boxed::Box::pin(async move {
                    #unused_context
                    #unused_arguments
                    #parse
                    let output = #call;
                    #convert
                })
            }

            #private::inventory::submit! {
                #private::ToolRegistration {
                    name: #name,
                    title: #title,
                    description: #description,
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                    input_schema: #input_schema,
                    output_schema: #output_schema,
                    call: #call_ident,
                    file: ::core::file!(),
                    line: ::core::line!(),
                }
            }
        };
    }
}

/// The conversion of the fn's output and the output-schema fn, both spanned at the return type
/// so that a type that is not a tool result is reported there.
fn result_conversion(output: &ReturnType, private: &TokenStream) -> (TokenStream, TokenStream) {
    match output {
        ReturnType::Default => (
            quote!(#private::into_tool_result::<()>(output)),
            quote!(#private::output_schema::<()>),
        ),
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => (
            quote_spanned!(ty.span()=> #private::into_tool_result(output)),
            quote!(|| ::core::option::Option::None),
        ),
        ReturnType::Type(_, ty) => (
            quote_spanned!(ty.span()=> #private::into_tool_result::<#ty>(output)),
            quote_spanned!(ty.span()=> #private::output_schema::<#ty>),
        ),
    }
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(value: Option<bool>) -> TokenStream {
    option(value.map(|value| quote!(#value)))
}
