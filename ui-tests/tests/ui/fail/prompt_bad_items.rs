//! What `#[prompt]` refuses on a parameter and on the item: an `Option` that is also
//! `#[serde(default)]`, a tool's `#[schemars]` and `#[header]`, a pattern, a generic or `unsafe`
//! fn, a method, an item that is no fn.

use mcp_toolbelt::prompt;

/// Optional twice
#[prompt]
async fn optional_twice(
    /// The tag
    #[serde(default)]
    tag: Option<String>,
) -> String {
    tag.unwrap_or_default()
}

/// A tool's parameter attributes
#[prompt]
async fn tool_attributes(
    /// The city
    #[schemars(length(min = 1))]
    city: String,
    /// The region
    #[header(name = "Region")]
    region: String,
) -> String {
    format!("{city}{region}")
}

/// A pattern
#[prompt]
async fn destructured(
    /// A pair
    (a, b): (String, String),
) -> String {
    format!("{a}{b}")
}

/// Generic
#[prompt]
async fn generic<T: std::str::FromStr>(
    /// A value
    value: String,
) -> String {
    value
}

/// Unsafe
#[prompt]
async unsafe fn dangerous() -> String {
    String::new()
}

struct Notes;

impl Notes {
    /// A method
    #[prompt]
    async fn method(&self) -> String {
        String::new()
    }
}

/// Not a fn
#[prompt]
struct NotAFn;

fn main() {}
