//! Rate limits as a client meets them (`--rate-limit N/UNIT`, `MCP_RATE_LIMIT`,
//! `#[tool(rate_limit = …)]`, `--trust-proxy`), on the real binary `tests/src/bin/limited.rs`:
//! past a limit a request is not run and answers `-32029` with `data.retryAfterMs` and its
//! request's id; over HTTP with `429` and `Retry-After`, in both eras; notifications are never
//! counted; two clients (127.0.0.1 and 127.0.0.2) have budgets of their own; a trusted proxy's
//! `X-Forwarded-For` names the client and an untrusted one's is ignored; after `Retry-After` a
//! client gets through again; an `initialize` refused opens no session (in the table, or in
//! Redis). The limits are per minute (so a slow machine never lets a fourth
//! request through), except where a test waits out `Retry-After`.
//!
//! The official clients (installed by `tests/clients/install.sh`) meet the limit as applications
//! do: `tests/clients/py_rate_limit.py` and `tests/clients/ts_rate_limit.mjs` call until one call is
//! refused, check what the SDK raised (`-32029` with `data.retryAfterMs`; over HTTP the `429` and
//! `Retry-After`, read through each SDK's HTTP hook where the SDK hides them), wait that long and
//! call again on the same session. Without the clients installed these only say so, unless `CI`
//! is set: then they fail.

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::CatalogHttp;
use mcp_toolbelt_tests::clients::{Scripts, Sdk, check_binary};
use mcp_toolbelt_tests::http::{
    LEGACY, MODERN, Reply, envelope, exchange_from, in_session, initialize_body, legacy_call,
    modern_call, modern_headers, post, send,
};
use mcp_toolbelt_tests::services::{Nginx, RedisServer};
use mcp_toolbelt_tests::stdio::StdioServer;
use serde_json::{Value, json};

fn limited() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_limited"))
}

/// `limited --http` on a free port of 127.0.0.1, with `arguments`.
fn serve(arguments: &[&str]) -> CatalogHttp {
    CatalogHttp::start_binary(limited(), |address| address.to_string(), arguments, &[])
}

/// A POST of `body` to `server`'s endpoint from a socket bound to `from` (any address of the
/// loopback network), with `headers`.
async fn post_from(
    from: &str,
    server: SocketAddr,
    body: &Value,
    headers: &[(&str, &str)],
) -> Reply {
    let mut request = Request::post("/mcp")
        .header(header::HOST, format!("localhost:{}", server.port()))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    exchange_from(Some(from.parse().unwrap()), server, request).await
}

/// A 2026-07-28 call of `echo` from `from`.
async fn modern_echo(from: &str, server: SocketAddr, id: u64, headers: &[(&str, &str)]) -> Reply {
    let body = modern_call(id, "echo", &json!({"text": "hi"}), &json!({}));
    let mut all = modern_headers("tools/call", Some("echo"));
    all.extend_from_slice(headers);
    post_from(from, server, &body, &all).await
}

/// Asserts `reply` is the refusal of request `id` past a limit: `429`, `Retry-After` the
/// seconds of `data.retryAfterMs` rounded up, the JSON-RPC error `-32029`; returns the error.
fn assert_limited(reply: &Reply, id: u64) -> Value {
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS, "{reply:?}");
    let body = reply.json();
    assert_eq!(body["id"], id, "{body}");
    let error = &body["error"];
    assert_eq!(error["code"], -32029, "{body}");
    let millis = error["data"]["retryAfterMs"]
        .as_u64()
        .unwrap_or_else(|| panic!("no retryAfterMs: {body}"));
    assert!(millis >= 1, "{body}");
    assert_eq!(
        reply.header("retry-after"),
        Some(millis.div_ceil(1000).to_string().as_str()),
        "{reply:?}"
    );
    error.clone()
}

/// Asserts `reply` is a `200` answer with a result.
fn assert_answered(reply: &Reply) {
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert!(reply.json().get("result").is_some(), "{reply:?}");
}

#[tokio::test]
async fn http_refuses_past_the_limit_with_429_in_both_eras_and_never_counts_notifications() {
    let server = serve(&["--rate-limit", "3/min"]);
    let address = server.address;
    // Legacy, from 127.0.0.1: `initialize` counts, the notification does not.
    let opened = post_from("127.0.0.1", address, &initialize_body(), &[]).await;
    assert_answered(&opened);
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    let in_session = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LEGACY),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    for _ in 0..5 {
        let reply = post_from("127.0.0.1", address, &initialized, &in_session).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    }
    for id in [2, 3] {
        let call = legacy_call(id, "echo", &json!({"text": "hi"}), None);
        assert_answered(&post_from("127.0.0.1", address, &call, &in_session).await);
    }
    let call = legacy_call(4, "echo", &json!({"text": "hi"}), None);
    let error = assert_limited(
        &post_from("127.0.0.1", address, &call, &in_session).await,
        4,
    );
    let millis = error["data"]["retryAfterMs"].as_u64().unwrap();
    assert!(millis <= 20_000, "one request every 20 s: {error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("Rate limit exceeded: the server's limit is 3/min"),
        "{error}"
    );
    // Past the limit, notifications are still taken.
    let reply = post_from("127.0.0.1", address, &initialized, &in_session).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");

    // 2026-07-28, from 127.0.0.2: a budget of its own, refused alike past it.
    for id in 1..=3 {
        assert_answered(&modern_echo("127.0.0.2", address, id, &[]).await);
    }
    assert_limited(&modern_echo("127.0.0.2", address, 4, &[]).await, 4);
    // A discovery is a request too.
    let discover = json!({"jsonrpc": "2.0", "id": 5, "method": "server/discover", "params": {"_meta": envelope()}});
    let headers = [
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "server/discover"),
    ];
    assert_limited(
        &post_from("127.0.0.2", address, &discover, &headers).await,
        5,
    );
}

/// `initialize` number `id`.
fn initialize(id: u64) -> Value {
    let mut body = initialize_body();
    body["id"] = json!(id);
    body
}

#[tokio::test]
async fn an_initialize_refused_past_the_limit_opens_no_session() {
    // Room for one session: one opened by a refused `initialize` would push the answered one out.
    let router = mcp_toolbelt_tests::http::server()
        .rate_limit("1/min".parse().unwrap())
        .http_config(HttpConfig::new().max_sessions(1))
        .into_router()
        .unwrap();
    let opened = send(&router, post(&initialize(1), &[])).await;
    assert_answered(&opened);
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    for id in 2..=6 {
        let refused = send(&router, post(&initialize(id), &[])).await;
        assert_limited(&refused, id);
        assert_eq!(refused.header("mcp-session-id"), None, "{refused:?}");
    }
    // The answered session is still open: a request in it is limited (`429`), not unknown (`404`).
    let ping = json!({"jsonrpc": "2.0", "id": 7, "method": "ping"});
    assert_limited(&send(&router, post(&ping, &in_session(&session))).await, 7);
}

#[tokio::test]
async fn two_clients_have_budgets_of_their_own() {
    let server = serve(&["--rate-limit", "2/min"]);
    let address = server.address;
    for id in 1..=2 {
        assert_answered(&modern_echo("127.0.0.1", address, id, &[]).await);
    }
    assert_limited(&modern_echo("127.0.0.1", address, 3, &[]).await, 3);
    // 127.0.0.1 spent its budget; 127.0.0.2 has all of its own.
    for id in 1..=2 {
        assert_answered(&modern_echo("127.0.0.2", address, id, &[]).await);
    }
    assert_limited(&modern_echo("127.0.0.2", address, 3, &[]).await, 3);
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client_and_an_untrusted_one_is_ignored() {
    let server = serve(&["--rate-limit", "2/min", "--trust-proxy", "127.0.0.2/32"]);
    let address = server.address;
    // Through the trusted proxy at 127.0.0.2: each forwarded client has its own budget.
    let client_a = [("x-forwarded-for", "203.0.113.1")];
    for id in 1..=2 {
        assert_answered(&modern_echo("127.0.0.2", address, id, &client_a).await);
    }
    assert_limited(&modern_echo("127.0.0.2", address, 3, &client_a).await, 3);
    let client_b = [("x-forwarded-for", "203.0.113.2")];
    assert_answered(&modern_echo("127.0.0.2", address, 4, &client_b).await);
    // 127.0.0.1 is no trusted proxy: what it forwards is ignored, it is counted as itself.
    for (id, forwarded) in [(1, "198.51.100.1"), (2, "198.51.100.2")] {
        let headers = [("x-forwarded-for", forwarded)];
        assert_answered(&modern_echo("127.0.0.1", address, id, &headers).await);
    }
    let headers = [("x-forwarded-for", "198.51.100.3")];
    assert_limited(&modern_echo("127.0.0.1", address, 3, &headers).await, 3);
}

#[tokio::test]
async fn a_tools_own_limit_counts_its_calls_on_top_of_the_servers() {
    let server = serve(&[]);
    let address = server.address;
    let scarce = |id| modern_call(id, "scarce", &json!({}), &json!({}));
    let headers = modern_headers("tools/call", Some("scarce"));
    for id in 1..=2 {
        assert_answered(&post_from("127.0.0.1", address, &scarce(id), &headers).await);
    }
    let error = assert_limited(
        &post_from("127.0.0.1", address, &scarce(3), &headers).await,
        3,
    );
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("Rate limit exceeded: this tool's limit is 2/min"),
        "{error}"
    );
    // The other tools are not limited, nor the same tool for another client.
    for id in 4..=8 {
        assert_answered(&modern_echo("127.0.0.1", address, id, &[]).await);
    }
    assert_answered(&post_from("127.0.0.2", address, &scarce(9), &headers).await);
}

#[tokio::test]
async fn after_retry_after_the_client_gets_through_again() {
    let server = serve(&["--rate-limit", "2/s"]);
    let address = server.address;
    // Requests at once until one is refused (a slow machine may let a few more through).
    let mut refused = None;
    for id in 1..=50 {
        let reply = modern_echo("127.0.0.1", address, id, &[]).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(assert_limited(&reply, id));
            break;
        }
        assert_answered(&reply);
    }
    let error = refused.expect("a burst past 2/s is refused");
    let millis = error["data"]["retryAfterMs"].as_u64().unwrap();
    assert!(millis <= 500, "one request every 500 ms: {error}");
    tokio::time::sleep(Duration::from_millis(millis)).await;
    assert_answered(&modern_echo("127.0.0.1", address, 100, &[]).await);
}

/// The official clients' scripts of rate limits.
const CLIENT_SCRIPTS: Scripts = Scripts {
    typescript: "ts_rate_limit.mjs",
    python: "py_rate_limit.py",
};

/// `sdk` in `mode` against `limited --rate-limit 3/s`, over HTTP or stdio: refused past the
/// limit, then answered after the wait the server named.
fn official_client(sdk: Sdk, mode: &str, http: bool) {
    let arguments = [OsStr::new("--rate-limit"), OsStr::new("3/s")];
    check_binary(sdk, CLIENT_SCRIPTS, limited(), &arguments, mode, http);
}

#[test]
fn python_client_http_legacy_sees_429_and_gets_through_after_retry_after() {
    official_client(Sdk::Python, "legacy", true);
}

#[test]
fn python_client_http_modern_sees_429_and_gets_through_after_retry_after() {
    official_client(Sdk::Python, "modern", true);
}

#[test]
fn python_client_stdio_modern_sees_32029_and_gets_through_after_retry_after_ms() {
    official_client(Sdk::Python, "modern", false);
}

#[test]
fn typescript_client_http_legacy_sees_429_and_gets_through_after_retry_after() {
    official_client(Sdk::TypeScript, "legacy", true);
}

#[test]
fn typescript_client_http_modern_sees_429_and_gets_through_after_retry_after() {
    official_client(Sdk::TypeScript, "modern", true);
}

#[test]
fn typescript_client_stdio_legacy_sees_32029_and_gets_through_after_retry_after_ms() {
    official_client(Sdk::TypeScript, "legacy", false);
}

#[test]
fn stdio_refuses_past_the_limit_with_32029_and_its_id_in_both_eras() {
    let mut server = StdioServer::spawn(limited(), &["--rate-limit", "3/min"], &[]);
    // `initialize` counts; `notifications/initialized` does not.
    server.initialize(LEGACY);
    for _ in 0..5 {
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }
    assert!(server.request(2, "ping", json!({})).get("result").is_some());
    let listed = server.request(3, "tools/list", json!({"_meta": envelope()}));
    assert!(listed.get("result").is_some(), "{listed}");
    let legacy = server.request(
        4,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
    );
    assert_eq!(legacy["id"], 4, "{legacy}");
    assert_eq!(legacy["error"]["code"], -32029, "{legacy}");
    let millis = legacy["error"]["data"]["retryAfterMs"].as_u64().unwrap();
    assert!((1..=20_000).contains(&millis), "{legacy}");
    let modern = server.request(5, "tools/list", json!({"_meta": envelope()}));
    assert_eq!(modern["id"], 5, "{modern}");
    assert_eq!(modern["error"]["code"], -32029, "{modern}");
}

#[test]
fn stdio_counts_a_tools_own_limit() {
    let mut server = StdioServer::spawn(limited(), &[], &[]);
    server.initialize(LEGACY);
    let call = |id| (id, json!({"name": "scarce", "arguments": {}}));
    for id in [2, 3] {
        let (id, params) = call(id);
        let answer = server.request(id, "tools/call", params);
        assert_eq!(
            answer["result"]["content"][0]["text"], "granted",
            "{answer}"
        );
    }
    let (id, params) = call(4);
    let refused = server.request(id, "tools/call", params);
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
    let echoed = server.request(
        5,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
    );
    assert_eq!(echoed["result"]["content"][0]["text"], "hi", "{echoed}");
}

/// A 2026-07-28 call that asks the client is one call however many rounds it takes: its
/// retry with the answer is answered, not refused by the tool's `1/min`; a new call is.
#[test]
fn a_tools_own_limit_counts_a_call_that_asks_once() {
    let mut server = StdioServer::spawn(limited(), &[], &[]);
    let call = |extra: Value| {
        let mut params = json!({"name": "confirmed", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        }});
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        params
    };
    let asked = server.request(1, "tools/call", call(json!({})));
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let (key, _) = asked["result"]["inputRequests"]
        .as_object()
        .and_then(|asked| asked.iter().next())
        .unwrap_or_else(|| panic!("a question: {asked}"));
    let answers = json!({
        "inputResponses": {key: {"action": "accept", "content": {"go": true}}},
        "requestState": asked["result"]["requestState"],
    });
    let answered = server.request(2, "tools/call", call(answers));
    assert_eq!(
        answered["result"]["content"][0]["text"], "go=true",
        "{answered}"
    );
    let refused = server.request(3, "tools/call", call(json!({})));
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
}

#[test]
fn the_variable_sets_the_limit_and_a_bad_limit_says_what_to_write() {
    let mut server = StdioServer::spawn(limited(), &[], &[("MCP_RATE_LIMIT", "1/min")]);
    server.initialize(LEGACY);
    let refused = server.request(2, "ping", json!({}));
    assert_eq!(refused["error"]["code"], -32029, "{refused}");

    let output = std::process::Command::new(limited())
        .args(["--rate-limit", "3/sec"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(
            "Error: --rate-limit 3/sec: invalid rate limit: `sec` is not a unit (`s`, `min` or `h`); write N/UNIT"
        ),
        "{stderr}"
    );
    let help = std::process::Command::new(limited())
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--rate-limit N/UNIT"), "{help}");
    assert!(help.contains("--trust-proxy CIDR"), "{help}");
}

/// `limited` replicas on `redis`, each with `arguments` added.
fn replicas(redis: &RedisServer, count: usize, arguments: &[&str]) -> Vec<CatalogHttp> {
    let url = redis.url();
    let mut all = vec!["--redis", url.as_str()];
    all.extend_from_slice(arguments);
    (0..count).map(|_| serve(&all)).collect()
}

/// The keys the limits keep in `redis` (at most a few, all in one reply).
fn rate_keys(redis: &RedisServer) -> Vec<String> {
    let reply = redis.command("SCAN 0 MATCH mcp:rate:* COUNT 10000");
    reply
        .lines()
        .filter(|line| line.starts_with("mcp:rate:"))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn three_replicas_on_redis_allow_the_limit_in_total_not_three_times_it() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let replicas = replicas(&redis, 3, &["--rate-limit", "3/min"]);
    let addresses: Vec<SocketAddr> = replicas.iter().map(|replica| replica.address).collect();
    let Some(nginx) = Nginx::start(&addresses) else {
        return;
    };
    let (mut answered, mut refused) = (0, 0);
    for id in 1..=9 {
        let reply = modern_echo("127.0.0.1", nginx.address(), id, &[]).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            assert_limited(&reply, id);
            refused += 1;
        } else {
            assert_answered(&reply);
            answered += 1;
        }
    }
    assert_eq!((answered, refused), (3, 6), "{}", nginx.access_log());
    // Round robin: every replica answered some of them.
    let log = nginx.access_log();
    for address in &addresses {
        assert!(log.contains(&format!("upstream={address}")), "{log}");
    }
    // One key for the one principal (nginx's address), of a bounded size, that expires.
    let keys = rate_keys(&redis);
    assert_eq!(keys.len(), 1, "{keys:?}");
    assert_eq!(keys[0].len(), "mcp:rate:".len() + 32, "{keys:?}");
    let ttl: i64 = redis
        .command(&format!("PTTL {}", keys[0]))
        .trim_start_matches(':')
        .parse()
        .unwrap();
    assert!((1..=60_000).contains(&ttl), "{ttl}");
}

#[tokio::test]
async fn with_redis_an_initialize_refused_past_the_limit_writes_no_session() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let replicas = replicas(&redis, 1, &["--rate-limit", "1/min"]);
    let address = replicas[0].address;
    assert_answered(&post_from("127.0.0.1", address, &initialize(1), &[]).await);
    for id in 2..=6 {
        assert_limited(
            &post_from("127.0.0.1", address, &initialize(id), &[]).await,
            id,
        );
    }
    let sessions = redis.command("EVAL \"return #redis.call('KEYS', 'mcp:session:*')\" 0");
    assert_eq!(sessions, ":1", "one session record, the answered one's");
}

#[tokio::test]
async fn with_redis_down_each_replica_counts_on_its_own_and_says_so_once() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let mut replicas = replicas(&redis, 1, &["--rate-limit", "2/min"]);
    let address = replicas[0].address;
    redis.stop();
    // Still served (not a 503): counted by the replica itself.
    for id in 1..=2 {
        assert_answered(&modern_echo("127.0.0.1", address, id, &[]).await);
    }
    for id in 3..=4 {
        assert_limited(&modern_echo("127.0.0.1", address, id, &[]).await, id);
    }
    let logs = replicas.remove(0).stop();
    let said = logs
        .matches("each replica counts the rate limits on its own")
        .count();
    assert_eq!(said, 1, "{logs}");
}
