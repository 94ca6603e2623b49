//! `#[prompt]`: an fn whose parameters are the prompt's arguments (strings on the wire, each
//! read into its parameter's type) and whose result is the prompt's messages. Generates, next
//! to the fn, an adapter and an `inventory::submit!` of a `PromptRegistration`. Shares with
//! `#[tool]` the doc comments (`docs.rs`), the rules of `Context` and `State<T>` parameters
//! (`valid.rs`), the string keys (`attr.rs`) and the fallback that re-emits the fn.
//!
//! ```text
//! /// Greet someone
//! #[prompt]
//! async fn greet(/// Who\n name: String) -> String { … }
//! const _: () = {
//!     use ::mcp_toolbelt::__private as __prompt_private;
//!     fn __prompt_greet_get(arguments, context) -> BoxFuture<Result<GetPromptResult, PromptError>> {
//!         Box::pin(async move { let __prompt_arg_0: String = …?; prompt_result(greet(__prompt_arg_0).await) })
//!     }
//!     __prompt_private::inventory::submit! { PromptRegistration { name: "greet", … } }
//! };
//! ```

use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use darling::{Error, FromMeta};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{FnArg, ItemFn, Meta, Pat, Path, ReturnType, Type};

use crate::ast::Param;
use crate::{attr, docs, fallback, valid};

/// `#[prompt(name = "…", title = "…", description = "…", complete(param = path, …), crate = path)]`
#[derive(Debug, Default, FromMeta)]
struct PromptArgs {
    #[darling(default, with = prompt_name)]
    name: Option<SpannedValue<String>>,
    #[darling(default, with = attr::text)]
    title: Option<String>,
    #[darling(default, with = description_text)]
    description: Option<String>,
    /// `complete(city = cities)`: the completer fn of each argument named.
    #[darling(default, with = completers)]
    complete: Option<Vec<(syn::Ident, Path)>>,
    #[darling(rename = "crate")]
    krate: Option<Path>,
    /// `icons(src = "…", …)`, once per icon.
    #[darling(multiple, with = crate::icons::icon)]
    icons: Vec<crate::icons::Icon>,
}

/// `name = "…"`: the MCP rule `^[A-Za-z0-9_.-]{1,64}$`, as a tool's, at the literal.
fn prompt_name(meta: &Meta) -> darling::Result<Option<SpannedValue<String>>> {
    let name = attr::string_literal(meta)?;
    if !attr::is_valid_name(&name) {
        return Err(Error::custom(format!(
            "invalid prompt name {:?}: use 1 to 64 characters from `A-Z a-z 0-9 _ . -`",
            name.as_str()
        ))
        .with_span(&name.span()));
    }
    Ok(Some(name))
}

/// `description = "…"`, not empty.
fn description_text(meta: &Meta) -> darling::Result<Option<String>> {
    let text = attr::string_literal(meta)?;
    if text.trim().is_empty() {
        return Err(
            Error::custom("`description` cannot be empty: say what the prompt is for")
                .with_span(&text.span()),
        );
    }
    Ok(Some(text.into_inner()))
}

/// `complete(param = path, …)`: one or more `name = path` pairs.
pub(crate) fn completers(meta: &Meta) -> darling::Result<Option<Vec<(syn::Ident, Path)>>> {
    let usage = "`complete` names each argument's completer fn: `complete(city = cities)`";
    let Meta::List(list) = meta else {
        return Err(Error::custom(usage).with_span(meta));
    };
    let pairs = list
        .parse_args_with(
            syn::punctuated::Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated,
        )
        .map_err(|error| Error::custom(usage).with_span(&error.span()))?;
    let mut out = Vec::new();
    let mut errors = Error::accumulator();
    for pair in pairs {
        let (Some(ident), syn::Expr::Path(path)) = (pair.path.get_ident(), &pair.value) else {
            errors.push(Error::custom(usage).with_span(&pair));
            continue;
        };
        out.push((ident.clone(), path.path.clone()));
    }
    if out.is_empty() {
        errors.push(Error::custom(usage).with_span(meta));
    }
    errors.finish_with(Some(out))
}

/// One argument of the prompt: a parameter the client gives.
struct Argument<'a> {
    /// The argument's name on the wire (`#[serde(rename)]`'s, or the parameter's without `r#`).
    name: String,
    /// The parameter's name, without `r#`: `complete(param = path)` may name it or the argument.
    param: String,
    /// The type its value is read as (the `T` of an `Option<T>`).
    value_ty: &'a Type,
    /// The parameter's type as written.
    ty: &'a Type,
    docs: Option<TokenStream>,
    how: Presence,
    /// `#[complete(path)]` or `complete(name = path)`.
    completer: Option<Path>,
    /// The lone argument, of a type of the user's, required, its own name, without a completer:
    /// when its type's schema is an object (an argument struct), its fields are the prompt's
    /// arguments in its place (decided by the runtime, which sees the schema).
    fields: bool,
}

/// What an absent argument means.
#[derive(Clone, Copy, PartialEq)]
enum Presence {
    Required,
    /// `Option<T>`: `None`.
    Optional,
    /// `#[serde(default)]`: `T::default()`.
    Defaulted,
}

/// What each parameter of the fn receives, in order.
enum Slot<'a> {
    Runtime(Param<'a>),
    /// The index of the argument.
    Argument(usize),
}

/// `#[prompt(args)] item` → the expansion, or the fn and every error.
pub(crate) fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Error::accumulator();
    let list = errors.handle(NestedMeta::parse_meta_list(args).map_err(Error::from));
    let args = list
        .as_ref()
        .and_then(|list| errors.handle(PromptArgs::from_list(list)));
    let Ok(item_fn) = syn::parse2::<ItemFn>(item.clone()) else {
        errors.push(
            Error::custom("`#[prompt]` goes on a fn: `#[prompt] async fn name(…) -> String { … }`")
                .with_span(
                    &item
                        .clone()
                        .into_iter()
                        .next()
                        .map_or_else(Span::call_site, |token| token.span()),
                ),
        );
        return fallback::with_errors(item, errors.finish().expect_err("an error was just pushed"));
    };
    // The description's absence is checked even when the keys had errors: one compile shows
    // every mistake.
    let named_description = list.as_ref().is_none_or(|list| {
        list.iter().any(|nested| matches!(nested, NestedMeta::Meta(meta) if meta.path().is_ident("description")))
    });
    let docs = docs::description(&item_fn.attrs);
    if docs.is_none() && !named_description {
        errors.push(
            Error::custom(
                "`#[prompt]` needs a description: add a `///` doc comment to the fn or write `#[prompt(description = \"…\")]`",
            )
            .with_span(&item_fn.sig.ident),
        );
    }
    let args = args.unwrap_or_default();
    let krate = args
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcp_toolbelt));
    valid::check_signature(&mut errors, &item_fn, &PROMPT_RULES);
    let (mut arguments, slots) = parameters(&mut errors, &item_fn, &krate);
    attach_completers(
        &mut errors,
        &mut arguments,
        args.complete.as_deref().unwrap_or_default(),
    );
    if let [only] = arguments.as_mut_slice() {
        only.fields = only.how == Presence::Required
            && only.completer.is_none()
            && only.name == only.param
            && !valid::is_std_type(only.value_ty);
    }
    let name = if let Some(name) = &args.name {
        name.as_str().to_owned()
    } else {
        let name = valid::unraw(&item_fn.sig.ident);
        if !attr::is_valid_name(&name) {
            errors.push(
                Error::custom(format!(
                    "`{name}` is not a valid prompt name (1 to 64 characters from `A-Z a-z 0-9 _ . -`): set one with `#[prompt(name = \"…\")]`"
                ))
                .with_span(&item_fn.sig.ident),
            );
        }
        name
    };
    if let Err(errors) = errors.finish() {
        return fallback::with_errors(item, errors);
    }
    let description = args
        .description
        .as_ref()
        .map(|text| quote!(#text))
        .or(docs)
        .unwrap_or_default();
    let model = PromptFn {
        item: &item_fn,
        name,
        title: args.title.clone(),
        description,
        icons: crate::icons::registrations(&args.icons, &format_ident!("{PRIVATE}")),
        krate,
        arguments,
        slots,
    };
    generate(&model)
}

/// `#[prompt]`'s words for the signature rules it shares with `#[tool]`.
const PROMPT_RULES: valid::SignatureRules = valid::SignatureRules {
    attribute: "prompt",
    why_concrete: "its arguments are read from strings into concrete types",
    return_examples: "`Result<String, E>`, `Result<GetPromptResult, E>`",
    result_trait: "IntoPromptResult",
};

/// The fn's parameters: what the runtime provides (checked as a tool's), and the arguments.
fn parameters<'a>(
    errors: &mut darling::error::Accumulator,
    item: &'a ItemFn,
    krate: &Path,
) -> (Vec<Argument<'a>>, Vec<Slot<'a>>) {
    let mut arguments = Vec::new();
    let mut slots = Vec::new();
    for input in &item.sig.inputs {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(
                    Error::custom("`#[prompt]` cannot be used on a method: a prompt is a free fn")
                        .with_span(receiver),
                );
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        match valid::runtime_param(errors, typed, krate) {
            valid::RuntimeParam::Given => {}
            valid::RuntimeParam::Provided(param) => {
                slots.push(Slot::Runtime(param));
                continue;
            }
            valid::RuntimeParam::Refused => continue,
        }
        if let Some(argument) = argument(errors, typed) {
            slots.push(Slot::Argument(arguments.len()));
            arguments.push(argument);
        }
    }
    (arguments, slots)
}

/// One parameter the client gives: a plain name, an owned type that one string can be.
fn argument<'a>(
    errors: &mut darling::error::Accumulator,
    typed: &'a syn::PatType,
) -> Option<Argument<'a>> {
    if let Some(cfg) = typed.attrs.iter().find(|attr| attr.path().is_ident("cfg")) {
        errors.push(
            Error::custom("a prompt argument cannot be `#[cfg]`-ed: the prompt's arguments are its interface; put the `#[cfg]` on the whole fn")
                .with_span(cfg),
        );
        return None;
    }
    let Pat::Ident(pat) = &*typed.pat else {
        errors.push(
            Error::custom("a prompt parameter must be a plain name (`name: Type`): its name is the argument's name")
                .with_span(&typed.pat),
        );
        return None;
    };
    let ty = &*typed.ty;
    let (value_ty, optional) = match valid::option_inner(ty) {
        Some(inner) => (inner, true),
        None => (ty, false),
    };
    if let Some(refused) = not_one_string(value_ty) {
        errors.push(Error::custom(refused).with_span(value_ty));
        return None;
    }
    let mut defaulted = false;
    let mut renamed = None;
    let mut completer = None;
    for attr in &typed.attrs {
        if attr.path().is_ident("serde") {
            let metas = attr.parse_args_with(
                syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated,
            );
            for meta in metas.into_iter().flatten() {
                match &meta {
                    Meta::Path(path) if path.is_ident("default") => defaulted = true,
                    Meta::NameValue(pair) if pair.path.is_ident("rename") => {
                        match attr::string_literal(&meta) {
                            Ok(name) => renamed = Some(name.into_inner()),
                            Err(error) => errors.push(error),
                        }
                    }
                    _ => errors.push(
                        Error::custom("only `#[serde(default)]` (absent: `Default::default()`) and `#[serde(rename = \"…\")]` (the argument's name) apply to a prompt argument")
                            .with_span(&meta),
                    ),
                }
            }
        } else if attr.path().is_ident("schemars")
            || valid::is_header_marker(attr)
            || valid::is_property_marker(attr)
        {
            errors.push(
                Error::custom("a prompt argument is a string, not a JSON property: this attribute has no effect; remove it")
                    .with_span(attr.path()),
            );
        } else if valid::is_complete_marker(attr) {
            match attr.parse_args::<Path>() {
                Ok(path) if completer.is_none() => completer = Some(path),
                Ok(_) => errors.push(
                    Error::custom("an argument has one completer: remove this `#[complete]`")
                        .with_span(attr),
                ),
                Err(_) => errors.push(
                    Error::custom(
                        "`#[complete]` takes the path of the completer fn: `#[complete(cities)]`",
                    )
                    .with_span(attr),
                ),
            }
        }
    }
    let how = match (optional, defaulted) {
        (true, true) => {
            errors.push(
                Error::custom("an `Option` argument is `None` when absent already: remove `#[serde(default)]`")
                    .with_span(ty),
            );
            return None;
        }
        (true, false) => Presence::Optional,
        (false, true) => Presence::Defaulted,
        (false, false) => Presence::Required,
    };
    Some(Argument {
        name: renamed.unwrap_or_else(|| valid::unraw(&pat.ident)),
        param: valid::unraw(&pat.ident),
        value_ty,
        ty,
        docs: docs::description(&typed.attrs),
        how,
        completer,
        fields: false,
    })
}

/// Why `ty` can never be one string's value, if it cannot: a borrow, a collection, a tuple.
fn not_one_string(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Reference(_) => Some(
            "a prompt argument is read from a string into an owned value: take `String` instead of `&str`, `T` instead of `&T`",
        ),
        Type::Tuple(_) | Type::Array(_) | Type::Slice(_) => Some(
            "a prompt argument is one string on the wire: take a type that parses from one (`String`, a number, a unit enum)",
        ),
        Type::Path(path) => {
            let last = path.path.segments.last()?;
            ["Vec", "VecDeque", "HashMap", "BTreeMap", "HashSet", "BTreeSet", "Option"]
                .iter()
                .any(|collection| last.ident == collection)
                .then_some(
                    "a prompt argument is one string on the wire, not a collection: take a type that parses from one (`String`, a number, a unit enum), and split it yourself",
                )
        }
        _ => None,
    }
}

/// `complete(name = path)` of the attribute, each on an argument that exists and has no
/// `#[complete]` of its own.
fn attach_completers(
    errors: &mut darling::error::Accumulator,
    arguments: &mut [Argument<'_>],
    completers: &[(syn::Ident, Path)],
) {
    for (ident, path) in completers {
        let name = valid::unraw(ident);
        match arguments
            .iter_mut()
            .find(|argument| argument.param == name || argument.name == name)
        {
            Some(argument) if argument.completer.is_some() => errors.push(
                Error::custom(format!(
                    "`{name}` has a `#[complete]` already: keep one of the two"
                ))
                .with_span(ident),
            ),
            Some(argument) => argument.completer = Some(path.clone()),
            None => {
                let known: Vec<&str> = arguments
                    .iter()
                    .map(|argument| argument.param.as_str())
                    .collect();
                errors.push(
                    Error::custom(format!(
                        "`{name}` is not an argument of this prompt (its arguments: {})",
                        if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    ))
                    .with_span(ident),
                );
            }
        }
    }
}

/// The name under which generated code reaches `<crate>::__private`.
const PRIVATE: &str = "__prompt_private";

/// A checked `#[prompt]` fn.
struct PromptFn<'a> {
    item: &'a ItemFn,
    name: String,
    title: Option<String>,
    description: TokenStream,
    /// The `&[IconRegistration]` of its `icons(…)`.
    icons: TokenStream,
    krate: Path,
    arguments: Vec<Argument<'a>>,
    slots: Vec<Slot<'a>>,
}

/// The expansion of a valid `#[prompt]` fn.
fn generate(prompt: &PromptFn<'_>) -> TokenStream {
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
    let call_args = prompt.slots.iter().map(|slot| match slot {
        Slot::Argument(index) => {
            let local = format_ident!("__prompt_arg_{}", index);
            quote!(#local)
        }
        Slot::Runtime(Param::Context { by_ref: true, ty }) => {
            quote_spanned!(ty.span()=> #private::context_ref::<#ty>(&__prompt_context))
        }
        Slot::Runtime(Param::Context { by_ref: false, ty }) => {
            quote_spanned!(ty.span()=> #private::context_value::<#ty>(&__prompt_context))
        }
        Slot::Runtime(Param::State { by_ref: false, ty }) => {
            quote_spanned!(ty.span()=> #private::state_value::<#ty>(&__prompt_context))
        }
        Slot::Runtime(Param::State { by_ref: true, ty }) => {
            quote_spanned!(ty.span()=> &#private::state_value::<#ty>(&__prompt_context))
        }
        Slot::Runtime(Param::Struct | Param::Inline(_)) => quote!(),
    });
    let fn_ident = &prompt.item.sig.ident;
    let span = prompt.item.sig.ident.span();
    let prompt_fn = quote_spanned!(span=> __prompt_fn);
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

    let run = run(is_async, &output, &convert, span, &private);

    let (completer_fns, argument_registrations) = argument_registrations(prompt, &private);
    let state = prompt.slots.iter().filter_map(|slot| match slot {
        Slot::Runtime(Param::State { ty, .. }) => Some(quote!(#private::state_key::<#ty>)),
        _ => None,
    });
    let (name, description, icons) = (&prompt.name, &prompt.description, &prompt.icons);
    let title = option(prompt.title.as_ref().map(|title| quote!(#title)));
    let const_underscore = quote_spanned!(span=> const _);
    quote! {
        #user_fn

        #const_underscore: () = {
            use #krate::__private as #private;

            #(#completer_fns)*

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
                }
            }
        };
    }
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

/// The adapters of the completer fns, and the `PromptArgumentRegistration` of each argument.
fn argument_registrations(
    prompt: &PromptFn<'_>,
    private: &syn::Ident,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let completer_fns = prompt
        .arguments
        .iter()
        .enumerate()
        .filter_map(|(index, argument)| {
            let path = argument.completer.as_ref()?;
            let ident = format_ident!("__prompt_complete_{}", index);
            Some(completer_fn(private, &ident, path))
        });
    let argument_registrations = prompt
        .arguments
        .iter()
        .enumerate()
        .map(|(index, argument)| {
            let name = &argument.name;
            let description = option(argument.docs.clone());
            let required = argument.how == Presence::Required;
            let fields = option(argument.fields.then(|| {
                let schema = fields_probe(private, argument.ty, &quote!(schema()));
                quote!(|| #schema)
            }));
            let complete = match &argument.completer {
                Some(_) => {
                    let ident = format_ident!("__prompt_complete_{}", index);
                    quote!(|| ::core::option::Option::Some(#private::Completer::Fn(#ident)))
                }
                None => known_values(private, argument.value_ty),
            };
            quote! {
                #private::PromptArgumentRegistration {
                    name: #name,
                    description: #description,
                    required: #required,
                    complete: #complete,
                    fields: #fields,
                }
            }
        });
    (completer_fns.collect(), argument_registrations.collect())
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

/// The adapter of a completer fn (`async fn(&str, &CompletionContext) -> impl IntoCompletion`),
/// spanned at its path: a fn of the wrong shape is reported there.
pub(crate) fn completer_fn(private: &syn::Ident, ident: &syn::Ident, path: &Path) -> TokenStream {
    // The fn is taken as a value first, as `#[tool]` takes its fn: its `async` is then required
    // by the caller, which keeps `clippy::unused_async` quiet about completers that await
    // nothing.
    let call = quote_spanned! {path.span()=>
        let __complete_fn = #path;
        #private::completion(__complete_fn(&__complete_value, &__complete_context).await)
    };
    quote! {
        fn #ident(
            __complete_value: ::std::string::String,
            __complete_context: #private::CompletionContext,
        ) -> #private::BoxFuture<'static, ::core::result::Result<#private::Completion, ::std::string::String>> {
            ::std::boxed::Box::pin(async move { #call })
        }
    }
}

/// The known values of `ty` (a unit enum deriving `JsonSchema`, `bool`), as a completer.
pub(crate) fn known_values(private: &syn::Ident, ty: &Type) -> TokenStream {
    quote! {
        || {
            #[allow(unused_imports)]
            use #private::{KnownFromSchema as _, NoKnownValues as _};
            (&&#private::ValuesProbe::<#ty>::new()).known()
        }
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

/// `Some(value)` or `None`.
fn option(value: Option<TokenStream>) -> TokenStream {
    value.map_or_else(
        || quote!(::core::option::Option::None),
        |value| quote!(::core::option::Option::Some(#value)),
    )
}

#[cfg(test)]
mod tests {
    //! The expansion snapshot of `#[prompt]` (`tests/expand/prompt.rs`, refreshed as
    //! `#[tool]`'s with `UPDATE_EXPAND=1`), and what only the macro sees.

    use quote::quote;

    use crate::tests::snapshot_of;

    #[test]
    fn expand_every_style() {
        snapshot_of(
            "prompt",
            super::prompt(
                quote!(
                    name = "summarise",
                    title = "Summarise",
                    complete(title = titles)
                ),
                quote! {
                    /// Summarise a note
                    async fn summarise(
                        /// The note's title
                        title: String,
                        /// How to write it
                        tone: Option<Tone>,
                        /// At most this many words
                        #[serde(default)]
                        words: u32,
                        /// A tag
                        #[complete(tags)]
                        tag: Option<String>,
                        notes: State<Notes>,
                        context: &Context,
                    ) -> Result<GetPromptResult, NoteError> {
                        todo!()
                    }
                },
            ),
        );
    }

    #[test]
    fn a_completer_must_name_an_argument() {
        let output = super::prompt(
            quote!(complete(nme = names)),
            quote! {
                /// Greets
                async fn greet(/// Who
                name: String) -> String { name }
            },
        )
        .to_string();
        assert!(
            output.contains("`nme` is not an argument of this prompt (its arguments: name)"),
            "{output}"
        );
    }
}
