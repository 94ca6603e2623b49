//! The tasks of one server: the store, what runs in this process (each task's cancellation and
//! open questions), the caps, and the status changes listeners hear.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::store::{TaskRecord, TaskStatus, TaskStore, TaskStoreError};
use super::wire;
use crate::ask::board::Board;
use crate::jsonrpc::{ErrorObject, codes};
use crate::sync::lock;

/// The extension's identifier.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How long a cancelled tool has to finish on its own (it sees its `Context` cancelled) before
/// its future is dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// The settings of `Server::task_*`, and the task caps of its `Limits`.
#[derive(Clone, Debug)]
pub(crate) struct TaskSettings {
    pub(crate) budget: Duration,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    /// `Limits::tasks`.
    pub(crate) max_tasks: usize,
    /// `Limits::tasks_per_principal`.
    pub(crate) max_tasks_per_principal: usize,
}

impl Default for TaskSettings {
    fn default() -> Self {
        let limits = crate::limits::Limits::default();
        Self {
            budget: Duration::ZERO,
            ttl: Duration::from_hours(1),
            poll_interval: Duration::from_secs(1),
            max_tasks: limits.tasks,
            max_tasks_per_principal: limits.tasks_per_principal,
        }
    }
}

/// How a task's call ended.
pub(crate) enum Finished {
    /// The tool's result (`completed`, an `isError` one too).
    Result(Value),
    /// A JSON-RPC error (`failed`): a panic, a failure of the runtime.
    Error(ErrorObject),
}

/// A task running in this process.
struct Running {
    owner: Option<String>,
    cancel: CancellationToken,
    board: Arc<Board>,
}

/// The tasks of one server. Cheap to share (`Arc`).
pub(crate) struct Tasks {
    store: Arc<dyn TaskStore>,
    pub(crate) settings: TaskSettings,
    running: Mutex<HashMap<String, Running>>,
    /// Each change of a task's status, as its `notifications/tasks` params (`DetailedTask`).
    changes: broadcast::Sender<Arc<Map<String, Value>>>,
}

/// The `-32602` of a task id that is unknown, expired, or someone else's (told apart from none).
fn unknown(id: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("Failed to retrieve task: Task not found: {id}"))
}

fn store_failed(error: &TaskStoreError) -> ErrorObject {
    ErrorObject::new(codes::INTERNAL_ERROR, error.to_string())
}

/// The `-32021` of a task request from a client that did not negotiate the extension.
pub(crate) fn extension_missing() -> ErrorObject {
    ErrorObject::new(
        codes::MISSING_CLIENT_CAPABILITY,
        format!("Missing required client capability: the extension {EXTENSION}"),
    )
    .data(json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}}))
}

/// Whether the client capabilities `declared` negotiate the extension.
pub(crate) fn negotiated(declared: &Value) -> bool {
    declared
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION))
        .is_some_and(Value::is_object)
}

/// A new task id: 128 random bits, hex.
fn new_id() -> Result<String, ErrorObject> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|error| {
        ErrorObject::new(
            codes::INTERNAL_ERROR,
            format!("no randomness for a task id: {error}"),
        )
    })?;
    Ok(bytes
        .iter()
        .fold(String::with_capacity(32), |mut hex, byte| {
            let _ = std::fmt::Write::write_fmt(&mut hex, format_args!("{byte:02x}"));
            hex
        }))
}

impl Tasks {
    pub(crate) fn new(store: Arc<dyn TaskStore>, settings: TaskSettings) -> Self {
        Self {
            store,
            settings,
            running: Mutex::default(),
            changes: broadcast::channel(1024).0,
        }
    }

    /// Listens to every task's status changes.
    pub(crate) fn changes(&self) -> broadcast::Receiver<Arc<Map<String, Value>>> {
        self.changes.subscribe()
    }

    /// `Err` (`-31000`, server busy) when `owner` may not start another task now: the server's
    /// running tasks at `Limits::tasks`, or the principal's at `Limits::tasks_per_principal`.
    pub(crate) fn admit(&self, owner: Option<&str>) -> Result<(), ErrorObject> {
        let running = lock(&self.running);
        if running.len() >= self.settings.max_tasks {
            return Err(ErrorObject::new(
                codes::SERVER_BUSY,
                format!(
                    "Too many tasks: the server runs {} at most; retry once one has finished",
                    self.settings.max_tasks
                ),
            ));
        }
        let own = running
            .values()
            .filter(|task| task.owner.as_deref() == owner)
            .count();
        if own >= self.settings.max_tasks_per_principal {
            return Err(ErrorObject::new(
                codes::SERVER_BUSY,
                format!(
                    "Too many tasks: one principal runs {} at most; retry once one of yours has finished",
                    self.settings.max_tasks_per_principal
                ),
            ));
        }
        Ok(())
    }

    /// A new `working` task of `owner`, kept in the store (readable once this returns).
    pub(crate) async fn create(&self, owner: Option<String>) -> Result<TaskRecord, ErrorObject> {
        let now = SystemTime::now();
        let record = TaskRecord {
            id: new_id()?,
            owner,
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            last_updated_at: now,
            expires_at: None,
            poll_interval: self.settings.poll_interval,
            input_requests: Map::new(),
            result: None,
            error: None,
            lease_until: self.store.lease().map(|lease| now + lease),
        };
        self.store
            .create(record.clone())
            .await
            .map_err(|error| store_failed(&error))?;
        Ok(record)
    }

    /// The `CreateTaskResult` of `record`.
    pub(crate) fn created(&self, record: &TaskRecord) -> Value {
        wire::created(record, self.settings.ttl)
    }

    /// Runs `job`, the call of task `record` (its tool's context cancelled by `cancel`, its
    /// questions on `board`), detached from the request that created it; its record follows it.
    pub(crate) fn spawn(
        self: &Arc<Self>,
        record: TaskRecord,
        cancel: CancellationToken,
        board: Arc<Board>,
        job: impl Future<Output = Finished> + Send + 'static,
    ) {
        lock(&self.running).insert(
            record.id.clone(),
            Running {
                owner: record.owner.clone(),
                cancel: cancel.clone(),
                board: Arc::clone(&board),
            },
        );
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let id = record.id.clone();
            tasks.follow(record, cancel, board, job).await;
            lock(&tasks.running).remove(&id);
        });
    }

    /// Keeps `record` in step with its call until the call ends or is cancelled.
    async fn follow(
        &self,
        mut record: TaskRecord,
        cancel: CancellationToken,
        board: Arc<Board>,
        job: impl Future<Output = Finished>,
    ) {
        let mut job = std::pin::pin!(job);
        let lease = self.store.lease();
        let finished = loop {
            let renew = async {
                match lease {
                    Some(lease) => tokio::time::sleep(lease / 2).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                // A cancelled task is `cancelled`, even when its tool, seeing it, returns.
                biased;
                () = cancel.cancelled() => break None,
                finished = &mut job => break Some(finished),
                () = board.changed() => {
                    let open = board.open();
                    record.status = if open.is_empty() {
                        TaskStatus::Working
                    } else {
                        TaskStatus::InputRequired
                    };
                    record.input_requests = open;
                    self.write(&mut record).await;
                }
                () = renew => {
                    record.lease_until = lease.map(|lease| SystemTime::now() + lease);
                    self.write_quietly(&record).await;
                }
            }
        };
        let Some(finished) = finished else {
            // The tool sees its context cancelled; it may finish on its own, shortly.
            let _ = tokio::time::timeout(CANCEL_GRACE, &mut job).await;
            record.status = TaskStatus::Cancelled;
            record.status_message = Some("The task was cancelled.".into());
            return self.finish(&mut record).await;
        };
        match finished {
            Finished::Result(result) => {
                record.status = TaskStatus::Completed;
                record.result = Some(result);
            }
            Finished::Error(error) => {
                record.status = TaskStatus::Failed;
                record.status_message = Some(error.message.clone());
                record.error = Some(serde_json::to_value(&error).unwrap_or_default());
            }
        }
        self.finish(&mut record).await;
    }

    /// Writes a task that is over, kept until its TTL passes.
    async fn finish(&self, record: &mut TaskRecord) {
        record.input_requests.clear();
        record.lease_until = None;
        let now = SystemTime::now();
        record.expires_at = Some(now + self.settings.ttl);
        self.write(record).await;
    }

    /// Writes `record` as changed now, and tells listeners.
    async fn write(&self, record: &mut TaskRecord) {
        record.last_updated_at = SystemTime::now();
        self.write_quietly(record).await;
        let _ = self
            .changes
            .send(Arc::new(wire::detailed(record, self.settings.ttl)));
    }

    async fn write_quietly(&self, record: &TaskRecord) {
        if let Err(error) = self.store.put(record.clone()).await {
            tracing::error!(task = %record.id, %error, "a task's record could not be written");
        }
    }

    /// The task `id` of `owner`: `-32602` when unknown, expired or someone else's. A task not over
    /// whose lease has passed is failed (its process stopped).
    async fn record(&self, id: &str, owner: Option<&str>) -> Result<TaskRecord, ErrorObject> {
        let mut record = self
            .store
            .get(id)
            .await
            .map_err(|error| store_failed(&error))?
            .filter(|record| record.owner.as_deref() == owner)
            .ok_or_else(|| unknown(id))?;
        let now = SystemTime::now();
        if !record.status.is_terminal() && record.lease_until.is_some_and(|until| until < now) {
            record.status = TaskStatus::Failed;
            let message = "The process running the task stopped before it finished.";
            record.status_message = Some(message.into());
            record.error = Some(json!({"code": codes::INTERNAL_ERROR, "message": message}));
            self.finish(&mut record).await;
        }
        Ok(record)
    }

    /// `tasks/get`: the `DetailedTask`.
    pub(crate) async fn get(&self, id: &str, owner: Option<&str>) -> Result<Value, ErrorObject> {
        let record = self.record(id, owner).await?;
        Ok(Value::Object(wire::detailed(&record, self.settings.ttl)))
    }

    /// `tasks/update`: answers the task's open questions; the acknowledgement.
    pub(crate) async fn update(
        &self,
        id: &str,
        owner: Option<&str>,
        responses: &Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let record = self.record(id, owner).await?;
        let board = lock(&self.running)
            .get(&record.id)
            .map(|running| Arc::clone(&running.board));
        if let Some(board) = board {
            board
                .answer(responses)
                .map_err(ErrorObject::invalid_params)?;
        }
        Ok(json!({}))
    }

    /// `tasks/cancel`: cancels the task's tool (its `Context`); the acknowledgement, also for a
    /// task already over.
    pub(crate) async fn cancel(&self, id: &str, owner: Option<&str>) -> Result<Value, ErrorObject> {
        let record = self.record(id, owner).await?;
        if let Some(running) = lock(&self.running).get(&record.id) {
            running.cancel.cancel();
        }
        Ok(json!({}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::MemoryTaskStore;

    /// A store shared by processes: its records carry leases.
    struct Leased(MemoryTaskStore);

    impl TaskStore for Leased {
        fn create(
            &self,
            record: TaskRecord,
        ) -> futures_util::future::BoxFuture<'_, Result<(), TaskStoreError>> {
            self.0.create(record)
        }
        fn get<'a>(
            &'a self,
            id: &'a str,
        ) -> futures_util::future::BoxFuture<'a, Result<Option<TaskRecord>, TaskStoreError>>
        {
            self.0.get(id)
        }
        fn put(
            &self,
            record: TaskRecord,
        ) -> futures_util::future::BoxFuture<'_, Result<(), TaskStoreError>> {
            self.0.put(record)
        }
        fn lease(&self) -> Option<Duration> {
            Some(Duration::from_millis(50))
        }
    }

    #[tokio::test]
    async fn a_task_whose_process_stopped_renewing_its_lease_is_failed() {
        let tasks = Tasks::new(
            Arc::new(Leased(MemoryTaskStore::new())),
            TaskSettings::default(),
        );
        // Created by a process that then died: nothing renews its lease.
        let record = tasks.create(None).await.unwrap();
        assert!(record.lease_until.is_some());
        let task = tasks.get(&record.id, None).await.unwrap();
        assert_eq!(task["status"], "working");
        tokio::time::sleep(Duration::from_millis(80)).await;
        let task = tasks.get(&record.id, None).await.unwrap();
        assert_eq!(task["status"], "failed", "{task}");
        assert_eq!(task["error"]["code"], codes::INTERNAL_ERROR);
        // Another owner does not see it at all.
        assert!(tasks.get(&record.id, Some("someone")).await.is_err());
    }

    #[tokio::test]
    async fn a_running_task_keeps_its_lease() {
        let tasks = Arc::new(Tasks::new(
            Arc::new(Leased(MemoryTaskStore::new())),
            TaskSettings::default(),
        ));
        let record = tasks.create(None).await.unwrap();
        let id = record.id.clone();
        tasks.spawn(
            record,
            CancellationToken::new(),
            Arc::new(Board::new(Duration::from_secs(1))),
            async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Finished::Result(json!({"content": []}))
            },
        );
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(tasks.get(&id, None).await.unwrap()["status"], "working");
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(tasks.get(&id, None).await.unwrap()["status"], "completed");
    }
}
