//! A tool that computes without awaiting (a long synchronous loop that polls
//! `Context::is_cancelled`, as the `Context` docs suggest) must not stop a stdio server from
//! reading its next lines: a `ping` is answered meanwhile, and the `notifications/cancelled`
//! the loop waits for reaches it.

use std::time::{Duration, Instant};

use mcp_toolbelt::{Context, Server, tool};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

/// Spins until its call is cancelled (at most ten seconds)
#[tool]
async fn busy_until_cancelled(context: &Context) -> String {
    let started = Instant::now();
    while !context.is_cancelled() && started.elapsed() < Duration::from_secs(10) {
        std::hint::spin_loop();
    }
    format!("cancelled: {}", context.is_cancelled())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_tool_does_not_stop_the_connection_reading() {
    let (mut client_write, server_read) = tokio::io::duplex(64 * 1024);
    let (server_write, client_read) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(Server::new("busy", "1.0.0").serve_io(server_read, server_write));
    let mut lines = BufReader::new(client_read).lines();
    let mut send = async |message: Value| {
        client_write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "busy", "version": "1"}}}),
    )
    .await;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "busy_until_cancelled", "arguments": {}}}))
    .await;
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})).await;
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
            .await
            .expect("an answer within 5 s, while the tool still spins")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    };
    assert_eq!(next().await["id"], 0);
    assert_eq!(
        next().await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
    send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 1, "reason": "enough"}}),
    )
    .await;
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"})).await;
    // The cancelled call answers nothing: the next line is the second ping's answer.
    assert_eq!(
        next().await,
        json!({"jsonrpc": "2.0", "id": 3, "result": {}})
    );
    drop(client_write);
    serving.await.unwrap().unwrap();
}
