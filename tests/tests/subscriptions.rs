//! Resource subscriptions and `list_changed`, at the wire, in both eras: a legacy client
//! subscribes with `resources/subscribe` (stdio, or an HTTP session told on its GET stream), a
//! 2026-07-28 client names its `resourceSubscriptions` on a `subscriptions/listen` stream (stdio
//! and HTTP). `Resources::notify_updated` reaches only the subscribers of that URI (or of a
//! template it matches), and an unsubscribed one hears no more; resources added or removed while
//! serving are `notifications/resources/list_changed`, prompts changed
//! `notifications/prompts/list_changed` where the capabilities declare it.
//!
//! "Not told" is shown by order: every listener hears the server's changes in the order they
//! were made, so after a change it must not hear, a change it must hear is the next message.
//!
//! stdio runs in process (`InProcess`), HTTP through `Server::into_router()`; every wait is
//! bounded.

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request};
use mcp_toolbelt::Server;
use mcp_toolbelt::prompt::{Prompt, Prompts};
use mcp_toolbelt::resource::{Resource, Resources};
use mcp_toolbelt_tests::http::{
    Events, TIMEOUT, bodiless, in_session, modern_headers, modern_request, open_session, post, send,
};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// A server with `notes://1` and the template `notes://{id}`, and the handle to its resources.
fn server() -> (Server, Resources, Prompts) {
    let server = Server::new("subscriptions-tests", "1.0.0");
    let resources = server.resources();
    // Taken, so prompts are served (and their list said to change) though there are none yet.
    let prompts = server.prompts();
    let note = |request: mcp_toolbelt::resource::ReadRequest| async move {
        format!("note {}", request.uri())
    };
    resources
        .add(Resource::new("notes://1", "first-note", note).unwrap())
        .unwrap();
    resources
        .add(Resource::new("notes://{id}", "note", note).unwrap())
        .unwrap();
    (server, resources, prompts)
}

/// Adds the prompt `p`, or removes it when present: the prompt list changes.
fn change_prompts(prompts: &Prompts) {
    if !prompts.remove("p") {
        let prompt = Prompt::new("p", "A prompt that comes and goes", |_, _| async { "p" });
        prompts.add(prompt).unwrap();
    }
}

/// A resource to add and remove, so that the list changes.
fn extra() -> Resource {
    Resource::new("extra://x", "extra", |_| async { "x" }).unwrap()
}

fn updated(uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
}

fn list_changed(list: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": format!("notifications/{list}/list_changed")})
}

/// The same notification tagged with the `subscriptions/listen` stream it belongs to.
fn tagged(mut notification: Value, id: u64) -> Value {
    let params = notification
        .as_object_mut()
        .unwrap()
        .entry("params")
        .or_insert_with(|| json!({}));
    params["_meta"] = json!({"io.modelcontextprotocol/subscriptionId": id});
    notification
}

async fn initialize(client: &mut InProcess) -> Value {
    let answer = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    answer["result"]["capabilities"].clone()
}

// ---- legacy stdio ----------------------------------------------------------------------------

/// A subscription names a served URI or template; updates reach it until it is undone.
#[tokio::test]
async fn stdio_subscribers_hear_their_updates_until_they_unsubscribe() {
    let (server, resources, _prompts) = server();
    let mut client = InProcess::start(server);
    let capabilities = initialize(&mut client).await;
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );

    let answer = client
        .request(2, "resources/subscribe", json!({"uri": "notes://1"}))
        .await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    let refused = client
        .request(3, "resources/subscribe", json!({"uri": "nothing://here"}))
        .await;
    assert_eq!(
        refused["error"],
        json!({"code": -32002, "message": "Resource not found: nothing://here",
               "data": {"uri": "nothing://here"}})
    );

    // notes://2 is served (by the template) but not subscribed to.
    resources.notify_updated("notes://2");
    resources.notify_updated("notes://1");
    assert_eq!(client.next_message().await, updated("notes://1"));

    // The template as listed covers every note.
    client
        .request(4, "resources/subscribe", json!({"uri": "notes://{id}"}))
        .await;
    resources.notify_updated("notes://7");
    assert_eq!(client.next_message().await, updated("notes://7"));

    for (id, uri) in [(5, "notes://1"), (6, "notes://{id}")] {
        let answer = client
            .request(id, "resources/unsubscribe", json!({"uri": uri}))
            .await;
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    resources.notify_updated("notes://1");
    resources.notify_updated("notes://7");
    resources.add(extra()).unwrap();
    assert_eq!(
        client.next_message().await,
        list_changed("resources"),
        "no update after unsubscribing"
    );
}

/// Resources added and removed are told; prompts changed are told when the capabilities say
/// prompts' list changes, and not otherwise.
#[tokio::test]
async fn stdio_hears_the_lists_its_capabilities_declare() {
    let (server, resources, prompts) = server();
    let mut client = InProcess::start(server);
    let capabilities = initialize(&mut client).await;
    assert_eq!(
        capabilities["prompts"]["listChanged"], true,
        "{capabilities}"
    );

    resources.add(extra()).unwrap();
    assert_eq!(client.next_message().await, list_changed("resources"));
    change_prompts(&prompts);
    assert!(resources.remove("extra://x"));
    assert_eq!(client.next_message().await, list_changed("prompts"));
    assert_eq!(client.next_message().await, list_changed("resources"));
    assert!(!resources.remove("extra://x"), "already removed");
    assert!(
        resources.add(extra()).is_ok() && resources.add(extra()).is_err(),
        "a URI is served once"
    );
}

/// A 2026-07-28 client on stdio listens; `resources/subscribe` is not a method of its era.
#[tokio::test]
async fn stdio_listen_streams_the_updates_of_the_uris_it_names() {
    let (server, resources, _prompts) = server();
    let mut client = InProcess::start(server);
    let envelope = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let refused = client
        .request(
            1,
            "resources/subscribe",
            json!({"uri": "notes://1", "_meta": envelope}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");

    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {
                "_meta": envelope,
                "notifications": {
                    "resourcesListChanged": true,
                    "promptsListChanged": true,
                    "resourceSubscriptions": ["notes://1", "nothing://here"],
                },
            }}),
        )
        .await;
    let acknowledged = client.next_message().await;
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    let honoured = &acknowledged["params"]["notifications"];
    assert_eq!(honoured["resourcesListChanged"], true, "{acknowledged}");
    assert_eq!(honoured["resourceSubscriptions"], json!(["notes://1"]));
    assert!(
        honoured.get("toolsListChanged").is_none(),
        "not asked for: {acknowledged}"
    );

    resources.notify_updated("notes://2");
    resources.notify_updated("notes://1");
    assert_eq!(client.next_message().await, tagged(updated("notes://1"), 9));
    resources.add(extra()).unwrap();
    assert_eq!(
        client.next_message().await,
        tagged(list_changed("resources"), 9)
    );
    // Cancelled, the stream tells nothing more; the connection still serves.
    client.cancel(9).await;
    client.assert_alive(10).await;
    resources.notify_updated("notes://1");
    client.assert_alive(11).await;
}

// ---- legacy HTTP: the session's GET stream ---------------------------------------------------

async fn get_stream(router: &Router, session: &str) -> Events {
    let mut headers = in_session(session).to_vec();
    headers.push(("accept", "text/event-stream"));
    let response = tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(bodiless(Method::GET, &headers)),
    )
    .await
    .unwrap()
    .unwrap();
    Events::of(response)
}

fn legacy(id: u64, method: &str, params: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Each session has its own subscriptions: only the subscribed one is told of an update; both
/// are told of the list changing.
#[tokio::test]
async fn http_sessions_are_told_only_of_what_they_subscribed_to() {
    let (server, resources, prompts) = server();
    let router = server.into_router().unwrap();
    let subscriber = open_session(&router).await;
    let other = open_session(&router).await;
    let mut subscriber_events = get_stream(&router, &subscriber).await;
    let mut other_events = get_stream(&router, &other).await;

    let subscribe = legacy(2, "resources/subscribe", &json!({"uri": "notes://{id}"}));
    let reply = send(&router, post(&subscribe, &in_session(&subscriber))).await;
    assert_eq!(reply.json()["result"], json!({}), "{reply:?}");
    let unknown = legacy(3, "resources/subscribe", &json!({"uri": "nothing://here"}));
    let reply = send(&router, post(&unknown, &in_session(&other))).await;
    assert_eq!(reply.json()["error"]["code"], -32002, "{reply:?}");

    resources.notify_updated("notes://5");
    resources.add(extra()).unwrap();
    assert_eq!(subscriber_events.next().await, Some(updated("notes://5")));
    assert_eq!(
        subscriber_events.next().await,
        Some(list_changed("resources"))
    );
    assert_eq!(
        other_events.next().await,
        Some(list_changed("resources")),
        "the other session was not told of the update"
    );

    let unsubscribe = legacy(4, "resources/unsubscribe", &json!({"uri": "notes://{id}"}));
    send(&router, post(&unsubscribe, &in_session(&subscriber))).await;
    resources.notify_updated("notes://5");
    change_prompts(&prompts);
    assert!(resources.remove("extra://x"));
    assert_eq!(
        subscriber_events.next().await,
        Some(list_changed("prompts")),
        "unsubscribed: no update, the prompt list's change first"
    );
    assert_eq!(
        subscriber_events.next().await,
        Some(list_changed("resources"))
    );
}

/// A session whose GET stream fell more than the channel holds behind (a client that does not
/// read it while the server changes fast) loses no update without a word: it is told that
/// every list it hears changed and that every URI it subscribed to was updated.
#[tokio::test]
async fn a_session_that_fell_behind_is_told_everything_it_hears() {
    let (server, resources, _prompts) = server();
    let router = server.into_router().unwrap();
    let session = open_session(&router).await;
    let subscribe = legacy(2, "resources/subscribe", &json!({"uri": "notes://1"}));
    send(&router, post(&subscribe, &in_session(&session))).await;
    // Opened, not read yet: nothing takes the changes off the channel meanwhile.
    let mut events = get_stream(&router, &session).await;
    for _ in 0..2_000 {
        resources.notify_updated("notes://2");
    }
    resources.add(extra()).unwrap();
    let mut heard = Vec::new();
    for _ in 0..5 {
        heard.push(events.next().await.unwrap());
    }
    assert_eq!(
        heard,
        [
            list_changed("tools"),
            list_changed("prompts"),
            list_changed("resources"),
            updated("notes://1"),
            list_changed("resources"),
        ]
    );
}

// ---- 2026-07-28 HTTP: subscriptions/listen ---------------------------------------------------

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

async fn listen(router: &Router, id: u64, notifications: &Value) -> Events {
    let response = tokio::time::timeout(
        TIMEOUT,
        router.clone().oneshot(listen_request(id, notifications)),
    )
    .await
    .unwrap()
    .unwrap();
    Events::of(response)
}

/// Each stream hears what it named: the updates of its URIs (a template's expansions too), the
/// lists it asked for; the acknowledgement says what is honoured.
#[tokio::test]
async fn http_listen_streams_hear_only_what_they_named() {
    let (server, resources, prompts) = server();
    let router = server.into_router().unwrap();
    let requested = json!({
        "toolsListChanged": true,
        "promptsListChanged": true,
        "resourceSubscriptions": ["notes://1", "nothing://here", "notes://{id}"],
    });
    let mut subscriber = listen(&router, 3, &requested).await;
    let ack = subscriber.next().await.unwrap();
    let honoured = &ack["params"]["notifications"];
    assert_eq!(
        honoured["resourceSubscriptions"],
        json!(["notes://1", "notes://{id}"]),
        "{ack}"
    );
    assert_eq!(honoured["toolsListChanged"], true);
    assert!(honoured.get("resourcesListChanged").is_none(), "{ack}");
    assert_eq!(honoured["promptsListChanged"], true, "{ack}");

    let mut lists = listen(&router, 4, &json!({"resourcesListChanged": true})).await;
    assert_eq!(
        lists.next().await.unwrap()["params"]["notifications"],
        json!({"resourcesListChanged": true})
    );

    resources.notify_updated("notes://42");
    change_prompts(&prompts);
    resources.add(extra()).unwrap();
    assert_eq!(
        lists.next().await,
        Some(tagged(list_changed("resources"), 4)),
        "not subscribed to notes, not listening for prompts"
    );
    assert_eq!(
        subscriber.next().await,
        Some(tagged(updated("notes://42"), 3))
    );
    assert_eq!(
        subscriber.next().await,
        Some(tagged(list_changed("prompts"), 3))
    );
    resources.notify_updated("notes://1");
    assert_eq!(
        subscriber.next().await,
        Some(tagged(updated("notes://1"), 3)),
        "resources/list_changed was not asked for on this stream"
    );
}

/// Without resources (no `#[resource]`, none added), nothing can be subscribed to: the
/// method is unknown and listen honours no subscription.
#[tokio::test]
async fn a_server_without_resources_has_no_subscriptions() {
    let mut client = InProcess::start(Server::new("no-resources", "1.0.0"));
    let capabilities = initialize(&mut client).await;
    assert!(capabilities.get("resources").is_none(), "{capabilities}");
    let refused = client
        .request(2, "resources/subscribe", json!({"uri": "notes://1"}))
        .await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");

    let router = Server::new("no-resources", "1.0.0").into_router().unwrap();
    let mut events = listen(
        &router,
        5,
        &json!({"resourceSubscriptions": ["notes://1"], "resourcesListChanged": true}),
    )
    .await;
    assert_eq!(
        events.next().await.unwrap()["params"]["notifications"],
        json!({})
    );
}

/// A 2026-07-28 notification may leave `Mcp-Method` out (the spec requires it of requests): the
/// TypeScript SDK closes a listen stream with such a `notifications/cancelled`. One that sends
/// another method is still refused.
#[tokio::test]
async fn a_modern_cancellation_without_mcp_method_is_accepted() {
    let (server, _resources, _prompts) = server();
    let router = server.into_router().unwrap();
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
        "requestId": 3,
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
    }});
    let reply = send(
        &router,
        post(&cancelled, &[("mcp-protocol-version", "2026-07-28")]),
    )
    .await;
    assert_eq!(reply.status, axum::http::StatusCode::ACCEPTED, "{reply:?}");
    let reply = send(
        &router,
        post(&cancelled, &modern_headers("tools/list", None)),
    )
    .await;
    assert_eq!(reply.json()["error"]["code"], -32020, "{reply:?}");
}

// ---- listeners whose client does not read --------------------------------------------------

/// How many updates a flood sends: more than a listener's room (`max_queued_messages`, 1,024),
/// the channel (1,024) and the pipes hold together.
const FLOOD: usize = 5_000;

/// `count` updates of `uri`, each given the time to reach the listeners (which take it off the
/// channel as long as their output has room).
async fn flood(resources: &Resources, uri: &str, count: usize) {
    for _ in 0..count {
        resources.notify_updated(uri);
        tokio::task::yield_now().await;
    }
}

/// Counts `message` when it is an update; `true` once it is `list_change`. The other lists'
/// changes are what a listener that fell behind is told too.
fn heard_list_change(message: &Value, list_change: &Value, updates: &mut usize) -> bool {
    if message == list_change {
        return true;
    }
    if message["method"]
        .as_str()
        .is_some_and(|method| method.ends_with("/list_changed"))
    {
        return false;
    }
    assert_eq!(
        message["method"], "notifications/resources/updated",
        "{message}"
    );
    *updates += 1;
    assert!(*updates <= FLOOD, "more updates than were sent");
    false
}

/// A 2026-07-28 listen stream over HTTP whose client does not read while updates go out: none
/// is dropped for want of room. Fewer than the channel holds all arrive, in order, then the list
/// change after them; thousands make the stream fall behind the channel, and it is told what
/// it missed, the list change after them still arriving.
#[tokio::test]
async fn an_http_listen_stream_not_read_loses_no_change() {
    let (server, resources, _prompts) = server();
    // A small queue (16): the stream's room fills long before the channel (1,024) does.
    let router = server.max_queued_messages(16).into_router().unwrap();
    let requested = json!({"resourcesListChanged": true, "resourceSubscriptions": ["notes://1"]});
    let mut events = listen(&router, 7, &requested).await;
    let acknowledged = events.next().await.unwrap();
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    let list_change = tagged(list_changed("resources"), 7);

    flood(&resources, "notes://1", 600).await;
    resources.add(extra()).unwrap();
    let mut updates = 0;
    while !heard_list_change(&events.next().await.unwrap(), &list_change, &mut updates) {}
    assert_eq!(
        updates, 600,
        "every update waited for room; none was dropped"
    );

    flood(&resources, "notes://1", FLOOD).await;
    assert!(resources.remove("extra://x"));
    let mut updates = 0;
    while !heard_list_change(&events.next().await.unwrap(), &list_change, &mut updates) {}
    assert!(updates < FLOOD, "it fell behind: {updates} updates heard");
}

/// The same on stdio, a legacy connection's announcements: what waits for a client that does
/// not read is bounded (the connection falls behind and is told what it missed), and the list
/// change after the flood arrives.
#[tokio::test]
async fn a_stdio_connection_not_read_falls_behind_and_loses_no_change() {
    let (server, resources, _prompts) = server();
    let mut client = InProcess::start(server);
    initialize(&mut client).await;
    client
        .request(2, "resources/subscribe", json!({"uri": "notes://1"}))
        .await;
    flood(&resources, "notes://1", FLOOD).await;
    resources.add(extra()).unwrap();
    let list_change = list_changed("resources");
    let mut updates = 0;
    while !heard_list_change(&client.next_message().await, &list_change, &mut updates) {}
    assert!(updates < FLOOD, "it fell behind: {updates} updates heard");
}

/// A 2026-07-28 listen stream on stdio, likewise.
#[tokio::test]
async fn a_stdio_listen_stream_not_read_falls_behind_and_loses_no_change() {
    let (server, resources, _prompts) = server();
    let mut client = InProcess::start(server);
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
                "notifications": {
                    "resourcesListChanged": true,
                    "resourceSubscriptions": ["notes://1"],
                },
            }}),
        )
        .await;
    let acknowledged = client.next_message().await;
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    flood(&resources, "notes://1", FLOOD).await;
    resources.add(extra()).unwrap();
    let list_change = tagged(list_changed("resources"), 9);
    let mut updates = 0;
    while !heard_list_change(&client.next_message().await, &list_change, &mut updates) {}
    assert!(updates < FLOOD, "it fell behind: {updates} updates heard");
}

/// Stateless HTTP keeps no session and has no GET stream: a legacy client could never hear a
/// change, so it is offered no `listChanged` and no `subscribe`, and `resources/subscribe` is
/// no method for it; a 2026-07-28 client still listens on a stream of its own.
#[tokio::test]
async fn stateless_http_offers_legacy_clients_no_change_they_cannot_hear() {
    let (server, resources, _prompts) = server();
    let router = server
        .http_config(mcp_toolbelt::http::HttpConfig::new().stateless(true))
        .into_router()
        .unwrap();
    let reply = send(
        &router,
        post(&mcp_toolbelt_tests::http::initialize_body(), &[]),
    )
    .await;
    let capabilities = &reply.json()["result"]["capabilities"];
    assert_eq!(capabilities["resources"], json!({}), "{capabilities}");
    assert_eq!(capabilities["tools"], json!({}), "{capabilities}");
    let subscribe = legacy(2, "resources/subscribe", &json!({"uri": "notes://1"}));
    let reply = send(
        &router,
        post(&subscribe, &[("mcp-protocol-version", "2025-11-25")]),
    )
    .await;
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply:?}");

    let discover = send(
        &router,
        post(
            &modern_request(3, "server/discover", json!({}), &json!({})),
            &modern_headers("server/discover", None),
        ),
    )
    .await;
    assert_eq!(
        discover.json()["result"]["capabilities"]["resources"],
        json!({"subscribe": true, "listChanged": true}),
        "{discover:?}"
    );
    let mut events = listen(&router, 4, &json!({"resourceSubscriptions": ["notes://1"]})).await;
    events.next().await.unwrap();
    resources.notify_updated("notes://1");
    assert_eq!(events.next().await, Some(tagged(updated("notes://1"), 4)));
}

/// A listen stream subscribed to a template that falls behind cannot be told which of its URIs
/// changed: it ends with its result (the client listens again and reads anew), rather than go
/// on without a word about the updates it missed.
#[tokio::test]
async fn a_listen_stream_with_a_template_that_falls_behind_ends() {
    let (server, resources, _prompts) = server();
    let router = server.max_queued_messages(16).into_router().unwrap();
    let mut events = listen(
        &router,
        8,
        &json!({"resourceSubscriptions": ["notes://{id}"]}),
    )
    .await;
    let acknowledged = events.next().await.unwrap();
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({"resourceSubscriptions": ["notes://{id}"]})
    );
    flood(&resources, "notes://5", FLOOD).await;
    let mut updates = 0;
    let result = loop {
        let message = events
            .next()
            .await
            .expect("the stream answers before it ends");
        if message.get("id").is_some() {
            break message;
        }
        assert_eq!(message, tagged(updated("notes://5"), 8));
        updates += 1;
    };
    assert!(updates < FLOOD, "it fell behind: {updates} updates heard");
    assert_eq!(
        result["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 8,
        "{result}"
    );
    assert_eq!(events.next().await, None, "the stream ended");
}

/// Subscriptions are bounded server-wide, not only per listener: every session's together hold
/// at most the server's memory budget (`max_request_memory`, counted apart from requests); past
/// it a subscription is refused as past one connection's cap (`-32602`), on any session, until
/// one is undone.
#[tokio::test]
async fn subscriptions_are_bounded_server_wide() {
    let (server, _resources, _prompts) = server();
    let router = server.max_request_memory(64 * 1024).into_router().unwrap();
    let first = open_session(&router).await;
    let second = open_session(&router).await;
    let subscribe = |id: u64, uri: String| legacy(id, "resources/subscribe", &json!({"uri": uri}));
    let mut subscribed = 0;
    let refused = loop {
        assert!(
            subscribed < 2_000,
            "still subscribing past the server's budget"
        );
        let uri = format!("notes://{subscribed}");
        let reply = send(&router, post(&subscribe(10, uri), &in_session(&first))).await;
        if reply.json().get("error").is_some() {
            break reply.json();
        }
        subscribed += 1;
    };
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let reply = send(
        &router,
        post(&subscribe(11, "notes://other".into()), &in_session(&second)),
    )
    .await;
    assert_eq!(
        reply.json()["error"]["code"],
        -32602,
        "the budget is the server's: {reply:?}"
    );
    let unsubscribe = legacy(12, "resources/unsubscribe", &json!({"uri": "notes://0"}));
    send(&router, post(&unsubscribe, &in_session(&first))).await;
    let reply = send(
        &router,
        post(&subscribe(13, "notes://other".into()), &in_session(&second)),
    )
    .await;
    assert_eq!(reply.json()["result"], json!({}), "{reply:?}");
}

/// Taking the resources handle changes nothing served: a server that only lists through it
/// advertises no resources; once one is added, clients that initialize from then on are told
/// of them. `list` gives what a client sees listed.
#[tokio::test]
async fn the_resources_handle_lists_as_clients_see_and_serves_nothing_by_itself() {
    let server = Server::new("handle-only", "1.0.0");
    let resources = server.resources();
    assert!(resources.list().is_empty());
    let router = server.into_router().unwrap();
    let initialize = || {
        send(
            &router,
            post(&mcp_toolbelt_tests::http::initialize_body(), &[]),
        )
    };
    let capabilities = initialize().await.json()["result"]["capabilities"].clone();
    assert!(capabilities.get("resources").is_none(), "{capabilities}");

    resources
        .add(
            Resource::new("notes://{id}", "note", |_| async { "x" })
                .unwrap()
                .title("A note")
                .mime_type("text/plain")
                .icon(mcp_toolbelt::icon::Icon::new(
                    "https://example.com/note.png",
                )),
        )
        .unwrap();
    let listed = serde_json::to_value(resources.list()).unwrap();
    assert_eq!(
        listed,
        json!([{"uriTemplate": "notes://{id}", "name": "note", "title": "A note",
                "mimeType": "text/plain", "icons": [{"src": "https://example.com/note.png"}]}])
    );
    let capabilities = initialize().await.json()["result"]["capabilities"].clone();
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true}),
        "{capabilities}"
    );
    let session = open_session(&router).await;
    let templates = legacy(3, "resources/templates/list", &json!({}));
    let templates = send(&router, post(&templates, &in_session(&session))).await;
    assert_eq!(
        templates.json()["result"]["resourceTemplates"],
        listed,
        "{templates:?}"
    );
}
