//! Every documented return type converts into a tool result; only `Json<T>` has an output schema.

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{CallToolResult, Content, Json, Server, ToolError, tool};
use schemars::JsonSchema;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
struct Product {
    name: String,
    price: f64,
}

/// Returns `String`
#[tool]
async fn string() -> String {
    "string".to_owned()
}

/// Returns `&'static str`
#[tool]
async fn static_str() -> &'static str {
    "static str"
}

/// Returns nothing
#[tool]
async fn unit() {}

/// Returns `()` spelled out
#[tool]
async fn unit_spelled() -> () {}

/// Returns `Json<T>`
#[tool]
async fn json() -> Json<Product> {
    Json(Product {
        name: "mug".to_owned(),
        price: 12.0,
    })
}

/// Returns one content block
#[tool]
async fn content() -> Content {
    Content::image("aGk=", "image/png")
}

/// Returns several content blocks
#[tool]
async fn contents() -> Vec<Content> {
    vec![Content::text("one"), Content::text("two")]
}

/// Returns the whole result
#[tool]
async fn full() -> CallToolResult {
    CallToolResult::error("full control")
}

/// Returns `Result<Json<T>, ToolError>`
#[tool]
async fn fallible_json(
    /// Whether to fail
    fail: bool,
) -> Result<Json<Product>, ToolError> {
    if fail {
        return Err(ToolError::new("no product"));
    }
    Ok(Json(Product {
        name: "cup".to_owned(),
        price: 24.0,
    }))
}

/// Returns `Result<String, std::io::Error>`
#[tool]
async fn io() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("disk on fire"))
}

/// Returns `impl IntoToolResult`
#[tool]
async fn opaque() -> impl mcp_toolbelt::result::IntoToolResult {
    "opaque"
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("results", "0.0.0"));
    let call = |name: &'static str, arguments| {
        let client = &client;
        async move { client.call_tool(name, arguments).await }
    };
    let none = serde_json::json!({});
    assert_eq!(call("string", none.clone()).await.text_content(), "string");
    assert_eq!(
        call("static_str", none.clone()).await.text_content(),
        "static str"
    );
    assert!(call("unit", none.clone()).await.content.is_empty());
    assert!(call("unit_spelled", none.clone()).await.content.is_empty());
    let json = call("json", none.clone()).await;
    assert_eq!(
        json.structured_content,
        Some(serde_json::json!({"name": "mug", "price": 12.0}))
    );
    assert_eq!(
        call("content", none.clone()).await.content,
        vec![Content::image("aGk=", "image/png")]
    );
    assert_eq!(call("contents", none.clone()).await.content.len(), 2);
    assert!(call("full", none.clone()).await.is_error);
    let failed = call("fallible_json", serde_json::json!({"fail": true})).await;
    assert!(failed.is_error);
    assert_eq!(failed.text_content(), "no product");
    assert!(
        !call("fallible_json", serde_json::json!({"fail": false}))
            .await
            .is_error
    );
    let io = call("io", none.clone()).await;
    assert!(io.is_error);
    assert_eq!(io.text_content(), "disk on fire");
    assert_eq!(call("opaque", none).await.text_content(), "opaque");

    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    for tool in tools["tools"].as_array().unwrap() {
        let has_output_schema = tool.get("outputSchema").is_some();
        let expected = matches!(tool["name"].as_str(), Some("json" | "fallible_json"));
        assert_eq!(has_output_schema, expected, "{tool}");
    }
}
