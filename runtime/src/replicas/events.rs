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

/// How many more times, [`POLL`] apart, a stream not (yet) in Redis is looked for.
const UNSEEN_LOOKS: u32 = 5;

/// The most entries one `XRANGE` reads.
const BATCH: usize = 256;

/// The shared log of one endpoint.
#[derive(Clone)]
pub(crate) struct SharedEvents {
    redis: Redis,
    max_events: usize,
    ttl: Duration,
}

/// What a follower of a shared stream gets.
pub(crate) enum Shared {
    /// Event `seq` and its message, serialized.
    Event(u64, Arc<str>),
    /// Nothing new for a while: a keep-alive.
    Idle,
}

/// What is written to the shared log, in order, by one stream's writer.
enum Write {
    Event(u64, Arc<str>),
    End,
}

/// The writer of one stream to the shared log: writes leave at once, in order, through a task
/// of the stream's own (a slow Redis never delays the call or its connection).
pub(crate) struct Mirror {
    writes: mpsc::UnboundedSender<Write>,
}

impl Mirror {
    /// Writes event `seq`.
    pub(crate) fn event(&self, seq: u64, data: Arc<str>) {
        let _ = self.writes.send(Write::Event(seq, data));
    }

    /// The stream ended.
    pub(crate) fn end(&self) {
        let _ = self.writes.send(Write::End);
    }
}

impl SharedEvents {
    pub(crate) fn new(redis: Redis, max_events: usize, ttl: Duration) -> Self {
        Self {
            redis,
            max_events,
            ttl,
        }
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
        let (writes, mut pending) = mpsc::unbounded_channel();
        let shared = self.clone();
        let events = self.redis.key("events", id);
        let meta = self.redis.key("stream", id);
        let mut fields = vec![
            ("session", session.to_owned()),
            ("replica", self.redis.replica().to_owned()),
            ("ended", "0".to_owned()),
        ];
        if let Some(request) = request {
            fields.push(("request", request.to_string()));
        }
        tracker.spawn(async move {
            let ttl = shared.ttl_ms();
            let mut written_meta = false;
            loop {
                // Quiet for half the TTL: the keys are renewed while the stream runs.
                let write = tokio::time::timeout(shared.ttl / 2, pending.recv()).await;
                let mut pipe = redis::pipe();
                if !written_meta {
                    pipe.hset_multiple(&meta, &fields).ignore();
                }
                // What came meanwhile goes in the same round trip: a slow Redis makes the
                // batches bigger, never the queue longer than one round trip's worth.
                let mut ended = false;
                let mut next = match write {
                    Ok(Some(write)) => Some(write),
                    Ok(None) => Some(Write::End),
                    Err(_) => None,
                };
                let mut batched = 0;
                while let Some(write) = next.take() {
                    match write {
                        Write::Event(seq, data) => {
                            pipe.cmd("XADD")
                                .arg(&events)
                                .arg("MAXLEN")
                                .arg("~")
                                .arg(shared.max_events)
                                .arg(format!("0-{seq}"))
                                .arg("d")
                                .arg(&*data)
                                .ignore();
                        }
                        Write::End => {
                            pipe.hset(&meta, "ended", "1").ignore();
                            ended = true;
                            break;
                        }
                    }
                    batched += 1;
                    if batched < BATCH {
                        next = pending.try_recv().ok();
                    }
                }
                pipe.pexpire(&events, ttl).ignore();
                pipe.pexpire(&meta, ttl).ignore();
                let written: redis::RedisResult<()> =
                    pipe.query_async(&mut shared.redis.connection()).await;
                // The outage is logged once (`Redis::failed`); each lost write only at debug.
                if let Err(error) = &written {
                    tracing::debug!(%error, stream = %meta, "an event of a resumable stream was not written to Redis");
                }
                // The metadata is written again until it is in (without it no replica can
                // resume the stream).
                written_meta |= written.is_ok();
                shared.redis.outcome(&written);
                if ended {
                    return;
                }
            }
        });
        Mirror { writes }
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
            quiet_since: tokio::time::Instant::now(),
            done: false,
            ttl_ms: self.ttl_ms(),
        };
        let events: BoxStream<'static, Shared> =
            Box::pin(futures_util::stream::unfold(follower, Follower::next));
        Ok(Some((events, call)))
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
    quiet_since: tokio::time::Instant,
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
                    self.quiet_since = tokio::time::Instant::now();
                    continue;
                }
                // A GET stream: what was kept, and no more.
                Ok(false) if self.request.is_none() => return None,
                Ok(false) => {}
                // Redis unreachable: the stream ends, the client resumes again later.
                Err(_) => return None,
            }
            if self.ended().await.unwrap_or(true) {
                // Whatever was written before the end mark.
                if let Ok(true) = self.read().await {
                    self.done = true;
                    continue;
                }
                return None;
            }
            if self.quiet_since.elapsed() >= LIVENESS {
                self.quiet_since = tokio::time::Instant::now();
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
