//! The argument-struct style: serde and schemars attributes shape the input schema.

// The qualified paths are the case under test.
#![allow(unused_qualifications)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SearchArgs {
    /// Substring to match
    search_text: String,
    /// At most this many results
    #[schemars(range(max = 50))]
    max_results: Option<u32>,
}

/// Search the catalog
#[tool(
    name = "search.catalog",
    title = "Search",
    annotations(read_only, open_world = false)
)]
async fn search(args: SearchArgs) -> String {
    format!("{} {}", args.search_text, args.max_results.unwrap_or(10))
}

#[derive(Deserialize, JsonSchema)]
struct Filter {
    text: String,
}

/// A lone parameter marked `#[property]` is a property, even when its type is a struct
#[tool]
async fn filter(
    /// What to keep
    #[property]
    filter: Filter,
) -> String {
    filter.text
}

/// A documented lone struct is still the argument struct: its doc comment changes no shape
#[tool]
async fn documented_filter(
    /// What to keep
    filter: Filter,
) -> String {
    filter.text
}

/// An argument struct of the user's own that is named like a standard type.
#[derive(Deserialize, JsonSchema)]
struct Duration {
    seconds: u64,
}

/// Wait a while
#[tool]
async fn pause(args: crate::Duration) -> String {
    format!("{} s", args.seconds)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("struct", "0.0.0"));
    let result = client
        .call_tool("search.catalog", serde_json::json!({"searchText": "mug"}))
        .await;
    assert_eq!(result.text_content(), "mug 10");
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let search = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "search.catalog")
        .unwrap();
    assert_eq!(search["name"], "search.catalog");
    assert_eq!(search["annotations"]["readOnlyHint"], true);
    assert_eq!(search["annotations"]["openWorldHint"], false);
    assert_eq!(
        search["inputSchema"]["required"],
        serde_json::json!(["searchText"])
    );
    let result = client
        .call_tool("filter", serde_json::json!({"filter": {"text": "kept"}}))
        .await;
    assert_eq!(result.text_content(), "kept");
    let result = client
        .call_tool("pause", serde_json::json!({"seconds": 3}))
        .await;
    assert_eq!(result.text_content(), "3 s");
}
