//! An argument struct whose lifetime is `'static` owns what it holds (serde reads it with
//! `DeserializeOwned`): it is an argument struct like any other.

use std::borrow::Cow;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Greeting<'a> {
    name: Cow<'a, str>,
}

/// Greets by name
#[tool]
async fn greet(args: Greeting<'static>) -> String {
    format!("hello {}", args.name)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("static", "0.0.0"));
    let result = client
        .call_tool("greet", serde_json::json!({"name": "ada"}))
        .await;
    assert_eq!(result.text_content(), "hello ada");
}
