//! App state is shared by every call: by value or `&State<T>`, never `&mut`.

use mcp_toolbelt::{State, tool};

struct Counter(u64);

/// Count the calls
#[tool]
async fn count(counter: &mut State<Counter>) -> String {
    counter.0.to_string()
}

fn main() {}
