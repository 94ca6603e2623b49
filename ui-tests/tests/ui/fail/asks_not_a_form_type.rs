//! A type `asks(…)` names must be one `Context::elicit` takes: `Deserialize` and `JsonSchema`.

use mcp_toolbelt::{Context, tool};

struct Confirm {
    confirm: bool,
}

/// Asks for a type that derives nothing
#[tool(asks(Confirm))]
async fn ask(context: Context) -> String {
    let _ = context;
    let _ = Confirm { confirm: true }.confirm;
    String::new()
}

fn main() {}
