//! A to-do list whose tools ask the user before they act: `clear-tasks` deletes every task only
//! after the user confirms, and `add-task` asks how urgent a task is when the model did not
//! say. The same handlers serve both protocol eras: on a legacy connection the question is a
//! request to the client; at 2026-07-28 it is an `input_required` result the client answers by
//! retrying the call (see the README, "Asking the client").
//!
//! ```text
//! cargo run --example todo            # serve over stdio
//! cargo run --example todo -- --http 127.0.0.1:3000
//! ```

use std::sync::Mutex;

use mcp_toolbelt::icon::{Icon, IconTheme};
use mcp_toolbelt::{Context, Server, State, ToolError, ask::AskError, ask::Elicitation, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The tasks, in the order they were added.
#[derive(Default)]
struct Tasks(Mutex<Vec<Task>>);

struct Task {
    title: String,
    priority: Priority,
}

impl Tasks {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Task>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// How urgent a task is.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    Normal,
    High,
}

/// The form `add-task` shows when the priority is missing.
#[derive(Deserialize, JsonSchema)]
struct PriorityForm {
    /// How urgent the task is
    priority: Priority,
}

/// The form `clear-tasks` shows before it deletes anything.
#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Delete every task
    confirm: bool,
}

/// Adds a task; asks the user how urgent it is when no priority is given
#[tool(name = "add-task", asks(PriorityForm))]
async fn add_task(
    context: Context,
    tasks: State<Tasks>,
    /// What to do
    title: String,
    /// How urgent it is (the user is asked when it is left out)
    priority: Option<Priority>,
) -> Result<String, ToolError> {
    let priority = if let Some(priority) = priority {
        priority
    } else {
        // Asked before anything changes: at 2026-07-28 this fn runs again with the answer.
        let question = format!("How urgent is \"{title}\"?");
        let answer = context
            .question("priority")
            .elicit::<PriorityForm>(&question)
            .await
            .map_err(cannot_ask)?;
        match answer {
            Elicitation::Accept(form) => form.priority,
            // Declined or cancelled.
            _ => {
                return Err(ToolError::new("No task added: the user gave no priority"));
            }
        }
    };
    tasks.lock().push(Task {
        title: title.clone(),
        priority,
    });
    Ok(format!("Added \"{title}\" ({priority:?})"))
}

/// Lists the tasks, one a line
#[tool(name = "list-tasks", annotations(read_only))]
async fn list_tasks(tasks: State<Tasks>) -> String {
    let tasks = tasks.lock();
    if tasks.is_empty() {
        return "No tasks".into();
    }
    let lines: Vec<String> = tasks
        .iter()
        .map(|task| format!("{} ({:?})", task.title, task.priority))
        .collect();
    lines.join("\n")
}

/// Deletes every task, once the user confirms
#[tool(
    name = "clear-tasks",
    annotations(read_only = false, destructive, idempotent),
    asks(Confirmation)
)]
async fn clear_tasks(context: Context, tasks: State<Tasks>) -> Result<String, ToolError> {
    let count = tasks.lock().len();
    if count == 0 {
        return Ok("No tasks to delete".into());
    }
    let question = format!("Delete all {count} tasks? This cannot be undone.");
    let answer = context
        .question("confirm")
        .elicit::<Confirmation>(&question)
        .await
        .map_err(cannot_ask)?;
    match answer {
        Elicitation::Accept(Confirmation { confirm: true }) => {
            let deleted = std::mem::take(&mut *tasks.lock()).len();
            Ok(format!("Deleted {deleted} tasks"))
        }
        _ => Ok("Nothing deleted: the user did not confirm".into()),
    }
}

/// A client that cannot ask its user gets nothing done on the user's behalf.
fn cannot_ask(error: AskError) -> ToolError {
    ToolError::new(format!("This needs the user's answer, but {error}"))
}

/// The server's icon for dark backgrounds, carried in the binary.
const TODO_ICON: &[u8] = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M3 8l3 3 7-7" stroke="#fff" fill="none"/></svg>"##;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    // What hosts show beside the server in their list (sent to clients of 2025-11-25 and later).
    Server::new("todo", env!("CARGO_PKG_VERSION"))
        .description("A to-do list that asks before it deletes")
        .website_url("https://example.com/todo")
        .icon(
            Icon::new("https://example.com/icons/todo.png")
                .mime_type("image/png")
                .sizes(["48x48"]),
        )
        .icon(
            Icon::data("image/svg+xml", TODO_ICON)
                .sizes(["any"])
                .theme(IconTheme::Dark),
        )
        .state(Tasks::default())
        .run()
        .await
}
