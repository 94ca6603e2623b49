//! The seam through which the processes of one server (replicas sharing a store) reach the tasks
//! running in each other: what runs (a task's cancellation, its open questions) stays in the
//! process that runs it, so a `tasks/update` or `tasks/cancel` received elsewhere is sent there,
//! and each process's status changes are told to the others' `subscriptions/listen` streams.
//!
//! This module knows nothing of how the message travels: the replicas' bus (Redis pub/sub)
//! implements [`TaskPeers`] and hands what it hears to [`Tasks`](super::Tasks)
//! (`answered_elsewhere`, `cancelled_elsewhere`, `changed_elsewhere`).

use serde_json::{Map, Value};

use super::store::TaskStatus;

/// The other processes of this server, as the task engine reaches them. Each method returns at
/// once (the message is sent in the background; one lost leaves the store's fallbacks: a
/// cancellation is also marked in the record, read at the running process's lease renewal).
pub(crate) trait TaskPeers: Send + Sync + 'static {
    /// This process's id among them: written in the records of the tasks it runs
    /// ([`TaskRecord::replica`](super::TaskRecord::replica)).
    fn replica(&self) -> &str;

    /// The client's `answers` (`inputResponses`) to task `task`, running in process `replica`.
    fn answer(&self, replica: &str, task: &str, answers: &Map<String, Value>);

    /// The client cancelled task `task`, running in process `replica`.
    fn cancel(&self, replica: &str, task: &str);

    /// Task `task`, running here, changed to `status` (its record is written already).
    fn changed(&self, task: &str, status: TaskStatus);
}
