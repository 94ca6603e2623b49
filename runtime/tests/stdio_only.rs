//! A stdio server as a user without the `http` feature builds it (CI runs this file with
//! `--no-default-features`): one tool, served over an in-memory pipe, answered on the wire.

use mcp_toolbelt::{Server, tool};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

/// Echo the message back
#[tool]
async fn echo(
    /// The message to echo
    message: String,
) -> String {
    message
}

#[tokio::test]
async fn a_stdio_server_answers_initialize_and_a_call() {
    let (client, server) = tokio::io::duplex(64 * 1024);
    let (server_in, server_out) = tokio::io::split(server);
    let serving = tokio::spawn(Server::new("stdio-only", "1.0.0").serve_io(server_in, server_out));
    let (client_in, mut client_out) = tokio::io::split(client);
    let mut lines = BufReader::new(client_in).lines();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "echo", "arguments": {"message": "hi"}}}),
    ];
    for message in messages {
        client_out
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let initialized: Value =
        serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(initialized["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(initialized["result"]["serverInfo"]["name"], "stdio-only");
    let called: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(
        called,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "hi"}]}})
    );
    // End of input ends the server (within its grace time: nothing is running).
    client_out.shutdown().await.unwrap();
    let ended = tokio::time::timeout(std::time::Duration::from_secs(10), serving).await;
    ended
        .expect("the server ends at end of input")
        .unwrap()
        .unwrap();
}
