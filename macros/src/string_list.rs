//! A key whose value is a list of strings, as `tags("admin", "beta")` and
//! `scopes("notes:read")` are: one or more string literals, each checked at its literal, none
//! given twice.

use darling::Error;
use syn::punctuated::Punctuated;
use syn::{LitStr, Meta, Token};

/// The literals of `meta`, a `key("a", "b")` list; `usage` is the error of anything else (no
/// list, no literal, a literal that is no string); `check` says what is wrong with one string,
/// and `twice` what to say of a string given twice.
pub(crate) fn parse(
    meta: &Meta,
    usage: &str,
    check: impl Fn(&str) -> Result<(), String>,
    twice: impl Fn(&str) -> String,
) -> darling::Result<Vec<LitStr>> {
    let Meta::List(list) = meta else {
        return Err(Error::custom(usage).with_span(meta));
    };
    let literals = list
        .parse_args_with(Punctuated::<LitStr, Token![,]>::parse_terminated)
        .map_err(|error| Error::custom(usage).with_span(&error.span()))?;
    if literals.is_empty() {
        return Err(Error::custom(usage).with_span(meta));
    }
    let mut errors = Error::accumulator();
    let mut seen: Vec<String> = Vec::new();
    for literal in &literals {
        let value = literal.value();
        if let Err(problem) = check(&value) {
            errors.push(Error::custom(problem).with_span(literal));
        } else if seen.contains(&value) {
            errors.push(Error::custom(twice(&value)).with_span(literal));
        }
        seen.push(value);
    }
    errors.finish_with(literals.into_iter().collect())
}
