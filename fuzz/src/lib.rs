//! What the fuzz targets share: the tools they call (one per kind of argument schema, one that
//! routes on headers, one that asks the client), a runtime on a paused clock, and the harnesses
//! that feed input to the server in process and check what comes back.

use std::sync::OnceLock;

use mcp_toolbelt::{Context, Json, Server, ask::AskError, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::io::AsyncReadExt as _;

/// The key every fuzzed server seals `requestState` with.
pub const STATE_KEY: [u8; 32] = [7; 32];

/// Echoes a text
#[tool(annotations(read_only))]
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
    b: Option<i32>,
) -> String {
    (a + i64::from(b.unwrap_or(0))).to_string()
}

/// How a booking is paid.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card {
        /// The last four digits
        #[schemars(length(equal = 4), regex(pattern = r"^[0-9]+$"))]
        last4: String,
    },
    Invoice {
        /// Days to pay
        days: u8,
    },
    Cash,
}

/// A seat class.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Class {
    Economy,
    Business,
}

/// A guest.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Guest {
    /// The name
    #[schemars(length(min = 1, max = 40))]
    name: String,
    /// The age
    age: Option<u8>,
}

/// A booking request.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Booking {
    /// Who travels
    #[schemars(length(max = 5))]
    guests: Vec<Guest>,
    /// The class
    class: Class,
    /// How it is paid
    payment: Payment,
    /// Nights, a float to reach the whole-float rule
    nights: f64,
    /// Free labels
    #[serde(default)]
    labels: std::collections::BTreeMap<String, String>,
    /// A flag
    #[serde(default)]
    window_seat: bool,
}

/// What a booking costs.
#[derive(Serialize, JsonSchema)]
struct Quote {
    /// The total
    total: f64,
    /// Per guest
    per_guest: Vec<f64>,
}

/// Quotes a booking
#[tool]
async fn book(booking: Booking) -> Json<Quote> {
    let per_guest = vec![booking.nights * 10.0; booking.guests.len()];
    Json(Quote {
        total: per_guest.iter().sum(),
        per_guest,
    })
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
    /// Whether to explain
    #[header("Flag")]
    flag: Option<bool>,
    /// The query
    sql: String,
) -> String {
    format!("{sql} in {region} ({count:?}, {flag:?})")
}

/// What `confirm` asks for.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Confirmation {
    /// Whether to go on
    confirm: bool,
}

/// Deletes a path after asking
#[tool(annotations(destructive))]
async fn confirm(
    context: Context,
    /// The path
    path: String,
) -> Result<String, AskError> {
    let answer = context
        .elicit::<Confirmation>(&format!("Delete {path}?"))
        .await?;
    Ok(match answer {
        mcp_toolbelt::ask::Elicitation::Accept(answer) => format!("{path}: {}", answer.confirm),
        _ => format!("{path}: kept"),
    })
}

/// The names of the tools above, as the targets pick them by a byte.
pub const TOOLS: [&str; 5] = ["echo", "add", "book", "route", "confirm"];

/// A runtime on one thread with a paused clock: timers fire as soon as nothing else can run.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime")
    })
}

/// The server under fuzzing: small pages (so cursors matter), a fixed state key.
pub fn server() -> Server {
    Server::new("fuzz", "0.0.0")
        .page_size(2)
        .request_state_key(STATE_KEY)
}

/// The legacy protocol versions, as a target picks one by a byte.
pub const LEGACY: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The `_meta` of a 2026-07-28 request declaring every client capability.
pub fn modern_meta() -> Map<String, Value> {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "0"},
    });
    match meta {
        Value::Object(meta) => meta,
        _ => unreachable!(),
    }
}

/// The `initialize` request and `initialized` notification of a legacy client at `version`.
pub fn initialize_lines(version: &str) -> Vec<u8> {
    let initialize = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
        "clientInfo": {"name": "fuzz", "version": "0"},
    }});
    format!("{initialize}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n")
        .into_bytes()
}

/// `message` with the 2026-07-28 envelope added to its `params._meta` (what the message says
/// itself wins), when it is a JSON object whose params are absent or an object; else as it is.
pub fn with_envelope(message: &[u8]) -> Vec<u8> {
    let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(message) else {
        return message.to_vec();
    };
    let params = object
        .entry("params")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(params) = params {
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            for (key, value) in modern_meta() {
                meta.entry(key).or_insert(value);
            }
        }
    }
    serde_json::to_vec(&Value::Object(object)).expect("JSON writes")
}

/// Serves `input` with the stdio framing (`Server::serve_io`) until it ends; every line the
/// server wrote (a batch's answers one by one), each checked to be a well-formed JSON-RPC
/// message.
///
/// # Panics
///
/// When serving fails or a line is not a JSON-RPC message: what the fuzzer is looking for.
pub fn serve(input: &[u8]) -> Vec<Value> {
    runtime().block_on(async {
        let (output, mut ours) = tokio::io::duplex(64 * 1024);
        let reading = tokio::spawn(async move {
            let mut written = Vec::new();
            ours.read_to_end(&mut written)
                .await
                .expect("the output reads");
            written
        });
        server()
            .serve_io(input, output)
            .await
            .expect("serving works");
        let written = reading.await.expect("the reader ends");
        let mut messages = Vec::new();
        for line in written
            .split(|&byte| byte == b'\n')
            .filter(|line| !line.is_empty())
        {
            let message: Value = serde_json::from_slice(line).unwrap_or_else(|error| {
                panic!("not JSON ({error}): {}", String::from_utf8_lossy(line))
            });
            // A batch's answer is an array of responses, never an empty one.
            match message {
                Value::Array(batch) => {
                    assert!(!batch.is_empty(), "an empty batch answer");
                    messages.extend(batch);
                }
                message => messages.push(message),
            }
        }
        messages.iter().for_each(check_message);
        messages
    })
}

/// Panics unless `message` is a JSON-RPC 2.0 response, request or notification.
pub fn check_message(message: &Value) {
    assert_eq!(message["jsonrpc"], "2.0", "{message}");
    let object = message.as_object().expect("an object");
    let is_response = object.contains_key("id")
        && (object.contains_key("result") != object.contains_key("error"))
        && !object.contains_key("method");
    let is_request = object.get("method").is_some_and(Value::is_string);
    assert!(
        is_response || is_request,
        "neither response nor request: {message}"
    );
    if let Some(error) = object.get("error") {
        assert!(
            error["code"].is_i64(),
            "error without an integer code: {message}"
        );
        assert!(
            error["message"].is_string(),
            "error without a message: {message}"
        );
    }
}

/// Whether `message` is a response (not a request or notification from the server).
pub fn is_response(message: &Value) -> bool {
    message.get("method").is_none()
}

/// The request `message` is (its id), when the server must answer it exactly once: a JSON
/// object with `"jsonrpc": "2.0"`, a string `method` and a string or integer id.
pub fn request_id(message: &[u8]) -> Option<Value> {
    /// The members that decide what a message is: a JSON object that names one twice is
    /// ambiguous (a proxy may read the first, we the last), and the server refuses it whole.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Deciding {
        jsonrpc: Option<serde::de::IgnoredAny>,
        id: Option<serde::de::IgnoredAny>,
        method: Option<serde::de::IgnoredAny>,
        params: Option<serde::de::IgnoredAny>,
        result: Option<serde::de::IgnoredAny>,
        error: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Deciding>(message).ok()?;
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(message) else {
        return None;
    };
    let id = object.get("id")?;
    let answerable = object.get("jsonrpc") == Some(&json!("2.0"))
        && object.get("method").is_some_and(Value::is_string)
        && (id.is_string() || id.is_i64() || id.is_u64());
    answerable.then(|| id.clone())
}

/// Reads an HTTP request written as text: a method line, header lines `name: value` up to an
/// empty line, then the body. `None` when the method or a header cannot be one.
pub fn http_request(data: &[u8]) -> Option<axum::http::Request<axum::body::Body>> {
    let (head, body) = match data.windows(2).position(|pair| pair == b"\n\n") {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &[][..]),
    };
    let mut lines = head.split(|&byte| byte == b'\n');
    let method = axum::http::Method::from_bytes(lines.next()?).ok()?;
    let mut request = axum::http::Request::builder().method(method).uri("/");
    for line in lines {
        let at = line.iter().position(|&byte| byte == b':')?;
        let value = line[at + 1..].strip_prefix(b" ").unwrap_or(&line[at + 1..]);
        let name = axum::http::HeaderName::from_bytes(&line[..at]).ok()?;
        let value = axum::http::HeaderValue::from_bytes(value).ok()?;
        request = request.header(name, value);
    }
    request.body(axum::body::Body::from(body.to_vec())).ok()
}
