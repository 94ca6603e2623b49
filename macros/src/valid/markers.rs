//! The markers a parameter may carry (`#[context]`, `#[property]`, `#[header("…")]`,
//! `#[complete(…)]`) and the derives' helper attributes, told apart and checked.

use darling::Error;
use darling::error::Accumulator;
use syn::{Attribute, LitStr};

/// Whether `attr` is one of the derives' helper attributes, which `#[tool]` moves from an inline
/// parameter to the generated field.
pub(crate) fn is_field_attr(attr: &Attribute) -> bool {
    attr.path().is_ident("serde") || attr.path().is_ident("schemars")
}

/// Whether `attr` is `#[context]`, which makes a parameter the request's `Context` whatever its
/// type is called (`ctx: Ctx` after `use mcp_toolbelt::Context as Ctx`).
pub(crate) fn is_context_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("context")
}

/// Whether `attr` is `#[complete(path)]`, which names a prompt parameter's completer fn.
pub(crate) fn is_complete_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("complete")
}

/// Whether `attr` is `#[property]`, which makes a parameter one property named after it even
/// when it is a lone parameter of a type of the user's (otherwise the whole argument object).
pub(crate) fn is_property_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("property")
}

/// Whether the parameter is marked `#[property]`, checked: the marker takes nothing.
pub(super) fn property_marker(errors: &mut Accumulator, attrs: &[Attribute]) -> bool {
    let mut marked = false;
    for attr in attrs.iter().filter(|attr| is_property_marker(attr)) {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            errors.push(
                Error::custom("`#[property]` takes nothing: write `#[property]` alone")
                    .with_span(&attr.meta),
            );
        }
        marked = true;
    }
    marked
}

/// Whether `attr` is `#[header("Name")]`, which mirrors an inline parameter into the HTTP header
/// `Mcp-Param-Name` (its property's `x-mcp-header`).
pub(crate) fn is_header_marker(attr: &Attribute) -> bool {
    attr.path().is_ident("header")
}

/// The header name of a parameter's `#[header("Name")]`, checked: one attribute, one string
/// literal, an RFC 9110 token (what a header name is made of).
pub(super) fn header_name(errors: &mut Accumulator, attrs: &[Attribute]) -> Option<LitStr> {
    let mut markers = attrs.iter().filter(|attr| is_header_marker(attr));
    let first = markers.next()?;
    for again in markers {
        errors.push(
            Error::custom("a parameter travels in one header: remove this `#[header]`")
                .with_span(again.path()),
        );
    }
    let Ok(name) = first.parse_args::<LitStr>() else {
        let error = Error::custom(
            "`#[header]` takes the header's name: `#[header(\"Region\")]` also sends the argument as `Mcp-Param-Region`",
        );
        errors.push(match &first.meta {
            syn::Meta::List(list) if !list.tokens.is_empty() => error.with_span(&list.tokens),
            _ => error.with_span(first.path()),
        });
        return None;
    };
    let text = name.value();
    let is_token = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !is_token {
        errors.push(
            Error::custom(format!(
                "`{text}` cannot be a header name: use one or more letters, digits or ``!#$%&'*+-.^_`|~`` (an RFC 9110 token)"
            ))
            .with_span(&name),
        );
        return None;
    }
    Some(name)
}
