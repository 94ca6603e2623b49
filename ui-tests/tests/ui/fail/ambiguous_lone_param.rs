//! A lone undocumented parameter of a standard type could be a property or a (wrong) argument
//! struct: the macro asks which.

use mcp_toolbelt::tool;

/// Echo the message back
#[tool]
async fn echo(message: String) -> String {
    message
}

/// Count to a number
#[tool]
async fn count(to: Option<u32>) -> String {
    format!("{to:?}")
}

fn main() {}
