//! A tool's result as each era writes it, on the stdio wire: written straight from its type (no
//! JSON tree built for it), it says what it said when it was built as JSON. At 2026-07-28 it
//! gains `resultType` and the server's `_meta`, merged with a `_meta` of the tool's own; older
//! versions lose what they cannot carry (`structuredContent` before 2025-06-18).

use mcp_toolbelt::{CallToolResult, Server, tool};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Map, Value, json};

/// Answers with a `_meta` of its own
#[tool]
async fn tagged() -> CallToolResult {
    let mut result = CallToolResult::text("tagged");
    let mut meta = Map::new();
    meta.insert("trace".into(), json!("t-1"));
    result.meta = Some(meta);
    result
}

/// Fails
#[tool]
async fn failing() -> CallToolResult {
    CallToolResult::error("it failed")
}

/// Answers with structured content
#[tool]
async fn structured() -> mcp_toolbelt::Json<Value> {
    mcp_toolbelt::Json(json!({"answer": 42}))
}

fn modern(name: &str) -> Value {
    json!({
        "name": name,
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }
    })
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "results", "version": "1.0.0"}})
}

async fn initialized(version: &str) -> InProcess {
    let mut client = InProcess::start(Server::new("results", "1.0.0"));
    let init = client
        .request(
            0,
            "initialize",
            json!({
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "results", "version": "1.0.0"}
            }),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], version, "{init}");
    client
}

#[tokio::test]
async fn each_era_reads_the_result_it_expects() {
    let mut client = initialized("2025-11-25").await;
    let result = |response: Value| response["result"].clone();
    assert_eq!(
        result(client.call(1, "tagged", json!({})).await),
        json!({"content": [{"type": "text", "text": "tagged"}], "_meta": {"trace": "t-1"}})
    );
    assert_eq!(
        result(client.call(2, "failing", json!({})).await),
        json!({"content": [{"type": "text", "text": "it failed"}], "isError": true})
    );
    let structured = result(client.call(3, "structured", json!({})).await);
    assert_eq!(
        structured["structuredContent"],
        json!({"result": {"answer": 42}})
    );
    // 2026-07-28 on the same connection: each request stands alone.
    let mut merged = server_info();
    merged["trace"] = json!("t-1");
    assert_eq!(
        result(client.request(4, "tools/call", modern("tagged")).await),
        json!({
            "content": [{"type": "text", "text": "tagged"}],
            "_meta": merged,
            "resultType": "complete"
        })
    );
    assert_eq!(
        result(client.request(5, "tools/call", modern("failing")).await),
        json!({
            "content": [{"type": "text", "text": "it failed"}],
            "isError": true,
            "resultType": "complete",
            "_meta": server_info()
        })
    );
    let structured = result(client.request(6, "tools/call", modern("structured")).await);
    assert_eq!(
        structured["structuredContent"],
        json!({"result": {"answer": 42}})
    );
    assert_eq!(structured["resultType"], "complete");
    assert_eq!(structured["_meta"], server_info());
}

#[tokio::test]
async fn a_version_before_structured_content_gets_none() {
    let mut client = initialized("2025-03-26").await;
    let structured = client.call(1, "structured", json!({})).await;
    assert_eq!(
        structured["result"],
        json!({"content": [{"type": "text", "text": "{\"answer\":42}"}]}),
        "{structured}"
    );
}

/// The members as written, in order, each once: the result's own, then (at 2026-07-28)
/// `resultType` and the server's `_meta`.
#[tokio::test]
async fn the_members_are_written_in_order_each_once() {
    let mut client = initialized("2025-11-25").await;
    let send = |id: i64, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    client
        .send(&send(1, json!({"name": "failing", "arguments": {}})))
        .await;
    assert_eq!(
        client.next_line().await,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"it failed"}],"isError":true}}"#
    );
    client.send(&send(2, modern("failing"))).await;
    assert_eq!(
        client.next_line().await,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"it failed"}],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"results","version":"1.0.0"}}}}"#
    );
    client.send(&send(3, modern("tagged"))).await;
    assert_eq!(
        client.next_line().await,
        r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"tagged"}],"_meta":{"trace":"t-1","io.modelcontextprotocol/serverInfo":{"name":"results","version":"1.0.0"}},"resultType":"complete"}}"#
    );
}

/// A result nested deeper than a JSON parser's usual limit (128) reaches the in-process test
/// client whole.
#[tokio::test]
async fn a_deep_result_reaches_the_test_client() {
    let client = mcp_toolbelt::testing::TestClient::new(Server::new("results", "1.0.0"));
    let result = client.call_tool("deep", json!({})).await;
    let structured = result.structured_content.expect("structured content");
    let mut value = &structured["result"];
    let mut depth = 0;
    while let Some(inner) = value.get(0) {
        value = inner;
        depth += 1;
    }
    assert_eq!(depth, 200);
}

/// Answers with an array nested 200 deep
#[tool]
async fn deep() -> mcp_toolbelt::Json<Value> {
    let mut value = json!(0);
    for _ in 0..200 {
        value = json!([value]);
    }
    mcp_toolbelt::Json(value)
}
