//! Streamable HTTP under hostile and careless clients: one value per deciding header, the
//! authority that counts, `Host` and `Origin` parsed rather than matched by prefix, and `Accept`
//! and `Content-Type` read as media types with qualities.
//!
//! The requests are answered in process by `Server::into_router()`; connection-level defences
//! (header timeouts, the connection cap) are tested over sockets in `http_connections.rs`.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    initialize_body, modern_call, modern_headers, modern_request, open_session, post, router, send,
    tools_list,
};
use serde_json::json;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.

/// A 2026-07-28 `tools/list` with `extra` headers added (appended: a name given twice is sent
/// twice).
fn listing(extra: &[(&str, &str)]) -> Request<Body> {
    let mut headers = modern_headers("tools/list", None);
    headers.extend_from_slice(extra);
    post(&tools_list(), &headers)
}

#[tokio::test]
async fn a_repeated_deciding_header_is_refused() {
    let router = router(HttpConfig::new());
    let call = modern_call(1, "count", &json!({}), &json!({}));
    let mut headers = modern_headers("tools/call", Some("count"));
    headers.push(("mcp-name", "whoami"));
    let reply = send(&router, post(&call, &headers)).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(
        reply.json()["error"]["message"],
        "Bad Request: more than one mcp-name header (send one value)"
    );
    for (name, value) in [
        ("mcp-protocol-version", "2025-11-25"),
        ("host", "evil.example.com"),
        ("origin", "http://localhost:3000"),
        ("authorization", "Bearer x"),
    ] {
        let reply = send(&router, listing(&[(name, value), (name, value)])).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{name}: {reply:?}");
    }
}

#[tokio::test]
async fn an_absolute_form_target_decides_the_host() {
    let router = router(HttpConfig::new());
    let mut request = listing(&[]);
    *request.uri_mut() = "http://evil.example.com/".parse().unwrap();
    assert_eq!(send(&router, request).await.status, StatusCode::FORBIDDEN);
    let mut request = listing(&[]);
    *request.uri_mut() = "http://LOCALHOST:3000/".parse().unwrap();
    assert_eq!(send(&router, request).await.status, StatusCode::OK);
}

#[tokio::test]
async fn hosts_are_parsed_not_matched_by_prefix() {
    let router = router(HttpConfig::new());
    let with_host = |host: &'static str| {
        let mut request = listing(&[]);
        request
            .headers_mut()
            .insert(header::HOST, host.parse().unwrap());
        request
    };
    for invalid in [
        "[::1].evil.com",
        "localhost:evil.com",
        "127.0.0.1:3000@evil.com",
    ] {
        let reply = send(&router, with_host(invalid)).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{invalid}: {reply:?}"
        );
    }
    for valid in ["LOCALHOST:3000", "localhost.:3000", "[::1]:3000"] {
        let reply = send(&router, with_host(valid)).await;
        assert_eq!(reply.status, StatusCode::OK, "{valid}: {reply:?}");
    }
    let mut no_host = listing(&[]);
    no_host.headers_mut().remove(header::HOST);
    let reply = send(&router, no_host).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(
        reply.json()["error"]["message"],
        "Bad Request: the Host header is required"
    );
}

#[tokio::test]
async fn origins_that_only_look_local_are_refused() {
    let router = router(HttpConfig::new());
    for origin in [
        "http://localhost:3000.evil.com",
        "http://127.0.0.1:3000@evil.com",
        "evil://localhost",
    ] {
        let reply = send(&router, listing(&[("origin", origin)])).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{origin}: {reply:?}");
    }
    let reply = send(&router, listing(&[("origin", "http://localhost:5173")])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
}

#[tokio::test]
async fn accept_and_content_type_are_media_types() {
    let router = router(HttpConfig::new());
    let with = |name: header::HeaderName, value: &'static str| {
        let mut request = listing(&[]);
        request.headers_mut().insert(name, value.parse().unwrap());
        request
    };
    let refused_stream = with(header::ACCEPT, "text/event-stream;q=0");
    assert_eq!(
        send(&router, refused_stream).await.status,
        StatusCode::NOT_ACCEPTABLE
    );
    let shouted = with(header::ACCEPT, "Application/JSON");
    assert_eq!(send(&router, shouted).await.status, StatusCode::OK);
    for content_type in [
        "application/jsonp",
        "application/json-patch+json",
        "application/json; charset=UTF-16",
    ] {
        let reply = send(&router, with(header::CONTENT_TYPE, content_type)).await;
        assert_eq!(
            reply.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type}"
        );
    }
    let utf8 = with(header::CONTENT_TYPE, "application/json; charset=utf-8");
    assert_eq!(send(&router, utf8).await.status, StatusCode::OK);
}

/// A legacy `tools/list` with id 7.
fn legacy_list() -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
}

#[tokio::test]
async fn refusals_after_the_body_is_read_carry_the_request_id() {
    let router = router(
        HttpConfig::new()
            .max_sessions(1)
            .session_idle_timeout(std::time::Duration::from_hours(1)),
    );
    let no_session = send(&router, post(&legacy_list(), &[])).await;
    assert_eq!(no_session.status, StatusCode::BAD_REQUEST);
    assert_eq!(no_session.json()["id"], 7, "{no_session:?}");
    let unknown = send(&router, post(&legacy_list(), &[("mcp-session-id", "nope")])).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json()["id"], 7, "{unknown:?}");
    let bad_version = send(
        &router,
        post(&legacy_list(), &[("mcp-protocol-version", "1999-01-01")]),
    )
    .await;
    assert_eq!(bad_version.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad_version.json()["id"], 7, "{bad_version:?}");
    // The one session is in use (its GET stream is open): the next initialize gets 503, its
    // id, and when to try again.
    let session = open_session(&router).await;
    let mut get_stream = Request::get("/")
        .header("host", "localhost:3000")
        .header("accept", "text/event-stream");
    for (name, value) in mcp_toolbelt_tests::http::in_session(&session) {
        get_stream = get_stream.header(name, value);
    }
    let stream =
        tower::ServiceExt::oneshot(router.clone(), get_stream.body(Body::empty()).unwrap())
            .await
            .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let full = send(&router, post(&initialize_body(), &[])).await;
    assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(full.json()["id"], 1, "{full:?}");
    assert_eq!(full.header("retry-after"), Some("5"));
    drop(stream);
}

#[tokio::test]
async fn what_2026_07_28_lacks_is_named() {
    let router = router(HttpConfig::new());
    let modern = [("mcp-protocol-version", "2026-07-28")];
    let batch = json!([legacy_list()]);
    let reply = send(&router, post(&batch, &modern)).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.json()["error"]["message"],
        "Invalid Request: 2026-07-28 has no JSON-RPC batches; send each request in a POST of its own"
    );
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    let reply = send(&router, post(&response, &modern)).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("takes no responses"),
        "{reply:?}"
    );
}

#[tokio::test]
async fn a_2025_03_26_batch_item_cannot_claim_2026_07_28() {
    let router = router(HttpConfig::new().stateless(true));
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        modern_request(2, "tools/list", json!({}), &json!({})),
    ]);
    let reply = send(
        &router,
        post(&batch, &[("mcp-protocol-version", "2025-03-26")]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let answers = reply.json();
    assert!(answers[0]["result"]["tools"].is_array(), "{answers}");
    assert_eq!(answers[1]["id"], 2);
    assert_eq!(answers[1]["error"]["code"], -32600, "{answers}");
}

/// A batch of 100,000 items is refused whole (`400`), past the batch cap, before any of it runs.
#[tokio::test]
async fn a_2025_03_26_batch_over_the_cap_is_refused_whole() {
    let router = router(HttpConfig::new().stateless(true));
    let batch = serde_json::Value::Array(vec![json!({}); 100_000]);
    let reply = send(
        &router,
        post(&batch, &[("mcp-protocol-version", "2025-03-26")]),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(
        reply.json(),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
               "message": "Invalid Request: a batch of 100000 items; at most 1024 are taken (send the rest in another)"}})
    );
}

#[tokio::test]
async fn a_sessions_version_header_must_be_the_negotiated_one() {
    let router = router(HttpConfig::new());
    let session = open_session(&router).await;
    let reply = send(
        &router,
        post(
            &legacy_list(),
            &[
                ("mcp-session-id", &session),
                ("mcp-protocol-version", "2025-06-18"),
            ],
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(
        reply.json()["error"]["message"],
        "Bad Request: MCP-Protocol-Version 2025-06-18 does not match this session's 2025-11-25"
    );
    let matching = send(
        &router,
        post(
            &legacy_list(),
            &[
                ("mcp-session-id", &session),
                ("mcp-protocol-version", "2025-11-25"),
            ],
        ),
    )
    .await;
    assert_eq!(matching.status, StatusCode::OK, "{matching:?}");
}

#[tokio::test]
async fn error_texts_say_what_was_sent() {
    let router = router(HttpConfig::new());
    let reply = send(&router, post(&legacy_list(), &[("mcp-session-id", "é")])).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not visible ASCII"),
        "{reply:?}"
    );
    let call = modern_call(1, "count", &json!({}), &json!({}));
    let reply = send(
        &router,
        post(&call, &modern_headers("tools/call", Some("cöunt"))),
    )
    .await;
    assert_eq!(
        reply.json()["error"]["message"],
        "Header mismatch: the Mcp-Name header is not visible ASCII; send other text as =?base64?…?="
    );
    let capabilities = modern_request(
        1,
        "tools/list",
        json!({}),
        &json!({"io.modelcontextprotocol/clientCapabilities": 3}),
    );
    let reply = send(
        &router,
        post(&capabilities, &modern_headers("tools/list", None)),
    )
    .await;
    assert_eq!(
        reply.json()["error"]["message"],
        "`_meta.io.modelcontextprotocol/clientCapabilities` must be an object, got 3"
    );
    let numeric = modern_request(
        1,
        "tools/list",
        json!({}),
        &json!({"io.modelcontextprotocol/protocolVersion": 2026}),
    );
    let reply = send(&router, post(&numeric, &modern_headers("tools/list", None))).await;
    assert_eq!(
        reply.json()["error"]["message"],
        "Header mismatch: MCP-Protocol-Version header value '2026-07-28' does not match body value '2026'"
    );
}

#[tokio::test]
async fn a_post_whose_body_never_comes_holds_no_request_place() {
    let router = router(HttpConfig::new().max_requests(1));
    let mut stalled = listing(&[]);
    let never = futures_util::stream::pending::<Result<axum::body::Bytes, std::io::Error>>();
    *stalled.body_mut() = Body::from_stream(never);
    let stalled = tokio::spawn({
        let router = router.clone();
        async move { send(&router, stalled).await }
    });
    // Let the stalled request reach its body.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let reply = send(&router, listing(&[])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    stalled.abort();
}
