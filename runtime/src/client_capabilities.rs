//! [`ClientCapabilities`]: what the server reads of the capabilities a client declares, kept in
//! place of the client's own tree.
//!
//! A client's `capabilities` (legacy `initialize`) or `_meta` client capabilities (2026-07-28)
//! may be any size: `experimental` alone can hold megabytes. What outlives the request (a legacy
//! session, a running task's `Context`, a session's Redis record) keeps only this: which
//! capabilities were declared, elicitation's modes, whether sampling takes tools, and the
//! extensions' names, each list bounded in count and each name in length. A leaf module: it
//! depends on `serde_json` only.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::fields::Fields as _;

/// The most capability names, and extension names, kept of one client: past them the rest are
/// not seen (a client declaring more is not one the spec describes).
pub(crate) const MAX_NAMES: usize = 32;
/// The longest capability or extension name kept, in bytes; a longer one is not seen.
pub(crate) const MAX_NAME_BYTES: usize = 128;

/// What the server reads of the capabilities a client declared: small and bounded whatever the
/// client sent (at most [`MAX_NAMES`] names of at most [`MAX_NAME_BYTES`] bytes, twice).
/// Serialized (a shared session's record) as the canonical tree it stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Value", into = "Value")]
pub(crate) struct ClientCapabilities {
    /// The capabilities declared as objects, by name (`roots`, `sampling`, `experimental`, …).
    declared: Vec<Box<str>>,
    /// `elicitation.form`, or an empty `elicitation` (forms implied, as before modes existed).
    elicits_forms: bool,
    /// `elicitation.url`.
    elicits_urls: bool,
    /// `sampling.tools`.
    samples_with_tools: bool,
    /// The extensions declared as objects (`extensions`' members), by name.
    extensions: Vec<Box<str>>,
}

impl ClientCapabilities {
    /// What the server keeps of `declared` (an object, or anything else for nothing declared).
    pub(crate) fn from_declared(declared: &Value) -> Self {
        let Some(declared) = declared.as_object() else {
            return Self::default();
        };
        let member = |name: &str| declared.field(name).and_then(Value::as_object);
        let elicitation = member("elicitation");
        let sampling = member("sampling");
        Self {
            declared: object_names(declared),
            elicits_forms: elicitation.is_some_and(|elicitation| {
                elicitation.is_empty() || elicitation.field("form").is_some()
            }),
            elicits_urls: elicitation.is_some_and(|elicitation| elicitation.field("url").is_some()),
            samples_with_tools: sampling.is_some_and(|sampling| sampling.field("tools").is_some()),
            extensions: member("extensions").map(object_names).unwrap_or_default(),
        }
    }

    /// Whether the client declared the capability `name` (an object under that name).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.declared.iter().any(|declared| &**declared == name)
    }

    /// Whether the client declared the extension `id`.
    pub(crate) fn has_extension(&self, id: &str) -> bool {
        self.extensions.iter().any(|declared| &**declared == id)
    }

    /// The capability, as the spec names it, that a question needing `capability` (and its
    /// member `sub`: elicitation's `form` or `url`, sampling's `tools`) finds undeclared, if any.
    pub(crate) fn lacks(
        &self,
        capability: &'static str,
        sub: Option<&str>,
    ) -> Option<&'static str> {
        if !self.has(capability) {
            return Some(capability);
        }
        match (capability, sub) {
            ("elicitation", Some("url")) => (!self.elicits_urls).then_some("elicitation.url"),
            ("elicitation", Some(_)) => (!self.elicits_forms).then_some("elicitation.form"),
            ("sampling", Some(_)) => (!self.samples_with_tools).then_some("sampling.tools"),
            _ => None,
        }
    }
}

/// The names of `object`'s members that are objects, as many as are kept.
fn object_names(object: &Map<String, Value>) -> Vec<Box<str>> {
    object
        .iter()
        .filter(|(name, value)| value.is_object() && name.len() <= MAX_NAME_BYTES)
        .take(MAX_NAMES)
        .map(|(name, _)| name.as_str().into())
        .collect()
}

impl From<Value> for ClientCapabilities {
    fn from(declared: Value) -> Self {
        Self::from_declared(&declared)
    }
}

impl From<ClientCapabilities> for Value {
    /// The canonical tree `capabilities` stands for: each name declared with `{}`, but for
    /// elicitation's modes, sampling's tools and the extensions.
    fn from(capabilities: ClientCapabilities) -> Self {
        let members = |names: &[&str]| -> Value {
            Value::Object(
                names
                    .iter()
                    .map(|name| ((*name).to_owned(), Value::Object(Map::new())))
                    .collect(),
            )
        };
        let mut tree = Map::new();
        for name in &capabilities.declared {
            let value = match &**name {
                "elicitation" => {
                    let mut modes = Vec::new();
                    if capabilities.elicits_forms {
                        modes.push("form");
                    }
                    if capabilities.elicits_urls {
                        modes.push("url");
                    }
                    members(&modes)
                }
                "sampling" if capabilities.samples_with_tools => members(&["tools"]),
                "extensions" => {
                    let names: Vec<&str> = capabilities.extensions.iter().map(|n| &**n).collect();
                    members(&names)
                }
                _ => members(&[]),
            };
            tree.insert(name.to_string(), value);
        }
        Value::Object(tree)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keeps_what_is_read_and_nothing_else() {
        let declared = json!({
            "elicitation": {"form": {}, "url": {}},
            "sampling": {"tools": {}, "context": {}},
            "roots": {"listChanged": true},
            "experimental": {"zeros": vec![0; 10_000]},
            "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}},
            "notAnObject": true,
        });
        let kept = ClientCapabilities::from_declared(&declared);
        assert_eq!(
            Value::from(kept.clone()),
            json!({
                "elicitation": {"form": {}, "url": {}},
                "sampling": {"tools": {}},
                "roots": {},
                "experimental": {},
                "extensions": {"io.modelcontextprotocol/ui": {}},
            })
        );
        // The canonical tree reads back as the same capabilities (a shared session's record).
        assert_eq!(ClientCapabilities::from(Value::from(kept.clone())), kept);
        assert!(kept.has("experimental") && !kept.has("notAnObject"));
        assert!(kept.has_extension("io.modelcontextprotocol/ui"));
    }

    #[test]
    fn names_are_bounded_in_count_and_length() {
        let mut declared = Map::new();
        for n in 0..10_000 {
            declared.insert(format!("capability-{n}"), json!({}));
        }
        declared.insert("x".repeat(MAX_NAME_BYTES + 1), json!({}));
        let kept = ClientCapabilities::from_declared(&Value::Object(declared.clone()));
        assert_eq!(kept.declared.len(), MAX_NAMES);
        assert!(!kept.has(&"x".repeat(MAX_NAME_BYTES + 1)));
        let extensions = ClientCapabilities::from_declared(&json!({"extensions": declared}));
        assert_eq!(extensions.extensions.len(), MAX_NAMES);
    }
}
