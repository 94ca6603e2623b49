//! The MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26): a tool names its
//! view (a `ui://` resource of MIME type `text/html;profile=mcp-app`) and who may call it, in
//! `_meta.ui`. The macro submits a [`ToolUiRegistration`] next to the tool's; here it becomes the
//! tool's `_meta`, and every named view is checked to exist before the server starts.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::resource::{Listed, Resource};
pub use super::view::VIEW_MIME_TYPE;
use super::{KeptDefinition, RegistryError, Tool};
use crate::client_capabilities::ClientCapabilities;

/// The extension's identifier, in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

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
pub(crate) fn client_declares(capabilities: &ClientCapabilities) -> bool {
    capabilities.has_extension(EXTENSION_ID)
}

/// Every tool whose view is not a registered app view, named with the URI.
pub(crate) fn check_views(tools: &[Tool], resources: &Listed) -> Result<(), RegistryError> {
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
                location: tool.place().to_owned(),
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
pub(crate) fn used(tools: &[Arc<KeptDefinition>], resources: &Listed) -> bool {
    resources.resources().iter().any(Resource::is_app_view)
        || tools.iter().any(|tool| {
            tool.head()
                .meta
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
        let error = check_views(&tools, &Listed::default()).unwrap_err();
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
        assert!(client_declares(&ClientCapabilities::from_declared(
            &json!({"extensions": {EXTENSION_ID: {}}})
        )));
        assert!(!client_declares(&ClientCapabilities::from_declared(
            &json!({"extensions": {}})
        )));
    }
}
