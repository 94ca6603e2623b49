//! `#[tool(task)]`, `task = "optional"` and `task = "required"` compile, and the fn is the same
//! fn: its `Context`, its result.

// A tool returning `Result` that never fails is the case under test.
#![allow(clippy::unnecessary_wraps)]

use mcp_toolbelt::{Context, tool};

/// May run as a task
#[tool(task)]
async fn may(ctx: Context, seconds: u64) -> String {
    let _ = ctx.progress(0.0, None, None);
    format!("{seconds}")
}

/// The same
#[tool(task = "optional")]
async fn optional() -> String {
    String::new()
}

/// Always a task
#[tool(task = "required")]
fn required() -> Result<String, std::io::Error> {
    Ok(String::new())
}

fn main() {}
