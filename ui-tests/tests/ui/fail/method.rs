//! A tool is a free fn: methods (`self`) are rejected, in an `impl` and as a trait's default
//! method, and so is an associated fn whose signature names `Self`.

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

impl Catalog {
    /// Make a catalog
    #[tool]
    fn create(
        /// Its name
        name: String,
    ) -> Result<Self, String> {
        Err(name)
    }
}

trait Searcher {
    /// Search, by default
    #[tool]
    async fn search_by_default(
        &self,
        /// The query
        query: String,
    ) -> String {
        query
    }
}

fn main() {}
