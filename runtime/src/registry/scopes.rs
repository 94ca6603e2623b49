//! [`Scopes`]: the OAuth scopes a caller's token must grant, all of them, to see a tool,
//! resource or prompt listed and to use it (`scopes(…)` on the attribute, `.scopes([…])` on the
//! builders). The check is the caller's [`AuthInfo`]'s; with no token (stdio, or HTTP without
//! auth) there is no caller to check, and every item is served (see the `tool` macro docs).

use std::sync::Arc;

use crate::context::AuthInfo;

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
}
