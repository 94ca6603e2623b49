//! Long jobs as tasks: `build_report` writes a report one section at a time and `import_rows`
//! imports rows after asking the user what to do with the duplicates it found. Neither fits in
//! one request: a client that speaks the Tasks extension (`io.modelcontextprotocol/tasks`) gets
//! a task id at once and polls it with `tasks/get` until the result is there.
//!
//! What a tool needs to become a task is one key on its attribute; its `async fn` is the same
//! as any tool's:
//!
//! - `#[tool(task)]`: it *may* run as a task. A client with the extension gets a task when the
//!   call has not finished within the server's task budget ([`Server::task_budget`], one second
//!   here): a short report comes back inline, a long one as a task. A client without it (every
//!   2025-11-25 client) waits for the result as for any tool.
//! - `#[tool(task = "required")]`: it *always* runs as a task. A client without the extension
//!   is refused with `-32021`, the error naming the extension it lacks; a 2025-11-25 client,
//!   which has no tasks, does not see it in `tools/list`.
//!
//! The tool's [`Context`] works as in any call: [`Context::progress`] sends progress
//! notifications to a client that waits for the result (once the call is a task, its message
//! is the task's `statusMessage`); [`Context::question`] asks the user
//! (within the budget, as the call's own `input_required` round; once the call is a task, the
//! task turns `input_required`, its `tasks/get` carries the question, and the client answers
//! with `tasks/update`), so ask before acting; and `tasks/cancel` cancels the `Context`: the
//! tool stops where it waits on [`Context::cancelled`] (a task's future is dropped a second
//! later if it has not returned).
//!
//! Both tools take how long each step lasts as an argument, so a test runs them in milliseconds.
//!
//! ```text
//! cargo run --example reports                               # serve over stdio
//! cargo run --example reports -- --http 127.0.0.1:3000      # Streamable HTTP, at /mcp
//! ```
//!
//! `tests/clients/ts_tasks.mjs` drives both tools with the official Tasks requester
//! (`@modelcontextprotocol/ext-tasks`): create, poll, answer, cancel.

use std::time::Duration;

use mcp_toolbelt::ask::{AskError, Elicitation};
use mcp_toolbelt::{Context, Server, ToolError, tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// Writes a report on `topic`, one section at a time, reporting progress after each
// With the one-second budget, one short section comes back inline; more become a task.
#[tool(task, annotations(read_only))]
async fn build_report(
    context: Context,
    /// What the report is about
    topic: String,
    /// How many sections to write (default 5)
    #[schemars(range(min = 1, max = 50))]
    sections: Option<u32>,
    /// How long writing one section takes, in milliseconds (default 1000)
    #[schemars(range(max = 60000))]
    section_ms: Option<u64>,
) -> Result<String, ToolError> {
    let sections = sections.unwrap_or(5);
    let pause = Duration::from_millis(section_ms.unwrap_or(1000));
    let mut report = vec![format!("# Report on {topic}")];
    for section in 1..=sections {
        // The slow part. Cancelling the call (or `tasks/cancel`) cancels the `Context`: stop
        // here. (A task's future is dropped a second later anyway; stopping yourself is how
        // cleanup runs.)
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = context.cancelled() => return Err(ToolError::new("Report cancelled")),
        }
        report.push(format!(
            "## Section {section}\n\nWhat we found about {topic}, part {section}."
        ));
        context.progress(
            f64::from(section),
            Some(f64::from(sections)),
            Some(&format!("Wrote section {section} of {sections}")),
        );
    }
    Ok(report.join("\n\n"))
}

/// The question `import_rows` asks when rows look like duplicates.
#[derive(Deserialize, JsonSchema)]
struct SkipDuplicates {
    /// Leave the duplicate rows out of the import
    skip: bool,
}

/// Imports `rows` rows, after asking the user whether to skip the ones that look like duplicates
///
/// Always a task: a client without the Tasks extension is refused.
#[tool(task = "required", asks(SkipDuplicates))]
async fn import_rows(
    context: Context,
    /// How many rows to import
    #[schemars(range(min = 1, max = 10000))]
    rows: u32,
    /// How long checking, then importing, one row takes, in milliseconds (default 20)
    #[schemars(range(max = 10000))]
    row_ms: Option<u64>,
) -> Result<String, ToolError> {
    let pause = Duration::from_millis(row_ms.unwrap_or(20));
    // First pass: look for duplicates (in this example, every tenth row repeats an earlier one).
    // It changes nothing, so it may safely run again: ask before acting.
    for row in 1..=rows {
        tokio::time::sleep(pause).await;
        context.progress(
            f64::from(row),
            Some(f64::from(rows) * 2.0),
            Some(&format!("Checked row {row} of {rows}")),
        );
    }
    let duplicates = rows / 10;
    let skip = if duplicates == 0 {
        false
    } else {
        // In a task the question is the task's `inputRequests`; the call goes on with the
        // answer the client sends in `tasks/update`.
        let question = format!("{duplicates} rows look like duplicates: skip them?");
        let answer = context
            .question("skip_duplicates")
            .elicit::<SkipDuplicates>(&question)
            .await
            .map_err(cannot_ask)?;
        match answer {
            Elicitation::Accept(SkipDuplicates { skip }) => skip,
            // Declined or dismissed: the user did not say, so nothing is imported.
            _ => return Err(ToolError::new("Import stopped: nothing imported")),
        }
    };
    // Second pass: the import itself.
    let imported = if skip { rows - duplicates } else { rows };
    for row in 1..=imported {
        tokio::time::sleep(pause).await;
        context.progress(
            f64::from(rows + row),
            // Skipped rows shorten the job: the total is what is left to do now.
            Some(f64::from(rows + imported)),
            Some(&format!("Imported row {row} of {imported}")),
        );
    }
    Ok(if skip {
        format!("Imported {imported} rows; skipped {duplicates} duplicates")
    } else if duplicates > 0 {
        format!("Imported {imported} rows, {duplicates} duplicates included")
    } else {
        format!("Imported {imported} rows")
    })
}

/// A client that cannot ask its user gets nothing imported on the user's behalf.
fn cannot_ask(error: AskError) -> ToolError {
    ToolError::new(format!("This needs the user's answer, but {error}"))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new("reports", env!("CARGO_PKG_VERSION"))
        .description("Reports and imports that take a while, run as tasks")
        // An optional-task call still running after a second is answered with a task.
        .task_budget(Duration::from_secs(1))
        // How often a client should poll a running task.
        .task_poll_interval(Duration::from_millis(100))
        .run()
        .await
}
