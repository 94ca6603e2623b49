//! Attributes on inline parameters: `serde` and `schemars` attributes shape the property as they
//! would a struct field's, doc comments describe it exactly as a struct field's, and `#[cfg]`
//! removes the parameter and its property.

// `#[cfg(all())]` on a parameter is the case under test.
#![allow(clippy::non_minimal_cfg)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Context, Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Repeat a name
#[tool]
async fn repeat(
    /// Who to greet,
    /// by name
    ///
    /// and more.
    #[serde(rename = "who")]
    name: String,
    /// How many times
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 5))]
    times: u8,
    /// Never compiled
    #[cfg(any())]
    missing: bool,
    #[cfg(all())] context: &Context,
    #[cfg(any())] gone: Context,
) -> String {
    let _ = context.request_id();
    name.repeat(times.into())
}

fn one() -> u8 {
    1
}

/// The same property as a struct field.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Field {
    /// Who to greet,
    /// by name
    ///
    /// and more.
    who: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("attrs", "0.0.0"));
    let tools = serde_json::to_value(client.list_tools().await).unwrap();
    let schema = &tools["tools"][0]["inputSchema"];
    assert_eq!(schema["required"], json!(["who"]), "{schema}");
    assert_eq!(
        schema["properties"]["times"]["minimum"],
        json!(1),
        "{schema}"
    );
    assert_eq!(
        schema["properties"]["times"]["maximum"],
        json!(5),
        "{schema}"
    );
    assert!(schema["properties"].get("missing").is_none(), "{schema}");
    let field = schemars::schema_for!(Field);
    assert_eq!(
        schema["properties"]["who"]["description"],
        field.as_value()["properties"]["who"]["description"],
        "{schema}"
    );
    let result = client.call_tool("repeat", json!({"who": "ab"})).await;
    assert_eq!(result.text_content(), "ab");
    let result = client
        .call_tool("repeat", json!({"who": "ab", "times": 2}))
        .await;
    assert_eq!(result.text_content(), "abab");
    let result = client
        .call_tool("repeat", json!({"who": "ab", "times": 9}))
        .await;
    assert!(result.is_error, "{}", result.text_content());
}
