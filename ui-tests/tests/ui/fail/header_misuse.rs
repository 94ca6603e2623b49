//! `#[header("Name")]` mirrors an inline parameter into `Mcp-Param-Name`: it needs a name that can
//! be a header's, one per parameter and header, and marks arguments only. Every mistake is told.

use mcp_toolbelt::{Context, State, tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// No name, a name that is an identifier, a name with a space, two marks on one parameter
#[tool]
async fn unnamed(
    /// A
    #[header]
    a: String,
    /// B
    #[header(Region)]
    b: String,
    /// C
    #[header("My Region")]
    c: String,
    /// D
    #[header("Zone")]
    #[header("Area")]
    d: String,
) -> String {
    format!("{a}{b}{c}{d}")
}

/// Two parameters in one header (names ignore case)
#[tool]
async fn twins(
    /// Home
    #[header("Region")]
    home: String,
    /// Away
    #[header("REGION")]
    away: String,
) -> String {
    format!("{home}{away}")
}

/// The context is no argument
#[tool]
async fn contextual(
    /// Where
    #[header("Region")]
    region: String,
    #[header("Context")] context: &Context,
) -> String {
    let _ = context.request_id();
    region
}

struct Units(&'static str);

/// App state is no argument either
#[tool]
async fn stateful(
    /// Where
    #[header("Region")]
    region: String,
    #[header("Units")] units: &State<Units>,
) -> String {
    format!("{region} in {}", units.0)
}

#[derive(Deserialize, JsonSchema)]
struct Args {
    region: String,
}

/// The argument struct is the whole input
#[tool]
async fn whole(#[header("Region")] args: Args) -> String {
    args.region
}

fn main() {}
