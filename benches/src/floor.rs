//! What both floors (`floor-stdio`, `floor-http`) answer: `initialize`, `tools/list` and
//! `tools/call echo`, each in the era its request speaks. A 2026-07-28 request has its `_meta`
//! envelope checked (a supported version, else `-32022`; declared client capabilities, else
//! `-32602`) and its result stamped with `resultType` and the server's info. Written as the
//! legacy floor is (the whole request parsed into a `Value`, the answer built with `json!`),
//! which at 2026-07-28 is no tight bound: the runtime, which keeps only what it reads of
//! `_meta` and writes the stamp from bytes serialized once, spends less. [`typed`] is the tight
//! one. No validation, sessions, capabilities or HTTP headers read: a reference, not a server.

use serde_json::{Value, json};

use crate::messages::MODERN_VERSION;

const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The answer to `request`, or `None` for a notification.
#[must_use]
pub fn answer(request: &Value) -> Option<Value> {
    let id = request.get("id")?;
    let params = &request["params"];
    let modern = match params["_meta"].get(PROTOCOL_VERSION) {
        None => false,
        Some(version) if version != MODERN_VERSION => {
            let mut refused = error(id, -32022, "Unsupported protocol version");
            refused["error"]["data"] = json!({"supported": [MODERN_VERSION], "requested": version});
            return Some(refused);
        }
        Some(_) if !params["_meta"][CLIENT_CAPABILITIES].is_object() => {
            return Some(error(
                id,
                -32602,
                "missing required `_meta.clientCapabilities`",
            ));
        }
        Some(_) => true,
    };
    let mut result = match request["method"].as_str() {
        Some("initialize") => json!({
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "floor", "version": "0"},
        }),
        Some("tools/list") => json!({"tools": [{
            "name": "echo",
            "description": "Echo the message back",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
        }]}),
        Some("tools/call") => {
            let message = &params["arguments"]["message"];
            json!({"content": [{"type": "text", "text": message}], "isError": false})
        }
        _ => return Some(error(id, -32601, "Method not found")),
    };
    if modern {
        result["resultType"] = json!("complete");
        result["_meta"] = json!({ SERVER_INFO: {"name": "floor", "version": "0"} });
    }
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The tight floor: the same answers, with the request read into borrowed structs that skip
/// every member nothing reads (`clientInfo` and the rest) and the answer written as bytes (the
/// echoed message copied as the client escaped it, the 2026-07-28 stamp a constant). What a
/// server that parses nothing it need not could cost; `floor-stdio --typed` serves with it.
pub mod typed {
    use std::borrow::Cow;

    use serde::Deserialize;
    use serde_json::value::RawValue;

    use crate::messages::MODERN_VERSION;

    #[derive(Deserialize)]
    struct Request<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
        #[serde(borrow)]
        method: Cow<'a, str>,
        #[serde(borrow)]
        params: Option<Params<'a>>,
    }

    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(borrow)]
        arguments: Option<Arguments<'a>>,
        #[serde(borrow, rename = "protocolVersion")]
        protocol_version: Option<&'a RawValue>,
        #[serde(borrow, rename = "_meta")]
        meta: Option<Meta<'a>>,
    }

    #[derive(Deserialize)]
    struct Arguments<'a> {
        #[serde(borrow)]
        message: Option<&'a RawValue>,
    }

    #[derive(Deserialize)]
    struct Meta<'a> {
        #[serde(borrow, rename = "io.modelcontextprotocol/protocolVersion")]
        version: Option<Cow<'a, str>>,
        #[serde(borrow, rename = "io.modelcontextprotocol/clientCapabilities")]
        capabilities: Option<&'a RawValue>,
    }

    const STAMP: &str = r#","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"floor","version":"0"}}"#;
    const TOOLS: &str = r#"{"tools":[{"name":"echo","description":"Echo the message back","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}]"#;

    /// Writes the answer to the request in `line` into `out`; `false` when there is none (a
    /// notification, or no JSON-RPC request at all).
    pub fn answer(line: &[u8], out: &mut Vec<u8>) -> bool {
        let Ok(request) = serde_json::from_slice::<Request<'_>>(line) else {
            return false;
        };
        let Some(id) = request.id else {
            return false;
        };
        let params = request.params.as_ref();
        let modern = match params.and_then(|params| params.meta.as_ref()) {
            Some(Meta {
                version: Some(version),
                capabilities,
            }) => {
                if version != MODERN_VERSION {
                    let requested = serde_json::Value::from(&**version);
                    let data =
                        format!(r#"{{"supported":["{MODERN_VERSION}"],"requested":{requested}}}"#);
                    error(out, id, -32022, "Unsupported protocol version", Some(&data));
                    return true;
                }
                if !capabilities.is_some_and(|raw| raw.get().starts_with('{')) {
                    let message = "missing required `_meta.clientCapabilities`";
                    error(out, id, -32602, message, None);
                    return true;
                }
                true
            }
            _ => false,
        };
        let head = |out: &mut Vec<u8>| {
            out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            out.extend_from_slice(id.get().as_bytes());
            out.extend_from_slice(br#","result":"#);
        };
        match &*request.method {
            "tools/call" => {
                let message = params
                    .and_then(|params| params.arguments.as_ref())
                    .and_then(|arguments| arguments.message)
                    .map_or("null", RawValue::get);
                head(out);
                out.extend_from_slice(br#"{"content":[{"type":"text","text":"#);
                out.extend_from_slice(message.as_bytes());
                out.extend_from_slice(br#"}],"isError":false"#);
            }
            "tools/list" => {
                head(out);
                out.extend_from_slice(TOOLS.as_bytes());
            }
            "initialize" => {
                let version = params
                    .and_then(|params| params.protocol_version)
                    .map_or("null", RawValue::get);
                head(out);
                out.extend_from_slice(br#"{"protocolVersion":"#);
                out.extend_from_slice(version.as_bytes());
                out.extend_from_slice(
                    br#","capabilities":{"tools":{}},"serverInfo":{"name":"floor","version":"0"}"#,
                );
            }
            _ => {
                error(out, id, -32601, "Method not found", None);
                return true;
            }
        }
        if modern {
            out.extend_from_slice(STAMP.as_bytes());
        }
        out.extend_from_slice(b"}}");
        true
    }

    /// An error answer; `message` needs no escaping, `data` is JSON.
    fn error(out: &mut Vec<u8>, id: &RawValue, code: i64, message: &str, data: Option<&str>) {
        out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        out.extend_from_slice(id.get().as_bytes());
        out.extend_from_slice(
            format!(r#","error":{{"code":{code},"message":"{message}""#).as_bytes(),
        );
        if let Some(data) = data {
            out.extend_from_slice(br#","data":"#);
            out.extend_from_slice(data.as_bytes());
        }
        out.extend_from_slice(b"}}");
    }
}
