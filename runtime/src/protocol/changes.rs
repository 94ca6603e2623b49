//! [`ToolChanges`]: one subscriber's view of the tool set changing, for every place that
//! announces it (`subscriptions/listen`, the stdio loop, the legacy HTTP GET stream).

use tokio::sync::broadcast;

/// Wakes once per change of the tool set (a burst that overflowed the channel counts as one).
pub(crate) struct ToolChanges(broadcast::Receiver<()>);

impl ToolChanges {
    pub(crate) fn new(receiver: broadcast::Receiver<()>) -> Self {
        Self(receiver)
    }

    /// Completes at the next change; `None` once no change can come any more (every sender is
    /// gone, which a running server never lets happen).
    pub(crate) async fn next(&mut self) -> Option<()> {
        match self.0.recv().await {
            Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => Some(()),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_burst_that_overflows_is_one_change_and_a_closed_channel_ends() {
        let (sender, receiver) = broadcast::channel(1);
        let mut changes = ToolChanges::new(receiver);
        for _ in 0..3 {
            sender.send(()).unwrap();
        }
        assert_eq!(changes.next().await, Some(()), "lagged is a change");
        assert_eq!(changes.next().await, Some(()), "the last one is kept");
        drop(sender);
        assert_eq!(changes.next().await, None);
    }
}
