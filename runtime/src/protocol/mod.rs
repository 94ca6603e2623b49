//! The protocol versions this server speaks and the `_meta` keys of the 2026-07-28 era, for tests
//! and clients that build requests by hand and for code that reads a request's `_meta`.
//!
//! ```
//! use mcp_toolbelt::protocol::{LATEST_LEGACY_VERSION, LEGACY_VERSIONS, meta};
//!
//! assert_eq!(LEGACY_VERSIONS.last(), Some(&LATEST_LEGACY_VERSION));
//! assert_eq!(meta::PROTOCOL_VERSION, "io.modelcontextprotocol/protocolVersion");
//! ```

// Inside the crate this module is the protocol, transport-free: both eras, the version rules,
// and the dispatcher that turns one request into one response. Two eras are served side by
// side. A request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` is
// *modern* (2026-07-28, stateless) and is answered from that request alone. Anything else is
// *legacy* (2024-11-05 … 2025-11-25): it belongs to the connection that `initialize` opened (the
// stdio process, or an HTTP session), whose negotiated version decides the shape of every result.

mod changes;
mod complete;
mod connection;
mod dispatch;
mod downgrade;
mod era;
mod listen;
mod listing;
mod prompts;
pub(crate) mod resources;
mod scope;
#[cfg(feature = "skills")]
mod skills;
mod subscriptions;
mod tasks;
mod trace;
mod transport;
mod version;

pub(crate) use changes::{CHANNEL_CAPACITY, Change, ChangeSender, Changes, Heard, Room};
pub(crate) use connection::Connection;
pub(crate) use dispatch::{Dispatcher, ServerState, VisibilityRule};
#[cfg(feature = "http")]
pub(crate) use dispatch::{refused, scope_refusal};
pub(crate) use era::claims_modern;
#[cfg(feature = "http")]
pub(crate) use era::envelope_error;
pub(crate) use listing::Listings;
pub(crate) use scope::RequestScope;
#[cfg(any(feature = "redis", all(test, feature = "http")))]
pub(crate) use subscriptions::Lists;
pub(crate) use transport::Transport;
pub(crate) use version::ProtocolVersion;

/// The legacy (`initialize`) protocol versions we speak, oldest first.
pub const LEGACY_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The modern (per-request `_meta`) protocol versions we speak.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// The newest legacy version: what `initialize` answers when it does not know the client's.
pub const LATEST_LEGACY_VERSION: &str = ProtocolVersion::LATEST_LEGACY.as_str();

/// The only legacy version with JSON-RPC batches.
pub const BATCH_VERSION: &str = ProtocolVersion::V2025_03_26.as_str();

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_version_lists_are_the_typed_ones() {
        assert_eq!(
            LEGACY_VERSIONS,
            ProtocolVersion::names(&ProtocolVersion::LEGACY)
        );
        assert_eq!(
            MODERN_VERSIONS,
            ProtocolVersion::names(&ProtocolVersion::MODERN)
        );
    }
}
