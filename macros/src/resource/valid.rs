//! The rules a `#[resource]` item must follow: the URI or RFC 6570 level-1 template, a reading
//! fn's parameters against its variables (its `Context` and `State<T>` by
//! `crate::valid::each_param`, as a tool's), `complete(var = …)`, `app(…)`. Every violation is
//! collected, each spanned at the user's token.

use darling::Error;
use darling::error::Accumulator;
use syn::{ItemFn, Pat};

use super::ast::{ResourceItem, Slot, Source, TemplateParam};
use super::attr::{self, ResourceArgs};
use crate::valid::{self, FnParam};

/// Checks the item against its keys and builds its model, pushing every error found to
/// `errors`; the model is used only when `errors` stays empty.
pub(super) fn check<'a>(
    errors: &mut Accumulator,
    args: &'a ResourceArgs,
    source: &'a Source,
) -> ResourceItem<'a> {
    let variables = check_uri(errors, args);
    let krate = args
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::mcp_toolbelt));
    let slots = match source {
        Source::Fn(item) => fn_params(errors, item, variables.as_deref(), &krate),
        Source::Static(ident, ..) => {
            if let Some(variable) = variables.as_deref().and_then(<[String]>::first) {
                errors.push(
                    Error::custom(format!(
                        "a URI template needs an fn that reads it, taking `{variable}` as a parameter; a `static` has fixed contents"
                    ))
                    .with_span(ident),
                );
            }
            Vec::new()
        }
    };
    let variables = variables.unwrap_or_default();
    check_completers(errors, args, &variables);
    if let Some(app) = &args.app {
        attr::check_app(errors, app);
        if let Some(mime_type) = &args.mime_type {
            errors.push(
                Error::custom(format!(
                    "an app view's MIME type is always `text/html;profile=mcp-app`: remove `mime_type = {mime_type:?}`"
                ))
                .with_span(&args.uri),
            );
        }
    }
    ResourceItem {
        args,
        krate,
        source,
        variables,
        slots,
    }
}

/// Each key of `complete(var = path)` is a variable of the template.
fn check_completers(errors: &mut Accumulator, args: &ResourceArgs, variables: &[String]) {
    for (ident, _) in args.complete.as_deref().unwrap_or_default() {
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
}

/// Checks the URI (a scheme, no spaces) or level-1 template; returns its variables, or `None`
/// when it is malformed (then the parameters are not checked against it: one error, not a
/// cascade).
fn check_uri(errors: &mut Accumulator, args: &ResourceArgs) -> Option<Vec<String>> {
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
pub(super) fn template_variables(template: &str) -> Result<Vec<String>, String> {
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

/// A resource fn's parameters: what the runtime provides (checked as a tool's), and the
/// variables, checked against the URI template's `variables` (`None` when the template did not
/// parse: then only the parameters' own shape is checked).
fn fn_params<'a>(
    errors: &mut Accumulator,
    item: &'a ItemFn,
    variables: Option<&[String]>,
    krate: &syn::Path,
) -> Vec<Slot<'a>> {
    let mut slots = Vec::new();
    let method = "a resource fn is a free fn, not a method";
    valid::each_param(errors, item, krate, method, |errors, param| match param {
        FnParam::Provided(provided) => slots.push(Slot::Runtime(provided)),
        FnParam::Given(typed) => {
            slots.extend(template_param(errors, typed, variables).map(Slot::Template));
        }
    });
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

/// A parameter the client gives: a variable of the URI template, named after it.
fn template_param<'a>(
    errors: &mut Accumulator,
    typed: &'a syn::PatType,
    variables: Option<&[String]>,
) -> Option<TemplateParam<'a>> {
    let Pat::Ident(pat) = &*typed.pat else {
        errors.push(
            Error::custom("name this parameter after a variable of the URI template")
                .with_span(&typed.pat),
        );
        return None;
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
    Some(TemplateParam {
        variable: name,
        ident: &pat.ident,
        ty: &typed.ty,
    })
}
