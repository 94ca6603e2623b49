//! The JSON-RPC messages a run sends, and the check of every reply.

use serde_json::{Value, json};

use crate::{Era, Error, Mode};

/// The echoed message: 64 bytes.
pub const PAYLOAD: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// The legacy version the driver negotiates.
pub const LEGACY_VERSION: &str = "2025-11-25";

/// The stateless version.
pub const MODERN_VERSION: &str = "2026-07-28";

/// `initialize` at [`LEGACY_VERSION`].
#[must_use]
pub fn initialize(id: u64) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": LEGACY_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "mcp-bench", "version": "0.1.0"},
        },
    })
    .to_string()
}

/// `notifications/initialized`.
#[must_use]
pub fn initialized() -> String {
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned()
}

/// The `_meta` every 2026-07-28 request carries.
#[must_use]
pub fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-bench", "version": "0.1.0"},
    })
}

/// Request `id` of the run's mode (`tools/call echo` or `tools/list`) in the run's era.
#[must_use]
pub fn request(id: u64, mode: Mode, era: Era) -> String {
    let mut params = match mode {
        Mode::List | Mode::FirstPage | Mode::AllPages => json!({}),
        Mode::Call | Mode::Startup => json!({"name": "echo", "arguments": {"message": PAYLOAD}}),
    };
    if era == Era::Modern {
        params["_meta"] = modern_meta();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method(mode), "params": params}).to_string()
}

/// The method of `mode`'s requests.
#[must_use]
pub fn method(mode: Mode) -> &'static str {
    match mode {
        Mode::List | Mode::FirstPage | Mode::AllPages => "tools/list",
        Mode::Call | Mode::Startup => "tools/call",
    }
}

/// `tools/list` (legacy era) for the page after `cursor`, or the first.
#[must_use]
pub fn list(id: u64, cursor: Option<&str>) -> String {
    let params = cursor.map_or_else(|| json!({}), |cursor| json!({"cursor": cursor}));
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}).to_string()
}

/// What a line read from the server was.
pub enum Reply {
    /// The answer to request `id`, checked.
    Answer(u64),
    /// A notification or a request of the server: not counted.
    Other,
}

/// Reads one message and checks it: an answer must carry a numeric id and the result `mode`
/// expects (the echoed payload, a list of tools, the server's info).
pub fn check(line: &[u8], mode: Mode) -> Result<Reply, Error> {
    let message: Value = serde_json::from_slice(line)
        .map_err(|error| format!("not JSON ({error}): {}", String::from_utf8_lossy(line)))?;
    let Some(id) = message.get("id") else {
        return Ok(Reply::Other);
    };
    if message.get("method").is_some() {
        return Ok(Reply::Other);
    }
    let id = id
        .as_u64()
        .ok_or_else(|| format!("an answer with an unexpected id: {message}"))?;
    let result = message
        .get("result")
        .ok_or_else(|| format!("an error answer: {message}"))?;
    let good = match mode {
        Mode::Call => {
            result.get("isError") != Some(&Value::Bool(true))
                && result["content"][0]["text"] == PAYLOAD
        }
        Mode::List | Mode::FirstPage | Mode::AllPages => result["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty()),
        Mode::Startup => true,
    };
    if !good {
        return Err(format!("an unexpected result: {message}").into());
    }
    Ok(Reply::Answer(id))
}
