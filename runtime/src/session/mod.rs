//! The one call lifecycle every transport uses: a request becomes a call of its connection's
//! in-flight table (so it can be cancelled, and its id names one call at a time), or, a
//! 2026-07-28 request, a call that stands alone; it runs under an optional time limit, and
//! answers only if nobody cancelled it first. Batches and
//! `notifications/cancelled` go through here too.
//!
//! [`Calls`] are one connection's calls: the stdio process, a legacy HTTP session
//! (`transport::http::sessions` keeps them), a stateless legacy or a 2026-07-28 HTTP request
//! standing alone, or the test client.

mod in_flight;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt as _;
use futures_util::future::{Abortable, BoxFuture, Either, join_all};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

pub(crate) use in_flight::{InFlight, Ticket};

use crate::ask::pending::Pending;
use crate::context::AuthInfo;
use crate::jsonrpc::{
    self, ErrorObject, Id, Incoming, Method, OutgoingSender, Reply, Request, Response, codes,
};
use crate::protocol::{Connection, Dispatcher, ProtocolVersion, RequestScope, Room};

/// One connection's calls. Cheap to clone: clones share the connection and its table (if it
/// has one).
#[derive(Clone)]
pub(crate) struct Calls {
    dispatcher: Dispatcher,
    connection: Arc<Connection>,
    /// The calls running, by id; `None` for a connection of one call that stands alone.
    in_flight: Option<Arc<InFlight>>,
    /// The questions its calls asked the client, awaiting answers; `None` when the client's
    /// answers cannot reach this session (a stateless HTTP request).
    pending: Option<Arc<Pending>>,
}

/// Where a call's notifications go and who made it: what a transport knows of a request
/// besides its message.
#[derive(Clone)]
pub(crate) struct Caller {
    pub(crate) notifications: OutgoingSender,
    pub(crate) auth: Option<Arc<AuthInfo>>,
    /// The client's address, when the transport has one (the rate limits' principal without a
    /// token).
    pub(crate) address: Option<std::net::IpAddr>,
    /// Room in its output for the changes a listener sends, where the output is bounded.
    pub(crate) room: Option<Room>,
}

/// A call registered (in flight, or standing alone) and ready to run: its ticket decides whether its answer may
/// leave ([`Ticket::complete`]); `answer` yields `None` when the call was cancelled.
pub(crate) struct StartedCall {
    pub(crate) ticket: Ticket,
    pub(crate) answer: BoxFuture<'static, Option<Response>>,
}

impl StartedCall {
    /// Runs the call and gives its response, unless it was cancelled first.
    pub(crate) async fn finish(self) -> Option<Response> {
        let response = self.answer.await?;
        self.ticket.complete().then_some(response)
    }
}

impl Calls {
    /// A fresh connection assumed to speak `default_version` until it initializes.
    pub(crate) fn new(
        dispatcher: Dispatcher,
        default_version: ProtocolVersion,
        session_id: Option<String>,
    ) -> Self {
        let in_flight = InFlight::new(dispatcher.limits().max_calls_in_flight);
        Self {
            in_flight: Some(Arc::new(in_flight)),
            ..Self::alone(dispatcher, default_version, session_id)
        }
    }

    /// A connection of one call that stands alone (a 2026-07-28 request): in no in-flight
    /// table, since nothing but the end of its own stream can cancel it, and no id of another
    /// call can meet its own.
    pub(crate) fn alone(
        dispatcher: Dispatcher,
        default_version: ProtocolVersion,
        session_id: Option<String>,
    ) -> Self {
        let connection = Connection::new(
            default_version,
            session_id,
            &dispatcher.limits().subscription_memory,
        );
        Self {
            dispatcher,
            connection: Arc::new(connection),
            in_flight: None,
            pending: None,
        }
    }

    /// The session takes the client's answers to its calls' questions (`crate::ask`): a
    /// connection the client's responses come back on (stdio, a legacy HTTP session).
    #[must_use]
    pub(crate) fn answering(mut self) -> Self {
        self.pending = Some(Arc::default());
        self
    }

    /// [`answering`](Self::answering), the ids of its questions `"{prefix}-{n}"`: a client's
    /// answer names the process (the replica) that asked.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "replicas name themselves in their ids")
    )]
    #[must_use]
    pub(crate) fn answering_as(mut self, prefix: &str) -> Self {
        self.pending = Some(Arc::new(Pending::prefixed(prefix)));
        self
    }

    /// The same calls, for a call whose questions cannot reach the client (the transport has
    /// no channel for a request to the client to travel on). A tool that asks is told so at
    /// once (`AskError::NoChannel`), rather than waiting out the ask timeout for an answer that
    /// cannot come.
    #[cfg_attr(
        not(feature = "http"),
        expect(dead_code, reason = "no transport built without `http` has such calls")
    )]
    #[must_use]
    pub(crate) fn without_questions(&self) -> Self {
        Self {
            pending: None,
            ..self.clone()
        }
    }

    /// Takes the client's answer to a question one of this session's calls asked.
    pub(crate) fn reply(&self, reply: Reply) {
        if let Some(pending) = &self.pending {
            pending.answer(reply);
        } else {
            tracing::debug!("a response where no question was asked; ignored");
        }
    }

    pub(crate) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The connection, shared: for what outlives a request (the stdio loop's announcements).
    pub(crate) fn shared_connection(&self) -> Arc<Connection> {
        Arc::clone(&self.connection)
    }

    pub(crate) fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// Answers a request at once, outside the in-flight table: for requests that must be
    /// settled before the next message is read (`initialize`, `logging/setLevel` on stdio),
    /// and for the test client.
    pub(crate) async fn answer_now(&self, request: Request, caller: Caller) -> Response {
        let scope = RequestScope {
            notifications: caller.notifications,
            cancellation: CancellationToken::new(),
            pending: self.pending.clone(),
            auth: caller.auth,
            address: caller.address,
            time_limit: None,
            room: caller.room,
        };
        let Request { id, method, params } = request;
        let connection = Arc::clone(&self.connection);
        self.dispatcher
            .clone()
            .request(id, method, params, connection, scope)
            .await
    }

    /// Registers `request` as a call in flight and prepares it: cancelling its id from now on
    /// cancels it (a call that stands alone: dropping its ticket). Past `timeout` (counted from
    /// now) its future is dropped, its context cancelled, and it answers with an error. `Err` is the answer when its id is already in flight.
    pub(crate) fn start(
        &self,
        request: Request,
        caller: Caller,
        timeout: Option<Duration>,
    ) -> Result<StartedCall, Response> {
        let Request { id, method, params } = request;
        let (ticket, registration) = match &self.in_flight {
            Some(in_flight) => match in_flight.start(&id) {
                Ok(started) => started,
                Err(error) => return Err(error.respond(id)),
            },
            None => Ticket::alone(),
        };
        let cancellation = ticket.cancellation();
        let scope = RequestScope {
            notifications: caller.notifications,
            cancellation: cancellation.clone(),
            pending: self.pending.clone(),
            auth: caller.auth,
            address: caller.address,
            time_limit: timeout,
            room: caller.room,
        };
        // A tool call's time limit is the dispatcher's (an `isError` result, `call::time_limited`).
        let timeout = timeout.filter(|_| method != Method::CallTool);
        let call = self.dispatcher.clone().request(
            id.clone(),
            method,
            params,
            Arc::clone(&self.connection),
            scope,
        );
        // Layered without an async block, which would hold the request's arguments once more
        // beside the future that took them. A cancelled call is dropped at its next await and
        // answers nothing.
        let answer = Abortable::new(with_timeout(call, timeout, id, cancellation), registration)
            .map(Result::ok);
        Ok(StartedCall {
            ticket,
            answer: Box::pin(answer),
        })
    }

    /// Takes a notification: `notifications/cancelled` cancels the call of this connection it
    /// names (`cancels`, its exact id), the rest go to the dispatcher.
    pub(crate) fn notification(
        &self,
        method: &Method,
        params: Option<&Map<String, Value>>,
        cancels: Option<&Id>,
    ) {
        match cancels {
            Some(request_id) => {
                if self.cancel(request_id) {
                    tracing::debug!(request_id = request_id.key(), "request cancelled");
                }
            }
            None => self.dispatcher.notification(method, params),
        }
    }

    /// Cancels call `id`, if it is running.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn cancel(&self, id: &Id) -> bool {
        self.in_flight
            .as_ref()
            .is_some_and(|in_flight| in_flight.cancel(id))
    }

    /// Cancels every call still running: the connection is ending.
    pub(crate) fn cancel_all(&self) {
        if let Some(in_flight) = &self.in_flight {
            in_flight.cancel_all();
        }
    }

    /// Whether no call is running.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn is_idle(&self) -> bool {
        self.in_flight
            .as_ref()
            .is_none_or(|in_flight| in_flight.is_empty())
    }

    /// Answers a JSON-RPC batch, which only protocol 2025-03-26 has. Its requests become calls
    /// at once (each can be cancelled as soon as this returns, and its id is taken while it
    /// runs); the returned future runs them concurrently and yields the responses in order,
    /// less those of cancelled calls. `Err` when the connection's version has no batches.
    pub(crate) fn batch(
        &self,
        items: Vec<Box<RawValue>>,
        caller: &Caller,
        timeout: Option<Duration>,
    ) -> Result<impl Future<Output = Vec<Response>> + Send + 'static, ErrorObject> {
        if !self.connection.version().has_batches() {
            return Err(ErrorObject::invalid_request(format!(
                "batches are accepted only at protocol version {}",
                ProtocolVersion::V2025_03_26
            )));
        }
        let max = self.dispatcher.limits().max_batch_items;
        if items.len() > max {
            return Err(ErrorObject::invalid_request(format!(
                "a batch of {} items; at most {max} are taken (send the rest in another)",
                items.len()
            )));
        }
        let answers: Vec<_> = items
            .into_iter()
            .map(|item| self.batch_item(&item, caller, timeout))
            .collect();
        Ok(async move { join_all(answers).await.into_iter().flatten().collect() })
    }

    /// One element of a batch: a call, a notification taken at once, or an error.
    fn batch_item(
        &self,
        item: &RawValue,
        caller: &Caller,
        timeout: Option<Duration>,
    ) -> BoxFuture<'static, Option<Response>> {
        let immediate = |answer: Option<Response>| -> BoxFuture<'static, Option<Response>> {
            Box::pin(std::future::ready(answer))
        };
        match jsonrpc::parse(item.get().as_bytes()) {
            // `initialize` sets up the connection; a subscription never answers.
            Ok(Incoming::Request(request))
                if matches!(request.method, Method::Initialize | Method::Listen) =>
            {
                let error =
                    ErrorObject::invalid_request(format!("{} must not be batched", request.method));
                immediate(Some(error.respond(request.id)))
            }
            // Batches are 2025-03-26 only: an item cannot be a standalone 2026-07-28 request.
            Ok(Incoming::Request(request))
                if crate::protocol::claims_modern(request.params.as_ref()) =>
            {
                let error = ErrorObject::invalid_request(
                    "a batch item cannot claim protocol 2026-07-28 (batches are 2025-03-26 only)",
                );
                immediate(Some(error.respond(request.id)))
            }
            Ok(Incoming::Request(request)) => match self.start(request, caller.clone(), timeout) {
                Ok(call) => Box::pin(call.finish()),
                Err(refused) => immediate(Some(refused)),
            },
            Ok(Incoming::Notification {
                method,
                params,
                cancels,
            }) => {
                self.notification(&method, params.as_ref(), cancels.as_ref());
                immediate(None)
            }
            Ok(Incoming::Response(reply)) => {
                self.reply(reply);
                immediate(None)
            }
            Ok(Incoming::Batch(_)) => {
                let error = ErrorObject::invalid_request("a batch cannot hold a batch");
                immediate(Some(error.respond(Id::null())))
            }
            Err(error) => immediate(Some(error)),
        }
    }
}

/// Polls `call` once, where it stands (on the task that read the request, for a request that
/// runs no code of the user's): most such requests answer on that poll, without the task and
/// the wake-up running them apart takes. `Err` when the poll panicked: the runtime's own fault,
/// which ends this request alone (answered as an internal error), not the task that polled it.
pub(crate) async fn poll_once<F: Future + Unpin>(
    call: &mut F,
) -> std::thread::Result<std::task::Poll<F::Output>> {
    std::future::poll_fn(|context| {
        std::task::Poll::Ready(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
            || std::pin::Pin::new(&mut *call).poll(context),
        )))
    })
    .await
}

/// Bounds a call by `timeout`, counted from now: past it, the call's future is dropped, its
/// context cancelled (as when the client cancels), and the answer is an error.
fn with_timeout(
    call: impl Future<Output = Response>,
    timeout: Option<Duration>,
    id: Id,
    cancellation: CancellationToken,
) -> impl Future<Output = Response> {
    let Some(limit) = timeout else {
        return Either::Left(call);
    };
    Either::Right(tokio::time::timeout(limit, call).map(move |answered| {
        answered.unwrap_or_else(|_| {
            cancellation.cancel();
            ErrorObject::new(
                codes::INTERNAL_ERROR,
                format!("Request timed out after {limit:?}"),
            )
            .respond(id)
        })
    }))
}
