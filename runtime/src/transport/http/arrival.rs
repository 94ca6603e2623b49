//! Request bodies as they arrive on a connection of the server loop: at most
//! [`HttpConfig::max_arriving_bodies`](super::HttpConfig::max_arriving_bodies) hold a place,
//! each arriving at [`HttpConfig::body_rate`](super::HttpConfig::body_rate) or faster after its
//! grace (else `408`); past the share, a body must arrive whole within [`UNPLACED_LIMIT`] (else
//! `503`). So clients that trickle their bodies (as slow-loris clients trickle headers) hold a
//! bounded share of the connections for a bounded time, while a body sent with its headers, as
//! clients send them, is read at once even then.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
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

/// How long a body that found no place may take to arrive whole.
const UNPLACED_LIMIT: Duration = Duration::from_secs(1);

/// [`Arrival`]'s outcomes.
const ARRIVING: u8 = 0;
const TOO_SLOW: u8 = 1;
const CROWDED: u8 = 2;

/// The bodies of one listener's connections.
pub(super) struct Arrivals {
    arriving: Arc<Semaphore>,
    bytes_per_second: u64,
    grace: Duration,
}

/// What became of one request's body.
pub(super) struct Arrival {
    outcome: Arc<AtomicU8>,
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

    /// `request` with its body watched from now on, in a place if one is free.
    pub(super) fn watch(&self, request: Request<Incoming>) -> (Request<Body>, Arrival) {
        let outcome = Arc::new(AtomicU8::new(ARRIVING));
        let arrival = Arrival {
            outcome: Arc::clone(&outcome),
        };
        let (parts, body) = request.into_parts();
        if body.is_end_stream() {
            return (Request::from_parts(parts, Body::new(body)), arrival);
        }
        let permit = Arc::clone(&self.arriving).try_acquire_owned().ok();
        let started = Instant::now();
        let first_deadline = if permit.is_some() {
            started + self.grace
        } else {
            started + self.grace.min(UNPLACED_LIMIT)
        };
        let body = Watched {
            inner: body,
            placed: permit.is_some(),
            permit,
            started,
            received: 0,
            bytes_per_second: self.bytes_per_second,
            grace: self.grace,
            deadline: Box::pin(tokio::time::sleep_until(first_deadline)),
            arriving: true,
            outcome,
        };
        (Request::from_parts(parts, Body::new(body)), arrival)
    }
}

impl Arrival {
    /// The answer to send, and whether it closes its connection: `response`, or, when the body
    /// failed to arrive in time (whatever the handler answered then), `408` (too slow) or `503`
    /// (no place, and not arrived within [`UNPLACED_LIMIT`]).
    pub(super) fn answer(&self, response: Response, bytes_per_second: u64) -> (Response, bool) {
        match self.outcome.load(Ordering::Relaxed) {
            TOO_SLOW => {
                let message = format!(
                    "Request Timeout: the body arrived slower than {bytes_per_second} bytes a second"
                );
                let refusal = refuse(StatusCode::REQUEST_TIMEOUT, codes::INVALID_REQUEST, message);
                (refusal, true)
            }
            CROWDED => {
                let refusal = refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    codes::INTERNAL_ERROR,
                    "Service Unavailable: too many request bodies are arriving at once",
                );
                (refusal, true)
            }
            _ => (response, false),
        }
    }
}

/// A request body that holds an arrival place (if it got one) until it has arrived, and fails
/// once it is late: under the rate, or, without a place, not whole within [`UNPLACED_LIMIT`].
struct Watched {
    inner: Incoming,
    permit: Option<OwnedSemaphorePermit>,
    placed: bool,
    started: Instant,
    received: u64,
    bytes_per_second: u64,
    grace: Duration,
    /// When the bytes received so far stop being enough: the grace, plus their time at the rate
    /// (without a place: [`UNPLACED_LIMIT`]).
    deadline: Pin<Box<Sleep>>,
    /// Until the body has arrived, failed, or been found late.
    arriving: bool,
    outcome: Arc<AtomicU8>,
}

/// Why a body failed: it was late.
#[derive(Debug)]
struct Late;

impl std::fmt::Display for Late {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive in time")
    }
}

impl std::error::Error for Late {}

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
            if this.arriving {
                ready!(this.deadline.as_mut().poll(cx));
                this.arriving = false;
                this.permit = None;
                let outcome = if this.placed { TOO_SLOW } else { CROWDED };
                this.outcome.store(outcome, Ordering::Relaxed);
                return Poll::Ready(Some(Err(Box::new(Late))));
            }
            return Poll::Pending;
        }
        if this.placed
            && let Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(data) = frame.data_ref()
        {
            this.received = this.received.saturating_add(data.len() as u64);
            let earned =
                Duration::from_millis(this.received.saturating_mul(1000) / this.bytes_per_second);
            this.deadline
                .as_mut()
                .reset(this.started + this.grace + earned);
        }
        if !matches!(polled, Poll::Ready(Some(Ok(_)))) || this.inner.is_end_stream() {
            // Arrived (or failed): the place is free.
            this.arriving = false;
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
