//! [`HttpService`]: the MCP endpoint as a tower [`Service`] of `http` 1 requests and responses.
//! Every HTTP server and framework of the tokio ecosystem mounts one (hyper through
//! `hyper-util`, axum of any version with `Router::nest_service`, tonic, tower-http's layers),
//! and its signature names only crates at 1.0 (`http`, `http-body`, `bytes`) and tower's
//! `Service` trait (`tower-service` 0.3, not yet 1.0), which they all share: a new axum is not a
//! new major version of ours.

use std::convert::Infallible;
use std::error::Error as StdError;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{Request, Response};
use http_body::{Frame, SizeHint};
use tokio_util::sync::CancellationToken;
use tower::Service;

/// An error a body can end with: the body's own, boxed.
type BoxError = Box<dyn StdError + Send + Sync>;

/// The MCP endpoint of a [`Server`](crate::Server), answering at path `/` (mount it where you
/// want it), as a tower `Service<http::Request<B>>` for any body `B` of `Bytes` (hyper's
/// `Incoming`, axum's `Body`, …). Got from [`Server::into_service`](crate::Server::into_service);
/// cheap to clone (clones answer as one endpoint, with one session table).
///
/// It guards what the router of [`Server::into_router`](crate::Server::into_router) guards, and
/// no more: serve it yourself and the connection-level protections of
/// [`Server::serve_http`](crate::Server::serve_http) are yours to provide, and so is graceful
/// shutdown: call [`HttpService::shutdown`] when your server stops, or its long-lived streams
/// keep your graceful shutdown waiting.
///
/// Its signature names `http` 1, `http-body` 1 and `bytes` 1, and tower's `Service` trait from
/// `tower-service` 0.3, which is not yet 1.0 (every framework above implements that version).
///
/// ```no_run
/// # async fn mount() -> Result<(), mcp_toolbelt::Error> {
/// let mcp = mcp_toolbelt::Server::new("notes", "1.0.0").into_service()?;
/// let app: axum::Router = axum::Router::new().nest_service("/mcp", mcp);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct HttpService {
    router: axum::Router,
    /// The dispatcher's closing token: cancelled, the long-lived streams end.
    closing: CancellationToken,
}

impl HttpService {
    /// The endpoint the router answers with, closed by `closing`.
    pub(crate) fn new(router: axum::Router, closing: CancellationToken) -> Self {
        Self { router, closing }
    }

    /// Starts a graceful shutdown, as [`Server::serve_http`](crate::Server::serve_http) does at
    /// SIGTERM: the streams that last until their client leaves (a legacy client's GET stream, a
    /// 2026-07-28 `subscriptions/listen`) end, a listen stream with its result, so that your
    /// server's own graceful shutdown can finish. Requests in flight still get their answers.
    /// Every clone of this service is shut down with it; it cannot be undone.
    pub fn shutdown(&self) {
        self.closing.cancel();
    }
}

impl fmt::Debug for HttpService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpService").finish_non_exhaustive()
    }
}

impl<B> Service<Request<B>> for HttpService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response<HttpBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<HttpBody>, Infallible>> + Send>>;

    /// Always ready: the endpoint's own limits answer `503` rather than apply back-pressure.
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let answer = self.router.call(request.map(Body::new));
        Box::pin(async move { Ok(answer.await?.map(HttpBody)) })
    }
}

/// The body of an [`HttpService`] response: a JSON document, or an event stream that lasts as
/// long as its call (or, for a listening client, its subscription). An `http_body::Body` of
/// `Bytes`.
pub struct HttpBody(Body);

impl fmt::Debug for HttpBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("HttpBody").finish_non_exhaustive()
    }
}

impl http_body::Body for HttpBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        Pin::new(&mut self.0)
            .poll_frame(context)
            .map_err(BoxError::from)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}
