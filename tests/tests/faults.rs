//! Faults, as a client and a tool author meet them: tools that panic, hang past the call time
//! limit, ignore their cancellation or break their output schema; clients that leave mid-call,
//! close the server's output, stop reading, or send garbage (invalid UTF-8, a 100 MB line, JSON
//! nested 10,000 deep, 10,000 arguments, a batch of 100,000 items). Each time the server answers
//! what it must, keeps serving, and leaves no task or future behind.
//!
//! The in-process tests run `serve_io` on the test's current-thread runtime, so that
//! `num_alive_tasks` counts exactly the server's tasks.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcp_toolbelt::{CallToolResult, Context, Json, Server, ToolError, tool, tool::Tool};
use mcp_toolbelt_tests::example_binary;
use mcp_toolbelt_tests::in_process::InProcess;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt as _;

// ---- the misbehaving tools ---------------------------------------------------------------------

/// How each guarded call ended, by tag: `dropped cancelled` when its future was dropped after its
/// context was cancelled, `dropped` without, `returned` when it ran to its end.
static ENDINGS: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());

fn endings() -> std::sync::MutexGuard<'static, BTreeMap<String, &'static str>> {
    ENDINGS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Records how a call ended when the call's future is dropped.
struct DropGuard {
    tag: String,
    context: Context,
    returned: bool,
}

impl Drop for DropGuard {
    fn drop(&mut self) {
        let what = match (self.returned, self.context.is_cancelled()) {
            (true, _) => "returned",
            (false, true) => "dropped cancelled",
            (false, false) => "dropped",
        };
        endings().insert(self.tag.clone(), what);
    }
}

fn guard(tag: String, context: &Context) -> DropGuard {
    DropGuard {
        tag,
        context: context.clone(),
        returned: false,
    }
}

/// Panics with "boom"
#[tool]
async fn panics() -> String {
    panic!("boom")
}

/// Waits forever, without looking at its cancellation
#[tool]
async fn hangs(
    /// Names this call in the record of how calls ended
    tag: String,
    context: &Context,
) -> String {
    let mut guard = guard(tag, context);
    std::future::pending::<()>().await;
    guard.returned = true;
    "never".into()
}

/// Works in small steps for a minute and never checks whether it was cancelled
#[tool]
async fn stubborn(
    /// Names this call in the record of how calls ended
    tag: String,
    context: &Context,
) -> String {
    let mut guard = guard(tag, context);
    for _ in 0..6000 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    guard.returned = true;
    "done".into()
}

#[derive(Serialize, JsonSchema)]
struct Gauge {
    #[schemars(range(max = 100))]
    percent: u32,
}

/// Reports a percentage its own output schema forbids
#[tool]
async fn broken_gauge() -> Json<Gauge> {
    Json(Gauge { percent: 150 })
}

/// Reports progress 100,000 times, then answers
#[tool]
async fn floods(
    /// Names this call in the record of how calls ended
    tag: String,
    context: &Context,
) -> String {
    let mut guard = guard(tag, context);
    for step in 0..100_000_u32 {
        context.progress(f64::from(step), None, None);
        if step % 1000 == 0 {
            tokio::task::yield_now().await;
        }
    }
    guard.returned = true;
    "flooded".into()
}

/// Reports progress without end, until its call is cancelled and its future dropped
#[tool]
async fn floods_until_cancelled(
    /// Names this call in the record of how calls ended
    tag: String,
    context: &Context,
) -> String {
    let _guard = guard(tag, context);
    let mut step = 0_u32;
    loop {
        context.progress(f64::from(step), None, None);
        step = step.wrapping_add(1);
        if step.is_multiple_of(100) {
            tokio::task::yield_now().await;
        }
    }
}

#[derive(Deserialize, JsonSchema)]
struct GoOn {
    /// Whether to go on
    go: bool,
}

/// Works `before` minutes, asks the user whether to go on, then works `after` minutes
#[tool(asks(GoOn))]
async fn asks_midway(
    /// Minutes of work before the question
    before: u64,
    /// Minutes of work after it
    after: u64,
    context: &Context,
) -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(before * 60)).await;
    let answer = context
        .elicit::<GoOn>("Go on?")
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    tokio::time::sleep(Duration::from_secs(after * 60)).await;
    Ok(format!(
        "go on: {}",
        matches!(
            answer,
            mcp_toolbelt::ask::Elicitation::Accept(GoOn { go: true })
        )
    ))
}

/// Echoes its text
#[tool]
async fn echo(
    /// What to echo
    text: String,
) -> String {
    text
}

fn error_result(id: i64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": text}], "isError": true}})
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

async fn ending_of(tag: &str) -> Option<&'static str> {
    for _ in 0..200 {
        if let Some(ending) = endings().get(tag) {
            return Some(ending);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

fn alive_tasks() -> usize {
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

// ---- tools that misbehave ----------------------------------------------------------------------

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_server_lives() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    assert_eq!(
        client.call(1, "panics", json!({})).await,
        error_result(1, "Error executing tool panics: the tool panicked: boom")
    );
    client.assert_alive(2).await;
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn a_call_past_its_time_limit_answers_so_and_its_future_is_dropped() {
    let before = alive_tasks();
    let server = Server::new("faults", "0").call_timeout(Duration::from_millis(200));
    let mut client = InProcess::start(server);
    let started = Instant::now();
    assert_eq!(
        client
            .call(1, "hangs", json!({"tag": "past the limit"}))
            .await,
        error_result(
            1,
            "Error executing tool hangs: it ran longer than its time limit of 200ms and was stopped"
        )
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        ending_of("past the limit").await,
        Some("dropped cancelled"),
        "the future is dropped, its context cancelled first"
    );
    client.assert_alive(2).await;
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
    assert_eq!(alive_tasks(), before, "no task is left behind");
}

#[tokio::test]
async fn a_tool_that_ignores_its_cancellation_is_dropped_at_its_next_await() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "stubborn", "arguments": {"tag": "stubborn"}}}))
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    client.cancel(1).await;
    assert_eq!(ending_of("stubborn").await, Some("dropped cancelled"));
    // Anything sent for call 1 would come before this answer.
    client.assert_alive(2).await;
    let (rest, ended) = client.finish().await;
    assert_eq!(
        rest,
        Vec::<Value>::new(),
        "a cancelled call answers nothing"
    );
    ended.unwrap();
}

/// Time spent waiting for the client's answer to a question (a person may take minutes) does not
/// count against the call time limit (5 minutes by default), the call's own time does.
#[tokio::test(start_paused = true)]
async fn waiting_for_the_clients_answer_does_not_count_against_the_call_time_limit() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    let initialized = client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                   "clientInfo": {"name": "slow person", "version": "0"}}),
        )
        .await;
    assert!(initialized.get("result").is_some(), "{initialized}");
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let minutes = |minutes: u64| Duration::from_secs(minutes * 60);
    // Each call: `before` minutes of work, the answer `waited` minutes later, then `after`.
    let mut ask = async |id: i64, before: u64, waited: u64, after: u64| {
        let started = tokio::time::Instant::now();
        client
            .send(
                &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "asks_midway", "arguments": {"before": before, "after": after}}}),
            )
            .await;
        let question = client.next_message_untimed().await;
        assert_eq!(question["method"], "elicitation/create", "{question}");
        assert_eq!(started.elapsed(), minutes(before));
        tokio::time::sleep(minutes(waited)).await;
        client
            .send(&json!({"jsonrpc": "2.0", "id": question["id"],
                          "result": {"action": "accept", "content": {"go": true}}}))
            .await;
        (client.next_message_untimed().await, started.elapsed())
    };
    // 4 minutes of its own time, 10 in all: under the limit.
    let (answer, took) = ask(1, 1, 6, 3).await;
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "go on: true"}]}})
    );
    assert_eq!(took, minutes(10));
    // 2 minutes, 6 waiting, then 4 more: stopped 3 minutes after the answer, at 5 of its own.
    let (answer, took) = ask(2, 2, 6, 4).await;
    assert_eq!(
        answer,
        error_result(
            2,
            "Error executing tool asks_midway: it ran longer than its time limit of 300s and was stopped"
        )
    );
    assert_eq!(took, minutes(11));
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn structured_content_failing_its_schema_is_an_error_result() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    assert_eq!(
        client.call(1, "broken_gauge", json!({})).await,
        error_result(
            1,
            "Output validation error: Invalid structured content for tool broken_gauge: percent: must be at most 100, got 150"
        )
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

// ---- clients that leave ------------------------------------------------------------------------

#[tokio::test]
async fn end_of_input_mid_call_leaves_no_task_behind() {
    let before = alive_tasks();
    let mut client = InProcess::start(Server::new("faults", "0"));
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "hangs", "arguments": {"tag": "input ended"}}}))
        .await;
    client.assert_alive(2).await;
    assert!(alive_tasks() > before);
    // The running call gets the shutdown grace (5 s), then is dropped.
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
    assert_eq!(ending_of("input ended").await, Some("dropped cancelled"));
    assert_eq!(alive_tasks(), before, "no task is left behind");
}

/// A client that closes the server's output mid-call has left: at the next write the server
/// sees it, cancels the call at once (no grace: no answer can reach anyone) and ends, leaving no
/// task behind.
#[tokio::test]
async fn a_closed_output_mid_call_cancels_the_call_and_ends_the_server() {
    let before = alive_tasks();
    let (mut input, server_input) = tokio::io::duplex(64 * 1024);
    let (server_output, output) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(Server::new("faults", "0").serve_io(server_input, server_output));
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "hangs", "arguments": {"tag": "output closed"}}});
    input
        .write_all(format!("{call}\n").as_bytes())
        .await
        .unwrap();
    drop(output);
    // Its answer is the write that finds the output closed.
    input
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    let started = Instant::now();
    let ended = tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serve_io ends")
        .unwrap();
    assert!(ended.is_ok(), "{ended:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the server waited {:?}, as for a client still there",
        started.elapsed()
    );
    assert_eq!(ending_of("output closed").await, Some("dropped cancelled"));
    drop(input);
    assert_eq!(alive_tasks(), before, "no task is left behind");
}

/// A client that closes the server's stdout (and keeps its stdin open) has left: at the next
/// write the server sees the broken pipe and exits with status 0, without waiting for the end
/// of its input.
#[test]
fn a_closed_stdout_ends_the_server_process_cleanly() {
    let mut child = Command::new(example_binary("catalog"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the catalog example starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the server still runs 10 s after its stdout was closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{status}: {stderr}");
    drop(stdin);
}

// ---- clients that do not read --------------------------------------------------------------------

/// A client that sends and never reads fills the output queue; then the server stops reading
/// its input (the client's writes block) instead of buffering answers without bound. Once the
/// client reads, every request is answered, once.
#[tokio::test]
async fn a_client_that_stops_reading_stops_the_server_reading() {
    stops_reading_then_answers_everything().await;
}

/// The same on a multi-thread runtime, where the server's reader and writer run at once: the
/// reader, woken as a burst is written, must not miss that the queue has room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_stops_the_server_reading_multi_thread() {
    stops_reading_then_answers_everything().await;
}

async fn stops_reading_then_answers_everything() {
    let server = Server::new("faults", "0").max_queued_messages(16);
    let mut client = InProcess::with_pipes(server, 4 * 1024);
    let mut input = client.input.take().unwrap();
    let (written, mut progress) = tokio::sync::watch::channel(0_usize);
    let writing = tokio::spawn(async move {
        for id in 0..20_000 {
            let request = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
            input.write_all(request.as_bytes()).await.unwrap();
            written.send_replace(id + 1);
        }
        input
    });
    // The writes stall (no progress for half a second) long before all 20,000 are read.
    loop {
        let stalled = tokio::time::timeout(Duration::from_millis(500), progress.changed()).await;
        let count = *progress.borrow_and_update();
        assert!(
            count < 2_000,
            "the server read {count} requests while no answer was read"
        );
        if stalled.is_err() {
            break;
        }
    }
    let mut seen = vec![false; 20_000];
    for _ in 0..20_000 {
        let message = client.next_message().await;
        let id = usize::try_from(message["id"].as_u64().unwrap()).unwrap();
        assert_eq!(message["result"], json!({}), "{message}");
        assert!(!seen[id], "id {id} answered twice");
        seen[id] = true;
    }
    client.input = Some(writing.await.unwrap());
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

/// A tool that reports progress without end to a client that reads nothing cannot grow the
/// queue: past `max_queued_messages`, progress is dropped (the response never is).
#[tokio::test]
async fn progress_to_a_client_that_does_not_read_is_dropped_past_the_queue_limit() {
    let server = Server::new("faults", "0").max_queued_messages(16);
    let mut client = InProcess::with_pipes(server, 4 * 1024);
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "floods", "arguments": {"tag": "flood"}, "_meta": {"progressToken": "p"}}}),
        )
        .await;
    assert_eq!(
        ending_of("flood").await,
        Some("returned"),
        "progress never blocks the tool"
    );
    let mut progress = 0;
    let answer = loop {
        let message = client.next_message().await;
        if message["method"] == "notifications/progress" {
            progress += 1;
        } else {
            break message;
        }
    };
    assert_eq!(
        answer["result"]["content"][0]["text"], "flooded",
        "{answer}"
    );
    assert!(
        progress < 10_000,
        "{progress} of 100,000 progress notifications were kept for a client reading nothing"
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

/// On a multi-thread runtime the server's reader and writer run at once: with a queue of one
/// message the reader waits for the writer at nearly every line, and must never miss that the
/// queue has room again (60,000 requests, each answered).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_waiting_on_the_writer_always_wakes_multi_thread() {
    let server = Server::new("faults", "0").max_queued_messages(1);
    let mut client = InProcess::with_pipes(server, 4 * 1024);
    let mut input = client.input.take().unwrap();
    let writing = tokio::spawn(async move {
        for id in 0..60_000 {
            let request = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
            input.write_all(request.as_bytes()).await.unwrap();
        }
        input
    });
    for id in 0..60_000 {
        assert_eq!(
            client.next_message().await,
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
    }
    client.input = Some(writing.await.unwrap());
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

/// A tool that floods progress to a client that reads none of it does not stop the server
/// reading: past the queue limit progress is dropped, and only answers waiting to be written
/// hold the reader back, so the client's cancellation reaches the tool.
#[tokio::test]
async fn a_cancellation_reaches_a_tool_flooding_a_client_that_does_not_read() {
    cancel_a_flood("flood cancelled").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancellation_reaches_a_tool_flooding_a_client_that_does_not_read_multi_thread() {
    cancel_a_flood("flood cancelled, multi-thread").await;
}

async fn cancel_a_flood(tag: &str) {
    let server = Server::new("faults", "0").max_queued_messages(16);
    let mut client = InProcess::with_pipes(server, 4 * 1024);
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "floods_until_cancelled", "arguments": {"tag": tag},
            "_meta": {"progressToken": "p"}}}),
        )
        .await;
    for _ in 0..100 {
        assert_eq!(
            client.next_message().await["method"],
            "notifications/progress"
        );
    }
    // From here on the client reads nothing: the output pipe and queue fill with progress.
    tokio::time::sleep(Duration::from_millis(100)).await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .await;
    client.cancel(1).await;
    assert_eq!(
        ending_of(tag).await,
        Some("dropped cancelled"),
        "the cancellation reached the call while the client read nothing"
    );
    let answer = loop {
        let message = client.next_message().await;
        if message["method"] != "notifications/progress" {
            break message;
        }
    };
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    let (rest, ended) = client.finish().await;
    assert!(
        rest.iter()
            .all(|message| message["method"] == "notifications/progress"),
        "a cancelled call answers nothing: {rest:?}"
    );
    ended.unwrap();
}

/// Past the calls-in-flight cap a request is refused at once, and reading goes on: the
/// cancellation that frees a place is read and acted on.
#[tokio::test]
async fn past_the_in_flight_cap_requests_are_refused_and_cancellations_still_arrive() {
    let mut client = InProcess::start(Server::new("faults", "0").max_calls_in_flight(2));
    for (id, tag) in [(1, "cap a"), (2, "cap b")] {
        client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                           "params": {"name": "hangs", "arguments": {"tag": tag}}}))
            .await;
    }
    assert_eq!(
        client.call(3, "echo", json!({"text": "hi"})).await,
        error(
            json!(3),
            -31000,
            "Server busy: 2 requests are already running on this connection (the limit); send it again once one has answered"
        )
    );
    client.cancel(1).await;
    assert_eq!(ending_of("cap a").await, Some("dropped cancelled"));
    assert_eq!(
        client.call(4, "echo", json!({"text": "hi"})).await["result"]["content"][0]["text"],
        "hi"
    );
    client.cancel(2).await;
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

// ---- garbage -------------------------------------------------------------------------------------

#[tokio::test]
async fn invalid_utf8_is_a_parse_error_and_the_server_goes_on() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    client
        .send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}")
        .await;
    // The id came before what broke the message: the answer carries it.
    assert_eq!(
        client.next_message().await,
        error(json!(1), -32700, "Parse error: invalid UTF-8")
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

#[tokio::test]
async fn a_100_mb_line_is_refused_without_being_kept() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    let input = client.input.as_mut().unwrap();
    let chunk = vec![b'x'; 1024 * 1024];
    input
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"")
        .await
        .unwrap();
    for _ in 0..100 {
        input.write_all(&chunk).await.unwrap();
    }
    client.send_raw(b"\"}}").await;
    assert_eq!(
        client.next_message().await,
        error(
            Value::Null,
            -32600,
            "Invalid Request: message longer than 4194304 bytes; discarded"
        )
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

#[tokio::test]
async fn json_nested_10000_deep_is_refused_without_a_stack_overflow() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    // In a member that is read (`_meta.progressToken`), it is built: refused at serde_json's
    // depth limit.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_meta":{{"progressToken":{}{}}}}}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    client.send_raw(deep.as_bytes()).await;
    let refused = client.next_message().await;
    assert_eq!(refused["error"]["code"], -32700, "{refused}");
    assert_eq!(refused["id"], 1, "{refused}");
    // In a member no method reads, it is skipped (without recursion), never built.
    let skipped = deep.replace(r#""progressToken""#, r#""a""#);
    client.send_raw(skipped.as_bytes()).await;
    let answered = client.next_message().await;
    assert_eq!(answered, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    // An array nested as deep is a batch, refused at this version before it is looked into.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    client.send_raw(deep.as_bytes()).await;
    let refused = client.next_message().await;
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let in_arguments = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":{}{}}}}}}}"#,
        "{\"a\":".repeat(10_000),
        "}".repeat(10_000)
    );
    client.send_raw(in_arguments.as_bytes()).await;
    let refused = client.next_message().await;
    assert_eq!(refused["error"]["code"], -32700, "{refused}");
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

#[tokio::test]
async fn a_call_with_10000_arguments_is_refused_with_a_short_message() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    let mut arguments: serde_json::Map<String, Value> = (0..10_000)
        .map(|n| (format!("extra{n}"), json!(n)))
        .collect();
    arguments.insert("text".into(), json!("hi"));
    let answer = client.call(1, "echo", Value::Object(arguments)).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.len() < 1024, "a {} byte message", text.len());
    assert_eq!(
        text,
        format!(
            "Input validation error: Invalid arguments for tool echo: (root): unknown properties {} and 9980 more are not allowed",
            (0..20)
                .map(|n| format!("'extra{n}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

/// 10,000 arguments that each fail: the message names the first 20 and counts the rest.
#[tokio::test]
async fn ten_thousand_failing_arguments_make_a_short_message() {
    let server = Server::new("faults", "0");
    let tool = Tool::new(
        "integers",
        "Takes any number of integer arguments",
        json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        |_, _| async { CallToolResult::text("fine") },
    )
    .unwrap();
    server.tools().add(tool).unwrap();
    let mut client = InProcess::start(server);
    let arguments: serde_json::Map<String, Value> = (0..10_000)
        .map(|n| (format!("n{n:05}"), json!("not a number")))
        .collect();
    let answer = client.call(1, "integers", Value::Object(arguments)).await;
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.len() < 2048, "a {} byte message", text.len());
    let first: Vec<String> = (0..20)
        .map(|n| format!(r#"n{n:05}: expected integer, got string "not a number""#))
        .collect();
    assert_eq!(
        text,
        format!(
            "Input validation error: Invalid arguments for tool integers: {}, and 9980 more",
            first.join(", ")
        )
    );
    client.assert_alive(2).await;
    client.finish().await.1.unwrap();
}

#[tokio::test]
async fn a_batch_over_the_cap_is_refused_whole() {
    let mut client = InProcess::start(Server::new("faults", "0"));
    let initialized = client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-03-26", "capabilities": {},
                   "clientInfo": {"name": "faults", "version": "0"}}),
        )
        .await;
    assert_eq!(initialized["result"]["protocolVersion"], "2025-03-26");
    // Short items, so that the line is well within its limit: the batch's length decides.
    let huge = format!("[{}]", vec!["{}"; 100_000].join(","));
    client.send_raw(huge.as_bytes()).await;
    assert_eq!(
        client.next_message().await,
        error(
            Value::Null,
            -32600,
            "Invalid Request: a batch of 100000 items; at most 1024 are taken (send the rest in another)"
        )
    );
    // A batch at the cap is answered whole.
    let at_cap: Vec<Value> = (0..1024)
        .map(|id| json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
        .collect();
    client.send(&Value::Array(at_cap)).await;
    let answers = client.next_message().await;
    assert_eq!(answers.as_array().map(Vec::len), Some(1024));
    client.assert_alive(2000).await;
    client.finish().await.1.unwrap();
}
