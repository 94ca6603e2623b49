//! A hand-written input schema (`#[tool(input_schema = path)]`) that does not describe an
//! object keeps the server from starting, naming the tool and its place. A test binary of its
//! own, since every server in a binary serves every tool in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::{Server, error::RegistryError, tool};
use serde_json::{Value, json};

fn text_schema() -> Value {
    json!({"type": "string"})
}

/// The line of `#[tool]` on `shout`.
const SHOUT: u32 = line!() + 3;

/// Shout a message
#[tool(input_schema = text_schema)]
async fn shout(
    /// The message
    message: String,
) -> String {
    message.to_uppercase()
}

#[test]
fn a_hand_written_schema_that_is_not_an_object_is_a_start_up_error() {
    let Err(mcp_toolbelt::Error::Registry(error)) = Server::new("loud", "0.0.0").check() else {
        panic!("the tools cannot be served: a registry error expected");
    };
    let RegistryError::InvalidTool {
        name,
        location,
        problem,
        ..
    } = error
    else {
        panic!("{error:?}");
    };
    assert_eq!(
        (name, location, problem),
        (
            "shout".to_owned(),
            Some(format!("{}:{SHOUT}", file!())),
            "its input schema must describe a JSON object (`\"type\": \"object\"` at its \
                      root), but it is {\"type\":\"string\"}; take an argument struct, or inline \
                      parameters (or return an object schema from the fn `input_schema = …` names)"
                .to_owned(),
        )
    );
}
