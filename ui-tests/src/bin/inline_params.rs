//! Documented parameters are the tool's properties; an `Option` is not required.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};

/// Add two numbers
#[tool(annotations(read_only, idempotent))]
async fn add(
    /// Left operand
    left: i64,
    /// Right operand
    right: i64,
    /// Added too, when given
    extra: Option<i64>,
) -> String {
    (left + right + extra.unwrap_or_default()).to_string()
}

/// Greet someone
#[tool]
async fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// A raw identifier names the property without `r#`
#[tool]
async fn kind(
    /// The kind of thing
    r#type: String,
) -> String {
    r#type
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("inline", "0.0.0"));
    let result = client
        .call_tool("add", serde_json::json!({"left": 1, "right": 2}))
        .await;
    assert_eq!(result.text_content(), "3");
    let result = client
        .call_tool("greet", serde_json::json!({"name": "Ada"}))
        .await;
    assert_eq!(result.text_content(), "Hello, Ada!");
    let result = client
        .call_tool("kind", serde_json::json!({"type": "mug"}))
        .await;
    assert_eq!(result.text_content(), "mug");

    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let listed = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "add")
        .unwrap();
    assert_eq!(
        listed["inputSchema"]["properties"]["left"]["description"],
        "Left operand"
    );
    assert_eq!(
        listed["inputSchema"]["required"],
        serde_json::json!(["left", "right"])
    );

    // The user's fn is still an ordinary fn.
    assert_eq!(add(2, 3, Some(4)).await, "9");
}
