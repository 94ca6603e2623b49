//! What each protocol version can carry: newer fields are left out, newer content blocks
//! down-converted, for a client that negotiated an older version.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::result::{CallToolResult, Content};
use crate::types::ToolDefinition;

/// The result of `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// One page of tools, in name order.
    pub tools: Vec<ToolDefinition>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// Versions are dates, so they compare as strings.
fn before(version: &str, introduced: &str) -> bool {
    version < introduced
}

/// A tool as a client of `version` expects it.
pub(crate) fn tool(definition: &ToolDefinition, version: &str) -> Value {
    let mut tool = definition.clone();
    if before(version, "2025-06-18") {
        tool.title = None;
        tool.output_schema = None;
    }
    if before(version, "2025-03-26") {
        tool.annotations = None;
    }
    to_json(&tool)
}

/// A tool result as a client of `version` expects it.
pub(crate) fn call_result(mut result: CallToolResult, version: &str) -> Value {
    if before(version, "2025-06-18") {
        result.structured_content = None;
    }
    for block in &mut result.content {
        let replacement = match block {
            Content::Audio { mime_type, .. } if before(version, "2025-03-26") => {
                format!("[{mime_type} audio omitted: protocol {version} cannot carry audio]")
            }
            Content::ResourceLink {
                uri,
                name,
                description,
                ..
            } if before(version, "2025-06-18") => match description {
                Some(description) => format!("Resource {name} ({uri}): {description}"),
                None => format!("Resource {name} ({uri})"),
            },
            _ => continue,
        };
        *block = Content::text(replacement);
    }
    to_json(&result)
}

/// The server's `Implementation` (`serverInfo`) as a client of `version` expects it.
pub(crate) fn server_info(info: &Value, version: &str) -> Value {
    let mut info = info.clone();
    if before(version, "2025-06-18")
        && let Some(info) = info.as_object_mut()
    {
        info.remove("title");
    }
    info
}

/// Whether progress notifications of `version` carry a `message`.
pub(crate) fn progress_has_message(version: &str) -> bool {
    !before(version, "2025-03-26")
}

/// Serializes one of our wire types; they hold only JSON-safe data, so this cannot fail.
pub(crate) fn to_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
