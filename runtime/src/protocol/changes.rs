//! [`Change`] and [`Changes`]: one subscriber's view of what the server announces changed (the
//! tool, prompt and resource sets, a resource's contents), for every place that announces it
//! (`subscriptions/listen`, the stdio loop, the legacy HTTP GET stream).

use std::sync::Arc;

use tokio::sync::broadcast;

/// Something that changed while the server serves, sent to every connection that may announce
/// it; each decides whether its client asked to hear it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// The tool set (`notifications/tools/list_changed`).
    Tools,
    /// The prompt set (`notifications/prompts/list_changed`).
    Prompts,
    /// The resource or resource-template set (`notifications/resources/list_changed`).
    #[allow(
        dead_code,
        reason = "scaffold: announced by the resource handle being built (issue 23)"
    )]
    Resources,
    /// The contents of the resource at this URI (`notifications/resources/updated`, to its
    /// subscribers).
    #[allow(
        dead_code,
        reason = "scaffold: announced by the resource handle being built (issue 23)"
    )]
    ResourceUpdated(Arc<str>),
}

/// Wakes once per change (a burst that overflowed the channel is told as a change of every
/// list: which ones changed is lost, and a listener refreshes what it lists).
pub(crate) struct Changes(broadcast::Receiver<Change>);

impl Changes {
    pub(crate) fn new(receiver: broadcast::Receiver<Change>) -> Self {
        Self(receiver)
    }

    /// Completes at the next change; `None` once no change can come any more (every sender is
    /// gone, which a running server never lets happen).
    pub(crate) async fn next(&mut self) -> Option<Change> {
        match self.0.recv().await {
            Ok(change) => Some(change),
            Err(broadcast::error::RecvError::Lagged(_)) => Some(Change::Tools),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }

    /// Completes at the next change of the tool set, skipping every other change.
    pub(crate) async fn next_tools(&mut self) -> Option<()> {
        loop {
            if self.next().await? == Change::Tools {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_burst_that_overflows_is_one_change_and_a_closed_channel_ends() {
        let (sender, receiver) = broadcast::channel(1);
        let mut changes = Changes::new(receiver);
        for _ in 0..3 {
            sender.send(Change::Tools).unwrap();
        }
        assert_eq!(
            changes.next().await,
            Some(Change::Tools),
            "lagged is a change"
        );
        assert_eq!(
            changes.next().await,
            Some(Change::Tools),
            "the last one is kept"
        );
        drop(sender);
        assert_eq!(changes.next().await, None);
    }
}
