//! A tool that computes without awaiting (a long synchronous loop that polls
//! `Context::is_cancelled`, as the `Context` docs suggest) must not stop a stdio server from
//! reading its next lines: a `ping` is answered meanwhile, a call read after it is answered,
//! and the `notifications/cancelled` the loop waits for reaches it. Calls read together start
//! together, once every line read is taken: a cancellation read with its call stops it before
//! it runs. A listing runs user code too when a middleware or a visibility rule wraps it: one
//! that computes on `tools/list` does not stop the reading either.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_toolbelt::middleware::{Kind, Next, Request};
use mcp_toolbelt::{Context, Server, Visibility, tool};
use mcp_toolbelt_tests::in_process::InProcess;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt as _;

/// Spins until its call is cancelled (at most ten seconds)
#[tool]
async fn busy_until_cancelled(context: &Context) -> String {
    let started = Instant::now();
    while !context.is_cancelled() && started.elapsed() < Duration::from_secs(10) {
        std::hint::spin_loop();
    }
    format!("cancelled: {}", context.is_cancelled())
}

/// Says `text` back
#[tool]
async fn say(text: String) -> String {
    text
}

/// How many times `counted` ran.
static COUNTED: AtomicUsize = AtomicUsize::new(0);

/// Counts its runs
#[tool]
async fn counted() -> String {
    COUNTED.fetch_add(1, Ordering::SeqCst);
    "counted".to_owned()
}

/// The server's next message, within 5 s: half what a busy tool spins, so that an answer
/// that waited for it does not come in time.
async fn next(client: &mut InProcess) -> Value {
    client.next_message_within(Duration::from_secs(5)).await
}

/// A legacy `initialize` (request 0).
fn initialize(client_name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": client_name, "version": "1"}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_tool_does_not_stop_the_connection_reading() {
    let mut client = InProcess::start(Server::new("busy", "1.0.0"));
    client.send(&initialize("busy")).await;
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "busy_until_cancelled", "arguments": {}}}))
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    assert_eq!(next(&mut client).await["id"], 0);
    assert_eq!(
        next(&mut client).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
    // A call read after the busy one runs apart from it, on the other worker.
    client
        .send(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                      "params": {"name": "say", "arguments": {"text": "meanwhile"}}}))
        .await;
    let answer = next(&mut client).await;
    assert_eq!(answer["id"], 4);
    assert_eq!(answer["result"]["content"][0]["text"], "meanwhile");
    client.cancel(1).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))
        .await;
    // The cancelled call answers nothing: the next line is the second ping's answer.
    assert_eq!(
        next(&mut client).await,
        json!({"jsonrpc": "2.0", "id": 3, "result": {}})
    );
    let (rest, ended) = client.finish().await;
    assert!(rest.is_empty(), "the cancelled call answered: {rest:?}");
    ended.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_read_together_are_each_answered_once_and_a_cancellation_read_with_its_call_stops_it()
{
    let mut client = InProcess::with_pipes(Server::new("bursts", "1.0.0"), 256 * 1024);
    client.send(&initialize("bursts")).await;
    assert_eq!(next(&mut client).await["id"], 0);
    // One write of about 5 KB, read at once (a read takes up to 8 KiB): more calls than one
    // task runs (`MAX_BURST`, 16), a call and its cancellation, and a ping.
    let mut text = String::new();
    for id in 1..=40 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": "say", "arguments": {"text": format!("call {id}")}}});
        writeln!(text, "{call}").unwrap();
    }
    let cancelled = json!({"jsonrpc": "2.0", "id": 100, "method": "tools/call",
                           "params": {"name": "counted", "arguments": {}}});
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 100}});
    let ping = json!({"jsonrpc": "2.0", "id": 200, "method": "ping"});
    write!(text, "{cancelled}\n{cancel}\n{ping}\n").unwrap();
    let input = client.input.as_mut().expect("open");
    input.write_all(text.as_bytes()).await.unwrap();
    let mut answered = BTreeSet::new();
    for _ in 0..41 {
        let answer = next(&mut client).await;
        let id = answer["id"].as_i64().expect("an id");
        if id != 200 {
            assert_eq!(answer["result"]["content"][0]["text"], format!("call {id}"));
        }
        assert!(answered.insert(id), "{id} answered twice");
    }
    let expected: BTreeSet<i64> = (1..=40).chain([200]).collect();
    assert_eq!(answered, expected);
    // The cancelled call never ran, and answers nothing: the next line answers the next ping.
    client
        .send(&json!({"jsonrpc": "2.0", "id": 201, "method": "ping"}))
        .await;
    assert_eq!(
        next(&mut client).await,
        json!({"jsonrpc": "2.0", "id": 201, "result": {}})
    );
    assert_eq!(COUNTED.load(Ordering::SeqCst), 0);
    let (rest, ended) = client.finish().await;
    assert!(rest.is_empty(), "the cancelled call answered: {rest:?}");
    ended.unwrap();
}

/// Blocks its thread until `released` is set (at most ten seconds): user code that computes
/// without awaiting.
fn block_until(released: &AtomicBool) {
    let started = Instant::now();
    while !released.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Over stdio, `server` answers a `ping` sent while its `tools/list` computes (until `released`
/// is set), then the listing.
async fn a_ping_is_answered_while_the_listing_computes(server: Server, released: &AtomicBool) {
    let mut client = InProcess::start(server);
    client.send(&initialize("busy")).await;
    assert_eq!(next(&mut client).await["id"], 0);
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    assert_eq!(
        next(&mut client).await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}}),
        "the ping is answered while the listing computes"
    );
    released.store(true, Ordering::SeqCst);
    let listed = next(&mut client).await;
    assert_eq!(listed["id"], 1, "{listed}");
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    client.finish().await.1.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_middleware_computing_on_a_listing_does_not_stop_the_connection_reading() {
    let released = Arc::new(AtomicBool::new(false));
    let held = Arc::clone(&released);
    let server = Server::new("busy", "1.0.0").middleware(move |request: Request, next: Next| {
        let held = Arc::clone(&held);
        async move {
            if request.kind() == Kind::ListTools {
                block_until(&held);
            }
            next.run(request).await
        }
    });
    a_ping_is_answered_while_the_listing_computes(server, &released).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visibility_rule_computing_does_not_stop_the_connection_reading() {
    let released = Arc::new(AtomicBool::new(false));
    let held = Arc::clone(&released);
    let server = Server::new("busy", "1.0.0").visibility(move |_auth| {
        block_until(&held);
        Visibility::all()
    });
    a_ping_is_answered_while_the_listing_computes(server, &released).await;
}
