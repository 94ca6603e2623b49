//! The shared event log of resumable legacy streams: every event of a stream a replica runs is
//! also written to Redis, so that a client whose connection dropped resumes on any replica,
//! even one whose replica died.
//!
//! Keys (under the prefix, each with a TTL): `events:{stream}`, a Redis Stream whose entry ids
//! are `0-{seq}` (so `XRANGE (0-{seq} +` is "after event seq"), trimmed with
//! `MAXLEN ~ max_replay_events`; `stream:{stream}`, a hash of its metadata: `session`, `request`
//! (the JSON-RPC id, as JSON; absent for a GET stream), `replica` (the one running it) and
//! `ended` (`1` once its response, or its end, was written). Both expire `replay_ttl` after the
//! last write; while the stream runs, its writer renews them.
//!
//! The whole log is bounded by bytes, every replica's streams together, as each replica's
//! in-memory log is (64 MiB):
//! `events-bytes:all` counts what the streams keep (each stream's share, the bytes of the events
//! its replica keeps plus [`STREAM_OVERHEAD`], in the hash `events-sizes:all`), and
//! `events-streams:all` orders them by their last write. Past the bound, the streams written
//! longest ago go first (those expired meanwhile, then the oldest), as in memory.
//!
//! A replica following a stream it does not run reads it with `XRANGE` every
//! [`POLL`] (its own connection is multiplexed: a blocking `XREAD` would stall every other
//! command on it), and asks whether the running replica is still alive; when it is not, the
//! stream ends with a JSON-RPC error response for its request (`-32603`), never in silence.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::BoxStream;
use redis::streams::StreamRangeReply;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::Redis;

/// How often a follower on another replica reads what was written since.
pub(crate) const POLL: Duration = Duration::from_millis(100);

/// How often, while nothing is written, a follower asks whether the running replica lives.
const LIVENESS: Duration = Duration::from_secs(1);

/// The longest a new stream's first event waits for its metadata to be written (a slow or
/// unreachable Redis delays a call's stream no more than this).
const OPEN_WAIT: Duration = Duration::from_secs(1);

/// How many more times, [`POLL`] apart, a stream not (yet) in Redis is looked for.
const UNSEEN_LOOKS: u32 = 5;

/// The most entries one `XRANGE` reads.
const BATCH: usize = 256;

/// The most writes that wait for one stream's writer: past it (a slow Redis, a call writing
/// faster than Redis takes it), events are dropped from the shared log (logged; the stream's
/// end never is).
const QUEUED: usize = 256;

/// What a stream counts for beyond its events' bytes (its keys, its entries), so that streams
/// without events are bounded too.
pub(crate) const STREAM_OVERHEAD: usize = 256;

/// Forgets streams until the shared log holds no more than `ARGV[1]` bytes: first those not
/// written for `ARGV[3]` ms (expired), then those written longest ago. KEYS: the total, the
/// streams by last write, their sizes; ARGV: the bound, the key prefix, the TTL in ms.
const TRIM: &str = r"
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local max = tonumber(ARGV[1])
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local function forget(id)
  local bytes = tonumber(redis.call('HGET', KEYS[3], id) or '0')
  redis.call('HDEL', KEYS[3], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('DEL', ARGV[2] .. 'events:' .. id, ARGV[2] .. 'stream:' .. id)
  total = redis.call('DECRBY', KEYS[1], bytes)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]), 'LIMIT', 0, 1000)) do
  forget(id)
end
while total > max do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 then
    redis.call('SET', KEYS[1], 0)
    break
  end
  forget(oldest[1])
end
return total
";

/// The shared log of one endpoint.
#[derive(Clone)]
pub(crate) struct SharedEvents {
    redis: Redis,
    max_events: usize,
    ttl: Duration,
    /// The most bytes the whole shared log keeps.
    max_bytes: usize,
    trim: Arc<redis::Script>,
}

/// What a follower of a shared stream gets.
pub(crate) enum Shared {
    /// Event `seq` and its message, serialized.
    Event(u64, Arc<str>),
    /// Nothing new for a while: a keep-alive.
    Idle,
}

/// What is written to the shared log, in order, by one stream's writer: event `seq`, and the
/// bytes the stream keeps once it is written.
struct Write {
    seq: u64,
    data: Arc<str>,
    kept: usize,
}

/// The writer of one stream to the shared log: writes leave at once, in order, through a task
/// of the stream's own (a slow Redis never delays the call or its connection), from a queue of
/// at most [`QUEUED`].
pub(crate) struct Mirror {
    writes: mpsc::Sender<Write>,
    /// Set when the stream ended: the writer marks it once it wrote what waits.
    ended: Arc<std::sync::atomic::AtomicBool>,
    /// Wakes the writer for the end.
    end: Arc<tokio::sync::Notify>,
    /// Whether an event was dropped already (logged once per stream).
    dropped: std::sync::atomic::AtomicBool,
    /// Set once the stream's metadata was first written (or failed to be).
    opened: tokio::sync::watch::Receiver<bool>,
}

impl Mirror {
    /// Writes event `seq`; `kept`: the bytes the stream keeps with it.
    pub(crate) fn event(&self, seq: u64, data: Arc<str>, kept: usize) {
        if let Err(mpsc::error::TrySendError::Full(_)) =
            self.writes.try_send(Write { seq, data, kept })
            && !self
                .dropped
                .swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            tracing::warn!(
                "a resumable stream's events come faster than Redis takes them: some are left \
                 out of the shared log (resuming it on another replica misses them)"
            );
        }
    }

    /// Once the stream's metadata is in Redis (or [`OPEN_WAIT`] passed, or the write failed):
    /// awaited before the client sees the stream's first event id, so that whichever replica
    /// it resumes on knows the stream's request, and can answer it should this replica die.
    pub(crate) async fn opened(&self) {
        let mut opened = self.opened.clone();
        let _ = tokio::time::timeout(OPEN_WAIT, opened.wait_for(|opened| *opened)).await;
    }

    /// The stream ended.
    pub(crate) fn end(&self) {
        self.ended.store(true, std::sync::atomic::Ordering::Relaxed);
        self.end.notify_one();
    }
}

impl SharedEvents {
    /// The shared log in `redis`: `max_events` per stream, `max_bytes` in all, each stream
    /// kept `ttl` after its last write.
    pub(crate) fn new(redis: Redis, max_events: usize, max_bytes: usize, ttl: Duration) -> Self {
        Self {
            redis,
            max_events,
            ttl,
            max_bytes,
            trim: Arc::new(redis::Script::new(TRIM)),
        }
    }

    /// Forgets the streams written longest ago until the log holds at most its bound.
    async fn trim(&self) {
        let trimmed: redis::RedisResult<i64> = self
            .trim
            .key(self.redis.key("events-bytes", "all"))
            .key(self.redis.key("events-streams", "all"))
            .key(self.redis.key("events-sizes", "all"))
            .arg(self.max_bytes)
            .arg(self.redis.key_prefix())
            .arg(self.ttl_ms())
            .invoke_async(&mut self.redis.connection())
            .await;
        if let Err(error) = &trimmed {
            tracing::debug!(%error, "the shared log of resumable streams was not trimmed");
        }
        self.redis.outcome(&trimmed);
    }

    fn ttl_ms(&self) -> i64 {
        i64::try_from(self.ttl.as_millis())
            .unwrap_or(i64::MAX)
            .max(1)
    }

    /// Starts writing stream `id` of `session` (a call's, `request` its JSON-RPC id, or a GET
    /// stream's) to the shared log; its writer runs on `tracker`.
    pub(crate) fn mirror(
        &self,
        id: &str,
        session: &str,
        request: Option<Value>,
        tracker: &TaskTracker,
    ) -> Mirror {
        let (writes, pending) = mpsc::channel(QUEUED);
        let ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let end = Arc::new(tokio::sync::Notify::new());
        let (opened_tx, opened) = tokio::sync::watch::channel(false);
        let mut fields = vec![
            ("session", session.to_owned()),
            ("replica", self.redis.replica().to_owned()),
            ("ended", "0".to_owned()),
        ];
        if let Some(request) = request {
            fields.push(("request", request.to_string()));
        }
        let task = Writer {
            shared: self.clone(),
            stream: id.to_owned(),
            events: self.redis.key("events", id),
            meta: self.redis.key("stream", id),
            fields,
            pending,
            ended: Arc::clone(&ended),
            end: Arc::clone(&end),
            opened: opened_tx,
            counted: 0,
            kept: STREAM_OVERHEAD,
        };
        tracker.spawn(task.run());
        Mirror {
            writes,
            ended,
            end,
            dropped: std::sync::atomic::AtomicBool::new(false),
            opened,
        }
    }

    /// The events of stream `stream` after `after`, for a client of `session` resuming it on
    /// this replica: what is kept, then, for a call's stream, what is written, until the stream
    /// ends (or, its replica gone before it ended, a `-32603` response for its request), or
    /// `stop` is cancelled. A GET stream's events end with what is kept (the session's messages
    /// go on in this replica's own GET stream). `Ok(None)` when the shared log has no such
    /// stream of this session; the `bool` says whether it is a call's.
    ///
    /// # Errors
    ///
    /// Redis could not be read.
    pub(crate) async fn resume(
        &self,
        stream: &str,
        after: u64,
        session: &str,
        stop: CancellationToken,
    ) -> redis::RedisResult<Option<(BoxStream<'static, Shared>, bool)>> {
        let meta_key = self.redis.key("stream", stream);
        let mut meta: HashMap<String, String> = HashMap::new();
        // A stream that another replica opened a moment ago may not be in Redis yet (its
        // writer writes in the background): a client quick to resume here waits a little
        // rather than be told the stream is unknown.
        for look in 0..=UNSEEN_LOOKS {
            if look > 0 {
                tokio::time::sleep(POLL).await;
            }
            meta = redis::cmd("HGETALL")
                .arg(&meta_key)
                .query_async(&mut self.redis.connection())
                .await
                .inspect_err(|error| self.redis.failed(error))?;
            if !meta.is_empty() {
                break;
            }
        }
        if meta.get("session").map(String::as_str) != Some(session) {
            return Ok(None);
        }
        let request: Option<Value> = meta
            .get("request")
            .and_then(|request| serde_json::from_str(request).ok());
        let call = request.is_some();
        let follower = Follower {
            redis: self.redis.clone(),
            events: self.redis.key("events", stream),
            meta: meta_key,
            replica: meta.get("replica").cloned().unwrap_or_default(),
            request,
            after,
            ready: Vec::new(),
            stop,
            ask_liveness_at: tokio::time::Instant::now(),
            done: false,
            ttl_ms: self.ttl_ms(),
        };
        let events: BoxStream<'static, Shared> =
            Box::pin(futures_util::stream::unfold(follower, Follower::next));
        Ok(Some((events, call)))
    }
}

/// The task writing one stream to the shared log, for its [`Mirror`].
struct Writer {
    shared: SharedEvents,
    stream: String,
    /// Its keys: the events, the metadata.
    events: String,
    meta: String,
    /// The metadata, written until it is in (without it no replica can resume the stream).
    fields: Vec<(&'static str, String)>,
    pending: mpsc::Receiver<Write>,
    ended: Arc<std::sync::atomic::AtomicBool>,
    end: Arc<tokio::sync::Notify>,
    /// Told once the metadata's first write was tried.
    opened: tokio::sync::watch::Sender<bool>,
    /// The bytes this stream counts for in the log's total, as last written.
    counted: usize,
    /// The bytes it keeps now.
    kept: usize,
}

impl Writer {
    async fn run(mut self) {
        // The metadata is written at once, before the client sees an id of the stream.
        let mut first = true;
        loop {
            let (next, closed) = if std::mem::take(&mut first) {
                (self.pending.try_recv().ok(), false)
            } else {
                self.next().await
            };
            let mut pipe = redis::pipe();
            if !self.fields.is_empty() {
                pipe.hset_multiple(&self.meta, &self.fields).ignore();
            }
            self.add_events(&mut pipe, next);
            // Ended, and all it wrote is in this batch.
            let ended = closed
                || (self.ended.load(std::sync::atomic::Ordering::Relaxed)
                    && self.pending.is_empty());
            if ended {
                pipe.hset(&self.meta, "ended", "1").ignore();
            }
            self.write(pipe).await;
            self.opened.send_replace(true);
            if ended {
                return;
            }
        }
    }

    /// The next write, the end, or, quiet for half the TTL, nothing: the keys are renewed
    /// while the stream runs. Whether the stream's queue closed.
    async fn next(&mut self) -> (Option<Write>, bool) {
        tokio::select! {
            write = self.pending.recv() => {
                let closed = write.is_none();
                (write, closed)
            }
            () = self.end.notified() => (self.pending.try_recv().ok(), false),
            () = tokio::time::sleep(self.shared.ttl / 2) => (None, false),
        }
    }

    /// Adds `next` and what came meanwhile to `pipe`: a slow Redis makes the batches bigger,
    /// never the queue longer than one round trip's worth.
    fn add_events(&mut self, pipe: &mut redis::Pipeline, mut next: Option<Write>) {
        let mut batched = 0;
        while let Some(Write { seq, data, kept }) = next.take() {
            pipe.cmd("XADD")
                .arg(&self.events)
                .arg("MAXLEN")
                .arg("~")
                .arg(self.shared.max_events)
                .arg(format!("0-{seq}"))
                .arg("d")
                .arg(&*data)
                .ignore();
            self.kept = STREAM_OVERHEAD + kept;
            batched += 1;
            if batched < BATCH {
                next = self.pending.try_recv().ok();
            }
        }
    }

    /// Sends `pipe` with the keys' renewal and the stream's share of the log's total, then
    /// trims the log if it is past its bound.
    async fn write(&mut self, mut pipe: redis::Pipeline) {
        let shared = &self.shared;
        let ttl = shared.ttl_ms();
        pipe.pexpire(&self.events, ttl).ignore();
        pipe.pexpire(&self.meta, ttl).ignore();
        // Its share of the log's total, and its place among the streams by last write.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis());
        pipe.hset(
            shared.redis.key("events-sizes", "all"),
            &self.stream,
            self.kept,
        )
        .ignore();
        pipe.zadd(
            shared.redis.key("events-streams", "all"),
            &self.stream,
            u64::try_from(now).unwrap_or(u64::MAX),
        )
        .ignore();
        let change = i64::try_from(self.kept).unwrap_or(i64::MAX)
            - i64::try_from(self.counted).unwrap_or(i64::MAX);
        pipe.incr(shared.redis.key("events-bytes", "all"), change);
        let written: redis::RedisResult<(i64,)> =
            pipe.query_async(&mut shared.redis.connection()).await;
        match &written {
            Ok((all,)) => {
                self.counted = self.kept;
                self.fields.clear();
                if usize::try_from(*all).unwrap_or(0) > shared.max_bytes {
                    shared.trim().await;
                }
            }
            // The outage is logged once (`Redis::failed`); each lost write only at debug.
            Err(error) => {
                tracing::debug!(%error, stream = %self.meta, "an event of a resumable stream was not written to Redis");
            }
        }
        shared.redis.outcome(&written);
    }
}

/// A connection following a stream another replica writes.
struct Follower {
    redis: Redis,
    events: String,
    meta: String,
    replica: String,
    /// The request a call's stream answers; `None` for a GET stream.
    request: Option<Value>,
    after: u64,
    /// Read, not yet sent (in reverse order).
    ready: Vec<(u64, Arc<str>)>,
    stop: CancellationToken,
    /// When next, nothing being written, to ask whether the running replica lives: at once
    /// for a new follower (a client that resumes again and again, each time for less than
    /// [`LIVENESS`], must still learn its call is lost), then every [`LIVENESS`].
    ask_liveness_at: tokio::time::Instant,
    done: bool,
    /// How long the keys it writes live (`replay_ttl`), in milliseconds.
    ttl_ms: i64,
}

impl Follower {
    async fn next(mut self) -> Option<(Shared, Self)> {
        loop {
            if let Some((seq, data)) = self.ready.pop() {
                self.after = seq;
                return Some((Shared::Event(seq, data), self));
            }
            if self.done || self.stop.is_cancelled() {
                return None;
            }
            match self.read().await {
                Ok(true) => {
                    self.ask_liveness_at = tokio::time::Instant::now() + LIVENESS;
                    continue;
                }
                // A GET stream: what was kept, and no more.
                Ok(false) if self.request.is_none() => return None,
                Ok(false) => {}
                // Redis unreachable: the stream ends, the client resumes again later.
                Err(_) => return None,
            }
            // Not known to have ended (Redis not answering included): the replica's liveness
            // decides, never a silent end.
            if self.ended().await.unwrap_or(false) {
                // Whatever was written before the end mark.
                if let Ok(true) = self.read().await {
                    self.done = true;
                    continue;
                }
                return None;
            }
            if tokio::time::Instant::now() >= self.ask_liveness_at {
                self.ask_liveness_at = tokio::time::Instant::now() + LIVENESS;
                if !self
                    .redis
                    .replica_alive(&self.replica)
                    .await
                    .unwrap_or(true)
                {
                    // One last read: what it wrote before it died.
                    if let Ok(true) = self.read().await {
                        continue;
                    }
                    self.done = true;
                    return self.lost().await.map(|event| (event, self));
                }
                return Some((Shared::Idle, self));
            }
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                () = self.stop.cancelled() => return None,
            }
        }
    }

    /// Reads what was written after `after`; whether anything was.
    async fn read(&mut self) -> redis::RedisResult<bool> {
        let reply: StreamRangeReply = redis::cmd("XRANGE")
            .arg(&self.events)
            .arg(format!("(0-{}", self.after))
            .arg("+")
            .arg("COUNT")
            .arg(BATCH)
            .query_async(&mut self.redis.connection())
            .await
            .inspect_err(|error| self.redis.failed(error))?;
        let mut read: Vec<(u64, Arc<str>)> = reply
            .ids
            .iter()
            .filter_map(|entry| {
                let seq = entry.id.strip_prefix("0-")?.parse().ok()?;
                let data: String = entry.get("d")?;
                Some((seq, Arc::from(data)))
            })
            .collect();
        read.reverse();
        let any = !read.is_empty();
        self.ready = read;
        Ok(any)
    }

    async fn ended(&self) -> redis::RedisResult<bool> {
        let ended: Option<String> = redis::cmd("HGET")
            .arg(&self.meta)
            .arg("ended")
            .query_async(&mut self.redis.connection())
            .await?;
        Ok(ended.as_deref() != Some("0"))
    }

    /// The replica running the stream died before it ended: a call's stream gets an error
    /// response for its request (written to the log too, for whoever resumes it next); a GET
    /// stream just ends (its client opens another).
    async fn lost(&mut self) -> Option<Shared> {
        let request = self.request.clone()?;
        let response = json!({
            "jsonrpc": "2.0",
            "id": request,
            "error": {
                "code": -32603,
                "message": "Internal error: the server that ran this request stopped before it answered; send the request again",
            },
        });
        let data: Arc<str> = Arc::from(response.to_string());
        let seq = self.after + 1;
        let mut pipe = redis::pipe();
        pipe.cmd("XADD")
            .arg(&self.events)
            .arg(format!("0-{seq}"))
            .arg("d")
            .arg(&*data)
            .ignore();
        pipe.hset(&self.meta, "ended", "1").ignore();
        // Whatever it writes expires too, should the keys have expired meanwhile.
        pipe.pexpire(&self.events, self.ttl_ms).ignore();
        pipe.pexpire(&self.meta, self.ttl_ms).ignore();
        // Another follower may have written it first: then its id is taken, and that is fine.
        let _: redis::RedisResult<()> = pipe.query_async(&mut self.redis.connection()).await;
        Some(Shared::Event(seq, data))
    }
}
