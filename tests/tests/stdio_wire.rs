//! The stdio transport on the wire: raw newline-delimited JSON-RPC to the catalog example (a real
//! process) and to an in-process server over `tokio::io::duplex` (for what needs a server built
//! here: a small line limit, a small page size, a tool that logs).
//!
//! Every read has a deadline, so a server that hangs fails the test instead of blocking it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_toolbelt::{CallToolResult, Context, LogLevel, Server, tool, tool::Tool};
use mcp_toolbelt_tests::example_binary;
use mcp_toolbelt_tests::in_process::InProcess;
use mcp_toolbelt_tests::stdio::StdioServer;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt as _;
use tokio::sync::{Notify, mpsc};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn catalog() -> StdioServer {
    StdioServer::spawn(
        &example_binary("catalog"),
        &[],
        &[("CATALOG_TEST_TOOLS", "1")],
    )
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: impl Into<Value>, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "result": result})
}

fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

// ---- framing and JSON-RPC errors -----------------------------------------------------------

#[test]
fn invalid_json_is_a_parse_error_and_the_server_goes_on() {
    let mut server = catalog();
    server.send_raw(b"{oops");
    assert_eq!(
        server.next_message(),
        error(
            Value::Null,
            -32700,
            "Parse error: key must be a string at line 1 column 2"
        )
    );
    server.send_raw(b"not json at all");
    assert_eq!(server.next_message()["error"]["code"], -32700);
    server.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"} trailing");
    assert_eq!(server.next_message()["error"]["code"], -32700);
    server.send_raw(&[0xff, 0xfe, b'{', b'}']);
    assert_eq!(
        server.next_message(),
        error(Value::Null, -32700, "Parse error: invalid UTF-8")
    );
    assert_eq!(server.request(2, "ping", json!({})), result(2, json!({})));
}

/// A string holding a lone UTF-16 surrogate (a truncated emoji, which JavaScript's
/// `JSON.stringify` and Python's `json` write) is read as they read it, the surrogate become
/// U+FFFD, and the request is answered; a message that cannot be read at all is answered with its
/// id when the id can still be read.
#[test]
fn a_lone_surrogate_is_read_as_a_replacement_character() {
    let mut server = catalog();
    let echo = |id: u64, message: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"{message}"}}}}}}"#
        )
    };
    for (id, sent, read) in [
        (1, r"cut \ud83d", "cut \u{FFFD}"),
        (2, r"\ude00 alone", "\u{FFFD} alone"),
        (3, r"\ud83d\u0041", "\u{FFFD}A"),
        (4, r"a pair \ud83d\ude00", "a pair \u{1F600}"),
        (5, r"not an escape \\ud83d", r"not an escape \ud83d"),
    ] {
        server.send_raw(echo(id, sent).as_bytes());
        let answer = server.next_message();
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], read, "{answer}");
    }
    server.send_raw(br#"{"jsonrpc":"2.0","id":"cut","method":"ping","params":{"#);
    let answer = server.next_message();
    assert_eq!(answer["id"], "cut", "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
}

#[test]
fn what_is_not_a_request_is_an_invalid_request() {
    let mut server = catalog();
    let cases: [(&str, Value, &str); 6] = [
        (
            r#"{"jsonrpc":"2.0"}"#,
            Value::Null,
            "Invalid Request: expected a request, a notification or a response",
        ),
        (
            "[]",
            Value::Null,
            "Invalid Request: expected a JSON-RPC message object",
        ),
        (
            "42",
            Value::Null,
            "Invalid Request: expected a JSON-RPC message object",
        ),
        (
            r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            json!(7),
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"id":8,"method":"ping"}"#,
            json!(8),
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            Value::Null,
            "Invalid Request: `id` must be a string or an integer",
        ),
    ];
    for (line, id, message) in cases {
        server.send_raw(line.as_bytes());
        assert_eq!(server.next_message(), error(id, -32600, message), "{line}");
    }
    // By-position params are valid JSON-RPC, but MCP params are objects.
    server.send_raw(br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}"#);
    assert_eq!(
        server.next_message(),
        error(json!(9), -32602, "`params` must be an object")
    );
    // A notification is never answered, even a malformed one; blank lines are skipped; string
    // ids are echoed as strings (the next message is the answer to the ping).
    server.send_raw(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#);
    server.send_raw(b"");
    server.send_raw(b"   ");
    server.send_request("ten", "ping", json!({}));
    assert_eq!(server.next_message(), result("ten", json!({})));
    assert_eq!(
        server.request(11, "no/such/method", json!({})),
        error(json!(11), -32601, "Method not found: no/such/method")
    );
}

// ---- the legacy lifecycle ------------------------------------------------------------------

#[test]
fn requests_before_initialize_are_answered() {
    let mut server = catalog();
    assert_eq!(server.request(1, "ping", json!({})), result(1, json!({})));
    let listed = server.request(2, "tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "clear-catalog",
            "echo",
            "get-weather",
            "product-details",
            "search",
            "wait"
        ]
    );
    // The newest legacy version's shape: titles and output schemas are there.
    assert_eq!(listed["result"]["tools"][2]["title"], "Get Weather");
}

#[test]
fn initialize_negotiates_the_version() {
    let instructions =
        "A small product catalog: search it, look up a product, check the weather, echo a message.";
    let answer = |version: &str| {
        json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": {"name": "catalog", "version": VERSION},
            "instructions": instructions
        })
    };
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let mut server = catalog();
        assert_eq!(
            server.initialize(asked),
            answer(answered),
            "initialize at {asked}"
        );
    }
}

#[test]
fn the_negotiated_version_shapes_later_results() {
    let mut server = catalog();
    server.initialize("2025-03-26");
    let listed = server.request(1, "tools/list", json!({}));
    let weather = &listed["result"]["tools"][2];
    assert_eq!(weather["name"], "get-weather");
    assert!(
        weather.get("title").is_none() && weather.get("outputSchema").is_none(),
        "{weather}"
    );
    let call = json!({"name": "get-weather", "arguments": {"location": "Oslo"}});
    assert_eq!(
        server.request(2, "tools/call", call),
        result(
            2,
            json!({"content": [{"type": "text", "text": r#"{"temperatureC":22.0,"summary":"Oslo: partly cloudy"}"#}]})
        )
    );
}

#[test]
fn ping_and_set_level() {
    let mut server = catalog();
    server.initialize("2025-11-25");
    assert_eq!(server.request(1, "ping", json!({})), result(1, json!({})));
    assert_eq!(
        server.request(2, "logging/setLevel", json!({"level": "warning"})),
        result(2, json!({}))
    );
    assert_eq!(
        server.request(3, "logging/setLevel", json!({"level": "loud"})),
        error(json!(3), -32602, r#"Invalid log level: "loud""#)
    );
    assert_eq!(
        server.request(4, "logging/setLevel", json!({})),
        error(json!(4), -32602, "Invalid log level: null")
    );
}

// ---- concurrency, cancellation, shutdown ---------------------------------------------------

#[test]
fn a_slow_call_does_not_hold_up_a_ping() {
    let mut server = catalog();
    server.initialize("2025-11-25");
    let started = Instant::now();
    server.send_request(
        1,
        "tools/call",
        json!({"name": "wait", "arguments": {"seconds": 2}}),
    );
    server.send_request(2, "ping", json!({}));
    assert_eq!(
        server.next_message(),
        result(2, json!({})),
        "the ping is answered first"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "and without waiting for the call"
    );
    assert_eq!(
        server.next_message(),
        result(
            1,
            json!({"content": [{"type": "text", "text": "done waiting"}]})
        )
    );
    assert!(started.elapsed() >= Duration::from_secs(2));
}

#[test]
fn an_id_already_in_flight_is_refused() {
    let mut server = catalog();
    server.initialize("2025-11-25");
    server.send_request(
        7,
        "tools/call",
        json!({"name": "wait", "arguments": {"seconds": 0.5}}),
    );
    server.send_request(7, "ping", json!({}));
    assert_eq!(
        server.next_message(),
        error(
            json!(7),
            -32600,
            "Invalid Request: id 7 is already used by a request in flight"
        )
    );
    assert_eq!(
        server.next_message(),
        result(
            7,
            json!({"content": [{"type": "text", "text": "done waiting"}]})
        ),
        "the call in flight is unharmed"
    );
    // Once answered, the id is free again.
    server.send_request(7, "ping", json!({}));
    assert_eq!(server.next_message(), result(7, json!({})));
}

#[test]
fn a_cancelled_call_never_answers() {
    let mut server = catalog();
    server.initialize("2025-11-25");
    let started = Instant::now();
    server.send_request(
        1,
        "tools/call",
        json!({"name": "wait", "arguments": {"seconds": 30}}),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "changed my mind"}}));
    // Cancelling what is not running (or already done) is harmless.
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}));
    server.send_request(2, "ping", json!({}));
    let (pong, before) = server.response_to(&json!(2));
    assert_eq!(
        (pong, before),
        (result(2, json!({})), Vec::new()),
        "nothing for the cancelled call"
    );
    // The same id may be used again once cancelled.
    server.send_request(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"message": "again"}}),
    );
    assert_eq!(
        server.next_message(),
        result(1, json!({"content": [{"type": "text", "text": "again"}]}))
    );
    // At end of input nothing is left running: the server exits at once, and said nothing more.
    server.close_stdin();
    assert_eq!(server.remaining_lines(), Vec::<String>::new());
    let status = server
        .wait_within(Duration::from_secs(3))
        .expect("the server exits");
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn end_of_input_lets_running_calls_finish_then_exits_cleanly() {
    let binary = example_binary("catalog");
    let mut server = StdioServer::spawn(
        &binary,
        &[],
        &[("CATALOG_TEST_TOOLS", "1"), ("RUST_LOG", "debug")],
    );
    server.initialize("2025-11-25");
    server.send_request(
        1,
        "tools/call",
        json!({"name": "wait", "arguments": {"seconds": 0.5}}),
    );
    server.send_request(
        2,
        "tools/call",
        json!({"name": "echo", "arguments": {"message": "last words"}}),
    );
    server.close_stdin();
    let lines = server.remaining_lines();
    let messages: Vec<Value> = lines
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    assert_eq!(
        messages,
        [
            result(
                2,
                json!({"content": [{"type": "text", "text": "last words"}]})
            ),
            result(
                1,
                json!({"content": [{"type": "text", "text": "done waiting"}]})
            ),
        ]
    );
    let status = server
        .wait_within(Duration::from_secs(3))
        .expect("the server exits");
    assert_eq!(status.code(), Some(0));
    // Every line of stdout was a JSON-RPC message; the logs went to stderr.
    assert!(!server.stderr().is_empty(), "RUST_LOG=debug logs something");
}

// ---- batches (2025-03-26 only) -------------------------------------------------------------

#[test]
fn batches_are_answered_as_one_array_at_2025_03_26() {
    let mut server = catalog();
    server.initialize("2025-03-26");
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "batched"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "id": 6, "method": "subscriptions/listen", "params": {"_meta": modern_meta(), "notifications": {"toolsListChanged": true}}},
        42,
        [{"jsonrpc": "2.0", "id": 5, "method": "ping"}]
    ]);
    server.send(&batch);
    assert_eq!(
        server.next_message(),
        json!([
            result(1, json!({})),
            result(2, json!({"content": [{"type": "text", "text": "batched"}]})),
            error(
                json!(3),
                -32600,
                "Invalid Request: initialize must not be batched"
            ),
            error(
                json!(6),
                -32600,
                "Invalid Request: subscriptions/listen must not be batched"
            ),
            error(
                Value::Null,
                -32600,
                "Invalid Request: expected a JSON-RPC message object"
            ),
            error(
                Value::Null,
                -32600,
                "Invalid Request: a batch cannot hold a batch"
            ),
        ])
    );
    // A batch of notifications only has no answer: the next message answers the ping.
    server.send(&json!([{"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}]));
    server.send_request(4, "ping", json!({}));
    assert_eq!(server.next_message(), result(4, json!({})));
}

#[test]
fn a_batch_runs_its_calls_concurrently_and_each_can_be_cancelled() {
    let mut server = catalog();
    server.initialize("2025-03-26");
    let wait = |id: i64, seconds: f64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "wait", "arguments": {"seconds": seconds}}});
    let started = Instant::now();
    server.send(&json!([wait(1, 1.0), wait(2, 1.0)]));
    let done = json!({"content": [{"type": "text", "text": "done waiting"}]});
    assert_eq!(
        server.next_message(),
        json!([result(1, done.clone()), result(2, done.clone())])
    );
    assert!(
        started.elapsed() < Duration::from_millis(1900),
        "the two one-second calls ran side by side"
    );

    // A call of a batch is a call like any other: cancelled, it is left out of the answer.
    server.send(&json!([wait(3, 30.0), wait(4, 0.2)]));
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
    );
    assert_eq!(server.next_message(), json!([result(4, done)]));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn batches_are_refused_otherwise() {
    let refused = error(
        Value::Null,
        -32600,
        "Invalid Request: batches are accepted only at protocol version 2025-03-26",
    );
    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]);
    let mut server = catalog();
    server.send(&batch);
    assert_eq!(server.next_message(), refused, "before initialize");
    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut server = catalog();
        server.initialize(version);
        server.send(&batch);
        assert_eq!(server.next_message(), refused, "{version}");
    }
}

// ---- the modern era (2026-07-28) -----------------------------------------------------------

#[test]
fn server_discover() {
    let mut server = catalog();
    assert_eq!(
        server.request("d1", "server/discover", json!({"_meta": modern_meta()})),
        result(
            "d1",
            json!({
                "supportedVersions": ["2026-07-28"],
                // No `logging`: 2026-07-28 deprecates it (legacy clients still get it above).
                "capabilities": {"tools": {"listChanged": true}},
                "ttlMs": 60_000,
                "cacheScope": "public",
                "instructions": "A small product catalog: search it, look up a product, check the weather, echo a message.",
                "resultType": "complete",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "catalog", "version": VERSION}}
            })
        )
    );
}

#[test]
fn modern_envelope_errors() {
    let mut server = catalog();
    let no_capabilities =
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    assert_eq!(
        server.request(1, "server/discover", no_capabilities),
        error(
            json!(1),
            -32602,
            "missing required `_meta.io.modelcontextprotocol/clientCapabilities`"
        )
    );
    let mut unsupported = modern_meta();
    unsupported["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    assert_eq!(
        server.request(2, "server/discover", json!({"_meta": unsupported})),
        json!({
            "jsonrpc": "2.0",
            "id": 2,
            "error": {
                "code": -32022,
                "message": "Unsupported protocol version",
                "data": {"supported": ["2026-07-28"], "requested": "2099-01-01"}
            }
        })
    );
    assert_eq!(
        server.request(3, "server/discover", json!({})),
        error(
            json!(3),
            -32602,
            "server/discover requires `_meta.io.modelcontextprotocol/protocolVersion`"
        )
    );
    assert_eq!(
        server.request(4, "server/discover", json!({"_meta": {}})),
        error(
            json!(4),
            -32602,
            "server/discover requires `_meta.io.modelcontextprotocol/protocolVersion`"
        )
    );
    assert_eq!(
        server.request(5, "ping", json!({"_meta": modern_meta()})),
        error(json!(5), -32601, "Method not found: ping")
    );
    assert_eq!(
        server.request(
            6,
            "logging/setLevel",
            json!({"level": "info", "_meta": modern_meta()})
        ),
        error(json!(6), -32601, "Method not found: logging/setLevel")
    );
}

#[test]
fn modern_tools_list_and_call() {
    let mut server = catalog();
    let listed = server.request(1, "tools/list", json!({"_meta": modern_meta()}));
    let listed = &listed["result"];
    assert_eq!(listed["tools"].as_array().unwrap().len(), 6);
    assert_eq!(listed["ttlMs"], 60_000);
    assert_eq!(listed["cacheScope"], "public");
    assert_eq!(listed["resultType"], "complete");
    assert_eq!(
        listed["_meta"],
        json!({"io.modelcontextprotocol/serverInfo": {"name": "catalog", "version": VERSION}})
    );
    let call = json!({"name": "echo", "arguments": {"message": "modern"}, "_meta": modern_meta()});
    assert_eq!(
        server.request(2, "tools/call", call),
        result(
            2,
            json!({
                "content": [{"type": "text", "text": "modern"}],
                "resultType": "complete",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "catalog", "version": VERSION}}
            })
        )
    );
    // One process serves both eras: a legacy client may still initialize.
    assert_eq!(
        server.initialize("2025-06-18")["protocolVersion"],
        "2025-06-18"
    );
}

// ---- an in-process server: line limit, pagination, logging ---------------------------------

// Tools of this binary, for the in-process server (the catalog serves its own). Plain `fn`s
// work as well as `async fn`s.

/// Alpha
#[tool]
fn alpha() -> &'static str {
    "a"
}

/// Bravo
#[tool]
fn bravo() -> &'static str {
    "b"
}

/// Charlie
#[tool]
fn charlie() -> &'static str {
    "c"
}

/// Delta
#[tool]
fn delta() -> &'static str {
    "d"
}

/// Logs a message at each of two levels
#[tool]
fn chatty(context: &Context) -> &'static str {
    context.log(LogLevel::Debug, "details");
    context.log_to(LogLevel::Warning, Some("chatty"), "careful");
    "chatted"
}

#[tokio::test]
async fn an_over_long_line_is_refused_and_discarded() {
    let mut client = InProcess::start(Server::new("wire", "0.0.0").max_line_bytes(64));
    let refused = error(
        Value::Null,
        -32600,
        "Invalid Request: message longer than 64 bytes; discarded",
    );
    // Longer than the limit and than the reader's buffer: it is skipped to its end, not parsed.
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(20_000)
    );
    client.send_raw(long.as_bytes()).await;
    assert_eq!(client.next_message().await, refused);
    assert_eq!(
        client.request(2, "ping", json!({})).await,
        result(2, json!({}))
    );
    // Exactly at the limit is fine.
    let at_limit = r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"xxxx"}}"#;
    assert_eq!(at_limit.len(), 64);
    client.send_raw(at_limit.as_bytes()).await;
    assert_eq!(client.next_message().await, result(3, json!({})));
    // An over-long last line without a newline is refused too.
    client
        .input
        .as_mut()
        .unwrap()
        .write_all("y".repeat(100).as_bytes())
        .await
        .unwrap();
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, [refused]);
    ended.unwrap();
}

#[tokio::test]
async fn tools_list_pages() {
    let mut client = InProcess::start(Server::new("wire", "0.0.0").page_size(2));
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let params = cursor.map_or_else(|| json!({}), |cursor| json!({"cursor": cursor}));
        let response = client.request(pages, "tools/list", params).await;
        let page = &response["result"];
        let tools = page["tools"].as_array().unwrap();
        assert!(tools.len() <= 2, "{page}");
        names.extend(
            tools
                .iter()
                .map(|tool| tool["name"].as_str().unwrap().to_owned()),
        );
        pages += 1;
        match page.get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_owned()),
            None => break,
        }
    }
    assert_eq!(names, ["alpha", "bravo", "charlie", "chatty", "delta"]);
    assert_eq!(pages, 3);
    for bad in [json!("not a cursor!"), json!(7)] {
        assert_eq!(
            client
                .request(10, "tools/list", json!({"cursor": bad}))
                .await,
            error(json!(10), -32602, "Invalid cursor")
        );
    }
}

/// A server that set no page size lists every tool in its first page: a host that never
/// follows `nextCursor` sees them all, and one that does asks once (page size is the server's
/// choice, the spec's pagination says).
#[tokio::test]
async fn without_a_page_size_the_first_page_is_the_whole_list() {
    let server = Server::new("wire", "0.0.0");
    for n in 0..250 {
        let tool = Tool::new(
            format!("many-{n:03}"),
            "One of many",
            json!({"type": "object"}),
            |_, _| async { CallToolResult::text("") },
        )
        .unwrap();
        server.tools().add(tool).unwrap();
    }
    let mut client = InProcess::start(server);
    let all = client.request(1, "tools/list", json!({})).await;
    let tools = all["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {all}"));
    assert_eq!(tools.len(), 255, "the five `#[tool]` fns and 250 more");
    assert!(
        all["result"].get("nextCursor").is_none(),
        "{}",
        all["result"]["nextCursor"]
    );
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn the_largest_page_size_still_takes_a_cursor() {
    let mut client = InProcess::start(Server::new("wire", "0.0.0").page_size(usize::MAX));
    let names = |response: &Value| -> Vec<String> {
        response["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools: {response}"))
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = client.request(1, "tools/list", json!({})).await;
    assert_eq!(
        names(&all),
        ["alpha", "bravo", "charlie", "chatty", "delta"]
    );
    assert!(all["result"].get("nextCursor").is_none(), "{all}");
    // A cursor a client kept from a server with smaller pages, naming the last tool it saw.
    let after_alpha = json!({"cursor": URL_SAFE_NO_PAD.encode("alpha")});
    let rest = client.request(2, "tools/list", after_alpha).await;
    assert_eq!(names(&rest), ["bravo", "charlie", "chatty", "delta"]);
    assert!(rest["result"].get("nextCursor").is_none(), "{rest}");
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn an_unsupported_modern_version_is_named_before_missing_capabilities() {
    // A client falls back to another version on -32022 alone, so that comes first.
    let mut client = InProcess::start(Server::new("wire", "0.0.0"));
    let unsupported = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}});
    for (id, method) in [(1, "server/discover"), (2, "tools/list")] {
        assert_eq!(
            client.request(id, method, unsupported.clone()).await,
            json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {
                    "code": -32022,
                    "message": "Unsupported protocol version",
                    "data": {"supported": ["2026-07-28"], "requested": "2099-01-01"}
                }
            }),
            "{method}"
        );
    }
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn modern_calls_log_only_when_asked() {
    let mut client = InProcess::start(Server::new("wire", "0.0.0"));
    let info = json!({"name": "wire", "version": "0.0.0"});
    let chatted = |id: i64| {
        result(
            id,
            json!({
                "content": [{"type": "text", "text": "chatted"}],
                "resultType": "complete",
                "_meta": {"io.modelcontextprotocol/serverInfo": info}
            }),
        )
    };
    let warning = json!({
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": "warning", "logger": "chatty", "data": "careful"}
    });
    assert_eq!(
        client
            .request(
                1,
                "tools/call",
                json!({"name": "chatty", "_meta": modern_meta()})
            )
            .await,
        chatted(1)
    );
    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/logLevel"] = json!("info");
    assert_eq!(
        client
            .request(2, "tools/call", json!({"name": "chatty", "_meta": meta}))
            .await,
        warning
    );
    assert_eq!(client.next_message().await, chatted(2));
    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/logLevel"] = json!("shouting");
    assert_eq!(
        client
            .request(3, "tools/call", json!({"name": "chatty", "_meta": meta}))
            .await,
        error(json!(3), -32602, r#"Invalid log level: "shouting""#)
    );
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn tools_added_and_removed_at_run_time_are_announced() {
    let server = Server::new("wire", "0.0.0");
    let handle = server.tools();
    let mut client = InProcess::start(server);
    let list_changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let double = Tool::new(
        "double",
        "Double a number",
        schema,
        |arguments, _| async move {
            CallToolResult::text((arguments["n"].as_i64().unwrap_or_default() * 2).to_string())
        },
    )
    .unwrap();

    // Once the server answers, it is listening for changes; an initialized legacy client is
    // told of them.
    let initialized = client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
        )
        .await;
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    handle.add(double.clone()).unwrap();
    assert_eq!(client.next_message().await, list_changed);
    let names = |response: &Value| -> Vec<String> {
        response["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let listed = client.request(1, "tools/list", json!({})).await;
    assert!(names(&listed).contains(&"double".to_owned()), "{listed}");
    assert_eq!(
        client
            .request(
                2,
                "tools/call",
                json!({"name": "double", "arguments": {"n": 21}})
            )
            .await,
        result(2, json!({"content": [{"type": "text", "text": "42"}]}))
    );
    // A dynamic tool validates its arguments like any other.
    let invalid = client
        .request(
            3,
            "tools/call",
            json!({"name": "double", "arguments": {"n": "x"}}),
        )
        .await;
    assert_eq!(invalid["result"]["isError"], json!(true), "{invalid}");

    // A second tool of that name is refused, and nothing is announced.
    let refused = handle.add(double).unwrap_err().to_string();
    assert!(
        refused.contains("two tools are named `double`"),
        "{refused}"
    );

    assert!(handle.remove("double"));
    assert_eq!(client.next_message().await, list_changed);
    assert!(!handle.remove("double"));
    let listed = client.request(4, "tools/list", json!({})).await;
    assert!(!names(&listed).contains(&"double".to_owned()), "{listed}");
    assert_eq!(
        client
            .request(
                5,
                "tools/call",
                json!({"name": "double", "arguments": {"n": 1}})
            )
            .await,
        error(json!(5), -32602, "Unknown tool: double")
    );
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

/// The handle is a value of its own, shared freely across tasks and threads (issue 27).
#[test]
fn the_tools_handle_is_clone_send_sync_and_debug() {
    fn shareable<T: Clone + Send + Sync + std::fmt::Debug + 'static>(handle: &T) -> String {
        format!("{:?}", handle.clone())
    }
    let server = Server::new("wire", "0.0.0");
    let shown = shareable(&server.tools());
    assert!(shown.starts_with("Tools { names: ["), "{shown}");
}

/// `Server::cache_ttl` takes a `Duration`; the wire carries it as `ttlMs` (issue 27).
#[tokio::test]
async fn the_cache_ttl_is_a_duration_sent_in_milliseconds() {
    let server = Server::new("wire", "0.0.0").cache_ttl(Duration::from_secs(5));
    let mut client = InProcess::start(server);
    let listed = client
        .request(1, "tools/list", json!({"_meta": modern_meta()}))
        .await;
    assert_eq!(listed["result"]["ttlMs"], 5000, "{listed}");
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn only_an_initialized_legacy_client_is_told_of_tool_changes() {
    // A server for each connection, each changed through its handle alike.
    let servers = [(); 3].map(|()| Server::new("wire", "0.0.0"));
    let handles = servers.each_ref().map(Server::tools);
    let [legacy, modern, uninitialized] = servers.map(InProcess::start);
    let (mut legacy, mut modern, mut uninitialized) = (legacy, modern, uninitialized);
    let initialized = legacy
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
        )
        .await;
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    let discovered = modern
        .request(0, "server/discover", json!({"_meta": modern_meta()}))
        .await;
    assert_eq!(
        discovered["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    assert_eq!(
        uninitialized.request(0, "ping", json!({})).await,
        result(0, json!({}))
    );

    let tool = Tool::new(
        "added",
        "Added at run time",
        json!({"type": "object"}),
        |_, _| async { CallToolResult::text("here") },
    )
    .unwrap();
    for handle in &handles {
        handle.add(tool.clone()).unwrap();
    }
    assert_eq!(
        legacy.next_message().await,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
    // Every connection heard of the change by now; the others said nothing: the next line each
    // writes is the answer to its next request.
    let listed = modern
        .request(1, "tools/list", json!({"_meta": modern_meta()}))
        .await;
    assert_eq!(listed["id"], 1, "{listed}");
    let listed = uninitialized.request(1, "tools/list", json!({})).await;
    assert_eq!(listed["id"], 1, "{listed}");
    for client in [legacy, modern, uninitialized] {
        let (rest, ended) = client.finish().await;
        assert_eq!(rest, Vec::<Value>::new());
        ended.unwrap();
    }
}

/// A 2026-07-28 client hears of tool changes on a `subscriptions/listen` stream, and only of what
/// it asked for; cancelling the request ends the stream without a response, end of input closes
/// the others with their result.
#[tokio::test]
async fn a_modern_client_hears_of_tool_changes_on_a_subscription() {
    let server = Server::new("wire", "0.0.0");
    let handle = server.tools();
    let mut client = InProcess::start(server);
    let subscribe = |id: &str, notifications: Value| json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {"_meta": modern_meta(), "notifications": notifications}});
    let tagged = |id: &str| json!({"io.modelcontextprotocol/subscriptionId": id});
    let acknowledged = |id: &str, notifications: Value| json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": tagged(id), "notifications": notifications}});

    client
        .send(&subscribe(
            "tools",
            json!({"toolsListChanged": true, "resourcesListChanged": true}),
        ))
        .await;
    assert_eq!(
        client.next_message().await,
        acknowledged("tools", json!({"toolsListChanged": true}))
    );
    client
        .send(&subscribe("prompts", json!({"promptsListChanged": true})))
        .await;
    assert_eq!(
        client.next_message().await,
        acknowledged("prompts", json!({}))
    );

    let tool = Tool::new(
        "added",
        "Added at run time",
        json!({"type": "object"}),
        |_, _| async { CallToolResult::text("here") },
    )
    .unwrap();
    handle.add(tool).unwrap();
    assert_eq!(
        client.next_message().await,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": tagged("tools")}})
    );

    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "tools"}}))
        .await;
    let listed = client
        .request(1, "tools/list", json!({"_meta": modern_meta()}))
        .await;
    assert_eq!(listed["id"], 1, "{listed}");
    assert!(handle.remove("added"));

    let (rest, ended) = client.finish().await;
    assert_eq!(
        rest,
        [result(
            "prompts",
            json!({
                "resultType": "complete",
                "_meta": {
                    "io.modelcontextprotocol/subscriptionId": "prompts",
                    "io.modelcontextprotocol/serverInfo": {"name": "wire", "version": "0.0.0"},
                },
            })
        )],
        "only the open subscription answers, at end of input"
    );
    ended.unwrap();
}

/// What 2024-11-05 lacks is left out: the server's `title`, and a progress `message` (also:
/// progress that is not a finite number is never sent).
#[tokio::test]
async fn older_versions_get_no_server_title_and_no_progress_message() {
    let progress_tool = || {
        Tool::new(
            "steps",
            "Reports progress",
            json!({"type": "object"}),
            |_, context: Context| async move {
                assert!(!context.progress(f64::NAN, None, Some("not a number")));
                context.progress(1.0, Some(f64::INFINITY), Some("one"));
                CallToolResult::text("done")
            },
        )
        .unwrap()
    };
    for (version, title, message) in [
        ("2024-11-05", None, None),
        ("2025-03-26", None, Some("one")),
        ("2025-06-18", Some("Titled"), Some("one")),
    ] {
        let server = Server::new("wire", "0.0.0").title("Titled");
        server.tools().add(progress_tool()).unwrap();
        let mut client = InProcess::start(server);
        let initialized = client
            .request(
                0,
                "initialize",
                json!({"protocolVersion": version, "capabilities": {}}),
            )
            .await;
        assert_eq!(
            initialized["result"]["serverInfo"]
                .get("title")
                .and_then(Value::as_str),
            title,
            "{version}: {initialized}"
        );
        client
            .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "steps", "_meta": {"progressToken": "p"}}}))
            .await;
        let progress = client.next_message().await;
        assert_eq!(progress["method"], "notifications/progress", "{progress}");
        assert_eq!(progress["params"]["progress"], 1.0, "{progress}");
        assert_eq!(
            progress["params"].get("total"),
            None,
            "an infinite total is left out"
        );
        assert_eq!(
            progress["params"].get("message").and_then(Value::as_str),
            message,
            "{version}: {progress}"
        );
        assert_eq!(client.next_message().await["id"], 1);
        let (rest, ended) = client.finish().await;
        assert_eq!(rest, Vec::<Value>::new());
        ended.unwrap();
    }
}

/// `logging/setLevel` takes effect for the very next request, even one sent without waiting for
/// its answer.
#[tokio::test]
async fn set_level_applies_to_a_call_sent_right_after_it() {
    let mut client = InProcess::start(Server::new("wire", "0.0.0"));
    client
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
        )
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "warning"}}))
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "chatty"}}))
        .await;
    let mut messages = Vec::new();
    while !messages.iter().any(|message: &Value| message["id"] == 2) {
        messages.push(client.next_message().await);
    }
    let levels: Vec<&Value> = messages
        .iter()
        .filter(|message| message["method"] == "notifications/message")
        .map(|message| &message["params"]["level"])
        .collect();
    assert_eq!(levels, [&json!("warning")], "{messages:#?}");
}

/// A client that closed its end of the output has left: the server ends without an error.
#[tokio::test]
async fn a_client_that_stopped_reading_ends_the_session_cleanly() {
    let (mut input, server_input) = tokio::io::duplex(1024);
    let (server_output, output) = tokio::io::duplex(1024);
    let server = tokio::spawn(Server::new("wire", "0.0.0").serve_io(server_input, server_output));
    drop(output);
    input
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .await
        .unwrap();
    drop(input);
    let ended = tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("the server ends")
        .unwrap();
    assert!(ended.is_ok(), "{ended:?}");
}

// ---- a context left behind -----------------------------------------------------------------

/// Whether the task a tool left behind could send its progress and its log message.
type Sent = [bool; 2];

/// A tool that spawns a task holding a clone of its context, and returns at once. The task waits
/// for `go`, sends progress and a log message, reports whether each was sent, and keeps its
/// clone of the context until the test ends.
fn leaves_a_task_behind() -> (Tool, Arc<Notify>, mpsc::UnboundedReceiver<Sent>) {
    let go = Arc::new(Notify::new());
    let (report, reports) = mpsc::unbounded_channel();
    let tool = Tool::new(
        "leaves_a_task",
        "Leaves a task behind that holds its context",
        json!({"type": "object"}),
        {
            let go = Arc::clone(&go);
            move |_, context: Context| {
                let (go, report) = (Arc::clone(&go), report.clone());
                tokio::spawn(async move {
                    go.notified().await;
                    let _ = report.send([
                        context.progress(1.0, None, Some("too late")),
                        context.log(LogLevel::Error, "too late"),
                    ]);
                    let _held_until_the_test_ends = context;
                    std::future::pending::<()>().await;
                });
                async { CallToolResult::text("returned") }
            }
        },
    )
    .unwrap();
    (tool, go, reports)
}

fn leaving_a_task_behind() -> (InProcess, Arc<Notify>, mpsc::UnboundedReceiver<Sent>) {
    let (tool, go, reports) = leaves_a_task_behind();
    let server = Server::new("wire", "0.0.0");
    server.tools().add(tool).unwrap();
    (InProcess::start(server), go, reports)
}

#[tokio::test]
async fn nothing_is_sent_for_a_call_after_its_response() {
    let (mut client, go, mut reports) = leaving_a_task_behind();
    let call = json!({"name": "leaves_a_task", "_meta": {"progressToken": "late"}});
    assert_eq!(
        client.request(1, "tools/call", call).await,
        result(
            1,
            json!({"content": [{"type": "text", "text": "returned"}]})
        )
    );
    go.notify_one();
    let sent = tokio::time::timeout(Duration::from_secs(5), reports.recv())
        .await
        .expect("the task tried within 5 s")
        .unwrap();
    // Anything the task sent would be on the wire before the answer to this ping.
    assert_eq!(
        client.request(2, "ping", json!({})).await,
        result(2, json!({}))
    );
    assert_eq!(sent, [false, false], "progress, log");
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
}

#[tokio::test]
async fn a_context_left_behind_does_not_hold_up_the_end_of_input() {
    let (mut client, _go, _reports) = leaving_a_task_behind();
    assert_eq!(
        client
            .request(1, "tools/call", json!({"name": "leaves_a_task"}))
            .await,
        result(
            1,
            json!({"content": [{"type": "text", "text": "returned"}]})
        )
    );
    // The task still holds its clone of the context (it was never told to go).
    let started = Instant::now();
    let (rest, ended) = client.finish().await;
    assert_eq!(rest, Vec::<Value>::new());
    ended.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "serve_io took {:?} to end",
        started.elapsed()
    );
}

#[test]
fn ids_come_back_exactly_and_big_ones_stay_apart() {
    let mut server = catalog();
    server.initialize("2025-11-25");
    let wait = r#""method":"tools/call","params":{"name":"wait","arguments":{"seconds":30}}"#;
    // Two ids that one 64-bit float would confuse: both run, the second is not "already used".
    server.send_raw(format!(r#"{{"jsonrpc":"2.0","id":18446744073709551616,{wait}}}"#).as_bytes());
    server.send_raw(format!(r#"{{"jsonrpc":"2.0","id":18446744073709551617,{wait}}}"#).as_bytes());
    // Cancelling one cancels that one only: the other is still running (its id still taken).
    server.send_raw(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":18446744073709551617}}"#);
    server.send_raw(format!(r#"{{"jsonrpc":"2.0","id":18446744073709551616,{wait}}}"#).as_bytes());
    let refused = server
        .next_line_within(Duration::from_secs(10))
        .expect("the reused id is refused");
    assert!(
        refused.starts_with(r#"{"jsonrpc":"2.0","id":18446744073709551616,"error""#),
        "{refused}"
    );
    // A fractional or exponent id is no id; a big id comes back as it was sent.
    server.send_raw(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#);
    let fractional = server.next_message();
    assert_eq!(fractional["id"], Value::Null, "{fractional}");
    assert_eq!(fractional["error"]["code"], -32600, "{fractional}");
    server.send_raw(br#"{"jsonrpc":"2.0","id":1e2,"method":"ping"}"#);
    assert_eq!(server.next_message()["error"]["code"], -32600);
    server.send_raw(br#"{"jsonrpc":"2.0","id":-98765432109876543210,"method":"ping"}"#);
    let pong = server
        .next_line_within(Duration::from_secs(10))
        .expect("ping answered");
    assert_eq!(
        pong,
        r#"{"jsonrpc":"2.0","id":-98765432109876543210,"result":{}}"#
    );
}
