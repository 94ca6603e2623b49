//! stdio: newline-delimited JSON-RPC on stdin and stdout; logs go to stderr.
//!
//! Requests run concurrently (a slow tool never holds up a `ping`), every message is written whole
//! on one line, a cancelled call's future is dropped without a response, and at end of input the
//! `subscriptions/listen` calls answer and the calls still running get [`SHUTDOWN_GRACE`] to
//! finish.
//!
//! The calls read together (the whole lines one read brought, up to [`MAX_BURST`]) start
//! together, as one task apart from the reading: they run concurrently at their `.await`s, and
//! the reading goes on meanwhile. A task per call would wake another worker thread for every
//! call and hand each request and answer across threads: that cost stdio calls three quarters
//! more CPU (BENCHMARKS.md, "The hand-offs"). So a tool that computes for long without
//! awaiting holds up the calls read with it (never the reading, a `ping`, or a cancellation); a
//! plain `fn` tool runs on the blocking threads and holds up nothing.
//!
//! Back-pressure, so that a client that sends without reading cannot make the server grow:
//! past `max_calls_in_flight` a request is refused at once with an error, and reading goes on
//! (so the `notifications/cancelled` that would free a place are read); while
//! `max_queued_messages` answers (responses, requests to the client) wait to be written,
//! reading stops. Every answer that waits was caused by one read, the calls already running go
//! on and the writer drains as soon as the client reads, and what the client sent meanwhile
//! (cancellations too) waits in the pipe and is read, in order, then; a client that reads only
//! after writing everything deadlocks past the limit (`Server`'s docs, "Back-pressure on stdio"). What running tools send
//! is bounded apart, and never stops the reading: past `max_queued_messages` notifications
//! waiting, progress and log notifications are dropped (and the drop logged), never responses.
//! The changes the connection's listeners announce are never dropped: at most
//! `max_queued_messages` of them wait, and past that a listener stops taking changes off the
//! server's channel, falls behind, and is told what it missed once the client reads again.
//! When the output is closed (the client left), the calls are cancelled and the connection ends.

mod codec;
mod pipes;

use std::io;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;
use std::time::Duration;

use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt as _, StreamExt as _};
use serde_json::value::RawValue;
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::task::JoinSet;

use self::codec::Backlog;
pub(crate) use self::codec::{Line, LineReader};
pub(crate) use self::pipes::standard_streams;
use crate::jsonrpc::{
    self, ErrorObject, Id, Incoming, Method, Outgoing, OutgoingSender, Request, Response, codes,
    outgoing_channel,
};
use crate::limits::{Held, MemoryBudget};
use crate::protocol::{Changes, Connection, Dispatcher, Heard, ProtocolVersion, Room};
use crate::session::{self, Caller, Calls};

/// The id of a request, `null` for any other message.
fn message_id(message: &Incoming) -> Id {
    match message {
        Incoming::Request(request) => request.id.clone(),
        _ => Id::null(),
    }
}

/// How long calls still running at end of input may take before they are dropped.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The most calls one task runs: past it, the calls read next start as a task of their own,
/// which another worker thread may take.
pub(crate) const MAX_BURST: usize = 16;

/// A call read but not answered on its first poll: its response, unless it was cancelled.
type Answer = Pin<Box<dyn Future<Output = Option<Response>> + Send>>;

/// Serves one client on `input` and `output` until the input ends.
pub(crate) async fn serve<R, W>(dispatcher: Dispatcher, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let changes = dispatcher.changes();
    let told = dispatcher.clone();
    let limits = dispatcher.limits().clone();
    let (outgoing, receiver) = outgoing_channel();
    let backlog = Arc::new(Backlog::default());
    // One room for every listener of the connection: its legacy announcements and its
    // `subscriptions/listen` streams.
    let room = Room::new(limits.max_queued_messages);
    let writer = tokio::spawn({
        let backlog = Arc::clone(&backlog);
        let max = limits.max_queued_messages;
        let room = room.clone();
        async move { codec::write_messages(receiver, &backlog, max, room, output).await }
    });
    let connection = StdioConnection {
        session: Calls::new(dispatcher, ProtocolVersion::LATEST_LEGACY, None).answering(),
        caller: Caller {
            notifications: outgoing,
            auth: None,
            address: None,
            room: Some(room.clone()),
        },
        calls: JoinSet::new(),
        burst: Vec::new(),
        announce_changes: Arc::default(),
        backlog,
        max_queued_messages: limits.max_queued_messages,
        memory: limits.memory.clone(),
    };
    let list_changed = tokio::spawn(announce_changes(
        (changes, told),
        Arc::clone(&connection.announce_changes),
        connection.session.shared_connection(),
        connection.caller.notifications.clone(),
        room,
    ));
    let lines = LineReader::new(BufReader::new(input), limits.max_line_bytes);
    let result = connection.run(lines, limits.max_line_bytes).await;
    list_changed.abort();
    // The writer ends once every sender (the connection's, the calls') is gone.
    writer.await.map_err(io::Error::other)??;
    result
}

/// The one client of a stdio server.
struct StdioConnection {
    session: Calls,
    /// Where every message goes: the writer task.
    caller: Caller,
    calls: JoinSet<()>,
    /// The calls read since the last burst started: they start together, once the reading
    /// could wait.
    burst: Vec<Answer>,
    /// Set once a legacy client has the answer to its `initialize`: from then on it is told of
    /// changes.
    announce_changes: Arc<AtomicBool>,
    /// The messages not yet written.
    backlog: Arc<Backlog>,
    /// How many answers may wait before reading stops.
    max_queued_messages: usize,
    /// The memory the requests in flight may hold together.
    memory: MemoryBudget,
}

impl StdioConnection {
    async fn run(
        mut self,
        mut lines: LineReader<BufReader<impl AsyncRead + Unpin>>,
        max_line_bytes: usize,
    ) -> io::Result<()> {
        loop {
            // The calls read so far start before anything is awaited that could wait: more
            // input (no whole line left), or room while the client does not read (below).
            if !lines.has_line() || self.burst.len() >= MAX_BURST {
                self.start_burst();
            }
            let (backlog, burst, calls) = (&self.backlog, &mut self.burst, &mut self.calls);
            let outgoing = &self.caller.notifications;
            let max_queued_messages = self.max_queued_messages;
            let next = async {
                let mut room = std::pin::pin!(backlog.room_for(max_queued_messages));
                if room.as_mut().now_or_never().is_none() {
                    start_burst(burst, calls, outgoing);
                    room.await;
                }
                lines.next_line().await
            };
            let line = tokio::select! {
                () = backlog.closed() => {
                    // No answer can reach the client: its calls end now, not after a grace.
                    tracing::debug!("the output is closed; no more input is read");
                    self.session.cancel_all();
                    break;
                }
                line = next => line?,
            };
            match line {
                Line::End => break,
                Line::TooLong => self.send(Outgoing::Response(Box::new(
                    ErrorObject::invalid_request(format!(
                        "message longer than {max_line_bytes} bytes; discarded"
                    ))
                    .respond(Id::null()),
                ))),
                Line::Complete(line) => self.take_line(line).await,
            }
        }
        self.start_burst();
        self.drain().await;
        Ok(())
    }

    async fn take_line(&mut self, line: &[u8]) {
        let line = line.trim_ascii();
        if line.is_empty() {
            return;
        }
        if std::str::from_utf8(line).is_err() {
            let error = jsonrpc::unreadable(line, "Parse error: invalid UTF-8");
            return self.send(Outgoing::Response(Box::new(error)));
        }
        // One line is parsed at a time: what a parse costs needs no room of its own here.
        match jsonrpc::parse(line) {
            Ok(message) => self.take(message, self.memory.nothing()).await,
            Err(error) => self.send(Outgoing::Response(Box::new(error))),
        }
    }

    /// Takes one message; `held`, grown to what its parse holds, is kept by a request (or a
    /// batch) as long as it runs. Past the budget a request is refused; notifications (a
    /// cancellation that would free memory) and responses are always taken.
    async fn take(&mut self, message: Incoming, mut held: Held) {
        let needed = message.held_bytes();
        if needed > self.memory.max() {
            let error = ErrorObject::invalid_request(format!(
                "the message would hold {needed} bytes of memory once parsed, more than the {} the server allows (Server::max_request_memory)",
                self.memory.max()
            ));
            return self.send(Outgoing::Response(Box::new(
                error.respond(message_id(&message)),
            )));
        }
        if !held.resize(needed) {
            let error = self.no_memory().respond(message_id(&message));
            return self.send(Outgoing::Response(Box::new(error)));
        }
        match message {
            Incoming::Request(request)
                if matches!(request.method, Method::Initialize | Method::SetLogLevel) =>
            {
                // Answered before the next line is read, so what follows sees the negotiated
                // version and log level.
                let response = self.session.answer_now(request, self.caller.clone()).await;
                self.send(Outgoing::Response(Box::new(response)));
                // Changes are announced only after the answer to `initialize`.
                if self.session.connection().is_initialized() {
                    self.announce_changes.store(true, Ordering::Release);
                }
            }
            Incoming::Request(request) => self.start(request, held).await,
            Incoming::Notification {
                method,
                params,
                cancels,
            } => {
                self.session
                    .notification(&method, params.as_ref(), cancels.as_ref());
            }
            Incoming::Response(reply) => self.session.reply(reply),
            Incoming::Batch(items) => self.take_batch(items, held),
        }
    }

    /// Runs a request concurrently with the next lines. A request that runs no code of the
    /// user's (`ping`, `initialize`, the lists when no middleware or visibility rule wraps them)
    /// is polled once right here: it is answered on that first poll, without the task it would
    /// take to run it apart. A tool call, a resource read, a prompt's get or a completion (and
    /// a listing a middleware or rule wraps: `Dispatcher::runs_user_code`) joins the burst at
    /// once, never polled here, so that a tool that computes before its first `.await` never
    /// stops this loop from reading the next line (a `ping`, or the `notifications/cancelled`
    /// its own `Context::is_cancelled` waits for); so does a request that waits for something.
    async fn start(&mut self, request: Request, held: Held) {
        let runs_user_code = self.session.dispatcher().runs_user_code(&request.method);
        let id = request.id.clone();
        // For the log line of a panic, which no request span may frame.
        let method = (!runs_user_code).then(|| request.method.clone());
        let call = match self.session.start(request, self.caller.clone(), None) {
            Ok(call) => call,
            Err(refused) => return self.send(Outgoing::Response(Box::new(refused))),
        };
        // The memory the request holds is given back once it is answered.
        let mut answer: Answer = Box::pin(async move {
            let answer = call.finish().await;
            drop(held);
            answer
        });
        if !runs_user_code {
            match session::poll_once(&mut answer).await {
                Ok(Poll::Ready(Some(response))) => {
                    return self.send(Outgoing::Response(Box::new(response)));
                }
                Ok(Poll::Ready(None)) => return,
                Err(_) => {
                    let method = method.as_ref().map(Method::as_str);
                    tracing::error!(method, ?id, "handling a request panicked");
                    let error = ErrorObject::new(codes::INTERNAL_ERROR, "Internal error");
                    return self.send(Outgoing::Response(Box::new(error.respond(id))));
                }
                Ok(Poll::Pending) => {}
            }
        }
        self.burst.push(answer);
    }

    /// Starts the calls of the burst as one task.
    fn start_burst(&mut self) {
        start_burst(&mut self.burst, &mut self.calls, &self.caller.notifications);
    }

    /// JSON-RPC batches exist only in protocol 2025-03-26: their requests run as calls of this
    /// connection, and one array answers them.
    fn take_batch(&mut self, items: Vec<Box<RawValue>>, held: Held) {
        let answers = match self.session.batch(items, &self.caller, None) {
            Ok(answers) => answers,
            Err(error) => {
                return self.send(Outgoing::Response(Box::new(error.respond(Id::null()))));
            }
        };
        let outgoing = self.caller.notifications.clone();
        self.calls.spawn(async move {
            let responses = answers.await;
            drop(held);
            if !responses.is_empty() {
                let _ = outgoing.unbounded_send(Outgoing::Batch(responses));
            }
        });
        self.reap();
    }

    /// The refusal of a request past the memory budget.
    fn no_memory(&self) -> ErrorObject {
        ErrorObject::new(
            codes::SERVER_BUSY,
            format!(
                "Server busy: the requests in flight hold the most memory they may ({} bytes, Server::max_request_memory); retry once one has answered",
                self.memory.max()
            ),
        )
    }

    fn send(&self, message: Outgoing) {
        let _ = self.caller.notifications.unbounded_send(message);
    }

    /// Frees finished calls' slots so a long session does not grow.
    fn reap(&mut self) {
        while let Some(ended) = self.calls.try_join_next() {
            log_panic(ended);
        }
    }

    /// End of input: subscriptions close, calls still running get [`SHUTDOWN_GRACE`], then are
    /// dropped.
    async fn drain(mut self) {
        self.session.dispatcher().closing().cancel();
        let finished = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while let Some(ended) = self.calls.join_next().await {
                log_panic(ended);
            }
        })
        .await;
        if finished.is_err() {
            tracing::warn!(
                tasks = self.calls.len(),
                "input closed; dropping calls still running"
            );
            // Cancelled first, so that what a call's future drops sees why.
            self.session.cancel_all();
            self.calls.abort_all();
            while self.calls.join_next().await.is_some() {}
        }
    }
}

/// Starts the calls of `burst` as one task of `calls`, and frees finished tasks' slots.
fn start_burst(burst: &mut Vec<Answer>, calls: &mut JoinSet<()>, outgoing: &OutgoingSender) {
    if burst.is_empty() {
        return;
    }
    calls.spawn(answer_together(std::mem::take(burst), outgoing.clone()));
    while let Some(ended) = calls.try_join_next() {
        log_panic(ended);
    }
}

/// Runs `calls` concurrently, each response sent as soon as it is made. A call that panics
/// outside its tool (whose panics are its call's error result) is the runtime's own fault: it
/// gets no answer, said where the logs go, and the others run on.
async fn answer_together(calls: Vec<Answer>, outgoing: OutgoingSender) {
    let mut calls: FuturesUnordered<_> = calls
        .into_iter()
        .map(|call| AssertUnwindSafe(call).catch_unwind())
        .collect();
    while let Some(answered) = calls.next().await {
        match answered {
            Ok(Some(response)) => {
                let _ = outgoing.unbounded_send(Outgoing::Response(Box::new(response)));
            }
            Ok(None) => {}
            Err(_) => tracing::error!("handling a request panicked; it gets no answer"),
        }
    }
}

/// A call task that panicked outside the tool (whose panics are its call's error result): the
/// runtime's own fault, said where the logs go rather than lost with the task.
fn log_panic(ended: Result<(), tokio::task::JoinError>) {
    if let Err(error) = ended
        && error.is_panic()
    {
        tracing::error!("handling a request panicked; it gets no answer");
    }
}

/// Tells a legacy client that initialized the connection what changes as it hears it (the
/// lists its capabilities declared, the resources it subscribed to), once `announce` is set (a
/// 2026-07-28 client learns of changes only through `subscriptions/listen`). The next change is
/// taken off the channel only once the output has `room` for this one: a client that does not
/// read makes it fall behind the channel and hear what it missed, never the queue grow. The
/// lists the session's own choice of tags changed (`Context::enable_tags`) are told the same way.
async fn announce_changes(
    (mut changes, dispatcher): (Changes, Dispatcher),
    announce: Arc<AtomicBool>,
    connection: Arc<Connection>,
    outgoing: OutgoingSender,
    room: Room,
) {
    loop {
        let heard = tokio::select! {
            heard = changes.next() => match heard {
                Some(heard) => vec![heard],
                None => return,
            },
            own = dispatcher.own_changes(&connection) => {
                own.into_iter().map(Heard::Change).collect()
            }
        };
        if !announce.load(Ordering::Acquire) {
            continue;
        }
        for notification in heard
            .iter()
            .flat_map(|heard| connection.listener().notifications(heard))
        {
            room.take().await;
            if outgoing
                .unbounded_send(Outgoing::Notification(Box::new(notification)))
                .is_err()
            {
                return;
            }
        }
    }
}
