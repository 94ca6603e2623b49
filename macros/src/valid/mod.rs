//! The rules a `#[tool]` fn must follow, the model built from them, and the rules `#[prompt]` and
//! `#[resource]` share with it. Every violation is collected (never only the first), each
//! spanned at the user's token and saying what to write instead. By job: this file the keys'
//! rules and the model; `signature.rs` the fn as a whole; `input.rs` its parameters and the
//! input's style; `provided.rs` the `Context` and `State<T>`; `markers.rs` the parameter
//! markers; `types.rs` what a written type is.

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{ItemFn, Path, ReturnType, Type, parse_quote};

use crate::ast::{Hints, Input, InputSchema, ToolFn};
use crate::attr::{self, Keys, OutputSchema, ToolArgs};
use crate::docs;

mod input;
mod markers;
mod provided;
mod signature;
mod types;

pub(crate) use markers::{
    is_complete_marker, is_context_marker, is_field_attr, is_header_marker, is_property_marker,
};
pub(crate) use provided::{FnParam, each_param};
pub(crate) use signature::{SignatureRules, check_signature};
pub(crate) use types::{is_bare_name, is_double_option, is_std_type, option_inner, unraw};

use input::check_params;

/// Checks `item` against the rules and builds its model, pushing every error found to `errors`.
///
/// `args` is `None` when the attribute itself had errors (already in `errors`): the signature and
/// the rules about absent keys (`keys`, read from the raw list; `None` if it did not parse) are
/// still checked, so that one compile shows every mistake, but no model is built.
///
/// A borrowed parameter that may be the `Context` under another name (`ctx: &Ctx`) is decided by
/// rustc: its check goes to `deferred`, and no model is built.
pub(crate) fn check<'a>(
    outer: &mut Accumulator,
    deferred: &mut Vec<TokenStream>,
    args: Option<ToolArgs>,
    keys: Option<Keys>,
    item: &'a ItemFn,
) -> Option<ToolFn<'a>> {
    let mut errors = Error::accumulator();
    check_signature(&mut errors, item, &TOOL_RULES);
    let krate: Path = args
        .as_ref()
        .and_then(|args| args.krate.clone())
        .unwrap_or_else(|| parse_quote!(::mcp_toolbelt));
    let (input, params) = check_params(&mut errors, deferred, item, &krate);

    let sig = &item.sig;
    let keys = keys.unwrap_or(Keys {
        name: true,
        description: true,
    });
    let name = tool_name(&mut errors, args.as_ref(), keys, &sig.ident);

    let docs = docs::description(&item.attrs);
    if !keys.description && docs.is_none() {
        errors.push(
            Error::custom(
                "`#[tool]` needs a description for the model: add a `///` doc comment to the fn or write `#[tool(description = \"…\")]`",
            )
            .with_span(&sig.ident),
        );
    }

    let Some(args) = args else {
        outer.handle(errors.finish());
        return None;
    };
    let description = args
        .description
        .as_ref()
        .map(|description| quote!(#description))
        .or(docs);

    let hints = hints(args.annotations.as_ref());
    let input_schema = schema_source(&mut errors, &args, &input);
    let (structured, output_schema) = output_schema(&mut errors, &args, &sig.output);
    let model = ToolFn {
        item,
        name,
        title: args.title,
        description: description.unwrap_or_default(),
        hints,
        krate,
        input,
        params,
        output: &sig.output,
        structured,
        input_schema,
        output_schema,
        asks: args.asks.unwrap_or_default(),
        icons: args.icons,
        task: args.task,
        tags: args.tags,
        scopes: args.scopes,
        rate_limit: args.rate_limit,
    };
    outer.handle(errors.finish_with(model))
}

/// The MCP hints of `annotations(…)`, each left out when not given.
fn hints(annotations: Option<&attr::Annotations>) -> Hints {
    annotations.map_or_else(Hints::default, |annotations| Hints {
        read_only: annotations.read_only.map(|hint| *hint),
        destructive: annotations.destructive.map(|hint| *hint),
        idempotent: annotations.idempotent.map(|hint| *hint),
        open_world: annotations.open_world.map(|hint| *hint),
    })
}

/// Whether the result has structured content (`output_schema = false` says no), and the
/// hand-written output schema's fn (`output_schema = path`), checked against the return type.
fn output_schema(
    errors: &mut Accumulator,
    args: &ToolArgs,
    output: &ReturnType,
) -> (bool, Option<Path>) {
    match &args.output_schema {
        None => (true, None),
        Some(OutputSchema::Derived(structured)) => (**structured, None),
        Some(OutputSchema::HandWritten(path)) => {
            check_structured_output(errors, output, path);
            (true, Some(path.clone()))
        }
    }
}

/// Where the input schema comes from: `portable = …` and `input_schema = …` exclude each other,
/// and both need arguments to describe; a hand-written schema carries its own header marks.
fn schema_source(errors: &mut Accumulator, args: &ToolArgs, input: &Input<'_>) -> InputSchema {
    let no_arguments = matches!(input, Input::None);
    if let Some(portable) = &args.portable {
        if args.input_schema.is_some() {
            errors.push(
                Error::custom(
                    "`portable` is about the derived input schema, which `input_schema` replaces: remove one of the two",
                )
                .with_span(&portable.span()),
            );
        } else if no_arguments {
            errors.push(
                Error::custom(
                    "this tool takes no arguments: its input schema has nothing to keep; remove `portable`",
                )
                .with_span(&portable.span()),
            );
        }
    }
    if let Some(path) = &args.input_schema {
        if no_arguments {
            errors.push(
                Error::custom(
                    "this tool takes no arguments: a hand-written input schema would describe arguments it never reads; add the parameters, or remove `input_schema`",
                )
                .with_span(path),
            );
        }
        if let Input::Inline(params) = input {
            for header in params.iter().filter_map(|param| param.header.as_ref()) {
                errors.push(
                    Error::custom(format!(
                        "with `input_schema`, the schema is hand-written: mark the property there (`\"x-mcp-header\": {:?}`) and remove this `#[header]`",
                        header.value()
                    ))
                    .with_span(header),
                );
            }
        }
        return InputSchema::HandWritten(path.clone());
    }
    match args.portable.as_ref().map(|portable| **portable) {
        Some(false) => InputSchema::Generated,
        _ => InputSchema::Portable,
    }
}

/// `output_schema = path` declares the shape of structured content: the fn must return some.
/// Which types do is checked by rustc (`StructuredOutput`); a return type rustc cannot name
/// (`impl …`) or none at all is refused here.
fn check_structured_output(errors: &mut Accumulator, output: &ReturnType, path: &Path) {
    let why = match output {
        ReturnType::Default => "this fn returns `()`, which has no structured content",
        ReturnType::Type(_, ty) if matches!(**ty, Type::ImplTrait(_)) => {
            "this fn returns `impl …`, whose structured content cannot be known"
        }
        ReturnType::Type(..) => return,
    };
    errors.push(
        Error::custom(format!(
            "{why}: a hand-written `output_schema` describes structured content; return `Json<T>` (or `CallToolResult`)"
        ))
        .with_span(path),
    );
}

/// The tool's name: `name = "…"`, or the fn's name, which must then be a valid tool name.
fn tool_name(
    errors: &mut Accumulator,
    args: Option<&ToolArgs>,
    keys: Keys,
    ident: &syn::Ident,
) -> String {
    if let Some(name) = args.and_then(|args| args.name.as_ref()) {
        return name.as_str().to_owned();
    }
    if keys.name {
        return unraw(ident);
    }
    fn_name(errors, ident, "tool")
}

/// The name of a `#[tool]` or `#[prompt]` fn without `name = "…"`: the fn's, which must then be
/// a valid name.
pub(crate) fn fn_name(errors: &mut Accumulator, ident: &syn::Ident, attribute: &str) -> String {
    let name = unraw(ident);
    if !attr::is_valid_name(&name) {
        errors.push(
            Error::custom(format!(
                "`{name}` is not a valid {attribute} name (1 to 64 characters from `A-Z a-z 0-9 _ . -`): set one with `#[{attribute}(name = \"…\")]`"
            ))
            .with_span(ident),
        );
    }
    name
}

/// `#[tool]`'s rules.
const TOOL_RULES: SignatureRules = SignatureRules {
    attribute: "tool",
    why_concrete: "a tool has one input schema",
    return_examples: "`Result<String, E>`, `Result<Json<T>, E>`",
    result_trait: "IntoToolResult",
};
