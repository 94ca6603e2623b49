//! A misspelled or unknown key, a completer for an argument that does not exist, and one on a
//! tool's parameter.

use mcp_toolbelt::prompt;

/// Misspelled
#[prompt(titel = "Greeting")]
async fn misspelled() -> &'static str {
    "hello"
}

async fn names(_: &str, _: &mcp_toolbelt::completion::CompletionContext) -> Vec<String> {
    Vec::new()
}

/// Completes an argument it does not have
#[prompt(complete(nmae = names))]
async fn greet(
    /// Who
    name: String,
) -> String {
    name
}

/// Completes a template variable it does not have
#[mcp_toolbelt::resource(uri = "notes://{id}", complete(key = names))]
async fn note(id: String) -> String {
    id
}

/// A tool's arguments do not complete
#[mcp_toolbelt::tool]
async fn search(
    /// What to look for
    #[complete(names)]
    query: String,
) -> String {
    query
}

fn main() {}
