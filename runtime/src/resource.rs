//! Resources: what [`#[resource]`](macro@crate::resource) serves, and what a resource fn
//! returns: a [`ResourceBody`] (text or bytes), anything [`IntoResourceBody`], or a
//! [`ResourceError`] the client gets as a JSON-RPC error.
//!
//! `#[resource]` serves a `static`/`const` of text or bytes, or an fn, as a resource
//! (`resources/list`, `resources/read`, `resources/templates/list`, in both eras; the `resources`
//! capability appears only when there are some). An fn's URI may be an RFC 6570 level-1 template
//! whose variables are its parameters, checked at compile time; besides them an fn may take the
//! request's [`Context`](crate::Context) and app state ([`State<T>`](crate::State)), as a tool
//! does (below):
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
//! # Resources over app state
//!
//! A resource fn reaches the app's data as a tool does: a `State<T>` parameter (the value given
//! to [`Server::state`](crate::Server::state)) and, if it needs the request, a `Context`, in any
//! position; the template's variables are the other parameters. A `State<T>` the server was
//! not given stops it at start-up, naming the resource and its place, never a failed read.
//!
//! ```standalone_crate
//! // A crate of its own: its resource takes a state other examples' servers lack.
//! use std::collections::HashMap;
//!
//! use mcp_toolbelt::{Context, Server, State};
//!
//! /// The issues, by id.
//! struct Db(HashMap<u32, String>);
//!
//! /// One issue of the tracker
//! #[mcp_toolbelt::resource(uri = "tracker://issues/{id}", mime_type = "text/plain")]
//! async fn issue(id: u32, db: State<Db>, context: &Context) -> Option<String> {
//!     let title = db.0.get(&id)?; // `None`: "Resource not found"
//!     let caller = context.auth().map_or("anyone", |auth| auth.client_id.as_str());
//!     Some(format!("#{id} {title} (for {caller})"))
//! }
//!
//! # fn main() {
//! let db = Db(HashMap::from([(1, "Crash on start".to_owned())]));
//! let server = Server::new("tracker", "1.0.0").state(db);
//! assert!(server.check().is_ok()); // without `.state(db)`: "resource `tracker://issues/{id}` … takes `State<…Db>`"
//! # }
//! ```
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
//! When contents change, say so on the server's [`Resources`] handle: a tool (a prompt, a
//! resource fn) has it from its [`Context::resources`](crate::Context::resources), or as a
//! `State<Resources>` parameter, with nothing to register; code of your own keeps
//! [`Server::resources`](crate::Server::resources) (`Clone`, one set for every handle).
//! [`Resources::notify_updated`] sends `notifications/resources/updated` to the clients
//! subscribed to that URI, and only to them. The same handle adds and removes resources and
//! templates built at run time ([`Resource`]), which clients hear of as
//! `notifications/resources/list_changed`; `resources/list` pages and their 2026-07-28 caching
//! hints follow the set as it is at each request. The repository's `examples/notes` serves each
//! note so: a `#[resource]` fn over its database (app state), and `notify_updated` from the
//! tools that change a note.
//!
//! ```standalone_crate
//! // A crate of its own: the tools it defines change a resource other examples lack.
//! use mcp_toolbelt::resource::{Resource, Resources};
//! use mcp_toolbelt::{Context, Server, State};
//!
//! /// Renames the board; subscribers of `board://title` are told it changed.
//! #[mcp_toolbelt::tool]
//! async fn rename_board(title: String, context: &Context) -> String {
//!     // …store `title`…
//!     context.resources().notify_updated("board://title");
//!     format!("renamed to {title}")
//! }
//!
//! /// Clears the board's title; the handle taken as app state, which the server holds itself.
//! #[mcp_toolbelt::tool]
//! async fn clear_board(resources: State<Resources>) -> &'static str {
//!     resources.notify_updated("board://title");
//!     "cleared"
//! }
//!
//! # fn main() -> Result<(), mcp_toolbelt::error::RegistryError> {
//! let server = Server::new("board", "1.0.0");
//! let resources = server.resources();
//! resources.add(
//!     Resource::new("board://title", "title", |_request| async { "The board" })?
//!         .mime_type("text/plain"),
//! )?;
//! assert!(server.check().is_ok()); // nothing to register for `clear_board`'s `State<Resources>`
//! assert_eq!(resources.list()[0].uri.as_deref(), Some("board://title"));
//! assert!(resources.remove("board://title"));
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
