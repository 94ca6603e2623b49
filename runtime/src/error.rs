//! The errors of the crate: [`Error`], why a server could not start or stopped serving (what
//! `Server::check` and every `serve_*` return), a [`RegistryError`] when the tools and resources
//! linked into the binary cannot be served, and the JSON-RPC [`ErrorObject`] (with its [`codes`])
//! a call hook returns to refuse a call; and the errors of parsing a value the crate defines
//! ([`UnknownLogLevel`]).

pub use crate::context::UnknownLogLevel;
pub use crate::jsonrpc::{ErrorObject, codes};
pub use crate::registry::{ItemKind, RegistryError};

use std::{fmt, io};

/// Why [`Server`](crate::Server) could not serve: returned by [`Server::check`](crate::Server::check)
/// and every `serve_*`, and printed by [`Server::run`](crate::Server::run).
///
/// Its `Display` is the text `run()` prints after `Error: `, every problem listed; match on the
/// variant to act on one kind.
///
/// ```
/// match mcp_toolbelt::Server::new("notes", "1.0.0").check() {
///     Ok(()) => {}
///     Err(mcp_toolbelt::Error::Registry(problems)) => eprintln!("fix the tools: {problems}"),
///     Err(other) => eprintln!("{other}"),
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The tools or resources cannot be served (two of one name, a schema, a missing
    /// `State<T>`, a view): found before anything is served.
    Registry(RegistryError),
    /// Binding, accepting, reading or writing failed (an address in use, stdin closed badly).
    Io(io::Error),
    /// [`Server::run`](crate::Server::run)'s arguments or `MCP_*` variables (or the
    /// `HttpConfig` a way of serving is given) ask for something it
    /// cannot do; the text says what, and how to write it.
    Arguments(String),
    /// The `requestState` key given to [`Server::run`](crate::Server::run) (a file or
    /// `MCP_REQUEST_STATE_KEY`) cannot be used; the text says why, never what the key is.
    RequestStateKey(String),
    /// Redis could not be reached or used at start-up (`HttpConfig::redis`, `--redis`): the
    /// text names its URL (without the password) and why.
    Redis(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Registry(error) => error.fmt(f),
            Self::Io(error) => error.fmt(f),
            Self::Arguments(problem) | Self::RequestStateKey(problem) | Self::Redis(problem) => {
                f.write_str(problem)
            }
        }
    }
}

/// Transparent, as `thiserror`'s `#[error(transparent)]`: `Display` is already the wrapped error's
/// text, so `source()` is the wrapped error's source, and a report that walks the chain
/// (`anyhow`'s `{:?}`) does not print one problem twice.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Registry(error) => error.source(),
            Self::Io(error) => error.source(),
            Self::Arguments(_) | Self::RequestStateKey(_) | Self::Redis(_) => None,
        }
    }
}

impl From<RegistryError> for Error {
    fn from(error: RegistryError) -> Self {
        Self::Registry(error)
    }
}

impl From<io::Error> for Error {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}
