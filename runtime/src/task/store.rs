//! Where tasks are kept: the [`TaskStore`] trait and the default [`MemoryTaskStore`].

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::sync::lock;

/// The status of a task, as `tasks/get` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskStatus {
    /// The tool is running.
    Working,
    /// The tool waits for the client's answers (`inputRequests`).
    InputRequired,
    /// The tool returned its result (an `isError` result too).
    Completed,
    /// The call failed with a JSON-RPC error (a panic, a failure of the runtime).
    Failed,
    /// The client cancelled the task.
    Cancelled,
}

impl TaskStatus {
    /// Whether the task is over: completed, failed or cancelled.
    #[must_use]
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }

    /// Its name on the wire.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// One task as a store keeps it: everything `tasks/get` answers, and who may ask. A store
/// keeps it as it is given (it is `Serialize` and `Deserialize` for stores that keep it as bytes)
/// and never interprets it, except for [`expires_at`](Self::expires_at).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task id: 128 random bits, hex.
    pub id: String,
    /// Who created it (an opaque key of the authenticated principal), `None` without auth; only
    /// the same owner may get, update or cancel it.
    pub owner: Option<String>,
    /// Its status.
    pub status: TaskStatus,
    /// What the status means, for people.
    pub status_message: Option<String>,
    /// When it was created.
    pub created_at: SystemTime,
    /// When its status last changed.
    pub last_updated_at: SystemTime,
    /// When the store may drop it; `None` while it runs.
    pub expires_at: Option<SystemTime>,
    /// How often the client should poll.
    pub poll_interval: Duration,
    /// The questions waiting for the client's answers (`inputRequests`).
    pub input_requests: Map<String, Value>,
    /// The tool's result, once completed.
    pub result: Option<Value>,
    /// The JSON-RPC error, once failed.
    pub error: Option<Value>,
    /// For a store shared by processes ([`TaskStore::lease`]): until when the process running
    /// the task has vouched for it. A task not over whose lease has passed is reported failed.
    pub lease_until: Option<SystemTime>,
}

/// A store's failure: it could not keep or read a task. A client is answered `-32603` with
/// its text (`the task store failed: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskStoreError(
    /// What failed, for the client and the logs (no secrets: the client reads it).
    pub String,
);

impl fmt::Display for TaskStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the task store failed: {}", self.0)
    }
}

impl std::error::Error for TaskStoreError {}

/// Where tasks are kept between the requests that create, poll, answer and cancel them.
///
/// The runtime writes a task's whole [`TaskRecord`] each time it changes (created, asking,
/// answered, finished, cancelled) and reads it for `tasks/get`; what runs (the tool's future, its
/// cancellation, its open questions) stays in the process that runs it. The default is
/// [`MemoryTaskStore`]; a store shared by several processes (Redis, say) implements the same
/// four methods.
///
/// # A process that dies
///
/// A task is written `working` when it starts; if the process running it dies, nothing writes
/// it again. A store that outlives a process says so with [`lease`](Self::lease): the runtime
/// then renews each running task's [`lease_until`](TaskRecord::lease_until) at half that
/// interval, and reports a task that is not over and whose lease has passed as `failed`
/// ("the process running it stopped"), writing it so. [`MemoryTaskStore`] dies with its process
/// and needs no lease; within a process, a tool that panics is a `failed` task, never a lost one.
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task. It must be readable by [`get`](Self::get) when this returns: the client
    /// is told the task's id only then.
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// The task `id`, unless unknown or expired (past its `expires_at`).
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Replaces the task of `record.id` with `record`.
    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// How long a running task's lease lasts (see "A process that dies"); `None` (the default):
    /// the store dies with the process, no lease.
    fn lease(&self) -> Option<Duration> {
        None
    }
}

/// The default [`TaskStore`]: tasks in this process's memory, dropped past their expiry (swept
/// as new tasks are created).
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

fn expired(record: &TaskRecord, now: SystemTime) -> bool {
    record.expires_at.is_some_and(|expiry| expiry <= now)
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        let now = SystemTime::now();
        let mut tasks = lock(&self.tasks);
        tasks.retain(|_, kept| !expired(kept, now));
        tasks.insert(record.id.clone(), record);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let now = SystemTime::now();
        let mut tasks = lock(&self.tasks);
        let found = match tasks.get(id) {
            Some(record) if expired(record, now) => {
                tasks.remove(id);
                None
            }
            found => found.cloned(),
        };
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        lock(&self.tasks).insert(record.id.clone(), record);
        Box::pin(std::future::ready(Ok(())))
    }
}
