//! `rate_limit = "N/UNIT"`: N a whole number from 1, UNIT `s`, `min` or `h`; checked at the
//! literal, with what to write.

use mcp_toolbelt::tool;

/// A unit no one counts in
#[tool(rate_limit = "10/sec")]
async fn seconds_spelled_out() -> String {
    String::new()
}

/// No limit at all
#[tool(rate_limit = "0/min")]
async fn zero() -> String {
    String::new()
}

/// A count with no unit
#[tool(rate_limit = "100")]
async fn unitless() -> String {
    String::new()
}

/// A number where a string goes
#[tool(rate_limit = 10)]
async fn bare_number() -> String {
    String::new()
}

fn main() {}
