//! `scopes(…)`: one or more OAuth scopes (RFC 6749 §3.3), each a string without space, `"` or
//! `\`, each listed once; on `#[tool]`, `#[resource]` and `#[prompt]` alike.

use mcp_toolbelt::{prompt, resource, tool};

/// An empty scope
#[tool(scopes(""))]
async fn empty() -> String {
    String::new()
}

/// Two scopes in one string
#[tool(scopes("notes:read notes:write"))]
async fn spaced() -> String {
    String::new()
}

/// No scope listed
#[tool(scopes())]
async fn none() -> String {
    String::new()
}

/// A scope as a value
#[tool(scopes = "notes:read")]
async fn valued() -> String {
    String::new()
}

/// A scope listed twice
#[tool(scopes("notes:read", "notes:read"))]
async fn twice() -> String {
    String::new()
}

/// A scope that is no string
#[tool(scopes(notes))]
async fn bare_word() -> String {
    String::new()
}

/// A resource's scopes are checked the same way
#[resource(uri = "docs://readme", scopes("read me"))]
static README: &str = "read me";

/// A prompt's too
#[prompt(scopes("é"))]
async fn greet() -> String {
    String::new()
}

fn main() {}
