//! Long-running tools as tasks: the Tasks extension (`io.modelcontextprotocol/tasks`).
//!
//! A tool opts in with one key: `#[tool(task)]` (it may run as a task) or
//! `#[tool(task = "required")]` (it always does). Its fn does not change.

mod engine;
mod store;
mod support;
mod wire;

pub(crate) use engine::{Finished, TaskSettings, Tasks, extension_missing, negotiated};
pub use store::{MemoryTaskStore, TaskRecord, TaskStatus, TaskStore, TaskStoreError};
pub use support::TaskSupport;
