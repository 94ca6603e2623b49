//! A resource's URI is checked at the literal: a scheme, no spaces, a level-1 template.

use mcp_toolbelt::resource;

#[resource(uri = "no scheme here")]
static NO_SCHEME: &str = "a";

#[resource(uri = "docs://manual/{chapter")]
async fn unclosed(chapter: String) -> String {
    chapter
}

#[resource(uri = "docs://manual/{+chapter}")]
async fn level_two(chapter: String) -> String {
    chapter
}

#[resource(uri = "https://example.com/view.html", app)]
static NOT_UI: &str = "<p>view</p>";

fn main() {}
