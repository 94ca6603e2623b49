//! The tasks extension (`io.modelcontextprotocol/tasks`) at the wire: a task tool's call answered
//! with a task, polled to its result or error, its questions answered through `tasks/update`, its
//! cancellation seen by the tool; the extension negotiated per request (legacy clients never get
//! a task), tasks owned by their principal, dropped after their TTL, capped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use futures_util::future::BoxFuture;
use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::hook::{CallOutcome, Next, ToolCall};
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::task::{MemoryTaskStore, TaskRecord, TaskStore, TaskStoreError, TaskSupport};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::tool::Tool;
use mcp_toolbelt::{CallToolResult, Context, Server, ToolError, tool};
use mcp_toolbelt_tests::http::{modern_headers, modern_request, post, send};
use mcp_toolbelt_tests::in_process::InProcess;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Doubles a number, at once
#[tool(task = "required")]
async fn double(
    /// The number
    n: i64,
) -> String {
    (n * 2).to_string()
}

/// Returns the text it is given
#[tool(task)]
async fn echo_text(
    /// The text
    text: String,
) -> String {
    text
}

/// Waits the given milliseconds, then answers
#[tool(task)]
async fn wait_ms(ctx: Context, ms: u64) -> Result<String, ToolError> {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => Ok(format!("waited {ms} ms")),
        () = ctx.cancelled() => Err(ToolError::new("cancelled")),
    }
}

/// Fails as a tool fails: an error result
#[tool(task = "required")]
async fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("no such file"))
}

/// Panics
#[tool(task = "required")]
async fn explode() -> String {
    panic!("the reactor melted")
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Whether to go on
    confirm: bool,
}

/// Asks before it deletes
#[tool(task = "required")]
async fn delete_all(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .question("sure")
        .elicit::<Confirm>("Delete everything?")
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(match answer {
        Elicitation::Accept(Confirm { confirm: true }) => "deleted".into(),
        _ => "kept".into(),
    })
}

/// Waits, asks, and waits again before it deletes
#[tool(task = "required")]
async fn ask_slowly(ctx: Context) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer = delete_all(ctx).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    answer
}

/// Asks two questions at once
#[tool(task = "required")]
async fn two_at_once(ctx: Context) -> Result<String, ToolError> {
    let (first, second) = tokio::join!(
        ctx.question("first").elicit::<Confirm>("First?"),
        ctx.question("second").elicit::<Confirm>("Second?"),
    );
    let yes = |answer: Result<Elicitation<Confirm>, _>| {
        matches!(answer, Ok(Elicitation::Accept(Confirm { confirm: true })))
    };
    Ok(format!("{},{}", yes(first), yes(second)))
}

/// Asks the same question twice
#[tool(task)]
async fn confirm_twice(ctx: Context) -> Result<String, ToolError> {
    let mut answers = Vec::new();
    for _ in 0..2 {
        let answer = ctx
            .question("sure")
            .elicit::<Confirm>("Sure?")
            .await
            .map_err(|error| ToolError::new(error.to_string()))?;
        answers.push(matches!(answer, Elicitation::Accept(Confirm { confirm: true })).to_string());
    }
    Ok(answers.join(","))
}

/// Runs until cancelled
#[tool(task = "required")]
async fn until_cancelled(ctx: Context) -> String {
    ctx.cancelled().await;
    "stopped".into()
}

/// Never returns, and ignores its cancellation
#[tool(task = "required")]
async fn hang() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Whether `import_rows` has started, and whether it may return.
static IMPORT_STARTED: AtomicBool = AtomicBool::new(false);
static IMPORT_RELEASED: AtomicBool = AtomicBool::new(false);

/// Imports rows on a blocking thread, until released; it cannot be stopped midway
#[tool(task = "required")]
fn import_rows() -> String {
    IMPORT_STARTED.store(true, Ordering::SeqCst);
    let mut rows = 0;
    while !IMPORT_RELEASED.load(Ordering::SeqCst) {
        rows += 1;
        std::thread::sleep(Duration::from_millis(1));
    }
    format!("{rows} rows")
}

/// The `_meta` of a 2026-07-28 request; `tasks`: whether it declares the extension.
fn meta(tasks: bool) -> Value {
    let mut capabilities = json!({"elicitation": {}});
    if tasks {
        capabilities["extensions"] = json!({EXTENSION: {}});
    }
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

async fn call(client: &TestClient, name: &str, arguments: Value, tasks: bool) -> Value {
    client
        .request(
            "tools/call",
            json!({"name": name, "arguments": arguments, "_meta": meta(tasks)}),
        )
        .await
}

async fn task_request(client: &TestClient, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = meta(true);
    client.request(method, params).await
}

/// The task a call created: its id, after checking the `CreateTaskResult`'s shape.
fn created(response: &Value) -> String {
    let result = &response["result"];
    assert_eq!(result["resultType"], "task", "{response}");
    assert_eq!(result["status"], "working", "{response}");
    for field in ["createdAt", "lastUpdatedAt"] {
        assert!(
            result[field].as_str().is_some_and(|at| at.ends_with('Z')),
            "{field}: {response}"
        );
    }
    assert!(result["ttlMs"].is_u64(), "{response}");
    assert!(result["pollIntervalMs"].is_u64(), "{response}");
    for absent in [
        "result",
        "error",
        "inputRequests",
        "requestState",
        "content",
    ] {
        assert!(result.get(absent).is_none(), "{absent}: {response}");
    }
    let id = result["taskId"].as_str().expect("a taskId").to_owned();
    assert_eq!(id.len(), 32, "128 bits in hex: {id}");
    id
}

/// Polls `tasks/get` until the task's status is `wanted` (or it is over); its `DetailedTask`.
async fn poll_until(client: &TestClient, id: &str, wanted: &str) -> Value {
    for _ in 0..100 {
        let task = task_request(client, "tasks/get", json!({"taskId": id})).await;
        let status = task["result"]["status"].as_str().unwrap_or_default();
        if status == wanted || ["completed", "failed", "cancelled"].contains(&status) {
            return task["result"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {id} never became {wanted}");
}

#[tokio::test]
async fn a_task_is_created_polled_and_completed_with_its_result_inline() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let response = call(&client, "double", json!({"n": 21}), true).await;
    let id = created(&response);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["status"], "completed");
    assert_eq!(task["resultType"], "complete");
    assert_eq!(task["taskId"], id);
    assert_eq!(task["result"]["content"][0]["text"], "42");
    assert_ne!(task["result"]["isError"], true);
    assert!(task.get("error").is_none());
}

#[tokio::test]
async fn a_tool_error_completes_the_task_and_a_panic_fails_it() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "refuse", json!({}), true).await);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["status"], "completed");
    assert_eq!(task["result"]["isError"], true);
    assert_eq!(task["result"]["content"][0]["text"], "no such file");

    let id = created(&call(&client, "explode", json!({}), true).await);
    let task = poll_until(&client, &id, "failed").await;
    assert_eq!(task["status"], "failed", "{task}");
    assert_eq!(task["error"]["code"], -32603, "{task}");
    let message = task["error"]["message"].as_str().unwrap();
    assert!(message.contains("the reactor melted"), "{message}");
    assert!(task.get("result").is_none(), "{task}");
}

#[tokio::test]
async fn a_question_makes_the_task_input_required_and_tasks_update_answers_it() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "delete_all", json!({}), true).await);
    let task = poll_until(&client, &id, "input_required").await;
    assert_eq!(task["status"], "input_required", "{task}");
    let request = &task["inputRequests"]["sure"];
    assert_eq!(request["method"], "elicitation/create", "{task}");
    assert_eq!(request["params"]["message"], "Delete everything?");
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["confirm"]["type"],
        "boolean"
    );
    // An answer to no open question is ignored; the right one resumes the tool.
    let ack = task_request(
        &client,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"other": {"action": "accept", "content": {}}}}),
    )
    .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let still = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");
    assert!(
        still["result"]["inputRequests"].get("sure").is_some(),
        "{still}"
    );
    let ack = task_request(
        &client,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"sure": {"action": "accept", "content": {"confirm": true}}}}),
    )
    .await;
    assert!(ack["result"].get("status").is_none(), "an empty ack: {ack}");
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "deleted", "{task}");
    assert!(task.get("inputRequests").is_none(), "{task}");
}

#[tokio::test]
async fn an_acknowledged_partial_answer_shows_in_the_very_next_tasks_get() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "two_at_once", json!({}), true).await);
    let mut task = poll_until(&client, &id, "input_required").await;
    for _ in 0..100 {
        if task["inputRequests"]
            .as_object()
            .map_or(0, serde_json::Map::len)
            == 2
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        task = task_request(&client, "tasks/get", json!({"taskId": id})).await["result"].clone();
    }
    assert_eq!(
        task["inputRequests"].as_object().unwrap().len(),
        2,
        "{task}"
    );
    let yes = json!({"action": "accept", "content": {"confirm": true}});
    task_request(
        &client,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"first": yes}}),
    )
    .await;
    // No wait: the acknowledged answer is gone from the very next read, the other one open.
    let now = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(now["result"]["status"], "input_required", "{now}");
    let open: Vec<&String> = now["result"]["inputRequests"]
        .as_object()
        .map(|open| open.keys().collect())
        .unwrap_or_default();
    assert_eq!(open, ["second"], "{now}");
    task_request(
        &client,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"second": yes}}),
    )
    .await;
    let now = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_ne!(now["result"]["status"], "input_required", "{now}");
    let done = poll_until(&client, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "true,true", "{done}");
}

#[tokio::test]
async fn a_question_key_asked_again_is_a_new_question_in_a_task_and_works_outside_one() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "confirm_twice", json!({}), true).await);
    for (key, confirm) in [("sure", true), ("sure-2", false)] {
        let task = poll_until(&client, &id, "input_required").await;
        assert_eq!(task["status"], "input_required", "{task}");
        let asked: Vec<&String> = task["inputRequests"].as_object().unwrap().keys().collect();
        assert_eq!(asked, [key], "{task}");
        let answer = json!({key: {"action": "accept", "content": {"confirm": confirm}}});
        let ack = task_request(
            &client,
            "tasks/update",
            json!({"taskId": id, "inputResponses": answer}),
        )
        .await;
        assert!(ack["result"].is_object(), "{ack}");
        // Answered: the next poll sees the next question, or the result.
        for _ in 0..100 {
            let now = task_request(&client, "tasks/get", json!({"taskId": id})).await;
            if now["result"]["inputRequests"].get(key).is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "true,false", "{task}");
    // Not a task (no extension): the round asks it once, and both asks read its answer.
    let first = call(&client, "confirm_twice", json!({}), false).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let retry = client
        .request(
            "tools/call",
            json!({
                "name": "confirm_twice",
                "arguments": {},
                "inputResponses": {"sure": {"action": "accept", "content": {"confirm": true}}},
                "requestState": first["result"]["requestState"],
                "_meta": meta(false),
            }),
        )
        .await;
    assert_eq!(
        retry["result"]["content"][0]["text"], "true,true",
        "{retry}"
    );
}

#[tokio::test]
async fn tasks_cancel_cancels_the_tools_context() {
    // This test's own tool, telling this test alone what it saw.
    let (saw, mut seen) = tokio::sync::mpsc::unbounded_channel();
    let server = Server::new("tasks", "1");
    let tool = Tool::new(
        "wait_for_cancel",
        "Runs until cancelled, and says it saw it",
        json!({"type": "object"}),
        move |_arguments, context: Context| {
            let saw = saw.clone();
            async move {
                let _ = saw.send("started");
                context.cancelled().await;
                let _ = saw.send("cancelled");
                CallToolResult::text("stopped")
            }
        },
    )
    .unwrap()
    .task_support(TaskSupport::Required);
    server.tools().add(tool).unwrap();
    let client = TestClient::new(server);
    let id = created(&call(&client, "wait_for_cancel", json!({}), true).await);
    assert_eq!(seen.recv().await, Some("started"));
    let task = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(task["result"]["status"], "working", "{task}");
    let ack = task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(
        ack["result"],
        json!({"resultType": "complete", "_meta": ack["result"]["_meta"]})
    );
    let task = poll_until(&client, &id, "cancelled").await;
    assert_eq!(task["status"], "cancelled", "{task}");
    let saw_it = tokio::time::timeout(Duration::from_secs(1), seen.recv()).await;
    assert_eq!(
        saw_it,
        Ok(Some("cancelled")),
        "the tool saw its context cancelled"
    );
    // Cancelling a task that is over is acknowledged the same way.
    let again = task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
}

/// Issue 40 item 6: a plain fn cannot be stopped midway, so its cancelled task stays `working`
/// past the second a cancelled tool has to return, until the fn returns, and only then is
/// `cancelled`. (Real time: a paused clock stands still while a blocking thread runs.)
#[tokio::test]
async fn a_plain_fns_cancelled_task_is_working_until_the_fn_returns() {
    /// Lets the fn return when the test ends, passed or failed: the runtime waits for it.
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            IMPORT_RELEASED.store(true, Ordering::SeqCst);
        }
    }
    let _release = Release;
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "import_rows", json!({}), true).await);
    while !IMPORT_STARTED.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let ack = task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    // Past the second a cancelled tool has to return.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let task = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(task["result"]["status"], "working", "{task}");
    assert!(
        task["result"]["statusMessage"]
            .as_str()
            .is_some_and(|message| message.contains("plain fn")),
        "{task}"
    );
    IMPORT_RELEASED.store(true, Ordering::SeqCst);
    let task = poll_until(&client, &id, "cancelled").await;
    assert_eq!(task["status"], "cancelled", "{task}");
}

#[tokio::test]
async fn a_required_task_tool_needs_the_extension_and_a_legacy_client_never_gets_a_task() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let refused = call(&client, "double", json!({"n": 1}), false).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}})
    );
    // A legacy client (2025-11-25, no `_meta`): the same refusal for a required tool …
    let legacy = client
        .request(
            "tools/call",
            json!({"name": "double", "arguments": {"n": 1}}),
        )
        .await;
    assert_eq!(legacy["error"]["code"], -32021, "{legacy}");
    // … saying what would help: declaring the extension alone cannot, at 2025-11-25.
    let message = legacy["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("2026-07-28"), "{legacy}");
    assert_eq!(
        legacy["error"]["data"]["requiredCapabilities"]["extensions"][EXTENSION],
        json!({}),
        "{legacy}"
    );
    // … and an optional one answers within its request.
    let legacy = client
        .request(
            "tools/call",
            json!({"name": "wait_ms", "arguments": {"ms": 1}}),
        )
        .await;
    assert_eq!(
        legacy["result"]["content"][0]["text"], "waited 1 ms",
        "{legacy}"
    );
    assert!(legacy["result"].get("taskId").is_none(), "{legacy}");
    // So does a 2026-07-28 call that does not declare the extension.
    let plain = call(&client, "wait_ms", json!({"ms": 1}), false).await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    // Task requests need the extension too.
    let get = client
        .request("tasks/get", json!({"taskId": "x", "_meta": meta(false)}))
        .await;
    assert_eq!(get["error"]["code"], -32021, "{get}");
}

#[tokio::test]
async fn invalid_arguments_are_refused_on_the_request_and_create_no_task() {
    let client = TestClient::new(Server::new("tasks", "1").max_tasks(1));
    let refused = call(&client, "double", json!({"n": "twenty"}), true).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("Invalid arguments for tool double") && message.contains('n'),
        "{message}"
    );
    let id = created_or_done(&call(&client, "double", json!({"n": 2}), true).await);
    assert_eq!(
        poll_until(&client, &id, "completed").await["result"]["content"][0]["text"],
        "4"
    );
}

/// Refuses `double` of 13, and fills in `n` when absent.
async fn refuse_thirteen(mut call: ToolCall, next: Next) -> CallOutcome {
    if call.name() == "double" {
        if call.arguments().and_then(|arguments| arguments.get("n")) == Some(&json!(13)) {
            return Ok(CallToolResult::error("13 is unlucky"));
        }
        call.arguments_mut().entry("n").or_insert(json!(5));
    }
    next.run(call).await
}

#[tokio::test]
async fn a_hooks_refusal_and_arguments_it_leaves_invalid_answer_the_request_and_create_no_task() {
    let client = TestClient::new(Server::new("tasks", "1").hook(refuse_thirteen));
    let refused = call(&client, "double", json!({"n": 13}), true).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(refused["result"]["content"][0]["text"], "13 is unlucky");
    assert!(refused["result"].get("taskId").is_none(), "{refused}");
    let invalid = call(&client, "double", json!({"n": "x"}), true).await;
    assert_eq!(invalid["error"]["code"], -32602, "{invalid}");
    // Arguments the hook completes are valid: a task.
    let id = created_or_done(&call(&client, "double", json!({}), true).await);
    assert_eq!(
        poll_until(&client, &id, "completed").await["result"]["content"][0]["text"],
        "10"
    );
    // Within a budget too, a required task tool refused before its fn ran is no task.
    let server = Server::new("tasks", "1")
        .hook(refuse_thirteen)
        .task_budget(Duration::from_millis(300));
    let client = TestClient::new(server);
    let refused = call(&client, "double", json!({"n": 13}), true).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(refused["result"].get("taskId").is_none(), "{refused}");
}

#[tokio::test]
async fn an_unknown_task_is_invalid_params() {
    let client = TestClient::new(Server::new("tasks", "1"));
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let response = task_request(&client, method, json!({"taskId": "no-such-task"})).await;
        assert_eq!(response["error"]["code"], -32602, "{method}: {response}");
    }
}

/// Issue 40, item 17: a legacy client has no tasks, so a `task = "required"` tool is not
/// listed to it (at any legacy version, page after page), while a 2026-07-28 client sees it
/// with what it needs (`execution.taskSupport`), the extension declared or not.
#[tokio::test]
async fn a_required_task_tool_is_not_listed_to_a_legacy_client() {
    let required = ["delete_all", "double", "explode", "refuse"];
    for version in ["2025-11-25", "2025-06-18", "2024-11-05"] {
        let server = Server::new("tasks", "1").page_size(1);
        let client = TestClient::with_protocol_version(server, version);
        let names: Vec<String> = client
            .list_tools()
            .await
            .tools
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        assert!(
            names.iter().any(|name| name == "wait_ms"),
            "{version}: {names:?}"
        );
        for name in required {
            assert!(
                !names.iter().any(|listed| listed == name),
                "{version}: {names:?}"
            );
        }
    }
    let client = TestClient::new(Server::new("tasks", "1"));
    let modern = client
        .request("tools/list", json!({"_meta": meta(false)}))
        .await;
    let names: Vec<&str> = modern["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    for name in required {
        assert!(names.contains(&name), "{modern}");
    }
}

#[tokio::test]
async fn tools_list_and_discover_show_the_task_support() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let modern = client
        .request("tools/list", json!({"_meta": meta(false)}))
        .await;
    let support = |listing: &Value, name: &str| {
        listing["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .unwrap()
            .get("execution")
            .cloned()
    };
    assert_eq!(
        support(&modern, "double"),
        Some(json!({"taskSupport": "required"}))
    );
    assert_eq!(
        support(&modern, "wait_ms"),
        Some(json!({"taskSupport": "optional"}))
    );
    let legacy = client.request("tools/list", json!({})).await;
    assert_eq!(
        support(&legacy, "wait_ms"),
        Some(json!({"taskSupport": "optional"}))
    );
    let older = TestClient::with_protocol_version(Server::new("tasks", "1"), "2025-06-18");
    let older = older.request("tools/list", json!({})).await;
    assert_eq!(
        support(&older, "wait_ms"),
        None,
        "no `execution` before 2025-11-25"
    );
    let discover = client
        .request("server/discover", json!({"_meta": meta(false)}))
        .await;
    assert_eq!(
        discover["result"]["capabilities"]["extensions"][EXTENSION],
        json!({}),
        "{discover}"
    );
}

#[tokio::test]
async fn a_finished_task_is_dropped_after_its_ttl() {
    let server = Server::new("tasks", "1")
        .task_timeout(Duration::from_millis(200))
        .task_ttl(Duration::from_millis(200));
    let client = TestClient::new(server);
    let id = created(&call(&client, "double", json!({"n": 2}), true).await);
    let task = poll_until(&client, &id, "completed").await;
    let ttl = task["ttlMs"].as_u64().unwrap();
    // From creation, fixed: the run limit plus the TTL.
    assert_eq!(ttl, 400, "ttlMs counts from creation to expiry: {task}");
    tokio::time::sleep(Duration::from_millis(ttl + 100)).await;
    let gone = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
}

#[tokio::test]
async fn a_short_ttl_keeps_finished_tasks_briefly_and_leaves_the_run_limit_at_an_hour() {
    let client = TestClient::new(Server::new("tasks", "1").task_ttl(Duration::from_mins(1)));
    let response = call(&client, "double", json!({"n": 2}), true).await;
    assert_eq!(
        response["result"]["ttlMs"], 3_660_000,
        "an hour's run limit, apart from the TTL, plus a minute: {response}"
    );
}

#[tokio::test]
async fn a_task_past_its_run_limit_is_failed_and_frees_its_place_and_its_ttl_never_grows() {
    let server = Server::new("tasks", "1")
        .task_timeout(Duration::from_millis(200))
        .task_ttl(Duration::from_mins(1))
        .max_tasks(1);
    let client = TestClient::new(server);
    let response = call(&client, "hang", json!({}), true).await;
    let id = created(&response);
    let ttl = response["result"]["ttlMs"].as_u64().unwrap();
    assert_eq!(ttl, 60_200, "the run limit plus the TTL: {response}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let working = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(working["result"]["status"], "working", "{working}");
    assert_eq!(working["result"]["ttlMs"], ttl, "ttlMs is fixed: {working}");
    // Past the limit and the second of grace, the hung tool is given up on.
    tokio::time::sleep(Duration::from_millis(1_400)).await;
    let task = task_request(&client, "tasks/get", json!({"taskId": id})).await["result"].clone();
    assert_eq!(task["status"], "failed", "{task}");
    let message = task["statusMessage"].as_str().unwrap_or_default();
    assert!(message.contains("time limit"), "{task}");
    assert_eq!(task["error"]["code"], -32603, "{task}");
    assert_eq!(task["ttlMs"], ttl, "ttlMs is fixed: {task}");
    // Its place is free again.
    let next = call(&client, "double", json!({"n": 1}), true).await;
    created_or_done(&next);
}

#[tokio::test]
async fn a_zero_ttl_is_clamped_so_a_finished_task_can_be_read() {
    let server = Server::new("tasks", "1")
        .task_ttl(Duration::ZERO)
        .task_timeout(Duration::from_secs(5));
    let client = TestClient::new(server);
    let response = call(&client, "double", json!({"n": 3}), true).await;
    assert_eq!(response["result"]["ttlMs"], 5_100, "{response}");
    let id = created_or_done(&response);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "6", "{task}");
}

#[tokio::test]
async fn past_the_task_caps_a_required_task_is_refused_and_an_optional_one_runs_inline() {
    let client = TestClient::new(Server::new("tasks", "1").max_tasks(1));
    let first = created(&call(&client, "until_cancelled", json!({}), true).await);
    let refused = call(&client, "double", json!({"n": 1}), true).await;
    assert_eq!(refused["error"]["code"], -31000, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("Too many tasks"), "{message}");
    let inline = call(&client, "wait_ms", json!({"ms": 1}), true).await;
    assert_eq!(inline["result"]["resultType"], "complete", "{inline}");
    // Its place comes back once it is cancelled…
    task_request(&client, "tasks/cancel", json!({"taskId": first})).await;
    assert_eq!(
        poll_until(&client, &first, "cancelled").await["status"],
        "cancelled"
    );
    let second = created_or_done(&call(&client, "double", json!({"n": 1}), true).await);
    // …and once it completes: a finished task holds no place.
    assert_eq!(
        poll_until(&client, &second, "completed").await["status"],
        "completed"
    );
    created_or_done(&call(&client, "double", json!({"n": 2}), true).await);
}

#[tokio::test]
async fn concurrent_task_calls_never_overrun_the_cap() {
    let client = TestClient::new(Server::new("tasks", "1").max_tasks(3));
    let calls = (0..8).map(|_| call(&client, "until_cancelled", json!({}), true));
    let answers = futures_util::future::join_all(calls).await;
    let ids: Vec<String> = answers
        .iter()
        .filter(|answer| answer["result"]["resultType"] == "task")
        .map(created)
        .collect();
    let busy = answers
        .iter()
        .filter(|answer| answer["error"]["code"] == -31000)
        .count();
    assert_eq!((ids.len(), busy), (3, 5), "{answers:?}");
    for id in &ids {
        task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    }
}

#[tokio::test]
async fn the_per_principal_cap_holds_one_principal_back_and_not_another() {
    let router = guarded(Server::new("tasks", "1").max_tasks_per_principal(1));
    let call = |id| {
        modern_request(
            id,
            "tools/call",
            json!({"name": "until_cancelled", "arguments": {}}),
            &meta(true),
        )
    };
    let alice = send_as(
        &router,
        "token-a",
        &call(1),
        "tools/call",
        "until_cancelled",
    )
    .await;
    assert_eq!(alice["result"]["resultType"], "task", "{alice}");
    let again = send_as(
        &router,
        "token-a",
        &call(2),
        "tools/call",
        "until_cancelled",
    )
    .await;
    assert_eq!(again["error"]["code"], -31000, "{again}");
    let bob = send_as(
        &router,
        "token-b",
        &call(3),
        "tools/call",
        "until_cancelled",
    )
    .await;
    assert_eq!(bob["result"]["resultType"], "task", "{bob}");
    for (token, task) in [("token-a", &alice), ("token-b", &bob)] {
        let id = task["result"]["taskId"].as_str().unwrap();
        let cancel = modern_request(4, "tasks/cancel", json!({"taskId": id}), &meta(true));
        send_as(&router, token, &cancel, "tasks/cancel", id).await;
    }
}

#[tokio::test]
async fn within_the_budget_an_optional_call_answers_inline_and_past_it_becomes_a_task() {
    let client = TestClient::new(Server::new("tasks", "1").task_budget(Duration::from_millis(300)));
    let quick = call(&client, "wait_ms", json!({"ms": 1}), true).await;
    assert_eq!(quick["result"]["resultType"], "complete", "{quick}");
    assert_eq!(quick["result"]["content"][0]["text"], "waited 1 ms");
    let slow = call(&client, "wait_ms", json!({"ms": 800}), true).await;
    let id = created(&slow);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(
        task["result"]["content"][0]["text"], "waited 800 ms",
        "{task}"
    );
    // A required tool that finishes within the budget is a task all the same, completed.
    let id = created_or_done(&call(&client, "double", json!({"n": 4}), true).await);
    assert_eq!(
        poll_until(&client, &id, "completed").await["result"]["content"][0]["text"],
        "8"
    );
}

/// The task id of a `CreateTaskResult` whose task may be over already.
fn created_or_done(response: &Value) -> String {
    assert_eq!(response["result"]["resultType"], "task", "{response}");
    response["result"]["taskId"].as_str().unwrap().to_owned()
}

/// Over HTTP with bearer auth: `token-a` and `token-b` are two users of one client.
fn guarded_router() -> Router {
    guarded(Server::new("tasks", "1"))
}

/// `server` over HTTP with bearer auth: `token-a` is alice, `token-b` bob.
fn guarded(server: Server) -> Router {
    let metadata =
        ProtectedResourceMetadata::new("http://localhost:3000/mcp", "https://auth.example.com");
    server
        .http_config(HttpConfig::new().bearer_auth(metadata, |token| async move {
            let subject = match token.as_str() {
                "token-a" => "alice",
                "token-b" => "bob",
                _ => return None,
            };
            Some(AuthInfo::new("desktop-app").subject(subject))
        }))
        .into_router()
        .expect("the tools can be served")
}

async fn send_as(router: &Router, token: &str, body: &Value, method: &str, name: &str) -> Value {
    let mut headers = modern_headers(method, Some(name));
    let bearer = format!("Bearer {token}");
    headers.push(("authorization", &bearer));
    let reply = send(router, post(body, &headers)).await;
    assert!(
        reply.status == StatusCode::OK || reply.status.is_client_error(),
        "{reply:?}"
    );
    reply.json()
}

#[tokio::test]
async fn a_task_belongs_to_its_principal_and_survives_its_http_request() {
    let router = guarded_router();
    let call = modern_request(
        1,
        "tools/call",
        json!({"name": "delete_all", "arguments": {}}),
        &meta(true),
    );
    let created = send_as(&router, "token-a", &call, "tools/call", "delete_all").await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let get = modern_request(2, "tasks/get", json!({"taskId": id}), &meta(true));
    // The HTTP request that created it is over; the task goes on, and waits for its answer.
    let mut owner = Value::Null;
    for _ in 0..100 {
        owner = send_as(&router, "token-a", &get, "tasks/get", &id).await;
        if owner["result"]["status"] == "input_required" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(owner["result"]["status"], "input_required", "{owner}");
    // Another user is told there is no such task, for every task method.
    for (method, params) in [
        ("tasks/get", json!({"taskId": id})),
        ("tasks/cancel", json!({"taskId": id})),
        (
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"sure": {"action": "accept", "content": {"confirm": true}}}}),
        ),
    ] {
        let request = modern_request(3, method, params, &meta(true));
        let foreign = send_as(&router, "token-b", &request, method, &id).await;
        assert_eq!(foreign["error"]["code"], -32602, "{method}: {foreign}");
    }
    let still = send_as(&router, "token-a", &get, "tasks/get", &id).await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");
    // The routing header must name the task.
    let wrong = send_as(&router, "token-a", &get, "tasks/get", "another-task").await;
    assert_eq!(wrong["error"]["code"], -32020, "{wrong}");
}

#[tokio::test]
async fn a_listener_hears_its_tasks_change_status_over_stdio() {
    let mut client = InProcess::start(Server::new("tasks", "1"));
    let id = start_ask_slowly(&mut client).await;
    // Without the extension, listening to tasks is refused.
    let refused = client
        .request(
            2,
            "subscriptions/listen",
            json!({"_meta": meta(false), "notifications": {"taskIds": [id]}}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    let acknowledged = listen(&mut client, json!([id, "not-a-task"])).await;
    assert_eq!(
        acknowledged["params"]["notifications"]["taskIds"],
        json!([id]),
        "only the caller's own, known tasks: {acknowledged}"
    );
    // Its state right after the acknowledgement, then each change, in order, each once.
    let heard = hear_each_state(&mut client, &id).await;
    let (asked, completed) = (&heard[1], &heard[3]);
    assert_eq!(
        asked["params"]["inputRequests"]["sure"]["method"], "elicitation/create",
        "{asked}"
    );
    assert_eq!(
        completed["params"]["result"]["content"][0]["text"], "deleted",
        "{completed}"
    );
    client.cancel(3).await;
    client.assert_alive(5).await;
}

/// A listen stream's task notifications give their place back once written, as its change
/// notifications do: with room for two, a task that changes four times is heard each time
/// (before, the third waited for a place forever: no message within 10 s).
#[tokio::test]
async fn a_listener_with_room_for_two_hears_more_than_two_task_states() {
    let mut client = InProcess::start(Server::new("tasks", "1").max_queued_messages(2));
    let id = start_ask_slowly(&mut client).await;
    let acknowledged = listen(&mut client, json!([id])).await;
    assert_eq!(
        acknowledged["params"]["notifications"]["taskIds"],
        json!([id]),
        "{acknowledged}"
    );
    hear_each_state(&mut client, &id).await;
}

/// Starts `ask_slowly` as a task (request 1): its id.
async fn start_ask_slowly(client: &mut InProcess) -> String {
    let created = client
        .request(
            1,
            "tools/call",
            json!({"name": "ask_slowly", "arguments": {}, "_meta": meta(true)}),
        )
        .await;
    created["result"]["taskId"].as_str().unwrap().to_owned()
}

/// Listens to `task_ids` (request 3, left open): the acknowledgement.
async fn listen(client: &mut InProcess, task_ids: Value) -> Value {
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
                "_meta": meta(true),
                "notifications": {"taskIds": task_ids},
            }}),
        )
        .await;
    client.next_message().await
}

/// What a listener hears of `ask_slowly`'s task `id`: each `notifications/tasks`, asserted to be
/// its four states in order, each once (`working`, `input_required`, `working`, `completed`).
/// Its question (`sure`) is answered with a confirmation (request 4).
async fn hear_each_state(client: &mut InProcess, id: &str) -> Vec<Value> {
    let heard = hear_until_completed(client, id).await;
    let statuses: Vec<&str> = heard.iter().map(|(status, _)| status.as_str()).collect();
    assert_eq!(
        statuses,
        ["working", "input_required", "working", "completed"],
        "{heard:?}"
    );
    heard.into_iter().map(|(_, message)| message).collect()
}

/// What a listener hears of task `id` until it completes: each `notifications/tasks` with the
/// status it reports. Its question (`sure`) is answered with a confirmation (request 4).
async fn hear_until_completed(client: &mut InProcess, id: &str) -> Vec<(String, Value)> {
    let mut heard: Vec<(String, Value)> = Vec::new();
    while heard.last().map(|(status, _)| status.as_str()) != Some("completed") {
        let message = client.next_message().await;
        if message.get("id").is_some() {
            continue;
        }
        let status = status_of(&message, id);
        if status == "input_required" {
            let answer = json!({"sure": {"action": "accept", "content": {"confirm": true}}});
            client
                .send(
                    &json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/update", "params": {
                        "taskId": id, "inputResponses": answer, "_meta": meta(true),
                    }}),
                )
                .await;
        }
        heard.push((status, message));
    }
    heard
}

/// The status a `notifications/tasks` of task `id` reports.
fn status_of(message: &Value, id: &str) -> String {
    assert_eq!(message["method"], "notifications/tasks", "{message}");
    assert_eq!(message["params"]["taskId"], id, "{message}");
    message["params"]["status"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_tool_built_at_run_time_runs_as_a_task_when_it_says_so() {
    let server = Server::new("tasks", "1");
    let tool = Tool::new(
        "count_rows",
        "Counts the rows of a table",
        json!({"type": "object"}),
        |_arguments, _context| async { CallToolResult::text("1200 rows") },
    )
    .unwrap()
    .task_support(TaskSupport::Required);
    server.tools().add(tool).unwrap();
    let client = TestClient::new(server);
    let listed = client
        .request("tools/list", json!({"_meta": meta(false)}))
        .await;
    let count_rows = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "count_rows")
        .cloned()
        .unwrap();
    assert_eq!(count_rows["execution"], json!({"taskSupport": "required"}));
    let id = created(&call(&client, "count_rows", json!({}), true).await);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "1200 rows");
    let refused = call(&client, "count_rows", json!({}), false).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
}

#[tokio::test]
async fn a_question_nobody_answers_fails_once_the_ttl_has_passed() {
    // A run limit past the TTL: the question's own wait ends the task, not the limit.
    let server = Server::new("tasks", "1")
        .task_ttl(Duration::from_millis(300))
        .task_timeout(Duration::from_secs(10));
    let client = TestClient::new(server);
    let id = created(&call(&client, "delete_all", json!({}), true).await);
    assert_eq!(
        poll_until(&client, &id, "input_required").await["status"],
        "input_required"
    );
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(
        task["result"]["isError"], true,
        "the tool's elicit failed: {task}"
    );
}

/// The `Server` settings of finished tasks reach the store it picks: a result past one
/// principal's byte budget is kept as `failed`, saying so, and past the count the oldest finished
/// task goes first.
#[tokio::test]
async fn finished_tasks_are_kept_within_the_servers_budgets() {
    let server = Server::new("tasks", "1")
        .max_finished_task_bytes_per_principal(10_000)
        .max_finished_tasks_per_principal(2);
    let client = TestClient::new(server);
    let text = "x".repeat(20_000);
    let large = created(&call(&client, "echo_text", json!({"text": text}), true).await);
    let task = poll_until(&client, &large, "completed").await;
    assert_eq!(task["status"], "failed", "{}", task["statusMessage"]);
    let message = task["statusMessage"].as_str().unwrap();
    assert!(message.contains("too large to keep"), "{message}");
    assert!(task.get("result").is_none(), "no result kept");
    let mut small = Vec::new();
    for _ in 0..2 {
        let id = created(&call(&client, "echo_text", json!({"text": "a"}), true).await);
        assert_eq!(
            poll_until(&client, &id, "completed").await["status"],
            "completed"
        );
        small.push(id);
    }
    let gone = task_request(&client, "tasks/get", json!({"taskId": large})).await;
    assert_eq!(
        gone["error"]["code"], -32602,
        "the oldest went first: {gone}"
    );
    for id in &small {
        let kept = task_request(&client, "tasks/get", json!({"taskId": id})).await;
        assert_eq!(kept["result"]["status"], "completed", "{kept}");
    }
}

/// A store that counts what it is given, keeping it in a `MemoryTaskStore`.
#[derive(Default)]
struct Counting {
    inner: MemoryTaskStore,
    creates: Arc<AtomicUsize>,
    puts: Arc<AtomicUsize>,
}

impl TaskStore for Counting {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        self.creates.fetch_add(1, Ordering::SeqCst);
        self.inner.create(record)
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        self.inner.get(id)
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        self.puts.fetch_add(1, Ordering::SeqCst);
        self.inner.put(record)
    }
}

#[tokio::test]
async fn tasks_are_kept_in_the_store_the_server_is_given() {
    let store = Counting::default();
    let (creates, puts) = (Arc::clone(&store.creates), Arc::clone(&store.puts));
    let client = TestClient::new(Server::new("tasks", "1").task_store(store));
    let id = created(&call(&client, "double", json!({"n": 5}), true).await);
    let task = poll_until(&client, &id, "completed").await;
    assert_eq!(task["result"]["content"][0]["text"], "10");
    assert_eq!(creates.load(Ordering::SeqCst), 1);
    assert!(
        puts.load(Ordering::SeqCst) >= 1,
        "the completion was written"
    );
}

/// A store that fails: the client is told, `-32603`, and no task runs.
struct Broken;

impl TaskStore for Broken {
    fn create(&self, _: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async { Err(TaskStoreError::new("the database is down")) })
    }

    fn get<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async { Err(TaskStoreError::new("the database is down")) })
    }

    fn put(&self, _: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async { Err(TaskStoreError::new("the database is down")) })
    }
}

#[tokio::test]
async fn a_failing_store_is_an_internal_error() {
    let client = TestClient::new(Server::new("tasks", "1").task_store(Broken));
    let refused = call(&client, "double", json!({"n": 5}), true).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("the database is down"), "{message}");
    let get = task_request(&client, "tasks/get", json!({"taskId": "abc"})).await;
    assert_eq!(get["error"]["code"], -32603, "{get}");
}
