//! Streamable HTTP under hostile and careless clients: one value per deciding header, the
//! authority that counts, `Host` and `Origin` parsed rather than matched by prefix, and `Accept`
//! and `Content-Type` read as media types with qualities.
//!
//! The requests are answered in process by `Server::into_router()`; connection-level defences
//! (header timeouts, the connection cap) are tested over sockets in `http_connections.rs`.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use mcp_toolbelt::HttpConfig;
use mcp_toolbelt_tests::http::{modern_call, modern_headers, post, router, send, tools_list};
use serde_json::json;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
mod http_tools;

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
