//! The calls of one connection (a stdio process, an HTTP session, or one stateless HTTP request)
//! still running, by request id: what cancellation needs, and the rule that an id names one call
//! at a time.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::future::{AbortHandle, AbortRegistration};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::jsonrpc::{ErrorObject, codes};
use crate::sync::lock;

/// The table of running calls.
#[derive(Default)]
pub(crate) struct InFlight {
    calls: Mutex<HashMap<String, Entry>>,
    /// Tells entries apart when an id is reused after its call ended.
    serials: AtomicU64,
}

struct Entry {
    serial: u64,
    abort: AbortHandle,
    cancellation: CancellationToken,
}

impl Entry {
    fn cancel(&self) {
        self.cancellation.cancel();
        self.abort.abort();
    }
}

impl InFlight {
    /// Starts the call `id`: its ticket, and the registration that makes its future abortable
    /// (`Abortable::new(future, registration)`). `Err` (the error to answer with) when a call of
    /// that id is still running.
    pub(crate) fn start(
        self: &Arc<Self>,
        id: &Value,
    ) -> Result<(Ticket, AbortRegistration), ErrorObject> {
        let key = id.to_string();
        let mut calls = lock(&self.calls);
        if calls.contains_key(&key) {
            return Err(ErrorObject::new(
                codes::INVALID_REQUEST,
                format!("Invalid Request: id {key} is already used by a request in flight"),
            ));
        }
        let serial = self.serials.fetch_add(1, Ordering::Relaxed);
        let (abort, registration) = AbortHandle::new_pair();
        let cancellation = CancellationToken::new();
        let entry = Entry {
            serial,
            abort,
            cancellation: cancellation.clone(),
        };
        calls.insert(key.clone(), entry);
        let ticket = Ticket {
            table: Arc::clone(self),
            key,
            serial,
            cancellation,
        };
        Ok((ticket, registration))
    }

    /// Cancels call `id`: its context sees the cancellation, its future is dropped, and it sends
    /// no response. `false` for an unknown or finished id (ignored, as the protocol says).
    pub(crate) fn cancel(&self, id: &Value) -> bool {
        let entry = lock(&self.calls).remove(&id.to_string());
        entry.inspect(Entry::cancel).is_some()
    }

    /// Whether no call is running.
    pub(crate) fn is_empty(&self) -> bool {
        lock(&self.calls).is_empty()
    }

    /// Cancels every call: the connection is ending.
    pub(crate) fn cancel_all(&self) {
        for (_, entry) in lock(&self.calls).drain() {
            entry.cancel();
        }
    }
}

/// One call's place in the table. Dropping it before [`Ticket::complete`] (the call's response
/// will not be delivered: the client went away, the task was aborted) cancels the call.
pub(crate) struct Ticket {
    table: Arc<InFlight>,
    key: String,
    serial: u64,
    cancellation: CancellationToken,
}

impl Ticket {
    /// The token the call's `Context` watches.
    pub(crate) fn cancellation(&self) -> CancellationToken {
        self.cancellation.clone()
    }

    /// Whether the call was cancelled.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Ends the call; `true` if it may send its response (nobody cancelled it first).
    pub(crate) fn complete(self) -> bool {
        self.take().is_some()
    }

    /// Removes this call's entry, if it is still there and still this call's.
    fn take(&self) -> Option<Entry> {
        let mut calls = lock(&self.table.calls);
        match calls.get(&self.key) {
            Some(entry) if entry.serial == self.serial => calls.remove(&self.key),
            _ => None,
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(entry) = self.take() {
            entry.cancel();
        }
    }
}
