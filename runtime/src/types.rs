//! MCP wire types shared by every layer: what the registry builds and the protocol sends. A leaf
//! module: it depends on serde and `serde_json` only, so any layer may use it. Results are built
//! from these types and serialized, never written out as `json!` by hand.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a tool appears in `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// The name clients call it by.
    pub name: String,
    /// The name people see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the model reads to decide when and how to call it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments (always `type: "object"`).
    pub input_schema: Value,
    /// The JSON Schema of its `structuredContent`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// The behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
}

/// The MCP tool hints. Absent hints take the protocol's defaults (`destructiveHint` and
/// `openWorldHint` default to `true`, the others to `false`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A display title (tools' own `title` takes precedence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments does no more than calling it once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to the world outside the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

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

/// The server's name and version (`serverInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Implementation {
    pub(crate) name: String,
    pub(crate) version: String,
    /// Since 2025-06-18.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
}

/// What this server offers: tools (whose list may change) and log messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct ServerCapabilities {
    pub(crate) tools: ToolsCapability,
    pub(crate) logging: Empty,
}

impl ServerCapabilities {
    /// The capabilities of every server of this crate.
    pub(crate) const SERVED: Self = Self {
        tools: ToolsCapability { list_changed: true },
        logging: Empty {},
    };
}

/// The `tools` capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolsCapability {
    pub(crate) list_changed: bool,
}

/// `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Empty {}

/// The result of `initialize` (legacy era).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeResult<'a> {
    pub(crate) protocol_version: &'static str,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) server_info: &'a Implementation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instructions: Option<&'a str>,
}

/// The result of `server/discover` (2026-07-28).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiscoverResult<'a> {
    pub(crate) supported_versions: Vec<&'static str>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instructions: Option<&'a str>,
}
