//! Resources and views that cannot be served: the server refuses to start and names every
//! problem with its places. A test binary of its own, since every server in a binary serves every
//! resource in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, error::RegistryError, resource, tool};

/// The line of the first `test://twin` below (a registration is at its attribute).
const FIRST: u32 = line!() + 1;
#[resource(uri = "test://twin")]
static FIRST_TWIN: &str = "first";

/// The line of the second.
const SECOND: u32 = line!() + 1;
#[resource(uri = "test://twin")]
static SECOND_TWIN: &str = "second";

/// Not an app view
#[resource(uri = "ui://plain.html")]
static PLAIN: &str = "<p>plain</p>";

/// The line of `missing_view`.
const MISSING: u32 = line!() + 2;
/// Names a view nobody registered
#[tool(ui = "ui://missing.html")]
async fn missing_view() -> &'static str {
    "missing"
}

/// The line of `plain_view`.
const PLAIN_TOOL: u32 = line!() + 2;
/// Names a resource that is not an app view
#[tool(ui = "ui://plain.html")]
async fn plain_view() -> &'static str {
    "plain"
}

#[test]
fn every_problem_is_named_with_its_place() {
    let file = file!();
    let Err(mcp_toolbelt::Error::Registry(RegistryError::Several(problems))) =
        Server::new("broken", "0.0.0").check()
    else {
        panic!("several problems expected");
    };
    let mut texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    texts.sort();
    assert_eq!(
        texts,
        [
            format!(
                "tool `missing_view` ({file}:{MISSING}) names the view `ui://missing.html`, but no `#[resource]` has that URI"
            ),
            format!(
                "tool `plain_view` ({file}:{PLAIN_TOOL}) names the view `ui://plain.html`, but that resource is not an app view: mark it `#[resource(uri = …, app)]`"
            ),
            format!(
                "two resources have the URI `test://twin`: one at {file}:{FIRST}, one at {file}:{SECOND}; resource URIs must be unique"
            ),
        ]
    );
}
