//! [`Change`] and [`Changes`]: one listener's view of what the server announces changed (the
//! tool, prompt and resource sets, a resource's contents), for every place that announces it
//! (`subscriptions/listen`, the stdio loop, the legacy HTTP GET stream).

use std::sync::Arc;

use tokio::sync::{Semaphore, broadcast};

use crate::jsonrpc::{Method, Outgoing};

/// Something that changed while the server serves, sent to every connection that may announce
/// it; each decides whether its client asked to hear it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// The tool set (`notifications/tools/list_changed`).
    Tools,
    /// The prompt set (`notifications/prompts/list_changed`).
    Prompts,
    /// The resource or resource-template set (`notifications/resources/list_changed`).
    Resources,
    /// The contents of the resource at this URI (`notifications/resources/updated`, to its
    /// subscribers).
    ResourceUpdated(Arc<str>),
}

/// What a listener heard: one change, or that it missed some (its receiver lagged behind a
/// burst larger than the channel): which ones is lost, so it is told as everything changing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Heard {
    Change(Change),
    Missed,
}

/// How many changes the channel holds for a listener that has not read them yet. A listener
/// further behind hears [`Heard::Missed`]: a server that announces thousands of changes
/// faster than a connection writes them out.
pub(crate) const CHANNEL_CAPACITY: usize = 1024;

/// The server's one channel of changes, and beside it (with the `redis` feature) the changes
/// raised in this process: what is told to this process's listeners, and what a transport
/// relays to other processes (the replicas of `crate::replicas`). A change heard from another
/// process is announced here (`ChangeSender::announce`) and never raised again, so nothing
/// echoes back. Each channel holds its `capacity` slots from the start (48 KiB at
/// [`CHANNEL_CAPACITY`]): a server that cannot relay has no second one.
#[derive(Debug, Clone)]
pub(crate) struct ChangeSender {
    listeners: broadcast::Sender<Change>,
    #[cfg(feature = "redis")]
    raised: broadcast::Sender<Change>,
}

impl ChangeSender {
    /// A channel holding `capacity` changes for each listener.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            listeners: broadcast::channel(capacity).0,
            #[cfg(feature = "redis")]
            raised: broadcast::channel(capacity).0,
        }
    }

    /// A change made in this process (the `Tools`, `Prompts`, `Resources` handles): told to
    /// its listeners and to whoever relays it (nobody, most of the time: then it costs nothing).
    pub(crate) fn raise(&self, change: Change) {
        #[cfg(feature = "redis")]
        if self.raised.receiver_count() > 0 {
            let _ = self.raised.send(change.clone());
        }
        let _ = self.listeners.send(change);
    }

    /// A change made elsewhere (another replica): told to this process's listeners only.
    #[cfg(feature = "redis")]
    pub(crate) fn announce(&self, change: Change) {
        let _ = self.listeners.send(change);
    }

    /// What this process's listeners hear: every change, raised here or announced.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.listeners.subscribe()
    }

    /// The changes raised in this process from now on (not those announced).
    #[cfg(feature = "redis")]
    pub(crate) fn raised(&self) -> broadcast::Receiver<Change> {
        self.raised.subscribe()
    }
}

/// One listener's view of the server's changes.
pub(crate) struct Changes(broadcast::Receiver<Change>);

impl Changes {
    pub(crate) fn new(receiver: broadcast::Receiver<Change>) -> Self {
        Self(receiver)
    }

    /// Completes at the next change; `None` once no change can come any more (every sender is
    /// gone, which a running server never lets happen).
    pub(crate) async fn next(&mut self) -> Option<Heard> {
        match self.0.recv().await {
            Ok(change) => Some(Heard::Change(change)),
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::debug!(missed, "a listener fell behind the server's changes");
                Some(Heard::Missed)
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }
}

/// Room in one output (a stdio connection, a listen stream's event stream) for the change
/// notifications its listeners send (`list_changed`, `resources/updated`, and a listen
/// stream's `notifications/tasks`): a listener takes a place before it sends one, the
/// transport gives it back once it is written. A listener whose
/// output is full waits before it takes the next change off the channel, so that it falls
/// behind the channel (and hears [`Heard::Missed`]) instead of queueing changes without bound
/// or seeing them dropped.
#[derive(Debug, Clone)]
pub(crate) struct Room(Arc<Semaphore>);

impl Room {
    /// Room for `places` change notifications not yet written (at least one).
    pub(crate) fn new(places: usize) -> Self {
        Self(Arc::new(Semaphore::new(
            places.clamp(1, Semaphore::MAX_PERMITS),
        )))
    }

    /// Waits for a place for one change notification, held until [`Room::written`] gives it
    /// back.
    pub(crate) async fn take(&self) {
        if let Ok(place) = self.0.acquire().await {
            place.forget();
        }
    }

    /// `message` was written: the place of a change or task notification is free again.
    pub(crate) fn written(&self, message: &Outgoing) {
        if let Outgoing::Notification(notification) = message
            && takes_a_place(&notification.method)
        {
            self.0.add_permits(1);
        }
    }
}

/// Whether a notification took a [`Room`] place: a change a listener heard, or a task's state
/// a listen stream sends (`listen.rs` takes a place for each; only it sends them).
pub(crate) fn takes_a_place(method: &Method) -> bool {
    matches!(
        method,
        Method::ToolsListChanged
            | Method::PromptsListChanged
            | Method::ResourcesListChanged
            | Method::ResourceUpdated
            | Method::TaskStatus
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "redis")]
    #[test]
    fn a_change_announced_from_elsewhere_is_heard_here_and_never_raised_again() {
        let sender = ChangeSender::new(8);
        let mut heard = sender.subscribe();
        let mut raised = sender.raised();
        sender.raise(Change::Tools);
        sender.announce(Change::Prompts);
        assert_eq!(heard.try_recv(), Ok(Change::Tools));
        assert_eq!(heard.try_recv(), Ok(Change::Prompts));
        assert_eq!(raised.try_recv(), Ok(Change::Tools));
        assert!(raised.try_recv().is_err(), "announced: not relayed back");
    }

    #[tokio::test]
    async fn a_burst_that_overflows_is_told_as_missed_and_a_closed_channel_ends() {
        let (sender, receiver) = broadcast::channel(1);
        let mut changes = Changes::new(receiver);
        sender.send(Change::Tools).unwrap();
        sender.send(Change::Prompts).unwrap();
        sender
            .send(Change::ResourceUpdated("a://b".into()))
            .unwrap();
        assert_eq!(
            changes.next().await,
            Some(Heard::Missed),
            "lagged is missed"
        );
        assert_eq!(
            changes.next().await,
            Some(Heard::Change(Change::ResourceUpdated("a://b".into()))),
            "the last one is kept"
        );
        drop(sender);
        assert_eq!(changes.next().await, None);
    }
}
