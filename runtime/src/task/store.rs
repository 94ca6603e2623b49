//! Where tasks are kept: the [`TaskStore`] trait and the default [`MemoryTaskStore`].

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::jsonrpc::{codes, map_bytes, value_bytes};
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

    /// Every status, for the tests that check a list written elsewhere (a Redis script)
    /// against this type; `every_status_is_listed` fails when one is left out.
    #[cfg(test)]
    pub(crate) const ALL: [Self; 5] = [
        Self::Working,
        Self::InputRequired,
        Self::Completed,
        Self::Failed,
        Self::Cancelled,
    ];
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
    /// When the store may drop it: fixed at its creation (its time limit, `Server::task_timeout`, then the TTL: its
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
    /// A client asked to cancel the task through a process that does not run it
    /// ([`TaskStore::request_cancel`], which a store keeps apart from the record it is given):
    /// the process running it reads this at each lease renewal and cancels the tool.
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
/// [`MemoryTaskStore`]; a store shared by several processes (Redis, say) implements `create`,
/// `get` and `put`, and overrides [`get_many`](Self::get_many) (one round trip for a
/// `subscriptions/listen` naming many tasks) and [`request_cancel`](Self::request_cancel) (a
/// cancellation asked through another process, set apart from the record).
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

    /// Replaces the task of `record.id` with `record`, unless the task kept is over
    /// (completed, failed, cancelled): that one is never overwritten, so that a process that
    /// finds a task's lease lapsed cannot turn a result just written into a failure. Checked and
    /// written as one step (a shared store does it atomically: a conditional write, a script).
    /// A task not kept (never created, or expired) is written as given.
    ///
    /// A store bounds what finished tasks keep: past its budget it drops the oldest finished
    /// tasks first, and a finished task too large to keep at all is kept as `failed`, saying so
    /// (as [`MemoryTaskStore`] does).
    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>>;

    /// The tasks `ids`, in the order given, each as [`get`](Self::get) reads it (`None`: unknown
    /// or expired). The default reads them one by one; a store across a network reads them in
    /// one round trip.
    fn get_many<'a>(
        &'a self,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<Option<TaskRecord>>, TaskStoreError>> {
        Box::pin(async move {
            let mut read = Vec::with_capacity(ids.len());
            for id in ids {
                read.push(self.get(id).await?);
            }
            Ok(read)
        })
    }

    /// Marks the task `id` as asked to be cancelled through a process that does not run it:
    /// from then on [`get`](Self::get) reads it with
    /// [`cancel_requested`](TaskRecord::cancel_requested) set, whatever [`put`](Self::put)
    /// writes later, and nothing else of it changes. `false` when no such task is kept.
    ///
    /// The default reads the task and writes it back marked, which a write of the process
    /// running it may undo meanwhile: a store shared by processes keeps the mark apart from the
    /// record, set in one step.
    fn request_cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, TaskStoreError>> {
        Box::pin(async move {
            let Some(mut record) = self.get(id).await? else {
                return Ok(false);
            };
            record.cancel_requested = true;
            self.put(record).await?;
            Ok(true)
        })
    }

    /// How long a running task's lease lasts (see "A process that dies"); `None` (the default):
    /// the store dies with the process, no lease.
    fn lease(&self) -> Option<Duration> {
        None
    }
}

/// How much of the finished tasks a store keeps, in all and per owner: how many, and how many
/// bytes (a record's size, its result or error included: the memory it holds in
/// [`MemoryTaskStore`], its JSON text in Redis). Given to a store by its `within`
/// ([`MemoryTaskStore::within`], `RedisTaskStore::within`); a server's own store takes
/// `Server::max_finished_tasks` and its kin. Past a budget the oldest finished tasks are dropped
/// first (the owner's own first, when it is the owner's budget); a task whose record alone is
/// larger than a byte budget is kept as `failed`, saying its result was too large to keep.
/// Running tasks are capped apart (`Server::max_tasks`).
///
/// ```
/// use mcp_toolbelt::task::{FinishedCaps, MemoryTaskStore};
///
/// let store = MemoryTaskStore::new().within(FinishedCaps::default().max_bytes(512 << 20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishedCaps {
    pub(crate) count: usize,
    pub(crate) count_per_owner: usize,
    pub(crate) bytes: usize,
    pub(crate) bytes_per_owner: usize,
}

impl Default for FinishedCaps {
    fn default() -> Self {
        Self {
            count: 10_000,
            count_per_owner: 1_000,
            bytes: 128 * 1024 * 1024,
            bytes_per_owner: 32 * 1024 * 1024,
        }
    }
}

impl FinishedCaps {
    /// The most finished tasks kept (10,000 by default, at least 1): past it the oldest
    /// finished task is dropped before its expiry, so that finished results never fill the
    /// store.
    #[must_use]
    pub fn max_tasks(mut self, max: usize) -> Self {
        self.count = max.max(1);
        self
    }

    /// The most finished tasks of one owner (one principal; every unauthenticated caller counts
    /// as one) kept (1,000 by default, at least 1): past it that owner's oldest finished task is
    /// dropped first, so that one caller cannot push out everyone else's results.
    #[must_use]
    pub fn max_tasks_per_owner(mut self, max: usize) -> Self {
        self.count_per_owner = max.max(1);
        self
    }

    /// The most bytes the finished tasks kept hold together, their results included (128 MiB
    /// by default).
    #[must_use]
    pub fn max_bytes(mut self, max: usize) -> Self {
        self.bytes = max;
        self
    }

    /// The most bytes one owner's finished tasks kept hold together (32 MiB by default).
    #[must_use]
    pub fn max_bytes_per_owner(mut self, max: usize) -> Self {
        self.bytes_per_owner = max;
        self
    }

    /// The most bytes one finished record may take and be kept: within both budgets.
    pub(crate) fn largest(&self) -> usize {
        self.bytes.min(self.bytes_per_owner)
    }
}

/// How many bytes of memory `record` holds: its own node and its heap (its result, in a
/// finished task), as [`MemoryTaskStore`] counts it.
fn held_bytes(record: &TaskRecord) -> usize {
    let text = |text: &Option<String>| text.as_ref().map_or(0, String::capacity);
    let value = |value: &Option<Value>| value.as_ref().map_or(0, value_bytes);
    size_of::<TaskRecord>()
        + record.id.capacity()
        + text(&record.owner)
        + text(&record.status_message)
        + text(&record.replica)
        + map_bytes(&record.input_requests)
        + value(&record.result)
        + value(&record.error)
}

/// A finished `record` of `bytes` (as a store counts them) past `largest`, the most a store keeps of one: kept
/// instead as `failed`, saying why, its result and error dropped.
pub(crate) fn too_large(record: TaskRecord, bytes: usize, largest: usize) -> TaskRecord {
    let message = format!(
        "The task finished, but its result is too large to keep: {bytes} bytes, past the \
         {largest} bytes the server keeps of one caller's finished tasks."
    );
    TaskRecord {
        status: TaskStatus::Failed,
        error: Some(json!({"code": codes::INTERNAL_ERROR, "message": message})),
        status_message: Some(message),
        result: None,
        input_requests: Map::new(),
        ..record
    }
}

/// The default [`TaskStore`]: tasks in this process's memory, dropped past their expiry (an
/// index in expiry order is swept from its front at each create, get and put, so expired tasks
/// are freed without new ones), and finished tasks kept within a count and a byte budget, in
/// all and per owner ([`within`](Self::within), [`FinishedCaps`]): past one, the oldest finished
/// tasks are dropped first; a finished task larger than a budget by itself is kept as `failed`,
/// saying so.
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<Kept>,
    caps: FinishedCaps,
}

/// A record kept, and its size as JSON when finished (0 while it runs: only finished tasks
/// count against the budget).
#[derive(Debug)]
struct Entry {
    record: TaskRecord,
    bytes: usize,
}

/// Finished tasks, oldest first (by expiry: fixed at creation), and what they hold.
#[derive(Debug, Default)]
struct Finished {
    order: BTreeSet<(SystemTime, String)>,
    bytes: usize,
}

impl Finished {
    fn over(&self, count: usize, bytes: usize) -> bool {
        self.order.len() > count || self.bytes > bytes
    }
}

/// The records, their expiry order, the finished ones in all and per owner, and the tasks whose
/// cancellation was asked (apart from the records, which writes replace whole).
#[derive(Debug, Default)]
struct Kept {
    records: HashMap<String, Entry>,
    by_expiry: BTreeSet<(SystemTime, String)>,
    finished: Finished,
    finished_per_owner: HashMap<Option<String>, Finished>,
    cancel_requested: HashSet<String>,
}

/// Where a finished record stands in the order its owner's and everyone's are dropped in.
fn age(record: &TaskRecord) -> (SystemTime, String) {
    (
        record.expires_at.unwrap_or(record.created_at),
        record.id.clone(),
    )
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

    /// `id`'s record as [`TaskStore::get`] reads it.
    fn read(&self, id: &str) -> Option<TaskRecord> {
        let mut record = self.records.get(id)?.record.clone();
        record.cancel_requested |= self.cancel_requested.contains(id);
        Some(record)
    }

    fn remove(&mut self, id: &str) {
        self.cancel_requested.remove(id);
        self.forget(id);
    }

    /// Drops `id`'s record (not its cancellation, when the record is replaced).
    fn forget(&mut self, id: &str) {
        let Some(Entry { record, bytes }) = self.records.remove(id) else {
            return;
        };
        if let Some(expiry) = record.expires_at {
            self.by_expiry.remove(&(expiry, record.id.clone()));
        }
        if record.status.is_terminal() {
            let age = age(&record);
            self.finished.order.remove(&age);
            self.finished.bytes -= bytes;
            if let Some(own) = self.finished_per_owner.get_mut(&record.owner) {
                own.order.remove(&age);
                own.bytes -= bytes;
                if own.order.is_empty() {
                    self.finished_per_owner.remove(&record.owner);
                }
            }
        }
    }

    /// Keeps `record` (of `bytes` as JSON when finished), then drops the oldest finished tasks
    /// past `caps`: its owner's first, then anyone's.
    fn insert(&mut self, record: TaskRecord, bytes: usize, caps: FinishedCaps) {
        self.forget(&record.id);
        if let Some(expiry) = record.expires_at {
            self.by_expiry.insert((expiry, record.id.clone()));
        }
        let owner = record.owner.clone();
        let bytes = if record.status.is_terminal() {
            let age = age(&record);
            self.finished.order.insert(age.clone());
            self.finished.bytes += bytes;
            let own = self.finished_per_owner.entry(owner.clone()).or_default();
            own.order.insert(age);
            own.bytes += bytes;
            bytes
        } else {
            0
        };
        self.records
            .insert(record.id.clone(), Entry { record, bytes });
        while let Some(own) = self.finished_per_owner.get(&owner)
            && own.over(caps.count_per_owner, caps.bytes_per_owner)
            && let Some((_, oldest)) = own.order.first().cloned()
        {
            self.remove(&oldest);
        }
        while self.finished.over(caps.count, caps.bytes)
            && let Some((_, oldest)) = self.finished.order.first().cloned()
        {
            self.remove(&oldest);
        }
    }
}

impl MemoryTaskStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// This store keeping finished tasks within `caps` (by default, [`FinishedCaps`]'
    /// defaults).
    #[must_use]
    pub fn within(mut self, caps: FinishedCaps) -> Self {
        self.caps = caps;
        self
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        let bytes = if record.status.is_terminal() {
            held_bytes(&record)
        } else {
            0
        };
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        if tasks.records.contains_key(&record.id) {
            let exists = TaskStoreError::new(format!("a task {} exists already", record.id));
            return Box::pin(std::future::ready(Err(exists)));
        }
        tasks.insert(record, bytes, self.caps);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        Box::pin(std::future::ready(Ok(tasks.read(id))))
    }

    fn get_many<'a>(
        &'a self,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<Vec<Option<TaskRecord>>, TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        let read = ids.iter().map(|id| tasks.read(id)).collect();
        Box::pin(std::future::ready(Ok(read)))
    }

    fn put(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), TaskStoreError>> {
        // Measured before the lock: a result may be megabytes.
        let (record, bytes) = if record.status.is_terminal() {
            let bytes = held_bytes(&record);
            let largest = self.caps.largest();
            if bytes > largest {
                let record = too_large(record, bytes, largest);
                let bytes = held_bytes(&record);
                (record, bytes)
            } else {
                (record, bytes)
            }
        } else {
            (record, 0)
        };
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        let over = tasks
            .records
            .get(&record.id)
            .is_some_and(|kept| kept.record.status.is_terminal());
        if !over {
            tasks.insert(record, bytes, self.caps);
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn request_cancel<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool, TaskStoreError>> {
        let mut tasks = lock(&self.tasks);
        tasks.sweep(SystemTime::now());
        let kept = tasks.records.contains_key(id);
        if kept {
            tasks.cancel_requested.insert(id.to_owned());
        }
        Box::pin(std::future::ready(Ok(kept)))
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
    fn every_status_is_listed() {
        for status in TaskStatus::ALL {
            // A status added to the type and not to `ALL` fails to compile here first.
            match status {
                TaskStatus::Working
                | TaskStatus::InputRequired
                | TaskStatus::Completed
                | TaskStatus::Failed
                | TaskStatus::Cancelled => {}
            }
        }
        let names: HashSet<_> = TaskStatus::ALL
            .iter()
            .map(|status| serde_json::to_string(status).unwrap())
            .collect();
        assert_eq!(names.len(), 5);
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
        assert!(kept.finished.order.is_empty() && kept.finished_per_owner.is_empty());
        assert_eq!(kept.finished.bytes, 0);
    }

    #[test]
    fn past_max_finished_per_owner_that_owners_oldest_is_dropped_not_anothers() {
        let store = MemoryTaskStore::new().within(FinishedCaps::default().max_tasks_per_owner(1));
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
        let store = MemoryTaskStore::new().within(FinishedCaps::default().max_tasks(2));
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
