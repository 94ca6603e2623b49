//! The calls of one connection (a stdio process, an HTTP session, or one stateless legacy HTTP
//! request) still running, by request id: what cancellation needs, and the rule that an id
//! names one call at a time. A 2026-07-28 request stands alone: its [`Ticket`] is in no table.

use std::collections::HashMap;
use std::collections::hash_map::Entry as Slot;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::future::{AbortHandle, AbortRegistration};
use tokio_util::sync::CancellationToken;

use crate::jsonrpc::{ErrorObject, Id, codes};
use crate::sync::lock;

/// The table of running calls.
pub(crate) struct InFlight {
    calls: Mutex<HashMap<String, Entry>>,
    /// The most calls at once: past it a request is refused, not queued, so that reading (and
    /// the cancellations it brings) goes on.
    max: usize,
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
    /// A table of at most `max` calls.
    pub(crate) fn new(max: usize) -> Self {
        Self {
            calls: Mutex::default(),
            max,
            serials: AtomicU64::default(),
        }
    }

    /// Starts the call `id`: its ticket, and the registration that makes its future abortable
    /// (`Abortable::new(future, registration)`). `Err` (the error to answer with) when a call of
    /// that id is still running.
    pub(crate) fn start(
        self: &Arc<Self>,
        id: &Id,
    ) -> Result<(Ticket, AbortRegistration), ErrorObject> {
        let key = id.key();
        let mut calls = lock(&self.calls);
        let at_limit = calls.len() >= self.max;
        // The id hashed once: its slot is both the check and the place.
        let Slot::Vacant(slot) = calls.entry(key.clone()) else {
            return Err(ErrorObject::invalid_request(format!(
                "id {key} is already used by a request in flight"
            )));
        };
        if at_limit {
            return Err(ErrorObject::new(
                codes::SERVER_BUSY,
                format!(
                    "Server busy: {} requests are already running on this connection (the limit); send it again once one has answered",
                    self.max
                ),
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
        slot.insert(entry);
        let ticket = Ticket {
            registered: Registered::Listed {
                table: Arc::clone(self),
                key,
                serial,
            },
            cancellation,
        };
        Ok((ticket, registration))
    }

    /// Cancels call `id`: its context sees the cancellation, its future is dropped, and it sends
    /// no response. `false` for an unknown or finished id (ignored, as the protocol says).
    pub(crate) fn cancel(&self, id: &Id) -> bool {
        let entry = lock(&self.calls).remove(&id.key());
        entry.inspect(Entry::cancel).is_some()
    }

    /// Whether no call is running.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
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

/// One call's place in the table, or a call that stands alone. Dropping it before
/// [`Ticket::complete`] (the call's response will not be delivered: the client went away, the
/// task was aborted) cancels the call.
pub(crate) struct Ticket {
    registered: Registered,
    cancellation: CancellationToken,
}

/// Where a call is registered.
enum Registered {
    /// In its connection's table, as entry `serial` of `key`.
    Listed {
        table: Arc<InFlight>,
        key: String,
        serial: u64,
    },
    /// In no table: a call that stands alone (a 2026-07-28 request, which no other message can
    /// cancel: the end of its own stream drops its ticket, so a table of its own would only
    /// cost its allocations); the handle that aborts it, `None` once it completed.
    Alone(Option<AbortHandle>),
}

impl Ticket {
    /// The ticket of a call that stands alone, and the registration that makes its future
    /// abortable: only dropping the ticket before it completes cancels the call.
    pub(crate) fn alone() -> (Self, AbortRegistration) {
        let (abort, registration) = AbortHandle::new_pair();
        let ticket = Self {
            registered: Registered::Alone(Some(abort)),
            cancellation: CancellationToken::new(),
        };
        (ticket, registration)
    }

    /// The token the call's `Context` watches.
    pub(crate) fn cancellation(&self) -> CancellationToken {
        self.cancellation.clone()
    }

    /// Whether the call was cancelled.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Ends the call; `true` if it may send its response (nobody cancelled it first; a call
    /// that stands alone always may: only its ticket's drop cancels it, and its time limit's
    /// error is an answer to send).
    pub(crate) fn complete(mut self) -> bool {
        match &mut self.registered {
            Registered::Listed { .. } => self.take().is_some(),
            Registered::Alone(abort) => abort.take().is_some(),
        }
    }

    /// Removes this call's entry, if it is in a table, still there and still this call's.
    fn take(&self) -> Option<Entry> {
        let Registered::Listed { table, key, serial } = &self.registered else {
            return None;
        };
        let mut calls = lock(&table.calls);
        match calls.get(key) {
            Some(entry) if entry.serial == *serial => calls.remove(key),
            _ => None,
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Registered::Alone(abort) = &mut self.registered {
            if let Some(abort) = abort.take() {
                self.cancellation.cancel();
                abort.abort();
            }
        } else if let Some(entry) = self.take() {
            entry.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn id(value: serde_json::Value) -> Id {
        Id::from_value(&value)
    }

    #[test]
    fn a_call_alone_is_cancelled_by_its_tickets_drop_only() {
        let (ticket, registration) = Ticket::alone();
        let future =
            futures_util::future::Abortable::new(std::future::pending::<()>(), registration);
        let cancellation = ticket.cancellation();
        drop(ticket);
        assert!(cancellation.is_cancelled());
        assert!(future.is_aborted());

        let (ticket, registration) = Ticket::alone();
        let future =
            futures_util::future::Abortable::new(std::future::pending::<()>(), registration);
        let cancellation = ticket.cancellation();
        assert!(ticket.complete(), "it may answer");
        assert!(!cancellation.is_cancelled(), "completed, not cancelled");
        assert!(!future.is_aborted());
    }

    #[test]
    fn an_id_names_one_call_at_a_time() {
        let table = Arc::new(InFlight::new(4));
        let (first, _registration) = table.start(&id(json!(1))).unwrap();
        let error = table.start(&id(json!(1))).err().unwrap();
        assert_eq!(
            error.message,
            "Invalid Request: id 1 is already used by a request in flight"
        );
        // "1" and 1 are different ids.
        assert!(table.start(&id(json!("1"))).is_ok());
        assert!(first.complete());
        assert!(
            table.start(&id(json!(1))).is_ok(),
            "free again once answered"
        );
    }

    #[test]
    fn past_the_cap_a_call_is_refused_until_one_ends() {
        let table = Arc::new(InFlight::new(2));
        let (first, _) = table.start(&id(json!(1))).unwrap();
        let _second = table.start(&id(json!(2))).unwrap();
        let error = table.start(&id(json!(3))).err().unwrap();
        assert_eq!(error.code, codes::SERVER_BUSY);
        assert_eq!(
            error.message,
            "Server busy: 2 requests are already running on this connection (the limit); send it again once one has answered"
        );
        assert!(first.complete());
        assert!(table.start(&id(json!(3))).is_ok(), "a place is free again");
    }

    #[test]
    fn cancelling_reaches_the_context_and_the_future_and_forbids_the_answer() {
        let table = Arc::new(InFlight::new(4));
        let (ticket, registration) = table.start(&id(json!("a"))).unwrap();
        let future =
            futures_util::future::Abortable::new(std::future::pending::<()>(), registration);
        assert!(table.cancel(&id(json!("a"))));
        assert!(ticket.is_cancelled());
        assert!(future.is_aborted());
        assert!(!ticket.complete(), "a cancelled call sends no response");
        assert!(!table.cancel(&id(json!("a"))), "an unknown id is ignored");
    }

    #[test]
    fn a_dropped_ticket_cancels_and_an_old_ticket_does_not_touch_a_reused_id() {
        let table = Arc::new(InFlight::new(4));
        let (old, _) = table.start(&id(json!(5))).unwrap();
        let old_cancellation = old.cancellation();
        table.cancel(&id(json!(5)));
        let (new, _) = table.start(&id(json!(5))).unwrap();
        drop(old);
        assert!(old_cancellation.is_cancelled());
        assert!(
            !new.is_cancelled(),
            "the old ticket left the new call alone"
        );
        let new_cancellation = new.cancellation();
        drop(new);
        assert!(
            new_cancellation.is_cancelled(),
            "dropping before completion cancels"
        );
        assert!(table.is_empty());
    }
}
