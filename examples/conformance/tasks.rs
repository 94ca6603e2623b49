//! The tasks extension's fixtures (`tasks-*` scenarios): tools that may, or must, run as tasks.
//!
//! The server gives a call [`TASK_BUDGET`] within its request before it becomes a task: the suite's
//! `tasks-mrtr-composition` wants a `task = "required"` tool's first question asked the
//! 2026-07-28 way (an `input_required` round) and the task made on the round that answers it.
//! The tools whose questions the suite wants on the task (`tasks-mrtr-input`) do some work
//! first, longer than the budget.

use std::time::Duration;

use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::{Context, Server, ToolError, tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// How long a task tool's call runs within its request before it becomes a task.
const TASK_BUDGET: Duration = Duration::from_millis(500);

/// The work the asking tools do before their question: past the budget, so they are tasks then.
/// Both durations leave room for a loaded machine (a first question asked within the budget, a
/// later one well past it).
const WORK_BEFORE_ASKING: Duration = Duration::from_millis(1200);

/// The server's task settings for these fixtures.
pub(crate) fn configure(server: Server) -> Server {
    server
        .task_budget(TASK_BUDGET)
        .task_poll_interval(Duration::from_millis(200))
}

/// Greets someone, at once (`tasks-*`: the tool that never runs as a task)
#[tool]
async fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Computes for `seconds` seconds, then answers; stops when cancelled (`tasks-lifecycle`)
#[tool(task)]
async fn slow_compute(
    ctx: Context,
    /// How long to compute, in seconds
    seconds: u64,
    /// A label to echo back
    label: Option<String>,
) -> Result<String, ToolError> {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(seconds)) => {}
        () = ctx.cancelled() => return Err(ToolError::new("cancelled")),
    }
    Ok(format!(
        "Computed {} in {seconds} s",
        label.as_deref().unwrap_or("the answer")
    ))
}

/// A job that fails as tools fail, with an error result, after a second (`tasks-lifecycle`,
/// `tasks-required-task-error`: it must run as a task)
#[tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("The job failed: its input was not there"))
}

/// A job that panics: a protocol error, its task `failed` (`tasks-lifecycle`)
#[tool(task)]
async fn protocol_error_job() -> String {
    tokio::time::sleep(WORK_BEFORE_ASKING).await;
    panic!("the job broke down")
}

/// What `confirm_delete` asks.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Whether to delete it
    confirm: bool,
}

/// Deletes a file once the user confirms (`tasks-mrtr-input`)
#[tool(task)]
async fn confirm_delete(
    ctx: Context,
    /// The file to delete
    filename: String,
) -> Result<String, ToolError> {
    tokio::time::sleep(WORK_BEFORE_ASKING).await;
    let answer = ctx
        .elicit::<Confirm>(&format!("Delete {filename}?"))
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(match answer {
        Elicitation::Accept(Confirm { confirm: true }) => format!("Deleted {filename}"),
        _ => format!("Kept {filename}"),
    })
}

/// What `multi_input` asks, twice at once.
#[derive(Deserialize, JsonSchema)]
struct Entry {
    /// A name
    name: String,
    /// Whether to go on
    confirm: bool,
}

/// Asks two questions at once (`tasks-mrtr-input`: answered one at a time)
#[tool(task)]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    tokio::time::sleep(WORK_BEFORE_ASKING).await;
    let (first, second) = tokio::join!(
        ctx.question("first").elicit::<Entry>("The first entry?"),
        ctx.question("second").elicit::<Entry>("The second entry?"),
    );
    let name = |answer: Result<Elicitation<Entry>, _>| match answer {
        Ok(Elicitation::Accept(entry)) if entry.confirm => entry.name,
        _ => "(none)".to_owned(),
    };
    Ok(format!("Got {} and {}", name(first), name(second)))
}

/// What `test_tool_with_task` asks.
#[derive(Deserialize, JsonSchema)]
struct UserName {
    /// Your name
    name: String,
}

/// Asks the user's name in the request, then runs as a task (`tasks-mrtr-composition`)
#[tool(task = "required")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .question("user_name")
        .elicit::<UserName>("What is your name?")
        .await
        .map_err(|error| ToolError::new(error.to_string()))?;
    let Elicitation::Accept(UserName { name }) = answer else {
        return Err(ToolError::new("No name was given"));
    };
    tokio::time::sleep(TASK_BUDGET * 2).await;
    Ok(format!("Hello, {name}, from a task!"))
}
