//! Legacy sessions, answers and notifications across replicas sharing one Redis (issue 25), in
//! process: two or three servers (`Router`s, each with its own connection to Redis, so each is
//! a replica of its own) sharing a `redis-server` this file starts, driven with the raw HTTP
//! client of `tests/src/http.rs`. A session opened on one replica is served by the others; an
//! answer or a cancellation posted to another replica reaches the call; a change raised on one
//! is heard on the others; Redis lost while serving gives `503` + `Retry-After` to what needs it
//! and recovers by itself; `GET /healthz` says how the server is.
//!
//! Without `redis-server` on this machine the tests print SKIPPED (and fail when `CI` is set).
//! Redis is `tests/src/services.rs`'s `RedisServer`, as for every test of real parts.

mod http_tools;

use std::process::Command;
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::{Method, StatusCode};
use mcp_toolbelt::ask::{AskError, Elicitation};
use mcp_toolbelt::http::{AuthInfo, HttpConfig, ProtectedResourceMetadata};
use mcp_toolbelt::prompt::{Prompt, Prompts};
use mcp_toolbelt::redis::Redis;
use mcp_toolbelt::resource::{Resource, Resources};
use mcp_toolbelt::{Context, Server, tool};
use mcp_toolbelt_tests::http::{
    Events, LEGACY, TIMEOUT, bodiless, in_session, legacy_call, modern_call, modern_headers,
    modern_request, post, result_text, send, send_over_socket,
};
use mcp_toolbelt_tests::services::RedisServer;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tower::ServiceExt as _;

// ---- the replicas ----------------------------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead
    confirm: bool,
}

/// Asks the user to confirm
#[tool]
async fn confirm(context: Context) -> Result<String, AskError> {
    let answer = context.elicit::<Confirmation>("Go ahead?").await?;
    Ok(match answer {
        Elicitation::Accept(Confirmation { confirm }) => format!("confirm={confirm}"),
        _ => "no".into(),
    })
}

/// One replica: its endpoint, and the handles to its resources and prompts.
struct Replica {
    router: Router,
    resources: Resources,
    prompts: Prompts,
}

/// A server with `notes://1` and the template `notes://{id}`.
fn server() -> (Server, Resources, Prompts) {
    let server = Server::new("redis-sessions", "1.0.0");
    let resources = server.resources();
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

/// A replica sharing the Redis at `url`, configured with `config`.
async fn replica_with(url: &str, config: HttpConfig) -> Replica {
    let redis = Redis::connect(url).await.expect("Redis answers");
    let (server, resources, prompts) = server();
    let router = server
        .http_config(config.redis_store(redis))
        .into_router()
        .expect("the server can be built");
    Replica {
        router,
        resources,
        prompts,
    }
}

/// `count` replicas sharing the Redis at `url`; given a moment to subscribe to the bus.
async fn replicas(url: &str, count: usize) -> Vec<Replica> {
    let mut replicas = Vec::new();
    for _ in 0..count {
        replicas.push(replica_with(url, HttpConfig::new()).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    replicas
}

/// Opens a legacy session on `router` whose client declares `elicitation`.
async fn open_session(router: &Router) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "redis-sessions", "version": "1.0.0"},
    }});
    let reply = send(router, post(&initialize, &[])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = send(router, post(&initialized, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    session
}

fn legacy(id: u64, method: &str, params: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

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

fn list_changed(list: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": format!("notifications/{list}/list_changed")})
}

fn updated(uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
}

/// Adds the prompt `p`, or removes it when present: the prompt list changes.
fn change_prompts(prompts: &Prompts) {
    if !prompts.remove("p") {
        let prompt = Prompt::new("p", "A prompt that comes and goes", |_, _| async { "p" });
        prompts.add(prompt).unwrap();
    }
}

/// The messages of a `chatty` call's answer in `session` (a log notification when the
/// session's level lets info through, then the response).
async fn chatty(router: &Router, session: &str, id: u64) -> Vec<Value> {
    let reply = send(
        router,
        post(
            &legacy_call(id, "chatty", &json!({}), None),
            &in_session(session),
        ),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    if reply.content_type().starts_with("text/event-stream") {
        reply.events()
    } else {
        vec![reply.json()]
    }
}

// ---- the tests -------------------------------------------------------------------------------

/// Opened on A, used on B and C: its version, its log level set on B and its subscription made
/// on B are honoured on C; an update raised on A reaches C's GET stream.
#[tokio::test]
async fn a_session_opened_on_one_replica_is_served_by_the_others() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b, c] = <[Replica; 3]>::try_from(replicas(&redis.url(), 3).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;

    // The version `initialize` negotiated on A is B's too.
    let mut wrong_version = in_session(&session);
    wrong_version[1].1 = "2025-06-18";
    let reply = send(
        &b.router,
        post(&legacy(2, "ping", &json!({})), &wrong_version),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{reply:?}");
    let reply = send(
        &b.router,
        post(&legacy(3, "ping", &json!({})), &in_session(&session)),
    )
    .await;
    assert_eq!(reply.json()["result"], json!({}), "{reply:?}");

    // Debug by default: C sends the info log.
    let messages = chatty(&c.router, &session, 4).await;
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0]["method"], "notifications/message");
    // Set on B: C sends no info log any more.
    let set = legacy(5, "logging/setLevel", &json!({"level": "warning"}));
    let reply = send(&b.router, post(&set, &in_session(&session))).await;
    assert_eq!(reply.json()["result"], json!({}), "{reply:?}");
    let messages = chatty(&c.router, &session, 6).await;
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(result_text(&messages[0]), "said it");

    // Subscribed on B, listened to on C, updated on A.
    let mut stream = get_stream(&c.router, &session).await;
    let subscribe = legacy(7, "resources/subscribe", &json!({"uri": "notes://1"}));
    let reply = send(&b.router, post(&subscribe, &in_session(&session))).await;
    assert_eq!(reply.json()["result"], json!({}), "{reply:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.resources.notify_updated("notes://2");
    a.resources.notify_updated("notes://1");
    assert_eq!(stream.next().await, Some(updated("notes://1")));
}

/// DELETE on B ends the session on A: its GET stream closes, its call is cancelled, and every
/// replica answers `404` from then on.
#[tokio::test]
async fn delete_on_one_replica_ends_the_session_on_the_others() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b, c] = <[Replica; 3]>::try_from(replicas(&redis.url(), 3).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let mut stream = get_stream(&a.router, &session).await;
    let call = legacy_call(
        2,
        "slow",
        &json!({"tag": "deleted", "seconds": 30}),
        Some("t"),
    );
    let response = a
        .router
        .clone()
        .oneshot(post(&call, &in_session(&session)))
        .await
        .unwrap();
    let mut call_events = Events::of(response);
    assert_eq!(
        call_events.next().await.unwrap()["method"],
        "notifications/progress"
    );

    let reply = send(&b.router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
    assert_eq!(stream.next().await, None, "A's GET stream closed");
    assert_eq!(http_tools::ending("deleted", None).await, "cancelled");
    for router in [&a.router, &b.router, &c.router] {
        let reply = send(
            router,
            post(&legacy(3, "ping", &json!({})), &in_session(&session)),
        )
        .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{reply:?}");
    }
}

/// A session whose client only listens (its GET stream open, no request for longer than the
/// idle timeout) is kept alive in Redis by the replica holding the stream; once the stream is
/// closed and the idle time has passed, it is gone on every replica.
#[tokio::test]
async fn a_session_listening_on_its_get_stream_outlives_its_idle_timeout() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let idle = Duration::from_secs(1);
    let a = replica_with(&redis.url(), HttpConfig::new().session_idle_timeout(idle)).await;
    let b = replica_with(&redis.url(), HttpConfig::new().session_idle_timeout(idle)).await;
    let session = open_session(&a.router).await;
    let stream = get_stream(&a.router, &session).await;
    tokio::time::sleep(idle * 3).await;
    let reply = send(
        &b.router,
        post(&legacy(2, "ping", &json!({})), &in_session(&session)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "kept alive: {reply:?}");
    drop(stream);
    tokio::time::sleep(idle * 2).await;
    let reply = send(
        &b.router,
        post(&legacy(3, "ping", &json!({})), &in_session(&session)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "expired: {reply:?}");
}

/// The record of a session lives a minute until the session does something, then the idle
/// timeout, refreshed by each request; DELETE removes it.
#[tokio::test]
async fn a_session_record_lives_its_idle_timeout_in_redis() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let idle = Duration::from_mins(10);
    let a = replica_with(&redis.url(), HttpConfig::new().session_idle_timeout(idle)).await;
    let session = open_session(&a.router).await;
    let key = format!("mcp:session:{session}");
    let ttl = |redis: &RedisServer| -> u64 {
        let reply = redis.command(&format!("PTTL {key}"));
        reply
            .trim_start_matches(':')
            .parse()
            .unwrap_or_else(|_| panic!("{reply}"))
    };
    let first = ttl(&redis);
    assert!((50_000..=60_000).contains(&first), "a minute: {first}");
    let reply = send(
        &a.router,
        post(&legacy(2, "ping", &json!({})), &in_session(&session)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let used = ttl(&redis);
    assert!(
        (590_000..=600_000).contains(&used),
        "the idle timeout: {used}"
    );
    let reply = send(&a.router, bodiless(Method::DELETE, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
    assert_eq!(redis.command(&format!("EXISTS {key}")), ":0");
}

/// An id no replica opened is `404` on each; a session is its principal's only: another's
/// token gets `404` on every replica, its own works on every one.
#[tokio::test]
async fn unknown_ids_and_other_principals_get_404_on_every_replica() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let with_auth = || {
        let metadata =
            ProtectedResourceMetadata::new("http://localhost:3000/", "https://auth.example.com");
        HttpConfig::new().bearer_auth(metadata, |token| async move {
            matches!(token.as_str(), "alice" | "bob").then(|| AuthInfo::new(token))
        })
    };
    let mut routers = Vec::new();
    for _ in 0..3 {
        routers.push(replica_with(&redis.url(), with_auth()).await.router);
    }
    let bearer = |token: &str| format!("Bearer {token}");
    let (alice, bob) = (bearer("alice"), bearer("bob"));
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "redis-sessions", "version": "1.0.0"},
    }});
    let reply = send(&routers[0], post(&initialize, &[("authorization", &alice)])).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let unknown = "0123456789abcdef0123456789abcdef";
    for router in &routers {
        let ping = legacy(2, "ping", &json!({}));
        let mut headers = in_session(&session).to_vec();
        headers.push(("authorization", &bob));
        let reply = send(router, post(&ping, &headers)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "bob: {reply:?}");
        headers[2].1 = &alice;
        let reply = send(router, post(&ping, &headers)).await;
        assert_eq!(reply.status, StatusCode::OK, "alice: {reply:?}");
        let mut headers = in_session(unknown).to_vec();
        headers.push(("authorization", &alice));
        let reply = send(router, post(&ping, &headers)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "unknown: {reply:?}");
    }
}

/// A question a tool asks on A is answered by a POST to B; the call on A gets the answer.
#[tokio::test]
async fn a_question_asked_on_one_replica_is_answered_through_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b] = <[Replica; 2]>::try_from(replicas(&redis.url(), 2).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let call = legacy_call(2, "confirm", &json!({}), None);
    let response = a
        .router
        .clone()
        .oneshot(post(&call, &in_session(&session)))
        .await
        .unwrap();
    let mut events = Events::of(response);
    let question = events.next().await.expect("the question");
    assert_eq!(question["method"], "elicitation/create");
    let id = question["id"]
        .as_str()
        .expect("a string id naming the replica");
    assert!(id.ends_with("-1"), "{id}");
    let answer = json!({"jsonrpc": "2.0", "id": id,
        "result": {"action": "accept", "content": {"confirm": true}}});
    let reply = send(&b.router, post(&answer, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    let result = events.next().await.expect("the result");
    assert_eq!(result_text(&result), "confirm=true");
}

/// `notifications/cancelled` posted to B cancels the call running on A.
#[tokio::test]
async fn a_cancellation_posted_to_another_replica_cancels_the_call() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b] = <[Replica; 2]>::try_from(replicas(&redis.url(), 2).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let call = legacy_call(
        2,
        "slow",
        &json!({"tag": "cancelled-on-b", "seconds": 30}),
        Some("t"),
    );
    let response = a
        .router
        .clone()
        .oneshot(post(&call, &in_session(&session)))
        .await
        .unwrap();
    let mut events = Events::of(response);
    events.next().await.expect("its progress");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2, "reason": "changed my mind"}});
    let reply = send(&b.router, post(&cancel, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    assert_eq!(
        http_tools::ending("cancelled-on-b", None).await,
        "cancelled"
    );
    assert_eq!(
        events.next().await,
        None,
        "no response after a cancellation"
    );
}

/// A prompt list changed on A is heard on B's GET stream and on C's `subscriptions/listen`
/// stream, and on A's own GET stream once (never echoed back).
#[tokio::test]
async fn a_list_change_on_one_replica_is_heard_on_every_replica() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b, c] = <[Replica; 3]>::try_from(replicas(&redis.url(), 3).await)
        .ok()
        .unwrap();
    let on_b = open_session(&b.router).await;
    let mut b_stream = get_stream(&b.router, &on_b).await;
    let on_a = open_session(&a.router).await;
    let mut a_stream = get_stream(&a.router, &on_a).await;
    let listen = modern_request(
        3,
        "subscriptions/listen",
        json!({"notifications": {"promptsListChanged": true, "resourcesListChanged": true}}),
        &json!({}),
    );
    let response = c
        .router
        .clone()
        .oneshot(post(&listen, &modern_headers("subscriptions/listen", None)))
        .await
        .unwrap();
    let mut c_stream = Events::of(response);
    c_stream.next().await.expect("the acknowledgement");

    change_prompts(&a.prompts);
    assert_eq!(b_stream.next().await, Some(list_changed("prompts")));
    let heard = c_stream.next().await.unwrap();
    assert_eq!(
        heard["method"], "notifications/prompts/list_changed",
        "{heard}"
    );
    assert_eq!(a_stream.next().await, Some(list_changed("prompts")));
    // Raised on B this time: A hears it once, after the first, with nothing echoed between.
    b.resources
        .add(Resource::new("extra://x", "extra", |_| async { "x" }).unwrap())
        .unwrap();
    assert_eq!(a_stream.next().await, Some(list_changed("resources")));
    assert_eq!(b_stream.next().await, Some(list_changed("resources")));
    change_prompts(&c.prompts);
    assert_eq!(a_stream.next().await, Some(list_changed("prompts")));
    assert_eq!(b_stream.next().await, Some(list_changed("prompts")));
}

/// A DELETE that ends the session while a `logging/setLevel` of it is under way (its record
/// read, not yet written): the session stays ended, the `setLevel` gets `404`, its record is
/// not written back. (Redis held by `DEBUG SLEEP` so that both requests wait on it: the
/// DELETE's read first, then the setLevel's; both on the replica's one connection, in order.)
#[tokio::test]
async fn a_session_deleted_while_its_log_level_changes_stays_ended() {
    let Some(redis) = RedisServer::start().map(std::sync::Arc::new) else {
        return;
    };
    let [a] = <[Replica; 1]>::try_from(replicas(&redis.url(), 1).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let sleeper = std::thread::spawn({
        let redis = std::sync::Arc::clone(&redis);
        move || redis.command("DEBUG SLEEP 1")
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let delete = tokio::spawn({
        let (router, session) = (a.router.clone(), session.clone());
        async move { send(&router, bodiless(Method::DELETE, &in_session(&session))).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let set_level = tokio::spawn({
        let (router, session) = (a.router.clone(), session.clone());
        async move {
            let set = legacy(2, "logging/setLevel", &json!({"level": "debug"}));
            send(&router, post(&set, &in_session(&session))).await
        }
    });
    let deleted = delete.await.unwrap();
    let set = set_level.await.unwrap();
    assert_eq!(sleeper.join().unwrap(), "+OK");
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{deleted:?}");
    assert_eq!(
        redis.command(&format!("EXISTS mcp:session:{session}")),
        ":0",
        "the record came back: {set:?}"
    );
    assert_eq!(set.status, StatusCode::NOT_FOUND, "{set:?}");
}

/// A burst of changes raised on A reaches B's listeners complete and in the order raised
/// (the bus publishes in order; a runtime with several threads would otherwise reorder them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_changes_reaches_the_other_replicas_in_order() {
    const PAIRS: usize = 200;
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b] = <[Replica; 2]>::try_from(replicas(&redis.url(), 2).await)
        .ok()
        .unwrap();
    let on_b = open_session(&b.router).await;
    let mut b_stream = get_stream(&b.router, &on_b).await;
    for n in 0..PAIRS {
        change_prompts(&a.prompts);
        let uri = format!("extra://{n}");
        a.resources
            .add(Resource::new(&uri, "extra", |_| async { "x" }).unwrap())
            .unwrap();
    }
    for n in 0..PAIRS {
        for list in ["prompts", "resources"] {
            let heard = tokio::time::timeout(TIMEOUT, b_stream.next()).await;
            assert_eq!(
                heard,
                Ok(Some(list_changed(list))),
                "change {n} ({list}) of the burst"
            );
        }
    }
}

/// Redis stopped: `initialize` and a session's requests get `503` + `Retry-After: 1` and a
/// JSON-RPC error saying the session store is unavailable; a 2026-07-28 call still works.
/// Redis started again on its port: a new session works, the server never restarted.
#[tokio::test]
async fn redis_lost_while_serving_and_back() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let [a] = <[Replica; 1]>::try_from(replicas(&redis.url(), 1).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    redis.stop();

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "redis-sessions", "version": "1.0.0"},
    }});
    let reply = send(&a.router, post(&initialize, &[])).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert!(reply.header("mcp-session-id").is_none(), "{reply:?}");
    let error = &reply.json()["error"];
    assert_eq!(error["code"], -32603, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("session store unavailable"),
        "{error}"
    );
    assert_eq!(reply.json()["id"], 1);
    let call = legacy_call(2, "chatty", &json!({}), None);
    let reply = send(&a.router, post(&call, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("1"));
    // An id no replica ever mints is not looked up in Redis (no key is built from the
    // client's text): `404` at once, down or not.
    for never_ours in [
        "x",
        "events:abc",
        &session.to_uppercase(),
        &"a".repeat(4096),
    ] {
        let reply = send(&a.router, post(&call, &in_session(never_ours))).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{never_ours}: {reply:?}"
        );
    }

    let modern = modern_call(3, "chatty", &json!({}), &json!({}));
    let reply = send(
        &a.router,
        post(&modern, &modern_headers("tools/call", Some("chatty"))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    redis.start_again();
    let deadline = Instant::now() + TIMEOUT;
    let session = loop {
        let reply = send(&a.router, post(&initialize, &[])).await;
        if reply.status == StatusCode::OK {
            break reply.header("mcp-session-id").unwrap().to_owned();
        }
        assert!(Instant::now() < deadline, "never recovered: {reply:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let reply = send(&a.router, post(&call, &in_session(&session))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
}

/// A Redis that sleeps (`DEBUG SLEEP 3`) delays a legacy request by at most the response
/// timeout (2 s), while a 2026-07-28 call made meanwhile answers at once.
#[tokio::test]
async fn a_slow_redis_delays_legacy_requests_and_never_the_others() {
    let Some(redis) = RedisServer::start().map(std::sync::Arc::new) else {
        return;
    };
    let [a] = <[Replica; 1]>::try_from(replicas(&redis.url(), 1).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let sleeper = std::thread::spawn({
        let redis = std::sync::Arc::clone(&redis);
        move || redis.command("DEBUG SLEEP 3")
    });
    tokio::time::sleep(Duration::from_millis(200)).await;

    let legacy_router = a.router.clone();
    let started = Instant::now();
    let legacy_request = tokio::spawn(async move {
        let call = legacy_call(2, "chatty", &json!({}), None);
        let reply = send(&legacy_router, post(&call, &in_session(&session))).await;
        (reply.status, started.elapsed())
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let modern_started = Instant::now();
    let modern = modern_call(3, "chatty", &json!({}), &json!({}));
    let reply = send(
        &a.router,
        post(&modern, &modern_headers("tools/call", Some("chatty"))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert!(
        modern_started.elapsed() < Duration::from_millis(800),
        "the 2026-07-28 call waited {:?}",
        modern_started.elapsed()
    );
    let (status, waited) = legacy_request.await.unwrap();
    assert!(
        waited < Duration::from_millis(2_700),
        "the legacy request waited {waited:?} ({status})"
    );
    assert!(
        waited > Duration::from_secs(1),
        "the legacy request did not wait for Redis: {waited:?} ({status})"
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(sleeper.join().unwrap(), "+OK");
}

/// `GET /healthz` beside `/mcp`: serving, Redis up; Redis stopped: still `200`, Redis down.
#[tokio::test]
async fn healthz_says_whether_it_serves_and_how_redis_is() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let address = mcp_toolbelt_tests::http::serve_http(HttpConfig::new().redis(redis.url())).await;
    let health = || async move {
        let request = axum::http::Request::get("/healthz")
            .body(axum::body::Body::empty())
            .unwrap();
        send_over_socket(address, request).await
    };
    let reply = health().await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.json(), json!({"status": "serving", "redis": "up"}));
    redis.stop();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let reply = health().await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        if reply.json() == json!({"status": "serving", "redis": "down"}) {
            break;
        }
        assert!(Instant::now() < deadline, "never said down: {reply:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let without = mcp_toolbelt_tests::http::serve_http(HttpConfig::new()).await;
    let request = axum::http::Request::get("/healthz")
        .body(axum::body::Body::empty())
        .unwrap();
    let reply = send_over_socket(without, request).await;
    assert_eq!(reply.json(), json!({"status": "serving", "redis": "off"}));
}

/// `run() --redis` with a Redis that is not there: a start-up error naming the URL, exit
/// status non-zero.
#[test]
fn run_with_a_redis_that_is_not_there_fails_at_start_up() {
    let output = Command::new(env!("CARGO_BIN_EXE_any_host"))
        .args(["--http", "127.0.0.1:0", "--redis", "redis://127.0.0.1:1"])
        .output()
        .expect("the server runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("redis://127.0.0.1:1"), "{stderr}");
}

// ---- what Redis keeps, bounded (issue 39) ---------------------------------------------------

/// Logs a line, then answers with `text`: a stream whose last event is as large as its input
#[tool]
async fn echo_streamed(
    /// What to answer with
    text: String,
    context: &Context,
) -> String {
    context.log(mcp_toolbelt::LogLevel::Info, "echoing");
    text
}

/// The bytes Redis holds (`INFO memory`).
fn used_memory(redis: &RedisServer) -> u64 {
    redis.info("memory", "used_memory")
}

/// The bytes Redis has read and written so far (`INFO stats`).
fn traffic(redis: &RedisServer) -> u64 {
    redis.info("stats", "total_net_input_bytes") + redis.info("stats", "total_net_output_bytes")
}

/// `initialize` of a client declaring `capabilities`, through `router` with `headers`.
async fn initialize_with(
    router: &Router,
    capabilities: &Value,
    headers: &[(&str, &str)],
) -> mcp_toolbelt_tests::http::Reply {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY,
        "capabilities": capabilities,
        "clientInfo": {"name": "redis-sessions", "version": "1.0.0"},
    }});
    send(router, post(&initialize, headers)).await
}

/// A client that declares 0.8 MB of capabilities: what Redis keeps of its session is small (or
/// the session is refused), never the client's tree (it was 2.1 MiB a record).
#[tokio::test]
async fn a_session_record_stays_small_whatever_the_client_declares() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = replica_with(&redis.url(), HttpConfig::new()).await;
    let declared = json!({"experimental": {"zeros": vec![0; 400_000]}});
    let before = used_memory(&redis);
    for _ in 0..4 {
        let reply = initialize_with(&a.router, &declared, &[]).await;
        assert!(
            matches!(reply.status.as_u16(), 200 | 400),
            "kept small, or refused: {reply:?}"
        );
    }
    let grown = used_memory(&redis).saturating_sub(before);
    eprintln!("4 sessions of 0.8 MB capabilities: Redis grew by {grown} bytes");
    assert!(
        grown < 512 * 1024,
        "Redis grew by {grown} bytes for 4 sessions"
    );
}

/// `max_sessions` bounds what Redis holds, every replica together: a replica whose own cache has
/// room opens no session past it; one ended makes room.
#[tokio::test]
async fn redis_holds_no_more_sessions_than_max_sessions() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let a = replica_with(&redis.url(), HttpConfig::new().max_sessions(3)).await;
    let b = replica_with(&redis.url(), HttpConfig::new().max_sessions(3)).await;
    let first = open_session(&a.router).await;
    open_session(&b.router).await;
    open_session(&a.router).await;
    let reply = initialize_with(&b.router, &json!({}), &[]).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    let reply = send(&b.router, bodiless(Method::DELETE, &in_session(&first))).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{reply:?}");
    open_session(&b.router).await;
}

/// `max_sessions_per_principal` bounds a principal's sessions in Redis, every replica together:
/// its third, on a third replica, ends its first everywhere.
#[tokio::test]
async fn a_principal_holds_no_more_sessions_in_redis_than_its_cap() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let with_auth = || {
        let metadata =
            ProtectedResourceMetadata::new("http://localhost:3000/", "https://auth.example.com");
        HttpConfig::new()
            .max_sessions_per_principal(2)
            .bearer_auth(metadata, |token| async move {
                (token == "alice").then(|| AuthInfo::new(token))
            })
    };
    let mut routers = Vec::new();
    for _ in 0..3 {
        routers.push(replica_with(&redis.url(), with_auth()).await.router);
    }
    let alice = [("authorization", "Bearer alice")];
    let mut sessions = Vec::new();
    for router in &routers {
        let reply = initialize_with(router, &json!({}), &alice).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        sessions.push(reply.header("mcp-session-id").unwrap().to_owned());
        // Redis orders a principal's sessions by when they expire, to the millisecond: two
        // opened within one would be equally old, and either could be the one given up.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    for router in &routers {
        for (index, session) in sessions.iter().enumerate() {
            let mut headers = in_session(session).to_vec();
            headers.extend(alice);
            let reply = send(router, post(&legacy(2, "ping", &json!({})), &headers)).await;
            let wanted = if index == 0 {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            assert_eq!(reply.status, wanted, "session {index}: {reply:?}");
        }
    }
}

/// Subscribes `session` to `notes://{id}` for each of `ids`, through `router`.
async fn subscribe_to(router: &Router, session: &str, ids: std::ops::Range<u64>) {
    for id in ids {
        let uri = format!("notes://{id}");
        let subscribe = legacy(id, "resources/subscribe", &json!({"uri": uri}));
        let reply = send(router, post(&subscribe, &in_session(session))).await;
        assert_eq!(reply.json()["result"], json!({}), "{reply:?}");
    }
}

/// A legacy subscription costs Redis the same whatever came before it (the URI stored and
/// told, never the session's whole record: 50 subscriptions after 550 moved as many bytes as
/// the first 50); the other replica holding the session applies each.
#[tokio::test]
async fn a_subscription_costs_redis_the_same_whatever_came_before_it() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let [a, b] = <[Replica; 2]>::try_from(replicas(&redis.url(), 2).await)
        .ok()
        .unwrap();
    let session = open_session(&a.router).await;
    let reply = send(
        &b.router,
        post(&legacy(1, "ping", &json!({})), &in_session(&session)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "B holds it too: {reply:?}");
    let before = traffic(&redis);
    subscribe_to(&a.router, &session, 0..50).await;
    let first = traffic(&redis) - before;
    subscribe_to(&a.router, &session, 50..550).await;
    let before = traffic(&redis);
    subscribe_to(&a.router, &session, 550..600).await;
    let last = traffic(&redis) - before;
    eprintln!("Redis traffic: the first 50 subscriptions {first} bytes, 50 after 550 {last}");
    assert!(
        last < first * 3 / 2,
        "50 subscriptions moved {first} bytes through Redis, 50 more after 550: {last}"
    );
    let mut stream = get_stream(&b.router, &session).await;
    a.resources.notify_updated("notes://599");
    assert_eq!(stream.next().await, Some(updated("notes://599")));
}

/// The replay log mirrored to Redis is bounded by bytes as the in-memory one is: 4 MiB of
/// streamed answers with a 1 MiB bound leave Redis holding about 1 MiB.
#[tokio::test]
async fn the_shared_replay_log_is_bounded_by_bytes() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let bound = 1024 * 1024;
    let a = replica_with(&redis.url(), HttpConfig::new().max_replay_bytes(bound)).await;
    let session = open_session(&a.router).await;
    let before = used_memory(&redis);
    let text = "x".repeat(256 * 1024);
    for id in 0..16 {
        let call = legacy_call(id, "echo_streamed", &json!({"text": text}), None);
        let reply = send(&a.router, post(&call, &in_session(&session))).await;
        assert!(
            reply.content_type().starts_with("text/event-stream"),
            "{:?}",
            reply.status
        );
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let grown = used_memory(&redis).saturating_sub(before);
    eprintln!("16 streamed answers of 256 KiB, bound 1 MiB: Redis grew by {grown} bytes");
    assert!(
        grown < 2 * bound as u64,
        "16 answers of 256 KiB with a bound of 1 MiB: Redis grew by {grown} bytes"
    );
}

// ---- the requestState key of a router on Redis -------------------------------------------------

/// What `build` logged at `warn` and above, as text.
fn warnings_of(build: impl FnOnce()) -> String {
    let written = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    let sink = std::sync::Arc::clone(&written);
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || Sink(std::sync::Arc::clone(&sink)))
        .finish();
    tracing::subscriber::with_default(subscriber, build);
    String::from_utf8_lossy(&written.lock().unwrap()).into_owned()
}

/// A `MakeWriter` target appending to a shared buffer.
struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `into_router` takes no key from Redis (it is built without an `await`): a replica built so
/// without a key of its own says at start that its key is its own, naming what to do; given
/// one, it says nothing.
#[tokio::test]
async fn a_router_on_redis_without_a_request_state_key_says_so_at_start() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let connected = Redis::connect(&redis.url()).await.expect("Redis answers");
    let without = warnings_of(|| {
        let _ = server()
            .0
            .http_config(HttpConfig::new().redis_store(connected.clone()))
            .into_router()
            .expect("the server can be built");
    });
    assert!(
        without.contains("known to this process only, though Redis is configured")
            && without.contains("Server::request_state_key"),
        "{without}"
    );
    let with = warnings_of(|| {
        let _ = server()
            .0
            .request_state_key([7; 32])
            .http_config(HttpConfig::new().redis_store(connected.clone()))
            .into_router()
            .expect("the server can be built");
    });
    assert!(!with.contains("requestState"), "{with}");
}
