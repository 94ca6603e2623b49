//! Tools as values: a [`Tool`] built at run time (its name, schema and handler given as data,
//! not through the attribute [`macro@crate::tool`]) and the definitions a server lists
//! ([`ToolDefinition`], [`ToolAnnotations`], [`ListToolsResult`]), as read by the lint and tests.
//!
//! # Tools added and removed while serving
//!
//! Build a [`Tool::new(name, description, input_schema, handler)`](Tool::new), take the server's
//! handle to its tools before serving (`Server::tools`, a `Tools` you can clone and keep), and
//! call `add` or `remove` on it while the server runs. Connected clients are told with
//! `notifications/tools/list_changed`: legacy clients on stdio or their session's GET stream,
//! 2026-07-28 clients on the `subscriptions/listen` stream they opened. A run-time tool's
//! schema is checked as a `#[tool]`'s is (an object schema, `x-mcp-header` marks the spec
//! allows) and linted as served; its handler gets the validated arguments and the call's
//! [`Context`](crate::Context), and reaches app state through
//! [`Context::state`](crate::Context::state).

pub use crate::registry::Tool;
pub use crate::types::{ListToolsResult, ToolAnnotations, ToolDefinition};
