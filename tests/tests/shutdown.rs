//! Graceful shutdown of `catalog --http`, as an operator sees it: on SIGTERM or SIGINT the server
//! stops accepting connections, lets a call in flight finish and answer, and exits 0; a call that
//! outlasts the shutdown grace time (10 s by default) does not keep the process alive; an open
//! `subscriptions/listen` stream ends with its result.
//!
//! The server runs as its own process (`CATALOG_TEST_TOOLS=1` adds the `wait` tool), so the signal
//! reaches it alone; the requests are plain HTTP/1.1 over a socket.

#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::example_binary;
use serde_json::{Value, json};

/// The default `HttpConfig::shutdown_grace`.
const GRACE: Duration = Duration::from_secs(10);

/// The longest any wait here may take beyond what it waits for.
const SLACK: Duration = Duration::from_secs(20);

/// `catalog --http` on a free port, killed when dropped.
struct Catalog {
    child: Child,
    address: SocketAddr,
}

impl Catalog {
    fn start() -> Self {
        let catalog = example_binary("catalog");
        for _ in 0..5 {
            let address = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|listener| listener.local_addr())
                .expect("a free local port");
            let child = Command::new(&catalog)
                .arg("--http")
                .arg(address.to_string())
                .env("CATALOG_TEST_TOOLS", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("the catalog starts");
            let mut server = Self { child, address };
            let deadline = Instant::now() + SLACK;
            while Instant::now() < deadline {
                if server.child.try_wait().expect("waiting").is_some() {
                    break; // the port was taken meanwhile: try another
                }
                if TcpStream::connect(address).is_ok() {
                    return server;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            server.kill();
        }
        panic!("catalog --http could not be started (5 tries)");
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name} failed");
    }

    /// The exit status, or `None` when the process still runs after `timeout`.
    fn wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether a new connection is refused within a few seconds.
    fn refuses_connections(&self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if TcpStream::connect(self.address).is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends a 2026-07-28 `tools/call` of `wait` for `seconds`; the connection to read the answer from.
fn call_wait(address: SocketAddr, seconds: f64) -> TcpStream {
    let params = json!({"name": "wait", "arguments": {"seconds": seconds}});
    send_modern(address, "tools/call", Some("wait"), params)
}

/// Sends a 2026-07-28 request of `method` with `params` (plus the envelope), and the `Mcp-Name`
/// header `name`; the connection to read the answer from.
fn send_modern(
    address: SocketAddr,
    method: &str,
    name: Option<&str>,
    mut params: Value,
) -> TcpStream {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let name = name.map_or_else(String::new, |name| format!("Mcp-Name: {name}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\n{name}Connection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).expect("the catalog accepts a connection");
    stream
        .set_read_timeout(Some(GRACE + SLACK))
        .expect("a read timeout");
    stream
        .write_all(request.as_bytes())
        .expect("the request is sent");
    stream
}

/// The status line and JSON body of the response on `stream`, read to its end.
fn answer(mut stream: TcpStream) -> (String, Value) {
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .expect("the response is read to its end");
    let (head, body) = response
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("an HTTP response: {response:?}"));
    let status = head.lines().next().unwrap_or_default().to_owned();
    let body = serde_json::from_str(body).unwrap_or_else(|error| panic!("{error}: {body:?}"));
    (status, body)
}

fn waits_for_a_call_then_exits(signal: &str) {
    let mut catalog = Catalog::start();
    let call = call_wait(catalog.address, 1.0);
    std::thread::sleep(Duration::from_millis(300)); // the call is running
    let signalled = Instant::now();
    catalog.signal(signal);

    assert!(
        catalog.refuses_connections(),
        "new connections are refused once shutting down"
    );
    let (status, body) = answer(call);
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(
        body["result"]["content"][0]["text"], "done waiting",
        "{body}"
    );
    assert_eq!(body["result"]["isError"], Value::Null, "{body}");

    let status = catalog.wait(SLACK).expect("the server exits");
    assert!(status.success(), "exit status {status}");
    assert!(
        signalled.elapsed() < GRACE,
        "it exits when the call is done, not at the end of the grace time ({:?})",
        signalled.elapsed()
    );
}

#[test]
fn on_sigterm_a_call_in_flight_finishes_and_the_server_exits_0() {
    waits_for_a_call_then_exits("TERM");
}

#[test]
fn on_sigint_a_call_in_flight_finishes_and_the_server_exits_0() {
    waits_for_a_call_then_exits("INT");
}

#[test]
fn a_call_longer_than_the_grace_time_does_not_keep_the_server_alive() {
    let mut catalog = Catalog::start();
    let _call = call_wait(catalog.address, 3600.0);
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    catalog.signal("TERM");

    let status = catalog
        .wait(GRACE + SLACK)
        .expect("the server exits after the grace time");
    assert!(status.success(), "exit status {status}");
    let took = signalled.elapsed();
    assert!(
        took + Duration::from_millis(500) >= GRACE,
        "it gave the call the grace time ({took:?})"
    );
}

#[test]
fn on_sigterm_a_subscription_ends_with_its_result() {
    let mut catalog = Catalog::start();
    let params = json!({"notifications": {"toolsListChanged": true}});
    let mut listen = send_modern(catalog.address, "subscriptions/listen", None, params);
    let mut seen = Vec::new();
    let mut buffer = [0; 4096];
    while !String::from_utf8_lossy(&seen).contains("notifications/subscriptions/acknowledged") {
        let read = listen.read(&mut buffer).expect("the stream is open");
        assert!(read > 0, "the stream ended before its acknowledgement");
        seen.extend_from_slice(&buffer[..read]);
    }
    let signalled = Instant::now();
    catalog.signal("TERM");

    listen
        .read_to_end(&mut seen)
        .expect("the stream is read to its end");
    let seen = String::from_utf8_lossy(&seen);
    let result = seen
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .find(|message| message.get("result").is_some())
        .unwrap_or_else(|| panic!("no result on the stream: {seen}"));
    assert_eq!(result["id"], 1, "{result}");
    assert_eq!(result["result"]["resultType"], "complete", "{result}");
    assert_eq!(
        result["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 1,
        "{result}"
    );
    let status = catalog.wait(SLACK).expect("the server exits");
    assert!(status.success(), "exit status {status}");
    assert!(
        signalled.elapsed() < GRACE,
        "the open stream does not hold the server for the grace time ({:?})",
        signalled.elapsed()
    );
}
