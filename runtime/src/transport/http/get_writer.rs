//! What the legacy sessions' GET streams are told, written by one task per endpoint.
//!
//! A session's GET stream carries the `list_changed` of the lists its `initialize` declared,
//! the `resources/updated` of what it subscribed to, and the `list_changed` its own choice of
//! tags (`Context::enable_tags`) calls for. Its log ([`replay`](super::replay)) is written from
//! the session's first GET until the session ends, connection or none, so that a client that
//! lost its GET stream resumes it with what it missed (here, or with Redis on another replica).
//!
//! One task writes every session's log: it hears the server's changes once and each session's
//! own choice as it is made ([`SessionTags::tell`](crate::visibility::SessionTags::tell)).
//! A task per session did this before: 0.64 KiB of every GET stream, and one change at ten
//! thousand sessions woke ten thousand tasks.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::Notify;
use tokio_util::task::TaskTracker;

use super::replay::LoggedStream;
use crate::protocol::{Changes, Connection, Dispatcher, Heard};
use crate::sync::lock;

/// The endpoint's writer of GET streams: the logs it writes, by key.
pub(super) struct GetWriter {
    shared: Arc<Shared>,
}

struct Shared {
    logs: Mutex<Logs>,
    /// The sessions whose own choice of tags changed since the task last looked (each once).
    own: Mutex<HashSet<u64>>,
    /// Wakes the task for `own`.
    wake: Notify,
    dispatcher: Dispatcher,
    running: TaskTracker,
}

#[derive(Default)]
struct Logs {
    next_key: u64,
    by_key: HashMap<u64, Arc<Written>>,
    /// Whether the task was started (by the first log: a runtime runs it).
    started: bool,
}

/// One session's GET log, and the connection whose client reads it.
struct Written {
    stream: Arc<LoggedStream>,
    connection: Arc<Connection>,
}

/// A session's GET log, written by the writer as long as this lives (dropping it stops the
/// writing; `HttpSession::end` also ends the log, so that its followers end).
pub(super) struct Writing {
    pub(super) stream: Arc<LoggedStream>,
    key: u64,
    shared: Weak<Shared>,
}

impl Drop for Writing {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.upgrade() {
            lock(&shared.logs).by_key.remove(&self.key);
            lock(&shared.own).remove(&self.key);
        }
    }
}

impl GetWriter {
    /// A writer for the sessions of `dispatcher`, its task run on `running` (the server waits
    /// for it at shutdown).
    pub(super) fn new(dispatcher: Dispatcher, running: TaskTracker) -> Self {
        Self {
            shared: Arc::new(Shared {
                logs: Mutex::default(),
                own: Mutex::default(),
                wake: Notify::new(),
                dispatcher,
                running,
            }),
        }
    }

    /// Writes `stream` for the session of `connection` from now on, until the [`Writing`] is
    /// dropped or the server closes (which ends it).
    pub(super) fn write(&self, stream: Arc<LoggedStream>, connection: Arc<Connection>) -> Writing {
        let key = {
            let mut logs = lock(&self.shared.logs);
            let key = logs.next_key;
            logs.next_key += 1;
            let written = Written {
                stream: Arc::clone(&stream),
                connection: Arc::clone(&connection),
            };
            logs.by_key.insert(key, Arc::new(written));
            if !std::mem::replace(&mut logs.started, true) {
                // Listening from now, not from when the task first runs.
                let changes = self.shared.dispatcher.changes();
                self.shared
                    .running
                    .spawn(Arc::clone(&self.shared).run(changes));
            }
            key
        };
        let told = Arc::downgrade(&self.shared);
        connection.tags().tell(Arc::new(move || {
            if let Some(shared) = told.upgrade() {
                lock(&shared.own).insert(key);
                shared.wake.notify_one();
            }
        }));
        Writing {
            stream,
            key,
            shared: Arc::downgrade(&self.shared),
        }
    }
}

impl Shared {
    /// Until the server closes: each change of the server's told to every session, each
    /// session's own choice to it; then every log ends.
    async fn run(self: Arc<Self>, mut changes: Changes) {
        let closing = self.dispatcher.closing().clone();
        loop {
            tokio::select! {
                heard = changes.next() => {
                    let Some(heard) = heard else { break };
                    for written in self.every() {
                        written.tell(&heard);
                    }
                }
                () = self.wake.notified() => self.tell_own(),
                () = closing.cancelled() => break,
            }
        }
        for written in self.every() {
            written.stream.end();
        }
    }

    /// The logs written now (outside the lock while they are written).
    fn every(&self) -> Vec<Arc<Written>> {
        lock(&self.logs).by_key.values().cloned().collect()
    }

    /// Tells each session whose own choice changed the lists it touches.
    fn tell_own(&self) {
        let keys = std::mem::take(&mut *lock(&self.own));
        for key in keys {
            let Some(written) = lock(&self.logs).by_key.get(&key).cloned() else {
                continue;
            };
            let Some(changed) = written.connection.tags().take_change() else {
                continue;
            };
            for change in self.dispatcher.lists_touched(&changed) {
                written.tell(&Heard::Change(change));
            }
        }
    }
}

impl Written {
    /// What its client hears of `heard`: the lists `initialize` declared, the resources it
    /// subscribed to (several events when it missed changes).
    fn tell(&self, heard: &Heard) {
        for notification in self.connection.listener().notifications(heard) {
            self.stream.push(&notification);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::limits::MemoryBudget;
    use crate::protocol::{Change, Lists, ProtocolVersion};
    use crate::transport::http::replay::{EventLog, MAX_LOGGED_BYTES, StreamKind};

    fn hearing_tools(budget: &MemoryBudget) -> Arc<Connection> {
        let connection = Connection::new(ProtocolVersion::HTTP_DEFAULT, None, budget);
        connection.hear(Lists {
            tools: true,
            prompts: false,
            resources: false,
        });
        Arc::new(connection)
    }

    /// One task tells every session's log; a session's log leaves the writer with its
    /// `Writing` (nothing kept for a session that ended); the server closing ends the rest.
    #[tokio::test]
    async fn every_log_hears_a_change_until_its_session_ends_and_the_rest_end_at_closing() {
        let (dispatcher, running) = (Dispatcher::empty(), TaskTracker::new());
        let writer = GetWriter::new(dispatcher.clone(), running.clone());
        let log = EventLog::new(8, MAX_LOGGED_BYTES, Duration::from_mins(1), running.clone());
        let budget = MemoryBudget::new(usize::MAX);
        let opened = |session| log.open(session, StreamKind::Get).unwrap();
        let staying = writer.write(opened("a"), hearing_tools(&budget));
        let leaving = writer.write(opened("b"), hearing_tools(&budget));
        let left = Arc::clone(&leaving.stream);
        drop(leaving);
        assert_eq!(
            lock(&writer.shared.logs).by_key.len(),
            1,
            "b's log is let go"
        );

        dispatcher.change_sender().raise(Change::Tools);
        let written = tokio::time::timeout(Duration::from_secs(5), async {
            while staying.stream.last_seq() == 0 {
                tokio::task::yield_now().await;
            }
        });
        written.await.expect("a's log is written");
        assert_eq!(left.last_seq(), 0, "b's is not");

        dispatcher.closing().cancel();
        running.close();
        running.wait().await;
        assert!(staying.stream.has_ended());
    }
}
