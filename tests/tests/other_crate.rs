//! A tool defined in another crate (`tests/extra-tools`) is served like a local one, once that
//! crate is linked. Naming the crate once is enough: rustc loads a dependency only when the code
//! mentions it, and a loaded crate's `#[tool]` registrations are kept by the linker.
//!
//! Nothing else in this file may mention `extra_tools`: it would link the crate by itself, and
//! this test would no longer show that the line below is enough.

use extra_tools as _;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool::ToolAnnotations, tool::ToolDefinition};
use serde_json::json;

#[tokio::test]
async fn a_tool_from_a_linked_crate_is_listed_and_called() {
    let client = TestClient::new(Server::new("other-crate", "0.0.0"));
    assert_eq!(
        client.list_tools().await.tools,
        [ToolDefinition {
            name: "shout".into(),
            title: None,
            description: Some("Shout the message back, in capitals".into()),
            input_schema: json!({
                "type": "object",
                "properties": {"message": {"type": "string", "description": "What to shout"}},
                "required": ["message"],
                "additionalProperties": false
            }),
            output_schema: None,
            annotations: Some(ToolAnnotations {
                read_only_hint: Some(true),
                open_world_hint: Some(false),
                ..ToolAnnotations::default()
            }),
            meta: None,
        }]
    );
    let result = client.call_tool("shout", json!({"message": "hello"})).await;
    assert_eq!(
        serde_json::to_value(result).unwrap(),
        json!({"content": [{"type": "text", "text": "HELLO!"}]})
    );
}
