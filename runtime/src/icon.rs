//! Icons (SEP-973): an [`Icon`] a client may show beside a tool, resource, resource template,
//! prompt or the server itself.
//!
//! On the attributes, `icons(src = "https://…", mime_type = "image/png", sizes = ["48x48"],
//! theme = "dark")` (repeat the key for several), or `icons(data = include_bytes!("icon.png"),
//! mime_type = "image/png")` for an image carried in the binary; on a server,
//! `Server::icon`.

pub use crate::types::{Icon, IconTheme};
