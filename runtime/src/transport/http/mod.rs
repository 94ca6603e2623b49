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
//!
//! The modules, in the order a request meets them: [`admission`] (Host, Origin, then [`auth`]),
//! [`post`] (with [`headers`] and [`sessions`]), [`stream`] (the answer); [`reply`] builds the
//! error answers and decides the status of a request's JSON-RPC error; [`config`] is what the
//! application sets.

mod admission;
mod auth;
mod config;
mod headers;
mod post;
mod reply;
mod sessions;
mod stream;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::Response;
use axum::routing::get;
use tokio::sync::Semaphore;

pub use self::config::{HttpConfig, ProtectedResourceMetadata};
use self::reply::refuse;
use self::sessions::SessionTable;
use crate::jsonrpc::codes;
use crate::protocol::Dispatcher;

/// What every request of one endpoint shares.
struct HttpState {
    dispatcher: Dispatcher,
    sessions: SessionTable,
    /// Places for `subscriptions/listen` streams.
    subscriptions: Arc<Semaphore>,
    /// Places for the other POSTs being read or answered.
    requests: Arc<Semaphore>,
    config: HttpConfig,
}

/// The endpoint at path `/`. Cancelling the dispatcher's `closing` token ends its GET and
/// `subscriptions/listen` streams.
pub(crate) fn router(dispatcher: Dispatcher, config: HttpConfig) -> Router {
    let state = Arc::new(HttpState {
        dispatcher,
        sessions: SessionTable::new(config.max_sessions, config.session_idle_timeout),
        // A semaphore holds at most `MAX_PERMITS`: a larger limit ("no limit") is that many.
        subscriptions: Arc::new(Semaphore::new(
            config.max_subscriptions.min(Semaphore::MAX_PERMITS),
        )),
        requests: Arc::new(Semaphore::new(
            config.max_requests.min(Semaphore::MAX_PERMITS),
        )),
        config,
    });
    let max_body = state.config.max_body_bytes;
    let cors = state.config.cors();
    Router::new()
        .route(
            "/",
            get(stream::get_stream)
                .post(post::post)
                .delete(sessions::delete),
        )
        // Host, Origin and the bearer token are checked before any body is read.
        .route_layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            admission::admit,
        ))
        .layer(DefaultBodyLimit::max(max_body))
        // Outside the admission check: a preflight carries no credentials.
        .layer(cors)
        .with_state(state)
}

/// Serves the endpoint at `address` on path `/mcp` (and the protected-resource metadata when
/// bearer auth is on) until SIGINT or SIGTERM; then no new connection is accepted, the
/// streams close, and requests in flight get the configured grace time.
pub(crate) async fn serve(
    dispatcher: Dispatcher,
    config: HttpConfig,
    address: SocketAddr,
) -> io::Result<()> {
    let metadata = config.auth.as_ref().map(|auth| auth.metadata.clone());
    let grace = config.shutdown_grace;
    let shutdown = dispatcher.closing().clone();
    let mut app = Router::new().nest("/mcp", router(dispatcher, config));
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

/// GET and DELETE without a legacy session.
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
