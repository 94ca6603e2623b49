//! Request bodies as they arrive on a connection of the server loop: at most
//! [`HttpConfig::max_arriving_bodies`](super::HttpConfig::max_arriving_bodies) hold a place,
//! each arriving at [`HttpConfig::min_body_rate`](super::HttpConfig::min_body_rate) or faster after its
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
use axum::response::{IntoResponse as _, Response};
use hyper::body::{Body as HttpBody, Bytes, Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use super::HttpConfig;
use super::reply::Refusal;
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

    /// `request` with its body watched, in a place if one is free. Its clock starts when the
    /// body is first read (then a client waiting for `100 Continue` gets it), so time spent in
    /// admission, auth or the user's layers is not counted against the client.
    pub(super) fn watch<B>(&self, request: Request<B>) -> (Request<Body>, Arrival)
    where
        B: HttpBody<Data = Bytes> + Send + Unpin + 'static,
        B::Error: Into<BoxError>,
    {
        let outcome = Arc::new(AtomicU8::new(ARRIVING));
        let arrival = Arrival {
            outcome: Arc::clone(&outcome),
        };
        let (parts, body) = request.into_parts();
        if body.is_end_stream() {
            return (Request::from_parts(parts, Body::new(body)), arrival);
        }
        let permit = Arc::clone(&self.arriving).try_acquire_owned().ok();
        let body = Watched {
            inner: body,
            placed: permit.is_some(),
            permit,
            started: None,
            received: 0,
            bytes_per_second: self.bytes_per_second,
            grace: self.grace,
            deadline: Box::pin(tokio::time::sleep(Duration::ZERO)),
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
                let refusal =
                    Refusal::new(StatusCode::REQUEST_TIMEOUT, codes::INVALID_REQUEST, message);
                (refusal.into_response(), true)
            }
            CROWDED => {
                let refusal = Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    codes::INTERNAL_ERROR,
                    "Service Unavailable: too many request bodies are arriving at once",
                );
                (refusal.into_response(), true)
            }
            _ => (response, false),
        }
    }
}

/// A request body that holds an arrival place (if it got one) until it has arrived, and fails
/// once it is late: under the rate, or, without a place, not whole within [`UNPLACED_LIMIT`].
struct Watched<B> {
    inner: B,
    permit: Option<OwnedSemaphorePermit>,
    placed: bool,
    /// When the body was first read: its clock starts there.
    started: Option<Instant>,
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

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// `since` plus `after`, or far in the future when that cannot be told (a grace of
/// `Duration::MAX`, say: no deadline).
fn deadline(since: Instant, after: Duration) -> Instant {
    since
        .checked_add(after)
        .unwrap_or_else(|| since + Duration::from_hours(24 * 365 * 30))
}

impl<B> HttpBody for Watched<B>
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        let started = *this.started.get_or_insert_with(|| {
            let now = Instant::now();
            let first = if this.placed {
                this.grace
            } else {
                this.grace.min(UNPLACED_LIMIT)
            };
            this.deadline.as_mut().reset(deadline(now, first));
            now
        });
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
                .reset(deadline(started, this.grace.saturating_add(earned)));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A request whose body never sends a byte.
    fn silent() -> Request<Body> {
        let chunks = futures_util::stream::pending::<Result<Bytes, std::io::Error>>();
        Request::new(Body::from_stream(chunks))
    }

    /// Whether reading `body` fails as late within `within`.
    async fn late_within(body: &mut Body, within: Duration) -> bool {
        let read = std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx));
        matches!(tokio::time::timeout(within, read).await, Ok(Some(Err(_))))
    }

    #[tokio::test(start_paused = true)]
    async fn the_body_clock_starts_when_the_body_is_first_read() {
        let config = HttpConfig::new()
            .min_body_rate(1024)
            .body_rate_grace(Duration::from_secs(5));
        let arrivals = Arrivals::of(&config);
        let (request, arrival) = arrivals.watch(silent());
        // A slow verifier, or a user's layer, takes longer than the grace before reading.
        tokio::time::advance(Duration::from_secs(10)).await;
        let mut body = request.into_body();
        assert!(!late_within(&mut body, Duration::from_secs(4)).await);
        assert!(late_within(&mut body, Duration::from_secs(2)).await);
        let (answer, close) = arrival.answer(Response::default(), 1024);
        assert_eq!(
            (answer.status(), close),
            (StatusCode::REQUEST_TIMEOUT, true)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_grace_too_long_to_tell_means_no_deadline() {
        let config = HttpConfig::new()
            .min_body_rate(1)
            .body_rate_grace(Duration::MAX);
        let (request, _) = Arrivals::of(&config).watch(silent());
        let mut body = request.into_body();
        assert!(!late_within(&mut body, Duration::from_hours(24 * 365)).await);
    }
}
