//! `description = "..."` wins over the doc comment, which stays the fn's rustdoc.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};

/// Internal notes for maintainers, not for the model.
///
/// Second paragraph.
#[tool(description = "Echo the message back", title = "Echo")]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

/// Reverse the message,
/// character by character.
///
/// - keeps whitespace
/// - keeps case
#[tool]
async fn reverse(
    /// The message
    message: String,
) -> String {
    message.chars().rev().collect()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("description", "0.0.0"));
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let tools = tools["tools"].as_array().unwrap();
    assert_eq!(tools[0]["name"], "echo");
    assert_eq!(tools[0]["description"], "Echo the message back");
    assert_eq!(tools[0]["title"], "Echo");
    assert_eq!(tools[1]["name"], "reverse");
    assert_eq!(
        tools[1]["description"],
        "Reverse the message, character by character.\n\n- keeps whitespace\n- keeps case"
    );
}
