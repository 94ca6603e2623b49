//! Serving the endpoint on a TCP listener: connections are capped, each gets a header timeout
//! (which also closes a keep-alive connection left idle), accept errors are logged and backed
//! off, and SIGINT/SIGTERM starts a graceful shutdown bounded by the grace time.
//!
//! hyper's own connection builder is driven here (not `axum::serve`, which sets no timer, so a
//! client that never finishes its headers would hold its connection forever).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::{HttpConfig, endpoint};
use crate::protocol::Dispatcher;

/// The longest pause after a failed accept (too many open files, say): the pause doubles from
/// a few milliseconds up to this.
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// Serves the endpoint at `address` on path `/mcp` (and the protected-resource metadata when
/// bearer auth is on) until SIGINT or SIGTERM; then no new connection is accepted, the
/// streams close, and requests in flight get the configured grace time.
pub(crate) async fn serve(
    dispatcher: Dispatcher,
    config: HttpConfig,
    address: SocketAddr,
) -> io::Result<()> {
    let limits = ConnectionLimits::of(&config);
    let grace = config.shutdown_grace;
    let shutdown = dispatcher.closing().clone();
    let app = app(dispatcher, config);
    let signal = shutdown_signal()?;
    let listener = TcpListener::bind(address).await?;
    tracing::info!(address = %listener.local_addr()?, "serving MCP over Streamable HTTP at /mcp");
    tokio::spawn({
        let shutdown = shutdown.clone();
        async move {
            signal.await;
            tracing::info!("shutting down");
            shutdown.cancel();
        }
    });
    let connections = accept_until(&listener, &app, &limits, &shutdown).await;
    drop(listener);
    connections.close();
    if tokio::time::timeout(grace, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!("requests still running after the shutdown grace time are abandoned");
    }
    Ok(())
}

/// The endpoint at `/mcp`, with the RFC 9728 document beside it when auth is on.
fn app(dispatcher: Dispatcher, config: HttpConfig) -> Router {
    let metadata = config.auth.as_ref().map(|auth| auth.metadata.clone());
    let mut app = endpoint(dispatcher, config, "/mcp");
    if let Some(metadata) = metadata {
        let path = metadata.well_known_path();
        let document = Arc::new(metadata);
        app = app.route(
            &path,
            get(move || async move { axum::Json((*document).clone()) }),
        );
    }
    app
}

/// What bounds the connections.
struct ConnectionLimits {
    open: Arc<Semaphore>,
    header_timeout: Duration,
}

impl ConnectionLimits {
    fn of(config: &HttpConfig) -> Self {
        Self {
            open: Arc::new(Semaphore::new(
                config.max_connections.min(Semaphore::MAX_PERMITS),
            )),
            header_timeout: config.header_timeout,
        }
    }
}

/// Accepts connections until `shutdown`, at most `limits.open` at a time (beyond, new clients
/// wait in the listen backlog), and gives back the tracker of those still open.
async fn accept_until(
    listener: &TcpListener,
    app: &Router,
    limits: &ConnectionLimits,
    shutdown: &CancellationToken,
) -> TaskTracker {
    let connections = TaskTracker::new();
    let mut backoff = Duration::ZERO;
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&limits.open).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break, // the semaphore is never closed
            },
            () = shutdown.cancelled() => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.cancelled() => break,
        };
        match stream {
            Ok((stream, _peer)) => {
                backoff = Duration::ZERO;
                let connection = serve_connection(
                    stream,
                    app.clone(),
                    limits.header_timeout,
                    shutdown.clone(),
                    permit,
                );
                connections.spawn(connection);
            }
            Err(error) => {
                backoff = (backoff * 2).clamp(Duration::from_millis(5), MAX_ACCEPT_BACKOFF);
                tracing::warn!(%error, ?backoff, "accepting a connection failed; pausing");
                tokio::time::sleep(backoff).await;
            }
        }
    }
    connections
}

/// One HTTP/1 connection: its headers must come within `header_timeout` (from its start, or
/// from the end of its previous response), and at shutdown it finishes its current request
/// and closes.
async fn serve_connection(
    stream: TcpStream,
    app: Router,
    header_timeout: Duration,
    shutdown: CancellationToken,
    _permit: OwnedSemaphorePermit,
) {
    // Small answers and SSE events leave at once instead of waiting for more to send.
    let _ = stream.set_nodelay(true);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    let mut connection = std::pin::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        tracing::debug!(%error, "connection ended with an error");
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
