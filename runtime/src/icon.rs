//! Icons (SEP-973): an [`Icon`] a client may show beside a tool, resource, resource template,
//! prompt or the server itself. They are sent to clients of 2025-11-25 and later (the modern
//! era included), and left out for older ones, as are the server's
//! [`description`](crate::Server::description) and [`website_url`](crate::Server::website_url).
//!
//! On the attributes, `icons(src = "https://…", mime_type = "image/png", sizes = ["48x48"],
//! theme = "dark")` (repeat the key for several), or `icons(data = include_bytes!("icon.png"),
//! mime_type = "image/png")` for an image carried in the binary; literal values clients would
//! reject are compile errors. At run time, [`Tool::icon`](crate::tool::Tool::icon) and
//! [`Server::icon`](crate::Server::icon) take an [`Icon`]; `--lint` checks those (the `mcp`
//! profile's `icon-source` and `icon-format` rules): an `https:` URL or a `data:` URI (clients
//! reject every other scheme), an image type hosts show, sizes `WxH` or `any`.
//!
//! ```
//! use mcp_toolbelt::icon::{Icon, IconTheme};
//! use mcp_toolbelt::{Server, tool};
//!
//! /// Paint a shape
//! #[tool(
//!     icons(src = "https://example.com/paint.png", mime_type = "image/png", sizes = ["48x48"]),
//!     icons(src = "https://example.com/paint-dark.svg", sizes = ["any"], theme = "dark")
//! )]
//! async fn paint() -> String {
//!     "painted".into()
//! }
//!
//! let server = Server::new("painter", "1.0.0")
//!     .description("Paints shapes")
//!     .website_url("https://example.com/painter")
//!     .icon(Icon::new("https://example.com/painter.png").mime_type("image/png").sizes(["48x48"]))
//!     .icon(Icon::data("image/svg+xml", b"<svg/>").sizes(["any"]).theme(IconTheme::Dark));
//! # drop(server);
//! ```

pub use crate::types::{Icon, IconTheme};
