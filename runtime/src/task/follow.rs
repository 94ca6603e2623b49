//! A task's call followed: spawned apart from the request that made it a task, its record kept
//! in step with it (questions asked and answered, result, panic, cancellation, its time limit,
//! lease renewals), each change written to the store and told to listeners.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::engine::{Reservation, Running, TaskChange, Tasks, as_board_stands};
use super::store::{TaskRecord, TaskStatus};
use crate::ask::board::Board;
use crate::jsonrpc::{ErrorObject, codes};
use crate::sync::lock;

/// How long a cancelled tool has to finish on its own (it sees its `Context` cancelled) before
/// its future is dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// Why a task stopped is still `working`: its tool cannot be stopped midway.
const UNSTOPPABLE: &str = "this tool is a plain fn, which cannot be stopped midway";

/// How a task's call ended.
pub(crate) enum Finished {
    /// The tool's result (`completed`, an `isError` one too).
    Result(Value),
    /// A JSON-RPC error (`failed`): a panic, a failure of the runtime.
    Error(ErrorObject),
}

/// How a task's tool stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stops {
    /// When its future is dropped (an `async fn`'s): cancelled, or past its time limit, it is
    /// given a second to return, then dropped.
    WhenDropped,
    /// Only by returning (a plain fn, on a blocking thread): cancelled, or past its time limit,
    /// its task stays `working` (its `statusMessage` saying why) until the fn returns, so that
    /// no status says it stopped while it runs.
    ByReturning,
}

/// One interval for a task's life, every half `lease`: the other branches of its loop never
/// delay its renewal.
fn renewals(lease: Duration) -> tokio::time::Interval {
    let period = (lease / 2).max(Duration::from_millis(1));
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    renew
}

/// `record` as its call `finished`: `completed` with its result, or `failed` with its error.
fn ended(record: &mut TaskRecord, finished: Finished) {
    match finished {
        Finished::Result(result) => {
            record.status = TaskStatus::Completed;
            record.result = Some(result);
        }
        Finished::Error(error) => {
            record.status = TaskStatus::Failed;
            record.status_message = Some(error.message.clone());
            record.error = Some(
                serde_json::to_value(&error)
                    .unwrap_or_else(|_| json!({"code": error.code, "message": error.message})),
            );
        }
    }
}

impl Tasks {
    /// Runs `job`, the call of task `record` (its tool's context cancelled by `cancel`, its
    /// questions on `board`), detached from the request that created it; its record follows it,
    /// as `stops` says its tool can be stopped.
    pub(crate) fn spawn(
        self: &Arc<Self>,
        record: TaskRecord,
        (cancel, board, reservation): (CancellationToken, Arc<Board>, Reservation),
        job: impl Future<Output = Finished> + Send + 'static,
        stops: Stops,
    ) {
        lock(&self.running).insert(
            record.id.clone(),
            Running {
                cancel: cancel.clone(),
                board: Arc::clone(&board),
            },
        );
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            let id = record.id.clone();
            tasks
                .follow(record, (cancel, board, reservation), job, stops)
                .await;
            lock(&tasks.running).remove(&id);
        });
    }

    /// Keeps `record` in step with its call until the call ends or is cancelled (its future
    /// dropped then, or waited for, as `stops` says).
    async fn follow(
        &self,
        mut record: TaskRecord,
        (cancel, board, reservation): (CancellationToken, Arc<Board>, Reservation),
        job: impl Future<Output = Finished>,
        stops: Stops,
    ) {
        let stoppable = stops == Stops::WhenDropped;
        let mut job = std::pin::pin!(job);
        let lease = self.store.lease();
        let timeout = self.settings.timeout;
        let deadline = tokio::time::sleep(timeout);
        let mut deadline = std::pin::pin!(deadline);
        let mut renew = lease.map(renewals);
        // Stopped (cancelled: `None`; past its time limit: its error), the call of a tool that
        // cannot be stopped waited for meanwhile; and whether the call returned.
        let mut stopped: Option<Option<Finished>> = None;
        let mut returned = false;
        let finished = loop {
            let renewed = async {
                match &mut renew {
                    Some(renew) => {
                        renew.tick().await;
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                // A cancelled task is `cancelled`, even when its tool, seeing it, returns.
                biased;
                () = cancel.cancelled(), if stopped.is_none() => {
                    if stoppable {
                        break None;
                    }
                    stopped = Some(None);
                    self.note(&mut record, format!("Cancelling; {UNSTOPPABLE}: the task is cancelled once it returns.")).await;
                }
                finished = &mut job => {
                    returned = true;
                    break stopped.take().unwrap_or(Some(finished));
                }
                () = &mut deadline, if stopped.is_none() => {
                    // A hung tool does not hold its slot forever: stopped as if cancelled.
                    cancel.cancel();
                    let message = format!(
                        "The task ran past its time limit ({timeout:?}) and was stopped."
                    );
                    let error = Finished::Error(ErrorObject::new(codes::INTERNAL_ERROR, message));
                    if stoppable {
                        let _ = tokio::time::timeout(CANCEL_GRACE, &mut job).await;
                        break Some(error);
                    }
                    stopped = Some(Some(error));
                    self.note(&mut record, format!("Past its time limit ({timeout:?}); {UNSTOPPABLE}: the task fails once it returns.")).await;
                }
                () = board.changed() => {
                    as_board_stands(&mut record, &board);
                    self.write(&mut record).await;
                }
                () = renewed => {
                    self.write_quietly(&mut record).await;
                    // Cancelled through another process: seen here at the renewal.
                    if record.cancel_requested {
                        cancel.cancel();
                    }
                }
            }
        };
        let Some(finished) = finished else {
            // The tool sees its context cancelled; it may finish on its own, shortly.
            if !returned {
                let _ = tokio::time::timeout(CANCEL_GRACE, &mut job).await;
            }
            drop(reservation);
            record.status = TaskStatus::Cancelled;
            record.status_message = Some("The task was cancelled.".into());
            return self.finish(&mut record).await;
        };
        drop(reservation);
        ended(&mut record, finished);
        self.finish(&mut record).await;
    }

    /// Writes a task that is over, kept until its expiry (fixed at its creation).
    pub(super) async fn finish(&self, record: &mut TaskRecord) {
        record.input_requests.clear();
        record.lease_until = None;
        if record.expires_at.is_none() {
            record.expires_at = Some(record.created_at + self.settings.lifetime());
        }
        self.write(record).await;
    }

    /// Writes `record` as changed now, and tells listeners.
    /// Writes `record` with `message` for its `statusMessage` (a change listeners hear).
    async fn note(&self, record: &mut TaskRecord, message: String) {
        record.status_message = Some(message);
        self.write(record).await;
    }

    async fn write(&self, record: &mut TaskRecord) {
        record.last_updated_at = SystemTime::now();
        self.write_quietly(record).await;
        let _ = self.changes.send(TaskChange {
            id: Arc::from(record.id.as_str()),
            status: record.status,
        });
        if let Some(peers) = self.peers.get() {
            peers.changed(&record.id, record.status);
        }
    }

    /// Writes `record`; a task not over has its lease renewed by every write.
    async fn write_quietly(&self, record: &mut TaskRecord) {
        if !record.status.is_terminal()
            && let Some(lease) = self.store.lease()
        {
            record.lease_until = Some(SystemTime::now() + lease);
            // A shared store: another process may have asked for its cancellation meanwhile.
            // Or found it lapsed (this process too slow to renew, the store unreachable too
            // long) and wrote it failed: the tool is stopped, its work is lost anyway.
            if let Ok(Some(kept)) = self.store.get(&record.id).await {
                record.cancel_requested |= kept.cancel_requested || kept.status.is_terminal();
            }
        }
        if let Err(error) = self.store.put(record.clone()).await {
            tracing::error!(task = %record.id, %error, "a task's record could not be written");
        }
    }
}
