//! MCP Apps (the `io.modelcontextprotocol/ui` extension): the constants a server needs beside
//! `#[resource(app)]` and `#[tool(ui = …)]`, for example to declare the extension by hand or to
//! check a view's MIME type in a test.
//!
//! ```
//! assert_eq!(mcp_toolbelt::apps::VIEW_MIME_TYPE, "text/html;profile=mcp-app");
//! ```

pub use crate::registry::apps::{EXTENSION_ID, VIEW_MIME_TYPE};
