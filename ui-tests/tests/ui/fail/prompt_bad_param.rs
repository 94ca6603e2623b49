//! A prompt argument is one string on the wire: a parameter must be a type that one string can
//! be read into.

use mcp_toolbelt::prompt;

/// A borrowed argument
#[prompt]
async fn borrowed(
    /// The text
    text: &str,
) -> String {
    text.to_owned()
}

/// A collection
#[prompt]
async fn listed(
    /// The tags
    tags: Vec<String>,
) -> String {
    tags.join(",")
}

/// Neither `FromStr` nor `Deserialize`.
struct Opaque;

/// A type no string is read into
#[prompt]
async fn opaque(
    /// The value
    value: Opaque,
) -> String {
    let _ = value;
    String::new()
}

/// Only `#[serde(default)]` and `#[serde(rename = "…")]` apply
#[prompt]
async fn flattened(
    /// The value
    #[serde(flatten)]
    value: String,
) -> String {
    value
}

fn main() {}
