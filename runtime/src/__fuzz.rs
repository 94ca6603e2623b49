//! Thin entry points to the private parsers, for the fuzz targets (`fuzz/`) and the property
//! tests (`tests/tests/properties.rs`). Compiled only with the `fuzzing` feature, hidden from
//! the docs: not part of the API. Everything public is fuzzed through the public API instead.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::ask::seal::{Binding, Carried, Sealer, Subject};
use crate::principal::Principal;
use crate::transport::stdio::{Line, LineReader};

/// The lines the stdio codec reads from `input` with a line limit of `max` bytes, through a
/// buffer of `capacity` bytes: `Some(line)` for a whole line, `None` for one discarded as too long.
pub async fn stdio_lines(input: &[u8], max: usize, capacity: usize) -> Vec<Option<Vec<u8>>> {
    let buffered = tokio::io::BufReader::with_capacity(capacity.max(1), input);
    let mut reader = LineReader::new(buffered, max);
    let mut lines = Vec::new();
    loop {
        match reader.next_line().await {
            Ok(Line::Complete(line)) => lines.push(Some(line.to_vec())),
            Ok(Line::TooLong) => lines.push(None),
            Ok(Line::End) | Err(_) => return lines,
        }
    }
}

/// `Host` as admission reads it: the lower-cased name and the port, or `None` when refused.
#[cfg(feature = "http")]
#[must_use]
pub fn host(text: &str) -> Option<(String, Option<u16>)> {
    crate::transport::http::admission::Host::parse(text)
        .map(|host| (host.name.into_owned(), host.port))
}

/// The host of an `Origin`, as admission reads it (`None`: not an http(s) origin with a host).
#[cfg(feature = "http")]
#[must_use]
pub fn origin_host(origin: &str) -> Option<(String, Option<u16>)> {
    crate::transport::http::admission::origin_host(origin)
        .map(|host| (host.name.into_owned(), host.port))
}

/// An `Mcp-Name` or `Mcp-Param-*` value decoded (`=?base64?…?=`); `Err` holds a value that claims
/// base64 and is not.
#[cfg(feature = "http")]
pub fn header_value(value: &str) -> Result<String, String> {
    crate::transport::http::headers::decode(value)
}

/// The `requestState` sealer of a server given `key`.
pub struct StateSealer(Sealer);

/// Shows no key.
impl std::fmt::Debug for StateSealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateSealer").finish_non_exhaustive()
    }
}

impl StateSealer {
    /// A sealer with `key`.
    #[must_use]
    pub fn new(key: [u8; 32]) -> Self {
        Self(Sealer::new(Some(key)))
    }

    /// `answers` sealed for a call of `tool` with `arguments` by `principal` (a token's client
    /// id and subject; `None` without a token).
    #[must_use]
    pub fn seal(
        &self,
        answers: Map<String, Value>,
        principal: Option<(&str, Option<&str>)>,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Option<String> {
        let carried = Carried {
            answers,
            asked: BTreeSet::new(),
        };
        self.0
            .seal(
                carried,
                &Binding::new(caller(principal).as_ref(), Subject::Tool(tool), arguments),
            )
            .ok()
    }

    /// The answers sealed in `state`, opened as a 2026-07-28 `tools/call` opens them; `Err` is
    /// the JSON-RPC error the client would get.
    pub fn open(
        &self,
        state: &str,
        principal: Option<(&str, Option<&str>)>,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Result<Map<String, Value>, crate::jsonrpc::ErrorObject> {
        self.0
            .open(
                state,
                &Binding::new(caller(principal).as_ref(), Subject::Tool(tool), arguments),
            )
            .map(|carried| carried.answers)
    }
}

/// The principal of a token's client id and subject.
fn caller(principal: Option<(&str, Option<&str>)>) -> Option<Principal> {
    principal.map(|(client_id, subject)| Principal::new(client_id, subject.map(str::to_owned)))
}
