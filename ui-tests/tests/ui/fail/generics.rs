//! A tool has one input schema, so its fn cannot be generic.

use mcp_toolbelt::tool;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Args {
    query: String,
}

/// A type parameter
#[tool]
async fn with_type_param<T: Default>(args: Args) -> String {
    args.query
}

/// A `where` clause
#[tool]
async fn with_where_clause(args: Args) -> String
where
    Args: Send,
{
    args.query
}

/// A lifetime parameter
#[tool]
async fn with_lifetime<'a>(args: Args) -> String {
    args.query
}

/// `impl Trait` in argument position is a type parameter too
#[tool]
async fn with_impl_trait(
    /// The query
    query: impl Into<String>,
) -> String {
    query.into()
}

fn main() {}
