//! The server loop: serving a router on a TCP listener. Connections are capped (past the cap,
//! a waiting client gets the place of the next connection to finish an answer, or of an idle
//! one: [`room`](super::room)); each gets a header timeout (which also closes a keep-alive
//! connection left idle); request bodies arrive within a share of the connections and at a
//! minimum rate ([`arrival`](super::arrival)); accept errors are logged and backed off; and
//! SIGINT/SIGTERM starts a graceful shutdown bounded by the grace time.
//!
//! hyper's own connection builder is driven here (not `axum::serve`, which sets no timer, so a
//! client that never finishes its headers would hold its connection forever).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, header};
use axum::response::Response;
use axum::routing::get;
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt as _;

use super::arrival::Arrivals;
use super::health::Health;
use super::room::{Connections, IDLE_ENOUGH, Member};
use super::{HttpConfig, PostRoute, endpoint_and_post};
use crate::protocol::Dispatcher;

/// The longest pause after a failed accept (too many open files, say): the pause doubles from
/// a few milliseconds up to this.
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// While a client waits for a place and no connection is idle, how often to look again.
const ROOM_RECHECK: Duration = Duration::from_millis(100);

/// Serves the endpoint at `address` on path `/mcp` (and the protected-resource metadata when
/// bearer auth is on) until SIGINT or SIGTERM; then no new connection is accepted, the
/// streams close, and requests in flight get the configured grace time.
pub(crate) async fn serve(
    dispatcher: Dispatcher,
    config: HttpConfig,
    address: SocketAddr,
) -> io::Result<()> {
    let listener = TcpListener::bind(address).await.map_err(|error| {
        io::Error::new(error.kind(), format!("cannot listen on {address}: {error}"))
    })?;
    let local = listener.local_addr()?;
    tracing::info!(address = %local, "serving MCP over Streamable HTTP at /mcp");
    // The URL clients use, as `--print-config` names it: the metadata that follows it.
    let config = match crate::host_config::url(&local.to_string(), &config.allowed_hosts) {
        Ok(url) => config.resource_url(url, false),
        Err(_) => config,
    };
    let shutdown = dispatcher.closing().clone();
    let (app, post) = app(dispatcher, config.clone());
    serve_app_with(listener, app, Some(post), &config, shutdown).await
}

/// Serves `app` on `listener` with the connection protections of `config` until SIGINT or
/// SIGTERM, which cancels `shutdown` (ending the MCP streams); then no new connection is
/// accepted, and requests in flight get the configured grace time.
pub(crate) async fn serve_app(
    listener: TcpListener,
    app: Router,
    config: &HttpConfig,
    shutdown: CancellationToken,
) -> io::Result<()> {
    serve_app_with(listener, app, None, config, shutdown).await
}

/// [`serve_app`], with `POST /mcp` answered by `post` when there is one.
async fn serve_app_with(
    listener: TcpListener,
    app: Router,
    post: Option<PostRoute>,
    config: &HttpConfig,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let signal = shutdown_signal()?;
    tokio::spawn({
        let shutdown = shutdown.clone();
        async move {
            signal.await;
            tracing::info!("shutting down");
            shutdown.cancel();
        }
    });
    let shared = Arc::new(Shared {
        health: Health::of(config, shutdown.clone()),
        app,
        post,
        room: Arc::default(),
        arrivals: Arrivals::of(config),
        body_rate: config.body_rate,
    });
    let limits = ConnectionLimits::of(config);
    let connections = accept_until(&listener, &shared, &limits, &shutdown).await;
    drop(listener);
    connections.close();
    // Requests in flight, and the calls whose streams are logged (their clients may resume
    // them, here or, with Redis, on another replica), get the grace time.
    let running = config.running.clone();
    running.close();
    let finishing = async {
        connections.wait().await;
        running.wait().await;
    };
    if tokio::time::timeout(config.shutdown_grace, finishing)
        .await
        .is_err()
    {
        tracing::warn!("requests still running after the shutdown grace time are abandoned");
    }
    Ok(())
}

/// The endpoint at `/mcp`, with the RFC 9728 document beside it when auth is on, and its POST
/// route. The document's `scopes_supported` are read when it is asked for: the scopes given,
/// then those of every item served then, added at run time or not.
fn app(dispatcher: Dispatcher, config: HttpConfig) -> (Router, PostRoute) {
    let metadata = config.auth.as_ref().map(|auth| auth.metadata.clone());
    let declared = dispatcher.clone();
    let (mut app, post) = endpoint_and_post(dispatcher, config, "/mcp");
    if let Some(metadata) = metadata {
        let path = metadata.well_known_path();
        let given = Arc::new(metadata);
        app = app.route(
            &path,
            get(move || {
                let document = given.declaring(declared.declared_scopes());
                async move { axum::Json(document) }
            }),
        );
    }
    (app, post)
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

/// What the connections of one listener share.
struct Shared {
    app: Router,
    /// `POST /mcp` past the router, when the app is `serve_http`'s own.
    post: Option<PostRoute>,
    /// `GET /healthz`, answered before the app.
    health: Health,
    room: Arc<Connections>,
    arrivals: Arrivals,
    body_rate: u64,
}

/// How many clients past the cap are accepted to wait for a place at once (each holds an open
/// file); the others wait in the listen backlog.
const MAX_WAITING: usize = 32;

/// Accepts connections until `shutdown`, at most `limits.open` at a time, and gives back the
/// tracker of those still open. Past the cap, up to [`MAX_WAITING`] clients more are accepted,
/// each waiting until a connection makes room for it ([`make_room`]).
async fn accept_until(
    listener: &TcpListener,
    shared: &Arc<Shared>,
    limits: &ConnectionLimits,
    shutdown: &CancellationToken,
) -> TaskTracker {
    let connections = TaskTracker::new();
    let waiting = Arc::new(Semaphore::new(MAX_WAITING));
    let mut backoff = Duration::ZERO;
    loop {
        // A place among the open connections is taken before the accept, so a burst cannot
        // pass the cap; at the cap, a place to wait in: beyond, clients wait in the backlog.
        let place = if let Ok(permit) = Arc::clone(&limits.open).try_acquire_owned() {
            Place::Open(permit)
        } else {
            tokio::select! {
                () = shutdown.cancelled() => break,
                waiting = Arc::clone(&waiting).acquire_owned() => match waiting {
                    Ok(waiting) => Place::Waiting(waiting),
                    Err(_) => break,
                },
            }
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.cancelled() => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                backoff = (backoff * 2).clamp(Duration::from_millis(5), MAX_ACCEPT_BACKOFF);
                tracing::warn!(%error, ?backoff, "accepting a connection failed; pausing");
                tokio::time::sleep(backoff).await;
                continue;
            }
        };
        backoff = Duration::ZERO;
        let (shared, limits_open, header_timeout, shutdown) = (
            Arc::clone(shared),
            Arc::clone(&limits.open),
            limits.header_timeout,
            shutdown.clone(),
        );
        connections.spawn(async move {
            let permit = match place {
                Place::Open(permit) => permit,
                Place::Waiting(waiting) => {
                    let permit = match Arc::clone(&limits_open).try_acquire_owned() {
                        Ok(permit) => Some(permit),
                        Err(_) => make_room(&limits_open, &shared.room, &shutdown).await,
                    };
                    drop(waiting);
                    match permit {
                        Some(permit) => permit,
                        None => return,
                    }
                }
            };
            let member = shared.room.join();
            let connection = (stream, peer);
            serve_connection(
                connection,
                shared,
                header_timeout,
                shutdown,
                (permit, member),
            )
            .await;
        });
    }
    connections
}

/// What an accepted connection holds: its place among the open ones, or, past the cap, a place
/// among the clients waiting for one.
enum Place {
    Open(OwnedSemaphorePermit),
    Waiting(OwnedSemaphorePermit),
}

/// Waits for a place while the connections make room: the next response to finish closes its
/// connection, or, when none has within [`IDLE_ENOUGH`], the longest idle connection closes
/// (once idle that long). Busy connections go first because closing an idle one races with the
/// request its client may be sending. `None` at shutdown.
async fn make_room(
    open: &Arc<Semaphore>,
    room: &Connections,
    shutdown: &CancellationToken,
) -> Option<OwnedSemaphorePermit> {
    room.wait();
    let patience = Instant::now() + IDLE_ENOUGH;
    let permit = loop {
        let recheck = if Instant::now() < patience {
            patience
        } else {
            room.close_idle()
                .unwrap_or_else(|| Instant::now() + ROOM_RECHECK)
        };
        tokio::select! {
            permit = Arc::clone(open).acquire_owned() => break permit.ok(),
            () = tokio::time::sleep_until(recheck) => {}
            () = shutdown.cancelled() => break None,
        }
    };
    room.waited();
    permit
}

/// One HTTP/1 connection: its headers must come within `header_timeout` (from its start, or
/// from the end of its previous response). At `shutdown`, or when asked to make room for a
/// waiting client, it finishes its current request and closes; but asked while its client has
/// a request on the way, it stays, and another connection makes the room.
async fn serve_connection(
    (stream, peer): (TcpStream, SocketAddr),
    shared: Arc<Shared>,
    header_timeout: Duration,
    shutdown: CancellationToken,
    (_permit, member): (OwnedSemaphorePermit, Member),
) {
    // Small answers and SSE events leave at once instead of waiting for more to send.
    let _ = stream.set_nodelay(true);
    let socket = Arc::new(stream);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let member = Arc::new(member);
    let service = ConnectionService {
        shared,
        member: Arc::clone(&member),
        peer,
    };
    let connection = builder.serve_connection(TokioIo::new(Socket(Arc::clone(&socket))), service);
    let mut connection = std::pin::pin!(connection);
    let result = loop {
        tokio::select! {
            result = connection.as_mut() => break result,
            () = shutdown.cancelled() => {}
            () = member.asked_to_close() => {
                // A request in progress, or on its way: closing would fail it, or hold the
                // place for as long as its response lasts. Its response gives way instead.
                if member.in_flight() || request_waiting(&socket) {
                    member.stays();
                    continue;
                }
                // Never answered anything (a client that sent nothing, or half its headers,
                // which hyper would wait the header timeout for): closed outright.
                if !member.served() {
                    member.leave();
                    tracing::debug!("a connection that sent no request is closed to make room");
                    return;
                }
            }
        }
        member.leave();
        connection.as_mut().graceful_shutdown();
        // A request that came as it was asked may keep it open: past `IDLE_ENOUGH`, another
        // connection makes the room.
        if let Ok(result) = tokio::time::timeout(IDLE_ENOUGH, connection.as_mut()).await {
            break result;
        }
        member.slow_to_leave();
        break connection.await;
    };
    if let Err(error) = result {
        tracing::debug!(%error, "connection ended with an error");
    }
}

/// Whether bytes the connection has not read yet wait on its socket: closing it now would
/// reset the connection under a request its client has sent.
fn request_waiting(socket: &TcpStream) -> bool {
    let mut byte = [std::mem::MaybeUninit::uninit()];
    socket2::SockRef::from(socket)
        .peek(&mut byte)
        .is_ok_and(|read| read > 0)
}

/// A connection's socket, shared by hyper, which reads and writes it, and the connection's
/// task, which looks at it before closing it to make room ([`request_waiting`]).
struct Socket(Arc<TcpStream>);

impl AsyncRead for Socket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            ready!(self.0.poll_read_ready(cx))?;
            match self.0.try_read_buf(buf) {
                Ok(_) => return Poll::Ready(Ok(())),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }
}

impl AsyncWrite for Socket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write(data) {
                Ok(written) => return Poll::Ready(Ok(written)),
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(socket2::SockRef::from(&*self.0).shutdown(std::net::Shutdown::Write))
    }
}

/// The service of one connection: each request's body watched as it arrives, the app's answer,
/// and `Connection: close` on it when the body came late, or when a client waits for a place
/// and the answer is not a stream.
#[derive(Clone)]
struct ConnectionService {
    shared: Arc<Shared>,
    member: Arc<Member>,
    /// The client's address, given to each request as axum's `ConnectInfo` (the rate limits
    /// count a caller without a token by it).
    peer: SocketAddr,
}

impl hyper::service::Service<Request<Incoming>> for ConnectionService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        self.member.busy();
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let Self { shared, member, .. } = self.clone();
        Box::pin(async move {
            let (request, arrival) = shared.arrivals.watch(request);
            let response = if Health::asked(&request) {
                shared.health.answer()
            } else if let Some(post) = shared.post.as_ref().filter(|post| post.takes(&request)) {
                post.answer(request).await
            } else {
                shared.app.clone().oneshot(request).await?
            };
            let (mut response, close) = arrival.answer(response, shared.body_rate);
            // Only a response of known length gives way: a stream's `Connection: close` would
            // keep the waiting client waiting for as long as the stream lasts.
            let sized = response.body().size_hint().exact().is_some();
            let close = close || (sized && member.gives_way());
            if close {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            let idle_after = (!close).then_some(member);
            Ok(response.map(|body| Body::new(IdleAfter { body, idle_after })))
        })
    }
}

/// A response body that marks its connection idle once it has been sent (or dropped).
struct IdleAfter {
    body: Body,
    idle_after: Option<Arc<Member>>,
}

impl HttpBody for IdleAfter {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for IdleAfter {
    fn drop(&mut self) {
        if let Some(member) = &self.idle_after {
            member.idle();
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
