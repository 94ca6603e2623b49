//! POST: the headers are checked, the body read within the limits, and the message answered
//! in its era: 2026-07-28 requests stand alone; legacy ones belong to the session `initialize`
//! opened (or, stateless, to none).

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest as _, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use serde_json::value::RawValue;

use super::HttpState;
use super::admission::Admitted;
use super::client;
use super::headers::{self, PROTOCOL_VERSION, SESSION_ID};
use super::places::Place;
use super::reply::{self, Refusal, Stage, StatusTable};
use super::sessions::HttpSession;
use super::stream::{Accepts, HttpCall, Resumable, answer};
use crate::context::AuthInfo;
use crate::fields::Fields as _;
use crate::jsonrpc::{
    self, ErrorObject, Id, Incoming, Method, Outgoing, Request as RpcRequest, codes,
    outgoing_channel,
};
use crate::protocol::{self, ProtocolVersion};
use crate::session::{Caller, Calls};

/// The longest a request body may take to arrive (unless the request time limit is shorter).
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// A body this small is parsed whatever the memory budget holds (its parse costs little).
const ALWAYS_READ_BYTES: usize = 16 * 1024;

/// What the POST handlers share about one request, once its headers are admitted.
struct Post {
    headers: HeaderMap,
    auth: Option<Arc<AuthInfo>>,
    /// The client's address (behind a trusted proxy, the one it forwarded).
    address: Option<IpAddr>,
    accepts: Accepts,
    place: Place,
}

/// Why a POST was not answered by the dispatcher: refused, or its body unreadable (axum's
/// rejection, answered as axum answers it).
#[derive(Debug)]
pub(super) enum Unanswered {
    /// Refused by the transport: its status and JSON-RPC error.
    Refused(Refusal),
    /// The body could not be read (`413` past the size limit, as axum says it).
    Body(BytesRejection),
}

impl From<Refusal> for Unanswered {
    fn from(refusal: Refusal) -> Self {
        Self::Refused(refusal)
    }
}

impl From<BytesRejection> for Unanswered {
    fn from(rejection: BytesRejection) -> Self {
        Self::Body(rejection)
    }
}

impl IntoResponse for Unanswered {
    fn into_response(self) -> Response {
        match self {
            Self::Refused(refusal) => refusal.into_response(),
            Self::Body(rejection) => rejection.into_response(),
        }
    }
}

/// A POST: the headers are checked, then the body is read (within the size and time limits),
/// then the message is answered in its era.
pub(super) async fn post(
    State(state): State<Arc<HttpState>>,
    Admitted(auth): Admitted,
    mut request: Request,
) -> Result<Response, Unanswered> {
    // Taken, not cloned: reading the body needs only the body and the limit in the extensions.
    let headers = std::mem::take(request.headers_mut());
    let address = client::address(
        request.extensions(),
        &headers,
        &state.config.trusted_proxies,
    );
    if !headers::is_json(&headers) {
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::INVALID_REQUEST,
            "Unsupported Media Type: Content-Type must be application/json",
        )
        .into());
    }
    let accepts = if headers::accepts(&headers, &mime::TEXT_EVENT_STREAM) {
        Accepts::Stream
    } else if headers::accepts(&headers, &mime::APPLICATION_JSON) {
        Accepts::Json
    } else {
        return Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            codes::INVALID_REQUEST,
            "Not Acceptable: Accept must include application/json or text/event-stream",
        )
        .into());
    };
    let body = read_body(&state, request).await?;
    // Parses at once are bounded by the budget too; a small message is always read, and so is
    // a response or a notification (an answer to a question a call waits on, a cancellation
    // that frees memory), one at a time past the budget.
    let memory = &state.dispatcher.limits().memory;
    let held = memory
        .parsing(body.len())
        .or_else(|| (body.len() <= ALWAYS_READ_BYTES).then(|| memory.nothing()));
    let mut held = match held {
        Some(held) => held,
        None if jsonrpc::answers_nothing(&body) => memory.parsing_in_lane().await,
        None => return Err(no_memory(memory.max()).to(&jsonrpc::id_of(&body)).into()),
    };
    let message = jsonrpc::parse(&body);
    // The body is not held while the request runs (a stream may run for hours).
    drop(body);
    let message = message.map_err(|error| Refusal::answering(StatusCode::BAD_REQUEST, error))?;
    let needed = message.held_bytes();
    if needed > memory.max() {
        let refusal = Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            codes::INVALID_REQUEST,
            format!(
                "Content Too Large: the message would hold {needed} bytes of memory once parsed, more than the {} the server allows (Server::max_request_memory)",
                memory.max()
            ),
        );
        return Err(refusal.to(&request_id(&message)).into());
    }
    if !held.resize(needed) {
        return Err(no_memory(memory.max()).to(&request_id(&message)).into());
    }
    // Taken once the body is here: a client that sends headers and no body holds only its
    // connection (for the body time limit), never a place to answer requests.
    let place = take_place(&state, &message, auth.as_ref())
        .map_err(|refusal| refusal.to(&request_id(&message)))?
        .holding(held);
    let modern = is_modern(&message, &headers)?;
    let post = Post {
        headers,
        auth,
        address,
        accepts,
        place,
    };
    let answer = if modern {
        modern_post(&state, message, post).await?
    } else {
        legacy_post(&state, message, post).await?
    };
    Ok(answer)
}

/// The places a message takes: one per item of a batch, so the caps bound calls, not POSTs.
fn take_place(
    state: &HttpState,
    message: &Incoming,
    auth: Option<&Arc<AuthInfo>>,
) -> Result<Place, Refusal> {
    let count = match message {
        // A batch past its own limit takes no more places than that limit; it is then refused
        // whole (`-32600`), as on stdio.
        Incoming::Batch(items) => items.len().min(state.dispatcher.limits().max_batch_items),
        Incoming::Request(_) => 1,
        // Taken at once, and always: an answer to a question a call waits on must get through
        // while the calls waiting fill the places.
        Incoming::Notification { .. } | Incoming::Response(_) => 0,
    };
    state.requests.take_many(auth, count)
}

/// The `503` of a request for which the requests in flight leave no memory.
fn no_memory(max: usize) -> Refusal {
    Refusal::new(
        StatusCode::SERVICE_UNAVAILABLE,
        codes::INTERNAL_ERROR,
        format!(
            "Service Unavailable: the requests in flight hold the memory they may ({max} bytes, Server::max_request_memory); retry shortly"
        ),
    )
}

/// Whether a message is answered as 2026-07-28: its `_meta` or its version header says so.
/// `Err` answers what 2026-07-28 lacks (batches, client responses), rather than calling the
/// version unknown.
fn is_modern(message: &Incoming, headers: &HeaderMap) -> Result<bool, Refusal> {
    let refuse_modern = |message: &str| {
        Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            codes::INVALID_REQUEST,
            format!("Invalid Request: {message}"),
        ))
    };
    match message {
        Incoming::Request(RpcRequest { params, .. }) | Incoming::Notification { params, .. } => {
            Ok(protocol::claims_modern(params.as_ref()) || headers::claims_modern(headers))
        }
        Incoming::Batch(_) if headers::claims_modern(headers) => refuse_modern(
            "2026-07-28 has no JSON-RPC batches; send each request in a POST of its own",
        ),
        Incoming::Response(_) if headers::claims_modern(headers) => {
            refuse_modern("a 2026-07-28 server sends no requests, so it takes no responses")
        }
        _ => Ok(false),
    }
}

/// The body, within the time limit (`408`) and the size limit (`413`).
async fn read_body(state: &HttpState, request: Request) -> Result<Bytes, Unanswered> {
    let limit = state.config.request_timeout.min(BODY_TIMEOUT);
    match tokio::time::timeout(limit, Bytes::from_request(request, &())).await {
        Ok(body) => Ok(body?),
        Err(_) => Err(Refusal::new(
            StatusCode::REQUEST_TIMEOUT,
            codes::INVALID_REQUEST,
            "Request Timeout: the body did not arrive within the time limit",
        )
        .into()),
    }
}

/// The id of a request, `null` for any other message.
fn request_id(message: &Incoming) -> Id {
    match message {
        Incoming::Request(request) => request.id.clone(),
        _ => Id::null(),
    }
}

/// 2026-07-28: every POST stands alone; headers must agree with the body.
async fn modern_post(
    state: &HttpState,
    message: Incoming,
    post: Post,
) -> Result<Response, Refusal> {
    let request = match message {
        Incoming::Request(request) => request,
        // A notification's headers must agree with its body too (it names its version there).
        Incoming::Notification { method, params, .. } => {
            if protocol::claims_modern(params.as_ref()) {
                headers::check_modern_notification(&post.headers, &method, params.as_ref())
                    .map_err(|error| Refusal::at(Stage::Envelope, error))?;
            }
            return Ok(StatusCode::ACCEPTED.into_response());
        }
        _ => {
            return Err(Refusal::new(
                StatusCode::BAD_REQUEST,
                codes::INVALID_REQUEST,
                "Invalid Request: expected one request or notification",
            ));
        }
    };
    check_envelope(&post.headers, &request)
        .and_then(|()| check_param_headers(state, &post.headers, &request, post.auth.as_deref()))
        .map_err(|error| Refusal::at(Stage::Envelope, error).to(&request.id))?;
    let subscription = request.method == Method::Listen;
    // A subscription is a stream of notifications: it needs SSE, and a subscription place (in
    // place of the request place).
    let place = if subscription {
        subscription_place(state, &post).map_err(|refusal| refusal.to(&request.id))?
    } else {
        post.place
    };
    let calls = Calls::alone(state.dispatcher.clone(), ProtocolVersion::MODERN[0], None);
    Ok(answer(HttpCall {
        request,
        calls,
        in_session: None,
        auth: post.auth,
        bearer: state.config.auth.as_ref(),
        address: post.address,
        accepts: post.accepts,
        statuses: StatusTable::Modern,
        timeout: (!subscription).then_some(state.config.request_timeout),
        place,
        log: None,
    })
    .await)
}

/// Missing envelope fields first, then headers that disagree with the body, then the version.
fn check_envelope(headers: &HeaderMap, request: &RpcRequest) -> Result<(), ErrorObject> {
    let params = request.params.as_ref();
    if !protocol::claims_modern(params) {
        return Err(ErrorObject::invalid_params(format!(
            "missing required `_meta.{}`",
            protocol::meta::PROTOCOL_VERSION
        )));
    }
    headers::check_modern(headers, &request.method, params)?;
    protocol::envelope_error(params).map_or(Ok(()), Err)
}

/// A `tools/call` of a tool with `x-mcp-header` arguments: its `Mcp-Param-*` headers must
/// agree with them. An unknown tool is left to the dispatcher to answer, and so is a caller
/// lacking a scope the tool needs: the scope check's `403` tells it what to do, a `400` about
/// headers would not.
fn check_param_headers(
    state: &HttpState,
    headers: &HeaderMap,
    request: &RpcRequest,
    auth: Option<&AuthInfo>,
) -> Result<(), ErrorObject> {
    let params = request.params.as_ref();
    let tool = match params.and_then(|params| params.field("name")) {
        Some(Value::String(name)) if request.method == Method::CallTool => {
            state.dispatcher.tool(name, auth)
        }
        _ => None,
    };
    let Some(tool) = tool.filter(|tool| tool.needed_scopes().allow(auth)) else {
        return Ok(());
    };
    let arguments = params
        .and_then(|params| params.field("arguments"))
        .and_then(Value::as_object);
    headers::check_params(headers, tool.header_params(), arguments)
}

/// A subscription's place: a request place and one of the long-lived streams' share.
fn subscription_place(state: &HttpState, post: &Post) -> Result<Place, Refusal> {
    if post.accepts == Accepts::Json {
        return Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            codes::INVALID_REQUEST,
            "Not Acceptable: subscriptions/listen answers with an event stream; Accept must include text/event-stream",
        ));
    }
    let auth = post.auth.as_ref();
    let place = state.subscriptions.take(auth)?;
    let stream = state.streams.take(auth)?;
    Ok(place.with(stream))
}

/// Legacy: `initialize` opens a session; later messages carry it (unless stateless).
/// Refusals carry the request's id when there is one (JSON-RPC 2.0 §5).
async fn legacy_post(
    state: &HttpState,
    message: Incoming,
    post: Post,
) -> Result<Response, Refusal> {
    let joined = legacy_session(state, &message, &post)
        .await
        .map_err(|refusal| refusal.to(&request_id(&message)))?;
    #[cfg(feature = "redis")]
    let settles = settles_session(&message).map(|settled| {
        (
            request_id(&message),
            settled,
            joined.session.clone(),
            joined.new_id.is_some(),
        )
    });
    let opened = joined
        .new_id
        .as_ref()
        .and(joined.session.clone())
        .map(|session| (session, request_id(&message)));
    let mut response = legacy_message(state, message, joined.calls, joined.session, post).await;
    if let Some((session, request)) = opened {
        // A session is opened by an `initialize` that was answered: one refused (past a rate
        // limit) takes no place in the table, nor in Redis, and its client gets no id.
        if !session.calls.connection().is_initialized() {
            session.end();
            return Ok(response);
        }
        if !state.sessions.admit(&session) {
            return Err(super::sessions::full().to(&request));
        }
    }
    #[cfg(feature = "redis")]
    if let Some((request, settled, Some(session), opened)) = settles {
        save_session(state, &session, settled, opened)
            .await
            .map_err(|refusal| refusal.to(&request))?;
    }
    if let Some(id) = joined.new_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION_ID, value);
    }
    Ok(response)
}

/// What a legacy message changes of what its session settled (kept in Redis).
#[cfg(feature = "redis")]
enum Settled {
    /// `initialize`, `logging/setLevel`: the record.
    Record,
    /// `resources/subscribe` (`true`) or `unsubscribe` of a URI: that one subscription.
    Subscription(String, bool),
}

/// What a legacy message changes of what its session settled, if anything.
#[cfg(feature = "redis")]
fn settles_session(message: &Incoming) -> Option<Settled> {
    let Incoming::Request(request) = message else {
        return None;
    };
    let uri = || match request.params.as_ref()?.get("uri")? {
        Value::String(uri) => Some(uri.clone()),
        _ => None,
    };
    match request.method {
        Method::Initialize | Method::SetLogLevel => Some(Settled::Record),
        Method::Subscribe => Some(Settled::Subscription(uri()?, true)),
        Method::Unsubscribe => Some(Settled::Subscription(uri()?, false)),
        _ => None,
    }
}

/// Writes what `session` settled to Redis (with Redis), and tells the replicas holding it: the
/// record, or the one subscription that changed. A session `initialize` just opened that cannot
/// be written (Redis down, the server's sessions all taken, a record past
/// [`MAX_RECORD_BYTES`](crate::replicas::MAX_RECORD_BYTES)) is closed: its client gets the
/// refusal.
#[cfg(feature = "redis")]
async fn save_session(
    state: &HttpState,
    session: &HttpSession,
    settled: Settled,
    opened: bool,
) -> Result<(), Refusal> {
    let Some(shared) = state.sessions.shared() else {
        return Ok(());
    };
    let life = state.sessions.record_life(!opened);
    let closed = |refusal: Refusal| {
        if opened {
            state.sessions.close(&session.id);
        }
        refusal
    };
    let saved = match settled {
        Settled::Subscription(uri, subscribed) => {
            // Only what this replica made of it: a refused subscription changes nothing.
            let holds = session.calls.connection().subscriptions().holds(&uri);
            if holds != subscribed {
                return Ok(());
            }
            match shared.subscribe(&session.id, &uri, subscribed, life).await {
                Ok(Some(generation)) => {
                    if let Some(generation) = generation {
                        session.subscription_changed(
                            &uri,
                            subscribed,
                            generation,
                            &state.dispatcher,
                        );
                    }
                    Ok(true)
                }
                Ok(None) => Ok(false),
                Err(error) => {
                    // Redis may not hold what this replica does: read it whole next time.
                    session.forget_subscriptions();
                    Err(error)
                }
            }
        }
        Settled::Record => {
            let record = session.record();
            if record.len() > crate::replicas::MAX_RECORD_BYTES {
                return Err(closed(record_too_large()));
            }
            if opened {
                let caps = state.sessions.caps();
                return match shared
                    .open(&session.id, &record, session.owner(), life, caps)
                    .await
                {
                    Ok(evicted) => {
                        if let Some(evicted) = evicted {
                            state.sessions.close(&evicted);
                        }
                        Ok(())
                    }
                    Err(crate::replicas::NotOpened::Full) => Err(closed(super::sessions::full())),
                    Err(crate::replicas::NotOpened::Redis(error)) => {
                        Err(closed(super::sessions::unavailable(&error)))
                    }
                };
            }
            let saved = shared
                .save(&session.id, &record, session.owner(), life)
                .await;
            if let Ok(true) = saved {
                shared.changed(&session.id, &record);
            }
            saved
        }
    };
    match saved {
        Ok(true) => Ok(()),
        Ok(false) => {
            // Ended (DELETE on another replica) or expired while this request ran.
            state.sessions.close(&session.id);
            Err(super::sessions::not_found())
        }
        Err(error) => Err(closed(super::sessions::unavailable(&error))),
    }
}

/// A session whose record would pass [`MAX_RECORD_BYTES`](crate::replicas::MAX_RECORD_BYTES).
#[cfg(feature = "redis")]
fn record_too_large() -> Refusal {
    Refusal::new(
        StatusCode::BAD_REQUEST,
        codes::INVALID_PARAMS,
        format!(
            "what this session settles (its capabilities above all) is larger than the {} bytes              a session may keep: declare fewer capabilities",
            crate::replicas::MAX_RECORD_BYTES
        ),
    )
}

/// What a legacy message joins.
struct Joined {
    /// The calls it becomes one of.
    calls: Calls,
    /// Its legacy session, unless stateless.
    session: Option<Arc<HttpSession>>,
    /// The id of the session `initialize` opened.
    new_id: Option<String>,
}

/// The calls a legacy message joins: a new session for `initialize`, the one the request names,
/// or (stateless) calls of its own.
async fn legacy_session(
    state: &HttpState,
    message: &Incoming,
    post: &Post,
) -> Result<Joined, Refusal> {
    let bad_request =
        |message| Refusal::new(StatusCode::BAD_REQUEST, codes::INVALID_REQUEST, message);
    let header_version = headers::legacy_version(&post.headers).map_err(bad_request)?;
    let is_initialize = matches!(message, Incoming::Request(r) if r.method == Method::Initialize);
    if state.config.stateless {
        let calls = Calls::new(state.dispatcher.clone(), header_version, None);
        return Ok(Joined {
            calls,
            session: None,
            new_id: None,
        });
    }
    if is_initialize {
        // In the table only once answered (`legacy_post`).
        let Some(session) = state
            .sessions
            .unlisted(&state.dispatcher, post.auth.as_deref())
        else {
            return Err(super::sessions::full());
        };
        return Ok(Joined {
            calls: session.calls.clone(),
            new_id: Some(session.id.clone()),
            session: Some(session),
        });
    }
    // A request keeps its session alive; a notification or a client's response does not.
    let refresh = matches!(message, Incoming::Request(_) | Incoming::Batch(_));
    let session = state
        .sessions
        .find_for(
            &state.dispatcher,
            &post.headers,
            post.auth.as_deref(),
            refresh,
        )
        .await?;
    // The version header, when sent, must be the one the session negotiated.
    let negotiated = session.calls.connection().version();
    if post.headers.contains_key(PROTOCOL_VERSION)
        && session.calls.connection().is_initialized()
        && header_version != negotiated
    {
        return Err(bad_request(format!(
            "Bad Request: MCP-Protocol-Version {header_version} does not match this session's {negotiated}"
        )));
    }
    Ok(Joined {
        calls: session.calls.clone(),
        session: Some(session),
        new_id: None,
    })
}

/// Answers one legacy message as one of `calls`.
async fn legacy_message(
    state: &HttpState,
    message: Incoming,
    calls: Calls,
    in_session: Option<Arc<HttpSession>>,
    post: Post,
) -> Response {
    match message {
        Incoming::Request(request) => {
            // A session's streams are logged, so that its client can resume them.
            let log = in_session.is_some().then(|| Resumable {
                log: Arc::clone(&state.log),
                stop: state.call_stop(),
            });
            answer(HttpCall {
                request,
                calls,
                in_session,
                auth: post.auth,
                bearer: state.config.auth.as_ref(),
                address: post.address,
                accepts: post.accepts,
                statuses: StatusTable::Legacy,
                timeout: Some(state.config.request_timeout),
                place: post.place,
                log,
            })
            .await
        }
        Incoming::Notification {
            method,
            params,
            cancels,
        } => {
            match (&cancels, &in_session) {
                // Not running here: with Redis, it may run on another replica.
                #[cfg(feature = "redis")]
                (Some(request), Some(session)) if !calls.cancel(request) => {
                    state.sessions.relay_cancel(session, request);
                }
                _ => calls.notification(&method, params.as_ref(), cancels.as_ref()),
            }
            StatusCode::ACCEPTED.into_response()
        }
        Incoming::Response(reply) => {
            // With Redis, an answer to a question another replica asked goes there.
            #[cfg(feature = "redis")]
            let reply = match &in_session {
                Some(session) => state.sessions.relay_reply(session, reply),
                None => Err(reply),
            };
            #[cfg(feature = "redis")]
            let Err(reply) = reply else {
                return StatusCode::ACCEPTED.into_response();
            };
            calls.reply(reply);
            StatusCode::ACCEPTED.into_response()
        }
        Incoming::Batch(items) => {
            // A batch is work done: the session is no longer one that never did anything.
            if let Some(in_session) = &in_session {
                in_session.activate();
            }
            legacy_batch(state, items, &calls, (post.auth, post.address)).await
        }
    }
}

/// A JSON-RPC batch (protocol 2025-03-26 only): its requests run as calls of the session, and
/// one JSON array answers them.
async fn legacy_batch(
    state: &HttpState,
    items: Vec<Box<RawValue>>,
    calls: &Calls,
    (auth, address): (Option<Arc<AuthInfo>>, Option<IpAddr>),
) -> Response {
    // The calls of a batch answer in the batch: their notifications have nowhere to go.
    let caller = Caller {
        notifications: outgoing_channel().0,
        auth,
        address,
        room: None,
    };
    match calls.batch(items, &caller, Some(state.config.request_timeout)) {
        Ok(answers) => match answers.await {
            responses if responses.is_empty() => StatusCode::ACCEPTED.into_response(),
            responses => reply::json(StatusCode::OK, &Outgoing::Batch(responses)),
        },
        Err(error) => Refusal::of(StatusCode::BAD_REQUEST, error).into_response(),
    }
}
