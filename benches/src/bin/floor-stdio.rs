//! The stdio floor: what this machine can do with a hand-written, single-threaded `serde_json`
//! loop serving `initialize`, `tools/list` and `tools/call echo`. It writes into a buffer and
//! flushes only when no request is waiting in its input buffer. No validation, no concurrency,
//! no cancellation: a bound, not a server.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde_json::{Value, json};

fn main() -> io::Result<()> {
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        let Ok(request) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        if let Some(answer) = answer(&request) {
            serde_json::to_writer(&mut output, &answer)?;
            output.write_all(b"\n")?;
        }
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
}

/// The answer to `request`, or `None` for a notification.
fn answer(request: &Value) -> Option<Value> {
    let id = request.get("id")?;
    let result = match request["method"].as_str() {
        Some("initialize") => json!({
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "floor", "version": "0"},
        }),
        Some("tools/list") => json!({"tools": [{
            "name": "echo",
            "description": "Echo the message back",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
        }]}),
        Some("tools/call") => {
            let message = &request["params"]["arguments"]["message"];
            json!({"content": [{"type": "text", "text": message}], "isError": false})
        }
        _ => {
            return Some(
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
            );
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}
