//! The limits every transport shares, in one place: set on [`crate::Server`], read by the
//! dispatcher (a call's time limit), the call lifecycle (calls in flight, batch items) and stdio
//! (line length, output queue). HTTP's own limits are in `HttpConfig`. README "Limits" is the
//! table of them all.

use std::time::Duration;

/// What one connection may ask of the server at once, and for how long.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// How long one tool call may run before it is stopped and answered with an `isError`
    /// result.
    pub(crate) call_timeout: Duration,
    /// Calls one connection (stdio, a legacy HTTP session) may have running at once; past it a
    /// request is refused at once with `codes::SERVER_BUSY`.
    pub(crate) max_calls_in_flight: usize,
    /// Items one JSON-RPC batch (2025-03-26) may hold; a longer batch is refused whole.
    pub(crate) max_batch_items: usize,
    /// The longest stdio line, in bytes.
    pub(crate) max_line_bytes: usize,
    /// Answers waiting to be written to stdio before the server stops reading input; and,
    /// counted apart, notifications waiting before tools' progress and log notifications are
    /// dropped.
    pub(crate) max_queued_messages: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            call_timeout: Duration::from_mins(5),
            max_calls_in_flight: 1024,
            max_batch_items: 1024,
            max_line_bytes: 4 * 1024 * 1024,
            max_queued_messages: 1024,
        }
    }
}
