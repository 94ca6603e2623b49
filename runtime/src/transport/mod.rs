//! The ways a server is reached: stdio (what hosts launch) and Streamable HTTP.

pub(crate) mod http;
pub(crate) mod stdio;

/// Sends `tracing` output to stderr (stdout belongs to the protocol), filtered by `RUST_LOG`
/// (default `info`), unless the application installed a subscriber of its own.
pub(crate) fn init_stderr_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
