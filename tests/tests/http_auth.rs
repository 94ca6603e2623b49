//! Bearer auth over Streamable HTTP, as a client sees it: missing and bad tokens refused with
//! where to get one (RFC 9728 metadata in `WWW-Authenticate`), every request of a session
//! guarded, a session kept to the client and user that opened it, and the caller a tool and a
//! completer see.
//!
//! The requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`),
//! sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_lifetime.rs` (cancellation and session lifetime), `http_modern.rs` (the 2026-07-28 era),
//! `http_listen.rs` (`subscriptions/listen`), `http_security.rs` (guards and limits),
//! `http_socket.rs` (mounting and real sockets).

use axum::http::{Method, StatusCode};
use mcp_toolbelt::{http::AuthInfo, http::HttpConfig, http::ProtectedResourceMetadata};
use mcp_toolbelt_tests::http::{
    bodiless, in_session, initialize_body, legacy_call, modern_call, modern_headers,
    modern_request, post, result_text, router, send, with_bearer_auth,
};
use serde_json::json;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.
mod http_tools;

// ---- bearer auth ---------------------------------------------------------------------------

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
    // Its GET stream and its end need the token too (each handler checks it, `Admitted`).
    let mut get = headers.clone();
    get.push(("accept", "text/event-stream"));
    let reply = send(&router, bodiless(Method::GET, &get)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "GET: {reply:?}");
    let reply = send(&router, bodiless(Method::DELETE, &headers)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "DELETE: {reply:?}");
    headers.push(token);
    let reply = send(
        &router,
        post(&legacy_call(3, "whoami", &json!({}), None), &headers),
    )
    .await;
    assert_eq!(result_text(&reply.json()), r#"client-7 ["tools"]"#);
    let reply = send(&router, bodiless(Method::DELETE, &headers)).await;
    assert_eq!(
        reply.status,
        StatusCode::NO_CONTENT,
        "DELETE with the token: {reply:?}"
    );
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
        Some(AuthInfo::new(client_id).subject(subject))
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

// ---- the caller a completer sees -----------------------------------------------------------

/// Opens one of the caller's notes
#[mcp_toolbelt::prompt]
async fn open_note(
    /// The note, among the caller's own
    #[complete(own_notes)]
    note: String,
) -> String {
    format!("Open {note}")
}

/// The notes of the caller the token speaks for, or none for an anonymous one.
async fn own_notes(
    _partial: &str,
    context: &mcp_toolbelt::completion::CompletionContext,
) -> Vec<String> {
    context
        .auth()
        .map(|auth| vec![format!("{}'s note", auth.client_id)])
        .unwrap_or_default()
}

#[tokio::test]
async fn a_completer_sees_the_caller_the_token_speaks_for() {
    let complete = modern_request(
        1,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "open_note"}, "argument": {"name": "note", "value": ""}}),
        &json!({}),
    );
    let headers = modern_headers("completion/complete", None);
    let guarded = router(with_bearer_auth(
        HttpConfig::new(),
        "http://localhost:3000/mcp",
    ));
    let mut authorized = headers.clone();
    authorized.push(("authorization", "Bearer good-token"));
    let reply = send(&guarded, post(&complete, &authorized)).await;
    assert_eq!(
        reply.json()["result"]["completion"]["values"],
        json!(["client-7's note"]),
        "{reply:?}"
    );
    let reply = send(&guarded, post(&complete, &headers)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let anonymous = router(HttpConfig::new());
    let reply = send(&anonymous, post(&complete, &headers)).await;
    assert_eq!(
        reply.json()["result"]["completion"]["values"],
        json!([]),
        "{reply:?}"
    );
}

// ---- the metadata's URL, as served (issue 40, item 13) ---------------------------------------

/// The answer to a raw HTTP/1.1 `method` of `path` at `address`: its head and body.
fn raw(address: std::net::SocketAddr, method: &str, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let body = if method == "POST" { body } else { "" };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// The `resource_metadata` URL of a `401`'s challenge.
fn challenge_url(answer: &str) -> &str {
    answer
        .lines()
        .find_map(|line| {
            line.to_ascii_lowercase()
                .starts_with("www-authenticate:")
                .then(|| line.split("resource_metadata=\"").nth(1))
                .flatten()
        })
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no challenge in {answer}"))
}

#[test]
fn the_metadata_follows_the_address_served_or_the_resource_named() {
    let bearer = std::path::Path::new(env!("CARGO_BIN_EXE_bearer"));
    let served = mcp_toolbelt_tests::CatalogHttp::start_binary(
        bearer,
        |address| address.to_string(),
        &[],
        &[],
    );
    let address = served.address;
    let refused = raw(address, "POST", "/mcp");
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    let document = format!("http://{address}/.well-known/oauth-protected-resource/mcp");
    assert_eq!(challenge_url(&refused), document);
    let got = raw(address, "GET", "/.well-known/oauth-protected-resource/mcp");
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    let json: serde_json::Value =
        serde_json::from_str(got.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(json["resource"], format!("http://{address}/mcp"), "{got}");
    drop(served);

    // Behind a proxy, `--resource` names the URL clients use.
    let named = mcp_toolbelt_tests::CatalogHttp::start_binary(
        bearer,
        |address| address.to_string(),
        &["--resource", "https://mcp.example.com/mcp"],
        &[],
    );
    assert_eq!(
        challenge_url(&raw(named.address, "POST", "/mcp")),
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    );
}

#[test]
fn metadata_waiting_for_an_address_is_refused_where_none_is_served() {
    let config = HttpConfig::new().bearer_auth(
        ProtectedResourceMetadata::at_served_address("https://auth.example.com"),
        |_token: String| async { None::<AuthInfo> },
    );
    let refused = mcp_toolbelt::Server::new("guarded", "1.0.0")
        .http_config(config)
        .into_router()
        .expect_err("no address is served");
    assert!(
        refused
            .to_string()
            .contains("ProtectedResourceMetadata::new"),
        "{refused}"
    );
}
