//! What a request costs in memory, read as an operator reads it: the resident size of the
//! `catalog` example's process (`VmRSS`, `VmHWM` in `/proc/<pid>/status`) while clients send it
//! 4 MB bodies full of a member nobody reads. A stream or a running call holds what it needs, not
//! its whole message parsed: 20 `subscriptions/listen` streams and 20 running calls, each sent such
//! a body, leave the server under 256 MiB (before, each one held about 150 MiB). Junk inside
//! `arguments`, built whole while parsed, is refused (`413`), and 20 such bodies sent at once
//! stay under the bound too, parsed one at a time (measured in a debug build: peak 218 MiB; 349 MiB when two
//! such parses ran at once).
//!
//! Linux only (`/proc`); each test stops at the first reading past the bound, so a server that
//! holds too much fails fast instead of growing to gigabytes.
//!
//! Then, in process, the bounds on what requests in flight hold together: the memory budget
//! (`Server::max_request_memory`: past it `503` with `Retry-After` over HTTP, `-31000` on stdio,
//! until a request is answered), and the places a batch takes over HTTP (one per item, so
//! `max_requests` bounds calls, not POSTs; a batch larger than the cap is refused for good).

#![cfg(target_os = "linux")]

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use http_tools::ending;
use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{
    MODERN, legacy_call, modern_call, modern_headers, modern_request, post, router, send, server,
};
use mcp_toolbelt_tests::in_process::InProcess;
use mcp_toolbelt_tests::stdio::StdioServer;
use mcp_toolbelt_tests::{CatalogHttp, example_binary};
use serde_json::{Value, json};

// The tools served in process (`slow`, …): the same in every `http_*` file.
use crate::http_tools;

/// The bound the process must stay under.
const BOUND_KIB: u64 = 256 * 1024;
/// Streams, and calls, each sent one large body.
const CLIENTS: usize = 20;
/// The `[0,0,…]` member nobody reads: about 4 MB, under the 4 MiB message limits.
const JUNK_ZEROS: usize = 2_000_000;
/// How long one answer (or the first event of a stream) may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A field of `/proc/<pid>/status`, in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is readable");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// Fails when the process has ever held more than the bound.
fn assert_bounded(pid: u32, after: &str) {
    let peak = status_kib(pid, "VmHWM");
    assert!(
        peak < BOUND_KIB,
        "after {after}: peak RSS {} MiB (now {} MiB), over {} MiB",
        peak / 1024,
        status_kib(pid, "VmRSS") / 1024,
        BOUND_KIB / 1024
    );
}

/// `message` as JSON text with a `junk` member of `JUNK_ZEROS` zeros added to its `params`.
fn with_junk(message: &Value) -> String {
    with_junk_in(message, "params")
}

/// `message` as JSON text with a `junk` member of `JUNK_ZEROS` zeros added to its first object
/// member named `member`.
fn with_junk_in(message: &Value, member: &str) -> String {
    let text = message.to_string();
    let member = format!(r#""{member}":{{"#);
    let open = text.find(&member).expect("the message has the member") + member.len();
    let junk = format!(r#""junk":[{}0],"#, "0,".repeat(JUNK_ZEROS - 1));
    format!("{}{junk}{}", &text[..open], &text[open..])
}

/// A 2026-07-28 request with its `_meta` envelope.
fn modern(id: usize, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "progressToken": format!("p{id}"),
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Sends `body` as a 2026-07-28 POST on a connection of its own, and reads until `until`
/// appears in what comes back; the connection is returned open (a stream goes on).
fn post_until(
    address: SocketAddr,
    method: &str,
    name: Option<&str>,
    body: &str,
    until: &str,
) -> (TcpStream, String) {
    let name = name.map_or_else(String::new, |name| format!("Mcp-Name: {name}\r\n"));
    let headers = format!("MCP-Protocol-Version: {MODERN}\r\nMcp-Method: {method}\r\n{name}");
    post_with(address, &headers, body, until)
}

/// Sends `body` as a POST with the header lines `headers` (each ending `\r\n`) on a connection
/// of its own, and reads until `until` appears in what comes back.
fn post_with(address: SocketAddr, headers: &str, body: &str, until: &str) -> (TcpStream, String) {
    let mut socket = TcpStream::connect(address).expect("the server accepts");
    socket.set_read_timeout(Some(TIMEOUT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    );
    socket.write_all(head.as_bytes()).unwrap();
    socket.write_all(body.as_bytes()).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    let mut seen = Vec::new();
    let mut buffer = [0; 4096];
    while !String::from_utf8_lossy(&seen).contains(until) {
        assert!(
            Instant::now() < deadline,
            "no {until:?} in {}",
            String::from_utf8_lossy(&seen)
        );
        let read = socket.read(&mut buffer).expect("the answer arrives");
        assert!(
            read > 0,
            "closed before {until:?}: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buffer[..read]);
    }
    (socket, String::from_utf8_lossy(&seen).into_owned())
}

#[test]
fn http_streams_and_calls_hold_what_they_need_not_their_whole_body() {
    let server = CatalogHttp::start();
    let pid = server.child.id();
    let mut open = Vec::new();
    for id in 0..CLIENTS {
        let listen = modern(
            id,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        );
        let (socket, _) = post_until(
            server.address,
            "subscriptions/listen",
            None,
            &with_junk(&listen),
            "acknowledged",
        );
        open.push(socket);
        assert_bounded(pid, &format!("{} listen streams", id + 1));
    }
    for id in CLIENTS..2 * CLIENTS {
        let call = modern(
            id,
            "tools/call",
            json!({"name": "wait", "arguments": {"seconds": 60}}),
        );
        // The call's first progress notification says it runs.
        let (socket, _) = post_until(
            server.address,
            "tools/call",
            Some("wait"),
            &with_junk(&call),
            "waiting",
        );
        open.push(socket);
        assert_bounded(pid, &format!("{} running calls", id + 1 - CLIENTS));
    }
    let list = modern(0, "tools/list", json!({})).to_string();
    let (_, answer) = post_until(server.address, "tools/list", None, &list, "\"echo\"");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_bounded(pid, "the fresh tools/list");
    eprintln!(
        "HTTP, {CLIENTS} listen streams and {CLIENTS} running calls: peak RSS {} KiB, now {} KiB",
        status_kib(pid, "VmHWM"),
        status_kib(pid, "VmRSS")
    );
    drop(open);
}

/// The capabilities junk of one client: about 0.8 MB of zeros (before only what the server
/// reads of them was kept, each session or task held some 28 MiB of it).
const CAPABILITY_ZEROS: usize = 400_000;
/// Sessions, and tasks, each opened with such capabilities.
const KEEPERS: usize = 16;

/// `message` as JSON text with `capabilities.experimental.junk` of `CAPABILITY_ZEROS` zeros, in
/// the object member `capabilities` names.
fn with_capability_junk(message: &Value, capabilities: &str) -> String {
    let text = message.to_string();
    let member = format!(r#""{capabilities}":{{"#);
    let open = text.find(&member).expect("the message has the member") + member.len();
    let junk = format!(
        r#""experimental":{{"junk":[{}0]}},"#,
        "0,".repeat(CAPABILITY_ZEROS - 1)
    );
    format!("{}{junk}{}", &text[..open], &text[open..])
}

/// A legacy session keeps what the server reads of its client's capabilities, never the tree:
/// sessions opened with 0.8 MB of `experimental` each, then used, stay under the bound.
#[test]
fn legacy_sessions_keep_what_they_read_of_the_capabilities_not_the_tree() {
    let server = CatalogHttp::start();
    let pid = server.child.id();
    let mut initialize = mcp_toolbelt_tests::http::initialize_body();
    initialize["params"]["capabilities"] = json!({"roots": {}});
    let body = with_capability_junk(&initialize, "capabilities");
    for opened in 1..=KEEPERS {
        let (_, answer) = post_with(
            server.address,
            "MCP-Protocol-Version: 2025-11-25\r\n",
            &body,
            "\"result\"",
        );
        let session = answer
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("no session: {answer}"));
        let headers = format!("MCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: {session}\r\n");
        let call = legacy_call(2, "echo", &json!({"message": "hi"}), None).to_string();
        let (_, answer) = post_with(server.address, &headers, &call, "\"result\"");
        assert!(answer.contains("hi"), "{answer}");
        assert_bounded(pid, &format!("{opened} sessions"));
    }
    eprintln!(
        "{KEEPERS} legacy sessions with 0.8 MB capabilities: peak RSS {} KiB, now {} KiB",
        status_kib(pid, "VmHWM"),
        status_kib(pid, "VmRSS")
    );
}

/// A running task keeps what the server reads of its request's `_meta` client capabilities,
/// never the tree: tasks each started with 0.8 MB of `experimental` stay under the bound.
#[test]
fn running_tasks_keep_what_they_read_of_the_capabilities_not_the_tree() {
    let server = CatalogHttp::start_example("reports", |address| address.to_string(), &[], &[]);
    let pid = server.child.id();
    let mut call = modern(
        0,
        "tools/call",
        json!({"name": "build_report", "arguments": {"topic": "memory", "sections": 50, "section_ms": 60000}}),
    );
    call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let body = with_capability_junk(&call, "io.modelcontextprotocol/clientCapabilities");
    let mut running = Vec::new();
    for started in 1..=KEEPERS {
        let (socket, answer) = post_until(
            server.address,
            "tools/call",
            Some("build_report"),
            &body,
            "\"taskId\"",
        );
        running.push(socket);
        assert_bounded(pid, &format!("{started} running tasks: {answer}"));
    }
    eprintln!(
        "{KEEPERS} running tasks with 0.8 MB capabilities: peak RSS {} KiB, now {} KiB",
        status_kib(pid, "VmHWM"),
        status_kib(pid, "VmRSS")
    );
}

/// Junk in `arguments` is built whole while the body is parsed (about 35 times its text): such
/// a call is refused (`413`, it would hold more than the whole budget), and parses that large
/// run one at a time, so clients sending them at once cannot add up past the bound.
#[test]
fn http_calls_with_junk_in_their_arguments_are_parsed_one_at_a_time() {
    let server = CatalogHttp::start();
    let pid = server.child.id();
    let address = server.address;
    let clients: Vec<_> = (0..CLIENTS)
        .map(|id| {
            std::thread::spawn(move || {
                let call = modern(
                    id,
                    "tools/call",
                    json!({"name": "wait", "arguments": {"seconds": 60}}),
                );
                let (_, answer) = post_until(
                    address,
                    "tools/call",
                    Some("wait"),
                    &with_junk_in(&call, "arguments"),
                    "\r\n\r\n",
                );
                answer
            })
        })
        .collect();
    for client in clients {
        let answer = client.join().expect("the client thread ends");
        assert!(
            answer.starts_with("HTTP/1.1 413") || answer.starts_with("HTTP/1.1 503"),
            "{answer}"
        );
    }
    assert_bounded(
        pid,
        &format!("{CLIENTS} calls with junk in their arguments"),
    );
    eprintln!(
        "HTTP, {CLIENTS} calls with junk in their arguments at once: peak RSS {} KiB, now {} KiB",
        status_kib(pid, "VmHWM"),
        status_kib(pid, "VmRSS")
    );
}

#[test]
fn stdio_calls_hold_what_they_need_not_their_whole_line() {
    let mut server = StdioServer::spawn(
        &example_binary("catalog"),
        &[],
        &[("CATALOG_TEST_TOOLS", "1")],
    );
    server.initialize("2025-11-25");
    let pid = server.pid();
    for id in 0..CLIENTS {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "wait", "arguments": {"seconds": 60}, "_meta": {"progressToken": id}}});
        server.send_raw(with_junk(&call).as_bytes());
        // Its first progress notification says the call runs.
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = server
                .next_within(TIMEOUT)
                .expect("the call's progress arrives");
            if message["method"] == "notifications/progress"
                && message["params"]["progressToken"] == id
            {
                break;
            }
            assert!(message.get("error").is_none(), "{message}");
            assert!(Instant::now() < deadline, "no progress for call {id}");
        }
        assert_bounded(pid, &format!("{} running calls", id + 1));
    }
    let list = server.request("list", "tools/list", json!({}));
    assert!(list["result"]["tools"].is_array(), "{list}");
    assert_bounded(pid, "tools/list");
    eprintln!(
        "stdio, {CLIENTS} running calls: peak RSS {} KiB, now {} KiB",
        status_kib(pid, "VmHWM"),
        status_kib(pid, "VmRSS")
    );
}

/// Tasks whose results are 3 MB (the `echo_tasks` binary's tool returns its input), made one
/// after another by one client (every unauthenticated caller is one principal).
const ECHO_TASKS: usize = 30;
/// What one such task sends and gets back.
const ECHO_BYTES: usize = 3_000_000;
/// The most 15 more finished tasks may add to the process once its store is full (the default
/// byte budget of one principal's finished results, 32 MiB, holds 11): room for the allocator
/// (measured: 0 to 10 MiB). Kept, they would add some 48 MiB (before the budget, 20 tasks after
/// the first 10 added 66 MiB).
const FINISHED_GROWTH_KIB: u64 = 24 * 1024;

/// The status of task `id` on `address`, as `tasks/get` answers it now (read from the start of
/// the answer only: the result that follows may be megabytes).
fn task_status(address: SocketAddr, id: &str) -> String {
    let get = modern(0, "tasks/get", json!({"taskId": id}));
    let mut get = get;
    get["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let (_, answer) = post_until(
        address,
        "tasks/get",
        Some(id),
        &get.to_string(),
        "\"status\":\"",
    );
    let status = answer.split("\"status\":\"").nth(1).unwrap_or_default();
    status.split('"').next().unwrap_or_default().to_owned()
}

/// Finished tasks keep their results until their TTL (2 hours by default), within a byte budget:
/// one client making task after task whose results are 3 MB grows the server's memory only until
/// the budget is full, after which the oldest finished results go first (before, each finished
/// task held about 4 MiB more, 1,000 of one principal allowed: some 4 GB).
#[test]
fn finished_tasks_results_are_bounded_in_bytes_not_only_in_count() {
    let server = CatalogHttp::start_binary(
        std::path::Path::new(env!("CARGO_BIN_EXE_echo_tasks")),
        |address| address.to_string(),
        &[],
        &[],
    );
    let pid = server.child.id();
    let text = "x".repeat(ECHO_BYTES);
    let mut ids = Vec::new();
    let mut full = 0;
    for id in 0..ECHO_TASKS {
        let mut call = modern(
            id,
            "tools/call",
            json!({"name": "echo_task", "arguments": {"text": text}}),
        );
        call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        let (_, answer) = post_until(
            server.address,
            "tools/call",
            Some("echo_task"),
            &call.to_string(),
            "\"taskId\":\"",
        );
        let task = answer.split("\"taskId\":\"").nth(1).unwrap();
        let task = task.split('"').next().unwrap().to_owned();
        ids.push(task);
        if id + 1 == ECHO_TASKS / 2 {
            // 45 MB of results, past the budget: the store is full from here on.
            wait_completed(server.address, &ids[id]);
            full = status_kib(pid, "VmRSS");
        }
    }
    wait_completed(server.address, &ids[ECHO_TASKS - 1]);
    let now = status_kib(pid, "VmRSS");
    eprintln!(
        "{ECHO_TASKS} finished tasks of {ECHO_BYTES} bytes: RSS {} KiB after {}, {now} KiB after all \
         (peak {} KiB)",
        full,
        ECHO_TASKS / 2,
        status_kib(pid, "VmHWM")
    );
    assert!(
        now.saturating_sub(full) < FINISHED_GROWTH_KIB,
        "{} more finished tasks grew the server from {} to {} MiB",
        ECHO_TASKS - ECHO_TASKS / 2,
        full / 1024,
        now / 1024
    );
}

/// Waits until task `id` on `address` has completed (each is done a moment after it is made).
fn wait_completed(address: SocketAddr, id: &str) {
    let deadline = Instant::now() + TIMEOUT;
    while task_status(address, id) != "completed" {
        assert!(Instant::now() < deadline, "task {id} did not complete");
        std::thread::sleep(Duration::from_millis(5));
    }
}

// ---- the memory budget and the places of a batch, in process -------------------------------

/// The budget of the in-process servers: one padded request fits, two do not.
const SMALL_BUDGET: usize = 1024 * 1024;

/// A `_meta` member that makes a request hold about 700 KiB once parsed: one that is read
/// (`tracestate`, kept for the trace context), since the members nothing reads are skipped as
/// they are read and hold nothing.
fn padding() -> Value {
    json!({"tracestate": "x".repeat(700 * 1024)})
}

#[tokio::test]
async fn past_the_memory_budget_http_answers_503_until_room_is_made() {
    let router = server()
        .max_request_memory(SMALL_BUDGET)
        .http_config(HttpConfig::new())
        .into_router()
        .unwrap();
    let slow = modern_call(
        1,
        "slow",
        &json!({"tag": "holds-memory", "seconds": 30}),
        &padding(),
    );
    let call = tokio::spawn({
        let router = router.clone();
        async move {
            send(
                &router,
                post(&slow, &modern_headers("tools/call", Some("slow"))),
            )
            .await
        }
    });
    ending("holds-memory", Some("started")).await;
    let padded = modern_request(2, "tools/list", json!({}), &padding());
    let reply = send(&router, post(&padded, &modern_headers("tools/list", None))).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert!(reply.header("retry-after").is_some(), "{reply:?}");
    assert_eq!(reply.json()["id"], 2, "{reply:?}");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("memory"),
        "{reply:?}"
    );
    // A notification or a response past the budget is still taken (an answer to a question a
    // call waits on must get through while the calls waiting hold the memory).
    let session = batch_session(&router).await;
    let headers: Vec<(&str, &str)> = session
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 99, "_meta": padding()}});
    let reply = send(&router, post(&notification, &headers)).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    let response = json!({"jsonrpc": "2.0", "id": 99, "result": padding()});
    let reply = send(&router, post(&response, &headers)).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
    // A request that holds little is still answered.
    let list = modern_request(3, "tools/list", json!({}), &json!({}));
    let reply = send(&router, post(&list, &modern_headers("tools/list", None))).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // The call ends: what it held is given back.
    call.abort();
    assert_eq!(ending("holds-memory", None).await, "cancelled");
    tokio::time::timeout(Duration::from_secs(10), async {
        while send(&router, post(&padded, &modern_headers("tools/list", None)))
            .await
            .status
            != StatusCode::OK
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the memory is given back");
    // One that would hold more than the whole budget can never run.
    let mut huge = padding();
    huge["traceparent"] = huge["tracestate"].clone();
    let too_large = modern_request(4, "tools/list", json!({}), &huge);
    let reply = send(
        &router,
        post(&too_large, &modern_headers("tools/list", None)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{reply:?}");
    assert_eq!(reply.json()["id"], 4, "{reply:?}");
}

#[tokio::test]
async fn past_the_memory_budget_stdio_refuses_with_server_busy() {
    let mut client = InProcess::start(server().max_request_memory(SMALL_BUDGET));
    let mut meta = padding();
    meta["progressToken"] = json!("p");
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "slow", "arguments": {"tag": "stdio-holds-memory", "seconds": 30}, "_meta": meta}}))
        .await;
    assert_eq!(
        client.next_message().await["method"],
        "notifications/progress"
    );
    let refused = client.request(2, "ping", json!({"_meta": padding()})).await;
    assert_eq!(refused["id"], 2, "{refused}");
    assert_eq!(refused["error"]["code"], -31000, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("memory"),
        "{refused}"
    );
    client.assert_alive(3).await;

    // The call ends: what it held is given back (soon, not necessarily at once).
    client.cancel(1).await;
    assert_eq!(ending("stdio-holds-memory", None).await, "cancelled");
    tokio::time::timeout(Duration::from_secs(10), async {
        for id in 4.. {
            let answer = client
                .request(id, "ping", json!({"_meta": padding()}))
                .await;
            if answer.get("result").is_some() {
                return;
            }
            assert_eq!(answer["error"]["code"], -31000, "{answer}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the memory is given back");
}

/// A 2025-03-26 session (the one version with batches) and the headers of its requests.
async fn batch_session(router: &Router) -> [(&'static str, String); 2] {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "memory-tests", "version": "1.0.0"}}});
    let reply = send(router, post(&initialize, &[])).await;
    assert_eq!(
        reply.json()["result"]["protocolVersion"],
        "2025-03-26",
        "{reply:?}"
    );
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    [
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-03-26".into()),
    ]
}

#[tokio::test]
async fn each_item_of_a_batch_takes_a_place() {
    let router = router(HttpConfig::new().max_requests(4));
    let session = batch_session(&router).await;
    let headers: Vec<(&str, &str)> = session
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    let pings = |ids: std::ops::Range<u64>| -> Value {
        ids.map(|id| json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .collect()
    };

    // More calls than there could ever be places: refused whole and for good (no retry can
    // help), none runs.
    let reply = send(&router, post(&pings(1..6), &headers)).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{reply:?}");
    assert!(reply.header("retry-after").is_none(), "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32600, "{reply:?}");
    let message = reply.json()["error"]["message"].to_string();
    assert!(
        message.contains("at most 4 calls in one batch"),
        "{message}"
    );
    let reply = send(&router, post(&pings(1..5), &headers)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(reply.json().as_array().map(Vec::len), Some(4), "{reply:?}");

    // Three calls of a batch running hold three places: a batch of two finds one.
    let slow_batch: Value = (0..3)
        .map(|n| {
            legacy_call(
                10 + n,
                "slow",
                &json!({"tag": format!("batched-{n}"), "seconds": 30}),
                None,
            )
        })
        .collect();
    let running = tokio::spawn({
        let router = router.clone();
        let headers: Vec<(&'static str, String)> = session.to_vec();
        async move {
            let headers: Vec<(&str, &str)> = headers
                .iter()
                .map(|(name, value)| (*name, value.as_str()))
                .collect();
            send(&router, post(&slow_batch, &headers)).await
        }
    });
    for n in 0..3 {
        ending(&format!("batched-{n}"), Some("started")).await;
    }
    // A batch that fits when the places are free, but not now: try again later.
    let reply = send(&router, post(&pings(20..22), &headers)).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert!(reply.header("retry-after").is_some(), "{reply:?}");
    let reply = send(&router, post(&pings(30..31), &headers)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    running.abort();
}
