//! Reading one framed message: classified once, its method parsed once, the members of
//! `params` no method reads skipped.

use serde::Deserialize;
use serde::Deserializer;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{ErrorObject, Id, Incoming, Method, Reply, Request, Response, codes};

/// The members of a JSON-RPC message object that decide what it is; others are skipped, never
/// built. Each is `Some` when present, even as `null`.
#[derive(Deserialize)]
struct Message {
    #[serde(default, deserialize_with = "present")]
    jsonrpc: Option<Member>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    method: Option<Member>,
    #[serde(default, deserialize_with = "present")]
    params: Option<Member>,
    /// Kept as text, built only for a response (a request carrying a large `result` member
    /// builds nothing of it).
    #[serde(default, deserialize_with = "present")]
    result: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Box<RawValue>>,
}

/// A member whose type decides what it means: a string, an object of `params` (only the
/// [`PARAMS_READ`] members kept), or anything else, skipped.
enum Member {
    String(String),
    Object(Map<String, Value>),
    Other,
}

/// The members of `params` that some method reads (`_meta` everywhere, of it only [`META_READ`], `tools/call`'s `name`,
/// `arguments`, `requestState` and `inputResponses`, the lists' `cursor`, `resources/read`'s `uri`,
/// `subscriptions/listen`'s `notifications`, `initialize`'s, `logging/setLevel`'s `level`,
/// `completion/complete`'s `ref`, `argument` and `context`, the tasks extension's `taskId`;
/// `prompts/get` reads `name`,
/// `arguments` and a round's members as `tools/call` does): the
/// others are skipped as they are read, so that what a request holds is what it needs, never a
/// member nobody reads (a 4 MiB array of it would cost some 150 MiB built).
const PARAMS_READ: [&str; 16] = [
    "_meta",
    "name",
    "arguments",
    "requestState",
    "inputResponses",
    "cursor",
    "uri",
    "notifications",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "level",
    "ref",
    "argument",
    "context",
    "taskId",
];

/// The members of `params._meta` that something reads: the 2026-07-28 envelope's protocol
/// version, client capabilities and log level (`protocol::meta`), the progress token, and the
/// trace context (`traceparent`, `tracestate`). The others (`clientInfo`, which every
/// 2026-07-28 request carries and nothing reads, and whatever else a client adds) are skipped
/// as they are read.
const META_READ: [&str; 6] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/logLevel",
    "progressToken",
    "traceparent",
    "tracestate",
];

/// A request's `_meta`: an object of the [`META_READ`] members; anything else, which carries
/// nothing read (no era, no token), `null`.
struct RequestMeta(Value);

impl<'de> Deserialize<'de> for RequestMeta {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_any(MemberVisitor(Kept::Meta))? {
            Member::Object(object) => Ok(Self(Value::Object(object))),
            Member::String(_) | Member::Other => Ok(Self(Value::Null)),
        }
    }
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MemberVisitor(Kept::Params))
    }
}

/// Which members of an object a [`Member`] keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    /// A message's `params`: [`PARAMS_READ`], its `_meta` read as [`RequestMeta`].
    Params,
    /// A request's `_meta`: [`META_READ`].
    Meta,
}

/// Reads a [`Member`].
struct MemberVisitor(Kept);

impl<'de> serde::de::Visitor<'de> for MemberVisitor {
    type Value = Member;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<Member, E> {
        Ok(Member::String(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Member, E> {
        Ok(Member::String(text))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Member, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let read = match self.0 {
                Kept::Params => &PARAMS_READ[..],
                Kept::Meta => &META_READ[..],
            };
            if self.0 == Kept::Params && key == "_meta" {
                let RequestMeta(meta) = map.next_value()?;
                object.insert(key.into_owned(), meta);
            } else if read.contains(&&*key) {
                object.insert(key.into_owned(), map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Member::Object(object))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Member::Other)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Member, E> {
        Ok(Member::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Member, E> {
        Ok(Member::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Member, E> {
        Ok(Member::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Member, E> {
        Ok(Member::Other)
    }

    fn visit_unit<E>(self) -> Result<Member, E> {
        Ok(Member::Other)
    }
}

/// A member that is present, whatever its value (`null` included).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// What one framed message is, before it is classified.
#[allow(
    clippy::large_enum_variant,
    reason = "made once per message and taken apart at once, never stored"
)]
enum Framed {
    Object(Message),
    Batch(Vec<Box<RawValue>>),
    /// JSON, but neither an object nor an array.
    Other,
}

fn frame(bytes: &[u8]) -> Result<Framed, serde_json::Error> {
    match bytes.trim_ascii_start().first() {
        Some(b'{') => serde_json::from_slice(bytes).map(Framed::Object),
        Some(b'[') => serde_json::from_slice(bytes).map(Framed::Batch),
        _ => serde_json::from_slice::<IgnoredAny>(bytes).map(|_| Framed::Other),
    }
}

/// Parses one framed message: an object, or a batch (an array). `Err` is the error response to
/// send back.
///
/// A string holding a lone UTF-16 surrogate (`"\ud83d"`, a truncated emoji that JavaScript and
/// Python write) is read as those platforms read it: the surrogate becomes U+FFFD. `serde_json`
/// refuses it, so only then is the text rewritten and read again (the usual path is untouched).
/// A message that cannot be read at all is answered with its id when the id can still be read.
pub(crate) fn parse(bytes: &[u8]) -> Result<Incoming, Response> {
    let framed = match frame(bytes) {
        Err(error) if is_lone_surrogate(&error) => match replace_lone_surrogates(bytes) {
            Some(replaced) => frame(&replaced),
            None => Err(error),
        },
        framed => framed,
    };
    match framed {
        Ok(Framed::Object(message)) => classify(message, bytes),
        Ok(Framed::Batch(items)) if items.is_empty() => Err(invalid_request(
            Id::null(),
            "expected a JSON-RPC message object",
        )),
        Ok(Framed::Batch(items)) => Ok(Incoming::Batch(items)),
        Ok(Framed::Other) => Err(invalid_request(
            Id::null(),
            "expected a JSON-RPC message object",
        )),
        Err(error) => Err(unreadable(bytes, &format!("Parse error: {error}"))),
    }
}

/// The `-32700` answer to a message that cannot be read: with its id when the id can still be
/// read (it came before what broke the message), so that the client waiting on it hears why.
pub(crate) fn unreadable(bytes: &[u8], message: &str) -> Response {
    ErrorObject::new(codes::PARSE_ERROR, message).respond(id_of(bytes))
}

/// The id of the request `bytes`, read without building anything else (for an answer refused
/// before its message is parsed); `null` when it cannot be read, or when the message is not
/// known to be a request: only a message whose `method` was read, and no `result` or `error`,
/// is answered with its id (a client's broken response to our request carries one of *our*
/// ids, which may be the id of one of the client's own requests too).
pub(crate) fn id_of(bytes: &[u8]) -> Id {
    let mut seen = Seen::default();
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let _ = serde::de::DeserializeSeed::deserialize(IdSeeker(&mut seen), &mut deserializer);
    match seen {
        Seen {
            id: Some(id),
            method: true,
            response: false,
        } => Id::parse(id).unwrap_or_else(Id::null),
        _ => Id::null(),
    }
}

/// Whether the message `bytes` is a notification or a response (answered with nothing, and
/// holding nothing once parsed), read without building anything: a `method` and no `id`, or a
/// `result` or an `error` and no `method`. A message that breaks off is judged by the members
/// read before (its parse then fails).
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport uses it")
)]
pub(crate) fn answers_nothing(bytes: &[u8]) -> bool {
    let mut seen = Seen::default();
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let _ = serde::de::DeserializeSeed::deserialize(IdSeeker(&mut seen), &mut deserializer);
    match seen {
        Seen {
            method: true,
            id,
            response: false,
        } => id.is_none(),
        Seen {
            method, response, ..
        } => response && !method,
    }
}

/// What [`IdSeeker`] read of a message's members.
#[derive(Default)]
struct Seen {
    id: Option<Box<RawValue>>,
    method: bool,
    /// A `result` or `error` member: the message is a response.
    response: bool,
}

/// Reads an object's members as far as they go, keeping its `id` and noting which of
/// `method`, `result`, `error` it has.
struct IdSeeker<'a>(&'a mut Seen);

impl<'de> serde::de::DeserializeSeed<'de> for IdSeeker<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for IdSeeker<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON-RPC message object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "id" => self.0.id = Some(map.next_value()?),
                "method" => {
                    self.0.method = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "result" | "error" => {
                    self.0.response = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// Whether `serde_json` refused a lone UTF-16 surrogate in a string.
fn is_lone_surrogate(error: &serde_json::Error) -> bool {
    let text = error.to_string();
    text.starts_with("lone leading surrogate in hex escape")
        || text.starts_with("unexpected end of hex escape")
}

/// `bytes` with every `\uXXXX` escape of a lone surrogate (one not part of a pair) rewritten to
/// `\uFFFD`, or `None` when there is none. Backslashes appear only inside strings in JSON, so
/// the escapes are found without tracking strings; a replacement has the same length.
fn replace_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    let unit = |at: usize| -> Option<u16> {
        let hex = bytes.get(at..at + 6)?.strip_prefix(b"\\u")?;
        u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let mut replaced: Option<Vec<u8>> = None;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match unit(at) {
            Some(0xD800..=0xDBFF) if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) => at += 12,
            Some(0xD800..=0xDFFF) => {
                let copy = replaced.get_or_insert_with(|| bytes.to_vec());
                copy[at..at + 6].copy_from_slice(b"\\uFFFD");
                at += 6;
            }
            // Any other escape: its backslash and the character after it.
            _ => at += 2,
        }
    }
    replaced
}

/// Classifies a message object (`bytes` is its text, read again for a cancellation's id).
fn classify(message: Message, bytes: &[u8]) -> Result<Incoming, Response> {
    let id = message.id.map(|raw| Id::parse(raw).ok_or(()));
    let readable_id = match &id {
        Some(Ok(id)) => id.clone(),
        _ => Id::null(),
    };
    if !matches!(&message.jsonrpc, Some(Member::String(version)) if version == "2.0") {
        return Err(invalid_request(readable_id, "`jsonrpc` must be \"2.0\""));
    }
    // MCP params are always an object; by-position (array) params are invalid params.
    let params = match message.params {
        None => Ok(None),
        Some(Member::Object(params)) => Ok(Some(params)),
        Some(_) => Err(()),
    };
    match (message.method, id) {
        // A notification is never answered, even when malformed: its params are ignored.
        (Some(Member::String(method)), None) => {
            let method = Method::parse(method);
            let cancels = (method == Method::Cancelled)
                .then(|| cancelled_request(bytes))
                .flatten();
            Ok(Incoming::Notification {
                method,
                params: params.unwrap_or(None),
                cancels,
            })
        }
        (Some(Member::String(method)), Some(Ok(id))) => match params {
            Ok(params) => Ok(Incoming::Request(Request {
                id,
                method: Method::parse(method),
                params,
            })),
            Err(()) => Err(ErrorObject::invalid_params("`params` must be an object").respond(id)),
        },
        (Some(Member::String(_)), Some(Err(()))) => Err(invalid_request(
            Id::null(),
            "`id` must be a string or an integer",
        )),
        (Some(_), _) => Err(invalid_request(readable_id, "`method` must be a string")),
        // A response whose id cannot be read answers nothing we asked; it is still no request.
        (None, Some(id)) if message.result.is_some() || message.error.is_some() => {
            let id = id.unwrap_or_else(|()| Id::null());
            let outcome = match (message.result, message.error) {
                (Some(result), None) => serde_json::from_str(result.get()).map_err(|_| {
                    ErrorObject::new(codes::INTERNAL_ERROR, "the client's result was unreadable")
                }),
                (None, Some(error)) => {
                    Err(serde_json::from_str(error.get()).unwrap_or_else(|_| {
                        ErrorObject::new(codes::INTERNAL_ERROR, "the client's error was malformed")
                    }))
                }
                _ => Err(ErrorObject::invalid_request(
                    "a response has a `result` or an `error`, not both",
                )),
            };
            Ok(Incoming::Response(Reply { id, outcome }))
        }
        (None, _) => Err(invalid_request(
            readable_id,
            "expected a request, a notification or a response",
        )),
    }
}

/// The exact `params.requestId` of a `notifications/cancelled`, read from its text.
fn cancelled_request(bytes: &[u8]) -> Option<Id> {
    #[derive(Deserialize)]
    struct Cancelled {
        params: CancelledParams,
    }
    #[derive(Deserialize)]
    struct CancelledParams {
        #[serde(rename = "requestId")]
        request_id: Box<RawValue>,
    }
    let cancelled: Cancelled = serde_json::from_slice(bytes).ok()?;
    Id::parse(cancelled.params.request_id)
}

fn invalid_request(id: Id, detail: &str) -> Response {
    ErrorObject::invalid_request(detail).respond(id)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::jsonrpc::to_json;

    fn classified(text: &str) -> Result<Incoming, Value> {
        parse(text.as_bytes()).map_err(|response| to_json(&response))
    }

    fn request_id(text: &str) -> String {
        match classified(text) {
            Ok(Incoming::Request(request)) => serde_json::to_string(&request.id).unwrap(),
            other => panic!("not a request: {other:?}"),
        }
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        let request = classified(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        let Incoming::Request(request) = request else {
            panic!("a request");
        };
        assert_eq!((request.id, request.method), (Id::from(7), Method::Ping));
        let notification =
            classified(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(matches!(
            notification,
            Incoming::Notification { cancels: None, .. }
        ));
        let response = classified(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).unwrap();
        assert!(matches!(
            response,
            Incoming::Response(Reply {
                outcome: Ok(Value::Null),
                ..
            })
        ));
        let refused =
            classified(r#"{"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"no"}}"#);
        let Ok(Incoming::Response(Reply {
            id,
            outcome: Err(error),
        })) = refused
        else {
            panic!("an error response");
        };
        assert_eq!((id.key(), error.code), (r#""s1""#.to_owned(), -1));
        let batch = classified(r#" [{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).unwrap();
        assert!(matches!(batch, Incoming::Batch(items) if items.len() == 1));
    }

    #[test]
    fn malformed_messages_get_the_error_the_spec_names() {
        let parse_error = classified("{").unwrap_err();
        assert_eq!(parse_error["error"]["code"], codes::PARSE_ERROR);
        assert_eq!(parse_error["id"], Value::Null);
        assert_eq!(
            classified("nul").unwrap_err()["error"]["code"],
            codes::PARSE_ERROR
        );
        let no_version = classified(r#"{"id":3,"method":"ping"}"#).unwrap_err();
        assert_eq!(no_version["error"]["code"], codes::INVALID_REQUEST);
        assert_eq!(no_version["id"], 3, "a readable id is kept");
        let array_params = classified(r#"{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}"#);
        assert_eq!(
            array_params.unwrap_err()["error"]["code"],
            codes::INVALID_PARAMS
        );
        let null_params = classified(r#"{"jsonrpc":"2.0","id":"a","method":"x","params":null}"#);
        assert_eq!(
            null_params.unwrap_err()["error"]["code"],
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
        assert_eq!(
            classified("5").unwrap_err()["error"]["code"],
            codes::INVALID_REQUEST
        );
        // A notification with bad params is still a notification, and never answered.
        let notification = classified(r#"{"jsonrpc":"2.0","method":"n","params":3}"#).unwrap();
        assert!(matches!(
            notification,
            Incoming::Notification { params: None, .. }
        ));
    }

    #[test]
    fn a_lone_surrogate_is_read_as_a_replacement_character() {
        let text = |message: &str| {
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"arguments":{{"s":"{message}"}}}}}}"#
            );
            match classified(&line) {
                Ok(Incoming::Request(request)) => request.params.unwrap()["arguments"]["s"].clone(),
                other => panic!("not a request: {other:?}"),
            }
        };
        assert_eq!(text(r"\ud83d"), "\u{FFFD}");
        assert_eq!(text(r"a\udc00b"), "a\u{FFFD}b");
        assert_eq!(text(r"\ud83d\ud83d\ude00"), "\u{FFFD}\u{1F600}");
        assert_eq!(text(r"\\ud83d\ud83d"), "\\ud83d\u{FFFD}");
        assert_eq!(replace_lone_surrogates(br#""\ud83d\ude00 \\ud83d""#), None);
    }

    #[test]
    fn an_unreadable_message_is_answered_with_its_id_when_it_can_be_read() {
        let broken = classified(r#"{"jsonrpc":"2.0","id":"x1","method":"ping","params":{"#);
        assert_eq!(broken.unwrap_err()["id"], "x1");
        let id_after = classified(r#"{"jsonrpc":"2.0","method":"ping",,"id":3}"#);
        assert_eq!(id_after.unwrap_err()["id"], Value::Null);
        let bad_id = classified(r#"{"id":1.5,"jsonrpc":"#);
        assert_eq!(
            bad_id.unwrap_err()["id"],
            Value::Null,
            "not an id MCP allows"
        );
    }

    #[test]
    fn a_broken_response_of_the_client_is_not_answered_with_its_id() {
        // Its id is one of ours; the client may use the same id for a request of its own.
        for broken in [
            r#"{"jsonrpc":"2.0","id":3,"result":{"x":"#,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":"#,
            r#"{"result":{},"jsonrpc":"2.0","id":3,"x":"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"m","result":{},"x":"#,
            r#"{"jsonrpc":"2.0","id":3,"params":{"#,
        ] {
            assert_eq!(
                classified(broken).unwrap_err()["id"],
                Value::Null,
                "{broken}"
            );
            assert_eq!(id_of(broken.as_bytes()).key(), "null", "{broken}");
        }
        let request = r#"{"jsonrpc":"2.0","id":3,"method":"m","params":{"#;
        assert_eq!(classified(request).unwrap_err()["id"], 3);
        assert_eq!(id_of(request.as_bytes()).key(), "3");
    }

    #[test]
    fn notifications_and_responses_are_told_without_a_parse() {
        assert!(answers_nothing(
            br#"{"jsonrpc":"2.0","method":"n","params":{}}"#
        ));
        assert!(answers_nothing(
            br#"{"jsonrpc":"2.0","id":1,"result":{"x":[0]}}"#
        ));
        assert!(answers_nothing(
            br#"{"error":{"code":1},"id":1,"jsonrpc":"2.0"}"#
        ));
        assert!(!answers_nothing(
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        ));
        assert!(!answers_nothing(br#"{"id":1,"method":"m","result":1}"#));
        assert!(!answers_nothing(b"[]"));
    }

    #[test]
    fn members_of_params_no_method_reads_are_not_kept() {
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","junk":[0,[1],{"a":2}],"arguments":{"junk":1},"_meta":{}}}"#;
        let Ok(Incoming::Request(request)) = classified(text) else {
            panic!("a request");
        };
        let held = request.held_bytes();
        assert!((100..1000).contains(&held), "{held}");
        let params = request.params.unwrap();
        let kept: Vec<&str> = params.keys().map(String::as_str).collect();
        assert_eq!(kept, ["name", "arguments", "_meta"]);
        assert_eq!(
            params["arguments"],
            json!({"junk": 1}),
            "arguments are the tool's"
        );
    }

    /// One realistic request of every method the dispatcher serves, each member it reads
    /// included: every one must survive the parse ([`PARAMS_READ`]). The in-process
    /// `TestClient` does not go through `parse`, so a member missing from `PARAMS_READ` would
    /// pass every in-process test and fail on the wire. **Whoever adds a method to the
    /// dispatcher (or a member a method reads) adds it here.**
    #[test]
    fn every_member_a_method_reads_survives_the_parse() {
        let modern_meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            "io.modelcontextprotocol/logLevel": "debug",
            "progressToken": "p1",
            "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "tracestate": "vendor=1",
        });
        let messages = [
            (
                "initialize",
                json!({"protocolVersion": "2025-11-25",
                    "capabilities": {"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}},
                    "clientInfo": {"name": "c", "version": "1"}, "_meta": {}}),
            ),
            ("ping", json!({"_meta": {"progressToken": 1}})),
            ("logging/setLevel", json!({"level": "debug", "_meta": {}})),
            ("server/discover", json!({"_meta": modern_meta})),
            (
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true, "resourcesListChanged": true},
                    "_meta": modern_meta}),
            ),
            ("tools/list", json!({"cursor": "c2", "_meta": modern_meta})),
            (
                "tools/call",
                json!({"name": "add-task", "arguments": {"title": "t", "tags": ["a"]},
                    "requestState": "sealed", "inputResponses": {"priority": {"action": "accept",
                    "content": {"priority": "high"}}}, "_meta": modern_meta}),
            ),
            ("resources/list", json!({"cursor": "c1", "_meta": {}})),
            (
                "resources/templates/list",
                json!({"cursor": "c1", "_meta": {}}),
            ),
            (
                "resources/read",
                json!({"uri": "file:///notes/1", "_meta": {}}),
            ),
        ];
        for (method, params) in messages {
            let text =
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
            let Ok(Incoming::Request(request)) = classified(&text) else {
                panic!("{method}: not a request");
            };
            assert_eq!(
                request.params.map(Value::Object),
                Some(params),
                "{method}: a member it reads was dropped (add it to PARAMS_READ)"
            );
        }
    }

    #[test]
    fn the_members_of_meta_nothing_reads_are_not_kept() {
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{
            "io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{"x":{"y":[1]}},
            "io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},
            "progressToken":7,"vendor/extra":[1,2,3]}}}"#;
        let Ok(Incoming::Request(request)) = classified(text) else {
            panic!("a request");
        };
        assert_eq!(
            request.params.unwrap()["_meta"],
            json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"x": {"y": [1]}},
                "progressToken": 7,
            })
        );
        // A `_meta` that is no object carries nothing read.
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":"text"}}"#;
        let Ok(Incoming::Request(request)) = classified(text) else {
            panic!("a request");
        };
        assert_eq!(request.params.unwrap()["_meta"], Value::Null);
    }

    #[test]
    fn ids_are_kept_exactly_and_only_strings_and_integers_are_ids() {
        let big = r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#;
        assert_eq!(request_id(big), "18446744073709551616");
        let negative = r#"{"jsonrpc":"2.0","id":-98765432109876543210,"method":"ping"}"#;
        assert_eq!(request_id(negative), "-98765432109876543210");
        assert_eq!(
            request_id(r#"{"jsonrpc":"2.0","id":"a\u0062","method":"ping"}"#),
            r#""a\u0062""#
        );
        for not_an_id in ["1.5", "1e2", "true", "null", "[1]"] {
            let text = format!(r#"{{"jsonrpc":"2.0","id":{not_an_id},"method":"ping"}}"#);
            let error = classified(&text).unwrap_err();
            assert_eq!(
                error["error"]["code"],
                codes::INVALID_REQUEST,
                "{not_an_id}"
            );
            assert_eq!(error["id"], Value::Null, "{not_an_id}");
        }
        // Two big ids that one float would confuse are two keys; a string is not a number.
        let key = |text: &str| {
            Id::parse(RawValue::from_string(text.into()).unwrap())
                .unwrap()
                .key()
        };
        assert_ne!(key("18446744073709551616"), key("18446744073709551617"));
        assert_ne!(key("1"), key(r#""1""#));
        assert_eq!(key(r#""a\u0062""#), key(r#""ab""#), "escapes resolved");
        assert_eq!(
            Id::parse(RawValue::from_string("7".into()).unwrap())
                .unwrap()
                .to_value(),
            json!(7)
        );
        let big = Id::parse(RawValue::from_string("18446744073709551616".into()).unwrap()).unwrap();
        assert_eq!(big.to_value(), json!("18446744073709551616"));
    }

    #[test]
    fn a_cancellation_names_its_request_exactly() {
        let text = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":18446744073709551617}}"#;
        let Ok(Incoming::Notification {
            cancels: Some(id), ..
        }) = classified(text)
        else {
            panic!("a cancellation");
        };
        assert_eq!(id.key(), "18446744073709551617");
    }
}
