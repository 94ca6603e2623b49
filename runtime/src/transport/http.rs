//! Streamable HTTP, both eras, on one endpoint.
//!
//! A POST is *modern* (2026-07-28) when its body's `_meta` claims a protocol version or its
//! `MCP-Protocol-Version` header names a modern one; it is then answered from the request alone.
//! Everything else is *legacy*: `initialize` opens a session (`Mcp-Session-Id`), which later
//! requests carry, or, in stateless mode, every request stands alone.
//!
//! Safe by default: only localhost `Host`s and `Origin`s are served (DNS rebinding), bodies and
//! request time are bounded, sessions are capped, and an optional bearer-token verifier guards
//! every request.
//!
//! Cancellation: a 2026-07-28 client cancels by closing the response; a legacy one by posting
//! `notifications/cancelled` (its POST's event stream then ends without a response).
//! A legacy client that disconnects before its answer also cancels the call: the legacy spec
//! says a disconnect SHOULD NOT mean cancellation, but without resumable streams (which we do
//! not offer) its answer could never be delivered, so the work would be wasted.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Extension;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest as _, Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use futures_util::StreamExt as _;
use futures_util::future::{Abortable, BoxFuture};
use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::context::AuthInfo;
use crate::protocol::{
    self, Connection, Dispatcher, ErrorObject, Exchange, InFlight, Incoming, LEGACY_VERSIONS,
    MODERN_VERSIONS, Ticket, codes,
};
use crate::server::Server;
use crate::sync::lock;

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// The version a legacy HTTP client that sends no `MCP-Protocol-Version` header is assumed to speak.
const HTTP_DEFAULT_VERSION: &str = "2025-03-26";

/// The longest a request body may take to arrive (unless the request time limit is shorter).
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

type Verifier = Arc<dyn Fn(String) -> BoxFuture<'static, Option<AuthInfo>> + Send + Sync>;

/// How the HTTP transport guards and shapes its endpoint. The defaults suit a local server.
#[derive(Clone)]
pub struct HttpConfig {
    allowed_hosts: Option<Vec<String>>,
    /// Origins named by `allow_origins`: served, and granted CORS.
    allowed_origins: Vec<String>,
    /// Every origin served (`allow_any_origin`); CORS still only for the named ones.
    any_origin: bool,
    max_body_bytes: usize,
    request_timeout: Duration,
    max_sessions: usize,
    session_idle_timeout: Duration,
    max_subscriptions: usize,
    max_requests: usize,
    stateless: bool,
    shutdown_grace: Duration,
    auth: Option<BearerAuth>,
}

#[derive(Clone)]
struct BearerAuth {
    verifier: Verifier,
    metadata: ProtectedResourceMetadata,
}

/// The OAuth 2.0 Protected Resource Metadata document (RFC 9728) a server that verifies bearer
/// tokens publishes, so clients find where to get a token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
            allowed_hosts: Some(Vec::new()),
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
            auth: None,
        }
    }
}

impl HttpConfig {
    /// The defaults: localhost only, 4 MiB bodies, 5-minute requests, 1024 requests at once, 1024
    /// sessions, 1024 `subscriptions/listen` streams.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Also serves requests whose `Host` is one of `hosts` (names, with or without a port).
    /// Localhost names are always allowed.
    #[must_use]
    pub fn allow_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts
            .get_or_insert_with(Vec::new)
            .extend(hosts.into_iter().map(Into::into));
        self
    }

    /// Serves any `Host`: for a server behind a proxy that checks it.
    #[must_use]
    pub fn allow_any_host(mut self) -> Self {
        self.allowed_hosts = None;
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

    /// How long one request may take before it is answered with an error. Its body must also
    /// arrive within this time, or 30 s if that is shorter (`408`): a client that sends slowly
    /// cannot hold a request slot for long.
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// The most POSTs being read or answered at once (`503` beyond), answer streams included;
    /// `subscriptions/listen` streams count against [`HttpConfig::max_subscriptions`] instead.
    #[must_use]
    pub fn max_requests(mut self, max: usize) -> Self {
        self.max_requests = max;
        self
    }

    /// The most legacy sessions open at once (`503` beyond), and how long an idle one lives.
    #[must_use]
    pub fn sessions(mut self, max: usize, idle_timeout: Duration) -> Self {
        self.max_sessions = max;
        self.session_idle_timeout = idle_timeout;
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
    /// stream (`405`).
    #[must_use]
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
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
    #[must_use]
    pub fn bearer_auth<F, Fut>(mut self, metadata: ProtectedResourceMetadata, verify: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<AuthInfo>> + Send + 'static,
    {
        let verifier: Verifier = Arc::new(move |token| Box::pin(verify(token)));
        self.auth = Some(BearerAuth { verifier, metadata });
        self
    }
}

impl HttpConfig {
    /// Whether a browser page from `origin` may call the endpoint: localhost pages always, others
    /// when allowed.
    fn allows_origin(&self, origin: &str) -> bool {
        let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
        self.any_origin
            || is_localhost(host_name(origin_host))
            || self.allowed_origins.iter().any(|a| a == origin)
    }

    /// CORS for the origins named in [`HttpConfig::allow_origins`], and only those (not every
    /// origin after `allow_any_origin`, not every localhost page): a page on one of them may send
    /// the MCP headers and read `Mcp-Session-Id` and `WWW-Authenticate`.
    fn cors(&self) -> CorsLayer {
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
            .field("allowed_origins", &self.allowed_origins)
            .field("any_origin", &self.any_origin)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("request_timeout", &self.request_timeout)
            .field("max_sessions", &self.max_sessions)
            .field("max_subscriptions", &self.max_subscriptions)
            .field("max_requests", &self.max_requests)
            .field("stateless", &self.stateless)
            .field("auth", &self.auth.as_ref().map(|auth| &auth.metadata))
            .finish_non_exhaustive()
    }
}

impl Server {
    /// The MCP endpoint as an [`axum::Router`] serving path `/`: nest it where you want it
    /// (`app.nest("/mcp", server.into_router()?)`) and add your own layers. With bearer auth,
    /// also serve [`ProtectedResourceMetadata`] (see [`Server::serve_http`], which does).
    ///
    /// A legacy client's GET stream, and a 2026-07-28 client's `subscriptions/listen` stream,
    /// stay open until the client leaves (or its session ends), so an app's own graceful shutdown
    /// waits for such clients: bound it with a timeout, as [`Server::serve_http`] does.
    pub fn into_router(self) -> io::Result<Router> {
        self.router(CancellationToken::new())
    }

    /// The endpoint; cancelling `shutdown` ends its GET and `subscriptions/listen` streams.
    fn router(self, shutdown: CancellationToken) -> io::Result<Router> {
        let config = self.http.clone();
        let changes = self.changes_subscription();
        let dispatcher = self
            .into_dispatcher(shutdown.clone())
            .map_err(io::Error::other)?;
        let state = Arc::new(HttpState {
            dispatcher,
            changes,
            sessions: Mutex::new(HashMap::new()),
            subscriptions: Arc::default(),
            requests: Arc::default(),
            config,
            shutdown,
        });
        let max_body = state.config.max_body_bytes;
        let cors = state.config.cors();
        Ok(Router::new()
            .route("/", get(get_stream).post(post).delete(delete))
            // Host, Origin and the bearer token are checked before any body is read.
            .route_layer(middleware::from_fn_with_state(Arc::clone(&state), admit))
            .layer(DefaultBodyLimit::max(max_body))
            // Outside the admission check: a preflight carries no credentials.
            .layer(cors)
            .with_state(state))
    }

    /// Serves Streamable HTTP at `address` on path `/mcp` (and the protected-resource metadata
    /// when bearer auth is on) until SIGINT or SIGTERM. Then it accepts no new connection,
    /// closes the GET streams, and waits for in-flight requests up to the configured grace time
    /// before it returns (whatever still runs then ends with the process).
    pub async fn serve_http(self, address: SocketAddr) -> io::Result<()> {
        crate::transport::init_stderr_logging();
        let metadata = self.http.auth.as_ref().map(|auth| auth.metadata.clone());
        let grace = self.http.shutdown_grace;
        let shutdown = CancellationToken::new();
        let mut app = Router::new().nest("/mcp", self.router(shutdown.clone())?);
        if let Some(metadata) = metadata {
            let path = metadata.well_known_path();
            let document = Arc::new(metadata);
            app = app.route(
                &path,
                get(move || async move { axum::Json((*document).clone()) }),
            );
        }
        let signal = shutdown_signal()?;
        let listener = tokio::net::TcpListener::bind(address).await?;
        tracing::info!(address = %listener.local_addr()?, "serving MCP over Streamable HTTP at /mcp");
        tokio::spawn({
            let shutdown = shutdown.clone();
            async move {
                signal.await;
                tracing::info!("shutting down");
                shutdown.cancel();
            }
        });
        let serve =
            axum::serve(listener, app).with_graceful_shutdown(shutdown.clone().cancelled_owned());
        tokio::select! {
            result = serve => result,
            () = async { shutdown.cancelled().await; tokio::time::sleep(grace).await } => {
                tracing::warn!("requests still running after the shutdown grace time are abandoned");
                Ok(())
            }
        }
    }
}

/// SIGINT or SIGTERM: listened for from the call on (so a signal that comes before the server
/// runs is not missed, nor kills it), and the future completes at the first.
fn shutdown_signal() -> io::Result<impl Future<Output = ()> + Send> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(windows)]
    {
        let mut interrupt = tokio::signal::windows::ctrl_c()?;
        Ok(async move {
            interrupt.recv().await;
        })
    }
    #[cfg(not(any(unix, windows)))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

struct HttpState {
    dispatcher: Dispatcher,
    changes: broadcast::Receiver<()>,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// How many `subscriptions/listen` streams are open.
    subscriptions: Arc<AtomicUsize>,
    /// How many other POSTs are being read or answered.
    requests: Arc<AtomicUsize>,
    config: HttpConfig,
    /// Cancelled when the server shuts down: GET and `subscriptions/listen` streams then end.
    shutdown: CancellationToken,
}

/// Who a bearer token speaks for: its client and subject.
#[derive(PartialEq, Eq)]
struct Principal {
    client_id: String,
    subject: Option<String>,
}

impl Principal {
    fn of(auth: &AuthInfo) -> Self {
        Self {
            client_id: auth.client_id.clone(),
            subject: auth.subject.clone(),
        }
    }
}

/// A legacy session: its connection state and its requests still running.
struct Session {
    connection: Arc<Connection>,
    in_flight: Arc<InFlight>,
    last_seen: Mutex<Instant>,
    stream_open: Mutex<bool>,
    /// Cancelled when the session ends: its GET stream closes, calls starting late are dropped.
    ended: CancellationToken,
    /// With bearer auth, who opened it: nobody else may use it.
    owner: Option<Principal>,
}

impl Session {
    /// Ends the session: cancels every call still running and closes its GET stream.
    fn end(&self) {
        self.ended.cancel();
        self.in_flight.cancel_all();
    }

    /// Marks the session as used now: a request came, a call or the GET stream ended.
    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    /// Whether the session has been left alone for `timeout`: no request for that long, no GET
    /// stream open and no call running.
    fn idle_for(&self, timeout: Duration) -> bool {
        lock(&self.last_seen).elapsed() >= timeout
            && !*lock(&self.stream_open)
            && self.in_flight.is_empty()
    }
}

/// A refusal before any JSON-RPC processing: status plus an id-less JSON-RPC error body.
fn refuse(status: StatusCode, code: i64, message: impl Into<String>) -> Response {
    (
        status,
        axum::Json(ErrorObject::new(code, message).into_response(Value::Null)),
    )
        .into_response()
}

/// The answer to a request that failed at the HTTP level, with its id.
fn refuse_request(status: StatusCode, id: &Value, error: ErrorObject) -> Response {
    (status, axum::Json(error.into_response(id.clone()))).into_response()
}

impl HttpState {
    /// DNS-rebinding protection, then authentication. `Err` is the response to send.
    async fn admit(&self, uri: &Uri, headers: &HeaderMap) -> Result<Option<AuthInfo>, Response> {
        // HTTP/1.1 names the host in `Host`; HTTP/2 in the `:authority` the URI carries.
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| uri.authority().map(Authority::as_str))
            .unwrap_or("");
        if let Some(allowed) = &self.config.allowed_hosts
            && !(is_localhost(host_name(host))
                || allowed.iter().any(|a| a == host || a == host_name(host)))
        {
            tracing::warn!(host, "refused a request for a host that is not allowed");
            return Err(refuse(
                StatusCode::FORBIDDEN,
                codes::INVALID_REQUEST,
                format!("Forbidden: host {host} is not allowed"),
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !self.config.allows_origin(origin) {
                tracing::warn!(
                    origin,
                    "refused a request from an origin that is not allowed"
                );
                return Err(refuse(
                    StatusCode::FORBIDDEN,
                    codes::INVALID_REQUEST,
                    format!("Forbidden: origin {origin} is not allowed"),
                ));
            }
        }
        let Some(auth) = &self.config.auth else {
            return Ok(None);
        };
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            // The scheme is case-insensitive (RFC 7235 §2.1).
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty());
        let verified = match token {
            Some(token) => (auth.verifier)(token.to_owned()).await,
            None => None,
        };
        verified.map(Some).ok_or_else(|| {
            // RFC 6750 §3.1: a token that was sent but refused is `invalid_token`.
            let error = if token.is_some() {
                "error=\"invalid_token\", "
            } else {
                ""
            };
            let challenge = format!(
                "Bearer {error}resource_metadata=\"{}\"",
                auth.metadata.url()
            );
            let mut response = refuse(
                StatusCode::UNAUTHORIZED,
                codes::INVALID_REQUEST,
                "Unauthorized: a valid bearer token is required",
            );
            if let Ok(value) = HeaderValue::from_str(&challenge) {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, value);
            }
            response
        })
    }

    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, sent at once"
    )]
    /// The live session the request names, if its caller is the one who opened it.
    fn session(
        &self,
        headers: &HeaderMap,
        auth: Option<&AuthInfo>,
    ) -> Result<Arc<Session>, Response> {
        let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                codes::INVALID_REQUEST,
                "Bad Request: Mcp-Session-Id header is required",
            ));
        };
        let not_found = || {
            refuse(
                StatusCode::NOT_FOUND,
                codes::INVALID_REQUEST,
                "Session not found",
            )
        };
        let session = {
            let mut sessions = lock(&self.sessions);
            let expired = sessions
                .get(id)
                .is_some_and(|session| session.idle_for(self.config.session_idle_timeout));
            if expired && let Some(session) = sessions.remove(id) {
                session.end();
            }
            sessions.get(id).cloned()
        };
        let Some(session) = session else {
            return Err(not_found());
        };
        // Another principal gets the same answer as for an unknown id: ids are not disclosed.
        if session.owner != auth.map(Principal::of) {
            return Err(not_found());
        }
        session.touch();
        Ok(session)
    }

    /// Opens a session. Idle ones are closed first; when the table is still full, the least
    /// recently used session left alone for at least half the idle timeout makes room (its
    /// client gets `404` and opens another, as the protocol says): a flood of `initialize`s cannot
    /// push out sessions in use. `None` when there is no such session, or no secure random id can
    /// be had.
    fn open_session(&self, auth: Option<&AuthInfo>) -> Option<(String, Arc<Session>)> {
        let mut sessions = lock(&self.sessions);
        let idle = self.config.session_idle_timeout;
        sessions.retain(|_, session| {
            let expired = session.idle_for(idle);
            if expired {
                session.end();
            }
            !expired
        });
        if sessions.len() >= self.config.max_sessions {
            let least_recently_used = sessions
                .iter()
                .filter(|(_, session)| session.idle_for(idle / 2))
                .min_by_key(|(_, session)| *lock(&session.last_seen))
                .map(|(id, _)| id.clone())?;
            if let Some(session) = sessions.remove(&least_recently_used) {
                tracing::debug!("session table full: the least recently used session is closed");
                session.end();
            }
        }
        let id = new_session_id()?;
        let session = Arc::new(Session {
            connection: Arc::new(Connection::new(HTTP_DEFAULT_VERSION, Some(id.clone()))),
            in_flight: Arc::default(),
            last_seen: Mutex::new(Instant::now()),
            stream_open: Mutex::new(false),
            ended: CancellationToken::new(),
            owner: auth.map(Principal::of),
        });
        sessions.insert(id.clone(), Arc::clone(&session));
        Some((id, session))
    }
}

/// What [`admit`] learned of the caller: its verified token, when auth is on.
#[derive(Clone)]
struct Caller(Option<AuthInfo>);

/// Admits a request (DNS-rebinding protection, then authentication) before its handler reads
/// the body, and hands the caller to the handler.
async fn admit(State(state): State<Arc<HttpState>>, mut request: Request, next: Next) -> Response {
    match state.admit(request.uri(), request.headers()).await {
        Ok(auth) => {
            request.extensions_mut().insert(Caller(auth));
            next.run(request).await
        }
        Err(response) => response,
    }
}

/// A POST: the headers are checked, then the body is read (within the size and time limits),
/// then the message is answered in its era.
async fn post(
    State(state): State<Arc<HttpState>>,
    Extension(Caller(auth)): Extension<Caller>,
    request: Request,
) -> Response {
    let Some(slot) = Slot::take(&state.requests, state.config.max_requests) else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::INTERNAL_ERROR,
            "Service Unavailable: too many requests are being answered",
        );
    };
    let headers = request.headers().clone();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !content_type
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("application/json")
    {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::INVALID_REQUEST,
            "Unsupported Media Type: Content-Type must be application/json",
        );
    }
    let accepts_sse = accepts(&headers, "text/event-stream");
    if !accepts_sse && !accepts(&headers, "application/json") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            codes::INVALID_REQUEST,
            "Not Acceptable: Accept must include application/json or text/event-stream",
        );
    }
    let body = match tokio::time::timeout(
        state.config.request_timeout.min(BODY_TIMEOUT),
        Bytes::from_request(request, &state),
    )
    .await
    {
        Ok(Ok(body)) => body,
        Ok(Err(rejection)) => return rejection.into_response(), // 413 beyond the size limit
        Err(_) => {
            return refuse(
                StatusCode::REQUEST_TIMEOUT,
                codes::INVALID_REQUEST,
                "Request Timeout: the body did not arrive within the time limit",
            );
        }
    };
    let message = match protocol::parse(&body) {
        Ok(message) => message,
        Err(error) => return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response(),
    };
    let header_version = headers.get(PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
    let modern = match &message {
        Incoming::Request { params, .. } | Incoming::Notification { params, .. } => {
            protocol::claims_modern(params.as_ref())
                || header_version.is_some_and(|v| v >= MODERN_VERSIONS[0])
        }
        _ => false,
    };
    if modern {
        modern_post(&state, &headers, message, auth, accepts_sse, slot).await
    } else {
        legacy_post(&state, &headers, message, auth, accepts_sse, slot).await
    }
}

/// 2026-07-28: every POST stands alone; headers must agree with the body.
async fn modern_post(
    state: &HttpState,
    headers: &HeaderMap,
    message: Incoming,
    auth: Option<AuthInfo>,
    accepts_sse: bool,
    slot: Slot,
) -> Response {
    let (id, method, params) = match message {
        Incoming::Request { id, method, params } => (id, method, params),
        // A notification's headers must agree with its body too (it names its version there).
        Incoming::Notification { method, params } => {
            if protocol::claims_modern(params.as_ref())
                && let Err(error) = check_headers(headers, &method, params.as_ref())
            {
                return refuse_request(StatusCode::BAD_REQUEST, &Value::Null, error);
            }
            return StatusCode::ACCEPTED.into_response();
        }
        _ => {
            return refuse(
                StatusCode::BAD_REQUEST,
                codes::INVALID_REQUEST,
                "Invalid Request: expected one request or notification",
            );
        }
    };
    // Missing envelope fields first, then headers that disagree with the body, then the version.
    if !protocol::claims_modern(params.as_ref()) {
        let error = ErrorObject::invalid_params(format!(
            "missing required `_meta.{}`",
            protocol::meta::PROTOCOL_VERSION
        ));
        return refuse_request(StatusCode::BAD_REQUEST, &id, error);
    }
    if let Err(error) = check_headers(headers, &method, params.as_ref()) {
        return refuse_request(StatusCode::BAD_REQUEST, &id, error);
    }
    if let Some(error) = protocol::envelope_error(params.as_ref()) {
        return refuse_request(StatusCode::BAD_REQUEST, &id, error);
    }
    // A subscription is a stream of notifications: it needs SSE, and a subscription slot (in
    // place of the request slot).
    let slot = if method == "subscriptions/listen" {
        if !accepts_sse {
            let error = ErrorObject::new(
                codes::INVALID_REQUEST,
                "Not Acceptable: subscriptions/listen answers with an event stream; Accept must include text/event-stream",
            );
            return refuse_request(StatusCode::NOT_ACCEPTABLE, &id, error);
        }
        let Some(listening) = Slot::take(&state.subscriptions, state.config.max_subscriptions)
        else {
            let error = ErrorObject::new(
                codes::INTERNAL_ERROR,
                "Service Unavailable: too many subscriptions/listen streams are open",
            );
            return refuse_request(StatusCode::SERVICE_UNAVAILABLE, &id, error);
        };
        listening
    } else {
        slot
    };
    let connection = Arc::new(Connection::new(MODERN_VERSIONS[0], None));
    let call = Call {
        id,
        method,
        params,
        connection,
        auth,
        accepts_sse,
        modern: true,
        slot,
    };
    answer(state, call, None).await
}

/// `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` must match the body (`-32020`).
fn check_headers(
    headers: &HeaderMap,
    method: &str,
    params: Option<&Map<String, Value>>,
) -> Result<(), ErrorObject> {
    let mismatch = |message: String| {
        ErrorObject::new(
            codes::HEADER_MISMATCH,
            format!("Header mismatch: {message}"),
        )
    };
    let body_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(protocol::meta::PROTOCOL_VERSION))
        .and_then(Value::as_str)
        .unwrap_or("");
    match headers
        .get(PROTOCOL_VERSION)
        .map(|v| v.to_str().unwrap_or(""))
    {
        None => {
            return Err(mismatch(
                "the MCP-Protocol-Version header is required".into(),
            ));
        }
        Some(header) if header != body_version => {
            return Err(mismatch(format!(
                "MCP-Protocol-Version header value '{header}' does not match body value '{body_version}'"
            )));
        }
        Some(_) => {}
    }
    match headers.get(MCP_METHOD).map(|v| v.to_str().unwrap_or("")) {
        None => return Err(mismatch("the Mcp-Method header is required".into())),
        Some(header) if header != method => {
            return Err(mismatch(format!(
                "Mcp-Method header value '{header}' does not match body value '{method}'"
            )));
        }
        Some(_) => {}
    }
    let name_key = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(key) = name_key {
        let body_name = params
            .and_then(|p| p.get(key))
            .and_then(Value::as_str)
            .unwrap_or("");
        match headers
            .get(MCP_NAME)
            .map(|v| decode_header(v.to_str().unwrap_or("")))
        {
            None => return Err(mismatch("the Mcp-Name header is required".into())),
            Some(Err(raw)) => {
                return Err(mismatch(format!(
                    "Mcp-Name header value '{raw}' is not valid base64"
                )));
            }
            Some(Ok(header)) if header != body_name => {
                return Err(mismatch(format!(
                    "Mcp-Name header value '{header}' does not match body value '{body_name}'"
                )));
            }
            Some(Ok(_)) => {}
        }
    }
    Ok(())
}

/// Header values outside safe ASCII travel as `=?base64?<base64>?=`.
fn decode_header(value: &str) -> Result<String, String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| value.to_owned()),
        None => Ok(value.to_owned()),
    }
}

/// Legacy: `initialize` opens a session; later messages carry it (unless stateless).
async fn legacy_post(
    state: &HttpState,
    headers: &HeaderMap,
    message: Incoming,
    auth: Option<AuthInfo>,
    accepts_sse: bool,
    slot: Slot,
) -> Response {
    if let Some(version) = headers.get(PROTOCOL_VERSION)
        && !LEGACY_VERSIONS.contains(&version.to_str().unwrap_or(""))
    {
        return refuse(
            StatusCode::BAD_REQUEST,
            codes::INVALID_REQUEST,
            format!(
                "Bad Request: Unsupported protocol version: {} (supported versions: {})",
                String::from_utf8_lossy(version.as_bytes()),
                LEGACY_VERSIONS.join(", ")
            ),
        );
    }
    let header_version = headers
        .get(PROTOCOL_VERSION)
        .and_then(|v| v.to_str().ok())
        .and_then(|version| {
            LEGACY_VERSIONS
                .iter()
                .find(|known| **known == version)
                .copied()
        })
        .unwrap_or(HTTP_DEFAULT_VERSION);
    let is_initialize =
        matches!(&message, Incoming::Request { method, .. } if method == "initialize");
    let (session, new_session_id) = if state.config.stateless {
        (None, None)
    } else if is_initialize {
        match state.open_session(auth.as_ref()) {
            Some((id, session)) => (Some(session), Some(id)),
            None => {
                return refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    codes::INTERNAL_ERROR,
                    "Service Unavailable: no session can be opened now (too many are open)",
                );
            }
        }
    } else {
        match state.session(headers, auth.as_ref()) {
            Ok(session) => (Some(session), None),
            Err(response) => return response,
        }
    };
    let connection = session.as_ref().map_or_else(
        || Arc::new(Connection::new(header_version, None)),
        |session| Arc::clone(&session.connection),
    );
    let mut response = match message {
        Incoming::Request { id, method, params } => {
            let call = Call {
                id,
                method,
                params,
                connection,
                auth,
                accepts_sse,
                modern: false,
                slot,
            };
            answer(state, call, session.clone()).await
        }
        Incoming::Notification { method, params } => {
            if method == "notifications/cancelled"
                && let (Some(session), Some(request_id)) =
                    (&session, params.as_ref().and_then(|p| p.get("requestId")))
                && session.in_flight.cancel(request_id)
            {
                tracing::debug!(%request_id, "request cancelled");
            } else {
                state.dispatcher.notification(&method, params.as_ref());
            }
            StatusCode::ACCEPTED.into_response()
        }
        Incoming::Response => StatusCode::ACCEPTED.into_response(),
        Incoming::Batch(items) => {
            legacy_batch(state, items, &connection, session.as_deref(), auth).await
        }
    };
    if let Some(id) = new_session_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION_ID, value);
    }
    response
}

/// A JSON-RPC batch (protocol 2025-03-26 only): its requests run as calls of the session, and
/// one JSON array answers them.
async fn legacy_batch(
    state: &HttpState,
    items: Vec<Value>,
    connection: &Arc<Connection>,
    session: Option<&Session>,
    auth: Option<AuthInfo>,
) -> Response {
    let table = session.map_or_else(Arc::default, |session| Arc::clone(&session.in_flight));
    // The calls of a batch answer in the batch: their notifications have nowhere to go.
    let exchange = |cancellation| Exchange {
        notifications: mpsc::unbounded_channel().0,
        cancellation,
        auth: auth.clone(),
    };
    let timeout = Some(state.config.request_timeout);
    let answers = state
        .dispatcher
        .batch(items, connection, &table, exchange, timeout);
    match answers {
        Ok(answers) => match answers.await {
            responses if responses.is_empty() => StatusCode::ACCEPTED.into_response(),
            responses => axum::Json(Value::Array(responses)).into_response(),
        },
        Err(error) => (
            StatusCode::BAD_REQUEST,
            axum::Json(error.into_response(Value::Null)),
        )
            .into_response(),
    }
}

/// One request to answer over HTTP.
struct Call {
    id: Value,
    method: String,
    params: Option<Map<String, Value>>,
    connection: Arc<Connection>,
    auth: Option<AuthInfo>,
    accepts_sse: bool,
    /// A 2026-07-28 request: an unknown method is then `404`.
    modern: bool,
    /// The request's place among those open ([`HttpConfig::max_requests`], or
    /// [`HttpConfig::max_subscriptions`]), held until the call ends.
    slot: Slot,
}

/// One place among at most `max` counted by a counter, freed when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(counter: &Arc<AtomicUsize>, max: usize) -> Option<Self> {
        counter
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < max).then_some(open + 1)
            })
            .ok()?;
        Some(Self(Arc::clone(counter)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Runs one request. The answer is JSON, unless the call sends notifications (progress, logs)
/// before its result and the client accepts SSE: then a request-scoped event stream carries them
/// and the result. Dropping the response (the client went away) cancels the call. A call cancelled
/// before it answered gets no JSON-RPC response: its event stream ends without one (`202
/// Accepted` for a client that takes JSON only).
async fn answer(state: &HttpState, call: Call, session: Option<Arc<Session>>) -> Response {
    let Call {
        id,
        method,
        params,
        connection,
        auth,
        accepts_sse,
        modern,
        slot,
    } = call;
    // A legacy session's calls share its table (an id names one call at a time, and
    // `notifications/cancelled` finds them there); any other call has a table of its own.
    let table = session
        .as_ref()
        .map_or_else(Arc::default, |session| Arc::clone(&session.in_flight));
    let (ticket, registration) = match table.start(&id) {
        Ok(started) => started,
        Err(error) => return refuse_request(StatusCode::BAD_REQUEST, &id, error),
    };
    // A session that ended while this call was being set up takes the call with it.
    if session
        .as_ref()
        .is_some_and(|session| session.ended.is_cancelled())
    {
        table.cancel(&id);
    }
    let (events, mut receiver) = mpsc::unbounded_channel::<Value>();
    let cancellation = ticket.cancellation();
    let exchange = Exchange {
        notifications: events.clone(),
        cancellation: cancellation.clone(),
        auth,
    };
    let dispatcher = state.dispatcher.clone();
    // A subscription lasts until its client or the server ends it.
    let timeout = (method != "subscriptions/listen").then_some(state.config.request_timeout);
    let in_session = session.clone();
    tokio::spawn(async move {
        let _slot = slot;
        let call = dispatcher.request(id.clone(), &method, params, &connection, exchange);
        let call = protocol::with_timeout(call, timeout, id, cancellation);
        // A cancelled call is dropped at its next await and answers nothing.
        let answered = Abortable::new(call, registration).await;
        // Idle time counts from the end of its last call: marked before the answer lets the
        // handler take the call out of the session's table.
        if let Some(session) = in_session {
            session.touch();
        }
        if let Ok(response) = answered {
            let _ = events.send(response);
        }
    });
    // A cancelled request gets no response (the client cancelled it, or ended its session); its
    // POST is answered with a stream that ends at once, or `202` when the client takes JSON only
    // (no JSON body can say "no response").
    let no_response = || {
        if accepts_sse {
            Sse::new(futures_util::stream::empty::<Result<Event, Infallible>>()).into_response()
        } else {
            StatusCode::ACCEPTED.into_response()
        }
    };
    let first = loop {
        match receiver.recv().await {
            Some(message) if is_response(&message) || accepts_sse => break message,
            Some(_) => {} // the client cannot take a stream: notifications are dropped
            None if ticket.is_cancelled() => return no_response(),
            None => {
                return refuse(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    codes::INTERNAL_ERROR,
                    "Internal error",
                );
            }
        }
    };
    if is_response(&first) {
        // Cancelled after it answered, before the answer left: it still gets none.
        if !ticket.complete() {
            return no_response();
        }
        let status = match first.pointer("/error/code").and_then(Value::as_i64) {
            Some(codes::METHOD_NOT_FOUND) if modern => StatusCode::NOT_FOUND,
            Some(codes::MISSING_CLIENT_CAPABILITY) if modern => StatusCode::BAD_REQUEST,
            _ => StatusCode::OK,
        };
        return (status, axum::Json(first)).into_response();
    }
    event_stream(first, receiver, ticket)
}

/// A request-scoped event stream: the request's notifications, then its response, which ends
/// the stream. Dropping it before the response (the client went away) drops the call's
/// ticket, which cancels the call.
fn event_stream(
    first: Value,
    receiver: mpsc::UnboundedReceiver<Value>,
    ticket: Ticket,
) -> Response {
    let stream = futures_util::stream::unfold(
        (Some(first), Some((receiver, ticket))),
        |(first, call)| async move {
            let (mut receiver, ticket) = call?;
            let message = match first {
                Some(message) => message,
                None => receiver.recv().await?,
            };
            if !is_response(&message) {
                return Some((message, (None, Some((receiver, ticket)))));
            }
            // Cancelled after it answered, before the answer left: the stream ends without it.
            ticket.complete().then_some((message, (None, None)))
        },
    )
    .map(|message| Event::default().event("message").json_data(message));
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    response
}

fn is_response(message: &Value) -> bool {
    message.get("id").is_some()
        && (message.get("result").is_some() || message.get("error").is_some())
}

/// GET opens the session's stream of server-initiated messages (`list_changed`); without a
/// legacy session there is none (`405`).
async fn get_stream(
    State(state): State<Arc<HttpState>>,
    Extension(Caller(auth)): Extension<Caller>,
    headers: HeaderMap,
) -> Response {
    if state.config.stateless || !headers.contains_key(SESSION_ID) {
        return method_not_allowed();
    }
    if !accepts(&headers, "text/event-stream") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            codes::INVALID_REQUEST,
            "Not Acceptable: Accept must include text/event-stream",
        );
    }
    let session = match state.session(&headers, auth.as_ref()) {
        Ok(session) => session,
        Err(response) => return response,
    };
    {
        let mut open = lock(&session.stream_open);
        if *open {
            return refuse(
                StatusCode::CONFLICT,
                codes::INVALID_REQUEST,
                "Conflict: this session already has a GET stream open",
            );
        }
        *open = true;
    }
    let changes = state.changes.resubscribe();
    let closer = StreamSlot(Arc::clone(&session));
    let stream = futures_util::stream::unfold(
        (changes, closer, state.shutdown.clone()),
        |(mut changes, closer, shutdown)| async move {
            let tool_change = async {
                // The server state keeps a sender, so the channel does not close; if it did, the
                // stream would stay open all the same (a client whose stream ends reconnects).
                if let Err(broadcast::error::RecvError::Closed) = changes.recv().await {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                () = tool_change => {}
                // Shutting down: the stream ends, so that its connection can close.
                () = shutdown.cancelled() => return None,
                () = closer.0.ended.cancelled() => return None,
            }
            let notification =
                json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
            Some((
                Event::default().event("message").json_data(notification),
                (changes, closer, shutdown),
            ))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// Frees the session's GET-stream slot when the stream ends.
struct StreamSlot(Arc<Session>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        // Idle time counts from here (a client that listened for an hour is not idle): marked
        // before the slot is free, so the session never looks idle with an old mark.
        self.0.touch();
        *lock(&self.0.stream_open) = false;
    }
}

/// DELETE ends a legacy session.
async fn delete(
    State(state): State<Arc<HttpState>>,
    Extension(Caller(auth)): Extension<Caller>,
    headers: HeaderMap,
) -> Response {
    if state.config.stateless || !headers.contains_key(SESSION_ID) {
        return method_not_allowed();
    }
    match state.session(&headers, auth.as_ref()) {
        Ok(session) => {
            let id = headers
                .get(SESSION_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            lock(&state.sessions).remove(id);
            session.end();
            StatusCode::NO_CONTENT.into_response()
        }
        Err(response) => response,
    }
}

fn method_not_allowed() -> Response {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        codes::INVALID_REQUEST,
        "Method Not Allowed",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

fn accepts(headers: &HeaderMap, media_type: &str) -> bool {
    let Some(accept) = headers.get(header::ACCEPT) else {
        return true;
    };
    let accept = accept.to_str().unwrap_or("");
    accept
        .split(',')
        .map(|part| part.split(';').next().unwrap_or("").trim())
        .any(|part| {
            part == media_type
                || part == "*/*"
                || part
                    .strip_suffix("/*")
                    .is_some_and(|kind| media_type.starts_with(kind))
        })
}

/// `localhost:8080` → `localhost`, `[::1]:80` → `[::1]`.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

fn is_localhost(name: &str) -> bool {
    matches!(name, "localhost" | "127.0.0.1" | "[::1]" | "::1")
}

/// 128 bits from the operating system's cryptographic generator, as hex; `None` when the OS
/// cannot provide them (then no guessable id is minted instead).
fn new_session_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(
        bytes
            .iter()
            .fold(String::with_capacity(32), |mut hex, byte| {
                let _ = write!(hex, "{byte:02x}");
                hex
            }),
    )
}
