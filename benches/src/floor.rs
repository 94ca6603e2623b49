//! What both floors (`floor-stdio`, `floor-http`) answer: `initialize`, `tools/list` and
//! `tools/call echo`, each in the era its request speaks. A 2026-07-28 request is answered as
//! that era requires and no more: its `_meta` envelope checked (a supported version, declared
//! client capabilities), its result stamped with `resultType` and the server's info. No
//! validation, sessions or capabilities read: a bound, not a server.

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
        Some(version)
            if version == MODERN_VERSION && params["_meta"][CLIENT_CAPABILITIES].is_object() =>
        {
            true
        }
        Some(_) => return Some(error(id, -32602, "Invalid _meta envelope")),
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
        for meta in [unknown_version, no_capabilities] {
            let refused = answer(&call(Some(meta))).unwrap();
            assert_eq!(refused["error"]["code"], -32602, "{refused}");
        }
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(answer(&initialized), None);
    }
}
