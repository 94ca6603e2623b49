//! Not public API: what `#[tool]`-generated code uses. It may change in any release.
//!
//! Names here show up in compile errors of user code, so they are named for people.

pub use futures_util::future::BoxFuture;
pub use inventory;
pub use schemars;
pub use serde;
pub use serde_json;

pub use crate::context::Context;
pub use crate::registry::ToolRegistration;
pub use crate::result::{CallToolResult, IntoToolResult};

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

/// The type of a `#[tool]` fn's argument struct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the arguments of a `#[tool]` fn",
    label = "this argument type must derive `serde::Deserialize` and `schemars::JsonSchema`",
    note = "add `#[derive(serde::Deserialize, schemars::JsonSchema)]` to `{Self}` (schemars 1.x: `schemars = \"1\"` in Cargo.toml)",
    note = "or document each parameter with `///` to take them inline"
)]
pub trait ToolArguments: DeserializeOwned + schemars::JsonSchema {}

impl<T: DeserializeOwned + schemars::JsonSchema> ToolArguments for T {}

/// The portable input schema of argument type `T`.
#[must_use]
pub fn input_schema<T: ToolArguments>() -> Value {
    crate::schema::input_schema::<T>()
}

/// The input schema of a tool without arguments.
#[must_use]
pub fn empty_input_schema() -> Value {
    crate::schema::empty_input_schema()
}

/// Turns validated arguments into `T`; a failure (rare after validation: a type serde checks
/// more strictly than its schema says) is an `isError` result naming the field, as validation
/// failures do: `<path>: <message>`.
#[allow(
    clippy::result_large_err,
    reason = "the error is the tool's result, returned at once"
)]
pub fn parse_arguments<T: DeserializeOwned>(
    tool: &str,
    arguments: Value,
) -> Result<T, CallToolResult> {
    // The common case at full speed; only a failure is parsed again to learn its path
    // (tracking the path on every call costs a third of a small call).
    if let Ok(parsed) = T::deserialize(&arguments) {
        return Ok(parsed);
    }
    serde_path_to_error::deserialize(&arguments).map_err(|error| {
        let path = error
            .path()
            .iter()
            .map(|segment| match segment {
                Segment::Seq { index } => index.to_string(),
                Segment::Map { key } => key.clone(),
                Segment::Enum { variant } => variant.clone(),
                Segment::Unknown => "?".to_owned(),
            })
            .collect::<Vec<_>>();
        let path = if path.is_empty() {
            "(root)".to_owned()
        } else {
            path.join(".")
        };
        CallToolResult::error(format!(
            "Input validation error: Invalid arguments for tool {tool}: {path}: {}",
            error.inner()
        ))
    })
}

/// Checks, at the user's fn, that its future can run on a multi-threaded server.
pub fn assert_send<F: Future + Send>(future: F) -> F {
    future
}
