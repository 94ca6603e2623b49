//! The JSON-RPC error object and the codes it carries.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Id, Response};

/// JSON-RPC and MCP error codes.
pub mod codes {
    /// Invalid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a valid JSON-RPC request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// Unknown method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid params (unknown tool, bad cursor, missing `_meta`, …).
    pub const INVALID_PARAMS: i64 = -32602;
    /// A server fault.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Legacy (up to 2025-11-25): `resources/subscribe` to a URI no resource serves. (Reading
    /// one is `-32602` in every version, as SEP-2164 asks.)
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// The connection already has as many calls running as it may (`Server::max_calls_in_flight`):
    /// retry once one has answered. Outside `-32768..-32000`, as MCP's 2026-07-28 allocation
    /// policy asks of codes an implementation defines (the spec reserves the rest).
    pub const SERVER_BUSY: i64 = -31000;
    /// 2026-07-28 HTTP: a header disagrees with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a client capability it did not declare.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the requested protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// Past a rate limit (`Server::rate_limit`, `#[tool(rate_limit = …)]`): the request was not
    /// run; `data.retryAfterMs` says when the principal may try again (over HTTP, `429` with
    /// `Retry-After`).
    pub const RATE_LIMITED: i64 = -32029;
}

/// A JSON-RPC error object, built with [`ErrorObject::new`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorObject {
    /// One of [`codes`].
    pub code: i64,
    /// A short sentence.
    pub message: String,
    /// Details for programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error without data.
    #[must_use]
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// `-32602` with `message`.
    #[must_use]
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_PARAMS, message)
    }

    /// `-32600` with `Invalid Request: {detail}`.
    pub(crate) fn invalid_request(detail: impl std::fmt::Display) -> Self {
        Self::new(codes::INVALID_REQUEST, format!("Invalid Request: {detail}"))
    }

    /// Sets `data`, details for programs (the builder rule: plain names).
    #[must_use]
    pub fn data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The error as a typed response to request `id`.
    pub(crate) fn respond(self, id: Id) -> Response {
        Response::error(id, self)
    }
}

impl std::fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ErrorObject {}
