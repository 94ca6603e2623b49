//! A request's id, exactly as written.

use serde::{Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A request's id exactly as the client wrote it: a string or an integer of any size (an
/// integer past 64 bits stays exact, which `serde_json::Value` cannot promise), or `null` for an
/// answer to a request whose id could not be read.
#[derive(Debug, Clone)]
pub(crate) struct Id(pub(super) Box<RawValue>);

impl Id {
    /// The id of an answer to a request whose id could not be read.
    pub(crate) fn null() -> Self {
        Self::from_value(&Value::Null)
    }

    /// The id `value` (a string or a number), as `serde_json` writes it.
    pub(crate) fn from_value(value: &Value) -> Self {
        let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
        Self(RawValue::from_string(text).unwrap_or_else(|_| Self::null().0))
    }

    /// The id `raw`, if it is one JSON-RPC allows MCP to use: a string or an integer.
    pub(super) fn parse(raw: Box<RawValue>) -> Option<Self> {
        let text = raw.get();
        let digits = text.strip_prefix('-').unwrap_or(text);
        let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        (text.starts_with('"') || integer).then_some(Self(raw))
    }

    /// What tells calls apart: the integer as written, or the string (its escapes resolved).
    pub(crate) fn key(&self) -> String {
        let text = self.0.get();
        if !text.starts_with('"') {
            // An integer: its text is its key (and no failed string parse builds an error).
            return text.to_owned();
        }
        match serde_json::from_str::<String>(text) {
            Ok(string) => serde_json::to_string(&string).unwrap_or_else(|_| text.to_owned()),
            Err(_) => text.to_owned(),
        }
    }

    /// The id as `serde_json` reads it (an integer past 64 bits becomes a float): what a
    /// response turned into a [`Value`] carries.
    pub(super) fn to_json_value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }

    /// The id as a JSON value, for a tool's [`crate::Context`]: an integer past 64 bits becomes
    /// the string of its digits (a float could not hold it).
    pub(crate) fn to_value(&self) -> Value {
        let text = self.0.get();
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Number(number)) if number.is_f64() => Value::String(text.to_owned()),
            Ok(value) => value,
            Err(_) => Value::Null,
        }
    }
}

impl From<u64> for Id {
    fn from(id: u64) -> Self {
        Self::from_value(&Value::from(id))
    }
}

impl PartialEq for Id {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
