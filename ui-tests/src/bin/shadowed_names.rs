//! Generated code uses absolute paths, so names the user shadows around a tool do not break it.
//! (`str` is not shadowed: schemars' own derive, which the inline style uses, names it bare.)

#![allow(dead_code, non_camel_case_types)]

use ::mcp_toolbelt::{Json, tool};

type Result<T> = ::core::result::Result<T, ::std::string::String>;
struct Option;
struct Some;
struct None;
struct Ok;
struct Err;
struct Box;
struct Vec;
struct String;
struct Clone;
struct Send;
struct Future;
struct Value;
struct Context;
struct BoxFuture;
struct CallToolResult;
struct ToolRegistration;
struct IntoToolResult;
struct Deserialize;
struct JsonSchema;
mod core {}
mod std {}
mod serde {}
mod schemars {}
mod serde_json {}
mod inventory {}
mod mcp_toolbelt {}
fn file() {}
fn line() {}
fn input_schema() {}
fn assert_send() {}

/// The tools' own types, derived where the standard names are not shadowed.
mod types {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, JsonSchema)]
    pub(crate) struct Args {
        pub(crate) query: String,
    }

    #[derive(Serialize, JsonSchema)]
    pub(crate) struct Answer {
        pub(crate) text: String,
    }
}

/// Search with shadowed names around
#[tool]
async fn search(args: types::Args) -> Result<Json<types::Answer>> {
    ::core::result::Result::Ok(Json(types::Answer { text: args.query }))
}

/// Inline parameters with shadowed names around
#[tool(annotations(read_only))]
async fn add(
    /// Left operand
    left: i64,
    /// Right operand
    right: ::core::option::Option<i64>,
    context: &::mcp_toolbelt::Context,
) -> ::std::string::String {
    let _ = context.request_id();
    (left + right.unwrap_or_default()).to_string()
}

/// No arguments
#[tool]
fn ping() -> &'static str {
    "pong"
}

fn main() {}
