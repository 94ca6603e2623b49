//! Doc attributes that are macros (`include_str!`, `concat!`) are part of the description;
//! `/** … */` comments lose their stars.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};

/// Short summary.
#[doc = include_str!("doc_macros.md")]
/// Last line.
#[tool]
async fn mixed() {}

#[doc = concat!("Only ", "a macro")]
#[tool]
async fn only_macro() {}

/**
 * A block comment,
 * wrapped.
 */
#[tool]
async fn block() {}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("docs", "0.0.0"));
    let tools = client.list_tools().await.tools;
    let description = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name == name).unwrap();
        tool.description.clone().unwrap_or_default()
    };
    assert_eq!(
        description("mixed"),
        "Short summary.\nRead from a file.\n\nLast line."
    );
    assert_eq!(description("only_macro"), "Only a macro");
    assert_eq!(description("block"), "A block comment, wrapped.");
}
