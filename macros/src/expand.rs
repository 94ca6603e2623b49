//! Code generation: the user's fn, re-emitted, then a hidden adapter and its registration, all
//! inside `const _: () = { … };` and reached through one alias of `#krate::__private`.
//!
//! What `#[tool]` on `async fn echo(/// The message\n message: String) -> String` becomes (the
//! full expansions of representative tools are in `macros/tests/expand/`):
//!
//! ```text
//! #[allow(clippy::needless_pass_by_value)]               // the input must be owned
//! async fn echo(message: String) -> String { … }           // as written, minus param docs
//! const _: () = {
//!     use ::mcp_toolbelt::__private as __tool_private;
//!     #[derive(Deserialize, JsonSchema)]                  // inline style only
//!     struct __tool_echo_arguments { /// The message\n message: String }
//!     fn __tool_argument_type<T: ToolArguments>() -> (input schema fn, parse fn) { … }
//!     fn __tool_echo_call(arguments: Value, context: Context) -> BoxFuture<'static, CallToolResult> {
//!         let arguments = match __tool_parse("echo", arguments) { Ok(a) => a, Err(e) => return refused(e) };
//!         tool_future(echo(arguments.message), |output| into_tool_result(output))
//!     }
//!     __tool_private::inventory::submit! { ToolRegistration { name: "echo", … } }
//! };
//! ```

use darling::FromMeta as _;
use darling::ast::NestedMeta;
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Item, ItemFn, ReturnType, Type};

use crate::apps::ToolUi;
use crate::ast::{InlineParam, Input, InputSchema, Param, Provided, ToolFn};
use crate::attr::{Keys, TaskKey, ToolArgs};
use crate::{attr, fallback, icons, valid};

/// `#[tool(args)] item` → the expansion, or the fn and every error.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    // A list that does not even parse leaves nothing to check: its keys are unknown.
    let list = errors.handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from));
    let list = list.map(|list| attr::without_literals(&mut errors, list));
    let (args, keys) = match &list {
        Some((list, literal_name)) => {
            let args = errors.handle(ToolArgs::from_list(list));
            errors.handle(attr::check_annotations(list));
            let mut keys = Keys::of(list);
            keys.name |= literal_name;
            (args, Some(keys))
        }
        None => (None, None),
    };
    let Ok(item_fn) = syn::parse2::<ItemFn>(item.clone()) else {
        errors.push(not_a_fn(&item));
        return fallback::with_errors(item, errors.finish().expect_err("an error was just pushed"));
    };
    let ui = args
        .as_ref()
        .and_then(|args| ToolUi::of(args.ui.as_ref(), args.visibility.as_ref()));
    let mut deferred = Vec::new();
    let model = valid::check(&mut errors, &mut deferred, args, keys, &item_fn);
    match (model, errors.finish()) {
        (Some(model), Ok(())) if deferred.is_empty() => generate(&model, ui.as_ref()),
        (_, Err(errors)) => {
            let fallback = fallback::with_errors(item, errors);
            quote!(#fallback #(#deferred)*)
        }
        // rustc reports what the deferred checks find.
        (_, Ok(())) if !deferred.is_empty() => {
            let fallback = fallback::without_errors(item);
            quote!(#fallback #(#deferred)*)
        }
        (_, Ok(())) => fallback::with_errors(item, darling::Error::custom("invalid `#[tool]`")),
    }
}

/// The error for `#[tool]` on something that is not a fn, at its keyword (`struct`, `impl`, …).
fn not_a_fn(item: &TokenStream) -> darling::Error {
    let what = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Struct(_)) => "a struct",
        Ok(Item::Enum(_)) => "an enum",
        Ok(Item::Union(_)) => "a union",
        Ok(Item::Const(_)) => "a constant",
        Ok(Item::Static(_)) => "a static",
        Ok(Item::Impl(_)) => "an `impl` block (put it on a free fn instead)",
        Ok(Item::Trait(_)) => "a trait",
        Ok(Item::Mod(_)) => "a module",
        Ok(Item::Type(_)) => "a type alias",
        Ok(Item::Use(_)) => "a `use`",
        Ok(Item::Macro(_)) => "a macro call",
        Ok(Item::ForeignMod(_)) => "an `extern` block",
        _ if item.to_string().contains("fn") => "a fn without a body",
        _ => "this item",
    };
    darling::Error::custom(format!(
        "`#[tool]` goes on a fn, not on {what}: `#[tool] async fn name(…) -> … {{ … }}`"
    ))
    .with_span(&keyword_span(item))
}

/// The span of the item's first token after its attributes and visibility: its keyword.
fn keyword_span(item: &TokenStream) -> Span {
    let mut tokens = item.clone().into_iter().peekable();
    while let Some(token) = tokens.next() {
        match &token {
            TokenTree::Punct(punct) if punct.as_char() == '#' => {
                if let Some(TokenTree::Punct(bang)) = tokens.peek()
                    && bang.as_char() == '!'
                {
                    tokens.next();
                }
                tokens.next(); // the `[…]` of the attribute
            }
            TokenTree::Ident(ident) if ident == "pub" => {
                if let Some(TokenTree::Group(group)) = tokens.peek()
                    && group.delimiter() == Delimiter::Parenthesis
                {
                    tokens.next();
                }
            }
            _ => return token.span(),
        }
    }
    Span::call_site()
}

/// The alias of `#krate::__private` inside the generated `const _` block. Every generated path
/// goes through it, so a wrong `crate = path` is reported at the `use` rather than at each path
/// (rustc does not repeat a failed import at its uses); the inline style adds one error for each
/// of the derives' helper attributes (`serde`, `schemars`), unknown once the derives are not
/// found. Each error points at the path (`ui-tests/tests/ui/fail/bad_crate_path.stderr`).
fn private_alias() -> syn::Ident {
    format_ident!("__tool_private")
}

/// The expansion of a valid `#[tool]` fn.
fn generate(tool: &ToolFn<'_>, ui: Option<&ToolUi>) -> TokenStream {
    let krate = &tool.krate;
    let private = private_alias();
    let bare = valid::unraw(&tool.item.sig.ident);
    let call_ident = format_ident!("__tool_{}_call", bare);

    let mut user_fn = tool.item.clone();
    fallback::strip_param_attrs(&mut user_fn);
    user_fn.attrs.extend(allowed_lints(&tool.input));

    let arguments = arguments(tool, &private, &format_ident!("__tool_{}_arguments", bare));
    let Arguments {
        items: arguments_items,
        parse,
        ..
    } = &arguments;
    let (convert, output_schema) = output(tool, &private);
    let call = call(tool, &private, &convert);
    let registration = registration(
        tool,
        &private,
        &call_ident,
        &arguments.input_schema,
        &output_schema,
    );
    let ui = ui.map(|ui| ui.registration(&private, &tool.name));
    let aliased_context = aliased_context_check(tool, &private);

    // At the fn's name: inside an `impl` block, where no tool can be, rustc's complaint about
    // the unnamed `const` points at the fn rather than at the attribute.
    let const_underscore = quote_spanned!(tool.ident_span()=> const _);

    quote! {
        #user_fn

        #const_underscore: () = {
            use #krate::__private as #private;

            #arguments_items

            // Calling a `#[deprecated]` tool is the adapter's business, not a use to warn of.
            #[allow(deprecated)]
            fn #call_ident(
                __tool_arguments: #private::serde_json::Value,
                __tool_context: #private::Context,
            ) -> #private::BoxFuture<'static, #private::CallToolResult> {
                #parse
                #call
            }

            #registration
            #ui
            #aliased_context
        };
    }
}

/// A lone argument struct written as a bare name (`ctx: Ctx`) may be the `Context` under another
/// name, which `#[tool]` cannot see through: rustc then says to mark it `#[context]`, at it.
fn aliased_context_check(tool: &ToolFn<'_>, private: &syn::Ident) -> TokenStream {
    let Input::Struct { ty, .. } = &tool.input else {
        return TokenStream::new();
    };
    if !valid::is_bare_name(ty) {
        return TokenStream::new();
    }
    let check = quote_spanned! {ty.span()=>
        #private::not_an_aliased_context((&#private::TypeProbe::<#ty>::new()).kind())
    };
    quote! {
        #[allow(dead_code)]
        fn __tool_parameter_check() {
            use #private::{ProbeContext as _, ProbeOther as _};
            #check;
        }
    }
}

/// `Option<Option<T>>` is the one type where `null` means something ("absent = keep, null =
/// clear"): serde reads a `null` as `Some(None)` (not as absent, its default) and the property
/// is advertised nullable (`x-mcp-nullable`, read by the portable rewrite). A parameter whose
/// `serde` attributes say how it is read (`with`, `deserialize_with`, `default`) reads as they
/// say; others (`rename`, say) keep this meaning.
fn double_option_attrs(param: &InlineParam<'_>, private: &syn::Ident) -> TokenStream {
    if !valid::is_double_option(param.ty) {
        return TokenStream::new();
    }
    let serde = if param.attrs.iter().any(|attr| says_how_it_is_read(attr)) {
        TokenStream::new()
    } else {
        let path = format!("{private}::double_option");
        quote!(#[serde(default, deserialize_with = #path)])
    };
    quote!(#serde #[schemars(extend("x-mcp-nullable" = true))])
}

/// Whether `attr` is a `serde` attribute that says how its field is read, or one that cannot be
/// read (serde then reports it).
fn says_how_it_is_read(attr: &syn::Attribute) -> bool {
    if !attr.path().is_ident("serde") {
        return false;
    }
    let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
    attr.parse_args_with(parser).map_or(true, |metas| {
        metas.iter().any(|meta| {
            ["with", "deserialize_with", "default"]
                .iter()
                .any(|name| meta.path().is_ident(name))
        })
    })
}

/// The lints whose advice the user's fn cannot follow, because `#[tool]` decides its shape.
fn allowed_lints(input: &Input<'_>) -> Vec<syn::Attribute> {
    match input {
        Input::None => Vec::new(),
        // The tool's input must be owned (it is deserialized from JSON), so clippy's advice to
        // take `&str` for a `String` the fn only reads cannot be followed.
        Input::Struct { .. } => {
            vec![syn::parse_quote!(#[allow(clippy::needless_pass_by_value)])]
        }
        // Each property is a parameter, however many there are, and a map property is
        // deserialized with the default hasher: no generic `S: BuildHasher` can be a tool's;
        // `Option<Option<T>>` is how a parameter says "`null` clears it".
        Input::Inline(_) => vec![syn::parse_quote!(#[allow(
            clippy::needless_pass_by_value,
            clippy::too_many_arguments,
            clippy::implicit_hasher,
            clippy::option_option
        )])],
    }
}

/// How the adapter gets the tool's input.
struct Arguments {
    /// Items for the `const` block: the inline style's struct, the argument-type helper.
    items: TokenStream,
    /// The registration's `input_schema` fn.
    input_schema: TokenStream,
    /// Statements that turn `__tool_arguments` from JSON into the argument type (or return the
    /// refusal's future).
    parse: TokenStream,
}

/// The argument struct of the inline style, and the parsing and schema of any style.
fn arguments(tool: &ToolFn<'_>, private: &syn::Ident, args_ident: &syn::Ident) -> Arguments {
    let (arguments_type, inline_struct) = match &tool.input {
        Input::None => {
            return Arguments {
                items: TokenStream::new(),
                input_schema: quote!(#private::empty_input_schema),
                parse: TokenStream::new(),
            };
        }
        // Named by the user's tokens: a type that cannot be the arguments is reported at them,
        // with `ToolArguments`'s `on_unimplemented` message.
        Input::Struct { ty, .. } => (quote!(#ty), TokenStream::new()),
        Input::Inline(params) => (
            quote!(#args_ident),
            inline_struct(params, &tool.krate, private, args_ident),
        ),
    };
    let argument_type_fn = argument_type_fn(&tool.input_schema, private);
    let source = SchemaSource::of(tool);
    let (schema_fns, input_schema) = source.input_schema(private);
    let (parse_fns, read_arguments) = source.reading(private);
    let name = &tool.name;
    Arguments {
        items: quote! {
            #inline_struct

            #argument_type_fn
        },
        input_schema: quote!(|| {
            let #schema_fns = __tool_argument_type::<#arguments_type>();
            #input_schema
        }),
        parse: quote! {
            let #parse_fns = __tool_argument_type::<#arguments_type>();
            #read_arguments
            let __tool_arguments = match __tool_parse(#name, __tool_arguments) {
                ::core::result::Result::Ok(arguments) => arguments,
                ::core::result::Result::Err(refused) => return #private::refused(refused),
            };
        },
    }
}

/// The inline style's argument struct: one field per parameter, named after the fn so that
/// messages about it say whose it is.
fn inline_struct(
    params: &[InlineParam<'_>],
    krate: &syn::Path,
    private: &syn::Ident,
    args_ident: &syn::Ident,
) -> TokenStream {
    let serde_path = format!("{private}::serde");
    let schemars_path = format!("{private}::schemars");
    // A wrong `crate = path` makes these helper attributes unknown: say so at the path.
    let helper_span = krate.span();
    let serde_attr = quote_spanned!(helper_span=> #[serde(crate = #serde_path)]);
    let schemars_attr = quote_spanned!(helper_span=> #[schemars(crate = #schemars_path)]);
    // The parameter's doc comments and `serde`, `schemars` and `cfg` attributes, as
    // written: schemars reads them as it reads a struct field's.
    let fields = params.iter().map(|param| {
        let (ident, ty, attrs) = (param.ident, param.ty, &param.attrs);
        let header = param
            .header
            .as_ref()
            .map(|name| quote!(#[schemars(extend("x-mcp-header" = #name))]));
        let double_option = double_option_attrs(param, private);
        quote!(#(#attrs)* #header #double_option #ident: #ty)
    });
    quote! {
        // Named after the fn, so that messages about it say whose it is.
        // `Option<Option<T>>` is how a parameter says "`null` clears it".
        #[allow(non_camel_case_types, clippy::option_option)]
        #[derive(#private::serde::Deserialize, #private::schemars::JsonSchema)]
        #serde_attr
        #schemars_attr
        struct #args_ident { #(#fields,)* }
    }
}

/// `__tool_argument_type::<T>()`, the pair of fns that give the argument type's schema and
/// parse it. The one place that requires `ToolArguments`: the schema and the parsing both go
/// through it, so rustc reports an argument type that is not one once, not per use.
fn argument_type_fn(input_schema: &InputSchema, private: &syn::Ident) -> TokenStream {
    let derived_schema = match input_schema {
        InputSchema::Generated => quote!(#private::generated_input_schema::<T>),
        InputSchema::Portable | InputSchema::HandWritten(_) => quote!(#private::input_schema::<T>),
    };
    quote! {
        fn __tool_argument_type<T: #private::ToolArguments>() -> (
            fn() -> #private::serde_json::Value,
            fn(&str, #private::serde_json::Value) -> ::core::result::Result<T, ::std::boxed::Box<#private::CallToolResult>>,
        ) {
            (#derived_schema, #private::parse_arguments::<T>)
        }
    }
}

/// Where a tool's input schema comes from, which also decides how the adapter reads the
/// arguments.
enum SchemaSource<'a> {
    /// `input_schema = path`: it describes the arguments themselves, whatever the style.
    HandWritten(&'a syn::Path),
    /// The derived schema of a lone parameter's type (named here, with its doc comment), which
    /// may not be an object (`uuid::Uuid`): the runtime decides at start-up, from that schema,
    /// whether the type is the arguments or a property named after the parameter (described by
    /// the doc comment).
    LoneParameter(String, Option<&'a str>),
    /// The derived schema of the argument type.
    Derived,
}

impl<'a> SchemaSource<'a> {
    fn of(tool: &'a ToolFn<'_>) -> Self {
        match (&tool.input, &tool.input_schema) {
            (_, InputSchema::HandWritten(path)) => Self::HandWritten(path),
            (Input::Struct { description, .. }, _) => {
                Self::LoneParameter(lone_param_name(tool), description.as_deref())
            }
            _ => Self::Derived,
        }
    }

    /// The registration's schema: the pattern that takes `__tool_argument_type`'s pair apart,
    /// and the expression of the schema.
    fn input_schema(&self, private: &syn::Ident) -> (TokenStream, TokenStream) {
        match self {
            Self::HandWritten(path) => (
                quote!((_, _)),
                quote_spanned!(path.span()=> #private::hand_written_schema(#path)),
            ),
            Self::LoneParameter(param, description) => {
                let description = option(description.map(|text| quote!(#text)));
                (
                    quote!((__tool_input_schema, __tool_parse)),
                    quote!(#private::lone_parameter_schema(__tool_input_schema, __tool_parse, #param, #description)),
                )
            }
            Self::Derived => (
                quote!((__tool_input_schema, _)),
                quote!(__tool_input_schema()),
            ),
        }
    }

    /// The adapter's way to its arguments: the pattern that takes `__tool_argument_type`'s pair
    /// apart, and the statement that first takes a lone parameter's property out of the
    /// arguments when its schema made it one (none for the other sources).
    fn reading(&self, private: &syn::Ident) -> (TokenStream, TokenStream) {
        match self {
            Self::LoneParameter(param, _) => (
                quote!((__tool_input_schema, __tool_parse)),
                // The tool's own cell: whether its schema made the parameter a property,
                // decided at its first call (first in its block, as clippy wants items).
                quote! {
                    let __tool_arguments = {
                        static __TOOL_LONE_PROPERTY: ::std::sync::OnceLock<bool> = ::std::sync::OnceLock::new();
                        #private::lone_parameter_arguments(&__TOOL_LONE_PROPERTY, __tool_input_schema, #param, __tool_arguments)
                    };
                },
            ),
            Self::HandWritten(_) | Self::Derived => (quote!((_, __tool_parse)), TokenStream::new()),
        }
    }
}

/// The name of the lone argument parameter (`arguments` for a pattern that has none).
fn lone_param_name(tool: &ToolFn<'_>) -> String {
    tool.item
        .sig
        .inputs
        .iter()
        .zip(&tool.params)
        .find_map(|(input, arg)| match (input, &arg.param) {
            (syn::FnArg::Typed(typed), Param::Struct) => match &*typed.pat {
                syn::Pat::Ident(pat) => Some(valid::unraw(&pat.ident)),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or_else(|| "arguments".to_owned())
}

/// The call of the user's fn: awaited if it is `async`, else run on tokio's blocking threads
/// (a plain fn may block; on a worker thread it would stall every other request).
fn call(tool: &ToolFn<'_>, private: &syn::Ident, convert: &TokenStream) -> TokenStream {
    let fn_ident = &tool.item.sig.ident;
    let call_args = tool.params.iter().map(|arg| {
        let cfg = &arg.cfg;
        let value = match &arg.param {
            Param::Provided(provided) => provided_arg(provided, private, "__tool_context"),
            Param::Struct => quote!(__tool_arguments),
            Param::Inline(ident) => quote!(__tool_arguments.#ident),
        };
        quote!(#(#cfg)* #value)
    });
    // The fn is taken as a value first: for an `async` fn its `async` is then required by the
    // caller, which keeps `clippy::unused_async` quiet about tools that happen not to await.
    // The call is spanned at the fn's name, so that a future that is not `Send` (or, for a plain
    // fn, an argument that is not) is reported there ("future returned by `name` is not `Send`").
    let span = tool.ident_span();
    let tool_fn = quote_spanned!(span=> __tool_fn);
    // The adapter's future is the runtime's (`tool_future`, `blocking_future`), type-checked
    // once for every tool; here is only the call of this fn and the conversion of its output. The
    // `let`s are the adapter's own (not spanned at the user's fn): a tool returning `()` must
    // not trip `clippy::let_unit_value` in the user's crate.
    let output = quote_spanned!(span=> #tool_fn(#(#call_args),*));
    if tool.is_async() {
        // A parameter that borrows from the context (`&Context`, `&State<T>`) needs the context
        // kept for as long as the fn's future runs: an `async move` block owns it. Otherwise
        // the fn's future is the call's, mapped by the conversion.
        let borrows = tool.params.iter().any(|arg| {
            matches!(
                arg.param,
                Param::Provided(
                    Provided::Context { by_ref: true, .. } | Provided::State { by_ref: true, .. }
                )
            )
        });
        let future = if borrows {
            let output = quote_spanned!(span=> #private::assert_send(#output).await);
            quote! {
                ::std::boxed::Box::pin(async move {
                    let __tool_output = #output;
                    #convert
                })
            }
        } else {
            let tool_future = quote_spanned!(span=> #private::tool_future);
            let convert =
                conversion_fn(tool, private).unwrap_or_else(|| quote!(|__tool_output| #convert));
            quote!(#tool_future(#output, #convert))
        };
        quote! {
            let #tool_fn = #fn_ident;
            #future
        }
    } else {
        // Converted on the blocking thread too: only the `CallToolResult` crosses back, so the
        // fn's own output (a `Box<dyn Error>`, say) need not be `Send`.
        let run = quote_spanned!(span=> #private::blocking_future);
        quote! {
            let #tool_fn = #fn_ident;
            #run(move || {
                let __tool_output = #output;
                #convert
            })
        }
    }
}

/// The argument a parameter the runtime provides is given, from the adapter's `Context` (the
/// local `context`): through the runtime's `ToolContext` and `ToolState`, at the type as written,
/// so that a type of the user's called `Context` or `State` is reported there, saying what to
/// write. The one rule for `#[tool]`, `#[prompt]` and `#[resource]` fns.
pub(crate) fn provided_arg(
    provided: &Provided<'_>,
    private: &syn::Ident,
    context: &str,
) -> TokenStream {
    let (Provided::Context { ty, .. } | Provided::State { ty, .. }) = provided;
    let context = syn::Ident::new(context, ty.span());
    match provided {
        Provided::Context { by_ref: true, ty } => quote_spanned! {ty.span()=>
            #private::context_ref::<#ty>(&#context)
        },
        Provided::Context { by_ref: false, ty } => quote_spanned! {ty.span()=>
            #private::context_value::<#ty>(&#context)
        },
        Provided::State { by_ref: false, ty } => quote_spanned! {ty.span()=>
            #private::state_value::<#ty>(&#context)
        },
        Provided::State { by_ref: true, ty } => quote_spanned! {ty.span()=>
            &#private::state_value::<#ty>(&#context)
        },
    }
}

/// The `StateKey` fn of an app-state parameter, for the start-up check that the server was
/// given that state (`Server::check`); none for the `Context`.
pub(crate) fn state_key(provided: &Provided<'_>, private: &syn::Ident) -> Option<TokenStream> {
    match provided {
        Provided::State { ty, .. } => Some(quote!(#private::state_key::<#ty>)),
        Provided::Context { .. } => None,
    }
}

/// The `inventory` submission of the tool's `ToolRegistration`.
fn registration(
    tool: &ToolFn<'_>,
    private: &syn::Ident,
    call_ident: &syn::Ident,
    input_schema: &TokenStream,
    output_schema: &TokenStream,
) -> TokenStream {
    let (name, description) = (&tool.name, &tool.description);
    let title = option(tool.title.as_ref().map(|title| quote!(#title)));
    let hints = &tool.hints;
    let (read_only, destructive) = (option_bool(hints.read_only), option_bool(hints.destructive));
    let (idempotent, open_world) = (option_bool(hints.idempotent), option_bool(hints.open_world));
    // The state a tool takes, for the start-up check; a `#[cfg]`-removed parameter takes none.
    let state = tool.params.iter().filter_map(|arg| match &arg.param {
        Param::Provided(provided) => {
            let key = state_key(provided, private)?;
            let cfg = &arg.cfg;
            Some(quote!(#(#cfg)* #key))
        }
        _ => None,
    });
    // At each type: one that is no form type is reported there.
    let asks = tool
        .asks
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> #private::form_check::<#ty>));
    // Whether the fn can ask the client (only through its `Context`); a `#[cfg]`-removed
    // `Context` counts too, which costs only a round the call does not use.
    let context = tool
        .params
        .iter()
        .any(|arg| matches!(arg.param, Param::Provided(Provided::Context { .. })));
    let icons = icons::registrations(&tool.icons, private);
    let tags = crate::tags::registrations(&tool.tags);
    let scopes = crate::scopes::registrations(&tool.scopes);
    let rate_limit = crate::rate_limit::registration(tool.rate_limit.as_ref());
    // A plain fn runs on a blocking thread and cannot be stopped midway (its task waits for it).
    let blocking = !tool.is_async();
    let task = match tool.task {
        None => quote!(#private::TaskSupport::Forbidden),
        Some(TaskKey::Optional) => quote!(#private::TaskSupport::Optional),
        Some(TaskKey::Required) => quote!(#private::TaskSupport::Required),
    };
    quote! {
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
                state: &[#(#state),*],
                asks: &[#(#asks),*],
                context: #context,
                call: #call_ident,
                file: ::core::file!(),
                line: ::core::line!(),
                icons: #icons,
                task: #task,
                blocking: #blocking,
                tags: #tags,
                scopes: #scopes,
                rate_limit: #rate_limit,
            }
        }
    }
}

/// The conversion of the fn's output into its result, and the registration's output-schema fn:
/// hand-written (`output_schema = path`), derived from the return type, or none for a tool whose
/// result is its text alone (`output_schema = false`).
fn output(tool: &ToolFn<'_>, private: &syn::Ident) -> (TokenStream, TokenStream) {
    let (convert, derived_schema) = result_conversion(tool, private);
    if let (Some(path), ReturnType::Type(_, ty)) = (&tool.output_schema, tool.output) {
        // At the path: a fn of the wrong type, or a return type without structured content,
        // is reported there.
        let hand_written =
            quote_spanned!(path.span()=> || #private::hand_written_output::<#ty, _>(#path));
        (convert, hand_written)
    } else if tool.structured {
        (convert, derived_schema)
    } else {
        (
            quote!(#private::text_only(#convert)),
            quote!(|| ::core::option::Option::None),
        )
    }
}

/// The conversion of the fn's output and the output-schema fn, both spanned at the return type
/// so that a type that is not a tool result is reported there. Both go through the trait itself,
/// so rustc reports the one unmet bound once.
fn result_conversion(tool: &ToolFn<'_>, private: &syn::Ident) -> (TokenStream, TokenStream) {
    match tool.output {
        ReturnType::Default => (
            quote!(<() as #private::IntoToolResult>::into_tool_result(__tool_output)),
            quote!(<() as #private::IntoToolResult>::output_schema),
        ),
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => (
            quote_spanned!(ty.span()=> #private::IntoToolResult::into_tool_result(__tool_output)),
            opaque_output_schema(tool, private),
        ),
        ReturnType::Type(_, ty) => (
            quote_spanned!(ty.span()=> <#ty as #private::IntoToolResult>::into_tool_result(__tool_output)),
            quote_spanned!(ty.span()=> <#ty as #private::IntoToolResult>::output_schema),
        ),
    }
}

/// The conversion as a fn, when it is the return type's own `into_tool_result` (not for
/// `output_schema = false`, nor for an `impl IntoToolResult` rustc cannot name): one fn for every
/// tool returning that type, where a closure would be one more fn per tool. At the return type,
/// as [`result_conversion`]'s.
fn conversion_fn(tool: &ToolFn<'_>, private: &syn::Ident) -> Option<TokenStream> {
    let text_only = !tool.structured && tool.output_schema.is_none();
    match tool.output {
        _ if text_only => None,
        ReturnType::Default => Some(quote!(<() as #private::IntoToolResult>::into_tool_result)),
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => None,
        ReturnType::Type(_, ty) => {
            Some(quote_spanned!(ty.span()=> <#ty as #private::IntoToolResult>::into_tool_result))
        }
    }
}

/// The output schema of a fn returning `impl IntoToolResult`: rustc cannot name the type, but a
/// call of the fn (never run, its arguments `never()`) has it, and a generic fn over that call
/// reaches the concrete type's schema.
fn opaque_output_schema(tool: &ToolFn<'_>, private: &syn::Ident) -> TokenStream {
    let fn_ident = &tool.item.sig.ident;
    let args = tool.params.iter().map(|arg| {
        let cfg = &arg.cfg;
        quote!(#(#cfg)* #private::never())
    });
    let of = if tool.is_async() {
        quote!(#private::output_schema_of_async)
    } else {
        quote!(#private::output_schema_of)
    };
    quote! {
        || {
            #[allow(deprecated)]
            let __tool_fn = #fn_ident;
            #of(move || __tool_fn(#(#args),*))
        }
    }
}

/// `Some(value)` or `None`, as an absolute-path expression; shared by the three attributes.
pub(crate) fn option<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    value.map_or_else(
        || quote!(::core::option::Option::None),
        |value| quote!(::core::option::Option::Some(#value)),
    )
}

/// An `Option<bool>` as an expression.
fn option_bool(value: Option<bool>) -> TokenStream {
    option(value.map(|value| quote!(#value)))
}
