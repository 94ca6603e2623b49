//! The requests a legacy connection has sent its client and not yet had answered: each gets an
//! id of its own, and the client's response (a message without a method) is routed back to the
//! call waiting for it.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::jsonrpc::{ErrorObject, Id, Method, Notification, Outgoing, OutgoingSender, Reply};
use crate::sync::lock;

/// One connection's requests to its client, waiting for their answers.
#[derive(Default)]
pub(crate) struct Pending {
    next: AtomicU64,
    /// Put before each id (`"{prefix}-{n}"`, a string) when the client's answer may reach
    /// another process than the one that asked (replicas: the prefix names the replica).
    prefix: Option<Arc<str>>,
    waiting: Mutex<HashMap<String, oneshot::Sender<Result<Value, ErrorObject>>>>,
}

/// A request sent and not yet answered. Dropping it unanswered (the call was cancelled or gave
/// up waiting) forgets the request, so a late answer finds nobody and is ignored, and tells the
/// client with `notifications/cancelled`, so it can stop asking its user.
pub(crate) struct Waiting {
    pub(crate) id: Id,
    key: String,
    pending: Arc<Pending>,
    answer: Option<oneshot::Receiver<Result<Value, ErrorObject>>>,
    /// Where the cancellation goes, once the request was sent.
    cancel_to: Option<OutgoingSender>,
    answered: bool,
}

impl Pending {
    /// Requests whose ids are `"{prefix}-{n}"` strings.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "replicas name themselves in their ids")
    )]
    pub(crate) fn prefixed(prefix: &str) -> Self {
        Self {
            prefix: Some(Arc::from(prefix)),
            ..Self::default()
        }
    }

    /// A fresh id, registered as waiting for its answer.
    pub(crate) fn register(self: &Arc<Self>) -> Waiting {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let id = match &self.prefix {
            Some(prefix) => Id::from_value(&Value::String(format!("{prefix}-{n}"))),
            None => Id::from(n),
        };
        let key = id.key();
        let (sender, receiver) = oneshot::channel();
        lock(&self.waiting).insert(key.clone(), sender);
        Waiting {
            id,
            key,
            pending: Arc::clone(self),
            answer: Some(receiver),
            cancel_to: None,
            answered: false,
        }
    }

    /// Hands the client's answer to the call waiting for it. `false` when nobody is: an id we
    /// never sent, or a request already answered or given up.
    pub(crate) fn answer(&self, reply: Reply) -> bool {
        let waiting = lock(&self.waiting).remove(&reply.id.key());
        if let Some(sender) = waiting {
            sender.send(reply.outcome).is_ok()
        } else {
            tracing::debug!(id = reply.id.key(), "a response to no request of ours");
            false
        }
    }
}

impl Waiting {
    /// The answer; `None` when the connection ended first.
    pub(crate) async fn answer(&mut self) -> Option<Result<Value, ErrorObject>> {
        let answer = self.answer.as_mut()?.await.ok();
        self.answered = true;
        answer
    }

    /// The request was sent on `out`: a cancellation, if one is due, goes there too.
    pub(crate) fn sent_on(&mut self, out: OutgoingSender) {
        self.cancel_to = Some(out);
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let forgotten = lock(&self.pending.waiting).remove(&self.key).is_some();
        if let (false, true, Some(out)) = (self.answered, forgotten, self.cancel_to.take()) {
            let params = json!({"requestId": self.id, "reason": "The tool call that asked ended"});
            let _ = out.unbounded_send(Outgoing::Notification(Box::new(Notification::new(
                Method::Cancelled,
                params,
            ))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::outgoing_channel;

    #[tokio::test]
    async fn an_answer_reaches_its_request_and_no_other() {
        let pending = Arc::new(Pending::default());
        let mut first = pending.register();
        let second = pending.register();
        assert_ne!(first.id, second.id);
        let reply = |id: &Id, outcome| Reply {
            id: id.clone(),
            outcome,
        };
        assert!(pending.answer(reply(&first.id, Ok(json!({"ok": true})))));
        assert_eq!(first.answer().await, Some(Ok(json!({"ok": true}))));
        assert!(
            !pending.answer(reply(&first.id, Ok(json!(1)))),
            "answered once"
        );
        let (out, mut sent) = outgoing_channel();
        let mut second = second;
        second.sent_on(out);
        let gone = second.id.clone();
        drop(second);
        assert!(!pending.answer(reply(&gone, Ok(json!(1)))), "given up");
        assert!(lock(&pending.waiting).is_empty());
        let Ok(Outgoing::Notification(cancelled)) = sent.try_recv() else {
            panic!("the client is told");
        };
        assert_eq!(cancelled.method, Method::Cancelled);
        assert_eq!(cancelled.params.unwrap()["requestId"], json!(2));
    }
}
