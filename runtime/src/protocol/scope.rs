//! What one request brings besides its message, from the transport to the dispatcher (and on
//! to `subscriptions/listen`, which holds it for the stream's life).

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Room;
use crate::ask::pending::Pending;
use crate::context::AuthInfo;
use crate::jsonrpc::OutgoingSender;

/// What one request brings besides its message: where its notifications go, how it is
/// cancelled, and what the transport knows of the caller.
pub(crate) struct RequestScope {
    pub(crate) notifications: OutgoingSender,
    /// Where the client's answers to a legacy call's questions come back, when they can.
    pub(crate) pending: Option<Arc<Pending>>,
    pub(crate) cancellation: CancellationToken,
    pub(crate) auth: Option<Arc<AuthInfo>>,
    /// The client's address, when the transport has one (HTTP: the peer, or behind a trusted
    /// proxy the address it forwarded): who a caller without a token is counted as by the rate
    /// limits.
    pub(crate) address: Option<std::net::IpAddr>,
    /// The transport's own time limit on this request (HTTP's request time), when it has one:
    /// a tool call is bounded by it or by the server's call time limit, whichever is shorter.
    pub(crate) time_limit: Option<Duration>,
    /// Room in its output for the changes a `subscriptions/listen` stream sends (`None`: the
    /// output takes them without bound, as the test client's does).
    pub(crate) room: Option<Room>,
}
