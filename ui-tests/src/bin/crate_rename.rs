//! `crate = path` points generated code at a renamed runtime crate.

use mcp_toolbelt as rt;
use rt::testing::TestClient;

/// Echo the message back
#[rt::tool(crate = rt)]
async fn echo(
    /// The message
    message: String,
) -> String {
    message
}

mod nested {
    use mcp_toolbelt as toolbelt;

    /// Say hello
    #[toolbelt::tool(crate = toolbelt, annotations(read_only))]
    pub(crate) async fn hello(context: &toolbelt::Context) -> String {
        format!("hello, request {}", context.request_id())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(rt::Server::new("rename", "0.0.0"));
    let result = client
        .call_tool("echo", serde_json::json!({"message": "hi"}))
        .await;
    assert_eq!(result.text_content(), "hi");
    let result = client.call_tool("hello", serde_json::json!({})).await;
    assert!(result.text_content().starts_with("hello, request"));
    let _ = nested::hello;
}
