//! The rules a `#[tool]` fn must follow. Every violation is collected (never only the first),
//! each spanned at the user's token and saying what to write instead.

use darling::Error;
use darling::util::SpannedValue;
use syn::{FnArg, GenericArgument, ItemFn, Pat, PathArguments, Type, parse_quote};

use crate::ast::{Hints, InlineParam, Input, Param, ToolFn};
use crate::attr::ToolArgs;
use crate::docs;

/// Checks `item` against the rules and builds its model, or returns every error found.
pub(crate) fn check(args: ToolArgs, item: &ItemFn) -> Result<ToolFn<'_>, Error> {
    let mut errors = Error::accumulator();
    let sig = &item.sig;

    if let Some(param) = sig.generics.params.first() {
        errors.push(
            Error::custom("`#[tool]` fns cannot be generic: a tool has one input schema; use concrete types")
                .with_span(param),
        );
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        errors.push(Error::custom("`#[tool]` fns cannot have a `where` clause").with_span(where_clause));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(Error::custom("`#[tool]` fns cannot be variadic").with_span(variadic));
    }

    let name = match &args.name {
        Some(name) => {
            check_name(&mut errors, name);
            name.as_str().to_owned()
        }
        None => {
            let name = sig.ident.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if name.len() > 64 {
                errors.push(
                    Error::custom("the tool name is longer than 64 characters; set a shorter one with `name = \"…\"`")
                        .with_span(&sig.ident),
                );
            }
            name
        }
    };

    let description = args.description.clone().or_else(|| docs::text(&item.attrs));
    if description.is_none() {
        errors.push(
            Error::custom(
                "`#[tool]` needs a description for the model: add a `///` doc comment to the fn or write `#[tool(description = \"…\")]`",
            )
            .with_span(&sig.ident),
        );
    }

    let hints = args.annotations.as_ref().map_or_else(Hints::default, |annotations| {
        let (read_only, destructive) = (annotations.read_only, annotations.destructive);
        if let (Some(read_only), Some(destructive)) = (read_only, destructive)
            && *read_only
            && *destructive
        {
            errors.push(
                Error::custom("a tool cannot be both `read_only` and `destructive`: a read-only tool changes nothing; remove one")
                    .with_span(&destructive.span()),
            );
        }
        Hints {
            read_only: read_only.map(|hint| *hint),
            destructive: destructive.map(|hint| *hint),
            idempotent: annotations.idempotent,
            open_world: annotations.open_world,
        }
    });

    let (input, params) = check_params(&mut errors, item);
    let krate = args.krate.clone().unwrap_or_else(|| parse_quote!(::mcp_toolbelt));

    errors.finish()?;
    Ok(ToolFn {
        item,
        name,
        title: args.title,
        description: description.unwrap_or_default(),
        hints,
        krate,
        input,
        params,
        output: &sig.output,
    })
}

fn check_name(errors: &mut darling::error::Accumulator, name: &SpannedValue<String>) {
    let valid_chars = name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if name.is_empty() || name.len() > 64 || !valid_chars {
        errors.push(
            Error::custom(format!(
                "invalid tool name {:?}: use 1 to 64 characters from `A-Z a-z 0-9 _ . -`",
                name.as_str()
            ))
            .with_span(&name.span()),
        );
    }
}

/// Sorts the parameters into `Context`s and the input; see `mcp_toolbelt::tool` for the rule.
fn check_params<'a>(errors: &mut darling::error::Accumulator, item: &'a ItemFn) -> (Input<'a>, Vec<Param<'a>>) {
    struct Candidate<'a> {
        ident: Option<&'a syn::Ident>,
        ty: &'a Type,
        docs: Option<String>,
        pat: &'a Pat,
    }
    let mut params = Vec::new();
    let mut candidates = Vec::new();
    for input in &item.sig.inputs {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(
                    Error::custom("`#[tool]` cannot be used on a method: a tool is a free fn; move it out of the `impl` block")
                        .with_span(receiver),
                );
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        if let Some(by_ref) = context_type(&typed.ty) {
            params.push(Param::Context { by_ref });
            continue;
        }
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.subpat.is_none() => Some(&pat.ident),
            _ => None,
        };
        params.push(Param::Struct); // fixed up below once the style is known
        candidates.push(Candidate { ident, ty: &typed.ty, docs: docs::text(&typed.attrs), pat: &typed.pat });
    }

    let input = match candidates.as_slice() {
        [] => Input::None,
        [only] if only.docs.is_none() && !is_std_type(only.ty) => Input::Struct(only.ty),
        [only] if only.docs.is_none() => {
            let name = only.ident.map_or_else(|| "…".to_owned(), ToString::to_string);
            errors.push(
                Error::custom(format!(
                    "a lone parameter of a standard type is ambiguous: document it with `///` to make it the tool's property `{name}`, or take one argument struct that derives `Deserialize` and `JsonSchema`"
                ))
                .with_span(only.ty),
            );
            Input::None
        }
        _ => {
            let mut inline = Vec::new();
            for candidate in &candidates {
                if candidate.docs.is_none() && !is_std_type(candidate.ty) {
                    errors.push(
                        Error::custom(
                            "an argument struct must be the tool's only parameter (besides `Context`); to make this parameter a property of inline parameters instead, document it with `///`",
                        )
                        .with_span(candidate.ty),
                    );
                }
                match candidate.ident {
                    Some(ident) => inline.push(InlineParam { ident, ty: candidate.ty, docs: candidate.docs.clone() }),
                    None => errors.push(
                        Error::custom("an inline tool parameter must be a plain name (`name: Type`): its name is the property's name")
                            .with_span(candidate.pat),
                    ),
                }
            }
            Input::Inline(inline)
        }
    };
    if let Input::Inline(inline) = &input {
        let mut idents = inline.iter().map(|param| param.ident);
        for param in &mut params {
            if matches!(param, Param::Struct) {
                *param = idents.next().map_or(Param::Struct, Param::Inline);
            }
        }
    }
    (input, params)
}

/// `Some(by_ref)` when `ty` is `Context` or `&Context` (any path ending in `Context`).
fn context_type(ty: &Type) -> Option<bool> {
    match ty {
        Type::Reference(reference) if reference.mutability.is_none() => {
            context_type(&reference.elem).filter(|by_ref| !by_ref).map(|_| true)
        }
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            (last.ident == "Context" && last.arguments.is_empty()).then_some(false)
        }
        _ => None,
    }
}

/// Standard types are never an argument struct: a lone `String` parameter must be documented.
fn is_std_type(ty: &Type) -> bool {
    const STD: &[&str] = &[
        "String", "str", "bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize", "f32", "f64", "Option", "Vec", "VecDeque", "HashMap", "BTreeMap", "HashSet", "BTreeSet",
        "Box", "Cow", "Value",
    ];
    match ty {
        Type::Reference(reference) => is_std_type(&reference.elem),
        Type::Path(path) => path.path.segments.last().is_some_and(|last| {
            STD.iter().any(|name| last.ident == name)
                && match &last.arguments {
                    PathArguments::AngleBracketed(args) => args.args.iter().all(|arg| matches!(arg, GenericArgument::Type(_))),
                    _ => true,
                }
        }),
        Type::Array(_) | Type::Slice(_) | Type::Tuple(_) => true,
        _ => false,
    }
}
