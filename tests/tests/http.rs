//! Streamable HTTP on the wire, as a client sees it: legacy sessions and their status codes, the
//! 2026-07-28 headers and errors, request-scoped SSE streams, cancellation, the DNS-rebinding and
//! resource guards, bearer auth with its RFC 9728 metadata, and mounting the router in an app.
//!
//! Most tests drive `Server::into_router()` in process (`tower::ServiceExt::oneshot`); the ones
//! that depend on a real connection (closing a stream, `serve_http`) use a socket on 127.0.0.1.
//! Every wait is bounded by [`TIMEOUT`].
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, header};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use futures_util::StreamExt as _;
use mcp_toolbelt::{
    AuthInfo, CallToolResult, Context, HttpConfig, LogLevel, ProtectedResourceMetadata, Server,
    Tool, tool,
};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tower::ServiceExt as _;

/// The longest any single wait in these tests may take.
const TIMEOUT: Duration = Duration::from_secs(10);
const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

// ---- the tools -----------------------------------------------------------------------------

/// Counts to three, reporting progress at each step
#[tool]
async fn count(context: &Context) -> String {
    for step in 1..=3 {
        context.progress(f64::from(step), Some(3.0), Some(&format!("step {step}")));
    }
    "counted to 3".into()
}

/// Logs one message at info level, then answers
#[tool]
async fn chatty(context: &Context) -> String {
    context.log(LogLevel::Info, "about to answer");
    "said it".into()
}

/// Says whom the caller's bearer token was issued to
#[tool]
async fn whoami(context: &Context) -> String {
    context.auth().map_or_else(
        || "anonymous".into(),
        |auth| format!("{} {:?}", auth.client_id, auth.scopes),
    )
}

/// Reports progress once, then waits `seconds` unless cancelled; how it ended is recorded under `tag`
#[tool]
async fn slow(
    /// Names this call in the record of how calls ended
    tag: String,
    /// How long to wait
    seconds: f64,
    context: &Context,
) -> String {
    let mut ending = Ending::start(tag, context.clone());
    context.progress(0.0, None, Some("started"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => {}
        () = context.cancelled() => {}
    }
    ending.completed = true;
    "finished".into()
}

/// How each `slow` call ended, by tag: `started` while it runs; then `finished` when it ran to its
/// end, `cancelled` when its context was cancelled (whether it saw that at an `.await` or its
/// future was dropped), `dropped` when its future was dropped without a cancellation.
static ENDINGS: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());

fn record(tag: &str, what: &'static str) {
    ENDINGS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(tag.to_owned(), what);
}

struct Ending {
    tag: String,
    context: Context,
    completed: bool,
}

impl Ending {
    fn start(tag: String, context: Context) -> Self {
        record(&tag, "started");
        Self {
            tag,
            context,
            completed: false,
        }
    }
}

impl Drop for Ending {
    fn drop(&mut self) {
        let what = if self.context.is_cancelled() {
            "cancelled"
        } else if self.completed {
            "finished"
        } else {
            "dropped"
        };
        record(&self.tag, what);
    }
}

/// Waits (bounded) until the `slow` call tagged `tag` is in state `wanted`, or with `None`, until
/// it has ended, and returns the state.
async fn ending(tag: &str, wanted: Option<&str>) -> &'static str {
    let wait = async {
        loop {
            let now = ENDINGS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(tag)
                .copied();
            match (now, wanted) {
                (Some(now), Some(wanted)) if now == wanted => return now,
                (Some(now), None) if now != "started" => return now,
                _ => tokio::time::sleep(Duration::from_millis(10)).await,
            }
        }
    };
    tokio::time::timeout(TIMEOUT, wait)
        .await
        .unwrap_or_else(|_| panic!("the slow call {tag} did not get to {wanted:?}"))
}

// ---- in-process requests -------------------------------------------------------------------

fn server() -> Server {
    Server::new("http-tests", "1.0.0")
}

fn router(config: HttpConfig) -> Router {
    server()
        .http_config(config)
        .into_router()
        .expect("the tools can be served")
}

/// One HTTP response, its body read whole.
#[derive(Debug)]
struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(name)
            .map(|value| value.to_str().expect("an ASCII header"))
    }

    fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or("")
    }

    /// The JSON messages of an SSE body, in order.
    fn events(&self) -> Vec<Value> {
        assert_eq!(self.content_type(), "text/event-stream", "{self:?}");
        sse_messages(&String::from_utf8_lossy(&self.body))
    }
}

/// The `data` of each complete event in `text`, parsed as JSON (comments and keep-alives skipped).
fn sse_messages(text: &str) -> Vec<Value> {
    let text = text.replace("\r\n", "\n");
    let mut complete: Vec<&str> = text.split("\n\n").collect();
    complete.pop(); // what follows the last blank line is not a whole event yet
    complete
        .into_iter()
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect();
            (!data.is_empty())
                .then(|| serde_json::from_str(&data.join("\n")).expect("SSE data is JSON"))
        })
        .collect()
}

/// Sends `request` to `router` and reads the whole response.
async fn send(router: &Router, request: Request<Body>) -> Reply {
    let exchange = async {
        let response = router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, usize::MAX)
            .await
            .expect("the body can be read");
        Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .expect("the response came in time")
}

/// A POST of `body` as a well-behaved local client sends it, plus `headers`.
fn post(body: &Value, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::post("/")
        .header(header::HOST, "localhost:3000")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
        .body(Body::from(body.to_string()))
        .expect("a valid request")
}

/// A GET or DELETE of the endpoint, with `headers`.
fn bodiless(method: Method, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri("/")
        .header(header::HOST, "localhost:3000");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).expect("a valid request")
}

fn initialize_body() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {},
        "clientInfo": {"name": "http-tests", "version": "1.0.0"},
    }})
}

/// A legacy `tools/call`; `progress_token` asks for progress.
fn legacy_call(id: u64, name: &str, arguments: &Value, progress_token: Option<&str>) -> Value {
    let mut params = json!({"name": name, "arguments": arguments});
    if let Some(token) = progress_token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Opens a legacy session (initialize, then initialized) and returns its id.
async fn open_session(router: &Router) -> String {
    let reply = send(router, post(&initialize_body(), &[])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("initialize opens a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = send(router, post(&initialized, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    session
}

/// The headers of a request in legacy session `session`.
fn in_session(session: &str) -> [(&str, &str); 2] {
    [
        ("mcp-session-id", session),
        ("mcp-protocol-version", LEGACY),
    ]
}

/// The text of the first content block of a JSON-RPC response's result.
fn result_text(response: &Value) -> &str {
    response
        .pointer("/result/content/0/text")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no text result: {response}"))
}

// ---- legacy era: sessions ------------------------------------------------------------------

#[tokio::test]
async fn initialize_answers_json_and_opens_a_fresh_session_each_time() {
    let router = router(HttpConfig::new());
    let first = send(&router, post(&initialize_body(), &[])).await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(
        first.content_type().starts_with("application/json"),
        "{first:?}"
    );
    let body = first.json();
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["protocolVersion"], LEGACY);
    assert_eq!(body["result"]["serverInfo"]["name"], "http-tests");

    let second = send(&router, post(&initialize_body(), &[])).await;
    let ids = [
        first.header("mcp-session-id").unwrap(),
        second.header("mcp-session-id").unwrap(),
    ];
    for id in ids {
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
    }
    assert_ne!(ids[0], ids[1]);
}

#[tokio::test]
async fn a_request_after_initialize_needs_a_known_session() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});

    let reply = send(&router, post(&list, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.json()["result"]["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );

    let reply = send(&router, post(&list, &[("mcp-protocol-version", LEGACY)])).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Mcp-Session-Id")
    );

    let unknown = "0123456789abcdef0123456789abcdef";
    let reply = send(&router, post(&list, &in_session(unknown))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
}

#[tokio::test]
async fn delete_ends_the_session() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;

    let reply = send(&router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let reply = send(&router, post(&list, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let reply = send(&router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
}

#[tokio::test]
async fn a_notification_is_accepted_with_an_empty_body() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"});
    let reply = send(&router, post(&notification, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty(), "{reply:?}");
}

#[tokio::test]
async fn an_unsupported_protocol_version_header_is_a_bad_request() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let reply = send(
        &router,
        post(
            &list,
            &[
                ("mcp-session-id", &session),
                ("mcp-protocol-version", "1999-01-01"),
            ],
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("1999-01-01")
    );

    // A value that is not even text is no version either (not taken for a missing header).
    let mut request = post(&list, &[("mcp-session-id", &session)]);
    request.headers_mut().insert(
        "mcp-protocol-version",
        HeaderValue::from_bytes(b"2025-\xff").unwrap(),
    );
    let reply = send(&router, request).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
}

// ---- legacy era: responses as JSON or SSE --------------------------------------------------

#[tokio::test]
async fn progress_makes_the_answer_an_event_stream_of_notifications_then_the_result() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let reply = send(
        &router,
        post(
            &legacy_call(7, "count", &json!({}), Some("tok-7")),
            &in_session(&session),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let events = reply.events();
    assert_eq!(events.len(), 4, "{events:#?}");
    for (step, event) in [1.0, 2.0, 3.0].into_iter().zip(&events) {
        assert_eq!(event["method"], "notifications/progress");
        assert_eq!(event["params"]["progressToken"], "tok-7");
        assert_eq!(event["params"]["progress"], json!(step));
        assert_eq!(event["params"]["total"], json!(3.0));
    }
    assert_eq!(events[3]["id"], 7);
    assert_eq!(result_text(&events[3]), "counted to 3");
}

#[tokio::test]
async fn without_a_progress_token_the_answer_is_plain_json() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let reply = send(
        &router,
        post(
            &legacy_call(8, "count", &json!({}), None),
            &in_session(&session),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.content_type().starts_with("application/json"),
        "{reply:?}"
    );
    assert_eq!(result_text(&reply.json()), "counted to 3");
}

#[tokio::test]
async fn a_log_message_comes_before_the_result_unless_the_level_filters_it() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let reply = send(
        &router,
        post(
            &legacy_call(9, "chatty", &json!({}), None),
            &in_session(&session),
        ),
    )
    .await;
    let events = reply.events();
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(events[0]["method"], "notifications/message");
    assert_eq!(events[0]["params"]["level"], "info");
    assert_eq!(events[0]["params"]["data"], "about to answer");
    assert_eq!(result_text(&events[1]), "said it");

    let set_level = json!({"jsonrpc": "2.0", "id": 10, "method": "logging/setLevel", "params": {"level": "error"}});
    assert_eq!(
        send(&router, post(&set_level, &in_session(&session)))
            .await
            .json()["result"],
        json!({})
    );
    let reply = send(
        &router,
        post(
            &legacy_call(11, "chatty", &json!({}), None),
            &in_session(&session),
        ),
    )
    .await;
    assert!(
        reply.content_type().starts_with("application/json"),
        "{reply:?}"
    );
    assert_eq!(result_text(&reply.json()), "said it");
}

#[tokio::test]
async fn a_client_that_accepts_only_json_gets_the_result_without_the_notifications() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let mut request = post(
        &legacy_call(12, "count", &json!({}), Some("tok-12")),
        &in_session(&session),
    );
    request
        .headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let reply = send(&router, request).await;
    assert!(
        reply.content_type().starts_with("application/json"),
        "{reply:?}"
    );
    assert_eq!(result_text(&reply.json()), "counted to 3");
}

/// A tool that reports progress, spawns a task holding a clone of its context, and returns. The
/// task waits for `go`, sends progress and a log message, reports whether each was sent, and
/// keeps its clone of the context until the test ends.
fn leaves_a_task_behind() -> (Tool, Arc<Notify>, mpsc::UnboundedReceiver<[bool; 2]>) {
    let go = Arc::new(Notify::new());
    let (report, reports) = mpsc::unbounded_channel();
    let tool = Tool::new(
        "leaves_a_task",
        "Leaves a task behind that holds its context",
        json!({"type": "object"}),
        {
            let go = Arc::clone(&go);
            move |_, context: Context| {
                context.progress(1.0, None, Some("working"));
                let (go, report) = (Arc::clone(&go), report.clone());
                tokio::spawn(async move {
                    go.notified().await;
                    let _ = report.send([
                        context.progress(2.0, None, Some("too late")),
                        context.log(LogLevel::Error, "too late"),
                    ]);
                    let _held_until_the_test_ends = context;
                    std::future::pending::<()>().await;
                });
                async { CallToolResult::text("returned") }
            }
        },
    )
    .unwrap();
    (tool, go, reports)
}

#[tokio::test]
async fn a_request_stream_ends_with_its_response_though_a_task_holds_the_context() {
    let (tool, go, mut reports) = leaves_a_task_behind();
    let server = server();
    server.add_tool(tool).unwrap();
    let router = server.into_router().unwrap();
    let meta = json!({"progressToken": "p", "io.modelcontextprotocol/logLevel": "debug"});
    let request = post(
        &modern_call(1, "leaves_a_task", &json!({}), &meta),
        &modern_headers("tools/call", Some("leaves_a_task")),
    );
    let response = tokio::time::timeout(TIMEOUT, router.oneshot(request))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut stream = response.into_body().into_data_stream();
    let mut text = String::new();
    tokio::time::timeout(TIMEOUT, async {
        while !sse_messages(&text)
            .iter()
            .any(|message| message.get("id").is_some())
        {
            let chunk = stream.next().await.expect("the stream stays open").unwrap();
            text.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    })
    .await
    .expect("the response came in time");
    let messages = sse_messages(&text);
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert_eq!(messages[0]["params"]["message"], "working");
    assert_eq!(result_text(&messages[1]), "returned");

    go.notify_one();
    let sent = tokio::time::timeout(TIMEOUT, reports.recv())
        .await
        .expect("the task tried in time")
        .unwrap();
    let next = tokio::time::timeout(TIMEOUT, stream.next()).await;
    assert!(
        matches!(next, Ok(None)),
        "the stream goes on after the response: {next:?}"
    );
    assert_eq!(sent, [false, false], "progress, log");
}

// ---- legacy era: the GET stream ------------------------------------------------------------

#[tokio::test]
async fn get_opens_one_event_stream_per_session_which_announces_tool_changes() {
    let server = server();
    let handle = server.clone();
    let router = server.into_router().unwrap();
    let session = open_session(&router).await;
    let mut headers = in_session(&session).to_vec();
    headers.push(("accept", "text/event-stream"));

    let response = tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(bodiless(Method::GET, &headers)),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );

    let second = send(&router, bodiless(Method::GET, &headers)).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{second:?}");

    let tool = Tool::new(
        "added-later",
        "Added at run time",
        json!({"type": "object", "properties": {}}),
        |_, _| async { CallToolResult::text("here") },
    )
    .unwrap();
    handle.add_tool(tool).unwrap();
    let mut stream = response.into_body().into_data_stream();
    let mut text = String::new();
    let messages = tokio::time::timeout(TIMEOUT, async {
        loop {
            let chunk = stream.next().await.expect("the stream stays open").unwrap();
            text.push_str(std::str::from_utf8(&chunk).unwrap());
            let messages = sse_messages(&text);
            if !messages.is_empty() {
                return messages;
            }
        }
    })
    .await
    .expect("list_changed came in time");
    assert_eq!(
        messages,
        [json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})]
    );

    drop(stream);
    let again = tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(bodiless(Method::GET, &headers)),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        again.status(),
        StatusCode::OK,
        "closing the stream frees the session's slot"
    );
}

#[tokio::test]
async fn an_idle_get_stream_stays_open() {
    // Nothing changes, and the stream stays open all the same (clients reopen a stream that
    // ends: the SDKs' do so every second).
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let mut headers = in_session(&session).to_vec();
    headers.push(("accept", "text/event-stream"));
    let response = tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(bodiless(Method::GET, &headers)),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.into_body().into_data_stream();
    let next = tokio::time::timeout(Duration::from_millis(500), stream.next()).await;
    assert!(
        next.is_err(),
        "the stream ended or sent something: {next:?}"
    );
}

#[tokio::test]
async fn get_without_a_session_is_not_allowed() {
    let router = router(HttpConfig::new());
    let reply = send(
        &router,
        bodiless(Method::GET, &[("accept", "text/event-stream")]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.header("allow"), Some("POST"));
}

// ---- legacy era: cancellation --------------------------------------------------------------

/// Starts a `slow` call in `session` (in a task) and waits until the tool runs.
async fn start_slow_call(
    router: &Router,
    session: &str,
    id: u64,
    tag: &str,
    seconds: f64,
    progress_token: Option<&str>,
) -> tokio::task::JoinHandle<Reply> {
    let request = post(
        &legacy_call(
            id,
            "slow",
            &json!({"tag": tag, "seconds": seconds}),
            progress_token,
        ),
        &in_session(session),
    );
    let call = tokio::spawn({
        let router = router.clone();
        async move { send(&router, request).await }
    });
    ending(tag, Some("started")).await;
    call
}

async fn cancel(router: &Router, session: &str, id: u64) {
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "changed my mind"}});
    let reply = send(router, post(&cancelled, &in_session(session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
}

/// The spec says a cancelled request gets no response, and a request sent by POST is answered with
/// JSON or an event stream: a stream that ends without a message.
#[tokio::test]
async fn a_cancelled_call_gets_no_response() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let call = start_slow_call(&router, &session, 20, "legacy-cancel-json", 30.0, None).await;
    cancel(&router, &session, 20).await;
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.events(), Vec::<Value>::new(), "{reply:?}");
    assert_eq!(ending("legacy-cancel-json", None).await, "cancelled");
}

/// A client that takes JSON only cannot be sent "no response" as JSON: `202 Accepted`, no body.
#[tokio::test]
async fn a_cancelled_call_of_a_json_only_client_is_accepted_without_a_body() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let mut request = post(
        &legacy_call(
            24,
            "slow",
            &json!({"tag": "legacy-cancel-json-only", "seconds": 30.0}),
            None,
        ),
        &in_session(&session),
    );
    request
        .headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let call = tokio::spawn({
        let router = router.clone();
        async move { send(&router, request).await }
    });
    ending("legacy-cancel-json-only", Some("started")).await;
    cancel(&router, &session, 24).await;
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    assert!(reply.body.is_empty(), "{reply:?}");
    assert_eq!(ending("legacy-cancel-json-only", None).await, "cancelled");
}

/// On a stream already open (progress was sent), the stream ends without a result.
#[tokio::test]
async fn a_cancelled_streaming_call_ends_its_stream_without_a_result() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let call = start_slow_call(
        &router,
        &session,
        21,
        "legacy-cancel-sse",
        30.0,
        Some("tok-21"),
    )
    .await;
    cancel(&router, &session, 21).await;
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    let events = reply.events();
    assert_eq!(
        events.len(),
        1,
        "only the progress notification: {events:#?}"
    );
    assert_eq!(events[0]["method"], "notifications/progress");
    assert_eq!(ending("legacy-cancel-sse", None).await, "cancelled");
}

#[tokio::test]
async fn deleting_the_session_cancels_its_calls() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let call = start_slow_call(&router, &session, 22, "legacy-delete", 30.0, None).await;
    let reply = send(&router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.events(),
        Vec::<Value>::new(),
        "no response: {reply:?}"
    );
    assert_eq!(ending("legacy-delete", None).await, "cancelled");
}

#[tokio::test]
async fn another_session_cannot_cancel_a_call() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let other = open_session(&router).await;
    let call = start_slow_call(&router, &session, 23, "other-session", 0.2, None).await;
    cancel(&router, &other, 23).await;
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "finished");
    assert_eq!(ending("other-session", None).await, "finished");
}

#[tokio::test]
async fn an_id_already_in_flight_in_the_session_is_refused() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let call = start_slow_call(&router, &session, 24, "in-flight-twice", 1.0, None).await;
    let ping = json!({"jsonrpc": "2.0", "id": 24, "method": "ping"});
    let reply = send(&router, post(&ping, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": 24, "error": {
            "code": -32600,
            "message": "Invalid Request: id 24 is already used by a request in flight"
        }})
    );
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        result_text(&reply.json()),
        "finished",
        "the call in flight is unharmed"
    );
    assert_eq!(ending("in-flight-twice", None).await, "finished");
    // Once answered, the id is free again.
    let reply = send(&router, post(&ping, &in_session(&session))).await;
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": 24, "result": {}})
    );
}

// ---- legacy era: session lifetime ----------------------------------------------------------

#[tokio::test]
async fn an_idle_session_is_gone_at_its_next_use() {
    let idle_timeout = Duration::from_millis(300);
    let router = router(HttpConfig::new().sessions(16, idle_timeout));
    let session = open_session(&router).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let reply = send(&router, post(&list, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::OK, "in use: {reply:?}");

    tokio::time::sleep(idle_timeout * 2).await;
    let reply = send(&router, post(&list, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "idle: {reply:?}");
    assert_eq!(reply.json()["error"]["message"], "Session not found");
    let reply = send(&router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
}

/// A session is idle only when nothing happens in it: a call that runs longer than the idle
/// timeout is not cut short when another client's `initialize` sweeps idle sessions away.
#[tokio::test]
async fn a_session_with_a_call_running_is_not_idle() {
    let idle_timeout = Duration::from_millis(200);
    let router = router(HttpConfig::new().sessions(16, idle_timeout));
    let session = open_session(&router).await;
    let call = start_slow_call(&router, &session, 30, "busy-session", 0.8, None).await;
    tokio::time::sleep(idle_timeout * 2).await;
    let _sweeper = open_session(&router).await;
    let reply = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "finished");
    assert_eq!(ending("busy-session", None).await, "finished");
}

#[tokio::test]
async fn deleting_a_session_ends_its_get_stream() {
    let address = serve_on_socket(router(HttpConfig::new())).await;
    let at_mcp = |mut request: Request<Body>| {
        *request.uri_mut() = "/mcp".parse().unwrap();
        request
    };
    let reply = send_over_socket(address, at_mcp(post(&initialize_body(), &[]))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let mut headers = in_session(&session).to_vec();
    headers.push(("accept", "text/event-stream"));

    let (mut sender, _driver) = connect(address).await;
    let response = tokio::time::timeout(
        TIMEOUT,
        sender.send_request(at_mcp(bodiless(Method::GET, &headers))),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = Body::new(response.into_body()).into_data_stream();

    let reply = send_over_socket(
        address,
        at_mcp(bodiless(Method::DELETE, &in_session(&session))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
    let mut text = String::new();
    let ended = tokio::time::timeout(TIMEOUT, async {
        while let Some(Ok(chunk)) = stream.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the GET stream is still open after its session ended: {text:?}"
    );
    assert_eq!(sse_messages(&text), Vec::<Value>::new());
}

// ---- legacy era: stateless mode ------------------------------------------------------------

#[tokio::test]
async fn stateless_mode_has_no_sessions() {
    let router = router(HttpConfig::new().stateless(true));
    let reply = send(&router, post(&initialize_body(), &[])).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("mcp-session-id"), None);
    assert_eq!(reply.json()["result"]["protocolVersion"], LEGACY);

    let reply = send(
        &router,
        post(
            &legacy_call(2, "count", &json!({}), None),
            &[("mcp-protocol-version", LEGACY)],
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(result_text(&reply.json()), "counted to 3");

    let any_session = [
        ("mcp-session-id", "0123456789abcdef0123456789abcdef"),
        ("accept", "text/event-stream"),
    ];
    for method in [Method::GET, Method::DELETE] {
        let reply = send(&router, bodiless(method.clone(), &any_session)).await;
        assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
    }
}

// ---- modern era (2026-07-28) ---------------------------------------------------------------

fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A 2026-07-28 request: `params` plus the `_meta` envelope (merged with `meta`).
fn modern_request(id: u64, method: &str, mut params: Value, meta: &Value) -> Value {
    let mut envelope = envelope();
    for (key, value) in meta.as_object().unwrap() {
        envelope[key] = value.clone();
    }
    params["_meta"] = envelope;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn modern_call(id: u64, name: &str, arguments: &Value, meta: &Value) -> Value {
    modern_request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        meta,
    )
}

/// The headers that must agree with a 2026-07-28 body.
fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![("mcp-protocol-version", MODERN), ("mcp-method", method)];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    headers
}

/// Asserts a `400` answer with JSON-RPC error `code` for request `id`, and returns the error.
fn assert_bad_request(reply: &Reply, id: u64, code: i64) -> Value {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], id, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    body["error"].clone()
}

#[tokio::test]
async fn a_modern_call_is_answered_from_the_request_alone() {
    let router = router(HttpConfig::new());
    let reply = send(
        &router,
        post(
            &modern_call(1, "count", &json!({}), &json!({})),
            &modern_headers("tools/call", Some("count")),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.header("mcp-session-id"), None);
    assert!(
        reply.content_type().starts_with("application/json"),
        "{reply:?}"
    );
    let body = reply.json();
    assert_eq!(body["result"]["resultType"], "complete");
    assert_eq!(
        body["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "http-tests"
    );
    assert_eq!(result_text(&body), "counted to 3");
}

#[tokio::test]
async fn a_modern_call_with_a_progress_token_streams_its_progress() {
    let router = router(HttpConfig::new());
    let request = modern_call(2, "count", &json!({}), &json!({"progressToken": 5}));
    let reply = send(
        &router,
        post(&request, &modern_headers("tools/call", Some("count"))),
    )
    .await;
    assert_eq!(reply.header("x-accel-buffering"), Some("no"));
    let events = reply.events();
    let methods: Vec<&str> = events
        .iter()
        .filter_map(|event| event["method"].as_str())
        .collect();
    assert_eq!(methods, ["notifications/progress"; 3]);
    assert_eq!(events[0]["params"]["progressToken"], 5);
    assert_eq!(events[3]["id"], 2);
    assert_eq!(events[3]["result"]["resultType"], "complete");
}

#[tokio::test]
async fn a_modern_call_gets_log_messages_only_when_it_asks_with_a_log_level() {
    let router = router(HttpConfig::new());
    let headers = modern_headers("tools/call", Some("chatty"));
    let reply = send(
        &router,
        post(&modern_call(3, "chatty", &json!({}), &json!({})), &headers),
    )
    .await;
    assert!(
        reply.content_type().starts_with("application/json"),
        "{reply:?}"
    );
    assert_eq!(result_text(&reply.json()), "said it");

    let asking = json!({"io.modelcontextprotocol/logLevel": "info"});
    let events = send(
        &router,
        post(&modern_call(4, "chatty", &json!({}), &asking), &headers),
    )
    .await
    .events();
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(events[0]["method"], "notifications/message");
    assert_eq!(result_text(&events[1]), "said it");
}

#[tokio::test]
async fn headers_that_disagree_with_the_body_are_a_header_mismatch() {
    let router = router(HttpConfig::new());
    let body = modern_call(5, "count", &json!({}), &json!({}));
    let cases: [(&str, Vec<(&str, &str)>); 7] = [
        (
            "wrong Mcp-Method",
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/list"),
                ("mcp-name", "count"),
            ],
        ),
        (
            "wrong Mcp-Name",
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
                ("mcp-name", "chatty"),
            ],
        ),
        (
            "older MCP-Protocol-Version",
            vec![
                ("mcp-protocol-version", LEGACY),
                ("mcp-method", "tools/call"),
                ("mcp-name", "count"),
            ],
        ),
        (
            "no MCP-Protocol-Version",
            vec![("mcp-method", "tools/call"), ("mcp-name", "count")],
        ),
        (
            "no Mcp-Method",
            vec![("mcp-protocol-version", MODERN), ("mcp-name", "count")],
        ),
        (
            "no Mcp-Name",
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
            ],
        ),
        (
            "bad base64 Mcp-Name",
            vec![
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tools/call"),
                ("mcp-name", "=?base64?!!!?="),
            ],
        ),
    ];
    for (case, headers) in cases {
        let reply = send(&router, post(&body, &headers)).await;
        let error = assert_bad_request(&reply, 5, -32020);
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .starts_with("Header mismatch: "),
            "{case}: {error}"
        );
    }
}

#[tokio::test]
async fn a_base64_mcp_name_is_decoded_before_it_is_compared() {
    let router = router(HttpConfig::new());
    let encoded = format!("=?base64?{}?=", STANDARD.encode("count"));
    let reply = send(
        &router,
        post(
            &modern_call(6, "count", &json!({}), &json!({})),
            &modern_headers("tools/call", Some(&encoded)),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "counted to 3");
}

#[tokio::test]
async fn an_unsupported_modern_version_names_the_supported_ones() {
    let router = router(HttpConfig::new());
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2099-01-01"});
    let headers = [
        ("mcp-protocol-version", "2099-01-01"),
        ("mcp-method", "tools/list"),
    ];
    let reply = send(
        &router,
        post(&modern_request(7, "tools/list", json!({}), &meta), &headers),
    )
    .await;
    let error = assert_bad_request(&reply, 7, -32022);
    assert_eq!(error["data"]["supported"], json!([MODERN]));
    assert_eq!(error["data"]["requested"], "2099-01-01");
}

#[tokio::test]
async fn an_unsupported_modern_version_comes_before_missing_client_capabilities() {
    let router = router(HttpConfig::new());
    let body = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"},
    }});
    let headers = [
        ("mcp-protocol-version", "2099-01-01"),
        ("mcp-method", "tools/list"),
    ];
    let reply = send(&router, post(&body, &headers)).await;
    let error = assert_bad_request(&reply, 11, -32022);
    assert_eq!(error["data"]["requested"], "2099-01-01");
}

#[tokio::test]
async fn a_modern_request_without_client_capabilities_is_invalid() {
    let router = router(HttpConfig::new());
    let body = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN},
    }});
    let reply = send(&router, post(&body, &modern_headers("tools/list", None))).await;
    let error = assert_bad_request(&reply, 8, -32602);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("clientCapabilities"),
        "{error}"
    );
}

#[tokio::test]
async fn a_method_the_modern_era_lacks_is_not_found() {
    let router = router(HttpConfig::new());
    let reply = send(
        &router,
        post(
            &modern_request(9, "ping", json!({}), &json!({})),
            &modern_headers("ping", None),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], 9);
    assert_eq!(body["error"]["code"], -32601);
}

#[tokio::test]
async fn server_discover_describes_the_server() {
    let router = router(HttpConfig::new());
    let reply = send(
        &router,
        post(
            &modern_request(10, "server/discover", json!({}), &json!({})),
            &modern_headers("server/discover", None),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let result = &reply.json()["result"];
    assert_eq!(result["supportedVersions"], json!([MODERN]));
    assert_eq!(result["ttlMs"], 60_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["capabilities"]["tools"],
        json!({"listChanged": true}),
        "changes are told on subscriptions/listen streams: {result}"
    );
}

// ---- modern era: subscriptions/listen -------------------------------------------------------

/// The events of a streamed response body, read as they come.
struct Events {
    body: futures_util::stream::BoxStream<'static, Result<Bytes, axum::Error>>,
    text: String,
    seen: usize,
}

impl Events {
    fn of(response: axum::response::Response) -> Self {
        assert_eq!(response.status(), StatusCode::OK, "{response:?}");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream",
            "{response:?}"
        );
        Self {
            body: response.into_body().into_data_stream().boxed(),
            text: String::new(),
            seen: 0,
        }
    }

    /// The next message, or `None` when the stream ends first.
    async fn next(&mut self) -> Option<Value> {
        tokio::time::timeout(TIMEOUT, async {
            loop {
                if let Some(message) = sse_messages(&self.text).get(self.seen) {
                    self.seen += 1;
                    return Some(message.clone());
                }
                let chunk = self.body.next().await?.expect("the body can be read");
                self.text.push_str(std::str::from_utf8(&chunk).unwrap());
            }
        })
        .await
        .expect("a message or the end of the stream in time")
    }
}

fn listen_request(id: u64, notifications: &Value) -> Request<Body> {
    post(
        &modern_request(
            id,
            "subscriptions/listen",
            json!({"notifications": notifications}),
            &json!({}),
        ),
        &modern_headers("subscriptions/listen", None),
    )
}

async fn open_listen(router: &Router, id: u64, notifications: &Value) -> axum::response::Response {
    tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(listen_request(id, notifications)),
    )
    .await
    .expect("the stream opens in time")
    .unwrap()
}

fn added_tool(name: &str) -> Tool {
    Tool::new(
        name,
        "Added at run time",
        json!({"type": "object", "properties": {}}),
        |_, _| async { CallToolResult::text("here") },
    )
    .unwrap()
}

/// The stream acknowledges what it will send, then tells each change of the tool set, tagged
/// with its subscription id; it is not bound by the request time limit.
#[tokio::test]
async fn a_subscription_streams_tool_changes() {
    let handle = server();
    let router = handle
        .clone()
        .http_config(HttpConfig::new().request_timeout(Duration::from_millis(100)))
        .into_router()
        .unwrap();
    let requested = json!({"toolsListChanged": true, "promptsListChanged": true});
    let mut events = Events::of(open_listen(&router, 7, &requested).await);
    let tagged = json!({"io.modelcontextprotocol/subscriptionId": 7});
    assert_eq!(
        events.next().await,
        Some(json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": tagged, "notifications": {"toolsListChanged": true}},
        })),
        "only what the server can send is acknowledged"
    );
    tokio::time::sleep(Duration::from_millis(300)).await; // past the request time limit
    handle.add_tool(added_tool("added-1")).unwrap();
    assert!(handle.remove_tool("added-1"));
    let list_changed = json!({
        "jsonrpc": "2.0",
        "method": "notifications/tools/list_changed",
        "params": {"_meta": tagged},
    });
    assert_eq!(events.next().await, Some(list_changed.clone()));
    assert_eq!(events.next().await, Some(list_changed));
}

/// A stream that did not ask for tool changes hears none.
#[tokio::test]
async fn a_subscription_gets_only_what_it_asked_for() {
    let handle = server();
    let router = handle.clone().into_router().unwrap();
    let response = open_listen(&router, 8, &json!({"promptsListChanged": true})).await;
    let mut events = Events::of(response);
    assert_eq!(
        events.next().await.unwrap()["params"]["notifications"],
        json!({})
    );
    handle.add_tool(added_tool("added-2")).unwrap();
    let next = tokio::time::timeout(Duration::from_millis(300), events.next()).await;
    assert!(next.is_err(), "sent though not asked for: {next:?}");
}

#[tokio::test]
async fn a_subscription_needs_an_event_stream_and_a_filter() {
    let router = router(HttpConfig::new());
    let mut request = listen_request(9, &json!({"toolsListChanged": true}));
    request
        .headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let reply = send(&router, request).await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE, "{reply:?}");
    assert_eq!(reply.json()["id"], 9);
    assert_eq!(reply.json()["error"]["code"], -32600);

    let without_filter = modern_request(10, "subscriptions/listen", json!({}), &json!({}));
    let reply = send(
        &router,
        post(
            &without_filter,
            &modern_headers("subscriptions/listen", None),
        ),
    )
    .await;
    assert_eq!(reply.json()["error"]["code"], -32602, "{reply:?}");
}

/// Open streams are capped; closing one frees its slot.
#[tokio::test]
async fn subscriptions_are_capped_and_closing_one_frees_its_slot() {
    let router = router(HttpConfig::new().max_subscriptions(1));
    let requested = json!({"toolsListChanged": true});
    let mut first = Events::of(open_listen(&router, 1, &requested).await);
    assert!(first.next().await.is_some(), "acknowledged");

    let refused = send(&router, listen_request(2, &requested)).await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{refused:?}"
    );
    assert_eq!(refused.json()["id"], 2);

    drop(first);
    let reopened = tokio::time::timeout(TIMEOUT, async {
        loop {
            let response = open_listen(&router, 3, &requested).await;
            if response.status() == StatusCode::OK {
                return response;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the slot is freed");
    assert!(Events::of(reopened).next().await.is_some());
}

/// `subscriptions/listen` is a 2026-07-28 method: a legacy session does not know it.
#[tokio::test]
async fn a_legacy_session_cannot_listen() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let listen = json!({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": {"notifications": {"toolsListChanged": true}}});
    let reply = send(&router, post(&listen, &in_session(&session))).await;
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply:?}");
}

/// Headers must agree with the body on a notification too.
#[tokio::test]
async fn a_modern_notification_with_mismatched_headers_is_a_bad_request() {
    let router = router(HttpConfig::new());
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": envelope()}});
    let reply = send(
        &router,
        post(&notification, &modern_headers("tools/list", None)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32020);
    assert_eq!(reply.json()["id"], Value::Null);
}

#[tokio::test]
async fn a_modern_notification_is_accepted() {
    let router = router(HttpConfig::new());
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": envelope()}});
    let reply = send(
        &router,
        post(
            &notification,
            &modern_headers("notifications/initialized", None),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty());
}

// ---- security and limits -------------------------------------------------------------------

fn tools_list() -> Value {
    modern_request(1, "tools/list", json!({}), &json!({}))
}

/// `tools/list` (modern, so no session is needed) with the `Host` and `Origin` given.
async fn list_from(router: &Router, host: &str, origin: Option<&str>) -> StatusCode {
    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    request
        .headers_mut()
        .insert(header::HOST, host.parse().unwrap());
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert(header::ORIGIN, origin.parse().unwrap());
    }
    send(router, request).await.status
}

#[tokio::test]
async fn only_local_hosts_and_origins_are_served_by_default() {
    let router = router(HttpConfig::new());
    assert_eq!(
        list_from(&router, "evil.example.com", None).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        list_from(&router, "localhost:1234", Some("http://evil.example.com")).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        list_from(&router, "localhost:1234", Some("http://localhost:5173")).await,
        StatusCode::OK
    );
    assert_eq!(
        list_from(&router, "localhost:1234", None).await,
        StatusCode::OK
    );
    assert_eq!(
        list_from(&router, "127.0.0.1:8080", Some("http://127.0.0.1:8080")).await,
        StatusCode::OK
    );
    assert_eq!(list_from(&router, "[::1]:8080", None).await, StatusCode::OK);

    let reply = send(&router, {
        let mut request = bodiless(Method::GET, &[("accept", "text/event-stream")]);
        request
            .headers_mut()
            .insert(header::HOST, "evil.example.com".parse().unwrap());
        request
    })
    .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "GET is guarded too");
}

#[tokio::test]
async fn allowed_hosts_and_origins_are_served() {
    let router = router(
        HttpConfig::new()
            .allow_hosts(["mcp.example.com"])
            .allow_origins(["https://app.example.com"]),
    );
    assert_eq!(
        list_from(&router, "mcp.example.com", None).await,
        StatusCode::OK
    );
    assert_eq!(
        list_from(
            &router,
            "mcp.example.com:443",
            Some("https://app.example.com")
        )
        .await,
        StatusCode::OK
    );
    assert_eq!(
        list_from(&router, "other.example.com", None).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        list_from(&router, "mcp.example.com", Some("https://evil.example.com")).await,
        StatusCode::FORBIDDEN
    );
}

/// A browser page on an allowed origin can use the endpoint: its preflight is answered with
/// the MCP headers it may send, and it may read `Mcp-Session-Id`. Other origins get no CORS
/// grant.
#[tokio::test]
async fn browsers_on_allowed_origins_get_cors() {
    let router = router(
        HttpConfig::new().allow_origins(["https://app.example.com", "http://localhost:6274"]),
    );
    let preflight = |origin: &str| {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/")
            .header(header::HOST, "localhost:3000")
            .header(header::ORIGIN, origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "content-type, mcp-protocol-version, mcp-session-id, authorization",
            )
            .body(Body::empty())
            .unwrap()
    };
    for origin in ["https://app.example.com", "http://localhost:6274"] {
        let reply = send(&router, preflight(origin)).await;
        assert!(reply.status.is_success(), "{origin}: {reply:?}");
        assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
        let allowed = reply.header("access-control-allow-headers").unwrap();
        for name in [
            "content-type",
            "mcp-protocol-version",
            "mcp-session-id",
            "authorization",
        ] {
            assert!(allowed.contains(name), "{name} not in {allowed}");
        }
        assert!(
            reply
                .header("access-control-allow-methods")
                .unwrap()
                .contains("POST")
        );
    }
    // Not named: no grant, even for a page on localhost, or when every origin is served.
    for origin in ["https://evil.example.com", "http://localhost:5173"] {
        let refused = send(&router, preflight(origin)).await;
        assert_eq!(
            refused.header("access-control-allow-origin"),
            None,
            "{origin}: {refused:?}"
        );
    }
    // Every origin served, one of them named: only that one gets CORS, and naming it does
    // not narrow what is served.
    let open = server()
        .http_config(
            HttpConfig::new()
                .allow_any_origin()
                .allow_origins(["https://app.example.com"]),
        )
        .into_router()
        .unwrap();
    let granted = send(&open, preflight("https://app.example.com")).await;
    assert_eq!(
        granted.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert_eq!(
        list_from(&open, "localhost:3000", Some("https://evil.example.com")).await,
        StatusCode::OK
    );
    let refused = send(&open, preflight("https://evil.example.com")).await;
    assert_eq!(
        refused.header("access-control-allow-origin"),
        None,
        "{refused:?}"
    );

    let mut initialize = post(&initialize_body(), &[]);
    initialize
        .headers_mut()
        .insert(header::ORIGIN, "https://app.example.com".parse().unwrap());
    let reply = send(&router, initialize).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert!(
        reply
            .header("access-control-expose-headers")
            .unwrap()
            .contains("mcp-session-id"),
        "{reply:?}"
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_too_large() {
    let router = router(HttpConfig::new().max_body_bytes(1024));
    let small = modern_call(
        1,
        "slow",
        &json!({"tag": "x".repeat(100), "seconds": 0}),
        &json!({}),
    );
    let large = modern_call(
        1,
        "slow",
        &json!({"tag": "x".repeat(2000), "seconds": 0}),
        &json!({}),
    );
    let headers = modern_headers("tools/call", Some("slow"));
    assert_eq!(
        send(&router, post(&small, &headers)).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&router, post(&large, &headers)).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
}

#[tokio::test]
async fn a_request_is_admitted_before_its_body_is_read() {
    let large = modern_call(
        1,
        "slow",
        &json!({"tag": "x".repeat(2000), "seconds": 0}),
        &json!({}),
    );
    let headers = modern_headers("tools/call", Some("slow"));
    let guarded = router(HttpConfig::new().max_body_bytes(1024));
    let mut request = post(&large, &headers);
    request
        .headers_mut()
        .insert(header::HOST, "evil.example.com".parse().unwrap());
    assert_eq!(send(&guarded, request).await.status, StatusCode::FORBIDDEN);
    let mut request = post(&large, &headers);
    request
        .headers_mut()
        .insert(header::ORIGIN, "http://evil.example.com".parse().unwrap());
    assert_eq!(send(&guarded, request).await.status, StatusCode::FORBIDDEN);

    let router = router(with_bearer_auth(
        HttpConfig::new().max_body_bytes(1024),
        "http://localhost:3000/mcp",
    ));
    let reply = send(&router, post(&large, &headers)).await;
    assert_eq!(
        reply.status,
        StatusCode::UNAUTHORIZED,
        "no token: {reply:?}"
    );
    let mut bad = headers.clone();
    bad.push(("authorization", "Bearer bad-token"));
    let reply = send(&router, post(&large, &bad)).await;
    assert_eq!(
        reply.status,
        StatusCode::UNAUTHORIZED,
        "bad token: {reply:?}"
    );
    assert!(reply.header("www-authenticate").is_some());
    // Once admitted, the body is held to the limit.
    let mut good = headers.clone();
    good.push(("authorization", "Bearer good-token"));
    assert_eq!(
        send(&router, post(&large, &good)).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
}

/// A body that does not arrive within the time limit is refused: a slow client cannot hold a
/// request open.
#[tokio::test]
async fn a_body_slower_than_the_time_limit_is_refused() {
    let router = router(HttpConfig::new().request_timeout(Duration::from_millis(200)));
    let first_half = Bytes::from_static(br#"{"jsonrpc": "2.0", "id": 1, "#);
    let never_finished =
        futures_util::stream::once(async move { Ok::<_, std::io::Error>(first_half) })
            .chain(futures_util::stream::pending());
    let request = Request::post("/")
        .header(header::HOST, "localhost:3000")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(Body::from_stream(never_finished))
        .unwrap();
    let reply = send(&router, request).await;
    assert_eq!(reply.status, StatusCode::REQUEST_TIMEOUT, "{reply:?}");
}

/// At most `max_requests` POSTs are answered at once; a slot is free again when its call ends.
#[tokio::test]
async fn requests_at_once_are_capped() {
    let router = router(HttpConfig::new().max_requests(1));
    let slow = modern_call(
        1,
        "slow",
        &json!({"tag": "holds-the-slot", "seconds": 30}),
        &json!({}),
    );
    let call = tokio::spawn({
        let router = router.clone();
        async move {
            send(
                &router,
                post(&slow, &modern_headers("tools/call", Some("slow"))),
            )
            .await
        }
    });
    ending("holds-the-slot", Some("started")).await;
    let list = modern_request(2, "tools/list", json!({}), &json!({}));
    let reply = send(&router, post(&list, &modern_headers("tools/list", None))).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");

    // The client goes away: its call is cancelled, and its slot freed.
    call.abort();
    assert_eq!(ending("holds-the-slot", None).await, "cancelled");
    tokio::time::timeout(TIMEOUT, async {
        while send(&router, post(&list, &modern_headers("tools/list", None)))
            .await
            .status
            != StatusCode::OK
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the slot is free again");
}

#[tokio::test]
async fn a_request_over_the_time_limit_is_answered_with_an_error() {
    let router = router(HttpConfig::new().request_timeout(Duration::from_millis(200)));
    let request = modern_call(
        3,
        "slow",
        &json!({"tag": "timeout", "seconds": 30}),
        &json!({}),
    );
    let reply = send(
        &router,
        post(&request, &modern_headers("tools/call", Some("slow"))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], 3);
    assert_eq!(body["error"]["code"], -32603);
    assert_eq!(body["error"]["message"], "Request timed out after 200ms");
    assert_eq!(
        ending("timeout", None).await,
        "cancelled",
        "the tool learns that its request ended"
    );
}

/// A full session table makes room by closing the least recently used session left alone for
/// at least half the idle timeout; sessions used more recently are never pushed out (a flood of
/// `initialize`s cannot evict clients at work), so then a new one is refused.
#[tokio::test]
async fn a_full_session_table_closes_the_least_recently_used_idle_session() {
    let idle_timeout = Duration::from_secs(2);
    let router = router(HttpConfig::new().sessions(2, idle_timeout));
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let first = open_session(&router).await;
    let second = open_session(&router).await;
    tokio::time::sleep(idle_timeout * 3 / 5).await; // both past half the idle timeout
    let reply = send(&router, post(&list, &in_session(&first))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    let third = open_session(&router).await;
    let reply = send(&router, post(&list, &in_session(&second))).await;
    assert_eq!(
        reply.status,
        StatusCode::NOT_FOUND,
        "closed to make room: {reply:?}"
    );
    for kept in [&first, &third] {
        let reply = send(&router, post(&list, &in_session(kept))).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    }

    // Both used just now: no room.
    let reply = send(&router, post(&initialize_body(), &[])).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert_eq!(reply.header("mcp-session-id"), None);
}

#[tokio::test]
async fn a_body_that_is_not_json_is_an_unsupported_media_type() {
    let router = router(HttpConfig::new());
    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    request
        .headers_mut()
        .insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
    assert_eq!(
        send(&router, request).await.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

#[tokio::test]
async fn a_client_that_takes_neither_json_nor_sse_is_not_acceptable() {
    let router = router(HttpConfig::new());
    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    request
        .headers_mut()
        .insert(header::ACCEPT, "text/html".parse().unwrap());
    assert_eq!(
        send(&router, request).await.status,
        StatusCode::NOT_ACCEPTABLE
    );
}

// ---- bearer auth ---------------------------------------------------------------------------

fn with_bearer_auth(config: HttpConfig, resource: &str) -> HttpConfig {
    let metadata =
        ProtectedResourceMetadata::new(resource, "https://auth.example.com").scopes(["tools"]);
    config.bearer_auth(metadata, |token| async move {
        (token == "good-token").then(|| AuthInfo {
            client_id: "client-7".into(),
            scopes: vec!["tools".into()],
            ..AuthInfo::default()
        })
    })
}

#[tokio::test]
async fn bearer_auth_refuses_missing_and_bad_tokens_and_tells_where_to_get_one() {
    let router = router(with_bearer_auth(
        HttpConfig::new(),
        "http://localhost:3000/mcp",
    ));
    let headers = modern_headers("tools/call", Some("whoami"));
    let call = modern_call(1, "whoami", &json!({}), &json!({}));

    let reply = send(&router, post(&call, &headers)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            r#"Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#
        )
    );

    let mut bad = headers.clone();
    bad.push(("authorization", "Bearer bad-token"));
    let reply = send(&router, post(&call, &bad)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            r#"Bearer error="invalid_token", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#
        ),
        "a refused token is named as such (RFC 6750)"
    );

    // The scheme is case-insensitive.
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let mut good = headers.clone();
        let authorization = format!("{scheme} good-token");
        good.push(("authorization", &authorization));
        let reply = send(&router, post(&call, &good)).await;
        assert_eq!(reply.status, StatusCode::OK, "{scheme}: {reply:?}");
        assert_eq!(result_text(&reply.json()), r#"client-7 ["tools"]"#);
    }
}

#[tokio::test]
async fn bearer_auth_guards_every_request_of_a_session() {
    let router = router(with_bearer_auth(
        HttpConfig::new(),
        "http://localhost:3000/mcp",
    ));
    let token = ("authorization", "Bearer good-token");
    let reply = send(&router, post(&initialize_body(), &[token])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let mut headers = in_session(&session).to_vec();

    let reply = send(
        &router,
        post(&legacy_call(2, "whoami", &json!({}), None), &headers),
    )
    .await;
    assert_eq!(
        reply.status,
        StatusCode::UNAUTHORIZED,
        "a session is no substitute for the token"
    );
    headers.push(token);
    let reply = send(
        &router,
        post(&legacy_call(3, "whoami", &json!({}), None), &headers),
    )
    .await;
    assert_eq!(result_text(&reply.json()), r#"client-7 ["tools"]"#);
}

#[tokio::test]
async fn a_session_belongs_to_the_client_and_user_that_opened_it() {
    let metadata =
        ProtectedResourceMetadata::new("http://localhost:3000/mcp", "https://auth.example.com");
    let router = router(HttpConfig::new().bearer_auth(metadata, |token| async move {
        let (client_id, subject) = match token.as_str() {
            "token-a" => ("desktop-app", "alice"),
            "token-b" => ("desktop-app", "bob"),
            "token-c" => ("other-app", "alice"),
            _ => return None,
        };
        Some(AuthInfo {
            client_id: client_id.into(),
            subject: Some(subject.into()),
            ..AuthInfo::default()
        })
    }));
    let reply = send(
        &router,
        post(&initialize_body(), &[("authorization", "Bearer token-a")]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let as_client = |token: &'static str| {
        let mut headers = in_session(&session).to_vec();
        headers.push(("authorization", token));
        headers
    };
    let a = as_client("Bearer token-a");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});

    // Another user of the same client, or the same user of another client, with a token as
    // valid, is told there is no such session.
    for other in [as_client("Bearer token-b"), as_client("Bearer token-c")] {
        let reply = send(&router, post(&list, &other)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "POST: {reply:?}");
        let mut get = other.clone();
        get.push(("accept", "text/event-stream"));
        let reply = send(&router, bodiless(Method::GET, &get)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "GET: {reply:?}");
        let reply = send(&router, bodiless(Method::DELETE, &other)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "DELETE: {reply:?}");
    }

    // Its owner still has it.
    let reply = send(&router, post(&list, &a)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let reply = send(&router, bodiless(Method::DELETE, &a)).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
}

#[tokio::test]
async fn without_bearer_auth_a_tool_sees_no_caller() {
    let router = router(HttpConfig::new());
    let reply = send(
        &router,
        post(
            &modern_call(1, "whoami", &json!({}), &json!({})),
            &modern_headers("tools/call", Some("whoami")),
        ),
    )
    .await;
    assert_eq!(result_text(&reply.json()), "anonymous");
}

// ---- mounting ------------------------------------------------------------------------------

#[tokio::test]
async fn the_router_serves_where_an_app_nests_it() {
    let app = Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .nest("/api/mcp", server().into_router().unwrap());
    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    *request.uri_mut() = "/api/mcp".parse().unwrap();
    let reply = send(&app, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert!(reply.json()["result"]["tools"].is_array());

    let health = send(&app, Request::get("/health").body(Body::empty()).unwrap()).await;
    assert_eq!(&health.body[..], b"ok");
}

// ---- over a real socket --------------------------------------------------------------------

/// Serves `router` nested at `/mcp` on a free port of 127.0.0.1 (for the rest of the test).
async fn serve_on_socket(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().nest("/mcp", router);
    tokio::spawn(async move { axum::serve(listener, app).await });
    address
}

/// One HTTP/1.1 connection to `address`; dropping the returned task handle's abort closes it.
async fn connect(
    address: SocketAddr,
) -> (
    hyper::client::conn::http1::SendRequest<Body>,
    tokio::task::JoinHandle<()>,
) {
    let stream = tokio::time::timeout(TIMEOUT, tokio::net::TcpStream::connect(address))
        .await
        .unwrap()
        .unwrap();
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    let driver = tokio::spawn(async move {
        let _ = connection.await;
    });
    (sender, driver)
}

/// Sends `request` over a fresh connection and reads the whole response.
async fn send_over_socket(address: SocketAddr, mut request: Request<Body>) -> Reply {
    request.headers_mut().insert(
        header::HOST,
        format!("localhost:{}", address.port()).parse().unwrap(),
    );
    let exchange = async {
        let (mut sender, _driver) = connect(address).await;
        let response = sender.send_request(request).await.unwrap();
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(Body::new(body), usize::MAX)
            .await
            .unwrap();
        Reply {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .expect("the response came in time")
}

#[tokio::test]
async fn closing_a_modern_call_stream_cancels_the_call() {
    let address = serve_on_socket(router(HttpConfig::new())).await;
    let (mut sender, driver) = connect(address).await;
    let mut request = post(
        &modern_call(
            1,
            "slow",
            &json!({"tag": "modern-close", "seconds": 30}),
            &json!({"progressToken": "p"}),
        ),
        &modern_headers("tools/call", Some("slow")),
    );
    *request.uri_mut() = "/mcp".parse().unwrap();
    let response = tokio::time::timeout(TIMEOUT, sender.send_request(request))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );

    let mut stream = Body::new(response.into_body()).into_data_stream();
    let mut text = String::new();
    tokio::time::timeout(TIMEOUT, async {
        while sse_messages(&text).is_empty() {
            let chunk = stream.next().await.expect("the stream stays open").unwrap();
            text.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    })
    .await
    .expect("the progress notification came in time");
    assert_eq!(sse_messages(&text)[0]["method"], "notifications/progress");
    assert_eq!(ending("modern-close", Some("started")).await, "started");

    drop(stream);
    drop(sender);
    driver.abort();
    assert_eq!(ending("modern-close", None).await, "cancelled");
}

/// A client that gives up before any answer (no progress, so no stream yet) closes the connection:
/// that too cancels the call.
#[tokio::test]
async fn closing_the_connection_before_an_answer_cancels_the_call() {
    let address = serve_on_socket(router(HttpConfig::new())).await;
    let (mut sender, driver) = connect(address).await;
    let mut request = post(
        &modern_call(
            1,
            "slow",
            &json!({"tag": "modern-abandon", "seconds": 30}),
            &json!({}),
        ),
        &modern_headers("tools/call", Some("slow")),
    );
    *request.uri_mut() = "/mcp".parse().unwrap();
    let pending = tokio::spawn(sender.send_request(request));
    ending("modern-abandon", Some("started")).await;

    pending.abort();
    driver.abort();
    assert_eq!(ending("modern-abandon", None).await, "cancelled");
}

#[tokio::test]
async fn serve_http_publishes_the_protected_resource_metadata() {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let resource = format!("http://localhost:{port}/mcp");
    let server = server().http_config(with_bearer_auth(HttpConfig::new(), &resource));
    tokio::spawn(server.serve_http(address));
    tokio::time::timeout(TIMEOUT, async {
        while tokio::net::TcpStream::connect(address).await.is_err() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("serve_http listens");

    let request = Request::get("/.well-known/oauth-protected-resource/mcp")
        .body(Body::empty())
        .unwrap();
    let reply = send_over_socket(address, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.json(),
        json!({
            "resource": resource,
            "authorization_servers": ["https://auth.example.com"],
            "scopes_supported": ["tools"],
            "bearer_methods_supported": ["header"],
        })
    );

    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    *request.uri_mut() = "/mcp".parse().unwrap();
    let reply = send_over_socket(address, request).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        reply.header("www-authenticate"),
        Some(format!(r#"Bearer resource_metadata="http://localhost:{port}/.well-known/oauth-protected-resource/mcp""#).as_str())
    );

    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    *request.uri_mut() = "/mcp".parse().unwrap();
    request
        .headers_mut()
        .insert(header::AUTHORIZATION, "Bearer good-token".parse().unwrap());
    let reply = send_over_socket(address, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
}

#[tokio::test]
async fn a_batch_at_2025_03_26_runs_its_calls_under_the_time_limit() {
    let router = router(HttpConfig::new().request_timeout(Duration::from_millis(200)));
    let mut initialize = initialize_body();
    initialize["params"]["protocolVersion"] = json!("2025-03-26");
    let reply = send(&router, post(&initialize, &[])).await;
    assert_eq!(reply.json()["result"]["protocolVersion"], "2025-03-26");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-03-26"),
    ];
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        legacy_call(2, "slow", &json!({"tag": "batched", "seconds": 30}), None),
    ]);
    let reply = send(&router, post(&batch, &headers)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.json(),
        json!([
            {"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Request timed out after 200ms"}},
        ])
    );
    assert_eq!(ending("batched", None).await, "cancelled");
}
