//! The attribute's keys, as darling parses them. Rules that concern one key alone are checked
//! here, so that darling reports them together with unknown and duplicate keys. Rules that must
//! hold even when darling rejected the attribute (the contradiction in `annotations(…)`, and
//! which keys were given at all) read the raw list instead, so one compile shows every mistake.

use darling::ast::NestedMeta;
use darling::error::Accumulator;
use darling::util::SpannedValue;
use darling::{Error, FromMeta};
use syn::spanned::Spanned as _;
use syn::{Expr, ExprLit, Lit, Meta};

/// `#[tool(name = "…", title = "…", description = "…", annotations(…), output_schema = false,
/// portable = false, input_schema = path, asks(Form, …), crate = path, ui = "ui://…", visibility(model, app),
/// icons(…)…, task = "required", tags("…", …), scopes("…", …), rate_limit = "N/UNIT")]`
#[derive(Debug, Default, FromMeta)]
pub(crate) struct ToolArgs {
    #[darling(default, with = tool_name)]
    pub(crate) name: Option<SpannedValue<String>>,
    #[darling(default, with = text)]
    pub(crate) title: Option<String>,
    #[darling(default, with = description_text)]
    pub(crate) description: Option<String>,
    #[darling(default, with = annotations_list)]
    pub(crate) annotations: Option<Annotations>,
    /// `output_schema = false`: no `outputSchema`, no `structuredContent` (for hosts that fail
    /// tools declaring one); `output_schema = path`: a hand-written one.
    #[darling(default, with = output_schema_value)]
    pub(crate) output_schema: Option<OutputSchema>,
    /// `portable = false`: the input schema as schemars generates it (for a host that takes a
    /// keyword the portable rewrite removes).
    #[darling(default, with = hint)]
    pub(crate) portable: Option<SpannedValue<bool>>,
    /// `input_schema = path`: a fn returning the hand-written input schema.
    #[darling(default, with = schema_fn)]
    pub(crate) input_schema: Option<syn::Path>,
    /// `asks(ConfirmDelete, Missing)`: the form types the tool elicits, checked at start-up.
    #[darling(default, with = asks_list)]
    pub(crate) asks: Option<Vec<syn::Type>>,
    #[darling(rename = "crate")]
    pub(crate) krate: Option<syn::Path>,
    /// MCP Apps: the tool's view.
    #[darling(default, with = crate::apps::ui_uri)]
    pub(crate) ui: Option<SpannedValue<String>>,
    /// MCP Apps: who may call the tool.
    #[darling(default, with = crate::apps::visibility_list)]
    pub(crate) visibility: Option<Vec<String>>,
    /// `icons(src = "…", …)`, once per icon.
    #[darling(multiple, with = crate::icons::icon)]
    pub(crate) icons: Vec<crate::icons::Icon>,
    /// `task`, `task = "optional"` or `task = "required"`: the tool may (must) run as a task.
    #[darling(default, with = task_support)]
    pub(crate) task: Option<TaskKey>,
    /// `tags("admin", …)`: what a server's selection chooses the tool by.
    #[darling(default, with = crate::tags::list)]
    pub(crate) tags: crate::tags::Tags,
    /// `scopes("…", …)`: the OAuth scopes a caller needs, all of them.
    #[darling(default, with = crate::scopes::scopes)]
    pub(crate) scopes: Vec<syn::LitStr>,
    /// `rate_limit = "N/UNIT"`: the tool's own limit per principal.
    #[darling(default, with = crate::rate_limit::rate_limit)]
    pub(crate) rate_limit: Option<syn::LitStr>,
}

/// `task` (the same as `task = "optional"`) or `task = "required"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskKey {
    /// The tool may run as a task: the runtime makes it one when the client negotiated the
    /// extension (at once, or past the server's budget).
    Optional,
    /// The tool always runs as a task; a client without the extension is refused.
    Required,
}

/// `task`, `task = "optional"` or `task = "required"`; any other value is an error at the value.
fn task_support(meta: &Meta) -> darling::Result<Option<TaskKey>> {
    let usage = "write `task` (the tool may run as a task), `task = \"optional\"` (the same) or `task = \"required\"` (always a task)";
    match meta {
        Meta::Path(_) => Ok(Some(TaskKey::Optional)),
        Meta::NameValue(name_value) => {
            if let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &name_value.value
            {
                return match text.value().as_str() {
                    "optional" => Ok(Some(TaskKey::Optional)),
                    "required" => Ok(Some(TaskKey::Required)),
                    other => Err(
                        Error::custom(format!("unknown task support {other:?}: {usage}"))
                            .with_span(&text.span()),
                    ),
                };
            }
            Err(Error::custom(usage).with_span(&name_value.value.span()))
        }
        Meta::List(_) => Err(Error::custom(usage).with_span(meta)),
    }
}

/// `output_schema = …`: the derived schema on or off, or a fn returning a hand-written one.
#[derive(Debug)]
pub(crate) enum OutputSchema {
    /// `output_schema`, `= true` or `= false`, spanned at the key.
    Derived(SpannedValue<bool>),
    /// `output_schema = path::to_fn`.
    HandWritten(syn::Path),
}

/// `output_schema = false`, `= true`, or `= path::to_fn`.
fn output_schema_value(meta: &Meta) -> darling::Result<Option<OutputSchema>> {
    if let Meta::NameValue(name_value) = meta
        && let Expr::Path(path) = &name_value.value
    {
        return Ok(Some(OutputSchema::HandWritten(path.path.clone())));
    }
    hint(meta)
        .map(|derived| derived.map(OutputSchema::Derived))
        .map_err(|_| {
            let span = match meta {
                Meta::NameValue(name_value) => name_value.value.span(),
                _ => meta.span(),
            };
            Error::custom(
                "write `output_schema = false` (no output schema), or the path of a fn returning a hand-written one: `output_schema = my_output_schema`",
            )
            .with_span(&span)
        })
}

/// `input_schema = path::to_fn`: the path of a fn, never a literal or a call.
fn schema_fn(meta: &Meta) -> darling::Result<Option<syn::Path>> {
    if let Meta::NameValue(name_value) = meta
        && let Expr::Path(path) = &name_value.value
    {
        return Ok(Some(path.path.clone()));
    }
    let key = key(meta);
    let span = match meta {
        Meta::NameValue(name_value) => name_value.value.span(),
        _ => meta.span(),
    };
    Err(Error::custom(format!(
        "`{key}` takes the path of a fn returning the schema (a `serde_json::Value` or a `schemars::Schema`): write `{key} = my_schema`"
    ))
    .with_span(&span))
}

/// `asks(ConfirmDelete, Missing)`: a list of one or more types.
fn asks_list(meta: &Meta) -> darling::Result<Option<Vec<syn::Type>>> {
    let usage = "`asks` lists the form types the tool elicits: `asks(ConfirmDelete, MissingValue)`";
    let Meta::List(list) = meta else {
        return Err(Error::custom(usage).with_span(meta));
    };
    let types = list
        .parse_args_with(syn::punctuated::Punctuated::<syn::Type, syn::Token![,]>::parse_terminated)
        .map_err(|error| Error::custom(usage).with_span(&error.span()))?;
    if types.is_empty() {
        return Err(Error::custom(usage).with_span(meta));
    }
    Ok(Some(types.into_iter().collect()))
}

/// `annotations(read_only, destructive = false, idempotent, open_world)`: a bare word means
/// `true`; an absent hint is left out of the tool definition. The contradiction between two hints
/// is checked on the raw list by [`check_annotations`], so that it shows even next to an unknown
/// hint.
#[derive(Debug, Default, FromMeta)]
pub(crate) struct Annotations {
    #[darling(default, with = hint)]
    pub(crate) read_only: Option<SpannedValue<bool>>,
    #[darling(default, with = hint)]
    pub(crate) destructive: Option<SpannedValue<bool>>,
    #[darling(default, with = hint)]
    pub(crate) idempotent: Option<SpannedValue<bool>>,
    #[darling(default, with = hint)]
    pub(crate) open_world: Option<SpannedValue<bool>>,
}

/// `annotations(…)`: a list, never a bare word or `annotations = …`.
fn annotations_list(meta: &Meta) -> darling::Result<Option<Annotations>> {
    if let Meta::List(_) = meta {
        return Annotations::from_meta(meta).map(Some);
    }
    Err(Error::custom(
        "expected `annotations(read_only, destructive, idempotent, open_world)`, with the hints that apply",
    )
    .with_span(meta))
}

/// The list without its bare literals (`#[tool("get_weather")]`), each reported at the literal
/// with the key to write (darling's "Unexpected meta-item format `literal`" would not say it),
/// and whether one of them was a string: the user meant it as the name.
pub(crate) fn without_literals(
    errors: &mut Accumulator,
    list: Vec<NestedMeta>,
) -> (Vec<NestedMeta>, bool) {
    let mut kept = Vec::with_capacity(list.len());
    let mut named = false;
    for nested in list {
        let NestedMeta::Lit(literal) = &nested else {
            kept.push(nested);
            continue;
        };
        let message = if let Lit::Str(text) = literal {
            named = true;
            format!(
                "the tool's name is a key: write `#[tool(name = {:?})]`",
                text.value()
            )
        } else {
            "`#[tool]` takes keys: write `#[tool(name = \"…\", description = \"…\")]`".to_owned()
        };
        errors.push(Error::custom(message).with_span(literal));
    }
    (kept, named)
}

/// Which keys the attribute names, read from the raw list: the rules about an absent key (the
/// default name, the description) still run when darling rejected the attribute.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keys {
    pub(crate) name: bool,
    pub(crate) description: bool,
}

impl Keys {
    /// A key counts as named when it is written, or misspelled as an unknown key darling will
    /// suggest it for ("Did you mean `description`?"): the user meant to write it, and being
    /// told to add it besides would mislead.
    pub(crate) fn of(list: &[NestedMeta]) -> Self {
        let written: Vec<String> = list
            .iter()
            .filter_map(|nested| match nested {
                NestedMeta::Meta(meta) => meta.path().get_ident().map(ToString::to_string),
                NestedMeta::NameValueInvalidExpr(invalid) => {
                    invalid.path.get_ident().map(ToString::to_string)
                }
                NestedMeta::Lit(_) => None,
            })
            .collect();
        let named = |wanted: &str| {
            written
                .iter()
                .any(|key| key == wanted || suggestion(key) == Some(wanted))
        };
        Self {
            name: named("name"),
            description: named("description"),
        }
    }
}

/// The key darling suggests for the unknown key `key`, by the rule darling applies (the closest
/// by Jaro-Winkler, above 0.8); `None` for a known key.
fn suggestion(key: &str) -> Option<&'static str> {
    const KEYS: [&str; 16] = [
        "name",
        "title",
        "description",
        "annotations",
        "output_schema",
        "portable",
        "input_schema",
        "asks",
        "crate",
        "ui",
        "visibility",
        "icons",
        "task",
        "tags",
        "scopes",
        "rate_limit",
    ];
    if KEYS.contains(&key) {
        return None;
    }
    KEYS.into_iter()
        .map(|known| (strsim::jaro_winkler(key, known), known))
        .filter(|(confidence, _)| *confidence > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, known)| known)
}

/// A read-only tool changes nothing, so it cannot also be destructive. Checked on the raw
/// `annotations(…)` lists, so that an unknown or malformed hint next to them does not hide it.
pub(crate) fn check_annotations(list: &[NestedMeta]) -> darling::Result<()> {
    let mut errors = Error::accumulator();
    for nested in list {
        let NestedMeta::Meta(Meta::List(annotations)) = nested else {
            continue;
        };
        if !annotations.path.is_ident("annotations") {
            continue;
        }
        // A list that does not parse is darling's to report.
        let Ok(hints) = NestedMeta::parse_meta_list(annotations.tokens.clone()) else {
            continue;
        };
        // The first of each hint: a repeated one is reported by darling as a duplicate.
        let first = |wanted: &str| {
            hints.iter().find_map(|nested| match nested {
                NestedMeta::Meta(meta) if meta.path().is_ident(wanted) => hint(meta).ok().flatten(),
                _ => None,
            })
        };
        if let (Some(read_only), Some(destructive)) = (first("read_only"), first("destructive"))
            && *read_only
            && *destructive
        {
            errors.push(
                Error::custom(
                    "a tool cannot be both `read_only` and `destructive`: a read-only tool changes nothing; remove one",
                )
                .with_span(&destructive.span()),
            );
        }
    }
    errors.finish()
}

/// The key of `key = value`, for messages.
fn key(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map_or_else(|| "key".to_owned(), ToString::to_string)
}

/// The string literal of `key = "…"`, spanned at the literal.
pub(crate) fn string_literal(meta: &Meta) -> darling::Result<SpannedValue<String>> {
    if let Meta::NameValue(name_value) = meta
        && let Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) = &name_value.value
    {
        return Ok(SpannedValue::new(text.value(), text.span()));
    }
    let key = key(meta);
    let span = match meta {
        Meta::NameValue(name_value) => name_value.value.span(),
        _ => meta.span(),
    };
    Err(Error::custom(format!("`{key}` takes a string: write `{key} = \"…\"`")).with_span(&span))
}

/// `title = "…"`, `description = "…"`: a string, in quotes.
pub(crate) fn text(meta: &Meta) -> darling::Result<Option<String>> {
    string_literal(meta).map(|text| Some(text.into_inner()))
}

/// `description = "…"`: text, as an empty `///` comment is not a description either.
fn description_text(meta: &Meta) -> darling::Result<Option<String>> {
    description(
        meta,
        "the model reads it to choose the tool; say what the tool does",
    )
}

/// `description = "…"`, not empty; `why` says what to write instead. Shared by every attribute.
pub(crate) fn description(meta: &Meta, why: &str) -> darling::Result<Option<String>> {
    let text = string_literal(meta)?;
    if text.trim().is_empty() {
        return Err(
            Error::custom(format!("`description` cannot be empty: {why}")).with_span(&text.span()),
        );
    }
    Ok(Some(text.into_inner()))
}

/// `name = "…"`: checked against the MCP rule `^[A-Za-z0-9_.-]{1,64}$` here, at the literal.
fn tool_name(meta: &Meta) -> darling::Result<Option<SpannedValue<String>>> {
    name(meta, "tool")
}

/// `name = "…"` of a `kind` (`tool`, `prompt`): the MCP rule `^[A-Za-z0-9_.-]{1,64}$`, at the
/// literal.
pub(crate) fn name(meta: &Meta, kind: &str) -> darling::Result<Option<SpannedValue<String>>> {
    let name = string_literal(meta)?;
    if !is_valid_name(&name) {
        return Err(Error::custom(format!(
            "invalid {kind} name {:?}: use 1 to 64 characters from `A-Z a-z 0-9 _ . -`",
            name.as_str()
        ))
        .with_span(&name.span()));
    }
    Ok(Some(name))
}

/// Whether `name` is a valid MCP tool name (`^[A-Za-z0-9_.-]{1,64}$`).
pub(crate) fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A hint: `read_only`, `read_only = true` or `read_only = false`, spanned at its key so that
/// the contradiction rule can point at the word.
fn hint(meta: &Meta) -> darling::Result<Option<SpannedValue<bool>>> {
    match meta {
        Meta::Path(path) => return Ok(Some(SpannedValue::new(true, path.span()))),
        Meta::NameValue(name_value) => {
            if let Expr::Lit(ExprLit {
                lit: Lit::Bool(value),
                ..
            }) = &name_value.value
            {
                return Ok(Some(SpannedValue::new(value.value, name_value.path.span())));
            }
        }
        Meta::List(_) => {}
    }
    let key = key(meta);
    let span = match meta {
        Meta::NameValue(name_value) => name_value.value.span(),
        _ => meta.span(),
    };
    Err(Error::custom(format!("write `{key}`, `{key} = true` or `{key} = false`")).with_span(&span))
}
