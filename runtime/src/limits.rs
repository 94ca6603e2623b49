//! The limits every transport shares, in one place: set on [`crate::Server`], read by the
//! dispatcher (a call's time limit), the call lifecycle (calls in flight, batch items) and stdio
//! (line length, output queue), the tasks extension (tasks running at once, in all and per
//! principal), and the transports (the memory requests in flight hold together, a
//! [`MemoryBudget`]). HTTP's own limits are in `HttpConfig`. The tables on `Server` and
//! `HttpConfig` list them all. A call's time against its limit is a [`CallClock`], which stops while
//! the call waits for its client's answer.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::sync::lock;

/// What one connection may ask of the server at once, and for how long.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// How long one tool call may run before it is stopped and answered with an `isError`
    /// result.
    pub(crate) call_timeout: Duration,
    /// Calls one connection (stdio, a legacy HTTP session) may have running at once; past it a
    /// request is refused at once with `codes::SERVER_BUSY`.
    pub(crate) max_calls_in_flight: usize,
    /// Items one JSON-RPC batch (2025-03-26) may hold; a longer batch is refused whole.
    pub(crate) max_batch_items: usize,
    /// The longest stdio line, in bytes.
    pub(crate) max_line_bytes: usize,
    /// Answers waiting to be written to stdio before the server stops reading input; and,
    /// counted apart, notifications waiting before tools' progress and log notifications are
    /// dropped.
    pub(crate) max_queued_messages: usize,
    /// The memory the requests in flight may hold together (the stdio client's; over HTTP,
    /// every request's); past it a request is refused.
    pub(crate) memory: MemoryBudget,
    /// The memory every listener's resource subscriptions hold together, server-wide (as large
    /// as `memory`, counted apart, so that subscriptions never crowd out requests); past it a
    /// subscription is refused as past a listener's own cap.
    pub(crate) subscription_memory: MemoryBudget,
    /// Tasks (the tasks extension) running at once, server-wide; past it a required task is
    /// refused with `codes::SERVER_BUSY` and an optional one runs as an ordinary call.
    pub(crate) tasks: usize,
    /// Tasks one principal runs at once (a caller without auth: `tasks` alone, `caps`' rule).
    pub(crate) tasks_per_principal: usize,
    /// The server's rate limit on every request, per principal, and where its state is kept.
    pub(crate) rate: crate::rate_limit::RateLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            call_timeout: Duration::from_mins(5),
            max_calls_in_flight: 1024,
            max_batch_items: 1024,
            max_line_bytes: 4 * 1024 * 1024,
            max_queued_messages: 1024,
            memory: MemoryBudget::new(DEFAULT_REQUEST_MEMORY),
            subscription_memory: MemoryBudget::new(DEFAULT_REQUEST_MEMORY),
            tasks: 1024,
            tasks_per_principal: 64,
            rate: crate::rate_limit::RateLimits::default(),
        }
    }
}

/// The default of `Server::max_request_memory`: 64 MiB.
pub(crate) const DEFAULT_REQUEST_MEMORY: usize = 64 * 1024 * 1024;

/// The bytes that requests in flight hold together, and the most they may; shared by every
/// clone. A message is held at `jsonrpc::PARSE_WEIGHT` times its text while it is parsed (so parses at
/// once are bounded too), then at what its parse holds (`jsonrpc::Incoming::held_bytes`) until
/// it is answered.
///
/// A parse reserves at most half the budget, yet what it builds (the members a method reads,
/// `arguments` and `_meta`, are built whole) may cost up to its weighted size: so a parse
/// weighing more than half the budget, and a response or notification parsed with no room
/// reserved, go one at a time (the *lane*). What parsing and the requests in flight hold
/// together is thus at most the budget plus one parse of the largest message allowed.
#[derive(Clone, Debug)]
pub(crate) struct MemoryBudget {
    max: usize,
    held: Arc<AtomicUsize>,
    /// One permit: the one parse at a time that may cost more than it reserved.
    lane: Arc<Semaphore>,
}

/// Bytes of a [`MemoryBudget`] one request holds, given back when dropped.
#[derive(Debug)]
pub(crate) struct Held {
    bytes: usize,
    max: usize,
    /// The budget's count of bytes held.
    total: Arc<AtomicUsize>,
    /// The budget's lane, while a parse that may cost more than it reserved runs; given back
    /// once the parse is over ([`Held::resize`]).
    lane: Option<OwnedSemaphorePermit>,
}

impl MemoryBudget {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            max,
            held: Arc::default(),
            lane: Arc::new(Semaphore::new(1)),
        }
    }

    /// The most the requests in flight may hold together, in bytes.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Nothing held yet, to hold what a message parsed already needs ([`Held::resize`]).
    pub(crate) fn nothing(&self) -> Held {
        Held {
            bytes: 0,
            max: self.max,
            total: Arc::clone(&self.held),
            lane: None,
        }
    }

    /// Room to parse a message of `text_bytes` bytes, or `None` when there is none now. A parse
    /// takes at most half the budget, so that a large message is read while smaller requests
    /// hold the rest; a parse weighing more than that takes the lane too (one at a time).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn parsing(&self, text_bytes: usize) -> Option<Held> {
        let weighted = text_bytes.saturating_mul(crate::jsonrpc::PARSE_WEIGHT);
        let lane = if weighted > self.max / 2 {
            Some(Arc::clone(&self.lane).try_acquire_owned().ok()?)
        } else {
            None
        };
        let mut held = self.nothing();
        if !held.resize(weighted.min(self.max / 2)) {
            return None;
        }
        held.lane = lane;
        Some(held)
    }

    /// Room to parse a message that must be read whatever the budget holds (a response to our
    /// request, a notification: they hold nothing once parsed): no bytes reserved, the lane
    /// waited for, so that such parses cost at most one at a time.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) async fn parsing_in_lane(&self) -> Held {
        let mut held = self.nothing();
        held.lane = Arc::clone(&self.lane).acquire_owned().await.ok();
        held
    }
}

impl Held {
    /// The bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Holds `bytes` from now on (what the parsed message holds); `false`, holding as much as
    /// before, when more would pass the budget.
    pub(crate) fn resize(&mut self, bytes: usize) -> bool {
        // The message is parsed: its parse no longer needs the lane.
        self.lane = None;
        if bytes <= self.bytes {
            self.total.fetch_sub(self.bytes - bytes, Ordering::AcqRel);
            self.bytes = bytes;
            return true;
        }
        let more = bytes - self.bytes;
        let taken = self
            .total
            .fetch_update(Ordering::AcqRel, Ordering::Relaxed, |current| {
                current.checked_add(more).filter(|&total| total <= self.max)
            });
        if taken.is_ok() {
            self.bytes = bytes;
        }
        taken.is_ok()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.total.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// A call's own time, measured against its time limit: it stops while the call waits for the
/// client's answer to a question (elicitation, sampling, roots), as a person may take minutes
/// to answer, and `ASK_TIMEOUT` bounds that wait on its own. Shared by the call's questions
/// and its time limit (`call::time_limited`).
#[derive(Default)]
pub(crate) struct CallClock {
    state: Mutex<Paused>,
    /// Notified when the last question waiting is answered (or given up).
    resumed: Notify,
}

/// The time the clock stood still.
#[derive(Default)]
struct Paused {
    /// Questions waiting for their answers.
    asking: usize,
    /// Since when the clock stands still, while `asking > 0`.
    since: Option<Instant>,
    /// How long it stood still before.
    total: Duration,
}

impl CallClock {
    /// Stops the clock until the returned guard is dropped (the answer came, or the question
    /// was given up). Questions asked at once stop it once.
    pub(crate) fn pause(&self) -> Pause<'_> {
        let mut paused = lock(&self.state);
        paused.asking += 1;
        paused.since.get_or_insert_with(Instant::now);
        Pause(self)
    }

    /// Resolves once the call started at `start` has used `limit` of its own time.
    pub(crate) async fn reached(&self, start: Instant, limit: Duration) {
        loop {
            let resumed = self.resumed.notified();
            let mut resumed = std::pin::pin!(resumed);
            resumed.as_mut().enable();
            // `None` while a question waits (or when the limit is past any time).
            let deadline = {
                let paused = lock(&self.state);
                match paused.since {
                    Some(_) => None,
                    None => start
                        .checked_add(limit)
                        .and_then(|end| end.checked_add(paused.total)),
                }
            };
            match deadline {
                Some(deadline) if deadline <= Instant::now() => return,
                // A question asked meanwhile is seen when the sleep ends.
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => resumed.await,
            }
        }
    }
}

/// The clock stands still while this lives: see [`CallClock::pause`].
pub(crate) struct Pause<'a>(&'a CallClock);

impl Drop for Pause<'_> {
    fn drop(&mut self) {
        let mut paused = lock(&self.0.state);
        paused.asking -= 1;
        if paused.asking == 0
            && let Some(since) = paused.since.take()
        {
            paused.total += since.elapsed();
            drop(paused);
            self.0.resumed.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_budget_bounds_what_requests_hold_together() {
        let budget = MemoryBudget::new(1000);
        let mut big = budget
            .parsing(100)
            .expect("a parse takes half the budget at most");
        let other = budget.parsing(15).expect("and another the rest");
        assert!(budget.parsing(1).is_none(), "past the budget");
        drop(other);
        assert!(big.resize(10), "parsed: it holds what it needs");
        let mut small = budget.parsing(10).unwrap();
        assert!(!small.resize(991), "more than is left");
        assert!(small.resize(990));
        drop(big);
        assert!(
            budget.parsing(0).is_some(),
            "what holds nothing is always taken"
        );
        drop(small);
        let big_parse = budget.parsing(501).expect("past half the budget: the lane");
        assert!(budget.parsing(501).is_none(), "one such parse at a time");
        assert!(budget.parsing(10).is_some(), "smaller ones go on");
        drop(big_parse);
        let mut in_lane = budget.parsing(501).unwrap();
        assert!(in_lane.resize(10), "parsed");
        assert!(
            budget.parsing(501).is_some(),
            "the lane is free once parsed"
        );
        drop(in_lane);
        assert_eq!(
            budget.held.load(Ordering::Relaxed),
            0,
            "every byte given back"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_clock_stands_still_while_any_question_waits() {
        let clock = CallClock::default();
        let start = Instant::now();
        let reached = async {
            clock.reached(start, Duration::from_mins(1)).await;
            start.elapsed()
        };
        let asking = async {
            tokio::time::sleep(Duration::from_secs(10)).await;
            let first = clock.pause();
            tokio::time::sleep(Duration::from_secs(5)).await;
            let second = clock.pause();
            tokio::time::sleep(Duration::from_secs(20)).await;
            drop(first);
            tokio::time::sleep(Duration::from_secs(10)).await;
            // Stood still from 10 s to 45 s.
            drop(second);
        };
        let (reached_at, ()) = tokio::join!(reached, asking);
        assert_eq!(reached_at, Duration::from_secs(95));
    }
}
