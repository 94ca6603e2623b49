//! Resources: what [`#[resource]`](macro@crate::resource) serves, and what a resource fn
//! returns: a [`ResourceBody`] (text or bytes), anything [`IntoResourceBody`], or a
//! [`ResourceError`] the client gets as a JSON-RPC error.
//!
//! `#[resource]` serves a `static`/`const` of text or bytes, or an fn, as a resource
//! (`resources/list`, `resources/read`, `resources/templates/list`, in both eras; the `resources`
//! capability appears only when there are some). An fn's URI may be an RFC 6570 level-1 template
//! whose variables are its parameters, checked at compile time:
//!
//! ```
//! use mcp_toolbelt::resource::ResourceError;
//!
//! /// The style guide
//! #[mcp_toolbelt::resource(uri = "docs://style-guide", mime_type = "text/markdown")]
//! static STYLE_GUIDE: &str = "# Style\n\nShort sentences.";
//!
//! /// A page of the manual
//! #[mcp_toolbelt::resource(uri = "docs://pages/{page}")]
//! async fn page(page: u32) -> Result<String, ResourceError> {
//!     if page == 0 { Err(ResourceError::NotFound(None)) } else { Ok(format!("page {page}")) }
//! }
//!
//! /// One chapter of the book
//! #[mcp_toolbelt::resource(uri = "docs://book/{chapter}", mime_type = "text/markdown")]
//! async fn book_chapter(chapter: u32) -> Option<String> {
//!     (chapter <= 12).then(|| format!("# Chapter {chapter}")) // `None`: "Resource not found"
//! }
//! ```
//!
//! A `static` or `const` is `&str` (`include_str!`) or `&[u8]` (`include_bytes!`, sent as a
//! base64 `blob`). An fn returns text, bytes, an `Option` of them (`None`: the URI names nothing)
//! or a `Result` (`Err(ResourceError::NotFound(_))` is `-32602` "Resource not found" with
//! its reason; any other error is `-32603` with its text). An unknown URI, a template value its
//! parameter's type refuses, and an fn's `None` are error `-32602` with the URI in `data`
//! (SEP-2164). Two resources of one URI stop the server at start-up, naming both places.
//!
//! Resources are fixed once the server starts: there are no subscriptions
//! (`resources/subscribe`) and no resources added at run time. A resource marked `app` is an MCP
//! Apps view, shown by the host beside a tool's result: see [`apps`](crate::apps).

pub use crate::registry::{IntoResourceBody, ReadRequest, Resource, ResourceBody, ResourceError};
pub use crate::server::Resources;
