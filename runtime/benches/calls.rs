//! What one tool call costs on the dispatch path every transport shares: JSON-RPC request in,
//! schema validation, deserialization, the tool, result conversion, output validation, JSON out;
//! and beside it a prompt's get (arguments read from strings, the fn, messages out) and a
//! completion (known values of an enum, and a completer fn). The group `tasks` puts the Tasks
//! extension beside a plain 2026-07-28 call of the same tool: a `tools/call` answered with a
//! task (the task stored, the tool spawned), and `tasks/get` of a completed task (its result
//! inline).
//!
//! `cargo bench -p mcp-toolbelt --bench calls`

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Json, Server, prompt, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The message to send back
    message: String,
}

/// Echo the message back
#[tool]
async fn echo(args: EchoArgs) -> String {
    args.message
}

/// Echo the message back, as a task when the client speaks the Tasks extension
#[tool(task)]
async fn echo_task(args: EchoArgs) -> String {
    args.message
}

#[derive(Deserialize, JsonSchema)]
struct OrderArgs {
    /// Who orders
    customer: String,
    /// What they order
    items: Vec<Item>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Item {
    /// Product name
    name: String,
    /// How many, 1 to 100
    #[schemars(range(min = 1, max = 100))]
    quantity: u32,
}

#[derive(Serialize, JsonSchema)]
struct Order {
    customer: String,
    lines: usize,
    units: u32,
}

/// Place an order
#[tool]
async fn place_order(args: OrderArgs) -> Json<Order> {
    let units = args.items.iter().map(|item| item.quantity).sum();
    Json(Order {
        customer: args.customer,
        lines: args.items.len(),
        units,
    })
}

/// How a summary is written.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Friendly,
    Terse,
}

/// Titles that start with what was typed.
async fn titles(partial: &str, _: &CompletionContext) -> Vec<String> {
    ["Groceries", "Garden plan", "Board minutes"]
        .into_iter()
        .filter(|title| title.starts_with(partial))
        .map(str::to_owned)
        .collect()
}

/// Summarise a note
#[prompt(complete(title = titles))]
async fn summarise(
    /// The note's title
    title: String,
    /// How to write it
    tone: Option<Tone>,
    /// At most this many words
    #[serde(default)]
    words: u32,
) -> String {
    let tone = match tone {
        Some(Tone::Formal) => "formally",
        Some(Tone::Friendly) => "warmly",
        Some(Tone::Terse) | None => "briefly",
    };
    format!("Summarise {title} {tone} in {words} words")
}

fn calls(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = TestClient::new(Server::new("bench", "1.0.0"));
    let order = json!({
        "customer": "Ada",
        "items": (0..10).map(|i| json!({"name": format!("item {i}"), "quantity": i + 1})).collect::<Vec<_>>(),
    });

    c.bench_function("tools/call echo", |b| {
        b.to_async(&runtime).iter(|| {
            client.request(
                "tools/call",
                json!({"name": "echo", "arguments": {"message": "hello"}}),
            )
        });
    });
    // The same call past a rate limit's check (a limit no bench reaches): the cost of a
    // configured limiter, against the unconfigured one's above.
    let limited = TestClient::new(
        Server::new("bench", "1.0.0").rate_limit("1000000/s".parse().expect("a limit")),
    );
    c.bench_function("tools/call echo (rate limited)", |b| {
        b.to_async(&runtime).iter(|| {
            limited.request(
                "tools/call",
                json!({"name": "echo", "arguments": {"message": "hello"}}),
            )
        });
    });
    // The same call at 2026-07-28 (its `_meta` envelope read), by a client that declares no
    // extension: the server has the task tool and the prompt, as in every bench here.
    c.bench_function("tools/call echo (2026-07-28)", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tools/call", modern_call("echo", &json!({}))));
    });
    c.bench_function(
        "tools/call place_order (10 items, structured output)",
        |b| {
            b.to_async(&runtime).iter(|| {
                client.request(
                    "tools/call",
                    json!({"name": "place_order", "arguments": order}),
                )
            });
        },
    );
    c.bench_function("tools/call invalid arguments", |b| {
        b.to_async(&runtime).iter(|| {
            client.request(
                "tools/call",
                json!({"name": "place_order", "arguments": {"items": [{"quantity": 0}]}}),
            )
        });
    });
    c.bench_function("prompts/get summarise (3 arguments)", |b| {
        b.to_async(&runtime).iter(|| {
            client.request(
                "prompts/get",
                json!({"name": "summarise", "arguments": {"title": "Groceries", "tone": "terse", "words": "50"}}),
            )
        });
    });
    c.bench_function("completion/complete known values (enum)", |b| {
        b.to_async(&runtime).iter(|| {
            client.request(
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "summarise"}, "argument": {"name": "tone", "value": "f"}}),
            )
        });
    });
    c.bench_function("completion/complete completer fn", |b| {
        b.to_async(&runtime).iter(|| {
            client.request(
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "summarise"}, "argument": {"name": "title", "value": "G"}}),
            )
        });
    });
    c.bench_function("tools/list", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tools/list", json!({})));
    });
}

/// A 2026-07-28 `tools/call` of `tool` by a client that declared `capabilities`.
fn modern_call(tool: &str, capabilities: &Value) -> Value {
    json!({
        "name": tool,
        "arguments": {"message": "hello"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities
        }
    })
}

/// The capabilities of a client that declared the Tasks extension.
fn with_tasks() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
}

/// `tasks/get` of `task_id`, at 2026-07-28 with the Tasks extension.
fn task_get(task_id: &Value) -> Value {
    json!({
        "taskId": task_id,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {
                "extensions": {"io.modelcontextprotocol/tasks": {}}
            }
        }
    })
}

fn tasks(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // Tasks are created by the hundred thousand here: kept only briefly, with room for them all.
    let client = TestClient::new(
        Server::new("bench", "1.0.0")
            .task_ttl(Duration::from_secs(1))
            .max_tasks(10_000_000)
            .max_tasks_per_principal(10_000_000),
    );
    // One completed task to poll.
    let created =
        runtime.block_on(client.request("tools/call", modern_call("echo_task", &with_tasks())));
    let task_id = created["result"]["taskId"].clone();
    assert_eq!(created["result"]["resultType"], "task", "a task: {created}");
    let completed = runtime.block_on(async {
        for _ in 0..1000 {
            let got = client.request("tasks/get", task_get(&task_id)).await;
            if got["result"]["status"] == "completed" {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("the echo task did not complete within a second");
    });
    assert_eq!(
        completed["result"]["result"]["content"][0]["text"], "hello",
        "{completed}"
    );

    let mut group = c.benchmark_group("tasks");
    group.bench_function("tools/call echo (2026-07-28, answered inline)", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tools/call", modern_call("echo", &with_tasks())));
    });
    group.bench_function("tools/call echo_task (answered with a task)", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tools/call", modern_call("echo_task", &with_tasks())));
    });
    group.bench_function("tasks/get (completed, result inline)", |b| {
        b.to_async(&runtime)
            .iter(|| client.request("tasks/get", task_get(&task_id)));
    });
    group.finish();
}

criterion_group!(benches, calls, tasks);
criterion_main!(benches);
