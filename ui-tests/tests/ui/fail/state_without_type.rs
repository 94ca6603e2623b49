//! `State` says which value it takes: `State<Db>`.

use mcp_toolbelt::{State, tool};

/// Count the rows
#[tool]
async fn rows(db: State) -> String {
    String::new()
}

fn main() {}
