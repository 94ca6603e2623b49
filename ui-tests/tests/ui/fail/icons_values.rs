//! `icons(…)`: an image type hosts show, sizes `WxH` or `any`, theme `light` or `dark`, and only
//! the keys an icon has.

use mcp_toolbelt::{resource, tool};

/// Not an image type
#[tool(icons(src = "https://example.com/icon", mime_type = "text/plain"))]
async fn text_type() -> String {
    String::new()
}

/// Sizes as they are not written
#[tool(icons(src = "https://example.com/icon.png", sizes = ["48", "48X48", "0x48", "any", "48x48"]))]
async fn bad_sizes() -> String {
    String::new()
}

/// One size, not a list
#[tool(icons(src = "https://example.com/icon.png", sizes = "48x48"))]
async fn size_not_list() -> String {
    String::new()
}

/// No sizes
#[tool(icons(src = "https://example.com/icon.png", sizes = []))]
async fn no_sizes() -> String {
    String::new()
}

/// An unknown theme
#[tool(icons(src = "https://example.com/icon.png", theme = "sepia"))]
async fn sepia() -> String {
    String::new()
}

/// A misspelt key
#[tool(icons(src = "https://example.com/icon.png", mimetype = "image/png"))]
async fn misspelt() -> String {
    String::new()
}

/// A resource's icon values are checked the same way
#[resource(uri = "docs://guide", icons(src = "https://example.com/guide.png", mime_type = "image/tiff"))]
static GUIDE: &str = "guide";

fn main() {}
