//! The MCP headers and the media-type headers: their names, what they must say, and how
//! their values are read. `Mcp-Param-*` headers are checked against the arguments they mirror.

use std::borrow::Cow;

use axum::http::{HeaderMap, HeaderName, header};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mime::Mime;
use serde_json::{Map, Number, Value};

use crate::fields::Fields as _;
use crate::jsonrpc::{ErrorObject, Method, codes};
use crate::protocol::{ProtocolVersion, meta};
use crate::schema::HeaderParam;

pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// The id of the last SSE event a resuming client saw.
pub(super) const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
pub(super) const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(super) const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
pub(super) const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// Headers that must come once (RFC 9110 §5.3 makes repeated lines one comma-joined value,
/// which none of these can be; RFC 9112 §3.2 refuses a second `Host`).
static SINGLE: [HeaderName; 7] = [
    header::HOST,
    header::ORIGIN,
    header::AUTHORIZATION,
    SESSION_ID,
    PROTOCOL_VERSION,
    MCP_METHOD,
    MCP_NAME,
];

/// The first header of [`SINGLE`] that came more than once.
pub(super) fn repeated(headers: &HeaderMap) -> Option<&'static str> {
    // No name came twice (nearly every request): nothing to look up.
    if headers.len() == headers.keys_len() {
        return None;
    }
    SINGLE
        .iter()
        .find(|name| headers.get_all(*name).iter().nth(1).is_some())
        .map(HeaderName::as_str)
}

/// The text of header `name`, if it is present and visible ASCII.
pub(super) fn text<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// Whether `Content-Type` says JSON in UTF-8: `application/json`, any case, with no charset or
/// a UTF-8 one (`application/jsonp` and `application/json-patch+json` are other types).
pub(super) fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = text(headers, &header::CONTENT_TYPE) else {
        return false;
    };
    // What nearly every client sends, decided without parsing it.
    if value.eq_ignore_ascii_case("application/json") {
        return true;
    }
    let Ok(media_type) = value.parse::<Mime>() else {
        return false;
    };
    media_type.essence_str() == "application/json"
        && media_type
            .get_param(mime::CHARSET)
            .is_none_or(|charset| charset.as_str().eq_ignore_ascii_case("utf-8"))
}

/// Whether `Accept` admits `media_type` (RFC 9110 §12.5.1): the most specific range that
/// matches it decides, and `q=0` means "not acceptable". No `Accept` admits everything.
pub(super) fn accepts(headers: &HeaderMap, media_type: &Mime) -> bool {
    let values = headers.get_all(header::ACCEPT);
    let mut lines = values.iter();
    let Some(first) = lines.next() else {
        return true;
    };
    // What the transport asks every client to send, as nearly every one writes it: both types
    // admitted, decided without reading its ranges.
    if lines.next().is_none()
        && BOTH_TYPES
            .iter()
            .any(|both| first.as_bytes().eq_ignore_ascii_case(both.as_bytes()))
        && [mime::APPLICATION_JSON, mime::TEXT_EVENT_STREAM].contains(media_type)
    {
        return true;
    }
    values
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|range| rank(range.trim(), media_type))
        .max_by_key(|(rank, _)| *rank)
        .is_some_and(|(_, quality)| quality > 0.0)
}

/// An `Accept` that admits both JSON and an event stream, as clients write it.
const BOTH_TYPES: [&str; 2] = [
    "application/json, text/event-stream",
    "text/event-stream, application/json",
];

/// How closely one range of `Accept` names `media_type` ([`specificity`]) and its quality, as
/// `mime` reads them; a range without parameters or a suffix (`application/json`, `text/*`:
/// what clients send) is compared as text ([`plain_specificity`]), not parsed.
fn rank(range: &str, media_type: &Mime) -> Option<(u8, f32)> {
    if range.contains([';', '+']) {
        let range: Mime = range.parse().ok()?;
        specificity(&range, media_type).map(|rank| (rank, quality(&range)))
    } else {
        plain_specificity(range, media_type).map(|rank| (rank, 1.0))
    }
}

/// [`specificity`] of a range without parameters or a suffix, read as `mime` reads it (case
/// aside) without parsing it: a range `mime` would refuse names no type, so it matches none
/// here either.
fn plain_specificity(range: &str, media_type: &Mime) -> Option<u8> {
    if range == "*/*" {
        return Some(0);
    }
    let (type_, subtype) = range.split_once('/')?;
    if !type_.eq_ignore_ascii_case(media_type.type_().as_str()) {
        return None;
    }
    if subtype == "*" {
        return Some(1);
    }
    range
        .eq_ignore_ascii_case(media_type.essence_str())
        .then_some(2)
}

/// How closely `range` names `media_type` (2 exact, 1 `type/*`, 0 `*/*`), if it does.
fn specificity(range: &Mime, media_type: &Mime) -> Option<u8> {
    if range.type_() == mime::STAR && range.subtype() == mime::STAR {
        return Some(0);
    }
    if range.type_() != media_type.type_() {
        return None;
    }
    if range.subtype() == mime::STAR {
        return Some(1);
    }
    (range.subtype() == media_type.subtype() && range.suffix() == media_type.suffix()).then_some(2)
}

/// A range's `q` (1 when absent or unreadable).
fn quality(range: &Mime) -> f32 {
    range
        .get_param("q")
        .and_then(|q| q.as_str().parse().ok())
        .unwrap_or(1.0)
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
/// the body (`-32020`). The spec requires `Mcp-Method` of requests: a notification may leave it
/// out (the TypeScript SDK's `notifications/cancelled` closing a listen stream does), but one
/// it sends must match.
pub(super) fn check_modern(
    headers: &HeaderMap,
    method: &Method,
    params: Option<&Map<String, Value>>,
) -> Result<(), ErrorObject> {
    check_headers(headers, method, params, true)
}

/// [`check_modern`] for a notification: `Mcp-Method` checked only when sent.
pub(super) fn check_modern_notification(
    headers: &HeaderMap,
    method: &Method,
    params: Option<&Map<String, Value>>,
) -> Result<(), ErrorObject> {
    check_headers(headers, method, params, false)
}

fn check_headers(
    headers: &HeaderMap,
    method: &Method,
    params: Option<&Map<String, Value>>,
    method_required: bool,
) -> Result<(), ErrorObject> {
    // A version that is not a string is shown as the JSON it is.
    let body_version: Cow<'_, str> = match params
        .and_then(|p| p.field("_meta"))
        .and_then(|m| m.field(meta::PROTOCOL_VERSION))
    {
        Some(Value::String(version)) => Cow::Borrowed(version),
        Some(other) => Cow::Owned(other.to_string()),
        None => Cow::Borrowed(""),
    };
    let raw = |name: &HeaderName, label: &str| match headers.get(name) {
        None => Ok(None),
        Some(value) => value.to_str().map(Some).map_err(|_| {
            mismatch(format!(
                "the {label} header is not visible ASCII; send other text as =?base64?…?="
            ))
        }),
    };
    let version = raw(&PROTOCOL_VERSION, "MCP-Protocol-Version")?;
    must_match("MCP-Protocol-Version", version, &body_version)?;
    let method_header = raw(&MCP_METHOD, "Mcp-Method")?;
    if method_required || method_header.is_some() {
        must_match("Mcp-Method", method_header, method.as_str())?;
    }
    let name_key = match method {
        Method::CallTool | Method::GetPrompt => "name",
        Method::ReadResource => "uri",
        // The tasks extension routes a task's requests by its id.
        Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => "taskId",
        _ => return Ok(()),
    };
    let body_name = params
        .and_then(|p| p.field(name_key))
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = match raw(&MCP_NAME, "Mcp-Name")?.map(decode) {
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

/// 2026-07-28 `tools/call` of a tool with `x-mcp-header` arguments: each argument that has a
/// value must come with its `Mcp-Param-{Name}` header, equal to it once decoded (`=?base64?…?=`),
/// integers compared as numbers (`42.0` is `42`); a header must not name a value the body lacks.
/// Every failure is `-32020`: a load balancer routed on the header, so the server must not run
/// the call on a different body value.
pub(super) fn check_params(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: Option<&Map<String, Value>>,
) -> Result<(), ErrorObject> {
    for param in params {
        let header = param.header();
        let Ok(name) = HeaderName::from_bytes(header.as_bytes()) else {
            continue; // a token always is a header name; checked when the tool was built
        };
        let mut lines = headers.get_all(&name).iter();
        let value = match (lines.next(), lines.next()) {
            (None, _) => None,
            (Some(_), Some(_)) => {
                return Err(mismatch(format!("the {header} header came more than once")));
            }
            (Some(value), None) => {
                let text = value.to_str().map_err(|_| {
                    mismatch(format!(
                        "the {header} header is not visible ASCII; send other text as =?base64?…?="
                    ))
                })?;
                // RFC 9110 §5.5: a field value excludes the whitespace around it.
                let text = text.trim_matches([' ', '\t']);
                Some(decode(text).map_err(|raw| {
                    mismatch(format!("{header} header value '{raw}' is not valid base64"))
                })?)
            }
        };
        let problem = match (value, param.value_in(arguments)) {
            (None, Some(_)) => format!(
                "the {header} header is required: the body has argument `{}`",
                param.property()
            ),
            (Some(value), None) => format!(
                "{header} header value '{value}' does not match the body, which has no argument `{}`",
                param.property()
            ),
            (Some(value), Some(body)) if !same_value(&value, body) => {
                let body = body
                    .as_str()
                    .map_or_else(|| body.to_string(), str::to_owned);
                format!("{header} header value '{value}' does not match body value '{body}'")
            }
            _ => continue,
        };
        return Err(mismatch(problem));
    }
    Ok(())
}

/// Whether a header's (decoded) text says what the body's value does, written as a client
/// writes it: a string as is, a boolean `true`/`false`, a number compared as a number.
fn same_value(header: &str, body: &Value) -> bool {
    match body {
        Value::String(text) => header == text,
        Value::Bool(flag) => header == if *flag { "true" } else { "false" },
        Value::Number(number) => {
            serde_json::from_str::<Number>(header).is_ok_and(|header| same_number(&header, number))
        }
        _ => false,
    }
}

/// Two numbers are equal exactly when both are integers (however large); an integer and a
/// float only where floats are exact (`42.0` is `42`, but `9007199254740992.0` is not
/// `9007199254740993`, which rounds to it); two floats as floats.
fn same_number(a: &Number, b: &Number) -> bool {
    /// 2^53: every whole float up to it is exact.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match (a.as_i128(), b.as_i128()) {
        (Some(a), Some(b)) => a == b,
        (Some(integer), None) | (None, Some(integer)) => {
            let float = if a.as_i128().is_some() { b } else { a };
            #[allow(
                clippy::cast_possible_truncation,
                reason = "a whole float within 2^53 converts exactly"
            )]
            float.as_f64().is_some_and(|float| {
                float.fract() == 0.0 && float.abs() <= EXACT && float as i128 == integer
            })
        }
        (None, None) => a.as_f64() == b.as_f64(),
    }
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
pub(crate) fn decode(value: &str) -> Result<String, String> {
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
        assert_eq!(check_modern(&good, &Method::CallTool, params), Ok(()));
        let other_name = headers(&[
            (&PROTOCOL_VERSION, "2026-07-28"),
            (&MCP_METHOD, "tools/call"),
            (&MCP_NAME, "search"),
        ]);
        let error = check_modern(&other_name, &Method::CallTool, params).unwrap_err();
        assert_eq!(error.code, codes::HEADER_MISMATCH);
        assert_eq!(
            error.message,
            "Header mismatch: Mcp-Name header value 'search' does not match body value 'echo'"
        );
        let no_method = headers(&[(&PROTOCOL_VERSION, "2026-07-28")]);
        assert_eq!(
            check_modern(&no_method, &Method::CallTool, params)
                .unwrap_err()
                .message,
            "Header mismatch: the Mcp-Method header is required"
        );
        // Only tools/call, prompts/get and resources/read name something.
        let list = headers(&[
            (&PROTOCOL_VERSION, "2026-07-28"),
            (&MCP_METHOD, "tools/list"),
        ]);
        assert_eq!(check_modern(&list, &Method::ListTools, params), Ok(()));
        // A notification may leave `Mcp-Method` out, not send another.
        let cancelled = Method::Cancelled;
        assert_eq!(
            check_modern_notification(&no_method, &cancelled, params),
            Ok(())
        );
        assert!(check_modern_notification(&list, &cancelled, params).is_err());
    }

    fn param(name: &str, path: &[&str]) -> HeaderParam {
        HeaderParam {
            name: name.into(),
            path: path.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    fn check(header: Option<&str>, arguments: &Value) -> Result<(), String> {
        let name = HeaderName::from_static("mcp-param-region");
        let headers = headers(
            &header
                .map(|value| (&name, value))
                .into_iter()
                .collect::<Vec<_>>(),
        );
        check_params(
            &headers,
            &[param("Region", &["region"])],
            arguments.as_object(),
        )
        .map_err(|error| {
            assert_eq!(error.code, codes::HEADER_MISMATCH);
            error.message
        })
    }

    #[test]
    fn param_headers_must_match_their_arguments() {
        let body = json!({"region": "us-west1", "query": "q"});
        assert_eq!(check(Some("us-west1"), &body), Ok(()));
        assert_eq!(
            check(Some("  us-west1\t"), &body),
            Ok(()),
            "whitespace around is no part of a value"
        );
        assert_eq!(
            check(Some("eu-west1"), &body),
            Err("Header mismatch: Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'".into())
        );
        assert_eq!(
            check(None, &body),
            Err("Header mismatch: the Mcp-Param-Region header is required: the body has argument `region`".into())
        );
        // No value (absent or null): no header expected, and none may claim one.
        assert_eq!(check(None, &json!({"query": "q"})), Ok(()));
        assert_eq!(check(None, &json!({"region": null})), Ok(()));
        assert_eq!(
            check(Some("us-west1"), &json!({})),
            Err("Header mismatch: Mcp-Param-Region header value 'us-west1' does not match the body, which has no argument `region`".into())
        );
        assert_eq!(check(None, &Value::Null), Ok(()), "no arguments at all");
    }

    /// The conformance suite's cases (`http-custom-header-server-validation`), and the spec's
    /// encoding examples.
    #[test]
    fn param_headers_are_decoded_from_base64_only_when_wrapped() {
        let hello = json!({"region": "Hello"});
        assert_eq!(check(Some("=?base64?SGVsbG8=?="), &hello), Ok(()));
        assert_eq!(
            check(Some("=?base64?SGVsbG8?=?="), &hello),
            Err("Header mismatch: Mcp-Param-Region header value '=?base64?SGVsbG8?=?=' is not valid base64".into())
        );
        for bad in ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="] {
            assert!(
                check(Some(bad), &hello)
                    .unwrap_err()
                    .ends_with("is not valid base64"),
                "{bad}"
            );
        }
        assert_eq!(
            check(Some("SGVsbG8="), &json!({"region": "SGVsbG8="})),
            Ok(())
        );
        assert_eq!(
            check(
                Some("=?base64?SGVsbG8="),
                &json!({"region": "=?base64?SGVsbG8="})
            ),
            Ok(())
        );
        assert_eq!(
            check(
                Some("=?base64?SGVsbG8sIOS4lueVjA==?="),
                &json!({"region": "Hello, 世界"})
            ),
            Ok(())
        );
        assert_eq!(
            check(
                Some("=?base64?IHBhZGRlZCA=?="),
                &json!({"region": " padded "})
            ),
            Ok(())
        );
        assert_eq!(
            check(
                Some("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
                &json!({"region": "=?base64?literal?="})
            ),
            Ok(())
        );
    }

    #[test]
    fn param_headers_of_numbers_compare_as_numbers_and_booleans_as_words() {
        for (header, body) in [
            ("42", json!(42)),
            ("42.0", json!(42)),
            ("42", json!(42.0)),
            ("-7", json!(-7)),
            ("1e2", json!(100)),
            ("9007199254740993", json!(9_007_199_254_740_993_u64)),
            ("true", json!(true)),
            ("false", json!(false)),
        ] {
            assert_eq!(
                check(Some(header), &json!({"region": body})),
                Ok(()),
                "{header} = {body}"
            );
        }
        for (header, body) in [
            ("43", json!(42)),
            ("42abc", json!(42)),
            ("9007199254740992", json!(9_007_199_254_740_993_u64)),
            // A float that rounds onto a neighbouring integer names another value.
            ("9007199254740992.0", json!(9_007_199_254_740_993_u64)),
            ("9007199254740993.0", json!(9_007_199_254_740_993_u64)),
            ("True", json!(true)),
            ("1", json!(true)),
            ("[]", json!([])),
        ] {
            assert!(
                check(Some(header), &json!({"region": body})).is_err(),
                "{header} = {body}"
            );
        }
        assert_eq!(
            check(Some("7"), &json!({"region": 8})),
            Err(
                "Header mismatch: Mcp-Param-Region header value '7' does not match body value '8'"
                    .into()
            )
        );
    }

    #[test]
    fn param_headers_come_once_in_visible_ascii() {
        let name = HeaderName::from_static("mcp-param-region");
        let params = [param("Region", &["region"])];
        let body = json!({"region": "a"});
        let twice = headers(&[(&name, "a"), (&name, "a")]);
        assert_eq!(
            check_params(&twice, &params, body.as_object())
                .unwrap_err()
                .message,
            "Header mismatch: the Mcp-Param-Region header came more than once"
        );
        let mut latin = HeaderMap::new();
        latin.insert(name, HeaderValue::from_bytes(b"r\xe9gion").unwrap());
        assert_eq!(
            check_params(&latin, &params, body.as_object())
                .unwrap_err()
                .message,
            "Header mismatch: the Mcp-Param-Region header is not visible ASCII; send other text as =?base64?…?="
        );
    }

    #[test]
    fn nested_param_headers_read_their_path() {
        let name = HeaderName::from_static("mcp-param-tenant");
        let params = [param("Tenant", &["target", "tenant"])];
        let body = json!({"target": {"tenant": 7}});
        assert_eq!(
            check_params(&headers(&[(&name, "7")]), &params, body.as_object()),
            Ok(())
        );
        assert!(check_params(&HeaderMap::new(), &params, body.as_object()).is_err());
        let no_target = json!({});
        assert_eq!(
            check_params(&HeaderMap::new(), &params, no_target.as_object()),
            Ok(())
        );
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
    fn only_a_header_that_must_come_once_is_refused_repeated() {
        let mut map = headers(&[(&header::ACCEPT, "application/json"), (&MCP_NAME, "a")]);
        assert_eq!(repeated(&map), None);
        map.append(
            header::ACCEPT,
            HeaderValue::from_static("text/event-stream"),
        );
        assert_eq!(repeated(&map), None, "Accept may come on several lines");
        map.append(MCP_NAME, HeaderValue::from_static("b"));
        assert_eq!(repeated(&map), Some("mcp-name"));
    }

    #[test]
    fn a_range_is_ranked_as_mime_ranks_it_whether_or_not_it_is_parsed() {
        let ranges = [
            "*/*",
            "*/*+x",
            "text/*+x",
            "text/event-stream;q=0.5",
            "application/json; charset=utf-8",
            "text/*",
            "TEXT/Event-Stream",
            "application/json",
            "application/JSON",
            "application/*",
            "application/jsonp",
            "application/json-patch+json",
            "application/vnd.api+json",
            "*/json",
            "text/",
            "/json",
            "te xt/*",
            "application/json extra",
            "",
        ];
        for media_type in [mime::APPLICATION_JSON, mime::TEXT_EVENT_STREAM] {
            for range in ranges {
                let parsed = range.parse::<Mime>().ok().and_then(|parsed| {
                    specificity(&parsed, &media_type).map(|rank| (rank, quality(&parsed)))
                });
                assert_eq!(
                    rank(range, &media_type),
                    parsed,
                    "{range:?} for {media_type}"
                );
            }
        }
    }

    #[test]
    fn the_usual_accept_admits_both_types_and_a_second_line_still_counts() {
        let (sse, json, html) = (
            mime::TEXT_EVENT_STREAM,
            mime::APPLICATION_JSON,
            mime::TEXT_HTML,
        );
        for value in [
            "application/json, text/event-stream",
            "Text/Event-Stream, Application/JSON",
        ] {
            let map = headers(&[(&header::ACCEPT, value)]);
            assert!(accepts(&map, &sse) && accepts(&map, &json), "{value}");
            assert!(!accepts(&map, &html), "{value} admits no other type");
        }
        let mut map = headers(&[(&header::ACCEPT, "application/json, text/event-stream")]);
        map.append(
            header::ACCEPT,
            HeaderValue::from_static("application/json;q=0"),
        );
        assert!(
            !accepts(&map, &json),
            "the later, equally specific range refuses JSON"
        );
        assert!(accepts(&map, &sse));
    }

    #[test]
    fn accept_is_parsed_with_its_qualities() {
        let sse = mime::TEXT_EVENT_STREAM;
        let json = mime::APPLICATION_JSON;
        let accept = |value: &str| headers(&[(&header::ACCEPT, value)]);
        let both = accept("application/json, text/event-stream");
        assert!(accepts(&both, &sse) && accepts(&both, &json));
        assert!(
            accepts(&accept("Application/JSON"), &json),
            "media types ignore case"
        );
        assert!(accepts(&accept("text/*"), &sse));
        assert!(!accepts(&accept("text/*"), &json));
        assert!(!accepts(&accept("te/*"), &sse), "te/* is not text/*");
        assert!(
            !accepts(&accept("text/event-stream;q=0, */*"), &sse),
            "q=0 refuses"
        );
        assert!(accepts(&accept("text/event-stream;q=0, */*"), &json));
        assert!(accepts(&accept("*/*;q=0.1"), &sse));
        assert!(
            accepts(&HeaderMap::new(), &json),
            "no Accept takes anything"
        );
        let split = headers(&[
            (&header::ACCEPT, "application/json"),
            (&header::ACCEPT, "text/event-stream"),
        ]);
        assert!(accepts(&split, &sse), "repeated Accept lines are one list");
    }

    #[test]
    fn content_type_is_json_in_utf8() {
        let content = |value: &str| headers(&[(&header::CONTENT_TYPE, value)]);
        assert!(is_json(&content("application/json")));
        assert!(is_json(&content("Application/JSON; charset=UTF-8")));
        for refused in [
            "application/jsonp",
            "application/json-patch+json",
            "application/json; charset=UTF-16",
            "text/plain",
            "json",
        ] {
            assert!(!is_json(&content(refused)), "{refused}");
        }
        assert!(!is_json(&HeaderMap::new()));
    }
}
