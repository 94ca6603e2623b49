//! The rules a `#[prompt]` fn must follow, beyond the signature rules it shares with `#[tool]`
//! (`crate::valid`): its parameters as arguments read from strings, their completers, its name
//! and description. Every violation is collected, each spanned at the user's token.

use darling::Error;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use quote::quote;
use syn::{ItemFn, Meta, Pat, Path, Type};

use super::ast::{Argument, Presence, PromptFn, Slot};
use super::attr::PromptArgs;
use crate::valid::{self, FnParam};
use crate::{attr, docs};

/// Checks `item` and builds its model, pushing every error found to `errors`. `list` is the
/// attribute's raw keys (`None` if they did not parse) and `args` what darling made of them
/// (`None` when it refused them): the rules about absent keys still run, so that one compile
/// shows every mistake; the model is used only when `errors` stays empty.
pub(super) fn check<'a>(
    errors: &mut Accumulator,
    list: Option<&[NestedMeta]>,
    args: Option<PromptArgs>,
    item_fn: &'a ItemFn,
) -> PromptFn<'a> {
    let named_description = list.is_none_or(|list| {
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
    valid::check_signature(errors, item_fn, &PROMPT_RULES);
    let (mut arguments, slots) = parameters(errors, item_fn, &krate);
    attach_completers(
        errors,
        &mut arguments,
        args.complete.as_deref().unwrap_or_default(),
    );
    if let [only] = arguments.as_mut_slice() {
        only.fields = only.how == Presence::Required
            && only.completer.is_none()
            && only.name == only.param
            && !valid::is_std_type(only.value_ty);
    }
    let name = match &args.name {
        Some(name) => name.as_str().to_owned(),
        None => valid::fn_name(errors, &item_fn.sig.ident, "prompt"),
    };
    let description = args
        .description
        .as_ref()
        .map(|text| quote!(#text))
        .or(docs)
        .unwrap_or_default();
    PromptFn {
        item: item_fn,
        name,
        title: args.title,
        description,
        icons: args.icons,
        tags: args.tags,
        scopes: args.scopes,
        krate,
        arguments,
        slots,
    }
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
    errors: &mut Accumulator,
    item: &'a ItemFn,
    krate: &Path,
) -> (Vec<Argument<'a>>, Vec<Slot<'a>>) {
    let mut arguments = Vec::new();
    let mut slots = Vec::new();
    let method = "`#[prompt]` cannot be used on a method: a prompt is a free fn";
    valid::each_param(errors, item, krate, method, |errors, param| match param {
        FnParam::Provided(provided) => slots.push(Slot::Runtime(provided)),
        FnParam::Given(typed) => {
            if let Some(argument) = argument(errors, typed) {
                slots.push(Slot::Argument(arguments.len()));
                arguments.push(argument);
            }
        }
    });
    (arguments, slots)
}

/// One parameter the client gives: a plain name, an owned type that one string can be.
fn argument<'a>(errors: &mut Accumulator, typed: &'a syn::PatType) -> Option<Argument<'a>> {
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
    let ArgumentAttrs {
        defaulted,
        renamed,
        completer,
    } = argument_attrs(errors, &typed.attrs);
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

/// What a prompt argument's attributes say of it.
#[derive(Default)]
struct ArgumentAttrs {
    /// `#[serde(default)]`: `T::default()` when absent.
    defaulted: bool,
    /// `#[serde(rename = "…")]`: its name on the wire.
    renamed: Option<String>,
    /// `#[complete(path)]`.
    completer: Option<Path>,
}

/// The attributes of a prompt argument, checked: the `serde` keys that apply to a string
/// argument, one `#[complete]`, and none of a JSON property's.
fn argument_attrs(errors: &mut Accumulator, attrs: &[syn::Attribute]) -> ArgumentAttrs {
    let mut found = ArgumentAttrs::default();
    for attr in attrs {
        if attr.path().is_ident("serde") {
            serde_keys(errors, attr, &mut found);
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
                Ok(path) if found.completer.is_none() => found.completer = Some(path),
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
    found
}

/// `#[serde(default)]` and `#[serde(rename = "…")]`, the keys that apply to a prompt argument.
fn serde_keys(errors: &mut Accumulator, attr: &syn::Attribute, found: &mut ArgumentAttrs) {
    let metas =
        attr.parse_args_with(syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated);
    for meta in metas.into_iter().flatten() {
        match &meta {
            Meta::Path(path) if path.is_ident("default") => found.defaulted = true,
            Meta::NameValue(pair) if pair.path.is_ident("rename") => {
                match attr::string_literal(&meta) {
                    Ok(name) => found.renamed = Some(name.into_inner()),
                    Err(error) => errors.push(error),
                }
            }
            _ => errors.push(
                Error::custom("only `#[serde(default)]` (absent: `Default::default()`) and `#[serde(rename = \"…\")]` (the argument's name) apply to a prompt argument")
                    .with_span(&meta),
            ),
        }
    }
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
    errors: &mut Accumulator,
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
