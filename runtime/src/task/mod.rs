//! Long-running tools as tasks: the Tasks extension (`io.modelcontextprotocol/tasks`).
//!
//! A tool opts in with one key: `#[tool(task)]` (it may run as a task) or
//! `#[tool(task = "required")]` (it always does). Its fn does not change.

mod support;

pub use support::TaskSupport;
