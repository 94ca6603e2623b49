//! JSON-RPC 2.0 messages: what comes in ([`Incoming`], read by [`parse`], its [`Method`] parsed
//! once), what goes out ([`Outgoing`]: a notification, a request to the client, a response or a
//! batch of responses, never guessed from its JSON), request ids ([`Id`]), and the error object
//! with its codes.
//!
//! A leaf: every layer (the context a tool holds, the dispatcher, the call lifecycle, the
//! transports) speaks these types, and this module depends on none of them.

mod error;
mod id;
mod incoming;
mod method;
mod outgoing;
mod parse;

pub use error::{ErrorObject, codes};
pub(crate) use id::Id;
pub(crate) use incoming::{Incoming, PARSE_WEIGHT, Reply, Request, map_bytes, value_bytes};
pub(crate) use method::Method;
pub(crate) use outgoing::{
    Notification, Outgoing, OutgoingReceiver, OutgoingSender, Payload, Response, outgoing_channel,
};
#[cfg(feature = "http")]
pub(crate) use parse::{answers_nothing, id_of};
pub(crate) use parse::{parse, unreadable};

use serde::Serialize;
use serde_json::Value;

/// Serializes one of our wire types; they hold only JSON-safe data, so this cannot fail.
pub(crate) fn to_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
