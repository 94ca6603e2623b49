//! Why a read gives no contents: [`ResourceError`] (what a resource says), [`ReadError`] (what
//! the client is told).

use std::fmt::Display;

/// Why a read failed: the URI names nothing (a template's variable its parameter's type
/// refused says why), or the resource's fn failed.
#[derive(Debug)]
pub(crate) enum ReadError {
    NotFound(Option<String>),
    Failed(String),
}

/// Why a resource gives no contents: what [`IntoResourceBody`](crate::resource::IntoResourceBody) returns when there are none.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceError {
    /// The URI names nothing: the client is told "Resource not found" (`-32602`), with the
    /// reason if there is one. A fn's `None` gives it, and so does a template variable whose
    /// value its parameter's type refuses (`three` for a `u32`), with that reason. Another
    /// template matching the URI is then still tried.
    NotFound(Option<String>),
    /// Reading failed: the message becomes the JSON-RPC error's (`-32603`).
    Failed(String),
}

impl Display for ResourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound(None) => f.write_str("resource not found"),
            Self::NotFound(Some(reason)) => write!(f, "resource not found: {reason}"),
            Self::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ResourceError {}
