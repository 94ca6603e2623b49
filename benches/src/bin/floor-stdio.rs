//! The stdio floor: what this machine can do with a hand-written, single-threaded `serde_json`
//! loop serving `initialize`, `tools/list` and `tools/call echo` in either era
//! ([`mcp_toolbelt_benches::floor`]). It writes into a buffer and flushes only when no request
//! is waiting in its input buffer. No validation, no concurrency, no cancellation: a bound, not
//! a server. With `--typed`, the tight floor ([`mcp_toolbelt_benches::floor::typed`]): the
//! request read into borrowed structs, the answer written as bytes.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use mcp_toolbelt_benches::floor;
use serde_json::Value;

fn main() -> io::Result<()> {
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let typed = std::env::args().skip(1).any(|arg| arg == "--typed");
    let (mut line, mut answered) = (Vec::new(), Vec::new());
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        if typed {
            answered.clear();
            if floor::typed::answer(&line, &mut answered) {
                answered.push(b'\n');
                output.write_all(&answered)?;
            }
        } else if let Ok(request) = serde_json::from_slice::<Value>(&line)
            && let Some(answer) = floor::answer(&request)
        {
            serde_json::to_writer(&mut output, &answer)?;
            output.write_all(b"\n")?;
        }
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
}
