//! [`Scopes`]: the OAuth scopes a caller's token must grant, all of them, to see a tool,
//! resource or prompt listed and to use it (`scopes(…)` on the attribute, `.scopes([…])` on the
//! builders). The check is the caller's [`AuthInfo`]'s; with no token (stdio, or HTTP without
//! auth) there is no caller to check, and every item is served (see the `tool` macro docs).

use std::sync::Arc;

use super::{ADDED_AT_RUN_TIME, ItemKind, RegistryError};
use crate::context::AuthInfo;

#[path = "../../../macros/src/scope_rules.rs"]
mod rules;

/// How the builders' scopes are written, for what their errors suggest.
const USAGE: &str = "give the scopes a caller's token needs, all of them: `.scopes([\"notes:read\"])`, `.scopes([\"notes:write\", \"notes:admin\"])`";

/// The scopes an item needs; none for most.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Scopes(Arc<[String]>);

impl Scopes {
    /// The scopes `scopes` names, each once, in order.
    pub(crate) fn new<S: Into<String>>(scopes: impl IntoIterator<Item = S>) -> Self {
        let mut kept: Vec<String> = Vec::new();
        for scope in scopes {
            let scope = scope.into();
            if !kept.contains(&scope) {
                kept.push(scope);
            }
        }
        Self(kept.into())
    }

    /// What a builder's `.scopes([…])` was given, as given (a scope given twice kept twice, for
    /// [`refused`](Self::refused) to tell).
    pub(crate) fn given<S: Into<String>>(scopes: impl IntoIterator<Item = S>) -> Self {
        Self(scopes.into_iter().map(Into::into).collect())
    }

    /// The error of the item (`kind` `name`, from `place`) when a scope of its is one no token
    /// can carry, or given twice: each checked as the attribute's `scopes(…)` checks its
    /// literals when it compiles (`macros/src/scope_rules.rs`), every one told. The builders'
    /// `.scopes([…])` are checked so when their item is added.
    pub(crate) fn refused(&self, kind: ItemKind, name: &str, place: &str) -> Option<RegistryError> {
        let each = "`.scopes([\"notes:read\", \"notes:write\"])`";
        let location = (place != ADDED_AT_RUN_TIME).then(|| place.to_owned());
        self.0
            .iter()
            .enumerate()
            .filter_map(|(at, scope)| {
                let problem = match rules::problem(scope, USAGE, each) {
                    Err(problem) => problem,
                    Ok(()) if self.0[..at].contains(scope) => "it is listed twice".to_owned(),
                    Ok(()) => return None,
                };
                Some(RegistryError::InvalidScope {
                    kind,
                    name: name.to_owned(),
                    location: location.clone(),
                    scope: scope.clone(),
                    problem,
                })
            })
            .reduce(|first, next| RegistryError::joined(Some(first), next))
    }

    /// A registration's `scopes: &[…]`.
    pub(crate) fn registered(scopes: &[&str]) -> Self {
        Self::new(scopes.iter().copied())
    }

    /// Every scope needed, in the order declared.
    pub(crate) fn needed(&self) -> &[String] {
        &self.0
    }

    /// Whether the caller may see and use the item: it needs no scope, there is no caller to
    /// check (no auth), or the caller's token grants every scope it needs.
    pub(crate) fn allow(&self, auth: Option<&AuthInfo>) -> bool {
        auth.is_none_or(|auth| self.0.iter().all(|needed| auth.scopes.contains(needed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(scopes: &[&str]) -> AuthInfo {
        let mut auth = AuthInfo::new("client");
        auth.scopes = scopes.iter().map(|&s| s.to_owned()).collect();
        auth
    }

    #[test]
    fn every_scope_is_needed() {
        let scopes = Scopes::new(["notes:write", "notes:admin", "notes:write"]);
        assert_eq!(scopes.needed(), ["notes:write", "notes:admin"]);
        assert!(!scopes.allow(Some(&token(&["notes:write"]))));
        assert!(scopes.allow(Some(&token(&["notes:admin", "x", "notes:write"]))));
        assert!(scopes.allow(None), "no caller identity: served");
        assert!(Scopes::default().allow(Some(&token(&[]))));
    }

    #[test]
    fn a_builders_scopes_are_checked_as_the_attributes_are() {
        let refused = |scopes: &[&str]| {
            Scopes::given(scopes.iter().copied())
                .refused(ItemKind::Tool, "purge", ADDED_AT_RUN_TIME)
                .map(|error| error.to_string())
        };
        assert_eq!(
            refused(&["notes:read", "https://example.com/api.read"]),
            None
        );
        assert_eq!(
            refused(&["notes read"]).unwrap(),
            "tool `purge` cannot be served: its scope \"notes read\" (`.scopes([…])`): a scope has \
             no space (a token's scopes are separated by spaces): list each one: \
             `.scopes([\"notes:read\", \"notes:write\"])`"
        );
        let both = refused(&["", "notes:read", "notes:read"]).unwrap();
        assert!(both.starts_with("2 problems"), "{both}");
        assert!(
            both.contains("its scope \"\" (`.scopes([…])`): a scope is not empty"),
            "{both}"
        );
        assert!(
            both.contains("\"notes:read\" (`.scopes([…])`): it is listed twice"),
            "{both}"
        );
        assert!(
            refused(&["é"])
                .unwrap()
                .contains("'é' cannot be in an OAuth scope")
        );
    }
}
