//! Every variable of a resource's URI template is a parameter of its fn, and every parameter a
//! variable; a `static` has no template.

use mcp_toolbelt::resource;

#[resource(uri = "docs://manual/{chapter}/{section}")]
async fn missing_section(chapter: String) -> String {
    chapter
}

#[resource(uri = "docs://manual/{chapter}")]
async fn extra_parameter(chapter: String, page: u32) -> String {
    format!("{chapter} {page}")
}

#[resource(uri = "docs://manual/{chapter}")]
static TEMPLATED_STATIC: &str = "fixed";

fn main() {}
