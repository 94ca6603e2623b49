//! Streamable HTTP in the 2026-07-28 era, as a client sees it: a request answered from itself
//! alone (no session), progress and log messages on a request-scoped SSE stream, the headers that
//! must agree with the body, and the errors for unsupported versions, missing client
//! capabilities and methods this era lacks; `server/discover`.
//!
//! The requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`),
//! sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_lifetime.rs` (cancellation and session lifetime), `http_listen.rs`
//! (`subscriptions/listen`), `http_security.rs` (guards and limits), `http_auth.rs` (bearer auth),
//! `http_socket.rs` (mounting and real sockets).

use axum::http::StatusCode;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    LEGACY, MODERN, assert_bad_request, modern_call, modern_headers, modern_request, post,
    result_text, router, send,
};
use serde_json::json;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
use crate::http_tools;

// ---- modern era (2026-07-28) ---------------------------------------------------------------

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
    // 2026-07-28 deprecates `logging` (new implementations SHOULD NOT adopt it).
    assert_eq!(result["capabilities"].get("logging"), None, "{result}");
}

/// A string holding a lone UTF-16 surrogate (a truncated emoji, which JavaScript's
/// `JSON.stringify` and Python's `json` write) is read as they read it, the surrogate become
/// U+FFFD, and the request is answered; a message that cannot be read at all is answered with its
/// id when the id can still be read.
#[tokio::test]
async fn a_lone_surrogate_is_read_as_a_replacement_character() {
    let router = router(HttpConfig::new());
    let raw = |text: String, headers: &[(&str, &str)]| {
        let mut request = post(&json!(null), headers);
        *request.body_mut() = axum::body::Body::from(text);
        request
    };
    let call = modern_call(7, "slow", &json!({"tag": "TAG", "seconds": 0}), &json!({}));
    let text = call.to_string().replace("TAG", r"cut \ud83d");
    let reply = send(
        &router,
        raw(text, &modern_headers("tools/call", Some("slow"))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.json()["id"], 7, "{reply:?}");
    assert_eq!(result_text(&reply.json()), "finished");
    assert_eq!(ending("cut \u{FFFD}", None).await, "finished");

    let broken = r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"#.to_owned();
    let reply = send(&router, raw(broken, &modern_headers("tools/list", None))).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    assert_eq!(reply.json()["id"], 8, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32700, "{reply:?}");
}
