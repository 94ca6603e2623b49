//! The schema escape hatches of `#[tool]` (issue 12, item 4), for users who know their host:
//! `portable = false` serves the input schema as schemars generates it, `input_schema = path`
//! and `output_schema = path` serve hand-written ones. Each is what `tools/list` shows, what
//! arguments and results are checked against, and what the lint then judges per profile.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Json, Server, lint, tool, tool::ToolDefinition};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Book a seat
#[tool(portable = false)]
async fn book(
    /// The row
    row: u8,
    /// A note for the crew
    note: Option<String>,
) -> String {
    format!("row {row}, {}", note.unwrap_or_default())
}

/// Reassign a seat, as schemars generates its schema
#[tool(portable = false)]
#[allow(
    clippy::option_option,
    reason = "absent, null and a value are three cases"
)]
async fn reassign(
    /// The new holder: `null` frees the seat, left out keeps it
    holder: Option<Option<String>>,
) -> String {
    format!("{holder:?}")
}

/// Book a seat (portable, as by default)
#[tool]
async fn book_portable(
    /// The row
    row: u8,
    /// A note for the crew
    note: Option<String>,
) -> String {
    format!("row {row}, {}", note.unwrap_or_default())
}

/// Assign a ticket: absent keeps the assignee, null clears it
#[tool]
async fn assign(
    /// Who takes it; null to unassign
    assignee: Option<Option<String>>,
) -> String {
    format!("{assignee:?}")
}

#[derive(Deserialize)]
struct Sku {
    sku: String,
}

// `JsonSchema` is what `#[tool]` requires of an argument struct; the schema served is the
// hand-written one.
impl JsonSchema for Sku {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Sku".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object"})
    }
}

/// The schema of `lookup`'s arguments, written by hand: a `pattern` and a `const` the derive
/// would not give.
fn sku_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "sku": {"type": "string", "description": "The SKU", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
            "version": {"const": 2, "description": "The catalogue version"}
        },
        "required": ["sku"],
        "additionalProperties": false
    })
}

#[derive(Serialize, JsonSchema)]
struct Item {
    sku: String,
    price: f64,
}

/// Its `outputSchema`, by hand: prices are at least 1.
fn item_schema() -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "properties": {
            "sku": {"type": "string"},
            "price": {"type": "number", "minimum": 1}
        },
        "required": ["sku", "price"]
    })
}

/// Look up an item
#[tool(input_schema = sku_schema, output_schema = item_schema)]
async fn lookup(args: Sku) -> Json<Item> {
    let price = if args.sku.ends_with("0000") { 0.5 } else { 9.5 };
    Json(Item {
        sku: args.sku,
        price,
    })
}

/// Add two inline numbers, described by hand
#[tool(input_schema = pair_schema)]
async fn add(
    /// The first
    a: i64,
    /// The second
    b: i64,
) -> String {
    (a + b).to_string()
}

fn pair_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "The first", "minimum": 0},
            "b": {"type": "integer", "description": "The second", "minimum": 0}
        },
        "required": ["a", "b"]
    })
}

async fn listed(client: &TestClient, name: &str) -> ToolDefinition {
    let tools = client.list_tools().await.tools;
    tools
        .into_iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[tokio::test]
async fn portable_false_serves_the_schema_as_generated() {
    let client = TestClient::new(Server::new("seats", "1.0.0"));
    let generated = listed(&client, "book").await.input_schema;
    assert_eq!(
        generated,
        json!({
            "type": "object",
            "properties": {
                "row": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255, "description": "The row"},
                "note": {"type": ["string", "null"], "description": "A note for the crew"}
            },
            "required": ["row"],
            "additionalProperties": false
        })
    );
    // The same parameters by default: no `format`, no `null` in a `type` list.
    assert_eq!(
        listed(&client, "book_portable").await.input_schema,
        json!({
            "type": "object",
            "properties": {
                "row": {"type": "integer", "minimum": 0, "maximum": 255, "description": "The row"},
                "note": {"type": "string", "description": "A note for the crew"}
            },
            "required": ["row"],
            "additionalProperties": false
        })
    );
    // What the generated schema allows is what the tool takes.
    let result = client
        .call_tool("book", json!({"row": 12, "note": null}))
        .await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        serde_json::to_value(&result.content).unwrap(),
        json!([{"type": "text", "text": "row 12, "}])
    );
    let refused = client.call_tool("book", json!({"row": 300})).await;
    assert!(refused.is_error, "{refused:?}");
}

#[tokio::test]
async fn portable_false_keeps_the_crates_own_marks_to_itself() {
    let client = TestClient::new(Server::new("seats", "1.0.0"));
    let schema = listed(&client, "reassign").await.input_schema;
    assert!(!schema.to_string().contains("x-mcp-nullable"), "{schema}");
    let result = client.call_tool("reassign", json!({"holder": null})).await;
    assert_eq!(
        serde_json::to_value(&result.content).unwrap(),
        json!([{"type": "text", "text": "Some(None)"}])
    );
}

#[tokio::test]
async fn the_lint_judges_the_schema_as_served() {
    let client = TestClient::new(Server::new("seats", "1.0.0"));
    let tools = [
        listed(&client, "book").await,
        listed(&client, "book_portable").await,
    ];
    let report = lint::lint("seats", &tools, &[lint::profile("gemini").unwrap()]);
    let errors: Vec<String> = report
        .findings
        .iter()
        .map(ToString::to_string)
        .filter(|line| line.starts_with("error"))
        .collect();
    assert_eq!(
        errors,
        [
            "error[type-list] book /inputSchema/properties/note: `type` is a list: [\"string\",\"null\"] (gemini); fix: one type per value: a plain Option<T> goes absent, not null (serve the tool portable, or drop `null` from the hand-written schema); an Option<Option<T>>, whose null clears, has no one-type form: take an Option<T> and a `clear_…: bool` instead, or keep it for hosts that take type lists",
        ]
    );
    // A deliberate nullable (`Option<Option<T>>`: null clears) is not told to become an
    // `Option<T>`, which would lose its null: it is given a form that keeps the meaning.
    let assign = listed(&client, "assign").await;
    assert_eq!(
        assign.input_schema["properties"]["assignee"]["type"],
        json!(["string", "null"])
    );
    let report = lint::lint("seats", &[assign], &[lint::profile("gemini").unwrap()]);
    let line = report.findings[0].to_string();
    assert!(line.starts_with("error[type-list] assign"), "{line}");
    assert!(
        line.contains("an Option<Option<T>>, whose null clears, has no one-type form: take an Option<T> and a `clear_…: bool` instead"),
        "{line}"
    );
    // A profile that takes it finds nothing to say.
    let report = lint::lint("seats", &tools, &[lint::profile("anthropic").unwrap()]);
    assert!(!report.has_errors(), "{report}");
}

#[tokio::test]
async fn hand_written_schemas_are_served_and_checked() {
    let client = TestClient::new(Server::new("shop", "1.0.0"));
    let tool = listed(&client, "lookup").await;
    assert_eq!(tool.input_schema, sku_schema());
    assert_eq!(
        tool.output_schema,
        Some(item_schema().to_value()),
        "the output schema as written"
    );

    let result = client.call_tool("lookup", json!({"sku": "MUG-0042"})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"sku": "MUG-0042", "price": 9.5}))
    );
    // The arguments are checked against the hand-written schema: its `pattern`, its `const`.
    for arguments in [
        json!({"sku": "mug"}),
        json!({"sku": "MUG-0042", "version": 1}),
        json!({"sku": "MUG-0042", "colour": "red"}),
    ] {
        let refused = client.call_tool("lookup", arguments.clone()).await;
        assert!(refused.is_error, "{arguments}: {refused:?}");
        let text = serde_json::to_string(&refused.content).unwrap();
        assert!(text.contains("Input validation error"), "{text}");
    }
    // And the result against the hand-written output schema: its `minimum`.
    let refused = client.call_tool("lookup", json!({"sku": "MUG-0000"})).await;
    assert!(refused.is_error, "{refused:?}");

    let add = listed(&client, "add").await;
    assert_eq!(add.input_schema, pair_schema());
    let result = client.call_tool("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(
        serde_json::to_value(&result.content).unwrap(),
        json!([{"type": "text", "text": "5"}])
    );
    let refused = client.call_tool("add", json!({"a": -2, "b": 3})).await;
    assert!(refused.is_error, "{refused:?}");
}
