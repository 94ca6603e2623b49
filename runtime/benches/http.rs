//! What a 2026-07-28 `tools/call` costs over Streamable HTTP, in process (no socket): admission,
//! the headers, the body, dispatch and the JSON answer; once for a tool with no header-routed
//! arguments (with and without three `Mcp-Param-*` headers it ignores) and once for the same tool
//! with three header-routed arguments (the headers checked against them).
//!
//! `cargo bench -p mcp-toolbelt --bench http`

use axum::body::{Body, to_bytes};
use axum::http::Request;
use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolbelt::{Server, tool};
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// Run a query in a region
#[tool]
async fn plain(
    /// Where
    region: String,
    /// How many rows
    limit: i64,
    /// Whether to plan only
    dry_run: bool,
    /// The query
    sql: String,
) -> String {
    format!("{sql} {region} {limit} {dry_run}")
}

/// Run a query in a region, routed on its headers
#[tool]
async fn routed(
    /// Where
    #[header("Region")]
    region: String,
    /// How many rows
    #[header("Limit")]
    limit: i64,
    /// Whether to plan only
    #[header("Dry-Run")]
    dry_run: bool,
    /// The query
    sql: String,
) -> String {
    format!("{sql} {region} {limit} {dry_run}")
}

fn call(name: &str, params: &[(&str, &str)]) -> Request<Body> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": name,
        "arguments": {"region": "us-west1", "limit": 10, "dry_run": false, "sql": "select 1"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }});
    let mut request = Request::post("/")
        .header("host", "localhost:3000")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name);
    for (header, value) in params {
        request = request.header(*header, *value);
    }
    request
        .body(Body::from(body.to_string()))
        .expect("a valid request")
}

fn http(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let router = Server::new("bench", "1.0.0")
        .into_router()
        .expect("the tools can be served");
    let answer = |request: Request<Body>| {
        runtime.block_on(async {
            let response = router.clone().oneshot(request).await.expect("an answer");
            assert!(response.status().is_success(), "{}", response.status());
            let body = to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("a body");
            let body: Value = serde_json::from_slice(&body).expect("JSON");
            assert!(body.get("result").is_some(), "{body}");
        });
    };
    c.bench_function("http tools/call, no header-routed arguments", |b| {
        b.iter(|| answer(call("plain", &[])));
    });
    let params = [
        ("mcp-param-region", "us-west1"),
        ("mcp-param-limit", "10"),
        ("mcp-param-dry-run", "false"),
    ];
    // The same headers sent to the tool that marks none: the cost of carrying them, unchecked.
    c.bench_function(
        "http tools/call, three Mcp-Param headers not checked",
        |b| {
            b.iter(|| answer(call("plain", &params)));
        },
    );
    c.bench_function("http tools/call, three Mcp-Param headers checked", |b| {
        b.iter(|| answer(call("routed", &params)));
    });
}

criterion_group!(benches, http);
criterion_main!(benches);
