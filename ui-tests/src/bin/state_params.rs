//! `State<T>` in any position and both argument styles, by value or by reference, with
//! `Context`, in async and plain fns; through the crate path and a renamed crate.

// The qualified paths are the case under test.
#![allow(unused_qualifications)]

use mcp_toolbelt::{Context, State, tool};
use schemars::JsonSchema;
use serde::Deserialize;

struct Db;
struct Config {
    limit: u32,
}

#[derive(Deserialize, JsonSchema)]
struct Query {
    text: String,
}

/// Search with a struct
#[tool]
async fn search(db: State<Db>, query: Query, config: &State<Config>) -> String {
    let _ = &*db;
    format!("{} {}", query.text, config.limit)
}

/// Search inline
#[tool]
async fn search_inline(
    /// What to find
    text: String,
    context: &Context,
    config: mcp_toolbelt::State<Config>,
) -> String {
    let _ = context.request_id();
    format!("{text} {}", config.limit)
}

/// A plain fn with state only
#[tool]
fn limit(config: State<Config>) -> String {
    config.limit.to_string()
}

fn main() {}
