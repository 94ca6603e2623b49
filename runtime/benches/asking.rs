//! What asking the client costs at 2026-07-28, on the dispatch path every transport shares: a
//! call whose question ends the round (`input_required`, its answers so far sealed into
//! `requestState`), and the retry that opens the state and answers the question at once.
//!
//! `cargo bench -p mcp-toolbelt --bench asking`

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, ToolError, ask::Elicitation, tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead
    confirm: bool,
}

/// Asks for a confirmation
#[tool]
async fn confirm(context: Context, target: String) -> Result<String, ToolError> {
    let answer = context
        .question("confirm")
        .elicit::<Confirmation>("Go ahead?")
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(match answer {
        Elicitation::Accept(Confirmation { confirm: true }) => format!("done: {target}"),
        _ => "not done".into(),
    })
}

fn call(extra: &Value) -> Value {
    let mut params = json!({
        "name": "confirm",
        "arguments": {"target": "/tmp/x"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
        }
    });
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    params
}

fn asking(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = TestClient::new(Server::new("bench", "1.0.0"));
    let first = runtime.block_on(client.request("tools/call", call(&json!({}))));
    let state = first["result"]["requestState"].clone();
    assert!(state.is_string(), "an input_required round: {first}");
    let retry = call(&json!({
        "requestState": state,
        "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}}}
    }));
    let done = runtime.block_on(client.request("tools/call", retry.clone()));
    assert_eq!(
        done["result"]["content"][0]["text"], "done: /tmp/x",
        "{done}"
    );

    c.bench_function(
        "tools/call 2026-07-28 asks: input_required, state sealed",
        |b| {
            b.to_async(&runtime)
                .iter(|| client.request("tools/call", call(&json!({}))));
        },
    );
    c.bench_function("tools/call 2026-07-28 retry: state opened, answered", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tools/call", retry.clone()));
    });
}

criterion_group!(benches, asking);
criterion_main!(benches);
