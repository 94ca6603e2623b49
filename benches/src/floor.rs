//! What both floors (`floor-stdio`, `floor-http`) answer: `initialize`, `tools/list` and
//! `tools/call echo`, each in the era its request speaks. A 2026-07-28 request has its `_meta`
//! envelope checked (a supported version, else `-32022`; declared client capabilities, else
//! `-32602`) and its result stamped with `resultType` and the server's info. Written as the
//! legacy floor is (the whole request parsed into a `Value`, the answer built with `json!`),
//! which at 2026-07-28 is no tight bound: the runtime, which keeps only what it reads of
//! `_meta` and writes the stamp from bytes serialized once, spends less. No validation,
//! sessions, capabilities or HTTP headers read: a reference, not a server.

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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::messages::{PAYLOAD, modern_meta};

    fn call(meta: Option<Value>) -> Value {
        let mut params = json!({"name": "echo", "arguments": {"message": PAYLOAD}});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
    }

    #[test]
    fn a_call_is_answered_in_the_era_it_speaks() {
        assert_eq!(
            answer(&call(None)),
            Some(json!({"jsonrpc": "2.0", "id": 7, "result": {
                "content": [{"type": "text", "text": PAYLOAD}],
                "isError": false,
            }}))
        );
        assert_eq!(
            answer(&call(Some(modern_meta()))),
            Some(json!({"jsonrpc": "2.0", "id": 7, "result": {
                "content": [{"type": "text", "text": PAYLOAD}],
                "isError": false,
                "resultType": "complete",
                "_meta": {SERVER_INFO: {"name": "floor", "version": "0"}},
            }}))
        );
    }

    #[test]
    fn a_wrong_envelope_is_refused_and_a_notification_unanswered() {
        let mut unknown_version = modern_meta();
        unknown_version[PROTOCOL_VERSION] = json!("2099-01-01");
        let mut no_capabilities = modern_meta();
        no_capabilities
            .as_object_mut()
            .unwrap()
            .remove(CLIENT_CAPABILITIES);
        for (meta, code) in [(unknown_version, -32022), (no_capabilities, -32602)] {
            let refused = answer(&call(Some(meta))).unwrap();
            assert_eq!(refused["error"]["code"], code, "{refused}");
        }
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(answer(&initialized), None);
    }
}
