//! Tasks on Redis, across replicas: the `TaskStore` contract held by both stores
//! (`MemoryTaskStore`, `RedisTaskStore`), and two servers in this process sharing one
//! `redis-server` (started here, on a free port) with `HttpConfig::redis`: a task created on
//! replica A is polled, answered (`tasks/update`), cancelled (at once, over the bus) and followed
//! (`subscriptions/listen`) through replica B; a task whose replica dies is reported `failed` by
//! B within the documented bound (the 4 s lease), and heard so by a listen stream on B. Two
//! replicas on one store but on buses of their own stand for a bus message lost: answers that
//! did not reach the running replica are not acknowledged, a cancellation still arrives.
//!
//! Each replica runs on a Tokio runtime of its own, so that "A dies" is its runtime shut down:
//! nothing of A runs any more, and nothing of it tells the others.
//!
//! Without `redis-server` the Redis tests print SKIPPED (and fail when `CI` is set).

use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime};

use axum::body::Body;
use axum::http::{StatusCode, header};
use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::redis::{Redis, RedisTaskStore};
use mcp_toolbelt::task::{FinishedCaps, MemoryTaskStore, TaskRecord, TaskStatus, TaskStore};
use mcp_toolbelt::{Context, Server, ToolError, tool};
use mcp_toolbelt_tests::http::{
    Events, connect, listening, modern_headers, modern_request, post, send_over_socket,
};
use mcp_toolbelt_tests::services::RedisServer;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How long after its replica died a task is reported `failed`: the `RedisTaskStore` lease
/// (documented), plus room for a loaded machine.
const DEATH_BOUND: Duration = Duration::from_secs(4);
const SLACK: Duration = Duration::from_millis(1500);

/// Sleeps the given milliseconds, then answers
#[tool(task = "required")]
async fn sleep_ms(ctx: Context, ms: u64) -> Result<String, ToolError> {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => Ok(format!("slept {ms} ms")),
        () = ctx.cancelled() => Err(ToolError::new("cancelled")),
    }
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

/// Runs until cancelled
#[tool(task = "required")]
async fn until_cancelled(ctx: Context) -> String {
    ctx.cancelled().await;
    "stopped".into()
}

// ---- the store contract ---------------------------------------------------------------------

/// A record as the runtime writes it (built from JSON: `TaskRecord` is non-exhaustive).
fn record(id: &str, status: &str, expires_in: Duration) -> TaskRecord {
    let now = SystemTime::now();
    serde_json::from_value(json!({
        "id": id,
        "owner": "alice",
        "status": status,
        "status_message": null,
        "created_at": now,
        "last_updated_at": now,
        "expires_at": now + expires_in,
        "poll_interval": Duration::from_secs(1),
        "input_requests": {},
        "result": null,
        "error": null,
        "lease_until": now + Duration::from_secs(4),
        "cancel_requested": false,
        "replica": "r1",
    }))
    .unwrap()
}

/// `record` changed by `change`.
fn changed(record: &TaskRecord, change: impl FnOnce(&mut TaskRecord)) -> TaskRecord {
    let mut record = record.clone();
    change(&mut record);
    record
}

/// What every `TaskStore` must do, whatever keeps the tasks.
async fn contract<S: TaskStore>(store: &S) {
    let id = format!("t{}", std::process::id());
    // Created, read back as written; an unknown id is none.
    let created = record(&id, "working", Duration::from_mins(1));
    store.create(created.clone()).await.unwrap();
    assert_eq!(store.get(&id).await.unwrap(), Some(created.clone()));
    assert_eq!(store.get("unknown").await.unwrap(), None);
    // A second create of the same id is refused, and leaves the first.
    let again = changed(&created, |record| record.owner = Some("mallory".into()));
    assert!(
        store.create(again).await.is_err(),
        "create of an existing id"
    );
    assert_eq!(store.get(&id).await.unwrap(), Some(created.clone()));
    // A put replaces it.
    let asking = changed(&created, |record| {
        record.status = TaskStatus::InputRequired;
        record.status_message = Some("asking".into());
        record.input_requests.clone_from(
            json!({"sure": {"method": "elicitation/create"}})
                .as_object()
                .unwrap(),
        );
    });
    store.put(asking.clone()).await.unwrap();
    assert_eq!(store.get(&id).await.unwrap(), Some(asking.clone()));
    // A cancellation asked (by another process) marks the task as kept, nothing else of it,
    // and survives the running process's next write, which knows nothing of it.
    assert!(store.request_cancel(&id).await.unwrap(), "the task is kept");
    let kept = store.get(&id).await.unwrap().unwrap();
    assert!(kept.cancel_requested, "{kept:?}");
    assert_eq!(
        kept,
        changed(&asking, |record| record.cancel_requested = true)
    );
    let renewed = changed(&created, |record| {
        record.status_message = Some("renewed".into());
    });
    store.put(renewed.clone()).await.unwrap();
    let kept = store.get(&id).await.unwrap().unwrap();
    assert!(kept.cancel_requested, "cancel_requested is kept: {kept:?}");
    assert_eq!(kept.status_message.as_deref(), Some("renewed"));
    assert!(
        !store.request_cancel("unknown").await.unwrap(),
        "an unknown task is not made"
    );
    assert_eq!(store.get("unknown").await.unwrap(), None);
    // Several read at once, in the order asked, an unknown one as none.
    let read = store
        .get_many(&[id.clone(), "unknown".into(), id.clone()])
        .await
        .unwrap();
    assert_eq!(read.len(), 3);
    assert_eq!(read[0].as_ref().map(|record| &record.id), Some(&id));
    assert_eq!(read[1], None);
    assert_eq!(read[0], read[2]);
    assert!(store.get_many(&[]).await.unwrap().is_empty());
    // A task over is never overwritten.
    let completed = changed(&renewed, |record| {
        record.status = TaskStatus::Completed;
        record.result = Some(json!({"content": []}));
        record.lease_until = None;
    });
    store.put(completed.clone()).await.unwrap();
    for later in [
        TaskStatus::Failed,
        TaskStatus::Working,
        TaskStatus::Cancelled,
    ] {
        store
            .put(changed(&renewed, |record| record.status = later))
            .await
            .unwrap();
    }
    let kept = store.get(&id).await.unwrap().unwrap();
    assert_eq!(kept.status, TaskStatus::Completed, "{kept:?}");
    assert_eq!(kept.result, completed.result);
    // Expiry is honoured.
    let brief = format!("{id}-brief");
    store
        .create(record(&brief, "working", Duration::from_millis(300)))
        .await
        .unwrap();
    assert!(store.get(&brief).await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(store.get(&brief).await.unwrap(), None, "expired");
}

/// A finished record of `owner` whose result is `bytes` of text, the `n`th to expire.
fn finished(id: &str, owner: &str, bytes: usize, n: u64) -> TaskRecord {
    let mut record = record(
        id,
        "completed",
        Duration::from_mins(1) + Duration::from_secs(n),
    );
    record.owner = Some(owner.into());
    record.lease_until = None;
    record.result = Some(json!({"content": [{"type": "text", "text": "x".repeat(bytes)}]}));
    record
}

/// The byte budgets [`budget_contract`] gives a store: 64 KiB of one owner's finished tasks,
/// 160 KiB of everyone's.
const OWNER_BUDGET: usize = 64 * 1024;
const ALL_BUDGET: usize = 150 * 1024;

/// What every store does with finished tasks past its byte budgets (`OWNER_BUDGET`,
/// `ALL_BUDGET`): the oldest finished go first, an owner's before anyone else's; a result too
/// large to keep at all is kept as a failure saying so; a task running is never dropped.
async fn budget_contract<S: TaskStore>(store: &S) {
    let tag = std::process::id();
    let running = format!("running-{tag}");
    store
        .create(record(&running, "working", Duration::from_secs(30)))
        .await
        .unwrap();
    // Alice's five results of 20 KB: her budget holds three.
    for n in 0..5 {
        let id = format!("alice-{n}-{tag}");
        store.put(finished(&id, "alice", 20_000, n)).await.unwrap();
    }
    for n in 0..2 {
        let id = format!("alice-{n}-{tag}");
        assert_eq!(store.get(&id).await.unwrap(), None, "{id}: the oldest go");
    }
    for n in 2..5 {
        let id = format!("alice-{n}-{tag}");
        assert!(store.get(&id).await.unwrap().is_some(), "{id} is kept");
    }
    // Bob's three: everyone's budget holds them too, alice's left alone.
    for n in 0..3 {
        let id = format!("bob-{n}-{tag}");
        store
            .put(finished(&id, "bob", 20_000, 10 + n))
            .await
            .unwrap();
    }
    let alice = format!("alice-2-{tag}");
    assert!(store.get(&alice).await.unwrap().is_some(), "{alice}");
    // Carol's two take everyone's past its budget: the oldest finished, alice's, go first.
    for n in 0..2 {
        let id = format!("carol-{n}-{tag}");
        store
            .put(finished(&id, "carol", 20_000, 20 + n))
            .await
            .unwrap();
    }
    assert_eq!(store.get(&alice).await.unwrap(), None, "{alice}");
    for id in [
        format!("bob-0-{tag}"),
        format!("carol-1-{tag}"),
        running.clone(),
    ] {
        assert!(store.get(&id).await.unwrap().is_some(), "{id} is kept");
    }
    // A result larger than one owner's whole budget is kept as a failure saying so.
    let large = format!("large-{tag}");
    store
        .put(finished(&large, "dave", OWNER_BUDGET + 1, 30))
        .await
        .unwrap();
    let kept = store.get(&large).await.unwrap().expect("the task is kept");
    assert_eq!(kept.status, TaskStatus::Failed, "{:?}", kept.status_message);
    assert_eq!(kept.result, None);
    let message = kept.status_message.clone().unwrap();
    assert!(message.contains("too large to keep"), "{message}");
    assert_eq!(kept.error.as_ref().unwrap()["code"], -32603, "{kept:?}");
    assert_eq!(kept.error.as_ref().unwrap()["message"], message.as_str());
    // Nothing else went for it.
    let bob = format!("bob-2-{tag}");
    assert!(store.get(&bob).await.unwrap().is_some(), "{bob}");
}

#[tokio::test]
async fn the_memory_store_keeps_the_store_contract() {
    contract(&MemoryTaskStore::new()).await;
    assert_eq!(MemoryTaskStore::new().lease(), None);
    budget_contract(
        &MemoryTaskStore::new().within(
            FinishedCaps::default()
                .max_bytes_per_owner(OWNER_BUDGET)
                .max_bytes(ALL_BUDGET),
        ),
    )
    .await;
}

#[tokio::test]
async fn the_redis_store_keeps_the_store_contract() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let redis = Redis::connect(&server.url())
        .await
        .unwrap()
        .prefix("contract:");
    let store = RedisTaskStore::new(&redis);
    contract(&store).await;
    assert_eq!(store.lease(), Some(DEATH_BOUND), "the documented lease");
    // A write sends its record once (before, twice: the copy with `cancel_requested` set).
    let mut long = record(
        &format!("long-{}", std::process::id()),
        "working",
        Duration::from_mins(1),
    );
    long.status_message = Some("x".repeat(1_000_000));
    store.create(long.clone()).await.unwrap();
    let before = info(&server, "stats", "total_net_input_bytes");
    store.put(long).await.unwrap();
    let sent = info(&server, "stats", "total_net_input_bytes") - before;
    assert!(sent < 1_500_000, "a 1 MB record's write sent {sent} bytes");
    let budgeted = Redis::connect(&server.url())
        .await
        .unwrap()
        .prefix("budget:");
    budget_contract(
        &RedisTaskStore::new(&budgeted).within(
            FinishedCaps::default()
                .max_bytes_per_owner(OWNER_BUDGET)
                .max_bytes(ALL_BUDGET),
        ),
    )
    .await;
    // Its records are under the prefix, with a TTL.
    let key = format!("contract:task:t{}", std::process::id());
    let ttl = redis_cli(&server, &["PTTL", &key]);
    let ttl: i64 = ttl.trim().parse().unwrap();
    assert!(ttl > 0 && ttl <= 60_000, "PTTL {ttl}");
}

#[tokio::test]
async fn a_redis_store_that_cannot_be_reached_names_no_secret() {
    let Some(mut server) = RedisServer::start() else {
        return;
    };
    let url = format!("redis://:hunter2@127.0.0.1:{}", server.port());
    redis_cli(&server, &["CONFIG", "SET", "requirepass", "hunter2"]);
    let redis = Redis::connect(&url).await.unwrap();
    let store = RedisTaskStore::new(&redis);
    server.stop();
    let error = store.get("some-task").await.unwrap_err().to_string();
    assert!(error.starts_with("the task store failed: "), "{error}");
    for secret in ["hunter2", "127.0.0.1", "task:"] {
        assert!(!error.contains(secret), "{secret} in {error}");
    }
}

/// `redis-cli -p PORT ARGS…`'s output (with the password the test may have set).
fn redis_cli(server: &RedisServer, arguments: &[&str]) -> String {
    let output = std::process::Command::new("redis-cli")
        .arg("-p")
        .arg(server.port().to_string())
        .args(arguments)
        .output()
        .expect("redis-cli runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Field `field` of `INFO section`, a number (`used_memory` of `memory`: what Redis holds, in
/// bytes; `total_net_input_bytes` of `stats`: what it received so far; `total_commands_processed`
/// of `stats`: the commands it ran so far).
fn info(server: &RedisServer, section: &str, field: &str) -> u64 {
    let info = redis_cli(server, &["INFO", section]);
    info.lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {info}"))
}

/// Finished tasks of 3 MB results (a tool that echoes its input), one principal's: Redis keeps
/// them within the store's default byte budget (32 MiB of one principal's finished results), the
/// oldest dropped first (before, every one was kept for its 2-hour TTL: 3 MB each).
#[tokio::test]
async fn finished_results_in_redis_are_bounded_in_bytes() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let redis = Redis::connect(&server.url()).await.unwrap();
    let store = RedisTaskStore::new(&redis);
    let before = info(&server, "memory", "used_memory");
    for n in 0..40 {
        let id = format!("echo-{n}");
        store
            .put(finished(&id, "alice", 3_000_000, n))
            .await
            .unwrap();
    }
    let after = info(&server, "memory", "used_memory");
    eprintln!("Redis used_memory: {before} bytes before, {after} after 40 results of 3 MB");
    assert!(
        after.saturating_sub(before) < 40 * 1024 * 1024,
        "40 results of 3 MB grew Redis from {} to {} MiB",
        before >> 20,
        after >> 20
    );
    assert!(
        store.get("echo-39").await.unwrap().is_some(),
        "the newest is kept"
    );
    assert_eq!(
        store.get("echo-0").await.unwrap(),
        None,
        "the oldest went first"
    );
}

// ---- two replicas ---------------------------------------------------------------------------

/// A server sharing `redis` with the others, on a runtime of its own.
struct Replica {
    address: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Replica {
    async fn start(redis: &str) -> Self {
        Self::start_on_bus(redis, None).await
    }

    /// A replica whose bus is the channel under `bus` (its tasks still in the shared store, under
    /// the default prefix) when given: it hears nothing the replicas on another bus send.
    async fn start_on_bus(redis: &str, bus: Option<&'static str>) -> Self {
        Self::launch(redis, bus, false).await
    }

    /// A replica with bearer auth: `token-a` is alice, `token-b` bob.
    async fn start_guarded(redis: &str) -> Self {
        Self::launch(redis, None, true).await
    }

    async fn launch(redis: &str, bus: Option<&'static str>, guarded: bool) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let url = redis.to_owned();
        runtime.spawn(async move {
            let server = Server::new("tasks", "1").task_poll_interval(Duration::from_millis(100));
            let config = if guarded {
                let metadata = ProtectedResourceMetadata::new(
                    "http://localhost:3000/mcp",
                    "https://auth.example.com",
                );
                HttpConfig::new().bearer_auth(metadata, |token| async move {
                    let subject = match token.as_str() {
                        "token-a" => "alice",
                        "token-b" => "bob",
                        _ => return None,
                    };
                    Some(AuthInfo::new("desktop-app").subject(subject))
                })
            } else {
                HttpConfig::new()
            };
            let server = match bus {
                None => server.http_config(config.redis(url)),
                Some(bus) => {
                    let shared = Redis::connect(&url).await.unwrap();
                    let own = Redis::connect(&url).await.unwrap().prefix(bus);
                    server
                        .task_store(RedisTaskStore::new(&shared))
                        .http_config(HttpConfig::new().redis_store(own))
                }
            };
            if let Err(error) = server.serve_http(address).await {
                panic!("the replica did not serve: {error}");
            }
        });
        listening(address).await;
        Self {
            address,
            runtime: Some(runtime),
        }
    }

    /// Dies: its runtime stops, whatever ran on it.
    fn die(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }

    /// A 2026-07-28 request with the extension declared; the JSON-RPC response. `name` is the
    /// `Mcp-Name` header (the tool, the task).
    async fn request(&self, method: &str, name: &str, params: Value) -> Value {
        self.request_as(None, method, name, params).await
    }

    /// [`request`](Self::request) with bearer `token`, when given.
    async fn request_as(
        &self,
        token: Option<&str>,
        method: &str,
        name: &str,
        params: Value,
    ) -> Value {
        let body = modern_request(1, method, params, &meta());
        let mut headers = modern_headers(method, Some(name));
        let bearer = token.map(|token| format!("Bearer {token}"));
        if let Some(bearer) = &bearer {
            headers.push(("authorization", bearer));
        }
        let mut request = post(&body, &headers);
        *request.uri_mut() = "/mcp".parse().unwrap();
        send_over_socket(self.address, request).await.json()
    }

    /// Calls task tool `tool`; the task's id.
    async fn create(&self, tool: &str, arguments: Value) -> String {
        let created = self
            .request(
                "tools/call",
                tool,
                json!({"name": tool, "arguments": arguments}),
            )
            .await;
        assert_eq!(created["result"]["resultType"], "task", "{created}");
        created["result"]["taskId"].as_str().unwrap().to_owned()
    }

    async fn task(&self, id: &str) -> Value {
        let task = self.request("tasks/get", id, json!({"taskId": id})).await;
        assert!(task["result"].is_object(), "{task}");
        task["result"].clone()
    }

    /// Polls `tasks/get` until the task is `wanted` (or over), for at most `within`.
    async fn poll_until(&self, id: &str, wanted: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let task = self.task(id).await;
            let status = task["status"].as_str().unwrap_or_default();
            if status == wanted || ["completed", "failed", "cancelled"].contains(&status) {
                return task;
            }
            assert!(
                Instant::now() < deadline,
                "task {id} not {wanted} within {within:?}: {task}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.die();
    }
}

impl Replica {
    /// A `subscriptions/listen` stream following task `id`; its events, and the connection's
    /// driver (kept while the stream is read).
    async fn listen(&self, id: &str) -> (Events, impl Sized) {
        self.listen_all(json!([id])).await
    }

    /// [`listen`](Self::listen) naming the task ids `ids`.
    async fn listen_all(&self, ids: Value) -> (Events, impl Sized) {
        let body = modern_request(
            2,
            "subscriptions/listen",
            json!({"notifications": {"taskIds": ids}}),
            &meta(),
        );
        let mut request = post(&body, &modern_headers("subscriptions/listen", None));
        *request.uri_mut() = "/mcp".parse().unwrap();
        request.headers_mut().insert(
            header::HOST,
            format!("localhost:{}", self.address.port())
                .parse()
                .unwrap(),
        );
        let (mut sender, driver) = connect(self.address).await;
        let response = sender.send_request(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        (Events::of(response.map(Body::new)), (sender, driver))
    }
}

/// A `tasks/update` or `tasks/cancel` acknowledged: an empty complete result.
fn assert_acknowledged(response: &Value) {
    assert_eq!(response["result"]["resultType"], "complete", "{response}");
    assert!(response.get("error").is_none(), "{response}");
}

/// The `_meta` of a 2026-07-28 client that declares the extension and elicitation.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {},
            "extensions": {EXTENSION: {}},
        }
    })
}

/// A Redis and two replicas on it; `None` (SKIPPED) without `redis-server`.
async fn two_replicas() -> Option<(RedisServer, Replica, Replica)> {
    let redis = RedisServer::start()?;
    let a = Replica::start(&redis.url()).await;
    let b = Replica::start(&redis.url()).await;
    Some((redis, a, b))
}

#[tokio::test]
async fn a_task_created_on_one_replica_is_polled_on_another_until_completed() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("sleep_ms", json!({"ms": 300})).await;
    let working = b.task(&id).await;
    assert_eq!(working["status"], "working", "{working}");
    let done = b.poll_until(&id, "completed", Duration::from_secs(5)).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "slept 300 ms",
        "{done}"
    );
    // Another replica's tasks are no one else's: an unknown id is still -32602 on B.
    let unknown = b
        .request("tasks/get", "nope", json!({"taskId": "nope"}))
        .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

#[tokio::test]
async fn a_question_of_a_task_on_one_replica_is_answered_with_tasks_update_on_another() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("delete_all", json!({})).await;
    let asking = b
        .poll_until(&id, "input_required", Duration::from_secs(5))
        .await;
    assert_eq!(asking["status"], "input_required", "{asking}");
    assert_eq!(
        asking["inputRequests"]["sure"]["method"], "elicitation/create",
        "{asking}"
    );
    let answer = json!({"sure": {"action": "accept", "content": {"confirm": true}}});
    let acknowledged = b
        .request(
            "tasks/update",
            &id,
            json!({"taskId": id, "inputResponses": answer}),
        )
        .await;
    assert_acknowledged(&acknowledged);
    // As on the replica running it, the very next `tasks/get` shows the answer taken.
    let next = b.task(&id).await;
    assert_ne!(next["status"], "input_required", "{next}");
    let done = b.poll_until(&id, "completed", Duration::from_secs(5)).await;
    assert_eq!(done["result"]["content"][0]["text"], "deleted", "{done}");
    // An answer that is not an object is refused on B as it would be on A.
    let id = a.create("delete_all", json!({})).await;
    b.poll_until(&id, "input_required", Duration::from_secs(5))
        .await;
    let refused = b
        .request(
            "tasks/update",
            &id,
            json!({"taskId": id, "inputResponses": {"sure": "yes"}}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[tokio::test]
async fn a_task_cancelled_through_another_replica_is_cancelled_at_once() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("until_cancelled", json!({})).await;
    // Right after its creation, 2 s before its first lease renewal: a cancellation only read
    // there would take longer than the bound below (which leaves room for a loaded machine).
    let started = Instant::now();
    let acknowledged = b.request("tasks/cancel", &id, json!({"taskId": id})).await;
    assert_acknowledged(&acknowledged);
    let bound = Duration::from_millis(1500);
    let cancelled = b.poll_until(&id, "cancelled", bound).await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert!(
        started.elapsed() < bound,
        "cancelled after {:?}",
        started.elapsed()
    );
    // A reads it so too.
    assert_eq!(a.task(&id).await["status"], "cancelled");
}

#[tokio::test]
async fn a_listen_stream_on_one_replica_hears_the_changes_of_a_task_on_another() {
    let Some((_redis, a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("delete_all", json!({})).await;
    // B's stream, following A's task.
    let (mut events, _driver) = b.listen(&id).await;
    let acknowledged = events.next().await.unwrap();
    assert_eq!(
        acknowledged["params"]["notifications"]["taskIds"],
        json!([id]),
        "{acknowledged}"
    );
    let mut statuses = Vec::new();
    while statuses.last().map(String::as_str) != Some("completed") {
        let message = events.next().await.expect("the stream goes on");
        if message["method"] != "notifications/tasks" {
            continue;
        }
        assert_eq!(message["params"]["taskId"], id, "{message}");
        let status = message["params"]["status"].as_str().unwrap().to_owned();
        if status == "input_required" && !statuses.contains(&status) {
            // Answered on A this time: the change is heard on B all the same.
            let answer = json!({"sure": {"action": "accept", "content": {"confirm": false}}});
            let acknowledged = a
                .request(
                    "tasks/update",
                    &id,
                    json!({"taskId": id, "inputResponses": answer}),
                )
                .await;
            assert_acknowledged(&acknowledged);
        }
        if status == "completed" {
            assert_eq!(
                message["params"]["result"]["content"][0]["text"], "kept",
                "{message}"
            );
        }
        statuses.push(status);
    }
    assert!(
        statuses.contains(&"input_required".to_owned()),
        "heard {statuses:?}"
    );
}

/// A `subscriptions/listen` naming 100,000 task ids: the first 1,024 are read, together, in one
/// Redis command (before: one `GET` per id, some 100,000 commands), and the acknowledgement lists
/// the caller's tasks among those only (the one named past the cap is not followed).
#[tokio::test]
async fn a_listen_stream_naming_many_tasks_reads_them_together_up_to_its_cap() {
    let Some((redis, a, b)) = two_replicas().await else {
        return;
    };
    let first = a.create("until_cancelled", json!({})).await;
    let past_cap = a.create("until_cancelled", json!({})).await;
    let unknown = |n: usize| json!(format!("{n:032x}"));
    let mut ids = vec![json!(first)];
    ids.extend((1..1_024).map(unknown));
    ids.push(json!(past_cap));
    ids.extend((1_024..100_000).map(unknown));
    let before = info(&redis, "stats", "total_commands_processed");
    let (mut events, _driver) = b.listen_all(Value::Array(ids)).await;
    let acknowledged = events.next().await.unwrap();
    let ran = info(&redis, "stats", "total_commands_processed") - before;
    assert_eq!(
        acknowledged["params"]["notifications"]["taskIds"],
        json!([first]),
        "{acknowledged}"
    );
    eprintln!("a listen naming 100,000 task ids: {ran} Redis commands");
    assert!(ran < 100, "{ran} Redis commands for one listen request");
    let task = events.next().await.unwrap();
    assert_eq!(task["params"]["taskId"], first, "{task}");
}

#[tokio::test]
async fn a_task_whose_replica_died_is_reported_failed_by_another_within_the_bound() {
    let Some((_redis, mut a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("until_cancelled", json!({})).await;
    assert_eq!(b.task(&id).await["status"], "working");
    a.die();
    let died = Instant::now();
    let failed = b
        .poll_until(&id, "failed", DEATH_BOUND + SLACK + SLACK)
        .await;
    let after = died.elapsed();
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(
        failed["statusMessage"]
            .as_str()
            .is_some_and(|message| message.contains("stopped")),
        "a reason: {failed}"
    );
    assert!(
        after <= DEATH_BOUND + SLACK,
        "reported failed {after:?} after its replica died"
    );
    // It stays failed, read again.
    assert_eq!(b.task(&id).await["status"], "failed");
}

#[tokio::test]
async fn answers_that_cannot_reach_the_replica_running_the_task_are_not_acknowledged() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    // One store, two buses: B's messages never reach A (a message lost on the way).
    let a = Replica::start_on_bus(&redis.url(), Some("a:")).await;
    let b = Replica::start_on_bus(&redis.url(), Some("b:")).await;
    let id = a.create("delete_all", json!({})).await;
    b.poll_until(&id, "input_required", Duration::from_secs(5))
        .await;
    let answer = json!({"sure": {"action": "accept", "content": {"confirm": true}}});
    let update = json!({"taskId": id, "inputResponses": answer});
    let lost = b.request("tasks/update", &id, update.clone()).await;
    assert_eq!(lost["error"]["code"], -32603, "{lost}");
    assert!(
        lost["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("send the tasks/update again")),
        "{lost}"
    );
    let asking = b.task(&id).await;
    assert_eq!(asking["status"], "input_required", "not taken: {asking}");
    // Sent again to the replica running it, it is taken.
    assert_acknowledged(&a.request("tasks/update", &id, update).await);
    let done = b.poll_until(&id, "completed", Duration::from_secs(5)).await;
    assert_eq!(done["result"]["content"][0]["text"], "deleted", "{done}");
    // A cancellation lost the same way is read from the record at A's next lease renewal
    // (every 2 s).
    let id = a.create("until_cancelled", json!({})).await;
    assert_acknowledged(&b.request("tasks/cancel", &id, json!({"taskId": id})).await);
    let cancelled = b
        .poll_until(&id, "cancelled", Duration::from_secs(2) + SLACK + SLACK)
        .await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
}

#[tokio::test]
async fn a_listen_stream_on_one_replica_hears_that_a_task_whose_replica_died_failed() {
    let Some((_redis, mut a, b)) = two_replicas().await else {
        return;
    };
    let id = a.create("until_cancelled", json!({})).await;
    let (mut events, _driver) = b.listen(&id).await;
    let mut status = String::new();
    while status != "working" {
        let message = events.next().await.expect("the stream goes on");
        if message["method"] == "notifications/tasks" {
            status = message["params"]["status"].as_str().unwrap().to_owned();
        }
    }
    a.die();
    let died = Instant::now();
    // Nobody polls: the stream reads the task again every 2 s (half the lease).
    let bound = DEATH_BOUND + Duration::from_secs(2) + SLACK;
    let failed = tokio::time::timeout(bound + SLACK, async {
        loop {
            let message = events.next().await.expect("the stream goes on");
            if message["method"] == "notifications/tasks"
                && message["params"]["status"] != "working"
            {
                return message;
            }
        }
    })
    .await
    .unwrap_or_else(|_| {
        panic!(
            "the listener heard nothing {:?} after the death",
            bound + SLACK
        )
    });
    assert_eq!(failed["params"]["status"], "failed", "{failed}");
    assert!(
        died.elapsed() <= bound,
        "heard failed {:?} after",
        died.elapsed()
    );
}

#[tokio::test]
async fn a_task_of_one_principal_is_no_one_elses_on_any_replica() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = Replica::start_guarded(&redis.url()).await;
    let b = Replica::start_guarded(&redis.url()).await;
    let alice = Some("token-a");
    let created = a
        .request_as(
            alice,
            "tools/call",
            "delete_all",
            json!({"name": "delete_all", "arguments": {}}),
        )
        .await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = b
            .request_as(alice, "tasks/get", &id, json!({"taskId": id}))
            .await;
        if seen["result"]["status"] == "input_required" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen["result"]["status"], "input_required", "{seen}");
    // Bob, on either replica, is told there is no such task, whatever he asks.
    for replica in [&a, &b] {
        for (method, params) in [
            ("tasks/get", json!({"taskId": id})),
            (
                "tasks/update",
                json!({"taskId": id, "inputResponses": {"sure": {"action": "accept", "content": {"confirm": true}}}}),
            ),
            ("tasks/cancel", json!({"taskId": id})),
        ] {
            let foreign = replica
                .request_as(Some("token-b"), method, &id, params)
                .await;
            assert_eq!(foreign["error"]["code"], -32602, "{method}: {foreign}");
        }
    }
    // Still alice's, still asking: nothing bob sent reached it.
    let still = a
        .request_as(alice, "tasks/get", &id, json!({"taskId": id}))
        .await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");
}
