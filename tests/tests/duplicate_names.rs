//! Two tools with one name: the server refuses to start and names both places. A test binary of
//! its own, since every server in a binary serves every tool in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{RegistryError, Server, tool};

/// The line of the first `#[tool(name = "twin")]` below.
const FIRST: u32 = line!() + 3;

/// One twin
#[tool(name = "twin")]
async fn first_twin() -> &'static str {
    "first"
}

/// The line of the second.
const SECOND: u32 = line!() + 3;

/// The other twin
#[tool(name = "twin")]
async fn second_twin() -> &'static str {
    "second"
}

/// A tool with a name of its own, which does not save the server either.
#[tool]
async fn single() -> &'static str {
    "single"
}

fn expected_message() -> String {
    format!(
        "two tools are named `twin`: one at {file}:{FIRST}, one at {file}:{SECOND}; tool names must be unique, \
         rename one with `#[tool(name = \"…\")]`",
        file = file!()
    )
}

#[test]
fn check_names_both_source_locations() {
    let error = Server::new("twins", "0.0.0").check().unwrap_err();
    assert_eq!(
        error,
        RegistryError::DuplicateName {
            name: "twin".into(),
            first: format!("{}:{FIRST}", file!()),
            second: format!("{}:{SECOND}", file!()),
        }
    );
    assert_eq!(error.to_string(), expected_message());
}

#[tokio::test]
async fn serving_fails_with_the_same_error() {
    let error = Server::new("twins", "0.0.0")
        .serve_io(tokio::io::empty(), tokio::io::sink())
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), expected_message());
}

#[test]
#[should_panic(expected = "the server cannot start: two tools are named `twin`")]
fn the_test_client_refuses_too() {
    let _ = TestClient::new(Server::new("twins", "0.0.0"));
}
