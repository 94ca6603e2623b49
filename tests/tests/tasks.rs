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

static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// Runs until cancelled, and says it saw it
#[tool(task = "required")]
async fn until_cancelled(ctx: Context) -> String {
    ctx.cancelled().await;
    SAW_CANCEL.store(true, Ordering::SeqCst);
    "stopped".into()
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
    assert_eq!(
        poll_until(&client, &id, "input_required").await["status"],
        "input_required"
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
async fn tasks_cancel_cancels_the_tools_context() {
    let client = TestClient::new(Server::new("tasks", "1"));
    let id = created(&call(&client, "until_cancelled", json!({}), true).await);
    assert_eq!(
        poll_until(&client, &id, "working").await["status"],
        "working"
    );
    let ack = task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(
        ack["result"],
        json!({"resultType": "complete", "_meta": ack["result"]["_meta"]})
    );
    let task = poll_until(&client, &id, "cancelled").await;
    assert_eq!(task["status"], "cancelled");
    assert!(
        SAW_CANCEL.load(Ordering::SeqCst),
        "the tool saw its context cancelled"
    );
    // Cancelling a task that is over is acknowledged the same way.
    let again = task_request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
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
async fn an_unknown_task_is_invalid_params() {
    let client = TestClient::new(Server::new("tasks", "1"));
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let response = task_request(&client, method, json!({"taskId": "no-such-task"})).await;
        assert_eq!(response["error"]["code"], -32602, "{method}: {response}");
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
    let client = TestClient::new(Server::new("tasks", "1").task_ttl(Duration::from_millis(200)));
    let id = created(&call(&client, "double", json!({"n": 2}), true).await);
    let task = poll_until(&client, &id, "completed").await;
    let ttl = task["ttlMs"].as_u64().unwrap();
    assert!(
        (200..1000).contains(&ttl),
        "ttlMs counts from creation to expiry: {ttl}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let gone = task_request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
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
    task_request(&client, "tasks/cancel", json!({"taskId": first})).await;
    poll_until(&client, &first, "cancelled").await;
    let per_principal = TestClient::new(Server::new("tasks", "1").max_tasks_per_principal(1));
    let first = created(&call(&per_principal, "until_cancelled", json!({}), true).await);
    let refused = call(&per_principal, "double", json!({"n": 1}), true).await;
    assert_eq!(refused["error"]["code"], -31000, "{refused}");
    task_request(&per_principal, "tasks/cancel", json!({"taskId": first})).await;
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
    let metadata =
        ProtectedResourceMetadata::new("http://localhost:3000/mcp", "https://auth.example.com");
    Server::new("tasks", "1")
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
    let created = client
        .request(
            1,
            "tools/call",
            json!({"name": "delete_all", "arguments": {}, "_meta": meta(true)}),
        )
        .await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    // Its question is asked (an answer to a question not asked yet would be ignored).
    let get = json!({"taskId": id, "_meta": meta(true)});
    for attempt in 10.. {
        let task = client.request(attempt, "tasks/get", get.clone()).await;
        if task["result"]["status"] == "input_required" {
            break;
        }
        assert!(attempt < 200, "never input_required: {task}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Without the extension, listening to tasks is refused.
    let refused = client
        .request(
            2,
            "subscriptions/listen",
            json!({"_meta": meta(false), "notifications": {"taskIds": [id]}}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
                "_meta": meta(true),
                "notifications": {"taskIds": [id, "not-a-task"]},
            }}),
        )
        .await;
    let acknowledged = client.next_message().await;
    assert_eq!(
        acknowledged["params"]["notifications"]["taskIds"],
        json!([id]),
        "only the caller's own, known tasks: {acknowledged}"
    );
    let answer = json!({"sure": {"action": "accept", "content": {"confirm": false}}});
    let mut statuses = Vec::new();
    let mut answered = false;
    while statuses.last().map(String::as_str) != Some("completed") {
        if !answered {
            let ack = client
                .request(
                    4,
                    "tasks/update",
                    json!({"taskId": id, "inputResponses": answer, "_meta": meta(true)}),
                )
                .await;
            if ack.get("id") == Some(&json!(4)) {
                answered = true;
                continue;
            }
            // A notification came before the acknowledgement.
            statuses.push(status_of(&ack, &id));
            answered = true;
            continue;
        }
        let message = client.next_message().await;
        if message.get("id").is_some() {
            continue;
        }
        statuses.push(status_of(&message, &id));
    }
    assert_eq!(statuses.last().unwrap(), "completed", "{statuses:?}");
    client.cancel(3).await;
    client.assert_alive(5).await;
}

/// The status a `notifications/tasks` of task `id` reports.
fn status_of(message: &Value, id: &str) -> String {
    assert_eq!(message["method"], "notifications/tasks", "{message}");
    assert_eq!(message["params"]["taskId"], id, "{message}");
    if message["params"]["status"] == "completed" {
        assert_eq!(message["params"]["result"]["content"][0]["text"], "kept");
    }
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
    let client = TestClient::new(Server::new("tasks", "1").task_ttl(Duration::from_millis(300)));
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
        Box::pin(async { Err(TaskStoreError("the database is down".into())) })
    }

    fn get<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async { Err(TaskStoreError("the database is down".into())) })
    }

    fn put(&self, _: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async { Err(TaskStoreError("the database is down".into())) })
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
