//! Where tasks are kept: the [`TaskStore`] trait and the default [`MemoryTaskStore`].

use std::collections::{BTreeSet, HashMap};
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
    /// When the store may drop it: fixed at its creation (the run limit, then the TTL: its
    /// `ttlMs`); `None` only in records written by older versions.
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
    /// A client asked to cancel the task through a process that does not run it: the process
    /// running it reads this at each lease renewal and cancels the tool.
    #[serde(default)]
    pub cancel_requested: bool,
    /// The process running the task, among the replicas of one server sharing a store (its
    /// id); `None` without replicas, and in records written by older versions. Another
    /// replica sends the task's answers and cancellation there.
    #[serde(default)]
    pub replica: Option<String>,
}

/// A store's failure: it could not keep or read a task. A client is answered `-32603` with
/// its text (`the task store failed: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskStoreError {
    message: String,
}

impl TaskStoreError {
    /// A failure saying `message`: what failed, for the client and the logs (no secrets: the
    /// client reads it).
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// What failed, as given to [`new`](Self::new).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TaskStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the task store failed: {}", self.message)
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
    /// is told the task's id only then. `Err` when a task of that id is kept already (ids are
    /// 128 random bits: a collision), which is never overwritten.
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// The task `id`, unless unknown or expired (past its `expires_at`).
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>;

    /// Replaces the task of `record.id` with `record`, with two exceptions, checked and written
    /// as one step (a shared store does it atomically: a conditional write, a script):
    ///
    /// - a task kept that is over (completed, failed, cancelled) is never overwritten, so that
    ///   a process that finds a task's lease lapsed cannot turn a result just written into a
    ///   failure;
    /// - a task kept with [`cancel_requested`](TaskRecord::cancel_requested) set keeps it set
    ///   (`record` is written with it `true`), so that a cancellation asked through another
    ///   process is not lost by the running process's next write.
    ///
    /// A task not kept (never created, or expired) is written as given.
    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// How long a running task's lease lasts (see "A process that dies"); `None` (the default):
    /// the store dies with the process, no lease.
    fn lease(&self) -> Option<Duration> {
        None
    }
}

/// The default [`TaskStore`]: tasks in this process's memory, dropped past their expiry (an
/// index in expiry order is swept from its front at each create, get and put, so expired tasks
/// are freed without new ones), and at most [`max_finished`](Self::max_finished) finished tasks
/// kept, [`max_finished_per_owner`](Self::max_finished_per_owner) of one owner (past either, the
/// oldest finished is dropped first).
#[derive(Debug)]
pub struct MemoryTaskStore {
    tasks: Mutex<Kept>,
    caps: Caps,
}

/// How many finished tasks are kept, in all and per owner.
#[derive(Clone, Copy, Debug)]
struct Caps {
    all: usize,
    per_owner: usize,
}

/// The records, their expiry order, and how many are finished.
#[derive(Debug, Default)]
struct Kept {
    records: HashMap<String, TaskRecord>,
    by_expiry: BTreeSet<(SystemTime, String)>,
    finished: usize,
    finished_per_owner: HashMap<Option<String>, usize>,
}

impl Kept {
    /// Drops every record whose expiry has passed: the front of the index.
    fn sweep(&mut self, now: SystemTime) {
        while let Some((expiry, id)) = self.by_expiry.first().cloned() {
            if expiry > now {
                break;
            }
            self.remove(&id);
        }
    }

    fn remove(&mut self, id: &str) -> Option<TaskRecord> {
        let record = self.records.remove(id)?;
        if let Some(expiry) = record.expires_at {
            self.by_expiry.remove(&(expiry, record.id.clone()));
        }
        if record.status.is_terminal() {
            self.finished -= 1;
            if let Some(own) = self.finished_per_owner.get_mut(&record.owner) {
                *own -= 1;
                if *own == 0 {
                    self.finished_per_owner.remove(&record.owner);
                }
            }
        }
        Some(record)
    }

    fn insert(&mut self, record: TaskRecord, caps: Caps) {
        self.remove(&record.id);
        if let Some(expiry) = record.expires_at {
            self.by_expiry.insert((expiry, record.id.clone()));
        }
        let owner = record.owner.clone();
        if record.status.is_terminal() {
            self.finished += 1;
            *self.finished_per_owner.entry(owner.clone()).or_default() += 1;
        }
        self.records.insert(record.id.clone(), record);
        while self.finished_per_owner.get(&owner).copied().unwrap_or(0) > caps.per_owner {
            if !self.drop_oldest_finished(Some(&owner)) {
                break;
            }
        }
        while self.finished > caps.all {
            if !self.drop_oldest_finished(None) {
                break;
            }
        }
    }

    /// Drops the finished task (of `owner`, when given) that expires first: expiry is fixed at
    /// creation, so the oldest. `false` when there is none.
    fn drop_oldest_finished(&mut self, owner: Option<&Option<String>>) -> bool {
        let oldest = self
            .by_expiry
            .iter()
            .map(|(_, id)| &self.records[id])
            .find(|record| {
                record.status.is_terminal() && owner.is_none_or(|owner| record.owner == *owner)
            })
            .map(|record| record.id.clone());
        oldest.is_some_and(|id| self.remove(&id).is_some())
    }
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self {
            tasks: Mutex::default(),
            caps: Caps {
                all: 10_000,
                per_owner: 1_000,
            },
        }
    }
}

impl MemoryTaskStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The most finished tasks kept (10,000 by default, at least 1): past it the oldest
    /// finished task is dropped before its expiry, so that finished results never fill the
    /// memory. Running tasks are capped apart (`Server::max_tasks`).
    #[must_use]
    pub fn max_finished(mut self, max: usize) -> Self {
        self.caps.all = max.max(1);
        self
    }

    /// The most finished tasks of one owner (one principal; every unauthenticated caller counts
    /// as one) kept (1,000 by default, at least 1): past it that owner's oldest finished task is
    /// dropped first, so that one caller cannot push out everyone else's results.
    #[must_use]
    pub fn max_finished_per_owner(mut self, max: usize) -> Self {
        self.caps.per_owner = max.max(1);
        self
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        if tasks.records.contains_key(&record.id) {
            let exists = TaskStoreError::new(format!("a task {} exists already", record.id));
            return Box::pin(std::future::ready(Err(exists)));
        }
        tasks.insert(record, self.caps);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        let found = tasks.records.get(id).cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        let kept = tasks.records.get(&record.id);
        let over = kept.is_some_and(|kept| kept.status.is_terminal());
        let cancel_requested = kept.is_some_and(|kept| kept.cancel_requested);
        if !over {
            let mut record = record;
            record.cancel_requested |= cancel_requested;
            tasks.insert(record, self.caps);
        }
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, status: TaskStatus, expires_in: Duration) -> TaskRecord {
        let now = SystemTime::now();
        TaskRecord {
            id: id.into(),
            owner: None,
            status,
            status_message: None,
            created_at: now,
            last_updated_at: now,
            expires_at: Some(now + expires_in),
            poll_interval: Duration::from_secs(1),
            input_requests: Map::new(),
            result: None,
            error: None,
            lease_until: None,
            cancel_requested: false,
            replica: None,
        }
    }

    fn get(store: &MemoryTaskStore, id: &str) -> Option<TaskRecord> {
        futures_util::FutureExt::now_or_never(store.get(id))
            .unwrap()
            .unwrap()
    }

    #[test]
    fn expired_tasks_are_freed_by_any_read_without_new_creates() {
        let store = MemoryTaskStore::new();
        for id in ["a", "b", "c"] {
            let _ = futures_util::FutureExt::now_or_never(store.put(record(
                id,
                TaskStatus::Completed,
                Duration::from_millis(10),
            )));
        }
        let _ = futures_util::FutureExt::now_or_never(store.put(record(
            "kept",
            TaskStatus::Working,
            Duration::from_mins(1),
        )));
        std::thread::sleep(Duration::from_millis(20));
        assert!(get(&store, "kept").is_some());
        let kept = lock(&store.tasks);
        assert_eq!(kept.records.len(), 1, "the expired ones are freed");
        assert_eq!(kept.by_expiry.len(), 1);
        assert_eq!(kept.finished, 0);
    }

    #[test]
    fn past_max_finished_per_owner_that_owners_oldest_is_dropped_not_anothers() {
        let store = MemoryTaskStore::new().max_finished_per_owner(1);
        let owned = |id: &str, owner: &str, expires_in| TaskRecord {
            owner: Some(owner.into()),
            ..record(id, TaskStatus::Completed, expires_in)
        };
        let put = |record| futures_util::FutureExt::now_or_never(store.put(record));
        put(owned("bob-1", "bob", Duration::from_secs(1)));
        put(owned("alice-1", "alice", Duration::from_secs(2)));
        put(owned("alice-2", "alice", Duration::from_secs(3)));
        assert!(
            get(&store, "alice-1").is_none(),
            "alice's oldest is dropped"
        );
        assert!(get(&store, "alice-2").is_some() && get(&store, "bob-1").is_some());
    }

    #[test]
    fn a_task_that_is_over_is_never_overwritten() {
        let store = MemoryTaskStore::new();
        let put = |record| futures_util::FutureExt::now_or_never(store.put(record));
        put(record("t", TaskStatus::Working, Duration::from_mins(1)));
        put(record("t", TaskStatus::Completed, Duration::from_mins(1)));
        put(record("t", TaskStatus::Failed, Duration::from_mins(1)));
        put(record("t", TaskStatus::Working, Duration::from_mins(1)));
        assert_eq!(get(&store, "t").unwrap().status, TaskStatus::Completed);
    }

    #[test]
    fn past_max_finished_the_oldest_finished_task_is_dropped_and_running_ones_kept() {
        let store = MemoryTaskStore::new().max_finished(2);
        let put = |record| futures_util::FutureExt::now_or_never(store.put(record));
        put(record(
            "running",
            TaskStatus::Working,
            Duration::from_secs(1),
        ));
        put(record("old", TaskStatus::Completed, Duration::from_secs(2)));
        put(record("mid", TaskStatus::Failed, Duration::from_secs(3)));
        put(record("new", TaskStatus::Cancelled, Duration::from_secs(4)));
        assert!(
            get(&store, "old").is_none(),
            "the oldest finished is dropped"
        );
        for id in ["running", "mid", "new"] {
            assert!(get(&store, id).is_some(), "{id}");
        }
        // A running task that finishes counts, and pushes out the next oldest.
        put(record(
            "running",
            TaskStatus::Completed,
            Duration::from_secs(1),
        ));
        assert!(get(&store, "running").is_none());
        assert!(get(&store, "mid").is_some() && get(&store, "new").is_some());
    }
}
