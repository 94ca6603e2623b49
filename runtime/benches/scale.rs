//! What grows with the tool set and what one check costs: start-up and `tools/list` with 1,000
//! tools, and validation alone (the same call against a full input schema and against a bare
//! `{"type": "object"}`: the difference is what validating the properties costs; and the
//! validator alone on the same arguments).
//!
//! `cargo bench -p mcp-toolbelt --bench scale`

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{CallToolResult, Server, tool::Tool};
use serde_json::{Value, json};
use std::time::Instant;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A tool with the catalog's `search` schema (a string, an optional bounded integer).
fn search_tool(name: String, schema: Value) -> Tool {
    Tool::new(
        name,
        "Search the product catalog",
        schema,
        |arguments, _| async move {
            CallToolResult::text(arguments["query"].as_str().unwrap_or_default().to_owned())
        },
    )
    .expect("an object schema")
}

fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Substring to match against product names"},
            "limit": {"type": ["integer", "null"], "minimum": 0, "maximum": 50, "description": "Maximum number of results (default 10)"},
        },
        "required": ["query"],
        "additionalProperties": false,
    })
}

/// A server with `count` tools added at run time (besides the bench's own `#[tool]`s).
fn server_with(count: usize) -> Server {
    let server = Server::new("scale", "1.0.0");
    for index in 0..count {
        server
            .tools()
            .add(search_tool(format!("search-{index:04}"), search_schema()))
            .expect("distinct names");
    }
    server
}

fn scale(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");

    c.bench_function("start-up with 1,000 tools, to the first answer", |b| {
        b.to_async(&runtime).iter(|| async {
            let client = TestClient::new(server_with(1_000));
            client.request("ping", json!({})).await
        });
    });

    let thousand = TestClient::new(server_with(1_000).page_size(1_000));
    c.bench_function("tools/list of 1,000 tools (one page)", |b| {
        b.to_async(&runtime)
            .iter(|| thousand.request("tools/list", json!({})));
    });

    // The same listing as bytes on the wire, through the stdio framing over an in-memory pipe:
    // what a host receives, without the test client's conversion back into a `Value`.
    let (mut requests, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, replies) = tokio::io::duplex(1 << 22);
    runtime.spawn(
        server_with(1_000)
            .page_size(1_000)
            .serve_io(server_input, server_output),
    );
    let mut replies = BufReader::new(replies);
    let mut line = String::new();
    let list = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
    c.bench_function(
        "tools/list of 1,000 tools (one page), as stdio bytes",
        |b| {
            b.iter_custom(|iterations| {
                runtime.block_on(async {
                    let start = Instant::now();
                    for _ in 0..iterations {
                        requests.write_all(list).await.expect("the server reads");
                        line.clear();
                        replies
                            .read_line(&mut line)
                            .await
                            .expect("the server answers");
                        assert!(
                            line.len() > 100_000,
                            "the whole listing: {} bytes",
                            line.len()
                        );
                    }
                    start.elapsed()
                })
            });
        },
    );

    let server = Server::new("validation", "1.0.0");
    server
        .tools()
        .add(search_tool("checked".into(), search_schema()))
        .expect("a fresh name");
    server
        .tools()
        .add(search_tool("unchecked".into(), json!({"type": "object"})))
        .expect("a fresh name");
    let client = TestClient::new(server);
    let arguments = json!({"query": "mug", "limit": 5});
    for tool in ["checked", "unchecked"] {
        c.bench_function(
            &format!("tools/call {tool} (validation alone is the difference)"),
            |b| {
                b.to_async(&runtime).iter(|| {
                    client.request("tools/call", json!({"name": tool, "arguments": arguments}))
                });
            },
        );
    }

    // The validator alone on the same arguments: the schema compiled as the runtime compiles an
    // input schema (`validate::SchemaValidator::for_input`: formats checked), a valid instance
    // decided by `is_valid`, as every call decides it.
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&search_schema())
        .expect("a valid schema");
    assert!(validator.is_valid(&arguments));
    c.bench_function("the search schema's validator alone (is_valid)", |b| {
        b.iter(|| validator.is_valid(std::hint::black_box(&arguments)));
    });
}

criterion_group!(benches, scale);
criterion_main!(benches);
