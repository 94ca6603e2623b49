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
//! A resource marked `app` is an MCP Apps view, shown by the host beside a tool's result: see
//! [`apps`](crate::apps).
//!
//! # Subscriptions, and resources that change while serving
//!
//! Clients may subscribe to a resource: a legacy client with `resources/subscribe` (per
//! connection: the stdio client, an HTTP session, told on its GET stream), a 2026-07-28 client
//! with `resourceSubscriptions` on its `subscriptions/listen` stream. A subscription names a URI
//! some resource serves, or a template as listed (then every URI it matches); one that names
//! nothing served is refused (`-32002` for a legacy client; left out of a 2026-07-28
//! acknowledgement). The `resources` capability says so (`subscribe`, `listChanged`).
//!
//! When contents change, say so on the server's [`Resources`] handle
//! ([`Server::resources`](crate::Server::resources), `Clone`: give a tool one through app
//! state, keep one in a task of your own): [`Resources::notify_updated`] sends
//! `notifications/resources/updated` to the clients subscribed to that URI, and only to them.
//! The same handle adds and removes resources and templates built at run time ([`Resource`]),
//! which clients hear of as `notifications/resources/list_changed`; `resources/list` pages and
//! their 2026-07-28 caching hints follow the set as it is at each request. The repository's
//! `examples/notes` serves each note so: a template built at run time over its database (app
//! state a `#[resource]` fn could not reach), and `notify_updated` from the tools that change a
//! note.
//!
//! ```standalone_crate
//! // A crate of its own: the tool it defines takes a state other examples' servers lack.
//! use mcp_toolbelt::resource::{Resource, Resources};
//! use mcp_toolbelt::{Server, State};
//!
//! /// Renames the board; subscribers of `board://title` are told it changed.
//! #[mcp_toolbelt::tool]
//! async fn rename_board(title: String, resources: State<Resources>) -> String {
//!     // …store `title`…
//!     resources.notify_updated("board://title");
//!     format!("renamed to {title}")
//! }
//!
//! # fn main() -> Result<(), mcp_toolbelt::error::RegistryError> {
//! let server = Server::new("board", "1.0.0");
//! let resources = server.resources();
//! resources.add(
//!     Resource::new("board://title", "title", |_request| async { "The board" })?
//!         .mime_type("text/plain"),
//! )?;
//! let server = server.state(resources.clone()); // what `rename_board` takes
//! assert_eq!(resources.list()[0].uri.as_deref(), Some("board://title"));
//! assert!(resources.remove("board://title"));
//! # drop(server);
//! # Ok(())
//! # }
//! ```
//!
//! A listener that falls more than a thousand changes behind (a server announcing faster than
//! a client reads) is told that every list it hears changed and that every URI it subscribed to
//! was updated, rather than lose an update without a word. A template subscribed to names no
//! URI to tell: a legacy connection (whose capabilities declare the resource list changing) is
//! told `notifications/resources/list_changed`; a `subscriptions/listen` stream that subscribed
//! to a template ends instead, with its result, so that its client listens again and reads
//! what it follows anew.

pub use crate::registry::{IntoResourceBody, ReadRequest, Resource, ResourceBody, ResourceError};
pub use crate::server::Resources;
pub use crate::types::ResourceDefinition;
