//! Streamable HTTP served as an app serves it: the router nested in an app, and over a real
//! socket on 127.0.0.1, where closing a call's stream or its connection cancels the call (and
//! leaves no task behind: the tests run on one thread, whose alive tasks are counted), and
//! `serve_http` publishes the protected resource metadata (RFC 9728); also a 2025-03-26 batch,
//! whose calls run under the request time limit.
//!
//! Requests are sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its
//! `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_lifetime.rs` (cancellation and session lifetime), `http_modern.rs` (the 2026-07-28 era),
//! `http_listen.rs` (`subscriptions/listen`), `http_security.rs` (guards and limits),
//! `http_auth.rs` (bearer auth).

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use futures_util::StreamExt as _;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    TIMEOUT, bodiless, connect, in_session, initialize_body, legacy_call, modern_call,
    modern_headers, open_session, post, router, send, send_over_socket, serve_on_socket, server,
    sse_messages, tools_list, with_bearer_auth,
};
use serde_json::json;
use tower::ServiceExt as _;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
use crate::http_tools;

// ---- mounting ------------------------------------------------------------------------------

#[tokio::test]
async fn the_router_serves_where_an_app_nests_it() {
    let app = Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .nest("/api/mcp", server().into_router().unwrap());
    assert_serves_mcp_beside_health(&app).await;
}

/// `app` answers `tools/list` at `/api/mcp` and its own `/health` beside it.
async fn assert_serves_mcp_beside_health(app: &Router) {
    let mut request = post(&tools_list(), &modern_headers("tools/list", None));
    *request.uri_mut() = "/api/mcp".parse().unwrap();
    let reply = send(app, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert!(reply.json()["result"]["tools"].is_array());
    let health = send(app, Request::get("/health").body(Body::empty()).unwrap()).await;
    assert_eq!(&health.body[..], b"ok");
}

/// An app that serves `into_service()` itself shuts it down: a legacy client's GET stream, which
/// lasts until its client leaves, ends at `shutdown()` (on any clone), so the app's own graceful
/// shutdown is not kept waiting.
#[tokio::test]
async fn a_get_stream_through_the_service_ends_at_shutdown() {
    let service = server().into_service().unwrap();
    let app = Router::new().fallback_service(service.clone());
    let session = open_session(&app).await;
    let mut headers = in_session(&session).to_vec();
    headers.push(("accept", "text/event-stream"));
    let response = tokio::time::timeout(
        TIMEOUT,
        app.clone().oneshot(bodiless(Method::GET, &headers)),
    )
    .await
    .expect("the stream opens in time")
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.into_body().into_data_stream();

    service.shutdown();
    let ended = tokio::time::timeout(TIMEOUT, async {
        while let Some(chunk) = stream.next().await {
            chunk.unwrap();
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the GET stream is still open after shutdown()"
    );
}

/// `into_service()` is a tower service of `http` 1 types: axum mounts it with `nest_service`
/// (any axum version would; this is the one in the graph).
#[tokio::test]
async fn the_service_serves_under_nest_service() {
    let app = Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .nest_service("/api/mcp", server().into_service().unwrap());
    assert_serves_mcp_beside_health(&app).await;
}

/// `into_service()` served by hyper alone, no axum in the serving code: a JSON answer, then an
/// event stream whose end (the client closing it) cancels its call, as over `serve_http`.
#[tokio::test]
async fn the_service_serves_in_a_plain_hyper_server() {
    let service = server().into_service().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let service = hyper_util::service::TowerToHyperService::new(service.clone());
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });

    let (mut sender, driver) = connect(address).await;
    let request = post(&tools_list(), &modern_headers("tools/list", None));
    let response = tokio::time::timeout(TIMEOUT, sender.send_request(request))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
        .await
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(listed["result"]["tools"].is_array(), "{listed}");

    let request = post(
        &modern_call(
            1,
            "slow",
            &json!({"tag": "service-close", "seconds": 30}),
            &json!({"progressToken": "p"}),
        ),
        &modern_headers("tools/call", Some("slow")),
    );
    let response = tokio::time::timeout(TIMEOUT, sender.send_request(request))
        .await
        .unwrap()
        .unwrap();
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
    assert_eq!(ending("service-close", Some("started")).await, "started");
    drop(stream);
    drop(sender);
    driver.abort();
    assert_eq!(ending("service-close", None).await, "cancelled");
}

// ---- over a real socket --------------------------------------------------------------------

#[tokio::test]
async fn closing_a_modern_call_stream_cancels_the_call() {
    let address = serve_on_socket(router(HttpConfig::new())).await;
    let serving = alive_tasks();
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
    assert!(
        alive_tasks() > serving,
        "the connection and the call are tasks"
    );

    drop(stream);
    drop(sender);
    driver.abort();
    assert_eq!(ending("modern-close", None).await, "cancelled");
    settles_to(serving).await;
}

/// A client that gives up before any answer (no progress, so no stream yet) closes the connection:
/// that too cancels the call.
#[tokio::test]
async fn closing_the_connection_before_an_answer_cancels_the_call() {
    let address = serve_on_socket(router(HttpConfig::new())).await;
    let serving = alive_tasks();
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
    settles_to(serving).await;
}

fn alive_tasks() -> usize {
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

/// Waits (bounded) until only `serving` tasks are alive: the connection's and the call's ended.
async fn settles_to(serving: usize) {
    let settled = tokio::time::timeout(TIMEOUT, async {
        while alive_tasks() != serving {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(
        settled.is_ok(),
        "{} tasks alive, {serving} before the call",
        alive_tasks()
    );
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
            {"jsonrpc": "2.0", "id": 2, "result": {"isError": true, "content": [{"type": "text", "text": "Error executing tool slow: it ran longer than its time limit of 200ms and was stopped"}]}},
        ])
    );
    assert_eq!(ending("batched", None).await, "cancelled");
}
