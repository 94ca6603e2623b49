//! `#[tool]` sees names, not types: the `Context` under another name (`use … as Ctx`) is told
//! to be marked `#[context]`, at the parameter's type, borrowed or not (issue 22 item 7).

use mcp_toolbelt::Context as Ctx;
use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

/// Report progress by reference
#[tool]
async fn by_ref(
    /// The name
    name: String,
    ctx: &Ctx,
) -> String {
    ctx.request_id().to_string() + &name
}

/// Report progress with an owned context
#[tool]
async fn by_value(ctx: Ctx) -> String {
    ctx.request_id().to_string()
}

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

/// Marked, the alias is the context; a borrowed argument struct is still refused
#[tool]
async fn marked(#[context] ctx: &Ctx, args: &Args) -> String {
    ctx.request_id().to_string() + &args.query
}

fn main() {}
