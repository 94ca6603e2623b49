//! `subscriptions/listen` over Streamable HTTP (2026-07-28), as a client sees it: the stream
//! acknowledges what it will send and tells tool changes, only those asked for; it needs an event
//! stream and a filter, streams are capped, and a legacy session cannot listen. Also 2026-07-28
//! notifications: accepted, unless their headers disagree with the body.
//!
//! The requests are answered in process by `Server::into_router()` (`tower::ServiceExt::oneshot`),
//! sent and read with `mcp_toolbelt_tests::http`; every wait is bounded by its `TIMEOUT`.
//!
//! Graceful shutdown (SIGINT/SIGTERM, then `shutdown_grace`) is tested in `shutdown.rs`, on a
//! server process of its own: a signal sent to this test process would reach every server in it.
//!
//! The other Streamable HTTP tests: `http_legacy.rs` (legacy sessions and responses),
//! `http_lifetime.rs` (cancellation and session lifetime), `http_modern.rs` (the 2026-07-28 era),
//! `http_security.rs` (guards and limits), `http_auth.rs` (bearer auth), `http_socket.rs` (mounting
//! and real sockets).

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use mcp_toolbelt::{CallToolResult, http::HttpConfig, tool::Tool};
use mcp_toolbelt_tests::http::{
    Events, TIMEOUT, envelope, in_session, modern_headers, modern_request, open_session, post,
    router, send, server,
};
use serde_json::{Value, json};
use tower::ServiceExt as _;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.

// ---- modern era: subscriptions/listen -------------------------------------------------------

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
    let server = server();
    let handle = server.tools();
    let router = server
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
    handle.add(added_tool("added-1")).unwrap();
    assert!(handle.remove("added-1"));
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
    let server = server();
    let handle = server.tools();
    let router = server.into_router().unwrap();
    let response = open_listen(&router, 8, &json!({"promptsListChanged": true})).await;
    let mut events = Events::of(response);
    assert_eq!(
        events.next().await.unwrap()["params"]["notifications"],
        json!({})
    );
    handle.add(added_tool("added-2")).unwrap();
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
