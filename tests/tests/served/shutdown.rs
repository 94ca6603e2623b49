//! Graceful shutdown of `catalog --http`, as an operator sees it: on SIGTERM or SIGINT the server
//! stops accepting connections, lets a call in flight finish and answer, and exits 0; a call that
//! outlasts the shutdown grace time (10 s by default) does not keep the process alive; an open
//! `subscriptions/listen` stream ends with its result.
//!
//! The server runs as its own process (`CATALOG_TEST_TOOLS=1` adds the `wait` tool), so the signal
//! reaches it alone; the requests are plain HTTP/1.1 over a socket.

#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use mcp_toolbelt_tests::CatalogHttp;
use serde_json::{Value, json};

/// The default `HttpConfig::shutdown_grace`.
const GRACE: Duration = Duration::from_secs(10);

/// The longest any wait here may take beyond what it waits for.
const SLACK: Duration = Duration::from_secs(20);

/// `catalog --http`, to signal and to watch exit.
struct Catalog {
    server: CatalogHttp,
    address: SocketAddr,
}

impl Catalog {
    fn start() -> Self {
        let server = CatalogHttp::start();
        let address = server.address;
        Self { server, address }
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.server.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name} failed");
    }

    /// The exit status, or `None` when the process still runs after `timeout`.
    fn wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.server.child.try_wait().expect("waiting") {
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
}

/// An exchange over one connection: the request sent, what has been read of the answer.
struct Exchange {
    stream: TcpStream,
    read: Vec<u8>,
}

impl Exchange {
    /// Sends a 2026-07-28 request of `method` with `params` (its `_meta` completed with the
    /// envelope), and the `Mcp-Name` header `name`.
    fn send(address: SocketAddr, method: &str, name: Option<&str>, mut params: Value) -> Self {
        let meta = &mut params["_meta"];
        meta["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
        meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
        let body =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
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
        Self {
            stream,
            read: Vec::new(),
        }
    }

    /// A `wait` call for `seconds`, once the tool runs (its first progress arrived).
    fn wait_started(address: SocketAddr, seconds: f64) -> Self {
        let params = json!({
            "name": "wait",
            "arguments": {"seconds": seconds},
            "_meta": {"progressToken": "started"},
        });
        let mut exchange = Self::send(address, "tools/call", Some("wait"), params);
        exchange.read_until("notifications/progress");
        exchange
    }

    /// Reads until `text` has arrived.
    fn read_until(&mut self, text: &str) {
        let mut buffer = [0; 4096];
        while !String::from_utf8_lossy(&self.read).contains(text) {
            let read = self.stream.read(&mut buffer).expect("the answer is open");
            assert!(
                read > 0,
                "the answer ended before {text}: {}",
                String::from_utf8_lossy(&self.read)
            );
            self.read.extend_from_slice(&buffer[..read]);
        }
    }

    /// The status line and the JSON-RPC response of the whole answer (an SSE stream).
    fn finish(mut self) -> (String, Value) {
        self.stream
            .read_to_end(&mut self.read)
            .expect("the answer is read to its end");
        let text = String::from_utf8_lossy(&self.read);
        let status = text.lines().next().unwrap_or_default().to_owned();
        let response = text
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .filter_map(|data| serde_json::from_str::<Value>(data).ok())
            .find(|message| message.get("id").is_some())
            .unwrap_or_else(|| panic!("no response in the answer: {text}"));
        (status, response)
    }
}

fn waits_for_a_call_then_exits(signal: &str) {
    let mut catalog = Catalog::start();
    let call = Exchange::wait_started(catalog.address, 1.0);
    let signalled = Instant::now();
    catalog.signal(signal);

    assert!(
        catalog.refuses_connections(),
        "new connections are refused once shutting down"
    );
    let (status, body) = call.finish();
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
    let _call = Exchange::wait_started(catalog.address, 3600.0);
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
    let mut listen = Exchange::send(catalog.address, "subscriptions/listen", None, params);
    listen.read_until("notifications/subscriptions/acknowledged");
    let signalled = Instant::now();
    catalog.signal("TERM");

    let (_, result) = listen.finish();
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
