//! What a parsed message is ([`Incoming`]) and what it holds in memory.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{ErrorObject, Id, Method};

/// One incoming message, classified.
#[derive(Debug, Clone)]
pub(crate) enum Incoming {
    /// A call that wants a response.
    Request(Request),
    /// A one-way message.
    Notification {
        method: Method,
        params: Option<Map<String, Value>>,
        /// For `notifications/cancelled`: the exact id of the request it cancels.
        cancels: Option<Id>,
    },
    /// A response from the client to a request we sent it (`crate::ask`).
    Response(Reply),
    /// A JSON-RPC batch (protocol 2025-03-26 only); each element still to classify, as sent.
    Batch(Vec<Box<RawValue>>),
}

/// What parsing a JSON text can cost, per byte of it: an array of one-digit numbers builds a
/// 32-byte value for every 2 bytes, in a vector that grows by doubling. A batch's items, parsed
/// only as they start, are counted so.
pub(crate) const PARSE_WEIGHT: usize = 32;

impl Incoming {
    /// About how many bytes of memory the message holds as parsed, for the budget of what
    /// requests in flight hold together (`limits::MemoryBudget`). A notification or a response
    /// is taken at once and holds nothing past its parse; a batch's items are weighted by
    /// [`PARSE_WEIGHT`].
    pub(crate) fn held_bytes(&self) -> usize {
        match self {
            Self::Request(request) => request.held_bytes(),
            Self::Batch(items) => batch_held_bytes(items),
            Self::Notification { .. } | Self::Response(_) => 0,
        }
    }
}

/// What a batch's items may hold once parsed: their text, weighted by [`PARSE_WEIGHT`].
pub(crate) fn batch_held_bytes(items: &[Box<RawValue>]) -> usize {
    items
        .iter()
        .map(|item| item.get().len().saturating_mul(PARSE_WEIGHT))
        .fold(0, usize::saturating_add)
}

impl Request {
    /// About how many bytes of memory the request holds as parsed ([`Incoming::held_bytes`]).
    pub(crate) fn held_bytes(&self) -> usize {
        self.method.held_bytes() + self.id.0.get().len() + self.params.as_ref().map_or(0, map_bytes)
    }
}

/// The heap `value` holds beyond its own node.
pub(crate) fn value_bytes(value: &Value) -> usize {
    match value {
        Value::String(text) => text.capacity(),
        Value::Array(items) => {
            items.capacity() * size_of::<Value>() + items.iter().map(value_bytes).sum::<usize>()
        }
        Value::Object(map) => map_bytes(map),
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

/// The heap an object holds: per member, its key, its value and the map's index of it.
pub(crate) fn map_bytes(map: &Map<String, Value>) -> usize {
    const ENTRY: usize = size_of::<String>() + size_of::<Value>() + 2 * size_of::<usize>();
    map.iter()
        .map(|(key, value)| ENTRY + key.capacity() + value_bytes(value))
        .sum()
}

/// A request: it wants a response with its `id`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request {
    pub(crate) id: Id,
    pub(crate) method: Method,
    pub(crate) params: Option<Map<String, Value>>,
}

/// The client's answer to a request we sent it: its id, and its result or error.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reply {
    pub(crate) id: Id,
    pub(crate) outcome: Result<Value, ErrorObject>,
}
