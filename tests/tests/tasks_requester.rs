//! What the official Tasks requester (`@modelcontextprotocol/ext-tasks` 0.2.2, driven by
//! `real_tasks.rs`) needs of a task on the wire, checked in process at 2026-07-28:
//!
//! - a completed task's `result` is the `CallToolResult` the call would have answered, with its
//!   `resultType: "complete"` (2026-07-28: every result carries it; the requester's schema of a
//!   task's result requires it, and refuses the task's outcome without it);
//! - the progress a task's tool reports (`Context::progress`) is what its poller sees in the
//!   task's `statusMessage` (the extension: "progress descriptions for working"), since a task
//!   has no progress notifications.

use std::time::Duration;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, tool};
use serde_json::{Value, json};

/// Says hello, as a task
#[tool(task)]
async fn hello(name: String) -> String {
    format!("Hello, {name}!")
}

/// Reports progress, then waits to be polled
#[tool(task)]
async fn halfway(context: Context) -> String {
    context.progress(1.0, Some(2.0), Some("Halfway there"));
    tokio::time::sleep(Duration::from_secs(5)).await;
    "done".into()
}

/// The `_meta` of a 2026-07-28 request that negotiates the Tasks extension.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        }
    })
}

/// Calls `tool` and gives the created task's id.
async fn created(client: &TestClient, tool: &str, arguments: Value) -> Value {
    let answer = client
        .request(
            "tools/call",
            json!({"name": tool, "arguments": arguments, "_meta": meta()}),
        )
        .await;
    assert_eq!(answer["result"]["resultType"], "task", "a task: {answer}");
    answer["result"]["taskId"].clone()
}

/// `tasks/get` of `task_id` until `done` says so (within five seconds), the last answer.
async fn poll_until(client: &TestClient, task_id: &Value, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let answer = client
            .request("tasks/get", json!({"taskId": task_id, "_meta": meta()}))
            .await;
        if done(&answer["result"]) || tokio::time::Instant::now() >= deadline {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_completed_tasks_result_carries_its_result_type() {
    let client = TestClient::new(Server::new("tasks", "1.0.0"));
    let task_id = created(&client, "hello", json!({"name": "Ada"})).await;
    let answer = poll_until(&client, &task_id, |task| task["status"] == "completed").await;
    let result = &answer["result"]["result"];
    assert_eq!(result["content"][0]["text"], "Hello, Ada!", "{answer}");
    assert_eq!(
        result["resultType"], "complete",
        "a 2026-07-28 CallToolResult carries resultType; ext-tasks refuses one without: {answer}"
    );
}

#[tokio::test]
async fn a_tasks_progress_is_its_status_message() {
    let client = TestClient::new(Server::new("tasks", "1.0.0"));
    let task_id = created(&client, "halfway", json!({})).await;
    let answer = poll_until(&client, &task_id, |task| {
        task.get("statusMessage").is_some()
    })
    .await;
    assert_eq!(
        answer["result"]["statusMessage"], "Halfway there",
        "the tool's progress message, for the task's poller: {answer}"
    );
    assert_eq!(answer["result"]["status"], "working", "{answer}");
}
