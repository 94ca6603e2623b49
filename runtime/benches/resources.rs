//! What a resource read costs on the dispatch path every transport shares: a 4 KiB static view
//! (the MCP Apps case: hosts read a view before rendering it), a templated fn, and one page of
//! `resources/list`.
//!
//! `cargo bench -p mcp-toolbelt --bench resources`

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, resource};
use serde_json::json;

/// A view of about 4 KiB (a fixed copy of an early `examples/apps` view, so the figure does not
/// move when the example grows)
#[resource(uri = "ui://bench/view.html", app(prefers_border))]
static VIEW: &str = include_str!("view.html");

/// A templated resource
#[resource(uri = "bench://items/{id}")]
async fn item(id: u32) -> String {
    format!("item {id}")
}

fn reads(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = TestClient::new(Server::new("bench", "1.0.0"));
    c.bench_function("resources/read static view (4 KiB)", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("resources/read", json!({"uri": "ui://bench/view.html"})));
    });
    c.bench_function("resources/read template", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("resources/read", json!({"uri": "bench://items/42"})));
    });
    c.bench_function("resources/list", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("resources/list", json!({})));
    });
}

criterion_group!(benches, reads);
criterion_main!(benches);
