//! The `scopes("notes:read", …)` key every attribute shares (`#[tool]`, `#[resource]`,
//! `#[prompt]`): the OAuth scopes a caller's token must grant, all of them, to see the item in a
//! listing and to use it. Each scope is checked here, at its literal, by RFC 6749's rule (§3.3:
//! printable ASCII, no space, `"` or `\`), since a scope a token can never carry would lock the
//! item for good.

use darling::Error;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{LitStr, Meta};

/// The usage every error of the key repeats.
const USAGE: &str = "write the scopes a caller's token needs, all of them: `scopes(\"notes:read\")`, `scopes(\"notes:write\", \"notes:admin\")`";

/// `scopes("a", "b")`: one or more scope strings, each a valid OAuth scope, none twice.
pub(crate) fn scopes(meta: &Meta) -> darling::Result<Vec<LitStr>> {
    let Meta::List(list) = meta else {
        return Err(Error::custom(USAGE).with_span(meta));
    };
    let literals = list
        .parse_args_with(syn::punctuated::Punctuated::<LitStr, syn::Token![,]>::parse_terminated)
        .map_err(|error| Error::custom(USAGE).with_span(&error.span()))?;
    if literals.is_empty() {
        return Err(Error::custom(USAGE).with_span(meta));
    }
    let mut errors = Error::accumulator();
    let mut seen: Vec<String> = Vec::new();
    for literal in &literals {
        let scope = literal.value();
        if let Some(problem) = problem(&scope) {
            errors.push(Error::custom(problem).with_span(literal));
        } else if seen.contains(&scope) {
            errors.push(
                Error::custom(format!("the scope {scope:?} is listed twice")).with_span(literal),
            );
        }
        seen.push(scope);
    }
    errors.finish_with(literals.into_iter().collect())
}

/// What is wrong with `scope` as an OAuth scope token, if anything.
fn problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some(format!("a scope is not empty: {USAGE}"));
    }
    if scope.contains(' ') {
        return Some(
            "a scope has no space (a token's scopes are separated by spaces): list each one: `scopes(\"notes:read\", \"notes:write\")`"
                .to_owned(),
        );
    }
    let bad = scope
        .chars()
        .find(|&c| !matches!(c, '\u{21}' | '\u{23}'..='\u{5B}' | '\u{5D}'..='\u{7E}'))?;
    Some(format!(
        "{bad:?} cannot be in an OAuth scope (RFC 6749 §3.3: printable ASCII without space, `\"` or `\\`)"
    ))
}

/// The registration's `scopes: &[…]`.
pub(crate) fn registrations(scopes: &[LitStr]) -> TokenStream {
    quote!(&[#(#scopes),*])
}

#[cfg(test)]
mod tests {
    use super::problem;

    #[test]
    fn scopes_follow_rfc_6749() {
        assert_eq!(problem("notes:read"), None);
        assert_eq!(problem("https://example.com/api.read"), None);
        assert!(problem("").is_some());
        assert!(problem("notes read").is_some());
        assert!(problem("notes\"read").is_some());
        assert!(problem("é").is_some());
    }
}
