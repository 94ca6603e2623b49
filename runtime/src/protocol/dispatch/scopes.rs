//! The check of `scopes(…)` for a request that runs user code: the item a `tools/call`,
//! `resources/read`, `prompts/get` or `completion/complete` names, the scopes it needs, and the
//! refusal of a caller whose token lacks one: the innermost layer of the middleware chain
//! (`chain.rs`), so every middleware sees the refusal. The dispatcher refuses with a JSON-RPC
//! error ([`refused`]); the HTTP transport answers that refusal ([`scope_refusal`]) with `403`
//! and the `insufficient_scope` challenge.

use serde_json::{Map, Value, json};

use super::Dispatcher;
use crate::context::AuthInfo;
use crate::jsonrpc::{ErrorObject, Method, codes};
use crate::registry::Scopes;
use crate::visibility::View;

impl Dispatcher {
    /// The scopes the item `method` names needs, when `auth` lacks one of them; `None` when the
    /// request may go on (no item named, an unknown one or one `view` hides, which its method
    /// answers as unknown, or no caller identity to check).
    pub(crate) fn insufficient_scope(
        &self,
        method: &Method,
        params: Option<&Map<String, Value>>,
        auth: Option<&AuthInfo>,
        view: &View,
    ) -> Option<Scopes> {
        let auth = auth?;
        let text = |map: &Map<String, Value>, key: &str| {
            map.get(key).and_then(Value::as_str).map(str::to_owned)
        };
        let params = params?;
        let needed = match method {
            Method::CallTool => self
                .state
                .tools
                .get_for(&text(params, "name")?, view)?
                .needed_scopes()
                .clone(),
            Method::GetPrompt => self
                .state
                .prompts
                .get_for(&text(params, "name")?, view)?
                .needed_scopes()
                .clone(),
            Method::ReadResource => {
                let uri = text(params, "uri")?;
                let listed = self.state.resources.listed().seen_through(view);
                let resource = listed
                    .get(&uri)
                    .or_else(|| listed.templates().iter().find(|t| t.serves(&uri)))?;
                resource.needed_scopes().clone()
            }
            Method::Complete => {
                let reference = params.get("ref").and_then(Value::as_object)?;
                match reference.get("type").and_then(Value::as_str)? {
                    "ref/prompt" => self
                        .state
                        .prompts
                        .get_for(&text(reference, "name")?, view)?
                        .needed_scopes()
                        .clone(),
                    "ref/resource" => self
                        .state
                        .resources
                        .listed()
                        .seen_through(view)
                        .template(&text(reference, "uri")?)?
                        .needed_scopes()
                        .clone(),
                    _ => return None,
                }
            }
            _ => return None,
        };
        (!needed.allow(Some(auth))).then_some(needed)
    }
}

impl Dispatcher {
    /// Every scope an item served now needs, sorted, each once: the protected-resource
    /// metadata's `scopes_supported`.
    #[cfg(feature = "http")]
    pub(crate) fn declared_scopes(&self) -> Vec<String> {
        let of_set = |granted: Option<(bool, Vec<String>)>| granted.map(|(_, all)| all);
        let listed = self.state.resources.listed();
        let resources = listed
            .resources()
            .iter()
            .chain(listed.templates())
            .flat_map(|resource| resource.needed_scopes().needed().to_vec());
        let mut scopes: Vec<String> =
            of_set(self.state.tools.visible_to(None, &View::default()).granted)
                .into_iter()
                .flatten()
                .chain(
                    of_set(
                        self.state
                            .prompts
                            .visible_to(None, &View::default())
                            .granted,
                    )
                    .into_iter()
                    .flatten(),
                )
                .chain(resources)
                .collect();
        scopes.sort();
        scopes.dedup();
        scopes
    }
}

/// The JSON-RPC error of a caller lacking `needed` (over HTTP, the body of the `403`).
pub(crate) fn refused(needed: &Scopes) -> ErrorObject {
    let scope = needed.needed().join(" ");
    ErrorObject::new(
        codes::INVALID_REQUEST,
        format!("Forbidden: the token lacks a scope this needs (it needs: {scope})"),
    )
    .data(json!({"error": "insufficient_scope", "scope": scope}))
}

/// The scopes a [`refused`] error names: `Some` for the scope check's refusal (or a
/// middleware's made alike), which HTTP answers with the `insufficient_scope` challenge.
#[cfg(feature = "http")]
pub(crate) fn scope_refusal(error: &ErrorObject) -> Option<Scopes> {
    let data = error.data.as_ref()?;
    if error.code != codes::INVALID_REQUEST || data.get("error")? != "insufficient_scope" {
        return None;
    }
    let scope = data.get("scope")?.as_str()?;
    Some(Scopes::new(scope.split(' ').filter(|s| !s.is_empty())))
}
