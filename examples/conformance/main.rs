//! The fixture tools that the official MCP conformance suite (`@modelcontextprotocol/conformance`)
//! calls, written with `#[tool]`. `.ci/run` serves this over HTTP and runs the suite against it.
//!
//! ```text
//! cargo run --example conformance -- --http 127.0.0.1:3001
//! npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp
//! ```

use std::sync::OnceLock;
use std::time::Duration;

use mcp_toolbelt::{
    CallToolResult, Content, Context, LogLevel, ResourceContents, Server, Tool, ToolError,
    resource, tool,
};

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A WAV file of one silent sample (8 kHz, 8-bit mono).
const SILENT_WAV: &str = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";

/// A static text resource
#[resource(uri = "test://static-text", mime_type = "text/plain")]
static STATIC_TEXT: &str = "This is the content of the static text resource.";

/// A static binary resource (a 1×1 PNG)
#[resource(uri = "test://static-binary", mime_type = "image/png")]
static STATIC_BINARY: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x05, 0x02, 0x00, 0x5f, 0xc8, 0xf1, 0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A resource template whose `id` is substituted into the contents
#[resource(uri = "test://template/{id}/data", mime_type = "application/json")]
async fn template_data(id: String) -> String {
    serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
        .to_string()
}

/// Returns a simple text response
#[tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image
#[tool]
async fn test_image_content() -> Content {
    Content::image(RED_PIXEL_PNG, "image/png")
}

/// Returns audio
#[tool]
async fn test_audio_content() -> Content {
    Content::audio(SILENT_WAV, "audio/wav")
}

/// Returns an embedded resource
#[tool]
async fn test_embedded_resource() -> Content {
    Content::resource(
        ResourceContents::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .with_mime_type("text/plain"),
    )
}

/// Returns text, an image and an embedded resource
#[tool]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL_PNG, "image/png"),
        Content::resource(
            ResourceContents::text(
                "test://mixed-content-resource",
                r#"{"test":"data","value":123}"#,
            )
            .with_mime_type("application/json"),
        ),
    ]
}

/// Sends three log messages while it runs
#[tool]
async fn test_tool_with_logging(context: Context) -> &'static str {
    context.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.log(LogLevel::Info, "Tool execution completed");
    "Logging test completed"
}

/// Sends a log message (only when the request asked for logs)
#[tool]
async fn test_logging_tool(context: Context) -> &'static str {
    context.log(LogLevel::Info, "test_logging_tool ran");
    "Logged"
}

/// Always fails
#[tool]
async fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Reports progress 0, 50 and 100 out of 100
#[tool]
async fn test_tool_with_progress(context: Context) -> &'static str {
    context.progress(0.0, Some(100.0), None);
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.progress(50.0, Some(100.0), None);
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.progress(100.0, Some(100.0), None);
    "Progress test completed"
}

/// Runs a query in a region; a 2026-07-28 HTTP client also sends the region, priority and
/// verbosity as `Mcp-Param-*` headers, which must match the arguments (SEP-2243,
/// `http-custom-header-server-validation`)
#[tool]
async fn test_custom_headers(
    /// Where to run the query
    #[header("Region")]
    region: String,
    /// How urgent the query is
    #[header("Priority")]
    priority: i64,
    /// Whether to say more
    #[header("Verbose")]
    verbose: Option<bool>,
    /// The query (not mirrored into a header)
    query: String,
) -> String {
    let manner = if verbose == Some(true) {
        ", verbosely"
    } else {
        ""
    };
    format!("ran {query:?} in {region:?} at priority {priority}{manner}")
}

/// A tool whose input schema uses JSON Schema 2020-12 features `#[tool]` never emits
/// (`$defs` with `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`): added as a run-time tool.
fn json_schema_2020_12_tool() -> Result<Tool, mcp_toolbelt::RegistryError> {
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    Tool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        schema,
        |arguments, _| async move { CallToolResult::text(format!("Received: {arguments}")) },
    )
}

/// A tool that cannot run without the client's `sampling` capability: a client that did not
/// declare it gets `-32021` instead of a call.
fn missing_capability_tool() -> Result<Tool, mcp_toolbelt::RegistryError> {
    let schema =
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
    let tool = Tool::new(
        "test_missing_capability",
        "Needs the client's sampling capability",
        schema,
        |_, _| async { CallToolResult::text("The client declared sampling") },
    )?;
    let mut required = serde_json::Map::new();
    required.insert("sampling".into(), serde_json::json!({}));
    Ok(tool.requires_client_capabilities(required))
}

/// The server being run, for the tool that changes its tool set.
static SERVER: OnceLock<Server> = OnceLock::new();

/// Adds the tool `test_dynamic_tool`, or removes it when present, so that the tool list changes
#[tool]
async fn test_trigger_tool_change() -> Result<String, String> {
    let server = SERVER
        .get()
        .ok_or_else(|| "the server is not running".to_owned())?;
    if server.remove_tool("test_dynamic_tool") {
        return Ok("removed test_dynamic_tool".into());
    }
    let schema =
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
    let tool = Tool::new(
        "test_dynamic_tool",
        "Exists only between two calls of test_trigger_tool_change",
        schema,
        |_, _| async { CallToolResult::text("here for now") },
    );
    server
        .add_tool(tool.map_err(|error| error.to_string())?)
        .map_err(|error| error.to_string())?;
    Ok("added test_dynamic_tool".into())
}

/// The server: every `#[tool]` above and the two tools added at run time.
fn server() -> std::io::Result<Server> {
    let server = Server::new("mcp-toolbelt-conformance", env!("CARGO_PKG_VERSION"));
    let _ = SERVER.set(server.clone());
    for tool in [json_schema_2020_12_tool(), missing_capability_tool()] {
        server
            .add_tool(tool.map_err(std::io::Error::other)?)
            .map_err(std::io::Error::other)?;
    }
    Ok(server)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    server()?.run().await
}

#[cfg(test)]
mod tests {
    use mcp_toolbelt::testing::{assert_portable_for, assert_tools_snapshot};

    /// `json_schema_2020_12_tool` is the suite's 2020-12 fixture (`$schema`, `$defs`, `allOf`,
    /// `if`/`then`): only the hosts that take any 2020-12 schema take it.
    #[test]
    fn portable_to_the_hosts_that_take_full_2020_12() {
        assert_portable_for(
            &super::server().unwrap(),
            &["mcp", "openai", "local-grammar"],
        );
    }

    /// `UPDATE_SNAPSHOTS=1 cargo test -p mcp-toolbelt-examples --example conformance` rewrites it.
    #[test]
    fn tools_list_matches_the_snapshot() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/snapshots/conformance-tools.json"
        );
        assert_tools_snapshot(&super::server().unwrap(), path);
    }
}
