//! Long-running tools as tasks: the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663).
//!
//! A tool that takes minutes should not hold its request open: with the extension, the call is
//! answered at once with a *task* the client polls (`tasks/get`), answers questions through
//! (`tasks/update`) and may cancel (`tasks/cancel`). A tool opts in with one key; its fn does not
//! change: the same `async fn`, its [`Context`](crate::Context) (its questions, its cancellation),
//! its result or error.
//!
//! ```
//! use std::time::Duration;
//! use mcp_toolbelt::{Context, Server, ToolError, tool};
//! use mcp_toolbelt::testing::TestClient;
//! use serde_json::json;
//!
//! /// Builds the quarterly report
//! #[tool(task)]
//! async fn build_report(ctx: Context, quarter: u8) -> Result<String, ToolError> {
//!     tokio::select! {
//!         () = tokio::time::sleep(Duration::from_millis(50)) => Ok(format!("Q{quarter}: done")),
//!         () = ctx.cancelled() => Err(ToolError::new("cancelled")),
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = Server::new("reports", "1.0.0").task_poll_interval(Duration::from_millis(500));
//! let client = TestClient::new(server);
//! // A 2026-07-28 request whose client declares the extension.
//! let meta = json!({
//!     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities": {
//!         "extensions": {"io.modelcontextprotocol/tasks": {}}
//!     }
//! });
//! let created = client
//!     .request("tools/call", json!({"name": "build_report", "arguments": {"quarter": 3}, "_meta": meta}))
//!     .await;
//! assert_eq!(created["result"]["resultType"], "task");
//! assert_eq!(created["result"]["status"], "working");
//! assert_eq!(created["result"]["pollIntervalMs"], 500);
//! let id = created["result"]["taskId"].clone();
//! let task = loop {
//!     let task = client.request("tasks/get", json!({"taskId": id, "_meta": meta})).await;
//!     if task["result"]["status"] == "completed" {
//!         break task;
//!     }
//!     tokio::time::sleep(Duration::from_millis(10)).await;
//! };
//! assert_eq!(task["result"]["result"]["content"][0]["text"], "Q3: done");
//! # }
//! ```
//!
//! # When a call is a task
//!
//! | the tool | a 2026-07-28 client that declares the extension | any other client (2026-07-28 without it, every legacy one) |
//! | --- | --- | --- |
//! | `#[tool]` | an ordinary call | an ordinary call |
//! | `#[tool(task)]` | a task: at once, or once the call outlives [`Server::task_budget`](crate::Server::task_budget) (within it, it answers as an ordinary call) | an ordinary call |
//! | `#[tool(task = "required")]` | a task (one that finished within the budget is a task already `completed`) | refused: `-32021`, `data.requiredCapabilities.extensions["io.modelcontextprotocol/tasks"] = {}` |
//!
//! `tools/list` shows `execution.taskSupport` (`"optional"`, `"required"`), which says what a
//! tool needs: a 2026-07-28 client that did not declare the extension still sees a required-task
//! tool (it may declare the extension in its next request). A legacy client (2025-11-25 and
//! before) can never run one, so its `tools/list` leaves `task = "required"` tools out; called
//! by name anyway, such a tool answers `-32021`. `server/discover`
//! declares the extension while some tool may run as a task. A tool built at run time says it
//! with [`Tool::task_support`](crate::tool::Tool::task_support).
//!
//! # What the client sees
//!
//! - `tools/call` answers a `CreateTaskResult`: `resultType: "task"`, `taskId`, `status`,
//!   `createdAt`, `lastUpdatedAt`, `ttlMs`, `pollIntervalMs`. The task exists (a `tasks/get`
//!   finds it) before the answer leaves.
//!   The task is created once the call hooks let the call through and its arguments are valid:
//!   a hook's refusal answers the request, invalid arguments are `-32602`; no task, no place
//!   taken.
//! - `tasks/get` answers the task: `working` (with the tool's last
//!   [`Context::progress`](crate::Context::progress) message as its `statusMessage`); `input_required` with `inputRequests` while the
//!   tool waits on `ctx.elicit` (`sample`, `roots`), each under its key
//!   ([`Context::question`](crate::Context::question), or `elicitation-1`, …); `completed` with
//!   the tool's `result` (an `isError` result too: a tool's failure is a result); `failed` with
//!   the JSON-RPC `error` (a panic: `-32603`); `cancelled`.
//! - `tasks/update` answers the open questions (`inputResponses`, keyed as asked; others are
//!   ignored); the tool's `ctx.elicit` returns the answer. A question waits at most the task's
//!   TTL ([`Server::task_ttl`](crate::Server::task_ttl)); then `ctx.elicit` fails
//!   (`AskError::TimedOut`), so a task nobody answers ends.
//! - `tasks/cancel` cancels the tool's `Context` (its `ctx.cancelled()` resolves); the tool has
//!   a second to return, then its future is dropped; the task is `cancelled`. A plain (not
//!   `async`) `fn` cannot be stopped midway (it runs on a blocking thread): its task stays
//!   `working`, its `statusMessage` saying it is being cancelled, until the fn returns, and is
//!   `cancelled` then (its result dropped). A status never says a tool stopped while it runs.
//!   A plain fn that should stop early takes the [`Context`](crate::Context) and checks
//!   [`Context::is_cancelled`](crate::Context::is_cancelled) between steps.
//! - `subscriptions/listen` with `notifications.taskIds` hears `notifications/tasks`, the task as
//!   `tasks/get` would answer it, at each change of status.
//! - Over HTTP, `tasks/*` requests carry `Mcp-Name: <taskId>` (checked, `-32020`).
//!
//! Prefer `#[tool(task)]` to `task = "required"`: hosts that speak 2025-11-25 (most of them
//! today) never get a task, so a required-task tool is not theirs at all (not listed), while a
//! `#[tool(task)]` tool answers them within the request.
//!
//! Before a call becomes a task (within the budget), it is an ordinary call: its questions take
//! the request's way (a 2026-07-28 `input_required` round), its progress goes to the request.
//! Once a task, it sends no notifications (the extension has none for tasks): its progress
//! becomes the task's `statusMessage`, its logs ([`Context::log`](crate::Context::log)) are
//! dropped. It is not bound by [`Server::call_timeout`](crate::Server::call_timeout) but by
//! [`Server::task_timeout`](crate::Server::task_timeout) (1 hour by default): past it the tool is
//! cancelled, has a second to return, and the task is `failed` with a `statusMessage` saying so
//! (a plain fn's once it returns, `working` until then).
//!
//! # Ownership, lifetime, caps
//!
//! A task id is 128 random bits. With bearer auth a task belongs to the principal that created
//! it: another principal's `tasks/get`, `tasks/update` or `tasks/cancel` is answered as for an
//! unknown id, `-32602`. A task's `ttlMs` is fixed at its creation: its time limit
//! ([`Server::task_timeout`](crate::Server::task_timeout)) plus
//! [`Server::task_ttl`](crate::Server::task_ttl) (1 hour each); past it the task is dropped.
//! [`Server::max_tasks`](crate::Server::max_tasks) and
//! [`Server::max_tasks_per_principal`](crate::Server::max_tasks_per_principal) cap the tasks
//! running at once (`-31000` past them; see the Limits table on [`Server`](crate::Server)). The
//! caps count the tasks of one process: with a store shared by several (Redis too), each process
//! counts its own, so three replicas run up to three times `max_tasks` in all. Finished tasks are
//! kept until their TTL within a count and a byte budget, in all and per principal
//! ([`Server::max_finished_tasks`](crate::Server::max_finished_tasks),
//! [`Server::max_finished_task_bytes`](crate::Server::max_finished_task_bytes) and their
//! `_per_principal` twins; 10,000 and 1,000 tasks, 128 MiB and 32 MiB): past one, the oldest
//! finished go first (the principal's own before anyone else's), and a result too large to keep
//! at all makes its task `failed`, saying so. With a shared store these count everything the
//! store keeps.
//!
//! # Where tasks are kept
//!
//! A [`TaskStore`] keeps each task's [`TaskRecord`] between requests, so the task outlives the
//! request (and the HTTP connection) that created it; [`MemoryTaskStore`] is the default, and a
//! store shared by several processes plugs in with [`Server::task_store`](crate::Server::task_store)
//! (its trait docs say how a task whose process died is reported `failed`). A server that serves
//! HTTP with Redis (feature `redis`, `HttpConfig::redis`) and no
//! store set keeps its tasks in Redis by itself (`RedisTaskStore`; see the `redis` module for what
//! a task there survives).
//!
//! What runs (the tool's future, its cancellation, its open questions) stays in the process that
//! runs it. Elsewhere, `tasks/get` reads the store. With Redis, the replicas reach each other:
//! `tasks/update` received by another replica is sent to the one running the task, and
//! acknowledged once that one took the answers (the next `tasks/get` shows them, anywhere), or
//! refused (`-32603`, to be sent again) when it did not within 2 seconds;
//! `tasks/cancel` reaches it at once; `subscriptions/listen` streams on every replica hear the
//! task's changes. Without that (a shared store of your own), `tasks/cancel` marks the task
//! ([`TaskStore::request_cancel`], read back as [`TaskRecord::cancel_requested`]) and the process
//! running the task cancels it at its next lease renewal, and `tasks/update` of a task running elsewhere is refused (`-32603`, saying so):
//! route a task's requests to its process (the `Mcp-Name` header names the task).

mod engine;
mod follow;
mod peers;
mod store;
mod wire;

pub(crate) use wire::DetailedTask;

pub use crate::types::TaskSupport;
pub(crate) use engine::{
    Reservation, TaskChange, TaskSettings, Tasks, extension_missing, extension_missing_legacy,
    negotiated, to_json,
};
pub(crate) use follow::{Finished, Stops};
#[cfg_attr(
    not(feature = "redis"),
    allow(unused_imports, reason = "the replicas' bus plugs in with `redis`")
)]
pub(crate) use peers::TaskPeers;
#[cfg_attr(
    not(feature = "redis"),
    allow(unused_imports, reason = "the Redis store keeps the same budget")
)]
pub(crate) use store::too_large;
pub use store::{FinishedCaps, MemoryTaskStore, TaskRecord, TaskStatus, TaskStore, TaskStoreError};
