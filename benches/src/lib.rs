//! The load driver behind `mcp-bench` and the numbers in `BENCHMARKS.md`: a client that keeps
//! a fixed number of `tools/call echo` (or `tools/list`) requests in flight against a server
//! over stdio or Streamable HTTP, checks every reply by its id, and reports throughput,
//! latency percentiles and the server's peak memory.
//!
//! Everything here is plain threads and blocking pipes on the stdio side (so the driver costs
//! less than the fastest server it measures) and hyper's HTTP/1 client on the HTTP side.

pub mod floor;
pub mod http;
pub mod messages;
pub mod report;
pub mod rss;
pub mod sessions;
pub mod stdio;

use std::time::Duration;

/// The era a run speaks: the legacy handshake (`initialize` at 2025-11-25) or 2026-07-28's
/// per-request `_meta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// `initialize` first, then requests of that connection (or HTTP session).
    Legacy,
    /// No handshake: every request carries its version and capabilities in `_meta`.
    Modern,
}

impl Era {
    /// The name used on the command line and in the table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Era::Legacy => "2025-11-25",
            Era::Modern => "2026-07-28",
        }
    }
}

/// What a run measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `tools/call echo` with a 64-byte message.
    Call,
    /// `tools/list`.
    List,
    /// Spawn to the first answer, once per call.
    Startup,
    /// Spawn to the answer of the first `tools/list` after the handshake, once per call (stdio).
    FirstPage,
    /// Spawn to the last page of `tools/list`, following `nextCursor`, once per call (stdio).
    AllPages,
}

impl Mode {
    /// The name used on the command line and in the table.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Call => "call",
            Mode::List => "list",
            Mode::Startup => "startup",
            Mode::FirstPage => "first-page",
            Mode::AllPages => "all-pages",
        }
    }
}

/// How one run is shaped.
#[derive(Clone, Debug)]
pub struct Load {
    /// Requests measured.
    pub calls: usize,
    /// Requests kept in flight (over HTTP: connections, one request each at a time).
    pub concurrency: usize,
    /// Requests sent before the measured ones, not counted.
    pub warmup: usize,
    /// The era spoken.
    pub era: Era,
    /// What is measured.
    pub mode: Mode,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Requests answered (all of them, or the run failed).
    pub calls: usize,
    /// From the first measured request sent to the last reply read.
    pub elapsed: Duration,
    /// Each request's latency, sorted.
    pub latencies: Vec<Duration>,
    /// The server's peak resident memory, summed over its process tree (`VmHWM`), in bytes
    /// (for start-up modes: its resident size right after answering `initialize`).
    pub peak_rss: u64,
    /// The CPU time the server's threads ran during the measured requests (zero for start-up).
    pub server_cpu: Duration,
}

impl Measured {
    /// Requests answered per second.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52 requests")]
    pub fn rate(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64()
    }

    /// The server's CPU time per request, in microseconds.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52 requests")]
    pub fn cpu_micros_per_call(&self) -> f64 {
        self.server_cpu.as_secs_f64() * 1e6 / self.calls.max(1) as f64
    }

    /// The server's peak memory in MiB.
    #[must_use]
    #[allow(clippy::cast_precision_loss, reason = "sizes far below 2^52 bytes")]
    pub fn peak_rss_mib(&self) -> f64 {
        self.peak_rss as f64 / (1024.0 * 1024.0)
    }

    /// The latency below which `fraction` of the requests were answered.
    #[must_use]
    pub fn percentile(&self, fraction: f64) -> Duration {
        let Some(last) = self.latencies.len().checked_sub(1) else {
            return Duration::ZERO;
        };
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "an index into a list of at most millions"
        )]
        let at = ((last as f64) * fraction).round() as usize;
        self.latencies[at.min(last)]
    }
}

/// An error of a run, as text for the person running it.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
