//! How a call is answered over HTTP: JSON, or a request-scoped event stream once the call sends
//! notifications before its result; and the legacy GET stream of server-initiated messages.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse as _, Response};
use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

use super::HttpState;
use super::admission::Admitted;
use super::auth;
use super::config::BearerAuth;
use super::headers::{self, LAST_EVENT_ID, SESSION_ID};
use super::places::Place;
use super::replay::{self, EventLog, LoggedStream, StreamKind};
use super::reply::{self, Refusal, Stage, StatusTable, status_of};
use super::sessions::HttpSession;
use crate::context::AuthInfo;
use crate::jsonrpc::{self, Id, Method, Outgoing, OutgoingReceiver, Request, codes};
use crate::protocol::ProtocolVersion;
use crate::protocol::Room;
use crate::session::{self, Caller, Calls, Ticket};
use crate::sync::lock;

/// One request to answer over HTTP.
pub(super) struct HttpCall<'a> {
    pub(super) request: Request,
    /// The calls it joins: its legacy session's, or calls of its own.
    pub(super) calls: Calls,
    /// The legacy session it belongs to, if any.
    pub(super) in_session: Option<Arc<HttpSession>>,
    pub(super) auth: Option<Arc<AuthInfo>>,
    /// The server's bearer auth, if any: a scope refusal answered as JSON is then a `403` with
    /// the `insufficient_scope` challenge.
    pub(super) bearer: Option<&'a BearerAuth>,
    /// The client's address: who a caller without a token is counted as by the rate limits.
    pub(super) address: Option<std::net::IpAddr>,
    /// Whether the answer may be an event stream.
    pub(super) accepts: Accepts,
    /// The era it was made in: its answer's status follows that era's table.
    pub(super) statuses: StatusTable,
    /// Its time limit; `None` for a subscription, which lasts until its client or the server
    /// ends it.
    pub(super) timeout: Option<Duration>,
    /// The request's place among those open (`max_requests`, or `max_subscriptions`), held
    /// until the call ends.
    pub(super) place: Place,
    /// Where a legacy session's streams are logged for resumption; `None` for a request of no
    /// session (2026-07-28, stateless).
    pub(super) log: Option<Resumable>,
}

/// What a call needs to log its stream.
#[derive(Clone)]
pub(super) struct Resumable {
    pub(super) log: Arc<EventLog>,
    /// Cancelled when the endpoint's followers of call streams must end (a replica sharing its
    /// log in Redis stopping: its clients resume elsewhere). The calls run on.
    pub(super) stop: Option<CancellationToken>,
}

/// What a client takes as an answer (its `Accept`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Accepts {
    /// JSON only: notifications before the result are dropped, questions cannot be asked.
    Json,
    /// An event stream too: notifications and questions travel on it.
    Stream,
}

/// Runs one request. The answer is JSON, unless the call sends notifications (progress, logs)
/// before its result and the client accepts SSE: then a request-scoped event stream carries them
/// and the result. Dropping the response (the client went away) cancels the call, unless it is
/// a legacy session's stream (logged, so resumable): that call runs on, its events kept for the
/// client to resume. A call cancelled before it answered gets no JSON-RPC response: its event
/// stream ends without one (`202 Accepted` for a client that takes JSON only). A request that
/// runs no code of the user's is polled first on the connection's task, and runs as a task of
/// its own only if it waits; the others run as a task of their own at once.
pub(super) async fn answer(call: HttpCall<'_>) -> Response {
    let (events, mut receiver) = jsonrpc::outgoing_channel();
    let max_queued = call.calls.dispatcher().limits().max_queued_messages;
    // A listen stream's changes wait for room in its queue (never dropped, never unbounded).
    let room = (call.request.method == Method::Listen).then(|| Room::new(max_queued));
    let caller = Caller {
        notifications: events.clone(),
        auth: call.auth,
        address: call.address,
        room: room.clone(),
    };
    let id = call.request.id.clone();
    let method = call.request.method.clone();
    // A legacy session's stream is logged (looked at only once the call streams: nothing is
    // allocated for a call answered as JSON).
    let logged = call.log.clone().zip(call.in_session.clone());
    if let Some(session) = &call.in_session
        && call.request.method != Method::Initialize
    {
        session.activate();
    }
    // A question to the client travels on the call's event stream: without one, a tool that
    // asks is told at once that it cannot.
    let calls = match call.accepts {
        Accepts::Stream => call.calls.clone(),
        Accepts::Json => call.calls.without_questions(),
    };
    let started = match calls.start(call.request, caller, call.timeout) {
        Ok(started) => started,
        Err(refused) => {
            return Refusal::answering(StatusCode::BAD_REQUEST, refused).into_response();
        }
    };
    // A session that ended while this call was being set up takes the call with it.
    if call
        .in_session
        .as_ref()
        .is_some_and(|s| s.ended.is_cancelled())
    {
        call.calls.cancel(&id);
    }
    let ticket = started.ticket;
    let (answer, place, in_session) = (started.answer, call.place, call.in_session);
    let answered = move |answered: Option<jsonrpc::Response>| {
        drop(place);
        // Idle time counts from the end of its last call: marked before the answer lets the
        // handler take the call out of the session's table.
        if let Some(session) = in_session {
            session.touch();
        }
        if let Some(response) = answered {
            let _ = events.unbounded_send(Outgoing::Response(Box::new(response)));
        }
    };
    let runs_user_code = call.calls.dispatcher().runs_user_code(&method);
    if let Err(panicked) = run(answer, (&method, runs_user_code), &id, answered).await {
        return panicked;
    }
    let first = match first_message(&mut receiver, call.accepts, &ticket).await {
        Ok(first) => first,
        Err(response) => return response,
    };
    let Outgoing::Response(response) = first else {
        let stream = CallStream {
            receiver,
            ticket,
            max_queued,
            room,
        };
        return streamed(first, stream, logged, id);
    };
    // Cancelled after it answered, before the answer left: it still gets none.
    if !ticket.complete() {
        return no_response(call.accepts);
    }
    if let (Some(bearer), Some(error)) = (call.bearer, response.error_object())
        && let Some(needed) = crate::protocol::scope_refusal(error)
    {
        // The scope check's refusal, as the 2025-11-25 scope challenge (step-up).
        return auth::insufficient_scope(bearer, &needed)
            .to(&id)
            .into_response();
    }
    let status = response.error_object().map_or(StatusCode::OK, |error| {
        status_of(error, Stage::Answer(call.statuses))
    });
    reply::answer(status, &response)
}

/// Runs a call's future, `answered` given its response. A request that runs no code of the
/// user's (`ping`, the lists without middleware or visibility rule) is polled once here, on the
/// connection's task. The others (`runs_user_code`) run apart at once, so that a tool computing
/// before its first `.await` never keeps this task from seeing the client leave (which cancels
/// the call). `Err`: the answer to a poll that panicked.
async fn run(
    mut answer: BoxFuture<'static, Option<jsonrpc::Response>>,
    (method, runs_user_code): (&Method, bool),
    id: &Id,
    answered: impl FnOnce(Option<jsonrpc::Response>) + Send + 'static,
) -> Result<(), Response> {
    if runs_user_code {
        tokio::spawn(async move { answered(answer.await) });
        return Ok(());
    }
    match session::poll_once(&mut answer).await {
        Ok(Poll::Ready(response)) => answered(response),
        Ok(Poll::Pending) => {
            tokio::spawn(async move { answered(answer.await) });
        }
        Err(_) => {
            tracing::error!(%method, ?id, "handling a request panicked");
            return Err(Refusal::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                codes::INTERNAL_ERROR,
                "Internal error",
            )
            .into_response());
        }
    }
    Ok(())
}

/// What a call that streams carries on: the messages still to come, its ticket, and the room of
/// its queue.
struct CallStream {
    receiver: OutgoingReceiver,
    ticket: Ticket,
    max_queued: usize,
    room: Option<Room>,
}

/// The event stream of a call whose `first` message is no response: in a legacy session,
/// logged (so resumable) when its log opens one; else request-scoped.
fn streamed(
    first: Outgoing,
    stream: CallStream,
    logged: Option<(Resumable, Arc<HttpSession>)>,
    id: Id,
) -> Response {
    let CallStream {
        receiver,
        ticket,
        max_queued,
        room,
    } = stream;
    if let Some((resumable, session)) = logged {
        let connection = session.calls.connection();
        // 2025-11-25 starts with a priming event; older clients may not take empty data.
        let prime = connection.version() >= ProtocolVersion::V2025_11_25;
        let opened = connection
            .session_id
            .as_deref()
            .and_then(|session| resumable.log.open(session, StreamKind::Call(id)));
        if let Some(stream) = opened {
            return logged_stream(&stream, first, receiver, ticket, prime, resumable);
        }
    }
    // A listen stream's messages are bounded at their source: its changes and task news wait
    // for room (`room`), and besides them it sends its acknowledgement and its response. So it
    // is read straight from the call's channel: no queue and no task between them, what an idle
    // stream would hold for nothing (a call's progress and logs, never waited for, go through
    // the bounded queue).
    let queue = match room {
        Some(_) => Queue::Direct(receiver),
        None => Queue::Bounded(bounded(receiver, max_queued)),
    };
    event_stream(first, queue, ticket, room)
}

/// Where a request-scoped event stream takes its messages from.
enum Queue {
    /// The call's own channel, bounded by what sends on it (a listen stream's room).
    Direct(OutgoingReceiver),
    /// A queue of at most `max_queued_messages` ([`bounded`]).
    Bounded(mpsc::Receiver<Outgoing>),
}

impl Queue {
    async fn recv(&mut self) -> Option<Outgoing> {
        match self {
            Queue::Direct(receiver) => receiver.recv().await,
            Queue::Bounded(receiver) => receiver.recv().await,
        }
    }
}

/// What decides the answer's form: the response (JSON), or a first notification the client
/// can take on a stream. `Err` is the answer when the call ended without a response.
async fn first_message(
    receiver: &mut OutgoingReceiver,
    accepts: Accepts,
    ticket: &Ticket,
) -> Result<Outgoing, Response> {
    loop {
        match receiver.recv().await {
            Some(message @ Outgoing::Response(_)) => return Ok(message),
            Some(message) if accepts == Accepts::Stream => return Ok(message),
            Some(_) => {} // the client cannot take a stream: notifications are dropped
            None if ticket.is_cancelled() => return Err(no_response(accepts)),
            None => {
                return Err(Refusal::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    codes::INTERNAL_ERROR,
                    "Internal error",
                )
                .into_response());
            }
        }
    }
}

/// The answer to a cancelled request, which gets no JSON-RPC response: a stream that ends at
/// once, or `202` when the client takes JSON only (no JSON body can say "no response").
fn no_response(accepts: Accepts) -> Response {
    match accepts {
        Accepts::Stream => {
            Sse::new(futures_util::stream::empty::<Result<Event, Infallible>>()).into_response()
        }
        Accepts::Json => StatusCode::ACCEPTED.into_response(),
    }
}

/// A legacy session's request-scoped event stream, logged: the call's messages go to the log
/// (through a task of their own, which holds the call's ticket: a client that goes away does
/// not cancel the call), and the response follows the log from its start, after the priming
/// event when `prime`.
fn logged_stream(
    stream: &Arc<LoggedStream>,
    first: Outgoing,
    mut receiver: OutgoingReceiver,
    ticket: Ticket,
    prime: bool,
    resumable: Resumable,
) -> Response {
    let (running, stop) = (resumable.log.running.clone(), resumable.stop);
    stream.push(&first);
    let logging = Arc::clone(stream);
    running.spawn(async move {
        while let Some(message) = receiver.recv().await {
            if matches!(message, Outgoing::Response(_)) {
                // Cancelled after it answered, before the answer was written: none is.
                if ticket.complete() {
                    logging.push(&message);
                }
                break;
            }
            logging.push(&message);
        }
        logging.end();
    });
    replay::sse_response(Arc::clone(stream).follow(0, prime, stop, ()))
}

/// A request-scoped event stream: the request's notifications, then its response, which ends
/// the stream. Dropping it before the response (the client went away) drops the call's
/// ticket, which cancels the call. A change it carries gives its place in `room` back as it
/// goes out.
fn event_stream(first: Outgoing, receiver: Queue, ticket: Ticket, room: Option<Room>) -> Response {
    let stream = futures_util::stream::unfold(
        (Some(first), Some((receiver, ticket, room))),
        |(first, call)| async move {
            let (mut receiver, ticket, room) = call?;
            let message = match first {
                Some(message) => message,
                None => receiver.recv().await?,
            };
            if !matches!(message, Outgoing::Response(_)) {
                if let Some(room) = &room {
                    room.written(&message);
                }
                return Some((message, (None, Some((receiver, ticket, room)))));
            }
            // Cancelled after it answered, before the answer left: the stream ends without it.
            ticket.complete().then_some((message, (None, None)))
        },
    )
    .map(|message| Event::default().event("message").json_data(message));
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    response
}

/// Moves a call's messages into a queue of at most `max_queued` that its event stream takes
/// from, so that a client that stops reading its stream holds a bounded queue: past it, the
/// call's progress and log notifications are dropped (as stdio drops them), while its response,
/// its requests to the client and a listen stream's changes (bounded by their own room) wait
/// for room. Ends when the call's messages end or the stream is gone.
fn bounded(mut messages: OutgoingReceiver, max_queued: usize) -> mpsc::Receiver<Outgoing> {
    let (queue, queued) = mpsc::channel(max_queued.max(1));
    tokio::spawn(async move {
        let mut dropped = 0_u64;
        while let Some(message) = messages.recv().await {
            let delivered = match message {
                Outgoing::Notification(ref notification)
                    if matches!(notification.method, Method::Progress | Method::Log) =>
                {
                    match queue.try_send(message) {
                        Err(TrySendError::Full(_)) => {
                            if dropped == 0 {
                                tracing::warn!(
                                    max_queued,
                                    "a client is not reading its event stream: notifications past the queue limit are dropped"
                                );
                            }
                            dropped += 1;
                            true
                        }
                        sent => sent.is_ok(),
                    }
                }
                message => queue.send(message).await.is_ok(),
            };
            if !delivered {
                break;
            }
        }
        if dropped > 0 {
            tracing::warn!(dropped, "notifications dropped from an event stream");
        }
    });
    queued
}

/// GET opens the session's stream of server-initiated messages (`list_changed` of the lists
/// `initialize` declared, `resources/updated` of what the session subscribed to); without a
/// legacy session there is none (`405`). With `Last-Event-ID`, it resumes the stream that event
/// belongs to instead (a POST's, or the GET stream), from the event after it.
pub(super) async fn get_stream(
    State(state): State<Arc<HttpState>>,
    Admitted(auth): Admitted,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    if state.config.stateless || !headers.contains_key(SESSION_ID) {
        return Err(super::method_not_allowed(state.config.stateless));
    }
    if !headers::accepts(&headers, &mime::TEXT_EVENT_STREAM) {
        return Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            codes::INVALID_REQUEST,
            "Not Acceptable: Accept must include text/event-stream",
        ));
    }
    let session = state
        .sessions
        .find_for(&state.dispatcher, &headers, auth.as_deref(), true)
        .await?;
    let resuming = headers.get(LAST_EVENT_ID);
    let mut replayed = None;
    if let Some(last) = resuming {
        match resume(&state, &session, last, auth.as_ref()).await? {
            Resumed::Stream(response) => return Ok(response),
            // Another replica's GET stream: what it kept, then this replica's GET stream.
            Resumed::Replayed(frames) => replayed = Some(frames),
            // A GET stream no longer known: a fresh one rather than none (its client wants the
            // session's messages; those of the gap are lost).
            Resumed::Unknown if is_get_stream(last) => {}
            Resumed::Unknown => return Err(unknown_event()),
        }
    }
    // A resuming client takes the stream over from a connection not yet seen to close.
    let guard = if resuming.is_some() {
        session.take_over_stream()
    } else {
        session.open_stream().ok_or_else(|| {
            Refusal::new(
                StatusCode::CONFLICT,
                codes::INVALID_REQUEST,
                "Conflict: this session already has a GET stream open",
            )
        })?
    };
    // It holds its connection as long as it lasts: one of the long-lived streams' share.
    let place = state.streams.take(auth.as_ref())?;
    let stream = session_stream(&state, &session)?;
    let prime =
        replayed.is_none() && session.calls.connection().version() >= ProtocolVersion::V2025_11_25;
    let closing = state.dispatcher.closing().clone();
    let frames = stream
        .clone()
        .frames(stream.last_seq(), prime, Some(closing), (place, guard));
    let body = match replayed {
        Some(replayed) => Body::from_stream(replayed.chain(frames)),
        None => Body::from_stream(frames),
    };
    Ok(replay::sse_response(body))
}

/// Whether an event id names a GET stream (`get-{random}-{seq}`).
fn is_get_stream(last: &HeaderValue) -> bool {
    last.as_bytes().starts_with(b"get-")
}

/// The answer to an id no stream of the session has.
fn unknown_event() -> Refusal {
    Refusal::new(
        StatusCode::BAD_REQUEST,
        codes::INVALID_REQUEST,
        "Bad Request: Last-Event-ID names no event this session can resume (unknown, or expired: HttpConfig::replay_ttl)",
    )
}

/// The session's GET stream: its log, written from the first GET until the session ends (so a
/// client that lost its GET stream gets what it missed), or the server closes.
fn session_stream(
    state: &HttpState,
    session: &Arc<HttpSession>,
) -> Result<Arc<LoggedStream>, Refusal> {
    let mut slot = lock(&session.get_log);
    if let Some(writing) = &*slot {
        return Ok(Arc::clone(&writing.stream));
    }
    // Ended while this GET was on its way (`end` cancels before it takes the log): no log is
    // opened for it, which nothing would end.
    if session.ended.is_cancelled() {
        return Err(super::sessions::not_found());
    }
    let opened = session
        .calls
        .connection()
        .session_id
        .as_deref()
        .and_then(|id| state.log.open(id, StreamKind::Get));
    let Some(stream) = opened else {
        return Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            codes::INTERNAL_ERROR,
            "Internal error: no stream id could be made",
        ));
    };
    let writing = state
        .get_writer
        .write(Arc::clone(&stream), session.calls.shared_connection());
    *slot = Some(writing);
    Ok(stream)
}

/// What a `Last-Event-ID` resumes.
enum Resumed {
    /// A stream, answered: a call's, or this replica's GET stream.
    Stream(Response),
    /// What another replica's GET stream kept after the id.
    #[cfg_attr(
        not(feature = "redis"),
        expect(
            dead_code,
            reason = "only the shared log holds other replicas' streams"
        )
    )]
    Replayed(replay::Frames),
    /// No stream this session can resume.
    Unknown,
}

/// GET with `Last-Event-ID`: the events of that stream after it, then the stream goes on (a
/// POST's until its response; the GET stream as long as it lasts). An id this session cannot
/// resume (unknown, expired, another session's) is `400`, as the TypeScript SDK answers it: a
/// `404` would tell the client its session is gone.
#[cfg_attr(
    not(feature = "redis"),
    expect(clippy::unused_async, reason = "the shared log is read with an await")
)]
async fn resume(
    state: &HttpState,
    session: &Arc<HttpSession>,
    last: &HeaderValue,
    auth: Option<&Arc<AuthInfo>>,
) -> Result<Resumed, Refusal> {
    let session_id = session
        .calls
        .connection()
        .session_id
        .clone()
        .unwrap_or_default();
    let event_id = last.to_str().unwrap_or_default();
    let Some((stream, after)) = state.log.find(event_id, &session_id) else {
        #[cfg(feature = "redis")]
        return resume_shared(state, event_id, &session_id, auth).await;
        #[cfg(not(feature = "redis"))]
        return Ok(Resumed::Unknown);
    };
    let place = state.streams.take(auth)?;
    // One connection follows a stream (the protocol: a message is never sent on two): the
    // resuming one takes it over.
    let body = match stream.kind {
        StreamKind::Get => {
            let keep = (place, session.take_over_stream());
            let closing = state.dispatcher.closing().clone();
            stream.follow(after, false, Some(closing), keep)
        }
        StreamKind::Call(_) => stream.follow(after, false, state.call_stop(), place),
    };
    Ok(Resumed::Stream(replay::sse_response(body)))
}

/// A stream this replica does not know, from the log shared in Redis: another replica runs it
/// (or ran it, and died), or kept a GET stream of the session.
#[cfg(feature = "redis")]
async fn resume_shared(
    state: &HttpState,
    event_id: &str,
    session_id: &str,
    auth: Option<&Arc<AuthInfo>>,
) -> Result<Resumed, Refusal> {
    let (Some(shared), Some((stream, after))) =
        (&state.log.shared, replay::parse_event_id(event_id))
    else {
        return Ok(Resumed::Unknown);
    };
    let closing = state.dispatcher.closing().clone();
    let events = shared
        .resume(stream, after, session_id, closing)
        .await
        .map_err(|error| {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::INTERNAL_ERROR,
                format!("Service Unavailable: the shared event log cannot be read now ({error}); retry shortly"),
            )
            .with_header(
                axum::http::header::RETRY_AFTER,
                HeaderValue::from_static("1"),
            )
        })?;
    match events {
        None => Ok(Resumed::Unknown),
        Some((events, false)) => Ok(Resumed::Replayed(replay::shared_frames(
            stream.to_owned(),
            events,
            Vec::new(),
        ))),
        Some((events, true)) => {
            let place = state.streams.take(auth)?;
            let frames = replay::shared_frames(stream.to_owned(), events, vec![Box::new(place)]);
            Ok(Resumed::Stream(replay::sse_response(Body::from_stream(
                frames,
            ))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Dispatcher;
    use crate::transport::http::HttpConfig;

    /// A GET that found its session just before the session ended opens no log: nothing would
    /// end it, and its connection would follow a deleted session's changes.
    #[tokio::test]
    async fn a_get_reaching_its_session_after_it_ended_opens_no_log() {
        let state = HttpState::new(Dispatcher::empty(), HttpConfig::new());
        let session = state
            .sessions
            .unlisted(&state.dispatcher, None)
            .expect("a session");
        let stream = session_stream(&state, &session).expect("a live session's log");
        assert!(Arc::ptr_eq(
            &stream,
            &session_stream(&state, &session).expect("the same log")
        ));
        session.end();
        assert!(stream.has_ended(), "its end ends its log");
        let Err(refused) = session_stream(&state, &session) else {
            panic!("an ended session's GET opened a log");
        };
        assert_eq!(refused.into_response().status(), StatusCode::NOT_FOUND);
        assert!(lock(&session.get_log).is_none(), "no log opened for it");
    }
}
