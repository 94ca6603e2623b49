//! `icons(…)`: one image per icon, from an `https:` URL, a `data:` URI or bytes; clients reject
//! every other scheme.

use mcp_toolbelt::{resource, tool};

/// Plain HTTP
#[tool(icons(src = "http://example.com/icon.png"))]
async fn plain_http() -> String {
    String::new()
}

/// A script
#[tool(icons(src = "javascript:alert(1)"), icons(src = "file:///etc/icon.png"))]
async fn script() -> String {
    String::new()
}

/// A relative path
#[tool(icons(src = "icons/paint.png"))]
async fn relative() -> String {
    String::new()
}

/// A `data:` URI that is no image
#[tool(icons(src = "data:text/html;base64,PGgxPg=="))]
async fn html() -> String {
    String::new()
}

/// No image at all
#[tool(icons(mime_type = "image/png"))]
async fn no_image() -> String {
    String::new()
}

/// Two images
#[tool(icons(src = "https://example.com/icon.png", data = include_bytes!("../icon.svg"), mime_type = "image/svg+xml"))]
async fn two_images() -> String {
    String::new()
}

/// Bytes without their type
#[tool(icons(data = include_bytes!("../icon.svg")))]
async fn untyped_bytes() -> String {
    String::new()
}

/// A URL as `data`
#[tool(icons(data = "https://example.com/icon.png", mime_type = "image/png"))]
async fn url_as_data() -> String {
    String::new()
}

/// A bare key
#[tool(icons)]
async fn bare() -> String {
    String::new()
}

/// A resource's icon is checked the same way
#[resource(uri = "docs://readme", icons(src = "ftp://example.com/icon.png"))]
static README: &str = "read me";

fn main() {}
