//! A tool is a free fn: methods (`self`) are rejected.

use mcp_toolbelt::tool;

struct Catalog;

impl Catalog {
    /// Search the catalog
    #[tool]
    async fn search(
        &self,
        /// The query
        query: String,
    ) -> String {
        query
    }
}

fn main() {}
