//! Streamable HTTP in the legacy era (protocol versions up to 2025-11-25), as a client sees it:
//! sessions and their status codes, answers as JSON or as a request-scoped SSE stream (progress
//! and log messages before the result; the stream ends with its response), the GET stream of a
//! session, and stateless mode.
//!
//! The requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`),
//! sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_lifetime.rs` (cancellation and session lifetime),
//! `http_modern.rs` (the 2026-07-28 era), `http_listen.rs` (`subscriptions/listen`),
//! `http_security.rs` (guards and limits), `http_auth.rs` (bearer auth), `http_socket.rs` (mounting
//! and real sockets).

use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, Method, StatusCode, header};
use futures_util::StreamExt as _;
use mcp_toolbelt::{CallToolResult, Context, LogLevel, http::HttpConfig, tool::Tool};
use mcp_toolbelt_tests::http::{
    LEGACY, TIMEOUT, bodiless, in_session, initialize_body, legacy_call, modern_call,
    modern_headers, open_session, post, result_text, router, send, server, sse_messages,
};
use serde_json::json;
use tokio::sync::{Notify, mpsc};
use tower::ServiceExt as _;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.

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
    server.tools().add(tool).unwrap();
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
    let handle = server.tools();
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
    handle.add(tool).unwrap();
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
    // At 2025-11-25 it starts with a priming event (an id, empty data), then nothing.
    let priming = tokio::time::timeout(TIMEOUT, stream.next()).await.unwrap();
    let priming = String::from_utf8(priming.unwrap().unwrap().to_vec()).unwrap();
    assert!(
        priming.starts_with("id: get-") && priming.ends_with("\ndata: \n\n"),
        "{priming:?}"
    );
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
    // GET and DELETE work with a session: the answer says which methods exist.
    assert_eq!(reply.header("allow"), Some("GET, POST, DELETE"));
    let stateless = mcp_toolbelt_tests::http::router(HttpConfig::new().stateless(true));
    let reply = send(
        &stateless,
        bodiless(Method::GET, &[("accept", "text/event-stream")]),
    )
    .await;
    assert_eq!(reply.header("allow"), Some("POST"));
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
