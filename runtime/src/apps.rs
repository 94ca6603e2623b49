//! MCP Apps (the `io.modelcontextprotocol/ui` extension, stable 2026-01-26): tools with a view
//! the host renders beside their result, and the constants a server needs beside
//! `#[resource(app)]` and `#[tool(ui = …)]` (to declare the extension by hand, or to check a
//! view's MIME type in a test).
//!
//! ```
//! use mcp_toolbelt::tool;
//!
//! /// The albums view
//! #[mcp_toolbelt::resource(uri = "ui://apps-docs/albums.html", app(prefers_border))]
//! static APPS_DOCS_ALBUMS_VIEW: &str = "<!doctype html><p>albums</p>";
//!
//! /// Show the albums
//! #[tool(name = "apps-docs-show-albums", ui = "ui://apps-docs/albums.html", visibility(model, app))]
//! async fn apps_docs_show_albums() -> &'static str {
//!     "Kind of Blue; A Love Supreme" // the content hosts without a view show
//! }
//!
//! assert_eq!(mcp_toolbelt::apps::VIEW_MIME_TYPE, "text/html;profile=mcp-app");
//! ```
//!
//! `app` makes the resource a view: MIME type [`VIEW_MIME_TYPE`] and `_meta.ui`
//! (`csp(connect_domains = […], resource_domains, frame_domains, base_uri_domains)`,
//! `permissions(camera, microphone, geolocation, clipboard_write)`, `domain = "…"`,
//! `prefers_border`). A tool names its view with `ui = "ui://…"` (`_meta.ui.resourceUri`, and the
//! deprecated `_meta["ui/resourceUri"]` the official helpers still write) and its callers with
//! `visibility(model, app)`; `visibility(app)` is a backend tool only a view's buttons call. The
//! server then advertises the extension ([`EXTENSION_ID`] in `capabilities.extensions`, on
//! `initialize` and `server/discover`). Every tool is listed to every client, so a tool with a
//! view must return `content` that stands alone for hosts without one
//! ([`Context::client_supports_apps`](crate::Context::client_supports_apps) says whether the
//! client declared the extension). A tool naming a view that is not a registered `app` resource
//! stops the server at start-up, naming both places.
//!
//! # The view
//!
//! The view itself is yours: the library serves its HTML as it is. A view a real host can live
//! with speaks the host bridge (JSON-RPC over `postMessage`, with the parent window only):
//! `ui/initialize` declaring its `appCapabilities` (`availableDisplayModes`), then
//! `ui/notifications/initialized`; it answers the host's requests (`ping` and
//! `ui/resource-teardown` with `{}`, which a host waits for before it removes the frame; any
//! other with `-32601`), tells them from replies to its own requests by `method` (ids are per
//! sender), sends `ui/notifications/size-changed` when its size changes, and shows an error
//! result's message. The repository's `examples/apps` views do it in some 80 lines of
//! dependency-free script each; the official `App` of `@modelcontextprotocol/ext-apps` does it
//! too, but must be bundled into the HTML (about 500 kB per view). Its tests render both views
//! in headless Chromium inside the official host bridge (`AppBridge`), in both eras, behind the
//! spec's cross-origin sandbox proxy, with real clicks.

pub use crate::registry::apps::{EXTENSION_ID, VIEW_MIME_TYPE};
