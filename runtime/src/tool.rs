//! Tools as values: a [`Tool`] built at run time (its name, schema and handler given as data,
//! not through the attribute [`macro@crate::tool`]) and the definitions a server lists
//! ([`ToolDefinition`], [`ToolAnnotations`], [`ListToolsResult`]), as read by the lint and tests;
//! [`Tools`], the handle that adds and removes tools while a server serves
//! ([`Server::tools`](crate::Server::tools)).
//!
//! # Tools added and removed while serving
//!
//! Build a [`Tool::new(name, description, input_schema, handler)`](Tool::new), take the server's
//! handle to its tools before serving ([`Server::tools`](crate::Server::tools): clones of a
//! [`Tools`] are handles to the same set), and call [`add`](Tools::add) or
//! [`remove`](Tools::remove) on it while the server runs. Connected clients are told with
//! `notifications/tools/list_changed`: legacy clients on stdio or their session's GET stream,
//! 2026-07-28 clients on the `subscriptions/listen` stream they opened. A run-time tool's
//! schema is checked as a `#[tool]`'s is (an object schema, `x-mcp-header` marks the spec
//! allows) and linted as served; its handler gets the validated arguments and the call's
//! [`Context`](crate::Context), and reaches app state through
//! [`Context::state`](crate::Context::state).
//!
//! ```
//! use mcp_toolbelt::tool::Tool;
//! use mcp_toolbelt::{CallToolResult, Server};
//! use serde_json::json;
//!
//! # fn main() -> Result<(), mcp_toolbelt::error::RegistryError> {
//! let server = Server::new("plugins", "1.0.0");
//! let tools = server.tools(); // keep it: it still reaches the tools once `server` serves
//! let shout = Tool::new(
//!     "tool-docs-shout",
//!     "Say it loudly",
//!     json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
//!     |arguments, _context| async move {
//!         CallToolResult::text(arguments["text"].as_str().unwrap_or_default().to_uppercase())
//!     },
//! )?;
//! tools.add(shout)?;
//! assert!(tools.list().tools.iter().any(|tool| tool.name == "tool-docs-shout"));
//! assert!(tools.remove("tool-docs-shout"));
//! # Ok(())
//! # }
//! ```

pub use crate::registry::Tool;
pub use crate::server::Tools;
pub use crate::types::{ListToolsResult, ToolAnnotations, ToolDefinition, ToolExecution};
