//! Request bodies as they arrive on a connection of the server loop: at most
//! [`HttpConfig::max_arriving_bodies`](super::HttpConfig::max_arriving_bodies) at once, each at
//! [`HttpConfig::body_rate`](super::HttpConfig::body_rate) or faster after its grace, so that
//! clients that trickle their bodies (as slow-loris clients trickle headers) hold a bounded share
//! of the connections for a bounded time.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use super::HttpConfig;
use super::reply::refuse;
use crate::jsonrpc::codes;

/// The bodies of one listener's connections.
pub(super) struct Arrivals {
    arriving: Arc<Semaphore>,
    bytes_per_second: u64,
    grace: Duration,
}

/// What became of one request's body.
pub(super) struct Arrival {
    too_slow: Arc<AtomicBool>,
}

impl Arrivals {
    pub(super) fn of(config: &HttpConfig) -> Self {
        Self {
            arriving: Arc::new(Semaphore::new(
                config.arriving_body_cap().min(Semaphore::MAX_PERMITS),
            )),
            bytes_per_second: config.body_rate,
            grace: config.body_grace,
        }
    }

    /// `request` with its body watched from now on; `Err` is the `503` when as many bodies as
    /// allowed are arriving already.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, sent at once"
    )]
    pub(super) fn watch(
        &self,
        request: Request<Incoming>,
    ) -> Result<(Request<Body>, Arrival), Response> {
        let too_slow = Arc::new(AtomicBool::new(false));
        let arrival = Arrival {
            too_slow: Arc::clone(&too_slow),
        };
        let (parts, body) = request.into_parts();
        if body.is_end_stream() {
            return Ok((Request::from_parts(parts, Body::new(body)), arrival));
        }
        let Ok(permit) = Arc::clone(&self.arriving).try_acquire_owned() else {
            return Err(refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::INTERNAL_ERROR,
                "Service Unavailable: too many request bodies are arriving at once",
            ));
        };
        let started = Instant::now();
        let body = Watched {
            inner: body,
            permit: Some(permit),
            started,
            received: 0,
            bytes_per_second: self.bytes_per_second,
            grace: self.grace,
            deadline: Box::pin(tokio::time::sleep_until(started + self.grace)),
            too_slow,
        };
        Ok((Request::from_parts(parts, Body::new(body)), arrival))
    }
}

impl Arrival {
    /// The answer to send: `response`, or `408` when the body came too slowly (the handler saw
    /// its body fail, whatever it answered then).
    pub(super) fn answer(&self, response: Response, bytes_per_second: u64) -> Response {
        if !self.too_slow.load(Ordering::Relaxed) {
            return response;
        }
        refuse(
            StatusCode::REQUEST_TIMEOUT,
            codes::INVALID_REQUEST,
            format!(
                "Request Timeout: the body arrived slower than {bytes_per_second} bytes a second"
            ),
        )
    }

    /// Whether the body came too slowly.
    pub(super) fn too_slow(&self) -> bool {
        self.too_slow.load(Ordering::Relaxed)
    }
}

/// A request body that holds an arrival place until it has arrived, and fails once it falls
/// under the rate.
struct Watched {
    inner: Incoming,
    permit: Option<OwnedSemaphorePermit>,
    started: Instant,
    received: u64,
    bytes_per_second: u64,
    grace: Duration,
    /// When the bytes received so far stop being enough: the grace, plus their time at the rate.
    deadline: Pin<Box<Sleep>>,
    too_slow: Arc<AtomicBool>,
}

/// Why a body failed: it came too slowly.
#[derive(Debug)]
struct TooSlow;

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived too slowly")
    }
}

impl std::error::Error for TooSlow {}

impl HttpBody for Watched {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if polled.is_pending() {
            if this.permit.is_some() {
                ready!(this.deadline.as_mut().poll(cx));
                this.permit = None;
                this.too_slow.store(true, Ordering::Relaxed);
                return Poll::Ready(Some(Err(Box::new(TooSlow))));
            }
            return Poll::Pending;
        }
        if let Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(data) = frame.data_ref()
        {
            this.received = this.received.saturating_add(data.len() as u64);
            let earned = Duration::from_millis(
                this.received.saturating_mul(1000) / this.bytes_per_second,
            );
            this.deadline
                .as_mut()
                .reset(this.started + this.grace + earned);
        }
        if !matches!(polled, Poll::Ready(Some(Ok(_)))) || this.inner.is_end_stream() {
            // Arrived (or failed): the place is free.
            this.permit = None;
        }
        polled.map_err(Into::into)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
