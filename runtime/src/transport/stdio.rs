//! stdio: newline-delimited JSON-RPC on stdin and stdout; logs go to stderr.
//!
//! Requests run concurrently (a slow tool never holds up a `ping`), every message is written whole
//! in one write, a cancelled call's future is dropped without a response, and at end of input the
//! `subscriptions/listen` calls answer and the calls still running get [`SHUTDOWN_GRACE`] to
//! finish.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::future::Abortable;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader,
};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::protocol::{
    self, Connection, Dispatcher, ErrorObject, Exchange, InFlight, Incoming, codes,
};
use crate::server::Server;

/// How long calls still running at end of input may take before they are dropped.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

impl Server {
    /// Serves over stdin and stdout until stdin closes; then in-flight calls get a few seconds to
    /// finish. Logging never touches stdout (see [`Server::serve_io`] for other streams).
    pub async fn serve_stdio(self) -> io::Result<()> {
        crate::transport::init_stderr_logging();
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves the stdio framing (one JSON-RPC message a line) over any pair of streams: a socket,
    /// a pipe, an in-memory duplex in tests.
    pub async fn serve_io<R, W>(self, input: R, output: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let max_line_bytes = self.max_line_bytes;
        let changes = self.changes_subscription();
        let closing = CancellationToken::new();
        let dispatcher = self
            .into_dispatcher(closing.clone())
            .map_err(io::Error::other)?;
        let (outgoing, receiver) = mpsc::unbounded_channel();
        let writer = tokio::spawn(write_messages(receiver, output));
        let session = Session {
            dispatcher,
            connection: Arc::new(Connection::new(Server::DEFAULT_VERSION, None)),
            outgoing,
            in_flight: Arc::default(),
            calls: JoinSet::new(),
            announce_changes: Arc::default(),
            closing,
        };
        let list_changed = tokio::spawn(forward_list_changed(
            changes,
            Arc::clone(&session.announce_changes),
            session.outgoing.clone(),
        ));
        let result = session.run(BufReader::new(input), max_line_bytes).await;
        list_changed.abort();
        // The writer ends once every sender (the session's, the calls') is gone.
        writer.await.map_err(io::Error::other)??;
        result
    }
}

struct Session {
    dispatcher: Dispatcher,
    connection: Arc<Connection>,
    outgoing: mpsc::UnboundedSender<Value>,
    in_flight: Arc<InFlight>,
    calls: JoinSet<()>,
    /// Set once a legacy client has the answer to its `initialize`: from then on it is told of
    /// tool changes.
    announce_changes: Arc<AtomicBool>,
    /// Cancelled at end of input: `subscriptions/listen` calls then answer and end.
    closing: CancellationToken,
}

impl Session {
    async fn run(
        mut self,
        mut input: impl AsyncBufRead + Unpin,
        max_line_bytes: usize,
    ) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            match read_line(&mut input, &mut line, max_line_bytes).await? {
                Line::End => break,
                Line::TooLong => self.send(
                    ErrorObject::new(
                        codes::INVALID_REQUEST,
                        format!(
                            "Invalid Request: message longer than {max_line_bytes} bytes; discarded"
                        ),
                    )
                    .into_response(Value::Null),
                ),
                Line::Complete => self.take_line(&line).await,
            }
        }
        self.drain().await;
        Ok(())
    }

    async fn take_line(&mut self, line: &[u8]) {
        let line = line.trim_ascii();
        if line.is_empty() {
            return;
        }
        if std::str::from_utf8(line).is_err() {
            self.send(
                ErrorObject::new(codes::PARSE_ERROR, "Parse error: invalid UTF-8")
                    .into_response(Value::Null),
            );
            return;
        }
        match protocol::parse(line) {
            Ok(Incoming::Batch(items)) => self.take_batch(items),
            Ok(message) => self.take(message).await,
            Err(error) => self.send(error),
        }
    }

    async fn take(&mut self, message: Incoming) {
        match message {
            Incoming::Request { id, method, params }
                if method == "initialize" || method == "logging/setLevel" =>
            {
                // Answered before the next line is read, so what follows sees the negotiated
                // version and log level.
                let exchange = self.exchange(CancellationToken::new());
                let response = self
                    .dispatcher
                    .request(id, &method, params, &self.connection, exchange)
                    .await;
                self.send(response);
                // Tool changes are announced only after the answer to `initialize`.
                if self.connection.is_initialized() {
                    self.announce_changes.store(true, Ordering::Release);
                }
            }
            Incoming::Request { id, method, params } => {
                // Ids identify calls (for cancellation, for responses): one in flight at a time.
                let (ticket, registration) = match self.in_flight.start(&id) {
                    Ok(started) => started,
                    Err(error) => return self.send(error.into_response(id)),
                };
                let exchange = self.exchange(ticket.cancellation());
                let (dispatcher, connection) =
                    (self.dispatcher.clone(), Arc::clone(&self.connection));
                let outgoing = self.outgoing.clone();
                self.calls.spawn(async move {
                    let call = dispatcher.request(id, &method, params, &connection, exchange);
                    // A cancelled call is dropped at its next await and answers nothing, even if
                    // it finished before the cancel could drop it.
                    if let Ok(response) = Abortable::new(call, registration).await
                        && ticket.complete()
                    {
                        let _ = outgoing.send(response);
                    }
                });
                self.reap();
            }
            Incoming::Notification { method, params } if method == "notifications/cancelled" => {
                let request_id = params.as_ref().and_then(|params| params.get("requestId"));
                if let Some(request_id) = request_id
                    && self.in_flight.cancel(request_id)
                {
                    tracing::debug!(%request_id, "request cancelled");
                }
            }
            Incoming::Notification { method, params } => {
                self.dispatcher.notification(&method, params.as_ref());
            }
            Incoming::Response => {}
            Incoming::Batch(items) => self.take_batch(items),
        }
    }

    /// JSON-RPC batches exist only in protocol 2025-03-26: their requests run as calls of this
    /// connection, and one array answers them.
    fn take_batch(&mut self, items: Vec<Value>) {
        let outgoing = self.outgoing.clone();
        let exchange = |cancellation| Exchange {
            notifications: outgoing.clone(),
            cancellation,
            auth: None,
        };
        let answers =
            self.dispatcher
                .batch(items, &self.connection, &self.in_flight, exchange, None);
        let answers = match answers {
            Ok(answers) => answers,
            Err(error) => return self.send(error.into_response(Value::Null)),
        };
        self.calls.spawn(async move {
            let responses = answers.await;
            if !responses.is_empty() {
                let _ = outgoing.send(Value::Array(responses));
            }
        });
        self.reap();
    }

    fn exchange(&self, cancellation: CancellationToken) -> Exchange {
        Exchange {
            notifications: self.outgoing.clone(),
            cancellation,
            auth: None,
        }
    }

    fn send(&self, message: Value) {
        let _ = self.outgoing.send(message);
    }

    /// Frees finished calls' slots so a long session does not grow.
    fn reap(&mut self) {
        while self.calls.try_join_next().is_some() {}
    }

    /// End of input: subscriptions close, calls still running get [`SHUTDOWN_GRACE`], then are
    /// dropped.
    async fn drain(mut self) {
        self.closing.cancel();
        let finished = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while self.calls.join_next().await.is_some() {}
        })
        .await;
        if finished.is_err() {
            tracing::warn!(
                calls = self.calls.len(),
                "input closed; dropping calls still running"
            );
            self.calls.abort_all();
        }
    }
}

enum Line {
    Complete,
    TooLong,
    End,
}

/// Reads one line (without its newline) into `line`, or discards it whole when it exceeds
/// `max` bytes.
async fn read_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, used, done) = match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        input.consume(used);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

/// Writes each message as one line, in one write. A client that closed its end of the output
/// has left: that ends the writing, and is no error.
async fn write_messages(
    mut messages: mpsc::UnboundedReceiver<Value>,
    mut output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    while let Some(message) = messages.recv().await {
        let mut bytes = serde_json::to_vec(&message)?;
        bytes.push(b'\n');
        let written = match output.write_all(&bytes).await {
            Ok(()) => output.flush().await,
            Err(error) => Err(error),
        };
        match written {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                tracing::debug!("the client closed its input; nothing more is written");
                return Ok(());
            }
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Tells a legacy client that initialized the connection when the tool set changes, once `announce`
/// is set (a 2026-07-28 client learns of changes only through `subscriptions/listen`).
async fn forward_list_changed(
    mut changes: broadcast::Receiver<()>,
    announce: Arc<AtomicBool>,
    outgoing: mpsc::UnboundedSender<Value>,
) {
    loop {
        match changes.recv().await {
            Ok(()) | Err(broadcast::error::RecvError::Lagged(_))
                if !announce.load(Ordering::Acquire) => {}
            Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                let notification =
                    json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
                if outgoing.send(notification).is_err() {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
