//! A template variable's completer has the one shape every completer has, `async fn(&str,
//! &CompletionContext) -> impl IntoCompletion`: one of another shape (a parameter missing, a value
//! owned where it is borrowed) is told that shape at its path, not how to call it.

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::resource;

async fn no_context(partial: &str) -> Vec<String> {
    vec![partial.to_owned()]
}

async fn owned_partial(partial: String, _context: &CompletionContext) -> Vec<String> {
    vec![partial]
}

/// One chapter of one book
#[resource(
    uri = "books://{book}/{chapter}",
    complete(book = no_context, chapter = owned_partial)
)]
async fn chapter(book: String, chapter: u32) -> String {
    format!("{book} {chapter}")
}

fn main() {}
