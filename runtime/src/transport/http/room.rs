//! Room for a client waiting to connect. When the connection cap is reached and a client waits,
//! a connection gives its place up, as nginx and hyper-based servers do: the longest idle one
//! (no request in progress for at least [`IDLE_ENOUGH`]) is closed, or else the next response
//! to finish says `Connection: close`. So keep-alive clients cannot starve the others, and a
//! client that opens connections and sends nothing holds them only until someone waits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::sync::lock;

/// How long a connection must have been idle before it is closed to make room: a client that
/// just had its answer is about to send its next request, and closing under it would fail that
/// request; such a connection closes after its next response instead.
pub(super) const IDLE_ENOUGH: Duration = Duration::from_millis(250);

/// The connections of one listener, as far as making room goes.
#[derive(Default)]
pub(super) struct Room {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    /// Connections with no request in progress: since when, and how to close one.
    idle: HashMap<u64, (Instant, CancellationToken)>,
    /// Whether a client waits for a place: the next response to finish closes its connection.
    wanted: bool,
}

impl Room {
    /// A connection joins, idle from now until its first request; `closing` closes it.
    pub(super) fn join(self: &Arc<Self>, closing: CancellationToken) -> Member {
        let mut state = lock(&self.state);
        let id = state.next_id;
        state.next_id += 1;
        state.idle.insert(id, (Instant::now(), closing.clone()));
        Member {
            room: Arc::clone(self),
            id,
            closing,
        }
    }

    /// A client waits for a place (or no longer does).
    pub(super) fn want(&self, wanted: bool) {
        lock(&self.state).wanted = wanted;
    }

    /// While a client waits: closes the longest idle connection if it has been idle long enough.
    /// `Some(when)` is when the longest idle one will have been, if it has not yet.
    pub(super) fn close_idle(&self) -> Option<Instant> {
        let mut state = lock(&self.state);
        if !state.wanted {
            return None;
        }
        let (&id, &(since, _)) = state.idle.iter().min_by_key(|(_, (since, _))| *since)?;
        if since.elapsed() < IDLE_ENOUGH {
            return Some(since + IDLE_ENOUGH);
        }
        let (_, closing) = state.idle.remove(&id)?;
        state.wanted = false;
        closing.cancel();
        tracing::debug!("a client waits for a place: the longest idle connection is closed");
        None
    }
}

/// One connection of the room.
pub(super) struct Member {
    room: Arc<Room>,
    id: u64,
    closing: CancellationToken,
}

impl Member {
    /// A request came: the connection is not idle.
    pub(super) fn busy(&self) {
        lock(&self.room.state).idle.remove(&self.id);
    }

    /// A response is about to be sent: whether it closes its connection, because a client waits.
    pub(super) fn gives_way(&self) -> bool {
        let mut state = lock(&self.room.state);
        std::mem::replace(&mut state.wanted, false)
    }

    /// The response was sent: the connection is idle until its next request.
    pub(super) fn idle(&self) {
        if !self.closing.is_cancelled() {
            lock(&self.room.state)
                .idle
                .insert(self.id, (Instant::now(), self.closing.clone()));
        }
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.busy();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_longest_idle_connection_makes_room_once_idle_long_enough() {
        let room = Arc::new(Room::default());
        let old = room.join(CancellationToken::new());
        tokio::time::advance(Duration::from_millis(100)).await;
        let recent = room.join(CancellationToken::new());
        assert_eq!(room.close_idle(), None, "nobody waits");
        room.want(true);
        let when = room.close_idle().expect("not idle long enough yet");
        tokio::time::advance(when - Instant::now()).await;
        assert_eq!(room.close_idle(), None);
        assert!(old.closing.is_cancelled());
        assert!(!recent.closing.is_cancelled());
        assert!(!recent.gives_way(), "the place was made");
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_connection_gives_way_after_its_response() {
        let room = Arc::new(Room::default());
        let member = room.join(CancellationToken::new());
        member.busy();
        room.want(true);
        tokio::time::advance(IDLE_ENOUGH * 4).await;
        assert_eq!(room.close_idle(), None, "no idle connection");
        assert!(!member.closing.is_cancelled());
        assert!(member.gives_way());
        assert!(!member.gives_way(), "one connection for one waiting client");
    }
}
