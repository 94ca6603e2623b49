//! Room for a client waiting to connect. When the connection cap is reached and a client waits,
//! a connection gives its place up, as nginx and hyper-based servers do: the next response to
//! finish says `Connection: close`, or, when none has within [`IDLE_ENOUGH`], the longest idle
//! connection (no request in progress for at least that long) is closed. So keep-alive clients
//! cannot starve the others, and a client that opens connections and sends nothing holds them
//! only until someone waits. A connection that is asked but does not close within
//! [`IDLE_ENOUGH`] (its request is still running) stops counting as making room, so another
//! one is asked.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::sync::lock;

/// How long a connection must have been idle before it is closed to make room, and how long a
/// waiting client first gives the busy connections to finish a response: a client that just had
/// its answer is about to send its next request, and closing under it would fail that request.
pub(super) const IDLE_ENOUGH: Duration = Duration::from_millis(250);

/// The connections of one listener, as far as making room goes.
#[derive(Default)]
pub(super) struct Connections {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    /// Connections with no request in progress: since when, and their seat.
    idle: HashMap<u64, (Instant, Arc<Seat>)>,
    /// Clients accepted past the cap, waiting for a place.
    waiting: usize,
    /// Connections on their way out to make room (at most one for each waiting client).
    giving: usize,
}

/// What the room and a connection share.
#[derive(Default)]
struct Seat {
    /// Notified when the connection is to close to make room.
    asked: Notify,
    /// Whether it is on its way out to make room.
    giving: AtomicBool,
    /// Closing: never idle again.
    leaving: AtomicBool,
    /// A request is in progress (from its headers to the end of its response).
    in_flight: AtomicBool,
    /// It answered a request: a connection that never did may be closed outright.
    served: AtomicBool,
}

impl State {
    /// Counts `seat`'s connection among those making room, if a waiting client still needs one.
    fn give(&mut self, seat: &Seat) -> bool {
        if self.giving >= self.waiting || seat.giving.swap(true, Ordering::Relaxed) {
            return false;
        }
        self.giving += 1;
        true
    }

    fn ungive(&mut self, seat: &Seat) {
        if seat.giving.swap(false, Ordering::Relaxed) {
            self.giving -= 1;
        }
    }
}

impl Connections {
    /// A connection joins, idle from now until its first request.
    pub(super) fn join(self: &Arc<Self>) -> Member {
        let seat = Arc::new(Seat::default());
        let mut state = lock(&self.state);
        let id = state.next_id;
        state.next_id += 1;
        state.idle.insert(id, (Instant::now(), Arc::clone(&seat)));
        Member {
            room: Arc::clone(self),
            id,
            seat,
        }
    }

    /// A client waits for a place.
    pub(super) fn wait(&self) {
        lock(&self.state).waiting += 1;
    }

    /// A client got its place.
    pub(super) fn waited(&self) {
        let mut state = lock(&self.state);
        state.waiting -= 1;
    }

    /// While clients wait and busy connections did not make room: asks the longest idle
    /// connection to close if it has been idle long enough. `Some(when)` is when the longest idle
    /// one will have been, if it has not yet.
    pub(super) fn close_idle(&self) -> Option<Instant> {
        let mut state = lock(&self.state);
        if state.giving >= state.waiting {
            return None;
        }
        let (&id, (since, _)) = state.idle.iter().min_by_key(|(_, (since, _))| *since)?;
        if since.elapsed() < IDLE_ENOUGH {
            return Some(*since + IDLE_ENOUGH);
        }
        let (_, seat) = state.idle.remove(&id)?;
        state.give(&seat);
        seat.asked.notify_one();
        tracing::debug!("a client waits for a place: the longest idle connection is closed");
        None
    }
}

/// One connection of the room.
pub(super) struct Member {
    room: Arc<Connections>,
    id: u64,
    seat: Arc<Seat>,
}

impl Member {
    /// A request came: the connection is not idle.
    pub(super) fn busy(&self) {
        let mut state = lock(&self.room.state);
        self.seat.in_flight.store(true, Ordering::Relaxed);
        state.idle.remove(&self.id);
    }

    /// Whether a request is in progress: asked to close then, the connection stays, and its
    /// response decides ([`Member::gives_way`]), since closing would hold the place for as long
    /// as that response lasts (a stream's whole life).
    pub(super) fn in_flight(&self) -> bool {
        let _state = lock(&self.room.state);
        self.seat.in_flight.load(Ordering::Relaxed)
    }

    /// Whether the connection answered a request yet: one that never did (a client that sent
    /// nothing, or half its headers) is closed outright to make room.
    pub(super) fn served(&self) -> bool {
        self.seat.served.load(Ordering::Relaxed)
    }

    /// A response is about to be sent: whether it closes its connection, because a client waits.
    pub(super) fn gives_way(&self) -> bool {
        lock(&self.room.state).give(&self.seat)
    }

    /// The response was sent: the connection is idle until its next request.
    pub(super) fn idle(&self) {
        let mut state = lock(&self.room.state);
        self.seat.in_flight.store(false, Ordering::Relaxed);
        self.seat.served.store(true, Ordering::Relaxed);
        if !self.seat.leaving.load(Ordering::Relaxed) {
            state
                .idle
                .insert(self.id, (Instant::now(), Arc::clone(&self.seat)));
        }
    }

    /// Completes when the connection is asked to close to make room.
    pub(super) async fn asked_to_close(&self) {
        self.seat.asked.notified().await;
    }

    /// Asked to close, it cannot yet (a request is on its way or in progress): another
    /// connection must make the room. Idle, it is idle from now.
    pub(super) fn stays(&self) {
        let mut state = lock(&self.room.state);
        state.ungive(&self.seat);
        if !self.seat.in_flight.load(Ordering::Relaxed)
            && !self.seat.leaving.load(Ordering::Relaxed)
        {
            state
                .idle
                .insert(self.id, (Instant::now(), Arc::clone(&self.seat)));
        }
    }

    /// Asked to close, it has not within [`IDLE_ENOUGH`] (its last request is still running): it
    /// no longer counts as making room, so another connection is asked.
    pub(super) fn slow_to_leave(&self) {
        lock(&self.room.state).ungive(&self.seat);
    }

    /// The connection closes.
    pub(super) fn leave(&self) {
        self.seat.leaving.store(true, Ordering::Relaxed);
        self.busy();
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        let mut state = lock(&self.room.state);
        state.idle.remove(&self.id);
        state.ungive(&self.seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `member` was asked to close.
    async fn asked(member: &Member) -> bool {
        tokio::time::timeout(Duration::from_millis(1), member.asked_to_close())
            .await
            .is_ok()
    }

    #[tokio::test(start_paused = true)]
    async fn the_longest_idle_connection_makes_room_once_idle_long_enough() {
        let room = Arc::new(Connections::default());
        let old = room.join();
        tokio::time::advance(Duration::from_millis(100)).await;
        let recent = room.join();
        assert_eq!(room.close_idle(), None, "nobody waits");
        room.wait();
        let when = room.close_idle().expect("not idle long enough yet");
        tokio::time::advance(when - Instant::now()).await;
        assert_eq!(room.close_idle(), None);
        assert!(asked(&old).await);
        assert!(!asked(&recent).await);
        assert!(!recent.gives_way(), "the place was made");
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_connection_gives_way_after_its_response() {
        let room = Arc::new(Connections::default());
        let member = room.join();
        member.busy();
        room.wait();
        tokio::time::advance(IDLE_ENOUGH * 4).await;
        assert_eq!(room.close_idle(), None, "no idle connection");
        assert!(!asked(&member).await);
        assert!(member.gives_way());
        assert!(!member.gives_way(), "one connection for one waiting client");
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_slow_to_leave_stops_counting_and_another_is_asked() {
        let room = Arc::new(Connections::default());
        let first = room.join();
        first.idle();
        tokio::time::advance(Duration::from_millis(10)).await;
        let second = room.join();
        second.idle();
        room.wait();
        tokio::time::advance(IDLE_ENOUGH).await;
        assert_eq!(room.close_idle(), None);
        assert!(asked(&first).await);
        assert_eq!(room.close_idle(), None, "one asked for one waiting client");
        assert!(!asked(&second).await);
        first.leave();
        first.slow_to_leave();
        assert_eq!(room.close_idle(), None);
        assert!(asked(&second).await, "the next idle one is asked");
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_asked_with_a_request_in_flight_stays_and_its_response_decides() {
        let room = Arc::new(Connections::default());
        let member = room.join();
        assert!(!member.served(), "a fresh connection answered nothing yet");
        member.busy();
        assert!(member.in_flight());
        member.stays();
        room.wait();
        tokio::time::advance(IDLE_ENOUGH * 4).await;
        assert_eq!(room.close_idle(), None, "not idle while its request runs");
        assert!(!asked(&member).await);
        member.idle();
        assert!(!member.in_flight() && member.served());
    }
}
