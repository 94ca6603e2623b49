//! The `scopes("notes:read", …)` key every attribute shares (`#[tool]`, `#[resource]`,
//! `#[prompt]`): the OAuth scopes a caller's token must grant, all of them, to see the item in a
//! listing and to use it. Each scope is checked here, at its literal, by RFC 6749's rule (§3.3:
//! printable ASCII, no space, `"` or `\`), since a scope a token can never carry would lock the
//! item for good.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{LitStr, Meta};

/// The usage every error of the key repeats.
const USAGE: &str = "write the scopes a caller's token needs, all of them: `scopes(\"notes:read\")`, `scopes(\"notes:write\", \"notes:admin\")`";

/// `scopes("a", "b")`: one or more scope strings, each a valid OAuth scope, none twice.
pub(crate) fn scopes(meta: &Meta) -> darling::Result<Vec<LitStr>> {
    crate::string_list::parse(meta, USAGE, problem, |scope| {
        format!("the scope {scope:?} is listed twice")
    })
}

/// What is wrong with `scope` as an OAuth scope token, if anything.
fn problem(scope: &str) -> Result<(), String> {
    if scope.is_empty() {
        return Err(format!("a scope is not empty: {USAGE}"));
    }
    if scope.contains(' ') {
        return Err(
            "a scope has no space (a token's scopes are separated by spaces): list each one: `scopes(\"notes:read\", \"notes:write\")`"
                .to_owned(),
        );
    }
    let Some(bad) = scope
        .chars()
        .find(|&c| !matches!(c, '\u{21}' | '\u{23}'..='\u{5B}' | '\u{5D}'..='\u{7E}'))
    else {
        return Ok(());
    };
    Err(format!(
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
        assert_eq!(problem("notes:read"), Ok(()));
        assert_eq!(problem("https://example.com/api.read"), Ok(()));
        assert!(problem("").is_err());
        assert!(problem("notes read").is_err());
        assert!(problem("notes\"read").is_err());
        assert!(problem("é").is_err());
    }
}
