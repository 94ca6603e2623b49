//! Who sees what, as a client meets it: a legacy session enables and disables tags for itself
//! from a tool (`Context::enable_tags`, `disable_tags`, `reset_tags`), its listings change, it
//! alone is told `list_changed`, what it hides is unknown to its calls; over stdio, over HTTP
//! (two sessions: the other's listing unchanged, no notification for it), and across two
//! replicas on one Redis (the change made on one, seen by the session on both, told to its GET
//! stream on the other). The server's rule on the caller (`Server::visibility`) decides for both
//! eras, two tokens seeing two listings, the `tools/list` pages kept per view, its reads
//! `private` as its listings are; what it hides cannot be subscribed to.

// Items are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::time::Duration;

use axum::Router;
use axum::http::{Method, StatusCode};
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::prompt::{Prompt, Prompts};
use mcp_toolbelt::redis::Redis;
use mcp_toolbelt::{Context, Server, Visibility, VisibilityError, prompt, resource, tool};
use mcp_toolbelt_tests::http::{
    Events, bodiless, in_session, initialize_body, legacy_call, modern_call, modern_headers,
    modern_request, post, result_text, send,
};
use mcp_toolbelt_tests::in_process::InProcess;
use mcp_toolbelt_tests::services::RedisServer;
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// Join the beta: its tools and prompts appear in this session
#[tool]
async fn join_beta(context: Context) -> Result<String, VisibilityError> {
    context.enable_tags(["beta"]).await?;
    Ok("joined".into())
}

/// Hide the admin tools from this session
#[tool]
async fn hide_admin(context: Context) -> Result<String, VisibilityError> {
    context.disable_tags(["admin"]).await?;
    Ok("hidden".into())
}

/// Forget what this session chose
#[tool]
async fn reset_view(context: Context) -> Result<String, VisibilityError> {
    context.reset_tags().await?;
    Ok("reset".into())
}

/// Deploy the service
#[tool(tags("admin"))]
async fn deploy() -> &'static str {
    "deployed"
}

/// Try the feature in beta
#[tool(tags("beta"))]
async fn try_feature() -> &'static str {
    "tried"
}

/// Greets a beta tester
#[prompt(tags("beta"))]
async fn beta_greeting(
    /// Who
    name: String,
) -> String {
    format!("Hello tester {name}")
}

/// The beta's notes
#[resource(uri = "beta://notes", mime_type = "text/plain", tags("beta"))]
async fn beta_notes() -> &'static str {
    "notes"
}

/// Every tool an unauthenticated caller sees: all but the beta ones.
const DEFAULT: [&str; 4] = ["deploy", "hide_admin", "join_beta", "reset_view"];

/// The beta is hidden from every caller until its session joins it.
fn server() -> Server {
    Server::new("visibility", "1.0.0").visibility(|_| Visibility::all().without(["beta"]))
}

fn names(result: &Value, list: &str) -> Vec<String> {
    result["result"][list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list}: {result}"))
        .iter()
        .map(|item| item["name"].as_str().unwrap().to_owned())
        .collect()
}

fn list_changed(list: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": format!("notifications/{list}/list_changed")})
}

// ---- stdio ---------------------------------------------------------------------------------

/// Calls `name` as request `id` and reads until both its response and `heard` notifications
/// came (in any order: the notifications are the connection's, the response the call's).
async fn call_hearing(
    client: &mut InProcess,
    id: i64,
    name: &str,
    heard: usize,
) -> (Value, Vec<Value>) {
    client
        .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                      "params": {"name": name, "arguments": {}}}))
        .await;
    let (mut response, mut notifications) = (None, Vec::new());
    while response.is_none() || notifications.len() < heard {
        let message = client.next_message().await;
        if message.get("id").is_some() {
            response = Some(message);
        } else {
            notifications.push(message);
        }
    }
    (response.unwrap(), notifications)
}

#[tokio::test]
async fn a_stdio_session_unlocks_and_hides_tags_and_is_told() {
    let mut client = InProcess::start(server());
    let initialized = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "visibility", "version": "1"}}),
        )
        .await;
    assert_eq!(
        initialized["result"]["capabilities"]["tools"]["listChanged"],
        true
    );
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let listed = client.request(2, "tools/list", json!({})).await;
    assert_eq!(names(&listed, "tools"), DEFAULT);
    let listed = client.request(3, "prompts/list", json!({})).await;
    assert!(names(&listed, "prompts").is_empty(), "{listed}");
    let refused = client.call(4, "try_feature", json!({})).await;
    assert_eq!(refused["error"]["message"], "Unknown tool: try_feature");

    let refused = client
        .request(16, "resources/read", json!({"uri": "beta://notes"}))
        .await;
    assert_eq!(
        refused["error"]["message"],
        "Resource not found: beta://notes"
    );

    // The beta has a tool, a prompt and a resource: the three lists changed, for this session.
    let (joined, told) = call_hearing(&mut client, 5, "join_beta", 3).await;
    assert_eq!(result_text(&joined), "joined", "{joined}");
    assert_eq!(
        told,
        [
            list_changed("tools"),
            list_changed("prompts"),
            list_changed("resources")
        ]
    );
    let read = client
        .request(17, "resources/read", json!({"uri": "beta://notes"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "notes", "{read}");
    let listed = client.request(6, "tools/list", json!({})).await;
    assert_eq!(
        names(&listed, "tools"),
        [
            "deploy",
            "hide_admin",
            "join_beta",
            "reset_view",
            "try_feature"
        ]
    );
    let listed = client.request(7, "prompts/list", json!({})).await;
    assert_eq!(names(&listed, "prompts"), ["beta_greeting"]);
    assert_eq!(
        result_text(&client.call(8, "try_feature", json!({})).await),
        "tried"
    );

    // Admin has tools only: the tool list alone changed.
    let (hidden, told) = call_hearing(&mut client, 9, "hide_admin", 1).await;
    assert_eq!(result_text(&hidden), "hidden", "{hidden}");
    assert_eq!(told, [list_changed("tools")]);
    let refused = client.call(10, "deploy", json!({})).await;
    assert_eq!(refused["error"]["message"], "Unknown tool: deploy");

    // Nothing else was told: the next message is the ping's answer.
    client.assert_alive(11).await;
    let (_, told) = call_hearing(&mut client, 12, "reset_view", 3).await;
    assert_eq!(
        told,
        [
            list_changed("tools"),
            list_changed("prompts"),
            list_changed("resources")
        ]
    );
    let listed = client.request(13, "tools/list", json!({})).await;
    assert_eq!(names(&listed, "tools"), DEFAULT);
    // A choice made again changes nothing, and is told to nobody.
    let (again, _) = call_hearing(&mut client, 14, "reset_view", 0).await;
    assert_eq!(result_text(&again), "reset");
    client.assert_alive(15).await;
}

/// What the rule hides is unknown to a subscription too, in both eras: `resources/subscribe`
/// is refused as for a URI never registered, and a listen stream leaves it out of what it
/// acknowledges (so nothing of it is told).
#[tokio::test]
async fn a_hidden_resource_cannot_be_subscribed_to() {
    let mut client = InProcess::start(server());
    client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "visibility", "version": "1"}}),
        )
        .await;
    let refused = client
        .request(2, "resources/subscribe", json!({"uri": "beta://notes"}))
        .await;
    assert_eq!(
        refused["error"]["message"], "Resource not found: beta://notes",
        "{refused}"
    );
    let envelope = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
                "_meta": envelope,
                "notifications": {"resourceSubscriptions": ["beta://notes"]},
            }}),
        )
        .await;
    let acknowledged = client.next_message().await;
    assert_eq!(
        acknowledged["params"]["notifications"]["resourceSubscriptions"],
        json!([]),
        "{acknowledged}"
    );
}

// ---- HTTP ----------------------------------------------------------------------------------

async fn get_stream(router: &Router, session: &str) -> Events {
    let mut headers = in_session(session).to_vec();
    headers.push(("accept", "text/event-stream"));
    let response = router
        .clone()
        .oneshot(bodiless(Method::GET, &headers))
        .await
        .unwrap();
    Events::of(response)
}

async fn open(router: &Router, headers: &[(&str, &str)]) -> String {
    let reply = send(router, post(&initialize_body(), headers)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let mut headers = headers.to_vec();
    headers.extend(in_session(&session));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = send(router, post(&initialized, &headers)).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    session
}

async fn legacy(router: &Router, session: &str, id: u64, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let reply = send(router, post(&body, &in_session(session))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    reply.json()
}

async fn call_in(router: &Router, session: &str, id: u64, name: &str) -> Value {
    let reply = send(
        router,
        post(
            &legacy_call(id, name, &json!({}), None),
            &in_session(session),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    if reply.content_type().starts_with("text/event-stream") {
        reply.events().pop().expect("a response")
    } else {
        reply.json()
    }
}

fn router_of(server: Server, config: HttpConfig) -> Router {
    server.http_config(config).into_router().unwrap()
}

/// Adds the prompt `p`, or removes it when present: the prompt list changes for everyone.
fn change_prompts(prompts: &Prompts) {
    if !prompts.remove("p") {
        let prompt = Prompt::new("p", "A prompt that comes and goes", |_, _| async { "p" });
        prompts.add(prompt).unwrap();
    }
}

#[tokio::test]
async fn an_http_session_changes_what_it_alone_sees_and_hears() {
    let server = server();
    let prompts = server.prompts();
    let router = router_of(server, HttpConfig::new());
    let (a, b) = (open(&router, &[]).await, open(&router, &[]).await);
    let (mut a_stream, mut b_stream) =
        (get_stream(&router, &a).await, get_stream(&router, &b).await);

    assert_eq!(
        result_text(&call_in(&router, &a, 2, "join_beta").await),
        "joined"
    );
    assert_eq!(a_stream.next().await, Some(list_changed("tools")));
    assert_eq!(a_stream.next().await, Some(list_changed("prompts")));
    assert_eq!(a_stream.next().await, Some(list_changed("resources")));
    let a_resources = legacy(&router, &a, 9, "resources/list", json!({})).await;
    assert_eq!(names(&a_resources, "resources"), ["beta_notes"]);
    let b_resources = legacy(&router, &b, 9, "resources/list", json!({})).await;
    assert!(names(&b_resources, "resources").is_empty(), "{b_resources}");
    let a_tools = legacy(&router, &a, 3, "tools/list", json!({})).await;
    assert_eq!(
        names(&a_tools, "tools"),
        [
            "deploy",
            "hide_admin",
            "join_beta",
            "reset_view",
            "try_feature"
        ]
    );
    let b_tools = legacy(&router, &b, 3, "tools/list", json!({})).await;
    assert_eq!(names(&b_tools, "tools"), DEFAULT);
    let refused = call_in(&router, &b, 4, "try_feature").await;
    assert_eq!(refused["error"]["message"], "Unknown tool: try_feature");
    let got = legacy(
        &router,
        &b,
        5,
        "prompts/get",
        json!({"name": "beta_greeting", "arguments": {"name": "b"}}),
    )
    .await;
    assert_eq!(
        got["error"]["message"], "Unknown prompt: beta_greeting",
        "{got}"
    );
    assert_eq!(
        result_text(&call_in(&router, &a, 6, "try_feature").await),
        "tried"
    );

    // B heard nothing of A's choice: the next thing on its stream is a change of everyone's.
    change_prompts(&prompts);
    assert_eq!(b_stream.next().await, Some(list_changed("prompts")));
    assert_eq!(a_stream.next().await, Some(list_changed("prompts")));

    // B's own choice: B is told, A is not.
    assert_eq!(
        result_text(&call_in(&router, &b, 7, "hide_admin").await),
        "hidden"
    );
    assert_eq!(b_stream.next().await, Some(list_changed("tools")));
    let b_tools = legacy(&router, &b, 8, "tools/list", json!({})).await;
    assert_eq!(
        names(&b_tools, "tools"),
        ["hide_admin", "join_beta", "reset_view"]
    );
    let a_tools = legacy(&router, &a, 8, "tools/list", json!({})).await;
    assert!(names(&a_tools, "tools").contains(&"deploy".to_owned()));
    change_prompts(&prompts);
    assert_eq!(a_stream.next().await, Some(list_changed("prompts")));
}

#[tokio::test]
async fn a_2026_request_has_no_session_to_change() {
    let router = router_of(server(), HttpConfig::new());
    let reply = send(
        &router,
        post(
            &modern_call(1, "join_beta", &json!({}), &json!({})),
            &modern_headers("tools/call", Some("join_beta")),
        ),
    )
    .await;
    let answer = reply.json();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(
        result_text(&answer).contains("belongs to no session"),
        "{answer}"
    );
}

// ---- the rule on the caller, both eras ------------------------------------------------------

const RESOURCE: &str = "http://localhost:3000/mcp";

/// Tokens named after their scopes (`Bearer admin`, `Bearer guest`), each for its own user.
fn auth() -> HttpConfig {
    let metadata = ProtectedResourceMetadata::new(RESOURCE, "https://auth.example.com");
    HttpConfig::new().bearer_auth(metadata, |token: String| async move {
        Some(AuthInfo::new("app").subject(token.clone()).scopes([token]))
    })
}

/// Admins see the admin tools; nobody sees the beta until a session joins it.
fn ruled() -> Server {
    Server::new("ruled", "1.0.0").visibility(|caller| match caller {
        Some(auth) if auth.scopes.iter().any(|scope| scope == "admin") => {
            Visibility::all().without(["beta"])
        }
        _ => Visibility::all().without(["admin", "beta"]),
    })
}

/// A caller the rule shows everything is not served the page built at start for no caller,
/// which said `public`: under a rule every listing is `private`.
#[tokio::test]
async fn a_caller_the_rule_hides_nothing_from_still_gets_a_private_listing() {
    let server = Server::new("ruled", "1.0.0").visibility(|caller| match caller {
        Some(auth) if auth.scopes.iter().any(|scope| scope == "admin") => Visibility::all(),
        _ => Visibility::all().without(["admin"]),
    });
    let router = router_of(server, auth());
    let mut headers = modern_headers("tools/list", None);
    headers.push(("authorization", "Bearer admin"));
    let reply = send(
        &router,
        post(
            &modern_request(1, "tools/list", json!({}), &json!({})),
            &headers,
        ),
    )
    .await;
    let listed = reply.json();
    assert!(
        names(&listed, "tools").contains(&"deploy".to_owned()),
        "{listed}"
    );
    assert_eq!(listed["result"]["cacheScope"], "private", "{listed}");
}

/// Contents the rule shows some callers and not others are no shared cache's to keep: a
/// 2026-07-28 read under a rule is `private`, as its listings are.
#[tokio::test]
async fn a_read_under_the_rule_is_private() {
    let server = Server::new("ruled", "1.0.0").visibility(|caller| match caller {
        Some(auth) if auth.scopes.iter().any(|scope| scope == "admin") => Visibility::all(),
        _ => Visibility::all().without(["beta"]),
    });
    let router = router_of(server, auth());
    let read = |bearer: &'static str| {
        let router = router.clone();
        async move {
            let params = json!({"uri": "beta://notes"});
            let mut headers = modern_headers("resources/read", Some("beta://notes"));
            headers.push(("authorization", bearer));
            let body = modern_request(1, "resources/read", params, &json!({}));
            send(&router, post(&body, &headers)).await.json()
        }
    };
    let read_by_admin = read("Bearer admin").await;
    assert_eq!(
        read_by_admin["result"]["contents"][0]["text"], "notes",
        "{read_by_admin}"
    );
    assert_eq!(
        read_by_admin["result"]["cacheScope"], "private",
        "{read_by_admin}"
    );
    let read_by_guest = read("Bearer guest").await;
    assert_eq!(read_by_guest["error"]["code"], -32602, "{read_by_guest}");
}

#[tokio::test]
async fn the_rule_decides_what_each_caller_sees_in_both_eras() {
    let router = router_of(ruled(), auth());
    let admin = ("authorization", "Bearer admin");
    let guest = ("authorization", "Bearer guest");
    let modern_list = |bearer: (&'static str, &'static str)| {
        let router = router.clone();
        async move {
            let mut headers = modern_headers("tools/list", None);
            headers.push(bearer);
            let reply = send(
                &router,
                post(
                    &modern_request(1, "tools/list", json!({}), &json!({})),
                    &headers,
                ),
            )
            .await;
            assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
            reply.json()
        }
    };
    // Alternately, so that a page kept for one is never served to the other.
    for _ in 0..2 {
        let listed = modern_list(admin).await;
        assert_eq!(names(&listed, "tools"), DEFAULT, "{listed}");
        assert_eq!(listed["result"]["cacheScope"], "private");
        let listed = modern_list(guest).await;
        assert_eq!(
            names(&listed, "tools"),
            ["hide_admin", "join_beta", "reset_view"]
        );
    }
    let mut headers = modern_headers("tools/call", Some("deploy"));
    headers.push(guest);
    let reply = send(
        &router,
        post(&modern_call(2, "deploy", &json!({}), &json!({})), &headers),
    )
    .await;
    assert_eq!(
        reply.json()["error"]["message"],
        "Unknown tool: deploy",
        "{reply:?}"
    );
    let mut headers = modern_headers("tools/call", Some("deploy"));
    headers.push(admin);
    let reply = send(
        &router,
        post(&modern_call(3, "deploy", &json!({}), &json!({})), &headers),
    )
    .await;
    assert_eq!(result_text(&reply.json()), "deployed");

    // Legacy sessions, one per token.
    let with = |session: &str, bearer: (&'static str, &'static str)| {
        let mut headers = in_session(session).to_vec();
        headers.push(bearer);
        headers
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect::<Vec<_>>()
    };
    let (on_admin, on_guest) = (open(&router, &[admin]).await, open(&router, &[guest]).await);
    for (session, bearer, expected) in [
        (&on_admin, admin, DEFAULT.to_vec()),
        (
            &on_guest,
            guest,
            vec!["hide_admin", "join_beta", "reset_view"],
        ),
    ] {
        let headers = with(session, bearer);
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}});
        let listed = send(&router, post(&list, &headers)).await.json();
        assert_eq!(names(&listed, "tools"), expected, "{listed}");
        let call = send(
            &router,
            post(&legacy_call(5, "deploy", &json!({}), None), &headers),
        )
        .await;
        let call = if call.content_type().starts_with("text/event-stream") {
            call.events().pop().unwrap()
        } else {
            call.json()
        };
        if bearer == guest {
            assert_eq!(call["error"]["message"], "Unknown tool: deploy", "{call}");
        } else {
            assert_eq!(result_text(&call), "deployed");
        }
    }
}

// ---- across replicas -----------------------------------------------------------------------

async fn replica(url: &str) -> Router {
    let redis = Redis::connect(url).await.expect("Redis answers");
    router_of(server(), HttpConfig::new().redis_store(redis))
}

#[tokio::test]
async fn a_session_served_by_two_replicas_sees_its_choice_on_both() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let (a, b) = (replica(&redis.url()).await, replica(&redis.url()).await);
    // Given a moment to subscribe to the bus.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let session = open(&a, &[]).await;
    let other = open(&b, &[]).await;
    let mut on_a = get_stream(&a, &session).await;

    // Joined through B: kept in the session's record, told to its GET stream on A.
    assert_eq!(
        result_text(&call_in(&b, &session, 2, "join_beta").await),
        "joined"
    );
    assert_eq!(on_a.next().await, Some(list_changed("tools")));
    assert_eq!(on_a.next().await, Some(list_changed("prompts")));
    assert_eq!(on_a.next().await, Some(list_changed("resources")));
    for replica in [&a, &b] {
        let listed = legacy(replica, &session, 3, "tools/list", json!({})).await;
        assert!(
            names(&listed, "tools").contains(&"try_feature".to_owned()),
            "{listed}"
        );
        assert_eq!(
            result_text(&call_in(replica, &session, 4, "try_feature").await),
            "tried"
        );
        let listed = legacy(replica, &other, 3, "tools/list", json!({})).await;
        assert_eq!(names(&listed, "tools"), DEFAULT);
    }
    // Hidden through A, seen so on B.
    assert_eq!(
        result_text(&call_in(&a, &session, 5, "hide_admin").await),
        "hidden"
    );
    assert_eq!(on_a.next().await, Some(list_changed("tools")));
    let refused = call_in(&b, &session, 6, "deploy").await;
    assert_eq!(refused["error"]["message"], "Unknown tool: deploy");
    // A replica reading a session fresh, its choice made: loaded, not changed, so its GET
    // stream there hears only what changes from then on.
    let fresh = open(&a, &[]).await;
    assert_eq!(
        result_text(&call_in(&a, &fresh, 7, "join_beta").await),
        "joined"
    );
    let listed = legacy(&b, &fresh, 8, "tools/list", json!({})).await;
    assert!(
        names(&listed, "tools").contains(&"try_feature".to_owned()),
        "{listed}"
    );
    let mut on_b = get_stream(&b, &fresh).await;
    assert_eq!(
        result_text(&call_in(&a, &fresh, 9, "hide_admin").await),
        "hidden"
    );
    assert_eq!(on_b.next().await, Some(list_changed("tools")));
    assert_eq!(
        result_text(&call_in(&a, &fresh, 10, "reset_view").await),
        "reset"
    );
    assert_eq!(on_b.next().await, Some(list_changed("tools")));
    assert_eq!(on_b.next().await, Some(list_changed("prompts")));

    // The session's record holds its choice, within its bound.
    let record = redis.command(&format!("GET mcp:session:{session}"));
    assert!(
        record.contains("beta") && record.contains("admin"),
        "{record}"
    );
}
