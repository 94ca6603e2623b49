//! One JSON-RPC message into an in-process server over the stdio framing, in either era: the
//! first byte picks a legacy version (after `initialize`) or 2026-07-28 (the envelope added to
//! `params._meta`). Every line out must be a JSON-RPC message, and a request gets exactly one
//! response with its id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_toolbelt_fuzz::{LEGACY, initialize_lines, is_response, request_id, serve, with_envelope};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, message)) = data.split_first() else {
        return;
    };
    let legacy = LEGACY.get(usize::from(mode % 5));
    let (mut input, message) = match legacy {
        Some(version) => (initialize_lines(version), message.to_vec()),
        None => (Vec::new(), with_envelope(message)),
    };
    input.extend_from_slice(&message);
    let mut written = serve(&input);
    if legacy.is_some() {
        // The answer to `initialize`, first: the message may reuse its id.
        assert_eq!(written.remove(0)["id"], "init");
    }
    let Some(id) = request_id(&message).filter(|_| !message.contains(&b'\n')) else {
        return;
    };
    // A call that asked the client a question waits for an answer that never comes: at the end
    // of input it is dropped unanswered, as a call whose client left.
    if written
        .iter()
        .any(|message| !is_response(message) && message.get("id").is_some())
    {
        return;
    }
    let answers = written
        .iter()
        .filter(|message| is_response(message) && message["id"] == id)
        .count();
    assert_eq!(answers, 1, "{id} answered {answers} times: {written:?}");
});
