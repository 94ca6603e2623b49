//! What we send: notifications, requests to the client, responses, batches.

use std::sync::Arc;

use futures_util::StreamExt as _;
use serde::ser::SerializeMap as _;
use serde::{Deserialize as _, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{ErrorObject, Id, Method, Request, to_json};
use crate::fields::Fields as _;

/// The sending half of a channel of [`Outgoing`] messages: a connection's (stdio) or a call's
/// (HTTP), to the transport that writes them.
pub(crate) type OutgoingSender = futures_channel::mpsc::UnboundedSender<Outgoing>;

/// The receiving half of a channel of [`Outgoing`] messages, in the transport.
pub(crate) struct OutgoingReceiver(futures_channel::mpsc::UnboundedReceiver<Outgoing>);

impl OutgoingReceiver {
    /// The next message; `None` once every sender is gone and nothing is left. It takes part
    /// in tokio's budget of a task's work, as tokio's channels do: a flood of messages sent
    /// from another thread makes the task that reads them yield now and then, rather than keep
    /// its thread.
    pub(crate) async fn recv(&mut self) -> Option<Outgoing> {
        tokio::task::coop::cooperative(self.0.next()).await
    }

    /// Refuses every message from now on (nothing more can be written): a sender sees it
    /// closed.
    pub(crate) fn close(&mut self) {
        self.0.close();
    }

    /// The next message if one is waiting.
    pub(crate) fn try_recv(&mut self) -> Result<Outgoing, futures_channel::mpsc::TryRecvError> {
        self.0.try_recv()
    }
}

/// A channel of messages. Unbounded: what may pile up is bounded where it is sent (a call's
/// progress by the transport's queue, a listen stream's changes by its room). futures-channel's
/// rather than tokio's, which allocates a state padded to cache lines and a first block of 32
/// slots as it is made (1.3 KiB, held by every HTTP call and every open listen stream, against
/// about 0.1 here); this one allocates a node per message instead.
pub(crate) fn outgoing_channel() -> (OutgoingSender, OutgoingReceiver) {
    let (sender, receiver) = futures_channel::mpsc::unbounded();
    (sender, OutgoingReceiver(receiver))
}

/// A message we send: the transports frame it without looking inside. Boxed but for a batch,
/// so that a queued message is small.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outgoing {
    /// Progress, a log message, a change of the tool set.
    Notification(Box<Notification>),
    /// A request to the client (elicitation, sampling, roots), on a legacy connection.
    Request(Box<Request>),
    /// The answer to one request; nothing for that request follows it.
    Response(Box<Response>),
    /// The answers to a batch, as one array.
    Batch(Vec<Response>),
}

impl Serialize for Outgoing {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Notification(notification) => notification.serialize(serializer),
            Self::Request(request) => request.serialize(serializer),
            Self::Response(response) => response.serialize(serializer),
            Self::Batch(responses) => responses.serialize(serializer),
        }
    }
}

/// A notification we send.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Notification {
    pub(crate) method: Method,
    pub(crate) params: Option<Value>,
}

impl Notification {
    /// `method` with `params`.
    pub(crate) fn new(method: Method, params: Value) -> Self {
        Self {
            method,
            params: Some(params),
        }
    }

    /// A `notifications/…/list_changed` (`method`): a notification that carries no params.
    pub(crate) fn list_changed(method: Method) -> Self {
        Self {
            method,
            params: None,
        }
    }
}

impl Serialize for Notification {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", &self.method)?;
        if let Some(params) = &self.params {
            map.serialize_entry("params", params)?;
        }
        map.end()
    }
}

impl Serialize for Request {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", &self.method)?;
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
    pub(crate) id: Id,
    /// The result, or the error (boxed: errors are rare, and a response travels by value).
    pub(crate) outcome: Result<Payload, Box<ErrorObject>>,
}

/// A result: built for its request, or serialized once and shared by every request that
/// gets the same answer (a `tools/list` page).
#[derive(Debug, Clone)]
pub(crate) enum Payload {
    Built(Value),
    Shared(Arc<RawValue>),
    /// A 2026-07-28 result with no `_meta` of its own: written with `_meta` (the server's
    /// info, serialized once) and `"resultType": "complete"` when it has none, as if both were
    /// its last members, without building either for each answer.
    Stamped(Map<String, Value>, Arc<RawValue>),
    /// A tool's result written straight from its type (no `Value` built), with whether it is
    /// an error result (`isError`), which the request's span records.
    Written {
        /// The result's JSON.
        json: Box<RawValue>,
        /// `isError`.
        is_error: bool,
    },
}

impl Payload {
    /// A 2026-07-28 result to be written with the server's `_meta` (`meta`, serialized once).
    /// Only for a result without a `_meta` of its own, which would otherwise be written twice.
    pub(crate) fn stamped(result: Map<String, Value>, meta: Arc<RawValue>) -> Self {
        debug_assert!(
            !result.contains_key("_meta"),
            "a result with a _meta of its own is built, not stamped"
        );
        Self::Stamped(result, meta)
    }

    /// The result as a JSON value (a shared one is parsed back: only the test client asks).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Self::Built(value) => value,
            Self::Shared(raw) => {
                serde_json::from_str(raw.get()).expect("shared results are serialized JSON")
            }
            Self::Stamped(mut result, meta) => {
                result
                    .entry("resultType")
                    .or_insert_with(|| Value::from(COMPLETE));
                let meta = serde_json::from_str(meta.get()).expect("`_meta` is serialized JSON");
                result.insert("_meta".into(), meta);
                Value::Object(result)
            }
            Self::Written { json, .. } => {
                // Read back whatever its depth: it was a tool's output, which the parser's usual
                // limit (for what clients send) does not bound.
                let mut reader = serde_json::Deserializer::from_str(json.get());
                reader.disable_recursion_limit();
                Value::deserialize(&mut reader).expect("written results are serialized JSON")
            }
        }
    }

    /// Whether the result is a tool's error result (`isError: true`).
    pub(crate) fn is_error(&self) -> bool {
        match self {
            Self::Built(Value::Object(result)) | Self::Stamped(result, _) => {
                result.field("isError") == Some(&Value::Bool(true))
            }
            Self::Written { is_error, .. } => *is_error,
            _ => false,
        }
    }
}

/// The `resultType` of a 2026-07-28 result that is neither a task nor a request for input.
const COMPLETE: &str = "complete";

impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.clone().into_value() == other.clone().into_value()
    }
}

impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Built(value) => value.serialize(serializer),
            Self::Shared(raw) => raw.serialize(serializer),
            Self::Written { json, .. } => json.serialize(serializer),
            Self::Stamped(result, meta) => {
                let typed = result.field("resultType").is_some();
                let mut map =
                    serializer.serialize_map(Some(result.len() + 2 - usize::from(typed)))?;
                for (key, value) in result {
                    map.serialize_entry(key, value)?;
                }
                if !typed {
                    map.serialize_entry("resultType", COMPLETE)?;
                }
                map.serialize_entry("_meta", &**meta)?;
                map.end()
            }
        }
    }
}

impl Response {
    /// `result` for request `id`.
    #[cfg(test)]
    pub(crate) fn success(id: Id, result: Value) -> Self {
        Self::answer(id, Payload::Built(result))
    }

    /// `result`, built or shared, for request `id`.
    pub(crate) fn answer(id: Id, result: Payload) -> Self {
        Self {
            id,
            outcome: Ok(result),
        }
    }

    /// `error` for request `id`.
    pub(crate) fn error(id: Id, error: ErrorObject) -> Self {
        Self {
            id,
            outcome: Err(Box::new(error)),
        }
    }

    /// The response as a JSON value, its result moved rather than copied (for the test client,
    /// which hands out values; the transports serialize straight to bytes).
    pub(crate) fn into_value(self) -> Value {
        let mut object = Map::with_capacity(3);
        object.insert("jsonrpc".into(), Value::from("2.0"));
        object.insert("id".into(), self.id.to_json_value());
        match self.outcome {
            Ok(result) => object.insert("result".into(), result.into_value()),
            Err(error) => object.insert("error".into(), to_json(&*error)),
        };
        Value::Object(object)
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::jsonrpc::codes;

    /// A stamped result is written as the value it stands for: `resultType` and `_meta` last,
    /// a `resultType` of its own kept.
    #[test]
    fn a_stamped_result_is_written_as_its_value() {
        let meta: Arc<RawValue> =
            Arc::from(serde_json::value::to_raw_value(&json!({"info": {"name": "s"}})).unwrap());
        for (result, written) in [
            (
                json!({"content": [], "isError": false}),
                r#"{"content":[],"isError":false,"resultType":"complete","_meta":{"info":{"name":"s"}}}"#,
            ),
            (
                json!({"resultType": "task", "task": {}}),
                r#"{"resultType":"task","task":{},"_meta":{"info":{"name":"s"}}}"#,
            ),
        ] {
            let Value::Object(result) = result else {
                unreachable!()
            };
            let stamped = Payload::stamped(result, Arc::clone(&meta));
            assert_eq!(serde_json::to_string(&stamped).unwrap(), written);
            assert_eq!(
                serde_json::to_string(&stamped.clone().into_value()).unwrap(),
                written
            );
            assert_eq!(
                serde_json::to_value(&stamped).unwrap(),
                stamped.into_value()
            );
        }
    }

    #[test]
    fn outgoing_messages_serialize_as_json_rpc() {
        let response = Outgoing::Response(Box::new(Response::success(Id::from(1), json!({}))));
        assert_eq!(
            serde_json::to_string(&response).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        let error =
            ErrorObject::new(codes::INTERNAL_ERROR, "boom").respond(Id::from_value(&json!("a")));
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"boom"}}"#
        );
        let changed = Outgoing::Notification(Box::new(Notification::list_changed(
            Method::ToolsListChanged,
        )));
        assert_eq!(
            serde_json::to_string(&changed).unwrap(),
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#
        );
        let batch = Outgoing::Batch(vec![Response::success(Id::from(2), json!(null))]);
        assert_eq!(
            serde_json::to_string(&batch).unwrap(),
            r#"[{"jsonrpc":"2.0","id":2,"result":null}]"#
        );
    }
}
