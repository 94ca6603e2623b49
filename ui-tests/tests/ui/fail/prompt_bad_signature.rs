//! `#[prompt]` checks the signature as `#[tool]` does, each error at the user's token: no
//! `where` clause, no `impl Trait` inside a parameter or the return type, no `Self` (an fn in
//! an `impl` block), no `#[cfg]` on an argument.

use std::str::FromStr;

use mcp_toolbelt::prompt;
use mcp_toolbelt::prompt::IntoPromptResult;

/// A `where` clause
#[prompt]
async fn bounded() -> String
where
    String: Clone,
{
    String::new()
}

/// `impl Trait` inside a parameter
#[prompt]
async fn nested_impl(
    /// The value
    value: Option<impl FromStr>,
) -> String {
    let _ = value;
    String::new()
}

/// `impl Trait` inside the return type
#[prompt]
async fn nested_return() -> Result<impl IntoPromptResult, String> {
    Ok(String::new())
}

struct Notes;

impl Notes {
    /// An associated fn
    #[prompt]
    async fn associated(
        /// The notes
        notes: Option<Self>,
    ) -> String {
        let _ = notes;
        String::new()
    }
}

/// A `#[cfg]` argument
#[prompt]
async fn conditional(
    /// Only sometimes
    #[cfg(unix)]
    value: String,
) -> String {
    String::new()
}

fn main() {}
