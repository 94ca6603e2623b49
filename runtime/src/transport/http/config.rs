//! [`HttpConfig`]: how the HTTP transport guards and shapes its endpoint, and the RFC 9728
//! metadata a server that verifies bearer tokens publishes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderName, Method, header};
use futures_util::future::BoxFuture;
use serde::Serialize;
use tokio_util::task::TaskTracker;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::headers::{MCP_METHOD, MCP_NAME, PROTOCOL_VERSION, SESSION_ID};
use crate::context::AuthInfo;

type Verifier = Arc<dyn Fn(String) -> BoxFuture<'static, Option<AuthInfo>> + Send + Sync>;

/// How the HTTP transport guards and shapes its endpoint. The defaults suit a local server.
///
/// ```
/// use std::time::Duration;
/// use mcp_toolbelt::{http::HttpConfig, Server};
///
/// let server = Server::new("shop", "1.0.0").http_config(
///     HttpConfig::new()
///         .allow_hosts(["mcp.internal"])
///         .request_timeout(Duration::from_secs(30 * 60)) // tools that wait on people
///         .stateless(true), // replicas behind a load balancer
/// );
/// ```
///
/// # Limits
///
/// Every limit of Streamable HTTP (those of every transport, the call time and the request
/// memory among them, are on [`Server`](crate::Server)):
///
/// | limit (setter) | default | past it |
/// | --- | --- | --- |
/// | [`max_body_bytes`](Self::max_body_bytes) (message size) | 4 MiB | `413`, from `Content-Length` before any `100 Continue` when it declares more; a body in a `Content-Encoding` other than identity: `415` (with `Accept-Encoding: identity`) |
/// | [`request_timeout`](Self::request_timeout) | 5 min | a tool call: an `isError` result (the shorter of this and [`Server::call_timeout`](crate::Server::call_timeout) applies); any other request: `-32603` `Request timed out after …`; a body that has not arrived within it (or 30 s): `408` |
/// | [`max_requests`](Self::max_requests) (each item of a 2025-03-26 batch is one) | 1,024 | `503` with `Retry-After` (a batch without room for every item now: refused whole, none of it runs). A batch with more items than the cap (or, with bearer auth, than a principal's share) could ever allow: `413`, `-32600` (`at most N calls in one batch here`), for good |
/// | [`max_sessions`](Self::max_sessions), [`session_idle_timeout`](Self::session_idle_timeout) (legacy sessions) | 1,024 sessions, closed after 1 h idle (1 min for one that never did anything after `initialize`: no call, no GET stream) | a full table closes the least recently used session not in use (no GET stream open, no call running), one that never did anything first (its client gets `404` and initializes again); if every session is in use, `503` |
/// | legacy sessions with `redis` (feature `redis`: `HttpConfig::redis`, `redis_store`) | each a record in Redis at `{prefix}session:{id}` of at most 16 KiB (what `initialize` and `logging/setLevel` settled, and the tags `Context::enable_tags`/`disable_tags` chose, at most 4 KiB), its resource subscriptions a hash beside it (`subscriptions:{id}`, within the per-connection bounds of `Server`'s table: 10,000, 1 MiB of URIs), its TTL the idle timeout (1 min until it did something), refreshed by each request (one round trip; a GET stream open or a call running keeps it alive); `max_sessions` bounds what Redis holds, every replica together, and `max_sessions_per_principal` each principal's there (sorted sets `sessions:all`, `sessions-of:{principal}`); each replica caches those it serves within `max_sessions` (a session pushed out of the cache is loaded again from Redis by its next request) | a record past 16 KiB: `initialize` refused, `400`, `-32602`; Redis holding `max_sessions`: `initialize` gets `503`; a principal at its cap: its session that would expire first is ended on every replica; the record expired or deleted: `404` on every replica; Redis unavailable or slower than its 2 s response timeout: `initialize` and the session's requests get `503`, `Retry-After: 1`, `-32603` "session store unavailable: …" (2026-07-28 requests are not affected) |
/// | [`max_requests_per_principal`](Self::max_requests_per_principal), [`max_sessions_per_principal`](Self::max_sessions_per_principal) (with bearer auth; a batch item is a request) | 64 requests (and as many GET and `subscriptions/listen` streams), 32 sessions | the principal's own least recently used session not in use is closed, or `503`: one caller cannot take every slot |
/// | [`max_subscriptions`](Self::max_subscriptions) (`subscriptions/listen` streams) | 1,024 | `503` |
/// | [`max_streams`](Self::max_streams) (GET and `subscriptions/listen` streams together) | half of `max_connections` (256) | `503` with `Retry-After` |
/// | [`max_connections`](Self::max_connections) (`serve_http`, `serve_http_app`) | 512 | up to 32 new clients are accepted to wait (the others wait in the listen backlog), each while a connection makes room for it: the next busy one to send an answer of known length says `Connection: close`; when none has within 250 ms, the longest idle one (idle at least 250 ms, with no request arriving) is closed |
/// | [`header_timeout`](Self::header_timeout) (`serve_http`, `serve_http_app`) | 30 s | the connection is closed: silent, slow-header (slow-loris) and idle keep-alive clients |
/// | [`min_body_rate`](Self::min_body_rate), [`body_rate_grace`](Self::body_rate_grace) (`serve_http`, `serve_http_app`) | 1 KiB/s on average, after 5 s | `408` and the connection closed |
/// | [`max_arriving_bodies`](Self::max_arriving_bodies) (`serve_http`, `serve_http_app`) | a quarter of `max_connections` (128) | a body past the share must arrive whole within 1 s (as one sent with its headers does), else `503` with `Retry-After` and the connection closed |
/// | [`shutdown_grace`](Self::shutdown_grace) | 10 s | calls still running at SIGINT/SIGTERM are dropped |
/// | [`max_replay_events`](Self::max_replay_events) (legacy session streams, for `Last-Event-ID`) | the last 1,000 events of each stream | older events are dropped: a client resuming from before them gets what is kept (a stream's response is its last event, never dropped for an older one) |
/// | [`replay_ttl`](Self::replay_ttl) | 5 min after a stream's last event, once it ended (a stream still running is kept) | resuming it is `400` (unknown event) |
/// | [`max_replay_bytes`](Self::max_replay_bytes): the in-memory log, all streams together; with Redis, the shared log too, every replica's streams together (each stream counted as the events its replica keeps plus 256 bytes) | 64 MiB of messages | the streams whose last event is oldest are forgotten first (a running one goes on for its connection, but cannot be resumed); the shared log forgets those expired first |
/// | the issuer's keys (feature `oauth`: `HttpConfig::oauth`) | one JWKS of at most 1 MiB, its first 64 usable keys, fetched again after 1 h; an unknown `kid` fetches it again at most once per 30 s (the issuer's metadata and introspection answers: 1 MiB each too, 10 s per request) | a larger document is refused (`503`, as for an unreachable issuer, `Retry-After: 5`; a failed discovery is tried again after 5 s); a token whose `kid` is still unknown: `401` |
/// | verified tokens kept (feature `oauth`: `HttpConfig::oauth`, `oauth_introspection`): a JWT once its signature and claims are checked, an opaque token once the issuer said it is active, each kept by the SHA-256 digest of the resource URI and the token (never the token itself) with what it grants | 10,000 tokens, 8 MiB (each counted as 256 bytes and twice its claims as JSON), each until its `exp` (a JWT's give or take the 60 s its `exp` is checked with), at most 5 min; a JWT's entry only while the keys that verified it are those in use (fetched again: verified again) | the oldest kept goes first; a token past its time is verified (or asked about) again; refused tokens are never kept. A token revoked at the issuer, or signed by a key it withdrew, may be honoured for up to 5 min (a JWT is honoured until its `exp` whether kept or not: nothing but its signature and claims is checked) |
/// | [`trust_proxy`](Self::trust_proxy) (whose `X-Forwarded-For` names the client for the rate limits, [`Server::rate_limit`](crate::Server::rate_limit)) | no proxy: the connection's peer address is the client's | the header of a peer that is no trusted proxy is ignored; the rate limits' own table is on `Server` |
/// | with Redis, what waits to be written to the shared log, per stream | 256 events | further events are left out of the shared log (logged once per stream; a client resuming on another replica misses them); the stream's end is never left out |
///
/// [`Server::into_router`](crate::Server::into_router) served by `axum::serve` keeps the limits
/// on requests, bodies and sessions, but not those marked (`serve_http`, `serve_http_app`): they
/// live in the loop that owns the connections.
#[derive(Clone)]
pub struct HttpConfig {
    /// Hosts named by `allow_hosts` (localhost names are always served).
    pub(crate) allowed_hosts: Vec<String>,
    /// Every `Host` served (`allow_any_host`), whatever hosts are also named.
    pub(super) any_host: bool,
    /// Origins named by `allow_origins`: served, and granted CORS.
    pub(super) allowed_origins: Vec<String>,
    /// Every origin served (`allow_any_origin`); CORS still only for the named ones.
    pub(super) any_origin: bool,
    pub(super) max_body_bytes: usize,
    pub(super) request_timeout: Duration,
    pub(super) max_sessions: usize,
    pub(super) session_idle_timeout: Duration,
    pub(super) max_subscriptions: usize,
    pub(super) max_requests: usize,
    pub(super) stateless: bool,
    pub(super) shutdown_grace: Duration,
    pub(super) max_connections: usize,
    pub(super) header_timeout: Duration,
    /// `None`: half of `max_connections`.
    pub(super) max_streams: Option<usize>,
    /// `None`: a quarter of `max_connections`.
    pub(super) max_arriving_bodies: Option<usize>,
    pub(super) body_rate: u64,
    pub(super) body_grace: Duration,
    pub(super) principal_requests: usize,
    pub(super) principal_sessions: usize,
    pub(super) max_replay_events: usize,
    pub(super) max_replay_bytes: usize,
    pub(super) replay_ttl: Duration,
    /// The tasks that write logged streams (calls whose client may resume them): the server
    /// waits for them at shutdown, within the grace time. Clones share it.
    pub(super) running: TaskTracker,
    pub(super) auth: Option<BearerAuth>,
    /// The proxies whose `X-Forwarded-For` names the client (`trust_proxy`): none by default.
    pub(super) trusted_proxies: Vec<ipnet::IpNet>,
    /// Where replicas share what lives between requests (`redis`, `redis_store`).
    #[cfg(feature = "redis")]
    pub(super) redis: Option<RedisSetting>,
}

/// The Redis a server shares with its replicas: to connect to when serving starts, or
/// connected.
#[cfg(feature = "redis")]
#[derive(Clone)]
pub(crate) enum RedisSetting {
    Url(String),
    Connected(crate::replicas::Redis),
}

#[derive(Clone)]
pub(super) struct BearerAuth {
    pub(super) check: TokenCheck,
    pub(super) metadata: ProtectedResourceMetadata,
}

/// Who decides what a token grants.
#[derive(Clone)]
pub(super) enum TokenCheck {
    /// The application's own `verify` ([`HttpConfig::bearer_auth`]).
    Custom(Verifier),
    /// The built-in resource server ([`HttpConfig::oauth`]).
    #[cfg(feature = "oauth")]
    OAuth(Arc<super::oauth::Verifier>),
}

/// The OAuth 2.0 Protected Resource Metadata document (RFC 9728) a server that verifies bearer
/// tokens publishes, so clients find where to get a token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ProtectedResourceMetadata {
    /// This server's canonical URL, e.g. `https://mcp.example.com/mcp`.
    pub resource: String,
    /// The authorization servers that issue tokens for it.
    pub authorization_servers: Vec<String>,
    /// The scopes it understands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// Always `["header"]`: tokens come in the `Authorization` header.
    pub bearer_methods_supported: Vec<String>,
    /// `resource` is the URL the server is served at, filled in when it binds
    /// ([`ProtectedResourceMetadata::at_served_address`]).
    #[serde(skip)]
    follows_address: bool,
}

impl ProtectedResourceMetadata {
    /// Metadata for `resource`, whose tokens `authorization_server` issues.
    #[must_use]
    pub fn new(resource: impl Into<String>, authorization_server: impl Into<String>) -> Self {
        Self {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
            bearer_methods_supported: vec!["header".into()],
            follows_address: false,
        }
    }

    /// Metadata whose `resource` is the URL the server is served at, `http://HOST:PORT/mcp`,
    /// filled in when [`Server::serve_http`](crate::Server::serve_http) (or `run()`'s `--http`)
    /// binds: HOST the first name given with `--allow-host` ([`HttpConfig::allow_hosts`]: the
    /// name clients use), else the address's own, and the port it listens on. `run()`'s
    /// `--resource URL` names it instead (behind a proxy that terminates TLS, say). Only
    /// `serve_http` knows its address: [`Server::into_router`](crate::Server::into_router),
    /// [`into_service`](crate::Server::into_service) and
    /// [`serve_http_app`](crate::Server::serve_http_app) refuse it at start-up; give them the
    /// URL ([`ProtectedResourceMetadata::new`]).
    ///
    /// ```
    /// use mcp_toolbelt::http::ProtectedResourceMetadata;
    ///
    /// let metadata = ProtectedResourceMetadata::at_served_address("https://auth.example.com");
    /// assert_eq!(metadata.resource, "");
    /// ```
    #[must_use]
    pub fn at_served_address(authorization_server: impl Into<String>) -> Self {
        Self {
            follows_address: true,
            ..Self::new("", authorization_server)
        }
    }

    /// Adds the scopes the server understands.
    #[must_use]
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Where the document is served: `/.well-known/oauth-protected-resource` followed by the
    /// resource's path (RFC 9728 §3.1).
    #[must_use]
    pub fn well_known_path(&self) -> String {
        let path = self
            .resource
            .split_once("://")
            .map_or("", |(_, rest)| rest.find('/').map_or("", |at| &rest[at..]));
        format!(
            "/.well-known/oauth-protected-resource{}",
            path.trim_end_matches('/')
        )
    }

    /// The document's full URL.
    #[must_use]
    pub fn url(&self) -> String {
        let origin =
            self.resource
                .split_once("://")
                .map_or(self.resource.as_str(), |(scheme, rest)| {
                    let host_end = rest.find('/').unwrap_or(rest.len());
                    &self.resource[..scheme.len() + 3 + host_end]
                });
        format!("{origin}{}", self.well_known_path())
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            allowed_hosts: Vec::new(),
            any_host: false,
            allowed_origins: Vec::new(),
            any_origin: false,
            max_body_bytes: 4 * 1024 * 1024,
            request_timeout: Duration::from_mins(5),
            max_sessions: 1024,
            session_idle_timeout: Duration::from_hours(1),
            max_subscriptions: 1024,
            max_requests: 1024,
            stateless: false,
            shutdown_grace: Duration::from_secs(10),
            max_connections: 512,
            header_timeout: Duration::from_secs(30),
            max_streams: None,
            max_arriving_bodies: None,
            body_rate: 1024,
            body_grace: Duration::from_secs(5),
            principal_requests: 64,
            principal_sessions: 32,
            max_replay_events: 1000,
            max_replay_bytes: super::replay::MAX_LOGGED_BYTES,
            replay_ttl: Duration::from_mins(5),
            running: TaskTracker::new(),
            auth: None,
            trusted_proxies: Vec::new(),
            #[cfg(feature = "redis")]
            redis: None,
        }
    }
}

impl HttpConfig {
    /// The defaults: localhost only, 4 MiB bodies, 5-minute requests, 1024 requests at once, 1024
    /// sessions, 1024 `subscriptions/listen` streams, 512 connections (at most half of them
    /// holding long-lived streams, a quarter bodies still arriving), 30 s to send headers, bodies
    /// at 1 KiB/s after their first 5 s.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Also serves requests whose `Host` is one of `hosts` (names, with or without a port).
    /// Localhost names are always allowed. Naming hosts never undoes
    /// [`HttpConfig::allow_any_host`], called before or after.
    #[must_use]
    pub fn allow_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts.extend(hosts.into_iter().map(Into::into));
        self
    }

    /// Serves any `Host`: for a server behind a proxy that checks it. It wins over
    /// [`HttpConfig::allow_hosts`], whichever is called last.
    #[must_use]
    pub fn allow_any_host(mut self) -> Self {
        self.any_host = true;
        self
    }

    /// Also serves browsers on these origins (`https://app.example.com`), and grants them CORS
    /// so that a page there can call the endpoint. Requests without an `Origin` (non-browser
    /// clients) are always served; requests from localhost pages are served, but a page gets CORS
    /// only when its origin is named here (the MCP Inspector's direct mode, for example:
    /// `http://localhost:6274`).
    #[must_use]
    pub fn allow_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins
            .extend(origins.into_iter().map(Into::into));
        self
    }

    /// Serves any `Origin` (CORS is still granted only to the origins named in
    /// [`HttpConfig::allow_origins`]).
    #[must_use]
    pub fn allow_any_origin(mut self) -> Self {
        self.any_origin = true;
        self
    }

    /// The largest request body, in bytes (`413` beyond).
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// How long one request may take before it is answered with an error (a tool call: with
    /// the `isError` result of [`crate::Server::call_timeout`], whichever limit is shorter). Its
    /// body must also arrive within this time, or 30 s if that is shorter (`408`): a client that
    /// sends slowly cannot hold a request slot for long.
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The most requests being answered at once (`503` with `Retry-After` beyond), answer
    /// streams included; a 2025-03-26 batch counts one per item (so this bounds calls, not
    /// POSTs; a batch with no room for all its items is refused whole).
    /// `subscriptions/listen` streams count against [`HttpConfig::max_subscriptions`] instead.
    #[must_use]
    pub fn max_requests(mut self, max: usize) -> Self {
        self.max_requests = max;
        self
    }

    /// The most legacy sessions open at once (default 1024). A full table closes its least
    /// recently used session not in use (one that never did anything first); `503` only when
    /// every one is in use.
    #[must_use]
    pub fn max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max;
        self
    }

    /// How long a legacy session lives unused (default one hour); then it is closed.
    #[must_use]
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle_timeout = timeout;
        self
    }

    /// The most `subscriptions/listen` streams (2026-07-28) open at once (`503` beyond). They
    /// have no time limit: each lasts until its client closes it or the server shuts down.
    #[must_use]
    pub fn max_subscriptions(mut self, max: usize) -> Self {
        self.max_subscriptions = max;
        self
    }

    /// Stateless mode: no legacy sessions, every request stands alone, so any number of replicas
    /// can serve behind any load balancer. Legacy clients then get no `Mcp-Session-Id` and no GET
    /// stream (`405`), so nothing can tell them of a change: their `initialize` declares no
    /// `listChanged` and no resource `subscribe`, and `resources/subscribe` is unknown
    /// (`-32601`). A 2026-07-28 client still subscribes, on its `subscriptions/listen` stream.
    #[must_use]
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// The most connections [`crate::Server::serve_http`] (and
    /// [`crate::Server::serve_http_app`]) keeps open at once (default 512, well under the usual
    /// limit of 1,024 open files). Beyond, a new client waits while a connection makes room:
    /// the next to send an answer of known length says `Connection: close`, or, when none has
    /// within 250 ms, the longest idle one is closed (one that never sent a whole request at
    /// once); so keep-alive clients cannot starve the others. Up to 32 such clients wait
    /// accepted; more wait in the listen backlog, never past the cap.
    #[must_use]
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// The most long-lived streams open at once, GET streams and `subscriptions/listen` streams
    /// together (default: half of [`HttpConfig::max_connections`]); beyond, `503` with
    /// `Retry-After`. Each holds a connection for as long as it lasts: this keeps connections
    /// for everyone else's requests.
    #[must_use]
    pub fn max_streams(mut self, max: usize) -> Self {
        self.max_streams = Some(max.max(1));
        self
    }

    /// The most request bodies that may take their time to arrive at once on the connections of
    /// [`crate::Server::serve_http`] (default: a quarter of [`HttpConfig::max_connections`]);
    /// beyond, a body must arrive whole within a second (as one sent with its headers does), or
    /// it is answered `503` with `Retry-After` and its connection closed. With
    /// [`HttpConfig::min_body_rate`], clients that send their bodies slowly hold a bounded share of
    /// the connections, for a bounded time.
    #[must_use]
    pub fn max_arriving_bodies(mut self, max: usize) -> Self {
        self.max_arriving_bodies = Some(max.max(1));
        self
    }

    /// How fast a request body must arrive on the connections of [`crate::Server::serve_http`]:
    /// after [`HttpConfig::body_rate_grace`], at least `bytes_per_second` on average since the
    /// server first reads it (after admission, auth and the app's own layers; default 1 KiB/s),
    /// or it is answered `408` and its connection closed, as a slow-header client is. The whole
    /// body must still arrive within [`HttpConfig::request_timeout`] (or 30 s).
    #[must_use]
    pub fn min_body_rate(mut self, bytes_per_second: u64) -> Self {
        self.body_rate = bytes_per_second.max(1);
        self
    }

    /// How long a request body may arrive at any pace before [`HttpConfig::min_body_rate`]
    /// applies (default 5 s).
    #[must_use]
    pub fn body_rate_grace(mut self, grace: Duration) -> Self {
        self.body_grace = grace;
        self
    }

    /// How long [`crate::Server::serve_http`] (and [`crate::Server::serve_http_app`]) waits for a
    /// request's headers (default 30 s),
    /// counted from the connection's start or from the end of its previous response: a client
    /// that sends its headers slowly, or leaves a keep-alive connection idle, is disconnected
    /// after this.
    #[must_use]
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// With bearer auth, how many requests one principal (a token's client and subject) may
    /// have being answered at once, and as many GET and `subscriptions/listen` streams (default 64);
    /// beyond, `503`: one caller cannot take every slot.
    #[must_use]
    pub fn max_requests_per_principal(mut self, max: usize) -> Self {
        self.principal_requests = max.max(1);
        self
    }

    /// With bearer auth, how many legacy sessions one principal may hold at once (default 32);
    /// beyond, its own least recently used session not in use is closed to make room, or it
    /// gets `503`: one caller cannot fill the session table for everyone.
    #[must_use]
    pub fn max_sessions_per_principal(mut self, max: usize) -> Self {
        self.principal_sessions = max.max(1);
        self
    }

    /// How many events of each legacy session stream are kept for a client that resumes it
    /// with `Last-Event-ID` (default 1,000): past it the oldest are dropped. See the
    /// [`http`](crate::http) guide's "Resumable streams".
    #[must_use]
    pub fn max_replay_events(mut self, max: usize) -> Self {
        self.max_replay_events = max.max(1);
        self
    }

    /// How many bytes of events the legacy session streams keep for clients that resume them,
    /// all streams together (default 64 MiB): past it the streams whose last event is oldest
    /// are forgotten first. With Redis, the shared log is bounded by it too, every replica's
    /// streams together.
    #[must_use]
    pub fn max_replay_bytes(mut self, bytes: usize) -> Self {
        self.max_replay_bytes = bytes;
        self
    }

    /// How long a legacy session stream's events are kept after its last one, once the stream
    /// ended (default 5 minutes); a stream still running is kept while it runs.
    #[must_use]
    pub fn replay_ttl(mut self, ttl: Duration) -> Self {
        self.replay_ttl = ttl;
        self
    }

    /// Trusts the proxies at `cidrs` (networks such as `10.0.0.0/8` or lone addresses,
    /// separated by commas; calls add up) to name the client in `X-Forwarded-For`: a request
    /// whose connection comes from one of them is counted by the rate limits
    /// ([`Server::rate_limit`](crate::Server::rate_limit)) as the address it forwarded, read
    /// from the right past every trusted hop. No proxy is trusted by default: the header of any
    /// other peer is ignored, since any client can write it. `run()` gives `--trust-proxy CIDR`
    /// (`MCP_TRUST_PROXY`).
    ///
    /// ```
    /// use mcp_toolbelt::http::HttpConfig;
    ///
    /// let config = HttpConfig::new().trust_proxy("10.0.0.0/8, 127.0.0.1").unwrap();
    /// assert!(HttpConfig::new().trust_proxy("proxy.local").is_err());
    /// # let _ = config;
    /// ```
    pub fn trust_proxy(self, cidrs: &str) -> Result<Self, crate::Error> {
        let proxies = super::client::parse_proxies(cidrs)
            .map_err(|problem| crate::Error::Arguments(format!("trust_proxy: {problem}")))?;
        Ok(self.trusting(proxies))
    }

    /// Trusts the proxies `nets` too (parsed already: `run()`'s `--trust-proxy`).
    pub(crate) fn trusting(mut self, nets: Vec<ipnet::IpNet>) -> Self {
        self.trusted_proxies.extend(nets);
        self
    }

    /// How long in-flight requests may take to finish after SIGINT/SIGTERM.
    #[must_use]
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request. `verify` returns what the
    /// token grants (it reaches tools as [`crate::Context::auth`]), or `None` for a bad token,
    /// answered `401` with a `WWW-Authenticate` header that points at `metadata`, which is served.
    ///
    /// ```
    /// use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
    ///
    /// let metadata =
    ///     ProtectedResourceMetadata::new("https://mcp.example.com/mcp", "https://auth.example.com")
    ///         .scopes(["notes:read", "notes:write"]);
    /// let config = HttpConfig::new().bearer_auth(metadata, |token: String| async move {
    ///     // Ask your authorization server (introspection) or check a JWT here.
    ///     (token == "let-me-in").then(|| {
    ///         AuthInfo::new("demo-client").subject("ada").scopes(["notes:read"])
    ///     })
    /// });
    /// ```
    #[must_use]
    pub fn bearer_auth<F, Fut>(mut self, metadata: ProtectedResourceMetadata, verify: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<AuthInfo>> + Send + 'static,
    {
        let verifier: Verifier = Arc::new(move |token| Box::pin(verify(token)));
        self.auth = Some(BearerAuth {
            check: TokenCheck::Custom(verifier),
            metadata,
        });
        self
    }

    /// Makes this server an OAuth 2.1 resource server whose tokens `issuer` issues: every
    /// request needs `Authorization: Bearer <JWT>`, verified here, with no code of yours.
    ///
    /// - The token is signed by a key of the issuer's JWKS (its `jwks_uri`, read from
    ///   `{issuer}/.well-known/oauth-authorization-server` (RFC 8414), else
    ///   `{issuer}/.well-known/openid-configuration`), with `RS256`, `ES256` or `EdDSA` (never `none`,
    ///   never an HMAC). The keys are fetched at the first token and kept (fetched again after an
    ///   hour); a token whose `kid` is not among them fetches them again (the issuer rotated its
    ///   keys), at most once every 30 s. A token verified is kept (its digest, with what it
    ///   grants) until its `exp`, at most 5 minutes, within the bounds of the Limits table: a
    ///   client's requests after its first cost a lookup, not a signature check.
    /// - Its `iss` is `issuer`, its `aud` contains this server's resource URI (RFC 8707: the
    ///   metadata's `resource`, `http://HOST:PORT/mcp` where [`Server::serve_http`](crate::Server::serve_http)
    ///   binds, or `run()`'s `--resource URL`), its `exp` and `nbf` hold, give or take 60 s.
    /// - Its header's `typ` says an access token: RFC 9068's `at+jwt` (or `application/at+jwt`),
    ///   or `JWT`, or none (what Keycloak, Entra ID, Auth0 and Okta write); a JWT typed for
    ///   something else (`dpop+jwt`, `logout+jwt`, …) is refused.
    /// - No token, or a bad one: `401` with `WWW-Authenticate: Bearer resource_metadata="…"`
    ///   (and `error="invalid_token"` for a bad one). The RFC 9728 document served names `issuer`
    ///   in `authorization_servers`. The issuer unreachable: `503`.
    ///
    /// What the token grants reaches tools, resources, prompts and hooks as
    /// [`Context::auth`](crate::Context::auth): its `client_id` (else `azp`), `sub`, `scope`
    /// (else `scp`), and every claim in [`AuthInfo::extra`]. `issuer` must be `https://`, or
    /// `http://` on loopback (a development server): anything else is refused when serving
    /// starts. For opaque tokens, see [`oauth_introspection`](Self::oauth_introspection).
    ///
    /// ```
    /// use mcp_toolbelt::{http::HttpConfig, Server};
    ///
    /// let server = Server::new("notes", "1.0.0")
    ///     .http_config(HttpConfig::new().oauth("https://auth.example.com/realms/notes"));
    /// ```
    ///
    /// Requires the `oauth` feature.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn oauth(self, issuer: impl Into<String>) -> Self {
        self.with_oauth(issuer.into(), None)
    }

    /// [`oauth`](Self::oauth), and tokens that are not JWTs (opaque ones) asked about at the
    /// issuer's `introspection_endpoint` (RFC 7662), this server authenticated as the client
    /// `client_id` with `client_secret` (HTTP Basic). An answer is honoured when it says
    /// `active`, names this server's resource URI in `aud` and, when it names one, the issuer
    /// in `iss`, within its `exp` and `nbf`. Active answers are kept until their `exp`, at most
    /// 5 minutes (a token revoked at the issuer is refused within that), within the bounds of
    /// the Limits table; a refused token is asked about again each time.
    ///
    /// ```
    /// use mcp_toolbelt::http::HttpConfig;
    ///
    /// let secret = std::env::var("INTROSPECTION_SECRET").unwrap_or_default();
    /// let config =
    ///     HttpConfig::new().oauth_introspection("https://auth.example.com", "notes-mcp", secret);
    /// ```
    ///
    /// Requires the `oauth` feature.
    #[cfg(feature = "oauth")]
    #[must_use]
    pub fn oauth_introspection(
        self,
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        let credentials = super::oauth::Credentials {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        };
        self.with_oauth(issuer.into(), Some(credentials))
    }

    #[cfg(feature = "oauth")]
    fn with_oauth(
        mut self,
        issuer: String,
        introspection: Option<super::oauth::Credentials>,
    ) -> Self {
        // The resource URI follows the address served unless one was named before.
        let metadata = match self.auth.take() {
            Some(auth) if !auth.metadata.follows_address && !auth.metadata.resource.is_empty() => {
                ProtectedResourceMetadata {
                    authorization_servers: vec![issuer.clone()],
                    ..auth.metadata
                }
            }
            _ => ProtectedResourceMetadata::at_served_address(issuer.clone()),
        };
        let verifier = super::oauth::Verifier::new(issuer, introspection);
        self.auth = Some(BearerAuth {
            check: TokenCheck::OAuth(Arc::new(verifier)),
            metadata,
        });
        self
    }

    /// Shares legacy sessions, resumable streams, tasks and change notifications with the other
    /// replicas through the Redis at `url` (`redis://[user:password@]host:port[/db]`), connected
    /// when serving starts ([`Server::serve_http`](crate::Server::serve_http),
    /// [`Server::serve_http_app`](crate::Server::serve_http_app), `run()`): a Redis that cannot
    /// be reached then is a start-up error naming the URL. [`Server::into_router`](crate::Server::into_router)
    /// and [`Server::into_service`](crate::Server::into_service) cannot wait for a connection:
    /// give them one with [`redis_store`](Self::redis_store). See [`crate::redis`].
    ///
    /// Requires the `redis` feature.
    #[cfg(feature = "redis")]
    #[must_use]
    pub fn redis(mut self, url: impl Into<String>) -> Self {
        self.redis = Some(RedisSetting::Url(url.into()));
        self
    }

    /// Shares what lives between requests with the other replicas through `redis`, already
    /// connected ([`Redis::connect`](crate::redis::Redis::connect)). See [`crate::redis`].
    ///
    /// Requires the `redis` feature.
    #[cfg(feature = "redis")]
    #[must_use]
    pub fn redis_store(mut self, redis: crate::redis::Redis) -> Self {
        self.redis = Some(RedisSetting::Connected(redis));
        self
    }
}

impl HttpConfig {
    /// The configuration whose protected-resource metadata (when auth is on) also lists
    /// `declared`, the scopes the served items need, after the ones given.
    pub(super) fn declaring_scopes(mut self, declared: Vec<String>) -> Self {
        if let Some(auth) = &mut self.auth {
            auth.metadata = auth.metadata.declaring(declared);
        }
        self
    }
}

impl ProtectedResourceMetadata {
    /// The document that also lists `declared`, the scopes the served items need, after the
    /// ones given.
    pub(super) fn declaring(&self, declared: Vec<String>) -> Self {
        let mut document = self.clone();
        for scope in declared {
            if !document.scopes_supported.contains(&scope) {
                document.scopes_supported.push(scope);
            }
        }
        document
    }
}

#[cfg(feature = "redis")]
impl HttpConfig {
    /// The configuration with its Redis connected (a URL given by [`redis`](Self::redis) is
    /// connected to now). `Err` names the URL and why.
    pub(crate) async fn connected(mut self) -> Result<Self, crate::Error> {
        if let Some(RedisSetting::Url(url)) = &self.redis {
            let redis = crate::replicas::Redis::connect(url).await?;
            self.redis = Some(RedisSetting::Connected(redis));
        }
        Ok(self)
    }

    /// `Err` when a Redis URL was given that nobody connected to (`into_router`).
    pub(crate) fn check_connected(&self) -> Result<(), crate::Error> {
        match &self.redis {
            Some(RedisSetting::Url(url)) => Err(crate::Error::Redis(format!(
                "HttpConfig::redis({:?}) is connected when serve_http or serve_http_app starts; \
                 for into_router or into_service, connect first with mcp_toolbelt::redis::Redis::connect \
                 and pass it to HttpConfig::redis_store",
                crate::replicas::redacted(url)
            ))),
            _ => Ok(()),
        }
    }

    /// The connected Redis, if any.
    pub(crate) fn redis_connected(&self) -> Option<&crate::replicas::Redis> {
        match &self.redis {
            Some(RedisSetting::Connected(redis)) => Some(redis),
            _ => None,
        }
    }
}

impl HttpConfig {
    /// The most long-lived streams open at once.
    pub(super) fn stream_cap(&self) -> usize {
        self.max_streams
            .unwrap_or((self.max_connections / 2).max(1))
    }

    /// The most bodies arriving at once.
    pub(super) fn arriving_body_cap(&self) -> usize {
        self.max_arriving_bodies
            .unwrap_or((self.max_connections / 4).max(1))
    }

    /// Whether every request stands alone (no legacy session, no GET stream).
    pub(crate) fn is_stateless(&self) -> bool {
        self.stateless
    }

    /// The metadata's `resource` is `url`: `--resource URL` (`always`), or the URL served at,
    /// when it follows that ([`ProtectedResourceMetadata::at_served_address`]).
    pub(crate) fn resource_url(mut self, url: String, always: bool) -> Self {
        if let Some(auth) = &mut self.auth
            && (always || auth.metadata.follows_address)
        {
            auth.metadata.resource = url;
            auth.metadata.follows_address = false;
        }
        self
    }

    /// `Err` when the metadata's `resource` waits for an address served, which the endpoint
    /// mounted elsewhere (`into_router`, `into_service`, `serve_http_app`) never gets.
    pub(crate) fn check_resource(&self) -> Result<(), crate::Error> {
        #[cfg(feature = "oauth")]
        if let Some(BearerAuth {
            check: TokenCheck::OAuth(verifier),
            ..
        }) = &self.auth
        {
            super::oauth::check_issuer(verifier.issuer())
                .map_err(|why| crate::Error::Arguments(format!("HttpConfig::oauth: {why}")))?;
        }
        match &self.auth {
            Some(auth) if auth.metadata.follows_address => Err(crate::Error::Arguments(
                "ProtectedResourceMetadata::at_served_address is filled in by serve_http (and \
                 run()'s --http), which know the address they serve; for into_router, \
                 into_service or serve_http_app, give the URL clients use: \
                 ProtectedResourceMetadata::new(\"https://…/mcp\", …)"
                    .into(),
            )),
            _ => Ok(()),
        }
    }

    /// Whether every request needs a bearer token ([`HttpConfig::bearer_auth`]).
    pub(crate) fn wants_bearer_token(&self) -> bool {
        self.auth.is_some()
    }

    /// Whether no `Host` but localhost's is served (the default, until hosts are named).
    pub(crate) fn serves_only_localhost(&self) -> bool {
        !self.any_host && self.allowed_hosts.is_empty()
    }

    /// CORS for the origins named in [`HttpConfig::allow_origins`], and only those (not every
    /// origin after `allow_any_origin`, not every localhost page): a page on one of them may send
    /// the MCP headers and read `Mcp-Session-Id` and `WWW-Authenticate`.
    pub(super) fn cors(&self) -> CorsLayer {
        let named = self.allowed_origins.clone();
        let mcp_headers = [
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::AUTHORIZATION,
            SESSION_ID,
            PROTOCOL_VERSION,
            MCP_METHOD,
            MCP_NAME,
            HeaderName::from_static("last-event-id"),
        ];
        CorsLayer::new()
            .allow_origin(AllowOrigin::predicate(move |origin, _| {
                origin
                    .to_str()
                    .is_ok_and(|origin| named.iter().any(|named| named == origin))
            }))
            .allow_methods([Method::GET, Method::POST, Method::DELETE])
            .allow_headers(mcp_headers)
            .expose_headers([SESSION_ID, header::WWW_AUTHENTICATE])
            .max_age(Duration::from_hours(1))
    }
}

impl std::fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("allowed_hosts", &self.allowed_hosts)
            .field("any_host", &self.any_host)
            .field("allowed_origins", &self.allowed_origins)
            .field("any_origin", &self.any_origin)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("request_timeout", &self.request_timeout)
            .field("max_sessions", &self.max_sessions)
            .field("max_subscriptions", &self.max_subscriptions)
            .field("max_requests", &self.max_requests)
            .field("stateless", &self.stateless)
            .field("max_connections", &self.max_connections)
            .field("header_timeout", &self.header_timeout)
            .field("max_streams", &self.stream_cap())
            .field("max_arriving_bodies", &self.arriving_body_cap())
            .field("body_rate", &self.body_rate)
            .field("body_grace", &self.body_grace)
            .field("principal_requests", &self.principal_requests)
            .field("principal_sessions", &self.principal_sessions)
            .field("max_replay_events", &self.max_replay_events)
            .field("max_replay_bytes", &self.max_replay_bytes)
            .field("replay_ttl", &self.replay_ttl)
            .field("auth", &self.auth.as_ref().map(|auth| &auth.metadata))
            .finish_non_exhaustive()
    }
}
