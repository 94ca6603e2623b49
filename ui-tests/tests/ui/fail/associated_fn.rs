//! A fn inside an `impl` block is not a free fn, even without `self`.

use mcp_toolbelt::tool;

struct Catalog;

impl Catalog {
    /// Search the catalog
    #[tool]
    async fn search(
        /// The query
        query: String,
    ) -> String {
        query
    }
}

fn main() {}
