//! A server binary written as the README shows, with three tools of one name: `run()` must say
//! so in words and exit with status 1 (`tests/duplicate_names.rs` runs it). Its `main` holds a
//! guard that says when it is dropped, as a `tracing-appender` guard flushes: `run()` returns,
//! never exits the process itself, so the guard's line follows the error.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, tool};

/// Search one way
#[tool(name = "search")]
async fn search_a() -> &'static str {
    "a"
}

/// Search another way
#[tool(name = "search")]
async fn search_b() -> &'static str {
    "b"
}

/// Search a third way
#[tool(name = "search")]
async fn search_c() -> &'static str {
    "c"
}

/// Says on stderr that `main`'s destructors ran.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        eprintln!("twins: the guard in main was dropped");
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let _guard = Guard;
    Server::new("twins", env!("CARGO_PKG_VERSION")).run().await
}
