//! The tools a server serves: every `#[tool]` linked into the binary (collected once through
//! `inventory`, [`collected`]), plus tools added at run time ([`ToolSet`]).

mod set;
mod tool;

use std::fmt;
use std::sync::OnceLock;

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::context::Context;
use crate::result::CallToolResult;

pub(crate) use set::ToolSet;
pub use tool::Tool;

/// What `#[tool]` submits to `inventory` for one fn. Not public API: generated code builds it.
#[doc(hidden)]
pub struct ToolRegistration {
    /// The MCP tool name.
    pub name: &'static str,
    /// The display title.
    pub title: Option<&'static str>,
    /// The description the model reads.
    pub description: &'static str,
    /// The four MCP hints, `None` where the attribute left them out.
    pub read_only: Option<bool>,
    /// See `read_only`.
    pub destructive: Option<bool>,
    /// See `read_only`.
    pub idempotent: Option<bool>,
    /// See `read_only`.
    pub open_world: Option<bool>,
    /// The input schema, before it is made portable.
    pub input_schema: fn() -> Value,
    /// The output schema of the return type, if any.
    pub output_schema: fn() -> Option<Value>,
    /// Deserializes the (validated) arguments and runs the user's fn.
    pub call: fn(Value, Context) -> BoxFuture<'static, CallToolResult>,
    /// Where the fn is, for error messages.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
}

inventory::collect!(ToolRegistration);

/// Every `#[tool]` in the binary, built once per process, sorted by name.
pub(crate) fn collected() -> Result<&'static [Tool], RegistryError> {
    static COLLECTED: OnceLock<Result<Vec<Tool>, RegistryError>> = OnceLock::new();
    COLLECTED
        .get_or_init(|| {
            let mut registrations: Vec<&'static ToolRegistration> =
                inventory::iter::<ToolRegistration>.into_iter().collect();
            registrations.sort_by(|a, b| (a.name, a.file, a.line).cmp(&(b.name, b.file, b.line)));
            if let Some(pair) = registrations
                .windows(2)
                .find(|pair| pair[0].name == pair[1].name)
            {
                return Err(RegistryError::DuplicateName {
                    name: pair[0].name.to_owned(),
                    first: format!("{}:{}", pair[0].file, pair[0].line),
                    second: format!("{}:{}", pair[1].file, pair[1].line),
                });
            }
            registrations
                .into_iter()
                .map(Tool::from_registration)
                .collect()
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// Why the tools cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    DuplicateName {
        /// The shared name.
        name: String,
        /// Where the first is (`file:line`, or "added at run time").
        first: String,
        /// Where the second is.
        second: String,
    },
    /// A tool's schemas cannot be served.
    InvalidTool {
        /// The tool's name.
        name: String,
        /// Where it is defined, for a `#[tool]` fn.
        source: Option<String>,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName {
                name,
                first,
                second,
            } => write!(
                f,
                "two tools are named `{name}`: one at {first}, one at {second}; tool names must be unique, \
                 rename one with `#[tool(name = \"…\")]`"
            ),
            Self::InvalidTool {
                name,
                source,
                problem,
            } => {
                write!(f, "tool `{name}`")?;
                if let Some(source) = source {
                    write!(f, " at {source}")?;
                }
                write!(f, " cannot be served: {problem}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}
