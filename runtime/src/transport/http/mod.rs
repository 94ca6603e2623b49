//! Streamable HTTP, both eras, on one endpoint.
//!
//! A POST is *modern* (2026-07-28) when its body's `_meta` claims a protocol version or its
//! `MCP-Protocol-Version` header names a modern one; it is then answered from the request alone.
//! Everything else is *legacy*: `initialize` opens a session (`Mcp-Session-Id`), which later
//! requests carry, or, in stateless mode, every request stands alone.
//!
//! Safe by default: only localhost `Host`s and `Origin`s are served (DNS rebinding), bodies and
//! request time are bounded, sessions are capped, and an optional bearer-token verifier guards
//! every request the endpoint answers (a method it does not serve is `405` before any token).
//!
//! Cancellation: a 2026-07-28 client cancels by closing the response; a legacy one by posting
//! `notifications/cancelled` (its POST's event stream then ends without a response).
//! A legacy client that disconnects does not cancel a call whose stream started (the spec: a
//! disconnect SHOULD NOT mean cancellation): the stream is logged ([`replay`]), the call runs
//! on within its time limit, and the client resumes it with `GET` + `Last-Event-ID`. A call
//! still unanswered as JSON (nothing streamed yet) is cancelled when its client goes away: there
//! is nothing it could resume.
//!
//! The modules, in the order a request meets them: [`serve`] (connections, with [`room`] and
//! [`arrival`]), [`admission`] (Host, Origin, then [`auth`]),
//! [`post`] (with [`headers`] and [`sessions`]), [`stream`] (the answer, a legacy session's
//! streams logged by [`replay`] for resumption); [`reply`] builds the
//! error answers and decides the status of a request's JSON-RPC error; [`config`] is what the
//! application sets; [`service`] is the endpoint as a tower service of `http` 1 types.

pub(crate) mod admission;
mod arrival;
mod auth;
mod client;
mod config;
mod cors;
mod get_writer;
pub(crate) mod headers;
mod health;
#[cfg(feature = "oauth")]
mod oauth;
mod places;
mod post;
mod replay;
mod reply;
mod room;
mod serve;
mod service;
mod sessions;
mod stream;

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::handler::Handler as _;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use futures_util::future::BoxFuture;
use tower::{Layer as _, ServiceExt as _};

pub(crate) use self::client::parse_proxies;
pub use self::config::{HttpConfig, ProtectedResourceMetadata};
use self::get_writer::GetWriter;
#[cfg(feature = "oauth")]
pub(crate) use self::oauth::check_issuer;
use self::places::Places;
use self::replay::EventLog;
use self::reply::Refusal;
pub(crate) use self::serve::{serve, serve_app};
pub use self::service::{HttpBody, HttpService};
use self::sessions::SessionTable;
use crate::jsonrpc::codes;
use crate::protocol::Dispatcher;

/// What every request of one endpoint shares.
struct HttpState {
    dispatcher: Dispatcher,
    sessions: Arc<SessionTable>,
    /// Places for `subscriptions/listen` streams.
    subscriptions: Places,
    /// Places for long-lived streams, GET and `subscriptions/listen` together: a share of the
    /// connections.
    streams: Places,
    /// Places for the other POSTs being answered.
    requests: Places,
    /// The legacy sessions' streams, kept for resumption.
    log: Arc<EventLog>,
    /// Writes the legacy sessions' GET streams.
    get_writer: GetWriter,
    /// The Redis shared with the other replicas, if any.
    #[cfg(feature = "redis")]
    redis: Option<crate::replicas::Redis>,
    config: HttpConfig,
}

impl HttpState {
    /// What the endpoint of `dispatcher` shares, as `config` says.
    fn new(dispatcher: Dispatcher, config: HttpConfig) -> Self {
        let config = config.declaring_scopes(dispatcher.declared_scopes());
        let get_writer = GetWriter::new(dispatcher.clone(), config.running.clone());
        Self {
            dispatcher,
            sessions: Arc::new(shared(
                SessionTable::new(
                    config.max_sessions,
                    config.principal_sessions,
                    config.session_idle_timeout,
                ),
                &config,
            )),
            subscriptions: Places::new(
                "subscriptions/listen streams",
                config.max_subscriptions,
                config.principal_requests,
            ),
            streams: Places::new(
                "long-lived streams",
                config.stream_cap(),
                config.principal_requests,
            ),
            requests: Places::new("requests", config.max_requests, config.principal_requests),
            log: Arc::new(event_log(&config)),
            get_writer,
            #[cfg(feature = "redis")]
            redis: config.redis_connected().cloned(),
            config,
        }
    }

    /// What ends the connections following call streams (not the calls): nothing in memory
    /// (a client resuming here would find the server gone); with Redis, the server closing, so
    /// that its clients resume on another replica.
    #[cfg_attr(
        not(feature = "redis"),
        expect(
            clippy::unused_self,
            reason = "only the shared log stops its followers"
        )
    )]
    fn call_stop(&self) -> Option<tokio_util::sync::CancellationToken> {
        #[cfg(feature = "redis")]
        if self.log.shared.is_some() {
            return Some(self.dispatcher.closing().clone());
        }
        None
    }
}

/// The endpoint at path `/`. Cancelling the dispatcher's `closing` token ends its GET and
/// `subscriptions/listen` streams.
pub(crate) fn router(dispatcher: Dispatcher, config: HttpConfig) -> Router {
    endpoint(dispatcher, config, "/")
}

/// The endpoint at `path`: `serve_http` routes `/mcp` itself rather than nesting [`router`],
/// which would rebuild every request's URI and clone one more router per request.
fn endpoint(dispatcher: Dispatcher, config: HttpConfig, path: &str) -> Router {
    endpoint_and_post(dispatcher, config, path).0
}

/// The endpoint at `path`, and its POST as a route of its own ([`PostRoute`]).
fn endpoint_and_post(
    dispatcher: Dispatcher,
    config: HttpConfig,
    path: &str,
) -> (Router, PostRoute) {
    let state = Arc::new(HttpState::new(dispatcher, config));
    #[cfg(feature = "redis")]
    if let Some(redis) = &state.redis {
        redis.start(state.dispatcher.closing(), drained(&state));
        redis.relay_changes(state.dispatcher.change_sender(), state.dispatcher.closing());
        hear_replicas(&state, redis);
    }
    let max_body = state.config.max_body_bytes;
    let cors = state.config.cors();
    let post_route = PostRoute::new(&state, path, max_body, cors.clone());
    let router = Router::new()
        .route(
            path,
            get(stream::get_stream)
                .post(post::post)
                .delete(sessions::delete),
        )
        // Host and Origin are checked here, the bearer token by each handler's `Admitted`, both
        // before any body is read.
        .route_layer(admission::Admission(Arc::clone(&state)))
        .layer(DefaultBodyLimit::max(max_body))
        // Outside the admission check: a preflight carries no credentials. A route layer, so
        // an unknown path is a plain 404, with no CORS grant.
        .route_layer(cors::WithOrigin::new(cors))
        .with_state(state);
    (router, post_route)
}

/// The endpoint's POST with the layers the router puts around it, in the router's order
/// (outermost first): CORS for a request that carries `Origin`, the body limit, admission.
/// `serve_http` answers `POST /mcp` with it, past axum's router: the router clones its boxed
/// route services for every request and records the path in the request's extensions, a
/// twentieth of an MCP call's CPU over HTTP (`BENCHMARKS.md`, "Over HTTP"). Every other request,
/// and every request to [`Server::into_router`](crate::Server::into_router)'s endpoint, goes
/// through the router; `tests/tests/http_post_route.rs` checks that both answer alike.
pub(crate) struct PostRoute {
    /// The endpoint's path, the router's own.
    path: Box<str>,
    answer: Box<dyn Fn(Request) -> BoxFuture<'static, Response> + Send + Sync>,
}

impl PostRoute {
    fn new(
        state: &Arc<HttpState>,
        path: &str,
        max_body: usize,
        cors: tower_http::cors::CorsLayer,
    ) -> Self {
        let service = post::post.with_state(Arc::clone(state));
        let service = admission::Admission(Arc::clone(state)).layer(service);
        let service = DefaultBodyLimit::max(max_body).layer(service);
        let service = cors::WithOrigin::new(cors).layer(service);
        let answer = move |request| -> BoxFuture<'static, Response> {
            let answer = service.clone().oneshot(request);
            Box::pin(async move {
                match answer.await {
                    Ok(response) => response,
                    Err(never) => match never {},
                }
            })
        };
        Self {
            path: path.into(),
            answer: Box::new(answer),
        }
    }

    /// Whether `request` is one for this route: a POST of the endpoint's path.
    pub(crate) fn takes<B>(&self, request: &axum::http::Request<B>) -> bool {
        request.method() == Method::POST && request.uri().path() == &*self.path
    }

    /// The answer to `request`.
    pub(crate) fn answer(&self, request: Request) -> BoxFuture<'static, Response> {
        (self.answer)(request)
    }
}

/// The session table, shared through Redis when there is one.
fn shared(table: SessionTable, config: &HttpConfig) -> SessionTable {
    #[cfg(feature = "redis")]
    let table = table.shared_through(config.redis_connected().cloned());
    let _ = config;
    table
}

/// Completes once the endpoint closed and the calls that run on after it (their streams
/// logged, for clients resuming on another replica) ended, or the shutdown grace passed.
#[cfg(feature = "redis")]
fn drained(state: &HttpState) -> impl Future<Output = ()> + Send + 'static {
    let closing = state.dispatcher.closing().clone();
    let (running, grace) = (state.config.running.clone(), state.config.shutdown_grace);
    async move {
        closing.cancelled().await;
        // Closing lets `wait` end once the tracker is empty (`serve` closes it as well).
        running.close();
        let _ = tokio::time::timeout(grace, running.wait()).await;
    }
}

/// Hands what the other replicas say about sessions to this endpoint's table until the server
/// closes (or the endpoint is dropped).
#[cfg(feature = "redis")]
fn hear_replicas(state: &Arc<HttpState>, redis: &crate::replicas::Redis) {
    if tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    tokio::spawn(SessionTable::keep_alive(
        Arc::downgrade(&state.sessions),
        state.dispatcher.closing().clone(),
    ));
    let endpoint = Arc::downgrade(state);
    let lost = "sessions' answers, cancellations or changes";
    redis
        .bus()
        .listen(state.dispatcher.closing().clone(), lost, move |message| {
            let Some(state) = endpoint.upgrade() else {
                return false;
            };
            state.sessions.hear(message, &state.dispatcher);
            true
        });
}

/// The log of the endpoint's legacy streams: in memory, and with Redis also shared.
fn event_log(config: &HttpConfig) -> EventLog {
    #[cfg_attr(not(feature = "redis"), allow(unused_mut))]
    let mut log = EventLog::new(
        config.max_replay_events,
        config.max_replay_bytes,
        config.replay_ttl,
        config.running.clone(),
    );
    #[cfg(feature = "redis")]
    if let Some(redis) = config.redis_connected() {
        log.shared = Some(crate::replicas::events::SharedEvents::new(
            redis.clone(),
            config.max_replay_events,
            config.max_replay_bytes,
            config.replay_ttl,
        ));
    }
    log
}

/// GET and DELETE without a legacy session: they work with one, unless the server is
/// stateless.
fn method_not_allowed(stateless: bool) -> Refusal {
    let (allowed, message) = if stateless {
        (
            "POST",
            "Method Not Allowed: this server keeps no sessions; POST each request",
        )
    } else {
        (
            "GET, POST, DELETE",
            "Method Not Allowed: GET and DELETE need the Mcp-Session-Id of a session",
        )
    };
    Refusal::new(
        StatusCode::METHOD_NOT_ALLOWED,
        codes::INVALID_REQUEST,
        message,
    )
    .with_header(header::ALLOW, HeaderValue::from_static(allowed))
}
