//! A plain (non-async) fn is a tool too; it has no future to check for `Send`, and its output
//! need not be `Send` either (it is converted where the fn ran): `Box<dyn Error>` is fine.

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

/// Read a setting
#[tool]
fn read_setting(
    /// Its name
    name: String,
) -> Result<String, Box<dyn std::error::Error>> {
    Err(format!("no setting {name}").into())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("sync", "0.0.0"));
    let result = client
        .call_tool("shout", serde_json::json!({"message": "hi"}))
        .await;
    assert_eq!(result.text_content(), "HI");
    assert_eq!(shout("direct".to_owned()), "DIRECT");
    let failed = client
        .call_tool("read_setting", serde_json::json!({"name": "colour"}))
        .await;
    assert!(failed.is_error);
    assert_eq!(failed.text_content(), "no setting colour");
}
