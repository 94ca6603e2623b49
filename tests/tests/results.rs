//! Every return type a tool may have, as the exact JSON a host receives; what older protocol
//! versions get instead; and what a tool does through its `Context` (progress, log messages,
//! the request id).

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{
    CallToolResult, Content, Context, Json, LogLevel, Server, ToolError,
    result::ContentAnnotations, result::EmbeddedResource, tool, tool::Tool,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

// ---- plain return types --------------------------------------------------------------------

/// Returns a String
#[tool]
async fn owned_text() -> String {
    "an owned string".to_owned()
}

/// Returns a &'static str
#[tool]
async fn static_text() -> &'static str {
    "a static str"
}

/// Returns nothing
#[tool]
async fn nothing() {}

#[derive(Serialize, JsonSchema)]
struct Point {
    x: i32,
    y: i32,
}

/// Returns a point
#[tool(title = "Point")]
async fn point() -> Json<Point> {
    Json(Point { x: 1, y: -2 })
}

// ---- content blocks ------------------------------------------------------------------------

/// A one-pixel PNG, base64.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
/// A few bytes of WAV header, base64.
const SOUND: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEA";

/// Returns an image
#[tool]
async fn image() -> Content {
    Content::image(PIXEL, "image/png")
}

/// Returns an annotated image
#[tool]
async fn annotated_image() -> Content {
    Content::image(PIXEL, "image/png").annotations(
        ContentAnnotations::new()
            .audience(["user"])
            .priority(0.5)
            .last_modified("2026-11-29T12:00:00Z"),
    )
}

/// Returns audio
#[tool]
async fn audio() -> Content {
    Content::audio(SOUND, "audio/wav")
}

/// Returns a resource link
#[tool]
async fn link() -> Content {
    Content::resource_link("file:///project/src/main.rs", "main.rs")
}

/// Returns a described resource link
#[tool]
async fn described_link() -> Content {
    Content::resource_link("file:///project/src/main.rs", "main.rs")
        .title("Main")
        .description("Primary application entry point")
        .mime_type("text/x-rust")
}

/// Returns an embedded text resource
#[tool]
async fn embedded_text() -> Content {
    Content::resource(
        EmbeddedResource::text("file:///notes.txt", "remember the milk").mime_type("text/plain"),
    )
}

/// Returns an embedded binary resource
#[tool]
async fn embedded_blob() -> Content {
    Content::resource(EmbeddedResource::blob("file:///pixel.png", PIXEL).mime_type("image/png"))
}

/// Returns several blocks
#[tool]
async fn mixed() -> Vec<Content> {
    vec![
        Content::text("first"),
        Content::image(PIXEL, "image/png"),
        Content::text("last"),
    ]
}

/// Returns a result built by hand
#[tool]
async fn by_hand() -> CallToolResult {
    let mut meta = serde_json::Map::new();
    meta.insert("example.com/trace".into(), json!("abc"));
    CallToolResult::success(vec![Content::text("by hand")])
        .structured_content(json!({"free": "form"}))
        .meta(meta)
}

// ---- failures ------------------------------------------------------------------------------

/// Fails when told to
#[tool]
async fn fallible(
    /// Whether to fail
    fail: bool,
) -> Result<String, ToolError> {
    if fail {
        Err(ToolError::new("it failed, as asked"))
    } else {
        Ok("it worked".into())
    }
}

#[derive(Debug)]
struct OutOfStock {
    item: &'static str,
}

impl fmt::Display for OutOfStock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is out of stock", self.item)
    }
}

/// Fails with an error type of its own
#[tool]
async fn own_error() -> Result<Json<Point>, OutOfStock> {
    Err(OutOfStock { item: "the point" })
}

/// Panics
#[tool]
async fn panics() -> String {
    panic!("the tool gave up")
}

// ---- context -------------------------------------------------------------------------------

/// Reports progress, some of it not increasing
#[tool]
async fn progress(context: &Context) -> String {
    let sent = [
        context.progress(1.0, Some(4.0), Some("one")),
        context.progress(2.0, Some(4.0), None),
        context.progress(2.0, Some(4.0), Some("two again")),
        context.progress(1.5, Some(4.0), Some("backwards")),
        context.progress(4.0, None, Some("done")),
    ];
    format!("{sent:?}")
}

/// Logs at several levels
#[tool]
async fn logs(context: Context) -> &'static str {
    context.log(LogLevel::Debug, "debugging");
    context.log(LogLevel::Info, "hello");
    context.log_to(LogLevel::Error, Some("db"), json!({"code": 7}));
    "logged"
}

/// Says its request id
#[tool]
async fn whoami(context: &Context) -> String {
    context.request_id().to_string()
}

// ---- helpers -------------------------------------------------------------------------------

fn server() -> Server {
    Server::new("results", "0.0.0")
}

async fn wire(client: &TestClient, tool: &str, arguments: Value) -> Value {
    serde_json::to_value(client.call_tool(tool, arguments).await).unwrap()
}

fn text(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

// ---- return types on the wire --------------------------------------------------------------

#[tokio::test]
async fn text_and_nothing() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "owned_text", json!({})).await,
        text("an owned string")
    );
    assert_eq!(
        wire(&client, "static_text", json!({})).await,
        text("a static str")
    );
    assert_eq!(
        wire(&client, "nothing", json!({})).await,
        json!({"content": []})
    );
}

#[tokio::test]
async fn json_is_structured_content_and_its_text() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "point", json!({})).await,
        json!({
            "content": [{"type": "text", "text": r#"{"x":1,"y":-2}"#}],
            "structuredContent": {"x": 1, "y": -2}
        })
    );
}

#[tokio::test]
async fn content_blocks() {
    let client = TestClient::new(server());
    let cases = [
        (
            "image",
            json!({"type": "image", "data": PIXEL, "mimeType": "image/png"}),
        ),
        (
            "annotated_image",
            json!({
                "type": "image",
                "data": PIXEL,
                "mimeType": "image/png",
                "annotations": {"audience": ["user"], "priority": 0.5, "lastModified": "2026-11-29T12:00:00Z"}
            }),
        ),
        (
            "audio",
            json!({"type": "audio", "data": SOUND, "mimeType": "audio/wav"}),
        ),
        (
            "link",
            json!({"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs"}),
        ),
        (
            "described_link",
            json!({
                "type": "resource_link",
                "uri": "file:///project/src/main.rs",
                "name": "main.rs",
                "title": "Main",
                "description": "Primary application entry point",
                "mimeType": "text/x-rust"
            }),
        ),
        (
            "embedded_text",
            json!({
                "type": "resource",
                "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "remember the milk"}
            }),
        ),
        (
            "embedded_blob",
            json!({"type": "resource", "resource": {"uri": "file:///pixel.png", "mimeType": "image/png", "blob": PIXEL}}),
        ),
    ];
    for (tool, block) in cases {
        assert_eq!(
            wire(&client, tool, json!({})).await,
            json!({"content": [block]}),
            "{tool}"
        );
    }
    assert_eq!(
        wire(&client, "mixed", json!({})).await,
        json!({"content": [
            {"type": "text", "text": "first"},
            {"type": "image", "data": PIXEL, "mimeType": "image/png"},
            {"type": "text", "text": "last"}
        ]})
    );
    assert_eq!(
        wire(&client, "by_hand", json!({})).await,
        json!({
            "content": [{"type": "text", "text": "by hand"}],
            "structuredContent": {"free": "form"},
            "_meta": {"example.com/trace": "abc"}
        })
    );
}

#[tokio::test]
async fn errors_are_results_with_is_error() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "fallible", json!({"fail": false})).await,
        text("it worked")
    );
    assert_eq!(
        wire(&client, "fallible", json!({"fail": true})).await,
        json!({"content": [{"type": "text", "text": "it failed, as asked"}], "isError": true})
    );
    // An `Err` skips the output schema check: there is no structured content to check.
    assert_eq!(
        wire(&client, "own_error", json!({})).await,
        json!({"content": [{"type": "text", "text": "the point is out of stock"}], "isError": true})
    );
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_and_the_server_goes_on() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "panics", json!({})).await,
        json!({
            "content": [{"type": "text", "text": "Error executing tool panics: the tool panicked: the tool gave up"}],
            "isError": true
        })
    );
    assert_eq!(
        wire(&client, "static_text", json!({})).await,
        text("a static str")
    );
    assert_eq!(
        wire(&client, "panics", json!({})).await["isError"],
        true,
        "and it can panic again"
    );
}

#[tokio::test]
async fn a_handler_that_panics_before_returning_its_future_is_an_error_too() {
    let server = server();
    let tool = Tool::new(
        "panics_at_once",
        "Panics before it has a future to return",
        json!({"type": "object"}),
        |_, _| -> std::future::Ready<CallToolResult> { panic!("no future today") },
    )
    .unwrap();
    server.tools().add(tool).unwrap();
    let client = TestClient::new(server);
    assert_eq!(
        wire(&client, "panics_at_once", json!({})).await,
        json!({
            "content": [{"type": "text", "text": "Error executing tool panics_at_once: the tool panicked: no future today"}],
            "isError": true
        })
    );
    assert_eq!(
        wire(&client, "static_text", json!({})).await,
        text("a static str"),
        "the server goes on"
    );
    assert_eq!(
        wire(&client, "panics_at_once", json!({})).await["isError"],
        true,
        "and it can panic again"
    );
}

// ---- older protocol versions ---------------------------------------------------------------

async fn listed(client: &TestClient, name: &str) -> Value {
    let tools = client.list_tools().await.tools;
    let tool = tools.into_iter().find(|tool| tool.name == name).unwrap();
    serde_json::to_value(tool).unwrap()
}

#[tokio::test]
async fn tool_definitions_per_version() {
    let point_schema = json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": -2_147_483_648_i32, "maximum": 2_147_483_647},
            "y": {"type": "integer", "minimum": -2_147_483_648_i32, "maximum": 2_147_483_647}
        },
        "required": ["x", "y"]
    });
    let empty = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let newest = json!({
        "name": "point",
        "title": "Point",
        "description": "Returns a point",
        "inputSchema": empty,
        "outputSchema": point_schema
    });
    for version in ["2025-06-18", "2025-11-25"] {
        let client = TestClient::with_protocol_version(server(), version);
        assert_eq!(listed(&client, "point").await, newest, "{version}");
    }
    // No `title` or `outputSchema` before 2025-06-18.
    let older = json!({"name": "point", "description": "Returns a point", "inputSchema": empty});
    for version in ["2024-11-05", "2025-03-26"] {
        let client = TestClient::with_protocol_version(server(), version);
        assert_eq!(listed(&client, "point").await, older, "{version}");
    }
}

// A tool with annotations, for the version test below.
/// Looks, never touches
#[tool(annotations(read_only, open_world = false))]
async fn look() -> &'static str {
    "looked"
}

#[tokio::test]
async fn tool_annotations_start_at_2025_03_26() {
    let annotated = json!({
        "name": "look",
        "description": "Looks, never touches",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false},
        "annotations": {"readOnlyHint": true, "openWorldHint": false}
    });
    let client = TestClient::with_protocol_version(server(), "2025-03-26");
    assert_eq!(listed(&client, "look").await, annotated);
    let client = TestClient::with_protocol_version(server(), "2024-11-05");
    let mut bare = annotated;
    bare.as_object_mut().unwrap().remove("annotations");
    assert_eq!(listed(&client, "look").await, bare);
}

#[tokio::test]
async fn results_per_version() {
    let link_text =
        "Resource main.rs (file:///project/src/main.rs): Primary application entry point";
    for version in ["2024-11-05", "2025-03-26"] {
        let client = TestClient::with_protocol_version(server(), version);
        // No structuredContent before 2025-06-18; the text still carries the JSON.
        assert_eq!(
            wire(&client, "point", json!({})).await,
            text(r#"{"x":1,"y":-2}"#),
            "{version}"
        );
        // Resource links became text.
        assert_eq!(
            wire(&client, "described_link", json!({})).await,
            text(link_text),
            "{version}"
        );
        assert_eq!(
            wire(&client, "link", json!({})).await,
            text("Resource main.rs (file:///project/src/main.rs)"),
            "{version}"
        );
        // Embedded resources and images exist in every version.
        assert_eq!(
            wire(&client, "embedded_text", json!({})).await["content"][0]["type"],
            "resource"
        );
        assert_eq!(
            wire(&client, "image", json!({})).await["content"][0]["type"],
            "image"
        );
    }
    // Audio arrived in 2025-03-26.
    let client = TestClient::with_protocol_version(server(), "2024-11-05");
    assert_eq!(
        wire(&client, "audio", json!({})).await,
        text("[audio/wav audio omitted: protocol 2024-11-05 cannot carry audio]")
    );
    let client = TestClient::with_protocol_version(server(), "2025-03-26");
    assert_eq!(
        wire(&client, "audio", json!({})).await,
        json!({"content": [{"type": "audio", "data": SOUND, "mimeType": "audio/wav"}]})
    );
    // An error result is the same in every version.
    let client = TestClient::with_protocol_version(server(), "2024-11-05");
    assert_eq!(
        wire(&client, "fallible", json!({"fail": true})).await,
        json!({"content": [{"type": "text", "text": "it failed, as asked"}], "isError": true})
    );
}

// ---- context -------------------------------------------------------------------------------

#[tokio::test]
async fn progress_is_sent_only_when_it_increases() {
    let client = TestClient::new(server());
    // The first request of this client has id 1, so its progress token is "progress-1".
    assert_eq!(
        wire(&client, "progress", json!({})).await,
        text("[true, true, false, false, true]")
    );
    let progress = |params: Value| json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params});
    assert_eq!(
        client.take_notifications(),
        [
            progress(
                json!({"progressToken": "progress-1", "progress": 1.0, "total": 4.0, "message": "one"})
            ),
            progress(json!({"progressToken": "progress-1", "progress": 2.0, "total": 4.0})),
            progress(json!({"progressToken": "progress-1", "progress": 4.0, "message": "done"})),
        ]
    );
    // Without a progress token, nothing is sent.
    let response = client
        .request("tools/call", json!({"name": "progress"}))
        .await;
    assert_eq!(
        response["result"],
        text("[false, false, false, false, false]")
    );
    assert_eq!(client.take_notifications(), Vec::<Value>::new());
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_set() {
    let client = TestClient::new(server());
    assert_eq!(wire(&client, "logs", json!({})).await, text("logged"));
    let message = |params: Value| json!({"jsonrpc": "2.0", "method": "notifications/message", "params": params});
    let info = message(json!({"level": "info", "data": "hello"}));
    let error = message(json!({"level": "error", "logger": "db", "data": {"code": 7}}));
    assert_eq!(
        client.take_notifications(),
        [
            message(json!({"level": "debug", "data": "debugging"})),
            info.clone(),
            error.clone()
        ]
    );

    let response = client
        .request("logging/setLevel", json!({"level": "info"}))
        .await;
    assert_eq!(response, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    wire(&client, "logs", json!({})).await;
    assert_eq!(client.take_notifications(), [info, error.clone()]);

    client
        .request("logging/setLevel", json!({"level": "error"}))
        .await;
    wire(&client, "logs", json!({})).await;
    assert_eq!(client.take_notifications(), [error]);
}

#[tokio::test]
async fn the_tool_knows_its_request_id() {
    let client = TestClient::new(server());
    assert_eq!(wire(&client, "whoami", json!({})).await, text("1"));
    assert_eq!(wire(&client, "whoami", json!({})).await, text("2"));
    let response = client
        .request("tools/call", json!({"name": "whoami"}))
        .await;
    assert_eq!(
        response,
        json!({"jsonrpc": "2.0", "id": 3, "result": text("3")})
    );
}

/// A clone of a call's context kept past the call, as a task the tool spawned keeps one: when it
/// is dropped it tries to report progress and log, and records whether anything was sent.
struct LeftBehind {
    context: Mutex<Option<Context>>,
    sent: Arc<Mutex<Vec<bool>>>,
}

impl Drop for LeftBehind {
    fn drop(&mut self) {
        let context = self
            .context
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(context) = context {
            let progress = context.progress(1.0, None, Some("too late"));
            let log = context.log(LogLevel::Error, "too late");
            self.sent
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(progress || log);
        }
    }
}

#[tokio::test]
async fn a_context_kept_past_its_call_sends_nothing() {
    // A `TestClient` records what arrives while it waits for its answer, so what a spawned task
    // sends later shows nowhere, fix or no fix. Instead the tool keeps a clone of its context in
    // its own state and removes itself while it runs: that state is dropped only once the server
    // is done with the call, after the tool returned and before the client has its answer. What
    // it sends then must go nowhere.
    let server = server();
    let handle = server.tools();
    let sent = Arc::new(Mutex::new(Vec::new()));
    let left_behind = LeftBehind {
        context: Mutex::new(None),
        sent: Arc::clone(&sent),
    };
    let tool = Tool::new(
        "answers_once",
        "Keeps its context, then goes away",
        json!({"type": "object"}),
        move |_, context| {
            *left_behind
                .context
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(context);
            assert!(handle.remove("answers_once"));
            async { CallToolResult::text("answered") }
        },
    )
    .unwrap();
    server.tools().add(tool).unwrap();
    let client = TestClient::new(server);
    assert_eq!(
        wire(&client, "answers_once", json!({})).await,
        text("answered")
    );
    assert_eq!(client.take_notifications(), Vec::<Value>::new());
    assert_eq!(
        *sent.lock().unwrap_or_else(PoisonError::into_inner),
        [false],
        "the context left behind was dropped, and sent nothing"
    );
}

// ---- issue 14: unknown output schemas, tagged-enum outputs, error causes -------------------

/// Returns a list through `impl IntoToolResult`
#[tool]
async fn opaque_list() -> impl mcp_toolbelt::result::IntoToolResult {
    Json(vec![1, 2, 3])
}

/// Returns an object through `impl IntoToolResult`
#[tool]
async fn opaque_point() -> impl mcp_toolbelt::result::IntoToolResult {
    Json(Point { x: 3, y: 4 })
}

/// Without an output schema (the return type is opaque), structured content is still an object:
/// a list is wrapped as `{"result": …}`, decided from the value (issue 14, item 1).
#[tokio::test]
async fn opaque_structured_content_is_always_an_object() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "opaque_list", json!({})).await,
        json!({
            "content": [{"type": "text", "text": "[1,2,3]"}],
            "structuredContent": {"result": [1, 2, 3]}
        })
    );
    assert_eq!(
        wire(&client, "opaque_point", json!({})).await["structuredContent"],
        json!({"x": 3, "y": 4})
    );
}

/// A plain fn with parameters, returning an object through `impl IntoToolResult`
#[tool]
fn opaque_moved(
    /// How far right
    dx: i32,
    context: &Context,
) -> impl mcp_toolbelt::result::IntoToolResult {
    let _ = context;
    Json(Point { x: 3 + dx, y: 4 })
}

/// Issue 22 item 6: an opaque return type that is a `Json<T>` advertises `T`'s output schema,
/// as naming `Json<T>` does, so a host can check what it gets (wrapped in `result` for a list);
/// the structured content is checked against it and sent as before.
#[tokio::test]
async fn an_opaque_json_return_type_has_its_output_schema() {
    let client = TestClient::new(server());
    let tools = client.list_tools().await.tools;
    let output_schema = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name == name)
            .unwrap()
            .output_schema
            .clone()
    };
    let point = json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX},
            "y": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX}
        },
        "required": ["x", "y"]
    });
    assert_eq!(output_schema("opaque_point"), Some(point.clone()));
    assert_eq!(output_schema("opaque_moved"), Some(point));
    assert_eq!(
        output_schema("opaque_list"),
        Some(json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX}}},
            "required": ["result"]
        }))
    );
    assert_eq!(
        wire(&client, "opaque_moved", json!({"dx": 1})).await,
        json!({
            "content": [{"type": "text", "text": "{\"x\":4,\"y\":4}"}],
            "structuredContent": {"x": 4, "y": 4}
        })
    );
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
#[allow(dead_code, reason = "only its schema shows the second variant")]
enum Outcome {
    Done { id: u32 },
    Failed { reason: String },
}

/// Returns an internally tagged enum
#[tool]
async fn outcome() -> Json<Outcome> {
    Json(Outcome::Done { id: 7 })
}

/// An internally tagged enum always serializes to an object: it is not wrapped, and its output
/// schema is an object root with the variants as `oneOf` (issue 14, item 13).
#[tokio::test]
async fn a_tagged_enum_output_is_not_wrapped() {
    let client = TestClient::new(server());
    assert_eq!(
        wire(&client, "outcome", json!({})).await["structuredContent"],
        json!({"status": "done", "id": 7})
    );
    let tool = client
        .list_tools()
        .await
        .tools
        .into_iter()
        .find(|tool| tool.name == "outcome")
        .unwrap();
    let schema = tool.output_schema.unwrap();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema.get("required"), None, "{schema}");
    assert_eq!(
        schema["oneOf"].as_array().map(Vec::len),
        Some(2),
        "{schema}"
    );
}

/// Fails with an anyhow error that has a context
#[tool]
async fn anyhow_failure() -> Result<String, anyhow::Error> {
    let missing = std::io::Error::new(std::io::ErrorKind::NotFound, "file.txt missing");
    Err(anyhow::Error::new(missing).context("loading config"))
}

#[derive(Debug)]
struct Wrapped(std::io::Error);

impl fmt::Display for Wrapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("loading config")
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Fails with a std error that has a source
#[tool]
async fn std_failure() -> Result<String, Wrapped> {
    Err(Wrapped(std::io::Error::other("file.txt missing")))
}

/// An `anyhow` error shows its chain of causes (its alternate form, `{:#}`); a std error shows
/// its alternate form too, which is its `Display`: the bound is `E: Display` (anyhow's error is
/// no `std::error::Error`), so `source()` cannot be walked there (issue 14, item 7).
#[tokio::test]
async fn error_causes_reach_the_model() {
    let client = TestClient::new(server());
    let result = client.call_tool("anyhow_failure", json!({})).await;
    assert!(result.is_error);
    assert_eq!(result.text_content(), "loading config: file.txt missing");
    let result = client.call_tool("std_failure", json!({})).await;
    assert!(result.is_error);
    assert_eq!(result.text_content(), "loading config");
}

// ---- issue 22: what JSON cannot carry ------------------------------------------------------

#[derive(Serialize, JsonSchema)]
struct Measure {
    x: f64,
    samples: Vec<f32>,
}

/// Measures something that went wrong
#[tool]
async fn measure(
    /// Which value to return: `nan`, `inf` or `fine`
    which: String,
) -> Json<Measure> {
    let (x, sample) = match which.as_str() {
        "nan" => (f64::NAN, 1.0),
        "inf" => (1.0, f32::NEG_INFINITY),
        _ => (0.5, 1.0),
    };
    Json(Measure {
        x,
        samples: vec![1.0, sample],
    })
}

/// Issue 22 item 9: a NaN or an infinity in a `Json<T>` result is said to be one, at its field,
/// rather than `expected number, got null` (what `serde_json` wrote for it).
#[tokio::test]
async fn a_nan_or_infinite_result_is_named_as_such() {
    let client = TestClient::new(server());
    let why = "the value was NaN or infinite, which JSON cannot carry (it would be sent as null): return a finite number, or an `Option` that is `None`";
    let result = client.call_tool("measure", json!({"which": "nan"})).await;
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        format!("Output validation error: Invalid structured content for tool measure: x: {why}")
    );
    let result = client.call_tool("measure", json!({"which": "inf"})).await;
    assert_eq!(
        result.text_content(),
        format!(
            "Output validation error: Invalid structured content for tool measure: samples.1: {why}"
        )
    );
    let result = client.call_tool("measure", json!({"which": "fine"})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"x": 0.5, "samples": [1.0, 1.0]}))
    );
}

#[derive(Serialize, JsonSchema)]
struct Ledger {
    entries: Vec<Entry>,
}

#[derive(Serialize, JsonSchema)]
struct Entry {
    id: u128,
    delta: i128,
}

/// Returns 128-bit integers
#[tool]
async fn ledger(
    /// The id of the entry
    id: u64,
    /// Whether the delta goes past 64 bits
    huge: bool,
) -> Json<Ledger> {
    let delta = if huge {
        i128::MIN
    } else {
        i128::from(i64::MIN)
    };
    Json(Ledger {
        entries: vec![Entry {
            id: u128::from(id)
                + if huge {
                    u128::MAX - u128::from(u64::MAX)
                } else {
                    0
                },
            delta,
        }],
    })
}

/// Issue 22 item 10: a 128-bit integer is written as a JSON number while it fits 64 bits (down
/// to `i64::MIN`, up to `u64::MAX`); past that the error names the field and the range.
#[tokio::test]
async fn a_128_bit_integer_past_64_bits_is_named_with_the_range() {
    let client = TestClient::new(server());
    let result = client
        .call_tool("ledger", json!({"id": u64::MAX, "huge": false}))
        .await;
    assert_eq!(
        result.structured_content,
        Some(json!({"entries": [{"id": u64::MAX, "delta": i64::MIN}]}))
    );
    let result = client
        .call_tool("ledger", json!({"id": 0, "huge": true}))
        .await;
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "Output serialization error: entries.0.id: integer out of range: a 128-bit integer is written as a JSON number from -9223372036854775808 to 18446744073709551615 (what a 64-bit integer holds); send a larger one as a string"
    );
}
