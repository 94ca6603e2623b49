//! The Model Context Protocol, transport-free: JSON-RPC framing, both protocol eras, and the
//! dispatcher that the stdio transport, the HTTP transport and the test client all drive.
//!
//! Two eras are served side by side. A request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` is *modern* (2026-07-28, stateless) and is answered
//! from that request alone. Anything else is *legacy* (2024-11-05 … 2025-11-25): it belongs to the
//! connection that `initialize` opened (the stdio process, or an HTTP session), whose negotiated
//! version decides the shape of every result.

mod dispatch;
mod in_flight;
mod jsonrpc;
mod shape;

pub(crate) use dispatch::{
    Connection, Dispatcher, Exchange, claims_modern, envelope_error, with_timeout,
};
pub(crate) use in_flight::{InFlight, Ticket};
pub use jsonrpc::{ErrorObject, codes};
pub(crate) use jsonrpc::{Incoming, parse};
pub use shape::ListToolsResult;

/// The legacy (`initialize`) protocol versions we speak, oldest first.
pub const LEGACY_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The modern (per-request `_meta`) protocol versions we speak.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// The newest legacy version: what `initialize` answers when it does not know the client's.
pub const LATEST_LEGACY_VERSION: &str = "2025-11-25";

/// The only legacy version with JSON-RPC batches.
pub const BATCH_VERSION: &str = "2025-03-26";

/// `_meta` keys of the modern era.
pub mod meta {
    /// The request's protocol version (required on every modern request).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// The client's capabilities (required on every modern request).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The client's name and version (optional).
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The least severe log level the client wants for this request (optional).
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// The server's name and version, stamped on every modern result.
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// The `subscriptions/listen` stream a notification belongs to: the listen request's id.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}
