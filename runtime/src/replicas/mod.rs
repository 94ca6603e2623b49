//! What replicas of one server share through Redis (feature `redis`): the connection and its
//! health, this process's id among the replicas and its liveness, and the [`Bus`] they tell each
//! other things on. Legacy sessions, resumable streams and tasks build on it in their own
//! modules.

mod bus;
pub(crate) mod events;
pub(crate) mod rate_limit;
mod sessions;
pub(crate) mod tasks;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::AsyncCommands as _;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

pub(crate) use self::bus::{Bus, BusMessage, SharedChange};
pub(crate) use self::sessions::{
    MAX_RECORD_BYTES, NotOpened, SessionRecord, SharedSessions, apply_subscriptions,
};
use crate::error::Error;

/// How long a command may take before it fails: a slow Redis (a `DEBUG SLEEP`, a failover)
/// delays the requests that need it, never wedges the replica.
pub(crate) const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long connecting may take, at start-up and on each reconnection.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(2);

/// How often a replica says it is alive, and how long the word lasts: a replica that stopped
/// (killed, its host gone) is known to be gone within [`ALIVE_FOR`].
const HEARTBEAT: Duration = Duration::from_secs(1);
const ALIVE_FOR: Duration = Duration::from_secs(5);

/// A connection to the Redis that replicas of one server share: legacy sessions, the events of
/// resumable streams, tasks, and the notifications one replica raises for clients listening on
/// another. Cheap to clone (clones share one multiplexed connection, which reconnects by itself
/// when Redis comes back).
///
/// Give it to [`HttpConfig::redis_store`](crate::http::HttpConfig::redis_store), or let the
/// server connect with [`HttpConfig::redis`](crate::http::HttpConfig::redis) (or `run()`'s
/// `--redis URL`, `MCP_REDIS_URL`).
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
    prefix: Arc<str>,
}

struct Inner {
    connection: ConnectionManager,
    client: redis::Client,
    /// The URL without its password: what messages show.
    url: String,
    /// This process among the replicas: 128 random bits, hex.
    replica: String,
    /// Whether the last command succeeded.
    up: AtomicBool,
    bus: Bus,
}

impl Redis {
    /// Connects to the Redis at `url` (`redis://[user:password@]host:port[/db]`, or
    /// `redis+unix:///path/to/redis.sock`; TLS, `rediss://`, is not built in: see the
    /// [deployment guide](crate::redis)). `Err` names the URL (its password left out)
    /// and why, within a few seconds when Redis does not answer.
    ///
    /// # Errors
    ///
    /// The URL is not a Redis URL, or Redis cannot be reached (or refused the credentials).
    pub async fn connect(url: &str) -> Result<Self, Error> {
        let shown = redacted(url);
        let failed = |why: String| Error::Redis(format!("Redis at {shown}: {why}"));
        if url.starts_with("rediss://") {
            return Err(failed(NO_TLS.into()));
        }
        let client = redis::Client::open(url).map_err(|error| failed(unopened(&error)))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECTION_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(1));
        let connecting = ConnectionManager::new_with_config(client.clone(), config);
        let mut connection = tokio::time::timeout(CONNECTION_TIMEOUT * 2, connecting)
            .await
            .map_err(|_| failed("no answer within 4 s".into()))?
            .map_err(|error| failed(unanswered(&error)))?;
        let _: () = redis::cmd("PING")
            .query_async(&mut connection)
            .await
            .map_err(|error| failed(unanswered(&error)))?;
        let replica = crate::random::id().map_err(|error| failed(error.to_string()))?;
        let prefix: Arc<str> = Arc::from("mcp:");
        let inner = Arc::new(Inner {
            connection,
            client,
            url: shown,
            replica,
            up: AtomicBool::new(true),
            bus: Bus::default(),
        });
        let redis = Self { inner, prefix };
        tracing::info!(
            url = redis.url(),
            replica = redis.replica(),
            "connected to Redis"
        );
        Ok(redis)
    }

    /// Puts every key under `prefix` (default `mcp:`), so several servers share one Redis.
    /// Replicas of one server must use the same prefix.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Arc::from(prefix.into());
        self
    }

    /// Starts what runs beside the server while it serves: the bus's subscription, which ends
    /// when `closing` is cancelled, and this replica's heartbeat, which ends when `drained`
    /// completes (after `closing`, once the calls that run on through the shutdown grace are
    /// done: until then the other replicas must not take this one for dead).
    pub(crate) fn start(
        &self,
        closing: &tokio_util::sync::CancellationToken,
        drained: impl Future<Output = ()> + Send + 'static,
    ) {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::error!(
                "the Redis handle was given to a server built outside a Tokio runtime: \
                 the other replicas' messages will not be heard"
            );
            return;
        }
        self.inner.bus.start(self.clone(), closing.clone());
        let redis = self.clone();
        tokio::spawn(async move {
            let key = redis.key("replica", redis.replica());
            let mut beat = tokio::time::interval(HEARTBEAT);
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut drained = std::pin::pin!(drained);
            loop {
                tokio::select! {
                    _ = beat.tick() => {}
                    () = &mut drained => return,
                }
                let ms = u64::try_from(ALIVE_FOR.as_millis()).unwrap_or(u64::MAX);
                let said: redis::RedisResult<()> = redis::cmd("SET")
                    .arg(&key)
                    .arg(1)
                    .arg("PX")
                    .arg(ms)
                    .query_async(&mut redis.connection())
                    .await;
                redis.outcome(&said);
            }
        });
    }

    /// Relays the server's changes between the replicas until `closing`: a change raised here
    /// (the `Tools`, `Prompts`, `Resources` handles) is published on the bus; one heard from
    /// the bus is announced to this replica's listeners (legacy GET streams, `subscriptions/listen`
    /// streams), never published again.
    pub(crate) fn relay_changes(
        &self,
        changes: &crate::protocol::ChangeSender,
        closing: &tokio_util::sync::CancellationToken,
    ) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let mut raised = changes.raised();
        let redis = self.clone();
        let stop = closing.clone();
        tokio::spawn(async move {
            loop {
                let change = tokio::select! {
                    change = raised.recv() => change,
                    () = stop.cancelled() => return,
                };
                match change {
                    Ok(change) => redis.bus().publish(BusMessage::Change {
                        change: SharedChange::from(&change),
                    }),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "changes not told to the other replicas");
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        let changes = changes.clone();
        let lost = "changes among them not announced here";
        self.bus().listen(closing.clone(), lost, move |message| {
            if let BusMessage::Change { change } = message {
                changes.announce(change.into());
            }
            true
        });
    }

    /// `{prefix}{kind}:{id}`: every key this crate writes.
    pub(crate) fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}:{id}", self.prefix)
    }

    /// The prefix of every key ([`key`](Self::key)), for a script that builds keys itself.
    pub(crate) fn key_prefix(&self) -> &str {
        &self.prefix
    }

    /// The shared connection (a clone: commands on clones are pipelined on one connection).
    pub(crate) fn connection(&self) -> ConnectionManager {
        self.inner.connection.clone()
    }

    /// A client for connections of their own (the bus's subscription).
    pub(crate) fn client(&self) -> &redis::Client {
        &self.inner.client
    }

    /// This process's id among the replicas.
    pub(crate) fn replica(&self) -> &str {
        &self.inner.replica
    }

    /// The URL, its password left out.
    pub(crate) fn url(&self) -> &str {
        &self.inner.url
    }

    /// The channel of the bus, under the prefix.
    pub(crate) fn bus_channel(&self) -> String {
        format!("{}bus", self.prefix)
    }

    pub(crate) fn bus(&self) -> &Bus {
        &self.inner.bus
    }

    /// Whether the last command succeeded: `false` while Redis is down.
    pub(crate) fn is_up(&self) -> bool {
        self.inner.up.load(Ordering::Relaxed)
    }

    /// A command failed: Redis is down (logged once per outage).
    pub(crate) fn failed(&self, error: &redis::RedisError) {
        if self.inner.up.swap(false, Ordering::Relaxed) {
            tracing::error!(url = self.url(), %error, "Redis is unavailable: legacy sessions (new ones and their requests) are refused with 503 until it returns; 2026-07-28 requests go on");
        }
    }

    /// A command succeeded: Redis is up (its return logged).
    pub(crate) fn succeeded(&self) {
        if !self.inner.up.swap(true, Ordering::Relaxed) {
            tracing::info!(url = self.url(), "Redis is available again");
        }
    }

    /// Records the outcome of a command ([`failed`](Self::failed) or
    /// [`succeeded`](Self::succeeded)).
    pub(crate) fn outcome<T>(&self, result: &redis::RedisResult<T>) {
        match result {
            Ok(_) => self.succeeded(),
            Err(error) => self.failed(error),
        }
    }

    /// The `requestState` key every replica of this server shares when none was given, at
    /// `{prefix}request-state-key`: drawn by the first replica to start (`SET NX`), read by every
    /// other, in the key file's format (so an operator rotates it by writing `NEW,OLD` there,
    /// then `NEW`, restarting the replicas after each). The keys and where they are, or why they
    /// cannot be used (never what they are).
    pub(crate) async fn request_state_keys(
        &self,
    ) -> Result<(crate::ask::seal::StateKeys, String), String> {
        use base64::Engine as _;
        let key = self.key("request-state-key", "current");
        let mut drawn = [0; 32];
        getrandom::fill(&mut drawn).map_err(|error| format!("no random source: {error}"))?;
        let drawn = base64::engine::general_purpose::STANDARD.encode(drawn);
        let mut pipe = redis::pipe();
        pipe.cmd("SET").arg(&key).arg(drawn).arg("NX").ignore();
        pipe.cmd("GET").arg(&key);
        let read: redis::RedisResult<(Option<String>,)> =
            pipe.query_async(&mut self.connection()).await;
        self.outcome(&read);
        let (text,) = read.map_err(|error| format!("Redis at {}: {error}", self.url()))?;
        let text = text.unwrap_or_default();
        let keys = crate::ask::seal::parse_state_keys(&text)
            .map_err(|problem| format!("the requestState key in Redis at {key}: {problem}"))?;
        Ok((keys, key))
    }

    /// Whether the replica `id` said it was alive within the last few seconds.
    pub(crate) async fn replica_alive(&self, id: &str) -> redis::RedisResult<bool> {
        if id == self.replica() {
            return Ok(true);
        }
        let alive: redis::RedisResult<bool> =
            self.connection().exists(self.key("replica", id)).await;
        self.outcome(&alive);
        alive
    }
}

/// Why `rediss://` is refused: TLS to Redis is not built in.
const NO_TLS: &str = "TLS (rediss://) is not built into mcp-toolbelt: use redis:// on a private \
     network, or reach a TLS-only Redis through a local TLS tunnel (stunnel, a sidecar) that \
     this server connects to with redis://";

/// What a URL the `redis` crate refused should have been.
fn unopened(error: &redis::RedisError) -> String {
    if error.kind() == redis::ErrorKind::InvalidClientConfig {
        format!(
            "{error}: write redis://[user:password@]host:port[/db] (or \
             redis+unix:///path/to/redis.sock for a Unix socket)"
        )
    } else {
        error.to_string()
    }
}

/// Why connecting failed: a server that answers in another protocol (an HTTP server, say, on
/// the port given) is named as such, not left as the parser's complaint.
fn unanswered(error: &redis::RedisError) -> String {
    match error.kind() {
        redis::ErrorKind::Parse | redis::ErrorKind::UnexpectedReturnType => {
            format!("the server there does not answer as Redis does (is the port right?): {error}")
        }
        _ => error.to_string(),
    }
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("url", &self.inner.url)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// `url` with its password (if any) replaced by `***`: the one in its authority
/// (`redis://user:password@host`) and the one a Unix socket's URL carries in its query
/// (`redis+unix:///run/redis.sock?pass=password`).
pub(crate) fn redacted(url: &str) -> String {
    let (url, query) = match url.split_once('?') {
        Some((url, query)) => (url, Some(query)),
        None => (url, None),
    };
    let mut shown = match url.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((credentials, host)) => {
                let user = credentials
                    .split_once(':')
                    .map_or(credentials, |(user, _)| user);
                format!("{scheme}://{user}:***@{host}")
            }
            None => url.to_owned(),
        },
        None => url.to_owned(),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key @ ("pass" | "password"), _)) => format!("{key}=***"),
                _ => pair.to_owned(),
            })
            .collect();
        shown.push('?');
        shown.push_str(&pairs.join("&"));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_shows() {
        assert_eq!(
            redacted("redis://:secret@h:6379/0"),
            "redis://:***@h:6379/0"
        );
        assert_eq!(redacted("redis://me:secret@h"), "redis://me:***@h");
        assert_eq!(redacted("redis://h:6379"), "redis://h:6379");
        assert_eq!(
            redacted("redis+unix:///run/redis.sock?db=1&pass=secret"),
            "redis+unix:///run/redis.sock?db=1&pass=***"
        );
        assert_eq!(
            redacted("redis://u:secret@h/0?protocol=resp3"),
            "redis://u:***@h/0?protocol=resp3"
        );
    }

    #[tokio::test]
    async fn a_redis_that_is_not_there_is_an_error_naming_its_url() {
        // A port nothing listens on (bound, then let go).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("redis://:pw@127.0.0.1:{port}");
        let error = Redis::connect(&url).await.unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("Redis at redis://:***@127.0.0.1:{port}: ")),
            "{error}"
        );
    }

    #[tokio::test]
    async fn a_url_that_is_not_one_says_how_to_write_it() {
        let error = Redis::connect("localhost:6379")
            .await
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("Redis at localhost:6379: ")
                && error.ends_with("write redis://[user:password@]host:port[/db] (or redis+unix:///path/to/redis.sock for a Unix socket)"),
            "{error}"
        );
    }

    #[tokio::test]
    async fn tls_is_refused_saying_what_to_do_instead() {
        let error = Redis::connect("rediss://:pw@cache.example.com:6380")
            .await
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!("Redis at rediss://:***@cache.example.com:6380: {NO_TLS}")
        );
    }

    #[tokio::test]
    async fn a_server_that_is_not_redis_is_named_as_such() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        // What an HTTP server answers to bytes it cannot read.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buffer = [0; 256];
                let _ = socket.read(&mut buffer).await;
                let _ = socket
                    .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                    .await;
            }
        });
        let error = Redis::connect(&format!("redis://127.0.0.1:{port}"))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("the server there does not answer as Redis does (is the port right?)"),
            "{error}"
        );
    }
}
