//! Many tools cost what their definitions hold as text, not a compiled validator or a parsed
//! schema each: a server of 1,000 tools, each with an argument schema of its own (the shape of
//! `benches/many-tools`), read as an operator reads it, the process's resident size (`VmRSS`). A tool's validator is compiled at
//! its first call; each schema is still compiled once when the tool is built, so a broken one
//! is refused before serving (`validation.rs`). Run by nextest, which gives each test a
//! process of its own: nothing else runs in the process while it measures.

#![cfg(target_os = "linux")]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{CallToolResult, Server, tool::Tool};
use serde_json::{Value, json};

/// Tools measured.
const TOOLS: usize = 1_000;
/// Tools added before measuring.
const WARM: usize = 50;
/// What they may add to the process, all together. Measured in a debug build: 12.4 MiB when each
/// validator was compiled as the tool was built, 5.7 MiB with each definition's schemas kept
/// parsed, 1.7 MiB with them kept as JSON text (`registry::KeptDefinition`).
const BOUND_KIB: u64 = 3 * 1024;

/// `VmRSS` of this process, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc is readable");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status")
}

/// The input schema of tool `n`: four properties, one bounded, as schemars derives them.
fn schema(n: usize) -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": format!("The record to look up in collection {n}")},
            "limit": {
                "type": ["integer", "null"], "format": "uint32", "minimum": 1, "maximum": 100,
                "description": "Maximum number of records returned (default 10)"
            },
            "since": {"type": ["string", "null"], "description": "Only records changed since this instant (RFC 3339)"},
            "archived": {"type": "boolean", "default": false, "description": "Include archived records"}
        },
        "required": ["id"]
    })
}

#[tokio::test]
async fn a_thousand_tools_at_rest_hold_their_definitions_not_compiled_validators() {
    let server = Server::new("many", "0.0.0");
    // The first tools page in the code and the statics every tool uses (jsonschema's
    // meta-schema validator): what one tool costs is measured past them.
    let mut before = 0;
    for n in 0..TOOLS + WARM {
        if n == WARM {
            before = resident_kib();
        }
        let tool = Tool::new(
            format!("collection-{n:04}"),
            format!("Look up records in collection {n}"),
            schema(n),
            |arguments, _| async move { CallToolResult::text(arguments["id"].to_string()) },
        )
        .expect("a valid schema");
        server.tools().add(tool).expect("a new name");
    }
    let grown = resident_kib().saturating_sub(before);
    assert!(
        grown < BOUND_KIB,
        "{TOOLS} tools at rest grew the process by {grown} KiB (bound {BOUND_KIB} KiB)"
    );

    // Listed as given: the schema kept as text is the one the tool was built with.
    let client = TestClient::new(server);
    let listed = client.list_tools().await;
    let tool = listed
        .tools
        .iter()
        .find(|tool| tool.name == "collection-0042");
    assert_eq!(tool.map(|tool| &tool.input_schema), Some(&schema(42)));

    // Compiled at its first call, a validator checks as it did.
    let refused = client
        .call_tool("collection-0042", json!({"id": "a", "limit": 0}))
        .await;
    assert!(refused.is_error, "{refused:?}");
    assert_eq!(
        refused.text_content(),
        "Input validation error: Invalid arguments for tool collection-0042: limit: must be at least 1, got 0"
    );
    let answered = client
        .call_tool("collection-0042", json!({"id": "a", "limit": 5}))
        .await;
    assert_eq!(answered.text_content(), "\"a\"");
}
