//! Connections to `serve_http` as hostile or careless clients hold them: a client that never
//! finishes its headers, or sends them a byte at a time, or leaves a keep-alive connection idle,
//! is disconnected after `HttpConfig::header_timeout`; beyond `HttpConfig::max_connections`, a
//! new client waits until a connection gives its place up (the next busy one to answer), and is
//! then served; a crowd of slow-loris connections filling every slot is cut off, and the client
//! waiting behind them is served. (More in `http_fairness.rs`.)
//!
//! Every wait is bounded by `TIMEOUT`; no test asserts a duration, only what happens first.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_toolbelt::http::HttpConfig;
use mcp_toolbelt_tests::http::{TIMEOUT, server};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

// The tools served (`count`, `chatty`, `whoami`, `slow`): the same in every `http_*` file.

/// `serve_http` with `config` on a free port of 127.0.0.1, listening when this returns.
async fn serve(config: HttpConfig) -> SocketAddr {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    tokio::spawn(server().http_config(config).serve_http(address));
    tokio::time::timeout(TIMEOUT, async {
        loop {
            if let Ok(probe) = TcpStream::connect(address).await {
                drop(probe);
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("serve_http listens");
    address
}

fn short_headers() -> HttpConfig {
    HttpConfig::new().header_timeout(Duration::from_millis(500))
}

/// Reads until the server closes the connection (or resets it); what was read.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let closed = tokio::time::timeout(TIMEOUT, async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&received).into_owned()
}

#[tokio::test]
async fn a_client_that_sends_nothing_is_disconnected() {
    let address = serve(short_headers()).await;
    let mut silent = TcpStream::connect(address).await.unwrap();
    read_until_closed(&mut silent).await;
}

#[tokio::test]
async fn headers_sent_a_byte_at_a_time_are_cut_off() {
    let address = serve(short_headers()).await;
    let mut slow = TcpStream::connect(address).await.unwrap();
    let dripping = async {
        for byte in
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        {
            if slow.write_all(&[*byte]).await.is_err() {
                return "cut off";
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        "all sent"
    };
    let outcome = tokio::time::timeout(TIMEOUT, dripping).await.unwrap();
    assert_eq!(outcome, "cut off", "the server waited for every byte");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_its_answer() {
    let address = serve(short_headers()).await;
    let mut client = TcpStream::connect(address).await.unwrap();
    client
        .write_all(b"GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let received = read_until_closed(&mut client).await;
    assert!(received.starts_with("HTTP/1.1 404"), "{received}");
}

/// A `slow` call of `seconds` answered as JSON, sent on a connection of its own; its answer's
/// head.
async fn slow_call(address: SocketAddr, seconds: f64) -> String {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"tag": "busy", "seconds": seconds},
        "_meta": mcp_toolbelt_tests::http::envelope(),
    }})
    .to_string();
    let mut client = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nMcp-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: slow\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    client.write_all(request.as_bytes()).await.unwrap();
    read_until_closed(&mut client).await
}

#[tokio::test]
async fn beyond_the_connection_cap_a_client_waits_until_a_connection_gives_way() {
    // The header timeout closes the connection that did not give way once it is idle.
    let config = HttpConfig::new()
        .max_connections(2)
        .header_timeout(Duration::from_secs(1));
    let address = serve(config).await;
    // `serve` probed the port with a connection of its own; let the server see it close.
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Calls of 3 s: long beside the 0.5 s this test waits, however slow the machine.
    let busy = [
        tokio::spawn(slow_call(address, 3.0)),
        tokio::spawn(slow_call(address, 3.0)),
    ];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let waiting = tokio::spawn(async move {
        let mut client = TcpStream::connect(address).await.unwrap();
        client
            .write_all(
                b"GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            )
            .await
            .unwrap();
        let mut answer = String::new();
        let _ = client.read_to_string(&mut answer).await;
        answer
    });
    // Both connections are busy: the third client is not served yet.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        !waiting.is_finished(),
        "a third connection was served beyond the cap"
    );
    // A busy connection's answer gives its place up (`Connection: close`, then it closes).
    let mut gave_way = 0;
    for call in busy {
        let answer = tokio::time::timeout(TIMEOUT, call).await.unwrap().unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        gave_way += usize::from(answer.to_ascii_lowercase().contains("connection: close"));
    }
    assert!(gave_way >= 1);
    let answer = tokio::time::timeout(TIMEOUT, waiting)
        .await
        .unwrap()
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
}

/// Sends headers a byte every 100 ms until the server cuts the connection off.
async fn drip(mut stream: TcpStream) -> &'static str {
    for byte in b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
        if stream.write_all(&[*byte]).await.is_err() {
            return "cut off";
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    "all sent"
}

#[tokio::test]
async fn a_crowd_of_slow_loris_connections_is_cut_off_and_the_next_client_served() {
    let config = HttpConfig::new()
        .max_connections(8)
        .header_timeout(Duration::from_millis(500));
    let address = serve(config).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut crowd = Vec::new();
    for _ in 0..8 {
        crowd.push(tokio::spawn(drip(
            TcpStream::connect(address).await.unwrap(),
        )));
    }
    let mut client = TcpStream::connect(address).await.unwrap();
    client
        .write_all(b"GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut client).await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    for dripping in crowd {
        let outcome = tokio::time::timeout(TIMEOUT, dripping)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(outcome, "cut off", "the server waited for every byte");
    }
}
