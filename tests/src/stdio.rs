//! A raw stdio client for wire tests: spawn a server, write lines, read messages with a timeout.
//!
//! Plain threads and `std::process`, so tests can speak byte by byte (invalid UTF-8, half lines)
//! and every read has a deadline: a server that hangs fails the test instead of blocking it.

use std::collections::VecDeque;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a read waits before the test fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A server process spoken to over its stdin and stdout.
pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<thread::JoinHandle<()>>,
    /// Messages read while waiting for a particular response, in order.
    pending: VecDeque<Value>,
}

impl StdioServer {
    /// Starts `binary` with `args` and extra environment `env`.
    ///
    /// # Panics
    ///
    /// When the process cannot start.
    #[must_use]
    pub fn spawn(binary: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(binary);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut child_stderr = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        let stderr_reader = thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(read @ 1..) = child_stderr.read(&mut buffer) {
                sink.lock().unwrap().extend_from_slice(&buffer[..read]);
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            stderr,
            stderr_reader: Some(stderr_reader),
            pending: VecDeque::new(),
        }
    }

    /// The server's process id (to read its memory in `/proc`).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server wrote to stderr so far (its logs); all of it once
    /// [`wait_within`](Self::wait_within) saw the process exit.
    #[must_use]
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Writes `bytes` and a newline.
    ///
    /// # Panics
    ///
    /// When stdin is closed.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .expect("write to stdin");
    }

    /// Writes one JSON message as a line.
    pub fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    /// Sends request `id`.
    pub fn send_request(&mut self, id: impl Into<Value>, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params}));
    }

    /// The next line of stdout within `timeout`; `None` when none came (or stdout closed).
    pub fn next_line_within(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next message within `timeout` (messages already read while waiting for a response
    /// first); `None` when none came.
    ///
    /// # Panics
    ///
    /// When a line of stdout is not JSON: stdout belongs to the protocol.
    pub fn next_within(&mut self, timeout: Duration) -> Option<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Some(message);
        }
        let line = self.next_line_within(timeout)?;
        Some(
            serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}")),
        )
    }

    /// The next message.
    ///
    /// # Panics
    ///
    /// When none comes within [`READ_TIMEOUT`], with the server's stderr.
    pub fn next_message(&mut self) -> Value {
        match self.next_within(READ_TIMEOUT) {
            Some(message) => message,
            None => panic!(
                "no message from the server within {READ_TIMEOUT:?}; its stderr:\n{}",
                self.stderr()
            ),
        }
    }

    /// Reads until the response to `id`; the messages before it (notifications, other responses)
    /// are returned too, in order, and are not read again.
    ///
    /// # Panics
    ///
    /// As [`next_message`](Self::next_message).
    pub fn response_to(&mut self, id: &Value) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        let deadline = Instant::now() + READ_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(message) = self.next_within(left) else {
                panic!(
                    "no response to {id} within {READ_TIMEOUT:?}; read {before:?}; stderr:\n{}",
                    self.stderr()
                );
            };
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return (message, before);
            }
            before.push(message);
        }
    }

    /// Sends request `id` and returns its response, ignoring anything before it.
    pub fn request(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let id = id.into();
        self.send_request(id.clone(), method, params);
        self.response_to(&id).0
    }

    /// `initialize` at `version`, then `notifications/initialized`; returns the `initialize` result.
    ///
    /// # Panics
    ///
    /// When `initialize` fails.
    pub fn initialize(&mut self, version: &str) -> Value {
        let params = json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "wire-tests", "version": "0.0.0"}
        });
        let response = self.request("initialize", "initialize", params);
        let result = response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("initialize failed: {response}"));
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }

    /// Closes the server's stdin: end of input.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit, at most `timeout`; `None` if it is still running.
    ///
    /// # Panics
    ///
    /// When the process cannot be waited for.
    pub fn wait_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                if let Some(reader) = self.stderr_reader.take() {
                    let _ = reader.join();
                }
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Every line of stdout left until the process closes it (after [`close_stdin`](Self::close_stdin)).
    pub fn remaining_lines(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.next_line_within(READ_TIMEOUT) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
