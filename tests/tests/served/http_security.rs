//! The guards and limits of Streamable HTTP, as a client sees them: the DNS-rebinding guard (`Host`
//! and `Origin`), CORS for allowed origins, body size and time limits (a request admitted before
//! its body is read), requests at once, the request time limit, the session table, and the
//! `Content-Type` and `Accept` a request needs.
//!
//! The requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`),
//! sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_lifetime.rs` (cancellation and session lifetime), `http_modern.rs` (the 2026-07-28 era),
//! `http_listen.rs` (`subscriptions/listen`), `http_auth.rs` (bearer auth), `http_socket.rs`
//! (mounting and real sockets).

use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{Method, Request, StatusCode, header};
use futures_util::StreamExt as _;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    TIMEOUT, bodiless, in_session, initialize_body, modern_call, modern_headers, modern_request,
    open_session, post, router, send, server, tools_list, with_bearer_auth,
};
use serde_json::json;
use tower::ServiceExt as _;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
use crate::http_tools;

// ---- security and limits -------------------------------------------------------------------

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

/// CORS is for browsers on the endpoint: a path the endpoint does not serve is a plain 404
/// with no grant, and a client that is no browser (no `Origin`) gets no CORS headers, only the
/// `Vary` that keeps a cache from giving its answer to a browser.
#[tokio::test]
async fn unknown_paths_and_clients_without_origin_get_no_cors() {
    let router = router(HttpConfig::new().allow_origins(["https://app.example.com"]));
    let preflight = Request::builder()
        .method(Method::OPTIONS)
        .uri("/elsewhere")
        .header(header::HOST, "localhost:3000")
        .header(header::ORIGIN, "https://app.example.com")
        .header("access-control-request-method", "POST")
        .body(Body::empty())
        .unwrap();
    let reply = send(&router, preflight).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    assert_eq!(
        reply.header("access-control-allow-origin"),
        None,
        "{reply:?}"
    );
    let reply = send(&router, post(&initialize_body(), &[])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.header("access-control-allow-origin"),
        None,
        "{reply:?}"
    );
    assert!(
        reply
            .header("vary")
            .is_some_and(|vary| vary.contains("origin")),
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
    // A tool call past the time limit is the tool's failure: a result the model reads.
    assert_eq!(body["result"]["isError"], true, "{body}");
    assert_eq!(
        body["result"]["content"],
        json!([{"type": "text", "text": "Error executing tool slow: it ran longer than its time limit of 200ms and was stopped"}])
    );
    assert_eq!(
        ending("timeout", None).await,
        "cancelled",
        "the tool learns that its request ended"
    );
}

/// A full session table makes room by closing the least recently used session not in use, one
/// that never did anything (no call, no GET stream) first; when every session is in use (a GET
/// stream open), a new one is refused.
#[tokio::test]
async fn a_full_session_table_closes_the_least_recently_used_idle_session() {
    let router = router(
        HttpConfig::new()
            .max_sessions(2)
            .session_idle_timeout(Duration::from_hours(1)),
    );
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let first = open_session(&router).await;
    let second = open_session(&router).await;
    let reply = send(&router, post(&list, &in_session(&second))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // `first` never did anything: it goes, though `second` was used before it was named last.
    let third = open_session(&router).await;
    let reply = send(&router, post(&list, &in_session(&first))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    let reply = send(&router, post(&list, &in_session(&third))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // Both did something; `second` is the least recently used.
    let fourth = open_session(&router).await;
    let reply = send(&router, post(&list, &in_session(&second))).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");

    // Both in use: no room.
    let get_stream = |session: &str| {
        let mut request = Request::get("/")
            .header(header::HOST, "localhost:3000")
            .header(header::ACCEPT, "text/event-stream");
        for (name, value) in in_session(session) {
            request = request.header(name, value);
        }
        request.body(Body::empty()).unwrap()
    };
    let streams = (
        router.clone().oneshot(get_stream(&third)).await.unwrap(),
        router.clone().oneshot(get_stream(&fourth)).await.unwrap(),
    );
    assert_eq!(streams.0.status(), StatusCode::OK);
    assert_eq!(streams.1.status(), StatusCode::OK);
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
