//! A lone undocumented parameter of a standard scalar type (an address, a path, a duration, a
//! non-zero integer) is not an argument struct: its schema is not an object, so the macro asks
//! instead of letting the server refuse to start.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;

use mcp_toolbelt::tool;

/// Ping a host
#[tool]
async fn ping(host: IpAddr) -> String {
    host.to_string()
}

/// Read a file
#[tool]
async fn read(path: PathBuf) -> String {
    path.display().to_string()
}

/// Wait a while
#[tool]
async fn wait(delay: std::time::Duration) -> String {
    format!("{delay:?}")
}

/// Repeat a greeting
#[tool]
async fn repeat(times: NonZeroU32) -> String {
    "hello ".repeat(times.get() as usize)
}

fn main() {}
