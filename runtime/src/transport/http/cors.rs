//! CORS for the requests a browser sends: every CORS request, preflights included, carries
//! `Origin` (Fetch standard), so a request without one (any non-browser client) skips
//! tower-http's CORS work and gets only the `Vary` a cache needs to keep the two apart.

use std::task::{Context, Poll};

use axum::http::{HeaderValue, Request, Response, header};
use futures_util::TryFutureExt as _;
use futures_util::future::{Either, MapOk};
use tower::util::Oneshot;
use tower::{Layer, Service, ServiceExt as _};
use tower_http::cors::{Cors, CorsLayer};

/// What tower-http's CORS says an answer varies on: a cache must not give a browser the answer
/// to a request without `Origin` (the Fetch standard, "CORS protocol and HTTP caches").
const VARY: HeaderValue = HeaderValue::from_static(
    "origin, access-control-request-method, access-control-request-headers",
);

/// `cors` applied to the requests that carry `Origin`.
#[derive(Clone)]
pub(super) struct WithOrigin(CorsLayer);

impl WithOrigin {
    pub(super) fn new(cors: CorsLayer) -> Self {
        Self(cors)
    }
}

impl<S: Clone> Layer<S> for WithOrigin {
    type Service = WithOriginService<S>;

    /// The CORS service is built here, once: tower-http checks its configuration when it is.
    fn layer(&self, inner: S) -> Self::Service {
        WithOriginService {
            cors: self.0.layer(inner.clone()),
            inner,
        }
    }
}

/// The service of [`WithOrigin`].
#[derive(Clone)]
pub(super) struct WithOriginService<S> {
    inner: S,
    cors: Cors<S>,
}

impl<S, B, R> Service<Request<B>> for WithOriginService<S>
where
    S: Service<Request<B>, Response = Response<R>> + Clone,
    R: Default,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future =
        Either<Oneshot<Cors<S>, Request<B>>, MapOk<S::Future, fn(Response<R>) -> Response<R>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if request.headers().contains_key(header::ORIGIN) {
            Either::Left(self.cors.clone().oneshot(request))
        } else {
            Either::Right(self.inner.call(request).map_ok(with_vary::<R>))
        }
    }
}

fn with_vary<R>(mut response: Response<R>) -> Response<R> {
    response.headers_mut().append(header::VARY, VARY);
    response
}
