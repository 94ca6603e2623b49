//! A client of `Server::serve_io` over in-memory pipes: the stdio framing without a process.

use std::time::Duration;

use mcp_toolbelt::Server;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;

/// How long a test waits for one message, or for `serve_io` to end.
const WAIT: Duration = Duration::from_secs(10);

/// One client, one server task.
pub struct InProcess {
    /// The server's input; `None` once closed (tests may take it to write on their own).
    pub input: Option<DuplexStream>,
    /// The server's output, line by line.
    pub output: Lines<BufReader<DuplexStream>>,
    /// `serve_io`, running.
    pub server: JoinHandle<Result<(), mcp_toolbelt::Error>>,
}

impl InProcess {
    /// Serves `server` over pipes of 64 KiB.
    #[must_use]
    pub fn start(server: Server) -> Self {
        Self::with_pipes(server, 64 * 1024)
    }

    /// Serves `server` over pipes of `capacity` bytes.
    #[must_use]
    pub fn with_pipes(server: Server, capacity: usize) -> Self {
        let (input, server_input) = tokio::io::duplex(capacity);
        let (server_output, output) = tokio::io::duplex(capacity);
        let server = tokio::spawn(server.serve_io(server_input, server_output));
        Self {
            input: Some(input),
            output: BufReader::new(output).lines(),
            server,
        }
    }

    /// Writes `bytes` and a newline.
    ///
    /// # Panics
    ///
    /// When the input was closed or cannot be written.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input is open");
        input.write_all(bytes).await.unwrap();
        input.write_all(b"\n").await.unwrap();
    }

    /// Writes `message` as one line.
    pub async fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes()).await;
    }

    /// The next message, within 10 s.
    ///
    /// # Panics
    ///
    /// When none comes in time, or it is not JSON.
    pub async fn next_message(&mut self) -> Value {
        self.next_message_within(WAIT).await
    }

    /// The next message, within `wait` (shorter than what a test's busy tool takes, so that
    /// an answer that waited for it is told apart).
    ///
    /// # Panics
    ///
    /// When none comes in time, or it is not JSON.
    pub async fn next_message_within(&mut self, wait: Duration) -> Value {
        let line = tokio::time::timeout(wait, self.output.next_line())
            .await
            .expect("a message in time")
            .unwrap()
            .expect("the server is still writing");
        serde_json::from_str(&line).unwrap()
    }

    /// The next line the server writes, as it is written (members in their order, any
    /// duplicate kept).
    ///
    /// # Panics
    ///
    /// When none comes in time.
    pub async fn next_line(&mut self) -> String {
        tokio::time::timeout(WAIT, self.output.next_line())
            .await
            .expect("a message within 10 s")
            .unwrap()
            .expect("the server is still writing")
    }

    /// The next message, however long it takes (for paused time, where a timeout would end
    /// first).
    ///
    /// # Panics
    ///
    /// When the output ends, or the message is not JSON.
    pub async fn next_message_untimed(&mut self) -> Value {
        let line = self
            .output
            .next_line()
            .await
            .unwrap()
            .expect("still writing");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends request `id` and gives the next message.
    pub async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.next_message().await
    }

    /// Calls tool `name` as request `id` and gives the next message.
    pub async fn call(&mut self, id: i64, name: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
        .await
    }

    /// Cancels request `id`.
    pub async fn cancel(&mut self, id: i64) {
        self.send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": id, "reason": "enough"}}),
        )
        .await;
    }

    /// A ping answers: the server still serves.
    ///
    /// # Panics
    ///
    /// When it does not.
    pub async fn assert_alive(&mut self, id: i64) {
        assert_eq!(
            self.request(id, "ping", json!({})).await,
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        );
    }

    /// Ends the input; returns what the server still wrote and how `serve_io` ended.
    ///
    /// # Panics
    ///
    /// When the output or `serve_io` does not end within 10 s.
    pub async fn finish(mut self) -> (Vec<Value>, Result<(), mcp_toolbelt::Error>) {
        self.input = None;
        let mut rest = Vec::new();
        while let Some(line) = tokio::time::timeout(WAIT, self.output.next_line())
            .await
            .unwrap()
            .unwrap()
        {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        let ended = tokio::time::timeout(WAIT, self.server)
            .await
            .expect("serve_io ends")
            .unwrap();
        (rest, ended)
    }
}
