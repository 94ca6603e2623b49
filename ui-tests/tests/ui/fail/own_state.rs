//! A type of the user's own called `State<…>` is not taken silently as app state.

use mcp_toolbelt::tool;

struct State<T>(T);

/// Read the state
#[tool]
async fn read(state: State<u32>) -> String {
    state.0.to_string()
}

fn main() {}
