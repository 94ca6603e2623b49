//! Tools as values: a [`Tool`] built at run time (its name, schema and handler given as data,
//! not through the attribute [`macro@crate::tool`]) and the definitions a server lists
//! ([`ToolDefinition`], [`ToolAnnotations`], [`ListToolsResult`]), as read by the lint and tests;
//! [`Tools`], the handle that adds and removes tools while a server serves
//! (`Server::tools`).

pub use crate::registry::Tool;
pub use crate::server::Tools;
pub use crate::types::{ListToolsResult, ToolAnnotations, ToolDefinition};
