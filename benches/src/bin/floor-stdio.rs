//! The stdio floor: what this machine can do with a hand-written, single-threaded `serde_json`
//! loop serving `initialize`, `tools/list` and `tools/call echo` in either era
//! ([`mcp_toolbelt_benches::floor`]). It writes into a buffer and flushes only when no request
//! is waiting in its input buffer. No validation, no concurrency, no cancellation: a bound, not
//! a server.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use mcp_toolbelt_benches::floor::answer;
use serde_json::Value;

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
