//! The reference tool set (`examples/catalog`), as a host sees it: its `--list-tools` output
//! against the checked-in snapshot, and every tool called over real stdio.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test -p mcp-toolbelt-tests --test catalog_snapshot` rewrites
//! `tests/snapshots/catalog-tools.json` from the current binary (through the public snapshot kit,
//! `mcp_toolbelt::testing::assert_listing_snapshot`); review the diff before committing.

use std::path::PathBuf;
use std::process::Command;

use mcp_toolbelt::testing::assert_listing_snapshot;
use mcp_toolbelt::tool::ListToolsResult;
use mcp_toolbelt_tests::example_binary;
use mcp_toolbelt_tests::stdio::StdioServer;
use serde_json::{Value, json};

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots/catalog-tools.json")
}

#[test]
fn list_tools_matches_the_snapshot() {
    let output = Command::new(example_binary("catalog"))
        .arg("--list-tools")
        .output()
        .expect("catalog runs");
    assert!(
        output.status.success(),
        "--list-tools failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listing: ListToolsResult =
        serde_json::from_slice(&output.stdout).expect("--list-tools prints a tools/list result");
    assert_listing_snapshot(&listing, snapshot_path());
}

/// The snapshot says what the design's reference tool set says: names, titles, descriptions,
/// properties and hints.
#[test]
fn the_snapshot_is_the_reference_tool_set() {
    let snapshot: Value =
        serde_json::from_str(&std::fs::read_to_string(snapshot_path()).unwrap()).unwrap();
    let tools = snapshot["tools"].as_array().unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "clear-catalog",
            "echo",
            "get-weather",
            "product-details",
            "search"
        ],
        "sorted by name"
    );
    let tool = |name: &str| tools.iter().find(|tool| tool["name"] == name).unwrap();

    let search = tool("search");
    assert_eq!(search["description"], "Search the product catalog");
    assert_eq!(
        search["inputSchema"]["properties"]["query"]["description"],
        "Substring to match against product names"
    );
    assert_eq!(search["inputSchema"]["properties"]["limit"]["maximum"], 50);
    assert_eq!(search["inputSchema"]["required"], json!(["query"]));
    assert_eq!(search["annotations"], json!({"readOnlyHint": true}));

    let details = tool("product-details");
    assert_eq!(
        details["description"],
        "Look up one product by its exact name"
    );
    assert_eq!(details["inputSchema"]["required"], json!(["name"]));
    assert_eq!(
        details["outputSchema"],
        json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
            "required": ["name", "price"]
        })
    );

    let weather = tool("get-weather");
    assert_eq!(weather["title"], "Get Weather");
    assert_eq!(weather["description"], "Get current weather for a location");
    assert_eq!(
        weather["inputSchema"]["properties"]["location"],
        json!({"type": "string", "description": "City name"})
    );
    assert_eq!(
        weather["outputSchema"],
        json!({
            "type": "object",
            "properties": {"temperatureC": {"type": "number"}, "summary": {"type": "string"}},
            "required": ["temperatureC", "summary"]
        })
    );
    // One icon at a URL, one carried in the binary as a `data:` URI.
    assert_eq!(
        weather["icons"][0],
        json!({"src": "https://example.com/icons/weather.png", "mimeType": "image/png", "sizes": ["48x48"]})
    );
    let inline = weather["icons"][1]["src"].as_str().unwrap();
    assert!(
        inline.starts_with("data:image/svg+xml;base64,PHN2Zy"),
        "{inline}"
    );
    assert_eq!(weather["icons"][1]["theme"], "light");

    let echo = tool("echo");
    assert_eq!(echo["description"], "Echo the message back");
    assert_eq!(echo["inputSchema"]["required"], json!(["message"]));

    let clear = tool("clear-catalog");
    assert_eq!(clear["title"], "Clear the catalog");
    assert_eq!(
        clear["description"],
        "Remove every product from the catalog"
    );
    assert_eq!(
        clear["inputSchema"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(
        clear["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true})
    );
}

fn text(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

fn call(server: &mut StdioServer, id: u64, name: &str, arguments: Value) -> Value {
    let response = server.request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    );
    response
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("tools/call {name} failed: {response}"))
}

#[test]
fn every_catalog_tool_over_stdio() {
    let mut server = StdioServer::spawn(&example_binary("catalog"), &[], &[]);
    let initialized = server.initialize("2025-11-25");
    assert_eq!(initialized["serverInfo"]["name"], "catalog");

    assert_eq!(
        call(&mut server, 1, "search", json!({"query": "mug"})),
        text("Travel mug\nMug rack")
    );
    assert_eq!(
        call(
            &mut server,
            2,
            "search",
            json!({"query": "MUG", "limit": 1})
        ),
        text("Travel mug")
    );
    assert_eq!(
        call(&mut server, 3, "search", json!({"query": "teapot"})),
        text("")
    );
    assert_eq!(
        call(
            &mut server,
            4,
            "search",
            json!({"query": "mug", "limit": 51})
        ),
        json!({
            "content": [{
                "type": "text",
                "text": "Input validation error: Invalid arguments for tool search: limit: must be at most 50, got 51"
            }],
            "isError": true
        })
    );

    assert_eq!(
        call(
            &mut server,
            5,
            "product-details",
            json!({"name": "Travel mug"})
        ),
        json!({
            "content": [{"type": "text", "text": r#"{"name":"Travel mug","price":24.0}"#}],
            "structuredContent": {"name": "Travel mug", "price": 24.0}
        })
    );
    assert_eq!(
        call(&mut server, 6, "product-details", json!({"name": "Teapot"})),
        json!({"content": [{"type": "text", "text": r#"No product named "Teapot" in the catalog"#}], "isError": true})
    );

    assert_eq!(
        call(&mut server, 7, "get-weather", json!({"location": "Paris"})),
        json!({
            "content": [{"type": "text", "text": r#"{"temperatureC":22.0,"summary":"Paris: partly cloudy"}"#}],
            "structuredContent": {"temperatureC": 22.0, "summary": "Paris: partly cloudy"}
        })
    );
    assert_eq!(
        call(&mut server, 8, "echo", json!({"message": "hello, catalog"})),
        text("hello, catalog")
    );
    assert_eq!(
        call(&mut server, 9, "clear-catalog", json!({})),
        text("Catalog cleared")
    );

    let response = server.request(
        10,
        "tools/call",
        json!({"name": "restock", "arguments": {}}),
    );
    assert_eq!(
        response,
        json!({"jsonrpc": "2.0", "id": 10, "error": {"code": -32602, "message": "Unknown tool: restock"}})
    );
}

#[test]
fn search_reports_progress_when_asked() {
    let mut server = StdioServer::spawn(&example_binary("catalog"), &[], &[]);
    server.initialize("2025-11-25");
    let params =
        json!({"name": "search", "arguments": {"query": "mug"}, "_meta": {"progressToken": "p1"}});
    server.send_request(1, "tools/call", params);
    let (response, before) = server.response_to(&json!(1));
    assert_eq!(response["result"], text("Travel mug\nMug rack"));
    let progress = |progress: f64, message: &str| {
        json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": "p1", "progress": progress, "total": 3.0, "message": message}
        })
    };
    assert_eq!(
        before,
        [
            progress(1.0, "scanned Espresso cup"),
            progress(2.0, "scanned Travel mug"),
            progress(3.0, "scanned Mug rack"),
        ]
    );
}
