//! The MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26): a tool names its
//! view (a `ui://` resource of MIME type `text/html;profile=mcp-app`) and who may call it, in
//! `_meta.ui`. The macro submits a [`ToolUiRegistration`] next to the tool's; here it becomes the
//! tool's `_meta`, and every named view is checked to exist before the server starts.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::resource::{Resource, ResourceSet};
use super::{RegistryError, Tool};
use crate::types::ToolDefinition;

/// The extension's identifier, in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an app view, on `resources/list` and `resources/read`.
pub const VIEW_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The deprecated flat key the official helpers still write next to `_meta.ui.resourceUri`.
const FLAT_RESOURCE_URI: &str = "ui/resourceUri";

/// What `#[tool(ui = …, visibility(…))]` submits next to the tool. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct ToolUiRegistration {
    /// The tool's MCP name.
    pub tool: &'static str,
    /// Its view, a `ui://` URI.
    pub resource_uri: Option<&'static str>,
    /// Who may call it: `"model"`, `"app"`; empty means the extension's default (both).
    pub visibility: &'static [&'static str],
}

inventory::collect!(ToolUiRegistration);

/// A view's `_meta.ui`: what the host's sandbox allows it. Not public API: `#[resource(app(…))]`
/// builds it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AppView {
    /// Origins the view may fetch from (`csp.connectDomains`).
    pub connect_domains: &'static [&'static str],
    /// Origins of scripts, styles, images (`csp.resourceDomains`).
    pub resource_domains: &'static [&'static str],
    /// Origins of nested frames (`csp.frameDomains`).
    pub frame_domains: &'static [&'static str],
    /// Allowed `<base>` URIs (`csp.baseUriDomains`).
    pub base_uri_domains: &'static [&'static str],
    /// Browser permissions: `camera`, `microphone`, `geolocation`, `clipboardWrite`.
    pub permissions: &'static [&'static str],
    /// A dedicated origin for the view.
    pub domain: Option<&'static str>,
    /// Whether the host should draw a border around it.
    pub prefers_border: Option<bool>,
}

impl AppView {
    /// `{"ui": {…}}`, with only what was set.
    pub(crate) fn meta(&self) -> Map<String, Value> {
        let mut ui = Map::new();
        let mut csp = Map::new();
        for (key, domains) in [
            ("connectDomains", self.connect_domains),
            ("resourceDomains", self.resource_domains),
            ("frameDomains", self.frame_domains),
            ("baseUriDomains", self.base_uri_domains),
        ] {
            if !domains.is_empty() {
                csp.insert(key.into(), json!(domains));
            }
        }
        if !csp.is_empty() {
            ui.insert("csp".into(), Value::Object(csp));
        }
        if !self.permissions.is_empty() {
            let permissions: Map<String, Value> = self
                .permissions
                .iter()
                .map(|permission| ((*permission).to_owned(), json!({})))
                .collect();
            ui.insert("permissions".into(), Value::Object(permissions));
        }
        if let Some(domain) = self.domain {
            ui.insert("domain".into(), json!(domain));
        }
        if let Some(prefers_border) = self.prefers_border {
            ui.insert("prefersBorder".into(), json!(prefers_border));
        }
        let mut meta = Map::new();
        meta.insert("ui".into(), Value::Object(ui));
        meta
    }
}

/// The `_meta` of a tool with a view or a visibility: `ui.resourceUri`, `ui.visibility`, and the
/// deprecated flat `ui/resourceUri`.
pub(crate) fn tool_meta(resource_uri: Option<&str>, visibility: &[&str]) -> Map<String, Value> {
    let mut ui = Map::new();
    let mut meta = Map::new();
    if let Some(uri) = resource_uri {
        ui.insert("resourceUri".into(), json!(uri));
        meta.insert(FLAT_RESOURCE_URI.into(), json!(uri));
    }
    if !visibility.is_empty() {
        ui.insert("visibility".into(), json!(visibility));
    }
    meta.insert("ui".into(), Value::Object(ui));
    meta
}

/// The collected tools with the `_meta` their `#[tool(ui = …)]` asked for.
pub(crate) fn with_ui(mut tools: Vec<Tool>) -> Vec<Tool> {
    for ui in inventory::iter::<ToolUiRegistration> {
        if let Some(tool) = tools.iter_mut().find(|tool| tool.name() == ui.tool) {
            *tool = tool.clone().meta(tool_meta(ui.resource_uri, ui.visibility));
        }
    }
    tools
}

/// Whether a client's capabilities declare the extension (legacy `capabilities.extensions`, or
/// the 2026 `_meta` client capabilities).
pub(crate) fn client_declares(capabilities: &Value) -> bool {
    capabilities
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION_ID))
        .is_some()
}

/// Every tool whose view is not a registered app view, named with the URI.
pub(crate) fn check_views(tools: &[Tool], resources: &ResourceSet) -> Result<(), RegistryError> {
    let mut problems: Vec<RegistryError> = tools
        .iter()
        .filter_map(|tool| {
            let uri = tool.view_uri()?;
            let problem = match resources.get(uri) {
                None => "no `#[resource]` has that URI",
                Some(resource) if !resource.is_app_view() => {
                    "that resource is not an app view: mark it `#[resource(uri = …, app)]`"
                }
                Some(_) => return None,
            };
            Some(RegistryError::MissingView {
                tool: tool.name().to_owned(),
                source: tool.place().to_owned(),
                uri: uri.to_owned(),
                problem: problem.to_owned(),
            })
        })
        .collect();
    match problems.len() {
        0 => Ok(()),
        1 => Err(problems.remove(0)),
        _ => Err(RegistryError::Several(problems)),
    }
}

/// Whether any tool or resource uses the extension: then the server advertises it.
pub(crate) fn used(tools: &[Arc<ToolDefinition>], resources: &ResourceSet) -> bool {
    resources.resources().iter().any(Resource::is_app_view)
        || tools.iter().any(|tool| {
            tool.meta
                .as_ref()
                .is_some_and(|meta| meta.contains_key("ui"))
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::result::CallToolResult;

    fn tool_with_view(name: &str, uri: &str) -> Tool {
        Tool::new(name, "d", json!({"type": "object"}), |_, _| async {
            CallToolResult::text("")
        })
        .unwrap()
        .meta(tool_meta(Some(uri), &[]))
    }

    /// A tool naming a view that is not registered is a start-up error naming both.
    #[test]
    fn a_missing_view_names_the_tool_and_the_uri() {
        let tools = [tool_with_view("albums", "ui://albums/view.html")];
        let error = check_views(&tools, &ResourceSet::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "tool `albums` (added at run time) names the view `ui://albums/view.html`, but no \
             `#[resource]` has that URI"
        );
    }

    #[test]
    fn the_tool_meta_has_both_keys_and_the_visibility() {
        assert_eq!(
            Value::Object(tool_meta(Some("ui://a.html"), &["app"])),
            json!({"ui": {"resourceUri": "ui://a.html", "visibility": ["app"]}, "ui/resourceUri": "ui://a.html"})
        );
        assert!(client_declares(&json!({"extensions": {EXTENSION_ID: {}}})));
        assert!(!client_declares(&json!({"extensions": {}})));
    }
}
