//! A plain (non-async) fn is a tool too; it has no future to check for `Send`.

use std::rc::Rc;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};

/// Shout the message
#[tool]
fn shout(
    /// The message
    message: String,
) -> String {
    // An `Rc` is fine here: nothing is held across an await.
    let message = Rc::new(message);
    message.to_uppercase()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("sync", "0.0.0"));
    let result = client
        .call_tool("shout", serde_json::json!({"message": "hi"}))
        .await;
    assert_eq!(result.text_content(), "HI");
    assert_eq!(shout("direct".to_owned()), "DIRECT");
}
