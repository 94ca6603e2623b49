//! Tools run on a multi-threaded server: their futures must be `Send`.

use std::rc::Rc;

use mcp_toolbelt::tool;

/// Holds an `Rc` across an await
#[tool]
async fn not_send() -> String {
    let shared = Rc::new(String::from("shared"));
    tokio::task::yield_now().await;
    (*shared).clone()
}

fn main() {}
