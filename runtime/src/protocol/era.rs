//! Which era a request belongs to, decided from the request itself: modern (2026-07-28) when its
//! `_meta` names a protocol version, otherwise the legacy connection's.

use std::sync::Arc;

use serde::Deserialize as _;
use serde_json::{Map, Value, json};

use super::{Connection, ProtocolVersion, meta};
use crate::client_capabilities::ClientCapabilities;
use crate::context::LogLevel;
use crate::fields::{Fields as _, field_mut};
use crate::jsonrpc::{ErrorObject, codes};

/// The era a request was made in, with what that era tells about the client.
pub(crate) enum Era {
    /// The connection's negotiated (or assumed) version.
    Legacy(ProtocolVersion),
    /// A request that stands alone, with its `_meta` envelope checked.
    Modern {
        version: ProtocolVersion,
        log_level: Option<LogLevel>,
        /// What the server reads of the request's `_meta` client capabilities (the rest is
        /// dropped with the request), shared with the call's context.
        client_capabilities: Arc<ClientCapabilities>,
    },
}

impl Era {
    /// Decides the era of a request on `connection`; `Err` for a modern envelope that is wrong.
    /// A modern request's declared capabilities are taken out of its `_meta` (`null` is left in
    /// their place) and only what the server reads of them kept: nothing the request or its
    /// task keeps holds the client's tree.
    pub(crate) fn of(
        params: &mut Map<String, Value>,
        connection: &Connection,
    ) -> Result<Self, ErrorObject> {
        let Some(request_meta) = modern_meta_mut(params) else {
            return Ok(Self::Legacy(connection.version()));
        };
        let (version, log_level) = checked_envelope(request_meta)?;
        let client_capabilities = field_mut(request_meta, meta::CLIENT_CAPABILITIES)
            .map(|declared| ClientCapabilities::from_declared(&declared.take()))
            .unwrap_or_default();
        Ok(Self::Modern {
            version,
            log_level,
            client_capabilities: Arc::new(client_capabilities),
        })
    }

    /// The version whose shapes the answer takes.
    pub(crate) fn version(&self) -> ProtocolVersion {
        match self {
            Self::Legacy(version) | Self::Modern { version, .. } => *version,
        }
    }

    pub(crate) fn is_modern(&self) -> bool {
        matches!(self, Self::Modern { .. })
    }
}

/// The `_meta` of a request that claims the modern era (it names a protocol version), if it
/// does.
fn modern_meta(params: Option<&Map<String, Value>>) -> Option<&Map<String, Value>> {
    params?
        .field("_meta")
        .and_then(Value::as_object)
        .filter(|request_meta| request_meta.field(meta::PROTOCOL_VERSION).is_some())
}

/// [`modern_meta`], to take from.
fn modern_meta_mut(params: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    field_mut(params, "_meta")
        .and_then(Value::as_object_mut)
        .filter(|request_meta| request_meta.field(meta::PROTOCOL_VERSION).is_some())
}

/// Whether a request claims the modern era: its `_meta` names a protocol version.
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport uses it")
)]
pub(crate) fn claims_modern(params: Option<&Map<String, Value>>) -> bool {
    modern_meta(params).is_some()
}

/// What is wrong with the `_meta` envelope of a request that claims the modern era, if anything
/// (the HTTP transport answers such errors with `400` before running anything).
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport uses it")
)]
pub(crate) fn envelope_error(params: Option<&Map<String, Value>>) -> Option<ErrorObject> {
    modern_meta(params).and_then(|request_meta| checked_envelope(request_meta).err())
}

/// Checks a modern request's envelope: the version first (a client falls back to another
/// version on -32022 alone), then the required capabilities, then the optional log level; the
/// version and the level when it is right.
fn checked_envelope(
    request_meta: &Map<String, Value>,
) -> Result<(ProtocolVersion, Option<LogLevel>), ErrorObject> {
    let Some(text) = request_meta
        .field(meta::PROTOCOL_VERSION)
        .and_then(Value::as_str)
    else {
        return Err(ErrorObject::invalid_params(format!(
            "`_meta.{}` must be a string",
            meta::PROTOCOL_VERSION
        )));
    };
    let Some(version) = ProtocolVersion::parse(text).filter(|v| v.is_modern()) else {
        let supported = ProtocolVersion::names(&ProtocolVersion::MODERN);
        return Err(ErrorObject::new(
            codes::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .data(json!({"supported": supported, "requested": text})));
    };
    match request_meta.field(meta::CLIENT_CAPABILITIES) {
        Some(capabilities) if capabilities.is_object() => {}
        Some(other) => {
            return Err(ErrorObject::invalid_params(format!(
                "`_meta.{}` must be an object, got {other}",
                meta::CLIENT_CAPABILITIES
            )));
        }
        None => {
            return Err(ErrorObject::invalid_params(format!(
                "missing required `_meta.{}`",
                meta::CLIENT_CAPABILITIES
            )));
        }
    }
    let log_level = request_meta
        .field(meta::LOG_LEVEL)
        .map(parse_log_level)
        .transpose()?;
    Ok((version, log_level))
}

/// A log level as `logging/setLevel` and `_meta` name it (read in place, not copied).
pub(crate) fn parse_log_level(level: &Value) -> Result<LogLevel, ErrorObject> {
    LogLevel::deserialize(level)
        .map_err(|_| ErrorObject::invalid_params(format!("Invalid log level: {level}")))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    fn legacy() -> Connection {
        Connection::new(
            ProtocolVersion::V2025_06_18,
            None,
            &crate::limits::MemoryBudget::new(usize::MAX),
        )
    }

    #[test]
    fn a_request_without_a_version_in_meta_is_the_connections() {
        let era = Era::of(
            &mut params(json!({"_meta": {"progressToken": 1}})),
            &legacy(),
        )
        .unwrap();
        assert!(!era.is_modern());
        assert_eq!(era.version(), ProtocolVersion::V2025_06_18);
    }

    #[test]
    fn a_modern_envelope_is_checked_version_first() {
        let envelope = |meta: Value| params(json!({"_meta": meta}));
        let mut ok = envelope(json!({
            meta::PROTOCOL_VERSION: "2026-07-28",
            meta::CLIENT_CAPABILITIES: {"roots": {}},
            meta::LOG_LEVEL: "warning",
        }));
        let Ok(Era::Modern {
            log_level,
            client_capabilities,
            ..
        }) = Era::of(&mut ok, &legacy())
        else {
            panic!("modern");
        };
        assert_eq!(log_level, Some(LogLevel::Warning));
        assert_eq!(
            Value::from(ClientCapabilities::clone(&client_capabilities)),
            json!({"roots": {}})
        );
        // An unknown version wins over the missing capabilities: the client retries on -32022.
        let unknown = envelope(json!({meta::PROTOCOL_VERSION: "2099-01-01"}));
        let error = envelope_error(Some(&unknown)).unwrap();
        assert_eq!(error.code, codes::UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(
            error.data,
            Some(json!({"supported": ["2026-07-28"], "requested": "2099-01-01"}))
        );
        // A legacy version named in `_meta` is no modern version either.
        let legacy_named = envelope(json!({meta::PROTOCOL_VERSION: "2025-11-25"}));
        assert_eq!(
            envelope_error(Some(&legacy_named)).unwrap().code,
            codes::UNSUPPORTED_PROTOCOL_VERSION
        );
        let no_capabilities = envelope(json!({meta::PROTOCOL_VERSION: "2026-07-28"}));
        let error = envelope_error(Some(&no_capabilities)).unwrap();
        assert_eq!(error.code, codes::INVALID_PARAMS);
        assert!(
            error.message.contains("clientCapabilities"),
            "{}",
            error.message
        );
        let bad_level = envelope(json!({
            meta::PROTOCOL_VERSION: "2026-07-28",
            meta::CLIENT_CAPABILITIES: {},
            meta::LOG_LEVEL: "loud",
        }));
        assert_eq!(
            envelope_error(Some(&bad_level)).unwrap().message,
            "Invalid log level: \"loud\""
        );
        assert!(!claims_modern(Some(&params(json!({"_meta": {}})))));
    }
}
