//! A completer is `async fn(&str, &CompletionContext) -> impl IntoCompletion`: a plain fn, other
//! parameters, or a return that is no completion are reported at the completer's path.

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::prompt;

fn not_async(_partial: &str, _context: &CompletionContext) -> Vec<String> {
    Vec::new()
}

async fn wrong_parameters(_partial: String) -> Vec<String> {
    Vec::new()
}

async fn a_number(_partial: &str, _context: &CompletionContext) -> u32 {
    0
}

/// Completers of the wrong shape
#[prompt]
async fn badly_completed(
    /// One
    #[complete(not_async)]
    one: String,
    /// Two
    #[complete(wrong_parameters)]
    two: String,
    /// Three
    #[complete(a_number)]
    three: String,
) -> String {
    format!("{one}{two}{three}")
}

fn main() {}
