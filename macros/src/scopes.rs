//! The `scopes("notes:read", …)` key every attribute shares (`#[tool]`, `#[resource]`,
//! `#[prompt]`): the OAuth scopes a caller's token must grant, all of them, to see the item in a
//! listing and to use it. Each scope is checked here, at its literal, by RFC 6749's rule (§3.3:
//! printable ASCII, no space, `"` or `\`; `scope_rules.rs`, which the runtime's builders
//! compile too), since a scope a token can never carry would lock the item for good.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{LitStr, Meta};

#[path = "scope_rules.rs"]
mod rules;

/// The usage every error of the key repeats.
const USAGE: &str = "write the scopes a caller's token needs, all of them: `scopes(\"notes:read\")`, `scopes(\"notes:write\", \"notes:admin\")`";

/// `scopes("a", "b")`: one or more scope strings, each a valid OAuth scope, none twice.
pub(crate) fn scopes(meta: &Meta) -> darling::Result<Vec<LitStr>> {
    crate::string_list::parse(meta, USAGE, problem, |scope| {
        format!("the scope {scope:?} is listed twice")
    })
}

/// What is wrong with `scope` as an OAuth scope token, if anything (the rule both crates
/// compile, `scope_rules.rs`).
fn problem(scope: &str) -> Result<(), String> {
    rules::problem(scope, USAGE, "`scopes(\"notes:read\", \"notes:write\")`")
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
