//! `x-mcp-header` marks the spec forbids (SEP-2243: clients must drop such a tool) keep the server
//! from starting, each told with its tool, its place and its property. A test binary of its own,
//! since every server in a binary serves every tool in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{CallToolResult, Server, error::RegistryError, tool, tool::Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The line of `#[tool]` on `score`.
const SCORE: u32 = line!() + 3;

/// A number cannot travel in a header
#[tool]
async fn score(
    /// The score
    #[header("Score")]
    value: f64,
) -> String {
    value.to_string()
}

#[derive(Deserialize, JsonSchema)]
struct TwinArgs {
    #[schemars(extend("x-mcp-header" = "Region"))]
    home: String,
    #[schemars(extend("x-mcp-header" = "region"))]
    away: String,
}

/// The line of `#[tool]` on `twins`.
const TWINS: u32 = line!() + 3;

/// Two properties in one header
#[tool]
async fn twins(args: TwinArgs) -> String {
    format!("{} {}", args.home, args.away)
}

#[derive(Deserialize, JsonSchema)]
struct BatchArgs {
    jobs: Vec<Job>,
}

#[derive(Deserialize, JsonSchema)]
struct Job {
    #[schemars(extend("x-mcp-header" = "Queue"))]
    queue: String,
}

/// The line of `#[tool]` on `batch`.
const BATCH: u32 = line!() + 3;

/// An array's items have no one value to send
#[tool]
async fn batch(args: BatchArgs) -> String {
    let queues: Vec<&str> = args.jobs.iter().map(|job| job.queue.as_str()).collect();
    queues.join(",")
}

/// A tool whose marks are fine is no excuse for the others.
#[tool]
async fn fine(
    /// Where
    #[header("Region")]
    region: String,
) -> String {
    region
}

fn problem(name: &str, line: u32, problem: &str) -> (String, Option<String>, String) {
    (
        name.into(),
        Some(format!("{}:{line}", file!())),
        problem.into(),
    )
}

/// An `InvalidTool`'s name, location and problem (its variant is `#[non_exhaustive]`).
fn invalid_tool(error: &RegistryError) -> (String, Option<String>, String) {
    match error {
        RegistryError::InvalidTool {
            name,
            location,
            problem,
            ..
        } => (name.clone(), location.clone(), problem.clone()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn forbidden_marks_are_start_up_errors_naming_tool_and_property() {
    let Err(mcp_toolbelt::Error::Registry(error)) = Server::new("marks", "0.0.0").check() else {
        panic!("the tools cannot be served: a registry error expected");
    };
    let RegistryError::Several(problems) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        problems.iter().map(invalid_tool).collect::<Vec<_>>(),
        vec![
            problem(
                "batch",
                BATCH,
                "the `x-mcp-header` at `/properties/jobs/items/properties/queue` is not on a \
                 property reached through `properties` alone (the spec forbids array items, \
                 `oneOf`/`anyOf`/`allOf`, conditionals and `$ref` on the way): mark a property of \
                 the arguments or of an object nested in them"
            ),
            problem(
                "score",
                SCORE,
                "property `value` is marked to travel as `Mcp-Param-Score`, but only a string, \
                 integer or boolean can (its type is \"number\")"
            ),
            problem(
                "twins",
                TWINS,
                "properties `home` and `away` are both marked to travel as `Mcp-Param-region` \
                 (header names ignore case): give each its own `x-mcp-header` name"
            ),
        ]
    );
    let text = error.to_string();
    assert!(
        text.starts_with(&format!(
            "3 problems with the tools and resources:\n- tool `batch` at {}:{BATCH} cannot be served: the `x-mcp-header` at",
            file!()
        )),
        "{text}"
    );
}

#[test]
#[should_panic(expected = "property `value` is marked to travel as `Mcp-Param-Score`")]
fn a_test_client_fails_loudly() {
    let _ = TestClient::new(Server::new("marks", "0.0.0"));
}

/// Tools added at run time are held to the same rules.
#[test]
fn a_tool_added_at_run_time_is_checked_too() {
    let tool = |schema| {
        Tool::new("routed", "d", schema, |_, _| async {
            CallToolResult::text("")
        })
    };
    let error = tool(json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "My Region"},
    }}))
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `routed` cannot be served: property `region` is marked `x-mcp-header = \"My Region\"`, \
         which is not a header name: write one or more letters, digits or ``!#$%&'*+-.^_`|~`` (an \
         RFC 9110 token)"
    );
    let routed = tool(json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
    }}));
    assert!(routed.is_ok());
}
