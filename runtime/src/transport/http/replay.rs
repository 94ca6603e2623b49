//! The event log of legacy SSE streams: what lets a client that lost its connection resume a
//! stream with `GET` + `Last-Event-ID` (2025-03-26 … 2025-11-25; 2026-07-28 has no
//! resumability).
//!
//! Every legacy session stream (a POST's request-scoped stream once it opens, and the session's
//! GET stream) is a [`LoggedStream`]: the call (for a GET stream, the endpoint's `get_writer`)
//! writes each message to it, numbered from 1, and the connections that read it *follow* it
//! from a sequence number.
//! A POST's own connection is its first follower; a resuming GET is another, from the event
//! after its `Last-Event-ID`. Nothing is written for a call answered as plain JSON.
//!
//! Event ids are `{stream}-{seq}`: `stream` a random id (`get-{random}` for a GET stream),
//! `seq` counting from 1, the priming event (2025-11-25: an id and empty data, so the client has
//! an id to resume from before any message) seq 0.
//!
//! What is kept: per stream the last `max_replay_events`, for `replay_ttl` after the stream's
//! last event; in total at most [`MAX_LOGGED_BYTES`] of messages, the streams whose last event is
//! oldest forgotten first (a forgotten stream that is still running goes on for the connections
//! that follow it; it can no longer be resumed). With Redis, every event is also written to the
//! shared log (`replicas::events`), so any replica resumes it.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;
use futures_util::Stream;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

#[cfg(feature = "redis")]
use crate::replicas::events::{Shared, SharedEvents};

use crate::jsonrpc::Id;
use crate::sync::lock;

/// The most bytes of messages the in-memory log keeps, all streams together (64 MiB).
pub(crate) const MAX_LOGGED_BYTES: usize = 64 * 1024 * 1024;

/// How often a follower with nothing to send writes an SSE comment, so that proxies and clients
/// do not take a quiet stream for a dead one.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What the log of one endpoint keeps: its streams, by id.
pub(super) struct EventLog {
    /// Shared with the task that forgets expired streams while no request comes.
    index: Arc<Mutex<Index>>,
    /// Whether that task was started (by the first stream opened: a runtime runs it).
    sweeping: std::sync::atomic::AtomicBool,
    max_events: usize,
    ttl: Duration,
    max_bytes: usize,
    /// The bytes of messages the streams hold, all together.
    held: Arc<AtomicUsize>,
    /// Where the tasks that write streams run: the server waits for them at shutdown (within
    /// its grace time), as for requests in flight.
    pub(super) running: TaskTracker,
    /// The log shared with the other replicas, with Redis.
    #[cfg(feature = "redis")]
    pub(super) shared: Option<SharedEvents>,
}

struct Index {
    streams: HashMap<String, Arc<LoggedStream>>,
    /// When the expired streams were last forgotten: at most once per [`SWEEP_EVERY`], so that
    /// opening a stream costs the same with ten thousand open.
    swept: Instant,
}

/// How often the expired streams are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Which stream of a session.
#[derive(Clone, Debug)]
pub(crate) enum StreamKind {
    /// The request-scoped stream of a POST: its notifications, requests to the client, then its
    /// response (which ends it). Its request's id is kept with it in the shared log.
    Call(
        #[cfg_attr(
            not(feature = "redis"),
            expect(dead_code, reason = "read by the shared log")
        )]
        Id,
    ),
    /// The session's GET stream of server-initiated messages.
    Get,
}

/// One logged stream.
pub(crate) struct LoggedStream {
    pub(crate) id: String,
    /// The session it belongs to: only a request of that session may resume it.
    pub(crate) session: String,
    pub(crate) kind: StreamKind,
    state: Mutex<State>,
    /// Wakes the followers waiting for an event, the end or a take-over (a `Notify`, not a
    /// `watch`: a `watch` channel is a third of a GET stream's own memory).
    written: Notify,
    max_events: usize,
    /// The log's count of the bytes all streams hold.
    held: Arc<AtomicUsize>,
    /// Its copy in the shared log, with Redis.
    #[cfg(feature = "redis")]
    mirror: Option<crate::replicas::events::Mirror>,
}

struct State {
    events: VecDeque<Logged>,
    next: u64,
    ended: bool,
    last_event: Instant,
    bytes: usize,
    /// Which connection follows it: each one that takes it over counts one more, and the one
    /// before ends at its next look (a number, where a token each would be an allocation).
    follower: u64,
}

/// One event: its sequence number and its message, serialized once.
#[derive(Clone)]
pub(crate) struct Logged {
    pub(crate) seq: u64,
    pub(crate) data: Arc<str>,
}

impl EventLog {
    pub(super) fn new(
        max_events: usize,
        max_bytes: usize,
        ttl: Duration,
        running: TaskTracker,
    ) -> Self {
        Self {
            index: Arc::new(Mutex::new(Index {
                streams: HashMap::new(),
                swept: Instant::now(),
            })),
            sweeping: std::sync::atomic::AtomicBool::new(false),
            held: Arc::default(),
            max_events: max_events.max(1),
            ttl,
            max_bytes,
            running,
            #[cfg(feature = "redis")]
            shared: None,
        }
    }

    /// A new stream of `session`, registered so it can be resumed. `None` when no random id
    /// can be had (the stream then goes unlogged: it cannot be resumed).
    pub(super) fn open(&self, session: &str, kind: StreamKind) -> Option<Arc<LoggedStream>> {
        let random = crate::random::id().ok()?;
        let id = match kind {
            StreamKind::Call(_) => random,
            StreamKind::Get => format!("get-{random}"),
        };
        #[cfg(feature = "redis")]
        let mirror = self.shared.as_ref().map(|shared| {
            let request = match &kind {
                StreamKind::Call(request) => Some(request.to_value()),
                StreamKind::Get => None,
            };
            shared.mirror(&id, session, request, &self.running)
        });
        let stream = Arc::new(LoggedStream {
            id: id.clone(),
            session: session.to_owned(),
            kind,
            state: Mutex::new(State {
                events: VecDeque::new(),
                next: 1,
                ended: false,
                last_event: Instant::now(),
                bytes: 0,
                follower: 0,
            }),
            written: Notify::new(),
            max_events: self.max_events,
            held: Arc::clone(&self.held),
            #[cfg(feature = "redis")]
            mirror,
        });
        let mut index = lock(&self.index);
        self.sweep(&mut index);
        index.streams.insert(id, Arc::clone(&stream));
        drop(index);
        self.keep_sweeping();
        Some(stream)
    }

    /// Forgets the expired streams every [`SWEEP_EVERY`] from now on, requests or none (an idle
    /// server keeps nothing past `replay_ttl`), until the log is dropped.
    fn keep_sweeping(&self) {
        if self.sweeping.swap(true, Ordering::Relaxed) {
            return;
        }
        let (index, ttl) = (Arc::downgrade(&self.index), self.ttl);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(index) = index.upgrade() else { return };
                forget_expired(&mut lock(&index), ttl);
            }
        });
    }

    /// The stream `event_id` names and the sequence number it names, if this log knows it and
    /// it belongs to `session`; any other stream (another session's, an expired one) is unknown.
    pub(super) fn find(&self, event_id: &str, session: &str) -> Option<(Arc<LoggedStream>, u64)> {
        let (stream, seq) = parse_event_id(event_id)?;
        let mut index = lock(&self.index);
        self.sweep(&mut index);
        let stream = index.streams.get(stream)?;
        (stream.session == session).then(|| (Arc::clone(stream), seq))
    }

    /// Forgets the streams past their time (ended `ttl` ago), then, past the total,
    /// the streams whose last event is oldest.
    fn sweep(&self, index: &mut Index) {
        if index.swept.elapsed() >= SWEEP_EVERY {
            forget_expired(index, self.ttl);
        }
        if self.held.load(Ordering::Relaxed) <= self.max_bytes {
            return;
        }
        let mut total: usize = index.streams.values().map(|s| s.bytes()).sum();
        let mut by_age: Vec<(Instant, String, usize)> = index
            .streams
            .iter()
            .map(|(id, stream)| (stream.last_event(), id.clone(), stream.bytes()))
            .collect();
        by_age.sort();
        for (_, id, bytes) in by_age {
            if total <= self.max_bytes {
                break;
            }
            index.streams.remove(&id);
            total -= bytes;
        }
    }
}

/// Forgets the streams that ended `ttl` ago.
fn forget_expired(index: &mut Index, ttl: Duration) {
    index.streams.retain(|_, stream| !stream.expired(ttl));
    index.swept = Instant::now();
}

/// `{stream}-{seq}` into its parts; `None` for a stream id not of the shape we mint (so a
/// client's text never becomes a key, in memory or in Redis).
pub(super) fn parse_event_id(event_id: &str) -> Option<(&str, u64)> {
    let (stream, seq) = event_id.rsplit_once('-')?;
    let seq = seq.parse().ok()?;
    let random = stream.strip_prefix("get-").unwrap_or(stream);
    crate::random::is_id(random).then_some((stream, seq))
}

impl LoggedStream {
    /// The id of event `seq` of this stream.
    pub(crate) fn event_id(&self, seq: u64) -> String {
        format!("{}-{seq}", self.id)
    }

    /// Writes `message` (an `Outgoing`, or a notification alone) as the stream's next event;
    /// its sequence number.
    pub(crate) fn push(&self, message: &impl serde::Serialize) -> u64 {
        let data: Arc<str> = serde_json::to_string(message)
            .unwrap_or_else(|_| String::from("{}"))
            .into();
        self.push_serialized(data)
    }

    /// Writes a message already serialized as the stream's next event.
    pub(crate) fn push_serialized(&self, data: Arc<str>) -> u64 {
        let seq = {
            let mut state = lock(&self.state);
            let seq = state.next;
            state.next += 1;
            state.bytes += data.len();
            self.held.fetch_add(data.len(), Ordering::Relaxed);
            #[cfg(feature = "redis")]
            let mirrored = Arc::clone(&data);
            state.events.push_back(Logged { seq, data });
            while state.events.len() > self.max_events {
                if let Some(old) = state.events.pop_front() {
                    state.bytes -= old.data.len();
                    self.held.fetch_sub(old.data.len(), Ordering::Relaxed);
                }
            }
            #[cfg(feature = "redis")]
            if let Some(mirror) = &self.mirror {
                mirror.event(seq, mirrored, state.bytes);
            }
            state.last_event = Instant::now();
            seq
        };
        self.written.notify_waiters();
        seq
    }

    /// The stream ends: followers end once they have sent what it holds.
    pub(crate) fn end(&self) {
        {
            let mut state = lock(&self.state);
            state.ended = true;
            state.last_event = Instant::now();
            #[cfg(feature = "redis")]
            if let Some(mirror) = &self.mirror {
                mirror.end();
            }
        }
        self.written.notify_waiters();
    }

    /// Takes the stream over for a connection that now follows it: the one that followed it so
    /// far ends (a message goes out on one connection, never two: a client resuming while its
    /// old connection is not yet seen to close, or resuming twice). Its follower's number.
    fn take_over(&self) -> u64 {
        let follower = {
            let mut state = lock(&self.state);
            state.follower += 1;
            state.follower
        };
        self.written.notify_waiters();
        follower
    }

    /// The sequence number of the last event written (0 before any).
    pub(crate) fn last_seq(&self) -> u64 {
        lock(&self.state).next - 1
    }

    /// Whether it ended.
    #[cfg(test)]
    pub(crate) fn has_ended(&self) -> bool {
        lock(&self.state).ended
    }

    /// Whether it ended `ttl` ago or more (a running stream is kept: its client may resume it
    /// until it ends).
    fn expired(&self, ttl: Duration) -> bool {
        let state = lock(&self.state);
        state.ended && state.last_event.elapsed() >= ttl
    }

    fn bytes(&self) -> usize {
        lock(&self.state).bytes
    }

    fn last_event(&self) -> Instant {
        lock(&self.state).last_event
    }

    /// The first event kept after `after`, or whether the stream ended (for `follower`, also
    /// when another connection took it over).
    fn next_after(&self, after: u64, follower: u64) -> Next {
        let state = lock(&self.state);
        if state.follower != follower {
            return Next::End;
        }
        // Events are in order: the first past `after` (skipping any the bound dropped).
        let at = state.events.partition_point(|event| event.seq <= after);
        match state.events.get(at) {
            Some(event) => Next::Event(event.clone()),
            None if state.ended => Next::End,
            None => Next::Wait,
        }
    }

    /// The events after `after` as an SSE response body, taking the stream over (see
    /// [`frames`](Self::frames)).
    pub(crate) fn follow<K: Send + 'static>(
        self: Arc<Self>,
        after: u64,
        prime: bool,
        stop: Option<CancellationToken>,
        keep: K,
    ) -> Body {
        Body::from_stream(self.frames(after, prime, stop, keep))
    }

    /// The events after `after` as SSE frames, first the priming event when `prime` (its id
    /// `after`): what is kept, then what comes, until the stream ends, another connection
    /// takes it over, or `stop` is cancelled. `keep` is held as long as the frames live (a
    /// place, a stream guard), in the follower itself.
    pub(crate) fn frames<K: Send + 'static>(
        self: Arc<Self>,
        after: u64,
        prime: bool,
        stop: Option<CancellationToken>,
        keep: K,
    ) -> impl Stream<Item = Result<Bytes, Infallible>> + Send + 'static {
        let priming =
            prime.then(|| Bytes::from(format!("id: {}\ndata: \n\n", self.event_id(after))));
        let follower = Follower {
            number: self.take_over(),
            stream: self,
            after,
            priming,
            stop,
            _keep: keep,
        };
        futures_util::stream::unfold(follower, Follower::next)
    }
}

/// SSE frames, as a response body takes them.
pub(crate) type Frames = futures_util::stream::BoxStream<'static, Result<Bytes, Infallible>>;

/// One connection following a stream.
struct Follower<K> {
    stream: Arc<LoggedStream>,
    /// Its number among the stream's followers ([`LoggedStream::take_over`]).
    number: u64,
    /// The last sequence number sent.
    after: u64,
    priming: Option<Bytes>,
    /// Cancelled, it ends the follower (not the stream).
    stop: Option<CancellationToken>,
    _keep: K,
}

impl<K> Follower<K> {
    /// The next frame: the priming event, an event, or a keep-alive comment; `None` at the end.
    /// Not an async fn, whose future would hold the follower twice (as taken, and as moved
    /// into its body): the block holds it once, where it was captured.
    #[expect(
        clippy::manual_async_fn,
        reason = "an async fn's future would hold the follower twice"
    )]
    fn next(mut self) -> impl Future<Output = Option<(Result<Bytes, Infallible>, Self)>> {
        async move {
            if let Some(priming) = self.priming.take() {
                // Its id reaches the client only once another replica could resume the stream.
                #[cfg(feature = "redis")]
                if let Some(mirror) = &self.stream.mirror {
                    mirror.opened().await;
                }
                return Some((Ok(priming), self));
            }
            loop {
                // Waiting before looking: an event written after the look wakes the wait.
                let stream = Arc::clone(&self.stream);
                let written = stream.written.notified();
                let mut written = std::pin::pin!(written);
                written.as_mut().enable();
                match stream.next_after(self.after, self.number) {
                    Next::Event(event) => {
                        self.after = event.seq;
                        let frame = frame(&stream.event_id(event.seq), &event.data);
                        return Some((Ok(frame), self));
                    }
                    Next::End => return None,
                    Next::Wait => {}
                }
                let stopped = async {
                    match &self.stop {
                        Some(stop) => stop.cancelled().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    () = written => {}
                    () = stopped => return None,
                    () = tokio::time::sleep(KEEP_ALIVE) => {
                        return Some((Ok(Bytes::from_static(b":\n\n")), self));
                    }
                }
            }
        }
    }
}

/// A stream another replica writes, followed from the shared log: its events as SSE frames,
/// and a keep-alive comment while it is quiet. `keep` is held as long as the frames live.
#[cfg(feature = "redis")]
pub(crate) fn shared_frames(
    stream: String,
    events: futures_util::stream::BoxStream<'static, Shared>,
    keep: Vec<Box<dyn std::any::Any + Send>>,
) -> Frames {
    use futures_util::StreamExt as _;
    Box::pin(events.map(move |event| {
        let _held = &keep;
        Ok(match event {
            Shared::Event(seq, data) => frame(&format!("{stream}-{seq}"), &data),
            Shared::Idle => Bytes::from_static(b":\n\n"),
        })
    }))
}

impl Drop for LoggedStream {
    fn drop(&mut self) {
        let bytes = lock(&self.state).bytes;
        self.held.fetch_sub(bytes, Ordering::Relaxed);
    }
}

enum Next {
    Event(Logged),
    End,
    Wait,
}

/// One SSE event of the stream.
pub(crate) fn frame(id: &str, data: &str) -> Bytes {
    Bytes::from(format!("event: message\nid: {id}\ndata: {data}\n\n"))
}

/// An SSE response of `body`.
pub(crate) fn sse_response(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_their_stream_and_sequence() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(parse_event_id(&format!("{id}-7")), Some((id, 7)));
        let get = format!("get-{id}");
        assert_eq!(parse_event_id(&format!("{get}-0")), Some((get.as_str(), 0)));
        assert_eq!(parse_event_id("ab12-7"), None, "not an id we mint");
        assert_eq!(parse_event_id("events:x-7"), None);
        assert_eq!(parse_event_id("ab12"), None);
        assert_eq!(parse_event_id("-3"), None);
        assert_eq!(parse_event_id("ab-x"), None);
    }

    #[tokio::test]
    async fn a_stream_keeps_its_last_events_and_only_its_session_finds_it() {
        let log = EventLog::new(
            2,
            MAX_LOGGED_BYTES,
            Duration::from_mins(1),
            TaskTracker::new(),
        );
        let stream = log.open("s1", StreamKind::Get).unwrap();
        for n in 0..3 {
            stream.push_serialized(format!("{{\"n\":{n}}}").into());
        }
        let first = stream.event_id(1);
        assert!(
            log.find(&first, "s2").is_none(),
            "another session's stream is unknown"
        );
        let (found, after) = log.find(&first, "s1").unwrap();
        assert_eq!(after, 1);
        // Event 1 was dropped past the bound of 2; the next kept after it is 2.
        match found.next_after(0, 0) {
            Next::Event(event) => assert_eq!(event.seq, 2),
            _ => panic!("an event"),
        }
    }

    #[tokio::test]
    async fn a_follower_ends_when_another_takes_the_stream_over_or_its_stop_is_cancelled() {
        use futures_util::StreamExt as _;
        let log = EventLog::new(
            10,
            MAX_LOGGED_BYTES,
            Duration::from_mins(1),
            TaskTracker::new(),
        );
        let stream = log.open("s", StreamKind::Get).unwrap();
        stream.push_serialized("1".into());
        let mut first = Box::pin(Arc::clone(&stream).frames(0, false, None, ()));
        assert!(first.next().await.is_some(), "event 1");
        // The first waits for the next event when a second connection takes the stream over.
        let waiting = tokio::spawn(async move { first.next().await.is_none() });
        tokio::task::yield_now().await;
        let stop = CancellationToken::new();
        let mut second = Box::pin(Arc::clone(&stream).frames(0, false, Some(stop.clone()), ()));
        let ended = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(ended.unwrap().unwrap(), "the first ended, with no frame");
        let resent = second.next().await.unwrap().unwrap();
        assert!(
            resent.ends_with(b"data: 1\n\n"),
            "the second sends from its own place"
        );
        let waiting = tokio::spawn(async move { second.next().await.is_none() });
        tokio::task::yield_now().await;
        stop.cancel();
        let ended = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(ended.unwrap().unwrap(), "its stop ended the second");
        assert!(!stream.has_ended(), "the stream goes on");
    }

    #[tokio::test]
    async fn past_the_total_the_stream_quiet_longest_is_forgotten_first() {
        let mut log = EventLog::new(
            100,
            MAX_LOGGED_BYTES,
            Duration::from_mins(1),
            TaskTracker::new(),
        );
        log.max_bytes = 10;
        let old = log.open("s", StreamKind::Get).unwrap();
        old.push_serialized("12345678".into());
        tokio::time::sleep(Duration::from_millis(5)).await;
        let new = log.open("s", StreamKind::Get).unwrap();
        new.push_serialized("12345678".into());
        assert!(log.find(&new.event_id(1), "s").is_some());
        assert!(log.find(&old.event_id(1), "s").is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn an_ended_stream_is_forgotten_replay_ttl_after_its_end_and_a_running_one_is_kept() {
        let log = EventLog::new(
            10,
            MAX_LOGGED_BYTES,
            Duration::from_secs(5),
            TaskTracker::new(),
        );
        let ended = log.open("s", StreamKind::Get).unwrap();
        ended.push_serialized("1".into());
        ended.end();
        let running = log.open("s", StreamKind::Get).unwrap();
        running.push_serialized("1".into());
        tokio::time::advance(Duration::from_secs(4)).await;
        assert!(log.find(&ended.event_id(1), "s").is_some());
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(log.find(&ended.event_id(1), "s").is_none());
        assert!(log.find(&running.event_id(1), "s").is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn an_ended_stream_is_forgotten_even_when_no_request_comes() {
        let log = EventLog::new(
            10,
            MAX_LOGGED_BYTES,
            Duration::from_secs(5),
            TaskTracker::new(),
        );
        let ended = log.open("s", StreamKind::Get).unwrap();
        ended.push_serialized("1".into());
        ended.end();
        drop(ended);
        tokio::time::sleep(Duration::from_secs(7)).await;
        assert!(lock(&log.index).streams.is_empty());
        assert_eq!(log.held.load(Ordering::Relaxed), 0, "its events are freed");
    }
}
