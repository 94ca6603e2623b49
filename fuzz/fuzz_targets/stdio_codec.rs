//! The stdio line reader: any bytes, any line limit, any buffer size. Every line it gives is
//! within the limit and holds no newline; the lines it keeps and drops add up to the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_toolbelt::__fuzz::stdio_lines;
use mcp_toolbelt_fuzz::runtime;

fuzz_target!(|data: &[u8]| {
    let [max, capacity, input @ ..] = data else {
        return;
    };
    let max = usize::from(*max);
    let lines = runtime().block_on(stdio_lines(input, max, usize::from(*capacity)));
    // Each line with whether a newline ended it: only then is a `\r` before it no content.
    let mut expected: Vec<(&[u8], bool)> = input
        .split(|&byte| byte == b'\n')
        .map(|line| (line, true))
        .collect();
    if let Some(last) = expected.pop()
        && !last.0.is_empty()
    {
        expected.push((last.0, false));
    }
    assert_eq!(lines.len(), expected.len(), "one outcome per line");
    for (line, (raw, ended)) in lines.iter().zip(expected) {
        let content = if ended {
            raw.strip_suffix(b"\r").unwrap_or(raw)
        } else {
            raw
        };
        match line {
            Some(line) => {
                assert_eq!(line.as_slice(), raw, "a line is kept whole");
                assert!(content.len() <= max, "a kept line is within the limit");
            }
            None => assert!(content.len() > max, "only a line over the limit is dropped"),
        }
    }
});
