//! The tasks of one server: the store, what runs in this process (each task's cancellation and
//! open questions), the caps, and the status changes listeners hear.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::peers::TaskPeers;
use super::store::{FinishedCaps, TaskRecord, TaskStatus, TaskStore, TaskStoreError};
use super::wire::{CreateTaskResult, DetailedTask};
use crate::ask::board::Board;
use crate::caps::{Caps, Full, Permit};
use crate::client_capabilities::ClientCapabilities;
use crate::jsonrpc::{ErrorObject, codes};
use crate::sync::lock;

/// The extension's identifier.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How long a `tasks/update` of a task running in another process waits for that process to
/// write the task its answers changed; past it, still not taken, it is refused (`-32603`: send
/// it again), never acknowledged. As long as a command of Redis may take: a slow store delays the
/// acknowledgement rather than refusing answers that were taken.
const FORWARDED_ANSWERS_WAIT: Duration = Duration::from_secs(2);

/// The settings of `Server::task_*`, and the task caps of its `Limits`.
#[derive(Clone, Debug)]
pub(crate) struct TaskSettings {
    pub(crate) budget: Duration,
    pub(crate) ttl: Duration,
    /// `Server::task_timeout`: how long a task may run before it is stopped and failed.
    pub(crate) timeout: Duration,
    pub(crate) poll_interval: Duration,
    /// `Limits::tasks`.
    pub(crate) max_tasks: usize,
    /// `Limits::tasks_per_principal`.
    pub(crate) max_tasks_per_principal: usize,
    /// What the store the server picks keeps of finished tasks (`Server::max_finished_tasks`
    /// and its kin).
    pub(crate) finished: FinishedCaps,
}

impl TaskSettings {
    /// A task's whole life from its creation (its `ttlMs`, fixed): its `timeout`, then its TTL.
    pub(crate) fn lifetime(&self) -> Duration {
        self.timeout.saturating_add(self.ttl)
    }
}

impl Default for TaskSettings {
    fn default() -> Self {
        let limits = crate::limits::Limits::default();
        Self {
            budget: Duration::ZERO,
            ttl: Duration::from_hours(1),
            timeout: Duration::from_hours(1),
            poll_interval: Duration::from_secs(1),
            max_tasks: limits.tasks,
            max_tasks_per_principal: limits.tasks_per_principal,
            finished: FinishedCaps::default(),
        }
    }
}

/// A task running in this process.
pub(super) struct Running {
    pub(super) cancel: CancellationToken,
    pub(super) board: Arc<Board>,
}

/// A task's place under the caps ([`Tasks::admit`]), given back when dropped: when its call
/// ends (before its final write, so the client that reads it finished may start another), when
/// it panics, or when the call never became a task.
pub(crate) type Reservation = Permit<String>;

/// The tasks of one server. Cheap to share (`Arc`).
pub(crate) struct Tasks {
    pub(super) store: Arc<dyn TaskStore>,
    pub(crate) settings: TaskSettings,
    pub(super) running: Mutex<HashMap<String, Running>>,
    /// The places of the tasks running (and of calls that may become one), keyed by owner.
    caps: Caps<String>,
    /// Each change of a task: which task, and its status (a listener reads the record itself,
    /// so that nothing here holds a result).
    pub(super) changes: broadcast::Sender<TaskChange>,
    /// The other processes of this server, when it runs as replicas
    /// ([`join_peers`](Self::join_peers)).
    pub(super) peers: OnceLock<Arc<dyn TaskPeers>>,
}

/// A task that changed ([`Tasks::changes`]).
#[derive(Clone, Debug)]
pub(crate) struct TaskChange {
    pub(crate) id: Arc<str>,
    pub(crate) status: TaskStatus,
}

/// `answer` as JSON, the edge where a task's typed answers are serialized.
pub(crate) fn to_json(answer: &impl serde::Serialize) -> Value {
    // Not reached: a task's answer is strings, numbers and maps with string keys.
    serde_json::to_value(answer).unwrap_or_default()
}

/// Sets `record`'s status, questions and status message as `board` stands now: a task running
/// in this process is `input_required` while a question waits, `working` otherwise.
pub(super) fn as_board_stands(record: &mut TaskRecord, board: &Board) {
    let open = board.open();
    record.status = if open.is_empty() {
        TaskStatus::Working
    } else {
        TaskStatus::InputRequired
    };
    record.input_requests = open;
    if let Some(status) = board.status() {
        record.status_message = Some(status);
    }
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

/// [`extension_missing`] for a legacy client, which declaring the extension cannot help: a
/// task is 2026-07-28 only.
pub(crate) fn extension_missing_legacy() -> ErrorObject {
    let mut error = extension_missing();
    error.message = format!(
        "This tool always runs as a task: it needs protocol 2026-07-28 and the extension {EXTENSION}"
    );
    error
}

/// Whether the client capabilities `declared` negotiate the extension.
pub(crate) fn negotiated(declared: &ClientCapabilities) -> bool {
    declared.has_extension(EXTENSION)
}

/// A new task id: 128 random bits, hex.
fn new_id() -> Result<String, ErrorObject> {
    crate::random::id().map_err(|error| {
        ErrorObject::new(
            codes::INTERNAL_ERROR,
            format!("no randomness for a task id: {error}"),
        )
    })
}

impl Tasks {
    pub(crate) fn new(store: Arc<dyn TaskStore>, settings: TaskSettings) -> Self {
        Self {
            store,
            running: Mutex::default(),
            caps: Caps::new(settings.max_tasks, settings.max_tasks_per_principal),
            settings,
            changes: broadcast::channel(1024).0,
            peers: OnceLock::new(),
        }
    }

    /// Runs beside the other processes of this server reached through `peers`: the tasks
    /// created from now on name this process as theirs, their answers and cancellations received
    /// elsewhere are sent here, and their changes told there. Once; later calls are ignored.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas' bus calls it")
    )]
    pub(crate) fn join_peers(&self, peers: Arc<dyn TaskPeers>) {
        let _ = self.peers.set(peers);
    }

    /// Another process received answers to task `id`'s questions: given to its tool, if it
    /// runs here.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas' bus calls it")
    )]
    pub(crate) fn answered_elsewhere(&self, id: &str, answers: &Map<String, Value>) {
        let board = lock(&self.running)
            .get(id)
            .map(|running| Arc::clone(&running.board));
        if let Some(board) = board
            && let Err(error) = board.answer(answers)
        {
            tracing::warn!(task = %id, %error, "answers sent by another replica were refused");
        }
    }

    /// Another process received a cancellation of task `id`: its tool is cancelled, if it runs
    /// here.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas' bus calls it")
    )]
    pub(crate) fn cancelled_elsewhere(&self, id: &str) {
        if let Some(running) = lock(&self.running).get(id) {
            running.cancel.cancel();
        }
    }

    /// Task `id`, running in another process, changed to `status`: this process's listeners
    /// hear it (and read its record from the shared store).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas' bus calls it")
    )]
    pub(crate) fn changed_elsewhere(&self, id: &str, status: TaskStatus) {
        let _ = self.changes.send(TaskChange {
            id: Arc::from(id),
            status,
        });
    }

    /// Resolves once task `id`, as the store keeps it, has none of `responses`' questions open
    /// (or is over, or gone): read again at each of its changes heard on `changes` (a change
    /// missed is read at the end of the wait, by [`still_asks`](Self::still_asks)).
    async fn taken(
        &self,
        mut changes: broadcast::Receiver<TaskChange>,
        id: &str,
        responses: &Map<String, Value>,
    ) {
        loop {
            match changes.recv().await {
                Ok(change) if &*change.id == id => {}
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return,
            }
            if !self.still_asks(id, responses).await {
                return;
            }
        }
    }

    /// Whether task `id`, as the store keeps it, still waits on one of `responses`' questions
    /// (a store that cannot be read: as if it did, nothing shows the answers taken).
    async fn still_asks(&self, id: &str, responses: &Map<String, Value>) -> bool {
        match self.store.get(id).await {
            Ok(Some(record)) => {
                !record.status.is_terminal()
                    && responses
                        .keys()
                        .any(|key| record.input_requests.contains_key(key))
            }
            Ok(None) => false,
            Err(_) => true,
        }
    }

    /// The process running `record`'s task, when it is another one reachable through the peers.
    fn elsewhere<'a>(&'a self, record: &'a TaskRecord) -> Option<(&'a dyn TaskPeers, &'a str)> {
        let peers = self.peers.get()?;
        let replica = record.replica.as_deref()?;
        (!record.status.is_terminal() && replica != peers.replica())
            .then_some((peers.as_ref(), replica))
    }

    /// Listens to every task's changes.
    pub(crate) fn changes(&self) -> broadcast::Receiver<TaskChange> {
        self.changes.subscribe()
    }

    /// How often a listener reads again the tasks it follows that are not over, with a store
    /// shared by processes (half its lease): no change is told of a task whose process died (it
    /// is failed by the first read past its lease), and one told by another process may be lost
    /// on the way. `None` with a store of this process only: every change is heard here.
    pub(crate) fn read_again_every(&self) -> Option<Duration> {
        self.store
            .lease()
            .map(|lease| (lease / 2).max(Duration::from_millis(1)))
    }

    /// A place for a task of `owner`, held until the [`Reservation`] is dropped; `Err`
    /// (`-31000`, server busy) when the server's tasks are at `Limits::tasks`, or the principal's
    /// at `Limits::tasks_per_principal` (a caller without auth is bound by the first alone: the
    /// caps' rule, `caps`). Taken at once: concurrent calls never overrun the caps.
    pub(crate) fn admit(&self, owner: Option<&str>) -> Result<Reservation, ErrorObject> {
        self.caps
            .take(owner.map(str::to_owned), 1)
            .map_err(|full| {
                let message = match full {
                    Full::All => format!(
                        "Too many tasks: the server runs {} at most; retry once one has finished",
                        self.caps.max()
                    ),
                    Full::Key => format!(
                        "Too many tasks: one principal runs {} at most; retry once one of yours has finished",
                        self.caps.per_key()
                    ),
                };
                ErrorObject::new(codes::SERVER_BUSY, message)
            })
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
            expires_at: Some(now + self.settings.lifetime()),
            poll_interval: self.settings.poll_interval,
            input_requests: Map::new(),
            result: None,
            error: None,
            lease_until: self.store.lease().map(|lease| now + lease),
            cancel_requested: false,
            replica: self.peers.get().map(|peers| peers.replica().to_owned()),
        };
        self.store
            .create(record.clone())
            .await
            .map_err(|error| store_failed(&error))?;
        Ok(record)
    }

    /// The `CreateTaskResult` of `record`.
    pub(crate) fn created(&self, record: &TaskRecord) -> Value {
        to_json(&CreateTaskResult::of(record, self.settings.lifetime()))
    }

    /// The task `id` of `owner`: `-32602` when unknown, expired or someone else's. A task not over
    /// whose lease has passed is failed (its process stopped), unless it runs in this process.
    async fn record(&self, id: &str, owner: Option<&str>) -> Result<TaskRecord, ErrorObject> {
        let read = self
            .store
            .get(id)
            .await
            .map_err(|error| store_failed(&error))?;
        self.owned(read, owner).await.ok_or_else(|| unknown(id))
    }

    /// `read` when it is `owner`'s task (`None` otherwise); one not over whose lease has passed
    /// is failed (its process stopped), unless it runs in this process.
    async fn owned(&self, read: Option<TaskRecord>, owner: Option<&str>) -> Option<TaskRecord> {
        let mut record = read.filter(|record| record.owner.as_deref() == owner)?;
        let now = SystemTime::now();
        let lapsed = !record.status.is_terminal()
            && record.lease_until.is_some_and(|until| until < now)
            && !lock(&self.running).contains_key(&record.id);
        if lapsed {
            record.status = TaskStatus::Failed;
            let message = "The process running the task stopped before it finished.";
            record.status_message = Some(message.into());
            record.error = Some(json!({"code": codes::INTERNAL_ERROR, "message": message}));
            self.finish(&mut record).await;
            // The store keeps a state that is over as first written: read back what it kept.
            if let Ok(Some(kept)) = self.store.get(&record.id).await {
                record = kept;
            }
        }
        Some(record)
    }

    /// `tasks/get`: the `DetailedTask`.
    pub(crate) async fn get(&self, id: &str, owner: Option<&str>) -> Result<Value, ErrorObject> {
        let record = self.record(id, owner).await?;
        Ok(to_json(&self.detailed(record)))
    }

    /// The tasks `ids` of `owner`, each as `tasks/get` answers it (`None`: unknown, expired or
    /// someone else's), read from the store in one call.
    pub(crate) async fn get_many(
        &self,
        ids: &[String],
        owner: Option<&str>,
    ) -> Result<Vec<Option<DetailedTask>>, ErrorObject> {
        let read = self
            .store
            .get_many(ids)
            .await
            .map_err(|error| store_failed(&error))?;
        let mut tasks = Vec::with_capacity(read.len());
        for record in read {
            let theirs = self.owned(record, owner).await;
            tasks.push(theirs.map(|record| self.detailed(record)));
        }
        Ok(tasks)
    }

    /// The `DetailedTask` of `record`. A task running here is read as its board stands now, not
    /// as last written: a `tasks/update` just acknowledged shows in the next `tasks/get`, before
    /// the task's record catches up.
    fn detailed(&self, mut record: TaskRecord) -> DetailedTask {
        let board = (!record.status.is_terminal())
            .then(|| {
                lock(&self.running)
                    .get(&record.id)
                    .map(|running| Arc::clone(&running.board))
            })
            .flatten();
        if let Some(board) = board {
            as_board_stands(&mut record, &board);
        }
        DetailedTask::of(record, self.settings.lifetime())
    }

    /// `tasks/update`: answers the task's open questions; the acknowledgement. The answers to a
    /// task running in another process are sent there through the peers, and acknowledged once
    /// that process took them (`-32603` when it did not within 2 seconds); without peers, that
    /// is refused (`-32603`).
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
        match board {
            Some(board) => board
                .answer(responses)
                .map_err(ErrorObject::invalid_params)?,
            // Its questions wait in the process that runs it: sent there.
            None if let Some((peers, replica)) = self.elsewhere(&record) => {
                Board::check(responses).map_err(ErrorObject::invalid_params)?;
                let answers_some = responses
                    .keys()
                    .any(|key| record.input_requests.contains_key(key));
                let changes = self.changes.subscribe();
                peers.answer(replica, id, responses);
                if answers_some {
                    // As when it runs here, the next `tasks/get` shows the answers taken: wait
                    // (briefly) for that process to write the task they changed. Never
                    // acknowledged when they were not taken (the message lost, that process
                    // gone or cut from the others): the client sends them again.
                    let taken = self.taken(changes, id, responses);
                    let waited = tokio::time::timeout(FORWARDED_ANSWERS_WAIT, taken).await;
                    if waited.is_err() && self.still_asks(id, responses).await {
                        return Err(ErrorObject::new(
                            codes::INTERNAL_ERROR,
                            format!(
                                "The answers to task {id} did not reach the process running it \
                                 within {FORWARDED_ANSWERS_WAIT:?} and were not taken: send the \
                                 tasks/update again"
                            ),
                        ));
                    }
                }
            }
            // Its questions wait in the process that runs it, not in the store.
            None if !record.status.is_terminal() && self.store.lease().is_some() => {
                return Err(ErrorObject::new(
                    codes::INTERNAL_ERROR,
                    format!(
                        "Task {id} runs in another process of this server: send its tasks/update \
                         there (requests for a task carry its id in the Mcp-Name header, for routing)"
                    ),
                ));
            }
            None => {}
        }
        Ok(json!({}))
    }

    /// `tasks/cancel`: cancels the task's tool (its `Context`); the acknowledgement, also for a
    /// task already over. A task running in another process is cancelled there at once through
    /// the peers (when the server runs as replicas), and marked in the store, which that process
    /// reads at its next lease renewal (if the message was lost, or there are no peers).
    pub(crate) async fn cancel(&self, id: &str, owner: Option<&str>) -> Result<Value, ErrorObject> {
        let record = self.record(id, owner).await?;
        let local = lock(&self.running)
            .get(&record.id)
            .map(|running| running.cancel.clone());
        match local {
            Some(cancel) => cancel.cancel(),
            None if !record.status.is_terminal() => {
                // Told at once to the process running it, and marked in the store: read there at
                // the next lease renewal if the message is lost.
                if let Some((peers, replica)) = self.elsewhere(&record) {
                    peers.cancel(replica, id);
                }
                // Only the mark: the record is the running process's to write.
                self.store
                    .request_cancel(id)
                    .await
                    .map_err(|error| store_failed(&error))?;
            }
            None => {}
        }
        Ok(json!({}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::MemoryTaskStore;
    use crate::task::follow::{Finished, Stops};

    /// A store shared by processes: its records carry leases. It counts the writes that only
    /// renewed a lease.
    #[derive(Default)]
    struct Leased(
        MemoryTaskStore,
        Mutex<Option<TaskRecord>>,
        std::sync::atomic::AtomicUsize,
    );

    impl Leased {
        fn renewals(&self) -> usize {
            self.2.load(std::sync::atomic::Ordering::SeqCst)
        }
    }

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
            let mut last = lock(&self.1);
            let renewal = last.as_ref().is_some_and(|last| {
                TaskRecord {
                    lease_until: record.lease_until,
                    ..last.clone()
                } == record
            });
            if renewal {
                self.2.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            *last = Some(record.clone());
            self.0.put(record)
        }
        fn get_many<'a>(
            &'a self,
            ids: &'a [String],
        ) -> futures_util::future::BoxFuture<'a, Result<Vec<Option<TaskRecord>>, TaskStoreError>>
        {
            self.0.get_many(ids)
        }
        fn request_cancel<'a>(
            &'a self,
            id: &'a str,
        ) -> futures_util::future::BoxFuture<'a, Result<bool, TaskStoreError>> {
            self.0.request_cancel(id)
        }
        fn lease(&self) -> Option<Duration> {
            Some(Duration::from_millis(50))
        }
    }

    #[tokio::test]
    async fn a_task_whose_process_stopped_renewing_its_lease_is_failed() {
        let tasks = Tasks::new(Arc::new(Leased::default()), TaskSettings::default());
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

    #[test]
    fn a_place_is_taken_under_the_lock_and_given_back_when_dropped() {
        let settings = TaskSettings {
            max_tasks: 2,
            max_tasks_per_principal: 1,
            ..TaskSettings::default()
        };
        let tasks = Tasks::new(Arc::new(MemoryTaskStore::new()), settings);
        let alice = tasks.admit(Some("alice")).unwrap();
        assert!(tasks.admit(Some("alice")).is_err(), "one per principal");
        let bob = tasks.admit(Some("bob")).unwrap();
        assert!(tasks.admit(Some("carol")).is_err(), "two in all");
        drop(alice);
        let again = tasks.admit(Some("alice")).unwrap();
        drop((again, bob));
        assert_eq!(tasks.caps.free(), 2);
        assert_eq!(tasks.caps.keys_held(), 0);
    }

    /// The caps' one rule for anonymous callers (`caps`): the global cap alone.
    #[test]
    fn anonymous_tasks_are_bound_by_the_global_cap_alone() {
        let settings = TaskSettings {
            max_tasks: 3,
            max_tasks_per_principal: 1,
            ..TaskSettings::default()
        };
        let tasks = Tasks::new(Arc::new(MemoryTaskStore::new()), settings);
        let held: Vec<_> = (0..3).map(|_| tasks.admit(None).unwrap()).collect();
        assert!(tasks.admit(None).is_err(), "the global cap");
        drop(held);
        assert!(tasks.admit(None).is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn a_task_running_here_is_not_failed_for_a_lapsed_lease() {
        let tasks = Arc::new(Tasks::new(
            Arc::new(Leased::default()),
            TaskSettings::default(),
        ));
        let record = tasks.create(None).await.unwrap();
        let id = record.id.clone();
        tasks.spawn(
            record.clone(),
            (
                CancellationToken::new(),
                Arc::new(Board::new(Duration::from_secs(1))),
                tasks.admit(None).unwrap(),
            ),
            std::future::pending(),
            Stops::WhenDropped,
        );
        // Its renewal late (a busy runtime): the record's lease has passed.
        let lapsed = TaskRecord {
            lease_until: Some(SystemTime::now() - Duration::from_secs(1)),
            ..record
        };
        tasks.store.put(lapsed).await.unwrap();
        assert_eq!(tasks.get(&id, None).await.unwrap()["status"], "working");
    }

    #[tokio::test(start_paused = true)]
    async fn questions_asked_all_the_time_do_not_starve_the_lease_renewal() {
        let store = Arc::new(Leased::default());
        let tasks = Arc::new(Tasks::new(
            Arc::clone(&store) as Arc<dyn TaskStore>,
            TaskSettings::default(),
        ));
        let record = tasks.create(None).await.unwrap();
        let board = Arc::new(Board::new(Duration::from_mins(1)));
        let asking = Arc::clone(&board);
        tasks.spawn(
            record,
            (CancellationToken::new(), board, tasks.admit(None).unwrap()),
            async move {
                // A question every 10 ms, for a second; the lease (50 ms) renews every 25 ms.
                for _ in 0..100 {
                    let question = asking.ask(None, &crate::jsonrpc::Method::Elicit, json!({}));
                    let _ = tokio::time::timeout(Duration::from_millis(10), question).await;
                }
                Finished::Result(json!({"content": []}))
            },
            Stops::WhenDropped,
        );
        tokio::time::sleep(Duration::from_millis(900)).await;
        assert!(store.renewals() >= 20, "renewed {} times", store.renewals());
    }

    #[tokio::test]
    async fn a_task_is_cancelled_through_another_process_and_not_answered_there() {
        let store: Arc<dyn TaskStore> = Arc::new(Leased::default());
        let runner = Arc::new(Tasks::new(Arc::clone(&store), TaskSettings::default()));
        let other = Tasks::new(store, TaskSettings::default());
        let record = runner.create(None).await.unwrap();
        let id = record.id.clone();
        let cancel = CancellationToken::new();
        let seen = cancel.clone();
        runner.spawn(
            record,
            (
                cancel,
                Arc::new(Board::new(Duration::from_mins(1))),
                runner.admit(None).unwrap(),
            ),
            async move {
                seen.cancelled().await;
                Finished::Result(json!({"content": []}))
            },
            Stops::WhenDropped,
        );
        let update = other.update(&id, None, &Map::new()).await.unwrap_err();
        assert!(update.message.contains("another process"), "{update:?}");
        other.cancel(&id, None).await.unwrap();
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(other.get(&id, None).await.unwrap()["status"], "cancelled");
    }

    /// Two processes' peers, joined: what one sends reaches the other after `delay` (a bus).
    struct Link {
        me: &'static str,
        other: OnceLock<std::sync::Weak<Tasks>>,
        delay: Duration,
        /// Answers sent are lost on the way (a bus message lost).
        loses_answers: bool,
    }

    impl Link {
        fn deliver(&self, deliver: impl FnOnce(&Tasks) + Send + 'static) {
            let other = self.other.get().cloned().unwrap();
            let delay = self.delay;
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                if let Some(other) = other.upgrade() {
                    deliver(&other);
                }
            });
        }
    }

    impl TaskPeers for Link {
        fn replica(&self) -> &str {
            self.me
        }
        fn answer(&self, _: &str, task: &str, answers: &Map<String, Value>) {
            if self.loses_answers {
                return;
            }
            let (task, answers) = (task.to_owned(), answers.clone());
            self.deliver(move |other| other.answered_elsewhere(&task, &answers));
        }
        fn cancel(&self, _: &str, task: &str) {
            let task = task.to_owned();
            self.deliver(move |other| other.cancelled_elsewhere(&task));
        }
        fn changed(&self, task: &str, status: TaskStatus) {
            let task = task.to_owned();
            self.deliver(move |other| other.changed_elsewhere(&task, status));
        }
    }

    /// Two processes sharing one store, their peers linked with `delay`.
    fn linked(delay: Duration) -> (Arc<Tasks>, Arc<Tasks>) {
        linked_losing(delay, false)
    }

    /// [`linked`], the answers sent either way lost when `loses_answers`.
    fn linked_losing(delay: Duration, loses_answers: bool) -> (Arc<Tasks>, Arc<Tasks>) {
        let store: Arc<dyn TaskStore> = Arc::new(Leased::default());
        let a = Arc::new(Tasks::new(Arc::clone(&store), TaskSettings::default()));
        let b = Arc::new(Tasks::new(store, TaskSettings::default()));
        for (this, other, me) in [(&a, &b, "a"), (&b, &a, "b")] {
            let link = Link {
                me,
                other: OnceLock::new(),
                delay,
                loses_answers,
            };
            let _ = link.other.set(Arc::downgrade(other));
            this.join_peers(Arc::new(link));
        }
        (a, b)
    }

    /// A task created on `a` (process "a") that asks its question `sure`, seen asking from `b`:
    /// its id. Once answered, its tool works 2 s more.
    async fn asking(a: &Arc<Tasks>, b: &Tasks) -> String {
        let record = a.create(None).await.unwrap();
        assert_eq!(record.replica.as_deref(), Some("a"));
        let id = record.id.clone();
        let board = Arc::new(Board::new(Duration::from_mins(1)));
        let asking = Arc::clone(&board);
        a.spawn(
            record,
            (CancellationToken::new(), board, a.admit(None).unwrap()),
            async move {
                let answer = asking
                    .ask(Some("sure"), &crate::jsonrpc::Method::Elicit, json!({}))
                    .await;
                // Long enough that only the answer's write, not the result's, is waited for.
                tokio::time::sleep(Duration::from_secs(2)).await;
                Finished::Result(json!({"answer": answer.ok()}))
            },
            Stops::WhenDropped,
        );
        let mut task = b.get(&id, None).await.unwrap();
        for _ in 0..100 {
            if task["status"] == "input_required" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
            task = b.get(&id, None).await.unwrap();
        }
        assert_eq!(task["status"], "input_required", "{task}");
        id
    }

    #[tokio::test]
    async fn answers_sent_to_the_process_running_the_task_show_in_the_next_get_there_and_here() {
        let (a, b) = linked(Duration::from_millis(100));
        let id = asking(&a, &b).await;
        let refused = b
            .update(&id, None, json!({"sure": "yes"}).as_object().unwrap())
            .await
            .unwrap_err();
        assert_eq!(refused.code, codes::INVALID_PARAMS, "{refused:?}");
        let answers = json!({"sure": {"action": "accept"}});
        b.update(&id, None, answers.as_object().unwrap())
            .await
            .unwrap();
        let task = b.get(&id, None).await.unwrap();
        assert_eq!(task["status"], "working", "the very next get: {task}");
    }

    #[tokio::test(start_paused = true)]
    async fn answers_lost_on_the_way_to_the_process_running_the_task_are_not_acknowledged() {
        let (a, b) = linked_losing(Duration::from_millis(10), true);
        let id = asking(&a, &b).await;
        let answers = json!({"sure": {"action": "accept"}});
        let lost = b
            .update(&id, None, answers.as_object().unwrap())
            .await
            .unwrap_err();
        assert_eq!(lost.code, codes::INTERNAL_ERROR, "{lost:?}");
        assert!(
            lost.message.contains("send the tasks/update again"),
            "{lost:?}"
        );
        let task = b.get(&id, None).await.unwrap();
        assert_eq!(task["status"], "input_required", "still asking: {task}");
        // Sent again where it runs, it is taken.
        a.update(&id, None, answers.as_object().unwrap())
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_task_failed_elsewhere_while_its_process_was_cut_off_stays_failed() {
        let store = Arc::new(Leased::default());
        let tasks = Arc::new(Tasks::new(
            Arc::clone(&store) as Arc<dyn TaskStore>,
            TaskSettings::default(),
        ));
        let record = tasks.create(None).await.unwrap();
        let id = record.id.clone();
        let cancel = CancellationToken::new();
        let seen = cancel.clone();
        let stopped = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = Arc::clone(&stopped);
        tasks.spawn(
            record.clone(),
            (
                cancel,
                Arc::new(Board::new(Duration::from_mins(1))),
                tasks.admit(None).unwrap(),
            ),
            async move {
                tokio::select! {
                    () = seen.cancelled() => stop.store(true, std::sync::atomic::Ordering::SeqCst),
                    () = tokio::time::sleep(Duration::from_millis(300)) => {}
                }
                Finished::Result(json!({"content": []}))
            },
            Stops::WhenDropped,
        );
        // Another process found its lease lapsed (this one cut off from the store) and failed it.
        let failed = TaskRecord {
            status: TaskStatus::Failed,
            status_message: Some("The process running the task stopped before it finished.".into()),
            lease_until: None,
            ..record
        };
        store.put(failed).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        // Back in touch: its tool was stopped at its next renewal, and nothing it wrote since
        // overwrote the failure.
        assert!(
            stopped.load(std::sync::atomic::Ordering::SeqCst),
            "the tool was stopped"
        );
        let task = tasks.get(&id, None).await.unwrap();
        assert_eq!(task["status"], "failed", "{task}");
        assert!(task.get("result").is_none(), "{task}");
    }

    #[tokio::test]
    async fn a_task_cancelled_through_another_process_is_heard_cancelled_there() {
        let (a, b) = linked(Duration::from_millis(10));
        let record = a.create(None).await.unwrap();
        let id = record.id.clone();
        let cancel = CancellationToken::new();
        let seen = cancel.clone();
        a.spawn(
            record,
            (
                cancel,
                Arc::new(Board::new(Duration::from_mins(1))),
                a.admit(None).unwrap(),
            ),
            async move {
                seen.cancelled().await;
                Finished::Result(json!({"content": []}))
            },
            Stops::WhenDropped,
        );
        b.cancel(&id, None).await.unwrap();
        // Heard by B from A: its change, over the link.
        let mut changes = b.changes();
        let change = tokio::time::timeout(Duration::from_secs(1), changes.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(&*change.id, id.as_str());
        assert_eq!(change.status, TaskStatus::Cancelled);
        assert_eq!(b.get(&id, None).await.unwrap()["status"], "cancelled");
    }

    #[tokio::test]
    async fn a_running_task_keeps_its_lease() {
        let tasks = Arc::new(Tasks::new(
            Arc::new(Leased::default()),
            TaskSettings::default(),
        ));
        let record = tasks.create(None).await.unwrap();
        let id = record.id.clone();
        tasks.spawn(
            record,
            (
                CancellationToken::new(),
                Arc::new(Board::new(Duration::from_secs(1))),
                tasks.admit(None).unwrap(),
            ),
            async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Finished::Result(json!({"content": []}))
            },
            Stops::WhenDropped,
        );
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(tasks.get(&id, None).await.unwrap()["status"], "working");
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(tasks.get(&id, None).await.unwrap()["status"], "completed");
    }
}
