//! How legacy calls and sessions end, as a client sees it over Streamable HTTP: cancellation
//! (`notifications/cancelled`, deleting the session; no response, or a stream that ends without
//! one), ids in flight, idle sessions, and the GET stream of a deleted session.
//!
//! Most requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`);
//! the end of a GET stream is watched over a socket on 127.0.0.1. Requests are sent and read with
//! `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_modern.rs` (the 2026-07-28 era), `http_listen.rs` (`subscriptions/listen`),
//! `http_security.rs` (guards and limits), `http_auth.rs` (bearer auth), `http_socket.rs` (mounting
//! and real sockets).

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use futures_util::StreamExt as _;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    Reply, TIMEOUT, bodiless, connect, in_session, initialize_body, legacy_call, open_session,
    post, result_text, router, send, send_over_socket, serve_on_socket, sse_messages,
};
use serde_json::{Value, json};

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
use crate::http_tools;

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
    let router = router(
        HttpConfig::new()
            .max_sessions(16)
            .session_idle_timeout(idle_timeout),
    );
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
    let router = router(
        HttpConfig::new()
            .max_sessions(16)
            .session_idle_timeout(idle_timeout),
    );
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
