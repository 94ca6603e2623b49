//! The signature users write first: a lone parameter of a standard type, undocumented, is a
//! property named after it (`echo(message: String)` takes `{"message": …}`), never an argument
//! struct: a string, a number, an address or a path cannot be a tool's whole input.

use std::net::IpAddr;
use std::path::PathBuf;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, tool};
use serde_json::json;

/// Echo the message back
#[tool]
async fn echo(message: String) -> String {
    message
}

/// Count to a number
#[tool]
async fn count(to: Option<u32>) -> String {
    format!("{to:?}")
}

/// Ping a host
#[tool]
async fn ping(host: IpAddr) -> String {
    host.to_string()
}

/// Read a file
#[tool]
async fn read(path: PathBuf) -> String {
    path.display().to_string()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let client = TestClient::new(Server::new("lone", "0.0.0"));
    let tools = client.list_tools().await.tools;
    let echo_tool = tools.iter().find(|tool| tool.name == "echo").unwrap();
    assert_eq!(
        echo_tool.input_schema,
        json!({
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
            "additionalProperties": false
        })
    );
    let count_tool = tools.iter().find(|tool| tool.name == "count").unwrap();
    assert_eq!(count_tool.input_schema["required"], json!([]));
    let echoed = client.call_tool("echo", json!({"message": "hi"})).await;
    assert_eq!(echoed.text_content(), "hi");
    let counted = client.call_tool("count", json!({})).await;
    assert_eq!(counted.text_content(), "None");
    let pinged = client.call_tool("ping", json!({"host": "127.0.0.1"})).await;
    assert_eq!(pinged.text_content(), "127.0.0.1");
    let read = client.call_tool("read", json!({"path": "/tmp/x"})).await;
    assert_eq!(read.text_content(), "/tmp/x");
}
