//! One replica of a server run as several behind a load balancer, sharing one Redis: what
//! `tests/tests/served/replicas.rs` runs three of behind nginx. Every tool says which replica (process
//! id) did the work, so a test can tell that a session's calls were spread over replicas, that a
//! question's answer came back through another one, that a stream resumed elsewhere.
//!
//! ```text
//! redis-server --port 6380 &
//! cargo run --example replicas -- --http 127.0.0.1:3001 --redis redis://127.0.0.1:6380 \
//!     --request-state-key-file key
//! cargo run --example replicas -- --http 127.0.0.1:3002 --redis redis://127.0.0.1:6380 \
//!     --request-state-key-file key
//! ```
//!
//! The tools:
//! - `whoami`: the replica's process id;
//! - `count`: counts to `steps`, one progress notification per step (`step_ms` apart), so a call
//!   streams for seconds, long enough to kill its replica in the middle;
//! - `ask_name`: asks the user's name (elicitation), in both eras;
//! - `change_tools`: adds the tool `extra`, or removes it, so that `tools/list_changed` is raised
//!   on this replica (each replica's tool set is its own: in a real deployment every replica
//!   changes its tools the same way; here only the notification matters);
//! - `slow_job`: a task tool (the Tasks extension): prepares for a second (a task by then), asks
//!   for a confirmation when told to, then works for `seconds`, stopping when cancelled.

use std::sync::OnceLock;
use std::time::Duration;

use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::tool::{Tool, Tools};
use mcp_toolbelt::{CallToolResult, Context, Server, ToolError, tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// This replica, as every tool names it.
fn replica() -> String {
    format!("pid {}", std::process::id())
}

/// Says which replica answered
#[tool(annotations(read_only))]
async fn whoami() -> String {
    replica()
}

/// Counts to `steps`, reporting each step as progress, then says which replica finished
#[tool(annotations(read_only))]
async fn count(
    context: Context,
    /// How many steps
    #[schemars(range(min = 1, max = 1000))]
    steps: u32,
    /// How long one step takes, in milliseconds (default 100)
    #[schemars(range(max = 10000))]
    step_ms: Option<u64>,
) -> Result<String, ToolError> {
    let pause = Duration::from_millis(step_ms.unwrap_or(100));
    for step in 1..=steps {
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = context.cancelled() => return Err(ToolError::new("Counting cancelled")),
        }
        context.progress(
            f64::from(step),
            Some(f64::from(steps)),
            Some(&format!("{}: step {step}", replica())),
        );
    }
    Ok(format!("Counted to {steps} on {}", replica()))
}

/// The question `ask_name` asks.
#[derive(Deserialize, JsonSchema)]
struct Name {
    /// Your name
    name: String,
}

/// Asks the user's name, then greets them
#[tool(asks(Name))]
async fn ask_name(context: Context) -> Result<String, ToolError> {
    let asked_on = replica();
    let answer = context
        .question("name")
        .elicit::<Name>(&format!("What is your name? (asked on {asked_on})"))
        .await
        .map_err(|error| ToolError::new(format!("Cannot ask: {error}")))?;
    match answer {
        // At 2026-07-28 the answer comes with a retry that the balancer may send to another
        // replica: the question names the replica whose round asked, this the one that finished.
        Elicitation::Accept(Name { name }) => {
            Ok(format!("Hello, {name}! (answered on {asked_on})"))
        }
        _ => Err(ToolError::new("No name given")),
    }
}

/// This server's tools, for `change_tools`.
static TOOLS: OnceLock<Tools> = OnceLock::new();

/// Adds the tool `extra`, or removes it when present, so that the tool list changes
#[tool]
async fn change_tools() -> Result<String, ToolError> {
    let tools = TOOLS
        .get()
        .ok_or_else(|| ToolError::new("the server is not running"))?;
    if tools.remove("extra") {
        return Ok(format!("Removed extra on {}", replica()));
    }
    let schema =
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
    let extra = Tool::new(
        "extra",
        "Here between two change_tools calls",
        schema,
        |_, _| async { CallToolResult::text("extra") },
    )
    .map_err(|error| ToolError::new(error.to_string()))?;
    tools
        .add(extra)
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(format!("Added extra on {}", replica()))
}

/// The question `slow_job` asks before it starts.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Whether to start
    start: bool,
}

/// How long `slow_job` prepares before it asks or works: past the server's task budget.
const PREPARING: Duration = Duration::from_secs(1);

/// Prepares for a second, then works for `seconds` (after a confirmation, when `confirm` is
/// set), stopping when cancelled
#[tool(task, asks(Confirm))]
async fn slow_job(
    context: Context,
    /// How long to work, in seconds
    #[schemars(range(max = 600))]
    seconds: u64,
    /// Whether to ask for a confirmation first
    confirm: Option<bool>,
) -> Result<String, ToolError> {
    let started_on = replica();
    // Preparing takes longer than the task budget: a client with the Tasks extension has its
    // task by then, and the question goes on the task (`tasks/get`, answered by `tasks/update`).
    tokio::select! {
        () = tokio::time::sleep(PREPARING) => {}
        () = context.cancelled() => return Err(ToolError::new("Job cancelled")),
    }
    if confirm == Some(true) {
        let answer = context
            .question("start")
            .elicit::<Confirm>("Start the job?")
            .await
            .map_err(|error| ToolError::new(format!("Cannot ask: {error}")))?;
        if !matches!(answer, Elicitation::Accept(Confirm { start: true })) {
            return Ok(format!("Not started (asked on {started_on})"));
        }
    }
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(seconds)) => {}
        () = context.cancelled() => return Err(ToolError::new("Job cancelled")),
    }
    Ok(format!("Worked {seconds} s on {started_on}"))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let server = Server::new("replicas", env!("CARGO_PKG_VERSION"))
        .description("One replica of several behind a load balancer, on one Redis")
        // A task call still running after half a second is answered with a task.
        .task_budget(Duration::from_millis(500))
        .task_poll_interval(Duration::from_millis(100));
    let _ = TOOLS.set(server.tools());
    server.run().await
}
