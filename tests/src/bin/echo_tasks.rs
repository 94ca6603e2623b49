//! A server whose one tool always runs as a task and returns what it was given: each finished
//! task keeps a result as large as what its client sent, as many real tools' output grows with
//! their input (`tests/memory.rs`: finished tasks' results are kept within a byte budget). Run
//! with `run()`, every setting at its default.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};

/// Returns the text it is given, as a task
#[tool(task = "required")]
async fn echo_task(
    /// The text to return
    text: String,
) -> String {
    text
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("echo-tasks", env!("CARGO_PKG_VERSION"))
        .run()
        .await
}
