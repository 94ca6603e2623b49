//! Property tests (proptest) over every place the server reads outside input, the bounded
//! counterpart of the fuzz targets in `fuzz/` (`PROPTEST_CASES` cases each, 256 by default):
//! arbitrary JSON and bytes into the decoder and dispatcher in both eras, the stdio line reader,
//! tool arguments, the `Mcp-Param-*` header rules, `tools/list` cursors and sealed
//! `requestState`. Private parsers are reached through `mcp_toolbelt::__fuzz` (feature `fuzzing`).

use std::collections::HashMap;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use mcp_toolbelt::__fuzz::{self, StateSealer};
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, http::HttpConfig, tool};
use mcp_toolbelt_tests::http;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::io::AsyncReadExt as _;

// ---- the tools the properties call ----------------------------------------------------------

/// Echoes a text
#[tool]
async fn echo(
    /// What to echo
    text: String,
) -> String {
    text
}

/// Adds two small numbers
#[tool]
async fn add(
    /// Left operand
    #[schemars(range(min = -1000, max = 1000))]
    a: i64,
    /// Right operand
    b: Option<u8>,
) -> String {
    (a + i64::from(b.unwrap_or(0))).to_string()
}

/// A guest.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Guest {
    /// The name
    #[schemars(length(min = 1, max = 8))]
    name: String,
    /// The seat class
    class: Class,
    /// Nights (a whole float is an integer)
    nights: u16,
}

/// A seat class.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Class {
    Economy,
    Business {
        /// The lounge
        lounge: bool,
    },
}

/// Books a guest
#[tool]
async fn book(guest: Guest) -> String {
    let lounge = matches!(guest.class, Class::Business { lounge: true });
    format!(
        "{} for {} nights (lounge: {lounge})",
        guest.name, guest.nights
    )
}

/// Runs a query in a region
#[tool]
async fn route(
    /// Where to run it
    #[header("Region")]
    region: String,
    /// How many rows
    #[header("Count")]
    count: Option<i64>,
    /// The query
    sql: String,
) -> String {
    format!("{sql} in {region} ({count:?})")
}

const TOOLS: [&str; 4] = ["add", "book", "echo", "route"];

// ---- strategies ------------------------------------------------------------------------------

/// Text that reaches the edges: quotes, escapes, newlines, non-ASCII, the base64 wrapper.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,6}",
        any::<String>().prop_map(|text| text.chars().take(12).collect()),
        prop::sample::select(vec![
            "",
            " ",
            "=?base64?",
            "?=",
            "\"",
            "\\",
            "\n",
            "é",
            "\u{0}",
            "2.0"
        ])
        .prop_map(str::to_owned),
    ]
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(vec![0.0, 1.0, 2.5, -0.0, 1e300, 9_007_199_254_740_993.0])
            .prop_map(Value::from),
        text().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// Object keys: the ones the tools and the protocol read, and others.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "text",
            "a",
            "b",
            "name",
            "class",
            "kind",
            "lounge",
            "nights",
            "region",
            "count",
            "sql",
            "arguments",
            "cursor",
            "_meta",
            "progressToken",
            "level",
            "requestState",
            "inputResponses",
        ])
        .prop_map(str::to_owned),
        text(),
    ]
}

/// Tool arguments: arbitrary JSON, or objects with each tool's properties of arbitrary values.
fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        json_value(),
        prop::collection::vec((key(), json_value()), 0..5)
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
    ]
}

/// A JSON-RPC message: well-formed or nearly, any method (known ones often), any params.
fn message() -> impl Strategy<Value = Value> {
    let id = prop_oneof![
        4 => any::<u32>().prop_map(Value::from),
        2 => "[a-z0-9]{0,4}".prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!(1.5)),
        1 => Just(json!({"id": 1})),
    ];
    let method = prop_oneof![
        6 => prop::sample::select(vec![
            "tools/call", "tools/list", "ping", "initialize", "logging/setLevel", "server/discover",
            "resources/list", "notifications/cancelled", "notifications/initialized",
        ])
        .prop_map(Value::from),
        1 => text().prop_map(Value::from),
        1 => json_value(),
    ];
    let params = prop_oneof![
        4 => (prop::sample::select(TOOLS.to_vec()), arguments(), text()).prop_map(
            |(name, arguments, cursor)| json!({"name": name, "arguments": arguments, "cursor": cursor})
        ),
        1 => json_value(),
    ];
    (
        prop::option::weighted(0.9, prop_oneof![9 => Just(json!("2.0")), 1 => json_value()]),
        prop::option::weighted(0.8, id),
        prop::option::weighted(0.95, method),
        prop::option::weighted(0.8, params),
    )
        .prop_map(|(jsonrpc, id, method, params)| {
            let mut message = Map::new();
            for (name, value) in [
                ("jsonrpc", jsonrpc),
                ("id", id),
                ("method", method),
                ("params", params),
            ] {
                if let Some(value) = value {
                    message.insert(name.into(), value);
                }
            }
            Value::Object(message)
        })
}

// ---- harness ---------------------------------------------------------------------------------

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// The `_meta` a 2026-07-28 request carries.
fn envelope() -> Map<String, Value> {
    let Value::Object(meta) = http::envelope() else {
        unreachable!("an object")
    };
    meta
}

/// `message` as a 2026-07-28 client sends it: the envelope in `params._meta`, when params are
/// absent or an object (what the message says itself wins).
fn modern(mut message: Value) -> Value {
    if let Some(object) = message.as_object_mut()
        && let Value::Object(params) = object.entry("params").or_insert_with(|| json!({}))
        && let Value::Object(meta) = params.entry("_meta").or_insert_with(|| json!({}))
    {
        for (key, value) in envelope() {
            meta.entry(key).or_insert(value);
        }
    }
    message
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"properties","version":"0"}}}"#;

/// Serves `input` with the stdio framing until it ends; every message written (a batch's answers
/// one by one), each checked to be a JSON-RPC message.
async fn serve(input: Vec<u8>) -> Result<Vec<Value>, TestCaseError> {
    let (output, mut ours) = tokio::io::duplex(64 * 1024);
    let reading = tokio::spawn(async move {
        let mut written = Vec::new();
        ours.read_to_end(&mut written).await.map(|_| written)
    });
    Server::new("properties", "0")
        .serve_io(&input[..], output)
        .await
        .map_err(|error| TestCaseError::fail(format!("serving failed: {error}")))?;
    let written = reading
        .await
        .expect("the reader ends")
        .expect("the output reads");
    let mut messages = Vec::new();
    for line in written
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty())
    {
        let message: Value = serde_json::from_slice(line).map_err(|error| {
            TestCaseError::fail(format!(
                "not JSON ({error}): {}",
                String::from_utf8_lossy(line)
            ))
        })?;
        // A batch's answer is an array of responses, never an empty one.
        match message {
            Value::Array(batch) => {
                prop_assert!(!batch.is_empty(), "an empty batch answer");
                messages.extend(batch);
            }
            message => messages.push(message),
        }
    }
    for message in &messages {
        well_formed(message)?;
    }
    Ok(messages)
}

/// A JSON-RPC 2.0 response (an id, and a result or an error with a code and a message) or a
/// notification.
fn well_formed(message: &Value) -> Result<(), TestCaseError> {
    prop_assert_eq!(&message["jsonrpc"], "2.0", "{}", message);
    let object = message.as_object().expect("an object");
    if object.contains_key("method") {
        prop_assert!(
            !object.contains_key("id"),
            "the server asked something: {}",
            message
        );
        return Ok(());
    }
    prop_assert!(object.contains_key("id"), "{}", message);
    prop_assert!(
        object.contains_key("result") != object.contains_key("error"),
        "{}",
        message
    );
    if let Some(error) = object.get("error") {
        prop_assert!(
            error["code"].is_i64() && error["message"].is_string(),
            "{}",
            message
        );
    }
    Ok(())
}

/// Whether the server must answer `message` exactly once, with its id.
fn is_request(message: &Value) -> bool {
    message["jsonrpc"] == "2.0"
        && message["method"].is_string()
        && (message["id"].is_string() || message["id"].is_u64() || message["id"].is_i64())
}

/// Whether `message` is a notification: never answered.
fn is_notification(message: &Value) -> bool {
    message.get("id").is_none() && message["method"].is_string() && message["jsonrpc"] == "2.0"
}

fn responses(written: &[Value]) -> Vec<&Value> {
    written
        .iter()
        .filter(|message| message.get("method").is_none())
        .collect()
}

// ---- the decoder and the dispatcher ----------------------------------------------------------

proptest! {
    /// One message, legacy (after `initialize`, at 2025-03-26 so batches are read) or 2026-07-28:
    /// a request is answered exactly once with its id, a notification never, anything else at
    /// most once.
    #[test]
    fn every_request_is_answered_exactly_once(message in message(), is_modern in any::<bool>()) {
        let message = if is_modern { modern(message) } else { message };
        let mut input = if is_modern { Vec::new() } else { format!("{INITIALIZE}\n").into_bytes() };
        input.extend_from_slice(message.to_string().as_bytes());
        let written = runtime().block_on(serve(input))?;
        let mut responses = responses(&written);
        if !is_modern {
            prop_assert_eq!(&responses.remove(0)["id"], "init");
        }
        if is_request(&message) {
            prop_assert_eq!(responses.len(), 1, "{:?}", responses);
            prop_assert_eq!(&responses[0]["id"], &message["id"]);
        } else if is_notification(&message) {
            prop_assert!(responses.is_empty(), "a notification answered: {:?}", responses);
        } else {
            prop_assert!(responses.len() <= 1, "{:?}", responses);
            if let Some(response) = responses.first() {
                prop_assert!(response["id"].is_null() || response["id"] == message["id"], "{}", response);
            }
        }
    }

    /// Several requests on one connection, answered concurrently: each id exactly once.
    #[test]
    fn concurrent_requests_are_each_answered_once(
        messages in prop::collection::vec(message(), 1..8),
        is_modern in any::<bool>(),
    ) {
        let mut input = if is_modern { Vec::new() } else { format!("{INITIALIZE}\n").into_bytes() };
        for (n, mut message) in messages.iter().cloned().enumerate() {
            message["jsonrpc"] = json!("2.0");
            message["id"] = json!(n);
            if !message["method"].is_string() || message["method"] == "initialize" {
                message["method"] = json!("ping");
            }
            if !message["params"].is_object() {
                message["params"] = json!({});
            }
            let message = if is_modern { modern(message) } else { message };
            input.extend_from_slice(format!("{message}\n").as_bytes());
        }
        let count = messages.len();
        let written = runtime().block_on(serve(input))?;
        let mut answers: HashMap<String, usize> = HashMap::new();
        for response in responses(&written) {
            *answers.entry(response["id"].to_string()).or_default() += 1;
        }
        answers.remove("\"init\"");
        prop_assert_eq!(answers.len(), count, "{:?}", answers);
        prop_assert!(answers.values().all(|&n| n == 1), "{:?}", answers);
    }

    /// Any bytes (invalid UTF-8, half messages, blank lines): the server keeps serving, writes
    /// only JSON-RPC messages, and at most one answer per line.
    #[test]
    fn any_bytes_get_only_well_formed_answers(
        chunks in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(any::<u8>(), 0..64),
                message().prop_map(|message| message.to_string().into_bytes()),
                Just(b"\n".to_vec()),
                Just(b"\r\n".to_vec()),
            ],
            0..8,
        ),
    ) {
        let input: Vec<u8> = chunks.concat();
        let lines = input.split(|&byte| byte == b'\n').count();
        let written = runtime().block_on(serve(input))?;
        // A batch line (2025-03-26 only, never negotiated here) would be refused whole: one answer.
        prop_assert!(responses(&written).len() <= lines, "{} answers to {} lines", written.len(), lines);
    }

    /// The stdio line reader, any limit and buffer: each line kept whole within the limit, or
    /// dropped only when over it; nothing else lost.
    #[test]
    fn the_line_reader_keeps_or_drops_each_line_whole(
        input in prop::collection::vec(prop_oneof![any::<u8>(), Just(b'\n'), Just(b'\r')], 0..256),
        max in 0usize..40,
        capacity in 1usize..20,
    ) {
        let lines = runtime().block_on(__fuzz::stdio_lines(&input, max, capacity));
        // Each line with whether a newline ended it: only then is a `\r` before it no content.
        let mut expected: Vec<(&[u8], bool)> = input.split(|&byte| byte == b'\n').map(|line| (line, true)).collect();
        if let Some(last) = expected.pop().filter(|last| !last.0.is_empty()) {
            expected.push((last.0, false));
        }
        prop_assert_eq!(lines.len(), expected.len());
        for (line, (raw, ended)) in lines.iter().zip(expected) {
            let content = if ended { raw.strip_suffix(b"\r").unwrap_or(raw) } else { raw }.len();
            match line {
                Some(line) => prop_assert!(line.as_slice() == raw && content <= max),
                None => prop_assert!(content > max),
            }
        }
    }
}

// ---- arguments ---------------------------------------------------------------------------------

proptest! {
    /// Any arguments to any tool: a result (the tool's, or `Input validation error: …` naming
    /// the tool), or `-32602` for arguments that are not an object; never a panic, never a
    /// deserialization failure the validator let through unexplained.
    #[test]
    fn arguments_are_validated_or_run(name in prop::sample::select(TOOLS.to_vec()), arguments in arguments()) {
        let client = TestClient::new(Server::new("properties", "0"));
        let object = arguments.is_object() || arguments.is_null();
        match runtime().block_on(client.try_call_tool(name, arguments.clone())) {
            Ok(result) if result.is_error => {
                let text = serde_json::to_value(&result).expect("JSON")["content"][0]["text"].clone();
                let prefix = format!("Input validation error: Invalid arguments for tool {name}: ");
                prop_assert!(text.as_str().is_some_and(|text| text.starts_with(&prefix)), "{}: {}", arguments, text);
            }
            Ok(_) => prop_assert!(object),
            Err(error) => {
                prop_assert_eq!(error.code, -32602, "{}", error);
                prop_assert!(!object, "{}", error);
            }
        }
    }

    /// Arguments the schema accepts are run (validation and deserialization agree), whole
    /// floats for integers included.
    #[test]
    fn arguments_the_schema_accepts_are_run(
        name in "[a-zA-Zé ]{1,8}",
        lounge in prop::option::of(any::<bool>()),
        nights in any::<u16>(),
        whole_float in any::<bool>(),
    ) {
        let client = TestClient::new(Server::new("properties", "0"));
        let class = match lounge {
            Some(lounge) => json!({"kind": "business", "lounge": lounge}),
            None => json!({"kind": "economy"}),
        };
        let nights = if whole_float { json!(f64::from(nights)) } else { json!(nights) };
        let result = runtime().block_on(client.call_tool("book", json!({"name": name, "class": class, "nights": nights})));
        prop_assert!(!result.is_error, "{:?}", serde_json::to_value(&result));
    }
}

// ---- HTTP header rules ---------------------------------------------------------------------------

/// A header value as a 2026-07-28 client writes it: as is when it is visible ASCII with no
/// whitespace around it (and not the base64 wrapper itself), else `=?base64?…?=`.
fn header_value(value: &str) -> String {
    let plain = value.chars().all(|c| (' '..='~').contains(&c))
        && value.trim_matches(' ') == value
        && !value.starts_with("=?base64?");
    if plain {
        value.to_owned()
    } else {
        format!("=?base64?{}?=", STANDARD.encode(value))
    }
}

proptest! {
    /// The header rules accept what a client produces: any region text, sent plain or as
    /// base64, runs the call; the decoder gives back every value encoded.
    #[test]
    fn param_headers_accept_what_clients_encode(region in any::<String>(), count in prop::option::of(any::<i64>())) {
        prop_assert_eq!(__fuzz::header_value(&format!("=?base64?{}?=", STANDARD.encode(&region))), Ok(region.clone()));
        let arguments = json!({"region": region, "count": count, "sql": "q"});
        let encoded = header_value(&region);
        let count = count.map(|count| count.to_string());
        let mut headers = http::modern_headers("tools/call", Some("route"));
        headers.push(("mcp-param-region", &encoded));
        if let Some(count) = &count {
            headers.push(("mcp-param-count", count));
        }
        let router = http::router(HttpConfig::default());
        let reply = runtime().block_on(http::send(&router, http::post(&http::modern_call(1, "route", &arguments, &json!({})), &headers)));
        prop_assert_eq!(reply.status.as_u16(), 200, "{:?}", reply);
        let response = reply.json();
        prop_assert_eq!(http::result_text(&response), format!("q in {region} ({:?})", arguments["count"].as_i64()));
    }

    /// A header that names another value than the body is refused, `-32020`, before the tool runs.
    #[test]
    fn param_headers_unlike_the_body_are_refused(region in any::<String>(), other in any::<String>()) {
        prop_assume!(region != other);
        let arguments = json!({"region": region, "sql": "q"});
        let encoded = header_value(&other);
        let mut headers = http::modern_headers("tools/call", Some("route"));
        headers.push(("mcp-param-region", &encoded));
        let router = http::router(HttpConfig::default());
        let reply = runtime().block_on(http::send(&router, http::post(&http::modern_call(1, "route", &arguments, &json!({})), &headers)));
        prop_assert_eq!(reply.status.as_u16(), 400, "{:?}", reply);
        prop_assert_eq!(&reply.json()["error"]["code"], -32020);
    }
}

// ---- cursors -------------------------------------------------------------------------------------

/// `tools/list` with `cursor` (absent when `None`), one tool a page; the response.
fn list_page(client: &TestClient, cursor: Option<&str>, is_modern: bool) -> Value {
    let mut params = cursor.map_or_else(|| json!({}), |cursor| json!({"cursor": cursor}));
    if is_modern {
        params["_meta"] = Value::Object(envelope());
    }
    runtime().block_on(client.request("tools/list", params))
}

proptest! {
    /// Walking the pages from any starting cursor of ours gives the tools after it, each once,
    /// in order, in either era.
    #[test]
    fn cursors_round_trip(start in 0..TOOLS.len(), is_modern in any::<bool>()) {
        let client = TestClient::new(Server::new("properties", "0").page_size(1));
        let mut cursor: Option<String> = None;
        for _ in 0..start {
            let page = list_page(&client, cursor.as_deref(), is_modern);
            cursor = page["result"]["nextCursor"].as_str().map(str::to_owned);
        }
        let mut names = Vec::new();
        loop {
            let page = list_page(&client, cursor.as_deref(), is_modern);
            prop_assert_eq!(page["result"]["tools"].as_array().map(Vec::len), Some(1), "{}", page);
            names.push(page["result"]["tools"][0]["name"].as_str().expect("a name").to_owned());
            match page["result"]["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        prop_assert_eq!(names, TOOLS[start..].to_vec());
    }

    /// A cursor this server could not have written (not base64url of a tool name's text) is
    /// refused with `-32602 Invalid cursor`; one it could have lists the tools after that name.
    #[test]
    fn foreign_cursors_are_refused(cursor in prop_oneof![any::<String>(), "[A-Za-z0-9_=+/-]{0,12}"]) {
        let client = TestClient::new(Server::new("properties", "0").page_size(10));
        let response = list_page(&client, Some(&cursor), false);
        let position = URL_SAFE_NO_PAD.decode(&cursor).ok().and_then(|bytes| String::from_utf8(bytes).ok());
        match position {
            None => prop_assert_eq!(&response["error"], &json!({"code": -32602, "message": "Invalid cursor"})),
            Some(after) => {
                let expected: Vec<&str> = TOOLS.iter().copied().filter(|name| *name > after.as_str()).collect();
                let names: Vec<&str> = response["result"]["tools"].as_array().expect("tools").iter().filter_map(|tool| tool["name"].as_str()).collect();
                prop_assert_eq!(names, expected);
            }
        }
    }
}

// ---- sealed requestState -----------------------------------------------------------------------

fn answers() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((key(), json_value()), 0..4).prop_map(|pairs| pairs.into_iter().collect())
}

proptest! {
    /// Sealed answers open to themselves for the same caller, tool and arguments (in any key
    /// order), and for no other.
    #[test]
    fn sealed_state_round_trips(
        answers in answers(),
        principal in text(),
        arguments in prop::option::of(answers()),
        other in text(),
    ) {
        let sealer = StateSealer::new([3; 32]);
        let state = sealer.seal(answers.clone(), &principal, "book", arguments.as_ref()).expect("sealed");
        prop_assert_eq!(sealer.open(&state, &principal, "book", arguments.as_ref()), Ok(answers));
        let reordered = arguments.as_ref().map(|arguments| arguments.iter().rev().map(|(k, v)| (k.clone(), v.clone())).collect::<Map<_, _>>());
        prop_assert!(sealer.open(&state, &principal, "book", reordered.as_ref()).is_ok());
        if other != principal {
            prop_assert!(sealer.open(&state, &other, "book", arguments.as_ref()).is_err());
        }
        prop_assert!(sealer.open(&state, &principal, "echo", arguments.as_ref()).is_err());
        prop_assert!(StateSealer::new([4; 32]).open(&state, &principal, "book", arguments.as_ref()).is_err());
    }

    /// Any one bit flipped in sealed state, or any one character changed, is refused with
    /// `-32602` as a whole: never opened, never a panic.
    #[test]
    fn any_change_to_sealed_state_is_refused(
        answers in answers(),
        bit in any::<prop::sample::Index>(),
        character in any::<prop::sample::Index>(),
        replacement in prop::sample::select(b"ABCxyz019-_=+/.!".to_vec()),
    ) {
        let sealer = StateSealer::new([3; 32]);
        let state = sealer.seal(answers, "", "book", None).expect("sealed");
        let refused = |state: &str| match sealer.open(state, "", "book", None) {
            Err(error) => error.code == -32602 && error.message == "Invalid or expired requestState",
            Ok(_) => false,
        };
        let mut bytes = URL_SAFE_NO_PAD.decode(&state).expect("base64url");
        let at = bit.index(bytes.len() * 8);
        bytes[at / 8] ^= 1 << (at % 8);
        prop_assert!(refused(&URL_SAFE_NO_PAD.encode(&bytes)), "bit {} flipped was opened", at);
        let mut text = state.clone().into_bytes();
        let at = character.index(text.len());
        prop_assume!(text[at] != replacement);
        text[at] = replacement;
        prop_assert!(refused(&String::from_utf8(text).expect("ASCII")), "character {} changed was opened", at);
    }
}
