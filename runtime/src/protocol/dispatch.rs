//! The dispatcher: one request in, one response out, in either era.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use futures_util::future::{Abortable, join_all};
use serde_json::{Map, Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

use super::in_flight::InFlight;
use super::jsonrpc::{self, ErrorObject, Incoming, codes};
use super::{BATCH_VERSION, LATEST_LEGACY_VERSION, LEGACY_VERSIONS, MODERN_VERSIONS, meta, shape};
use crate::context::{AuthInfo, Context, ContextParts, LogLevel};
use crate::server::ServerInner;
use crate::sync::lock;

/// Drives the protocol for every transport.
#[derive(Clone)]
pub(crate) struct Dispatcher {
    server: Arc<ServerInner>,
}

/// The state a legacy client builds with `initialize`: one per stdio process or HTTP session.
#[derive(Debug)]
pub(crate) struct Connection {
    /// The version `initialize` negotiated; `None` before it.
    version: Mutex<Option<String>>,
    /// What is assumed before `initialize` (or without it, on HTTP).
    default_version: &'static str,
    /// The level `logging/setLevel` chose.
    log_level: Mutex<LogLevel>,
    /// The session id on HTTP.
    session_id: Option<String>,
    /// What the client declared in `initialize`.
    client_capabilities: Mutex<Value>,
}

impl Connection {
    /// A connection that has not been initialized; requests before `initialize` are answered as
    /// `default_version`.
    pub(crate) fn new(default_version: &'static str, session_id: Option<String>) -> Self {
        Self {
            version: Mutex::new(None),
            default_version,
            log_level: Mutex::new(LogLevel::Debug),
            session_id,
            client_capabilities: Mutex::new(json!({})),
        }
    }

    /// The negotiated version, or the default.
    pub(crate) fn version(&self) -> String {
        lock(&self.version)
            .clone()
            .unwrap_or_else(|| self.default_version.to_owned())
    }

    /// Whether a legacy client opened this connection with `initialize`: only such a client
    /// takes unsolicited notifications (`list_changed`).
    pub(crate) fn is_initialized(&self) -> bool {
        lock(&self.version).is_some()
    }

    fn log_level(&self) -> LogLevel {
        *lock(&self.log_level)
    }
}

/// What one request brings besides its message: where its notifications go, how it is cancelled,
/// and what the transport knows of the caller.
pub(crate) struct Exchange {
    pub(crate) notifications: mpsc::UnboundedSender<Value>,
    pub(crate) cancellation: CancellationToken,
    pub(crate) auth: Option<AuthInfo>,
}

/// The era a request was made in.
enum Era {
    Legacy(String),
    Modern {
        version: String,
        log_level: Option<LogLevel>,
        client_capabilities: Value,
    },
}

impl Era {
    fn version(&self) -> &str {
        match self {
            Self::Legacy(version) | Self::Modern { version, .. } => version,
        }
    }
}

impl Dispatcher {
    pub(crate) fn new(server: Arc<ServerInner>) -> Self {
        Self { server }
    }

    /// Answers one request.
    pub(crate) async fn request(
        &self,
        id: Value,
        method: &str,
        params: Option<Map<String, Value>>,
        connection: &Connection,
        exchange: Exchange,
    ) -> Value {
        let params = params.unwrap_or_default();
        match self.answer(&id, method, params, connection, exchange).await {
            Ok(result) => jsonrpc::success(id, result),
            Err(error) => error.into_response(id),
        }
    }

    /// Answers a JSON-RPC batch, which only protocol 2025-03-26 has. Its requests become calls
    /// of `in_flight` at once (so each can be cancelled as soon as this returns, and its id is
    /// taken while it runs), each with the `exchange` the transport makes for it; the returned
    /// future runs them concurrently, each bounded by `timeout`, and yields the responses in
    /// order, less those of cancelled calls. `Err` when the connection's version has no batches.
    pub(crate) fn batch(
        &self,
        items: Vec<Value>,
        connection: &Arc<Connection>,
        in_flight: &Arc<InFlight>,
        exchange: impl Fn(CancellationToken) -> Exchange,
        timeout: Option<Duration>,
    ) -> Result<impl Future<Output = Vec<Value>> + Send + 'static, ErrorObject> {
        if connection.version() != BATCH_VERSION {
            return Err(ErrorObject::new(
                codes::INVALID_REQUEST,
                format!(
                    "Invalid Request: batches are accepted only at protocol version {BATCH_VERSION}"
                ),
            ));
        }
        let answers: Vec<_> = items
            .into_iter()
            .map(|item| {
                let call = match jsonrpc::classify(item) {
                    // `initialize` sets up the connection; a subscription never answers.
                    Ok(Incoming::Request { id, method, .. })
                        if method == "initialize" || method == "subscriptions/listen" =>
                    {
                        Err(Some(
                            ErrorObject::new(
                                codes::INVALID_REQUEST,
                                format!("Invalid Request: {method} must not be batched"),
                            )
                            .into_response(id),
                        ))
                    }
                    Ok(Incoming::Request { id, method, params }) => match in_flight.start(&id) {
                        Ok((ticket, registration)) => {
                            let exchange = exchange(ticket.cancellation());
                            Ok((id, method, params, ticket, registration, exchange))
                        }
                        Err(error) => Err(Some(error.into_response(id))),
                    },
                    Ok(Incoming::Notification { method, params }) => {
                        self.batched_notification(&method, params.as_ref(), in_flight);
                        Err(None)
                    }
                    Ok(Incoming::Response) => Err(None),
                    Ok(Incoming::Batch(_)) => Err(Some(
                        ErrorObject::new(
                            codes::INVALID_REQUEST,
                            "Invalid Request: a batch cannot hold a batch",
                        )
                        .into_response(Value::Null),
                    )),
                    Err(error) => Err(Some(error)),
                };
                let (dispatcher, connection) = (self.clone(), Arc::clone(connection));
                async move {
                    let (id, method, params, ticket, registration, exchange) = match call {
                        Ok(call) => call,
                        Err(answer) => return answer,
                    };
                    let call =
                        dispatcher.request(id.clone(), &method, params, &connection, exchange);
                    let call = with_timeout(call, timeout, id, ticket.cancellation());
                    match Abortable::new(call, registration).await {
                        Ok(response) if ticket.complete() => Some(response),
                        _ => None,
                    }
                }
            })
            .collect();
        Ok(async move { join_all(answers).await.into_iter().flatten().collect() })
    }

    /// A notification inside a batch: a cancellation applies to the connection's calls.
    fn batched_notification(
        &self,
        method: &str,
        params: Option<&Map<String, Value>>,
        in_flight: &InFlight,
    ) {
        match params.and_then(|params| params.get("requestId")) {
            Some(request_id) if method == "notifications/cancelled" => {
                in_flight.cancel(request_id);
            }
            _ => self.notification(method, params),
        }
    }

    /// Takes a notification (`notifications/cancelled` is the transport's business).
    #[allow(
        clippy::unused_self,
        reason = "notifications the server acts on will need it"
    )]
    pub(crate) fn notification(&self, method: &str, _params: Option<&Map<String, Value>>) {
        tracing::debug!(method, "notification");
    }

    async fn answer(
        &self,
        id: &Value,
        method: &str,
        params: Map<String, Value>,
        connection: &Connection,
        exchange: Exchange,
    ) -> Result<Value, ErrorObject> {
        let era = era_of(&params, connection)?;
        let mut result = match (&era, method) {
            (Era::Legacy(_), "initialize") => Ok(self.initialize(&params, connection)),
            (Era::Legacy(_), "ping") => Ok(json!({})),
            (Era::Legacy(_), "logging/setLevel") => set_level(&params, connection),
            (Era::Legacy(_), "server/discover") => Err(ErrorObject::invalid_params(format!(
                "server/discover requires `_meta.{}`",
                meta::PROTOCOL_VERSION
            ))),
            (Era::Modern { .. }, "server/discover") => Ok(self.discover()),
            (Era::Modern { .. }, "subscriptions/listen") => {
                self.listen(id, &params, exchange).await
            }
            (_, "tools/list") => self.list_tools(&params, &era),
            (_, "tools/call") => self.call_tool(id, params, &era, connection, exchange).await,
            _ => Err(ErrorObject::new(
                codes::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        }?;
        if let (Era::Modern { .. }, Value::Object(result)) = (&era, &mut result) {
            result.insert("resultType".into(), json!("complete"));
            let meta = result.entry("_meta").or_insert_with(|| json!({}));
            meta[meta::SERVER_INFO] = self.server.info.clone();
        }
        Ok(result)
    }

    fn initialize(&self, params: &Map<String, Value>, connection: &Connection) -> Value {
        let requested = params.get("protocolVersion").and_then(Value::as_str);
        let version = requested
            .filter(|version| LEGACY_VERSIONS.contains(version))
            .unwrap_or(LATEST_LEGACY_VERSION);
        *lock(&connection.version) = Some(version.to_owned());
        *lock(&connection.client_capabilities) = params
            .get("capabilities")
            .cloned()
            .unwrap_or_else(|| json!({}));
        tracing::debug!(requested, negotiated = version, "initialize");
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": shape::server_info(&self.server.info, version),
        });
        if let Some(instructions) = &self.server.instructions {
            result["instructions"] = json!(instructions);
        }
        result
    }

    fn discover(&self) -> Value {
        let mut result = json!({
            "supportedVersions": MODERN_VERSIONS,
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "ttlMs": self.server.ttl_ms,
            "cacheScope": "public",
        });
        if let Some(instructions) = &self.server.instructions {
            result["instructions"] = json!(instructions);
        }
        result
    }

    /// `subscriptions/listen` (2026-07-28): acknowledges the notifications it will send (of those
    /// requested, only `toolsListChanged` exists here), sends `notifications/tools/list_changed`
    /// on each change of the tool set, each tagged with the stream's subscription id (the
    /// request's id), and answers only when the server shuts down. The client ends it by
    /// cancelling the request (on HTTP, by closing the stream): then nothing more is sent.
    async fn listen(
        &self,
        id: &Value,
        params: &Map<String, Value>,
        exchange: Exchange,
    ) -> Result<Value, ErrorObject> {
        let Some(Value::Object(requested)) = params.get("notifications") else {
            return Err(ErrorObject::invalid_params(
                "subscriptions/listen requires `notifications`, an object naming what to send",
            ));
        };
        let tools = requested.get("toolsListChanged") == Some(&Value::Bool(true));
        let tagged = json!({meta::SUBSCRIPTION_ID: id});
        // Subscribed before the acknowledgement, so no change after it goes unannounced.
        let mut changes = self.server.changes.subscribe();
        let honored = if tools {
            json!({"toolsListChanged": true})
        } else {
            json!({})
        };
        let notify = |method: &str, mut params: Value| {
            // Nothing more is sent for a cancelled request.
            if exchange.cancellation.is_cancelled() {
                return;
            }
            params["_meta"] = tagged.clone();
            let _ = exchange
                .notifications
                .send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
        };
        notify(
            "notifications/subscriptions/acknowledged",
            json!({"notifications": honored}),
        );
        let closing = &self.server.closing;
        loop {
            tokio::select! {
                change = changes.recv(), if tools => match change {
                    Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        notify("notifications/tools/list_changed", json!({}));
                    }
                    // No change can come any more (the server state holds a sender, so this
                    // does not happen): close the stream as at shutdown.
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                () = closing.cancelled() => break,
                () = exchange.cancellation.cancelled() => break,
            }
        }
        Ok(json!({"_meta": tagged}))
    }

    fn list_tools(&self, params: &Map<String, Value>, era: &Era) -> Result<Value, ErrorObject> {
        let version = era.version();
        let definitions = self.server.tools.definitions();
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(cursor)) => {
                let after = decode_cursor(cursor)
                    .ok_or_else(|| ErrorObject::invalid_params("Invalid cursor"))?;
                definitions.partition_point(|tool| tool.name <= after)
            }
            Some(_) => return Err(ErrorObject::invalid_params("Invalid cursor")),
        };
        let end = definitions
            .len()
            .min(start.saturating_add(self.server.page_size));
        let page = &definitions[start..end];
        let mut result = json!({"tools": page.iter().map(|tool| shape::tool(tool, version)).collect::<Vec<_>>()});
        if end < definitions.len() {
            let last = page.last().map_or("", |tool| tool.name.as_str());
            result["nextCursor"] = json!(URL_SAFE_NO_PAD.encode(last));
        }
        if let Era::Modern { .. } = era {
            result["ttlMs"] = json!(self.server.ttl_ms);
            result["cacheScope"] = json!("public");
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        id: &Value,
        mut params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        exchange: Exchange,
    ) -> Result<Value, ErrorObject> {
        let Some(Value::String(name)) = params.remove("name") else {
            return Err(ErrorObject::invalid_params(
                "tools/call requires a string `name`",
            ));
        };
        let arguments = match params.remove("arguments") {
            None | Some(Value::Null) => None,
            Some(Value::Object(arguments)) => Some(arguments),
            Some(_) => return Err(ErrorObject::invalid_params("`arguments` must be an object")),
        };
        let tool = self
            .server
            .tools
            .get(&name)
            .ok_or_else(|| ErrorObject::invalid_params(format!("Unknown tool: {name}")))?;
        let (log_level, client_capabilities) = match era {
            Era::Legacy(_) => (
                Some(connection.log_level()),
                lock(&connection.client_capabilities).clone(),
            ),
            Era::Modern {
                log_level,
                client_capabilities,
                ..
            } => (*log_level, client_capabilities.clone()),
        };
        if let Some(missing) = tool.missing_capabilities(&client_capabilities) {
            let names: Vec<&str> = missing.keys().map(String::as_str).collect();
            return Err(ErrorObject::new(
                codes::MISSING_CLIENT_CAPABILITY,
                format!("Missing required client capability: {}", names.join(", ")),
            )
            .with_data(json!({"requiredCapabilities": missing})));
        }
        let context = Context::new(ContextParts {
            request_id: id.clone(),
            progress_token: params
                .get("_meta")
                .and_then(|meta| meta.get("progressToken"))
                .cloned(),
            progress_messages: shape::progress_has_message(era.version()),
            log_level,
            notifications: exchange.notifications,
            cancellation: exchange.cancellation,
            session_id: connection.session_id.clone(),
            auth: exchange.auth,
        });
        let result = tool.call(arguments, context).await;
        Ok(shape::call_result(result, era.version()))
    }
}

/// Bounds a call by `timeout`: past it, the call's context is cancelled (as when the client
/// cancels), its future dropped, and the answer is an error.
pub(crate) async fn with_timeout(
    call: impl Future<Output = Value>,
    timeout: Option<Duration>,
    id: Value,
    cancellation: CancellationToken,
) -> Value {
    let Some(timeout) = timeout else {
        return call.await;
    };
    let mut call = std::pin::pin!(call);
    if let Ok(response) = tokio::time::timeout(timeout, &mut call).await {
        return response;
    }
    cancellation.cancel();
    ErrorObject::new(
        codes::INTERNAL_ERROR,
        format!("Request timed out after {timeout:?}"),
    )
    .into_response(id)
}

/// The `_meta` of a request that claims the modern era (it names a protocol version), if it
/// does.
fn modern_meta(params: Option<&Map<String, Value>>) -> Option<&Map<String, Value>> {
    params?
        .get("_meta")
        .and_then(Value::as_object)
        .filter(|request_meta| request_meta.contains_key(meta::PROTOCOL_VERSION))
}

/// Whether a request claims the modern era: its `_meta` names a protocol version.
pub(crate) fn claims_modern(params: Option<&Map<String, Value>>) -> bool {
    modern_meta(params).is_some()
}

/// What is wrong with the `_meta` envelope of a request that claims the modern era, if anything
/// (the HTTP transport answers such errors with `400`).
pub(crate) fn envelope_error(params: Option<&Map<String, Value>>) -> Option<ErrorObject> {
    modern_meta(params).and_then(|request_meta| modern_era(request_meta).err())
}

/// Decides the era from the request itself: modern when `_meta` names a protocol version,
/// otherwise the legacy connection's.
fn era_of(params: &Map<String, Value>, connection: &Connection) -> Result<Era, ErrorObject> {
    match modern_meta(Some(params)) {
        Some(request_meta) => modern_era(request_meta),
        None => Ok(Era::Legacy(connection.version())),
    }
}

/// Checks a modern request's envelope: the version first (a client falls back to another
/// version on -32022 alone), then the required capabilities, then the optional log level.
fn modern_era(request_meta: &Map<String, Value>) -> Result<Era, ErrorObject> {
    let version = &request_meta[meta::PROTOCOL_VERSION];
    let Some(version) = version.as_str() else {
        return Err(ErrorObject::invalid_params(format!(
            "`_meta.{}` must be a string",
            meta::PROTOCOL_VERSION
        )));
    };
    if !MODERN_VERSIONS.contains(&version) {
        return Err(ErrorObject::new(
            codes::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(json!({"supported": MODERN_VERSIONS, "requested": version})));
    }
    let Some(client_capabilities) = request_meta
        .get(meta::CLIENT_CAPABILITIES)
        .filter(|c| c.is_object())
    else {
        return Err(ErrorObject::invalid_params(format!(
            "missing required `_meta.{}`",
            meta::CLIENT_CAPABILITIES
        )));
    };
    let log_level = request_meta
        .get(meta::LOG_LEVEL)
        .map(parse_log_level)
        .transpose()?;
    Ok(Era::Modern {
        version: version.to_owned(),
        log_level,
        client_capabilities: client_capabilities.clone(),
    })
}

fn parse_log_level(level: &Value) -> Result<LogLevel, ErrorObject> {
    serde_json::from_value(level.clone())
        .map_err(|_| ErrorObject::invalid_params(format!("Invalid log level: {level}")))
}

fn set_level(params: &Map<String, Value>, connection: &Connection) -> Result<Value, ErrorObject> {
    let level = parse_log_level(params.get("level").unwrap_or(&Value::Null))?;
    *lock(&connection.log_level) = level;
    Ok(json!({}))
}

fn decode_cursor(cursor: &str) -> Option<String> {
    String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()
}
