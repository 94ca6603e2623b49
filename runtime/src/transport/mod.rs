//! The ways a server is reached: stdio (what hosts launch) and Streamable HTTP (the `http`
//! feature). Each takes a [`Dispatcher`](crate::protocol::Dispatcher) and drives the call
//! lifecycle of [`crate::session`]; none knows the [`Server`](crate::Server) builder.

#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod stdio;
