//! The MCP headers and the media-type headers: their names, what they must say, and how
//! their values are read.

use axum::http::{HeaderMap, HeaderName, header};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

use crate::jsonrpc::{ErrorObject, codes};
use crate::protocol::{ProtocolVersion, meta};

pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
pub(super) const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(super) const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
pub(super) const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// The text of header `name`, if it is present and visible ASCII.
pub(super) fn text<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// Whether `Content-Type` says JSON.
pub(super) fn is_json(headers: &HeaderMap) -> bool {
    text(headers, &header::CONTENT_TYPE)
        .unwrap_or("")
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("application/json")
}

/// Whether `Accept` admits `media_type` (no `Accept` admits everything).
pub(super) fn accepts(headers: &HeaderMap, media_type: &str) -> bool {
    let Some(accept) = headers.get(header::ACCEPT) else {
        return true;
    };
    let accept = accept.to_str().unwrap_or("");
    accept
        .split(',')
        .map(|part| part.split(';').next().unwrap_or("").trim())
        .any(|part| {
            part == media_type
                || part == "*/*"
                || part
                    .strip_suffix("/*")
                    .is_some_and(|kind| media_type.starts_with(kind))
        })
}

/// Whether the `MCP-Protocol-Version` header names a 2026-07-28 (or later) version.
pub(super) fn claims_modern(headers: &HeaderMap) -> bool {
    text(headers, &PROTOCOL_VERSION).is_some_and(ProtocolVersion::claims_modern)
}

/// The legacy version the `MCP-Protocol-Version` header names, or the HTTP default when there
/// is none. `Err` is the message for a header that names no legacy version we speak.
pub(super) fn legacy_version(headers: &HeaderMap) -> Result<ProtocolVersion, String> {
    let Some(value) = headers.get(PROTOCOL_VERSION) else {
        return Ok(ProtocolVersion::HTTP_DEFAULT);
    };
    value
        .to_str()
        .ok()
        .and_then(ProtocolVersion::parse_legacy)
        .ok_or_else(|| {
            format!(
                "Bad Request: Unsupported protocol version: {} (supported versions: {})",
                String::from_utf8_lossy(value.as_bytes()),
                ProtocolVersion::names(&ProtocolVersion::LEGACY).join(", ")
            )
        })
}

/// 2026-07-28: `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` must be present and match
/// the body (`-32020`).
pub(super) fn check_modern(
    headers: &HeaderMap,
    method: &str,
    params: Option<&Map<String, Value>>,
) -> Result<(), ErrorObject> {
    let body_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::PROTOCOL_VERSION))
        .and_then(Value::as_str)
        .unwrap_or("");
    let raw = |name: &HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    must_match("MCP-Protocol-Version", raw(&PROTOCOL_VERSION), body_version)?;
    must_match("Mcp-Method", raw(&MCP_METHOD), method)?;
    let name_key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return Ok(()),
    };
    let body_name = params
        .and_then(|p| p.get(name_key))
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = match raw(&MCP_NAME).map(decode) {
        Some(Err(raw)) => {
            return Err(mismatch(format!(
                "Mcp-Name header value '{raw}' is not valid base64"
            )));
        }
        Some(Ok(name)) => Some(name),
        None => None,
    };
    must_match("Mcp-Name", name.as_deref(), body_name)
}

fn must_match(header: &str, value: Option<&str>, body: &str) -> Result<(), ErrorObject> {
    match value {
        None => Err(mismatch(format!("the {header} header is required"))),
        Some(value) if value != body => Err(mismatch(format!(
            "{header} header value '{value}' does not match body value '{body}'"
        ))),
        Some(_) => Ok(()),
    }
}

fn mismatch(message: String) -> ErrorObject {
    ErrorObject::new(
        codes::HEADER_MISMATCH,
        format!("Header mismatch: {message}"),
    )
}

/// Header values outside safe ASCII travel as `=?base64?<base64>?=`. `Err` holds a value that
/// claims base64 and is not.
pub(super) fn decode(value: &str) -> Result<String, String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| value.to_owned()),
        None => Ok(value.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;
    use serde_json::json;

    use super::*;

    fn headers(pairs: &[(&HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append((*name).clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn base64_values_are_decoded_and_bad_ones_named() {
        assert_eq!(decode("echo"), Ok("echo".into()));
        assert_eq!(decode("=?base64?w6ljaG8=?="), Ok("écho".into()));
        assert_eq!(decode("=?base64?!!?="), Err("=?base64?!!?=".into()));
    }

    #[test]
    fn modern_headers_must_match_the_body() {
        let params = json!({"name": "echo", "_meta": {meta::PROTOCOL_VERSION: "2026-07-28"}});
        let params = params.as_object();
        let good = headers(&[
            (&PROTOCOL_VERSION, "2026-07-28"),
            (&MCP_METHOD, "tools/call"),
            (&MCP_NAME, "=?base64?ZWNobw==?="),
        ]);
        assert_eq!(check_modern(&good, "tools/call", params), Ok(()));
        let other_name = headers(&[
            (&PROTOCOL_VERSION, "2026-07-28"),
            (&MCP_METHOD, "tools/call"),
            (&MCP_NAME, "search"),
        ]);
        let error = check_modern(&other_name, "tools/call", params).unwrap_err();
        assert_eq!(error.code, codes::HEADER_MISMATCH);
        assert_eq!(
            error.message,
            "Header mismatch: Mcp-Name header value 'search' does not match body value 'echo'"
        );
        let no_method = headers(&[(&PROTOCOL_VERSION, "2026-07-28")]);
        assert_eq!(
            check_modern(&no_method, "tools/call", params)
                .unwrap_err()
                .message,
            "Header mismatch: the Mcp-Method header is required"
        );
        // Only tools/call, prompts/get and resources/read name something.
        let list = headers(&[
            (&PROTOCOL_VERSION, "2026-07-28"),
            (&MCP_METHOD, "tools/list"),
        ]);
        assert_eq!(check_modern(&list, "tools/list", params), Ok(()));
    }

    #[test]
    fn legacy_versions_come_from_the_header_or_the_http_default() {
        assert_eq!(
            legacy_version(&HeaderMap::new()),
            Ok(ProtocolVersion::HTTP_DEFAULT)
        );
        let named = headers(&[(&PROTOCOL_VERSION, "2025-06-18")]);
        assert_eq!(legacy_version(&named), Ok(ProtocolVersion::V2025_06_18));
        let modern = headers(&[(&PROTOCOL_VERSION, "2026-07-28")]);
        assert!(
            legacy_version(&modern)
                .unwrap_err()
                .contains("Unsupported protocol version: 2026-07-28")
        );
        assert!(claims_modern(&modern));
        assert!(!claims_modern(&named));
    }

    #[test]
    fn accept_and_content_type() {
        let both = headers(&[(&header::ACCEPT, "application/json, text/event-stream")]);
        assert!(accepts(&both, "text/event-stream") && accepts(&both, "application/json"));
        let wildcard = headers(&[(&header::ACCEPT, "text/*")]);
        assert!(accepts(&wildcard, "text/event-stream"));
        assert!(!accepts(&wildcard, "application/json"));
        assert!(
            accepts(&HeaderMap::new(), "application/json"),
            "no Accept takes anything"
        );
        assert!(is_json(&headers(&[(
            &header::CONTENT_TYPE,
            "application/json; charset=utf-8"
        )])));
        assert!(!is_json(&headers(&[(&header::CONTENT_TYPE, "text/plain")])));
        assert!(!is_json(&HeaderMap::new()));
    }
}
