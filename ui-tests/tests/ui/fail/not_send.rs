//! Tools run on a multi-threaded server: their futures must be `Send`.

use std::rc::Rc;

use mcp_toolbelt::{Context, tool};

/// Holds an `Rc` across an await
#[tool]
async fn not_send() -> String {
    let shared = Rc::new(String::from("shared"));
    tokio::task::yield_now().await;
    (*shared).clone()
}

/// The same, borrowing the context (its adapter owns the context in an `async` block)
#[tool]
async fn not_send_with_context(context: &Context) -> String {
    let shared = Rc::new(String::from("shared"));
    tokio::task::yield_now().await;
    context.progress(1.0, None, None);
    (*shared).clone()
}

fn main() {}
