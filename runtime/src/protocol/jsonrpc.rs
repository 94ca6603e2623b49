//! JSON-RPC 2.0 framing: telling requests, notifications and responses apart, and error objects.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

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
    /// 2026-07-28 HTTP: a header disagrees with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a client capability it did not declare.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the requested protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

    /// Adds data.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The error response to request `id` (`null` when the id could not be read).
    #[must_use]
    pub fn into_response(self, id: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "error": self})
    }
}

impl std::fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ErrorObject {}

/// One incoming message, classified.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Incoming {
    /// A call that wants a response.
    Request {
        id: Value,
        method: String,
        params: Option<Map<String, Value>>,
    },
    /// A one-way message.
    Notification {
        method: String,
        params: Option<Map<String, Value>>,
    },
    /// A response from the client (we send no requests, so it is ignored).
    Response,
    /// A JSON-RPC batch (protocol 2025-03-26 only); each element still to classify.
    Batch(Vec<Value>),
}

/// Parses one framed message. `Err` holds the error response to send back.
pub(crate) fn parse(bytes: &[u8]) -> Result<Incoming, Value> {
    let value: Value = serde_json::from_slice(bytes).map_err(|error| {
        ErrorObject::new(codes::PARSE_ERROR, format!("Parse error: {error}"))
            .into_response(Value::Null)
    })?;
    classify(value)
}

/// Classifies a parsed JSON value as a JSON-RPC message.
pub(crate) fn classify(value: Value) -> Result<Incoming, Value> {
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(items) if !items.is_empty() => return Ok(Incoming::Batch(items)),
        _ => {
            return Err(invalid_request(
                Value::Null,
                "expected a JSON-RPC message object",
            ));
        }
    };
    let id = object.remove("id");
    let readable_id = match &id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid_request(readable_id, "`jsonrpc` must be \"2.0\""));
    }
    // MCP params are always an object; by-position (array) params are invalid params.
    let params = match object.remove("params") {
        None => Ok(None),
        Some(Value::Object(params)) => Ok(Some(params)),
        Some(_) => Err(()),
    };
    match (object.remove("method"), id) {
        // A notification is never answered, even when malformed: its params are ignored.
        (Some(Value::String(method)), None) => Ok(Incoming::Notification {
            method,
            params: params.unwrap_or(None),
        }),
        (Some(Value::String(method)), Some(id @ (Value::String(_) | Value::Number(_)))) => {
            match params {
                Ok(params) => Ok(Incoming::Request { id, method, params }),
                Err(()) => {
                    Err(ErrorObject::invalid_params("`params` must be an object").into_response(id))
                }
            }
        }
        (Some(Value::String(_)), Some(_)) => Err(invalid_request(
            Value::Null,
            "`id` must be a string or an integer",
        )),
        (Some(_), _) => Err(invalid_request(readable_id, "`method` must be a string")),
        (None, Some(_)) if object.contains_key("result") || object.contains_key("error") => {
            Ok(Incoming::Response)
        }
        (None, _) => Err(invalid_request(
            readable_id,
            "expected a request, a notification or a response",
        )),
    }
}

fn invalid_request(id: Value, detail: &str) -> Value {
    ErrorObject::new(codes::INVALID_REQUEST, format!("Invalid Request: {detail}")).into_response(id)
}

/// The success response to request `id`.
pub(crate) fn success(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}
