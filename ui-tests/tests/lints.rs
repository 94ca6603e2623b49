//! `#[tool]`'s generated code must not make users' lints fire. The tools below cover every style
//! (and a `#[deprecated]` tool, eight parameters, a `HashMap` parameter, the schema escape
//! hatches and `asks(…)`) under the strictest
//! settings we expect users to have: rustc lints fail `cargo test`, clippy
//! lints fail `cargo clippy --all-targets -- -D warnings` (trybuild runs rustc only, so the ui
//! cases cannot prove this).

#![deny(
    warnings,
    unused_qualifications,
    unreachable_pub,
    rust_2018_idioms,
    clippy::pedantic
)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{
    CallToolResult, Content, Context, Json, Server, ToolError, resource, result::IntoToolResult,
    tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The argument struct of `search`.
#[derive(Deserialize, JsonSchema)]
struct SearchArgs {
    /// Substring to match
    query: String,
    /// At most this many results
    limit: Option<u32>,
}

/// A product, as `details` returns it.
#[derive(Serialize, JsonSchema)]
struct Product {
    name: String,
    price: f64,
}

/// Search the catalog
#[tool(annotations(read_only))]
async fn search(args: SearchArgs, context: &Context) -> String {
    context.progress(1.0, None, None);
    format!("{} {}", args.query, args.limit.unwrap_or(10))
}

/// Import a file, as a task when the client can poll one
#[tool(task)]
async fn import_file(context: Context, path: String) -> Result<String, std::io::Error> {
    context.cancelled().await;
    Ok(path)
}

/// Rebuild the index, always as a task
#[tool(task = "required")]
fn reindex() -> String {
    "reindexed".into()
}

/// Add two numbers
#[tool(
    name = "add",
    title = "Add",
    annotations(read_only, idempotent, open_world = false)
)]
async fn add_numbers(
    context: Context,
    /// Left operand
    left: i64,
    /// Right operand
    right: Option<i64>,
) -> String {
    let _ = context.request_id();
    (left + right.unwrap_or_default()).to_string()
}

/// Look up a product
#[tool(
    name = "product-details",
    icons(src = "https://example.com/product.png", mime_type = "image/png", sizes = ["48x48"]),
    icons(data = include_bytes!("ui/icon.svg"), mime_type = "image/svg+xml", theme = "dark")
)]
async fn details(
    /// The product's exact name
    name: String,
) -> Result<Json<Product>, ToolError> {
    if name == "mug" {
        Ok(Json(Product { name, price: 12.0 }))
    } else {
        Err(ToolError::new(format!("no product named {name:?}")))
    }
}

/// Remove every product
#[tool(annotations(read_only = false, destructive, idempotent))]
async fn clear() {}

/// Shout, without `async`
#[tool]
fn shout(
    /// The message
    message: String,
) -> String {
    message.to_uppercase()
}

/// Answer, without `async` and without arguments
#[tool]
fn pong() -> &'static str {
    "pong"
}

/// Describe a kind of thing, with a raw identifier as the parameter, sent as a header too
#[tool]
async fn kind(
    /// The kind
    #[header("Kind")]
    r#type: String,
    context: &Context,
) -> Vec<Content> {
    let _ = context.is_cancelled();
    vec![Content::text(r#type)]
}

/// Return the whole result
#[tool(description = "Answer in full")]
async fn full() -> CallToolResult {
    CallToolResult::text("full")
}

/// Return an opaque result
#[tool]
async fn opaque() -> impl IntoToolResult {
    "opaque"
}

/// Return an opaque structured result, without `async`
#[tool]
fn opaque_plain(
    /// How many
    count: u32,
    context: &Context,
) -> impl IntoToolResult {
    let _ = context.request_id();
    Json(vec![count])
}

/// Retitle, or clear the subtitle with `null`
#[tool]
async fn retitle(
    /// The new title
    title: String,
    /// The new subtitle: `null` clears it, left out keeps it
    subtitle: Option<Option<String>>,
) -> String {
    format!("{title} {subtitle:?}")
}

/// Fail with an I/O error
#[tool]
async fn io() -> std::io::Result<String> {
    Err(std::io::Error::other("disk on fire"))
}

/// Old, and still served: calling it from the adapter is not a use to warn of
#[deprecated = "use `shout`"]
#[tool]
async fn old() -> &'static str {
    "old"
}

/// Eight inline parameters: as many arguments as the tool has properties
#[tool]
async fn eight_numbers(
    /// One
    one: u8,
    /// Two
    two: u8,
    /// Three
    three: u8,
    /// Four
    four: u8,
    /// Five
    five: u8,
    /// Six
    six: u8,
    /// Seven
    seven: u8,
    /// Eight
    eight: u8,
) -> String {
    [one, two, three, four, five, six, seven, eight]
        .iter()
        .map(|n| u32::from(*n))
        .sum::<u32>()
        .to_string()
}

/// A map property, public: deserialized with the default hasher
#[tool]
pub async fn count_labels(
    /// Labels and their counts
    labels: std::collections::HashMap<String, u32>,
    /// A plain flag
    verbose: bool,
) -> String {
    let total: u32 = labels.values().sum();
    if verbose {
        format!("{} labels, {total} in all", labels.len())
    } else {
        total.to_string()
    }
}

/// The runtime under another name.
mod renamed {
    use mcp_toolbelt as rt;

    /// Say hello through a renamed runtime
    #[rt::tool(crate = rt)]
    pub(crate) async fn hello(
        /// Who to greet
        name: String,
    ) -> &'static str {
        if name.is_empty() {
            "hello, nobody"
        } else {
            "hello"
        }
    }
}

/// Every tool above, by name.
const SERVED: [&str; 23] = [
    "add",
    "app_only",
    "as_generated",
    "clear",
    "confirmed",
    "count_labels",
    "eight_numbers",
    "full",
    "hand_written",
    "hello",
    "import_file",
    "io",
    "kind",
    "old",
    "opaque",
    "opaque_plain",
    "pong",
    "product-details",
    "reindex",
    "retitle",
    "search",
    "shout",
    "with_view",
];

/// The tools compiled under the lints are also registered and answer as written.
#[tokio::test]
async fn every_tool_is_served() {
    let client = TestClient::new(Server::new("lints", "0.0.0"));
    let tools = client.list_tools().await.tools;
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    // A legacy client (2025-11-25) has no tasks: a required-task tool is not listed to it.
    let legacy: Vec<&str> = SERVED
        .iter()
        .copied()
        .filter(|name| *name != "reindex")
        .collect();
    assert_eq!(names, legacy);
    assert_eq!(
        client.call_tool("old", json!({})).await.text_content(),
        "old"
    );
    let all = json!({"one": 1, "two": 1, "three": 0, "four": 0, "five": 1, "six": 0, "seven": 0, "eight": 0});
    assert_eq!(
        client.call_tool("eight_numbers", all).await.text_content(),
        "3"
    );
    let labels = json!({"labels": {"x": 2, "y": 3}, "verbose": false});
    assert_eq!(
        client
            .call_tool("count_labels", labels)
            .await
            .text_content(),
        "5"
    );
    assert_eq!(
        client
            .call_tool("add", json!({"left": 1, "right": 2}))
            .await
            .text_content(),
        "3"
    );
    assert_eq!(
        client
            .call_tool("search", json!({"query": "mug"}))
            .await
            .text_content(),
        "mug 10"
    );
    assert_eq!(
        client
            .call_tool("shout", json!({"message": "hi"}))
            .await
            .text_content(),
        "HI"
    );
    assert_eq!(
        client
            .call_tool("kind", json!({"type": "cup"}))
            .await
            .text_content(),
        "cup"
    );
    assert!(
        client
            .call_tool("product-details", json!({"name": "cup"}))
            .await
            .is_error
    );
    assert!(client.call_tool("io", json!({})).await.is_error);
    assert_eq!(
        client
            .call_tool("hello", json!({"name": ""}))
            .await
            .text_content(),
        "hello, nobody"
    );
    assert!(
        client
            .call_tool("clear", json!({}))
            .await
            .content
            .is_empty()
    );
    assert_eq!(
        client.call_tool("full", json!({})).await.text_content(),
        "full"
    );
    assert_eq!(
        client.call_tool("opaque", json!({})).await.text_content(),
        "opaque"
    );
}

/// The user's fns stay ordinary fns.
#[tokio::test]
async fn tools_stay_callable() {
    assert_eq!(shout("direct".to_owned()), "DIRECT");
    assert_eq!(
        details("mug".to_owned())
            .await
            .map(|Json(product)| product.price),
        Ok(12.0)
    );
    clear().await;
}

/// A view, with every `app(…)` key.
#[resource(
    uri = "ui://lints/view.html",
    app(
        csp(connect_domains = ["https://api.example.com"], base_uri_domains("https://example.com")),
        permissions(camera, microphone, geolocation, clipboard_write),
        domain = "lints.example.com",
        prefers_border
    )
)]
static VIEW: &str = "<!doctype html>";

/// Bytes.
#[resource(
    uri = "test://lints/bytes",
    icons(src = "https://example.com/bytes.png")
)]
const BYTES: &[u8] = include_bytes!("lints.rs");

/// A template read by a plain fn, its variables of two types.
#[resource(uri = "test://lints/{name}/{count}")]
fn templated(count: u8, name: String) -> Result<String, ToolError> {
    if count == 0 {
        return Err(ToolError::new("count must be at least 1"));
    }
    Ok(name.repeat(usize::from(count)))
}

/// Shows the view
#[tool(ui = "ui://lints/view.html", visibility(model, app))]
async fn with_view(context: &Context) -> String {
    context.client_supports_apps().to_string()
}

/// Only for views
#[tool(visibility(app))]
async fn app_only() {}

/// The hand-written input schema of `hand_written`.
fn search_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Substring to match"}},
        "required": ["query"]
    })
}

/// The hand-written output schema of `hand_written`.
fn product_schema() -> schemars::Schema {
    schemars::json_schema!({"type": "object", "properties": {"name": {"type": "string"}}})
}

/// Schemas by hand
#[tool(input_schema = search_schema, output_schema = product_schema)]
async fn hand_written(args: SearchArgs) -> Json<Product> {
    Json(Product {
        name: args.query,
        price: 1.0,
    })
}

/// The schema as generated
#[tool(portable = false)]
async fn as_generated(
    /// A row
    row: u8,
) -> String {
    row.to_string()
}

/// The form `confirmed` asks for.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Go ahead
    confirm: bool,
}

/// Asks first
#[tool(asks(Confirm))]
async fn confirmed(context: Context) -> String {
    match context.elicit::<Confirm>("Sure?").await {
        Ok(mcp_toolbelt::ask::Elicitation::Accept(Confirm { confirm })) => confirm.to_string(),
        _ => String::new(),
    }
}

#[tokio::test]
async fn resources_and_views_are_served() {
    let client = TestClient::new(Server::new("lints", "0.0.0"));
    let read = client
        .request("resources/read", json!({"uri": "test://lints/ab/2"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "abab");
    assert_eq!(
        client
            .call_tool("with_view", json!({}))
            .await
            .text_content(),
        "false"
    );
    assert!(
        client
            .call_tool("app_only", json!({}))
            .await
            .content
            .is_empty()
    );
}

/// The tone of `lint_summary`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Casual,
}

/// The titles `lint_summary` completes with.
async fn lint_titles(
    partial: &str,
    context: &mcp_toolbelt::completion::CompletionContext,
) -> Vec<String> {
    let _ = context.argument("tone");
    vec![format!("{partial}!")]
}

/// Every kind of prompt argument, a completer, the `Context` and a `Result`
#[mcp_toolbelt::prompt(complete(title = lint_titles))]
async fn lint_summary(
    /// The title
    title: String,
    /// The tone
    tone: Option<Tone>,
    /// How many words
    #[serde(default)]
    words: u32,
    context: &Context,
) -> Result<Vec<mcp_toolbelt::prompt::PromptMessage>, ToolError> {
    let _ = context;
    let tone = match tone {
        Some(Tone::Formal) => "formal",
        Some(Tone::Casual) | None => "casual",
    };
    Ok(vec![mcp_toolbelt::prompt::PromptMessage::user(format!(
        "{title} {tone} {words}"
    ))])
}

/// A plain prompt fn
#[mcp_toolbelt::prompt]
fn lint_plain() -> &'static str {
    "plain"
}

/// A prompt's argument struct: its fields are the prompt's arguments
#[derive(Deserialize, JsonSchema)]
struct LintTriage {
    /// The issue's number
    issue: u32,
}

/// A prompt whose lone parameter is an argument struct
#[mcp_toolbelt::prompt]
async fn lint_triage(args: LintTriage) -> String {
    args.issue.to_string()
}

#[tokio::test]
async fn prompts_stay_gettable() {
    let client = TestClient::new(Server::new("lints", "0.0.0"));
    let got = client
        .request(
            "prompts/get",
            json!({"name": "lint_summary", "arguments": {"title": "t", "tone": "formal"}}),
        )
        .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "t formal 0"
    );
    let got = client
        .request("prompts/get", json!({"name": "lint_plain"}))
        .await;
    assert_eq!(got["result"]["messages"][0]["content"]["text"], "plain");
    let got = client
        .request(
            "prompts/get",
            json!({"name": "lint_triage", "arguments": {"issue": "4"}}),
        )
        .await;
    assert_eq!(got["result"]["messages"][0]["content"]["text"], "4");
}
