//! CORS for the requests a browser sends: every CORS request, preflights included, carries
//! `Origin` (Fetch standard), so a request without one (any non-browser client) skips
//! tower-http's CORS work, which builds a `Vary` header for every response.

use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::{Request, Response, header};
use futures_util::future::Either;
use tower::util::Oneshot;
use tower::{Layer, Service, ServiceExt as _};
use tower_http::cors::{Cors, CorsLayer};

/// `cors` applied to the requests that carry `Origin`.
#[derive(Clone)]
pub(super) struct WithOrigin(Arc<CorsLayer>);

impl WithOrigin {
    pub(super) fn new(cors: CorsLayer) -> Self {
        Self(Arc::new(cors))
    }
}

impl<S> Layer<S> for WithOrigin {
    type Service = WithOriginService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        WithOriginService {
            inner,
            cors: Arc::clone(&self.0),
        }
    }
}

/// The service of [`WithOrigin`].
#[derive(Clone)]
pub(super) struct WithOriginService<S> {
    inner: S,
    cors: Arc<CorsLayer>,
}

impl<S, B, R> Service<Request<B>> for WithOriginService<S>
where
    S: Service<Request<B>, Response = Response<R>> + Clone,
    R: Default,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Either<Oneshot<Cors<S>, Request<B>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if request.headers().contains_key(header::ORIGIN) {
            Either::Left(self.cors.layer(self.inner.clone()).oneshot(request))
        } else {
            Either::Right(self.inner.call(request))
        }
    }
}
