//! JSON-RPC 2.0 messages: what comes in ([`Incoming`], told apart by [`classify`]) and what goes
//! out ([`Outgoing`]: a notification, a response or a batch of responses, never guessed from its
//! JSON), and the error object with its codes.
//!
//! A leaf: every layer (the context a tool holds, the dispatcher, the call lifecycle, the
//! transports) speaks these types, and this module depends on none of them.

use serde::ser::SerializeMap as _;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

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

    /// `-32600` with `Invalid Request: {detail}`.
    pub(crate) fn invalid_request(detail: impl std::fmt::Display) -> Self {
        Self::new(codes::INVALID_REQUEST, format!("Invalid Request: {detail}"))
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
        to_json(&Response::error(id, self))
    }

    /// The error as a typed response to request `id`.
    pub(crate) fn respond(self, id: Value) -> Response {
        Response::error(id, self)
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
    Request(Request),
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

/// A request: it wants a response with its `id`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request {
    pub(crate) id: Value,
    pub(crate) method: String,
    pub(crate) params: Option<Map<String, Value>>,
}

/// A message we send: the transports frame it without looking inside.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outgoing {
    /// Progress, a log message, a change of the tool set.
    Notification(Notification),
    /// The answer to one request; nothing for that request follows it.
    Response(Response),
    /// The answers to a batch, as one array.
    Batch(Vec<Response>),
}

impl Serialize for Outgoing {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Notification(notification) => notification.serialize(serializer),
            Self::Response(response) => response.serialize(serializer),
            Self::Batch(responses) => responses.serialize(serializer),
        }
    }
}

/// A notification we send.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Notification {
    pub(crate) method: &'static str,
    pub(crate) params: Option<Value>,
}

impl Notification {
    /// `method` with `params`.
    pub(crate) fn new(method: &'static str, params: Value) -> Self {
        Self {
            method,
            params: Some(params),
        }
    }

    /// `notifications/tools/list_changed`, the one notification that carries no params.
    pub(crate) fn tools_list_changed() -> Self {
        Self {
            method: "notifications/tools/list_changed",
            params: None,
        }
    }
}

impl Serialize for Notification {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", self.method)?;
        if let Some(params) = &self.params {
            map.serialize_entry("params", params)?;
        }
        map.end()
    }
}

/// The response to one request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Response {
    /// The request's id (`null` when it could not be read).
    pub(crate) id: Value,
    /// The result, or the error (boxed: errors are rare, and a response travels by value).
    pub(crate) outcome: Result<Value, Box<ErrorObject>>,
}

impl Response {
    /// `result` for request `id`.
    pub(crate) fn success(id: Value, result: Value) -> Self {
        Self {
            id,
            outcome: Ok(result),
        }
    }

    /// `error` for request `id`.
    pub(crate) fn error(id: Value, error: ErrorObject) -> Self {
        Self {
            id,
            outcome: Err(Box::new(error)),
        }
    }

    /// The error, when the request failed.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the HTTP transport uses it")
    )]
    pub(crate) fn error_object(&self) -> Option<&ErrorObject> {
        self.outcome.as_ref().err().map(|error| &**error)
    }
}

impl Serialize for Response {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        match &self.outcome {
            Ok(result) => map.serialize_entry("result", result)?,
            Err(error) => map.serialize_entry("error", error)?,
        }
        map.end()
    }
}

/// Parses one framed message. `Err` is the error response to send back.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, sent at once, never propagated"
)]
pub(crate) fn parse(bytes: &[u8]) -> Result<Incoming, Response> {
    let value: Value = serde_json::from_slice(bytes).map_err(|error| {
        ErrorObject::new(codes::PARSE_ERROR, format!("Parse error: {error}")).respond(Value::Null)
    })?;
    classify(value)
}

/// Classifies a parsed JSON value as a JSON-RPC message.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, sent at once, never propagated"
)]
pub(crate) fn classify(value: Value) -> Result<Incoming, Response> {
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
                Ok(params) => Ok(Incoming::Request(Request { id, method, params })),
                Err(()) => {
                    Err(ErrorObject::invalid_params("`params` must be an object").respond(id))
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

fn invalid_request(id: Value, detail: &str) -> Response {
    ErrorObject::invalid_request(detail).respond(id)
}

/// Serializes one of our wire types; they hold only JSON-safe data, so this cannot fail.
pub(crate) fn to_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn classified(text: &str) -> Result<Incoming, Value> {
        parse(text.as_bytes()).map_err(|response| to_json(&response))
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        let request = classified(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        assert_eq!(
            request,
            Incoming::Request(Request {
                id: json!(7),
                method: "ping".into(),
                params: None
            })
        );
        let notification =
            classified(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(matches!(notification, Incoming::Notification { .. }));
        let response = classified(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap();
        assert_eq!(response, Incoming::Response);
        let batch = classified(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).unwrap();
        assert!(matches!(batch, Incoming::Batch(items) if items.len() == 1));
    }

    #[test]
    fn malformed_messages_get_the_error_the_spec_names() {
        let parse_error = classified("{").unwrap_err();
        assert_eq!(parse_error["error"]["code"], codes::PARSE_ERROR);
        assert_eq!(parse_error["id"], Value::Null);
        let no_version = classified(r#"{"id":3,"method":"ping"}"#).unwrap_err();
        assert_eq!(no_version["error"]["code"], codes::INVALID_REQUEST);
        assert_eq!(no_version["id"], 3, "a readable id is kept");
        let array_params = classified(r#"{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}"#);
        assert_eq!(
            array_params.unwrap_err()["error"]["code"],
            codes::INVALID_PARAMS
        );
        let bad_id = classified(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#).unwrap_err();
        assert_eq!(
            bad_id["error"]["message"],
            "Invalid Request: `id` must be a string or an integer"
        );
        assert_eq!(
            classified("[]").unwrap_err()["error"]["code"],
            codes::INVALID_REQUEST
        );
        // A notification with bad params is still a notification, and never answered.
        let notification = classified(r#"{"jsonrpc":"2.0","method":"n","params":3}"#).unwrap();
        assert_eq!(
            notification,
            Incoming::Notification {
                method: "n".into(),
                params: None
            }
        );
    }

    #[test]
    fn outgoing_messages_serialize_as_json_rpc() {
        let response = Outgoing::Response(Response::success(json!(1), json!({})));
        assert_eq!(
            serde_json::to_string(&response).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        let error = ErrorObject::new(codes::INTERNAL_ERROR, "boom").respond(json!("a"));
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"boom"}}"#
        );
        let changed = Outgoing::Notification(Notification::tools_list_changed());
        assert_eq!(
            serde_json::to_string(&changed).unwrap(),
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#
        );
        let batch = Outgoing::Batch(vec![Response::success(json!(2), json!(null))]);
        assert_eq!(
            serde_json::to_string(&batch).unwrap(),
            r#"[{"jsonrpc":"2.0","id":2,"result":null}]"#
        );
    }
}
